"""``np.pad`` in every named mode against NumPy: per-axis widths (wider than the axis too, where
NumPy's reflections repeat), the modes' keywords per axis and end, integers and floats, and the
errors NumPy raises."""

import numpy as np
import pytest

import gpuarray as ga

RNG = np.random.default_rng(8)


def arrays():
    yield RNG.integers(-20, 20, (3, 4)).astype(np.int32)
    yield RNG.standard_normal((2, 3, 5)).astype(np.float32)
    yield RNG.standard_normal(7)
    yield RNG.integers(0, 200, (4, 1)).astype(np.uint8)


WIDTHS = [1, (2, 3), ((0, 1), (4, 2)), 9]


def same(got, want, mode):
    assert isinstance(got, ga.ndarray)
    h = got.get()
    assert h.dtype == want.dtype and h.shape == want.shape, (h.dtype, want.dtype, h.shape, want.shape)
    if want.dtype.kind == "f" and mode in ("linear_ramp", "mean", "median"):
        np.testing.assert_allclose(h, want, rtol=1e-6, atol=1e-6)
    else:
        np.testing.assert_array_equal(h, want)


def _fits(a, w):
    return np.broadcast_to(np.asarray(w), (a.ndim, 2)).shape == (a.ndim, 2)


@pytest.mark.parametrize("mode", ["edge", "wrap", "reflect", "symmetric", "maximum", "minimum",
                                  "mean", "median"])
def test_copy_and_statistic_modes_match_numpy(mode):
    for a in arrays():
        for w in WIDTHS:
            try:
                want = np.pad(a, w if _fits(a, w) else 1, mode=mode)
            except ValueError:
                continue
            got = np.pad(ga.asarray(a), w if _fits(a, w) else 1, mode=mode)
            same(got, want, mode)


def test_mode_keywords_match_numpy():
    a = RNG.integers(-9, 9, (4, 5)).astype(np.int64)
    f = RNG.standard_normal((4, 5)).astype(np.float32)
    cases = [
        (a, dict(mode="constant", constant_values=((1, 2), (3, 4)))),
        (f, dict(mode="constant", constant_values=(-1.5, 2.5))),
        (a, dict(mode="linear_ramp", end_values=((5, -5), (10, 0)))),
        (f, dict(mode="linear_ramp", end_values=2.0)),
        (a, dict(mode="maximum", stat_length=((1, 2), (3, 1)))),
        (f, dict(mode="mean", stat_length=2)),
        (a, dict(mode="median", stat_length=(2, 3))),
        (a, dict(mode="reflect", reflect_type="odd")),
        (f, dict(mode="symmetric", reflect_type="odd")),
    ]
    for x, kw in cases:
        want = np.pad(x, (2, 3), **kw)
        got = np.pad(ga.asarray(x), (2, 3), **kw)
        same(got, want, kw["mode"])
    e = np.pad(ga.asarray(a), 2, mode="empty")
    assert e.shape == (8, 9) and (e.get()[2:-2, 2:-2] == a).all()


@pytest.mark.parametrize("mode", ["reflect", "symmetric"])
def test_odd_reflections_past_one_period_are_numpys_bits(mode):
    # NumPy fills wide odd borders in rounds, each from the rounded values of the last: the
    # floats must match bit for bit, the integers (uint8 wrapping) exactly.
    for a in arrays():
        for w in [((7, 0), (0, 12)) if a.ndim == 2 else 6, 11, ((13, 2),) * a.ndim]:
            try:
                want = np.pad(a, w, mode=mode, reflect_type="odd")
            except ValueError:
                continue
            got = np.pad(ga.asarray(a), w, mode=mode, reflect_type="odd")
            same(got, want, mode)


def test_errors_are_numpys():
    g = ga.asarray(np.arange(6.0).reshape(2, 3))
    with pytest.raises(ValueError):
        np.pad(g, 1, mode="bogus")
    with pytest.raises(ValueError):
        np.pad(g, 1, mode="edge", constant_values=3)
    with pytest.raises(ValueError):
        np.pad(g, -1, mode="edge")
    with pytest.raises(ValueError):
        np.pad(g, ((1, 2, 3),), mode="edge")
    with pytest.raises(ValueError):
        np.pad(ga.zeros((0, 3)), 1, mode="edge")  # NumPy: can't extend an empty axis
    np.testing.assert_array_equal(np.pad(ga.zeros((0, 3)), ((0, 0), (1, 1)), mode="edge").get(),
                                  np.pad(np.zeros((0, 3)), ((0, 0), (1, 1)), mode="edge"))
    with pytest.raises(ValueError):
        np.pad(g, 1, mode="maximum", stat_length=0)


def test_a_function_mode_is_numpys():
    # NumPy's own example: the function fills each lane's borders in place (with a keyword).
    def pad_with(vector, pad_width, iaxis, kwargs):
        vector[:pad_width[0]] = kwargs.get("padder", 10)
        vector[vector.size - pad_width[1]:] = -iaxis - 1

    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    want = np.pad(a, ((1, 2), (2, 1)), pad_with, padder=7)
    got = np.pad(ga.asarray(a), ((1, 2), (2, 1)), pad_with, padder=7)
    same(got, want, "function")
