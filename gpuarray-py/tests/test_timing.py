"""synchronize, device_info, and the crate's profiler through gpuarray.benchmark/profile."""

import json
import threading
import time

import numpy as np
import pytest

import gpuarray as ga


def test_synchronize_and_device_info():
    ga.synchronize()
    info = ga.device_info()
    assert {"name", "backend", "device_type", "features", "summary"} <= set(info)
    assert info["name"] and info["backend"]
    assert ga.get_device() == ga.zeros((1,)).device
    assert isinstance(ga.memory_stats()["in_use_bytes"], int)


def test_benchmark_reports_synchronised_repeats():
    a = ga.ones((128, 128), dtype=np.float32)
    r = ga.benchmark(np.matmul, a, a, n_repeat=5, n_warmup=1, name="mm")
    assert r.name == "mm" and len(r.cpu_times) == 5 and (r.cpu_times > 0).all()
    assert str(r).startswith("mm: CPU:")
    if r.gpu_times is not None:
        assert len(r.gpu_times) == 5 and r.launches >= 1
    r2 = ga.benchmark(lambda x: x + 1, a, n_repeat=2, min_time=0.05, gpu_times=False)
    assert r2.cpu_times.sum() >= 0.05 and r2.gpu_times is None
    with pytest.raises(ValueError):
        ga.benchmark(np.exp, a, n_repeat=0)


def test_benchmark_reraises_the_callables_exception():
    class Boom(Exception):
        pass

    def f():
        raise Boom("from the callable")

    with pytest.raises(Boom, match="from the callable"):
        ga.benchmark(f, n_repeat=3)
    with pytest.raises(ValueError):
        ga.benchmark(lambda: ga.zeros((2,)) + ga.zeros((3,)), n_repeat=1, n_warmup=0)


def test_profile_records_the_launches():
    a = ga.ones((4, 8, 16), dtype=np.float32)
    b = ga.ones((4, 16, 8), dtype=np.float32)
    c, prof = ga.profile(np.einsum, "ijk,ikm->ijm", a, b)
    assert isinstance(c, ga.ndarray) and float(c[0, 0, 0]) == 16.0
    assert isinstance(prof, ga.Profile)
    assert prof.launches and all("kernel" in launch for launch in prof.launches)
    assert prof.wall > 0 and "kernel" in str(prof)
    assert sum(k["calls"] for k in prof.kernels()) == len(prof.launches)
    assert "traceEvents" in json.loads(prof.chrome_trace_json())
    with pytest.raises(ZeroDivisionError):
        ga.profile(lambda: 1 / 0)


def test_profile_as_a_context_manager(capsys):
    a = np.arange(1000, dtype=np.float32)
    x = ga.asarray(a)
    with ga.profile() as p:
        y = x * 2
        z = y + x
    assert p.profile is not None and capsys.readouterr().out.startswith("profile on ")
    calls = [launch["call"] for launch in p.profile.launches]
    assert calls == ["multiply", "add"]
    np.testing.assert_array_equal(z.get(), a * 3)
    # An exception in the block still closes the profile, and propagates.
    with pytest.raises(ZeroDivisionError):
        with ga.profile(print_table=False) as q:
            _ = x + x
            1 / 0
    assert len(q.profile.launches) == 1
    with pytest.raises(TypeError):
        ga.profile(None, 1)


def test_benchmark_releases_the_gil_between_calls():
    a = ga.ones((160, 160, 160), dtype=np.float32)
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    t = threading.Thread(target=tick)
    t.start()
    t0 = time.perf_counter()
    ga.benchmark(np.einsum, "ijk,ikm->ijm", a, a, n_repeat=3, n_warmup=1)
    t1 = time.perf_counter()
    done.set()
    t.join()
    inside = [x for x in ticks if t0 < x < t1]
    assert len(inside) > 10
