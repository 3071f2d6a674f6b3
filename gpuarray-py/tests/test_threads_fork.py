"""The GIL is released while the device works; a forked child of a process that used the GPU
gets a clear error; spawned processes (and children forked before any GPU use) work."""

import multiprocessing as mp
import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import gpuarray as ga


def _gpu_work(repeats=1):
    # Device work ending in waits (synchronize, readback): a few hundred ms on lavapipe for
    # one repeat.
    a = ga.ones((160, 160, 160), dtype=np.float32)
    for _ in range(repeats):
        r = np.einsum("ijk,ikm->ijm", a, a)
    ga.synchronize()
    return float(r[0, 0, 0].get())


def _long_enough():
    """Repeats of ``_gpu_work`` that take at least 40 of the interpreter's switch intervals here
    (0.2 s by default), so that whether the GIL was released during the waits shows, on a CPU
    adapter as on a fast GPU: the bound is relative to the interpreter, not to a device."""
    goal = 40 * sys.getswitchinterval()
    repeats = 1
    while True:
        t = time.perf_counter()
        _gpu_work(repeats)
        took = time.perf_counter() - t
        if took >= goal or repeats >= 1 << 14:
            return repeats
        repeats *= min(64, max(2, int(2 * goal / max(took, 1e-6))))


def test_gil_released_while_waiting_on_the_device():
    repeats = _long_enough()  # also warms up: pipelines compiled, matmul tuned
    window = {}

    def worker():
        window["t0"] = time.perf_counter()
        window["value"] = _gpu_work(repeats)
        window["t1"] = time.perf_counter()

    ticks = []
    t = threading.Thread(target=worker)
    t.start()
    while t.is_alive():
        ticks.append(time.perf_counter())  # pure Python: runs only while the GIL is free
    t.join()
    assert window["value"] == 160.0
    t0, t1 = window["t0"], window["t1"]
    assert t1 - t0 > 10 * sys.getswitchinterval(), "the device work was too short to tell"
    inside = [x for x in ticks if t0 < x < t1]
    # With the GIL held through the waits, this thread could not tick during the work; a
    # released GIL lets it tick all along (switch interval 5 ms: many ticks at least).
    assert len(inside) > 20 and max(np.diff([t0, *inside, t1])) < 0.5 * (t1 - t0)


def test_two_threads_overlap_device_waits():
    repeats = _long_enough()
    started = threading.Event()
    times = {}

    def first():
        times["a0"] = time.perf_counter()
        started.set()
        times["a_value"] = _gpu_work(repeats)  # long: holds the device for a while
        times["a1"] = time.perf_counter()

    def second():
        started.wait()
        # Reaching this line needs the GIL, which the first thread holds all through its
        # call unless its waits release it.
        times["b0"] = time.perf_counter()
        times["b_value"] = float(ga.asarray(np.arange(4, dtype=np.float32)).sum().get())
        times["b1"] = time.perf_counter()

    ts = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert times["a_value"] == 160.0 and times["b_value"] == 6.0
    a0, a1, b0 = times["a0"], times["a1"], times["b0"]
    assert a1 - a0 > 10 * sys.getswitchinterval(), "the device work was too short to tell"
    # The second thread entered its own device call while the first was still waiting.
    assert b0 < a0 + 0.5 * (a1 - a0), (b0 - a0, a1 - a0)


def _child_after_fork(conn):
    try:
        ga.zeros((3,)).get()
        conn.send(("ok", ""))
    except Exception as e:  # noqa: BLE001 - reported to the parent
        conn.send((type(e).__name__, str(e)))
    conn.close()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_forked_child_gets_a_clear_error():
    ga.zeros((2,)).get()  # this process has used the device
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe()
    p = ctx.Process(target=_child_after_fork, args=(child,))
    p.start()
    name, msg = parent.recv()
    p.join(30)
    assert p.exitcode == 0  # no crash
    assert name == "DeviceLostError" and "fork" in msg and "spawn" in msg
    ga.zeros((2,)).get()  # the parent is unaffected


def _spawned_sum(q):
    import numpy as np

    import gpuarray as ga

    q.put(float(ga.asarray(np.arange(10, dtype=np.float32)).sum().get()))


def test_spawned_process_opens_its_own_device():
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    p = ctx.Process(target=_spawned_sum, args=(q,))
    p.start()
    assert q.get(timeout=120) == 45.0
    p.join(60)
    assert p.exitcode == 0


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_child_forked_before_any_gpu_use_works():
    code = (
        "import os, sys, gpuarray as ga\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    os._exit(0 if float(ga.ones((4,)).sum().get()) == 4.0 else 1)\n"
        "_, st = os.waitpid(pid, 0)\n"
        "sys.exit(os.waitstatus_to_exitcode(st))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], timeout=120)
    assert r.returncode == 0
