"""float16 on every adapter (issue 38): where the adapter has no shader-f16 (Mesa's GL driver,
browsers without the feature) halves are packed two per 32-bit word and computed in float32,
each result rounded once to float16 — what NumPy's float16 ufuncs do — so dtype and bits are
NumPy's. Each case runs a fresh interpreter: forced emulation (``GPUARRAY_F16=emulated``) and
Mesa's GL driver (``GPUARRAY_BACKEND=gl``, where the default emulates it).
"""

import json
import os
import subprocess
import sys

import pytest

EMULATED = r"""
import json, numpy as np, gpuarray as ga
rng = np.random.default_rng(5)
# Every half bit pattern, and random pairs of them (NaNs, infinities, subnormals included).
every = np.arange(65536, dtype=np.uint16).view(np.float16)
x = rng.integers(0, 65536, 1 << 16, dtype=np.uint16).view(np.float16)
y = rng.integers(0, 65536, 1 << 16, dtype=np.uint16).view(np.float16)
a, b = ga.asarray(x), ga.asarray(y)
out = {"f16": ga.device_info()["f16"], "dtype": str(a.dtype)}
def same(g, w):
    # The same bits, or both NaN (NumPy's float32 NaN payloads are the CPU's).
    g, w = np.asarray(g), np.asarray(w)
    if g.dtype != w.dtype:
        return False
    if g.dtype.kind != "f":
        return bool(np.array_equal(g, w))
    nan = np.isnan(w)
    return bool(np.array_equal(np.isnan(g), nan)
                and np.array_equal(g[~nan].view(np.uint16 if g.dtype == np.float16 else np.uint32),
                                   w[~nan].view(np.uint16 if w.dtype == np.float16 else np.uint32)))
with np.errstate(all="ignore"):
    for name in ("add", "subtract", "multiply", "divide", "maximum", "minimum", "copysign"):
        f = getattr(np, name)
        out[name] = same(f(a, b).get(), f(x, y))
    out["sqrt"] = same(np.sqrt(np.abs(a)).get(), np.sqrt(np.abs(x)))
    out["less"] = same((a < b).get(), x < y)
    e = ga.asarray(every)
    out["to_float32"] = bool(np.array_equal(e.astype(np.float32).get().view(np.uint32),
                                            every.astype(np.float32).view(np.uint32)))
    f32 = rng.integers(0, 1 << 32, 1 << 18, dtype=np.uint64).astype(np.uint32).view(np.float32)
    out["from_float32"] = same(ga.asarray(f32).astype(np.float16).get(), f32.astype(np.float16))
    f64 = rng.standard_normal(1 << 16) * 1000
    out["from_float64"] = same(ga.asarray(f64).astype(np.float16).get(), f64.astype(np.float16))
    out["from_int64"] = same(ga.arange(-70000, 70000, 7).astype(np.float16).get(),
                             np.arange(-70000, 70000, 7).astype(np.float16))
    v = (rng.standard_normal(4096)).astype(np.float16)
    out["sum"] = bool(abs(float(np.sum(ga.asarray(v)).get()) - float(np.sum(v.astype(np.float64))))
                      <= 4 * 2.0**-11 * float(np.sum(np.abs(v.astype(np.float64)))) / 64 + 0.05)
    out["sum_dtype"] = str(np.sum(ga.asarray(v)).dtype)
    m = (ga.asarray(v.reshape(64, 64)) @ ga.asarray(v.reshape(64, 64))).get()
    ref = v.reshape(64, 64).astype(np.float64) @ v.reshape(64, 64).astype(np.float64)
    out["matmul"] = bool(m.dtype == np.float16 and np.allclose(m, ref, rtol=2e-3, atol=2e-2))
    # (A stable sort: -0.0 and +0.0 are equal and keep their order.)
    out["sort"] = same(np.sort(ga.asarray(x)).get(), np.sort(x, kind="stable"))
    out["random"] = str(ga.random.default_rng(3).random(5, dtype=np.float16).dtype)
print(json.dumps(out))
"""


@pytest.mark.parametrize(
    "setting",
    [
        {"GPUARRAY_F16": "emulated"},
        # Mesa's GL driver has no shader-f16: the default (auto) emulates it there.
        {"GPUARRAY_BACKEND": "gl"},
    ],
    ids=["forced-emulation", "gl"],
)
def test_emulated_float16_gives_numpys_bits(setting):
    env = dict(os.environ, **setting)
    done = subprocess.run([sys.executable, "-c", EMULATED], env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out.pop("f16") == "emulated"
    assert out.pop("dtype") == "float16"
    assert out.pop("random") == "float16"
    assert out.pop("sum_dtype") == "float16"
    failed = [k for k, ok in out.items() if not ok]
    assert not failed, failed


def test_no_float16_is_an_error_never_a_silent_cast():
    """GPUARRAY_F16=native on an adapter without shader-f16 has no float16: float16 data is then
    refused by name; with it, float16 data keeps its bits."""
    code = ("import numpy as np, gpuarray as ga; print(ga.device_info()['f16'], flush=True); "
            "print(ga.asarray(np.array([0.1], np.float16)).get()[0] == np.float16(0.1))")
    for setting in ({"GPUARRAY_F16": "native"}, {"GPUARRAY_F16": "native", "GPUARRAY_BACKEND": "gl"}):
        env = dict(os.environ, **setting)
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                              text=True, timeout=300)
        lines = done.stdout.split()
        assert lines and lines[0] in ("native", "none"), (setting, done.stdout, done.stderr[-2000:])
        if lines[0] == "native":
            assert done.returncode == 0 and lines[1] == "True", done.stderr[-2000:]
        else:
            assert done.returncode != 0 and "no float16" in done.stderr, done.stderr[-2000:]
