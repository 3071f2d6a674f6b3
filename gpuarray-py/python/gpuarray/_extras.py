"""The crate's ops that NumPy has no function for (gpuarray functions only): sigmoid,
relu, softmax, logsumexp.
"""

from __future__ import annotations

import operator

from . import _gpuarray as _g
from ._core import _normalize_axes, ndarray
from ._registry import _arr, _axes_arg


# ---- the crate's extras (no NumPy counterpart: gpuarray functions only) -------------------

def _float_input(x, name):
    x = _arr(x)
    if x.dtype.kind != "f":
        raise TypeError(f"{name} needs a float array, not {x.dtype} (use astype)")
    return x


def sigmoid(x):
    """``1 / (1 + exp(-x))``, stable for large ``|x|`` (one kernel)."""
    return ndarray._wrap(_g.unary("sigmoid", _float_input(x, "sigmoid")._a))


def relu(x):
    """``maximum(x, 0)`` keeping NaN (one kernel)."""
    return ndarray._wrap(_g.unary("relu", _arr(x)._a))


def softmax(x, axis=-1):
    """``exp(x - max) / sum(exp(x - max))`` along ``axis`` (scipy.special.softmax)."""
    x = _float_input(x, "softmax")
    axis = _normalize_axes((operator.index(axis),), x.ndim)[0]
    return ndarray._wrap(_g.softmax(x._a, axis))


def logsumexp(x, axis=None, keepdims=False):
    """``log(sum(exp(x)))`` over ``axis`` without overflow (scipy.special.logsumexp)."""
    x = _float_input(x, "logsumexp")
    return ndarray._wrap(_g.reduce("logsumexp", x._a, _axes_arg(axis, x.ndim), bool(keepdims)))
