"""Array functions: ``gpuarray.einsum``, ``gpuarray.sum``, ... and the NEP-18 registry that
routes ``numpy.einsum(x, y)`` etc. on ``gpuarray.ndarray`` arguments here.

Each function takes NumPy's signature. ``__array_function__`` answers only for registered
NumPy functions and only when every dispatching argument is a ``gpuarray.ndarray`` (so a mix
with ``numpy.ndarray`` is NumPy's ``TypeError``, never a silent transfer); anything else
returns ``NotImplemented``.
"""

from __future__ import annotations

import builtins
import operator
import string

import numpy as np

from . import _gpuarray as _g
from ._core import (
    _DTYPES,
    _axis_tuple,
    _normalize_axes,
    _shape_tuple,
    asarray,
    broadcast_to,
    canon_dtype,
    ndarray,
)

_HANDLED: dict = {}


def implements(*np_funcs):
    """Registers the decorated function as the gpuarray version of ``np_funcs``."""

    def deco(f):
        for nf in np_funcs:
            _HANDLED[nf] = f
        return f

    return deco


def array_function(func, types, args, kwargs):
    impl = _HANDLED.get(func)
    if impl is None:
        return NotImplemented
    if not builtins.all(issubclass(t, ndarray) for t in types):
        return NotImplemented
    return impl(*args, **kwargs)


# ---- helpers ------------------------------------------------------------------------------

def _arr(x) -> ndarray:
    return x if isinstance(x, ndarray) else asarray(x)


def _weak(x):
    """What np.result_type should see: an array's dtype, or a Python scalar (weak)."""
    if isinstance(x, ndarray):
        return x.dtype
    if isinstance(x, np.generic):
        return x.item()
    return x


def _common_dtype(*xs) -> np.dtype:
    d = np.result_type(*[_weak(x) for x in xs])
    if d not in _DTYPES:
        raise TypeError(
            f"NumPy promotes these operands to {d}, which gpuarray does not have "
            "(no 64-bit integers); convert one with astype first"
        )
    return d


def _cast(x: ndarray, dt) -> ndarray:
    return x if x.dtype == dt else x.astype(dt)


def _out(out, res: ndarray):
    if out is None:
        return res
    if not isinstance(out, ndarray):
        raise TypeError("out= must be a gpuarray.ndarray")
    if out.shape != res.shape:
        raise ValueError(f"output array has shape {out.shape}, expected {res.shape}")
    out._a.assign(res._a)
    out._touch()
    return out


def _axes_arg(axis, ndim):
    """None (all axes) or a list of normalised axes."""
    if axis is None:
        return None
    axes = _normalize_axes(_axis_tuple(axis), ndim)
    if len(set(axes)) != len(axes):
        raise ValueError("duplicate value in 'axis'")
    return list(axes)


def _narrow_acc(d: np.dtype) -> np.dtype:
    """sum/prod/cumsum accumulate bool and small ints in NumPy's int64; ours is int32."""
    if d.kind == "b":
        return np.dtype("int32")
    return d


# ---- reductions ---------------------------------------------------------------------------

def _reduction(op, x, axis, dtype, keepdims, out=None):
    x = _arr(x)
    if dtype is not None:
        x = _cast(x, canon_dtype(dtype))
    axes = _axes_arg(axis, x.ndim)
    if op in ("sum", "prod"):
        want = _narrow_acc(x.dtype)
    elif op in ("any", "all"):
        want = np.dtype(bool)
    else:
        want = x.dtype
    if axes == []:
        return _out(out, x.astype(want))
    if op in ("max", "min") and x.size == 0:
        n_red = x.size if axes is None else builtins.min((x.shape[a] for a in axes), default=1)
        if axes is None or n_red == 0:
            name = "maximum" if op == "max" else "minimum"
            raise ValueError(
                f"zero-size array to reduction operation {name} which has no identity"
            )
    res = ndarray._wrap(_g.reduce(op, x._a, axes, bool(keepdims)))
    if res.dtype != want:
        res = res.astype(want)
    return _out(out, res)


@implements(np.sum)
def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    _no_where(where, initial)
    return _reduction("sum", a, axis, dtype, keepdims, out)


@implements(np.prod)
def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    _no_where(where, initial)
    return _reduction("prod", a, axis, dtype, keepdims, out)


@implements(np.max, np.amax)
def max(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    _no_where(where, initial)
    return _reduction("max", a, axis, None, keepdims, out)


@implements(np.min, np.amin)
def min(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    _no_where(where, initial)
    return _reduction("min", a, axis, None, keepdims, out)


@implements(np.any)
def any(a, axis=None, out=None, keepdims=False, *, where=True):
    _no_where(where)
    return _reduction("any", a, axis, None, keepdims, out)


@implements(np.all)
def all(a, axis=None, out=None, keepdims=False, *, where=True):
    _no_where(where)
    return _reduction("all", a, axis, None, keepdims, out)


@implements(np.mean)
def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    _no_where(where)
    a = _arr(a)
    if dtype is not None:
        a = _cast(a, canon_dtype(dtype))
    axes = _axes_arg(axis, a.ndim)
    res = ndarray._wrap(_g.reduce("mean", a._a, axes, bool(keepdims)))
    if dtype is not None:
        res = _cast(res, canon_dtype(dtype))
    return _out(out, res)


def _var(a, axis, dtype, out, ddof, keepdims, std):
    a = _arr(a)
    if dtype is not None:
        a = _cast(a, canon_dtype(dtype))
    axes = _axes_arg(axis, a.ndim)
    ddof = operator.index(ddof)
    if ddof >= 0:
        return _out(out, ndarray._wrap(_g.var(a._a, axes, ddof, bool(keepdims), std)))
    # NumPy allows a negative ddof (divide by n - ddof > n): rescale the ddof=0 variance.
    n = a.size if axes is None else int(np.prod([a.shape[i] for i in axes]))
    v = ndarray._wrap(_g.var(a._a, axes, 0, bool(keepdims), False)) * (n / (n - ddof))
    return _out(out, np.sqrt(v) if std else v)


@implements(np.var)
def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
        correction=None):
    _no_where(where)
    if mean is not None:
        raise NotImplementedError("gpuarray.var: mean= is not supported")
    if correction is not None:
        ddof = correction
    return _var(a, axis, dtype, out, ddof, keepdims, False)


@implements(np.std)
def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
        correction=None):
    _no_where(where)
    if mean is not None:
        raise NotImplementedError("gpuarray.std: mean= is not supported")
    if correction is not None:
        ddof = correction
    return _var(a, axis, dtype, out, ddof, keepdims, True)


def _no_where(where, initial=None):
    if where is not True:
        raise NotImplementedError("gpuarray reductions do not support where=")
    if initial is not None:
        raise NotImplementedError("gpuarray reductions do not support initial=")


def _arg(op, a, axis, out, keepdims):
    a = _arr(a)
    if axis is not None:
        axis = _normalize_axes((operator.index(axis),), a.ndim)[0]
    if (a.size if axis is None else a.shape[axis]) == 0:
        raise ValueError(f"attempt to get {op} of an empty sequence")
    return _out(out, ndarray._wrap(_g.argreduce(op, a._a, axis, bool(keepdims))))


@implements(np.argmax)
def argmax(a, axis=None, out=None, *, keepdims=False):
    return _arg("argmax", a, axis, out, keepdims)


@implements(np.argmin)
def argmin(a, axis=None, out=None, *, keepdims=False):
    return _arg("argmin", a, axis, out, keepdims)


def _scan(op, x, axis, keep_dtype=False):
    x = _arr(x)
    if axis is not None:
        axis = _normalize_axes((operator.index(axis),), x.ndim)[0]
    res = ndarray._wrap(_g.scan(op, x._a, axis))
    want = x.dtype if keep_dtype else _narrow_acc(x.dtype)
    return _cast(res, want)


@implements(np.cumsum)
def cumsum(a, axis=None, dtype=None, out=None):
    a = _arr(a)
    if dtype is not None:
        a = _cast(a, canon_dtype(dtype))
    return _out(out, _scan("cumsum", a, axis))


@implements(np.cumprod)
def cumprod(a, axis=None, dtype=None, out=None):
    a = _arr(a)
    if dtype is not None:
        a = _cast(a, canon_dtype(dtype))
    return _out(out, _scan("cumprod", a, axis))


def _doubling_scan(ufunc, x: ndarray, axis):
    """``ufunc.accumulate`` for an associative ufunc without a scan kernel (maximum,
    minimum): log2(n) steps of ``y[s:] = f(y[s:], y[:-s])`` (Hillis-Steele), each one kernel
    plus a concatenation."""
    axis = _normalize_axes((operator.index(axis),), x.ndim)[0]
    n = x.shape[axis]
    y = x.copy()
    pre = (slice(None),) * axis
    s = 1
    while s < n:
        head = y[pre + (slice(0, s),)]
        tail = ufunc(y[pre + (slice(s, None),)], y[pre + (slice(0, n - s),)])
        y = concatenate([head, tail], axis=axis)
        s *= 2
    return y


# ---- linear algebra -----------------------------------------------------------------------

def _pair(a, b):
    a, b = _arr(a), _arr(b)
    dt = _common_dtype(a, b)
    return _cast(a, dt), _cast(b, dt)


def matmul(x1, x2, /, out=None, **kwargs):
    return np.matmul(_arr(x1), _arr(x2), out=out, **kwargs)


@implements(np.dot)
def dot(a, b, out=None):
    if np.ndim(a) == 0 or np.ndim(b) == 0:
        # NumPy's dot makes a Python scalar a (typed, float64/int64) array first.
        a, b = (x if isinstance(x, ndarray) else np.asarray(x)[()] for x in (a, b))
        return np.multiply(_arr(a) if isinstance(b, np.generic) else a, b, out=out)
    a, b = _pair(a, b)
    return _out(out, ndarray._wrap(_g.linalg2("dot", a._a, b._a)))


@implements(np.vdot)
def vdot(a, b):
    a, b = _pair(a, b)
    return ndarray._wrap(_g.linalg2("vdot", a._a, b._a))


@implements(np.inner)
def inner(a, b):
    a, b = _pair(a, b)
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    return ndarray._wrap(_g.linalg2("inner", a._a, b._a))


@implements(np.outer)
def outer(a, b, out=None):
    a, b = _pair(a, b)
    return _out(out, ndarray._wrap(_g.linalg2("outer", a._a.reshape([-1]), b._a.reshape([-1]))))


@implements(np.kron)
def kron(a, b):
    a, b = _pair(a, b)
    return ndarray._wrap(_g.linalg2("kron", a._a, b._a))


@implements(np.tensordot)
def tensordot(a, b, axes=2):
    a, b = _pair(a, b)
    if isinstance(axes, (int, np.integer)):
        n = operator.index(axes)
        if n < 0 or n > a.ndim or n > b.ndim:
            raise ValueError("shape-mismatch for sum")
        axes_a = list(range(a.ndim - n, a.ndim))
        axes_b = list(range(n))
    else:
        axes_a, axes_b = axes
        axes_a = list(_axis_tuple(axes_a))
        axes_b = list(_axis_tuple(axes_b))
    if len(axes_a) != len(axes_b):
        raise ValueError("shape-mismatch for sum")
    for i, j in zip(axes_a, axes_b):
        if a.shape[i] != b.shape[j]:
            raise ValueError("shape-mismatch for sum")
    return ndarray._wrap(_g.tensordot(a._a, b._a, axes_a, axes_b))


@implements(np.trace)
def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    a = _arr(a)
    if a.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    d = a.diagonal(offset, axis1, axis2)
    return sum(d, axis=-1, dtype=dtype, out=out)


@implements(np.diagonal)
def diagonal(a, offset=0, axis1=0, axis2=1):
    return _arr(a).diagonal(offset, axis1, axis2)


_LETTERS = string.ascii_letters


def _sublist_to_subscripts(args):
    """NumPy's interleaved form ``einsum(a, [0, 1], b, [1, 2], [0, 2])`` as a string."""

    def letters(sub):
        out = []
        for s in sub:
            if s is Ellipsis:
                out.append("...")
            else:
                out.append(_LETTERS[operator.index(s)])
        return "".join(out)

    ops, subs = [], []
    args = list(args)
    while len(args) >= 2:
        ops.append(args.pop(0))
        subs.append(letters(args.pop(0)))
    spec = ",".join(subs)
    if args:
        spec += "->" + letters(args[0])
    return spec, ops


def _strategy(optimize) -> str:
    if optimize is False:
        return "naive"
    if optimize is True or optimize == "greedy":
        return "greedy"
    if optimize == "optimal":
        return "optimal"
    if isinstance(optimize, (list, tuple)) and optimize and optimize[0] == "einsum_path":
        # An explicit path from einsum_path: the crate plans its own order (optimal); the
        # result is the same contraction.
        return "optimal"
    raise ValueError(f"einsum: unknown optimize value {optimize!r}")


@implements(np.einsum)
def einsum(*operands, out=None, dtype=None, order="K", casting="safe", optimize=False):
    """``numpy.einsum`` on the device: NumPy's full grammar, pairwise contractions planned like
    ``opt_einsum`` (``optimize`` picks the planner; ``False`` contracts left to right)."""
    if not operands:
        raise ValueError("No input operands")
    if isinstance(operands[0], str):
        spec, ops = operands[0], list(operands[1:])
    else:
        spec, ops = _sublist_to_subscripts(operands)
    ops = [_arr(o) for o in ops]
    if not ops:
        raise ValueError("No input operands")
    dt = canon_dtype(dtype) if dtype is not None else _common_dtype(*ops)
    if dtype is not None:
        for o in ops:
            if not np.can_cast(o.dtype, dt, casting=casting):
                raise TypeError(
                    f"Cannot cast array data from {o.dtype!r} to {dt!r} according to the rule "
                    f"{casting!r}"
                )
    ops = [_cast(o, dt) for o in ops]
    res = ndarray._wrap(_g.einsum(spec, [o._a for o in ops], _strategy(optimize)))
    return _out(out, res)


@implements(np.einsum_path)
def einsum_path(*operands, optimize="greedy", einsum_call=False):
    """``numpy.einsum_path``: ``(['einsum_path', (i, j), ...], report)``; only shapes are
    used, nothing runs on the device."""
    if einsum_call:
        raise NotImplementedError("einsum_path(einsum_call=True) is NumPy-internal")
    if isinstance(operands[0], str):
        spec, ops = operands[0], list(operands[1:])
    else:
        spec, ops = _sublist_to_subscripts(operands)
    if isinstance(optimize, tuple) and optimize and optimize[0] in ("greedy", "optimal"):
        optimize = optimize[0]  # (strategy, memory_limit): the limit is NumPy's default here
    shapes = [list(np.shape(o) if not isinstance(o, ndarray) else o.shape) for o in ops]
    steps, report = _g.einsum_path(spec, shapes, _strategy(optimize))
    return ["einsum_path", *[tuple(s) for s in steps]], report


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
    a = _arr(array)
    if mode != "constant":
        raise NotImplementedError(f"gpuarray.pad supports mode='constant' only, not {mode!r}")
    cv = kwargs.pop("constant_values", 0)
    if kwargs:
        raise TypeError(f"unsupported keyword arguments for mode 'constant': {set(kwargs)}")
    if np.ndim(cv) != 0:
        raise NotImplementedError("gpuarray.pad: constant_values must be one scalar")
    pw = np.broadcast_to(np.asarray(pad_width, dtype=np.int64), (a.ndim, 2))
    if (pw < 0).any():
        raise ValueError("index can't contain negative values")
    return ndarray._wrap(_g.pad(a._a, [tuple(map(int, p)) for p in pw], float(cv)))


@implements(np.take)
def take(a, indices, axis=None, out=None, mode="raise"):
    from ._core import _index_array

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
        raise NotImplementedError("gpuarray.where(condition) (nonzero) is not supported")
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
    r = _arr(a).reshape(shape, order=order)
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


# ---- creation -----------------------------------------------------------------------------

def _filled(kind, shape, value, dtype):
    shape = _shape_tuple(shape)
    dt = canon_dtype(dtype)
    return ndarray._wrap(_g.filled(kind, list(shape), float(value), dt.name))


@implements(np.zeros)
def zeros(shape, dtype=float, order="C", *, device=None, like=None):
    return _filled("zeros", shape, 0.0, dtype)


@implements(np.ones)
def ones(shape, dtype=None, order="C", *, device=None, like=None):
    return _filled("ones", shape, 1.0, dtype)


@implements(np.empty)
def empty(shape, dtype=float, order="C", *, device=None, like=None):
    """Zero-filled (the pool recycles buffers, and reading stale data helps nobody)."""
    return _filled("zeros", shape, 0.0, dtype)


def _fill_dtype(fill_value, dtype):
    if dtype is not None:
        return canon_dtype(dtype)
    if isinstance(fill_value, ndarray):
        return fill_value.dtype
    return canon_dtype(np.asarray(fill_value).dtype)


@implements(np.full)
def full(shape, fill_value, dtype=None, order="C", *, device=None, like=None):
    dt = _fill_dtype(fill_value, dtype)
    if np.ndim(fill_value) != 0:
        return broadcast_to(asarray(fill_value, dtype=dt), shape).copy()
    return _filled("full", shape, _scalar(fill_value), dt)


def _scalar(v):
    if isinstance(v, ndarray):
        return float(v.get())
    return float(v)


def _like_dtype(a, dtype):
    return canon_dtype(dtype) if dtype is not None else _arr(a).dtype


def _like_shape(a, shape):
    return _arr(a).shape if shape is None else shape


@implements(np.zeros_like)
def zeros_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return _filled("zeros", _like_shape(a, shape), 0.0, _like_dtype(a, dtype))


@implements(np.ones_like)
def ones_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return _filled("ones", _like_shape(a, shape), 1.0, _like_dtype(a, dtype))


@implements(np.empty_like)
def empty_like(prototype, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return _filled("zeros", _like_shape(prototype, shape), 0.0, _like_dtype(prototype, dtype))


@implements(np.full_like)
def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return _filled("full", _like_shape(a, shape), _scalar(fill_value), _like_dtype(a, dtype))


@implements(np.arange)
def arange(start, stop=None, step=None, dtype=None, *, device=None, like=None):
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    if dtype is None:
        dtype = np.result_type(start, stop, step)
    dt = canon_dtype(dtype)
    return ndarray._wrap(_g.arange(float(start), float(stop), float(step), dt.name))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *,
             device=None):
    if not endpoint or axis != 0:
        raise NotImplementedError("gpuarray.linspace supports endpoint=True, axis=0")
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    dt = canon_dtype(dtype) if dtype is not None else canon_dtype(None)
    out = ndarray._wrap(_g.linspace(float(start), float(stop), num, dt.name))
    if retstep:
        return out, (stop - start) / (num - 1) if num > 1 else np.nan
    return out


@implements(np.eye)
def eye(N, M=None, k=0, dtype=float, order="C", *, device=None, like=None):
    dt = canon_dtype(dtype)
    N = operator.index(N)
    M = N if M is None else operator.index(M)
    if N < 0 or M < 0:
        raise ValueError(f"negative dimensions are not allowed: ({N}, {M})")
    return ndarray._wrap(_g.eye(N, M, operator.index(k), dt.name))


def identity(n, dtype=None):
    return eye(n, dtype=float if dtype is None else dtype)


@implements(np.array, np.asarray, np.asanyarray, np.ascontiguousarray)
def _array_like(a, dtype=None, *args, like=None, **kwargs):
    # Reached only through NEP-35 `np.asarray(x, like=gpu_array)`: an explicit request.
    return asarray(a, dtype=dtype)


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
    idxs = [_arr(i) if isinstance(i, ndarray) or np.ndim(i) else asarray(np.int32(i))
            for i in multi_index]
    for i, n in zip(idxs, dims):
        if i.size and (int(i.min()) < 0 or int(i.max()) >= n):
            raise ValueError("invalid entry in coordinates array")
    lin = idxs[-1].astype(np.int32)
    stride = 1
    for i, n in zip(idxs[-2::-1], dims[:0:-1]):
        stride *= n
        lin = lin + i.astype(np.int32) * stride
    return lin


# ---- the crate's extras (no NumPy counterpart: gpuarray functions only) -------------------

def _float_input(x, name):
    x = _arr(x)
    if x.dtype.kind != "f":
        raise TypeError(f"{name} needs a float array, not {x.dtype} (use astype)")
    return x


def sigmoid(x):
    """``1 / (1 + exp(-x))``, stable for large ``|x|`` (one kernel)."""
    return ndarray._wrap(_g.unary("sigmoid", _float_input(x, "sigmoid")._a))


def relu(x):
    """``maximum(x, 0)`` keeping NaN (one kernel)."""
    return ndarray._wrap(_g.unary("relu", _arr(x)._a))


def softmax(x, axis=-1):
    """``exp(x - max) / sum(exp(x - max))`` along ``axis`` (scipy.special.softmax)."""
    x = _float_input(x, "softmax")
    axis = _normalize_axes((operator.index(axis),), x.ndim)[0]
    return ndarray._wrap(_g.softmax(x._a, axis))


def logsumexp(x, axis=None, keepdims=False):
    """``log(sum(exp(x)))`` over ``axis`` without overflow (scipy.special.logsumexp)."""
    x = _float_input(x, "logsumexp")
    return ndarray._wrap(_g.reduce("logsumexp", x._a, _axes_arg(axis, x.ndim), bool(keepdims)))
