"""The Array API standard namespace of gpuarray (``x.__array_namespace__()``).

Covers the standard's real dtypes (bool, int8/16/32/64, uint8/16/32/64, float16, float32,
float64), creation, element-wise, statistical, manipulation, searching and utility
functions, ``linalg``-style ``matmul``/``tensordot``/``vecdot``/``matrix_transpose``, the
``linalg`` extension (``xp.linalg.solve``, ``cholesky``, ``qr``, ``eigh``, ``svd``, ...) and
``__array_namespace_info__``. Arrays are ``gpuarray.ndarray``. The default integer and index
dtype is int64, as NumPy's (``__array_namespace_info__().default_dtypes()`` says so).
"""

from __future__ import annotations

import builtins

import numpy as np

from . import _functions as _f
from . import _array_api_linalg as linalg  # noqa: F401
from ._dlpack import from_dlpack  # noqa: F401
from ._core import _DTYPES, asarray as _asarray, broadcast_to as _broadcast_to, canon_dtype, ndarray

__array_api_version__ = "2023.12"

bool = np.dtype("bool")
int8 = np.dtype("int8")
int16 = np.dtype("int16")
int32 = np.dtype("int32")
int64 = np.dtype("int64")
uint8 = np.dtype("uint8")
uint16 = np.dtype("uint16")
uint32 = np.dtype("uint32")
uint64 = np.dtype("uint64")
float16 = np.dtype("float16")
float32 = np.dtype("float32")
float64 = np.dtype("float64")

e = np.e
inf = np.inf
nan = np.nan
pi = np.pi
newaxis = None

# ---- data types ---------------------------------------------------------------------------


def astype(x, dtype, /, *, copy=True, device=None):
    return x.astype(dtype, copy=copy)


def can_cast(from_, to, /):
    f = from_.dtype if isinstance(from_, ndarray) else from_
    return np.can_cast(f, to, casting="safe")


class _finfo:
    """The standard's finfo object: its numbers are Python floats (NumPy's are NumPy scalars)."""

    def __init__(self, f):
        self.bits = int(f.bits)
        self.eps = float(f.eps)
        self.max = float(f.max)
        self.min = float(f.min)
        self.smallest_normal = float(f.smallest_normal)
        self.dtype = f.dtype

    def __repr__(self):
        return (f"finfo(bits={self.bits}, eps={self.eps}, max={self.max}, min={self.min}, "
                f"smallest_normal={self.smallest_normal}, dtype={self.dtype})")


def finfo(type, /):
    return _finfo(np.finfo(type.dtype if isinstance(type, ndarray) else type))


def iinfo(type, /):
    return np.iinfo(type.dtype if isinstance(type, ndarray) else type)


_KINDS = {
    "bool": "b", "signed integer": "i", "unsigned integer": "u", "integral": "iu",
    "real floating": "f", "complex floating": "c", "numeric": "iuf",
}


def isdtype(dtype, kind):
    if isinstance(kind, tuple):
        return builtins.any(isdtype(dtype, k) for k in kind)
    if isinstance(kind, str):
        if kind not in _KINDS:
            raise ValueError(f"unknown dtype kind {kind!r}")
        return np.dtype(dtype).kind in _KINDS[kind]
    return np.dtype(dtype) == np.dtype(kind)


def result_type(*arrays_and_dtypes):
    d = np.result_type(*[a.dtype if isinstance(a, ndarray) else a for a in arrays_and_dtypes])
    return canon_dtype(d, request=False)


# ---- creation -----------------------------------------------------------------------------


def asarray(obj, /, *, dtype=None, device=None, copy=None):
    return _asarray(obj, dtype=dtype, copy=copy)


def arange(start, /, stop=None, step=1, *, dtype=None, device=None):
    return _f.arange(start, stop, step, dtype=dtype)


def empty(shape, *, dtype=None, device=None):
    return _f.empty(shape, dtype=dtype)


def empty_like(x, /, *, dtype=None, device=None):
    return _f.empty_like(x, dtype=dtype)


def tril(x, /, *, k=0):
    if x.ndim < 2:
        raise ValueError(f"tril needs an array of at least 2 dimensions, got shape {x.shape}")
    return _f.tril(x, k=k)


def triu(x, /, *, k=0):
    if x.ndim < 2:
        raise ValueError(f"triu needs an array of at least 2 dimensions, got shape {x.shape}")
    return _f.triu(x, k=k)


def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None):
    return _f.eye(n_rows, n_cols, k=k, dtype=float if dtype is None else dtype)


def full(shape, fill_value, *, dtype=None, device=None):
    if dtype is None and isinstance(fill_value, builtins.bool):
        dtype = bool
    elif dtype is None and isinstance(fill_value, int):
        dtype = int64
    return _f.full(shape, fill_value, dtype=dtype)


def full_like(x, /, fill_value, *, dtype=None, device=None):
    return _f.full_like(x, fill_value, dtype=dtype)


def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True):
    return _f.linspace(start, stop, num, endpoint=endpoint, dtype=dtype)


def ones(shape, *, dtype=None, device=None):
    return _f.ones(shape, dtype=dtype)


def ones_like(x, /, *, dtype=None, device=None):
    return _f.ones_like(x, dtype=dtype)


def zeros(shape, *, dtype=None, device=None):
    return _f.zeros(shape, dtype=float if dtype is None else dtype)


def zeros_like(x, /, *, dtype=None, device=None):
    return _f.zeros_like(x, dtype=dtype)


def meshgrid(*arrays, indexing="xy"):
    """Coordinate matrices from 1-d arrays (``indexing='xy'``: the first two axes swapped, as
    NumPy's default); each output is a copy on the device."""
    if indexing not in ("xy", "ij"):
        raise ValueError(f"indexing must be 'xy' or 'ij' (got {indexing!r})")
    if builtins.any(a.ndim != 1 for a in arrays):
        raise ValueError("meshgrid takes 1-d arrays")
    shape = [a.shape[0] for a in arrays]
    if indexing == "xy" and len(arrays) > 1:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, a in enumerate(arrays):
        axis = (1 - i if i < 2 else i) if indexing == "xy" and len(arrays) > 1 else i
        view = a.reshape(tuple(-1 if d == axis else 1 for d in range(len(arrays))))
        out.append(_f.copy(_broadcast_to(view, tuple(shape))))
    return out


# ---- element-wise -------------------------------------------------------------------------


def _u(uf):
    def f(x, /):
        return uf(x)

    f.__name__ = uf.__name__
    return f


def _b(uf):
    def f(x1, x2, /):
        if not isinstance(x1, ndarray) and not isinstance(x2, ndarray):
            raise TypeError("at least one argument must be an array")
        return uf(x1, x2)

    f.__name__ = uf.__name__
    return f


abs = _u(np.absolute)
acos = _u(np.arccos)
acosh = _u(np.arccosh)
asin = _u(np.arcsin)
asinh = _u(np.arcsinh)
atan = _u(np.arctan)
atanh = _u(np.arctanh)
bitwise_invert = _u(np.invert)
ceil = _u(np.ceil)
cos = _u(np.cos)
cosh = _u(np.cosh)
exp = _u(np.exp)
expm1 = _u(np.expm1)
floor = _u(np.floor)
isfinite = _u(np.isfinite)
isinf = _u(np.isinf)
isnan = _u(np.isnan)
log = _u(np.log)
log1p = _u(np.log1p)
log2 = _u(np.log2)
log10 = _u(np.log10)
logical_not = _u(np.logical_not)
negative = _u(np.negative)
positive = _u(np.positive)
reciprocal = _u(np.reciprocal)


def round(x, /):
    # The standard keeps integer dtypes (NumPy's rint would give float64).
    return x.copy() if x.dtype.kind in "biu" else np.rint(x)


sign = _u(np.sign)
signbit = _u(np.signbit)
sin = _u(np.sin)
sinh = _u(np.sinh)
sqrt = _u(np.sqrt)
square = _u(np.square)
tan = _u(np.tan)
tanh = _u(np.tanh)
trunc = _u(np.trunc)
conj = _u(np.conjugate)

add = _b(np.add)
atan2 = _b(np.arctan2)
bitwise_and = _b(np.bitwise_and)
bitwise_left_shift = _b(np.left_shift)
bitwise_or = _b(np.bitwise_or)
bitwise_right_shift = _b(np.right_shift)
bitwise_xor = _b(np.bitwise_xor)
copysign = _b(np.copysign)
divide = _b(np.divide)
equal = _b(np.equal)
floor_divide = _b(np.floor_divide)
greater = _b(np.greater)
greater_equal = _b(np.greater_equal)
hypot = _b(np.hypot)
less = _b(np.less)
less_equal = _b(np.less_equal)
logical_and = _b(np.logical_and)
logical_or = _b(np.logical_or)
logical_xor = _b(np.logical_xor)
logaddexp = _b(np.logaddexp)
maximum = _b(np.maximum)
minimum = _b(np.minimum)
multiply = _b(np.multiply)
not_equal = _b(np.not_equal)
pow = _b(np.power)
remainder = _b(np.remainder)
subtract = _b(np.subtract)


def clip(x, /, min=None, max=None):
    if min is None and max is None:
        return x.copy()
    return _f.clip(x, min, max)


# ---- statistical --------------------------------------------------------------------------


def max(x, /, *, axis=None, keepdims=False):
    return _f.max(x, axis=axis, keepdims=keepdims)


def min(x, /, *, axis=None, keepdims=False):
    return _f.min(x, axis=axis, keepdims=keepdims)


def mean(x, /, *, axis=None, keepdims=False):
    return _f.mean(x, axis=axis, keepdims=keepdims)


def prod(x, /, *, axis=None, dtype=None, keepdims=False):
    return _f.prod(x, axis=axis, dtype=dtype, keepdims=keepdims)


def sum(x, /, *, axis=None, dtype=None, keepdims=False):
    return _f.sum(x, axis=axis, dtype=dtype, keepdims=keepdims)


def std(x, /, *, axis=None, correction=0.0, keepdims=False):
    if float(correction) == int(correction):
        return _f.std(x, axis=axis, ddof=int(correction), keepdims=keepdims)
    return sqrt(var(x, axis=axis, correction=correction, keepdims=keepdims))


def var(x, /, *, axis=None, correction=0.0, keepdims=False):
    if float(correction) == int(correction):
        return _f.var(x, axis=axis, ddof=int(correction), keepdims=keepdims)
    # A fractional correction: the population variance scaled by N / (N - correction), on the
    # device (N: the elements each result reduces).
    axes = range(x.ndim) if axis is None else (axis,) if isinstance(axis, int) else axis
    n = 1
    for a in axes:
        n *= x.shape[a]
    population = _f.var(x, axis=axis, ddof=0, keepdims=keepdims)
    return population * (n / (n - correction)) if n != correction else population / 0.0


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    return _f.cumulative_sum(x, axis=axis, dtype=dtype, include_initial=include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    return _f.cumulative_prod(x, axis=axis, dtype=dtype, include_initial=include_initial)


# ---- utility ------------------------------------------------------------------------------


def all(x, /, *, axis=None, keepdims=False):
    return _f.all(x, axis=axis, keepdims=keepdims)


def any(x, /, *, axis=None, keepdims=False):
    return _f.any(x, axis=axis, keepdims=keepdims)


# ---- manipulation -------------------------------------------------------------------------


def broadcast_arrays(*arrays):
    shape = np.broadcast_shapes(*[a.shape for a in arrays])
    return [_f._broadcast_to(a, shape) for a in arrays]


def broadcast_to(x, /, shape):
    return _f._broadcast_to(x, shape)


def concat(arrays, /, *, axis=0):
    return _f.concatenate(list(arrays), axis=axis)


def expand_dims(x, /, axis=0):
    return _f.expand_dims(x, axis)


def flip(x, /, *, axis=None):
    return _f.flip(x, axis=axis)


def moveaxis(x, source, destination, /):
    return _f.moveaxis(x, source, destination)


def permute_dims(x, /, axes):
    return x.transpose(axes)


def repeat(x, repeats, /, *, axis=None):
    return _f.repeat(x, repeats, axis=axis)


def reshape(x, /, shape, *, copy=None):
    if copy is False:
        r = x.reshape(shape)
        if not r._a.may_share_memory(x._a) and x.size:
            raise ValueError("reshape would need a copy (copy=False)")
        return r
    return _f.reshape(x, shape, copy=copy)


def roll(x, /, shift, *, axis=None):
    return _f.roll(x, shift, axis=axis)


def squeeze(x, /, axis):
    return _f.squeeze(x, axis=axis)


def stack(arrays, /, *, axis=0):
    return _f.stack(list(arrays), axis=axis)


def tile(x, repetitions, /):
    return _f.tile(x, repetitions)


def unstack(x, /, *, axis=0):
    return _f.unstack(x, axis=axis)


def take(x, indices, /, *, axis=None):
    return _f.take(x, indices, axis=axis)


# ---- searching ----------------------------------------------------------------------------


def argmax(x, /, *, axis=None, keepdims=False):
    return _f.argmax(x, axis=axis, keepdims=keepdims)


def argmin(x, /, *, axis=None, keepdims=False):
    return _f.argmin(x, axis=axis, keepdims=keepdims)


def where(condition, x1, x2, /):
    return _f.where(condition, x1, x2)


def nonzero(x, /):
    """Indices of the non-zero elements, one int64 array per axis. The count decides the
    shape, so this reads the non-zero mask back to the host (a sync)."""
    if x.ndim == 0:
        raise ValueError("nonzero is not defined for 0-d arrays")
    mask = np.not_equal(x, 0).get()
    return tuple(_asarray(i.astype(np.int64)) for i in np.nonzero(mask))


def count_nonzero(x, /, *, axis=None, keepdims=False):
    return _f.sum(np.not_equal(x, 0), axis=axis, keepdims=keepdims)


# ---- sorting and sets ---------------------------------------------------------------------


def sort(x, /, *, axis=-1, descending=False, stable=True):
    """Always stable; ``descending`` keeps equal elements in their original order too."""
    if not descending:
        return _f.sort(x, axis=axis)
    return _take_along(x, argsort(x, axis=axis, descending=True), axis)


def argsort(x, /, *, axis=-1, descending=False, stable=True):
    """Always stable: equal elements keep their order, ascending or descending."""
    if not descending:
        return _f.argsort(x, axis=axis)
    # A stable ascending argsort of the reversed axis, reversed, lists equal elements from the
    # last to the first; counted from the other end, those are the original positions in order.
    axis = axis if axis >= 0 else axis + x.ndim
    n = x.shape[axis]
    rev = _f.flip(_f.argsort(_f.flip(x, axis=axis), axis=axis), axis=axis)
    return np.subtract(rev.dtype.type(n - 1), rev)


def _take_along(x, indices, axis):
    """``x``'s elements at ``indices`` along ``axis`` (indices of ``x``'s shape): one take of
    the flattened rows."""
    if x.size == 0:
        return _f.copy(x)
    xm, im = _f.moveaxis(x, axis, -1), _f.moveaxis(indices, axis, -1)
    n = xm.shape[-1]
    starts = _f.arange(0, xm.size, n, dtype=im.dtype).reshape(im.shape[:-1] + (1,))
    flat = _f.take(xm.reshape(-1), np.add(im, starts).reshape(-1))
    return _f.moveaxis(flat.reshape(im.shape), -1, axis)


def searchsorted(x1, x2, /, *, side="left", sorter=None):
    return _f.searchsorted(x1, x2, side=side, sorter=sorter)


class UniqueAllResult(tuple):
    """``(values, indices, inverse_indices, counts)``, by position or name."""

    def __new__(cls, values, indices, inverse_indices, counts):
        return super().__new__(cls, (values, indices, inverse_indices, counts))

    values = property(lambda self: self[0])
    indices = property(lambda self: self[1])
    inverse_indices = property(lambda self: self[2])
    counts = property(lambda self: self[3])


class UniqueCountsResult(tuple):
    """``(values, counts)``, by position or name."""

    def __new__(cls, values, counts):
        return super().__new__(cls, (values, counts))

    values = property(lambda self: self[0])
    counts = property(lambda self: self[1])


class UniqueInverseResult(tuple):
    """``(values, inverse_indices)``, by position or name."""

    def __new__(cls, values, inverse_indices):
        return super().__new__(cls, (values, inverse_indices))

    values = property(lambda self: self[0])
    inverse_indices = property(lambda self: self[1])


def _unique(x):
    # The standard counts every NaN as a value of its own (NumPy's equal_nan=False); the
    # number of values is read back (a sync), as it decides the shapes.
    values, indices, inverse, counts = _f.unique(
        x, return_index=True, return_inverse=True, return_counts=True, equal_nan=False)
    return values, indices, inverse.reshape(x.shape), counts


def unique_all(x, /):
    return UniqueAllResult(*_unique(x))


def unique_counts(x, /):
    values, _, _, counts = _unique(x)
    return UniqueCountsResult(values, counts)


def unique_inverse(x, /):
    values, _, inverse, _ = _unique(x)
    return UniqueInverseResult(values, inverse)


def unique_values(x, /):
    return _f.unique(x, equal_nan=False)


# ---- linear algebra -----------------------------------------------------------------------


def matmul(x1, x2, /):
    return np.matmul(x1, x2)


def matrix_transpose(x, /):
    return _f.matrix_transpose(x)


def tensordot(x1, x2, /, *, axes=2):
    return _f.tensordot(x1, x2, axes=axes)


def vecdot(x1, x2, /, *, axis=-1):
    return _f.vecdot(x1, x2, axis=axis)


# ---- inspection ---------------------------------------------------------------------------


class _Info:
    """``__array_namespace_info__()``: capabilities, devices and dtypes."""

    def capabilities(self):
        # x[mask], nonzero and unique_* read a count back to the host to size their results.
        return {"boolean indexing": True, "data-dependent shapes": True,
                "max dimensions": 8}

    def default_device(self):
        from ._device import get_device

        return get_device()

    def devices(self):
        return [self.default_device()]

    def default_dtypes(self, *, device=None):
        return {"real floating": canon_dtype(None), "complex floating": None,
                "integral": int64, "indexing": int64}

    def dtypes(self, *, device=None, kind=None):
        from . import _gpuarray as _g

        have = {str(d): d for d in _DTYPES if d.kind != "f" or _g._supports(d.name)}
        if kind is None:
            return have
        return {n: d for n, d in have.items() if isdtype(d, kind)}


def __array_namespace_info__():
    return _Info()
