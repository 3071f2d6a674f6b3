"""Shared set-up: the suite needs a GPU adapter (lavapipe is enough). Without one every test
is skipped with the reason, unless GPUARRAY_REQUIRE_GPU=1 (CI), where it is a failure."""

import os

import pytest
from hypothesis import settings

# CI explores the same examples on every run (no flaky reds); locally each run draws anew.
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


def _adapter_error():
    try:
        import gpuarray

        gpuarray.device_info()
    except Exception as e:  # NoAdapterError, or a broken driver: both mean "no device"
        return f"{type(e).__name__}: {e}"
    return None


_NO_ADAPTER = _adapter_error()


def pytest_sessionstart(session):
    if _NO_ADAPTER and os.environ.get("GPUARRAY_REQUIRE_GPU") == "1":
        raise pytest.UsageError(
            f"GPUARRAY_REQUIRE_GPU=1 but no GPU adapter is usable: {_NO_ADAPTER}"
        )


def pytest_collection_modifyitems(config, items):
    if _NO_ADAPTER:
        skip = pytest.mark.skip(reason=f"no GPU adapter ({_NO_ADAPTER})")
        for item in items:
            item.add_marker(skip)
