//! `fftfreq`, `rfftfreq`, `fftshift`, `ifftshift`: the sample frequencies of a transform and the
//! zero frequency moved to the centre (rolls along axes, on the device).

use crate::array::Array;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};

/// Host frequencies uploaded in `dtype` (a float dtype; NumPy's is float64).
fn upload(op: &'static str, dev: &Device, f: Vec<f64>, dtype: DType) -> Result<Array> {
    if !dtype.is_float() {
        return Err(Error::invalid(
            op,
            format!("frequencies are float; {dtype} was asked for"),
        ));
    }
    let n = f.len();
    if dtype == DType::F64 {
        Array::from_slice(dev, &f, &[n])
    } else {
        let f: Vec<f32> = f.iter().map(|&x| x as f32).collect();
        Array::from_slice(dev, &f, &[n])?.astype(dtype)
    }
}

fn check(op: &'static str, n: usize, d: f64) -> Result<()> {
    if n == 0 || d == 0.0 {
        return Err(Error::invalid(
            op,
            format!("n = {n} and d = {d}: the sample spacing would divide by zero"),
        ));
    }
    Ok(())
}

/// `numpy.fft.fftfreq(n, d)`: `[0, 1, …, ⌈n/2⌉ − 1, −⌊n/2⌋, …, −1] / (d·n)`, in `dtype`.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let f = gpuarray::fft::fftfreq(&dev, 4, 0.5, gpuarray::DType::F64)?;
/// assert_eq!(f.to_vec::<f64>()?, vec![0.0, 0.5, -1.0, -0.5]);
/// # Ok(()) }
/// ```
pub fn fftfreq(device: &Device, n: usize, d: f64, dtype: DType) -> Result<Array> {
    check("fftfreq", n, d)?;
    let val = 1.0 / (n as f64 * d);
    let half = n.div_ceil(2);
    let f = (0..n)
        .map(|i| {
            let k = if i < half {
                i as f64
            } else {
                i as f64 - n as f64
            };
            k * val
        })
        .collect();
    upload("fftfreq", device, f, dtype)
}

/// `numpy.fft.rfftfreq(n, d)`: `[0, 1, …, ⌊n/2⌋] / (d·n)`, in `dtype`.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let f = gpuarray::fft::rfftfreq(&dev, 5, 1.0, gpuarray::DType::F64)?;
/// assert_eq!(f.to_vec::<f64>()?, vec![0.0, 0.2, 0.4]);
/// # Ok(()) }
/// ```
pub fn rfftfreq(device: &Device, n: usize, d: f64, dtype: DType) -> Result<Array> {
    check("rfftfreq", n, d)?;
    let val = 1.0 / (n as f64 * d);
    upload(
        "rfftfreq",
        device,
        (0..=n / 2).map(|i| i as f64 * val).collect(),
        dtype,
    )
}

fn shift(a: &Array, axes: Option<&[isize]>, inverse: bool) -> Result<Array> {
    let all: Vec<isize> = (0..a.ndim() as isize).collect();
    let axes = axes.unwrap_or(&all);
    let mut x = a.clone();
    for &ax in axes {
        let k = crate::layout::normalize_axis("fftshift", ax, a.ndim())?;
        let n = a.shape()[k] as isize;
        let by = if inverse { -(n / 2) } else { n / 2 };
        x = x.roll(by, Some(ax))?;
    }
    if axes.is_empty() {
        x = a.contiguous()?;
    }
    Ok(x)
}

/// `numpy.fft.fftshift(x, axes)`: the zero frequency moved to the centre of each of `axes`
/// (`None`: all).
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let f = gpuarray::fft::fftfreq(&dev, 5, 1.0, gpuarray::DType::F64)?;
/// let s = gpuarray::fft::fftshift(&f, None)?.to_vec::<f64>()?;
/// assert_eq!(s, vec![-0.4, -0.2, 0.0, 0.2, 0.4]);
/// # Ok(()) }
/// ```
pub fn fftshift(x: &Array, axes: Option<&[isize]>) -> Result<Array> {
    shift(x, axes, false)
}

/// `numpy.fft.ifftshift(x, axes)`: the inverse of [`fftshift`].
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let f = gpuarray::fft::fftfreq(&dev, 5, 1.0, gpuarray::DType::F64)?;
/// let back = gpuarray::fft::ifftshift(&gpuarray::fft::fftshift(&f, None)?, None)?;
/// assert_eq!(back.to_vec::<f64>()?, f.to_vec::<f64>()?);
/// # Ok(()) }
/// ```
pub fn ifftshift(x: &Array, axes: Option<&[isize]>) -> Result<Array> {
    shift(x, axes, true)
}
