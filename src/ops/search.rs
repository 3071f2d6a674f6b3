//! `searchsorted`: where queries would go in a sorted 1-d array, by one binary search per query
//! on the device (`shaders/searchsorted.wgsl`), in NumPy's order (NaN last, -0.0 equal to +0.0).
//! Like NumPy, the array is not checked to be sorted (an unsorted one gives positions that mean
//! nothing). f16 and bool are searched as f32 and u32; mixed dtypes in the dtype `isclose`
//! compares in. Sorted arrays and queries past one storage binding are searched window by window.

use super::{contiguous_window, window_elements};
use crate::array::Array;
use crate::device::params::Params;
use crate::device::{PipelineKey, Variant};
use crate::dtype::DType;
use crate::error::{Error, Result};

/// Which end of a run of equal elements `searchsorted` returns (NumPy's `side`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Side {
    /// The first position whose element is not less than the query (`side="left"`).
    #[default]
    Left,
    /// The first position whose element is greater than the query (`side="right"`).
    Right,
}

impl Array {
    /// `numpy.searchsorted(a, v, side)` with this array as the sorted 1-d `a`: for every element
    /// of `v`, the i32 index where inserting it keeps `a` sorted; the result has `v`'s shape.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// use gpuarray::{Array, Side};
    /// let a = Array::from_slice(&dev, &[1.0f32, 2.0, 2.0, 3.0, f32::NAN], &[5])?;
    /// let v = Array::from_slice(&dev, &[2.0f32, 0.0, 9.0, f32::NAN], &[4])?;
    /// assert_eq!(a.searchsorted(&v, Side::Left)?.to_vec::<i64>()?, vec![1, 0, 4, 4]);
    /// assert_eq!(a.searchsorted(&v, Side::Right)?.to_vec::<i64>()?, vec![3, 0, 4, 5]);
    /// # Ok(()) }
    /// ```
    pub fn searchsorted(&self, v: &Array, side: Side) -> Result<Array> {
        crate::ops::as_index(self.searchsorted_i32(v, side)?)
    }

    /// [`Array::searchsorted`]'s i32 positions, for the ops built on it.
    pub(crate) fn searchsorted_i32(&self, v: &Array, side: Side) -> Result<Array> {
        let op = "searchsorted";
        self.same_device(op, v)?;
        if self.ndim() != 1 {
            return Err(Error::shape(
                op,
                format!("the sorted array must be 1-d, got shape {:?}", self.shape()),
            ));
        }
        let common = if self.dtype == v.dtype {
            self.dtype
        } else {
            self.closeness_dtype(v)
        };
        let searched = crate::ops::sort::key_dtype(common);
        let a = self.astype(searched)?.contiguous()?;
        let q = v.astype(searched)?.contiguous()?;
        let out = Array::empty(op, &self.device, v.shape(), DType::I32)?;
        let count = q.len() as u64;
        if count == 0 {
            return Ok(out);
        }
        if a.is_empty() {
            return Array::zeros(&self.device, v.shape(), DType::I32);
        }
        let dtype_code = crate::ops::sort::key_code(searched);
        let dev = &self.device.inner;
        let key = PipelineKey::new(&SEARCHSORTED, Variant::one(DType::U32))
            .with("DTYPE", dtype_code)
            .with("RIGHT", (side == Side::Right) as u32);
        // Window by window: the sorted array in parts whose positions add up (each part is
        // sorted, so the count before a query is the sum of the parts' counts), the queries and
        // their positions in runs of one window.
        let bytes = searched.size_bytes();
        let words = bytes / 4;
        let run = window_elements(dev, bytes);
        let n = a.len() as u64;
        let mut a_start = 0;
        while a_start < n {
            let a_len = run.min(n - a_start);
            let mut q_start = 0;
            while q_start < count {
                let q_len = run.min(count - q_start);
                let (a_bind, a_base) = contiguous_window(op, &a, a_start, a_len, bytes)?;
                let (q_bind, q_base) = contiguous_window(op, &q, q_start, q_len, bytes)?;
                let (out_bind, out_base) = contiguous_window(op, &out, q_start, q_len, 4)?;
                let mut p = Params::default();
                p.u32(a_len as u32)
                    .u32(q_len as u32)
                    .u32(a_base * words as u32)
                    .u32(q_base * words as u32)
                    .u32(out_base)
                    .u32((a_start > 0) as u32);
                dev.guarded(op, || {
                    dev.dispatch(
                        &key,
                        p.bytes(),
                        &[a_bind, q_bind, out_bind],
                        q_len,
                        &[q_len],
                    )
                })?;
                q_start += q_len;
            }
            a_start += a_len;
        }
        Ok(out)
    }
}

/// Binary search of sorted 1-d arrays (`shaders/searchsorted.wgsl`) over the key words of
/// `DTYPE` (one u32 variant). Declared for the device; compiled on first use.
pub(crate) static SEARCHSORTED: crate::device::KernelDef = crate::device::KernelDef::on_first_use(
    "searchsorted",
    "main",
    &[("WG", crate::device::DEFAULT_WG)],
    crate::device::KernelDef::words,
    |_| {
        concat!(
            include_str!("../../shaders/sort_keys.wgsl"),
            include_str!("../../shaders/searchsorted.wgsl")
        )
        .to_string()
    },
);
