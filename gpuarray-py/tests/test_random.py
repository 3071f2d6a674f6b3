"""gpuarray.random: Philox streams and the NumPy-style Generator."""

import numpy as np
import pytest

import gpuarray as ga
from gpuarray.random import Generator, Philox, default_rng


def test_same_seed_same_numbers_and_streams_differ():
    a = default_rng(7).random((1000,)).get()
    b = default_rng(7).random((1000,)).get()
    c = default_rng(8).random((1000,)).get()
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    d = Generator(Philox(7, subsequence=1)).random((1000,)).get()
    assert not np.array_equal(a, d)


def test_offset_is_in_words_like_curand():
    full = Philox(3).random_raw(12).get()
    np.testing.assert_array_equal(Philox(3, offset=5).random_raw(7).get(), full[5:])
    g = Philox(3)
    g.random_raw(4)
    assert g.state["offset"] == 4
    assert full.dtype == np.uint32


def test_draws_advance_the_stream():
    g = default_rng(1)
    x, y = g.random(100).get(), g.random(100).get()
    assert not np.array_equal(x, y)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_distributions_have_the_right_moments(dtype):
    g = default_rng(123)
    n = 200_000
    u = g.random(n, dtype=dtype)
    assert u.dtype == dtype and u.shape == (n,)
    h = u.get()
    assert 0 <= h.min() and h.max() < 1
    assert abs(h.mean() - 0.5) < 0.005 and abs(h.var() - 1 / 12) < 0.002
    z = g.standard_normal((400, 500), dtype=dtype).get()
    assert abs(z.mean()) < 0.01 and abs(z.std() - 1) < 0.01
    nrm = g.normal(3.0, 2.0, size=n, dtype=dtype).get()
    assert abs(nrm.mean() - 3) < 0.03 and abs(nrm.std() - 2) < 0.03
    un = g.uniform(-2, 5, size=n, dtype=dtype).get()
    assert -2 <= un.min() and un.max() < 5 and abs(un.mean() - 1.5) < 0.05


def test_integers_are_exact_and_in_range():
    g = default_rng(5)
    k = g.integers(-3, 4, size=70_000)
    assert k.dtype == np.int64
    h = k.get()
    assert h.min() == -3 and h.max() == 3
    counts = np.bincount(h + 3)
    assert counts.min() > 9000  # 10,000 expected per value
    assert g.integers(10, size=(2, 3), dtype=np.uint32).dtype == np.uint32
    assert g.integers(0, 1, endpoint=True, size=100).get().max() == 1
    with pytest.raises(ValueError):
        g.integers(5, 5)
    with pytest.raises(TypeError):
        g.integers(0, 5, dtype=np.float32)


def test_permutation_and_choice():
    g = default_rng(9)
    p = g.permutation(50).get()
    assert sorted(p.tolist()) == list(range(50))
    a = ga.asarray(np.arange(12, dtype=np.float32).reshape(6, 2))
    rows = g.permutation(a).get()
    assert sorted(rows[:, 0].tolist()) == list(range(0, 12, 2))
    assert (rows[:, 1] == rows[:, 0] + 1).all()
    c = g.choice(10, size=10, replace=False).get()
    assert sorted(c.tolist()) == list(range(10))
    w = g.choice(ga.asarray(np.arange(4, dtype=np.int32)), size=8, p=[0, 0, 1, 0]).get()
    assert (w == 2).all()
    with pytest.raises(ValueError):
        g.choice(3, size=4, replace=False)
    with pytest.raises(ValueError):
        g.choice(3, size=2, p=[0.5, 0.5])


def test_size_none_and_bad_arguments():
    g = default_rng(0)
    assert g.random().shape == ()
    with pytest.raises(ValueError):
        g.normal(0, -1)
    with pytest.raises(ValueError):
        default_rng(-1)
    with pytest.raises(TypeError):
        g.random(3, dtype=np.int32)
    assert isinstance(default_rng(None).random(2), ga.ndarray)
