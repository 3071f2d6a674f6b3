//! `numpy.linalg` for the Python package: thin calls into `gpuarray::linalg` (NumPy's argument
//! forms, dtypes and result types live in `python/gpuarray/_linalg.py`).

use crate::array::PyArr;
use crate::device::wait;
use gpuarray::linalg::{self, NormOrder, QrMode};
use gpuarray::Array;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

fn arr<'a>(a: &'a Bound<'_, PyArr>) -> &'a Array {
    a.get().array()
}

/// One-operand functions returning one array.
#[pyfunction]
fn la_unary(py: Python<'_>, op: &str, a: &Bound<'_, PyArr>) -> PyResult<PyArr> {
    let f: fn(&Array) -> gpuarray::Result<Array> = match op {
        "inv" => linalg::inv,
        "det" => linalg::det,
        "svdvals" => linalg::svdvals,
        other => return Err(PyValueError::new_err(format!("unknown linalg op {other}"))),
    };
    let a = arr(a);
    wait(py, || f(a)).map(PyArr::new)
}

#[pyfunction]
fn la_solve(py: Python<'_>, a: &Bound<'_, PyArr>, b: &Bound<'_, PyArr>) -> PyResult<PyArr> {
    let (a, b) = (arr(a), arr(b));
    wait(py, || linalg::solve(a, b)).map(PyArr::new)
}

#[pyfunction]
fn la_cholesky(py: Python<'_>, a: &Bound<'_, PyArr>, upper: bool) -> PyResult<PyArr> {
    let a = arr(a);
    wait(py, || linalg::cholesky(a, upper)).map(PyArr::new)
}

#[pyfunction]
fn la_slogdet(py: Python<'_>, a: &Bound<'_, PyArr>) -> PyResult<(PyArr, PyArr)> {
    let a = arr(a);
    let (s, l) = wait(py, || linalg::slogdet(a))?;
    Ok((PyArr::new(s), PyArr::new(l)))
}

#[pyfunction]
fn la_eigh(py: Python<'_>, a: &Bound<'_, PyArr>, lower: bool) -> PyResult<(PyArr, PyArr)> {
    let a = arr(a);
    let (w, v) = wait(py, || linalg::eigh(a, lower))?;
    Ok((PyArr::new(w), PyArr::new(v)))
}

#[pyfunction]
fn la_eigvalsh(py: Python<'_>, a: &Bound<'_, PyArr>, lower: bool) -> PyResult<PyArr> {
    let a = arr(a);
    wait(py, || linalg::eigvalsh(a, lower)).map(PyArr::new)
}

#[pyfunction]
fn la_svd(py: Python<'_>, a: &Bound<'_, PyArr>, full: bool) -> PyResult<(PyArr, PyArr, PyArr)> {
    let a = arr(a);
    let (u, s, vh) = wait(py, || linalg::svd(a, full))?;
    Ok((PyArr::new(u), PyArr::new(s), PyArr::new(vh)))
}

#[pyfunction]
fn la_qr(py: Python<'_>, a: &Bound<'_, PyArr>, mode: &str) -> PyResult<(Option<PyArr>, PyArr)> {
    let mode = match mode {
        "reduced" => QrMode::Reduced,
        "complete" => QrMode::Complete,
        "r" => QrMode::R,
        other => {
            return Err(PyValueError::new_err(format!(
                "Unrecognized mode '{other}'"
            )))
        }
    };
    let a = arr(a);
    let (q, r) = wait(py, || linalg::qr(a, mode))?;
    Ok((q.map(PyArr::new), PyArr::new(r)))
}

/// NumPy's `ord` as (kind, p): kind "none", "fro", "nuc", "inf", "-inf" or "p".
fn order(kind: &str, p: f64) -> PyResult<NormOrder> {
    Ok(match kind {
        "none" => NormOrder::Default,
        "fro" => NormOrder::Fro,
        "nuc" => NormOrder::Nuc,
        "inf" => NormOrder::Inf,
        "-inf" => NormOrder::NegInf,
        "p" => NormOrder::P(p),
        other => {
            return Err(PyValueError::new_err(format!(
                "Invalid norm order '{other}'"
            )))
        }
    })
}

#[pyfunction]
#[pyo3(signature = (x, kind, p, axis, keepdims))]
fn la_norm(
    py: Python<'_>,
    x: &Bound<'_, PyArr>,
    kind: &str,
    p: f64,
    axis: Option<Vec<isize>>,
    keepdims: bool,
) -> PyResult<PyArr> {
    let ord = order(kind, p)?;
    let x = arr(x);
    wait(py, || linalg::norm(x, ord, axis.as_deref(), keepdims)).map(PyArr::new)
}

#[pyfunction]
fn la_cond(py: Python<'_>, x: &Bound<'_, PyArr>, kind: &str, p: f64) -> PyResult<PyArr> {
    let ord = order(kind, p)?;
    let x = arr(x);
    wait(py, || linalg::cond(x, ord)).map(PyArr::new)
}

#[pyfunction]
fn la_matrix_power(py: Python<'_>, a: &Bound<'_, PyArr>, k: i64) -> PyResult<PyArr> {
    let a = arr(a);
    wait(py, || linalg::matrix_power(a, k)).map(PyArr::new)
}

#[pyfunction]
fn la_pinv(py: Python<'_>, a: &Bound<'_, PyArr>, rcond: f64) -> PyResult<PyArr> {
    let a = arr(a);
    wait(py, || linalg::pinv(a, rcond)).map(PyArr::new)
}

#[pyfunction]
#[pyo3(signature = (a, tol, rtol))]
fn la_matrix_rank(
    py: Python<'_>,
    a: &Bound<'_, PyArr>,
    tol: Option<f64>,
    rtol: Option<f64>,
) -> PyResult<PyArr> {
    let a = arr(a);
    wait(py, || linalg::matrix_rank(a, tol, rtol)).map(PyArr::new)
}

#[pyfunction]
#[pyo3(signature = (a, b, rcond))]
fn la_lstsq(
    py: Python<'_>,
    a: &Bound<'_, PyArr>,
    b: &Bound<'_, PyArr>,
    rcond: Option<f64>,
) -> PyResult<(PyArr, PyArr, usize, PyArr)> {
    let (a, b) = (arr(a), arr(b));
    let fit = wait(py, || linalg::lstsq(a, b, rcond))?;
    Ok((
        PyArr::new(fit.x),
        PyArr::new(fit.residuals),
        fit.rank,
        PyArr::new(fit.s),
    ))
}

#[pyfunction]
fn la_multi_dot(py: Python<'_>, arrays: Vec<Bound<'_, PyArr>>) -> PyResult<PyArr> {
    let list: Vec<&Array> = arrays.iter().map(|a| a.get().array()).collect();
    wait(py, || linalg::multi_dot(&list)).map(PyArr::new)
}

#[pyfunction]
fn la_cross(
    py: Python<'_>,
    a: &Bound<'_, PyArr>,
    b: &Bound<'_, PyArr>,
    axis: isize,
) -> PyResult<PyArr> {
    let (a, b) = (arr(a), arr(b));
    wait(py, || linalg::cross(a, b, axis)).map(PyArr::new)
}

#[pyfunction]
fn la_tensorsolve(py: Python<'_>, a: &Bound<'_, PyArr>, b: &Bound<'_, PyArr>) -> PyResult<PyArr> {
    let (a, b) = (arr(a), arr(b));
    wait(py, || linalg::tensorsolve(a, b)).map(PyArr::new)
}

#[pyfunction]
fn la_tensorinv(py: Python<'_>, a: &Bound<'_, PyArr>, ind: usize) -> PyResult<PyArr> {
    let a = arr(a);
    wait(py, || linalg::tensorinv(a, ind)).map(PyArr::new)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(la_unary, m)?)?;
    m.add_function(wrap_pyfunction!(la_solve, m)?)?;
    m.add_function(wrap_pyfunction!(la_cholesky, m)?)?;
    m.add_function(wrap_pyfunction!(la_slogdet, m)?)?;
    m.add_function(wrap_pyfunction!(la_eigh, m)?)?;
    m.add_function(wrap_pyfunction!(la_eigvalsh, m)?)?;
    m.add_function(wrap_pyfunction!(la_svd, m)?)?;
    m.add_function(wrap_pyfunction!(la_qr, m)?)?;
    m.add_function(wrap_pyfunction!(la_norm, m)?)?;
    m.add_function(wrap_pyfunction!(la_cond, m)?)?;
    m.add_function(wrap_pyfunction!(la_matrix_power, m)?)?;
    m.add_function(wrap_pyfunction!(la_pinv, m)?)?;
    m.add_function(wrap_pyfunction!(la_matrix_rank, m)?)?;
    m.add_function(wrap_pyfunction!(la_lstsq, m)?)?;
    m.add_function(wrap_pyfunction!(la_multi_dot, m)?)?;
    m.add_function(wrap_pyfunction!(la_cross, m)?)?;
    m.add_function(wrap_pyfunction!(la_tensorsolve, m)?)?;
    m.add_function(wrap_pyfunction!(la_tensorinv, m)?)?;
    Ok(())
}
