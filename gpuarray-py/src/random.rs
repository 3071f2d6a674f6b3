//! `_Generator`: the crate's Philox4x32-10 [`Generator`] (cuRAND's stream layout) for the
//! Python `gpuarray.random` module, which adds NumPy's `Generator` signatures on top.

use std::sync::Mutex;

use gpuarray::random::Generator;
use gpuarray::Array;
use pyo3::prelude::*;

use crate::array::{parse_dtype, PyArr};
use crate::device::{device, wait};

/// A Philox stream at (seed, subsequence, offset). The mutex serialises draws from several
/// Python threads: each draw advances the stream by the words it consumed.
#[pyclass(frozen, name = "_Generator", module = "gpuarray._gpuarray")]
struct PyGenerator {
    g: Mutex<Generator>,
}

impl PyGenerator {
    /// Runs one draw with the GIL released.
    fn draw(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut Generator) -> gpuarray::Result<Array> + Send,
    ) -> PyResult<PyArr> {
        wait(py, || {
            f(&mut self.g.lock().unwrap_or_else(|p| p.into_inner()))
        })
        .map(PyArr::new)
    }

    fn position(&self) -> (u64, u64, u64) {
        let g = self.g.lock().unwrap_or_else(|p| p.into_inner());
        (g.seed(), g.subsequence(), g.offset())
    }
}

#[pymethods]
impl PyGenerator {
    /// The stream `curand_init(seed, subsequence, offset)` describes (`offset` in 32-bit words).
    #[new]
    fn new(py: Python<'_>, seed: u64, subsequence: u64, offset: u64) -> PyResult<Self> {
        let dev = device(py)?;
        Ok(PyGenerator {
            g: Mutex::new(Generator::with_stream(&dev, seed, subsequence, offset)),
        })
    }

    /// `(seed, subsequence, offset)`: where the next draw starts.
    #[getter]
    fn state(&self) -> (u64, u64, u64) {
        self.position()
    }

    fn random(&self, py: Python<'_>, shape: Vec<usize>, dtype: &str) -> PyResult<PyArr> {
        let dt = parse_dtype(dtype)?;
        self.draw(py, |g| g.random(&shape, dt))
    }

    fn uniform(
        &self,
        py: Python<'_>,
        low: f64,
        high: f64,
        shape: Vec<usize>,
        dtype: &str,
    ) -> PyResult<PyArr> {
        let dt = parse_dtype(dtype)?;
        self.draw(py, |g| g.uniform(low, high, &shape, dt))
    }

    fn normal(
        &self,
        py: Python<'_>,
        mean: f64,
        std: f64,
        shape: Vec<usize>,
        dtype: &str,
    ) -> PyResult<PyArr> {
        let dt = parse_dtype(dtype)?;
        self.draw(py, |g| g.normal(mean, std, &shape, dt))
    }

    fn exponential(
        &self,
        py: Python<'_>,
        scale: f64,
        shape: Vec<usize>,
        dtype: &str,
    ) -> PyResult<PyArr> {
        let dt = parse_dtype(dtype)?;
        self.draw(py, |g| g.exponential(scale, &shape, dt))
    }

    /// Integers in `[low, high)` of any integer dtype, exact and unbiased (`high` up to 2^64
    /// for uint64).
    fn integers(
        &self,
        py: Python<'_>,
        low: i128,
        high: i128,
        shape: Vec<usize>,
        dtype: &str,
    ) -> PyResult<PyArr> {
        let dt = parse_dtype(dtype)?;
        self.draw(py, |g| g.integers_i128(low, high, &shape, dt))
    }

    /// The raw u32 words of the stream (what `curand()` returns after `curand_init`).
    fn bits(&self, py: Python<'_>, shape: Vec<usize>) -> PyResult<PyArr> {
        self.draw(py, |g| g.bits(&shape))
    }

    /// A permutation of `0..n` (int64, NumPy's intp).
    fn permutation(&self, py: Python<'_>, n: usize) -> PyResult<PyArr> {
        self.draw(py, |g| g.permutation(n))
    }

    /// `a` with its slices along `axis` permuted (a new array).
    fn permutation_of(&self, py: Python<'_>, a: &Bound<'_, PyArr>, axis: isize) -> PyResult<PyArr> {
        let a = a.get().array();
        self.draw(py, |g| g.permutation_of(a, axis))
    }

    /// Samples of `a`'s first axis: `shape` draws, with or without replacement, weights `p`.
    #[pyo3(signature = (a, shape, replace, p=None))]
    fn choice(
        &self,
        py: Python<'_>,
        a: &Bound<'_, PyArr>,
        shape: Vec<usize>,
        replace: bool,
        p: Option<Vec<f64>>,
    ) -> PyResult<PyArr> {
        let a = a.get().array();
        self.draw(py, |g| g.choice(a, &shape, replace, p.as_deref()))
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGenerator>()?;
    Ok(())
}
