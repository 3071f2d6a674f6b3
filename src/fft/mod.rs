//! `numpy.fft` on every GPU: transforms of any length along any axes, batched over the others.
//!
//! - **Any length, never O(n²)**: lengths whose prime factors are at most 13 run as passes of a
//!   mixed-radix Stockham FFT (radices 8, 4, 2, 3, 5, 7, 11, 13; no bit-reversal pass); any
//!   other length by Bluestein's algorithm over power-of-two FFTs of length ≥ 2n − 1
//!   (`shaders/fft.wgsl`).
//! - **Accurate twiddles**: every root of unity and the norms' scales are computed on the host
//!   in float64 and read from a table, so a float32 transform stays within a small multiple of
//!   log₂(n)·ε of the exact one.
//! - **NumPy's rules**: float32 (and float16) input gives complex64, float64, integers and bool
//!   complex128 (where the device has float64); `n`/`s` crop or zero-pad; `norm` is
//!   `backward`, `ortho` or `forward`; a length of 0 is NumPy's "Invalid number of FFT data
//!   points".
//! - **Plans** (the twiddle tables and Bluestein's chirps) are kept per device, least recently
//!   used first, as CuPy's `PlanCache` ([`plan_cache_info`], [`set_plan_cache_limits`]).
//!
//! ```
//! # fn main() -> gpuarray::Result<()> {
//! # let dev = gpuarray::Device::new()?;
//! use gpuarray::{Array, Complex32, fft};
//! let x = Array::from_slice(&dev, &[1.0f32, 2.0, 3.0, 4.0], &[4])?;
//! let y = fft::fft(&x, None, -1, fft::Norm::Backward)?.to_vec::<Complex32>()?;
//! assert_eq!(y[0], Complex32::new(10.0, 0.0));
//! assert_eq!(y[1], Complex32::new(-2.0, 2.0));
//! # Ok(()) }
//! ```

mod freq;
pub(crate) mod kernels;
pub(crate) mod local;
mod plan;

pub use freq::{fftfreq, fftshift, ifftshift, rfftfreq};
pub use plan::PlanCacheInfo;

use crate::array::Array;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::{SliceArg, normalize_axis};
use plan::{PlanCache, Scale};

/// NumPy's `norm`: which direction is scaled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Norm {
    /// No scale forward, 1/n on the inverse (NumPy's default, `None`).
    #[default]
    Backward,
    /// 1/√n both ways.
    Ortho,
    /// 1/n forward, none on the inverse.
    Forward,
}

impl Norm {
    /// NumPy's names: `None` or `"backward"`, `"ortho"`, `"forward"`; anything else is NumPy's
    /// `ValueError` as `Err(InvalidArgument)`.
    ///
    /// ```
    /// use gpuarray::fft::Norm;
    /// assert_eq!(Norm::from_numpy(Some("ortho")).unwrap(), Norm::Ortho);
    /// assert!(Norm::from_numpy(Some("unitary")).is_err());
    /// ```
    pub fn from_numpy(name: Option<&str>) -> Result<Norm> {
        match name {
            None | Some("backward") => Ok(Norm::Backward),
            Some("ortho") => Ok(Norm::Ortho),
            Some("forward") => Ok(Norm::Forward),
            Some(other) => Err(Error::invalid(
                "fft",
                format!(
                    "Invalid norm value {other:?}; should be \"backward\", \"ortho\" or \"forward\"."
                ),
            )),
        }
    }

    /// The other direction's norm (NumPy's `_swap_direction`, for `hfft`/`ihfft`).
    fn swapped(self) -> Norm {
        match self {
            Norm::Backward => Norm::Forward,
            Norm::Ortho => Norm::Ortho,
            Norm::Forward => Norm::Backward,
        }
    }

    fn scale(self, inverse: bool) -> Scale {
        match (self, inverse) {
            (Norm::Ortho, _) => Scale::Ortho,
            (Norm::Backward, false) | (Norm::Forward, true) => Scale::One,
            (Norm::Backward, true) | (Norm::Forward, false) => Scale::Inverse,
        }
    }
}

/// What this device's plan cache holds.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let x = gpuarray::Array::zeros(&dev, &[12], gpuarray::DType::C64)?;
/// gpuarray::fft::fft(&x, None, -1, Default::default())?;
/// assert!(gpuarray::fft::plan_cache_info(&dev).size >= 1);
/// # Ok(()) }
/// ```
pub fn plan_cache_info(device: &Device) -> PlanCacheInfo {
    device.inner.extensions.get::<PlanCache>().info()
}

/// Limits the plan cache to `max_size` plans and `max_memory` device bytes (0: no memory
/// limit), dropping the least recently used plans over them (`max_size` 0: no caching).
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// gpuarray::fft::set_plan_cache_limits(&dev, 4, 1 << 20);
/// assert_eq!(gpuarray::fft::plan_cache_info(&dev).max_size, 4);
/// # Ok(()) }
/// ```
pub fn set_plan_cache_limits(device: &Device, max_size: usize, max_memory: u64) {
    device
        .inner
        .extensions
        .get::<PlanCache>()
        .set_limits(max_size, max_memory);
}

/// Drops every cached plan of this device.
///
/// ```
/// # let dev = gpuarray::Device::new().unwrap();
/// gpuarray::fft::clear_plan_cache(&dev);
/// assert_eq!(gpuarray::fft::plan_cache_info(&dev).size, 0);
/// ```
pub fn clear_plan_cache(device: &Device) {
    device.inner.extensions.get::<PlanCache>().clear();
}

/// NumPy's error for a transform length below 1.
fn check_points(op: &'static str, n: usize) -> Result<()> {
    if n < 1 {
        return Err(Error::invalid(
            op,
            format!("Invalid number of FFT data points ({n}) specified."),
        ));
    }
    Ok(())
}

/// `a` with axis `ax` cropped or zero-padded to `n`.
fn resized(op: &'static str, a: &Array, ax: usize, n: usize) -> Result<Array> {
    let len = a.shape()[ax];
    if len == n {
        return Ok(a.clone());
    }
    let mut sl = vec![SliceArg::full(); ax];
    sl.push(SliceArg::range(Some(0), Some(n.min(len) as isize), 1));
    if n < len {
        return a.slice(&sl);
    }
    let mut shape = a.shape().to_vec();
    shape[ax] = n;
    let out = Array::zeros(a.device(), &shape, a.dtype())?;
    out.slice(&sl)?
        .assign(&a.slice(&sl)?)
        .map_err(|e| match e {
            Error::OutOfMemory { .. } | Error::TooLarge { .. } => e,
            e => Error::invalid(op, e.to_string()),
        })?;
    Ok(out)
}

/// The complex dtype a transform of `a` computes in, refused where the device lacks it.
fn complex_dtype(op: &'static str, a: &Array) -> Result<DType> {
    let c = a.dtype().to_complex();
    a.device().check_dtype(op, c)?;
    Ok(c)
}

/// The complex transform of `a` along `axis` (length `n`), forward or inverse.
fn c2c(
    op: &'static str,
    a: &Array,
    n: Option<usize>,
    axis: isize,
    norm: Norm,
    inverse: bool,
) -> Result<Array> {
    let ax = normalize_axis(op, axis, a.ndim())?;
    let n = n.unwrap_or(a.shape()[ax]);
    check_points(op, n)?;
    let c = complex_dtype(op, a)?;
    let x = if a.dtype() == c {
        a.clone()
    } else {
        a.astype(c)?
    };
    let x = resized(op, &x, ax, n)?;
    let last = x.ndim() - 1;
    let plan = a
        .device()
        .inner
        .extensions
        .get::<PlanCache>()
        .get(a.device(), n, c.real())?;
    if ax != last
        && let Some(y) = kernels::transform_axis(&plan, &x, ax, inverse, norm.scale(inverse))?
    {
        return Ok(y);
    }
    along_rows(&x, ax, |rows| {
        kernels::transform(&plan, rows, inverse, norm.scale(inverse))
    })
}

/// `f` applied to the lanes of `x` along `ax` as the rows of a contiguous (batch, length) array
/// (the axis moved last by a copy), its (batch, new length) result put back along `ax`.
fn along_rows(x: &Array, ax: usize, f: impl FnOnce(&Array) -> Result<Array>) -> Result<Array> {
    let last = x.ndim() - 1;
    let moved = x.swapaxes(ax as isize, last as isize)?.contiguous()?;
    let mut shape: Vec<isize> = moved.shape().iter().map(|&d| d as isize).collect();
    let len = shape[last];
    let y = f(&moved.reshape(&[moved.len() as isize / len, len])?)?;
    shape[last] = y.shape()[1] as isize;
    y.reshape(&shape)?.swapaxes(ax as isize, last as isize)
}

/// `numpy.fft.fft(a, n, axis, norm)`: the discrete Fourier transform along `axis` (negative
/// counts from the end), of length `n` (`None`: the axis' length; shorter crops, longer
/// zero-pads).
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// use gpuarray::{Array, Complex64, fft};
/// let x = Array::from_slice(&dev, &[1.0f64, 0.0, 0.0], &[3])?;
/// let y = fft::fft(&x, Some(4), -1, fft::Norm::Backward)?;   // zero-padded to 4
/// assert_eq!(y.to_vec::<Complex64>()?, vec![Complex64::new(1.0, 0.0); 4]);
/// # Ok(()) }
/// ```
pub fn fft(a: &Array, n: Option<usize>, axis: isize, norm: Norm) -> Result<Array> {
    c2c("fft", a, n, axis, norm, false)
}

/// `numpy.fft.ifft(a, n, axis, norm)`: the inverse transform (scaled by 1/n with the default
/// norm).
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// use gpuarray::{Array, Complex32, fft};
/// let x = Array::from_slice(&dev, &[1.0f32, 2.0, 3.0, 4.0, 5.0], &[5])?;
/// let back = fft::ifft(&fft::fft(&x, None, -1, Default::default())?, None, -1, Default::default())?;
/// for (z, want) in back.to_vec::<Complex32>()?.iter().zip(1..) {
///     assert!((z.re - want as f32).abs() < 1e-5 && z.im.abs() < 1e-5);
/// }
/// # Ok(()) }
/// ```
pub fn ifft(a: &Array, n: Option<usize>, axis: isize, norm: Norm) -> Result<Array> {
    c2c("ifft", a, n, axis, norm, true)
}

/// NumPy's `_cook_nd_args`: the lengths and axes of an n-dimensional transform.
fn nd_args(
    op: &'static str,
    a: &Array,
    s: Option<&[usize]>,
    axes: Option<&[isize]>,
) -> Result<(Vec<usize>, Vec<isize>)> {
    let nd = a.ndim() as isize;
    let axes: Vec<isize> = match (axes, s) {
        (Some(ax), _) => ax.to_vec(),
        (None, Some(s)) => (nd - s.len() as isize..nd).collect(),
        (None, None) => (0..nd).collect(),
    };
    let s: Vec<usize> = match s {
        Some(s) => s.to_vec(),
        None => axes
            .iter()
            .map(|&ax| Ok(a.shape()[normalize_axis(op, ax, a.ndim())?]))
            .collect::<Result<_>>()?,
    };
    if s.len() != axes.len() {
        return Err(Error::invalid(op, "Shape and axes have different lengths."));
    }
    Ok((s, axes))
}

fn c2c_nd(
    op: &'static str,
    a: &Array,
    s: Option<&[usize]>,
    axes: Option<&[isize]>,
    norm: Norm,
    inverse: bool,
) -> Result<Array> {
    let (s, axes) = nd_args(op, a, s, axes)?;
    let mut x = a.clone();
    for i in (0..axes.len()).rev() {
        x = c2c(op, &x, Some(s[i]), axes[i], norm, inverse)?;
    }
    if axes.is_empty() {
        // No axis transformed: NumPy still returns the complex array.
        x = a.astype(complex_dtype(op, a)?)?;
    }
    Ok(x)
}

/// `numpy.fft.fftn(a, s, axes, norm)`: the transform over `axes` (`None`: all, or the last
/// `s.len()`), each cropped or padded to `s`.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// use gpuarray::{Array, Complex32, fft};
/// let x = Array::ones(&dev, &[2, 3], gpuarray::DType::F32)?;
/// let y = fft::fftn(&x, None, None, Default::default())?.to_vec::<Complex32>()?;
/// assert_eq!(y[0], Complex32::new(6.0, 0.0));
/// assert!(y[1..].iter().all(|z| z.norm() < 1e-6));
/// # Ok(()) }
/// ```
pub fn fftn(a: &Array, s: Option<&[usize]>, axes: Option<&[isize]>, norm: Norm) -> Result<Array> {
    c2c_nd("fftn", a, s, axes, norm, false)
}

/// `numpy.fft.ifftn(a, s, axes, norm)`.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// use gpuarray::{Array, Complex32, fft};
/// let x = Array::ones(&dev, &[2, 2], gpuarray::DType::F32)?;
/// let y = fft::ifftn(&x, None, None, Default::default())?.to_vec::<Complex32>()?;
/// assert_eq!(y[0], Complex32::new(1.0, 0.0));
/// # Ok(()) }
/// ```
pub fn ifftn(a: &Array, s: Option<&[usize]>, axes: Option<&[isize]>, norm: Norm) -> Result<Array> {
    c2c_nd("ifftn", a, s, axes, norm, true)
}

/// `numpy.fft.fft2(a, s, axes)`: [`fftn`] over `axes` (NumPy's default: the last two).
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let x = gpuarray::Array::ones(&dev, &[3, 2, 2], gpuarray::DType::F32)?;
/// let y = gpuarray::fft::fft2(&x, None, &[-2, -1], Default::default())?;
/// assert_eq!(y.shape(), &[3, 2, 2]);
/// # Ok(()) }
/// ```
pub fn fft2(a: &Array, s: Option<&[usize]>, axes: &[isize], norm: Norm) -> Result<Array> {
    c2c_nd("fft2", a, s, Some(axes), norm, false)
}

/// `numpy.fft.ifft2(a, s, axes)`.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let x = gpuarray::Array::ones(&dev, &[2, 2], gpuarray::DType::F32)?;
/// let y = gpuarray::fft::ifft2(&x, None, &[-2, -1], Default::default())?;
/// assert_eq!(y.to_vec::<gpuarray::Complex32>()?[0].re, 1.0);
/// # Ok(()) }
/// ```
pub fn ifft2(a: &Array, s: Option<&[usize]>, axes: &[isize], norm: Norm) -> Result<Array> {
    c2c_nd("ifft2", a, s, Some(axes), norm, true)
}

/// `numpy.fft.rfft(a, n, axis, norm)`: the transform of real input, its n/2 + 1 non-negative
/// frequencies. Complex input is NumPy's `TypeError`, here `Err(Unsupported)`.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// use gpuarray::{Array, Complex32, fft};
/// let x = Array::from_slice(&dev, &[1.0f32, 2.0, 3.0, 4.0], &[4])?;
/// let y = fft::rfft(&x, None, -1, Default::default())?.to_vec::<Complex32>()?;
/// assert_eq!(y, vec![Complex32::new(10.0, 0.0), Complex32::new(-2.0, 2.0), Complex32::new(-2.0, 0.0)]);
/// # Ok(()) }
/// ```
pub fn rfft(a: &Array, n: Option<usize>, axis: isize, norm: Norm) -> Result<Array> {
    rfft_as("rfft", a, n, axis, norm)
}

fn real_only(op: &'static str, a: &Array) -> Result<()> {
    if a.dtype().is_complex() {
        return Err(Error::Unsupported {
            op,
            feature: format!("a real-input transform of {} data", a.dtype()),
        });
    }
    Ok(())
}

fn rfft_as(
    op: &'static str,
    a: &Array,
    n: Option<usize>,
    axis: isize,
    norm: Norm,
) -> Result<Array> {
    real_only(op, a)?;
    let ax = normalize_axis(op, axis, a.ndim())?;
    let n = n.unwrap_or(a.shape()[ax]);
    if packs(a.device(), n, complex_dtype(op, a)?) {
        return rfft_even(op, a, n, ax, norm);
    }
    let full = c2c(op, a, Some(n), axis, norm, false)?;
    let mut sl = vec![SliceArg::full(); ax];
    sl.push(SliceArg::range(Some(0), Some((n / 2 + 1) as isize), 1));
    full.slice(&sl)
}

/// Whether a real transform of length `n` goes through the half-length complex FFT: n even,
/// and its n/2 + 1 frequencies and their twiddle table within one binding (past it, the full
/// complex transform's four-step takes it).
fn packs(dev: &Device, n: usize, complex: DType) -> bool {
    let fits = crate::ops::window_elements(&dev.inner, complex.size_bytes());
    n >= 2 && n.is_multiple_of(2) && (n / 2 + 4) as u64 <= fits
}

/// rfft of an even length: the complex FFT of half the length over the (even, odd) sample
/// pairs, then one step to the n/2 + 1 frequencies (`kernels::real_transform`).
fn rfft_even(op: &'static str, a: &Array, n: usize, ax: usize, norm: Norm) -> Result<Array> {
    let real = complex_dtype(op, a)?.real();
    let x = if a.dtype() == real {
        a.clone()
    } else {
        a.astype(real)?
    };
    let dev = a.device();
    let cache = dev.inner.extensions.get::<PlanCache>();
    let half = cache.get(dev, n / 2, real)?;
    let post = cache.get_real_post(dev, n, real)?;
    along_rows(&resized(op, &x, ax, n)?, ax, |rows| {
        kernels::real_transform(&half, &post, rows, norm.scale(false))
    })
}

/// irfft to an even length from `x` (complex, n/2 + 1 along `ax`): one step to a half-length
/// spectrum, its inverse FFT, the pairs read as samples (`kernels::real_inverse`).
fn irfft_even(x: &Array, n: usize, ax: usize, norm: Norm) -> Result<Array> {
    let dev = x.device();
    let real = x.dtype().real();
    let cache = dev.inner.extensions.get::<PlanCache>();
    let half = cache.get(dev, n / 2, real)?;
    let post = cache.get_real_post(dev, n, real)?;
    along_rows(x, ax, |rows| {
        kernels::real_inverse(&half, &post, rows, norm.scale(true))
    })
}

/// `a` with every imaginary part negated (a new array; real input as it is).
fn conj(a: &Array) -> Result<Array> {
    if !a.dtype().is_complex() {
        return Ok(a.clone());
    }
    let out = a.astype(a.dtype())?;
    let im = out.part(1);
    im.assign(&im.neg()?)?;
    Ok(out)
}

/// `numpy.fft.irfft(a, n, axis, norm)`: the real signal of length `n` (`None`: 2·(m − 1) for
/// an axis of m) whose [`rfft`] is `a`; the imaginary parts of the zero (and, for even n,
/// Nyquist) frequencies are ignored, as in NumPy.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// use gpuarray::{Array, fft};
/// let x = Array::from_slice(&dev, &[1.0f32, 2.0, 3.0, 4.0, 5.0], &[5])?;
/// let back = fft::irfft(&fft::rfft(&x, None, -1, Default::default())?, Some(5), -1, Default::default())?;
/// for (v, want) in back.to_vec::<f32>()?.iter().zip(1..) {
///     assert!((v - want as f32).abs() < 1e-5);
/// }
/// # Ok(()) }
/// ```
pub fn irfft(a: &Array, n: Option<usize>, axis: isize, norm: Norm) -> Result<Array> {
    irfft_as("irfft", a, n, axis, norm)
}

fn irfft_as(
    op: &'static str,
    a: &Array,
    n: Option<usize>,
    axis: isize,
    norm: Norm,
) -> Result<Array> {
    let ax = normalize_axis(op, axis, a.ndim())?;
    let len = a.shape()[ax];
    let n = match n {
        Some(n) => n,
        None => (2 * len).saturating_sub(2),
    };
    check_points(op, n)?;
    let c = complex_dtype(op, a)?;
    let x = a.astype(c)?;
    let keep = n / 2 + 1;
    let x = resized(op, &x, ax, keep)?;
    if packs(a.device(), n, c) {
        return irfft_even(&x, n, ax, norm);
    }
    // The Hermitian spectrum of length n: X[n − k] = conj(X[k]).
    let mut shape = x.shape().to_vec();
    shape[ax] = n;
    let full = Array::empty(op, a.device(), &shape, c)?;
    let along = |lo: isize, hi: isize, step: isize| {
        let mut sl = vec![SliceArg::full(); ax];
        sl.push(SliceArg::range(Some(lo), Some(hi), step));
        sl
    };
    full.slice(&along(0, keep as isize, 1))?.assign(&x)?;
    if n > keep {
        // Entries n − keep down to 1 of x, conjugated.
        let tail = full.slice(&along(keep as isize, n as isize, 1))?;
        let mirror = x.slice(
            &[
                vec![SliceArg::full(); ax],
                vec![SliceArg::range(Some((n - keep) as isize), Some(0), -1)],
            ]
            .concat(),
        )?;
        tail.assign(&mirror)?;
        let im = tail.part(1);
        im.assign(&im.neg()?)?;
    }
    let y = c2c(op, &full, Some(n), ax as isize, norm, true)?;
    y.part(0).contiguous()
}

/// `numpy.fft.rfftn(a, s, axes, norm)`: [`rfft`] over the last of `axes`, then [`fft`] over
/// the others.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let x = gpuarray::Array::ones(&dev, &[4, 6], gpuarray::DType::F32)?;
/// let y = gpuarray::fft::rfftn(&x, None, None, Default::default())?;
/// assert_eq!(y.shape(), &[4, 4]);
/// # Ok(()) }
/// ```
pub fn rfftn(a: &Array, s: Option<&[usize]>, axes: Option<&[isize]>, norm: Norm) -> Result<Array> {
    rfftn_as("rfftn", a, s, axes, norm)
}

fn rfftn_as(
    op: &'static str,
    a: &Array,
    s: Option<&[usize]>,
    axes: Option<&[isize]>,
    norm: Norm,
) -> Result<Array> {
    real_only(op, a)?;
    let (s, axes) = nd_args(op, a, s, axes)?;
    let Some((&last_ax, rest)) = axes.split_last() else {
        return Err(Error::invalid(op, "at least one axis must be transformed"));
    };
    let mut x = rfft_as(op, a, Some(s[s.len() - 1]), last_ax, norm)?;
    for (i, &ax) in rest.iter().enumerate() {
        x = c2c(op, &x, Some(s[i]), ax, norm, false)?;
    }
    Ok(x)
}

/// `numpy.fft.irfftn(a, s, axes, norm)`: [`ifft`] over all of `axes` but the last, then
/// [`irfft`] over the last (`s` `None`: 2·(m − 1) there).
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// use gpuarray::fft;
/// let x = gpuarray::Array::ones(&dev, &[4, 6], gpuarray::DType::F32)?;
/// let back = fft::irfftn(&fft::rfftn(&x, None, None, Default::default())?, Some(&[4, 6]), None, Default::default())?;
/// assert!(back.to_vec::<f32>()?.iter().all(|v| (v - 1.0).abs() < 1e-6));
/// # Ok(()) }
/// ```
pub fn irfftn(a: &Array, s: Option<&[usize]>, axes: Option<&[isize]>, norm: Norm) -> Result<Array> {
    irfftn_as("irfftn", a, s, axes, norm)
}

fn irfftn_as(
    op: &'static str,
    a: &Array,
    s: Option<&[usize]>,
    axes: Option<&[isize]>,
    norm: Norm,
) -> Result<Array> {
    let given = s.is_some();
    let (mut s, axes) = nd_args(op, a, s, axes)?;
    let Some((&last_ax, rest)) = axes.split_last() else {
        return Err(Error::invalid(op, "at least one axis must be transformed"));
    };
    let k = s.len() - 1;
    if !given {
        // NumPy's `invreal`: the last axis' output length is 2·(m − 1).
        s[k] = (2 * s[k]).saturating_sub(2);
    }
    let mut x = a.clone();
    for (i, &ax) in rest.iter().enumerate() {
        x = c2c(op, &x, Some(s[i]), ax, norm, true)?;
    }
    irfft_as(op, &x, Some(s[k]), last_ax, norm)
}

/// `numpy.fft.rfft2(a, s, axes, norm)`: [`rfftn`] over `axes` (NumPy's default: the last two).
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let x = gpuarray::Array::ones(&dev, &[4, 6], gpuarray::DType::F32)?;
/// assert_eq!(gpuarray::fft::rfft2(&x, None, &[-2, -1], Default::default())?.shape(), &[4, 4]);
/// # Ok(()) }
/// ```
pub fn rfft2(a: &Array, s: Option<&[usize]>, axes: &[isize], norm: Norm) -> Result<Array> {
    rfftn_as("rfft2", a, s, Some(axes), norm)
}

/// `numpy.fft.irfft2(a, s, axes, norm)`.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let x = gpuarray::Array::ones(&dev, &[4, 4], gpuarray::DType::C64)?;
/// assert_eq!(gpuarray::fft::irfft2(&x, None, &[-2, -1], Default::default())?.shape(), &[4, 6]);
/// # Ok(()) }
/// ```
pub fn irfft2(a: &Array, s: Option<&[usize]>, axes: &[isize], norm: Norm) -> Result<Array> {
    irfftn_as("irfft2", a, s, Some(axes), norm)
}

/// `numpy.fft.hfft(a, n, axis, norm)`: the real spectrum of a signal with Hermitian symmetry
/// given by its first half `a` (`irfft` of the conjugate, with the other direction's norm).
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// use gpuarray::{Array, fft};
/// let a = Array::from_slice(&dev, &[1.0f32, 0.0, 0.0], &[3])?;
/// assert_eq!(fft::hfft(&a, None, -1, Default::default())?.to_vec::<f32>()?, vec![1.0; 4]);
/// # Ok(()) }
/// ```
pub fn hfft(a: &Array, n: Option<usize>, axis: isize, norm: Norm) -> Result<Array> {
    irfft_as("hfft", &conj(a)?, n, axis, norm.swapped())
}

/// `numpy.fft.ihfft(a, n, axis, norm)`: the inverse of [`hfft`] (the conjugate of `rfft`,
/// with the other direction's norm).
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// use gpuarray::{Array, Complex32, fft};
/// let a = Array::from_slice(&dev, &[1.0f32; 4], &[4])?;
/// let y = fft::ihfft(&a, None, -1, Default::default())?.to_vec::<Complex32>()?;
/// assert_eq!(y, vec![Complex32::new(1.0, 0.0), Complex32::new(0.0, 0.0), Complex32::new(0.0, 0.0)]);
/// # Ok(()) }
/// ```
pub fn ihfft(a: &Array, n: Option<usize>, axis: isize, norm: Norm) -> Result<Array> {
    conj(&rfft_as("ihfft", a, n, axis, norm.swapped())?)
}
