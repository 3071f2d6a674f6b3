"""NaN-aware reductions (nansum ... nancumsum), nan_to_num, bincount, histogram, whole-array comparisons (isclose, allclose,
array_equal, array_equiv), sorting and searching (sort, argsort, searchsorted, unique) and the
nonzero family (nonzero, flatnonzero, argwhere, count_nonzero, extract), each computed on the
device by the Rust crate's functions of the same name, with NumPy's signatures and results.
Where the result's size depends on the data (unique, nonzero, extract), only that size is read
back, as in CuPy.
"""

from __future__ import annotations

import builtins
import operator

import numpy as np

from . import _gpuarray as _g
from ._core import _normalize_axes, canon_dtype, ndarray
from ._registry import implements, _arr, _cast, _out, _axes_arg, _narrow_acc


def _nan_reduction(op, a, axis, dtype, out, keepdims):
    a = _arr(a)
    if dtype is not None:
        a = _cast(a, canon_dtype(dtype))
    elif op in ("nansum", "nanprod"):
        a = _cast(a, _narrow_acc(a.dtype))  # NumPy's accumulator, as sum's
    axes = _axes_arg(axis, a.ndim)
    if op in ("nanmax", "nanmin") and a.size == 0:
        raise ValueError(
            f"zero-size array to reduction operation {op[3:]}imum which has no identity"
        )
    if axes == []:
        # No axis reduced: NaN becomes the identity (sum 0, prod 1), or stays (max, min, mean).
        fill = {"nansum": 0.0, "nanprod": 1.0}.get(op)
        res = a if fill is None or a.dtype.kind != "f" else np.where(np.isnan(a), a.dtype.type(fill), a)
        return _out(out, res)
    res = ndarray._wrap(_g.reduce(op, a._a, axes, bool(keepdims)))
    if op in ("nansum", "nanprod") and res.dtype != a.dtype:
        res = res.astype(a.dtype)
    return _out(out, res)


@implements(np.nansum)
def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    if where is not True or initial is not None:
        return _nan_masked("sum", a, axis, dtype, out, keepdims, where, initial)
    return _nan_reduction("nansum", a, axis, dtype, out, keepdims)


@implements(np.nanprod)
def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    if where is not True or initial is not None:
        return _nan_masked("prod", a, axis, dtype, out, keepdims, where, initial)
    return _nan_reduction("nanprod", a, axis, dtype, out, keepdims)


@implements(np.nanmax)
def nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    if where is not True or initial is not None:
        return _nan_masked("max", a, axis, None, out, keepdims, where, initial)
    return _nan_reduction("nanmax", a, axis, None, out, keepdims)


@implements(np.nanmin)
def nanmin(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    if where is not True or initial is not None:
        return _nan_masked("min", a, axis, None, out, keepdims, where, initial)
    return _nan_reduction("nanmin", a, axis, None, out, keepdims)


@implements(np.nanmean)
def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    if where is not True:
        from ._reductions import mean

        a = _arr(a)
        return mean(a, axis=axis, dtype=dtype, out=out, keepdims=keepdims, where=_not_nan(a, where))
    return _nan_reduction("nanmean", a, axis, dtype, out, keepdims)


def _nanvar(a, axis, dtype, out, ddof, keepdims, std, where=True):
    a = _arr(a)
    if dtype is not None:
        a = _cast(a, canon_dtype(dtype))
    ddof = operator.index(ddof)
    if where is not True:
        from ._reductions import _var

        return _var(a, axis, None, out, ddof, keepdims, std, where=_not_nan(a, where))
    if ddof < 0:
        raise NotImplementedError("gpuarray.nanvar/nanstd: a negative ddof is not supported")
    axes = _axes_arg(axis, a.ndim)
    return _out(out, ndarray._wrap(_g.var(a._a, axes, ddof, bool(keepdims), std, True)))


@implements(np.nanvar)
def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
           mean=None, correction=None):
    if mean is not None:
        raise NotImplementedError("gpuarray.nanvar: mean= is not supported")
    return _nanvar(a, axis, dtype, out, ddof if correction is None else correction, keepdims,
                   False, where)


@implements(np.nanstd)
def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
           mean=None, correction=None):
    if mean is not None:
        raise NotImplementedError("gpuarray.nanstd: mean= is not supported")
    return _nanvar(a, axis, dtype, out, ddof if correction is None else correction, keepdims,
                   True, where)


def _nanarg(op, a, axis, out, keepdims):
    a = _arr(a)
    if axis is not None:
        axis = _normalize_axes((operator.index(axis),), a.ndim)[0]
    if (a.size if axis is None else a.shape[axis]) == 0:
        raise ValueError(f"attempt to get {op[3:]} of an empty sequence")
    return _out(out, ndarray._wrap(_g.argreduce(op, a._a, axis, bool(keepdims))))


@implements(np.nanargmax)
def nanargmax(a, axis=None, out=None, *, keepdims=False):
    return _nanarg("nanargmax", a, axis, out, keepdims)


@implements(np.nanargmin)
def nanargmin(a, axis=None, out=None, *, keepdims=False):
    return _nanarg("nanargmin", a, axis, out, keepdims)


@implements(np.nancumsum)
def nancumsum(a, axis=None, dtype=None, out=None):
    a = _arr(a)
    if dtype is not None:
        a = _cast(a, canon_dtype(dtype))
    if axis is not None:
        axis = _normalize_axes((operator.index(axis),), a.ndim)[0]
    return _out(out, ndarray._wrap(_g.scan("nancumsum", a._a, axis)))


@implements(np.nan_to_num)
def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN and infinities replaced on the device; with ``copy=False`` ``x`` itself is changed."""
    x = _arr(x)
    as_float = lambda v: None if v is None else float(v)  # noqa: E731
    res = ndarray._wrap(_g.nan_to_num(x._a, float(nan), as_float(posinf), as_float(neginf)))
    if copy:
        return res
    x._a.assign(res._a)
    x._touch()
    return x


@implements(np.bincount)
def bincount(x, weights=None, minlength=0):
    """Counts on the device (int64, NumPy's intp); with ``weights``, float64 sums
    added in index order, NumPy's own additions (the same bits)."""
    x = _arr(x)
    w = None if weights is None else _arr(weights)._a
    return ndarray._wrap(_g.bincount(x._a, operator.index(minlength), w))


@implements(np.histogram)
def histogram(a, bins=10, range=None, density=None, weights=None):
    """Counts (int64), or with ``weights`` sums in the weights' dtype, and edges on the device;
    ``density=True`` divides on the device too."""
    if isinstance(bins, str):
        raise TypeError(f"gpuarray.histogram: bins={bins!r} (an estimator name) is not supported")
    a = _arr(a)
    rng = None if range is None else (float(range[0]), float(range[1]))
    w = None if weights is None else _arr(weights)
    wa = None if w is None else w._a
    if np.ndim(bins) == 0:
        counts, edges = _g.histogram(a._a, operator.index(bins), None, rng, wa)
    else:
        counts, edges = _g.histogram(a._a, 0, _arr(bins)._a, rng, wa)
    counts, edges = ndarray._wrap(counts), ndarray._wrap(edges)
    if w is not None and w.dtype != np.float64:
        # NumPy's counts take the weights' dtype.
        counts = counts.astype(w.dtype)
    if density:
        # NumPy's widths: the edges' differences, as float64.
        widths = (edges[1:] - edges[:-1]).astype(np.float64)
        return counts / widths / counts.sum(), edges
    return counts, edges


@implements(np.isclose)
def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    a, b = _arr(a), _arr(b)
    return ndarray._wrap(_g.isclose(a._a, b._a, float(rtol), float(atol), bool(equal_nan)))


@implements(np.allclose)
def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """A Python bool, as NumPy's (reading it waits for the device)."""
    return builtins.bool(isclose(a, b, rtol, atol, equal_nan).all())


@implements(np.array_equal)
def array_equal(a1, a2, equal_nan=False):
    a1, a2 = _arr(a1), _arr(a2)
    if a1.shape != a2.shape:
        return False
    eq = a1 == a2
    if equal_nan and (a1.dtype.kind == "f" or a2.dtype.kind == "f"):
        eq = eq | (np.isnan(a1) & np.isnan(a2))
    return builtins.bool(eq.all())


@implements(np.array_equiv)
def array_equiv(a1, a2):
    a1, a2 = _arr(a1), _arr(a2)
    try:
        np.broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return False
    return builtins.bool((a1 == a2).all())


def _sort_args(a, axis, kind, order):
    a = _arr(a)
    if order is not None:
        raise NotImplementedError("gpuarray.sort: order= (structured arrays) is not supported")
    if kind not in (None, "quicksort", "mergesort", "heapsort", "stable"):
        raise ValueError(f"sort kind must be one of 'quick', 'heap', or 'stable' (got {kind!r})")
    if axis is not None:
        axis = _normalize_axes((operator.index(axis),), a.ndim)[0]
    return a, axis


@implements(np.sort)
def sort(a, axis=-1, kind=None, order=None, *, stable=None):
    """Every kind gives the stable order (NumPy's values are the same for any kind)."""
    a, axis = _sort_args(a, axis, kind, order)
    return ndarray._wrap(_g.sort(a._a, axis, False))


@implements(np.argsort)
def argsort(a, axis=-1, kind=None, order=None, *, stable=None):
    """Always stable: equal elements keep their order (NumPy's kind="stable"). A 0-d array's
    indices are those of its one element, ``[0]``, as NumPy's."""
    a = _arr(a)
    if a.ndim == 0:
        a = a.reshape(1)
    a, axis = _sort_args(a, axis, kind, order)
    return ndarray._wrap(_g.sort(a._a, axis, True))


def _kth(a, kth, axis):
    a = _arr(a)
    if axis is not None:
        axis = _normalize_axes((operator.index(axis),), a.ndim)[0]
    kth = [operator.index(k) for k in np.atleast_1d(kth).tolist()] if np.ndim(kth) else [operator.index(kth)]
    return a, kth, axis


@implements(np.partition)
def partition(a, kth, axis=-1, kind="introselect", order=None):
    """Sorted along the axis, which meets partition's promise for every kth at once."""
    if order is not None:
        raise NotImplementedError("gpuarray.partition: order= (structured arrays) is not supported")
    a, kth, axis = _kth(a, kth, axis)
    return ndarray._wrap(_g.partition(a._a, kth, axis, False))


@implements(np.argpartition)
def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    if order is not None:
        raise NotImplementedError("gpuarray.argpartition: order= is not supported")
    a, kth, axis = _kth(a, kth, axis)
    return ndarray._wrap(_g.partition(a._a, kth, axis, True))


@implements(np.lexsort)
def lexsort(keys, axis=-1):
    """1-d keys of one length; the last key sorts first."""
    if axis not in (-1, 0):
        raise NotImplementedError("gpuarray.lexsort: 1-d keys only (axis=-1)")
    keys = [_arr(k) for k in keys]
    return ndarray._wrap(_g.lexsort([k._a for k in keys]))


@implements(np.searchsorted)
def searchsorted(a, v, side="left", sorter=None):
    a = _arr(a)
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right' (got {side!r})")
    if sorter is not None:
        a = a.take(_arr(sorter))
    scalar = np.isscalar(v)
    v = _arr(np.asarray(v, dtype=a.dtype) if scalar else v)
    res = ndarray._wrap(_g.searchsorted(a._a, v._a, side == "right"))
    return res.reshape(()) if scalar else res


@implements(np.unique)
def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
           equal_nan=True, sorted=True):
    if axis is not None:
        raise NotImplementedError("gpuarray.unique: axis= is not supported")
    a = _arr(ar)
    values, index, inverse, counts = (ndarray._wrap(x) for x in _g.unique_all(a._a, bool(equal_nan)))
    if not (return_index or return_inverse or return_counts):
        return values
    out = [values]
    if return_index:
        out.append(index)
    if return_inverse:
        out.append(inverse)
    if return_counts:
        out.append(counts)
    return tuple(out)


@implements(np.flatnonzero)
def flatnonzero(a):
    return ndarray._wrap(_g.flatnonzero(_arr(a)._a))


@implements(np.nonzero)
def nonzero(a):
    a = _arr(a)
    if a.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead.")
    flat = flatnonzero(a)
    coords = []
    stride = int(np.prod(a.shape))
    for n in a.shape:
        stride //= builtins.max(n, 1)
        coords.append((flat // builtins.max(stride, 1)) % builtins.max(n, 1))
    return tuple(coords)


@implements(np.argwhere)
def argwhere(a):
    a = _arr(a)
    if a.ndim == 0:
        return ndarray._wrap(_g.filled("zeros", [int(builtins.bool(a.get())), 0], 0.0, "int64"))
    return np.stack(nonzero(a), axis=1)


@implements(np.count_nonzero)
def count_nonzero(a, axis=None, *, keepdims=False):
    a = _arr(a)
    axes = _axes_arg(axis, a.ndim)
    # NumPy counts in intp (int64).
    res = ndarray._wrap(_g.reduce("sum", a.astype(np.bool_)._a, axes, bool(keepdims)))
    return res.astype(np.int64)


@implements(np.extract)
def extract(condition, arr):
    arr, condition = _arr(arr), _arr(condition)
    if condition.shape != arr.shape:
        condition = condition.reshape(-1)
        arr = arr.reshape(-1)
    return ndarray._wrap(_g.masked(arr._a, condition.astype(np.bool_)._a))


def _written_values(a, values, name):
    """The array to write (a gpuarray.ndarray) and the values, which NumPy casts 'safe'ly."""
    if not isinstance(a, ndarray):
        raise TypeError(f"gpuarray.{name}: the array to write must be a gpuarray.ndarray, got {type(a).__name__}")
    values = _arr(values)
    if not np.can_cast(values.dtype, a.dtype, "safe"):
        raise TypeError(f"Cannot cast array data from dtype('{values.dtype}') to dtype('{a.dtype}') according to the rule 'safe'")
    return a, values


@implements(np.putmask)
def putmask(a, mask, values):
    """In place: where ``mask`` is true, ``a.flat[i] = values.flat[i % values.size]``."""
    a, values = _written_values(a, values, "putmask")
    _g.putmask(a._a, _arr(mask)._a, values._a)


@implements(np.place)
def place(arr, mask, vals):
    """In place: the k-th true element of ``mask`` gets ``vals.flat[k % vals.size]``."""
    arr, vals = _written_values(arr, vals, "place")
    _g.place(arr._a, _arr(mask)._a, vals._a)


def _not_nan(a, where=True):
    """``where`` and not NaN: the elements a nan-reduction takes (on the device)."""
    a = _arr(a)
    keep = ~np.isnan(a) if a.dtype.kind in "fc" else None
    if where is True:
        return True if keep is None else keep
    w = _arr(where).astype(np.bool_)
    return w if keep is None else np.logical_and(w, keep)


def _nan_masked(op, a, axis, dtype, out, keepdims, where, initial):
    """A nan-reduction with ``where=``/``initial=``: the plain reduction of the non-NaN elements
    ``where`` selects."""
    from ._reductions import _masked

    a = _arr(a)
    return _masked(op, a, axis, dtype, keepdims, out, _not_nan(a, where), initial)
