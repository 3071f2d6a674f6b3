"""``gpuarray.fft``: NumPy's ``numpy.fft`` on gpuarray arrays (as ``cupy.fft``).

``numpy.fft.fft(x)`` on a ``gpuarray.ndarray`` already runs here through NumPy's dispatch; this
module offers the same functions by name, ``fftfreq``/``rfftfreq`` on the device, and the plan
cache's settings (``get_plan_cache_info``, ``set_plan_cache_limits``; CuPy's ``PlanCache``
keeps 16 plans by default, as this one does).
"""

from __future__ import annotations

from . import _gpuarray as _g
from ._fft import (  # noqa: F401
    fft,
    fft2,
    fftfreq,
    fftn,
    fftshift,
    hfft,
    ifft,
    ifft2,
    ifftn,
    ifftshift,
    ihfft,
    irfft,
    irfft2,
    irfftn,
    rfft,
    rfft2,
    rfftfreq,
    rfftn,
)


def get_plan_cache_info() -> dict:
    """What the device's FFT plan cache holds: size, max_size, memory (bytes), max_memory."""
    size, max_size, memory, max_memory = _g.fft_plan_cache_info()
    return {"size": size, "max_size": max_size, "memory": memory, "max_memory": max_memory}


def set_plan_cache_limits(max_size: int = 16, max_memory: int = 0) -> None:
    """At most ``max_size`` plans and ``max_memory`` device bytes (0: no memory limit)."""
    _g.fft_set_plan_cache_limits(int(max_size), int(max_memory))
