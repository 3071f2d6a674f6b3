//! Reductions over any set of axes (`sum`, `prod`, `mean`, `var`, `std`, `max`, `min`, `argmax`,
//! `argmin`, `any`, `all`), scans (`cumsum`, `cumprod`) and the stable compositions `logsumexp`
//! and `softmax`.
//!
//! Result dtypes: sums and products keep the dtype (integers wrap, like NumPy with
//! `dtype=np.int32`; NumPy's default would widen to int64, which WGSL lacks); the sum and product
//! of a bool array count as i32; `mean`/`var`/`std` of integers and bools are f64 (f32 without
//! f64 support); f16 accumulates in f32; `argmax`/`argmin` give i32 indices; `any`/`all` give bool.
//! Empty reductions behave like NumPy: sum → 0, prod → 1, any → false, all → true, mean → NaN,
//! max/min/argmax/argmin → `Err`.

use super::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::{checked_numel, dims_product, normalize_axis, resolve_axes, Axes};
use crate::ops::elementwise::{binary, unary, unsupported, where_, BinaryOp, Operand, UnaryOp};
use crate::ops::reduce::{reduce, ReduceOp};
use crate::ops::scan::scan;

/// The shape of a reduction's result.
fn reduced_shape(shape: &[usize], axes: &[usize], keepdims: bool) -> Vec<usize> {
    shape
        .iter()
        .enumerate()
        .filter_map(|(d, &n)| {
            if axes.contains(&d) {
                keepdims.then_some(1)
            } else {
                Some(n)
            }
        })
        .collect()
}

impl Array {
    fn float_work_dtype(&self) -> DType {
        if self.dtype.is_float() {
            self.dtype
        } else if self.device.supports(DType::F64) {
            DType::F64
        } else {
            DType::F32
        }
    }

    /// The value reduction behind `sum`, `prod`, `max`, `min`, `any`, `all`.
    fn reduce_values(
        &self,
        op: &'static str,
        rop: ReduceOp,
        axes: Axes,
        keepdims: bool,
    ) -> Result<Array> {
        self.reduce_values_as(op, rop, axes, keepdims, false)
    }

    /// `reduce_values`, with `f16_sum_in_f32`: an f16 sum is returned in its f32 accumulator
    /// (what `mean` divides).
    fn reduce_values_as(
        &self,
        op: &'static str,
        rop: ReduceOp,
        axes: Axes,
        keepdims: bool,
        f16_sum_in_f32: bool,
    ) -> Result<Array> {
        self.device.inner.check_alive(op)?;
        let axes = resolve_axes(op, &axes, self.ndim())?;
        let shape = reduced_shape(self.shape(), &axes, keepdims);
        let (x, out_dtype) = match (rop, self.dtype) {
            (ReduceOp::Any | ReduceOp::All, _) => (self.clone(), DType::Bool),
            // The f16 sum behind `mean` stays in its f32 accumulator (NumPy's f16 mean uses f32
            // intermediates): a sum past 65504 must not become inf before the division.
            (ReduceOp::Sum, DType::F16) if f16_sum_in_f32 => (self.clone(), DType::F32),
            // Bool sums and products count (NumPy gives integers); max/min stay bool-valued. All
            // are computed on the u32 words, which hold 0 or 1.
            (_, DType::Bool) => (self.reinterpret(DType::U32), DType::U32),
            (_, d) => (self.clone(), d),
        };
        let relabel = |a: Array| -> Array {
            match (rop, self.dtype) {
                (ReduceOp::Sum | ReduceOp::Prod, DType::Bool) => a.reinterpret(DType::I32),
                (ReduceOp::Max | ReduceOp::Min, DType::Bool) => a.reinterpret(DType::Bool),
                _ => a,
            }
        };
        // The result of an empty array's reduction can still be too big ([2^40, 2^40, 0] summed
        // over its last axis): check it, naming this reduction.
        let m = checked_numel(op, &shape)?;
        let k = dims_product(axes.iter().map(|&d| &self.shape()[d]));
        if m == 0 {
            return Ok(relabel(Array::empty(op, &self.device, &shape, out_dtype)?));
        }
        if k == 0 {
            let identity = match rop {
                ReduceOp::Sum | ReduceOp::Any => 0.0,
                ReduceOp::Prod | ReduceOp::All => 1.0,
                _ => {
                    return Err(Error::invalid(
                        op,
                        format!(
                            "zero-size array (shape {:?}) to reduction operation {op} which has no identity",
                            self.shape()
                        ),
                    ))
                }
            };
            return Ok(relabel(Array::full_op(
                op,
                &self.device,
                &shape,
                identity,
                out_dtype,
            )?));
        }
        let r = reduce(op, rop, &x, &axes, out_dtype)?;
        Ok(relabel(r.values.reshape(&to_isize(&shape))?))
    }

    /// `numpy.sum` over `axes` (`Axes::All` for every axis), keeping reduced axes as length 1 when
    /// `keepdims`. f32 sums are two-level trees (error grows like log n); f16 sums in f32.
    ///
    /// ```no_run
    /// use gpuarray::{Array, Axes};
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = Array::from_slice(&dev, &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
    /// assert_eq!(a.sum(1, false)?.to_vec::<f32>()?, vec![6.0, 15.0]);
    /// assert_eq!(a.sum(Axes::All, false)?.item::<f32>()?, 21.0);
    /// assert_eq!(a.sum(0, true)?.shape(), &[1, 3]);
    /// # Ok(()) }
    /// ```
    pub fn sum(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array> {
        self.reduce_values("sum", ReduceOp::Sum, axes.into(), keepdims)
    }

    /// `numpy.prod` over `axes` (integers wrap).
    ///
    /// ```no_run
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1i32, 2, 3, 4], &[2, 2])?;
    /// assert_eq!(a.prod(0, false)?.to_vec::<i32>()?, vec![3, 8]);
    /// # Ok(()) }
    /// ```
    pub fn prod(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array> {
        self.reduce_values("prod", ReduceOp::Prod, axes.into(), keepdims)
    }

    /// `numpy.max` (`amax`) over `axes`: NaN propagates; `Err` for an empty reduction.
    ///
    /// ```no_run
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, f32::NAN, 3.0, 4.0], &[2, 2])?;
    /// let m = a.max(1, false)?.to_vec::<f32>()?;
    /// assert!(m[0].is_nan() && m[1] == 4.0);
    /// # Ok(()) }
    /// ```
    pub fn max(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array> {
        self.reduce_values("max", ReduceOp::Max, axes.into(), keepdims)
    }

    /// `numpy.min` (`amin`) over `axes`: NaN propagates; `Err` for an empty reduction.
    ///
    /// ```no_run
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[5i32, -2, 7], &[3])?;
    /// assert_eq!(a.min(gpuarray::Axes::All, false)?.item::<i32>()?, -2);
    /// # Ok(()) }
    /// ```
    pub fn min(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array> {
        self.reduce_values("min", ReduceOp::Min, axes.into(), keepdims)
    }

    /// `numpy.any` over `axes`: a bool array (NaN counts as true).
    ///
    /// ```no_run
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[0.0f32, 0.0, 0.0, 2.0], &[2, 2])?;
    /// assert_eq!(a.any(1, false)?.to_vec_bool()?, vec![false, true]);
    /// # Ok(()) }
    /// ```
    pub fn any(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array> {
        self.reduce_values("any", ReduceOp::Any, axes.into(), keepdims)
    }

    /// `numpy.all` over `axes`: a bool array.
    ///
    /// ```no_run
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1i32, 2, 0, 4], &[2, 2])?;
    /// assert_eq!(a.all(1, false)?.to_vec_bool()?, vec![true, false]);
    /// # Ok(()) }
    /// ```
    pub fn all(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array> {
        self.reduce_values("all", ReduceOp::All, axes.into(), keepdims)
    }

    /// `numpy.mean` over `axes` (integers give f64; f16 sums in f32 before the division; an empty
    /// reduction gives NaN).
    ///
    /// ```no_run
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0, 6.0], &[2, 2])?;
    /// assert_eq!(a.mean(0, false)?.to_vec::<f32>()?, vec![2.0, 4.0]);
    /// # Ok(()) }
    /// ```
    pub fn mean(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array> {
        let op = "mean";
        let axes = axes.into();
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
    /// ```no_run
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0, 4.0], &[4])?;
    /// assert_eq!(a.var(gpuarray::Axes::All, 0, false)?.item::<f32>()?, 1.25);
    /// # Ok(()) }
    /// ```
    pub fn var(&self, axes: impl Into<Axes>, ddof: usize, keepdims: bool) -> Result<Array> {
        let op = "var";
        let axes = axes.into();
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
    /// ```no_run
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

    fn arg_reduce(
        &self,
        op: &'static str,
        rop: ReduceOp,
        axis: Option<isize>,
        keepdims: bool,
    ) -> Result<Array> {
        self.device.inner.check_alive(op)?;
        let (x, axes, shape) = match axis {
            None => {
                let shape = if keepdims {
                    vec![1; self.ndim()]
                } else {
                    vec![]
                };
                (self.reshape(&[-1])?, vec![0usize], shape)
            }
            Some(a) => {
                let a = normalize_axis(op, a, self.ndim())?;
                (
                    self.clone(),
                    vec![a],
                    reduced_shape(self.shape(), &[a], keepdims),
                )
            }
        };
        let x = if x.dtype == DType::Bool {
            x.reinterpret(DType::U32)
        } else {
            x
        };
        let k = x.shape()[axes[0]];
        if k == 0 {
            return Err(Error::invalid(
                op,
                format!(
                    "attempt to get {op} of an empty sequence (shape {:?})",
                    self.shape()
                ),
            ));
        }
        if k > i32::MAX as usize {
            return Err(Error::overflow(
                op,
                format!("{k} elements along the axis do not fit i32 indices"),
            ));
        }
        if shape.iter().product::<usize>() == 0 {
            return Array::empty(op, &self.device, &shape, DType::I32);
        }
        let r = reduce(op, rop, &x, &axes, DType::U32)?;
        let idx = r.indices.expect("arg reductions give indices");
        idx.reinterpret(DType::I32).reshape(&to_isize(&shape))
    }

    /// `numpy.argmax`: i32 indices of the maxima along `axis` (`None`: of the flattened array).
    /// The first NaN wins; ties go to the first index. `Err` for an empty axis.
    ///
    /// ```no_run
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 9.0, 9.0, 2.0], &[2, 2])?;
    /// assert_eq!(a.argmax(Some(1), false)?.to_vec::<i32>()?, vec![1, 0]);
    /// assert_eq!(a.argmax(None, false)?.item::<i32>()?, 1);
    /// # Ok(()) }
    /// ```
    pub fn argmax(&self, axis: Option<isize>, keepdims: bool) -> Result<Array> {
        self.arg_reduce("argmax", ReduceOp::ArgMax, axis, keepdims)
    }

    /// `numpy.argmin`: like [`Array::argmax`] for the minima.
    ///
    /// ```no_run
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[3i32, 1, 1, 2], &[4])?;
    /// assert_eq!(a.argmin(None, false)?.item::<i32>()?, 1);
    /// # Ok(()) }
    /// ```
    pub fn argmin(&self, axis: Option<isize>, keepdims: bool) -> Result<Array> {
        self.arg_reduce("argmin", ReduceOp::ArgMin, axis, keepdims)
    }

    fn scan_op(&self, op: &'static str, code: u32, axis: Option<isize>) -> Result<Array> {
        self.device.inner.check_alive(op)?;
        let x = match self.dtype {
            DType::Bool => self.astype(DType::I32)?,
            _ => self.clone(),
        };
        match axis {
            None => {
                let flat = x.reshape(&[-1])?;
                scan(op, code, &flat, 0)
            }
            Some(a) => {
                let a = normalize_axis(op, a, self.ndim())?;
                scan(op, code, &x, a)
            }
        }
    }

    /// `numpy.cumsum` along `axis` (`None`: of the flattened array). Integers wrap; bool counts
    /// as i32; f16 accumulates in f32.
    ///
    /// ```no_run
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1i32, 2, 3, 4, 5, 6], &[2, 3])?;
    /// assert_eq!(a.cumsum(Some(1))?.to_vec::<i32>()?, vec![1, 3, 6, 4, 9, 15]);
    /// assert_eq!(a.cumsum(Some(0))?.to_vec::<i32>()?, vec![1, 2, 3, 5, 7, 9]);
    /// # Ok(()) }
    /// ```
    pub fn cumsum(&self, axis: Option<isize>) -> Result<Array> {
        self.scan_op("cumsum", 0, axis)
    }

    /// `numpy.cumprod` along `axis` (`None`: of the flattened array).
    ///
    /// ```no_run
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;
    /// assert_eq!(a.cumprod(None)?.to_vec::<f32>()?, vec![1.0, 2.0, 6.0]);
    /// # Ok(()) }
    /// ```
    pub fn cumprod(&self, axis: Option<isize>) -> Result<Array> {
        self.scan_op("cumprod", 1, axis)
    }

    /// `log(sum(exp(x)))` over `axes`, computed stably as `m + log(sum(exp(x - m)))` with `m`
    /// the maximum (SciPy's `logsumexp`: a non-finite maximum is replaced by 0). Floats only.
    ///
    /// ```no_run
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
    /// ```no_run
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

fn to_isize(shape: &[usize]) -> Vec<isize> {
    shape.iter().map(|&n| n as isize).collect()
}
