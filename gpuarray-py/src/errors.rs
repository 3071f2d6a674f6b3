//! Crate errors as Python exceptions, chosen to be the ones NumPy raises for the same mistake.
//!
//! | crate error | Python exception |
//! | --- | --- |
//! | `Shape`, `InvalidArgument`, `Einsum`, `Overflow`, `DeviceMismatch` | `ValueError` |
//! | `Axis` | `numpy.exceptions.AxisError` (a `ValueError` and an `IndexError`, as in NumPy) |
//! | `DTypeMismatch`, `Unsupported` | `TypeError` |
//! | `OutOfMemory`, `TooLarge` | `MemoryError` |
//! | `DeviceLost` | `gpuarray.DeviceLostError` (a `RuntimeError`) |
//! | `NoAdapter` | `gpuarray.NoAdapterError` (a `RuntimeError`) |
//! | `Timeout` | `TimeoutError` |
//! | anything else | `RuntimeError` |

use gpuarray::Error;
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyTimeoutError, PyTypeError, PyValueError};
use pyo3::prelude::*;

pyo3::create_exception!(
    gpuarray,
    DeviceLostError,
    PyRuntimeError,
    "The GPU device was lost (driver reset, device destroyed, or a forked child touching its parent's device); make a new one."
);
pyo3::create_exception!(
    gpuarray,
    NoAdapterError,
    PyRuntimeError,
    "No GPU adapter is available (no GPU and no software Vulkan driver such as lavapipe)."
);

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("DeviceLostError", py.get_type::<DeviceLostError>())?;
    m.add("NoAdapterError", py.get_type::<NoAdapterError>())?;
    Ok(())
}

/// The Python exception for a crate error.
pub(crate) fn to_py(py: Python<'_>, e: Error) -> PyErr {
    let msg = e.to_string();
    match e {
        Error::Axis { .. } => axis_error(py, msg),
        Error::LinAlg { .. } => linalg_error(py, msg),
        Error::Shape { .. }
        | Error::InvalidArgument { .. }
        | Error::Einsum { .. }
        | Error::Overflow { .. }
        | Error::DeviceMismatch { .. } => PyValueError::new_err(msg),
        Error::DTypeMismatch { .. } | Error::Unsupported { .. } => PyTypeError::new_err(msg),
        Error::OutOfMemory { .. } | Error::TooLarge { .. } => PyMemoryError::new_err(msg),
        Error::DeviceLost { .. } => DeviceLostError::new_err(msg),
        Error::NoAdapter(_) => NoAdapterError::new_err(msg),
        Error::Timeout { .. } => PyTimeoutError::new_err(msg),
        _ => PyRuntimeError::new_err(msg),
    }
}

/// `numpy.linalg.LinAlgError(msg)`; a plain `ValueError` (its base) if NumPy cannot be imported.
fn linalg_error(py: Python<'_>, msg: String) -> PyErr {
    let made = py
        .import("numpy.linalg")
        .and_then(|m| m.getattr("LinAlgError"))
        .and_then(|cls| cls.call1((msg.clone(),)));
    match made {
        Ok(exc) => PyErr::from_value(exc),
        Err(_) => PyValueError::new_err(msg),
    }
}

/// `numpy.exceptions.AxisError(msg)`; a plain `ValueError` if NumPy cannot be imported.
fn axis_error(py: Python<'_>, msg: String) -> PyErr {
    let made = py
        .import("numpy.exceptions")
        .and_then(|m| m.getattr("AxisError"))
        .and_then(|t| t.call1((msg.clone(),)));
    match made {
        Ok(exc) => PyErr::from_value(exc),
        Err(_) => PyValueError::new_err(msg),
    }
}
