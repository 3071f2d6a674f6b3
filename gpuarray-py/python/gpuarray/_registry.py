"""The NEP-18 registry (``implements``, ``array_function``) and the helpers the array
functions share: operand conversion, NumPy's promotion with gpuarray's dtypes, out=, axes.
"""

from __future__ import annotations

import builtins

import numpy as np

from ._core import _DTYPES, _axis_tuple, _normalize_axes, asarray, ndarray


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
    """NumPy's accumulator of sum/prod/cumsum/cumprod without ``dtype=``: bool and the signed
    integers narrower than int64 in int64, the unsigned ones in uint64, the rest in
    themselves."""
    if d.kind == "b" or (d.kind == "i" and d.itemsize < 8):
        return np.dtype("int64")
    if d.kind == "u" and d.itemsize < 8:
        return np.dtype("uint64")
    return d
