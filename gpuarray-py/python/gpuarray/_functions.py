"""Array functions: ``gpuarray.einsum``, ``gpuarray.sum``, ... and the NEP-18 registry that
routes ``numpy.einsum(x, y)`` etc. on ``gpuarray.ndarray`` arguments here.

Each function takes NumPy's signature. ``__array_function__`` answers only for registered
NumPy functions and only when every dispatching argument is a ``gpuarray.ndarray`` (so a mix
with ``numpy.ndarray`` is NumPy's ``TypeError``, never a silent transfer); anything else
returns ``NotImplemented``.
"""

# The functions live in one module per family; this module gathers them, with the few private
# helpers that _core, _ufuncs and array_api call.

from __future__ import annotations

from ._registry import (  # noqa: F401
    _HANDLED,
    implements,
    array_function,
)
from ._reductions import (  # noqa: F401
    cumulative_sum,
    cumulative_prod,
    _reduction,
    sum,
    prod,
    max,
    min,
    any,
    all,
    mean,
    var,
    std,
    argmax,
    argmin,
    _scan,
    cumsum,
    cumprod,
    _doubling_scan,
)
from ._nanfunctions import (  # noqa: F401
    bincount,
    histogram,
    nan_to_num,
    partition,
    argpartition,
    lexsort,
    nansum,
    nanprod,
    nanmax,
    nanmin,
    nanmean,
    nanvar,
    nanstd,
    nanargmax,
    nanargmin,
    nancumsum,
    isclose,
    allclose,
    array_equal,
    array_equiv,
    sort,
    argsort,
    searchsorted,
    unique,
    flatnonzero,
    nonzero,
    argwhere,
    count_nonzero,
    extract,
)
from ._linalg import (  # noqa: F401
    vecdot,
    matrix_transpose,
    matmul,
    dot,
    vdot,
    inner,
    outer,
    kron,
    tensordot,
    trace,
    diagonal,
    tril,
    triu,
    einsum,
    einsum_path,
)
from ._manipulation import (  # noqa: F401
    unstack,
    astype,
    concatenate,
    stack,
    vstack,
    hstack,
    split,
    flip,
    roll,
    tile,
    repeat,
    pad,
    take,
    where,
    clip,
    round,
    transpose,
    swapaxes,
    moveaxis,
    reshape,
    ravel,
    copy,
    _broadcast_to,
    squeeze,
    expand_dims,
    shape,
    ndim,
    size,
    unravel_index,
    ravel_multi_index,
)
from ._creation import (  # noqa: F401
    zeros,
    ones,
    empty,
    full,
    zeros_like,
    ones_like,
    empty_like,
    full_like,
    arange,
    linspace,
    eye,
    identity,
)
from ._extras import (  # noqa: F401
    sigmoid,
    relu,
    softmax,
    logsumexp,
)
