"""gpuarray: NumPy-style N-dimensional arrays on any GPU (wgpu: Vulkan, Metal, DX12, GL; on
machines without a GPU, Mesa's lavapipe).

    >>> import numpy as np, gpuarray as ga
    >>> a = ga.asarray(np.arange(6, dtype=np.float32).reshape(2, 3))
    >>> b = np.exp(a) + 1            # NumPy ufuncs run on the device
    >>> c = np.einsum("ij,kj->ik", a, b)   # NumPy functions too (NEP 18)
    >>> c.get()                      # explicit copy to the host

Arrays never move to the host implicitly (``np.asarray(x)`` raises ``TypeError``; use
``x.get()``). See ``gpuarray._core`` for the dtype rules and ``gpuarray.array_api`` for the
Array API namespace.
"""

from __future__ import annotations

import numpy as _np

from . import _gpuarray
from ._gpuarray import DeviceLostError, NoAdapterError, empty_cache, memory_stats, set_memory_limit
from ._core import asarray, asnumpy, broadcast_to, ndarray
from ._dlpack import from_dlpack
from ._device import Device, device_info, get_device, synchronize
from ._gpuarray import Profile
from ._kernels import ElementwiseKernel, Fusion, RawKernel, ReductionKernel, fuse
from ._timing import BenchmarkResult, benchmark, profile
from ._functions import (
    all, allclose, any, arange, argmax, argmin, argsort, argwhere, array_equal, array_equiv,
    astype, bincount, histogram, nan_to_num, partition, argpartition, lexsort, clip, count_nonzero, extract, flatnonzero, nonzero, searchsorted, unique,
    concatenate, copy, cumprod, cumsum, isclose, nanargmax, nanargmin, nancumsum, nanmax,
    nanmean, nanmin, nanprod, nanstd, nansum, nanvar,
    cumulative_prod, cumulative_sum, diagonal, dot, matrix_transpose, unstack, vecdot,
    einsum, einsum_path, empty, empty_like, expand_dims, eye, flip, full, full_like, hstack,
    identity, inner, kron, linspace, logsumexp, matmul, max, mean, min, moveaxis, ones,
    ones_like, outer, pad, prod, relu, sigmoid, softmax, ravel, ravel_multi_index, repeat, reshape, roll, round, split, squeeze, stack,
    sort, std, sum, swapaxes, take, tensordot, tile, trace, transpose, tril, triu, unravel_index,
    var, vdot, real, imag, angle,
    vstack, where, zeros, zeros_like,
)
from . import random  # noqa: E402
from . import linalg  # noqa: E402
from . import fft  # noqa: E402

# Shown as gpuarray.ndarray (in reprs, Dask's chunktype), as NumPy's classes are numpy.ndarray.
ndarray.__module__ = "gpuarray"

bool_ = _np.dtype("bool")
int8 = _np.dtype("int8")
int16 = _np.dtype("int16")
int32 = _np.dtype("int32")
int64 = _np.dtype("int64")
uint8 = _np.dtype("uint8")
uint16 = _np.dtype("uint16")
uint32 = _np.dtype("uint32")
uint64 = _np.dtype("uint64")
float16 = _np.dtype("float16")
float32 = _np.dtype("float32")
float64 = _np.dtype("float64")
newaxis = None


def _ufunc_function(uf):
    def f(*args, **kwargs):
        return uf(*[a if _np.isscalar(a) or isinstance(a, ndarray) else asarray(a) for a in args],
                  **kwargs)

    f.__name__ = uf.__name__
    f.__qualname__ = uf.__name__
    f.__doc__ = f"``numpy.{uf.__name__}`` on the device (see ``gpuarray._ufuncs``)."
    return f


def _export_ufuncs():
    from ._ufuncs import BINARY, UNARY

    g = globals()
    for uf, name in list(BINARY.items()) + list(UNARY.items()):
        g.setdefault(uf.__name__, _ufunc_function(uf))
    g["abs"] = g["absolute"]
    g["mod"] = g["remainder"]
    g["true_divide"] = g["divide"]
    g["conj"] = g["conjugate"]


_export_ufuncs()


def _register_with_dask_if_loaded():
    from . import _dask

    _dask.maybe_register()


_register_with_dask_if_loaded()
