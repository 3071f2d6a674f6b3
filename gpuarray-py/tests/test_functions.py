"""Every NumPy function gpuarray registers for NEP-18 dispatch, called through NumPy on
gpuarray arrays, against NumPy on the same host data; plus the errors NumPy raises."""

import numpy as np
import pytest
from _helpers import assert_same

import gpuarray as ga
from gpuarray._functions import _HANDLED

RNG = np.random.default_rng(42)
F = RNG.standard_normal((3, 4, 5)).astype(np.float32)
I = RNG.integers(-9, 10, (3, 4, 5)).astype(np.int32)
M = RNG.standard_normal((4, 6)).astype(np.float32)
V = RNG.standard_normal(6).astype(np.float32)
B = RNG.integers(0, 2, (3, 4)).astype(bool)
LIN = dict(rtol=1e-4, atol=1e-5)  # sums of products in f32, any order
FN = F.copy()  # F with NaNs: a quarter of the values, a whole row along the last axis
FN[RNG.random(F.shape) < 0.25] = np.nan
FN[1, 2, :] = np.nan
FI = FN.copy()  # FN with infinities of both signs too
FI[0, :, 0] = np.inf
FI[2, 0, :] = -np.inf


def G(x):
    return ga.asarray(x)


def check(f, *arrays, tol=None, **kw):
    """f(*NumPy arrays) vs f(*gpuarray arrays); result types checked too."""
    want = f(*arrays, **kw)

    def dev(a):
        if isinstance(a, np.ndarray):
            return G(a)
        if isinstance(a, list) and a and isinstance(a[0], np.ndarray):
            return [G(x) for x in a]
        return a

    got = f(*[dev(a) for a in arrays], **kw)
    if isinstance(want, (list, tuple)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert_same(g, w, tol=tol)
    else:
        assert_same(got, want, tol=tol)


CASES = {
    "sum": [(np.sum, (F,), {}), (np.sum, (I,), dict(axis=1)), (np.sum, (B,), dict(axis=0)),
            (np.sum, (F,), dict(axis=(0, 2), keepdims=True)), (np.sum, (I,), dict(dtype=np.float64)),
            (np.sum, (F[:, :0],), dict(axis=1)), (np.sum, (F,), dict(axis=()))],
    "prod": [(np.prod, (I % 3,), dict(axis=2)), (np.prod, (F,), dict(axis=-1, keepdims=True))],
    "mean": [(np.mean, (F,), {}), (np.mean, (I,), dict(axis=(1, 2))), (np.mean, (F,), dict(axis=0, dtype=np.float64))],
    "var": [(np.var, (F,), dict(axis=1)), (np.var, (I,), dict(ddof=1)), (np.var, (F,), dict(axis=2, keepdims=True))],
    "std": [(np.std, (F,), dict(axis=0, ddof=1)), (np.std, (I,), {})],
    "max": [(np.max, (F,), dict(axis=1)), (np.max, (I,), {}), (np.amax, (F,), dict(axis=(0, 2)))],
    "min": [(np.min, (F,), dict(axis=2, keepdims=True)), (np.amin, (I,), {})],
    "argmax": [(np.argmax, (F,), {}), (np.argmax, (I,), dict(axis=1)), (np.argmax, (F,), dict(axis=2, keepdims=True))],
    "argmin": [(np.argmin, (F,), dict(axis=0)), (np.argmin, (I,), {})],
    "any": [(np.any, (B,), {}), (np.any, (I,), dict(axis=0)), (np.any, (F > 1,), dict(axis=(1, 2)))],
    "all": [(np.all, (B,), dict(axis=1)), (np.all, (I,), {})],
    "cumsum": [(np.cumsum, (F,), dict(axis=1)), (np.cumsum, (I,), {}), (np.cumsum, (B,), dict(axis=0))],
    "cumprod": [(np.cumprod, (I % 3,), dict(axis=2)), (np.cumprod, (F[:, :2, :3],), {})],
    "matmul": [(np.matmul, (F, F.transpose(0, 2, 1)), {}), (np.matmul, (M, V), {})],
    "dot": [(np.dot, (M, V), {}), (np.dot, (M.T, M), {}), (np.dot, (V, V), {}), (np.dot, (M, 2.0), {})],
    "vdot": [(np.vdot, (M, M), {})],
    "inner": [(np.inner, (M, M), {}), (np.inner, (V, V), {})],
    "outer": [(np.outer, (V, V[:3]), {}), (np.outer, (M, V), {})],
    "kron": [(np.kron, (M[:2, :3], M[:3, :2]), {})],
    "tensordot": [(np.tensordot, (F, F), dict(axes=([1, 2], [1, 2]))), (np.tensordot, (F, F.transpose(1, 2, 0)), dict(axes=2)),
                  (np.tensordot, (M, M), dict(axes=0)), (np.tensordot, (F, M[:, :5]), dict(axes=([1, 2], [0, 1])))],
    "trace": [(np.trace, (M,), {}), (np.trace, (F,), dict(offset=1, axis1=1, axis2=2)), (np.trace, (I,), {})],
    "diagonal": [(np.diagonal, (F,), dict(offset=-1, axis1=0, axis2=2))],
    "tril": [(np.tril, (F,), {}), (np.tril, (M,), dict(k=-2)), (np.tril, (B,), dict(k=1)), (np.tril, (V,), {}),
             (np.tril, (I.transpose(2, 0, 1),), dict(k=3)), (np.tril, (F[:, :0],), {})],
    "triu": [(np.triu, (F,), dict(k=1)), (np.triu, (M.T,), {}), (np.triu, (I,), dict(k=-1)), (np.triu, (V[:4],), dict(k=2))],
    "einsum": [(np.einsum, ("ijk,ikm->ijm", F, F.transpose(0, 2, 1)), {}), (np.einsum, ("ii", M[:, :4]), {}),
               (np.einsum, ("ij,j->i", M, V), dict(optimize=True)), (np.einsum, ("...j,j", M, V), dict(optimize="optimal")),
               (np.einsum, ("ij,jk,kl->il", M, M.T, M), dict(optimize="greedy")), (np.einsum, (I, [0, 1, 2], [2, 0]), {}),
               (np.einsum, ("ijk->", I), {}), (np.einsum, ("i,i", V, V), dict(dtype=np.float64))],
    "concatenate": [(np.concatenate, ([F, F[:1]],), {}), (np.concatenate, ([I, I],), dict(axis=-1)),
                    (np.concatenate, ([F, I],), dict(axis=None)), (np.concatenate, ([B, B],), dict(axis=1))],
    "stack": [(np.stack, ([M, M, M],), dict(axis=1)), (np.stack, ([V, V],), dict(axis=-1))],
    "vstack": [(np.vstack, ([V, V],), {})],
    "hstack": [(np.hstack, ([M, M],), {})],
    "split": [(np.split, (F, 3), {}), (np.split, (F, [1, 3]), dict(axis=1)), (np.split, (F, [2, 9, 1]), dict(axis=2))],
    "flip": [(np.flip, (F,), {}), (np.flip, (F,), dict(axis=1)), (np.flip, (F,), dict(axis=(0, 2)))],
    "roll": [(np.roll, (F,), dict(shift=2)), (np.roll, (F,), dict(shift=-1, axis=1)), (np.roll, (F,), dict(shift=(1, 7), axis=(0, 2)))],
    "tile": [(np.tile, (M,), dict(reps=2)), (np.tile, (V,), dict(reps=(2, 1, 2))), (np.tile, (F,), dict(reps=(2, 1)))],
    "repeat": [(np.repeat, (M,), dict(repeats=2)), (np.repeat, (F,), dict(repeats=3, axis=1)), (np.repeat, (M,), dict(repeats=[1, 0, 2, 1], axis=0))],
    "pad": [(np.pad, (M, 1), {}), (np.pad, (F, ((0, 1), (2, 0), (1, 1))), dict(constant_values=7.5)), (np.pad, (I, 2), {})],
    "take": [(np.take, (F, [0, 2, -1]), dict(axis=2)), (np.take, (I, [[1, 5], [7, 0]]), {}), (np.take, (F, 1), dict(axis=1)),
             (np.take, (M, [7, -9]), dict(axis=1, mode="wrap")), (np.take, (M, [9, -3]), dict(axis=0, mode="clip"))],
    "where": [(np.where, (F > 0, F, -F), {}), (np.where, (B, 1.5, 0.0), {}), (np.where, (I > 0, I, 0), {}),
              (np.where, (B[:, :, None], I[0], F[0, 0]), {})],
    "clip": [(np.clip, (F, -0.5, 0.5), {}), (np.clip, (I, None, 3), {}), (np.clip, (I, 0.5, 2.5), {}), (np.clip, (F, F[0], 1.0), {})],
    "round": [(np.round, (F,), {}), (np.round, (F * 100,), dict(decimals=-1)), (np.around, (I,), {})],
    "transpose": [(np.transpose, (F,), {}), (np.transpose, (F,), dict(axes=(1, 2, 0)))],
    "swapaxes": [(np.swapaxes, (F, 0, 2), {})],
    "moveaxis": [(np.moveaxis, (F, 0, -1), {}), (np.moveaxis, (F, [0, 1], [2, 0]), {})],
    "reshape": [(np.reshape, (F, (5, -1)), {}), (np.reshape, (F.transpose(2, 0, 1), (-1,)), {})],
    "ravel": [(np.ravel, (F[:, ::2],), {})],
    "copy": [(np.copy, (F,), {})],
    "broadcast_to": [(np.broadcast_to, (V, (2, 3, 6)), {}), (np.broadcast_to, (M[:, :1], (4, 4)), {})],
    "squeeze": [(np.squeeze, (F[:, :1, :1],), {}), (np.squeeze, (F[:1],), dict(axis=0))],
    "expand_dims": [(np.expand_dims, (M,), dict(axis=1)), (np.expand_dims, (M,), dict(axis=(0, -1)))],
    "zeros_like": [(np.zeros_like, (F,), {}), (np.zeros_like, (I,), dict(dtype=np.float32))],
    "ones_like": [(np.ones_like, (B,), {}), (np.ones_like, (F,), dict(shape=(2,)))],
    "unravel_index": [(np.unravel_index, (np.array([0, 7, 59], np.int32), (3, 4, 5)), {}),
                      (np.unravel_index, (np.array(22, np.int32), (4, 6)), {})],
    "ravel_multi_index": [(lambda a, b: np.ravel_multi_index((a, b), (4, 9)),
                           (np.array([0, 3, 2], np.int32), np.array([8, 0, 5], np.int32)), {})],
    "linalg": [(np.linalg.matmul, (F, F.transpose(0, 2, 1)), {}), (np.linalg.tensordot, (M, M.T), dict(axes=1)),
               (np.linalg.outer, (V, V), {}), (np.linalg.vecdot, (F, F[0]), {}), (np.linalg.vecdot, (M, M), dict(axis=0)),
               (np.matrix_transpose, (F,), {}), (np.linalg.matrix_transpose, (M,), {}),
               (np.linalg.trace, (F,), dict(offset=1)), (np.linalg.diagonal, (F,), dict(offset=-1))],
    "vector_gufuncs": [(np.vecdot, (F, F), {}), (np.matvec, (F, F[:, 0]), {}), (np.vecmat, (F[:, :, 0], F), {})],
    "cumulative": [(np.cumulative_sum, (V,), {}), (np.cumulative_sum, (I,), dict(axis=1, include_initial=True)),
                   (np.cumulative_prod, (F[:, :2, :3],), dict(axis=-1, include_initial=True))],
    "unstack_astype": [(np.unstack, (F,), dict(axis=1)), (np.astype, (I, np.float32), {})],
    "full_like": [(np.full_like, (I, 7), {}), (np.full_like, (F, 2.5), dict(dtype=np.float64))],
    "nansum": [(np.nansum, (FN,), {}), (np.nansum, (FN,), dict(axis=2)), (np.nansum, (I,), dict(axis=0)),
               (np.nanprod, (FN,), dict(axis=1, keepdims=True)), (np.nancumsum, (FN,), dict(axis=2)),
               (np.nancumsum, (FN,), {})],
    "nanmax": [(np.nanmax, (FN,), dict(axis=0)), (np.nanmin, (FN,), dict(axis=(0, 2))), (np.nanmax, (I,), {}),
               (np.nanargmax, (FN,), dict(axis=0)), (np.nanargmin, (FN,), {}), (np.nanargmin, (I,), dict(axis=1))],
    "nanmean": [(np.nanmean, (FN,), dict(axis=1)), (np.nanvar, (FN,), dict(axis=0, ddof=1)),
                (np.nanstd, (FN,), dict(axis=(1, 2))), (np.nanmean, (I,), {})],
    "sort": [(np.sort, (FN,), {}), (np.sort, (I,), dict(axis=0)), (np.sort, (F,), dict(axis=None)),
             (np.sort, (B,), dict(axis=1)), (np.argsort, (I % 3,), dict(axis=1, kind="stable")),
             (np.argsort, (FN,), dict(axis=0, stable=True)), (np.argsort, (F,), dict(axis=None))],
    "search": [(np.searchsorted, (np.sort(F, axis=None), V), {}), (np.searchsorted, (np.sort(I, axis=None), I[0]), dict(side="right")),
               (np.searchsorted, (np.sort(FN, axis=None), FN[0, 0]), {})],
    "unique": [(np.unique, (I,), {}), (np.unique, (FN,), {}), (np.unique, (I % 4,), dict(return_index=True, return_counts=True)),
               (np.unique, (I % 3,), dict(return_inverse=True))],
    "nonzero": [(np.nonzero, (I,), {}), (np.flatnonzero, (FN,), {}), (np.argwhere, (B,), {}),
                (np.count_nonzero, (I,), dict(axis=1)), (np.count_nonzero, (FN,), {}), (np.extract, (I > 0, F), {})],
    "nan_to_num": [(np.nan_to_num, (FI,), {}), (np.nan_to_num, (FI.astype(np.float64),), dict(nan=-1.0, posinf=9.0)),
                   (np.nan_to_num, (FI.astype(np.float16),), dict(neginf=0.5)), (np.nan_to_num, (I,), {})],
    "partition": [(lambda a, k: np.sort(np.partition(a, k), axis=-1), (F, 3), {}),
                  (lambda a, k: np.partition(a, k, axis=None)[k], (FN, 17), {}),
                  (lambda a, k: np.take(a, np.argpartition(a, k))[[0, 2, 5]], (V, [0, 2, 5]), {}),
                  (lambda a, b, c: np.lexsort((a, b, c)), (I[0, 0], I[0, 1], F[0, 2]), {})],  # a tuple: NumPy dispatches no list
    "bincount": [(np.bincount, (np.abs(I).ravel(),), {}), (np.bincount, (np.abs(I[0, 0]),), dict(minlength=30)),
                 (np.bincount, (B.ravel(),), {}), (np.bincount, (np.abs(I).ravel(), F.ravel()), {}),
                 (np.bincount, (np.abs(I).ravel(), F.ravel().astype(np.float64)), dict(minlength=12))],
    "histogram": [(np.histogram, (F,), {}), (np.histogram, (F,), dict(bins=7, range=(-1.0, 0.5))),
                  (np.histogram, (I,), dict(bins=4)), (np.histogram, (F, np.array([-2.0, -0.5, 0.0, 0.0, 3.0], np.float32)), {}),
                  (np.histogram, (F.astype(np.float64),), dict(bins=5, density=True)),
                  # weights positional: a NumPy array beside gpuarray ones is NumPy's TypeError.
                  (np.histogram, (F, 6, None, None, F.astype(np.float64) ** 2), {}),
                  (np.histogram, (F, np.array([-2.0, -0.5, 0.0, 0.0, 3.0], np.float32), None, None, F), {}),
                  (np.histogram, (I, 4, None, None, I), {}),
                  (np.histogram, (F, 5, None, True, np.abs(F) + 1), {})],
    "isclose": [(np.isclose, (F, F + 1e-6), {}), (np.isclose, (FN, FN), dict(equal_nan=True)),
                (np.isclose, (I, F), dict(rtol=0.5, atol=1.0))],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_function_matches_numpy(name):
    for f, args, kw in CASES[name]:
        tol = LIN if name in ("linalg", "vector_gufuncs", "cumulative", "matmul", "dot", "vdot", "inner", "tensordot", "einsum", "trace", "var", "std", "mean", "nansum", "nanmean") else None
        if name in ("sum", "cumsum", "prod", "cumprod") and any(
                getattr(a, "dtype", None) == np.float32 for a in args):
            tol = LIN
        check(f, *args, tol=tol, **kw)


def test_every_registered_function_is_tested():
    tested = {f for cases in CASES.values() for f, _, _ in cases}
    tested |= {np.einsum_path, np.empty_like, np.ravel_multi_index, np.zeros, np.ones, np.empty, np.full, np.arange, np.eye, np.array,
               np.asarray, np.asanyarray, np.ascontiguousarray, np.shape, np.ndim, np.size,
               np.allclose, np.array_equal, np.array_equiv, np.partition, np.argpartition, np.lexsort,
               np.putmask, np.place}
    # numpy.linalg's factorizations and the functions built on them: tests/test_linalg.py.
    tested |= {np.linalg.solve, np.linalg.inv, np.linalg.det, np.linalg.slogdet, np.linalg.cholesky,
               np.linalg.qr, np.linalg.eigh, np.linalg.eigvalsh, np.linalg.svd, np.linalg.svdvals,
               np.linalg.lstsq, np.linalg.pinv, np.linalg.matrix_rank, np.linalg.norm,
               np.linalg.matrix_norm, np.linalg.vector_norm, np.linalg.cond, np.linalg.matrix_power,
               np.linalg.multi_dot, np.linalg.cross, np.cross, np.linalg.tensorsolve, np.linalg.tensorinv}
    # numpy.fft and the complex parts: tests/test_fft.py.
    tested |= {np.fft.fft, np.fft.ifft, np.fft.rfft, np.fft.irfft, np.fft.hfft, np.fft.ihfft,
               np.fft.fftn, np.fft.ifftn, np.fft.rfftn, np.fft.irfftn, np.fft.fft2, np.fft.ifft2,
               np.fft.rfft2, np.fft.irfft2, np.fft.fftshift, np.fft.ifftshift, np.real, np.imag,
               np.angle}
    missing = {f.__name__ for f in _HANDLED} - {getattr(f, "__name__", "") for f in tested}
    assert not missing, f"registered but untested: {sorted(missing)}"


def test_whole_array_comparisons_and_all_nan_slices():
    assert np.allclose(G(F), G(F + 1e-7)) is True
    assert np.allclose(G(FN), G(FN)) is False
    assert np.allclose(G(FN), G(FN), equal_nan=True) is True
    assert np.array_equal(G(I), G(I.copy())) is True
    assert np.array_equal(G(I), G(I[:1])) is False
    assert np.array_equal(G(FN), G(FN), equal_nan=True) is True
    assert np.array_equiv(G(I), G(I[:1])) is False
    assert np.array_equiv(G(M), G(M[:1].repeat(4, 0))) is np.array_equiv(M, M[:1].repeat(4, 0))
    # NumPy raises on an all-NaN slice for nanargmax/nanargmin; nanmax gives NaN there.
    with pytest.raises(ValueError, match="All-NaN slice"):
        np.nanargmax(G(FN), axis=2)
    assert np.isnan(np.nanmax(G(FN), axis=2).get()[1, 2])
    with pytest.raises(ValueError):
        np.nanmax(G(F[:, :0]))


def test_empty_like_and_negative_ddof():
    e = np.empty_like(G(F), dtype=np.int32)
    assert isinstance(e, ga.ndarray) and e.shape == F.shape and e.dtype == np.int32
    assert_same(np.var(G(F), ddof=-1, axis=1), np.var(F, ddof=-1, axis=1), tol=LIN)
    assert_same(np.std(G(I), ddof=-2), np.std(I, ddof=-2), tol=LIN)


def test_einsum_path_matches_numpy():
    a, b, c = RNG.random((10, 20)), RNG.random((20, 30)), RNG.random((30, 5))
    for opt in ("greedy", "optimal"):
        want = np.einsum_path("ij,jk,kl->il", a, b, c, optimize=opt)
        got = np.einsum_path("ij,jk,kl->il", G(a), G(b), G(c), optimize=opt)
        assert got[0] == want[0]
        assert "Optimized FLOP count" in got[1] or "FLOP" in got[1]
    assert ga.einsum(*(["ij,jk,kl->il", G(a), G(b), G(c)]), optimize=want[0]).shape == (10, 5)


def test_like_and_introspection_dispatch():
    g = G(M)
    assert np.shape(g) == (4, 6) and np.ndim(g) == 2 and np.size(g) == 24
    for f, args in [(np.zeros, ((2, 3),)), (np.ones, ((2,),)), (np.empty, ((0,),)), (np.full, ((2,), 3.0)),
                    (np.arange, (5,)), (np.eye, (3,)), (np.asarray, ([1.0, 2.0],)), (np.array, ([[1, 2]],)),
                    (np.asanyarray, ([1],)), (np.ascontiguousarray, ([1.0],))]:
        got = f(*args, like=g)
        want = f(*args)
        if f is np.empty:
            assert got.shape == want.shape
        else:
            assert_same(got, want)


@pytest.mark.parametrize(
    "f",
    [lambda m: m.concatenate([m.zeros((2, 3)), m.zeros((3, 2))]),
     lambda m: m.stack([m.zeros((2,)), m.zeros((3,))]),
     lambda m: m.split(m.zeros((5,)), 2),
     lambda m: m.tensordot(m.zeros((2, 3)), m.zeros((4, 3))),
     lambda m: m.einsum("ij,jk", m.zeros((2, 3)), m.zeros((4, 5))),
     lambda m: m.einsum("ij->k", m.zeros((2, 3))),
     lambda m: m.reshape(m.zeros((2, 3)), (4, 2)),
     lambda m: m.broadcast_to(m.zeros((3,)), (2, 4)),
     lambda m: m.squeeze(m.zeros((2, 3)), axis=0),
     lambda m: m.repeat(m.zeros((2,)), -1),
     lambda m: m.sum(m.zeros((2, 3)), axis=2),
     lambda m: m.argmax(m.zeros((0,))),
     lambda m: m.max(m.zeros((0,))),
     lambda m: m.take(m.zeros((3,)), [3]),
     lambda m: m.var(m.zeros((3,)), axis=3),
     lambda m: m.moveaxis(m.zeros((2, 3)), 0, 5),
     lambda m: m.trace(m.zeros((3,))),
     lambda m: m.tril(m.zeros(())),
     lambda m: m.triu(m.zeros(()), k=1)],
)
def test_errors_match_numpy(f):
    with pytest.raises(Exception) as want:
        f(np)
    with pytest.raises(want.type):
        f(ga)


def test_unregistered_and_mixed_calls_return_not_implemented():
    g = G(M)
    with pytest.raises(TypeError):
        np.linalg.eig(g)  # not registered: NumPy's "no implementation found" TypeError
    with pytest.raises(TypeError):
        np.concatenate([g, M])  # a NumPy array mixed in: no silent transfer
    assert g.__array_function__(np.linalg.eig, (ga.ndarray,), (g,), {}) is NotImplemented
    assert g.__array_function__(np.sum, (ga.ndarray, np.ndarray), (g,), {}) is NotImplemented


def test_methods_forward_to_functions():
    g, a = G(F), F
    assert_same(g.sum(axis=1), a.sum(axis=1), tol=LIN)
    assert_same(g.max(), a.max())
    assert_same(g.argmin(axis=2), a.argmin(axis=2))
    assert_same(g.cumsum(axis=0), a.cumsum(axis=0), tol=LIN)
    assert_same(g.clip(-1, 1), a.clip(-1, 1))
    assert_same(g.round(1), a.round(1), tol=dict(rtol=1e-6, atol=1e-6))
    assert_same(g.std(ddof=1), a.std(ddof=1), tol=LIN)
    assert_same(g.take([0, 1], axis=1), a.take([0, 1], axis=1))


def test_crate_extras_against_numpy_formulas():
    x = np.concatenate([F.reshape(-1), [80.0, -80.0, 0.0]]).astype(np.float32).reshape(-1, 7)
    g = G(x)
    assert_same(ga.sigmoid(g), 1 / (1 + np.exp(-x.astype(np.float64))), tol=dict(rtol=1e-6, atol=1e-7), check_dtype=False)
    assert_same(ga.relu(g), np.maximum(x, 0))
    e = np.exp(x - x.max(axis=1, keepdims=True))
    assert_same(ga.softmax(g, axis=1), e / e.sum(axis=1, keepdims=True), tol=LIN)
    m = x.max(axis=0)
    assert_same(ga.logsumexp(g, axis=0), m + np.log(np.exp(x - m).sum(axis=0)), tol=LIN)
    with pytest.raises(TypeError):
        ga.softmax(G(I))


def test_weighted_bincount_has_numpys_bits():
    """Each bin's weights added one by one in index order: NumPy's own float64 additions."""
    x = RNG.integers(0, 50, 20_000).astype(np.int32)
    w = (RNG.standard_normal(20_000) * 10.0 ** RNG.integers(-4, 5, 20_000)).astype(np.float32)
    got = np.bincount(G(x), weights=G(w), minlength=60).get()
    want = np.bincount(x, weights=w, minlength=60)
    assert got.dtype == np.float64 and np.array_equal(got.view(np.uint64), want.view(np.uint64))
    with pytest.raises(ValueError):
        np.bincount(G(x), weights=G(w[:10]))
    with pytest.raises(ValueError):
        np.histogram(G(F), weights=G(F[0]))


def test_putmask_and_place_cycle_in_place_as_numpy():
    cases = [(I, np.array([7, -1, 3], np.int32)), (I, np.arange(100, dtype=np.int32)),
             (F, np.array([7.5, -1.0, 3.25], np.float32)), (F.astype(np.float64), np.arange(100, dtype=np.float32))]
    for target, values in cases:
        for f in (np.putmask, np.place):
            want = target.copy()
            f(want, target > 0.5, values)
            got = G(target)
            assert f(got, G(target > 0.5), G(values)) is None
            assert_same(got, want)
            # NumPy casts the values 'safe'ly: floats into int32, int32 into float32 are refused.
            unsafe = {np.dtype(np.int32): np.float64, np.dtype(np.float32): np.int32}.get(target.dtype)
            if unsafe is not None:
                with pytest.raises(TypeError):
                    f(target.copy(), target > 0.5, values.astype(unsafe))
                with pytest.raises(TypeError):
                    f(G(target), G(target > 0.5), G(values.astype(unsafe)))
    # Empty values: putmask leaves the array; place raises as NumPy does (and changes nothing).
    got = G(F)
    np.putmask(got, G(F > 0), G(np.zeros(0, np.float32)))
    assert_same(got, F)
    with pytest.raises(ValueError):
        np.place(np.array(F), F > 0, np.zeros(0, np.float32))
    with pytest.raises(ValueError):
        np.place(got, G(F > 0), G(np.zeros(0, np.float32)))
    with pytest.raises(ValueError):
        np.putmask(got, G(B), G(values))


@pytest.mark.parametrize("axis", [-1, 0, None])
def test_argsort_of_a_0d_array_is_zero(axis):
    # NumPy sorts a 0-d array as a 1-element 1-d array (issue 31).
    x = np.array(7.0, dtype=np.float32)
    want = np.argsort(x, axis=axis)
    got = np.argsort(G(x), axis=axis)
    assert got.shape == want.shape == (1,)
    assert got.get().tolist() == want.tolist() == [0]


def test_argsort_of_a_0d_array_refuses_axis_1_as_numpy():
    x = np.array(7.0, dtype=np.float32)
    with pytest.raises(np.exceptions.AxisError):
        np.argsort(x, axis=1)
    with pytest.raises(np.exceptions.AxisError):
        np.argsort(G(x), axis=1)


@pytest.mark.parametrize("shape,axis", [((0,), -1), ((2, 0), -1), ((0, 3), 1), ((0, 3), None)])
@pytest.mark.parametrize("kth", [0, -1, 1, 5, [0, 2]])
def test_partition_of_an_empty_array_takes_any_kth(shape, axis, kth):
    # NumPy checks no kth when there are no elements to place (issue 31).
    x = np.zeros(shape, dtype=np.float32)
    for f in (np.partition, np.argpartition):
        want = f(x, kth, axis=axis)
        got = f(G(x), kth, axis=axis)
        assert got.shape == want.shape, f.__name__
        assert got.size == 0
