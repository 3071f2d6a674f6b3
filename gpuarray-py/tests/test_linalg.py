"""``numpy.linalg`` on gpuarray arrays, against NumPy (LAPACK) on the same inputs: NumPy's own
calls dispatch here; results agree within tolerances that fit the dtype and the size;
eigen/singular vectors (defined up to sign) are checked by their invariants; errors are
NumPy's (``LinAlgError`` naming the failing matrix, ``TypeError`` for float16)."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import gpuarray as ga
import gpuarray.array_api as xp

RNG = np.random.default_rng(7)


def well_conditioned(shape, dtype):
    n = shape[-1]
    a = RNG.uniform(-1, 1, shape) + (2 + np.sqrt(n)) * np.eye(n)
    return a.astype(dtype)


def tol(dtype, n):
    eps = np.finfo(dtype).eps
    return dict(rtol=50 * max(n, 1) * eps, atol=50 * max(n, 1) * eps)


@pytest.mark.filterwarnings("ignore:overflow encountered in cast")  # NumPy's f32 det of 130x130
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(1, 1), (3, 3), (7, 5, 5), (2, 3, 33, 33), (130, 130)])
def test_solve_inv_det_slogdet_match_numpy(dtype, shape):
    a = well_conditioned(shape, dtype)
    n = shape[-1]
    b = RNG.uniform(-1, 1, shape[:-1] + (2,)).astype(dtype)
    g, gb = ga.asarray(a), ga.asarray(b)
    x = np.linalg.solve(g, gb)
    assert isinstance(x, ga.ndarray) and x.dtype == dtype
    np.testing.assert_allclose(x.get(), np.linalg.solve(a, b), **tol(dtype, n))
    np.testing.assert_allclose(np.linalg.inv(g).get(), np.linalg.inv(a), **tol(dtype, n))
    np.testing.assert_allclose(np.linalg.det(g).get(), np.linalg.det(a), rtol=tol(dtype, n)["rtol"])
    sign, logdet = np.linalg.slogdet(g)
    want = np.linalg.slogdet(a)
    np.testing.assert_array_equal(sign.get(), want.sign)
    np.testing.assert_allclose(logdet.get(), want.logabsdet, **tol(dtype, n))


def test_solve_follows_numpy_2s_vector_rule_and_integers_compute_in_float64():
    a = well_conditioned((4, 3, 3), np.float64)
    b = RNG.uniform(size=3)
    got = np.linalg.solve(ga.asarray(a), ga.asarray(b))
    assert got.shape == (4, 3)
    np.testing.assert_allclose(got.get(), np.linalg.solve(a, b), rtol=1e-12)
    ai = np.array([[2, 1], [1, 3]])
    got = np.linalg.solve(ga.asarray(ai), ga.asarray(np.array([3, 5])))
    assert got.dtype == np.float64
    np.testing.assert_allclose(got.get(), np.linalg.solve(ai, [3, 5]), rtol=1e-14)


def test_singular_and_indefinite_raise_linalgerror_naming_the_matrix():
    a = well_conditioned((5, 4, 4), np.float64)
    a[3, 2] = a[3, 0]  # a repeated row: exactly singular
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix.*matrix 3"):
        np.linalg.inv(ga.asarray(a))
    with pytest.raises(np.linalg.LinAlgError):
        np.linalg.inv(a)  # NumPy agrees
    spd = np.array([[1.0, 2.0], [2.0, 1.0]])
    with pytest.raises(np.linalg.LinAlgError, match="positive definite"):
        np.linalg.cholesky(ga.asarray(spd))
    with pytest.raises(np.linalg.LinAlgError, match="two-dimensional"):
        np.linalg.inv(ga.asarray(np.ones(3)))
    with pytest.raises(TypeError, match="float16"):
        np.linalg.inv(ga.asarray(np.eye(2, dtype=np.float16)))
    # det of a singular matrix is 0, not an error, as in NumPy.
    assert abs(float(np.linalg.det(ga.asarray(a[3])).get())) < 1e-12


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_cholesky_and_qr_match_numpy(dtype):
    m = RNG.uniform(-1, 1, (3, 20, 20))
    spd = (m @ m.transpose(0, 2, 1) + 20 * np.eye(20)).astype(dtype)
    g = ga.asarray(spd)
    np.testing.assert_allclose(np.linalg.cholesky(g).get(), np.linalg.cholesky(spd), **tol(dtype, 20))
    np.testing.assert_allclose(
        np.linalg.cholesky(g, upper=True).get(), np.linalg.cholesky(spd, upper=True), **tol(dtype, 20)
    )
    for shape in [(6, 4), (4, 6), (2, 5, 5)]:
        a = RNG.uniform(-1, 1, shape).astype(dtype)
        for mode in ["reduced", "complete"]:
            q, r = np.linalg.qr(ga.asarray(a), mode=mode)
            wq, wr = np.linalg.qr(a, mode=mode)
            # Householder with LAPACK's signs: Q and R are NumPy's.
            np.testing.assert_allclose(q.get(), wq, **tol(dtype, 6))
            np.testing.assert_allclose(r.get(), wr, **tol(dtype, 6))
        np.testing.assert_allclose(np.linalg.qr(ga.asarray(a), mode="r").get(), np.linalg.qr(a, mode="r"), **tol(dtype, 6))
    with pytest.raises(ValueError, match="Unrecognized mode"):
        np.linalg.qr(ga.asarray(np.eye(2)), mode="bogus")


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_eigh_and_svd_by_their_invariants_and_values(dtype):
    a = RNG.uniform(-1, 1, (4, 12, 12))
    sym = (a + a.transpose(0, 2, 1)).astype(dtype)
    w, v = np.linalg.eigh(ga.asarray(sym))
    t = tol(dtype, 12)
    np.testing.assert_allclose(w.get(), np.linalg.eigvalsh(sym), **t)
    vh = v.get()
    np.testing.assert_allclose(sym @ vh, vh * w.get()[:, None, :], **t)
    np.testing.assert_allclose(vh.transpose(0, 2, 1) @ vh, np.broadcast_to(np.eye(12), (4, 12, 12)), **t)
    np.testing.assert_allclose(np.linalg.eigvalsh(ga.asarray(sym), UPLO="U").get(), np.linalg.eigvalsh(sym, UPLO="U"), **t)
    for shape in [(7, 4), (4, 7), (3, 6, 6)]:
        x = RNG.uniform(-1, 1, shape).astype(dtype)
        u, s, vt = np.linalg.svd(ga.asarray(x), full_matrices=True)
        np.testing.assert_allclose(s.get(), np.linalg.svd(x, compute_uv=False), **t)
        k = min(shape[-2:])
        uh, vth = u.get(), vt.get()
        back = (uh[..., :, :k] * s.get()[..., None, :]) @ vth[..., :k, :]
        np.testing.assert_allclose(back, x, **t)
        np.testing.assert_allclose(np.swapaxes(uh, -1, -2) @ uh, np.broadcast_to(np.eye(uh.shape[-1]), uh.shape[:-2] + (uh.shape[-1],) * 2), **t)
        np.testing.assert_allclose(np.linalg.svdvals(ga.asarray(x)).get(), np.linalg.svdvals(x), **t)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_large_qr_and_eigh_take_the_blocked_and_tridiagonal_paths(dtype):
    # Past 128 columns QR is blocked (compact WY) and eigh tridiagonalises then runs QL.
    n = 150
    a = RNG.uniform(-1, 1, (n, n)).astype(dtype)
    t = tol(dtype, n)
    q, r = np.linalg.qr(ga.asarray(a))
    nq, nr = np.linalg.qr(a)
    np.testing.assert_allclose(q.get(), nq, **t)  # LAPACK's signs
    np.testing.assert_allclose(r.get(), nr, **t)
    sym = a + a.T
    w, v = np.linalg.eigh(ga.asarray(sym))
    np.testing.assert_allclose(w.get(), np.linalg.eigvalsh(sym), **t)
    vh = v.get()
    np.testing.assert_allclose(sym @ vh, vh * w.get()[None, :], **t)
    np.testing.assert_allclose(vh.T @ vh, np.eye(n), **t)
    np.testing.assert_array_equal(np.linalg.eigvalsh(ga.asarray(sym)).get(), w.get())


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(150, 150), (170, 140), (2, 140, 160)])
def test_large_svd_takes_qr_and_bidiagonalisation(dtype, shape):
    # Past 128 columns (of the tall orientation) svd reduces a rectangular matrix to its square
    # R by QR, bidiagonalises it and runs implicit-shift QR.
    a = RNG.uniform(-1, 1, shape).astype(dtype)
    k = min(shape[-2:])
    t = tol(dtype, max(shape[-2:]))
    for full in [False, True]:
        u, s, vt = np.linalg.svd(ga.asarray(a), full_matrices=full)
        np.testing.assert_allclose(s.get(), np.linalg.svd(a, compute_uv=False), **t)
        uh, vth = u.get(), vt.get()
        assert uh.shape == np.linalg.svd(a, full_matrices=full)[0].shape
        back = (uh[..., :, :k] * s.get()[..., None, :]) @ vth[..., :k, :]
        np.testing.assert_allclose(back, a, **t)
        for q in [uh, np.swapaxes(vth, -1, -2)]:
            eye = np.broadcast_to(np.eye(q.shape[-1]), q.shape[:-2] + (q.shape[-1],) * 2)
            np.testing.assert_allclose(np.swapaxes(q, -1, -2) @ q, eye, **t)
    np.testing.assert_allclose(np.linalg.svdvals(ga.asarray(a)).get(), np.linalg.svdvals(a), **t)
    bad = a.copy()
    bad[..., 3, 4] = np.inf
    with pytest.raises(np.linalg.LinAlgError, match="SVD did not converge"):
        np.linalg.svd(ga.asarray(bad))
    with pytest.raises(np.linalg.LinAlgError, match="SVD did not converge"):
        np.linalg.svd(bad)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_tall_lstsq_svd_pinv_and_rank_deficient_matrices_match_numpy(dtype):
    # A tall matrix up to 128 columns goes through its QR, the Jacobi SVD taking the square R:
    # 70,000 x 3 walked past lavapipe's loop limit before (lstsq, svd and pinv raised
    # MemoryError). A rank-deficient matrix (rows repeating every 10: rank 10) stays finite:
    # its columns' rounding noise shrinks to subnormals, which the reflector divided by.
    close = dict(rtol=1e-3, atol=1e-4) if dtype == np.float32 else dict(rtol=1e-10, atol=1e-12)
    a = RNG.uniform(-1, 1, (70_000, 3)).astype(dtype)
    b = RNG.uniform(-1, 1, 70_000).astype(dtype)
    x, res, rank, s = np.linalg.lstsq(ga.asarray(a), ga.asarray(b))
    wx, wres, wrank, ws = np.linalg.lstsq(a, b)
    np.testing.assert_allclose(x.get(), wx, **close)
    np.testing.assert_allclose(res.get(), wres, **close)
    np.testing.assert_allclose(s.get(), ws, **close)
    assert rank == wrank == 3
    u, s, vt = np.linalg.svd(ga.asarray(a), full_matrices=False)
    np.testing.assert_allclose(s.get(), np.linalg.svd(a, compute_uv=False), **close)
    np.testing.assert_allclose((u.get() * s.get()) @ vt.get(), a, **close)
    np.testing.assert_allclose(np.linalg.pinv(ga.asarray(a)).get(), np.linalg.pinv(a), **close)
    t = np.arange(300 * 100)
    low = (((t * 7919) % 1000) / 500 - 1).reshape(300, 100).astype(dtype)
    q, r = np.linalg.qr(ga.asarray(low))
    assert np.isfinite(q.get()).all() and np.isfinite(r.get()).all()
    np.testing.assert_allclose(q.get() @ r.get(), low, **close)
    assert int(np.linalg.matrix_rank(ga.asarray(low)).get()) == np.linalg.matrix_rank(low) == 10
    np.testing.assert_allclose(
        np.linalg.svd(ga.asarray(low), compute_uv=False).get()[:10],
        np.linalg.svd(low, compute_uv=False)[:10],
        **close,
    )


def test_norms_cond_rank_pinv_lstsq_match_numpy():
    a = RNG.uniform(-1, 1, (5, 4))
    g = ga.asarray(a)
    for ord in [None, "fro", "nuc", np.inf, -np.inf, 1, -1, 2, -2]:
        np.testing.assert_allclose(np.linalg.norm(g, ord).get(), np.linalg.norm(a, ord), rtol=1e-12)
    for ord in [None, np.inf, -np.inf, 0, 1, 2, 3.5]:
        np.testing.assert_allclose(np.linalg.norm(g, ord, axis=1).get(), np.linalg.norm(a, ord, axis=1), rtol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(g, axis=0, keepdims=True).get(), np.linalg.norm(a, axis=0, keepdims=True))
    np.testing.assert_allclose(np.linalg.vector_norm(g, ord=3).get(), np.linalg.vector_norm(a, ord=3), rtol=1e-12)
    np.testing.assert_allclose(np.linalg.matrix_norm(g, ord=1).get(), np.linalg.matrix_norm(a, ord=1), rtol=1e-12)
    sq = well_conditioned((3, 3), np.float64)
    for p in [None, 1, np.inf, "fro"]:
        np.testing.assert_allclose(np.linalg.cond(ga.asarray(sq), p).get(), np.linalg.cond(sq, p), rtol=1e-10)
    low = a @ RNG.uniform(size=(4, 4)) @ np.diag([1, 1, 0, 0])
    assert int(np.linalg.matrix_rank(ga.asarray(low)).get()) == np.linalg.matrix_rank(low) == 2
    np.testing.assert_allclose(np.linalg.pinv(ga.asarray(low)).get(), np.linalg.pinv(low), atol=1e-10)
    b = RNG.uniform(size=5)
    x, res, rank, s = np.linalg.lstsq(ga.asarray(a), ga.asarray(b))
    wx, wres, wrank, ws = np.linalg.lstsq(a, b)
    np.testing.assert_allclose(x.get(), wx, rtol=1e-10)
    np.testing.assert_allclose(res.get(), wres, rtol=1e-10)
    assert rank == wrank
    np.testing.assert_allclose(s.get(), ws, rtol=1e-12)


def test_powers_multi_dot_cross_and_tensor_forms_match_numpy():
    m = np.array([[1, 1], [1, 0]])
    for k in [0, 1, 5, 20]:
        np.testing.assert_array_equal(np.linalg.matrix_power(ga.asarray(m), k).get(), np.linalg.matrix_power(m, k))
    f = well_conditioned((3, 3), np.float64)
    np.testing.assert_allclose(np.linalg.matrix_power(ga.asarray(f), -3).get(), np.linalg.matrix_power(f, -3), rtol=1e-12)
    xs = [RNG.uniform(size=s) for s in [(4,), (4, 30), (30, 2), (2,)]]
    np.testing.assert_allclose(np.linalg.multi_dot([ga.asarray(x) for x in xs]).get(), np.linalg.multi_dot(xs), rtol=1e-12)
    p, q = RNG.uniform(size=(5, 3)), RNG.uniform(size=3)
    np.testing.assert_allclose(np.cross(ga.asarray(p), ga.asarray(q)).get(), np.cross(p, q), rtol=1e-14)
    np.testing.assert_allclose(np.linalg.cross(ga.asarray(p), ga.asarray(q)).get(), np.linalg.cross(p, q), rtol=1e-14)
    p2, q2 = RNG.uniform(size=(4, 2)), RNG.uniform(size=(4, 2))
    with pytest.warns(DeprecationWarning, match="2-dimensional vectors"):
        got = np.cross(ga.asarray(p2), ga.asarray(q2))
    with pytest.warns(DeprecationWarning):
        want = np.cross(p2, q2)
    np.testing.assert_allclose(got.get(), want, rtol=1e-14)
    t = well_conditioned((6, 6), np.float64).reshape(6, 2, 3)
    b = RNG.uniform(size=6)
    np.testing.assert_allclose(np.linalg.tensorsolve(ga.asarray(t), ga.asarray(b)).get(), np.linalg.tensorsolve(t, b), rtol=1e-12)
    np.testing.assert_allclose(np.linalg.tensorinv(ga.asarray(t), ind=1).get(), np.linalg.tensorinv(t, ind=1), rtol=1e-12)


def test_the_array_api_linalg_extension():
    a = well_conditioned((2, 4, 4), np.float32)
    g = xp.asarray(a)
    np.testing.assert_allclose(xp.linalg.solve(g, g).get(), np.broadcast_to(np.eye(4), (2, 4, 4)), atol=1e-5)
    res = xp.linalg.eigh(xp.asarray((a + a.transpose(0, 2, 1)) / 2))
    assert res.eigenvalues.shape == (2, 4) and res.eigenvectors.shape == (2, 4, 4)
    assert xp.linalg.svd(g, full_matrices=False).U.shape == (2, 4, 4)
    np.testing.assert_allclose(xp.linalg.matrix_norm(g).get(), np.linalg.matrix_norm(a), rtol=1e-5)
    assert xp.linalg.matrix_rank(g).get().tolist() == [4, 4]
    assert ga.linalg.LinAlgError is np.linalg.LinAlgError


PAST_ONE_BINDING = r"""
import json
import numpy as np
import gpuarray as ga

rng = np.random.default_rng(11)
out = {"binding": ga.device_info()["max_storage_buffer_binding_size"]}
n = 300  # 360 KB of float32: past the 256 KiB binding
a = rng.uniform(-1, 1, (n, n)).astype(np.float32)
b = rng.uniform(-1, 1, (n, 3)).astype(np.float32)
g = ga.asarray(a)
x = np.linalg.solve(g, ga.asarray(b)).get()
out["solve"] = float(np.abs(a.astype(np.float64) @ x - b).max())
inv = np.linalg.inv(g).get()
out["inv"] = float(np.abs(a.astype(np.float64) @ inv - np.eye(n)).max())
sign, logdet = np.linalg.slogdet(g)
want = np.linalg.slogdet(a.astype(np.float64))
out["slogdet"] = [float(sign.get()), float(want[0]), float(logdet.get()), float(want[1])]
s = (a @ a.T / n + np.eye(n, dtype=np.float32)).astype(np.float32)
l = np.linalg.cholesky(ga.asarray(s)).get()
out["cholesky"] = float(np.abs(l.astype(np.float64) @ l.T - s).max())
w, v = np.linalg.eigh(ga.asarray(s))
w, v = w.get().astype(np.float64), v.get().astype(np.float64)
want_w = np.linalg.eigvalsh(s.astype(np.float64))
out["eigh"] = float(np.abs(w - want_w).max() / np.abs(want_w).max())
out["eigh_vectors"] = float(np.abs(s @ v - v * w).max() / np.abs(want_w).max())
out["eigvalsh"] = float(np.abs(np.linalg.eigvalsh(ga.asarray(s)).get() - w).max())
u, sv, vh = np.linalg.svd(g, full_matrices=False)
u, sv, vh = u.get().astype(np.float64), sv.get().astype(np.float64), vh.get().astype(np.float64)
want_s = np.linalg.svd(a.astype(np.float64), compute_uv=False)
out["svd"] = float(np.abs(sv - want_s).max() / want_s[0])
out["svd_vectors"] = float(np.abs((u * sv) @ vh - a).max() / want_s[0])
out["rank"] = [int(np.linalg.matrix_rank(g)), int(np.linalg.matrix_rank(a.astype(np.float64)))]
tall = rng.uniform(-1, 1, (1000, 100)).astype(np.float32)  # 400 KB
q, r = np.linalg.qr(ga.asarray(tall))
out["qr"] = float(np.abs(q.get().astype(np.float64) @ r.get() - tall).max())
singular = a.copy()
singular[:, 200] = 0
try:
    np.linalg.solve(ga.asarray(singular), ga.asarray(b))
    out["singular"] = "no error"
except np.linalg.LinAlgError as e:
    out["singular"] = str(e)
print(json.dumps(out))
"""


def test_matrices_past_one_storage_binding():
    # A process whose bindings are capped at 256 KiB (GPUARRAY_MAX_BINDING): single matrices
    # larger than one binding are factored in copied panels and blocks (eigh and svd reduced
    # over windows of rows), as past the 128 MiB of lavapipe and browsers; NumPy's errors as usual.
    env = dict(os.environ, GPUARRAY_MAX_BINDING="256K")
    done = subprocess.run([sys.executable, "-c", PAST_ONE_BINDING], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["binding"] == 1 << 18
    assert out["solve"] < 1e-3 and out["inv"] < 1e-3, out
    sign, want_sign, logdet, want_logdet = out["slogdet"]
    assert sign == want_sign and abs(logdet - want_logdet) < 1e-3 * abs(want_logdet), out
    assert out["cholesky"] < 1e-3 and out["qr"] < 1e-4, out
    # eigh against LAPACK's eigenvalues, its vectors by A·V = V·Λ; eigvalsh the same values.
    assert out["eigh"] < 1e-5 and out["eigh_vectors"] < 1e-5 and out["eigvalsh"] == 0, out
    # svd against LAPACK's singular values within n·ε·‖A‖₂ (300 · 2⁻²³), A = U·S·Vh;
    # matrix_rank (built on svd) as NumPy's.
    n_eps = 300 * np.finfo(np.float32).eps
    assert out["svd"] < n_eps and out["svd_vectors"] < n_eps, out
    assert out["rank"][0] == out["rank"][1], out
    assert "Singular matrix" in out["singular"], out
