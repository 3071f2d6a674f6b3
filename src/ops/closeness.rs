//! Comparisons of whole arrays: `isclose` (element-wise), `allclose`, `array_equal` and
//! `array_equiv`, with NumPy's rules (`numpy/_core/numeric.py`): `|a - b| <= atol + rtol |b|` in
//! floating point (integers compared as f64, or f32 without f64), infinities close only to
//! themselves, NaN close to NaN only with `equal_nan`.

use crate::array::Array;
use crate::dtype::DType;
use crate::error::Result;
use crate::layout::Axes;
use crate::layout::broadcast_shapes;

impl Array {
    /// The dtype both operands are compared in: the float dtype NumPy's `result_type(a, b, 1.0)`
    /// would give, within what the device supports.
    pub(crate) fn closeness_dtype(&self, other: &Array) -> DType {
        if self.dtype.is_complex() || other.dtype.is_complex() {
            if self.dtype == other.dtype {
                return self.dtype;
            }
            let wide = self.dtype.real() == DType::F64 || other.dtype.real() == DType::F64;
            return if wide && self.device.supports(DType::C128) {
                DType::C128
            } else {
                DType::C64
            };
        }
        let float = |d: DType| d.is_float();
        if float(self.dtype) && self.dtype == other.dtype {
            return self.dtype;
        }
        let wide = self.dtype == DType::F64
            || other.dtype == DType::F64
            || !(float(self.dtype) && float(other.dtype));
        if wide && self.device.supports(DType::F64) {
            DType::F64
        } else {
            DType::F32
        }
    }

    /// `numpy.isclose(a, b, rtol, atol, equal_nan)`: element-wise `|a - b| <= atol + rtol |b|`
    /// (not symmetric, as NumPy's), broadcast, as a bool array. Infinities are close only to an
    /// equal infinity; NaN to NaN only when `equal_nan`.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 1e10, f32::NAN, f32::INFINITY], &[4])?;
    /// let b = gpuarray::Array::from_slice(&dev, &[1.000001f32, 1.0001e10, f32::NAN, f32::INFINITY], &[4])?;
    /// assert_eq!(a.isclose(&b, 1e-5, 1e-8, false)?.to_vec_bool()?, vec![true, false, false, true]);
    /// assert_eq!(a.isclose(&b, 1e-5, 1e-8, true)?.to_vec_bool()?, vec![true, false, true, true]);
    /// # Ok(()) }
    /// ```
    pub fn isclose(&self, other: &Array, rtol: f64, atol: f64, equal_nan: bool) -> Result<Array> {
        let op = "isclose";
        self.same_device(op, other)?;
        broadcast_shapes(op, &[self.shape(), other.shape()])?;
        let dtype = self.closeness_dtype(other);
        let x = self.astype(dtype)?;
        let y = other.astype(dtype)?;
        let within = x
            .sub(&y)?
            .abs()?
            .le(&y.abs()?.mul(rtol)?.add(atol)?)?
            .logical_and(&y.isfinite()?)?;
        let close = within.logical_or(&x.eq(&y)?)?;
        if equal_nan {
            close.logical_or(&x.isnan()?.logical_and(&y.isnan()?)?)
        } else {
            Ok(close)
        }
    }

    /// `numpy.allclose`: whether every element pair is [`Array::isclose`], as a 0-d bool array on
    /// the device (read it with `to_vec_bool` or `item`-style calls; nothing waits until then).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0], &[2])?;
    /// let b = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0000001], &[2])?;
    /// assert_eq!(a.allclose(&b, 1e-5, 1e-8, false)?.to_vec_bool()?, vec![true]);
    /// # Ok(()) }
    /// ```
    pub fn allclose(&self, other: &Array, rtol: f64, atol: f64, equal_nan: bool) -> Result<Array> {
        self.isclose(other, rtol, atol, equal_nan)?
            .all(Axes::All, false)
    }

    /// `numpy.array_equal(a, b, equal_nan)`: same shape and every element equal (NaN equal to NaN
    /// only with `equal_nan`), as a 0-d bool array; different shapes give `false`, not an error.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1i32, 2], &[2])?;
    /// let b = gpuarray::Array::from_slice(&dev, &[1i32, 2], &[1, 2])?;
    /// assert_eq!(a.array_equal(&a, false)?.to_vec_bool()?, vec![true]);
    /// assert_eq!(a.array_equal(&b, false)?.to_vec_bool()?, vec![false]);
    /// # Ok(()) }
    /// ```
    pub fn array_equal(&self, other: &Array, equal_nan: bool) -> Result<Array> {
        let op = "array_equal";
        self.same_device(op, other)?;
        if self.shape() != other.shape() {
            return Array::from_bools(&self.device, &[false], &[]);
        }
        self.all_equal(other, equal_nan)
    }

    /// `numpy.array_equiv`: broadcastable to one shape and every element equal there, as a 0-d
    /// bool array; shapes that do not broadcast give `false`.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1i32, 2, 1, 2], &[2, 2])?;
    /// let b = gpuarray::Array::from_slice(&dev, &[1i32, 2], &[2])?;
    /// assert_eq!(a.array_equiv(&b)?.to_vec_bool()?, vec![true]);
    /// # Ok(()) }
    /// ```
    pub fn array_equiv(&self, other: &Array) -> Result<Array> {
        self.same_device("array_equiv", other)?;
        if broadcast_shapes("array_equiv", &[self.shape(), other.shape()]).is_err() {
            return Array::from_bools(&self.device, &[false], &[]);
        }
        self.all_equal(other, false)
    }

    fn all_equal(&self, other: &Array, equal_nan: bool) -> Result<Array> {
        let dtype = if self.dtype == other.dtype {
            self.dtype
        } else {
            self.closeness_dtype(other)
        };
        let (x, y) = (self.astype(dtype)?, other.astype(dtype)?);
        let mut eq = x.eq(&y)?;
        if equal_nan && dtype.is_float() {
            eq = eq.logical_or(&x.isnan()?.logical_and(&y.isnan()?)?)?;
        }
        eq.all(Axes::All, false)
    }
}
