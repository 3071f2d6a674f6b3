"""User kernels and fuse from Python, against NumPy: CuPy's documented examples in WGSL,
broadcasting and views, dtypes, NumPy's scalar typing, out= aliasing, bad kernels raising with
the place of the error, RawKernel, and @fuse (fused == op by op bits; NumPy inputs == NumPy)."""

import numpy as np
import pytest

import gpuarray as ga


def test_squared_difference_broadcasts_and_types_scalars():
    k = ga.ElementwiseKernel("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff")
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7
    y = np.linspace(-1, 1, 4).astype(np.float32)
    got = k(ga.asarray(x), ga.asarray(y))
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got.get(), (x - y) * (x - y))
    # A transposed view, and a Python scalar adopting T from the array.
    t = ga.asarray(x).transpose(2, 0, 1)
    np.testing.assert_array_equal(k(t, 0.5).get(), (x.transpose(2, 0, 1) - np.float32(0.5)) ** 2)
    # out= aliasing an input.
    a = ga.asarray(x.copy())
    k(a, ga.asarray(y), a)
    np.testing.assert_array_equal(a.get(), (x - y) * (x - y))


def test_typed_params_numpy_math_and_integer_dtypes():
    k = ga.ElementwiseKernel("float32 x", "float32 y", "y = exp(x) + log1p(abs(x))", "m")
    x = np.linspace(-3, 3, 1001).astype(np.float32)
    got = k(ga.asarray(x)).get()
    # The op table's functions: the same bits as the unfused ops.
    want = (np.exp(ga.asarray(x)) + np.log1p(np.abs(ga.asarray(x)))).get()
    np.testing.assert_array_equal(got, want)
    np.testing.assert_allclose(got, np.exp(x) + np.log1p(np.abs(x)), rtol=2e-6)
    for dt in (np.int8, np.uint8, np.int16, np.int32, np.uint32):
        w = ga.ElementwiseKernel("T a, T b", "T c", "c = a * b + T(i)", "wrap")
        a = (np.arange(300) % 97).astype(dt)
        b = np.full(300, 3, dtype=dt)
        got = w(ga.asarray(a), ga.asarray(b)).get()
        want = (a.astype(np.int64) * 3 + np.arange(300)).astype(dt)
        np.testing.assert_array_equal(got, want, err_msg=str(dt))
    h = ga.ElementwiseKernel("float16 x, bool m", "float16 y", "y = select(-x, x * 2.0, m)", "h")
    xs = np.linspace(-2, 2, 77).astype(np.float16)
    ms = xs > 0
    np.testing.assert_array_equal(h(ga.asarray(xs), ga.asarray(ms)).get(),
                                  np.where(ms, xs * np.float16(2), -xs))


def test_l2norm_reduction_kernel_matches_numpy():
    l2 = ga.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
    x = np.random.default_rng(1).standard_normal((40, 3000)).astype(np.float32)
    d = ga.asarray(x)
    np.testing.assert_allclose(l2(d, axis=1).get(), np.linalg.norm(x, axis=1), rtol=1e-5)
    np.testing.assert_allclose(l2(d, axis=0, keepdims=True).get(),
                               np.linalg.norm(x, axis=0, keepdims=True), rtol=1e-5)
    np.testing.assert_allclose(l2(d).get(), np.linalg.norm(x), rtol=1e-5)


def test_bad_kernels_raise_with_the_place_of_the_error():
    k = ga.ElementwiseKernel("float32 x", "float32 y", "y = x +\n  q * 2.0", "bad")
    with pytest.raises(ValueError, match=r"line 2, column 3 of the operation"):
        k(ga.asarray(np.ones(3, dtype=np.float32)))
    syntax = ga.ElementwiseKernel("float32 x", "float32 y", "y = (x", "syntax")
    with pytest.raises(ValueError, match="does not compile"):
        syntax(ga.asarray(np.ones(3, dtype=np.float32)))
    wrong = ga.ElementwiseKernel("float32 x", "int32 y", "y = x * 2.0", "wrong_type")
    with pytest.raises(ValueError, match="does not compile"):
        wrong(ga.asarray(np.ones(3, dtype=np.float32)))
    with pytest.raises(ValueError, match="reserved"):
        ga.ElementwiseKernel("float32 i", "float32 y", "y = i", "reserved")
    # More arrays than any adapter binds in one stage (wgpu's maximum is 32; WebGPU's
    # default 8).
    many = ", ".join(f"float32 x{k}" for k in range(40))
    wide = ga.ElementwiseKernel(many, "float32 y", "y = x0", "wide")
    ones = ga.asarray(np.ones(4, dtype=np.float32))
    with pytest.raises(ValueError, match="max_storage_buffers_per_shader_stage"):
        wide(*([ones] * 40))
    # Arrays made before the errors are intact.
    np.testing.assert_array_equal(ones.get(), np.ones(4, dtype=np.float32))


def test_raw_kernel_binds_by_position():
    code = """
    @group(0) @binding(0) var<storage, read_write> x: array<f32>;
    @group(0) @binding(1) var<uniform> s: vec4<f32>;
    @compute @workgroup_size(64)
    fn axpy(@builtin(global_invocation_id) id: vec3<u32>) {
        if (id.x < arrayLength(&x)) { x[id.x] = x[id.x] * s.x + s.y; }
    }"""
    k = ga.RawKernel(code, "axpy")
    x = ga.asarray(np.arange(1000, dtype=np.float32))
    k((1000 + 63) // 64, [x, np.array([2, 1, 0, 0], dtype=np.float32)])
    np.testing.assert_array_equal(x.get(), np.arange(1000, dtype=np.float32) * 2 + 1)


def test_fuse_matches_numpy_and_the_unfused_bits():
    @ga.fuse
    def f(x, w, b):
        return np.tanh(np.exp(x) * w + b) - np.maximum(x, 0.25) / 3

    rng = np.random.default_rng(3)
    x = rng.standard_normal((8, 500)).astype(np.float32)
    w = rng.standard_normal(500).astype(np.float32)
    b = np.float32(0.5)
    got = f(ga.asarray(x), ga.asarray(w), b)
    assert f.last_mode == "fused"
    eager = np.tanh(np.exp(ga.asarray(x)) * ga.asarray(w) + b) - np.maximum(ga.asarray(x), 0.25) / 3
    np.testing.assert_array_equal(got.get(), eager.get())
    np.testing.assert_allclose(got.get(), f(x, w, b), rtol=2e-6, atol=1e-6)
    assert f.last_mode == "numpy"


def test_fuse_reductions_and_fallback():
    @ga.fuse
    def loss(x, y):
        return np.mean(np.square(x - y))

    @ga.fuse
    def softmax(x):
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    rng = np.random.default_rng(4)
    x = rng.standard_normal((64, 300)).astype(np.float32)
    y = rng.standard_normal((64, 300)).astype(np.float32)
    np.testing.assert_allclose(loss(ga.asarray(x), ga.asarray(y)).get(), loss(x, y), rtol=1e-5)
    got = softmax(ga.asarray(x))
    assert softmax.last_mode == "fused"
    np.testing.assert_allclose(got.get(), softmax(x), rtol=1e-5, atol=1e-7)

    @ga.fuse
    def total(i):
        return np.sum(i * 2)

    ints = np.arange(100, dtype=np.int32)
    got = total(ga.asarray(ints))
    assert total.last_mode.startswith("op by op")
    assert int(got.get()) == int(np.sum(ints * 2))


def test_fuse_follows_numpy_promotion_and_where():
    @ga.fuse
    def f(i, x):
        return np.where(x > 0, i * 2.5 + 1, -x)

    i = np.arange(-500, 500, dtype=np.int32)
    x = np.linspace(-1, 1, 1000)
    got = f(ga.asarray(i), ga.asarray(x))
    assert f.last_mode == "fused"
    want = f(i, x)
    assert got.dtype == want.dtype == np.float64
    np.testing.assert_array_equal(got.get(), want)

    @ga.fuse
    def g(a, b):
        return a * b + 1

    a = np.linspace(0, 1, 64, dtype=np.float32)
    b = np.linspace(0, 1, 64).astype(np.float16)
    got = g(ga.asarray(a), ga.asarray(b))
    assert g.last_mode == "fused"
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got.get(), g(a, b))


def test_int64_parameters_and_python_ints():
    info = ga.device_info()
    k = ga.ElementwiseKernel("T a, T b", "T c", "c = a * b - 7", "wide")
    a = np.arange(-500, 500, dtype=np.int64) * 3_000_000_007
    if "shader-int64" not in info["features"]:
        with pytest.raises(TypeError, match="SHADER_INT64"):
            k(ga.asarray(a), 3)
        return
    # A Python int adopts T from the array; alone it would be int64, as in NumPy.
    np.testing.assert_array_equal(k(ga.asarray(a), 3).get(), a * 3 - 7)
    s = ga.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "total")
    assert int(s(ga.asarray(a)).get()) == int(a.sum())
