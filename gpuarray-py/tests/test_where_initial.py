"""NumPy's ``where=`` and ``initial=`` on reductions and ufuncs, and the one-argument
``np.where``, against NumPy on the same inputs (hypothesis draws the shapes, axes and masks):
exact for integers and for max/min, within a few eps for float sums and means."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gpuarray as ga

SETTINGS = settings(max_examples=25, deadline=None, print_blob=True)


@st.composite
def masked_case(draw, dtype):
    shape = tuple(draw(st.lists(st.integers(0, 5), min_size=1, max_size=3)))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    if np.dtype(dtype).kind == "f":
        a = rng.standard_normal(shape).astype(dtype)
        if a.size:
            a.flat[rng.integers(0, a.size)] = np.nan if draw(st.booleans()) else a.flat[0]
    else:
        a = rng.integers(-50, 50, shape).astype(dtype)
    # The mask: full shape, or one that broadcasts (a trailing axis, a scalar).
    form = draw(st.sampled_from(["full", "last", "scalar"]))
    if form == "full":
        m = rng.random(shape) < 0.6
    elif form == "last":
        m = rng.random(shape[-1:]) < 0.6
    else:
        m = np.bool_(draw(st.booleans()))
    axis = draw(st.sampled_from([None] + list(range(len(shape)))))
    keepdims = draw(st.booleans())
    return a, m, axis, keepdims


def check(got, want, exact):
    assert isinstance(got, ga.ndarray)
    h = got.get()
    assert h.dtype == want.dtype and h.shape == np.shape(want), (h.dtype, want.dtype, h.shape)
    if exact:
        np.testing.assert_array_equal(h, want)
    else:
        np.testing.assert_allclose(h, want, rtol=2e-5, atol=2e-5, equal_nan=True)


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int64, np.uint8])
@SETTINGS
@given(data=st.data())
def test_sum_prod_max_min_with_where_and_initial(dtype, data):
    a, m, axis, keepdims = data.draw(masked_case(dtype))
    g, gm = ga.asarray(a), ga.asarray(m)
    exact = np.dtype(dtype).kind != "f"
    kw = dict(axis=axis, keepdims=keepdims)
    check(np.sum(g, where=gm, **kw), np.sum(a, where=m, **kw), exact)
    check(np.sum(g, where=m, initial=3, **kw), np.sum(a, where=m, initial=3, **kw), exact)
    check(np.prod(g % 3 + 1 if exact else g, where=gm, **kw),
          np.prod(a % 3 + 1 if exact else a, where=m, **kw), exact)
    for f in (np.max, np.min):
        check(f(g, where=gm, initial=7, **kw), f(a, where=m, initial=7, **kw), True)
        check(f(g, initial=5, **kw), f(a, initial=5, **kw), True)
        with pytest.raises(ValueError, match="initial"):
            f(g, where=gm, **kw)
    if dtype == np.uint8:
        with pytest.raises(OverflowError):  # NumPy's: -7 is no uint8
            np.max(g, initial=-7)
    check(np.any(g, where=gm, **kw), np.any(a, where=m, **kw), True)
    check(np.all(g, where=gm, **kw), np.all(a, where=m, **kw), True)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
@SETTINGS
@given(data=st.data())
def test_mean_var_std_and_nan_functions_with_where(dtype, data):
    a, m, axis, keepdims = data.draw(masked_case(dtype))
    g, gm = ga.asarray(a), ga.asarray(m)
    kw = dict(axis=axis, keepdims=keepdims)
    with np.errstate(all="ignore"), _quiet():
        check(np.mean(g, where=gm, **kw), np.mean(a, where=m, **kw), False)
        check(np.var(g, where=gm, **kw), np.var(a, where=m, **kw), False)
        check(np.std(g, where=gm, ddof=1, **kw), np.std(a, where=m, ddof=1, **kw), False)
        if np.dtype(dtype).kind == "f":
            check(np.nansum(g, where=gm, **kw), np.nansum(a, where=m, **kw), False)
            check(np.nanmean(g, where=gm, **kw), np.nanmean(a, where=m, **kw), False)
            check(np.nanmax(g, where=gm, initial=-9, **kw), np.nanmax(a, where=m, initial=-9, **kw), True)
            check(np.nanvar(g, where=gm, **kw), np.nanvar(a, where=m, **kw), False)


class _quiet:
    """NumPy warns for empty selections (mean of nothing); gpuarray computes the same NaN."""

    def __enter__(self):
        import warnings

        self._w = warnings.catch_warnings()
        self._w.__enter__()
        warnings.simplefilter("ignore")

    def __exit__(self, *exc):
        return self._w.__exit__(*exc)


def test_ufunc_where_out_and_reduce_with_where_and_initial():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((4, 6)).astype(np.float32)
    b = rng.standard_normal(6).astype(np.float32)
    m = rng.random((4, 6)) < 0.5
    out = np.full((4, 6), -1.0, np.float32)
    gout = ga.asarray(out)
    r = np.add(ga.asarray(a), ga.asarray(b), out=gout, where=ga.asarray(m))
    assert r is gout
    np.add(a, b, out=out, where=m)
    np.testing.assert_array_equal(gout.get(), out)
    gx = ga.asarray(a)
    np.multiply(gx, 2.0, out=gx, where=ga.asarray(m[0]))
    x = a.copy()
    np.multiply(x, 2.0, out=x, where=m[0])
    np.testing.assert_array_equal(gx.get(), x)
    # Without out=, the masked elements are NumPy's "uninitialised": compare the selected ones.
    got = np.sqrt(ga.asarray(np.abs(a)), where=ga.asarray(m)).get()
    np.testing.assert_allclose(got[m], np.sqrt(np.abs(a))[m], rtol=1e-6)
    for uf in (np.add, np.multiply, np.maximum, np.minimum):
        got = uf.reduce(ga.asarray(a), axis=1, where=ga.asarray(m), initial=1.5)
        np.testing.assert_allclose(got.get(), uf.reduce(a, axis=1, where=m, initial=1.5), rtol=1e-6)
    got = np.add.reduce(ga.asarray(a), axis=None, initial=10.0)
    np.testing.assert_allclose(got.get(), np.add.reduce(a, axis=None, initial=10.0), rtol=1e-5)


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.uint8, np.bool_, np.complex64])
def test_one_argument_where_is_nonzero(dtype):
    a = (np.arange(24).reshape(2, 3, 4) % 5 == 1).astype(dtype)
    got = np.where(ga.asarray(a))
    want = np.where(a)
    assert len(got) == len(want) == 3
    for g, w in zip(got, want):
        assert g.dtype == w.dtype
        np.testing.assert_array_equal(g.get(), w)
    np.testing.assert_array_equal(np.argwhere(ga.asarray(a)).get(), np.argwhere(a))
    with pytest.raises(ValueError):
        np.where(ga.asarray(a), 1)
