"""``numpy.linalg``'s factorizations and the functions built on them, dispatched from NumPy
(``np.linalg.solve(x, y)`` on ``gpuarray.ndarray`` arguments runs here) with NumPy's argument
forms, dtypes (float32 stays float32; integers and bool compute in float64; float16 is a
``TypeError``), result types (``EighResult``, ``SVDResult``, ``QRResult``, ``SlogdetResult``) and
``numpy.linalg.LinAlgError``. The work is ``gpuarray::linalg`` (batched small-matrix kernels,
blocked factorizations over the matmul)."""

from __future__ import annotations

import collections
import operator
import warnings

import numpy as np

from . import _gpuarray as _g
from ._core import ndarray
from ._registry import implements, _arr

try:  # NumPy 2's named results
    from numpy.linalg._linalg import EighResult, QRResult, SlogdetResult, SVDResult
except ImportError:  # pragma: no cover - older layouts
    EighResult = collections.namedtuple("EighResult", "eigenvalues eigenvectors")
    QRResult = collections.namedtuple("QRResult", "Q R")
    SlogdetResult = collections.namedtuple("SlogdetResult", "sign logabsdet")
    SVDResult = collections.namedtuple("SVDResult", "U S Vh")

LstsqResult = collections.namedtuple("LstsqResult", "x residuals rank singular_values")


def _w(a):
    return ndarray._wrap(a)


def _float(a):
    """`a` as linalg takes it: complex is refused (not yet supported), float16 as NumPy refuses."""
    a = _arr(a)
    if a.dtype.kind == "c":
        raise TypeError(f"array type {a.dtype} is unsupported in gpuarray's linalg (no complex yet)")
    if a.dtype == np.float16:
        raise TypeError("array type float16 is unsupported in linalg")
    return a


@implements(np.linalg.solve)
def solve(a, b):
    return _w(_g.la_solve(_float(a)._a, _float(b)._a))


@implements(np.linalg.inv)
def inv(a):
    return _w(_g.la_unary("inv", _float(a)._a))


@implements(np.linalg.det)
def det(a):
    return _w(_g.la_unary("det", _float(a)._a))


@implements(np.linalg.slogdet)
def slogdet(a):
    s, l = _g.la_slogdet(_float(a)._a)
    return SlogdetResult(_w(s), _w(l))


@implements(np.linalg.cholesky)
def cholesky(a, /, *, upper=False):
    return _w(_g.la_cholesky(_float(a)._a, bool(upper)))


@implements(np.linalg.qr)
def qr(a, mode="reduced"):
    if mode not in ("reduced", "complete", "r"):
        if mode in ("raw", "full", "f", "economic", "e"):
            raise ValueError(f"qr mode '{mode}' is not supported by gpuarray (use reduced, complete or r)")
        raise ValueError(f"Unrecognized mode '{mode}'")
    q, r = _g.la_qr(_float(a)._a, mode)
    if mode == "r":
        return _w(r)
    return QRResult(_w(q), _w(r))


def _uplo(UPLO):
    if UPLO not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    return UPLO == "L"


@implements(np.linalg.eigh)
def eigh(a, UPLO="L"):
    w, v = _g.la_eigh(_float(a)._a, _uplo(UPLO))
    return EighResult(_w(w), _w(v))


@implements(np.linalg.eigvalsh)
def eigvalsh(a, UPLO="L"):
    return _w(_g.la_eigvalsh(_float(a)._a, _uplo(UPLO)))


@implements(np.linalg.svd)
def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    a = _float(a)
    if not compute_uv:
        return _w(_g.la_unary("svdvals", a._a))
    u, s, vh = _g.la_svd(a._a, bool(full_matrices))
    return SVDResult(_w(u), _w(s), _w(vh))


@implements(np.linalg.svdvals)
def svdvals(x, /):
    return _w(_g.la_unary("svdvals", _float(x)._a))


def _eps(a):
    return float(np.finfo(np.float32 if a.dtype == np.float32 else np.float64).eps)


@implements(np.linalg.pinv)
def pinv(a, rcond=None, hermitian=False, *, rtol=np._NoValue):
    a = _float(a)
    if rcond is None:
        if rtol is np._NoValue:
            rcond = 1e-15
        elif rtol is None:
            rcond = max(a.shape[-2:]) * _eps(a)
        else:
            rcond = rtol
    elif rtol is not np._NoValue:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    return _w(_g.la_pinv(a._a, float(rcond)))


@implements(np.linalg.matrix_rank)
def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    A = _float(A)
    if tol is not None and rtol is not None:
        raise ValueError("`tol` and `rtol` can't be both set.")
    r = _w(_g.la_matrix_rank(A._a, None if tol is None else float(tol), None if rtol is None else float(rtol)))
    return r


@implements(np.linalg.lstsq)
def lstsq(a, b, rcond=None):
    x, res, rank, s = _g.la_lstsq(_float(a)._a, _float(b)._a, None if rcond is None else float(rcond))
    return LstsqResult(_w(x), _w(res), int(rank), _w(s))


def _ord(o):
    if o is None:
        return "none", 0.0
    if isinstance(o, str):
        if o in ("fro", "f"):
            return "fro", 0.0
        if o == "nuc":
            return "nuc", 0.0
        raise ValueError(f"Invalid norm order '{o}'")
    o = float(o)
    if o == np.inf:
        return "inf", 0.0
    if o == -np.inf:
        return "-inf", 0.0
    return "p", o


def _axes(axis, ndim):
    if axis is None:
        return None
    if isinstance(axis, (tuple, list)):
        return [operator.index(x) for x in axis]
    return [operator.index(axis)]


@implements(np.linalg.norm)
def norm(x, ord=None, axis=None, keepdims=False):
    x = _float(x)
    kind, p = _ord(ord)
    axes = _axes(axis, x.ndim)
    if axes is not None and len(axes) == 1 and kind in ("fro", "nuc"):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    return _w(_g.la_norm(x._a, kind, p, axes, bool(keepdims)))


@implements(np.linalg.matrix_norm)
def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    x = _float(x)
    kind, p = _ord(ord)
    return _w(_g.la_norm(x._a, kind, p, [-2, -1], bool(keepdims)))


@implements(np.linalg.vector_norm)
def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    x = _float(x)
    kind, p = _ord(ord)
    if kind in ("fro", "nuc"):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    nd = x.ndim
    axes = list(range(nd)) if axis is None else _axes(axis, nd)
    axes = [a % nd if nd else 0 for a in axes]
    if nd == 0:
        flat, kept = x.reshape((1,)), ()
    else:
        rest = [i for i in range(nd) if i not in axes]
        moved = np.transpose(x, rest + axes)
        kept = tuple(x.shape[i] for i in rest)
        flat = moved.reshape(kept + (-1,))
    r = _w(_g.la_norm(flat._a, kind, p, [-1], False))
    if keepdims:
        r = r.reshape(tuple(1 if i in axes else x.shape[i] for i in range(nd)))
    return r


@implements(np.linalg.cond)
def cond(x, p=None):
    kind, q = _ord(p)
    return _w(_g.la_cond(_float(x)._a, kind, q))


@implements(np.linalg.matrix_power)
def matrix_power(a, n):
    return _w(_g.la_matrix_power(_arr(a)._a, operator.index(n)))


@implements(np.linalg.multi_dot)
def multi_dot(arrays, *, out=None):
    arrays = [_arr(a) for a in arrays]
    if out is not None:
        raise TypeError("multi_dot: out= is not supported by gpuarray")
    return _w(_g.la_multi_dot([a._a for a in arrays]))


@implements(np.linalg.cross)
def linalg_cross(x1, x2, /, *, axis=-1):
    x1, x2 = _arr(x1), _arr(x2)
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError(
            "Both input arrays must be (arrays of) 3-dimensional vectors, but they are "
            f"{x1.shape[axis]} and {x2.shape[axis]} dimensional instead."
        )
    return cross(x1, x2, axis=axis)


@implements(np.cross)
def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    a, b = _arr(a), _arr(b)
    if axis is not None:
        axisa = axisb = axisc = axis
    a = np.moveaxis(a, axisa, -1)
    b = np.moveaxis(b, axisb, -1)
    if a.shape[-1] == 2 or b.shape[-1] == 2:
        warnings.warn(
            "Arrays of 2-dimensional vectors are deprecated. Use arrays of 3-dimensional vectors "
            "instead. (deprecated in NumPy 2.0)",
            DeprecationWarning,
            stacklevel=3,
        )
    dt = np.result_type(a.dtype, b.dtype)
    a, b = a.astype(dt), b.astype(dt)
    r = _w(_g.la_cross(a._a, b._a, -1))
    if not (a.shape[-1] == 2 and b.shape[-1] == 2):  # two 2-vectors give the z component only
        r = np.moveaxis(r, -1, axisc)
    return r


@implements(np.linalg.tensorsolve)
def tensorsolve(a, b, axes=None):
    a, b = _float(a), _float(b)
    if axes is not None:
        allaxes = list(range(a.ndim))
        for k in axes:
            allaxes.remove(k)
            allaxes.insert(a.ndim, k)
        a = np.transpose(a, allaxes)
    return _w(_g.la_tensorsolve(a._a, b._a))


@implements(np.linalg.tensorinv)
def tensorinv(a, ind=2):
    a = _float(a)
    ind = operator.index(ind)
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    return _w(_g.la_tensorinv(a._a, ind))
