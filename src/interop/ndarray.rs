//! `ndarray` interop (feature `ndarray`): upload any `ndarray` array or view, whatever its
//! strides, and read an array back as an `ndarray::ArrayD`.

use crate::array::Array;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use ndarray::{ArrayBase, ArrayD, Data, Dimension, IxDyn};

mod sealed {
    pub trait Sealed {}
}

/// A host type that `ndarray` arrays of gpuarray's dtypes hold: `f32`, `f64`, `half::f16`,
/// `i32`, `u32`, `i64`, `u64`, `i8`, `u8`, `i16`, `u16` (the [`Element`](crate::Element) types)
/// and `bool` ([`DType::Bool`]).
/// Sealed: only these types implement it.
///
/// ```
/// use gpuarray::{DType, HostElement};
/// assert_eq!(<bool as HostElement>::DTYPE, DType::Bool);
/// assert_eq!(<f32 as HostElement>::DTYPE, DType::F32);
/// ```
pub trait HostElement: Copy + Send + Sync + 'static + sealed::Sealed {
    /// The dtype of arrays holding this type.
    const DTYPE: DType;
    #[doc(hidden)]
    fn upload(device: &Device, data: &[Self], shape: &[usize]) -> Result<Array>;
    #[doc(hidden)]
    #[cfg(not(target_arch = "wasm32"))]
    fn download(a: &Array) -> Result<Vec<Self>>;
}

macro_rules! element {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl HostElement for $t {
            const DTYPE: DType = <$t as crate::dtype::Element>::DTYPE;
            fn upload(device: &Device, data: &[Self], shape: &[usize]) -> Result<Array> {
                Array::from_slice(device, data, shape)
            }
            #[cfg(not(target_arch = "wasm32"))]
            fn download(a: &Array) -> Result<Vec<Self>> {
                a.to_vec::<$t>()
            }
        }
    )*};
}
element!(
    f32,
    f64,
    half::f16,
    i32,
    u32,
    i64,
    u64,
    i8,
    u8,
    i16,
    u16,
    num_complex::Complex<f32>,
    num_complex::Complex<f64>
);

impl sealed::Sealed for bool {}
impl HostElement for bool {
    const DTYPE: DType = DType::Bool;
    fn upload(device: &Device, data: &[Self], shape: &[usize]) -> Result<Array> {
        Array::from_bools(device, data, shape)
    }
    #[cfg(not(target_arch = "wasm32"))]
    fn download(a: &Array) -> Result<Vec<Self>> {
        a.to_vec_bool()
    }
}

impl Array {
    /// Uploads an `ndarray` array or view of any layout — transposed, sliced with negative
    /// steps, 0-d, empty — as a contiguous array of the same shape and values (feature
    /// `ndarray`). A non-standard layout is put in row-major order on the host first.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// use ndarray::{array, s};
    /// let dev = gpuarray::Device::new()?;
    /// let host = array![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
    /// let view = host.slice(s![.., ..;-1]).reversed_axes();       // strides (-1, 3)
    /// let a = gpuarray::Array::from_ndarray(&dev, &view)?;
    /// assert_eq!(a.shape(), &[3, 2]);
    /// assert_eq!(a.to_vec::<f32>()?, vec![3.0, 6.0, 2.0, 5.0, 1.0, 4.0]);
    /// # Ok(()) }
    /// ```
    pub fn from_ndarray<T, S, D>(device: &Device, array: &ArrayBase<S, D>) -> Result<Array>
    where
        T: HostElement,
        S: Data<Elem = T>,
        D: Dimension,
    {
        let standard = array.as_standard_layout();
        let data = standard.as_slice().ok_or_else(|| {
            Error::invalid(
                "from_ndarray",
                format!(
                    "the array of shape {:?} has no row-major slice",
                    array.shape()
                ),
            )
        })?;
        T::upload(device, data, array.shape())
    }

    /// Reads the array back as an `ndarray::ArrayD<T>` of the same shape (feature `ndarray`).
    /// `Err(DTypeMismatch)` naming both dtypes unless `T` is the array's dtype (`bool` for
    /// [`DType::Bool`]).
    ///
    /// Native only (it blocks).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::arange(&dev, 0.0, 6.0, 1.0, gpuarray::DType::I32)?.reshape(&[2, 3])?;
    /// let h = a.t().to_ndarray::<i32>()?;
    /// assert_eq!(h, ndarray::array![[0, 3], [1, 4], [2, 5]].into_dyn());
    /// assert!(matches!(a.to_ndarray::<f32>(), Err(gpuarray::Error::DTypeMismatch { .. })));
    /// # Ok(()) }
    /// ```
    #[cfg(not(target_arch = "wasm32"))]
    pub fn to_ndarray<T: HostElement>(&self) -> Result<ArrayD<T>> {
        if T::DTYPE != self.dtype() {
            return Err(Error::DTypeMismatch {
                op: "to_ndarray",
                expected: self.dtype(),
                got: T::DTYPE,
            });
        }
        let data = T::download(self)?;
        ArrayD::from_shape_vec(IxDyn(self.shape()), data)
            .map_err(|e| Error::shape("to_ndarray", format!("shape {:?}: {e}", self.shape())))
    }
}
