"""The Array API namespace: its contents, and property tests (hypothesis.extra.array_api
strategies) that array-api-strict and gpuarray agree on element-wise, statistical and
manipulation functions."""

import array_api_strict as xp
import numpy as np
import pytest
from _helpers import expected_dtype
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.array_api import make_strategies_namespace

import gpuarray as ga

xps = make_strategies_namespace(xp, api_version="2023.12")
gx = ga.zeros((1,)).__array_namespace__()

FLOATS = [xp.float32, xp.float64]
INTS = [xp.int32, xp.uint32]
NUMERIC = FLOATS + INTS
SHAPES = xps.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5)
SETTINGS = settings(max_examples=30, deadline=None)


def arrays(dtypes, shape=SHAPES, special=False, min_value=-1e4, max_value=1e4):
    """Arrays of one of ``dtypes``; floats in [min_value, max_value] or, ``special``, any
    float including NaN and infinities (never subnormal: some adapters flush them)."""

    def make(dt):
        if dt == xp.bool:
            return xps.arrays(dtype=dt, shape=shape)
        if dt in FLOATS:
            if special:
                el = dict(allow_subnormal=False)
            else:
                el = dict(allow_subnormal=False, min_value=min_value, max_value=max_value)
        else:
            el = dict(min_value=0 if dt == xp.uint32 else -1000, max_value=1000)
        return xps.arrays(dtype=dt, shape=shape, elements=el)

    return st.sampled_from(dtypes).flatmap(make)


def to_ga(x):
    return ga.asarray(np.from_dlpack(x))


def agree(got, want, *, loose=False, atol=None):
    """gpuarray result == array-api-strict result: shape, dtype (gpuarray's default integer
    is int32, so int64 answers become int32), values (floats within a few ulp, or, ``loose``,
    within the rounding of an accumulation)."""
    if isinstance(want, (tuple, list)):
        for g, w in zip(got, want, strict=True):
            agree(g, w, loose=loose)
        return
    assert isinstance(got, ga.ndarray)
    w = np.from_dlpack(want)
    h = got.get()
    assert h.shape == w.shape
    assert got.dtype == expected_dtype(w.dtype)
    if w.dtype.kind in "biu":
        np.testing.assert_array_equal(h, w.astype(h.dtype))
        return
    atol_override = atol
    fi = np.finfo(h.dtype)
    # Transcendental built-ins are within a few ulp (Vulkan allows more); 32 ulp is a bound
    # that still catches a wrong function or a wrong dtype.
    rtol = 64 * fi.eps if loose else 32 * fi.eps
    # Flush-to-zero on some adapters (lavapipe): results below the smallest normal may be 0.
    atol = 4 * float(fi.tiny)
    if loose:
        atol = builtins_max(atol, 64 * fi.eps * 1e4 * builtins_max(1, w.size))
    if atol_override is not None:
        atol = builtins_max(atol, atol_override)
    np.testing.assert_allclose(h, w, rtol=rtol, atol=atol, equal_nan=True)


def builtins_max(a, b):
    return a if a > b else b


def test_namespace_contents():
    assert gx is ga.array_api
    for name in ["bool", "int32", "uint32", "float16", "float32", "float64"]:
        assert getattr(gx, name) == np.dtype(name)
    for name in ["asarray", "arange", "zeros", "ones", "full", "linspace", "eye", "empty",
                 "zeros_like", "add", "exp", "sum", "mean", "std", "var", "max", "concat",
                 "stack", "permute_dims", "reshape", "argmax", "where", "matmul", "tensordot",
                 "vecdot", "matrix_transpose", "cumulative_sum", "unstack", "isdtype",
                 "result_type", "astype", "__array_namespace_info__"]:
        assert callable(getattr(gx, name)), name
    info = gx.__array_namespace_info__()
    assert info.default_dtypes()["integral"] == np.int32
    assert set(info.dtypes()) >= {"bool", "int32", "uint32", "float32"}
    assert info.devices() == [info.default_device()]
    assert gx.isdtype(gx.float32, "real floating") and not gx.isdtype(gx.int32, "bool")


def test_searching_and_devices():
    a = np.array([[0, 3, 0], [4, 0, 5]], np.int32)
    g, x = ga.asarray(a), xp.asarray(a)
    agree(gx.nonzero(g), xp.nonzero(x))
    agree(gx.count_nonzero(g, axis=1), xp.count_nonzero(x, axis=1))
    agree(gx.where(g > 2, g, 0), xp.where(x > 2, x, 0))
    assert g.to_device(g.device) is g
    with pytest.raises(ValueError):
        g.to_device("cpu")


def test_linalg_functions():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((2, 3, 4)).astype(np.float32)
    b = rng.standard_normal((2, 4, 5)).astype(np.float32)
    sa, sb = xp.asarray(a), xp.asarray(b)
    agree(gx.matmul(ga.asarray(a), ga.asarray(b)), xp.matmul(sa, sb), loose=True)
    agree(gx.matrix_transpose(ga.asarray(a)), xp.matrix_transpose(sa))
    agree(gx.tensordot(ga.asarray(a), ga.asarray(b), axes=([2], [1])),
          xp.tensordot(sa, sb, axes=([2], [1])), loose=True)
    agree(gx.vecdot(ga.asarray(a), ga.asarray(a)), xp.vecdot(sa, sa), loose=True)


TRIG = ["sin", "cos", "tan"]
# The f32 tanh built-in (lavapipe) has an absolute error up to ~4e-8 near 0, not a relative
# one (test_ufuncs.test_known_issue_tanh_near_zero); compare it with that absolute bound.
ATOL = {"tanh": 6e-8}
UNARY = ["abs", "negative", "positive", "square", "sign", "floor", "ceil", "trunc", "round",
         "isnan", "isinf", "isfinite", "logical_not"]
UNARY_FLOAT = ["sqrt", "exp", "expm1", "log", "log1p", "log2", "log10", "sin", "cos", "tan",
               "asin", "acos", "atan", "sinh", "cosh", "tanh", "signbit"]


@pytest.mark.parametrize("name", UNARY + UNARY_FLOAT)
@SETTINGS
@given(data=st.data())
def test_elementwise_unary(name, data):
    if name == "logical_not":
        x = data.draw(arrays([xp.bool]))
    elif name in TRIG:
        # f32 built-ins reduce huge arguments (1e7) less exactly than libm; keep them sane.
        x = data.draw(arrays(FLOATS, min_value=-100, max_value=100))
    else:
        x = data.draw(arrays(FLOATS if name in UNARY_FLOAT else NUMERIC, special=True))
    with np.errstate(all="ignore"):
        agree(getattr(gx, name)(to_ga(x)), getattr(xp, name)(x), atol=ATOL.get(name))


BINARY = ["add", "subtract", "multiply", "maximum", "minimum", "equal", "not_equal", "less",
          "less_equal", "greater", "greater_equal", "floor_divide", "remainder"]
BINARY_FLOAT = ["divide", "atan2", "hypot", "copysign", "pow"]
BINARY_INT = ["bitwise_and", "bitwise_or", "bitwise_xor"]


@pytest.mark.parametrize("name", BINARY + BINARY_FLOAT + BINARY_INT)
@SETTINGS
@given(data=st.data())
def test_elementwise_binary(name, data):
    dtypes = FLOATS if name in BINARY_FLOAT else INTS if name in BINARY_INT else NUMERIC
    dt = data.draw(st.sampled_from(dtypes))
    shape_a, shape_b = data.draw(xps.mutually_broadcastable_shapes(2, max_dims=3, max_side=4)
                                 .map(lambda s: s.input_shapes))
    x1 = data.draw(arrays([dt], shape=shape_a, special=True))
    x2 = data.draw(arrays([dt], shape=shape_b, special=True))
    if name == "pow":
        # Real powers of negative bases are NaN on both sides: keep bases positive. Zero
        # bases with negative exponents are a known crate issue in f32/f16 (0 instead of inf;
        # test_ufuncs.test_known_issue_pow_of_zero_to_negative), kept out of this property.
        x1 = xp.abs(x1) + 1
    with np.errstate(all="ignore"):
        agree(getattr(gx, name)(to_ga(x1), to_ga(x2)), getattr(xp, name)(x1, x2))


@SETTINGS
@given(data=st.data())
def test_elementwise_with_python_scalars(data):
    x = data.draw(arrays(NUMERIC))
    s = data.draw(st.integers(0, 50))
    agree(gx.add(to_ga(x), s), xp.add(x, s))
    agree(gx.multiply(s, to_ga(x)), xp.multiply(s, x))
    agree(gx.less(to_ga(x), s), xp.less(x, s))


def _axis(data, x):
    if x.ndim == 0:
        return None
    return data.draw(st.none() | st.integers(-x.ndim, x.ndim - 1))


@pytest.mark.parametrize("name", ["sum", "prod", "mean", "max", "min", "var", "std", "all", "any"])
@SETTINGS
@given(data=st.data())
def test_statistical(name, data):
    dtypes = FLOATS if name in ("mean", "var", "std") else NUMERIC
    x = data.draw(arrays(dtypes, min_value=-10, max_value=10) if name == "prod" else arrays(dtypes))
    if name == "prod" and x.dtype in INTS:
        x = x % 3
    axis = _axis(data, x)
    keepdims = data.draw(st.booleans())
    if name in ("max", "min") and (x.shape[axis] == 0 if axis is not None else x.size == 0):
        with pytest.raises(ValueError):
            getattr(gx, name)(to_ga(x), axis=axis)
        return
    with np.errstate(all="ignore"):
        want = getattr(xp, name)(x, axis=axis, keepdims=keepdims)
    agree(getattr(gx, name)(to_ga(x), axis=axis, keepdims=keepdims), want, loose=True)


@SETTINGS
@given(data=st.data())
def test_cumulative_sum(data):
    x = data.draw(arrays(NUMERIC, shape=xps.array_shapes(min_dims=1, max_dims=3, max_side=6)))
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    inc = data.draw(st.booleans())
    agree(gx.cumulative_sum(to_ga(x), axis=axis, include_initial=inc),
          xp.cumulative_sum(x, axis=axis, include_initial=inc), loose=True)


@SETTINGS
@given(data=st.data())
def test_manipulation(data):
    x = data.draw(arrays(NUMERIC))
    g = to_ga(x)
    nd = x.ndim
    agree(gx.flip(g), xp.flip(x))
    perm = data.draw(st.permutations(range(nd)))
    agree(gx.permute_dims(g, tuple(perm)), xp.permute_dims(x, tuple(perm)))
    agree(gx.reshape(g, (-1,)), xp.reshape(x, (-1,)))
    agree(gx.expand_dims(g, axis=0), xp.expand_dims(x, axis=0))
    agree(gx.concat([g, g], axis=None), xp.concat([x, x], axis=None))
    agree(gx.stack([g, g], axis=-1), xp.stack([x, x], axis=-1))
    reps = tuple(data.draw(st.lists(st.integers(0, 2), min_size=nd, max_size=nd + 1)))
    agree(gx.tile(g, reps), xp.tile(x, reps))
    agree(gx.broadcast_to(g, (2,) + x.shape), xp.broadcast_to(x, (2,) + x.shape))
    if nd:
        ax = data.draw(st.integers(-nd, nd - 1))
        shift = data.draw(st.integers(-7, 7))
        agree(gx.roll(g, shift, axis=ax), xp.roll(x, shift, axis=ax))
        agree(gx.roll(g, shift), xp.roll(x, shift))
        agree(gx.concat([g, g], axis=ax), xp.concat([x, x], axis=ax))
        agree(gx.repeat(g, 2, axis=ax), xp.repeat(x, 2, axis=ax))
        agree(gx.moveaxis(g, ax, 0), xp.moveaxis(x, ax, 0))
        agree(gx.unstack(g, axis=ax), xp.unstack(x, axis=ax))
        agree(gx.argmax(g, axis=ax), xp.argmax(x, axis=ax)) if x.shape[ax] else None
        ones = tuple(i for i, s in enumerate(x.shape) if s == 1)
        if ones:
            agree(gx.squeeze(g, axis=ones), xp.squeeze(x, axis=ones))
