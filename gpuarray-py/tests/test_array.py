"""The array class: attributes, indexing, views, conversions, constructors, transfers, repr,
pickling, tokenising and error types, against NumPy."""

import pickle

import numpy as np
import pytest
from _helpers import assert_same

import gpuarray as ga


def host(shape=(3, 4, 5), dtype=np.float32):
    return np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)


def test_attributes():
    a = host()
    g = ga.asarray(a)
    assert g.shape == (3, 4, 5) and isinstance(g.shape, tuple)
    assert isinstance(g.dtype, np.dtype) and g.dtype == np.float32
    assert (g.ndim, g.size, g.nbytes, len(g), g.itemsize) == (3, 60, 240, 3, 4)
    assert g.strides == a.strides
    assert_same(g.T, a.T)
    assert g.T.shape == (5, 4, 3)
    assert "llvmpipe" in repr(g.device) or "Device" in repr(g.device)
    with pytest.raises(TypeError):
        len(ga.asarray(np.float32(1)))


def test_no_implicit_host_copy():
    g = ga.zeros((3,))
    with pytest.raises(TypeError, match=r"\.get\(\)"):
        np.asarray(g)
    with pytest.raises(TypeError):
        np.array(g, dtype=np.float32)
    assert isinstance(ga.asnumpy(g), np.ndarray)
    assert isinstance(g.get(), np.ndarray)


def test_repr_is_numpy_like():
    g = ga.asarray(np.array([[1, 2], [3, 4]], np.int32))
    assert repr(g) == repr(np.array([[1, 2], [3, 4]], np.int32))
    assert str(ga.asarray(np.float32(2.5))) == "2.5"


BASIC_KEYS = [
    1, -1, slice(None), slice(1, None), slice(None, None, -1), slice(None, None, 2),
    slice(-1, 0, -2), (1, 2), (1, slice(None), 3), (Ellipsis, 2), (None,), (slice(None), None),
    (1, Ellipsis, None), (Ellipsis,), (), (slice(5, 1),), (slice(100, 200),),
    (np.int64(2), slice(0, 4, 3)), (None, 0, None, -1, None),
]


@pytest.mark.parametrize("key", BASIC_KEYS, ids=repr)
def test_basic_indexing(key):
    a = host()
    assert_same(ga.asarray(a)[key], a[key])


ADV_KEYS = [
    [0, 2], ([2, 0, 2],), (slice(None), [1, -1, 0]), (Ellipsis, [4, 0]),
    (1, slice(None), [0, 0, 3]), (np.array([[0, 1], [2, 2]]),), (slice(None), np.array([], np.int64)),
    (None, [1]), (slice(1, None), [0, 1], slice(None, None, -1)),
    # Several arrays (broadcast together), adjacent or not, with integers.
    ([0, 2], [1, 3]), ([[0], [2]], slice(None), [0, 4, 4]), (slice(None), [0, 3], [[1], [-1]]),
    (1, [0, 3], [2, 2]), ([2], slice(1, 3), 0), tuple(np.ogrid[:3, :1]) + ([[4]],),
]


@pytest.mark.parametrize("key", ADV_KEYS, ids=repr)
def test_integer_array_indexing(key):
    a = host()
    assert_same(ga.asarray(a)[key], a[key])


@pytest.mark.parametrize("mask", [lambda a: a > 30, lambda a: (a > 30)[:, :, 0],
                                  lambda a: (a > 10)[:, 0, 0]])
def test_boolean_mask(mask):
    a = host()
    g = ga.asarray(a)
    assert_same(g[mask(g)], a[mask(a)])
    assert_same(g[mask(a)], a[mask(a)])
    b = a.copy()
    b[mask(a)] = -7
    g[mask(g)] = -7
    assert_same(g, b)
    with pytest.raises(IndexError):
        g[ga.asarray(np.zeros((2, 2), bool))]


@pytest.mark.parametrize("mask", [lambda a: a > 30, lambda a: (a > 30)[:, :, 0],
                                  lambda a: (a > 10)[:, 0, 0]])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_boolean_mask_assignment_of_one_value_per_selected_element(mask, dtype):
    # NumPy assigns values in order to the selected elements, broadcast over the axes the mask
    # does not cover (issue 31; only a scalar was accepted before).
    a = host().astype(dtype)
    g = ga.asarray(a)
    m = mask(a)
    rest = a.shape[m.ndim:]
    count = int(m.sum())
    values = (np.arange(count * int(np.prod(rest))) * 3 - 5).astype(np.float64).reshape((count,) + rest)
    b = a.copy()
    b[m] = values
    g[mask(g)] = values
    assert_same(g, b)
    if rest:
        # One row of values broadcast over the selected rows.
        b[m] = values[:1]
        g[m] = values[:1]
        assert_same(g, b)


@pytest.mark.parametrize("shape,m,values", [
    ((6,), [1, 0, 1, 0, 1, 0], [10.0, 20.0]),
    ((3, 4), [1, 0, 1], [1.0, 2.0]),
    ((3, 4), [1, 0, 1], [1.0, 2.0, 3.0, 4.0, 5.0]),
])
def test_boolean_mask_assignment_of_the_wrong_count_raises_numpys_error(shape, m, values):
    n = np.zeros(shape, np.float32)
    g = ga.asarray(n)
    m = np.array(m, bool)
    with pytest.raises(ValueError) as want:
        n[m] = np.array(values)
    with pytest.raises(ValueError) as got:
        g[m] = np.array(values)
    assert str(got.value) == str(want.value)
    # Nothing was written.
    assert_same(g, n)


@pytest.mark.parametrize("index", [np.array([0.0, 1.0]), np.array([1.0, 0, 1, 0], np.float32)])
def test_an_index_array_of_floats_is_refused_as_numpy(index):
    a = np.arange(4, dtype=np.float32)
    with pytest.raises(IndexError, match="must be of integer"):
        a[index]
    with pytest.raises(IndexError, match=r"must be of integer \(or boolean\) type"):
        ga.asarray(a)[index]
    with pytest.raises(IndexError, match=r"must be of integer \(or boolean\) type"):
        ga.asarray(a)[ga.asarray(index.astype(np.float32))]


def test_device_index_array():
    a = host()
    i = np.array([2, 0, -1], np.int32)
    assert_same(ga.asarray(a)[:, ga.asarray(i)], a[:, i])


@pytest.mark.parametrize(
    "key,exc",
    [(3, IndexError), ((0, 0, 0, 0), IndexError), ((Ellipsis, Ellipsis), IndexError),
     ("a", IndexError), ([5], IndexError), ((slice(None), [0, -7]), IndexError),
     (slice(None, None, 0), ValueError), (1.5, IndexError)],
    ids=repr,
)
def test_index_errors_match_numpy(key, exc):
    a = host()
    with pytest.raises(exc):
        a[key]
    with pytest.raises(exc):
        ga.asarray(a)[key]


@pytest.mark.parametrize(
    "key,value",
    [(1, 7.0), ((slice(None), 2), np.arange(5, dtype=np.float32) * -1),
     ((Ellipsis, slice(None, None, -2)), 5), ((0, 1, 2), 9.5),
     ((slice(None), [0, 3]), 1.0), ((slice(None), [2, 0], 1), np.array([[1.0, 2.0]] * 3)),
     ([2, 2], 4.0), ((), 0.0), ((None, 1), np.ones((4, 5))),
     # several arrays, and integers split from the array by a slice (index axes first)
     (([0, 2], [1, 3]), np.array([[5.0], [6.0]])), (([[0], [2]], slice(None), [0, 4]), -1.0),
     ((1, slice(None), [0, 3]), np.arange(8.0).reshape(2, 4)),
     ((slice(None), [0, 3], [[1], [4]]), np.arange(4.0).reshape(2, 2))],
    ids=repr,
)
def test_setitem(key, value):
    a = host()
    g = ga.asarray(a)
    a[key] = value
    g[key] = ga.asarray(value) if isinstance(value, np.ndarray) else value
    assert_same(g, a)


def test_setitem_through_views_and_broadcast_errors():
    a = host()
    g = ga.asarray(a)
    v = g[1]
    v[:, ::2] = -1
    a[1][:, ::2] = -1
    assert_same(g, a)
    with pytest.raises(ValueError):
        g[0] = ga.zeros((3, 3))
    with pytest.raises(ValueError):
        a[0] = np.zeros((3, 3))


def test_reshape_transpose_squeeze():
    a = host()
    g = ga.asarray(a)
    assert_same(g.reshape(4, 15), a.reshape(4, 15))
    assert_same(g.reshape((-1, 5)), a.reshape((-1, 5)))
    assert_same(g.T.reshape(-1), a.T.reshape(-1))  # not a view: a copy
    assert_same(g.transpose(1, 0, 2), a.transpose(1, 0, 2))
    assert_same(g.transpose((2, 0, 1)), a.transpose((2, 0, 1)))
    s = np.zeros((1, 3, 1), np.int32)
    assert_same(ga.asarray(s).squeeze(), s.squeeze())
    assert_same(ga.asarray(s).squeeze(axis=2), s.squeeze(axis=2))
    for bad in (lambda x: x.reshape(7, -1), lambda x: x.reshape(-1, 0), lambda x: x.reshape(-1, -1),
                lambda x: x.transpose(0, 0, 1), lambda x: x.squeeze(axis=1)):
        with pytest.raises(ValueError):
            bad(a)
        with pytest.raises(ValueError):
            bad(g)


def test_reshape_view_shares_memory():
    g = ga.zeros((2, 6), dtype=np.int32)
    r = g.reshape(3, 4)
    r[0] = 5
    assert g.get()[0, :4].tolist() == [5, 5, 5, 5]


@pytest.mark.parametrize("src", ["bool", "int32", "uint32", "float16", "float32", "float64"])
@pytest.mark.parametrize("dst", ["bool", "int32", "float16", "float32", "float64"])
def test_astype(src, dst):
    a = np.array([0, 1, 2, 7, 100], dtype=src)
    assert_same(ga.asarray(a).astype(dst), a.astype(dst))


def test_astype_copy_and_errors():
    g = ga.ones((3,), dtype=np.float32)
    c = g.copy()
    c[0] = 5
    assert g.get()[0] == 1
    assert g.astype(np.float32, copy=False) is g
    assert g.astype(np.complex64).dtype == np.complex64  # complex arrays exist now
    with pytest.raises(TypeError):
        g.astype(np.int32, casting="safe")


def test_asarray_dtypes():
    assert ga.asarray([1, 2, 3]).dtype == np.int64  # NumPy's default integer
    assert ga.asarray([1.0, 2.0]).dtype == np.float64
    assert ga.asarray([True]).dtype == np.bool_
    for t in (np.uint64, np.int8, np.uint8, np.int16, np.uint16):
        assert_same(ga.asarray(np.arange(3, dtype=t)), np.arange(3, dtype=t))
    assert_same(ga.asarray([[1, 2], [3, 4]], dtype=np.float16), np.array([[1, 2], [3, 4]], np.float16))
    # Values past 2^53 and at the extremes round-trip exactly.
    big = np.array([2**63 - 1, -(2**63), 2**53 + 1, -1], np.int64)
    assert_same(ga.asarray(big), big)
    assert_same(ga.asarray([2**64 - 1, 2**63], dtype=np.uint64), np.array([2**64 - 1, 2**63], np.uint64))
    with pytest.raises(TypeError):
        ga.asarray(np.zeros(3, np.clongdouble))
    with pytest.raises(TypeError):
        ga.asarray(["a"])
    g = ga.asarray([1.0])
    assert ga.asarray(g) is g
    big = np.arange(5, dtype=">f4")
    assert_same(ga.asarray(big), big.astype(np.float32))
    assert_same(ga.asarray(np.arange(3, dtype=">i8")), np.arange(3, dtype=np.int64))


def test_0d_and_size_0():
    z = ga.asarray(np.float32(3))
    assert z.shape == () and z.ndim == 0 and z.size == 1
    assert float(z) == 3.0 and int(z) == 3 and z.item() == 3.0
    e = ga.zeros((0, 4), dtype=np.int32)
    assert e.size == 0 and e.get().shape == (0, 4)
    assert_same(e[:, 1:3], np.zeros((0, 4), np.int32)[:, 1:3])
    assert_same(e.reshape(4, 0), np.zeros((4, 0), np.int32))
    assert_same(e.astype(np.float32).sum(axis=0), np.zeros((4,), np.float32))
    with pytest.raises(ValueError):
        bool(ga.zeros((2,)))
    assert bool(ga.ones((1,)))


@pytest.mark.parametrize("dtype", [None, np.float32, np.int32, np.uint32, np.float16, bool])
def test_constructors(dtype):
    assert_same(ga.zeros((2, 3), dtype=dtype or float), np.zeros((2, 3), dtype=dtype or float))
    assert_same(ga.ones((2, 3), dtype=dtype), np.ones((2, 3), dtype=dtype))
    assert_same(ga.full((2, 3), 1, dtype=dtype), np.full((2, 3), 1, dtype=dtype))
    assert_same(ga.empty((0, 3), dtype=dtype or float), np.empty((0, 3), dtype=dtype or float))
    assert_same(ga.eye(3, 4, k=1, dtype=dtype or float), np.eye(3, 4, k=1, dtype=dtype or float))
    assert_same(ga.ndarray((2, 2), dtype=dtype or float), np.zeros((2, 2), dtype=dtype or float))


def test_arange_linspace_full():
    assert_same(ga.arange(10), np.arange(10))
    assert_same(ga.arange(2, 11, 3), np.arange(2, 11, 3))
    assert_same(ga.arange(10, 0, -3), np.arange(10, 0, -3))
    assert_same(ga.arange(0.0, 1.0, 0.25), np.arange(0.0, 1.0, 0.25))
    assert_same(ga.arange(5, dtype=np.float32), np.arange(5, dtype=np.float32))
    assert_same(ga.linspace(0, 1, 7), np.linspace(0, 1, 7))
    assert_same(ga.linspace(-2, 3, 5, dtype=np.float32), np.linspace(-2, 3, 5, dtype=np.float32))
    assert_same(ga.full((2, 2), 2.5), np.full((2, 2), 2.5))
    assert_same(ga.full((2, 3), [1, 2, 3]), np.full((2, 3), [1, 2, 3]))
    for mod in (np, ga):
        with pytest.raises(ValueError):
            mod.zeros((-1, 2))
        with pytest.raises(ValueError):
            mod.eye(-1)


def test_pickle_round_trip():
    for a in (host(), np.array([True, False]), np.float16(2.5), np.zeros((0, 2), np.uint32)):
        g = ga.asarray(a)
        g2 = pickle.loads(pickle.dumps(g))
        assert_same(g2, np.asarray(a))
    v = ga.asarray(host())[1, ::-1]
    assert_same(pickle.loads(pickle.dumps(v)), host()[1, ::-1])


def test_pickle_protocol_5_unaligned_buffers():
    # Dask ships arrays as out-of-band protocol-5 buffers, which may be unaligned.
    raw = bytearray(4 * 6 + 1)
    h = np.frombuffer(raw, dtype=np.float32, count=6, offset=1)
    assert not h.flags.aligned
    from gpuarray._core import _from_host

    assert_same(_from_host(h), np.zeros(6, np.float32))
    g = ga.asarray(host())
    bufs = []
    data = pickle.dumps(g, protocol=5, buffer_callback=bufs.append)
    assert_same(pickle.loads(data, buffers=bufs), host())


def test_dask_tokenize_needs_no_readback_and_sees_writes(monkeypatch):
    from dask.base import tokenize

    g = ga.asarray(host())
    calls = []
    monkeypatch.setattr(ga.ndarray, "get", lambda self: calls.append(1))
    t1 = tokenize(g)
    assert tokenize(g) == t1
    assert not calls  # no readback
    monkeypatch.undo()
    v = g[0]
    v[0] = 42  # a write through a view changes the base's token
    assert tokenize(g) != t1
    assert tokenize(ga.asarray(host())) != tokenize(g)


def test_errors_are_python_exceptions():
    # Shapes -> ValueError, dtypes -> TypeError, memory -> MemoryError; never a crash.
    with pytest.raises(ValueError):
        np.matmul(ga.zeros((2, 3)), ga.zeros((4, 2)))
    with pytest.raises(TypeError):
        np.bitwise_and(ga.zeros((2,), dtype=np.float32), ga.zeros((2,), dtype=np.float32))
    with pytest.raises(MemoryError):
        ga.zeros((1 << 40,), dtype=np.float32)
    with pytest.raises(np.exceptions.AxisError):
        ga.zeros((2, 3)).sum(axis=5)
    assert issubclass(ga.DeviceLostError, RuntimeError)


def test_memory_limit_gives_memory_error():
    ga.synchronize()
    base = ga.memory_stats()["in_use_bytes"]
    ga.set_memory_limit(base + (1 << 20))
    try:
        with pytest.raises(MemoryError):
            ga.zeros((1 << 22,), dtype=np.float32)  # 16 MiB over a 1 MiB allowance
    finally:
        ga.set_memory_limit(None)
    assert ga.zeros((1 << 22,), dtype=np.float32).size == 1 << 22
