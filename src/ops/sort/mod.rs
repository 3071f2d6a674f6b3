//! Sorting along an axis: `sort` and `argsort` (the `impl Array` methods) and their launches.
//!
//! NumPy's semantics: along `axis` (default the last; `None` sorts the flattened array), stable
//! (equal elements keep their order: `kind="stable"`'s answer, which every NumPy kind gives for
//! the values), NaN last, -0.0 and +0.0 equal. The kernels (`shaders/sort.wgsl`) run a bitonic
//! network over (key, index) pairs of every row at once: keys order as the values do and the index
//! breaks ties, which makes the network stable; the sorted values are then read from the original
//! elements by index (`shaders/sort_gather.wgsl`), so -0.0 and NaN payloads come back unchanged.
//! f16 rows are sorted as f32 and bool rows as u32 (both exact round trips).
//!
//! Limits: the (rows x padded row length) pairs must fit one storage binding per buffer (2^25
//! pairs at the 128 MiB default) and the input one binding; larger arrays are an `Err` naming the
//! limit (arrays past one binding are not sorted yet).

use super::array_binding;
use crate::array::Array;
use crate::device::blocks::grid;
use crate::device::params::Params;
use crate::device::{Kernel, PipelineKey, SortPass, Variant, Work};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::normalize_axis;

/// Pairs per workgroup block (two per invocation of a 256-wide workgroup; the shader's arrays).
const BLOCK: u64 = 512;

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

    /// `numpy.argsort(a, axis, kind="stable")`: the i32 indices that sort along `axis` (`None`:
    /// the flattened array), equal elements in their original order.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[2i32, 1, 2, 0], &[4])?;
    /// assert_eq!(a.argsort(Some(-1))?.to_vec::<i32>()?, vec![3, 1, 0, 2]);
    /// # Ok(()) }
    /// ```
    pub fn argsort(&self, axis: Option<isize>) -> Result<Array> {
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
        let (work, dtype_code) = match self.dtype {
            DType::U32 => (rows_view, 0),
            DType::I32 => (rows_view, 1),
            DType::F32 => (rows_view, 2),
            DType::F64 => (rows_view, 3),
            DType::F16 => (rows_view.astype(DType::F32)?, 2),
            DType::Bool => (rows_view.astype(DType::U32)?, 0),
        };
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
            let sorted = sort_rows(op, &work, rows, n, dtype_code)?;
            finish(op, &work, &sorted, rows, n, indices)?
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

/// The sorted (key, index) arrays of `rows` rows of `n` elements of the contiguous `x`.
struct Sorted {
    index: Array,
    m: u64,
}

fn sort_rows(
    op: &'static str,
    x: &Array,
    rows: usize,
    n: usize,
    dtype_code: u32,
) -> Result<Sorted> {
    let dev = x.device().inner.clone();
    let (rows, n) = (rows as u64, n as u64);
    let m = n.next_power_of_two();
    let total = (rows * m).next_multiple_of(BLOCK);
    let wide = dtype_code == 3;
    let word_bytes = 4u64;
    let limits = dev.block_limits();
    let max_pairs = (limits.max_binding / word_bytes).min(1 << 31);
    if total > max_pairs {
        return Err(Error::TooLarge {
            op,
            requested: total * word_bytes,
            max: max_pairs * word_bytes,
            what: "sort buffer (rows x the row length rounded up to a power of two, 4 bytes each; arrays past one storage binding are not sorted yet)",
        });
    }
    let src_words = (x.layout.offset as u64 + rows * n) * x.dtype().size_bytes() / 4;
    if src_words * 4 > limits.max_binding {
        return Err(Error::TooLarge {
            op,
            requested: src_words * 4,
            max: limits.max_binding,
            what: "sort input (one storage binding)",
        });
    }
    let device = x.device();
    let index = Array::empty(op, device, &[total as usize], DType::U32)?;
    let key_hi = Array::empty(op, device, &[total as usize], DType::U32)?;
    let key_lo = Array::empty(
        op,
        device,
        &[if wide { total as usize } else { 1 }],
        DType::U32,
    )?;
    let src_base = x.layout.offset as u64 * x.dtype().size_bytes() / 4;
    let max_dim = dev.limits.max_compute_workgroups_per_dimension;
    let params = |k: u64, j: u64| {
        let mut p = Params::default();
        p.u32(m as u32)
            .u32(n as u32)
            .u32(rows as u32)
            .u32(total as u32)
            .u32(src_base as u32)
            .u32(k as u32)
            .u32(j as u32)
            .u32(BLOCK as u32);
        p
    };
    let key = |pass| {
        PipelineKey::new(Kernel::Sort(pass), Variant::one(DType::U32)).with("DTYPE", dtype_code)
    };
    let groups = |workgroups: u64| {
        grid(workgroups, max_dim)
            .ok_or_else(|| Error::overflow(op, format!("{workgroups} workgroups")))
    };
    dev.guarded(op, || {
        let pairs = [
            array_binding(&index, total, 4)?,
            array_binding(&key_hi, total, 4)?,
            array_binding(&key_lo, if wide { total } else { 1 }, 4)?,
        ];
        let with_src = [
            pairs[0],
            pairs[1],
            pairs[2],
            array_binding(x, rows * n, x.dtype().size_bytes())?,
        ];
        let (gx, gy) = groups(total.div_ceil(256))?;
        dev.dispatch_grid(
            &key(SortPass::Keys),
            params(0, 0).bytes(),
            &with_src,
            (gx, gy, 1),
            Work::moves(format!("sort keys of {rows} rows of {n}")),
        )?;
        let (bx, by) = groups(total / BLOCK)?;
        dev.dispatch_grid(
            &key(SortPass::Local),
            params(0, 0).bytes(),
            &pairs,
            (bx, by, 1),
            Work::moves(format!("sort blocks of {BLOCK}")),
        )?;
        let (px, py) = groups((total / 2).div_ceil(256))?;
        let mut k = 2 * BLOCK;
        while k <= m {
            let mut j = k / 2;
            while j >= BLOCK {
                dev.dispatch_grid(
                    &key(SortPass::MergeGlobal),
                    params(k, j).bytes(),
                    &pairs,
                    (px, py, 1),
                    Work::moves(format!("sort stage {k} step {j}")),
                )?;
                j /= 2;
            }
            dev.dispatch_grid(
                &key(SortPass::MergeLocal),
                params(k, 0).bytes(),
                &pairs,
                (bx, by, 1),
                Work::moves(format!("sort stage {k} steps below {BLOCK}")),
            )?;
            k *= 2;
        }
        Ok(())
    })?;
    Ok(Sorted { index, m })
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
    let out = Array::empty(
        op,
        x.device(),
        x.shape(),
        if indices { DType::I32 } else { x.dtype() },
    )?;
    let wide = x.dtype() == DType::F64 && !indices;
    let count = (rows * n) as u64;
    let mut p = Params::default();
    p.u32(s.m as u32)
        .u32(n as u32)
        .u32(rows as u32)
        .u32((x.layout.offset as u64 * x.dtype().size_bytes() / 4) as u32);
    let key = PipelineKey::new(Kernel::SortGather, Variant::one(DType::U32))
        .with("WIDE", wide as u32)
        .with("INDICES", indices as u32);
    let (gx, gy) = grid(
        count.div_ceil(256),
        dev.limits.max_compute_workgroups_per_dimension,
    )
    .ok_or_else(|| Error::overflow(op, format!("{count} elements")))?;
    dev.guarded(op, || {
        let binds = [
            array_binding(&s.index, s.index.len() as u64, 4)?,
            array_binding(x, count, x.dtype().size_bytes())?,
            array_binding(&out, count, out.dtype().size_bytes())?,
        ];
        dev.dispatch_grid(
            &key,
            p.bytes(),
            &binds,
            (gx, gy, 1),
            Work::moves(format!("sort gather of {rows} rows of {n}")),
        )
    })?;
    Ok(out)
}
