"""Honest timing on the device: ``benchmark`` and ``profile`` wrap the crate's profiler
(``gpuarray::benchmark``, ``Device::profile``). Every time they report ends only after the
device finished the work (launches are asynchronous and batched; a bare ``time.perf_counter``
around a call measures the launch, not the work)."""

from __future__ import annotations

import numpy as np

from . import _gpuarray as _g


class BenchmarkResult:
    """Per-repeat times in seconds: ``cpu_times`` (call to device-finished, wall clock) and
    ``gpu_times`` (sum of kernel timestamps; None where the adapter has no timestamps or
    ``gpu_times=False``). ``str()`` is the crate's one-line summary, as cupyx prints."""

    def __init__(self, name, adapter, cpu, gpu, launches, text):
        self.name = name
        self.adapter = adapter
        self.cpu_times = np.asarray(cpu)
        self.gpu_times = None if gpu is None else np.asarray(gpu)
        self.launches = launches
        self._text = text

    def __str__(self):
        return self._text

    def __repr__(self):
        return self._text


def benchmark(f, *args, n_repeat=10, n_warmup=1, name=None, min_time=0.0, gpu_times=True,
              kwargs=None) -> BenchmarkResult:
    """Times ``f(*args, **kwargs)`` like ``cupyx.profiler.benchmark``: ``n_warmup`` untimed
    runs, then ``n_repeat`` timed ones (more while their total is under ``min_time`` s), each
    from an idle device to the end of its device work. The GIL is free during the waits."""
    if n_repeat < 1:
        raise ValueError("n_repeat must be at least 1")
    if n_warmup < 0:
        raise ValueError("n_warmup must be non-negative")
    name = name if name is not None else getattr(f, "__name__", "benchmark")
    res = _g._benchmark(f, tuple(args), dict(kwargs) if kwargs else None, str(name),
                        int(n_repeat), int(n_warmup), float(min_time), bool(gpu_times))
    return BenchmarkResult(*res)


class ProfileScope:
    """``with gpuarray.profile() as p:`` records every kernel the block launches on this thread;
    on exit it waits for the device, keeps the ``Profile`` in ``p.profile`` and prints its
    per-kernel table (``print_table=False`` keeps quiet), as ``torch.profiler`` does."""

    def __init__(self, print_table=True):
        self.print_table = print_table
        self.profile = None
        self._session = None

    def __enter__(self):
        if self._session is not None:
            raise RuntimeError("this profile scope is already open")
        self._session = _g._start_profile()
        return self

    def __exit__(self, exc_type, exc, tb):
        session, self._session = self._session, None
        self.profile = session.finish()
        if self.print_table:
            print(self.profile)
        return False


def profile(f=None, *args, **kwargs):
    """Two forms. ``profile(f, *args, **kwargs)`` runs ``f(*args, **kwargs)`` once, recording
    every kernel it launches on this thread, and returns ``(result, Profile)``.
    ``with profile(print_table=True) as p:`` records the block instead (``p.profile`` after it).
    ``print(profile)`` gives the per-kernel table; ``Profile.launches``, ``.kernels()``,
    ``.write_chrome_trace(path)`` the details."""
    if f is None:
        if args:
            raise TypeError("profile() takes a callable, or nothing to be used with `with`")
        return ProfileScope(**kwargs)
    return _g._profile(f, tuple(args), kwargs or None)
