//! The crate's profiler for Python: [`gpuarray::benchmark`] (repeated, synchronised timing of a
//! Python callable, CPU and GPU times per repeat, like `cupyx.profiler.benchmark`) and
//! [`gpuarray::Device::profile`] (every launch a callable makes, with GPU timestamps).
//!
//! Both run the crate's loop with the GIL released and take the GIL back only to call the
//! Python function, so the waits between repeats never block other Python threads. A Python
//! exception raised by the callable stops the loop and is re-raised as it was.

use std::sync::Mutex;

use gpuarray::{BenchOptions, Error, Profile};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::device::{device, wait};

/// Calls `f(*args, **kwargs)` with the GIL, parking a Python exception in `failed` and turning
/// it into a crate error that stops the crate's loop.
fn call(
    f: &Py<PyAny>,
    args: &Py<PyTuple>,
    kwargs: &Option<Py<PyDict>>,
    failed: &Mutex<Option<PyErr>>,
) -> gpuarray::Result<Py<PyAny>> {
    Python::attach(|py| {
        f.bind(py)
            .call(args.bind(py), kwargs.as_ref().map(|k| k.bind(py)))
            .map(Bound::unbind)
            .map_err(|e| {
                let msg = e.to_string();
                *failed.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                Error::InvalidArgument {
                    op: "benchmark",
                    msg: format!("the Python callable raised {msg}"),
                }
            })
    })
}

/// The Python exception the callable raised, if any (it stopped the crate's loop), else `r`.
fn reraise(r: PyResult<()>, failed: Mutex<Option<PyErr>>) -> PyResult<()> {
    match failed.into_inner().unwrap_or_else(|p| p.into_inner()) {
        Some(e) => Err(e),
        None => r,
    }
}

/// `benchmark(f, args, kwargs, name, n_repeat, n_warmup, min_time, gpu_times)`: the crate's
/// report as `(name, adapter, cpu_seconds, gpu_seconds or None, launches or None, text)`.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[allow(clippy::type_complexity)]
fn _benchmark(
    py: Python<'_>,
    f: Py<PyAny>,
    args: Py<PyTuple>,
    kwargs: Option<Py<PyDict>>,
    name: String,
    n_repeat: usize,
    n_warmup: usize,
    min_time: f64,
    gpu_times: bool,
) -> PyResult<(
    String,
    String,
    Vec<f64>,
    Option<Vec<f64>>,
    Option<usize>,
    String,
)> {
    let dev = device(py)?;
    let min_time = std::time::Duration::try_from_secs_f64(min_time).map_err(|_| {
        pyo3::exceptions::PyValueError::new_err("min_time must be a non-negative number of seconds")
    })?;
    let options = BenchOptions {
        name,
        warmup: n_warmup,
        repeats: n_repeat,
        min_time,
        gpu_times,
    };
    let failed = Mutex::new(None);
    let mut report = None;
    let r = wait(py, || {
        report = Some(gpuarray::benchmark(
            &dev,
            || call(&f, &args, &kwargs, &failed).map(drop),
            options,
        )?);
        Ok(())
    });
    reraise(r, failed)?;
    let report = report.expect("benchmark returned Ok");
    let secs = |v: &[std::time::Duration]| v.iter().map(|d| d.as_secs_f64()).collect::<Vec<_>>();
    Ok((
        report.name.clone(),
        report.adapter.clone(),
        secs(&report.cpu),
        report.gpu.as_deref().map(secs),
        report.launches,
        report.to_string(),
    ))
}

/// One profile of a Python callable: the launches it made and their times.
#[pyclass(frozen, name = "Profile", module = "gpuarray")]
struct PyProfile {
    p: Profile,
}

#[pymethods]
impl PyProfile {
    /// The adapter the launches ran on.
    #[getter]
    fn adapter(&self) -> &str {
        &self.p.adapter
    }

    /// Whether the times are GPU timestamps (else CPU submit-to-done times only).
    #[getter]
    fn timestamps(&self) -> bool {
        self.p.timestamps
    }

    /// Seconds from the call to the end of its device work.
    #[getter]
    fn wall(&self) -> f64 {
        self.p.wall.as_secs_f64()
    }

    /// Seconds the GPU was busy (the sum of the kernels' timestamps), or None without them.
    #[getter]
    fn gpu_total(&self) -> Option<f64> {
        self.p.gpu_total().map(|d| d.as_secs_f64())
    }

    /// Every launch: kernel, variant, call, shape description, workgroups, bytes, FLOPs and
    /// GPU seconds (None without timestamps).
    #[getter]
    fn launches<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.p
            .launches
            .iter()
            .map(|l| {
                let d = PyDict::new(py);
                d.set_item("kernel", &l.kernel)?;
                d.set_item("variant", &l.variant)?;
                d.set_item("call", l.call)?;
                d.set_item("what", &l.what)?;
                d.set_item("workgroups", l.workgroups)?;
                d.set_item("bytes", l.bytes)?;
                d.set_item("flops", l.flops)?;
                d.set_item("gpu_s", l.gpu.map(|g| g.duration.as_secs_f64()))?;
                Ok(d)
            })
            .collect()
    }

    /// Per-kernel totals: label, calls, GPU seconds, bytes, FLOPs.
    fn kernels<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.p
            .kernels()
            .iter()
            .map(|k| {
                let d = PyDict::new(py);
                d.set_item("kernel", &k.label)?;
                d.set_item("calls", k.calls)?;
                d.set_item("gpu_s", k.gpu_total.map(|g| g.as_secs_f64()))?;
                d.set_item("bytes", k.bytes)?;
                d.set_item("flops", k.flops)?;
                Ok(d)
            })
            .collect()
    }

    /// The launches as a Chrome trace (JSON; chrome://tracing, Perfetto).
    fn chrome_trace_json(&self) -> String {
        self.p.chrome_trace_json()
    }

    /// Writes the Chrome trace to `path`.
    fn write_chrome_trace(&self, py: Python<'_>, path: std::path::PathBuf) -> PyResult<()> {
        wait(py, || self.p.write_chrome_trace(&path))
    }

    /// The crate's table: one row per kernel with calls, GPU time, share, GB/s, GFLOP/s.
    fn __str__(&self) -> String {
        self.p.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "<gpuarray.Profile: {} launches, wall {:.3} ms>",
            self.p.launches.len(),
            self.p.wall.as_secs_f64() * 1e3
        )
    }
}

/// `profile(f, args, kwargs)`: `(f's result, Profile)`.
#[pyfunction]
#[pyo3(signature = (f, args, kwargs=None))]
fn _profile(
    py: Python<'_>,
    f: Py<PyAny>,
    args: Py<PyTuple>,
    kwargs: Option<Py<PyDict>>,
) -> PyResult<(Py<PyAny>, PyProfile)> {
    let dev = device(py)?;
    let failed = Mutex::new(None);
    let mut out = None;
    let r = wait(py, || {
        let (result, p) = dev.profile(|| call(&f, &args, &kwargs, &failed))?;
        out = Some((result, p));
        Ok(())
    });
    reraise(r, failed)?;
    let (result, p) = out.expect("profile returned Ok");
    // `result` is Err only when the callable raised, and then `failed` was re-raised above.
    let value = result.map_err(|e| crate::errors::to_py(py, e))?;
    Ok((value, PyProfile { p }))
}

/// An open profile of this thread's launches (`with gpuarray.profile():`), closed by `finish`.
#[pyclass(frozen, name = "_ProfileSession", module = "gpuarray")]
struct PyProfileSession {
    session: Mutex<Option<gpuarray::profile::ProfileSession>>,
}

#[pymethods]
impl PyProfileSession {
    /// Closes the profile, waits for the device (GIL released) and returns the `Profile`.
    fn finish(&self, py: Python<'_>) -> PyResult<PyProfile> {
        let session = self
            .session
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
            .ok_or_else(|| {
                pyo3::exceptions::PyRuntimeError::new_err("this profile was already finished")
            })?;
        let p = wait(py, || session.finish())?;
        Ok(PyProfile { p })
    }
}

/// `_start_profile()`: opens a profile of the calling thread's launches.
#[pyfunction]
fn _start_profile(py: Python<'_>) -> PyResult<PyProfileSession> {
    let dev = device(py)?;
    let session = dev
        .start_profile()
        .map_err(|e| crate::errors::to_py(py, e))?;
    Ok(PyProfileSession {
        session: Mutex::new(Some(session)),
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_benchmark, m)?)?;
    m.add_function(wrap_pyfunction!(_profile, m)?)?;
    m.add_function(wrap_pyfunction!(_start_profile, m)?)?;
    m.add_class::<PyProfile>()?;
    m.add_class::<PyProfileSession>()?;
    Ok(())
}
