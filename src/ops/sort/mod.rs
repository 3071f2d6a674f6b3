//! Sorting along an axis: `sort` and `argsort` (the `impl Array` methods) and their launches.
//!
//! NumPy's semantics: along `axis` (default the last; `None` sorts the flattened array), stable
//! (equal elements keep their order: `kind="stable"`'s answer, which every NumPy kind gives for
//! the values), NaN last, -0.0 and +0.0 equal. Keys that order as the values do
//! (`shaders/sort_keys.wgsl`) are sorted with their indices, every row at once, by one of two
//! kernels chosen by size: a bitonic network (`bitonic.rs`, `shaders/sort.wgsl`) for small
//! arrays, a chunked LSD radix sort (`radix.rs`, `shaders/radix.wgsl`) for the rest. Both are
//! stable. The sorted values are then read from the original elements by index
//! (`shaders/sort_gather.wgsl`), so -0.0 and NaN payloads come back unchanged. f16 rows are
//! sorted as f32 and bool rows as u32 (both exact round trips).
//!
//! Arrays past one storage binding (2^25 f32 at the 128 MiB default) are sorted one binding at a
//! time and merged on the device (`merge.rs`): groups of whole rows, or parts of a long row that
//! each element's rank among the other parts places.

mod bitonic;
mod complex;
pub(crate) mod families;
mod merge;
mod partition;
pub use partition::lexsort;
mod radix;

use super::array_binding;
use crate::array::Array;
use crate::device::params::Params;
use crate::device::{PipelineKey, Variant};
use crate::dtype::DType;
use crate::error::Result;
use crate::layout::normalize_axis;

/// The sorted indices of every row: positions in the row, padded rows of `m` (the bitonic
/// network), or flat indices `row n + i` over unpadded rows (`flat`: the radix sort).
pub(crate) struct Sorted {
    index: Array,
    m: u64,
    flat: bool,
}

/// Arrays whose rows fit one bitonic block (512, padded) and hold at most this many padded
/// elements in all take the bitonic network (one launch in workgroup memory); everything else the
/// radix sort. Measured on lavapipe (BENCHMARKS.md, "Sorting"): 64 x 64 f32 1.0 ms bitonic vs
/// 1.6 radix, 256 elements 0.47 vs 0.78; but 4,096 in one row 6.0 vs 1.4 and 256 x 256 24.8 vs 8.8.
const BITONIC_MAX: u64 = 1 << 12;

impl Array {
    /// `numpy.sort(a, axis)`: a sorted copy along `axis` (`Some(-1)` is NumPy's default; `None`
    /// sorts the flattened array into 1-d). Stable, NaN last, -0.0 equal to +0.0.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[3.0f32, f32::NAN, -1.0, 2.0, 0.5, -7.0], &[2, 3])?;
    /// let s = a.sort(Some(-1))?.to_vec::<f32>()?;
    /// assert_eq!(&s[..2], &[-1.0, 3.0]);
    /// assert!(s[2].is_nan());
    /// assert_eq!(&s[3..], &[-7.0, 0.5, 2.0]);
    /// # Ok(()) }
    /// ```
    pub fn sort(&self, axis: Option<isize>) -> Result<Array> {
        self.sorted("sort", axis, false)
    }

    /// `numpy.argsort(a, axis, kind="stable")`: the indices (the device's index dtype, int64
    /// by default) that sort along `axis` (`None`:
    /// the flattened array), equal elements in their original order. A 0-d array sorts as its
    /// one element in a 1-d array, as in NumPy: `[0]` (axis `-1`, `0` or `None`).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[2i32, 1, 2, 0], &[4])?;
    /// assert_eq!(a.argsort(Some(-1))?.to_vec::<i64>()?, vec![3, 1, 0, 2]);
    /// let scalar = gpuarray::Array::from_slice(&dev, &[7.0f32], &[])?;
    /// assert_eq!(scalar.argsort(Some(-1))?.to_vec::<i64>()?, vec![0]);
    /// # Ok(()) }
    /// ```
    pub fn argsort(&self, axis: Option<isize>) -> Result<Array> {
        crate::ops::as_index(self.argsort_i32(axis)?)
    }

    /// [`Array::argsort`]'s i32 indices, for the ops built on it.
    pub(crate) fn argsort_i32(&self, axis: Option<isize>) -> Result<Array> {
        if self.ndim() == 0 {
            return self.reshape(&[1])?.sorted("argsort", axis, true);
        }
        self.sorted("argsort", axis, true)
    }

    fn sorted(&self, op: &'static str, axis: Option<isize>, indices: bool) -> Result<Array> {
        self.device.inner.check_alive(op)?;
        // The rows to sort: the axis moved last (or everything flattened), contiguous.
        let (rows_view, back): (Array, Option<Vec<usize>>) = match axis {
            None => (self.contiguous()?.reshape(&[-1])?, None),
            Some(a) => {
                let d = normalize_axis(op, a, self.ndim())?;
                let mut perm: Vec<usize> = (0..self.ndim()).filter(|&i| i != d).collect();
                perm.push(d);
                let mut inverse = vec![0; perm.len()];
                for (i, &p) in perm.iter().enumerate() {
                    inverse[p] = i;
                }
                (self.transpose(&perm)?.contiguous()?, Some(inverse))
            }
        };
        if self.dtype.is_complex() {
            let result = complex_sorted(&rows_view, indices)?;
            return match back {
                Some(inverse) => result.transpose(&inverse)?.contiguous(),
                None => Ok(result),
            };
        }
        let keyed = key_dtype(self.dtype);
        let work = if keyed == self.dtype {
            rows_view
        } else {
            rows_view.astype(keyed)?
        };
        let dtype_code = key_code(keyed);
        let shape = work.shape().to_vec();
        let n = shape.last().copied().unwrap_or(1);
        let result = if work.is_empty() || n <= 1 {
            if indices {
                Array::zeros(&self.device, &shape, DType::I32)?
            } else {
                work.astype(work.dtype)?
            }
        } else {
            let rows = work.len() / n;
            if fits_one_binding(&work, rows * n) {
                sort_fitting(op, &work, rows, n, dtype_code, indices)?
            } else {
                let flat = work.reshape(&[rows as isize, n as isize])?;
                merge::sort_past_one_binding(op, &flat, dtype_code, indices)?
                    .reshape(&shape.iter().map(|&d| d as isize).collect::<Vec<_>>())?
            }
        };
        // Back to the caller's dtype and axis order.
        let result = if !indices && result.dtype != self.dtype {
            result.astype(self.dtype)?
        } else {
            result
        };
        match back {
            Some(inverse) => result.transpose(&inverse)?.contiguous(),
            None => Ok(result),
        }
    }
}

/// The dtype whose key words sort `dtype`'s values: itself, or a wider dtype that holds every
/// value exactly (f16 as f32; bool, the 8- and 16-bit integers as u32/i32).
/// The sorted complex `rows` (the sorted axis last, contiguous), or their order.
fn complex_sorted(rows: &Array, indices: bool) -> Result<Array> {
    let shape: Vec<isize> = rows.shape().iter().map(|&d| d as isize).collect();
    let n = rows.shape().last().copied().unwrap_or(1);
    if rows.is_empty() || n <= 1 {
        return if indices {
            Array::zeros(&rows.device, rows.shape(), DType::I32)
        } else {
            rows.astype(rows.dtype())
        };
    }
    let flat = rows.reshape(&[-1, n as isize])?;
    let order = complex::argsort_rows(&flat)?;
    let result = if indices {
        order
    } else {
        complex::take_rows(&flat, &order)?
    };
    result.reshape(&shape)
}

pub(crate) fn key_dtype(dtype: DType) -> DType {
    match dtype {
        DType::F16 => DType::F32,
        DType::Bool | DType::U8 | DType::U16 => DType::U32,
        DType::I8 | DType::I16 => DType::I32,
        d => d,
    }
}

/// `shaders/sort_keys.wgsl`'s `DTYPE` for a [`key_dtype`]: 0 u32, 1 i32, 2 f32, 3 f64, 4 i64,
/// 5 u64 (3 and up take two key words).
pub(crate) fn key_code(dtype: DType) -> u32 {
    match dtype {
        DType::U32 => 0,
        DType::I32 => 1,
        DType::F32 => 2,
        DType::F64 => 3,
        DType::I64 => 4,
        DType::U64 => 5,
        d => unreachable!("{d} sorts through its key_dtype"),
    }
}

/// The contiguous 1-d i32/u32 `keys` stably sorted, and the contiguous 1-d `payload` (as long,
/// 4- or 8-byte elements) in the same order: one sort, two gathers by its indices (the weighted
/// counts of `counting/weighted.rs`, native only). Past one binding: an argsort and two `take`s.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn sort_by_key(
    op: &'static str,
    keys: &Array,
    payload: &Array,
) -> Result<(Array, Array)> {
    let n = keys.len();
    let code = match keys.dtype {
        DType::U32 => 0,
        _ => 1,
    };
    if n > 1
        && matches!(keys.dtype, DType::U32 | DType::I32)
        && payload.dtype.size_bytes() >= 4
        && fits_one_binding(keys, n)
        && fits_one_binding(payload, n)
    {
        let sorted = sort_keys(op, keys, 1, n, code)?;
        return Ok((
            finish(op, keys, &sorted, 1, n, false)?,
            finish(op, payload, &sorted, 1, n, false)?,
        ));
    }
    let order = keys.argsort_i32(Some(0))?;
    Ok((keys.take(&order, Some(0))?, payload.take(&order, Some(0))?))
}

/// Whether the `total` elements of the contiguous `x` (offset included) and their keys and
/// indices each fit one storage binding: the sorts of `bitonic.rs` and `radix.rs` bind them whole.
fn fits_one_binding(x: &Array, total: usize) -> bool {
    let max_binding = x.device.inner.block_limits().max_binding;
    let pairs = total as u64 * 4;
    let input = (x.layout.offset + total) as u64 * x.dtype().size_bytes();
    pairs <= max_binding && input <= max_binding && total < 1 << 31
}

/// The sorted keys of the (rows, n) contiguous `x`, which [`fits_one_binding`], by the kernel its
/// size picks.
fn sort_keys(
    op: &'static str,
    x: &Array,
    rows: usize,
    n: usize,
    dtype_code: u32,
) -> Result<Sorted> {
    let m = n.next_power_of_two() as u64;
    if m <= 512 && rows as u64 * m <= BITONIC_MAX {
        bitonic::sort_rows(op, x, rows, n, dtype_code)
    } else {
        radix::sort_rows(op, x, rows, n, dtype_code)
    }
}

/// The sorted values (`x`'s dtype) or i32 indices of the rows of `x`, which [`fits_one_binding`].
fn sort_fitting(
    op: &'static str,
    x: &Array,
    rows: usize,
    n: usize,
    dtype_code: u32,
    indices: bool,
) -> Result<Array> {
    let sorted = sort_keys(op, x, rows, n, dtype_code)?;
    finish(op, x, &sorted, rows, n, indices)
}

/// A fresh array of `x`'s shape for its sorted values (its dtype) or indices (i32).
fn sorted_output(op: &'static str, x: &Array, indices: bool) -> Result<Array> {
    let dtype = if indices { DType::I32 } else { x.dtype() };
    Array::empty(op, x.device(), x.shape(), dtype)
}

/// The sorted values of `x` (its dtype) or the i32 indices, (rows, n) in `x`'s shape.
fn finish(
    op: &'static str,
    x: &Array,
    s: &Sorted,
    rows: usize,
    n: usize,
    indices: bool,
) -> Result<Array> {
    let dev = x.device().inner.clone();
    let out = sorted_output(op, x, indices)?;
    let wide = x.dtype().size_bytes() == 8 && !indices;
    let count = (rows * n) as u64;
    let mut p = Params::default();
    p.u32(s.m as u32)
        .u32(n as u32)
        .u32(rows as u32)
        .u32((x.layout.offset as u64 * x.dtype().size_bytes() / 4) as u32);
    let key = PipelineKey::new(&families::SORT_GATHER, Variant::one(DType::U32))
        .with("WIDE", wide as u32)
        .with("INDICES", indices as u32)
        .with("FLAT", s.flat as u32);
    dev.guarded(op, || {
        let binds = [
            array_binding(&s.index, s.index.len() as u64, 4)?,
            array_binding(x, count, x.dtype().size_bytes())?,
            array_binding(&out, count, out.dtype().size_bytes())?,
        ];
        dev.dispatch(&key, p.bytes(), &binds, count, &[count])
    })?;
    Ok(out)
}
