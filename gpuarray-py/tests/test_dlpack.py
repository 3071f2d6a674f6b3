"""DLPack exchange by host copy: ``np.from_dlpack`` of a gpuarray array for every dtype (exact
values, shapes, strides of the exported tensor), the versioned capsule's ``IS_COPIED`` flag,
``copy=False`` refused with ``BufferError`` as the standard asks of a producer that cannot share,
and ``gpuarray.from_dlpack`` of NumPy, PyTorch and JAX producers (the latter two where installed;
otherwise skipped with the reason printed)."""

import ctypes

import numpy as np
import pytest

import gpuarray as ga

DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
          np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128]


def values(dtype, shape):
    rng = np.random.default_rng(4)
    x = rng.standard_normal(shape) * 100
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_numpy_round_trip_is_exact_for_every_dtype(dtype):
    h = values(dtype, (3, 5))
    g = ga.asarray(h)
    back = np.from_dlpack(g)
    assert back.dtype == h.dtype and back.shape == h.shape
    assert back.strides == h.strides
    np.testing.assert_array_equal(back, h)
    # A transposed view exports its values (the host copy is contiguous).
    t = np.from_dlpack(g.T)
    np.testing.assert_array_equal(t, h.T)
    # And back: numpy -> gpuarray through DLPack.
    again = ga.from_dlpack(back)
    assert isinstance(again, ga.ndarray) and again.dtype == h.dtype
    np.testing.assert_array_equal(again.get(), h)


def _capsule_flags(capsule):
    """The flags of a DLManagedTensorVersioned capsule: {version (2 u32), manager_ctx, deleter,
    flags (u64), dl_tensor}."""
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype = ctypes.c_void_p
    get.argtypes = [ctypes.py_object, ctypes.c_char_p]
    ptr = get(capsule, b"dltensor_versioned")
    return ctypes.c_uint64.from_address(ptr + 24).value


def test_export_is_a_flagged_host_copy_and_copy_false_is_refused():
    g = ga.arange(12, dtype=np.float32).reshape(3, 4)
    assert g.__dlpack_device__() == (1, 0)  # kDLCPU: the tensor handed out is on the host
    cap = g.__dlpack__(max_version=(1, 0))
    is_copied = 1 << 1
    assert _capsule_flags(cap) & is_copied
    with pytest.raises(BufferError, match="copy"):
        g.__dlpack__(copy=False)
    with pytest.raises(BufferError):
        g.__dlpack__(dl_device=(2, 0))  # kDLCUDA
    with pytest.raises(BufferError):
        ga.from_dlpack(np.ones(3), copy=False)
    with pytest.raises(TypeError):
        ga.from_dlpack([1, 2, 3])
    # The array is untouched by its exports.
    np.testing.assert_array_equal(g.get(), np.arange(12, dtype=np.float32).reshape(3, 4))
    # The array API namespace has it too.
    xp = g.__array_namespace__()
    np.testing.assert_array_equal(xp.from_dlpack(np.arange(3)).get(), np.arange(3))


def test_torch_exchange():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed here")
    t = torch.arange(10, dtype=torch.float32).reshape(2, 5)
    g = ga.from_dlpack(t)
    np.testing.assert_array_equal(g.get(), t.numpy())
    back = torch.from_dlpack(g)
    assert torch.equal(back, t)


def test_jax_exchange():
    jnp = pytest.importorskip("jax.numpy", reason="JAX is not installed here")
    x = jnp.arange(6, dtype=jnp.float32)
    g = ga.from_dlpack(x)
    np.testing.assert_array_equal(g.get(), np.asarray(x))
    back = jnp.from_dlpack(g)
    np.testing.assert_array_equal(np.asarray(back), np.asarray(x))


def test_numpy2_copy_semantics_and_array_namespace_versions():
    h = np.arange(12, dtype=np.float32).reshape(3, 4)
    g = ga.asarray(h)
    # asarray: copy=None shares, copy=True copies, copy=False refuses what would need a copy.
    assert ga.asarray(g) is g
    c = ga.asarray(g, copy=True)
    c[0, 0] = 99
    assert g.get()[0, 0] == 0
    with pytest.raises(ValueError):
        ga.asarray(g, dtype=np.float64, copy=False)
    with pytest.raises(ValueError):
        ga.asarray(h, copy=False)  # host data always moves: a copy
    assert ga.asarray(g, dtype=np.float64).dtype == np.float64
    # astype: copy=False returns the array itself when the dtype is already right.
    assert g.astype(np.float32, copy=False) is g
    assert g.astype(np.float32) is not g
    # reshape: copy=False keeps views and refuses a layout that needs a copy, as NumPy 2.
    v = np.reshape(g, (4, 3), copy=False)
    v[0, 0] = 7
    assert g.get()[0, 0] == 7
    with pytest.raises(ValueError):
        np.reshape(g.T, (12,), copy=False)
    with pytest.raises(ValueError):
        np.reshape(h.T, (12,), copy=False)  # NumPy's own answer, for comparison
    np.testing.assert_array_equal(np.reshape(g.T, (12,)).get(), g.get().T.reshape(12))
    # __array_namespace__: the versions the namespace implements, others refused.
    for version in (None, "2022.12", "2023.12"):
        assert g.__array_namespace__(api_version=version).__name__ == "gpuarray.array_api"
    with pytest.raises(ValueError):
        g.__array_namespace__(api_version="2019.01")
