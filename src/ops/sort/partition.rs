//! `partition`, `argpartition` and `lexsort`, on the stable sort. NumPy's partition promises only
//! that the `kth` element is where a sort would put it, with nothing larger before and nothing
//! smaller after; a sort keeps that promise for every `kth` at once (the radix sort is linear, so
//! selection would save a constant factor, not an order), and its output is the one answer every
//! adapter agrees on. `lexsort` is NumPy's definition: stable argsorts from the first key to the
//! last, so the last key is the primary one.

use crate::array::Array;
use crate::error::{Error, Result};
use crate::layout::normalize_axis;

impl Array {
    /// `numpy.partition(a, kth, axis)`: along `axis` (`None`: the flattened array), every `kth`
    /// element is where a sort puts it, smaller-or-equal elements before it and larger-or-equal
    /// after (here: sorted throughout). Negative `kth` counts from the end.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[3.0f32, 4.0, 2.0, 1.0], &[4])?;
    /// let p = a.partition(&[2], Some(-1))?.to_vec::<f32>()?;
    /// assert_eq!(p[2], 3.0);
    /// assert!(p[..2].iter().all(|&v| v <= 3.0) && p[3] >= 3.0);
    /// # Ok(()) }
    /// ```
    pub fn partition(&self, kth: &[isize], axis: Option<isize>) -> Result<Array> {
        self.check_kth("partition", kth, axis)?;
        self.sort(axis)
    }

    /// `numpy.argpartition(a, kth, axis)`: the indices (the index dtype) that partition `a` (see
    /// [`partition`](Array::partition); here the stable sort's order).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[3.0f32, 4.0, 2.0, 1.0], &[4])?;
    /// assert_eq!(a.argpartition(&[0], Some(0))?.to_vec::<i64>()?[0], 3);
    /// # Ok(()) }
    /// ```
    pub fn argpartition(&self, kth: &[isize], axis: Option<isize>) -> Result<Array> {
        self.check_kth("argpartition", kth, axis)?;
        self.argsort(axis)
    }

    /// NumPy's `kth` rules: each within the axis (negative from the end), an error naming it
    /// otherwise; a 0-d array has no axis to partition; an array with no elements takes any
    /// `kth` (NumPy checks none there: there is nothing to place).
    fn check_kth(&self, op: &'static str, kth: &[isize], axis: Option<isize>) -> Result<()> {
        let n = match axis {
            None => self.len(),
            Some(ax) => {
                if self.ndim() == 0 {
                    return Err(Error::shape(op, "a 0-d array has no axis to partition"));
                }
                self.shape()[normalize_axis(op, ax, self.ndim())?]
            }
        } as isize;
        if self.is_empty() {
            return Ok(());
        }
        for &k in kth {
            let k = if k < 0 { k + n } else { k };
            if k < 0 || k >= n {
                return Err(Error::invalid(op, format!("kth(={k}) out of bounds ({n})")));
            }
        }
        Ok(())
    }
}

/// `numpy.lexsort(keys)`: the indices (the index dtype) that sort 1-d `keys` of equal length by the last key,
/// ties broken by the one before it, and so on (stable in the end).
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// use gpuarray::Array;
/// let first = Array::from_slice(&dev, &[1i32, 5, 1, 4, 3], &[5])?;
/// let last = Array::from_slice(&dev, &[9.0f32, 4.0, 0.0, 4.0, 0.0], &[5])?;
/// // By `last`, then `first`: (0, 1), (0, 3), (4, 4), (4, 5), (9, 1).
/// assert_eq!(gpuarray::lexsort(&[&first, &last])?.to_vec::<i64>()?, vec![2, 4, 3, 1, 0]);
/// # Ok(()) }
/// ```
pub fn lexsort(keys: &[&Array]) -> Result<Array> {
    let op = "lexsort";
    let Some(first) = keys.first() else {
        return Err(Error::invalid(op, "needs at least one key"));
    };
    for k in keys {
        first.same_device(op, k)?;
        if k.ndim() != 1 || k.len() != first.len() {
            return Err(Error::shape(
                op,
                format!(
                    "keys must be 1-d and of one length: got shapes {:?}",
                    keys.iter().map(|k| k.shape().to_vec()).collect::<Vec<_>>()
                ),
            ));
        }
    }
    let mut order = keys[0].argsort_i32(Some(0))?;
    for k in &keys[1..] {
        let by_key = k.take(&order, Some(0))?.argsort_i32(Some(0))?;
        order = order.take(&by_key, Some(0))?;
    }
    crate::ops::as_index(order)
}
