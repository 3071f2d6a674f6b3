"""Without an adapter the suite skips with the reason, unless GPUARRAY_REQUIRE_GPU=1 (CI), where
it fails. Checked by running pytest on this package's own conftest with no usable adapter
(GPUARRAY_BACKEND=metal on a machine without Metal) in a subprocess."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent


@pytest.mark.skipif(sys.platform == "darwin", reason="Metal exists here: no way to hide the adapter")
@pytest.mark.parametrize("require", ["1", ""])
def test_missing_adapter_fails_only_when_required(require):
    env = dict(os.environ, GPUARRAY_BACKEND="metal", GPUARRAY_REQUIRE_GPU=require)
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         str(HERE / "test_random.py")],
        env=env, capture_output=True, text=True, timeout=300, cwd=HERE.parent,
    )
    out = r.stdout + r.stderr
    if require:
        assert r.returncode != 0 and "GPUARRAY_REQUIRE_GPU=1 but no GPU adapter" in out, out
    else:
        assert r.returncode == 0 and "skipped" in out and "passed" not in out, out
