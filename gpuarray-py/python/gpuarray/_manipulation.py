"""Joining, rearranging, indexing and selection (concatenate ... take, where, clip, round),
and the index arithmetic Dask's arg reductions use (unravel_index, ravel_multi_index).
"""

from __future__ import annotations

import builtins
import operator

import numpy as np

from . import _gpuarray as _g
from ._core import _axis_tuple, _normalize_axes, _shape_tuple, asarray, broadcast_to, canon_dtype, ndarray
from ._registry import implements, _arr, _weak, _common_dtype, _cast, _out


# ---- joining and rearranging --------------------------------------------------------------

@implements(np.concatenate)
def concatenate(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    arrays = [_arr(a) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    dt = canon_dtype(dtype) if dtype is not None else _common_dtype(*arrays)
    arrays = [_cast(a, dt) for a in arrays]
    if axis is None:
        arrays = [a.reshape(-1) for a in arrays]
        axis = 0
    if builtins.any(a.ndim == 0 for a in arrays):
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    nd = arrays[0].ndim
    for a in arrays:
        if a.ndim != nd:
            raise ValueError(
                "all the input array dimensions except for the concatenation axis must match "
                "exactly, but along dimension 0, the array at index 0 has "
                f"{nd} dimension(s) and another has {a.ndim} dimension(s)"
            )
    axis = _normalize_axes((operator.index(axis),), nd)[0]
    res = ndarray._wrap(_g.join([a._a for a in arrays], axis, False))
    return _out(out, res)


@implements(np.stack)
def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    arrays = [_arr(a) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to stack")
    shapes = {a.shape for a in arrays}
    if len(shapes) != 1:
        raise ValueError("all input arrays must have the same shape")
    dt = canon_dtype(dtype) if dtype is not None else _common_dtype(*arrays)
    arrays = [_cast(a, dt) for a in arrays]
    axis = _normalize_axes((operator.index(axis),), arrays[0].ndim + 1)[0]
    return _out(out, ndarray._wrap(_g.join([a._a for a in arrays], axis, True)))


@implements(np.vstack)
def vstack(tup, *, dtype=None, casting="same_kind"):
    arrs = [_arr(a) for a in tup]
    arrs = [a.reshape(1, -1) if a.ndim < 2 else a for a in arrs]
    return concatenate(arrs, axis=0, dtype=dtype)


@implements(np.hstack)
def hstack(tup, *, dtype=None, casting="same_kind"):
    arrs = [_arr(a) for a in tup]
    arrs = [a.reshape(1) if a.ndim == 0 else a for a in arrs]
    return concatenate(arrs, axis=0 if arrs and arrs[0].ndim == 1 else 1, dtype=dtype)


@implements(np.split)
def split(ary, indices_or_sections, axis=0):
    a = _arr(ary)
    axis = _normalize_axes((operator.index(axis),), a.ndim)[0]
    n = a.shape[axis]
    if isinstance(indices_or_sections, (int, np.integer)):
        k = operator.index(indices_or_sections)
        if k <= 0:
            raise ValueError("number sections must be larger than 0.")
        if n % k:
            raise ValueError("array split does not result in an equal division")
        bounds = [i * (n // k) for i in range(k + 1)]
    else:
        bounds = [0, *[operator.index(i) for i in indices_or_sections], n]
    pre = (slice(None),) * axis
    # Views, exactly NumPy's slices (indices past the end or out of order give empty parts).
    return [a[pre + (slice(lo, hi),)] for lo, hi in zip(bounds[:-1], bounds[1:])]


@implements(np.flip)
def flip(m, axis=None):
    m = _arr(m)
    if axis is None:
        axes = range(m.ndim)
    else:
        axes = _normalize_axes(_axis_tuple(axis), m.ndim)
    key = [slice(None)] * m.ndim
    for ax in axes:
        key[ax] = slice(None, None, -1)
    return m[tuple(key)]


@implements(np.roll)
def roll(a, shift, axis=None):
    a = _arr(a)
    if axis is None:
        return ndarray._wrap(_g.roll(a._a, operator.index(shift), None))
    shifts = np.broadcast_to(np.asarray(shift), np.shape(axis)).reshape(-1).tolist() \
        if isinstance(axis, (tuple, list)) else [operator.index(shift)]
    axes = _normalize_axes(_axis_tuple(axis), a.ndim)
    if isinstance(shift, (tuple, list)) and not isinstance(axis, (tuple, list)):
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    if len(shifts) != len(axes):
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    out = a
    for s, ax in zip(shifts, axes):
        out = ndarray._wrap(_g.roll(out._a, int(s), ax))
    return out if out is not a else a.copy()


@implements(np.tile)
def tile(A, reps):
    A = _arr(A)
    reps = (operator.index(reps),) if isinstance(reps, (int, np.integer)) else tuple(
        operator.index(r) for r in reps)
    if builtins.any(r < 0 for r in reps):
        raise ValueError("negative dimensions are not allowed")
    d = len(reps)
    if d < A.ndim:
        reps = (1,) * (A.ndim - d) + reps
    elif A.ndim < d:
        A = A.reshape((1,) * (d - A.ndim) + A.shape)
    return ndarray._wrap(_g.tile(A._a, list(reps)))


@implements(np.repeat)
def repeat(a, repeats, axis=None):
    a = _arr(a)
    if axis is None:
        a, axis = a.reshape(-1), 0
    axis = _normalize_axes((operator.index(axis),), a.ndim)[0]
    if np.ndim(repeats) == 0:
        r = operator.index(repeats)
        if r < 0:
            raise ValueError("negative dimensions are not allowed")
        return ndarray._wrap(_g.repeat(a._a, r, axis))
    # Per-element counts: gather with the index list np.repeat(arange(n), counts).
    counts = np.asarray(repeats.get() if isinstance(repeats, ndarray) else repeats)
    n = a.shape[axis]
    idx = np.repeat(np.arange(n, dtype=np.int32), np.broadcast_to(counts, (n,)))
    return take(a, asarray(idx.astype(np.int32)), axis=axis)


@implements(np.pad)
def pad(array, pad_width, mode="constant", **kwargs):
    """``numpy.pad`` in every named mode, on the device, axis after axis as NumPy pads
    (``Array::pad_axis``). A function ``mode`` is Python code that NumPy calls on each lane, a
    NumPy vector it writes in place: it runs where it can only run, on the host — one download,
    ``numpy.pad`` with the function, one upload of the result."""
    a = _arr(array)
    if callable(mode):
        return asarray(np.pad(a.get(), pad_width, mode, **kwargs))
    allowed = _PAD_KEYWORDS.get(mode)
    if allowed is None:
        raise ValueError(f"mode '{mode}' is not supported")
    unsupported = set(kwargs) - allowed
    if unsupported:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {unsupported}")
    pw = _pairs(pad_width, a.ndim, np.int64)
    if (pw < 0).any():
        raise ValueError("index can't contain negative values")
    if mode == "constant":
        cv = _pairs(kwargs.get("constant_values", 0), a.ndim, np.float64)
        if (cv == cv[0, 0]).all():
            return ndarray._wrap(_g.pad(a._a, [tuple(map(int, p)) for p in pw], float(cv[0, 0])))
        params = cv
    elif mode == "linear_ramp":
        params = _pairs(kwargs.get("end_values", 0), a.ndim, np.float64)
    elif mode in ("maximum", "minimum", "mean", "median"):
        sl = kwargs.get("stat_length")
        params = None if sl is None else _pairs(sl, a.ndim, np.int64)
        if params is not None and (params < 0).any():
            raise ValueError("index can't contain negative values")
    else:
        params = None
    reflect_type = kwargs.get("reflect_type", "even")
    if reflect_type not in ("even", "odd"):
        raise ValueError(f"reflect_type must be 'even' or 'odd', not {reflect_type!r}")
    out = a
    for axis in range(a.ndim):
        b, af = (int(w) for w in pw[axis])
        pb, pa = (None, None) if params is None else (float(params[axis][0]), float(params[axis][1]))
        out = ndarray._wrap(_g.pad_axis(out._a, axis, (b, af), mode, pb, pa, reflect_type == "odd"))
    return out.copy() if out is a else out


# np.pad's keyword arguments by mode.
_PAD_KEYWORDS = {
    "constant": {"constant_values"}, "edge": set(), "wrap": set(), "empty": set(),
    "reflect": {"reflect_type"}, "symmetric": {"reflect_type"}, "linear_ramp": {"end_values"},
    "maximum": {"stat_length"}, "minimum": {"stat_length"}, "mean": {"stat_length"},
    "median": {"stat_length"},
}


def _pairs(x, ndim, dtype):
    """NumPy's ``_as_pairs``: a scalar, (v,), (before, after) or one pair per axis, as an
    (ndim, 2) array."""
    v = np.asarray(x, dtype=dtype)
    if v.ndim > 2 or (v.ndim == 2 and v.shape[1] != 2) or (v.ndim == 1 and v.size not in (1, 2)):
        raise ValueError(f"Unable to create correctly shaped tuple from {x}")
    try:
        return np.broadcast_to(v, (ndim, 2))
    except ValueError:
        raise ValueError(f"Unable to create correctly shaped tuple from {x}") from None


@implements(np.take)
def take(a, indices, axis=None, out=None, mode="raise"):
    from ._indexing import _index_array

    a = _arr(a)
    if axis is None:
        a, axis = a.reshape(-1), 0
    axis = _normalize_axes((operator.index(axis),), a.ndim)[0]
    n = a.shape[axis]
    if np.ndim(indices) == 0 and not isinstance(indices, ndarray):
        i = operator.index(indices)
        if mode == "wrap":
            i %= n
        elif mode == "clip":
            i = builtins.min(builtins.max(i, 0), n - 1)
        elif not -n <= i < n:
            raise IndexError(f"index {i} is out of bounds for axis {axis} with size {n}")
        return _out(out, a[(slice(None),) * axis + (i,)].copy())
    if mode == "raise":
        idx = _index_array(indices, n, axis)
    else:
        idx = _arr(indices)
        if idx.dtype.kind not in "iu":
            raise IndexError("arrays used as indices must be of integer type")
        if mode == "wrap":
            idx = np.remainder(idx, n)
        elif mode == "clip":
            idx = np.clip(idx, 0, n - 1)
        else:
            raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    raw = _g.take(a._a, idx._a.reshape([-1]), axis)
    shape = a.shape[:axis] + idx.shape + a.shape[axis + 1:]
    return _out(out, ndarray._wrap(raw.reshape(list(shape))))


@implements(np.where)
def where(condition, x=None, y=None):
    if x is None and y is None:
        # NumPy's one-argument form: the indices of the true elements, as np.nonzero.
        from ._nanfunctions import nonzero

        return nonzero(_arr(condition))
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    cond = _arr(condition)
    if not isinstance(x, ndarray) and not isinstance(y, ndarray):
        dt = _common_dtype(x, y)
        x = asarray(x, dtype=dt)
    dt = _common_dtype(x, y)
    xs = _cast(x, dt)._a if isinstance(x, ndarray) else float(_weak(x))
    ys = _cast(y, dt)._a if isinstance(y, ndarray) else float(_weak(y))
    return ndarray._wrap(_g.where_(cond._a, xs, ys))


@implements(np.clip)
def clip(a, a_min=np._NoValue, a_max=np._NoValue, out=None, *, min=np._NoValue,
         max=np._NoValue, **kwargs):
    a = _arr(a)
    lo = a_min if a_min is not np._NoValue else (None if min is np._NoValue else min)
    hi = a_max if a_max is not np._NoValue else (None if max is np._NoValue else max)
    if kwargs:
        raise TypeError(f"clip: unsupported keyword arguments {set(kwargs)}")
    dt = _common_dtype(*[v for v in (a, lo, hi) if v is not None])
    a = _cast(a, dt)

    def bound(v):
        if v is None:
            return None
        if isinstance(v, ndarray):
            return _cast(v, dt)._a
        if np.ndim(v) != 0:
            return asarray(v, dtype=dt)._a
        return float(_weak(v))

    return _out(out, ndarray._wrap(_g.clip(a._a, bound(lo), bound(hi))))


@implements(np.round, np.around)
def round(a, decimals=0, out=None):
    a = _arr(a)
    if a.dtype.kind != "f":
        return _out(out, a.copy())
    if decimals == 0:
        return np.rint(a, out=out)
    f = 10.0 ** decimals
    return _out(out, np.rint(a * f) / f)


@implements(np.transpose)
def transpose(a, axes=None):
    return _arr(a).transpose(axes)


@implements(np.swapaxes)
def swapaxes(a, axis1, axis2):
    return _arr(a).swapaxes(axis1, axis2)


@implements(np.moveaxis)
def moveaxis(a, source, destination):
    a = _arr(a)
    src = _normalize_axes(_axis_tuple(source), a.ndim)
    dst = _normalize_axes(_axis_tuple(destination), a.ndim)
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    order = [n for n in range(a.ndim) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return a.transpose(order)


@implements(np.reshape)
def reshape(a, /, shape=None, order="C", *, newshape=None, copy=None):
    if shape is None:
        shape = newshape
    a = _arr(a)
    r = a.reshape(shape, order=order)
    if copy is False and a.size and not r._a.may_share_memory(a._a):
        # NumPy 2: a reshape this layout cannot give as a view is refused with copy=False.
        raise ValueError("Unable to avoid creating a copy while reshaping.")
    return r.copy() if copy else r


@implements(np.ravel)
def ravel(a, order="C"):
    return _arr(a).reshape(-1, order=order)


@implements(np.copy)
def copy(a, order="K", subok=False):
    return _arr(a).copy()


@implements(np.broadcast_to)
def _broadcast_to(array, shape, subok=False):
    return broadcast_to(array, shape)


@implements(np.squeeze)
def squeeze(a, axis=None):
    return _arr(a).squeeze(axis)


@implements(np.expand_dims)
def expand_dims(a, axis):
    a = _arr(a)
    axes = _axis_tuple(axis)
    out_nd = a.ndim + len(axes)
    axes = sorted(_normalize_axes(axes, out_nd))
    if len(set(axes)) != len(axes):
        raise ValueError("repeated axis")
    shape = list(a.shape)
    for ax in axes:
        shape.insert(ax, 1)
    return a.reshape(tuple(shape))


@implements(np.shape)
def shape(a):
    return _arr(a).shape


@implements(np.ndim)
def ndim(a):
    return _arr(a).ndim


@implements(np.size)
def size(a, axis=None):
    a = _arr(a)
    return a.size if axis is None else a.shape[axis]


# ---- index arithmetic (Dask's arg reductions use these on chunks) --------------------------

@implements(np.unravel_index)
def unravel_index(indices, shape, order="C"):
    if order != "C":
        raise NotImplementedError("gpuarray.unravel_index supports order='C' only")
    idx = _arr(indices)
    if idx.dtype.kind not in "iu":
        raise TypeError("only int indices permitted")
    shape = _shape_tuple(shape)
    total = int(np.prod(shape))
    if idx.size and (int(idx.min()) < 0 or int(idx.max()) >= total):
        raise ValueError(f"index out of bounds for array with size {total}")
    idx = idx.astype(np.int64)  # NumPy's intp
    out = []
    for n in shape[::-1]:
        out.append(np.remainder(idx, n))
        idx = np.floor_divide(idx, n)
    return tuple(out[::-1])


@implements(np.ravel_multi_index)
def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    if order != "C" or mode != "raise":
        raise NotImplementedError("gpuarray.ravel_multi_index supports mode='raise', order='C'")
    dims = _shape_tuple(dims)
    if len(multi_index) != len(dims):
        raise ValueError("parameter multi_index must be a sequence of length "
                         f"{len(dims)}")
    idxs = [_arr(i) if isinstance(i, ndarray) or np.ndim(i) else asarray(np.int64(i))
            for i in multi_index]
    for i, n in zip(idxs, dims):
        if i.size and (int(i.min()) < 0 or int(i.max()) >= n):
            raise ValueError("invalid entry in coordinates array")
    lin = idxs[-1].astype(np.int64)
    stride = 1
    for i, n in zip(idxs[-2::-1], dims[:0:-1]):
        stride *= n
        lin = lin + i.astype(np.int64) * stride
    return lin


@implements(np.unstack)
def unstack(x, /, *, axis=0):
    x = _arr(x)
    axis = _normalize_axes((operator.index(axis),), x.ndim)[0]
    pre = (slice(None),) * axis
    return tuple(x[pre + (i,)] for i in range(x.shape[axis]))


@implements(np.astype)
def astype(x, dtype, /, *, copy=True, device=None):
    return _arr(x).astype(dtype, copy=copy)
