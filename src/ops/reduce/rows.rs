//! The fast path of the value reductions (`shaders/reduce_rows.wgsl`): `m` rows of `k`
//! consecutive elements, read as vec4s (f16 in stage 1: eight packed halves per load,
//! `reduce_rows_f16x8.wgsl`, which made f16 sums about 3x faster on lavapipe). It serves whole
//! contiguous arrays, trailing axes of contiguous arrays (rows `row_stride` apart, so a sliced
//! last axis qualifies too), the pieces of arrays larger than one binding, and every stage 2
//! (partials are rows).
//!
//! Stage 1 splits each row into chunks of `ROWS_WG * t` body units, `t` (units per invocation, a
//! multiple of 4 from 16 to 256) chosen so a long row gives about 64 workgroups; from 2^22
//! elements per row on the chunks stop growing (t = 256), and stage 2 folds at most 2^16 partials
//! per row for rows of up to 2^32 elements, in one workgroup. So there are two stages at most,
//! and an f32 sum adds at most 64 terms sequentially in each of 16 accumulator lanes per
//! invocation (256 in a row of up to 4096 elements folded by one invocation), under trees.
//!
//! Measured on lavapipe (2 cores, `cargo run --release --example ops`): sum of 2^26 f32 went
//! from 0.88 GB/s with the strided kernel to 9.4 GB/s; each 32-bit element still costs one trip
//! of lavapipe's per-lane load loop, which is what bounds it.

use super::common::{ReduceOp, Reduction, new_partials, partial_dtype, u32_of, whole};
use super::row_pieces::{piece_rows, row_pieces, segment_len};
use crate::array::Array;
use crate::device::params::Params;
use crate::device::{Binding, DeviceInner, PipelineKey, Variant};
use crate::dtype::DType;
use crate::error::{Error, Result};

/// Workgroup size of the rows kernel: a small tree (6 levels of barriers, each a coroutine
/// switch per 8 lanes on lavapipe) under a long sequential run.
const ROWS_WG: u64 = 64;
/// Rows of at most this many elements are folded by one invocation each (MODE 1): at most 256
/// terms per accumulator lane, and no tree (sum over the last axis of (4096, 4096) f32: 6.8 GB/s
/// this way, 2.8 GB/s with a workgroup per row).
const ROWS_SHORT: u64 = 4096;
/// Vec4s per invocation of a stage-1 chunk, at most (64 rounds of four loads).
const MAX_T: u64 = 256;

/// What one load of the rows kernel reads: `elems` elements in `bytes` bytes.
#[derive(Debug, Clone, Copy)]
pub(super) struct Unit {
    pub elems: u64,
    pub bytes: u64,
}

/// The load unit for `stage` over `dtype`: eight packed halves for f16 elements (stage 1; its
/// partials are f32), a vec4 of elements otherwise.
pub(super) fn unit(stage: u32, dtype: DType) -> Unit {
    if stage == 1 && dtype == DType::F16 {
        Unit {
            elems: 8,
            bytes: 16,
        }
    } else {
        Unit {
            elems: 4,
            bytes: 4 * dtype.size_bytes(),
        }
    }
}

/// How rows of `k` elements are launched: (MODE, body units per workgroup, workgroups per row).
pub(super) fn rows_chunking(k: u64, u: Unit) -> (u32, u64, u64) {
    if k <= ROWS_SHORT {
        return (1, 0, 1);
    }
    let k4 = k / u.elems;
    let t = k4
        .div_ceil(ROWS_WG * 64)
        .next_multiple_of(4)
        .clamp(16, MAX_T);
    let chunk = ROWS_WG * t;
    (0, chunk, k4.div_ceil(chunk).max(1))
}

/// Layout of a stage that must finish each row in one workgroup (stage 2: a few rows, cheap, so
/// one invocation per row only up to 256 partials, 16 terms per accumulator lane).
fn single_chunk(k: u64, u: Unit) -> (u32, u64, u64) {
    if k <= 256 {
        return (1, 0, 1);
    }
    let t = (k / u.elems).div_ceil(ROWS_WG).next_multiple_of(4).max(4);
    (0, ROWS_WG * t, 1)
}

/// One launch of the rows kernel.
pub(super) struct RowsLaunch<'a> {
    pub op: ReduceOp,
    pub stage: u32,
    pub variant: Variant,
    /// The source window, bound as scalars and as units.
    pub src: Binding<'a>,
    pub base: u64,
    pub row_stride: i64,
    pub m: u64,
    pub k: u64,
    pub layout: (u32, u64, u64),
    pub dst: Binding<'a>,
    pub dst_base: u64,
    pub dst_stride: u64,
}

/// Whether a window of `size` bytes can be bound as vec4s of `eb`-byte elements.
pub(super) fn vec4_bindable(size: u64, eb: u64) -> bool {
    size >= 4 * eb
}

/// Whether a window of `size` bytes holds one load unit.
pub(super) fn unit_bindable(size: u64, u: Unit) -> bool {
    size >= u.bytes
}

pub(super) fn record_rows(dev: &DeviceInner, l: RowsLaunch) -> Result<()> {
    let (mode, chunk, chunks) = l.layout;
    let u = unit(l.stage, l.variant.a);
    let kernel = if u.elems == 8 {
        &super::families::REDUCE_ROWS_F16
    } else {
        &super::families::REDUCE_ROWS
    };
    let key = PipelineKey::bare(kernel, l.variant)
        .with("WG", ROWS_WG as u32)
        .with("OP", l.op.code())
        .with("STAGE", l.stage)
        .with("MODE", mode);
    let row_stride = i32::try_from(l.row_stride)
        .map_err(|_| Error::overflow("reduce", format!("row stride {}", l.row_stride)))?;
    let mut p = Params::default();
    p.u32(u32_of(l.base, "window base")?)
        .i32(row_stride)
        .u32(u32_of(l.m, "rows")?)
        .u32(u32_of(l.k, "reduced elements")?)
        .u32(u32_of(chunks, "chunks")?)
        .u32(u32_of(chunk, "chunk")?)
        .u32(u32_of(l.dst_base, "result index")?)
        .u32(u32_of(l.dst_stride, "result stride")?);
    // The unit view ends at the last whole unit of the window.
    let units = l.src.whole_units(u.bytes);
    let invocations = if mode == 1 {
        l.m
    } else {
        l.m * chunks * ROWS_WG
    };
    dev.dispatch(
        &key,
        p.bytes(),
        &[l.src, units, l.dst],
        invocations,
        &[l.m, l.k],
    )
}

/// Reduces `m` rows of `k` elements (`row_stride` apart from `base` in the window `src`) into
/// `out` (contiguous, `m` elements of `out_dtype`): one stage, or two with partials.
pub(super) fn reduce_rows(
    r: &Reduction,
    src: Binding,
    base: u64,
    row_stride: i64,
    m: u64,
    k: u64,
    out: &Array,
) -> Result<()> {
    let Reduction {
        dev,
        opname,
        op,
        dtype,
        out_dtype,
    } = *r;
    let layout = rows_chunking(k, unit(1, dtype));
    if layout.2 == 1 {
        return record_rows(
            dev,
            RowsLaunch {
                op,
                stage: 1,
                variant: Variant::pair(dtype, out_dtype),
                src,
                base,
                row_stride,
                m,
                k,
                layout,
                dst: whole(out),
                dst_base: 0,
                dst_stride: 1,
            },
        );
    }
    let acc = partial_dtype(op, dtype);
    let chunks = layout.2;
    let partials = new_partials(opname, out, m, chunks, acc)?;
    record_rows(
        dev,
        RowsLaunch {
            op,
            stage: 1,
            variant: Variant::pair(dtype, acc),
            src,
            base,
            row_stride,
            m,
            k,
            layout,
            dst: whole(&partials),
            dst_base: 0,
            dst_stride: chunks,
        },
    )?;
    rows_stage2(dev, opname, op, &partials, m, chunks, out_dtype, out)
}

/// Folds contiguous partials `[m, p]` (from `new_partials`) into `out`, one workgroup (or invocation) per row, in as
/// many launches as the bindings need.
#[allow(clippy::too_many_arguments)]
pub(super) fn rows_stage2(
    dev: &DeviceInner,
    opname: &'static str,
    op: ReduceOp,
    partials: &Array,
    m: u64,
    p: u64,
    out_dtype: DType,
    out: &Array,
) -> Result<()> {
    let acc = partials.dtype();
    let eb = acc.size_bytes();
    let (ps, _) = partials.storage_and_layout();
    let (os, _) = out.storage_and_layout();
    let rows_per = ((dev.max_window() - 256) / (eb * p)).max(1);
    let mut m0 = 0;
    while m0 < m {
        let rows = rows_per.min(m - m0);
        let first = (m0 * p) as i64;
        let last = first + (rows * p).max(4) as i64 - 1;
        let sw = dev
            .window(first, last, first, eb, ps.bytes())
            .filter(|w| unit_bindable(w.byte_size, unit(2, acc)))
            .ok_or_else(|| Error::overflow(opname, "partials exceed a binding"))?;
        let oeb = out_dtype.size_bytes();
        let dw = dev
            .window(
                m0 as i64,
                (m0 + rows) as i64 - 1,
                m0 as i64,
                oeb,
                os.bytes(),
            )
            .ok_or_else(|| Error::overflow(opname, "results exceed a binding"))?;
        let src = Binding::of(ps.buffer().expect("non-empty"), &sw);
        record_rows(
            dev,
            RowsLaunch {
                op,
                stage: 2,
                variant: Variant::pair(acc, out_dtype),
                src,
                base: sw.base as u64,
                row_stride: p as i64,
                m: rows,
                k: p,
                layout: single_chunk(p, unit(2, acc)),
                dst: Binding::of(os.buffer().expect("non-empty"), &dw),
                dst_base: dw.base as u64,
                dst_stride: 1,
            },
        )?;
        m0 += rows;
    }
    Ok(())
}

/// Reduces the contiguous `[m, k]` rows of `c` (elements from `off0` of `buffer`, `bytes` long),
/// larger than one binding, into `out`: stage 1 over pieces that each fit a window — groups of
/// whole rows, or segments of one row whose chunks write their own partial slots — then stage 2.
pub(super) fn reduce_rows_pieces(
    r: &Reduction,
    buffer: &wgpu::Buffer,
    bytes: u64,
    off0: i64,
    m: u64,
    k: u64,
    out: &Array,
) -> Result<()> {
    let Reduction {
        dev,
        opname,
        op,
        dtype,
        out_dtype,
    } = *r;
    let eb = dtype.size_bytes();
    let win_elems = (dev.max_window() - 256) / eb;
    let u = unit(1, dtype);
    let (mode, chunk, row_chunks) = rows_chunking(k, u);
    // Segments are whole numbers of chunks (`span` elements each, chunk > 0 for such rows).
    let span = u.elems * chunk;
    let seg = segment_len(k, win_elems, span);
    let seg_chunks = |kl: u64| -> u64 {
        if seg == k {
            row_chunks
        } else {
            (kl / u.elems).div_ceil(chunk).max(1)
        }
    };
    let p_total = if seg == k {
        row_chunks
    } else {
        let rest = k % seg;
        (k / seg) * (seg / span) + if rest > 0 { seg_chunks(rest) } else { 0 }
    };
    let acc = partial_dtype(op, dtype);
    let partials = if p_total > 1 {
        Some(new_partials(opname, out, m, p_total, acc)?)
    } else {
        None
    };
    let (dst_arr, stage1_dt) = match &partials {
        Some(pa) => (pa, acc),
        None => (out, out_dtype),
    };
    let deb = dst_arr.dtype().size_bytes();
    let (dstore, _) = dst_arr.storage_and_layout();
    let rows_per_piece = piece_rows(k, seg, win_elems, dev.max_window() - 256, p_total);
    let pieces = row_pieces(off0, m, k, seg, rows_per_piece);
    for pc in pieces {
        let sw = dev
            .window(pc.first, pc.last, pc.first, eb, bytes)
            .filter(|w| unit_bindable(w.byte_size, u))
            .ok_or_else(|| Error::overflow(opname, "reduction piece exceeds a binding"))?;
        let chunks = seg_chunks(pc.kl);
        let layout = if seg == k {
            (mode, chunk, chunks)
        } else {
            (0, chunk, chunks)
        };
        // Full segments before this one each wrote seg / span partials.
        let d_first = if seg == k {
            (pc.m0 * p_total) as i64
        } else {
            (pc.m0 * p_total + pc.k0 / seg * (seg / span)) as i64
        };
        let d_last = d_first + ((pc.rows - 1) * p_total + chunks - 1) as i64;
        let dw = dev
            .window(d_first, d_last, d_first, deb, dstore.bytes())
            .ok_or_else(|| Error::overflow(opname, "reduction output exceeds a binding"))?;
        record_rows(
            dev,
            RowsLaunch {
                op,
                stage: 1,
                variant: Variant::pair(dtype, stage1_dt),
                src: Binding::of(buffer, &sw),
                base: sw.base as u64,
                row_stride: k as i64,
                m: pc.rows,
                k: pc.kl,
                layout,
                dst: Binding::of(dstore.buffer().expect("non-empty"), &dw),
                dst_base: dw.base as u64,
                dst_stride: p_total,
            },
        )?;
    }
    if let Some(pa) = &partials {
        rows_stage2(dev, opname, op, pa, m, p_total, out_dtype, out)?;
    }
    Ok(())
}
