"""``numpy.fft`` and complex arrays on gpuarray, against NumPy (pocketfft) on the same inputs:
NumPy's own calls dispatch here; dtypes are NumPy 2's (float32 → complex64, float64 and
integers → complex128); values within a small multiple of log2(n)·eps of NumPy's; errors are
NumPy's exception types."""

import numpy as np
import pytest

import gpuarray as ga

RNG = np.random.default_rng(11)


def tol(dtype, n):
    single = np.dtype(dtype) in (np.float32, np.complex64)
    eps = np.finfo(np.float32 if single else np.float64).eps
    return 8 * max(np.log2(max(n, 2)), 1) * eps


def close(got, want, dtype, n):
    assert isinstance(got, ga.ndarray)
    assert got.dtype == want.dtype, f"{got.dtype} != {want.dtype}"
    h = got.get()
    assert h.shape == want.shape
    scale = max(np.abs(want).max(initial=0.0), 1.0)
    err = np.abs(h - want).max(initial=0.0) / scale
    assert err <= tol(dtype, n), f"error {err:.3g} > {tol(dtype, n):.3g}"


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("n", [1, 2, 5, 16, 17, 97, 1000, 1009])
def test_fft_ifft_match_numpy(dtype, n):
    x = RNG.standard_normal(n)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.standard_normal(n)
    x = x.astype(dtype)
    g = ga.asarray(x)
    for norm in (None, "ortho", "forward"):
        close(np.fft.fft(g, norm=norm), np.fft.fft(x, norm=norm), dtype, n)
        close(np.fft.ifft(g, norm=norm), np.fft.ifft(x, norm=norm), dtype, n)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [1, 2, 7, 8, 30, 101])
def test_real_transforms_match_numpy(dtype, n):
    x = RNG.standard_normal((3, n)).astype(dtype)
    g = ga.asarray(x)
    close(np.fft.rfft(g), np.fft.rfft(x), dtype, n)
    spec = np.fft.rfft(x)
    close(np.fft.irfft(ga.asarray(spec), n=n), np.fft.irfft(spec, n=n), dtype, n)
    close(np.fft.ihfft(g), np.fft.ihfft(x), dtype, n)
    close(np.fft.hfft(ga.asarray(spec), n=n), np.fft.hfft(spec, n=n), dtype, n)


def test_n_axes_views_and_nd_transforms_match_numpy():
    x = (RNG.standard_normal((4, 6, 10)) + 1j * RNG.standard_normal((4, 6, 10))).astype(np.complex64)
    g = ga.asarray(x)
    close(np.fft.fft(g, n=7, axis=1), np.fft.fft(x, n=7, axis=1), np.complex64, 7)
    close(np.fft.fft(g, n=16, axis=0), np.fft.fft(x, n=16, axis=0), np.complex64, 16)
    close(np.fft.fft2(g), np.fft.fft2(x), np.complex64, 60)
    close(np.fft.ifft2(g, s=(5, 8)), np.fft.ifft2(x, s=(5, 8)), np.complex64, 40)
    close(np.fft.fftn(g), np.fft.fftn(x), np.complex64, 240)
    close(np.fft.ifftn(g, axes=(0, 2)), np.fft.ifftn(x, axes=(0, 2)), np.complex64, 40)
    t = g.transpose(2, 0, 1)
    close(np.fft.fft(t, axis=1), np.fft.fft(x.transpose(2, 0, 1), axis=1), np.complex64, 4)
    r = x.real.copy()
    gr = ga.asarray(r)
    close(np.fft.rfftn(gr), np.fft.rfftn(r), np.float32, 240)
    close(np.fft.rfft2(gr, axes=(0, 1)), np.fft.rfft2(r, axes=(0, 1)), np.float32, 24)
    spec = np.fft.rfftn(r)
    close(np.fft.irfftn(ga.asarray(spec), s=r.shape, axes=(0, 1, 2)),
          np.fft.irfftn(spec, s=r.shape, axes=(0, 1, 2)), np.float32, 240)
    close(np.fft.irfft2(ga.asarray(spec)), np.fft.irfft2(spec), np.float32, 240)
    # fftshift / ifftshift and the frequencies.
    i = np.arange(24).reshape(4, 6)
    assert (np.fft.fftshift(ga.asarray(i)).get() == np.fft.fftshift(i)).all()
    assert (np.fft.ifftshift(ga.asarray(i), axes=1).get() == np.fft.ifftshift(i, axes=1)).all()
    assert (ga.fft.fftfreq(7, 0.5).get() == np.fft.fftfreq(7, 0.5)).all()
    assert (ga.fft.rfftfreq(8).get() == np.fft.rfftfreq(8)).all()


def test_invalid_arguments_raise_numpys_exceptions():
    g = ga.asarray(np.ones(4, np.float32))
    for f, args, kw in [
        (np.fft.fft, (g,), {"n": 0}),
        (np.fft.fft, (g,), {"norm": "unitary"}),
        (np.fft.fftn, (g,), {"s": (4, 4), "axes": (0,)}),
        (np.fft.irfft, (ga.asarray(np.ones(1, np.complex64)),), {}),
    ]:
        with pytest.raises(ValueError):
            f(*args, **kw)
        with pytest.raises(ValueError):
            f(*[a.get() for a in args], **kw)
    with pytest.raises(np.exceptions.AxisError if hasattr(np, "exceptions") else IndexError):
        np.fft.fft(g, axis=2)
    with pytest.raises(TypeError):
        np.fft.rfft(ga.asarray(np.ones(4, np.complex64)))


def test_plan_cache_settings():
    ga.fft.set_plan_cache_limits(16, 0)
    np.fft.fft(ga.asarray(np.ones(23, np.complex64)))  # Bluestein: two plans
    info = ga.fft.get_plan_cache_info()
    assert info["max_size"] == 16 and info["size"] >= 2 and info["memory"] > 0
    ga.fft.set_plan_cache_limits(1, 0)
    assert ga.fft.get_plan_cache_info()["size"] == 1
    ga.fft.set_plan_cache_limits(16, 0)


def test_complex_arrays_and_ufuncs_match_numpy():
    z = (RNG.standard_normal(50) + 1j * RNG.standard_normal(50)).astype(np.complex64)
    w = (RNG.standard_normal(50) + 1j * RNG.standard_normal(50)).astype(np.complex64)
    gz, gw = ga.asarray(z), ga.asarray(w)
    assert gz.dtype == np.complex64 and (gz.get() == z).all()
    for f in (np.add, np.subtract, np.multiply, np.divide):
        np.testing.assert_allclose(f(gz, gw).get(), f(z, w), rtol=1e-6)
    for f in (np.negative, np.conjugate, np.sqrt, np.exp, np.log, np.square, np.sin, np.tanh):
        np.testing.assert_allclose(f(gz).get(), f(z), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.abs(gz).get(), np.abs(z), rtol=1e-6)
    assert np.abs(gz).dtype == np.float32
    np.testing.assert_allclose((gz * 2j).get(), z * 2j, rtol=1e-6)
    np.testing.assert_allclose((1.5 - gz).get(), 1.5 - z, rtol=1e-6)
    assert (gz.real.get() == z.real).all() and (np.imag(gz).get() == z.imag).all()
    np.testing.assert_allclose(np.angle(gz, deg=True).get(), np.angle(z, deg=True), rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(np.sum(gz).get(), np.sum(z), rtol=1e-5)
    np.testing.assert_allclose(np.mean(gz).get(), np.mean(z), rtol=1e-5)
    m = ga.asarray(z[:12].reshape(3, 4))
    np.testing.assert_allclose((m @ m.T).get(), z[:12].reshape(3, 4) @ z[:12].reshape(3, 4).T, rtol=1e-5)
    assert (np.equal(gz, gz).get()).all()
    # float64 and integers promote to complex128, as NumPy.
    assert (ga.asarray(np.arange(3)) + 1j).dtype == np.complex128
    # Writing a complex scalar into a complex array; into a real one is NumPy's TypeError.
    gz[0] = 3 - 4j
    z[0] = 3 - 4j
    assert (gz.get() == z).all()
    with pytest.raises(TypeError):
        ga.zeros(2)[0] = 1j
    # Casts to real: NumPy's ComplexWarning, the real part; to bool: either part non-zero.
    with pytest.warns(np.exceptions.ComplexWarning):
        r = gz.astype(np.float32)
    assert (r.get() == z.real).all()
    zb = np.array([0, 1j, 2, 0j], np.complex64)
    assert (ga.asarray(zb).astype(bool).get() == zb.astype(bool)).all()
    # where, isclose and vdot (which conjugates its first operand) take complex operands.
    m = z.real > 0
    np.testing.assert_array_equal(np.where(ga.asarray(m), gz, gw).get(), np.where(m, z, w))
    assert (np.isclose(gz, gz + 1e-9).get()).all()
    np.testing.assert_allclose(np.vdot(gz, gw).get(), np.vdot(z, w), rtol=1e-5)
    # Ops NumPy defines on complex that gpuarray lacks yet are NumPy's TypeError, not wrong.
    with pytest.raises(TypeError):
        np.floor(gz)
    assert repr(ga.asarray(np.array([1 + 2j, -1j], np.complex64))).startswith("array(")
