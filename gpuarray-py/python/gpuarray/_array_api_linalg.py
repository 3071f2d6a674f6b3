"""The Array API standard's ``linalg`` extension (``xp.linalg``) over ``gpuarray.linalg``, with
the standard's signatures (``pinv``'s and ``matrix_rank``'s ``rtol`` default to
max(M, N)·ε, not NumPy's legacy ``rcond``)."""

from __future__ import annotations

from . import linalg as _la
from .linalg import (  # noqa: F401
    cholesky,
    cross,
    det,
    diagonal,
    eigh,
    eigvalsh,
    inv,
    matmul,
    matrix_norm,
    matrix_transpose,
    outer,
    slogdet,
    solve,
    svdvals,
    tensordot,
    trace,
    vecdot,
    vector_norm,
)


def matrix_power(x, n, /):
    return _la.matrix_power(x, n)


def matrix_rank(x, /, *, rtol=None):
    return _la.matrix_rank(x, rtol=rtol)


def pinv(x, /, *, rtol=None):
    return _la.pinv(x, rtol=rtol)


def qr(x, /, *, mode="reduced"):
    return _la.qr(x, mode=mode)


def svd(x, /, *, full_matrices=True):
    return _la.svd(x, full_matrices=full_matrices)
