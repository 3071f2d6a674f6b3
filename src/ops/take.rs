//! Gather along an axis (`shaders/take.wgsl`): the host side of `Array::take`.

use crate::array::Array;
use crate::device::blocks::{grid, plan_granular, Operand, Window};
use crate::device::params::Params;
use crate::device::{Binding, Kernel, PipelineKey, Variant};
use crate::error::{Error, Result};

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
    let key = PipelineKey::new(Kernel::Take, Variant::one(x.dtype()));
    let max_dim = dev.limits.max_compute_workgroups_per_dimension;
    let i32_of =
        |v: usize| i32::try_from(v).map_err(|_| Error::overflow(op, format!("stride {v}")));
    // Rows of the taken axis per pass: as many as one binding holds.
    let row_bytes = (inner as u64 * x.dtype().size_bytes()).max(1);
    let rows = (limits.max_binding / row_bytes).clamp(1, nn);
    let mut r0 = 0u64;
    while r0 < nn {
        let nr = rows.min(nn - r0);
        let xo = Operand {
            offset: x.layout.offset as i64 + (r0 * i) as i64,
            strides: vec![(n * inner) as i64, 0, 1, inner as i64],
            elem_bytes: x.dtype().size_bytes(),
            buffer_bytes: x.storage.bytes(),
        };
        let io = Operand {
            offset: idx.layout.offset as i64,
            strides: vec![0, 1, 0, 0],
            elem_bytes: 4,
            buffer_bytes: idx.storage.bytes(),
        };
        let oo = Operand {
            offset: 0,
            strides: vec![(nj * inner) as i64, inner as i64, 1, 0],
            elem_bytes: out.dtype().size_bytes(),
            buffer_bytes: out.storage.bytes(),
        };
        // The rows of this pass are one unsplittable block dimension: any of them may be read.
        let blocks = plan_granular(op, &[o, j, i, nr], &[1, 1, 1, nr], &[xo, io, oo], limits)?;
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
                    &format!("take ({bo}, {bj}, {bi}) rows {r0}..{} of {n}", r0 + nr),
                )?;
            }
            Ok(())
        })?;
        r0 += nr;
    }
    Ok(())
}

fn bind<'a>(a: &'a Array, w: &Window) -> Binding<'a> {
    Binding {
        buffer: a.storage.buffer().expect("non-empty"),
        offset: w.byte_offset,
        size: w.byte_size,
    }
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
