//! `searchsorted`: where queries would go in a sorted 1-d array, by one binary search per query
//! on the device (`shaders/searchsorted.wgsl`), in NumPy's order (NaN last, -0.0 equal to +0.0).
//! Like NumPy, the array is not checked to be sorted (an unsorted one gives positions that mean
//! nothing). f16 and bool are searched as f32 and u32; mixed dtypes in the dtype `isclose`
//! compares in.

use super::array_binding;
use crate::array::Array;
use crate::device::params::Params;
use crate::device::{Kernel, PipelineKey, Variant};
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
    /// assert_eq!(a.searchsorted(&v, Side::Left)?.to_vec::<i32>()?, vec![1, 0, 4, 4]);
    /// assert_eq!(a.searchsorted(&v, Side::Right)?.to_vec::<i32>()?, vec![3, 0, 4, 5]);
    /// # Ok(()) }
    /// ```
    pub fn searchsorted(&self, v: &Array, side: Side) -> Result<Array> {
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
        let searched = match common {
            DType::F16 => DType::F32,
            DType::Bool => DType::U32,
            d => d,
        };
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
        let dtype_code = match searched {
            DType::U32 => 0,
            DType::I32 => 1,
            DType::F32 => 2,
            _ => 3,
        };
        let dev = &self.device.inner;
        let max_binding = dev.block_limits().max_binding;
        let words = searched.size_bytes() / 4;
        for (what, arr) in [("sorted array", &a), ("queries", &q)] {
            let bytes = (arr.layout.offset + arr.len()) as u64 * searched.size_bytes();
            if bytes > max_binding {
                return Err(Error::TooLarge {
                    op,
                    requested: bytes,
                    max: max_binding,
                    what: if what == "queries" {
                        "searchsorted queries (one storage binding)"
                    } else {
                        "searchsorted sorted array (one storage binding)"
                    },
                });
            }
        }
        let mut p = Params::default();
        p.u32(a.len() as u32)
            .u32(count as u32)
            .u32((a.layout.offset as u64 * words) as u32)
            .u32((q.layout.offset as u64 * words) as u32);
        let key = PipelineKey::new(Kernel::SearchSorted, Variant::one(DType::U32))
            .with("DTYPE", dtype_code)
            .with("RIGHT", (side == Side::Right) as u32);
        dev.guarded(op, || {
            let binds = [
                array_binding(&a, a.len() as u64, searched.size_bytes())?,
                array_binding(&q, count, searched.size_bytes())?,
                array_binding(&out, count, 4)?,
            ];
            dev.dispatch(&key, p.bytes(), &binds, count, &[count])
        })?;
        Ok(out)
    }
}
