//! `numpy.fft` and the complex parts (`conj`, `real`, `imag`, `angle`) for the Python package:
//! thin calls into `gpuarray::fft` and the crate's complex ops (NumPy's argument forms live in
//! `python/gpuarray/_fft.py`).

use crate::array::PyArr;
use crate::device::{device, wait};
use gpuarray::fft::{self, Norm};
use gpuarray::{Array, DType};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

fn norm(name: Option<&str>) -> PyResult<Norm> {
    Norm::from_numpy(name).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// One-axis transforms: fft, ifft, rfft, irfft, hfft, ihfft.
#[pyfunction]
#[pyo3(signature = (op, a, n, axis, norm_name))]
fn fft_1d(
    py: Python<'_>,
    op: &str,
    a: &Bound<'_, PyArr>,
    n: Option<usize>,
    axis: isize,
    norm_name: Option<&str>,
) -> PyResult<PyArr> {
    type OneAxis = fn(&Array, Option<usize>, isize, Norm) -> gpuarray::Result<Array>;
    let f: OneAxis = match op {
        "fft" => fft::fft,
        "ifft" => fft::ifft,
        "rfft" => fft::rfft,
        "irfft" => fft::irfft,
        "hfft" => fft::hfft,
        "ihfft" => fft::ihfft,
        other => return Err(PyValueError::new_err(format!("unknown fft op {other}"))),
    };
    let norm = norm(norm_name)?;
    let a = a.get().array();
    wait(py, || f(a, n, axis, norm)).map(PyArr::new)
}

/// N-dimensional transforms: fftn, ifftn, rfftn, irfftn (fft2 and friends are these with
/// NumPy's default axes).
#[pyfunction]
#[pyo3(signature = (op, a, s, axes, norm_name))]
fn fft_nd(
    py: Python<'_>,
    op: &str,
    a: &Bound<'_, PyArr>,
    s: Option<Vec<usize>>,
    axes: Option<Vec<isize>>,
    norm_name: Option<&str>,
) -> PyResult<PyArr> {
    type NAxes = fn(&Array, Option<&[usize]>, Option<&[isize]>, Norm) -> gpuarray::Result<Array>;
    let f: NAxes = match op {
        "fftn" => fft::fftn,
        "ifftn" => fft::ifftn,
        "rfftn" => fft::rfftn,
        "irfftn" => fft::irfftn,
        other => return Err(PyValueError::new_err(format!("unknown fft op {other}"))),
    };
    let norm = norm(norm_name)?;
    let a = a.get().array();
    wait(py, || f(a, s.as_deref(), axes.as_deref(), norm)).map(PyArr::new)
}

/// fftfreq (or rfftfreq with `real`), float64.
#[pyfunction]
fn fft_freq(py: Python<'_>, n: usize, d: f64, real: bool) -> PyResult<PyArr> {
    let dev = device(py)?;
    let f = if real { fft::rfftfreq } else { fft::fftfreq };
    wait(py, || f(&dev, n, d, DType::F64)).map(PyArr::new)
}

/// fftshift (or ifftshift with `inverse`).
#[pyfunction]
fn fft_shift(
    py: Python<'_>,
    a: &Bound<'_, PyArr>,
    axes: Option<Vec<isize>>,
    inverse: bool,
) -> PyResult<PyArr> {
    let a = a.get().array();
    let f = if inverse {
        fft::ifftshift
    } else {
        fft::fftshift
    };
    wait(py, || f(a, axes.as_deref())).map(PyArr::new)
}

/// The plan cache: (size, max_size, memory, max_memory).
#[pyfunction]
fn fft_plan_cache_info(py: Python<'_>) -> PyResult<(usize, usize, u64, u64)> {
    let i = fft::plan_cache_info(&device(py)?);
    Ok((i.size, i.max_size, i.memory, i.max_memory))
}

#[pyfunction]
fn fft_set_plan_cache_limits(py: Python<'_>, max_size: usize, max_memory: u64) -> PyResult<()> {
    fft::set_plan_cache_limits(&device(py)?, max_size, max_memory);
    Ok(())
}

/// conj, real, imag, angle (radians) and angle_deg of any array (complex ones by their parts).
#[pyfunction]
fn complex_part(py: Python<'_>, which: &str, a: &Bound<'_, PyArr>) -> PyResult<PyArr> {
    let a = a.get().array();
    let r = match which {
        "conj" => wait(py, || a.conj())?,
        "real" => a.real(),
        "imag" => wait(py, || a.imag())?,
        "angle" => wait(py, || a.angle(false))?,
        "angle_deg" => wait(py, || a.angle(true))?,
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown complex part {other}"
            )))
        }
    };
    Ok(PyArr::new(r))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(complex_part, m)?)?;
    m.add_function(wrap_pyfunction!(fft_1d, m)?)?;
    m.add_function(wrap_pyfunction!(fft_nd, m)?)?;
    m.add_function(wrap_pyfunction!(fft_freq, m)?)?;
    m.add_function(wrap_pyfunction!(fft_shift, m)?)?;
    m.add_function(wrap_pyfunction!(fft_plan_cache_info, m)?)?;
    m.add_function(wrap_pyfunction!(fft_set_plan_cache_limits, m)?)?;
    Ok(())
}
