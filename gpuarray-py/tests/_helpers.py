"""Comparing gpuarray results with NumPy's."""

import numpy as np

import gpuarray as ga

# Tolerances by dtype: f16 ops compute in f32 and round (1 ulp of f16 is ~1e-3); f32 math
# built-ins are within a few ulp; f64 transcendentals are software, within a few ulp.
TOL = {
    np.dtype("float16"): dict(rtol=2e-3, atol=1e-3),
    np.dtype("float32"): dict(rtol=2e-5, atol=1e-6),
    np.dtype("float64"): dict(rtol=1e-12, atol=1e-13),
}


def expected_dtype(d):
    """NumPy's dtype itself: gpuarray has every NumPy real dtype."""
    return np.dtype(d)


def assert_same(got, want, *, tol=None, check_dtype=True):
    """``got`` is a gpuarray.ndarray equal to NumPy's ``want``: shape, dtype (NumPy's exactly),
    values exact for ints and bools, within the dtype's tolerance for floats; NaNs and
    infinities in the same places."""
    assert isinstance(got, ga.ndarray), f"expected gpuarray.ndarray, got {type(got)}"
    want = np.asarray(want)
    h = got.get()
    assert h.shape == want.shape, f"shape {h.shape} != {want.shape}"
    if check_dtype:
        assert got.dtype == expected_dtype(want.dtype), f"dtype {got.dtype} != {want.dtype}"
    if want.dtype.kind in "biu" and h.dtype.kind in "biu":
        np.testing.assert_array_equal(h, want)
    else:
        t = tol or TOL.get(np.dtype(h.dtype), TOL[np.dtype("float32")])
        np.testing.assert_allclose(
            h.astype(np.float64), want.astype(np.float64), equal_nan=True, **t
        )


def outcome(f):
    """(result, None) or (None, exception type)."""
    try:
        with np.errstate(all="ignore"):
            return f(), None
    except Exception as e:  # noqa: BLE001 - the type is what the test compares
        return None, type(e)
