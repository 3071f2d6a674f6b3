"""Every NumPy integer dtype through NumPy's own functions and operators, against NumPy on the
same host data: dtypes compared exactly (NumPy's defaults, NEP 50 promotion with Python
scalars, intp indices, int64 accumulators), values exactly, including past 2^53 and at the
extremes."""

import numpy as np
import pytest
from _helpers import assert_same

import gpuarray as ga

INTS = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]
RNG = np.random.default_rng(32)


def data(dt, shape=(4, 5)):
    """Values over the dtype's whole range, its extremes, -1/0/1 where they exist."""
    info = np.iinfo(dt)
    x = RNG.integers(info.min, info.max, shape, dtype=dt, endpoint=True)
    flat = x.reshape(-1)
    flat[:3] = [info.min, info.max, 0]
    if info.min < 0:
        flat[3] = -1
    return x


def run(f, *arrays):
    with np.errstate(all="ignore"):
        want = f(*arrays)
        got = f(*[ga.asarray(a) for a in arrays])
    return got, want


def test_defaults_are_numpys():
    assert ga.asarray([1, 2]).dtype == np.array([1, 2]).dtype == np.int64
    assert ga.arange(5).dtype == np.int64
    assert ga.full((2,), 7).dtype == np.int64
    assert ga.zeros(3, dtype=int).dtype == np.int64
    assert np.iinfo(ga.asarray(np.zeros(2, np.uint16)).dtype).max == 65535
    assert ga.random.default_rng(1).integers(0, 10, 4).dtype == np.int64
    x = ga.asarray(np.array([3.0, 1.0, 2.0], np.float32))
    for f in (np.argsort, np.argmax, np.argmin, np.flatnonzero):
        assert f(x).dtype == np.int64, f
    assert np.searchsorted(ga.asarray(np.arange(4.0)), ga.asarray(np.array([1.5]))).dtype == np.int64
    assert np.bincount(ga.asarray(np.array([1, 1, 3]))).dtype == np.int64
    assert np.nonzero(x)[0].dtype == np.int64


@pytest.mark.parametrize("dt", INTS, ids=lambda d: np.dtype(d).name)
def test_arithmetic_and_comparisons(dt):
    a, b = data(dt), data(dt)
    b[b == 0] = 3
    for f in (np.add, np.subtract, np.multiply, np.maximum, np.minimum, np.bitwise_and,
              np.bitwise_xor, np.floor_divide, np.remainder, np.fmod, np.less, np.equal,
              np.greater_equal, np.gcd):
        got, want = run(f, a, b)
        assert_same(got, want)
    for f in (np.negative, np.absolute, np.square, np.invert, np.sign):
        if f is np.negative and np.dtype(dt).kind == "u":
            continue
        got, want = run(f, a)
        assert_same(got, want)
    shifts = (b % (8 * np.dtype(dt).itemsize)).astype(dt)
    got, want = run(np.left_shift, a, shifts)
    assert_same(got, want)
    got, want = run(np.right_shift, a, shifts)
    assert_same(got, want)


@pytest.mark.parametrize("dt", INTS, ids=lambda d: np.dtype(d).name)
def test_python_scalars_are_weak(dt):
    a = data(dt)
    ga_a = ga.asarray(a)
    for s in (1, 7, np.iinfo(dt).max // 3):
        with np.errstate(all="ignore"):
            assert_same(ga_a + s, a + s)
            assert_same(ga_a * s, a * s)
            assert_same(ga_a // s, a // s)
    assert_same(ga_a * 1.5, a * 1.5)  # promotes to float64, as NumPy's
    with pytest.raises(OverflowError):
        ga_a + (int(np.iinfo(dt).max) + 1)
    with pytest.raises(OverflowError):
        a + (int(np.iinfo(dt).max) + 1)


def test_mixed_dtypes_promote_as_numpy():
    pairs = [(np.int32, np.uint32), (np.int8, np.uint8), (np.uint64, np.uint8),
             (np.int16, np.int64), (np.uint16, np.int32)]
    for x, y in pairs:
        a, b = data(x), data(y)
        got, want = run(np.add, a, b)
        assert_same(got, want)
        got, want = run(np.less, a, b)
        assert_same(got, want)


def test_values_past_2_53_stay_exact():
    a = np.array([2**62 + 1, -(2**63), 2**63 - 1, 2**53 + 1], np.int64)
    g = ga.asarray(a)
    assert_same(g + (2**53 + 3), a + (2**53 + 3))
    assert_same(g - 1, a - 1)
    assert_same(np.cumsum(g), np.cumsum(a))
    u = np.array([2**64 - 1, 2**63, 5], np.uint64)
    assert_same(ga.asarray(u) // 3, u // 3)
    assert_same(ga.asarray(u) % (2**63 + 7), u % (2**63 + 7))


@pytest.mark.parametrize("dt", INTS + [bool], ids=lambda d: np.dtype(d).name)
def test_reductions_scans_and_sorting(dt):
    a = data(dt) if dt is not bool else RNG.integers(0, 2, (4, 5)).astype(bool)
    for f in (np.sum, np.prod, np.max, np.min, np.cumsum, np.cumprod, np.argmax,
              np.argmin, np.sort, np.argsort, np.count_nonzero):
        for axis in (None, 0, 1):
            if f in (np.sort, np.argsort) and axis is None:
                continue
            got, want = run(lambda x: f(x, axis=axis), a)
            assert_same(got, want)
    got, want = run(lambda x: np.sum(x, dtype=np.int8), a)
    assert_same(got, want)
    got, want = run(lambda x: np.add.accumulate(x, axis=1), a)
    assert_same(got, want)
    got, want = run(lambda x: np.unique(x), a)
    assert_same(got, want)
    got, want = run(np.mean, a)
    assert_same(got, want)


@pytest.mark.parametrize("dt", INTS, ids=lambda d: np.dtype(d).name)
def test_matmul_casts_and_printing(dt):
    a, b = data(dt, (5, 7)), data(dt, (7, 3))
    got, want = run(np.matmul, a, b)
    assert_same(got, want)
    got, want = run(lambda x, y: np.einsum("ij,jk->ik", x, y), a, b)
    assert_same(got, want)
    for to in (np.float32, np.float64, np.int8, np.uint64, bool):
        got, want = run(lambda x: x.astype(to), a)
        assert_same(got, want)
    assert repr(ga.asarray(a)) == repr(a)


@pytest.mark.parametrize("dt", [np.int64, np.uint64, np.uint8, np.int16])
def test_integers_cover_the_dtype(dt):
    info = np.iinfo(dt)
    g = ga.random.default_rng(7)
    k = g.integers(info.min, int(info.max) + 1, 20_000, dtype=dt)
    assert k.dtype == dt
    h = k.get()
    assert h.min() >= info.min and h.max() <= info.max
    # Both halves of the range are hit (a 64-bit draw, not a 32-bit one widened).
    mid = (int(info.min) + int(info.max)) // 2
    assert (h.astype(object) > mid).mean() == pytest.approx(0.5, abs=0.03)
    with pytest.raises(ValueError):
        g.integers(0, int(info.max) + 2, 4, dtype=dt)
