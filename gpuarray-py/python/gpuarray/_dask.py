"""Dask integration: gpuarray chunks in ``dask.array``.

Dask finds most of what it needs through NEP-18/ufunc dispatch on the chunks. A few of its
helpers are per-library lookups whose generic fallback makes NumPy arrays (``numel``, the
element count that ``mean``/``var``/``std`` divide by; ``empty``), which a gpuarray chunk then
refuses to mix with. :func:`register` adds gpuarray to those lookups, as Dask does for CuPy.

Importing Dask is slow, so gpuarray never imports it: registration happens once Dask is
loaded, at the first point where a gpuarray array meets it (``__dask_tokenize__``, which
``from_array`` calls; unpickling on a worker; importing gpuarray after Dask).
"""

from __future__ import annotations

import sys

_done = False


def maybe_register() -> None:
    """Registers with Dask if ``dask.array`` is loaded (cheap when already done)."""
    if not _done and "dask.array" in sys.modules:
        register()


def register() -> None:
    global _done
    from dask.array.backends import _nannumel, _numel_arraylike
    from dask.array.dispatch import (
        empty_lookup,
        nannumel_lookup,
        numel_lookup,
        to_numpy_dispatch,
    )

    from ._core import ndarray
    from ._functions import empty

    numel_lookup.register(ndarray, _numel_arraylike)
    nannumel_lookup.register(ndarray, _nannumel)
    empty_lookup.register(ndarray, empty)
    to_numpy_dispatch.register(ndarray, lambda x, **kwargs: x.get())
    _done = True
