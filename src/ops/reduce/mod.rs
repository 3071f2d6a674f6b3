//! Reductions over any set of axes (`sum`, `prod`, `max`, `min`, `argmax`, `argmin`, `any`,
//! `all`; the statistics `mean`, `var`, `std`, `logsumexp`, `softmax` are in `stats.rs`, the
//! NaN-aware `nansum`, `nanmax`, `nanargmax`, `nanmean`, ... in `nan.rs`): the
//! `impl Array` methods here, their kernels' launches beside them — `plan.rs` chooses and records
//! the launches (strided kernels), `rows.rs` and `cols.rs` the contiguous-row and column kernels,
//! `row_pieces.rs` cuts rows into binding-sized pieces, `common.rs` holds what the scans share.
//!
//! Result dtypes: sums and products keep the dtype (integers wrap, like NumPy with
//! `dtype=np.int32`; NumPy's default would widen to int64, which WGSL lacks); the sum and product
//! of a bool array count as i32; `mean`/`var`/`std` of integers and bools are f64 (f32 without
//! f64 support); f16 accumulates in f32; `argmax`/`argmin` give i32 indices; `any`/`all` give bool.
//! Empty reductions behave like NumPy: sum → 0, prod → 1, any → false, all → true, mean → NaN,
//! max/min/argmax/argmin → `Err`. The emulated integers (`emulated.rs`) follow NumPy's defaults:
//! sums and products of int8/int16 are int64 and of uint8/uint16 uint64, exact (wrapping there).

mod cols;
pub(crate) mod common;
pub(crate) mod complex;
mod emulated;
pub(crate) mod families;
mod masked;
mod nan;
pub(crate) mod op_codes;
mod plan;
mod row_pieces;
mod rows;
mod stats;

pub(crate) use common::ReduceOp;
pub use masked::Reduction;
use plan::reduce;

use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::{Axes, checked_numel, dims_product, normalize_axis, resolve_axes};

/// The shape of a reduction's result.
pub(super) fn reduced_shape(shape: &[usize], axes: &[usize], keepdims: bool) -> Vec<usize> {
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
        if !self.dtype.is_word() && matches!(rop, ReduceOp::Any | ReduceOp::All) {
            // NumPy's truth of an integer: any/all of `!= 0` (a bool array).
            return self
                .ne(0.0)?
                .reduce_values_as(op, rop, axes, keepdims, f16_sum_in_f32);
        }
        let axes = resolve_axes(op, &axes, self.ndim())?;
        let shape = reduced_shape(self.shape(), &axes, keepdims);
        let (x, out_dtype) = match (rop, self.dtype) {
            (ReduceOp::Sum | ReduceOp::Prod | ReduceOp::Max | ReduceOp::Min, d) if !d.is_word() => {
                (self.clone(), emulated::result_dtype(rop, d))
            }
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
                ReduceOp::Sum | ReduceOp::NanSum | ReduceOp::Any => 0.0,
                ReduceOp::Prod | ReduceOp::NanProd | ReduceOp::All => 1.0,
                _ => {
                    return Err(Error::invalid(
                        op,
                        format!(
                            "zero-size array (shape {:?}) to reduction operation {op} which has no identity",
                            self.shape()
                        ),
                    ));
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
        if !x.dtype.is_word() {
            // The emulated integers: their (m, k) rows through the halving tree.
            let kept: Vec<usize> = (0..x.ndim()).filter(|d| !axes.contains(d)).collect();
            let perm: Vec<usize> = kept.iter().chain(&axes).copied().collect();
            let wide = if x.dtype == out_dtype {
                x
            } else {
                x.astype(out_dtype)?
            };
            let rows = wide
                .transpose(&perm)?
                .contiguous()?
                .reshape(&[m as isize, k as isize])?;
            let r = emulated::reduce_rows(op, rop, rows)?;
            return r.contiguous()?.reshape(&to_isize(&shape));
        }
        let r = reduce(op, rop, &x, &axes, out_dtype)?;
        Ok(relabel(r.values.reshape(&to_isize(&shape))?))
    }

    /// `numpy.sum` over `axes` (`Axes::All` for every axis), keeping reduced axes as length 1 when
    /// `keepdims`. f32 sums are two-level trees (error grows like log n); f16 sums in f32.
    ///
    /// ```
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
        if self.dtype.is_complex() {
            return complex::sum(self, axes.into(), keepdims);
        }
        self.reduce_values("sum", ReduceOp::Sum, axes.into(), keepdims)
    }

    /// `numpy.sum(a, axes, dtype=dtype)`: the elements converted to `dtype` (NumPy's casting),
    /// then summed in it. `DType::I64` gives NumPy's default for int32 and bool input (which
    /// [`Array::sum`] sums in i32), exact past 2^31; a narrow integer dtype wraps as NumPy's.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// use gpuarray::{Axes, DType};
    /// let a = gpuarray::Array::from_slice(&dev, &[i32::MAX, i32::MAX, 2], &[3])?;
    /// assert_eq!(a.sum_dtype(Axes::All, false, DType::I64)?.item::<i64>()?, 4294967296);
    /// assert_eq!(a.sum_dtype(Axes::All, false, DType::I8)?.item::<i8>()?, 0);
    /// # Ok(()) }
    /// ```
    pub fn sum_dtype(&self, axes: impl Into<Axes>, keepdims: bool, dtype: DType) -> Result<Array> {
        let r = self.astype(dtype)?.sum(axes, keepdims)?;
        in_dtype(r, dtype)
    }

    /// `numpy.prod(a, axes, dtype=dtype)`: as [`Array::sum_dtype`], for products.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// use gpuarray::{Axes, DType};
    /// let a = gpuarray::Array::from_slice(&dev, &[65536i32, 65536, 3], &[3])?;
    /// assert_eq!(a.prod_dtype(Axes::All, false, DType::I64)?.item::<i64>()?, 3 << 32);
    /// # Ok(()) }
    /// ```
    pub fn prod_dtype(&self, axes: impl Into<Axes>, keepdims: bool, dtype: DType) -> Result<Array> {
        let r = self.astype(dtype)?.prod(axes, keepdims)?;
        in_dtype(r, dtype)
    }

    /// `numpy.prod` over `axes` (integers wrap).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1i32, 2, 3, 4], &[2, 2])?;
    /// assert_eq!(a.prod(0, false)?.to_vec::<i32>()?, vec![3, 8]);
    /// # Ok(()) }
    /// ```
    pub fn prod(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array> {
        if self.dtype.is_complex() {
            return complex::prod(self, axes.into(), keepdims);
        }
        self.reduce_values("prod", ReduceOp::Prod, axes.into(), keepdims)
    }

    /// `numpy.max` (`amax`) over `axes`: NaN propagates; `Err` for an empty reduction.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, f32::NAN, 3.0, 4.0], &[2, 2])?;
    /// let m = a.max(1, false)?.to_vec::<f32>()?;
    /// assert!(m[0].is_nan() && m[1] == 4.0);
    /// # Ok(()) }
    /// ```
    pub fn max(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array> {
        if self.dtype.is_complex() {
            return complex::max(self, axes.into(), keepdims);
        }
        self.reduce_values("max", ReduceOp::Max, axes.into(), keepdims)
    }

    /// `numpy.min` (`amin`) over `axes`: NaN propagates; `Err` for an empty reduction.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[5i32, -2, 7], &[3])?;
    /// assert_eq!(a.min(gpuarray::Axes::All, false)?.item::<i32>()?, -2);
    /// # Ok(()) }
    /// ```
    pub fn min(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array> {
        if self.dtype.is_complex() {
            return complex::min(self, axes.into(), keepdims);
        }
        self.reduce_values("min", ReduceOp::Min, axes.into(), keepdims)
    }

    /// `numpy.any` over `axes`: a bool array (NaN counts as true).
    ///
    /// ```
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
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1i32, 2, 0, 4], &[2, 2])?;
    /// assert_eq!(a.all(1, false)?.to_vec_bool()?, vec![true, false]);
    /// # Ok(()) }
    /// ```
    pub fn all(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array> {
        self.reduce_values("all", ReduceOp::All, axes.into(), keepdims)
    }

    fn arg_reduce(
        &self,
        op: &'static str,
        rop: ReduceOp,
        axis: Option<isize>,
        keepdims: bool,
    ) -> Result<Array> {
        self.device.inner.check_alive(op)?;
        if !self.dtype.is_word() {
            return self.arg_reduce_emulated(op, rop, axis, keepdims);
        }
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

    /// The arg-reductions of the emulated integers: the first position where the element equals
    /// its slice's max (min), found as the argmax of that equality read as i32 (exact: integers
    /// have no NaN, and argmax gives the first of equal values, as NumPy does).
    fn arg_reduce_emulated(
        &self,
        op: &'static str,
        rop: ReduceOp,
        axis: Option<isize>,
        keepdims: bool,
    ) -> Result<Array> {
        let axes: Axes = axis.into();
        let extreme = match rop {
            ReduceOp::ArgMax => self.reduce_values(op, ReduceOp::Max, axes, true)?,
            _ => self.reduce_values(op, ReduceOp::Min, axes, true)?,
        };
        let hit = self.eq(&extreme)?.astype(DType::I32)?;
        hit.arg_reduce(op, ReduceOp::ArgMax, axis, keepdims)
    }

    /// `numpy.argmax`: indices (the device's index dtype) of the maxima along `axis` (`None`: of the flattened array).
    /// The first NaN wins; ties go to the first index. `Err` for an empty axis.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 9.0, 9.0, 2.0], &[2, 2])?;
    /// assert_eq!(a.argmax(Some(1), false)?.to_vec::<i64>()?, vec![1, 0]);
    /// assert_eq!(a.argmax(None, false)?.item::<i64>()?, 1);
    /// # Ok(()) }
    /// ```
    pub fn argmax(&self, axis: Option<isize>, keepdims: bool) -> Result<Array> {
        crate::ops::as_index(self.arg_reduce("argmax", ReduceOp::ArgMax, axis, keepdims)?)
    }

    /// `numpy.argmin`: like [`Array::argmax`] for the minima.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[3i32, 1, 1, 2], &[4])?;
    /// assert_eq!(a.argmin(None, false)?.item::<i64>()?, 1);
    /// # Ok(()) }
    /// ```
    pub fn argmin(&self, axis: Option<isize>, keepdims: bool) -> Result<Array> {
        crate::ops::as_index(self.arg_reduce("argmin", ReduceOp::ArgMin, axis, keepdims)?)
    }
}

/// `r` in `dtype`: the kernels accumulate bool and the narrow integers wider, and narrowing
/// back wraps as accumulating in `dtype` would.
fn in_dtype(r: Array, dtype: DType) -> Result<Array> {
    if r.dtype() == dtype {
        Ok(r)
    } else {
        r.astype(dtype)
    }
}

pub(super) fn to_isize(shape: &[usize]) -> Vec<isize> {
    shape.iter().map(|&n| n as isize).collect()
}
