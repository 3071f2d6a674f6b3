//! The process's device, the GIL-releasing wait helper, and the fork guard.
//!
//! One [`Device`] per process, opened on first use (start-up compiles the kernels, seconds on
//! lavapipe, so it runs with the GIL released). A wgpu device does not survive `fork`: the
//! child has the parent's memory but none of its driver threads, and touching the device can
//! hang or crash. The Python package registers [`after_fork_in_child`] with
//! `os.register_at_fork`; in a child of a process that had opened the device, every later call
//! raises [`DeviceLostError`] saying so, and the inherited device and arrays are leaked rather
//! than dropped (dropping runs wgpu code). A child forked before any GPU use, and every
//! `spawn`ed process, opens its own device normally.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use gpuarray::Device;
use pyo3::prelude::*;

use crate::errors::{to_py, DeviceLostError};

/// The process's device, `None` until first use.
static DEVICE: Mutex<Option<Device>> = Mutex::new(None);
/// Set in a forked child whose parent had opened the device.
static FORKED: AtomicBool = AtomicBool::new(false);

const FORK_MESSAGE: &str = "gpuarray: this process was forked from one that had already used \
    the GPU, and a GPU device does not survive fork; start worker processes with the 'spawn' \
    method (multiprocessing.get_context('spawn')) or use gpuarray only after forking";

/// True in a forked child that inherited an open device: objects from the parent must be
/// leaked, not dropped.
pub(crate) fn forked() -> bool {
    FORKED.load(Ordering::Relaxed)
}

fn check_fork() -> PyResult<()> {
    if forked() {
        return Err(DeviceLostError::new_err(FORK_MESSAGE));
    }
    Ok(())
}

/// The process's device, opening it (GIL released) on first use.
pub(crate) fn device(py: Python<'_>) -> PyResult<Device> {
    check_fork()?;
    py.detach(|| {
        let mut slot = DEVICE.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(d) = slot.as_ref() {
            return Ok(d.clone());
        }
        let d = Device::new()?;
        *slot = Some(d.clone());
        Ok(d)
    })
    .map_err(|e| to_py(py, e))
}

/// Runs `f`, which may wait on the device, with the GIL released; maps its error.
pub(crate) fn wait<T, F>(py: Python<'_>, f: F) -> PyResult<T>
where
    F: FnOnce() -> gpuarray::Result<T> + Send,
    T: Send,
{
    check_fork()?;
    py.detach(f).map_err(|e| to_py(py, e))
}

/// The at-fork hook (child side): poisons the inherited device. Never blocks: if another thread
/// held the device lock at fork time, the lock is simply abandoned.
#[pyfunction]
fn _after_fork_in_child() {
    if let Ok(mut slot) = DEVICE.try_lock() {
        if let Some(d) = slot.take() {
            // Dropping would run wgpu teardown on a device whose threads are gone.
            std::mem::forget(d);
            FORKED.store(true, Ordering::Relaxed);
        }
    } else {
        FORKED.store(true, Ordering::Relaxed);
    }
}

/// The interpreter is exiting (registered with Python's `atexit`, which runs before the C
/// library's exit handlers): stops the device's background compile and waits for the driver's
/// work in flight, GIL released, so that no driver thread is still compiling when `exit()`
/// runs the driver's own destructors (see the crate's `gpuarray::prepare_exit`).
#[pyfunction]
fn _prepare_exit(py: Python<'_>) -> bool {
    py.detach(gpuarray::prepare_exit)
}

/// Waits until every launched kernel has finished (GIL released).
#[pyfunction]
fn synchronize(py: Python<'_>) -> PyResult<()> {
    let d = device(py)?;
    wait(py, move || d.synchronize())
}

/// The adapter and device: name, backend, type, driver, features, limits, start-up time.
#[pyfunction]
fn device_info(py: Python<'_>) -> PyResult<HashMap<&'static str, Py<PyAny>>> {
    let d = device(py)?;
    let i = d.info();
    let mut m: HashMap<&'static str, Py<PyAny>> = HashMap::new();
    m.insert(
        "name",
        i.name.clone().into_pyobject(py)?.into_any().unbind(),
    );
    m.insert(
        "backend",
        i.backend.clone().into_pyobject(py)?.into_any().unbind(),
    );
    m.insert(
        "device_type",
        i.device_type.clone().into_pyobject(py)?.into_any().unbind(),
    );
    m.insert(
        "driver",
        i.driver.clone().into_pyobject(py)?.into_any().unbind(),
    );
    m.insert(
        "driver_info",
        i.driver_info.clone().into_pyobject(py)?.into_any().unbind(),
    );
    m.insert(
        "features",
        i.features.clone().into_pyobject(py)?.into_any().unbind(),
    );
    m.insert(
        "max_buffer_size",
        i.max_buffer_size.into_pyobject(py)?.into_any().unbind(),
    );
    m.insert(
        "max_storage_buffer_binding_size",
        i.max_storage_buffer_binding_size
            .into_pyobject(py)?
            .into_any()
            .unbind(),
    );
    m.insert(
        "startup_s",
        i.startup
            .as_secs_f64()
            .into_pyobject(py)?
            .into_any()
            .unbind(),
    );
    m.insert(
        "pipelines",
        i.pipelines.into_pyobject(py)?.into_any().unbind(),
    );
    m.insert("f64", i.f64.into_pyobject(py)?.into_any().unbind());
    m.insert("f16", i.f16.into_pyobject(py)?.into_any().unbind());
    m.insert(
        "summary",
        i.to_string().into_pyobject(py)?.into_any().unbind(),
    );
    Ok(m)
}

/// Whether the device supports a dtype (`"float16"`, `"float64"`, ...).
#[pyfunction]
fn _supports(py: Python<'_>, dtype: &str) -> PyResult<bool> {
    let dt = crate::array::parse_dtype(dtype)?;
    Ok(device(py)?.supports(dt))
}

/// The memory pool's figures, in bytes and counts.
#[pyfunction]
fn memory_stats(py: Python<'_>) -> PyResult<HashMap<&'static str, Option<u64>>> {
    let s = device(py)?.memory_stats();
    Ok(HashMap::from([
        ("in_use_bytes", Some(s.in_use_bytes)),
        ("cached_bytes", Some(s.cached_bytes)),
        ("peak_bytes", Some(s.peak_bytes)),
        ("allocations", Some(s.allocations)),
        ("cache_hits", Some(s.cache_hits)),
        ("alloc_retries", Some(s.alloc_retries)),
        ("ooms", Some(s.ooms)),
        ("limit", s.limit),
    ]))
}

/// Caps the pool (`None`: no cap); a larger request raises `MemoryError`.
#[pyfunction]
#[pyo3(signature = (limit_bytes))]
fn set_memory_limit(py: Python<'_>, limit_bytes: Option<u64>) -> PyResult<()> {
    device(py)?.set_memory_limit(limit_bytes);
    Ok(())
}

/// Returns cached, unused buffers to the driver.
#[pyfunction]
fn empty_cache(py: Python<'_>) -> PyResult<()> {
    device(py)?.empty_cache();
    Ok(())
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_after_fork_in_child, m)?)?;
    m.add_function(wrap_pyfunction!(_prepare_exit, m)?)?;
    m.add_function(wrap_pyfunction!(synchronize, m)?)?;
    m.add_function(wrap_pyfunction!(device_info, m)?)?;
    m.add_function(wrap_pyfunction!(_supports, m)?)?;
    m.add_function(wrap_pyfunction!(memory_stats, m)?)?;
    m.add_function(wrap_pyfunction!(set_memory_limit, m)?)?;
    m.add_function(wrap_pyfunction!(empty_cache, m)?)?;
    Ok(())
}
