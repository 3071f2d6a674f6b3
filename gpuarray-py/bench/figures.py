"""Figures for BENCHMARKS.md, "Python package (issue 19)". Every time is taken after the device
finished (gpuarray.benchmark or an explicit synchronize). On lavapipe these are CPU figures.

    python gpuarray-py/bench/figures.py [dispatch|ufunc|cluster|where|dlpack|all] [N]   (in the README's venv)

dispatch: np.einsum('ijk,ikm->ijm') at N³ (default 500) through __array_function__ vs the
          extension's einsum called directly (the Rust call, no Python dispatch), interleaved.
ufunc:    a + b on 1,000 float32 elements through __array_ufunc__: synchronised round trip and
          pipelined throughput, next to the direct extension call and NumPy on the host.
cluster:  the seed case chunked over the batch axis on a 2-worker LocalCluster (loopback),
          inputs made on the workers, result kept there, vs the same einsum in one process.
where:    np.sum(a, where=mask, initial=1) of 2^24 float32 (issue 36) on the device vs the
          plain np.sum on the device and NumPy's masked sum on the host.
dlpack:   256 MiB of float32 out through np.from_dlpack (a host copy) vs .get(), and in through
          gpuarray.from_dlpack vs gpuarray.asarray.
"""

import sys
import time

import numpy as np

import gpuarray as ga
from gpuarray import _gpuarray as _g


def best(f, n):
    """Min over n synchronised runs (seconds)."""
    out = []
    for _ in range(n):
        ga.synchronize()
        t = time.perf_counter()
        r = f()
        ga.synchronize()
        out.append(time.perf_counter() - t)
        del r
    return min(out), float(np.median(out))


def dispatch(n):
    g = ga.random.default_rng(0)
    a = g.random((n, n, n), dtype=np.float32)
    b = g.random((n, n, n), dtype=np.float32)
    ga.synchronize()
    flops = 2.0 * n ** 4
    via_numpy = lambda: np.einsum("ijk,ikm->ijm", a, b)  # noqa: E731
    direct = lambda: _g.einsum("ijk,ikm->ijm", [a._a, b._a], "naive")  # noqa: E731
    via_numpy()
    direct()  # warm: compiles, tunes
    rounds = 3 if n >= 400 else 10
    t_np, t_dir = [], []
    for _ in range(rounds):  # interleaved, so load from elsewhere hits both alike
        t_np.append(best(via_numpy, 1)[0])
        t_dir.append(best(direct, 1)[0])
    mn, md = min(t_np), min(t_dir)
    print(f"adapter: {ga.device_info()['summary']}")
    print(f"seed einsum {n}^3 f32 ({flops / 1e9:.1f} GFLOP), best of {rounds}, synchronised:")
    print(f"  np.einsum via __array_function__  {mn:9.4f} s  {flops / mn / 1e9:6.1f} GFLOP/s")
    print(f"  extension einsum (Rust call)      {md:9.4f} s  {flops / md / 1e9:6.1f} GFLOP/s")
    print(f"  dispatch overhead: {100 * (mn - md) / md:+.2f} % "
          f"(medians {np.median(t_np):.4f} s vs {np.median(t_dir):.4f} s)")
    # The dispatch layer alone, on a tiny einsum where it dominates.
    s = ga.ones((2, 2, 2), dtype=np.float32)
    r1 = ga.benchmark(np.einsum, "ijk,ikm->ijm", s, s, n_repeat=500, gpu_times=False)
    r2 = ga.benchmark(_g.einsum, "ijk,ikm->ijm", [s._a, s._a], "naive", n_repeat=500,
                      gpu_times=False)
    d = np.median(r1.cpu_times) - np.median(r2.cpu_times)
    print(f"  per-call dispatch cost (2x2x2 einsum, median of 500): {d * 1e6:.1f} us")


def ufunc():
    h = np.arange(1000, dtype=np.float32)
    a, b = ga.asarray(h), ga.asarray(h + 1)
    for _ in range(50):
        a + b
    ga.synchronize()
    n = 10000

    def pipelined(f):
        ga.synchronize()
        t = time.perf_counter()
        for _ in range(n):
            f()
        ga.synchronize()
        return (time.perf_counter() - t) / n

    def via():
        return a + b

    def direct():
        return _g.binary("add", a._a, b._a)

    # Three interleaved rounds, best of each (other load on the 2 cores hits both alike).
    rt, rtd, pipe, pipe_d = [], [], [], []
    for _ in range(3):
        rt.append(np.median(ga.benchmark(via, n_repeat=1000, n_warmup=50, gpu_times=False).cpu_times))
        rtd.append(np.median(ga.benchmark(direct, n_repeat=1000, n_warmup=50, gpu_times=False).cpu_times))
        pipe.append(pipelined(via))
        pipe_d.append(pipelined(direct))
    # The Python side alone: the same call on empty arrays launches nothing.
    e0, e1 = ga.zeros((0,), dtype=np.float32), ga.zeros((0,), dtype=np.float32)
    empty_via = min(pipelined(lambda: e0 + e1) for _ in range(3))
    empty_direct = min(pipelined(lambda: _g.binary("add", e0._a, e1._a)) for _ in range(3))
    t = time.perf_counter()
    for _ in range(n):
        h + h
    host = (time.perf_counter() - t) / n
    print(f"adapter: {ga.device_info()['summary']}")
    print("a + b, 1,000 float32 elements:")
    print("  (best of 3 interleaved rounds; round trip = median of 1000 synchronised calls)")
    print(f"  round trip (launch + wait), via __array_ufunc__:  {min(rt) * 1e6:7.1f} us")
    print(f"  round trip, extension call directly:             {min(rtd) * 1e6:7.1f} us")
    print(f"  pipelined ({n} ops, one wait), via __array_ufunc__: {min(pipe) * 1e6:7.1f} us/op")
    print(f"  pipelined, extension call directly:                 {min(pipe_d) * 1e6:7.1f} us/op")
    print(f"  no launch (size-0 operands): via __array_ufunc__ {empty_via * 1e6:6.1f} us/op, "
          f"extension directly {empty_direct * 1e6:6.1f} us/op")
    print(f"  NumPy on the host:                                 {host * 1e6:7.2f} us/op")


def _chunk(block_info=None, n=0):
    import gpuarray as ga

    loc = block_info[None]["chunk-location"]
    shape = block_info[None]["chunk-shape"]
    return ga.random.default_rng(1000 + loc[0] * 7 + n).random(shape, dtype=np.float32)


def _same(b):
    return b


def _one_process(n):
    """The whole seed case on this process's device: (best, median) of 3."""
    g = ga.random.default_rng(0)
    a = g.random((n, n, n), dtype=np.float32)
    b = g.random((n, n, n), dtype=np.float32)
    np.einsum("ijk,ikm->ijm", a, b)
    return best(lambda: np.einsum("ijk,ikm->ijm", a, b), 3)


def cluster(n):
    import dask.array as da
    from distributed import Client, LocalCluster, wait

    one, one_med = _one_process(n)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as lc, Client(lc) as c:
        chunks = ((n // 2, n - n // 2), (n,), (n,))
        meta = ga.zeros((0, 0, 0), dtype=np.float32)
        xa = da.map_blocks(_chunk, chunks=chunks, dtype=np.float32, meta=meta, n=0)
        xb = da.map_blocks(_chunk, chunks=chunks, dtype=np.float32, meta=meta, n=1)
        xa, xb = c.persist([xa, xb])
        wait([xa, xb])
        times = []
        for i in range(4):  # the first includes each worker's device start and tune
            # A no-op pass with a new token per round: the same graph would otherwise find
            # the previous round's result still in the workers' memory.
            ya = xa.map_blocks(_same, dtype=np.float32, meta=meta, token=f"round{i}")
            t = time.perf_counter()
            r = c.persist(da.einsum("ijk,ikm->ijm", ya, xb))
            wait(r)
            # Results stay on the workers; a small reduction proves they were computed.
            r.sum().compute()
            times.append(time.perf_counter() - t)
            del r
        check = da.einsum("ijk,ikm->ijm", xa[:2], xb[:2]).compute()
        want = np.einsum("ijk,ikm->ijm", xa[:2].compute().get(), xb[:2].compute().get())
        ok = np.allclose(check.get(), want, rtol=1e-4, atol=1e-3)
    print(f"adapter: {ga.device_info()['summary']}")
    print(f"seed einsum {n}^3 f32, chunked over the batch axis into 2 chunks:")
    print(f"  one process (np.einsum on gpuarray): best {one:.3f} s, median {one_med:.3f} s")
    print(f"  2-worker LocalCluster (persist + wait + checksum): first {times[0]:.3f} s, "
          f"then best {min(times[1:]):.3f} s, median {np.median(times[1:]):.3f} s")
    print(f"  result equals NumPy on two batches: {ok}")


def where():
    n = 1 << 24
    rng = np.random.default_rng(0)
    a = rng.standard_normal(n, dtype=np.float32)
    m = rng.random(n) < 0.5
    ga_a, ga_m = ga.asarray(a), ga.asarray(m)
    masked = lambda: np.sum(ga_a, where=ga_m, initial=1.0)  # noqa: E731
    plain = lambda: np.sum(ga_a)  # noqa: E731
    host = lambda: np.sum(a, where=m, initial=1.0)  # noqa: E731
    masked(), plain()  # warm: compiles
    t_m, t_p, t_h = best(masked, 7), best(plain, 7), best(host, 7)
    got, want = float(masked().get()), float(host())
    print(f"adapter: {ga.device_info()['summary']}")
    print(f"sum of 2^24 float32 with where= (half selected) and initial=, best/median of 7:")
    print(f"  gpuarray np.sum(a, where=m, initial=1)  {t_m[0] * 1e3:8.2f} / {t_m[1] * 1e3:8.2f} ms")
    print(f"  gpuarray np.sum(a)                      {t_p[0] * 1e3:8.2f} / {t_p[1] * 1e3:8.2f} ms")
    print(f"  NumPy    np.sum(a, where=m, initial=1)  {t_h[0] * 1e3:8.2f} / {t_h[1] * 1e3:8.2f} ms")
    print(f"  results: {got:.6g} vs NumPy {want:.6g} (relative difference "
          f"{abs(got - want) / abs(want):.2g})")


def dlpack():
    n = 1 << 26  # 256 MiB of float32
    h = np.random.default_rng(0).standard_normal(n, dtype=np.float32)
    g = ga.asarray(h)
    out_dl = best(lambda: np.from_dlpack(g), 5)
    out_get = best(lambda: g.get(), 5)
    in_dl = best(lambda: ga.from_dlpack(h), 5)
    in_as = best(lambda: ga.asarray(h), 5)
    ok = np.array_equal(np.from_dlpack(g), h) and np.array_equal(ga.from_dlpack(h).get(), h)
    print(f"adapter: {ga.device_info()['summary']}")
    print("256 MiB float32, best/median of 5 (seconds), synchronised:")
    print(f"  export np.from_dlpack(g)   {out_dl[0]:.3f} / {out_dl[1]:.3f}")
    print(f"  export g.get()             {out_get[0]:.3f} / {out_get[1]:.3f}")
    print(f"  import ga.from_dlpack(h)   {in_dl[0]:.3f} / {in_dl[1]:.3f}")
    print(f"  import ga.asarray(h)       {in_as[0]:.3f} / {in_as[1]:.3f}")
    print(f"  values exact both ways: {ok}")


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "all"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    if what in ("dispatch", "all"):
        dispatch(n)
    if what in ("ufunc", "all"):
        ufunc()
    if what in ("cluster", "all"):
        cluster(n)
    if what in ("where", "all"):
        where()
    if what in ("dlpack", "all"):
        dlpack()
