//! `_Array`: one [`gpuarray::Array`] (a layout over shared device storage) as a Python object,
//! with its views, casts, host transfers and in-place writes. The public `gpuarray.ndarray`
//! (Python) holds one of these.

use std::mem::ManuallyDrop;

use gpuarray::{Array, DType, SliceArg};
use numpy::{PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PySlice, PyTuple};

use crate::device::{device, forked, wait};
use crate::errors::to_py;

/// NumPy's name of a dtype (`numpy.dtype(name)` accepts it).
pub(crate) fn dtype_name(d: DType) -> &'static str {
    d.numpy_name()
}

/// The dtype for a NumPy dtype name; `TypeError` for those the crate does not have.
pub(crate) fn parse_dtype(name: &str) -> PyResult<DType> {
    DType::from_numpy_name(name).ok_or_else(|| {
        PyTypeError::new_err(format!(
            "gpuarray has no dtype {name}: the dtypes are bool, int8/16/32/64, uint8/16/32/64, \
             float16, float32, float64, complex64 and complex128"
        ))
    })
}

/// A device array. Frozen: the Python object never changes which array it holds (in-place
/// writes change the device memory, not the layout), so it is shared between threads freely.
#[pyclass(frozen, name = "_Array", module = "gpuarray._gpuarray")]
pub(crate) struct PyArr {
    /// `ManuallyDrop` so that a forked child can leak arrays inherited from its parent instead
    /// of returning their buffers to a device that does not work there.
    inner: ManuallyDrop<Array>,
}

impl Drop for PyArr {
    fn drop(&mut self) {
        if !forked() {
            // SAFETY: dropped exactly once, here; `inner` is not used afterwards.
            unsafe { ManuallyDrop::drop(&mut self.inner) }
        }
    }
}

impl PyArr {
    pub(crate) fn new(a: Array) -> Self {
        PyArr {
            inner: ManuallyDrop::new(a),
        }
    }

    pub(crate) fn array(&self) -> &Array {
        &self.inner
    }
}

/// Maps a view's error (views are host-side layout math: nothing waits, the GIL stays held).
fn view(py: Python<'_>, r: gpuarray::Result<Array>) -> PyResult<PyArr> {
    r.map(PyArr::new).map_err(|e| to_py(py, e))
}

/// One index of a basic-indexing key: an int, `None` (new axis) or a slice.
fn slice_arg(item: &Bound<'_, PyAny>) -> PyResult<SliceArg> {
    if item.is_none() {
        return Ok(SliceArg::NewAxis);
    }
    if let Ok(s) = item.cast::<PySlice>() {
        let get = |name: &str| -> PyResult<Option<isize>> {
            let v = s.getattr(name)?;
            if v.is_none() {
                Ok(None)
            } else {
                Ok(Some(v.extract::<isize>()?))
            }
        };
        let step = get("step")?.unwrap_or(1);
        if step == 0 {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "slice step cannot be zero",
            ));
        }
        return Ok(SliceArg::range(get("start")?, get("stop")?, step));
    }
    match item.extract::<isize>() {
        Ok(i) => Ok(SliceArg::Index(i)),
        Err(_) => Err(PyIndexError::new_err(format!(
            "only integers, slices (`:`), ellipsis (`...`), None and integer arrays are valid \
             indices, not {}",
            item.get_type().name()?
        ))),
    }
}

/// Uploads a C-contiguous NumPy array of element type `T`.
fn upload<T: gpuarray::Element + numpy::Element>(
    py: Python<'_>,
    arr: &Bound<'_, PyAny>,
) -> PyResult<Array> {
    let a = arr.cast::<numpy::PyArrayDyn<T>>()?;
    let shape = a.shape().to_vec();
    // One host copy under the GIL (the NumPy buffer may not be touched without it), then the
    // upload itself with the GIL released.
    let data: Vec<T> = a.readonly().as_slice()?.to_vec();
    let dev = device(py)?;
    wait(py, move || Array::from_slice(&dev, &data, &shape))
}

/// Reads `a` back into a new NumPy array of element type `T`.
fn download<'py, T: gpuarray::Element + numpy::Element>(
    py: Python<'py>,
    a: &Array,
) -> PyResult<Bound<'py, PyAny>> {
    let a2 = a.clone();
    let v: Vec<T> = wait(py, move || a2.to_vec::<T>())?;
    Ok(PyArray1::from_vec(py, v)
        .reshape(a.shape().to_vec())?
        .into_any())
}

#[pymethods]
impl PyArr {
    /// Uploads a C-contiguous NumPy array of a supported dtype (the Python side converts).
    #[staticmethod]
    fn from_numpy(py: Python<'_>, arr: &Bound<'_, PyAny>) -> PyResult<PyArr> {
        let np = arr.cast::<numpy::PyUntypedArray>()?;
        if !np.is_c_contiguous() {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "from_numpy needs a C-contiguous array",
            ));
        }
        let name: String = np.dtype().getattr("name")?.extract()?;
        let a = match parse_dtype(&name)? {
            DType::F32 => upload::<f32>(py, arr)?,
            DType::F16 => upload::<half::f16>(py, arr)?,
            DType::F64 => upload::<f64>(py, arr)?,
            DType::I32 => upload::<i32>(py, arr)?,
            DType::U32 => upload::<u32>(py, arr)?,
            DType::I64 => upload::<i64>(py, arr)?,
            DType::U64 => upload::<u64>(py, arr)?,
            DType::I8 => upload::<i8>(py, arr)?,
            DType::U8 => upload::<u8>(py, arr)?,
            DType::I16 => upload::<i16>(py, arr)?,
            DType::U16 => upload::<u16>(py, arr)?,
            DType::C64 => upload::<gpuarray::Complex32>(py, arr)?,
            DType::C128 => upload::<gpuarray::Complex64>(py, arr)?,
            DType::Bool => {
                let a = arr.cast::<numpy::PyArrayDyn<bool>>()?;
                let shape = a.shape().to_vec();
                let data: Vec<bool> = a.readonly().as_slice()?.to_vec();
                let dev = device(py)?;
                wait(py, move || Array::from_bools(&dev, &data, &shape))?
            }
        };
        Ok(PyArr::new(a))
    }

    /// Reads the array back into a new NumPy array (GIL released during the wait).
    fn to_numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let a = self.array();
        match a.dtype() {
            DType::F32 => download::<f32>(py, a),
            DType::F16 => download::<half::f16>(py, a),
            DType::F64 => download::<f64>(py, a),
            DType::I32 => download::<i32>(py, a),
            DType::U32 => download::<u32>(py, a),
            DType::I64 => download::<i64>(py, a),
            DType::U64 => download::<u64>(py, a),
            DType::I8 => download::<i8>(py, a),
            DType::U8 => download::<u8>(py, a),
            DType::I16 => download::<i16>(py, a),
            DType::U16 => download::<u16>(py, a),
            DType::C64 => download::<gpuarray::Complex32>(py, a),
            DType::C128 => download::<gpuarray::Complex64>(py, a),
            DType::Bool => {
                let a2 = a.clone();
                let v = wait(py, move || a2.to_vec_bool())?;
                Ok(PyArray1::from_vec(py, v)
                    .reshape(a.shape().to_vec())?
                    .into_any())
            }
        }
    }

    /// The extent of each axis.
    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.array().shape())
    }

    /// Strides in elements (NumPy's `strides` are in bytes; the Python side multiplies).
    #[getter]
    fn strides<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.array().strides())
    }

    /// NumPy's name of the dtype (`numpy.dtype(name)` accepts it).
    #[getter]
    fn dtype(&self) -> &'static str {
        dtype_name(self.array().dtype())
    }

    /// Whether the elements are contiguous in row-major order.
    fn is_contiguous(&self) -> bool {
        self.array().is_contiguous()
    }

    /// Whether the two arrays use the same device storage (views of one array).
    fn may_share_memory(&self, other: &PyArr) -> bool {
        self.array().may_share_memory(other.array())
    }

    /// `Array(shape=…, dtype=…, strides=…, offset=…)`: identifies a view of its storage.
    fn layout(&self) -> String {
        format!("{:?}", self.array())
    }

    /// `numpy.reshape`: a view when the strides allow, else a contiguous copy.
    fn reshape(&self, py: Python<'_>, shape: Vec<isize>) -> PyResult<PyArr> {
        let a = self.array();
        // A view when the strides allow; otherwise the crate copies (a kernel), so wait-safe.
        wait(py, || a.reshape(&shape)).map(PyArr::new)
    }

    /// The axes permuted (a view).
    fn transpose(&self, py: Python<'_>, axes: Vec<usize>) -> PyResult<PyArr> {
        view(py, self.array().transpose(&axes))
    }

    /// Two axes exchanged (a view).
    fn swapaxes(&self, py: Python<'_>, a: isize, b: isize) -> PyResult<PyArr> {
        view(py, self.array().swapaxes(a, b))
    }

    /// Broadcast to `shape` with stride-0 axes (a view).
    fn broadcast_to(&self, py: Python<'_>, shape: Vec<usize>) -> PyResult<PyArr> {
        view(py, self.array().broadcast_to(&shape))
    }

    /// Basic indexing: each item is an int, `None` or a slice (the Python side has expanded
    /// `...` and taken integer arrays out).
    fn slice(&self, py: Python<'_>, key: Vec<Bound<'_, PyAny>>) -> PyResult<PyArr> {
        let args = key.iter().map(slice_arg).collect::<PyResult<Vec<_>>>()?;
        view(py, self.array().slice(&args))
    }

    /// Length-1 axes removed: all of them, or `axes` (a view).
    #[pyo3(signature = (axes=None))]
    fn squeeze(&self, py: Python<'_>, axes: Option<Vec<isize>>) -> PyResult<PyArr> {
        match axes {
            None => Ok(PyArr::new(self.array().squeeze())),
            Some(ax) => view(py, self.array().squeeze_axes(&ax)),
        }
    }

    /// A length-1 axis inserted at `axis` (a view).
    fn expand_dims(&self, py: Python<'_>, axis: isize) -> PyResult<PyArr> {
        view(py, self.array().expand_dims(axis))
    }

    /// `numpy.diagonal` (a view).
    fn diagonal(
        &self,
        py: Python<'_>,
        offset: isize,
        axis1: isize,
        axis2: isize,
    ) -> PyResult<PyArr> {
        view(py, self.array().diagonal(offset, axis1, axis2))
    }

    /// `numpy.tril`: the triangle on and below diagonal `k` of the last two axes.
    fn tril(&self, py: Python<'_>, k: isize) -> PyResult<PyArr> {
        let a = self.array();
        wait(py, || a.tril(k)).map(PyArr::new)
    }

    /// `numpy.triu`: the triangle on and above diagonal `k` of the last two axes.
    fn triu(&self, py: Python<'_>, k: isize) -> PyResult<PyArr> {
        let a = self.array();
        wait(py, || a.triu(k)).map(PyArr::new)
    }

    /// A converted copy on the device (always a new array, even to the same dtype).
    fn astype(&self, py: Python<'_>, dtype: &str) -> PyResult<PyArr> {
        let dt = parse_dtype(dtype)?;
        let a = self.array();
        wait(py, || a.astype(dt)).map(PyArr::new)
    }

    /// `self[...] = src` (`src` broadcasts; same dtype: the Python side casts first).
    fn assign(&self, py: Python<'_>, src: &PyArr) -> PyResult<()> {
        let (a, s) = (self.array(), src.array());
        wait(py, || a.assign(s))
    }

    /// `self[...] = value`.
    fn fill(&self, py: Python<'_>, value: f64) -> PyResult<()> {
        let a = self.array();
        wait(py, || a.fill(value))
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyArr>()?;
    Ok(())
}
