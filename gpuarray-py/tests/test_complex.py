"""Complex arrays beyond arithmetic, against NumPy on the same inputs: the inverse
trigonometric and hyperbolic functions and the other exponentials and logarithms (within a few
eps), NumPy's lexicographic comparisons, ``maximum``/``minimum``, ``sort``/``argsort``/``unique``
with NaNs (exact), ``prod``/``cumprod``/``max``/``min`` and ``einsum`` with a real operand."""

import numpy as np
import pytest

import gpuarray as ga

RNG = np.random.default_rng(5)
DTYPES = [np.complex64, np.complex128]


def sample(n, dtype):
    z = RNG.standard_normal(n) * 2 + 1j * RNG.standard_normal(n) * 2
    return z.astype(dtype)


def with_ties_and_nans(dtype):
    """Values sharing real parts, repeated, with signed zeros, infinities and NaN parts."""
    parts = [0.0, -0.0, 1.5, -2.0, np.inf, np.nan, 3.25]
    z = np.array([complex(r, i) for r in parts for i in parts] * 2, dtype=dtype)
    return RNG.permutation(z)


@pytest.mark.parametrize("dtype", DTYPES)
def test_inverse_functions_exponentials_and_logarithms_match_numpy(dtype):
    z = sample(200, dtype)
    z[:4] = [1.0, -1.0, 1j, 0.0]
    g = ga.asarray(z)
    eps = np.finfo(np.float32 if dtype == np.complex64 else np.float64).eps
    fs = (np.arcsin, np.arccos, np.arctan, np.arcsinh, np.arccosh, np.arctanh, np.exp2, np.expm1,
          np.log2, np.log10, np.log1p)
    with np.errstate(all="ignore"):
        for f in fs:
            got, want = f(g), f(z)
            assert got.dtype == want.dtype, f.__name__
            h = got.get()
            finite = np.isfinite(want)
            err = np.abs(h[finite] - want[finite]) / np.maximum(np.abs(want[finite]), 1.0)
            assert err.max() <= 16 * eps, (f.__name__, err.max())
            np.testing.assert_array_equal(np.isfinite(h), finite, err_msg=f.__name__)


@pytest.mark.parametrize("dtype", DTYPES)
def test_order_comparisons_and_maximum_follow_numpy(dtype):
    a = with_ties_and_nans(dtype)
    b = RNG.permutation(a)
    ga_a, ga_b = ga.asarray(a), ga.asarray(b)
    for f in (np.less, np.less_equal, np.greater, np.greater_equal, np.logical_and,
              np.logical_or, np.logical_xor):
        np.testing.assert_array_equal(f(ga_a, ga_b).get(), f(a, b), err_msg=f.__name__)
    np.testing.assert_array_equal(np.logical_not(ga_a).get(), np.logical_not(a))
    for f in (np.maximum, np.minimum, np.fmax, np.fmin):
        got = f(ga_a, ga_b).get()
        want = f(a, b)
        # The same element chosen, bit for bit (NaN payloads and the sign of zero included).
        np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8), err_msg=f.__name__)
    m = a.reshape(14, 7)
    for f in (np.max, np.min):
        for axis in (None, 0, 1):
            got = f(ga.asarray(m), axis=axis).get()
            np.testing.assert_array_equal(got, f(m, axis=axis), err_msg=f"{f.__name__} {axis}")


@pytest.mark.parametrize("dtype", DTYPES)
def test_sort_argsort_and_unique_follow_numpys_order(dtype):
    a = with_ties_and_nans(dtype)
    g = ga.asarray(a)
    np.testing.assert_array_equal(np.sort(g).get(), np.sort(a))
    np.testing.assert_array_equal(np.argsort(g, kind="stable").get(), np.argsort(a, kind="stable"))
    m = a.reshape(14, 7)
    for axis in (0, 1, None):
        np.testing.assert_array_equal(np.sort(ga.asarray(m), axis=axis).get(), np.sort(m, axis=axis))
    np.testing.assert_array_equal(np.unique(g).get(), np.unique(a))
    np.testing.assert_array_equal(np.unique(g, equal_nan=False).get(), np.unique(a, equal_nan=False))
    vals, idx, inv, counts = np.unique(g, return_index=True, return_inverse=True, return_counts=True)
    w = np.unique(a, return_index=True, return_inverse=True, return_counts=True)
    for got, want in zip((vals, idx, inv, counts), w):
        np.testing.assert_array_equal(got.get(), want)


@pytest.mark.parametrize("dtype", DTYPES)
def test_products_and_einsum_match_numpy(dtype):
    z = (1 + 0.2 * sample(60, dtype)).astype(dtype)
    rtol = 1e-4 if dtype == np.complex64 else 1e-12
    m = z.reshape(6, 10)
    g = ga.asarray(m)
    for axis in (None, 0, 1):
        np.testing.assert_allclose(np.prod(g, axis=axis).get(), np.prod(m, axis=axis), rtol=rtol)
    for axis in (None, 0, 1):
        np.testing.assert_allclose(np.cumprod(g, axis=axis).get(), np.cumprod(m, axis=axis), rtol=rtol)
    w = np.linspace(0.5, 2.0, 10)
    got = np.einsum("ij,j->i", g, ga.asarray(w))
    want = np.einsum("ij,j->i", m, w)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got.get(), want, rtol=rtol)
    got = np.einsum("ij,kj->ik", g, g)
    np.testing.assert_allclose(got.get(), np.einsum("ij,kj->ik", m, m), rtol=rtol)
