//! The NaN-aware reductions (`nansum`, `nanprod`, `nanmax`, `nanmin`, `nanargmax`, `nanargmin`,
//! `nanmean`, `nanvar`, `nanstd`, `nancumsum`), composed as NumPy composes them
//! (`numpy/lib/_nanfunctions_impl.py`): NaN replaced by the reduction's identity, then the plain
//! reduction (for `nansum` and `nanprod` in the same pass: the reduction kernels' `NANSUM` and
//! `NANPROD` ops read a NaN as 0 or 1; the others with `where`); the slices that held only NaN are found with `isnan().all()` where NumPy
//! treats them specially. Integer and bool arrays hold no NaN: the plain reductions serve them.

use super::ReduceOp;
use super::reduced_shape;
use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::{Axes, normalize_axis, resolve_axes};
use crate::ops::elementwise::where_;

impl Array {
    /// This array with its NaNs replaced by `value` (itself when it cannot hold NaN).
    fn nan_replaced(&self, value: f64) -> Result<Array> {
        if !self.dtype.is_float() {
            return Ok(self.clone());
        }
        where_(&self.isnan()?, value, self)
    }

    /// Checks `axes` against this array for the NaN-aware reduction `op` (so a bad axis is an
    /// error naming `op`, not the reduction it is built on) and returns them.
    fn nan_axes(&self, op: &'static str, axes: impl Into<Axes>) -> Result<Axes> {
        let axes = axes.into();
        resolve_axes(op, &axes, self.ndim())?;
        Ok(axes)
    }

    /// `numpy.nansum`: the sum with NaNs counted as zero (an all-NaN slice sums to 0).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, f32::NAN, 2.0, f32::NAN], &[2, 2])?;
    /// assert_eq!(a.nansum(1, false)?.to_vec::<f32>()?, vec![1.0, 2.0]);
    /// # Ok(()) }
    /// ```
    pub fn nansum(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array> {
        let axes = self.nan_axes("nansum", axes)?;
        if !self.dtype.is_float() {
            return self.sum(axes, keepdims);
        }
        self.reduce_values("nansum", ReduceOp::NanSum, axes, keepdims)
    }

    /// `numpy.nanprod`: the product with NaNs counted as one.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[3.0f32, f32::NAN, 2.0], &[3])?;
    /// assert_eq!(a.nanprod(gpuarray::Axes::All, false)?.item::<f32>()?, 6.0);
    /// # Ok(()) }
    /// ```
    pub fn nanprod(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array> {
        let axes = self.nan_axes("nanprod", axes)?;
        if !self.dtype.is_float() {
            return self.prod(axes, keepdims);
        }
        self.reduce_values("nanprod", ReduceOp::NanProd, axes, keepdims)
    }

    /// `numpy.nanmax`: the maximum ignoring NaNs; NaN for a slice of NaNs only (NumPy warns). An
    /// empty reduction is an `Err`, as for `max`.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, f32::NAN, f32::NAN, f32::NAN], &[2, 2])?;
    /// let m = a.nanmax(1, false)?.to_vec::<f32>()?;
    /// assert_eq!(m[0], 1.0);
    /// assert!(m[1].is_nan());
    /// # Ok(()) }
    /// ```
    pub fn nanmax(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array> {
        self.nan_extreme("nanmax", axes, keepdims, true)
    }

    /// `numpy.nanmin`: the minimum ignoring NaNs (see [`Array::nanmax`]).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[f32::NAN, 4.0, -1.0], &[3])?;
    /// assert_eq!(a.nanmin(gpuarray::Axes::All, false)?.item::<f32>()?, -1.0);
    /// # Ok(()) }
    /// ```
    pub fn nanmin(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array> {
        self.nan_extreme("nanmin", axes, keepdims, false)
    }

    fn nan_extreme(
        &self,
        op: &'static str,
        axes: impl Into<Axes>,
        keepdims: bool,
        max: bool,
    ) -> Result<Array> {
        let axes = self.nan_axes(op, axes)?;
        let plain = |a: &Array| {
            if max {
                a.max(axes.clone(), keepdims)
            } else {
                a.min(axes.clone(), keepdims)
            }
        };
        if !self.dtype.is_float() {
            return plain(self);
        }
        let fill = if max {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        let m = plain(&self.nan_replaced(fill)?)?;
        let all_nan = self.isnan()?.all(axes.clone(), keepdims)?;
        where_(&all_nan, f64::NAN, &m)
    }

    /// `numpy.nanargmax`: the index of the maximum ignoring NaNs (the index dtype), along `axis` or of the
    /// flattened array. A slice of NaNs only is an `Err`, as NumPy raises ("All-NaN slice
    /// encountered"); a tie between NaN and -inf picks the first, as NumPy's does.
    ///
    /// Native only (it reads back whether a slice is all NaN); on wasm32 use
    /// [`Array::nanargmax_async`].
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[f32::NAN, 3.0, 5.0, f32::NAN], &[4])?;
    /// assert_eq!(a.nanargmax(None, false)?.item::<i64>()?, 2);
    /// let err = gpuarray::Array::from_slice(&dev, &[f32::NAN], &[1])?.nanargmax(None, false);
    /// assert!(matches!(err, Err(gpuarray::Error::InvalidArgument { op: "nanargmax", .. })));
    /// # Ok(()) }
    /// ```
    #[cfg(not(target_arch = "wasm32"))]
    pub fn nanargmax(&self, axis: Option<isize>, keepdims: bool) -> Result<Array> {
        let check = self.all_nan_slices("nanargmax", axis)?;
        self.nan_arg_extreme(
            "nanargmax",
            check.map(|c| c.to_vec_bool()).transpose()?,
            axis,
            keepdims,
            true,
        )
    }

    /// `numpy.nanargmin`: the index of the minimum ignoring NaNs (see [`Array::nanargmax`]).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[2.0f32, f32::NAN, -1.0], &[3])?;
    /// assert_eq!(a.nanargmin(None, false)?.item::<i64>()?, 2);
    /// # Ok(()) }
    /// ```
    #[cfg(not(target_arch = "wasm32"))]
    pub fn nanargmin(&self, axis: Option<isize>, keepdims: bool) -> Result<Array> {
        let check = self.all_nan_slices("nanargmin", axis)?;
        self.nan_arg_extreme(
            "nanargmin",
            check.map(|c| c.to_vec_bool()).transpose()?,
            axis,
            keepdims,
            false,
        )
    }

    /// [`Array::nanargmax`] for async callers (and wasm32).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> { pollster::block_on(async {
    /// # let dev = gpuarray::Device::new_async().await?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, f32::NAN, 4.0], &[3])?;
    /// assert_eq!(a.nanargmax_async(None, false).await?.to_vec_async::<i64>().await?, vec![2]);
    /// # Ok(()) }) }
    /// ```
    pub async fn nanargmax_async(&self, axis: Option<isize>, keepdims: bool) -> Result<Array> {
        let check = match self.all_nan_slices("nanargmax", axis)? {
            Some(c) => Some(c.to_vec_bool_async().await?),
            None => None,
        };
        self.nan_arg_extreme("nanargmax", check, axis, keepdims, true)
    }

    /// [`Array::nanargmin`] for async callers (and wasm32).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> { pollster::block_on(async {
    /// # let dev = gpuarray::Device::new_async().await?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, f32::NAN, 4.0], &[3])?;
    /// assert_eq!(a.nanargmin_async(None, false).await?.to_vec_async::<i64>().await?, vec![0]);
    /// # Ok(()) }) }
    /// ```
    pub async fn nanargmin_async(&self, axis: Option<isize>, keepdims: bool) -> Result<Array> {
        let check = match self.all_nan_slices("nanargmin", axis)? {
            Some(c) => Some(c.to_vec_bool_async().await?),
            None => None,
        };
        self.nan_arg_extreme("nanargmin", check, axis, keepdims, false)
    }

    /// Whether any slice along `axis` (of the whole array for `None`) holds only NaN, as a
    /// one-element bool array to read back; `None` when no slice can (integers, empty arrays).
    fn all_nan_slices(&self, op: &'static str, axis: Option<isize>) -> Result<Option<Array>> {
        if let Some(a) = axis {
            normalize_axis(op, a, self.ndim())?;
        }
        if !self.dtype.is_float() || self.is_empty() {
            return Ok(None);
        }
        let axes = match axis {
            Some(a) => Axes::from(a),
            None => Axes::All,
        };
        let any = self.isnan()?.all(axes, false)?.any(Axes::All, false)?;
        Ok(Some(any.reshape(&[1])?))
    }

    /// argmax/argmin of the array with NaN replaced by the far end, after the all-NaN check
    /// (`all_nan`: the read-back result of `all_nan_slices`).
    fn nan_arg_extreme(
        &self,
        op: &'static str,
        all_nan: Option<Vec<bool>>,
        axis: Option<isize>,
        keepdims: bool,
        max: bool,
    ) -> Result<Array> {
        if all_nan.is_some_and(|v| v[0]) {
            return Err(Error::invalid(
                op,
                format!("All-NaN slice encountered (shape {:?})", self.shape()),
            ));
        }
        let fill = if max {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        let x = self.nan_replaced(fill)?;
        if max {
            x.argmax(axis, keepdims)
        } else {
            x.argmin(axis, keepdims)
        }
    }

    /// `numpy.nanmean`: the mean of the non-NaN elements (NaN for a slice of NaNs only; integers
    /// give f64, as `mean`).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, f32::NAN, 3.0], &[3])?;
    /// assert_eq!(a.nanmean(gpuarray::Axes::All, false)?.item::<f32>()?, 2.0);
    /// # Ok(()) }
    /// ```
    pub fn nanmean(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array> {
        let axes = self.nan_axes("nanmean", axes)?;
        if !self.dtype.is_float() {
            return self.mean(axes, keepdims);
        }
        let (sum, count) = self.nan_sum_and_count(axes, keepdims)?;
        self.back_from_work(sum.div(&count)?)
    }

    /// The sum of the non-NaN elements and their count, both in the work dtype (f32 for f16).
    fn nan_sum_and_count(&self, axes: Axes, keepdims: bool) -> Result<(Array, Array)> {
        let work = if self.dtype == DType::F16 {
            DType::F32
        } else {
            self.dtype
        };
        let x = self.nan_replaced(0.0)?.astype(work)?;
        let count = self
            .isnan()?
            .logical_not()?
            .astype(work)?
            .sum(axes.clone(), keepdims)?;
        Ok((x.sum(axes, keepdims)?, count))
    }

    /// A work-dtype result back in this array's dtype (f16 results are computed in f32).
    fn back_from_work(&self, r: Array) -> Result<Array> {
        if r.dtype == self.dtype {
            Ok(r)
        } else {
            r.astype(self.dtype)
        }
    }

    /// `numpy.nanvar`: the variance of the non-NaN elements with `ddof` delta degrees of
    /// freedom, in two passes; NaN where `count - ddof <= 0` (NumPy warns).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, f32::NAN, 3.0], &[3])?;
    /// assert_eq!(a.nanvar(gpuarray::Axes::All, 0, false)?.item::<f32>()?, 1.0);
    /// # Ok(()) }
    /// ```
    pub fn nanvar(&self, axes: impl Into<Axes>, ddof: usize, keepdims: bool) -> Result<Array> {
        let op = "nanvar";
        let axes = self.nan_axes(op, axes)?;
        if !self.dtype.is_float() {
            return self.var(axes, ddof, keepdims);
        }
        let (sum, count) = self.nan_sum_and_count(axes.clone(), true)?;
        let mean = sum.div(&count)?;
        let work = mean.dtype;
        let x = self.astype(work)?;
        // Deviations of the non-NaN elements; NaN positions contribute 0.
        let dev = where_(&self.isnan()?, 0.0, &x.sub(&mean)?)?;
        let ss = dev.mul(&dev)?.sum(axes.clone(), keepdims)?;
        let count = if keepdims {
            count
        } else {
            let ax = resolve_axes(op, &axes, self.ndim())?;
            count.reshape(&super::to_isize(&reduced_shape(self.shape(), &ax, false)))?
        };
        let dof = count.sub(ddof as f64)?;
        let var = where_(&dof.le(0.0)?, f64::NAN, &ss.div(&dof)?)?;
        self.back_from_work(var)
    }

    /// `numpy.nanstd`: the square root of [`Array::nanvar`].
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, f32::NAN, 5.0], &[3])?;
    /// assert_eq!(a.nanstd(gpuarray::Axes::All, 0, false)?.item::<f32>()?, 2.0);
    /// # Ok(()) }
    /// ```
    pub fn nanstd(&self, axes: impl Into<Axes>, ddof: usize, keepdims: bool) -> Result<Array> {
        let axes = self.nan_axes("nanstd", axes)?;
        if !self.dtype.is_float() {
            return self.std(axes, ddof, keepdims);
        }
        self.nanvar(axes, ddof, keepdims)?.sqrt()
    }

    /// `numpy.nancumsum`: the running sum with NaNs counted as zero, along `axis` (`None`: of the
    /// flattened array).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, f32::NAN, 2.0], &[3])?;
    /// assert_eq!(a.nancumsum(None)?.to_vec::<f32>()?, vec![1.0, 1.0, 3.0]);
    /// # Ok(()) }
    /// ```
    pub fn nancumsum(&self, axis: Option<isize>) -> Result<Array> {
        if let Some(a) = axis {
            normalize_axis("nancumsum", a, self.ndim())?;
        }
        self.nan_replaced(0.0)?.cumsum(axis)
    }
}
