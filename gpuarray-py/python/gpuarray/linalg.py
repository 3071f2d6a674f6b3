"""``gpuarray.linalg``: NumPy's ``numpy.linalg`` on gpuarray arrays (as ``cupy.linalg``).

``numpy.linalg.solve(x, y)`` on ``gpuarray.ndarray`` arguments already runs here through NumPy's
dispatch; this module offers the same functions by name. Errors are NumPy's
``numpy.linalg.LinAlgError`` (re-exported as ``LinAlgError``).
"""

from __future__ import annotations

import numpy as _np

from ._linalg import (  # noqa: F401
    _linalg_diagonal as diagonal,
    _linalg_matmul as matmul,
    _linalg_outer as outer,
    _linalg_tensordot as tensordot,
    _linalg_trace as trace,
    matrix_transpose,
    vecdot,
)
from ._numpy_linalg import (  # noqa: F401
    EighResult,
    QRResult,
    SlogdetResult,
    SVDResult,
    cholesky,
    cond,
    det,
    eigh,
    eigvalsh,
    inv,
    linalg_cross as cross,
    lstsq,
    matrix_norm,
    matrix_power,
    matrix_rank,
    multi_dot,
    norm,
    pinv,
    qr,
    slogdet,
    solve,
    svd,
    svdvals,
    tensorinv,
    tensorsolve,
    vector_norm,
)

LinAlgError = _np.linalg.LinAlgError
