"""float64 on every adapter (issue 38): NumPy's default float, kept as float64 (the GPU's own
where it has it, exact software binary64 where it has not), never turned into float32 silently.

The emulated cases run a fresh interpreter with ``GPUARRAY_F64=emulated`` (what an adapter
without SHADER_F64 gets by default), and one on Mesa's GL driver (``GPUARRAY_BACKEND=gl``, which
has no f64): the exact ops give NumPy's bits. (The elementary functions
are checked against the native path in the Rust suite: their software shaders take lavapipe
long to compile from a cold cache.)
"""

import json
import os
import subprocess
import sys

import numpy as np
import pytest
import gpuarray as ga


def test_the_default_float_is_float64_as_in_numpy():
    assert ga.asarray([0.5]).dtype == np.float64
    assert ga.linspace(0, 1, 5).dtype == np.float64
    assert (ga.arange(5) / 3).dtype == np.float64
    assert ga.random.default_rng(0).random(3).dtype == np.float64
    assert ga.zeros(2).dtype == np.float64
    import gpuarray.array_api as xp

    info = xp.__array_namespace_info__()
    assert info.default_dtypes()["real floating"] == np.float64
    assert ga.device_info()["f64"] in ("native", "emulated")


def test_float64_input_stays_float64_with_numpys_bits():
    rng = np.random.default_rng(1)
    x = rng.standard_normal(1000) * 1e3
    y = rng.standard_normal(1000)
    a, b = ga.asarray(x), ga.asarray(y)
    assert a.dtype == np.float64
    for f in (np.add, np.subtract, np.multiply, np.divide, np.maximum, np.fmod):
        got = f(a, b).get()
        assert got.dtype == np.float64
        np.testing.assert_array_equal(got.view(np.uint64), f(x, y).view(np.uint64), err_msg=f.__name__)
    np.testing.assert_array_equal(np.sqrt(np.abs(a)).get(), np.sqrt(np.abs(x)))


EMULATED = r"""
import json, numpy as np, gpuarray as ga
rng = np.random.default_rng(2)
x = rng.standard_normal(4096) * 10
y = rng.standard_normal(4096)
a, b = ga.asarray(x), ga.asarray(y)
out = {"f64": ga.device_info()["f64"], "dtype": str(a.dtype)}
bits = lambda v: v.view(np.uint64).tolist()
for name in ("add", "subtract", "multiply", "divide", "maximum", "fmod", "floor_divide"):
    f = getattr(np, name)
    out[name] = bits(f(a, b).get()) == bits(f(x, y))
out["sqrt"] = bits(np.sqrt(np.abs(a)).get()) == bits(np.sqrt(np.abs(x)))
out["astype"] = bits(a.astype(np.float32).get().astype(np.float64)) == bits(x.astype(np.float32).astype(np.float64))
out["sum"] = abs(float(np.sum(a).get()) - float(np.sum(x))) <= 4096 * 2.3e-16 * float(np.sum(np.abs(x)))
m = (a.reshape(64, 64) @ b.reshape(64, 64)).get()
out["matmul"] = bool(np.allclose(m, x.reshape(64, 64) @ y.reshape(64, 64), rtol=1e-13, atol=1e-12))
out["sort"] = bits(np.sort(a).get()) == bits(np.sort(x))
out["random"] = str(ga.random.default_rng(3).random(5).dtype)
out["linspace"] = bits(ga.linspace(0, 1, 7).get()) == bits(np.linspace(0, 1, 7))
print(json.dumps(out))
"""


@pytest.mark.parametrize(
    "setting",
    [
        {"GPUARRAY_F64": "emulated"},
        # Mesa's GL driver has no f64 at all: the default (auto) emulates it there.
        {"GPUARRAY_BACKEND": "gl"},
    ],
    ids=["forced-emulation", "gl"],
)
def test_emulated_float64_gives_numpys_bits(setting):
    env = dict(os.environ, **setting)
    done = subprocess.run([sys.executable, "-c", EMULATED], env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out.pop("f64") == "emulated"
    assert out.pop("dtype") == "float64"
    assert out.pop("random") == "float64"
    failed = [k for k, ok in out.items() if not ok]
    assert not failed, failed


def test_float32_by_request_only():
    code = "import gpuarray as ga; print(ga.asarray([0.5]).dtype, ga.linspace(0, 1, 3).dtype)"
    env = dict(os.environ, GPUARRAY_DEFAULT_FLOAT="float32")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["float32", "float32"]
    # float64 data stays float64 even then: only the default changes.
    assert ga.asarray(np.array([0.1])).dtype == np.float64


def test_no_float64_is_an_error_never_a_silent_cast():
    """GPUARRAY_F64=native on an adapter without SHADER_F64 has no float64: float64 data is then
    refused by name, never stored as float32; with it, float64 data keeps its bits."""
    code = ("import numpy as np, gpuarray as ga; print(ga.device_info()['f64'], flush=True); "
            "print(ga.asarray(np.array([0.1])).get()[0] == 0.1)")
    env = dict(os.environ, GPUARRAY_F64="native")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=300)
    lines = done.stdout.split()
    assert lines and lines[0] in ("native", "none"), (done.stdout, done.stderr[-2000:])
    if lines[0] == "native":
        assert done.returncode == 0 and lines[1] == "True", done.stderr[-2000:]
    else:
        assert done.returncode != 0 and "no float64" in done.stderr, done.stderr[-2000:]
