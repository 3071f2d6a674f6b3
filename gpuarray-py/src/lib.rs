//! `gpuarray._gpuarray`: the compiled half of the `gpuarray` Python package.
//!
//! This module is deliberately thin. It wraps the crate's [`gpuarray::Array`] in one Python
//! class, `_Array`, and exposes the crate's operations as functions that take op names as
//! strings, so the Python half (`python/gpuarray/`) owns everything NumPy-shaped: dtype
//! promotion, argument normalisation, `__array_ufunc__`/`__array_function__` dispatch and the
//! Array API namespace. Three rules hold for every function here:
//!
//! - every call that may wait on the device runs inside `py.detach`, so the GIL is released
//!   while the GPU (or lavapipe) works and other Python threads keep running;
//! - every crate error becomes a Python exception ([`errors`]), never a panic;
//! - after `fork`, a child of a process that had opened the device gets a clear error on first
//!   use instead of touching a wgpu device that does not survive fork ([`device`]).

mod array;
mod device;
mod errors;
mod fft;
mod kernels;
mod linalg;
mod ops;
mod profile;
mod random;

use pyo3::prelude::*;

/// The extension module. Names starting with `_` are private to the Python package.
#[pymodule]
fn _gpuarray(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    device::register(m)?;
    array::register(m)?;
    ops::register(m)?;
    kernels::register(m)?;
    linalg::register(m)?;
    fft::register(m)?;
    random::register(m)?;
    profile::register(m)?;
    Ok(())
}
