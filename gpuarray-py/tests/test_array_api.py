"""The Array API namespace: its contents, and property tests (hypothesis.extra.array_api
strategies) that array-api-strict and gpuarray agree on element-wise, statistical and
manipulation functions."""

import inspect

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
INTS = [xp.int8, xp.uint8, xp.int16, xp.uint16, xp.int32, xp.uint32, xp.int64, xp.uint64]
NUMERIC = FLOATS + INTS
SHAPES = xps.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5)
# Derandomized: the same examples every run (a failure reproduces), and hypothesis prints the
# blob that replays a failing example.
SETTINGS = settings(max_examples=30, deadline=None, derandomize=True, print_blob=True)


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
            info = xp.iinfo(dt)
            el = dict(min_value=max(int(info.min), -1000), max_value=min(int(info.max), 1000))
        return xps.arrays(dtype=dt, shape=shape, elements=el)

    return st.sampled_from(dtypes).flatmap(make)


def to_ga(x):
    return ga.asarray(np.from_dlpack(x))


def agree(got, want, *, bound=None):
    """gpuarray result == array-api-strict result: shape, dtype (exactly), values: integers
    exactly, floats within a few ulp
    plus, for an accumulation, ``bound``: the rounding it may add (per element, absolute; see
    ``accumulated``)."""
    if isinstance(want, (tuple, list)):
        for g, w in zip(got, want, strict=True):
            agree(g, w, bound=bound)
        return
    assert isinstance(got, ga.ndarray)
    w = np.from_dlpack(want)
    h = got.get()
    assert h.shape == w.shape
    assert got.dtype == expected_dtype(w.dtype)
    if w.dtype.kind in "biu":
        np.testing.assert_array_equal(h, w.astype(h.dtype))
        return
    fi = np.finfo(h.dtype)
    # The math library is within 1-2 ulp of the correctly rounded result, NumPy's own float32
    # functions within a few: 8 ulp leaves room for both sides' last bits and no more.
    rtol = 8 * fi.eps
    # Flush-to-zero on some adapters (lavapipe): results below the smallest normal may be 0.
    atol = 4 * float(fi.tiny)
    if bound is not None:
        atol = atol + np.broadcast_to(np.asarray(bound, np.float64), w.shape)
    hw, ww = h.astype(np.float64), w.astype(np.float64)
    with np.errstate(invalid="ignore"):
        ok = (hw == ww) | (np.isnan(hw) & np.isnan(ww)) | (np.abs(hw - ww) <= atol + rtol * np.abs(ww))
    assert ok.all(), (
        f"{int((~ok).sum())} of {ok.size} elements differ beyond the bound: got {h[~ok][:5]}, "
        f"want {w[~ok][:5]}")


def accumulated(terms, abs_sum, dtype):
    """What an accumulation of ``terms`` values in ``dtype`` may add in rounding, per output:
    ``terms`` × eps × the sum of the absolute values it adds (Higham's bound for a sum in any
    order; a product's or a mean's is the same shape), so an error that does not come from
    rounding — a lost or doubled term, a wrong element — is caught at any magnitude."""
    return max(terms, 1) * float(np.finfo(dtype).eps) * np.asarray(abs_sum, np.float64)


def test_namespace_contents():
    assert gx is ga.array_api
    for name in ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                 "uint64", "float16", "float32", "float64"]:
        assert getattr(gx, name) == np.dtype(name)
    for name in ["asarray", "arange", "zeros", "ones", "full", "linspace", "eye", "empty",
                 "zeros_like", "add", "exp", "sum", "mean", "std", "var", "max", "concat",
                 "stack", "permute_dims", "reshape", "argmax", "where", "matmul", "tensordot",
                 "vecdot", "matrix_transpose", "cumulative_sum", "unstack", "isdtype",
                 "result_type", "astype", "__array_namespace_info__", "sort", "argsort",
                 "searchsorted", "unique_all", "unique_counts", "unique_inverse",
                 "unique_values", "logaddexp", "meshgrid"]:
        assert callable(getattr(gx, name)), name
    # The standard's dunder signatures: `self` positional-only.
    for dunder in ("__index__", "__int__", "__float__", "__bool__"):
        params = list(inspect.signature(getattr(ga.ndarray, dunder)).parameters.values())
        assert params[0].kind == inspect.Parameter.POSITIONAL_ONLY, (dunder, params)
    info = gx.__array_namespace_info__()
    assert info.default_dtypes()["integral"] == np.int64
    assert info.default_dtypes()["indexing"] == np.int64
    assert set(info.dtypes()) >= {"bool", "int8", "int64", "uint8", "uint64", "int32", "uint32",
                                   "float32"}
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
    aa, ab = np.abs(a).astype(np.float64), np.abs(b).astype(np.float64)
    agree(gx.matmul(ga.asarray(a), ga.asarray(b)), xp.matmul(sa, sb),
          bound=accumulated(4, aa @ ab, np.float32))
    agree(gx.matrix_transpose(ga.asarray(a)), xp.matrix_transpose(sa))
    agree(gx.tensordot(ga.asarray(a), ga.asarray(b), axes=([2], [1])),
          xp.tensordot(sa, sb, axes=([2], [1])),
          bound=accumulated(4, np.tensordot(aa, ab, axes=([2], [1])), np.float32))
    agree(gx.vecdot(ga.asarray(a), ga.asarray(a)), xp.vecdot(sa, sa),
          bound=accumulated(4, (aa * aa).sum(axis=-1), np.float32))


TRIG = ["sin", "cos", "tan"]
UNARY = ["abs", "negative", "positive", "square", "sign", "floor", "ceil", "trunc", "round",
         "isnan", "isinf", "isfinite", "logical_not"]
UNARY_FLOAT = ["sqrt", "exp", "expm1", "log", "log1p", "log2", "log10", "sin", "cos", "tan",
               "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
               "signbit"]


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
        agree(getattr(gx, name)(to_ga(x)), getattr(xp, name)(x))


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
    agree(getattr(gx, name)(to_ga(x), axis=axis, keepdims=keepdims), want,
          bound=_statistical_bound(name, np.from_dlpack(x), axis, keepdims))


def _statistical_bound(name, x, axis, keepdims):
    """The rounding a reduction ``name`` of ``x`` may add, per output (see ``accumulated``)."""
    if x.dtype.kind not in "f" or name in ("max", "min", "all", "any"):
        return None
    n = x.size if axis is None else x.shape[axis]
    ax = abs_x = np.abs(x.astype(np.float64))
    red = lambda v: v.sum(axis=axis, keepdims=keepdims)  # noqa: E731
    if name == "sum":
        return accumulated(n, red(ax), x.dtype)
    if name == "mean":
        return accumulated(n + 1, red(ax) / max(n, 1), x.dtype)
    if name == "prod":
        return accumulated(n, np.prod(abs_x, axis=axis, keepdims=keepdims), x.dtype)
    # var and std: the mean's rounding in every deviation, then the sum of squares.
    mean = np.abs(x.astype(np.float64).mean(axis=axis, keepdims=True)) if n else 0.0
    squares = red((ax + mean) ** 2) / max(n, 1)
    var_bound = accumulated(2 * n + 2, squares, x.dtype)
    if name == "var":
        return var_bound
    std = np.sqrt(x.astype(np.float64).var(axis=axis, keepdims=keepdims)) if n else 0.0
    # sqrt(v + e) - sqrt(v) <= e / (2 sqrt(v)), and never more than sqrt(e).
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.minimum(np.sqrt(var_bound), var_bound / np.maximum(2 * std, 1e-300))


@SETTINGS
@given(data=st.data())
def test_cumulative_sum(data):
    x = data.draw(arrays(NUMERIC, shape=xps.array_shapes(min_dims=1, max_dims=3, max_side=6)))
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    inc = data.draw(st.booleans())
    ax = np.abs(np.from_dlpack(x).astype(np.float64))
    running = np.cumsum(ax, axis=axis)
    if inc:
        running = np.concatenate([np.zeros_like(np.take(running, [0], axis=axis)), running], axis=axis)
    bound = accumulated(x.shape[axis], running, np.from_dlpack(x).dtype) if x.dtype in FLOATS else None
    agree(gx.cumulative_sum(to_ga(x), axis=axis, include_initial=inc),
          xp.cumulative_sum(x, axis=axis, include_initial=inc), bound=bound)


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


@SETTINGS
@given(data=st.data())
def test_sort_and_argsort(data):
    x = data.draw(arrays(NUMERIC, shape=xps.array_shapes(min_dims=1, max_dims=3, min_side=0,
                                                         max_side=6)))
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    descending = data.draw(st.booleans())
    g = to_ga(x)
    agree(gx.argsort(g, axis=axis, descending=descending),
          xp.argsort(x, axis=axis, descending=descending, stable=True))
    agree(gx.sort(g, axis=axis, descending=descending),
          xp.sort(x, axis=axis, descending=descending, stable=True))


@SETTINGS
@given(data=st.data())
def test_unique_functions_count_every_nan_apart(data):
    # Small integers, so values repeat; floats with NaN and infinities too.
    x = data.draw(arrays(FLOATS, special=True) | arrays(INTS).map(lambda a: a % 4))
    g = to_ga(x)
    agree(gx.unique_values(g), xp.unique_values(x))
    got, want = gx.unique_all(g), xp.unique_all(x)
    for field in ("values", "indices", "inverse_indices", "counts"):
        agree(getattr(got, field), getattr(want, field))
    agree(tuple(gx.unique_counts(g)), tuple(xp.unique_counts(x)))
    agree(tuple(gx.unique_inverse(g)), tuple(xp.unique_inverse(x)))


@SETTINGS
@given(data=st.data())
def test_searchsorted_and_logaddexp(data):
    x = xp.sort(data.draw(arrays(FLOATS, shape=xps.array_shapes(min_dims=1, max_dims=1))))
    v = data.draw(arrays([x.dtype]))
    side = data.draw(st.sampled_from(["left", "right"]))
    agree(gx.searchsorted(to_ga(x), to_ga(v), side=side), xp.searchsorted(x, v, side=side))
    with np.errstate(all="ignore"):
        agree(gx.logaddexp(to_ga(x), to_ga(x)), xp.logaddexp(x, x))


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sizes", [(3,), (3, 2), (3, 2, 4), (0, 2)])
def test_meshgrid(sizes, indexing):
    arrays_ = [np.arange(n, dtype=np.float32) + 10 * i for i, n in enumerate(sizes)]
    got = gx.meshgrid(*[ga.asarray(a) for a in arrays_], indexing=indexing)
    want = xp.meshgrid(*[xp.asarray(a) for a in arrays_], indexing=indexing)
    agree(got, want)


@pytest.mark.parametrize("args", [(0, 1, 5), (2, -3, 4), (0, 1, 7), (-1e3, 3.7, 33), (0.1, 0.7, 9),
                                  (0, 10, 0), (1, 1, 3)])
@pytest.mark.parametrize("endpoint", [True, False])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_linspace_has_numpys_bits(args, endpoint, dtype):
    # NumPy computes in float64, then rounds (integers: the floor first): the same bits here.
    got = gx.linspace(*args, endpoint=endpoint, dtype=dtype)
    want = np.linspace(*args, endpoint=endpoint, dtype=dtype)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.get(), want)


def test_what_array_api_tests_found():
    # data-apis/array-api-tests (int64 and complex skipped) failed on these before this change.
    import inspect

    f = gx.finfo(gx.float32)
    assert all(type(v) is float for v in (f.eps, f.max, f.min, f.smallest_normal))
    assert list(inspect.signature(gx.expand_dims).parameters) == ["x", "axis"]
    a = np.array([[0.0, 1.0, 4.0], [2.0, 2.0, 9.0]], dtype=np.float32)
    got = gx.var(ga.asarray(a), axis=1, correction=0.5).get()
    np.testing.assert_allclose(got, a.var(axis=1, ddof=0.5), rtol=1e-6)
    got = gx.std(ga.asarray(a), correction=1.5).get()
    np.testing.assert_allclose(got, a.std(ddof=1.5), rtol=1e-6)
    # A nested list of 0-d device arrays (how the suite builds its expected values).
    x = ga.asarray(a)
    t = gx.asarray([[x[i, j] for i in range(2)] for j in range(3)])
    assert t.dtype == np.float32 and np.array_equal(t.get(), a.T)
    # Comparing with None is NumPy's all-unequal, not a TypeError (it raised one inside
    # indexing with a slice of 0-d arrays, which test_repeat reached).
    b = ga.asarray([True, False])
    assert (b == None).get().tolist() == [False, False]  # noqa: E711
    assert (None != b).get().tolist() == [True, True]  # noqa: E711
    one = ga.asarray(1)
    assert gx.repeat(b, 1).get().tolist() == [True, False]
    assert b[one - 1 : one + 1].get().tolist() == [True, False]
    # tril/triu: the standard's keyword k and its rule of at least two dimensions.
    m = np.arange(12, dtype=np.float32).reshape(3, 4)
    assert np.array_equal(gx.tril(gx.asarray(m), k=-1).get(), np.tril(m, -1))
    assert np.array_equal(gx.triu(gx.asarray(m), k=2).get(), np.triu(m, 2))
    with pytest.raises(ValueError):
        gx.tril(gx.asarray([1.0, 2.0]))
