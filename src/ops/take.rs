//! `take`: elements gathered along one axis at integer indices of any integer dtype, with a
//! kernel (`shaders/take.wgsl`) whose launch code follows the `impl Array` methods.

use crate::array::Array;
use crate::device::blocks::{BlockLimits, BlockOperand, Window, grid, plan_granular};
use crate::device::params::Params;
use crate::device::{Binding, PipelineKey, Variant, Work};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::normalize_axis;

impl Array {
    /// `numpy.take(a, indices, axis)`: elements gathered along `axis` (of the flattened array with
    /// `None`) at integer `indices` (any integer dtype; negative ones count from the end). An
    /// index out of range is an `Err`, as NumPy raises (checked with a reduction of the indices,
    /// which waits for the GPU). On wasm32 that wait is impossible: use [`Array::take_async`]
    /// there.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[10i32, 20, 30, 40], &[2, 2])?;
    /// let i = gpuarray::Array::from_slice(&dev, &[1i32, 0, -1], &[3])?;
    /// assert_eq!(a.take(&i, Some(1))?.to_vec::<i32>()?, vec![20, 10, 20, 40, 30, 40]);
    /// # Ok(()) }
    /// ```
    pub fn take(&self, indices: &Array, axis: Option<isize>) -> Result<Array> {
        self.take_with("take", indices, axis, None)
    }

    /// [`Array::take`] for async callers, and the form that works on wasm32: the indices'
    /// bounds are read back by awaiting, not blocking.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> { pollster::block_on(async {
    /// # let dev = gpuarray::Device::new_async().await?;
    /// let a = gpuarray::Array::from_slice(&dev, &[10i32, 20, 30], &[3])?;
    /// let i = gpuarray::Array::from_slice(&dev, &[2i32, -3], &[2])?;
    /// let t = a.take_async(&i, None).await?;
    /// assert_eq!(t.to_vec_async::<i32>().await?, vec![30, 10]);
    /// let far = gpuarray::Array::from_slice(&dev, &[3i32], &[1])?;
    /// assert!(a.take_async(&far, None).await.is_err());
    /// # Ok(()) }) }
    /// ```
    pub async fn take_async(&self, indices: &Array, axis: Option<isize>) -> Result<Array> {
        let op = "take_async";
        // Bounds only of indices the gather would read; take_with reports every other error.
        let bounds = if !indices.is_empty() && matches!(indices.dtype(), DType::I32 | DType::U32) {
            Some(index_bounds_async(indices).await?)
        } else {
            None
        };
        self.take_with(op, indices, axis, bounds)
    }

    /// [`Array::take`] along `axis` of indices the caller knows lie in `0..len` (an argsort's):
    /// no bounds check, so no readback (it runs on wasm32).
    pub(crate) fn take_in_range(&self, indices: &Array, axis: isize) -> Result<Array> {
        let ax = normalize_axis("take", axis, self.ndim())?;
        let last = self.shape()[ax] as i64 - 1;
        self.take_with("take", indices, Some(axis), Some((0, last.max(0))))
    }

    /// `take` with the indices' (min, max) when the caller already has them.
    fn take_with(
        &self,
        op: &'static str,
        indices: &Array,
        axis: Option<isize>,
        bounds: Option<(i64, i64)>,
    ) -> Result<Array> {
        self.same_device(op, indices)?;
        let Some(axis) = axis else {
            return self.reshape(&[-1])?.take_with(op, indices, Some(0), bounds);
        };
        let ax = normalize_axis(op, axis, self.ndim())?;
        if self.dtype().is_complex() {
            // Both parts of each element: the same axis of the parts view.
            let parts = self
                .parts()
                .take_with(op, indices, Some(ax as isize), bounds)?;
            return Array::from_parts(&parts);
        }
        if !indices.dtype().is_int() {
            return Err(Error::invalid(
                op,
                format!("indices must be integers, got {}", indices.dtype()),
            ));
        }
        let n = self.shape()[ax];
        // 8- and 16-bit indices widen to i32 exactly; 64-bit ones are checked against the axis
        // here (NumPy's intp indices), then narrowed exactly.
        let indices = &match indices.dtype() {
            DType::I64 | DType::U64 if !indices.is_empty() => {
                check_wide_indices(op, indices, ax, n)?;
                indices.astype(DType::I32)?
            }
            DType::I8 | DType::U8 | DType::I16 | DType::U16 | DType::I64 | DType::U64 => {
                indices.astype(DType::I32)?
            }
            _ => indices.clone(),
        };
        let mut shape: Vec<usize> = self.shape()[..ax].to_vec();
        shape.extend_from_slice(indices.shape());
        shape.extend_from_slice(&self.shape()[ax + 1..]);
        let out = Array::empty(op, self.device(), &shape, self.dtype())?;
        if out.is_empty() {
            return Ok(out);
        }
        // The bounds in the indices' own dtype: a u32 index above i32::MAX would read as negative
        // once converted for the kernel, and the message must show the index the caller gave.
        let (lo, hi) = match bounds {
            Some(b) => b,
            None => index_bounds(op, indices)?,
        };
        let limit = n as i64;
        if let Some(bad) = [hi, lo].into_iter().find(|&i| i >= limit || i < -limit) {
            return Err(Error::invalid(
                op,
                format!("index {bad} is out of bounds for axis {ax} with size {n}"),
            ));
        }
        // In range, so below 2^31: the conversion of u32 indices is exact.
        let idx = match indices.dtype() {
            DType::I32 => indices.contiguous()?,
            _ => indices.astype(DType::I32)?,
        };
        // (outer, j, inner) over a contiguous copy of the data.
        let x = self.contiguous()?;
        let outer: usize = self.shape()[..ax].iter().product();
        let inner: usize = self.shape()[ax + 1..].iter().product();
        gather(&x, &idx, &out, outer, n, inner)?;
        Ok(out)
    }
}

/// `Err` naming the first 64-bit index outside `[-n, n)` (NumPy's message), found on the device
/// by comparisons; the indices are read back only to name it.
fn check_wide_indices(op: &'static str, indices: &Array, ax: usize, n: usize) -> Result<()> {
    let limit = n as f64;
    // n (below 2^53, as any axis a buffer holds) is exact in f64 and in the indices' dtype,
    // where the comparison runs.
    let below = if indices.dtype() == DType::I64 {
        Some(indices.lt(-limit)?)
    } else {
        None
    };
    let above = indices.ge(limit)?;
    let bad = match below {
        Some(b) => b.logical_or(&above)?,
        None => above,
    };
    if !read_any(&bad)? {
        return Ok(());
    }
    let first_bad = read_wide(indices)?
        .into_iter()
        .find(|&i| i >= n as i128 || i < -(n as i128))
        .unwrap_or_default();
    Err(Error::invalid(
        op,
        format!("index {first_bad} is out of bounds for axis {ax} with size {n}"),
    ))
}

/// Whether any element of a bool array is true, read back.
#[cfg(not(target_arch = "wasm32"))]
fn read_any(mask: &Array) -> Result<bool> {
    Ok(mask.any(crate::layout::Axes::All, false)?.to_vec_bool()?[0])
}

#[cfg(target_arch = "wasm32")]
fn read_any(_: &Array) -> Result<bool> {
    Err(crate::error::needs_blocking_readback(
        "take",
        "checking the bounds of 64-bit indices held on the device",
    ))
}

/// A 64-bit index array on the host (only to name a bad index in an error).
#[cfg(not(target_arch = "wasm32"))]
fn read_wide(indices: &Array) -> Result<Vec<i128>> {
    Ok(match indices.dtype() {
        DType::I64 => indices
            .to_vec::<i64>()?
            .into_iter()
            .map(i128::from)
            .collect(),
        _ => indices
            .to_vec::<u64>()?
            .into_iter()
            .map(i128::from)
            .collect(),
    })
}

#[cfg(target_arch = "wasm32")]
fn read_wide(_: &Array) -> Result<Vec<i128>> {
    Ok(Vec::new())
}

/// The smallest and largest index, read back (in the indices' own dtype).
#[cfg(not(target_arch = "wasm32"))]
fn index_bounds(_op: &'static str, indices: &Array) -> Result<(i64, i64)> {
    Ok(match indices.dtype() {
        DType::I32 => (
            i64::from(
                indices
                    .min(crate::layout::Axes::All, false)?
                    .item::<i32>()?,
            ),
            i64::from(
                indices
                    .max(crate::layout::Axes::All, false)?
                    .item::<i32>()?,
            ),
        ),
        _ => (
            i64::from(
                indices
                    .min(crate::layout::Axes::All, false)?
                    .item::<u32>()?,
            ),
            i64::from(
                indices
                    .max(crate::layout::Axes::All, false)?
                    .item::<u32>()?,
            ),
        ),
    })
}

/// On wasm32 the bounds cannot be read back without blocking, and an index past them would read
/// a clamped element silently: `take` is refused (`take_async` reads them by awaiting).
#[cfg(target_arch = "wasm32")]
fn index_bounds(op: &'static str, _: &Array) -> Result<(i64, i64)> {
    Err(crate::error::needs_blocking_readback(
        op,
        "checking the bounds of indices held on the device (use take_async)",
    ))
}

/// [`index_bounds`] by awaiting the readbacks.
async fn index_bounds_async(indices: &Array) -> Result<(i64, i64)> {
    use crate::layout::Axes;
    let (lo, hi) = (
        indices.min(Axes::All, false)?,
        indices.max(Axes::All, false)?,
    );
    Ok(match indices.dtype() {
        DType::I32 => (
            i64::from(lo.item_async::<i32>().await?),
            i64::from(hi.item_async::<i32>().await?),
        ),
        _ => (
            i64::from(lo.item_async::<u32>().await?),
            i64::from(hi.item_async::<u32>().await?),
        ),
    })
}

// ---- take: launch code --------------------------------------------------------------------

/// `out[o, j, i] = x[o, idx[j], i]` for contiguous `x` of shape (outer, n, inner), i32 `idx`
/// already checked to lie in `[-n, n)`, and a fresh contiguous `out` of (outer, len(idx), inner).
pub(crate) fn gather(
    x: &Array,
    idx: &Array,
    out: &Array,
    outer: usize,
    n: usize,
    inner: usize,
) -> Result<()> {
    let op = "take";
    let nj = idx.len();
    let (o, j, i, nn) = (outer as u64, nj as u64, inner as u64, n as u64);
    let dev = &x.device().inner;
    let limits = dev.block_limits();
    let key = PipelineKey::new(&TAKE, Variant::one(x.dtype()));
    let max_dim = dev.limits.max_compute_workgroups_per_dimension;
    let i32_of =
        |v: usize| i32::try_from(v).map_err(|_| Error::overflow(op, format!("stride {v}")));
    // Rows of the taken axis per pass: as many as one binding holds.
    let row_bytes = (inner as u64 * x.dtype().size_bytes()).max(1);
    let rows = (limits.max_binding / row_bytes).clamp(1, nn);
    let mut r0 = 0u64;
    while r0 < nn {
        let nr = rows.min(nn - r0);
        let xo = BlockOperand {
            offset: x.layout.offset as i64 + (r0 * i) as i64,
            strides: vec![(n * inner) as i64, 0, 1, inner as i64],
            elem_bytes: x.dtype().size_bytes(),
            buffer_bytes: x.storage.bytes(),
        };
        let io = BlockOperand {
            offset: idx.layout.offset as i64,
            strides: vec![0, 1, 0, 0],
            elem_bytes: 4,
            buffer_bytes: idx.storage.bytes(),
        };
        let oo = BlockOperand {
            offset: 0,
            strides: vec![(nj * inner) as i64, inner as i64, 1, 0],
            elem_bytes: out.dtype().size_bytes(),
            buffer_bytes: out.storage.bytes(),
        };
        // The rows of this pass are one unsplittable block dimension: any of them may be read.
        // They are the window a block reads, not launched: only (o, j, i) count toward a block's
        // invocations (counting the rows too cut a gather of 2^22 elements into 16,384 launches).
        let pass_limits = BlockLimits {
            max_elems: limits.max_elems.saturating_mul(nr),
            ..limits
        };
        let blocks = plan_granular(
            op,
            &[o, j, i, nr],
            &[1, 1, 1, nr],
            &[xo, io, oo],
            pass_limits,
        )?;
        dev.guarded(op, || {
            for b in &blocks {
                let [bo, bj, bi] = [b.extent[0], b.extent[1], b.extent[2]];
                let mut p = Params::default();
                p.u32(bo as u32).u32(bj as u32).u32(bi as u32).u32(n as u32);
                // Strides of axes a block does not span are never used: pass 0 rather than
                // values that might not fit in i32.
                let x_os = if bo > 1 { i32_of(n * inner)? } else { 0 };
                let out_os = if bo > 1 { i32_of(nj * inner)? } else { 0 };
                p.i32(b.windows[0].base as i32)
                    .i32(x_os)
                    .i32(i32_of(inner)?)
                    .i32(1);
                p.i32(b.windows[1].base as i32)
                    .i32(b.windows[2].base as i32)
                    .i32(out_os)
                    .i32(i32_of(inner)?);
                p.i32(r0 as i32).i32((r0 + nr) as i32);
                let count = bo * bj * bi;
                let (gx, gy) = grid(count.div_ceil(256), max_dim)
                    .ok_or_else(|| Error::overflow(op, format!("{count} elements")))?;
                let binds = [
                    bind(x, &b.windows[0]),
                    bind(idx, &b.windows[1]),
                    bind(out, &b.windows[2]),
                ];
                dev.dispatch_grid(
                    &key,
                    p.bytes(),
                    &binds,
                    (gx, gy, 1),
                    Work::moves(format!(
                        "take ({bo}, {bj}, {bi}) rows {r0}..{} of {n}",
                        r0 + nr
                    )),
                )?;
            }
            Ok(())
        })?;
        r0 += nr;
    }
    Ok(())
}

fn bind<'a>(a: &'a Array, w: &Window) -> Binding<'a> {
    Binding::of(a.storage.buffer().expect("non-empty"), w)
}

/// `a` gathered along `axis` at host `indices` (each `< a.shape()[axis]`, checked by the
/// caller): the random module's permutations and samples.
pub(crate) fn take_axis(
    op: &'static str,
    a: &Array,
    axis: usize,
    indices: &[u64],
) -> Result<Array> {
    let idx: Vec<i32> = indices
        .iter()
        .map(|&i| {
            i32::try_from(i)
                .map_err(|_| Error::overflow(op, format!("index {i} does not fit in i32")))
        })
        .collect::<Result<_>>()?;
    let shape = a.shape();
    let mut out_shape = shape.to_vec();
    out_shape[axis] = idx.len();
    let out = Array::empty(op, a.device(), &out_shape, a.dtype())?;
    if out.is_empty() {
        return Ok(out);
    }
    let idx = Array::from_slice(a.device(), &idx, &[indices.len()])?;
    let x = a.contiguous()?;
    let outer: usize = shape[..axis].iter().product();
    let inner: usize = shape[axis + 1..].iter().product();
    gather(&x, &idx, &out, outer, shape[axis], inner)?;
    Ok(out)
}

/// Gather along one axis with an i32 index array (`shaders/take.wgsl`), any dtype. Declared for
/// the device; in the eager plan.
pub(crate) static TAKE: crate::device::KernelDef = crate::device::KernelDef {
    when: crate::device::When::Eager,
    // Moves elements only: software f64 is its bits.
    soft_f64: true,
    packed_f16: true,
    ..crate::device::KernelDef::on_first_use(
        "take",
        "main",
        &[("WG", crate::device::DEFAULT_WG)],
        crate::device::KernelDef::every_dtype,
        |v| {
            crate::device::element_access::read_access("x", 1, v.stored(v.a))
                + &crate::device::element_access::write_access("out", 3, v.stored(v.a))
                + include_str!("../../shaders/take.wgsl")
        },
    )
};
