"""``numpy.fft`` dispatched from NumPy (``np.fft.fft(x)`` on a ``gpuarray.ndarray`` runs here),
with NumPy 2's argument forms and dtypes (float32 input gives complex64, float64 and integers
complex128), and the complex parts NumPy offers as functions (``np.real``, ``np.imag``,
``np.angle``). The transforms are ``gpuarray::fft``: mixed-radix Stockham passes, Bluestein for
other lengths, twiddles computed in float64, plans cached per device."""

from __future__ import annotations

import operator

import numpy as np

from . import _gpuarray as _g
from ._core import ndarray
from ._registry import implements, _arr


def _w(a):
    return ndarray._wrap(a)


def _n(n):
    return None if n is None else operator.index(n)


def _out(result, out):
    if out is None:
        return result
    if not isinstance(out, ndarray):
        raise TypeError("out must be a gpuarray.ndarray")
    if out.shape != result.shape:
        raise ValueError(f"output array has wrong shape {out.shape}, expected {result.shape}")
    out[...] = result
    return out


def _one(op, a, n, axis, norm, out):
    return _out(_w(_g.fft_1d(op, _arr(a)._a, _n(n), operator.index(axis), norm)), out)


def _nd(op, a, s, axes, norm, out):
    if s is not None and axes is None:
        import warnings

        warnings.warn(
            "`axes` should not be `None` if `s` is not `None` (Deprecated in NumPy 2.0). In a "
            "future version of NumPy, this will raise an error and `s[i]` will correspond to "
            "the size along the transformed axis specified by `axes[i]`. To retain current "
            "behaviour, pass a sequence [0, ..., k-1] to `axes` for an array of dimension k.",
            DeprecationWarning,
            stacklevel=3,
        )
    s = None if s is None else [operator.index(v) for v in s]
    axes = None if axes is None else [operator.index(v) for v in axes]
    return _out(_w(_g.fft_nd(op, _arr(a)._a, s, axes, norm)), out)


@implements(np.fft.fft)
def fft(a, n=None, axis=-1, norm=None, out=None):
    return _one("fft", a, n, axis, norm, out)


@implements(np.fft.ifft)
def ifft(a, n=None, axis=-1, norm=None, out=None):
    return _one("ifft", a, n, axis, norm, out)


@implements(np.fft.rfft)
def rfft(a, n=None, axis=-1, norm=None, out=None):
    return _one("rfft", a, n, axis, norm, out)


@implements(np.fft.irfft)
def irfft(a, n=None, axis=-1, norm=None, out=None):
    return _one("irfft", a, n, axis, norm, out)


@implements(np.fft.hfft)
def hfft(a, n=None, axis=-1, norm=None, out=None):
    return _one("hfft", a, n, axis, norm, out)


@implements(np.fft.ihfft)
def ihfft(a, n=None, axis=-1, norm=None, out=None):
    return _one("ihfft", a, n, axis, norm, out)


@implements(np.fft.fftn)
def fftn(a, s=None, axes=None, norm=None, out=None):
    return _nd("fftn", a, s, axes, norm, out)


@implements(np.fft.ifftn)
def ifftn(a, s=None, axes=None, norm=None, out=None):
    return _nd("ifftn", a, s, axes, norm, out)


@implements(np.fft.rfftn)
def rfftn(a, s=None, axes=None, norm=None, out=None):
    return _nd("rfftn", a, s, axes, norm, out)


@implements(np.fft.irfftn)
def irfftn(a, s=None, axes=None, norm=None, out=None):
    return _nd("irfftn", a, s, axes, norm, out)


@implements(np.fft.fft2)
def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return _nd("fftn", a, s, axes, norm, out)


@implements(np.fft.ifft2)
def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return _nd("ifftn", a, s, axes, norm, out)


@implements(np.fft.rfft2)
def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return _nd("rfftn", a, s, axes, norm, out)


@implements(np.fft.irfft2)
def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return _nd("irfftn", a, s, axes, norm, out)


def _axes(axes):
    if axes is None:
        return None
    if isinstance(axes, (int, np.integer)):
        return [operator.index(axes)]
    return [operator.index(v) for v in axes]


@implements(np.fft.fftshift)
def fftshift(x, axes=None):
    return _w(_g.fft_shift(_arr(x)._a, _axes(axes), False))


@implements(np.fft.ifftshift)
def ifftshift(x, axes=None):
    return _w(_g.fft_shift(_arr(x)._a, _axes(axes), True))


def fftfreq(n, d=1.0, device=None):
    """``numpy.fft.fftfreq`` on the device (float64)."""
    return _w(_g.fft_freq(operator.index(n), float(d), False))


def rfftfreq(n, d=1.0, device=None):
    """``numpy.fft.rfftfreq`` on the device (float64)."""
    return _w(_g.fft_freq(operator.index(n), float(d), True))


# ---- complex parts --------------------------------------------------------------------------

@implements(np.real)
def real(val):
    return _arr(val).real


@implements(np.imag)
def imag(val):
    return _arr(val).imag


@implements(np.angle)
def angle(z, deg=False):
    return _w(_g.complex_part("angle_deg" if deg else "angle", _arr(z)._a))
