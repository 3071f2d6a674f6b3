"""The adapter, synchronisation, and the fork guard."""

from __future__ import annotations

import atexit
import os

from . import _gpuarray as _g


class Device:
    """The GPU adapter arrays live on (one per process, opened on first use).

    ``str(dev)`` is the one-line summary (name, backend, type); :meth:`info` has the details.
    """

    _instance = None

    @classmethod
    def _current(cls) -> "Device":
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance

    def info(self) -> dict:
        return _g.device_info()

    @property
    def name(self) -> str:
        return self.info()["name"]

    def synchronize(self) -> None:
        _g.synchronize()

    def memory_stats(self) -> dict:
        return _g.memory_stats()

    def __eq__(self, other):
        return isinstance(other, Device)

    def __hash__(self):
        return hash(Device)

    def __repr__(self) -> str:
        return f"<gpuarray.Device {self.info()['summary']}>"


def synchronize() -> None:
    """Waits until every kernel launched so far has finished (the GIL is released meanwhile).
    Time GPU work only after this: launches are batched and asynchronous."""
    _g.synchronize()


def device_info() -> dict:
    """The adapter: name, backend, device type, driver, features, limits, start-up time."""
    return _g.device_info()


def get_device() -> Device:
    return Device._current()


# A wgpu device does not survive fork: poison it in the child (see the extension's device.rs).
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_g._after_fork_in_child)

# Python's atexit hooks run before the interpreter calls the C library's exit(), whose handlers
# include the GPU driver's own destructors: stop the device's background compile and let the
# driver finish its work in flight first, so that an exiting script neither crashes nor hangs
# (a driver thread still compiling while its destructors run did both; see the crate's
# device/exit_guard.rs).
atexit.register(_g._prepare_exit)
