"""Reductions (sum ... all, mean, var, std, argmax, argmin), scans (cumsum, cumprod) and
ufunc.accumulate for ufuncs without a scan kernel.
"""

from __future__ import annotations

import builtins
import operator

import numpy as np

from . import _gpuarray as _g
from ._core import _normalize_axes, canon_dtype, ndarray
from ._registry import implements, _arr, _cast, _out, _axes_arg, _narrow_acc
from ._manipulation import concatenate


# ---- reductions ---------------------------------------------------------------------------

def _reduction(op, x, axis, dtype, keepdims, out=None):
    x = _arr(x)
    if dtype is not None:
        x = _cast(x, canon_dtype(dtype))
    axes = _axes_arg(axis, x.ndim)
    if op in ("sum", "prod"):
        want = _narrow_acc(x.dtype) if dtype is None else x.dtype
        if want != x.dtype:
            # Accumulated exactly in NumPy's wider integer, as NumPy does.
            x = _cast(x, want)
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


def _var(a, axis, dtype, out, ddof, keepdims, std, nan=False):
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
    want = x.dtype if keep_dtype else _narrow_acc(x.dtype)
    if want != x.dtype:
        x = _cast(x, want)
    res = ndarray._wrap(_g.scan(op, x._a, axis))
    return _cast(res, want)


@implements(np.cumsum)
def cumsum(a, axis=None, dtype=None, out=None):
    a = _arr(a)
    if dtype is not None:
        a = _cast(a, canon_dtype(dtype))
    return _out(out, _scan("cumsum", a, axis, keep_dtype=dtype is not None))


@implements(np.cumprod)
def cumprod(a, axis=None, dtype=None, out=None):
    a = _arr(a)
    if dtype is not None:
        a = _cast(a, canon_dtype(dtype))
    return _out(out, _scan("cumprod", a, axis, keep_dtype=dtype is not None))


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


def _cumulative(kind, x, axis, dtype, out, include_initial):
    x = _arr(x)
    if axis is None:
        if x.ndim > 1:
            raise ValueError("axis must be specified for multi-dimensional arrays")
        axis = 0
    if x.ndim == 0:
        raise ValueError("cumulative functions need an array of at least one dimension")
    axis = _normalize_axes((operator.index(axis),), x.ndim)[0]
    r = (cumsum if kind == "sum" else cumprod)(x, axis=axis, dtype=dtype)
    if include_initial:
        shape = list(r.shape)
        shape[axis] = 1
        first = ndarray._wrap(_g.filled("zeros" if kind == "sum" else "ones", shape, 0.0,
                                        r.dtype.name))
        r = concatenate([first, r], axis=axis)
    return _out(out, r)


@implements(np.cumulative_sum)
def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    return _cumulative("sum", x, axis, dtype, out, include_initial)


@implements(np.cumulative_prod)
def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    return _cumulative("prod", x, axis, dtype, out, include_initial)
