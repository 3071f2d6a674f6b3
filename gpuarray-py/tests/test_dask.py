"""Dask arrays of gpuarray chunks give NumPy's answers with the threads scheduler, the
processes scheduler (spawned workers) and a 2-worker distributed LocalCluster on loopback."""

import dask
import dask.array as da
import numpy as np
import pytest
from _helpers import assert_same

import gpuarray as ga

LIN = dict(rtol=1e-4, atol=1e-5)
RNG = np.random.default_rng(0)
A = RNG.random((8, 6, 5), dtype=np.float32) - 0.5


def dx():
    return da.from_array(ga.asarray(A), chunks=(4, 3, 5))


def test_from_array_keeps_gpuarray_chunks_and_meta():
    x = dx()
    assert type(x._meta) is ga.ndarray and x._meta.size == 0 and x._meta.dtype == np.float32
    assert "chunktype=gpuarray.ndarray" in repr(x)
    blocks = x.blocks[0, 1].compute(scheduler="threads")
    assert_same(blocks, A[:4, 3:6])
    # Meta survives operations (made on zero-size gpuarray arrays, not NumPy fallbacks).
    for y in (x + 1, x.sum(axis=0), da.einsum("ijk,ikm->ijm", x, x.transpose(0, 2, 1)),
              x.mean(axis=1), x[:, None, ::2], x.reshape(8, 30), da.exp(x)):
        assert type(y._meta) is ga.ndarray, y


CASES = [
    ("einsum", lambda m, x: m.einsum("ijk,ikm->ijm", x, x.transpose(0, 2, 1)), LIN),
    ("matmul", lambda m, x: m.matmul(x, x.transpose(0, 2, 1)), LIN),
    ("sum", lambda m, x: m.sum(x, axis=(0, 2)), LIN),
    ("mean", lambda m, x: m.mean(x), LIN),
    ("std", lambda m, x: m.std(x, axis=1), LIN),
    ("var", lambda m, x: m.var(x, axis=0, ddof=1), LIN),
    ("max", lambda m, x: m.max(x, axis=1), None),
    ("argmax", lambda m, x: m.argmax(x, axis=1), None),
    ("argmin_all", lambda m, x: m.argmin(x), None),
    ("cumsum", lambda m, x: m.cumsum(x, axis=1), LIN),
    ("ufuncs", lambda m, x: m.exp(x) * 2 - m.sin(x) / 3, None),
    ("where", lambda m, x: m.where(x > 0, x, 0), None),
    ("index", lambda m, x: x[::2, 1:, None, 3], None),
    ("concat", lambda m, x: m.concatenate([x, x[:2]], axis=0), None),
    ("tensordot", lambda m, x: m.tensordot(x, x, axes=([0, 1], [0, 1])), LIN),
]


def run(f, scheduler, **kw):
    x = dx()
    with dask.config.set(scheduler=scheduler, **kw):
        got = f(da, x).compute()
    want = f(np, A)
    return got, want


@pytest.mark.parametrize("name,f,tol", CASES, ids=[c[0] for c in CASES])
def test_threads_scheduler_matches_numpy(name, f, tol):
    got, want = run(f, "threads")
    assert_same(got, want, tol=tol)


def test_map_blocks_matches_numpy():
    x = dx()
    y = x.map_blocks(lambda b: np.tanh(b) + b.sum(axis=2, keepdims=True), dtype=np.float32)
    assert_same(y.compute(scheduler="threads"), np.tanh(A) + A.reshape(8, 6, 5).sum(axis=2, keepdims=True), tol=LIN)


def test_processes_scheduler_matches_numpy():
    # Spawned worker processes: chunks travel pickled (through the host) and each worker
    # opens its own device.
    x = dx()
    with dask.config.set(scheduler="processes", num_workers=2):
        e, s = dask.compute(da.einsum("ijk,ikm->ijm", x, x.transpose(0, 2, 1)), x.std(axis=1))
    assert_same(e, np.einsum("ijk,ikm->ijm", A, A.transpose(0, 2, 1)), tol=LIN)
    assert_same(s, A.std(axis=1), tol=LIN)


@pytest.fixture(scope="module")
def cluster_client():
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                           host="127.0.0.1", dashboard_address=None)
    client = Client(cluster)
    yield client
    client.close()
    cluster.close()


def test_local_cluster_seed_einsum_over_the_batch_axis(cluster_client):
    n = 64
    rng = np.random.default_rng(3)
    a = rng.random((n, n, n), dtype=np.float32) - 0.5
    b = rng.random((n, n, n), dtype=np.float32) - 0.5
    xa = da.from_array(ga.asarray(a), chunks=(n // 2, n, n))  # one batch half per worker
    xb = da.from_array(ga.asarray(b), chunks=(n // 2, n, n))
    # Futures with a timeout: a worker that cannot deserialise a task would otherwise leave
    # the client waiting forever.
    got = cluster_client.compute(da.einsum("ijk,ikm->ijm", xa, xb)).result(timeout=180)
    assert type(got) is ga.ndarray
    assert_same(got, np.einsum("ijk,ikm->ijm", a, b), tol=dict(rtol=1e-4, atol=1e-4))
    # Both workers ran chunks, each on its own device.
    seen = cluster_client.run(lambda: __import__("gpuarray").device_info()["name"])
    assert len(seen) == 2


def test_local_cluster_reductions(cluster_client):
    x = dx()
    got = [f.result(timeout=180) for f in
           cluster_client.compute([x.mean(axis=0), x.argmax(axis=2), (x ** 2).sum()])]
    assert_same(got[0], A.mean(axis=0), tol=LIN)
    assert_same(got[1], A.argmax(axis=2))
    assert_same(got[2], (A ** 2).sum(), tol=LIN)
