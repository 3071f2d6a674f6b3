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

def _operand_and_result_dtype(op, x, dtype):
    """The reduction's operand (cast to ``dtype``, or to NumPy's wider accumulator for sums and
    products of narrow integers) and its result dtype, as NumPy's."""
    x = _arr(x)
    if dtype is not None:
        x = _cast(x, canon_dtype(dtype))
    if op in ("sum", "prod"):
        want = _narrow_acc(x.dtype) if dtype is None else x.dtype
        if want != x.dtype:
            # Accumulated exactly in NumPy's wider integer, as NumPy does.
            x = _cast(x, want)
    elif op in ("any", "all"):
        want = np.dtype(bool)
    else:
        want = x.dtype
    return x, want


def _reduction(op, x, axis, dtype, keepdims, out=None):
    x, want = _operand_and_result_dtype(op, x, dtype)
    axes = _axes_arg(axis, x.ndim)
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
    if where is not True or initial is not None:
        return _masked("sum", a, axis, dtype, keepdims, out, where, initial)
    return _reduction("sum", a, axis, dtype, keepdims, out)


@implements(np.prod)
def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    if where is not True or initial is not None:
        return _masked("prod", a, axis, dtype, keepdims, out, where, initial)
    return _reduction("prod", a, axis, dtype, keepdims, out)


@implements(np.max, np.amax)
def max(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    if where is not True or initial is not None:
        return _masked("max", a, axis, None, keepdims, out, where, initial)
    return _reduction("max", a, axis, None, keepdims, out)


@implements(np.min, np.amin)
def min(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    if where is not True or initial is not None:
        return _masked("min", a, axis, None, keepdims, out, where, initial)
    return _reduction("min", a, axis, None, keepdims, out)


@implements(np.any)
def any(a, axis=None, out=None, keepdims=False, *, where=True):
    if where is not True:
        return _masked("any", a, axis, None, keepdims, out, where, None)
    return _reduction("any", a, axis, None, keepdims, out)


@implements(np.all)
def all(a, axis=None, out=None, keepdims=False, *, where=True):
    if where is not True:
        return _masked("all", a, axis, None, keepdims, out, where, None)
    return _reduction("all", a, axis, None, keepdims, out)


@implements(np.mean)
def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    a = _arr(a)
    if dtype is not None:
        a = _cast(a, canon_dtype(dtype))
    axes = _axes_arg(axis, a.ndim)
    if where is not True:
        res = ndarray._wrap(_g.reduce_where("mean", a._a, axes, bool(keepdims), _mask(where, a)))
    else:
        res = ndarray._wrap(_g.reduce("mean", a._a, axes, bool(keepdims)))
    if dtype is not None:
        res = _cast(res, canon_dtype(dtype))
    return _out(out, res)


def _mask(where, a):
    """NumPy's ``where=`` as a device bool array (uploaded once if it came from the host)."""
    m = _arr(where)
    if m.dtype != np.bool_:
        m = m.astype(np.bool_)
    return m._a


def _masked(op, a, axis, dtype, keepdims, out, where, initial):
    """``op`` with NumPy's ``where=``/``initial=`` on the device (``Array::reduce_where``), with
    ``_reduction``'s dtype rules."""
    x, want = _operand_and_result_dtype(op, a, dtype)
    mask = None if where is True else _mask(where, x)
    init = None if initial is None else _initial(initial, x.dtype)
    axes = _axes_arg(axis, x.ndim)
    res = ndarray._wrap(_g.reduce_where(op, x._a, axes, bool(keepdims), mask, init))
    if res.dtype != want:
        res = res.astype(want)
    return _out(out, res)


def _initial(initial, dtype):
    """``initial`` as the reduction's dtype holds it (NumPy casts it; a complex one is refused
    for real arrays)."""
    if isinstance(initial, int) and not isinstance(initial, bool) and dtype.kind in "iu":
        v = np.array(initial, dtype=dtype)[()]  # NumPy's OverflowError when out of range
    else:
        v = np.asarray(initial).astype(dtype, casting="unsafe")[()]
    if np.iscomplexobj(v):
        if v.imag != 0:
            raise TypeError("gpuarray: a complex initial= value is not supported")
        v = v.real
    return float(v)


def _var_where(a, axes, ddof, keepdims, std, where):
    """var/std of the elements ``where`` selects: the masked mean, then the masked mean square
    of the deviations, scaled for ``ddof`` by the selected count."""
    mask = _mask(where, a)
    mu = ndarray._wrap(_g.reduce_where("mean", a._a, axes, True, mask))
    d = a - mu
    sq = (d.real * d.real + d.imag * d.imag) if d.dtype.kind == "c" else d * d
    total = ndarray._wrap(_g.reduce_where("sum", sq._a, axes, bool(keepdims), mask))
    ones = ndarray._wrap(_g.filled("ones", list(a.shape), 1.0, total.dtype.name))
    count = ndarray._wrap(_g.reduce_where("sum", ones._a, axes, bool(keepdims), mask))
    v = total / np.maximum(count - ddof, 0)  # NumPy: no fewer than zero degrees of freedom
    return np.sqrt(v) if std else v


def _var(a, axis, dtype, out, ddof, keepdims, std, nan=False, where=True):
    a = _arr(a)
    if dtype is not None:
        a = _cast(a, canon_dtype(dtype))
    axes = _axes_arg(axis, a.ndim)
    ddof = operator.index(ddof)
    if where is not True:
        if a.dtype.kind not in "fc":
            a = a.astype(np.float64)
        return _out(out, _var_where(a, axes, ddof, keepdims, std, where))
    if ddof >= 0:
        return _out(out, ndarray._wrap(_g.var(a._a, axes, ddof, bool(keepdims), std)))
    # NumPy allows a negative ddof (divide by n - ddof > n): rescale the ddof=0 variance.
    n = a.size if axes is None else int(np.prod([a.shape[i] for i in axes]))
    v = ndarray._wrap(_g.var(a._a, axes, 0, bool(keepdims), False)) * (n / (n - ddof))
    return _out(out, np.sqrt(v) if std else v)


@implements(np.var)
def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
        correction=None):
    if mean is not None:
        raise NotImplementedError("gpuarray.var: mean= is not supported")
    if correction is not None:
        ddof = correction
    return _var(a, axis, dtype, out, ddof, keepdims, False, where=where)


@implements(np.std)
def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
        correction=None):
    if mean is not None:
        raise NotImplementedError("gpuarray.std: mean= is not supported")
    if correction is not None:
        ddof = correction
    return _var(a, axis, dtype, out, ddof, keepdims, True, where=where)


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
