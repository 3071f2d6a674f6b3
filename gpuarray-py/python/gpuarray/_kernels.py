"""User kernels and fusion: CuPy's ``ElementwiseKernel``, ``ReductionKernel``, ``RawKernel``
and ``fuse``, with WGSL bodies, on every adapter.

    >>> import numpy as np, gpuarray as ga
    >>> sqdiff = ga.ElementwiseKernel("float32 x, float32 y", "float32 z",
    ...                               "z = (x - y) * (x - y)", "squared_diff")
    >>> z = sqdiff(ga.asarray(np.arange(3, dtype=np.float32)), np.float32(1))

Parameters are CuPy's (``"float32 x, T y"``: NumPy dtype names or type placeholders); the body
is WGSL that assigns the outputs, sees each parameter in its dtype's WGSL type (``f32`` for
float32 and float16, ``i32``/``u32`` for the narrower integers, ``i64``/``u64`` where the adapter
has 64-bit integers, ``bool``), CuPy's ``i`` and
``n``, and may call NumPy's math by NumPy's names (``exp``, ``log1p``, ``arctan2``, ...).
Python scalars follow NumPy: a placeholder no array binds takes ``int64``/``float64``/``bool``.

``@fuse`` traces a function written with NumPy ufuncs, ``where`` and reductions on tracer
objects (``__array_ufunc__``/``__array_function__``) and runs it as one kernel (one map-reduce
when it ends in a reduction) with NumPy's promotion; what it cannot fuse runs op by op (the
reason in ``last_mode``). Called with NumPy arrays it is the plain function.
"""

from __future__ import annotations

import functools
import numbers
import os

import numpy as np
from numpy.lib.mixins import NDArrayOperatorsMixin

from . import _gpuarray as _g
from ._core import _DTYPES, asarray, ndarray
from ._ufuncs import BINARY, UNARY

_TYPE_NAMES = {
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "float", "double", "half", "int", "uint", "char",
    "short", "long long", "unsigned char", "unsigned short", "unsigned int",
    "unsigned long long", "signed char",
}


def _params(spec: str):
    """``[(type, name)]`` of a CuPy parameter list."""
    out = []
    for part in spec.split(","):
        part = part.strip()
        if part:
            ty, _, name = part.rpartition(" ")
            out.append((ty.strip(), name.strip()))
    return out


def _scalar(x):
    """``(value, dtype name or None)`` of a scalar argument, or None if ``x`` is not one."""
    if isinstance(x, np.generic) and x.dtype.kind in "biuf":
        return float(x.item()), x.dtype.name
    if isinstance(x, (bool, numbers.Real)) and not isinstance(x, np.ndarray):
        return float(x), None
    return None


def _arguments(params, args):
    """The extension's arguments: ``_Array``s, and scalars typed by NumPy's rules where no
    array binds their placeholder."""
    if len(args) != len(params):
        raise TypeError(f"the kernel takes {len(params)} argument(s), {len(args)} were given")
    bound = {ty for (ty, _), a in zip(params, args) if _scalar(a) is None}
    out = []
    for (ty, name), a in zip(params, args):
        s = _scalar(a)
        if s is None:
            out.append(asarray(a)._a)
            continue
        value, dtype = s
        if dtype is None and ty not in _TYPE_NAMES and ty not in bound:
            # NumPy's default types for Python scalars.
            a0 = a
            dtype = "bool" if isinstance(a0, bool) else (
                "int64" if isinstance(a0, numbers.Integral) else "float64")
        out.append((value, dtype))
    return out


def _wrap_all(raws):
    res = [ndarray._wrap(r) for r in raws]
    return res[0] if len(res) == 1 else tuple(res)


class ElementwiseKernel:
    """CuPy's ``ElementwiseKernel(in_params, out_params, operation, name, preamble=...)`` with a
    WGSL ``operation``; called as ``k(x, y)``, ``k(x, y, z)`` or ``k(x, y, out=z)``."""

    def __init__(self, in_params, out_params, operation, name="kernel", reduce_dims=True,
                 preamble="", no_return=False, return_tuple=False, **kwargs):
        self._k = _g._ElementwiseKernel(in_params, out_params, operation, name, preamble)
        self._in = _params(in_params)
        self._out = _params(out_params)
        self.name = name
        self.nin, self.nout = len(self._in), len(self._out)
        self._no_return, self._return_tuple = no_return, return_tuple

    def __call__(self, *args, out=None, **kwargs):
        if len(args) == self.nin + self.nout and out is None:
            args, out = args[: self.nin], args[self.nin:]
        if out is not None and not isinstance(out, (tuple, list)):
            out = (out,)
        raw = _arguments(self._in, args)
        outs = None if out is None else [asarray(o)._a for o in out]
        res = self._k(raw, outs)
        if out is not None:
            for o in out:
                if isinstance(o, ndarray):
                    o._touch()
        if self._no_return:
            return None
        if self._return_tuple:
            return tuple(ndarray._wrap(r) for r in res)
        return _wrap_all(res)

    def wgsl(self, *args) -> str:
        """The WGSL a call with ``args`` compiles."""
        return self._k.wgsl(_arguments(self._in, args))


class ReductionKernel:
    """CuPy's ``ReductionKernel(in_params, out_params, map_expr, reduce_expr, post_map_expr,
    identity, name, reduce_type=None, preamble=...)`` with WGSL expressions; called as
    ``k(x, axis=None, keepdims=False, out=None)``."""

    def __init__(self, in_params, out_params, map_expr, reduce_expr, post_map_expr, identity,
                 name="reduce_kernel", reduce_type=None, reduce_dims=True, preamble="",
                 **kwargs):
        identity = None if identity is None else str(identity)
        self._k = _g._ReductionKernel(in_params, out_params, map_expr, reduce_expr,
                                      post_map_expr, identity, name, reduce_type, preamble)
        self._in = _params(in_params)
        self._out = _params(out_params)
        self.name = name

    def __call__(self, *args, out=None, axis=None, keepdims=False, **kwargs):
        if len(args) == len(self._in) + len(self._out) and out is None:
            args, out = args[: len(self._in)], args[len(self._in):]
        if out is not None and not isinstance(out, (tuple, list)):
            out = (out,)
        raw = _arguments(self._in, args)
        if axis is not None:
            axis = [int(axis)] if isinstance(axis, numbers.Integral) else [int(a) for a in axis]
        outs = None if out is None else [asarray(o)._a for o in out]
        res = self._k(raw, axis, bool(keepdims), outs)
        if out is not None:
            for o in out:
                if isinstance(o, ndarray):
                    o._touch()
        return _wrap_all(res)


class RawKernel:
    """CuPy's ``RawKernel(code, name)`` for a whole WGSL module: ``k(grid, args)`` binds
    argument ``i`` at ``@group(0) @binding(i)`` — a contiguous ``gpuarray.ndarray`` as a
    storage buffer, ``bytes`` or a NumPy array or scalar as a uniform's bytes — and runs a
    ``grid`` of workgroups (an int or up to three; the workgroup size is the shader's)."""

    def __init__(self, code, name, **kwargs):
        self._k = _g._RawKernel(code, name)
        self.name = name

    def __call__(self, grid, args):
        if isinstance(grid, numbers.Integral):
            grid = (int(grid),)
        grid = tuple(int(g) for g in grid) + (1,) * (3 - len(grid))
        raw = []
        for a in args:
            if isinstance(a, ndarray):
                raw.append(a._a)
            elif isinstance(a, (bytes, bytearray)):
                raw.append(bytes(a))
            elif isinstance(a, (np.ndarray, np.generic)):
                raw.append(np.ascontiguousarray(a).tobytes())
            else:
                raise TypeError(f"RawKernel arguments are gpuarray arrays or bytes, not {type(a)}")
        self._k(grid, raw)
        for a in args:
            if isinstance(a, ndarray):
                a._touch()


class _Unfusable(Exception):
    """Raised while tracing: the function does something a fused kernel cannot."""


_REDUCTIONS = {np.add: "sum", np.multiply: "prod", np.maximum: "max", np.minimum: "min"}
_FUNCTIONS = {np.sum: "sum", np.prod: "prod", np.max: "max", np.amax: "max", np.min: "min",
              np.amin: "min", np.mean: "mean"}


class _Program:
    def __init__(self):
        self.nodes = []

    def add(self, node) -> int:
        self.nodes.append(node)
        return len(self.nodes) - 1


class _Tracer(NDArrayOperatorsMixin):
    """A traced array: a node of the program, with NumPy's dtype and the rank it will have."""

    __array_priority__ = 1000

    def __init__(self, prog, node, dtype, ndim):
        self._prog, self._node, self.dtype, self.ndim = prog, node, np.dtype(dtype), ndim

    def _cast(self, dtype):
        dtype = np.dtype(dtype)
        if dtype == self.dtype:
            return self
        if dtype not in _DTYPES:
            raise _Unfusable(f"no dtype {dtype}")
        return _Tracer(self._prog, self._prog.add(("cast", self._node, dtype.name)), dtype,
                       self.ndim)

    def astype(self, dtype, **kwargs):
        return self._cast(dtype)

    def _operands(self, ufunc, inputs):
        ops = []
        for x in inputs:
            if isinstance(x, _Tracer):
                ops.append((x.dtype, x))
            elif isinstance(x, np.generic) and x.dtype.kind in "biuf":
                ops.append((x.dtype, float(x.item())))
            elif isinstance(x, bool):
                ops.append((np.dtype(bool), float(x)))
            elif isinstance(x, numbers.Integral):
                ops.append((int, float(x)))
            elif isinstance(x, numbers.Real):
                ops.append((float, float(x)))
            else:
                raise _Unfusable(f"{ufunc.__name__} of a {type(x).__name__}")
        return ops

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        prog = self._prog
        if method == "reduce" and ufunc in _REDUCTIONS:
            (x,) = inputs
            return x._reduce(_REDUCTIONS[ufunc], kwargs.get("axis", 0),
                             kwargs.get("keepdims", False))
        if method != "__call__" or kwargs:
            raise _Unfusable(f"{ufunc.__name__}.{method} with {sorted(kwargs)}")
        name = (BINARY if ufunc.nin == 2 else UNARY).get(ufunc)
        if name is None or name == "positive":
            raise _Unfusable(f"{ufunc.__name__} is not an op of the table")
        ops = self._operands(ufunc, inputs)
        try:
            loop = ufunc.resolve_dtypes(tuple(d for d, _ in ops) + (None,))
        except TypeError as e:
            raise _Unfusable(str(e)) from None
        ids = []
        for (_, v), dt in zip(ops, loop[:-1]):
            if isinstance(v, _Tracer):
                ids.append(v._cast(dt)._node)
            else:
                ids.append(prog.add(("scalar", v)))
        ndim = max(v.ndim for _, v in ops if isinstance(v, _Tracer))
        return _Tracer(prog, prog.add(("op", name, ids)), loop[-1], ndim)

    def __array_function__(self, func, types, args, kwargs):
        if func in _FUNCTIONS:
            x = args[0]
            if not isinstance(x, _Tracer):
                raise _Unfusable(f"{func.__name__} of a {type(x).__name__}")
            extra = set(kwargs) - {"axis", "keepdims"}
            if extra or len(args) > 2:
                raise _Unfusable(f"{func.__name__} with {sorted(extra)}")
            axis = args[1] if len(args) > 1 else kwargs.get("axis")
            return x._reduce(_FUNCTIONS[func], axis, kwargs.get("keepdims", False))
        if func is np.where and len(args) == 3 and not kwargs:
            c, a, b = args
            if not isinstance(c, _Tracer) or c.dtype != np.bool_:
                raise _Unfusable("where with a condition that is not a bool array")
            ops = self._operands(np.add, (a, b))
            dt = np.result_type(*[d if not isinstance(d, type) else v for d, v in ops])
            ids = [v._cast(dt)._node if isinstance(v, _Tracer) else self._prog.add(("scalar", v))
                   for _, v in ops]
            ndim = max([c.ndim] + [v.ndim for _, v in ops if isinstance(v, _Tracer)])
            return _Tracer(self._prog, self._prog.add(("where", c._node, ids[0], ids[1])), dt,
                           ndim)
        raise _Unfusable(f"{getattr(func, '__name__', func)} is not fused")

    def _reduce(self, kind, axis, keepdims):
        if axis is None:
            axes, ndim = None, (self.ndim if keepdims else 0)
        else:
            axes = [int(axis)] if isinstance(axis, numbers.Integral) else [int(a) for a in axis]
            ndim = self.ndim if keepdims else self.ndim - len(axes)
        node = self._prog.add(("reduce", kind, self._node, axes, bool(keepdims)))
        # NumPy's result dtypes: sums of smaller integers are int64 (refused by the fused
        # kernels: the call then runs op by op), means of integers float64.
        if kind in ("sum", "prod") and self.dtype.kind in "biu":
            raise _Unfusable(f"{kind} of {self.dtype} (NumPy gives int64)")
        if kind == "mean" and self.dtype.kind != "f":
            raise _Unfusable(f"mean of {self.dtype}")
        return _Tracer(self._prog, node, self.dtype, ndim)

    def sum(self, axis=None, keepdims=False, **kw):
        return self._reduce("sum", axis, keepdims)

    def prod(self, axis=None, keepdims=False, **kw):
        return self._reduce("prod", axis, keepdims)

    def max(self, axis=None, keepdims=False, **kw):
        return self._reduce("max", axis, keepdims)

    def min(self, axis=None, keepdims=False, **kw):
        return self._reduce("min", axis, keepdims)

    def mean(self, axis=None, keepdims=False, **kw):
        return self._reduce("mean", axis, keepdims)


class Fusion:
    """A function fused by :func:`fuse`. ``last_mode`` says how the last call ran:
    ``"fused"``, ``"numpy"`` (NumPy inputs: the plain function) or ``"op by op: <reason>"``."""

    def __init__(self, func):
        self._func = func
        self.last_mode = None
        functools.update_wrapper(self, func)

    def __call__(self, *args):
        if not any(isinstance(a, ndarray) for a in args):
            self.last_mode = "numpy"
            return self._func(*args)
        arrays, tracers = [], []
        prog = _Program()
        for a in args:
            s = _scalar(a)
            if s is not None and not isinstance(a, np.ndarray):
                tracers.append(a)
                continue
            a = asarray(a)
            tracers.append(_Tracer(prog, prog.add(("arg", len(arrays))), a.dtype, a.ndim))
            arrays.append(a)
        try:
            root = self._func(*tracers)
            if not isinstance(root, _Tracer):
                raise _Unfusable("the function does not return a traced array")
            result = ndarray._wrap(_g.fused(prog.nodes, root._node, [a._a for a in arrays]))
            self.last_mode = "fused"
            return result
        except (_Unfusable, TypeError) as e:
            # What a fused kernel cannot do runs op by op, with NumPy's dispatch.
            self.last_mode = f"op by op: {e}"
            if os.environ.get("GPUARRAY_LOG", "0") not in ("", "0"):
                print(f"gpuarray: fuse({self.__name__}) runs op by op: {e}")
            return self._func(*[a if isinstance(a, ndarray) or _scalar(a) is not None
                                else asarray(a) for a in args])


def fuse(*args, **kwargs):
    """``cupy.fuse``: ``@fuse`` or ``@fuse(kernel_name=...)`` on a function of arrays."""
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return Fusion(args[0])
    return Fusion
