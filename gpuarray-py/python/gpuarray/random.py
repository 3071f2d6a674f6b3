"""Random numbers made on the device: Philox4x32-10 in cuRAND's stream layout.

``default_rng(seed)`` gives a :class:`Generator` with NumPy's method names. The streams are
the crate's (the same bits on every adapter), not NumPy's PCG64: equal seeds do not give
NumPy's numbers.
"""

from __future__ import annotations

import operator

import numpy as np

from . import _gpuarray as _g
from ._core import _shape_tuple, canon_dtype, ndarray


def _size(size) -> list:
    if size is None:
        return []
    return list(_shape_tuple(size))


def _float_dtype(dtype) -> np.dtype:
    dt = canon_dtype(dtype)
    if dt.kind != "f":
        raise TypeError(f"Unsupported dtype {dt} for this distribution (a float dtype is needed)")
    return dt


def _seed(seed) -> int:
    if seed is None:
        # Fresh entropy, as numpy.random.default_rng(None).
        return int(np.random.SeedSequence().generate_state(2, np.uint32).view(np.uint64)[0])
    seed = operator.index(seed)
    if seed < 0 or seed >= 2**64:
        raise ValueError("Seed must be between 0 and 2**64 - 1")
    return seed


class Philox:
    """A Philox4x32-10 stream: ``curand_init(seed, subsequence, offset)`` (offset in 32-bit
    words). Streams with different ``subsequence`` are independent."""

    def __init__(self, seed=None, subsequence=0, offset=0):
        self._g = _g._Generator(_seed(seed), operator.index(subsequence), operator.index(offset))

    @property
    def state(self) -> dict:
        seed, sub, off = self._g.state
        return {"bit_generator": "Philox", "seed": seed, "subsequence": sub, "offset": off}

    def random_raw(self, size=None) -> ndarray:
        """The raw uint32 words (what ``curand()`` returns)."""
        return ndarray._wrap(self._g.bits(_size(size)))

    def __repr__(self):
        s = self.state
        return f"Philox(seed={s['seed']}, subsequence={s['subsequence']}, offset={s['offset']})"


class Generator:
    """NumPy-style generator over a :class:`Philox` stream; every method draws on the device
    and returns a ``gpuarray.ndarray`` (``size=None`` gives a 0-d array)."""

    def __init__(self, bit_generator: Philox):
        if not isinstance(bit_generator, Philox):
            raise TypeError("gpuarray.random.Generator needs a gpuarray.random.Philox")
        self.bit_generator = bit_generator
        self._g = bit_generator._g

    def __repr__(self):
        return f"Generator({self.bit_generator!r})"

    def random(self, size=None, dtype=np.float64) -> ndarray:
        return ndarray._wrap(self._g.random(_size(size), _float_dtype(dtype).name))

    def uniform(self, low=0.0, high=1.0, size=None, dtype=None) -> ndarray:
        return ndarray._wrap(
            self._g.uniform(float(low), float(high), _size(size), _float_dtype(dtype).name))

    def standard_normal(self, size=None, dtype=np.float64) -> ndarray:
        return ndarray._wrap(self._g.normal(0.0, 1.0, _size(size), _float_dtype(dtype).name))

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=None) -> ndarray:
        if scale < 0:
            raise ValueError("scale < 0")
        return ndarray._wrap(
            self._g.normal(float(loc), float(scale), _size(size), _float_dtype(dtype).name))

    def exponential(self, scale=1.0, size=None, dtype=None) -> ndarray:
        if scale < 0:
            raise ValueError("scale < 0")
        return ndarray._wrap(
            self._g.exponential(float(scale), _size(size), _float_dtype(dtype).name))

    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False) -> ndarray:
        """Integers in ``[low, high)`` (``[low, high]`` with ``endpoint``) of any integer dtype,
        int64 by default as in NumPy; exact and unbiased over the full 64-bit ranges."""
        if high is None:
            low, high = 0, low
        low, high = operator.index(low), operator.index(high)
        if endpoint:
            high += 1
        if low >= high:
            raise ValueError("low >= high" if not endpoint else "low > high")
        dt = canon_dtype(dtype)
        if dt.kind not in "iu":
            raise TypeError(f"Unsupported dtype {dt} for integers")
        info = np.iinfo(dt)
        if low < info.min:
            raise ValueError("low is out of bounds for " + dt.name)
        if high - 1 > info.max:
            raise ValueError("high is out of bounds for " + dt.name)
        return ndarray._wrap(self._g.integers(low, high, _size(size), dt.name))

    def permutation(self, x, axis=0) -> ndarray:
        if isinstance(x, (int, np.integer)):
            return ndarray._wrap(self._g.permutation(operator.index(x)))
        from ._core import asarray

        a = asarray(x)
        if a.ndim == 0:
            raise np.exceptions.AxisError("x must be an integer or at least 1-dimensional")
        return ndarray._wrap(self._g.permutation_of(a._a, operator.index(axis)))

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True) -> ndarray:
        from ._core import asarray
        from ._functions import arange

        if axis != 0:
            raise NotImplementedError("gpuarray choice supports axis=0 only")
        arr = arange(operator.index(a), dtype=np.int64) if isinstance(a, (int, np.integer)) \
            else asarray(a)
        if arr.ndim == 0:
            raise ValueError("a must be a sequence or an integer, not a 0-d array")
        probs = None
        if p is not None:
            probs = np.asarray(p.get() if isinstance(p, ndarray) else p, dtype=np.float64)
            if probs.shape != (arr.shape[0],):
                raise ValueError("a and p must have same size")
            if (probs < 0).any() or not np.isclose(probs.sum(), 1.0):
                raise ValueError("probabilities are not non-negative or do not sum to 1")
            probs = probs.tolist()
        shape = _size(size)
        n = int(np.prod(shape)) if shape else 1
        if not replace and n > arr.shape[0]:
            raise ValueError("Cannot take a larger sample than population when replace=False")
        out = ndarray._wrap(self._g.choice(arr._a, shape, bool(replace), probs))
        return out


def default_rng(seed=None) -> Generator:
    """A :class:`Generator` over ``Philox(seed)``."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, Philox):
        return Generator(seed)
    return Generator(Philox(seed))
