"""Indexing: ``ndarray.__getitem__``/``__setitem__`` with NumPy's basic indexing (ints,
slices with steps, None, ``...``: views), integer-array indices (one or several, gathered with
the crate's take), and boolean masks covering the leading axes (``x[mask]`` compacts on the device and
reads back only the count, as its size decides the shape; ``x[mask] = s`` is one where() without a readback,
``x[mask] = values`` assigns one value per selected element in order, after reading back the count).
"""

from __future__ import annotations

import operator

import numpy as np

from . import _gpuarray as _g
from ._core import _assign, _from_host, asarray, broadcast_to, ndarray


def getitem(self: ndarray, key):
    """``self[key]``."""
    mask = _whole_mask(key, self._shape)
    if mask is not None:
        # The result's size depends on the data: the selection is compacted on the device and
        # only its count is read back (a sync, as in CuPy).
        m = mask if isinstance(mask, ndarray) else asarray(np.asarray(mask))
        if m.ndim == self.ndim:
            return ndarray._wrap(_g.masked(self._a, m._a))
        idx = ndarray._wrap(_g.flatnonzero(m._a))
        rows = self.reshape((-1,) + self._shape[m.ndim:])
        return ndarray._wrap(_g.take(rows._a, idx._a, 0))
    basic, adv = _parse_key(key, self._shape)
    view = self._view(self._a.slice(basic)) if basic else self
    if adv is None:
        return view
    pos, idx, front = adv
    if pos is None:
        return _multi_take(view, idx, front)
    idx_dev = _index_array(idx, view._shape[pos], pos)
    out = _g.take(view._a, idx_dev._a.reshape([-1]), pos)
    shape = view._shape[:pos] + idx_dev._shape + view._shape[pos + 1:]
    res = ndarray._wrap(out.reshape(list(shape)))
    if front and pos:
        # NumPy: integers and the index array separated by a slice put the index's
        # axes first.
        k = idx_dev.ndim
        order = list(range(pos, pos + k)) + list(range(pos)) + list(range(pos + k, res.ndim))
        res = res.transpose(order)
    return res


def setitem(self: ndarray, key, value):
    """``self[key] = value``."""
    mask = _whole_mask(key, self._shape)
    if mask is not None:
        m = mask if isinstance(mask, ndarray) else asarray(mask)
        if np.isscalar(value) or np.size(value) == 1:
            # x[mask] = scalar: one where() over the whole array, no readback.
            m = m.reshape(m.shape + (1,) * (self.ndim - m.ndim))
            from ._functions import where

            if isinstance(value, ndarray):
                v = value.reshape(()).astype(self._dtype)
            elif np.isscalar(value):
                v = value  # a Python scalar stays weak in the promotion, as before
            else:
                v = np.asarray(value).reshape(()).item()  # [x] or np.array(x): its Python value
            _assign(self, where(m, v, self))
        else:
            _assign_selected(self, m, value)
        self._touch()
        return
    basic, adv = _parse_key(key, self._shape)
    view = self._view(self._a.slice(basic)) if basic else self
    if adv is None:
        _assign(view, value)
    else:
        pos, idx, front = adv
        _scatter(view, idx if pos is None else [(pos, idx)], front, value)
    self._touch()


def _assign_selected(self: ndarray, m: ndarray, value):
    """``self[m] = value`` with one value per selected element, in order (NumPy's rule: the
    values broadcast to the selection's shape, ``(count,) + the axes m does not cover``). The
    count is read back, as the selection's shape depends on it (a sync, as in CuPy)."""
    from ._functions import count_nonzero

    rest = self._shape[m.ndim:]
    count = int(count_nonzero(m).get())
    v = value if isinstance(value, ndarray) else asarray(np.asarray(value))
    try:
        v = broadcast_to(v, (count,) + rest)
    except ValueError:
        if not rest:
            raise ValueError(
                f"NumPy boolean array indexing assignment cannot assign {v.size} input values "
                f"to the {count} output values where the mask is true") from None
        raise ValueError(
            f"shape mismatch: value array of shape {_numpy_shape(v.shape)} could not be "
            f"broadcast to indexing result of shape {_numpy_shape((count,) + rest)}") from None
    full = broadcast_to(m.reshape(m.shape + (1,) * len(rest)), self._shape)
    _g.place(self._a, full._a, v.astype(self._dtype).reshape(-1)._a)


def _numpy_shape(shape) -> str:
    """A shape as NumPy's index errors print it: ``(2,4)``, ``(2,)``."""
    return "(" + ",".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def _is_int_array(k) -> bool:
    if isinstance(k, ndarray):
        return k._dtype.kind in "iub"
    if isinstance(k, np.ndarray):
        return k.dtype.kind in "iub"
    if isinstance(k, list):
        return True
    return False


def _parse_key(key, shape):
    """Splits an index into basic items for ``_Array.slice`` (ints, slices, None) and the
    integer-array indices: ``(axis in the sliced result, index, front)`` for one,
    ``(None, [(axis, index), ...], front)`` for several (``front``: NumPy puts the index
    axes first)."""
    if not isinstance(key, tuple):
        key = (key,)
    ndim = len(shape)
    n_real = sum(1 for k in key if k is not None and k is not Ellipsis)
    if sum(1 for k in key if k is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if n_real > ndim:
        raise IndexError(
            f"too many indices for array: array is {ndim}-dimensional, but {n_real} were indexed"
        )
    items = []
    adv = None
    adv_at = []  # positions in `key` of the index array and of the integers
    dim = 0  # the source axis the next real item indexes
    out_dim = 0  # the axis of the result it lands on
    for at, k in enumerate(key):
        if k is Ellipsis:
            fill = ndim - n_real
            items.extend([slice(None)] * fill)
            dim += fill
            out_dim += fill
        elif k is None:
            items.append(None)
            out_dim += 1
        elif isinstance(k, slice):
            items.append(k)
            dim += 1
            out_dim += 1
        elif isinstance(k, (bool, np.bool_)) or (
            isinstance(k, (ndarray, np.ndarray)) and k.dtype == np.bool_
        ):
            raise IndexError(
                "gpuarray supports a boolean mask only as the whole index (x[mask])"
            )
        elif _is_int_array(k):
            adv = [] if adv is None else adv
            adv.append((out_dim, k))
            adv_at.append(at)
            items.append(slice(None))
            dim += 1
            out_dim += 1
        else:
            try:
                i = operator.index(k)
            except TypeError:
                if isinstance(k, (ndarray, np.ndarray)):
                    # NumPy's words for an array of another dtype (float, say) as an index.
                    raise IndexError(
                        "arrays used as indices must be of integer (or boolean) type") from None
                raise IndexError(
                    "only integers, slices (`:`), ellipsis (`...`), None and integer arrays "
                    f"are valid indices, not {type(k).__name__}"
                ) from None
            n = shape[dim]
            if not -n <= i < n:
                raise IndexError(f"index {i} is out of bounds for axis {dim} with size {n}")
            items.append(i)
            adv_at.append(at)
            dim += 1
    if adv is not None:
        # NumPy counts integers as advanced indices next to an array: when they are not all
        # adjacent in the key, the result's index axes move to the front.
        front = adv_at != list(range(adv_at[0], adv_at[0] + len(adv_at)))
        adv = adv[0] + (front,) if len(adv) == 1 else (None, adv, front)
    # Trailing full slices add nothing; an all-full key is the array itself.
    if adv is None and all(_is_full_slice(k) for k in items):
        return [], None
    return items, adv


def _is_full_slice(k):
    # Attribute by attribute: comparing slices compares their parts with ==, and a part may be
    # an array.
    return isinstance(k, slice) and k.start is None and k.stop is None and k.step is None


def _whole_mask(key, shape):
    """The boolean mask if ``key`` is one (covering the leading axes, NumPy's rule), else
    None. Raises IndexError for a mask whose shape does not match."""
    if isinstance(key, tuple) and len(key) == 1:
        key = key[0]
    if isinstance(key, (ndarray, np.ndarray)) and key.dtype == np.bool_:
        if key.ndim > len(shape) or tuple(key.shape) != tuple(shape[: key.ndim]):
            raise IndexError(
                f"boolean index did not match indexed array: array shape {shape}, index "
                f"shape {key.shape}"
            )
        return key
    if isinstance(key, list) and key and all(isinstance(k, (bool, np.bool_)) for k in key):
        return _whole_mask(np.asarray(key), shape)
    return None


def _check_host_index(h, n, axis):
    if h.dtype.kind not in "iu" and not (h.size == 0 and h.dtype.kind == "f"):
        raise IndexError("arrays used as indices must be of integer type")
    h = h.astype(np.int64)
    if h.size and (h.min() < -n or h.max() >= n):
        bad = h[(h < -n) | (h >= n)][0]
        raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {n}")
    return np.where(h < 0, h + n, h).astype(np.int32)


def _index_array(idx, n, axis) -> ndarray:
    """An int32 device array of indices into an axis of length ``n`` (bounds checked)."""
    if isinstance(idx, ndarray):
        if idx._dtype.kind not in "iu":
            raise IndexError("arrays used as indices must be of integer type")
        return idx
    return _from_host(_check_host_index(np.asarray(idx), n, axis))


def _multi_take(view: ndarray, advs, front: bool) -> ndarray:
    """``view[..., i, ..., j, ...]`` with several integer arrays: the indexed axes go first
    and merge into one (a copy where the layout needs it), the arrays become one broadcast
    linear index (device arithmetic), and one gather does the rest."""
    axes = [p for p, _ in advs]
    dims = [view._shape[p] for p in axes]
    idxs = []
    for (p, k), n in zip(advs, dims):
        i = _index_array(k, n, p)
        if isinstance(k, ndarray):
            # Device indices: bounds checked here (two scalars read back), negatives wrapped,
            # since a linear index could otherwise alias a valid element.
            lo, hi = int(i.min()) if i.size else 0, int(i.max()) if i.size else 0
            if lo < -n or hi >= n:
                raise IndexError(f"index {lo if lo < -n else hi} is out of bounds for axis {p} with size {n}")
            i = i.astype(np.int32)
            i = i + (i < 0).astype(np.int32) * n
        idxs.append(i)
    shape = np.broadcast_shapes(*[i.shape for i in idxs])
    rest = [a for a in range(view.ndim) if a not in axes]
    merged = view.transpose(axes + rest).reshape((-1,) + tuple(view._shape[a] for a in rest))
    lin = idxs[-1]
    stride = 1
    for i, n in zip(idxs[-2::-1], dims[:0:-1]):
        stride *= n
        lin = lin + i * stride
    lin = broadcast_to(lin, shape).reshape(-1)
    out = _g.take(merged._a, lin._a, 0)
    res = ndarray._wrap(out.reshape(list(shape + merged._shape[1:])))
    if not front and axes[0]:
        k = len(shape)
        p = axes[0]
        order = list(range(k, k + p)) + list(range(k)) + list(range(k + p, res.ndim))
        res = res.transpose(order)
    return res


def _scatter(view: ndarray, advs, front: bool, value):
    """``view[..., i, ..., j, ...] = value`` with one or several integer arrays: one write
    per (broadcast) index tuple, in order, so the last of repeated tuples wins as in NumPy.
    The indices are read to the host: they choose which views to write."""
    axes = [p for p, _ in advs]
    hidx = []
    for p, k in advs:
        h = k.get() if isinstance(k, ndarray) else np.asarray(k)
        hidx.append(_check_host_index(h, view._shape[p], p))
    hidx = np.broadcast_arrays(*hidx)
    shape = hidx[0].shape
    rest = tuple(view._shape[d] for d in range(view.ndim) if d not in axes)
    # Where NumPy puts the index axes in the selection: first, or at the first indexed axis.
    at = 0 if front else axes[0]
    target = rest[:at] + shape + rest[at:]
    val = None
    if isinstance(value, ndarray) or not np.isscalar(value):
        val = value if isinstance(value, ndarray) else asarray(value)
        val = broadcast_to(val.astype(view._dtype, copy=False), target)
        k = len(shape)
        order = list(range(at, at + k)) + list(range(at)) + list(range(at + k, len(target)))
        val = val.transpose(order).reshape((-1,) + rest)
    flat = [h.reshape(-1).tolist() for h in hidx]
    for j, tup in enumerate(zip(*flat)):
        key = [slice(None)] * view.ndim
        for p, i in zip(axes, tup):
            key[p] = i
        dst = ndarray._wrap(view._a.slice(key))
        _assign(dst, value if val is None else val[j])
