"""Linear algebra: dot, vdot, inner, outer, kron, tensordot, trace, diagonal, einsum and
einsum_path (np.matmul is a ufunc: see _ufuncs).
"""

from __future__ import annotations

import operator
import string

import numpy as np

from . import _gpuarray as _g
from ._core import _axis_tuple, canon_dtype, ndarray
from ._registry import implements, _arr, _common_dtype, _cast, _out
from ._reductions import sum


# ---- linear algebra -----------------------------------------------------------------------

def _pair(a, b):
    a, b = _arr(a), _arr(b)
    dt = _common_dtype(a, b)
    return _cast(a, dt), _cast(b, dt)


def matmul(x1, x2, /, out=None, **kwargs):
    return np.matmul(_arr(x1), _arr(x2), out=out, **kwargs)


@implements(np.dot)
def dot(a, b, out=None):
    if np.ndim(a) == 0 or np.ndim(b) == 0:
        # NumPy's dot makes a Python scalar a (typed, float64/int64) array first.
        a, b = (x if isinstance(x, ndarray) else np.asarray(x)[()] for x in (a, b))
        return np.multiply(_arr(a) if isinstance(b, np.generic) else a, b, out=out)
    a, b = _pair(a, b)
    return _out(out, ndarray._wrap(_g.linalg2("dot", a._a, b._a)))


@implements(np.vdot)
def vdot(a, b):
    a, b = _pair(a, b)
    return ndarray._wrap(_g.linalg2("vdot", a._a, b._a))


@implements(np.inner)
def inner(a, b):
    a, b = _pair(a, b)
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    return ndarray._wrap(_g.linalg2("inner", a._a, b._a))


@implements(np.outer)
def outer(a, b, out=None):
    a, b = _pair(a, b)
    return _out(out, ndarray._wrap(_g.linalg2("outer", a._a.reshape([-1]), b._a.reshape([-1]))))


@implements(np.kron)
def kron(a, b):
    a, b = _pair(a, b)
    return ndarray._wrap(_g.linalg2("kron", a._a, b._a))


@implements(np.tensordot)
def tensordot(a, b, axes=2):
    a, b = _pair(a, b)
    if isinstance(axes, (int, np.integer)):
        n = operator.index(axes)
        if n < 0 or n > a.ndim or n > b.ndim:
            raise ValueError("shape-mismatch for sum")
        axes_a = list(range(a.ndim - n, a.ndim))
        axes_b = list(range(n))
    else:
        axes_a, axes_b = axes
        axes_a = list(_axis_tuple(axes_a))
        axes_b = list(_axis_tuple(axes_b))
    if len(axes_a) != len(axes_b):
        raise ValueError("shape-mismatch for sum")
    for i, j in zip(axes_a, axes_b):
        if a.shape[i] != b.shape[j]:
            raise ValueError("shape-mismatch for sum")
    return ndarray._wrap(_g.tensordot(a._a, b._a, axes_a, axes_b))


@implements(np.trace)
def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    a = _arr(a)
    if a.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    d = a.diagonal(offset, axis1, axis2)
    return sum(d, axis=-1, dtype=dtype, out=out)


def _triangle(name, m, k):
    m = _arr(m)
    if m.ndim == 0:
        # NumPy's own rejection (its tri() gets no size from a 0-d shape).
        raise TypeError(f"{name} needs an array of at least one dimension, got a 0-d array")
    return ndarray._wrap(getattr(m._a, name)(operator.index(k)))


@implements(np.tril)
def tril(m, k=0):
    return _triangle("tril", m, k)


@implements(np.triu)
def triu(m, k=0):
    return _triangle("triu", m, k)


@implements(np.diagonal)
def diagonal(a, offset=0, axis1=0, axis2=1):
    return _arr(a).diagonal(offset, axis1, axis2)


_LETTERS = string.ascii_letters


def _sublist_to_subscripts(args):
    """NumPy's interleaved form ``einsum(a, [0, 1], b, [1, 2], [0, 2])`` as a string."""

    def letters(sub):
        out = []
        for s in sub:
            if s is Ellipsis:
                out.append("...")
            else:
                out.append(_LETTERS[operator.index(s)])
        return "".join(out)

    ops, subs = [], []
    args = list(args)
    while len(args) >= 2:
        ops.append(args.pop(0))
        subs.append(letters(args.pop(0)))
    spec = ",".join(subs)
    if args:
        spec += "->" + letters(args[0])
    return spec, ops


def _strategy(optimize) -> str:
    if optimize is False:
        return "naive"
    if optimize is True or optimize == "greedy":
        return "greedy"
    if optimize == "optimal":
        return "optimal"
    if isinstance(optimize, (list, tuple)) and optimize and optimize[0] == "einsum_path":
        # An explicit path from einsum_path: the crate plans its own order (optimal); the
        # result is the same contraction.
        return "optimal"
    raise ValueError(f"einsum: unknown optimize value {optimize!r}")


@implements(np.einsum)
def einsum(*operands, out=None, dtype=None, order="K", casting="safe", optimize=False):
    """``numpy.einsum`` on the device: NumPy's full grammar, pairwise contractions planned like
    ``opt_einsum`` (``optimize`` picks the planner; ``False`` contracts left to right)."""
    if not operands:
        raise ValueError("No input operands")
    if isinstance(operands[0], str):
        spec, ops = operands[0], list(operands[1:])
    else:
        spec, ops = _sublist_to_subscripts(operands)
    ops = [_arr(o) for o in ops]
    if not ops:
        raise ValueError("No input operands")
    dt = canon_dtype(dtype) if dtype is not None else _common_dtype(*ops)
    if dtype is not None:
        for o in ops:
            if not np.can_cast(o.dtype, dt, casting=casting):
                raise TypeError(
                    f"Cannot cast array data from {o.dtype!r} to {dt!r} according to the rule "
                    f"{casting!r}"
                )
    ops = [_cast(o, dt) for o in ops]
    res = ndarray._wrap(_g.einsum(spec, [o._a for o in ops], _strategy(optimize)))
    return _out(out, res)


@implements(np.einsum_path)
def einsum_path(*operands, optimize="greedy", einsum_call=False):
    """``numpy.einsum_path``: ``(['einsum_path', (i, j), ...], report)``; only shapes are
    used, nothing runs on the device."""
    if einsum_call:
        raise NotImplementedError("einsum_path(einsum_call=True) is NumPy-internal")
    if isinstance(operands[0], str):
        spec, ops = operands[0], list(operands[1:])
    else:
        spec, ops = _sublist_to_subscripts(operands)
    if isinstance(optimize, tuple) and optimize and optimize[0] in ("greedy", "optimal"):
        optimize = optimize[0]  # (strategy, memory_limit): the limit is NumPy's default here
    shapes = [list(np.shape(o) if not isinstance(o, ndarray) else o.shape) for o in ops]
    steps, report = _g.einsum_path(spec, shapes, _strategy(optimize))
    return ["einsum_path", *[tuple(s) for s in steps]], report


# ---- numpy.linalg's Array API functions -----------------------------------------------------

@implements(np.linalg.matmul)
def _linalg_matmul(x1, x2, /):
    return np.matmul(_arr(x1), _arr(x2))


@implements(np.linalg.tensordot)
def _linalg_tensordot(x1, x2, /, *, axes=2):
    return tensordot(x1, x2, axes=axes)


@implements(np.linalg.outer)
def _linalg_outer(x1, x2, /):
    x1, x2 = _arr(x1), _arr(x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(
            f"Input arrays must be one-dimensional, but they are x1.ndim={x1.ndim} and "
            f"x2.ndim={x2.ndim}."
        )
    return outer(x1, x2)


@implements(np.linalg.vecdot)
def vecdot(x1, x2, /, *, axis=-1):
    """Sum of products along ``axis`` (real dtypes: no conjugation), broadcasting the rest."""
    x1, x2 = _pair(x1, x2)
    if x1.shape[axis] != x2.shape[axis]:
        raise ValueError("x1 and x2 must have the same size along the given axis")
    return sum(np.multiply(x1, x2), axis=axis)


@implements(np.matrix_transpose, np.linalg.matrix_transpose)
def matrix_transpose(x, /):
    return _arr(x).mT


@implements(np.linalg.trace)
def _linalg_trace(x, /, *, offset=0, dtype=None):
    return trace(x, offset=offset, axis1=-2, axis2=-1, dtype=dtype)


@implements(np.linalg.diagonal)
def _linalg_diagonal(x, /, *, offset=0):
    return _arr(x).diagonal(offset, -2, -1)
