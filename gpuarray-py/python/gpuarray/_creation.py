"""Array creation: zeros, ones, empty, full, the *_like functions, arange, linspace, eye,
and NEP-35 ``like=`` calls (np.asarray(x, like=gpu_array)).
"""

from __future__ import annotations

import operator

import numpy as np

from . import _gpuarray as _g
from ._core import _shape_tuple, asarray, broadcast_to, canon_dtype, ndarray
from ._registry import implements, _arr


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
    if axis != 0:
        raise NotImplementedError("gpuarray.linspace supports axis=0 only")
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    dt = canon_dtype(dtype) if dtype is not None else canon_dtype(None)
    if endpoint:
        out = ndarray._wrap(_g.linspace(float(start), float(stop), num, dt.name))
        step = (stop - start) / (num - 1) if num > 1 else np.nan
    else:
        # NumPy's step is then (stop - start) / num: the first num values of num + 1 points
        # that end at stop, the same products start + i * step.
        out = ndarray._wrap(_g.linspace(float(start), float(stop), num + 1, dt.name))[:num]
        step = (stop - start) / num if num > 0 else np.nan
    if retstep:
        return out, step
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
