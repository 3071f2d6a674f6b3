"""DLPack exchange (``__dlpack__``, ``__dlpack_device__``, ``gpuarray.from_dlpack``) by host copy.

wgpu exposes no native handle to a buffer's memory (gfx-rs/wgpu#4067), so gpuarray cannot hand a
consumer its device memory. What it can do honestly is what the standard allows a producer that
cannot share: export a host copy, say so (``__dlpack_device__`` is ``kDLCPU``, and a versioned
capsule carries the ``IS_COPIED`` flag), and refuse ``copy=False`` with ``BufferError``. The
capsule itself is NumPy's (its ``DLManagedTensorVersioned`` when the consumer asks for version
1 or later, the legacy ``DLManagedTensor`` otherwise): one readback, then NumPy's copy for the
flag. Importing takes any producer NumPy can read (NumPy, PyTorch CPU tensors, JAX CPU arrays),
or asks one on another device for a host copy (``dl_device=kDLCPU``: CuPy, CUDA tensors), then
uploads once.

The zero-copy path later: on Metal, an ``MTLBuffer`` handle (PyTorch MPS and MLX take
``kDLMetal`` tensors); on Vulkan, exportable device memory (``VK_KHR_external_memory_fd``) that
a consumer imports as ``kDLVulkan``; both need wgpu's hal layer to expose the raw buffer with
the allocation's offset and keep it alive while a capsule holds it.
"""

from __future__ import annotations

import numpy as np

KDL_CPU = 1


def export(a, stream=None, max_version=None, dl_device=None, copy=None):
    if copy is False:
        raise BufferError(
            "gpuarray cannot share its device memory through DLPack (wgpu exposes no native "
            "buffer handle, gfx-rs/wgpu#4067); call __dlpack__ with copy=None or copy=True for a "
            "host copy"
        )
    if dl_device is not None and tuple(dl_device) != (KDL_CPU, 0):
        raise BufferError(
            f"gpuarray exports DLPack tensors on the host (kDLCPU, 0) only, not on {tuple(dl_device)}"
        )
    host = a.get()
    if not host.flags.writeable:
        host = host.copy()
    # copy=True: NumPy marks a versioned capsule IS_COPIED (the tensor is a copy of ours).
    return host.__dlpack__(stream=stream, max_version=max_version, copy=True)


def device():
    """``__dlpack_device__``: where an exported tensor lives (the host: it is a copy)."""
    return (KDL_CPU, 0)


def from_dlpack(x, /, *, device=None, copy=None):
    """``from_dlpack(x)``: a gpuarray array with the values of any DLPack producer — NumPy,
    PyTorch, JAX, CuPy (through a host copy the producer makes) — uploaded once. ``copy=False``
    is ``BufferError`` (the upload is always a copy)."""
    from ._core import asarray, ndarray

    if copy is False:
        raise BufferError("gpuarray.from_dlpack always copies: the data moves to the device")
    if isinstance(x, ndarray):
        return x.copy() if copy else x
    if not hasattr(x, "__dlpack__"):
        raise TypeError(f"{type(x).__name__} is not a DLPack producer (no __dlpack__)")
    kind = x.__dlpack_device__()[0] if hasattr(x, "__dlpack_device__") else KDL_CPU
    if kind == KDL_CPU:
        host = np.from_dlpack(x)
    else:
        # Another device: ask the producer for a host copy.
        host = np.from_dlpack(x, device="cpu")
    return asarray(host)  # `device`: gpuarray's one device, as everywhere in its array API
