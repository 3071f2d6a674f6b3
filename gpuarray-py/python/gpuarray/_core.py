"""The array class and its dtype rules.

gpuarray has NumPy's bool, integer and real float dtypes: bool, int8/16/32/64, uint8/16/32/64,
float16, float32 and float64 (float64 on every adapter: the GPU's own where it has it, exact
software binary64 elsewhere; float16 everywhere too, packed two per word and computed in float32
where the adapter lacks shader-f16; the integers the GPU lacks are
emulated exactly on every adapter). NumPy's default float is float64 and so is ours
(``GPUARRAY_DEFAULT_FLOAT=float32`` asks for float32 instead; nothing changes precision
silently). NumPy's default integer is int64
(``asarray([1, 2])``, ``arange(5)``, ``dtype=int``) and so is ours; results follow NumPy's own
promotion (``ufunc.resolve_dtypes``, NEP 50), and reductions NumPy's accumulators (``sum`` of
int32 or bool is int64).

Nothing moves between host and device implicitly: ``np.asarray(x)`` raises ``TypeError``
(use ``x.get()``), as in CuPy.
"""

from __future__ import annotations

import operator
import uuid

import numpy as np
from numpy.lib.mixins import NDArrayOperatorsMixin

from . import _gpuarray as _g

_DTYPE_NAMES = (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128",
)
_DTYPES = {np.dtype(n): np.dtype(n) for n in _DTYPE_NAMES}
_DTYPE_LIST = ", ".join(_DTYPE_NAMES)


def _default_float() -> np.dtype:
    """NumPy's float64 (every adapter has it, emulated where the GPU lacks it), unless
    ``GPUARRAY_DEFAULT_FLOAT=float32`` asks for float32."""
    global _DEFAULT_FLOAT
    if _DEFAULT_FLOAT is None:
        import os

        name = os.environ.get("GPUARRAY_DEFAULT_FLOAT", "").strip().lower() or "float64"
        if name not in ("float64", "float32"):
            raise ValueError(
                f"GPUARRAY_DEFAULT_FLOAT={name!r}: expected float64 (NumPy's default) or float32"
            )
        _DEFAULT_FLOAT = np.dtype(name)
    return _DEFAULT_FLOAT


_DEFAULT_FLOAT = None


def canon_dtype(dtype, *, request: bool = True) -> np.dtype:
    """The gpuarray dtype for ``dtype``.

    ``request`` is kept for callers that told a requested dtype from a promotion result: both
    are now NumPy's own. Anything gpuarray lacks raises ``TypeError`` naming the dtypes it has.
    """
    if dtype is None:
        return _default_float()
    if dtype is float:
        return _default_float()
    d = np.dtype(dtype)
    if d in _DTYPES:
        return d
    raise TypeError(f"gpuarray has no dtype {d}: the dtypes are {_DTYPE_LIST}")


def _new_token():
    # [this object's id (made lazily: uuid4 costs microseconds), the storage's write counter
    # (a one-element list shared by every view of the storage)].
    return [None, [0]]


class ndarray(NDArrayOperatorsMixin):
    """An N-dimensional array on the GPU, NumPy-like (as ``cupy.ndarray`` is).

    ``ndarray(shape, dtype=float)`` makes a zero-filled array; more often use
    :func:`gpuarray.asarray`, :func:`gpuarray.zeros`, ... Operators, NumPy ufuncs
    (``np.exp(x)``) and NumPy functions (``np.einsum``, ``np.sum``, ...) run on the device and
    return ``gpuarray.ndarray``; ``x.get()`` copies to a ``numpy.ndarray``.
    """

    __slots__ = ("_a", "_shape", "_dtype", "_token", "__weakref__")
    # Wins over numpy.ndarray in mixed binary operators.
    __array_priority__ = 100

    def __init__(self, shape, dtype=float):
        shape = _shape_tuple(shape)
        dt = canon_dtype(dtype)
        self._set(_g.filled("zeros", list(shape), 0.0, dt.name), None)

    def _set(self, raw, token):
        self._a = raw
        self._shape = raw.shape
        self._dtype = np.dtype(raw.dtype)
        # See _new_token and __dask_tokenize__.
        self._token = token if token is not None else _new_token()

    @classmethod
    def _wrap(cls, raw, token=None) -> "ndarray":
        obj = object.__new__(cls)
        obj._set(raw, token)
        return obj

    def _view(self, raw) -> "ndarray":
        """A view of this array's storage (shares its write generation)."""
        return ndarray._wrap(raw, [None, self._token[1]])

    # ---- attributes ---------------------------------------------------------------------
    @property
    def shape(self) -> tuple:
        return self._shape

    @property
    def dtype(self) -> np.dtype:
        return self._dtype

    @property
    def ndim(self) -> int:
        return len(self._shape)

    @property
    def size(self) -> int:
        n = 1
        for s in self._shape:
            n *= s
        return n

    @property
    def itemsize(self) -> int:
        return self._dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self._dtype.itemsize

    @property
    def strides(self) -> tuple:
        """Strides in bytes, as NumPy gives them."""
        return tuple(s * self._dtype.itemsize for s in self._a.strides)

    @property
    def T(self) -> "ndarray":
        return self.transpose()

    @property
    def real(self) -> "ndarray":
        """The real parts: a view of a complex array's storage (the array itself when real)."""
        return self._view(_g.complex_part("real", self._a)) if self._dtype.kind == "c" else self

    @property
    def imag(self) -> "ndarray":
        """The imaginary parts: a view of a complex array's storage (zeros when real)."""
        if self._dtype.kind == "c":
            return self._view(_g.complex_part("imag", self._a))
        return ndarray._wrap(_g.complex_part("imag", self._a))

    def conj(self) -> "ndarray":
        """The complex conjugate (a copy; real arrays: a copy of themselves), as NumPy's."""
        return ndarray._wrap(_g.complex_part("conj", self._a))

    conjugate = conj

    @property
    def mT(self) -> "ndarray":
        if self.ndim < 2:
            raise ValueError("matrix transpose with ndim < 2 is undefined")
        return self.swapaxes(-1, -2)

    def to_device(self, device, /, *, stream=None) -> "ndarray":
        """The Array API's device move: gpuarray has one device per process."""
        from ._device import Device

        if stream is not None or not isinstance(device, Device):
            raise ValueError(f"gpuarray arrays live on gpuarray.Device only, not {device!r}")
        return self

    @property
    def device(self):
        """The adapter this array lives on (a :class:`gpuarray.Device`)."""
        from ._device import Device

        return Device._current()

    def __len__(self) -> int:
        if not self._shape:
            raise TypeError("len() of unsized object")
        return self._shape[0]

    def __iter__(self):
        if not self._shape:
            raise TypeError("iteration over a 0-d array")
        for i in range(self._shape[0]):
            yield self[i]

    # ---- host transfer --------------------------------------------------------------------
    def get(self) -> np.ndarray:
        """A NumPy copy of the array (waits for the device, GIL released)."""
        return self._a.to_numpy()

    def item(self):
        if self.size != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        return self.get().item()

    def tolist(self):
        return self.get().tolist()

    def __array__(self, dtype=None, copy=None):
        raise TypeError(
            "Implicit conversion to a NumPy array is not allowed (it would copy from the "
            "device silently). Use x.get() or gpuarray.asnumpy(x) to copy explicitly."
        )

    def _scalar(self, conv):
        if self.size != 1:
            raise TypeError("only size-1 arrays can be converted to Python scalars")
        return conv(self.get().reshape(()))

    def __bool__(self, /):
        if self.size != 1:
            raise ValueError(
                "The truth value of an array with more than one element is ambiguous. "
                "Use a.any() or a.all()"
            )
        return bool(self.get().reshape(()))

    def __float__(self, /):
        return self._scalar(float)

    def __int__(self, /):
        return self._scalar(int)

    def __complex__(self, /):
        return self._scalar(complex)

    def __index__(self, /):
        if self._dtype.kind not in "iu" or self.ndim != 0:
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return int(self.get())

    def __repr__(self) -> str:
        # The host copy's repr with NumPy's formatting (CuPy does the same).
        return repr(self.get())

    def __str__(self) -> str:
        return str(self.get())

    def __format__(self, spec):
        return format(self.get(), spec)

    # ---- pickling and Dask ---------------------------------------------------------------
    def __reduce__(self):
        # Through the host: the device buffer cannot cross processes.
        return (_from_host, (self.get(),))

    def __dask_tokenize__(self):
        # Hash without reading back: this object's identity and its storage's write
        # generation, plus the layout. Equal content in different arrays gets different
        # tokens (only a cache miss), and a write through any view changes the token.
        from . import _dask

        _dask.maybe_register()  # Dask is loaded if it tokenizes us
        if self._token[0] is None:
            self._token[0] = uuid.uuid4().hex
        return ("gpuarray.ndarray", self._token[0], self._token[1][0], self._shape, self._dtype.str)

    def _touch(self):
        self._token[1][0] += 1

    # ---- conversions and views ------------------------------------------------------------
    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        dt = canon_dtype(dtype)
        if not np.can_cast(self._dtype, dt, casting=casting):
            raise TypeError(
                f"Cannot cast array data from {self._dtype!r} to {dt!r} according to the rule "
                f"{casting!r}"
            )
        if dt == self._dtype and not copy:
            return self
        if self._dtype.kind == "c" and dt.kind != "c":
            if dt.kind == "b":
                # NumPy: true where either part is non-zero.
                return np.not_equal(self, 0)
            import warnings

            warnings.warn(
                "Casting complex values to real discards the imaginary part",
                np.exceptions.ComplexWarning,
                stacklevel=2,
            )
        return ndarray._wrap(self._a.astype(dt.name))

    def copy(self, order="C") -> "ndarray":
        return ndarray._wrap(self._a.astype(self._dtype.name))

    def reshape(self, *shape, order="C") -> "ndarray":
        if order != "C":
            raise NotImplementedError("gpuarray.reshape supports order='C' only")
        if len(shape) == 1 and not isinstance(shape[0], (int, np.integer)):
            shape = shape[0]
        shape = tuple(operator.index(s) for s in shape)
        if shape.count(-1) > 1:
            raise ValueError("can only specify one unknown dimension")
        known = 1
        for s in shape:
            if s < -1:
                raise ValueError(f"negative dimensions not allowed: {shape}")
            if s != -1:
                known *= s
        if -1 in shape:
            if known == 0 or self.size % known:
                raise ValueError(
                    f"cannot reshape array of size {self.size} into shape {shape}"
                )
        elif known != self.size:
            raise ValueError(f"cannot reshape array of size {self.size} into shape {shape}")
        raw = self._a.reshape(list(shape))
        if raw.may_share_memory(self._a) or self.size == 0:
            return self._view(raw)
        return ndarray._wrap(raw)

    def ravel(self, order="C") -> "ndarray":
        return self.reshape(-1, order=order)

    def flatten(self, order="C") -> "ndarray":
        return self.reshape(-1, order=order).copy()

    def transpose(self, *axes) -> "ndarray":
        if len(axes) == 1 and (axes[0] is None or not isinstance(axes[0], (int, np.integer))):
            axes = axes[0]
        if axes is None or axes == ():
            axes = tuple(range(self.ndim))[::-1]
        axes = tuple(operator.index(a) for a in axes)
        if len(axes) != self.ndim:
            raise ValueError("axes don't match array")
        axes = _normalize_axes(axes, self.ndim)
        if len(set(axes)) != len(axes):
            raise ValueError("repeated axis in transpose")
        return self._view(self._a.transpose(list(axes)))

    def swapaxes(self, axis1, axis2) -> "ndarray":
        return self._view(self._a.swapaxes(operator.index(axis1), operator.index(axis2)))

    def squeeze(self, axis=None) -> "ndarray":
        if axis is None:
            return self._view(self._a.squeeze(None))
        axes = _normalize_axes(_axis_tuple(axis), self.ndim)
        for ax in axes:
            if self._shape[ax] != 1:
                raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
        return self._view(self._a.squeeze(list(axes)))

    def diagonal(self, offset=0, axis1=0, axis2=1) -> "ndarray":
        return self._view(self._a.diagonal(offset, axis1, axis2))

    def fill(self, value):
        self._a.fill(float(value))
        self._touch()

    # ---- indexing -------------------------------------------------------------------------
    def __getitem__(self, key):
        from ._indexing import getitem

        return getitem(self, key)

    def __setitem__(self, key, value):
        from ._indexing import setitem

        setitem(self, key, value)


    # ---- NumPy protocols ------------------------------------------------------------------
    # NumPy compares an array with None element by element as objects: all unequal. (The mixin
    # would hand None to the ufunc, which takes no objects.)
    def __eq__(self, other):
        if other is None:
            return self._compared_with_none(False)
        return NDArrayOperatorsMixin.__eq__(self, other)

    def __ne__(self, other):
        if other is None:
            return self._compared_with_none(True)
        return NDArrayOperatorsMixin.__ne__(self, other)

    __hash__ = None

    def _compared_with_none(self, value):
        from ._creation import full

        return full(self.shape, value, dtype=np.bool_, device=self.device)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        from ._ufuncs import array_ufunc

        return array_ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        from ._functions import array_function

        return array_function(func, types, args, kwargs)

    def __array_namespace__(self, *, api_version=None):
        if api_version not in (None, "2022.12", "2023.12", "2024.12"):
            raise ValueError(f"unsupported Array API version {api_version!r}")
        from . import array_api

        return array_api

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """DLPack export as a host copy (``gpuarray._dlpack``): ``np.from_dlpack(x)``,
        ``torch.from_dlpack(x)`` get the values; ``copy=False`` is ``BufferError``."""
        from ._dlpack import export

        return export(self, stream, max_version, dl_device, copy)

    def __dlpack_device__(self):
        from ._dlpack import device

        return device()

    # ---- methods that forward to the functions --------------------------------------------
    def sum(self, axis=None, dtype=None, out=None, keepdims=False):
        from . import _functions as f

        return f.sum(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False):
        from . import _functions as f

        return f.prod(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims)

    def mean(self, axis=None, dtype=None, out=None, keepdims=False):
        from . import _functions as f

        return f.mean(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims)

    def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        from . import _functions as f

        return f.var(self, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims)

    def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        from . import _functions as f

        return f.std(self, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims)

    def max(self, axis=None, out=None, keepdims=False):
        from . import _functions as f

        return f.max(self, axis=axis, out=out, keepdims=keepdims)

    def min(self, axis=None, out=None, keepdims=False):
        from . import _functions as f

        return f.min(self, axis=axis, out=out, keepdims=keepdims)

    def argmax(self, axis=None, out=None, keepdims=False):
        from . import _functions as f

        return f.argmax(self, axis=axis, out=out, keepdims=keepdims)

    def argmin(self, axis=None, out=None, keepdims=False):
        from . import _functions as f

        return f.argmin(self, axis=axis, out=out, keepdims=keepdims)

    def any(self, axis=None, out=None, keepdims=False):
        from . import _functions as f

        return f.any(self, axis=axis, out=out, keepdims=keepdims)

    def all(self, axis=None, out=None, keepdims=False):
        from . import _functions as f

        return f.all(self, axis=axis, out=out, keepdims=keepdims)

    def cumsum(self, axis=None, dtype=None, out=None):
        from . import _functions as f

        return f.cumsum(self, axis=axis, dtype=dtype, out=out)

    def cumprod(self, axis=None, dtype=None, out=None):
        from . import _functions as f

        return f.cumprod(self, axis=axis, dtype=dtype, out=out)

    def clip(self, min=None, max=None, out=None):
        from . import _functions as f

        return f.clip(self, min, max, out=out)

    def dot(self, b, out=None):
        from . import _functions as f

        return f.dot(self, b, out=out)

    def trace(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
        from . import _functions as f

        return f.trace(self, offset, axis1, axis2, dtype, out)

    def take(self, indices, axis=None, out=None, mode="raise"):
        from . import _functions as f

        return f.take(self, indices, axis=axis, out=out, mode=mode)

    def repeat(self, repeats, axis=None):
        from . import _functions as f

        return f.repeat(self, repeats, axis=axis)

    def round(self, decimals=0, out=None):
        from . import _functions as f

        return f.round(self, decimals=decimals, out=out)


# ---- helpers ------------------------------------------------------------------------------

def _shape_tuple(shape) -> tuple:
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    shape = tuple(operator.index(s) for s in shape)
    for s in shape:
        if s < 0:
            raise ValueError(f"negative dimensions are not allowed: {shape}")
    return shape


def _axis_tuple(axis) -> tuple:
    if isinstance(axis, (tuple, list)):
        return tuple(operator.index(a) for a in axis)
    return (operator.index(axis),)


def _normalize_axes(axes, ndim) -> tuple:
    out = []
    for a in axes:
        if not -ndim <= a < ndim:
            raise np.exceptions.AxisError(a, ndim)
        out.append(a % ndim if ndim else a)
    return tuple(out)


def _assign(view: ndarray, value):
    if isinstance(value, ndarray):
        if value.ndim > view.ndim or any(
            v not in (1, d) for v, d in zip(value._shape[::-1], view._shape[::-1])
        ):
            raise ValueError(
                f"could not broadcast input array from shape {value._shape} into shape "
                f"{view._shape}"
            )
        view._a.assign(value._a)
    elif np.isscalar(value) and not isinstance(value, (str, bytes)):
        if view.size:
            try:
                view._a.fill(_scalar_value(value, view._dtype))
            except _ComplexFill:
                _assign(view, asarray(np.asarray(value, dtype=view._dtype)))
    else:
        _assign(view, asarray(value, dtype=view._dtype))
    view._touch()


def _scalar_value(v, dtype) -> float:
    if isinstance(v, (complex, np.complexfloating)):
        if np.dtype(dtype).kind != "c":
            # NumPy: TypeError for a complex value written into a real array.
            raise TypeError(f"can't convert complex to {np.dtype(dtype)}")
        if complex(v).imag != 0:
            raise _ComplexFill(v)
        return complex(v).real
    return float(v)


class _ComplexFill(Exception):
    """A complex scalar with an imaginary part, which the real-valued fill cannot write."""


def _from_host(a: np.ndarray) -> ndarray:
    """Uploads a NumPy array whose dtype gpuarray has (no conversion). Also the unpickler
    of ``ndarray.__reduce__``, so a Dask worker registers gpuarray with Dask here."""
    from . import _dask

    _dask.maybe_register()
    # np.asarray(order="C"), not np.ascontiguousarray: the latter makes 0-d arrays 1-d.
    a = np.asarray(a, order="C")
    if not a.flags.aligned:
        # Pickle protocol 5 buffers (Dask's transfers) can be unaligned; the upload reads
        # whole elements.
        a = a.copy()
    return ndarray._wrap(_g._Array.from_numpy(a))


def _host_items(a):
    """A nested list or tuple with its device arrays read back (``asarray([x[0], x[1]])``, as
    NumPy and the Array API allow: each element is copied to the host explicitly here, once)."""
    if isinstance(a, (list, tuple)) and any(isinstance(e, (ndarray, list, tuple)) for e in a):
        return [e.get() if isinstance(e, ndarray) else _host_items(e) for e in a]
    return a


def asarray(a, dtype=None, copy=None) -> ndarray:
    """A device array from a NumPy array, a list, a scalar, or a ``gpuarray.ndarray``.

    Integers keep their NumPy dtype (``asarray([1, 2])`` is int64, as in NumPy); float64 data
    stays float64 on every adapter; Python floats take the default float (float64, or float32
    under ``GPUARRAY_DEFAULT_FLOAT=float32``).
    """
    if isinstance(a, ndarray):
        if dtype is None or canon_dtype(dtype) == a._dtype:
            return a.copy() if copy else a
        if copy is False:
            # NumPy 2: copy=False never copies, and a dtype change must.
            raise ValueError("Unable to avoid copy while creating an array as requested.")
        return a.astype(dtype)
    if copy is False:
        raise ValueError("gpuarray.asarray always copies host data to the device (copy=False)")
    from_python = not isinstance(a, (np.ndarray, np.generic))
    h = np.asarray(_host_items(a))
    if dtype is None and from_python and h.dtype == np.float64:
        # Python floats have no width of their own: they take the default float.
        h = h.astype(_default_float())
    if not h.dtype.isnative:
        h = h.astype(h.dtype.newbyteorder("="))  # big-endian data: the values, native order
    if dtype is not None:
        h = h.astype(canon_dtype(dtype))
    elif h.dtype not in _DTYPES:
        # longlong/ulonglong spell int64/uint64 on some platforms.
        if h.dtype.kind in "iu" and np.dtype(h.dtype.str) in _DTYPES:
            h = h.astype(np.dtype(h.dtype.str))
        else:
            raise TypeError(f"gpuarray has no dtype {h.dtype}: the dtypes are {_DTYPE_LIST}")
    if h.dtype.kind in "fc" and not _g._supports(h.dtype.name):
        # Only where a configuration turned it off (GPUARRAY_F64=native or GPUARRAY_F16=native
        # on an adapter without SHADER_F64 or shader-f16): never a silent change of precision.
        var = "GPUARRAY_F16" if h.dtype == np.float16 else "GPUARRAY_F64"
        raise TypeError(
            f"this device has no {h.dtype} ({_g.device_info()['summary']}); ask for another "
            f"dtype with dtype=, or let {h.dtype} be emulated ({var}=auto, the default)"
        )
    return _from_host(h)


def asnumpy(a) -> np.ndarray:
    """A NumPy copy of a ``gpuarray.ndarray`` (other inputs go through ``numpy.asarray``)."""
    if isinstance(a, ndarray):
        return a.get()
    return np.asarray(a)


def broadcast_to(a, shape) -> ndarray:
    a = asarray(a)
    shape = _shape_tuple(shape)
    try:
        return a._view(a._a.broadcast_to(list(shape)))
    except ValueError:
        raise ValueError(
            f"operands could not be broadcast together with remapped shapes "
            f"[original->remapped]: {a.shape} and requested shape {shape}"
        ) from None
