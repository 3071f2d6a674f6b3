//! `unique` and `unique_all` (NumPy's `unique` with `return_index`, `return_inverse` and
//! `return_counts`; the array API's `unique_all`), composed from the sort, the mask selection
//! and `take`: the flattened array is argsorted (stably), each run of equal sorted values is
//! marked where it starts (NaNs count as one value, as NumPy 2's `equal_nan=True`, unless
//! `equal_nan` is false: then each NaN is a value of its own), and the
//! starts are compacted. Native only: the number of distinct values is read back.

use crate::array::Array;
use crate::dtype::DType;
use crate::error::Result;
use crate::layout::SliceArg;
use crate::ops::join::concatenate;

/// The four results of [`Array::unique_all`].
#[derive(Debug, Clone)]
pub struct Unique {
    /// The distinct values, sorted (NaN last, once).
    pub values: Array,
    /// The flat index of each value's first occurrence in the input (the device's index dtype).
    pub indices: Array,
    /// For every input element, the position of its value in `values` (the index dtype, the input's
    /// shape).
    pub inverse: Array,
    /// How many times each value occurs (the index dtype).
    pub counts: Array,
}

impl Array {
    /// `numpy.unique(a)`: the sorted distinct values of the flattened array.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[3i32, 1, 3, 2, 1], &[5])?;
    /// assert_eq!(a.unique()?.to_vec::<i32>()?, vec![1, 2, 3]);
    /// # Ok(()) }
    /// ```
    pub fn unique(&self) -> Result<Array> {
        self.unique_with(true)
    }

    /// `numpy.unique(a, equal_nan=...)`: with `equal_nan` false every NaN is a value of its own
    /// (kept, in the sorted order's end), as in NumPy and the array API's `unique_values`.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[f32::NAN, 1.0, f32::NAN, 1.0], &[4])?;
    /// assert_eq!(a.unique_with(true)?.len(), 2); // [1, nan]
    /// assert_eq!(a.unique_with(false)?.len(), 3); // [1, nan, nan]
    /// # Ok(()) }
    /// ```
    pub fn unique_with(&self, equal_nan: bool) -> Result<Array> {
        let sorted = self.sort(None)?;
        sorted.masked(&run_starts(&sorted, equal_nan)?)
    }

    /// `numpy.unique(a, return_index=True, return_inverse=True, return_counts=True)` (the array
    /// API's `unique_all`).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[3i32, 1, 3, 2, 1], &[5])?;
    /// let u = a.unique_all()?;
    /// assert_eq!(u.values.to_vec::<i32>()?, vec![1, 2, 3]);
    /// assert_eq!(u.indices.to_vec::<i64>()?, vec![1, 3, 0]);
    /// assert_eq!(u.inverse.to_vec::<i64>()?, vec![2, 0, 2, 1, 0]);
    /// assert_eq!(u.counts.to_vec::<i64>()?, vec![2, 1, 2]);
    /// # Ok(()) }
    /// ```
    pub fn unique_all(&self) -> Result<Unique> {
        self.unique_all_with(true)
    }

    /// [`unique_all`](Array::unique_all) with NumPy's `equal_nan`: false makes every NaN a
    /// value of its own, with its own index, count 1 and inverse entry (the array API's rule).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[f32::NAN, 2.0, f32::NAN], &[3])?;
    /// let u = a.unique_all_with(false)?;
    /// assert_eq!(u.indices.to_vec::<i64>()?, vec![1, 0, 2]);
    /// assert_eq!(u.counts.to_vec::<i64>()?, vec![1, 1, 1]);
    /// # Ok(()) }
    /// ```
    pub fn unique_all_with(&self, equal_nan: bool) -> Result<Unique> {
        let flat = self.contiguous()?.reshape(&[-1])?;
        let n = flat.len();
        let order = flat.argsort_i32(None)?;
        let sorted = flat.take(&order, Some(0))?;
        let starts = run_starts(&sorted, equal_nan)?;
        let values = sorted.masked(&starts)?;
        let first = starts.flatnonzero_i32()?;
        let indices = order.take(&first, Some(0))?;
        let end = Array::from_slice(&self.device, &[n as i32], &[1])?;
        let next = concatenate(
            &[&first.slice(&[SliceArg::range(Some(1), None, 1)])?, &end],
            0,
        )?;
        let counts = next.sub(&first)?;
        // The run of each sorted element, sent back to the element's place: an argsort of the
        // order is its inverse permutation.
        let run = starts.astype(DType::I32)?.cumsum(None)?.sub(1.0)?;
        let inverse = run
            .take(&order.argsort_i32(None)?, Some(0))?
            .reshape(&self.shape().iter().map(|&d| d as isize).collect::<Vec<_>>())?;
        Ok(Unique {
            values,
            indices: crate::ops::as_index(indices)?,
            inverse: crate::ops::as_index(inverse)?,
            counts: crate::ops::as_index(counts)?,
        })
    }
}

/// True where a run of equal values starts in `sorted` (1-d): at 0 and wherever an element
/// differs from the one before it; NaNs all equal when `equal_nan`, else each its own run.
fn run_starts(sorted: &Array, equal_nan: bool) -> Result<Array> {
    let n = sorted.len();
    if n == 0 {
        return Array::from_bools(&sorted.device, &[], &[0]);
    }
    let later = sorted.slice(&[SliceArg::range(Some(1), None, 1)])?;
    let earlier = sorted.slice(&[SliceArg::range(None, Some(n as isize - 1), 1)])?;
    let mut differs = later.ne(&earlier)?;
    if equal_nan && (sorted.dtype.is_float() || sorted.dtype.is_complex()) {
        let both_nan = later.isnan()?.logical_and(&earlier.isnan()?)?;
        differs = differs.logical_and(&both_nan.logical_not()?)?;
    }
    let first = Array::from_bools(&sorted.device, &[true], &[1])?;
    concatenate(&[&first, &differs], 0)
}
