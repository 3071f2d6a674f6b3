//! Statistics built on the reductions and element-wise ops: `mean`, `var`, `std`, and the stable
//! compositions `logsumexp` and `softmax`.

use super::{ReduceOp, reduced_shape, to_isize};
use crate::array::Array;
use crate::dtype::DType;
use crate::error::Result;
use crate::layout::{Axes, dims_product, normalize_axis, resolve_axes};
use crate::ops::elementwise::{BinaryOp, Operand, UnaryOp, binary, unary, unsupported, where_};

impl Array {
    /// `numpy.mean` over `axes` (integers give f64; f16 sums in f32 before the division; an empty
    /// reduction gives NaN).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0, 6.0], &[2, 2])?;
    /// assert_eq!(a.mean(0, false)?.to_vec::<f32>()?, vec![2.0, 4.0]);
    /// # Ok(()) }
    /// ```
    pub fn mean(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array> {
        let op = "mean";
        let axes = axes.into();
        if self.dtype.is_complex() {
            return super::complex::mean(self, axes, keepdims);
        }
        let ax = resolve_axes(op, &axes, self.ndim())?;
        let k = dims_product(ax.iter().map(|&d| &self.shape()[d]));
        let work = self.float_work_dtype();
        let x = if work == self.dtype {
            self.clone()
        } else {
            self.astype(work)?
        };
        if k == 0 {
            let shape = reduced_shape(self.shape(), &ax, keepdims);
            return Array::full_op(op, &self.device, &shape, f64::NAN, work);
        }
        if work == DType::F16 {
            return x
                .reduce_values_as(op, ReduceOp::Sum, axes, keepdims, true)?
                .div(k as f64)?
                .astype(DType::F16);
        }
        x.sum(axes, keepdims)?.div(k as f64)
    }

    /// `numpy.var` over `axes` with `ddof` delta degrees of freedom: the mean of squared
    /// deviations from the mean, computed in two passes (integers in f64, f16 in f32).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0, 4.0], &[4])?;
    /// assert_eq!(a.var(gpuarray::Axes::All, 0, false)?.item::<f32>()?, 1.25);
    /// # Ok(()) }
    /// ```
    pub fn var(&self, axes: impl Into<Axes>, ddof: usize, keepdims: bool) -> Result<Array> {
        let op = "var";
        let axes = axes.into();
        if self.dtype.is_complex() {
            return super::complex::var(self, axes, ddof, keepdims);
        }
        let ax = resolve_axes(op, &axes, self.ndim())?;
        let work = match self.dtype {
            DType::F16 => DType::F32,
            _ => self.float_work_dtype(),
        };
        let x = if work == self.dtype {
            self.clone()
        } else {
            self.astype(work)?
        };
        let k = dims_product(ax.iter().map(|&d| &self.shape()[d]));
        let shape = reduced_shape(self.shape(), &ax, keepdims);
        let out_dtype = if self.dtype == DType::F16 {
            DType::F16
        } else {
            work
        };
        if k == 0 {
            return Array::full_op(op, &self.device, &shape, f64::NAN, out_dtype);
        }
        let mean = x.mean(axes.clone(), true)?;
        let dev2 = binary(BinaryOp::SqDiff, Operand::Array(&x), Operand::Array(&mean))?;
        let ss = dev2.sum(axes, keepdims)?;
        let v = ss.div(k.saturating_sub(ddof) as f64)?;
        if out_dtype != work {
            v.astype(out_dtype)
        } else {
            Ok(v)
        }
    }

    /// `numpy.std`: the square root of [`Array::var`].
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[2.0f32, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0], &[8])?;
    /// assert_eq!(a.std(gpuarray::Axes::All, 0, false)?.item::<f32>()?, 2.0);
    /// # Ok(()) }
    /// ```
    pub fn std(&self, axes: impl Into<Axes>, ddof: usize, keepdims: bool) -> Result<Array> {
        let v = self.var(axes, ddof, keepdims)?;
        if v.dtype == DType::F16 {
            return v.astype(DType::F32)?.sqrt()?.astype(DType::F16);
        }
        v.sqrt()
    }

    /// `log(sum(exp(x)))` over `axes`, computed stably as `m + log(sum(exp(x - m)))` with `m`
    /// the maximum (SciPy's `logsumexp`: a non-finite maximum is replaced by 0). Floats only.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1000.0f32, 1000.0], &[2])?;
    /// let l = a.logsumexp(gpuarray::Axes::All, false)?.item::<f32>()?;
    /// assert!((l - (1000.0 + 2f32.ln())).abs() < 1e-3);
    /// # Ok(()) }
    /// ```
    pub fn logsumexp(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array> {
        let op = "logsumexp";
        if !self.dtype.is_float() {
            return Err(unsupported(op, self.dtype));
        }
        let axes = axes.into();
        let ax = resolve_axes(op, &axes, self.ndim())?;
        if ax.iter().any(|&d| self.shape()[d] == 0) {
            let shape = reduced_shape(self.shape(), &ax, keepdims);
            return Array::full_op(op, &self.device, &shape, f64::NEG_INFINITY, self.dtype);
        }
        let m = self.max(axes.clone(), true)?;
        let m = where_(&unary(UnaryOp::IsFinite, &m)?, &m, 0.0)?;
        let e = binary(BinaryOp::SubExp, Operand::Array(self), Operand::Array(&m))?;
        let s = e.sum(axes, true)?.log()?;
        let r = s.add(&m)?;
        if keepdims {
            Ok(r)
        } else {
            r.reshape(&to_isize(&reduced_shape(self.shape(), &ax, false)))
        }
    }

    /// `softmax` along `axis`: `exp(x - max) / sum(exp(x - max))`, four launches (max, exp of the
    /// difference, sum, divide). Floats only.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 1.0, 1000.0, 1000.0], &[2, 2])?;
    /// assert_eq!(a.softmax(-1)?.to_vec::<f32>()?, vec![0.5; 4]);
    /// # Ok(()) }
    /// ```
    pub fn softmax(&self, axis: isize) -> Result<Array> {
        let op = "softmax";
        if !self.dtype.is_float() {
            return Err(unsupported(op, self.dtype));
        }
        let a = normalize_axis(op, axis, self.ndim())?;
        if self.is_empty() {
            return self.astype(self.dtype);
        }
        let m = self.max(a as isize, true)?;
        let e = binary(BinaryOp::SubExp, Operand::Array(self), Operand::Array(&m))?;
        let s = e.sum(a as isize, true)?;
        e.div(&s)
    }
}
