"""``__array_ufunc__``: NumPy ufuncs on ``gpuarray.ndarray`` run the crate's kernels.

NumPy itself decides the loop dtypes (``ufunc.resolve_dtypes``, NEP 50: Python scalars are
"weak"), so results have NumPy's dtypes wherever gpuarray has that dtype; inputs are cast on
the device to the loop's dtype first (``int32 / int32`` computes in float64, as NumPy does;
``int32 + uint32`` in int64). A promotion to a dtype gpuarray lacks raises ``TypeError``;
an op the crate lacks for complex operands raises NumPy's ``TypeError``. Unhandled ufuncs, methods, keyword arguments or operand types give
``NotImplemented``, so NumPy raises its usual ``TypeError``.
"""

from __future__ import annotations

import numbers

import numpy as np

from . import _gpuarray as _g
from ._core import _DTYPES, ndarray

# NumPy ufunc -> the crate op name, read from the crate's op table (the extension's `binary` and
# `unary` take NumPy's names and aliases): every op NumPy has as a ufunc of the same arity.
BINARY = {}
UNARY = {}
for _name, _aliases, _arity in _g.elementwise_ops():
    for _n in (_name, *_aliases):
        _u = getattr(np, _n, None)
        if isinstance(_u, np.ufunc) and _u.nin == _arity and _u.nout == 1:
            (BINARY if _arity == 2 else UNARY).setdefault(_u, _name)
UNARY[np.positive] = "positive"
UNARY[np.conjugate] = "conjugate"
UNARY[np.fabs] = "absolute"

# ufunc.reduce -> the crate reduction.
REDUCE = {
    np.add: "sum",
    np.multiply: "prod",
    np.maximum: "max",
    np.minimum: "min",
    np.logical_and: "all",
    np.logical_or: "any",
}
ACCUMULATE = (np.add, np.multiply, np.maximum, np.minimum, np.logical_and, np.logical_or)

# NumPy 2.2's vector gufuncs, as matmul/multiply-sum (their axes= keyword is not supported).
GUFUNCS = tuple(getattr(np, n) for n in ("vecdot", "matvec", "vecmat") if hasattr(np, n))

_SCALARS = (bool, int, float, np.bool_, np.integer, np.floating, np.complexfloating)


def _operand(x):
    """``(dtype-or-python-type for resolve_dtypes, value)``; None if the type is unhandled."""
    if isinstance(x, ndarray):
        return x._dtype, x
    if isinstance(x, np.ndarray) and x.ndim == 0 and x.dtype.kind in "biufc":
        # NumPy turns a scalar on the left (`np.float32(1) <= x`) into a 0-d array.
        x = x[()]
    if isinstance(x, np.generic) and isinstance(x, _SCALARS):
        # NumPy scalars are typed ("strong"), as in NumPy.
        return x.dtype, x.item()
    if isinstance(x, bool):
        # Python bools promote like a bool array (bool never wins), and resolve_dtypes
        # takes no `bool` type.
        return np.dtype(bool), x
    if isinstance(x, numbers.Integral):
        return int, int(x)
    if isinstance(x, numbers.Real):
        return float, float(x)
    if isinstance(x, numbers.Complex):
        return complex, complex(x)
    return None


def _fit_loop(loop, ops, ufunc) -> tuple:
    """NumPy's loop dtypes, each one gpuarray has, or TypeError."""
    fitted = []
    for d in loop:
        d = np.dtype(d)
        if d in _DTYPES:
            fitted.append(d)
        elif d.kind in "iu" and np.dtype(d.str) in _DTYPES:
            fitted.append(np.dtype(d.str))  # longlong spelled as int64
        else:
            raise TypeError(f"{ufunc.__name__}: gpuarray has no dtype {d}")
    return tuple(fitted)


def _prepare(x, dt: np.dtype, ufunc):
    """An operand in the loop dtype: arrays cast on the device, scalars as Python floats."""
    if isinstance(x, ndarray):
        return x._a if x._dtype == dt else x._a.astype(dt.name)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        if not info.min <= x <= info.max:
            raise OverflowError(f"Python integer {x} out of bounds for {dt}")
        if abs(x) > 2**53:
            # Scalars travel as f64: one past 2^53 goes as a 0-d array of the loop's dtype.
            return _g._Array.from_numpy(np.asarray(x, dtype=dt))
    if dt.kind == "b":
        return float(bool(x))
    if dt.kind == "c":
        # A complex scalar travels as a 0-d array of the loop's dtype.
        return _g._Array.from_numpy(np.asarray(x, dtype=dt))
    return float(x)


def _write_out(out, result: ndarray, ufunc):
    if out is None:
        return result
    if not isinstance(out, ndarray):
        return NotImplemented
    if out.shape != result.shape:
        raise ValueError(
            f"non-broadcastable output operand with shape {out.shape} doesn't match the "
            f"broadcast shape {result.shape}"
        )
    if not np.can_cast(result.dtype, out.dtype, casting="same_kind"):
        # NumPy raises a TypeError subclass (UFuncTypeError) here, with this message.
        raise TypeError(
            f"Cannot cast ufunc {ufunc.__name__!r} output from {result.dtype!r} to "
            f"{out.dtype!r} with casting rule 'same_kind'"
        )
    out._a.assign(result._a)
    out._touch()
    return out


def _get_out(kwargs):
    out = kwargs.pop("out", None)
    if out is None:
        return None, True
    if isinstance(out, tuple):
        if len(out) != 1:
            return None, False
        out = out[0]
    if out is None:
        return None, True
    return out, isinstance(out, ndarray)


def array_ufunc(ufunc, method, inputs, kwargs):
    kwargs = dict(kwargs)
    out, ok = _get_out(kwargs)
    if not ok:
        return NotImplemented
    if method == "__call__":
        return _call(ufunc, inputs, kwargs, out)
    if method == "reduce" and ufunc in REDUCE:
        return _reduce(ufunc, inputs, kwargs, out)
    if method == "accumulate" and ufunc in ACCUMULATE:
        return _accumulate(ufunc, inputs, kwargs, out)
    return NotImplemented


def _call(ufunc, inputs, kwargs, out):
    where = kwargs.pop("where", True)
    if where is not True:
        # NumPy's where=: the result where the mask is true; elsewhere `out` keeps its values
        # (without out=, NumPy leaves those elements uninitialised: here they are computed).
        res = _call(ufunc, inputs, kwargs, None)
        if res is NotImplemented or out is None:
            return res
        if not isinstance(out, ndarray):
            return NotImplemented
        from ._reductions import _mask

        if not np.can_cast(res.dtype, out.dtype, casting="same_kind"):
            return _write_out(out, res, ufunc)  # NumPy's casting error
        merged = ndarray._wrap(_g.where_(_mask(where, res), res.astype(out.dtype)._a, out._a))
        return _write_out(out, merged, ufunc)
    dtype = kwargs.pop("dtype", None)
    if kwargs.pop("casting", "same_kind") != "same_kind":
        return NotImplemented
    kwargs.pop("subok", None)
    kwargs.pop("order", None)
    if kwargs:
        return NotImplemented
    if ufunc in GUFUNCS:
        return _gufunc(ufunc, inputs, out)
    if ufunc not in BINARY and ufunc not in UNARY and ufunc is not np.matmul:
        return NotImplemented
    ops = [_operand(x) for x in inputs]
    if any(o is None for o in ops) or not any(isinstance(o[1], ndarray) for o in ops):
        return NotImplemented
    types = tuple(o[0] for o in ops)
    is_array = tuple(isinstance(o[1], ndarray) for o in ops)
    key = (ufunc, types, is_array, dtype)
    loop = _LOOPS.get(key)
    if loop is None:
        # Resolving is a few microseconds of NumPy's machinery: done once per signature.
        sig = None
        if dtype is not None:
            from ._core import canon_dtype

            sig = (None,) * len(types) + (canon_dtype(dtype),)
        loop = ufunc.resolve_dtypes(types + (None,), **({} if sig is None else {"signature": sig}))
        loop = _fit_loop(loop, ops, ufunc)
        _LOOPS[key] = loop
    try:
        raw = _run(ufunc, ops, loop[:-1])
    except TypeError:
        # The crate lacks a few loops NumPy has (floor of bool, sign of uint32, ...): compute
        # in a wider dtype that holds every value exactly, then cast to NumPy's out dtype.
        wider = _WIDER.get(loop[0])
        if wider is None or any(d != loop[0] for d in loop[:-1]):
            raise
        raw = _run(ufunc, ops, (wider,) * (len(loop) - 1))
    res = ndarray._wrap(raw)
    if res.dtype != loop[-1]:
        res = ndarray._wrap(raw.astype(loop[-1].name))
    return _write_out(out, res, ufunc)


# (ufunc, operand dtypes/types, which operands are arrays, dtype=) -> fitted loop dtypes.
# Bounded by the number of ufunc x dtype combinations.
_LOOPS: dict = {}

def _gufunc(ufunc, inputs, out):
    if len(inputs) != 2 or not all(isinstance(x, ndarray) for x in inputs):
        return NotImplemented
    a, b = inputs
    if ufunc.__name__ == "vecdot":
        from ._functions import vecdot

        res = vecdot(a, b)
    elif ufunc.__name__ == "matvec":
        res = np.matmul(a, b[..., None])[..., 0]
    else:  # vecmat: conj(v) @ A, and gpuarray has no complex dtypes
        res = np.matmul(a[..., None, :], b)[..., 0, :]
    return _write_out(out, res, ufunc)


_WIDER = {np.dtype("bool"): np.dtype("int32"), np.dtype("int32"): np.dtype("float64"),
          np.dtype("uint32"): np.dtype("float64"), np.dtype("float16"): np.dtype("float32")}


def _run(ufunc, ops, in_dtypes):
    args = [_prepare(o[1], d, ufunc) for o, d in zip(ops, in_dtypes)]
    if ufunc is np.matmul:
        if not all(isinstance(a, _g._Array) for a in args):
            raise ValueError("matmul: Input operand does not have enough dimensions")
        return _g.linalg2("matmul", args[0], args[1])
    if ufunc in BINARY:
        return _g.binary(BINARY[ufunc], args[0], args[1])
    return _g.unary(UNARY[ufunc], args[0])


def _reduce_args(ufunc, inputs, kwargs):
    if len(inputs) != 1 or not isinstance(inputs[0], ndarray):
        return None
    where = kwargs.pop("where", True)
    initial = kwargs.pop("initial", None)
    axis = kwargs.pop("axis", 0)
    dtype = kwargs.pop("dtype", None)
    keepdims = kwargs.pop("keepdims", False)
    if kwargs or (initial is not None and REDUCE[ufunc] in ("any", "all")):
        return None
    return inputs[0], axis, dtype, keepdims, where, initial


def _reduce(ufunc, inputs, kwargs, out):
    parsed = _reduce_args(ufunc, inputs, kwargs)
    if parsed is None:
        return NotImplemented
    x, axis, dtype, keepdims, where, initial = parsed
    from . import _functions as f
    from ._reductions import _masked

    if where is not True or initial is not None:
        res = _masked(REDUCE[ufunc], x, axis, dtype, keepdims, None, where, initial)
    else:
        res = f._reduction(REDUCE[ufunc], x, axis, dtype, keepdims)
    return _write_out(out, res, ufunc)


def _accumulate(ufunc, inputs, kwargs, out):
    if len(inputs) != 1 or not isinstance(inputs[0], ndarray):
        return NotImplemented
    axis = kwargs.pop("axis", 0)
    dtype = kwargs.pop("dtype", None)
    if kwargs:
        return NotImplemented
    from . import _functions as f

    x = inputs[0]
    if x.ndim == 0:
        raise TypeError("cannot accumulate on a scalar")
    if dtype is not None:
        x = x.astype(dtype)
    # NumPy 2 accumulates bool and the narrow integers in int64/uint64, as sum does.
    if ufunc is np.add:
        res = f._scan("cumsum", x, axis, keep_dtype=dtype is not None)
    elif ufunc is np.multiply:
        res = f._scan("cumprod", x, axis, keep_dtype=dtype is not None)
    elif ufunc is np.logical_or:
        res = f._scan("cumsum", x.astype(bool), axis) > 0
    elif ufunc is np.logical_and:
        res = f._scan("cumprod", x.astype(bool), axis) != 0
    else:
        res = f._doubling_scan(ufunc, x, axis)
    return _write_out(out, res, ufunc)
