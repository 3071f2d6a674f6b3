//! Reductions over any strides (`shaders/reduce.wgsl`, `shaders/argreduce.wgsl`).
//!
//! A reduction sees its input as (outer, inner): the kept axes and the reduced ones, each group
//! collapsed to at most 4 strided axes. Each output's inner elements are split into `P` chunks;
//! stage 1 writes one result per (output, chunk) — the final value when `P == 1` — and stage 2
//! folds the `P` partials of each output. The chunk length grows like sqrt(K) (at least 64 terms
//! per invocation: fewer, fuller workgroups, which matters on lavapipe where every barrier is a
//! coroutine switch), so stage 2 always has a single chunk: two stages at most, for any size, and
//! every f32 sum is a fold of max(64, sqrt(K)/64) sequential terms per invocation under two trees
//! of log2(64) levels.
//!
//! Inputs whose every output reduces one contiguous run (whole contiguous arrays, trailing axes
//! of contiguous arrays) take the vec4 rows kernel of `reduce_rows.rs` instead, in one binding or
//! in pieces; this module's strided kernel serves the other layouts and the arg-reductions.
//!
//! An input whose elements do not fit one storage binding is first made contiguous in
//! (outer, inner) order (a copy only when it is not already), then reduced in pieces — groups of
//! rows, or segments of one row — whose chunks write to their own partial slots.

use super::cols::{cols_blocks, reduce_cols};
use super::common::{Group, ReduceOp, Reduction, partial_dtype, u32_of, whole};
use super::row_pieces::{piece_rows, row_pieces, segment_len};
use super::rows::{
    reduce_rows, reduce_rows_pieces, rows_chunking, unit, unit_bindable, vec4_bindable,
};
use crate::array::Array;
use crate::device::params::Params;
use crate::device::{Binding, DeviceInner, PipelineKey, Variant};
use crate::dtype::DType;
use crate::error::{Error, Result};

/// Workgroup size of the strided reduction kernels: a 6-level tree (every barrier is a
/// coroutine switch per 8 lanes on lavapipe).
const SWG: u64 = 64;
/// Reductions of at most this many elements per output run one invocation per output.
const SHORT: u64 = 16;

/// Chunk layout for `m` outputs of `k` elements: (MODE, chunk length, chunks per output).
fn chunking(op: ReduceOp, m: u64, k: u64) -> (u32, u64, u64) {
    if k <= SHORT && !op.is_arg() {
        return (1, k, 1);
    }
    if m >= 64 && k <= SWG * SWG {
        return (0, k, 1);
    }
    let per_invocation = (((k as f64).sqrt() / SWG as f64).ceil() as u64).max(64);
    let chunk = SWG * per_invocation;
    (0, chunk, k.div_ceil(chunk))
}

/// One stage-1 or stage-2 launch.
struct Stage<'a> {
    op: ReduceOp,
    stage: u32,
    mode: u32,
    variant: Variant,
    src: Binding<'a>,
    src_base: i64,
    outer: Group,
    inner: Group,
    m: u64,
    k: u64,
    chunk: u64,
    chunks: u64,
    dst: Binding<'a>,
    dst_idx: Option<Binding<'a>>,
    src_idx: Option<Binding<'a>>,
    dst_base: u64,
    dst_stride: u64,
    k_offset: u64,
}

fn record(dev: &DeviceInner, s: Stage) -> Result<()> {
    let kernel = if s.op.is_arg() {
        &super::families::ARGREDUCE
    } else {
        &super::families::REDUCE
    };
    let mut key = PipelineKey::bare(kernel, s.variant)
        .with("WG", SWG as u32)
        .with("OP", s.op.code())
        .with("STAGE", s.stage);
    if !s.op.is_arg() {
        key = key.with("MODE", s.mode);
    }
    let mut p = Params::default();
    s.outer.push(&mut p);
    s.inner.push(&mut p);
    p.i32(crate::device::params::base_i32(s.src_base)?)
        .u32(s.outer.shape.len() as u32)
        .u32(s.inner.shape.len() as u32)
        .u32(u32_of(s.m, "outputs")?)
        .u32(u32_of(s.k, "reduced elements")?)
        .u32(u32_of(s.chunks, "chunks")?)
        .u32(u32_of(s.chunk, "chunk")?)
        .u32(u32_of(s.dst_base, "result index")?)
        .u32(u32_of(s.dst_stride, "result stride")?);
    if s.op.is_arg() {
        p.u32(u32_of(s.k_offset, "index offset")?);
    }
    let invocations = if s.mode == 1 {
        s.m
    } else {
        s.m * s.chunks * SWG
    };
    let mut binds = vec![s.src];
    if s.op.is_arg() {
        let src_idx = s.src_idx.unwrap_or(binds[0]);
        binds.push(src_idx);
        binds.push(s.dst);
        binds.push(s.dst_idx.expect("arg reductions write indices"));
    } else {
        binds.push(s.dst);
    }
    dev.dispatch(&key, p.bytes(), &binds, invocations, &[s.m, s.k])
}

/// The result of a reduction launch: values (not for arg-reductions) and indices (only for them).
pub(crate) struct Reduced {
    pub values: Array,
    pub indices: Option<Array>,
}

/// Reduces `x` over `axes` (sorted, distinct, non-empty or not) into a fresh contiguous array of
/// the kept axes' shape (`out_dtype` for values; indices are u32). `K > 0` and `M > 0`.
pub(crate) fn reduce(
    opname: &'static str,
    op: ReduceOp,
    x: &Array,
    axes: &[usize],
    out_dtype: DType,
) -> Result<Reduced> {
    let dev_handle = x.device().clone();
    let dev = &dev_handle.inner;
    if dev.f16_emulated && (x.dtype() == DType::F16 || out_dtype == DType::F16) {
        // Packed f16 (no shader-f16): the reduction kernels read no packed halves. The f32
        // reduction of the widened values is what the native path computes (f16 accumulates in
        // f32), its values rounded once to f16.
        let wide = |d: DType| if d == DType::F16 { DType::F32 } else { d };
        let r = reduce(
            opname,
            op,
            &x.astype(wide(x.dtype()))?,
            axes,
            wide(out_dtype),
        )?;
        let values = if out_dtype == DType::F16 && !op.is_arg() {
            r.values.astype(DType::F16)?
        } else {
            r.values
        };
        return Ok(Reduced {
            values,
            indices: r.indices,
        });
    }
    let call = Reduction {
        dev,
        opname,
        op,
        dtype: x.dtype(),
        out_dtype,
    };
    let nd = x.ndim();
    let kept: Vec<usize> = (0..nd).filter(|d| !axes.contains(d)).collect();
    let out_shape: Vec<usize> = kept.iter().map(|&d| x.shape()[d]).collect();
    let (storage, layout) = x.storage_and_layout();
    let sh = |ds: &[usize]| -> Vec<u64> { ds.iter().map(|&d| layout.shape[d] as u64).collect() };
    let st = |ds: &[usize]| -> Vec<i64> { ds.iter().map(|&d| layout.strides[d] as i64).collect() };
    let outer = Group::collapsed(&sh(&kept), &st(&kept));
    let inner = Group::collapsed(&sh(axes), &st(axes));
    let (m, k) = (outer.numel(), inner.numel());
    debug_assert!(m > 0 && k > 0);
    let eb = x.dtype().size_bytes();
    let pdt = if op.is_arg() {
        partial_dtype(op, x.dtype())
    } else {
        out_dtype
    };
    let values = Array::empty(opname, &dev_handle, &out_shape, pdt)?;
    let indices = if op.is_arg() {
        Some(Array::empty(opname, &dev_handle, &out_shape, DType::U32)?)
    } else {
        None
    };
    let out = Reduced { values, indices };

    // Case A: the whole strided input fits one window, and so do the outputs.
    let (lo, hi) = layout.element_span();
    // The window holding the whole strided input, and its binding (None: the input spans more
    // than one binding, case B below).
    let whole = dev
        .window(lo, hi, layout.offset as i64, eb, storage.bytes())
        .map(|w| {
            let src = Binding::of(storage.buffer().expect("non-empty"), &w);
            (src, w.base)
        });
    // The fast path: every output reduces one contiguous run (rows `row_stride` apart).
    let rows = !op.is_arg()
        && inner.strides == [1]
        && outer.shape.len() == 1
        && m * 8 * rows_chunking(k, unit(1, x.dtype())).2 <= dev.max_window();
    if rows {
        if let Some((src, base)) = whole.filter(|(s, _)| unit_bindable(s.size, unit(1, x.dtype())))
        {
            return dev.guarded(opname, || {
                reduce_rows(&call, src, base as u64, outer.strides[0], m, k, &out.values)?;
                Ok(out)
            });
        }
    }
    // A leading (or middle) axis of a contiguous array: outputs are consecutive columns of
    // strided rows (in batches).
    let batched = match (&outer.shape[..], &outer.strides[..]) {
        (&[_], &[1]) => Some((1, 0)),
        (&[t, _], &[ts, 1]) => Some((t, ts)),
        _ => None,
    };
    let cols = !op.is_arg()
        && batched.is_some()
        && inner.shape.len() == 1
        && m * 8 * cols_blocks(k) <= dev.max_window();
    if cols {
        if let Some((src, base)) = whole.filter(|(s, _)| vec4_bindable(s.size, eb)) {
            return dev.guarded(opname, || {
                reduce_cols(
                    &call,
                    src,
                    base as u64,
                    inner.strides[0],
                    *outer.shape.last().expect("one or two axes"),
                    k,
                    batched.expect("checked"),
                    &out.values,
                )?;
                Ok(out)
            });
        }
    }
    let fits = outer.shape.len() <= 4
        && inner.shape.len() <= 4
        && m * 8 * chunking(op, m, k).2 <= dev.max_window();
    if let (true, Some((src, base))) = (fits, whole) {
        return dev.guarded(opname, || {
            run(&call, src, base, outer, inner, 0, &out)?;
            Ok(out)
        });
    }

    // Case B: contiguous (outer, inner) rows, reduced in pieces that each fit a window (value
    // reductions by the rows kernel, arg-reductions by the strided one below).
    let perm: Vec<usize> = kept.iter().chain(axes.iter()).copied().collect();
    let c = x.transpose(&perm)?.contiguous()?;
    let (cs, cl) = c.storage_and_layout();
    let buffer = cs.buffer().expect("non-empty");
    let off0 = cl.offset as i64;
    if !op.is_arg() {
        dev.guarded(opname, || {
            reduce_rows_pieces(&call, buffer, cs.bytes(), off0, m, k, &out.values)
        })?;
        return Ok(out);
    }
    // Only arg-reductions remain here: (value, index) partials, or the outputs when there is
    // one chunk per output.
    let (_, chunk, p_total) = chunking(op, m, k);
    let win_elems = (dev.max_window() - 256) / eb;
    dev.guarded(opname, || {
        let acc = partial_dtype(op, x.dtype());
        let (partials, part_idx) = if p_total > 1 {
            let shape = [m as usize, p_total as usize];
            (
                Some(Array::empty(opname, &dev_handle, &shape, acc)?),
                Some(Array::empty(opname, &dev_handle, &shape, DType::U32)?),
            )
        } else {
            (None, None)
        };
        let (dst_arr, dst_idx_arr): (&Array, Option<&Array>) = match (&partials, &part_idx) {
            (Some(pa), Some(pi)) => (pa, Some(pi)),
            _ => (&out.values, out.indices.as_ref()),
        };
        let stage1_dt = acc;
        let seg = segment_len(k, win_elems, chunk);
        let rows_per_piece = piece_rows(k, seg, win_elems, dev.max_window() - 256, p_total);
        let pieces = row_pieces(off0, m, k, seg, rows_per_piece);
        for pc in pieces {
            let sw = dev
                .window(pc.first, pc.last, pc.first, eb, cs.bytes())
                .ok_or_else(|| Error::overflow(opname, "reduction piece exceeds a binding"))?;
            let (mode, ch, chunks) = if seg == k {
                let (md, ch, p) = chunking(op, m, k);
                (md, ch, p)
            } else {
                (0, chunk, pc.kl.div_ceil(chunk))
            };
            let d_first = (pc.m0 * p_total + pc.k0 / chunk) as i64;
            let d_last = d_first + ((pc.rows - 1) * p_total + chunks - 1) as i64;
            let deb = dst_arr.dtype().size_bytes();
            let (dstore, _) = dst_arr.storage_and_layout();
            let dw = dev
                .window(d_first, d_last, d_first, deb, dstore.bytes())
                .ok_or_else(|| Error::overflow(opname, "reduction output exceeds a binding"))?;
            let idx_bind = dst_idx_arr.map(|ia| {
                let (istore, _) = ia.storage_and_layout();
                let iw = dev
                    .window(d_first, d_last, d_first, 4, istore.bytes())
                    .expect("indices fit like values");
                (istore.buffer().expect("non-empty"), iw)
            });
            let base_dst = dw.base as u64;
            record(
                dev,
                Stage {
                    op,
                    stage: 1,
                    mode,
                    variant: Variant::pair(x.dtype(), stage1_dt),
                    src: Binding::of(buffer, &sw),
                    src_base: sw.base,
                    outer: Group {
                        shape: vec![pc.rows],
                        strides: vec![k as i64],
                    },
                    inner: Group {
                        shape: vec![pc.kl],
                        strides: vec![1],
                    },
                    m: pc.rows,
                    k: pc.kl,
                    chunk: ch,
                    chunks,
                    dst: Binding::of(dstore.buffer().expect("non-empty"), &dw),
                    dst_idx: idx_bind.as_ref().map(|(b, iw)| Binding::of(b, iw)),
                    src_idx: None,
                    dst_base: base_dst,
                    dst_stride: p_total,
                    k_offset: pc.k0,
                },
            )?;
        }
        if let Some(pa) = &partials {
            stage2(
                dev,
                opname,
                op,
                pa,
                part_idx.as_ref(),
                m,
                p_total,
                out_dtype,
                &out,
            )?;
        }
        Ok(())
    })?;
    Ok(out)
}

/// Case A: stage 1 over the strided window, then stage 2 when there are several chunks.
fn run(
    r: &Reduction,
    src: Binding,
    src_base: i64,
    outer: Group,
    inner: Group,
    k_offset: u64,
    out: &Reduced,
) -> Result<()> {
    let Reduction {
        dev,
        opname,
        op,
        dtype,
        out_dtype,
    } = *r;
    let (m, k) = (outer.numel(), inner.numel());
    let (mode, chunk, chunks) = chunking(op, m, k);
    if chunks == 1 {
        let (dst, dst_idx, variant) = if op.is_arg() {
            (
                whole(&out.values),
                Some(whole(out.indices.as_ref().expect("indices"))),
                Variant::pair(dtype, partial_dtype(op, dtype)),
            )
        } else {
            (whole(&out.values), None, Variant::pair(dtype, out_dtype))
        };
        return record(
            dev,
            Stage {
                op,
                stage: 1,
                mode,
                variant,
                src,
                src_base,
                outer,
                inner,
                m,
                k,
                chunk,
                chunks,
                dst,
                dst_idx,
                src_idx: None,
                dst_base: 0,
                dst_stride: 1,
                k_offset,
            },
        );
    }
    let acc = partial_dtype(op, dtype);
    let dev_handle = out.values.device().clone();
    let partials = Array::empty(opname, &dev_handle, &[m as usize, chunks as usize], acc)?;
    let part_idx = if op.is_arg() {
        Some(Array::empty(
            opname,
            &dev_handle,
            &[m as usize, chunks as usize],
            DType::U32,
        )?)
    } else {
        None
    };
    record(
        dev,
        Stage {
            op,
            stage: 1,
            mode,
            variant: Variant::pair(dtype, acc),
            src,
            src_base,
            outer,
            inner,
            m,
            k,
            chunk,
            chunks,
            dst: whole(&partials),
            dst_idx: part_idx.as_ref().map(whole),
            src_idx: None,
            dst_base: 0,
            dst_stride: chunks,
            k_offset,
        },
    )?;
    stage2(
        dev,
        opname,
        op,
        &partials,
        part_idx.as_ref(),
        m,
        chunks,
        out_dtype,
        out,
    )
}

/// Folds contiguous partials `[m, p]` (and their indices) into the outputs, one chunk each.
#[allow(clippy::too_many_arguments)]
fn stage2(
    dev: &DeviceInner,
    opname: &'static str,
    op: ReduceOp,
    partials: &Array,
    part_idx: Option<&Array>,
    m: u64,
    p: u64,
    out_dtype: DType,
    out: &Reduced,
) -> Result<()> {
    let acc = partials.dtype();
    fn bind_rows<'a>(
        dev: &DeviceInner,
        opname: &'static str,
        a: &'a Array,
        m0: u64,
        rows: u64,
        width: u64,
    ) -> Result<(Binding<'a>, i64)> {
        let (s, _) = a.storage_and_layout();
        let eb = a.dtype().size_bytes();
        let first = (m0 * width) as i64;
        let w = dev
            .window(
                first,
                first + (rows * width) as i64 - 1,
                first,
                eb,
                s.bytes(),
            )
            .ok_or_else(|| Error::overflow(opname, "partials exceed a binding"))?;
        Ok((Binding::of(s.buffer().expect("non-empty"), &w), w.base))
    }
    let rows_per = ((dev.max_window() - 256) / (8 * p)).max(1);
    let mut m0 = 0;
    while m0 < m {
        let rows = rows_per.min(m - m0);
        let (src, base) = bind_rows(dev, opname, partials, m0, rows, p)?;
        let src_idx = match part_idx {
            Some(pi) => Some(bind_rows(dev, opname, pi, m0, rows, p)?.0),
            None => None,
        };
        let (dst, dbase) = bind_rows(dev, opname, &out.values, m0, rows, 1)?;
        let dst_idx = match &out.indices {
            Some(ix) => Some(bind_rows(dev, opname, ix, m0, rows, 1)?.0),
            None => None,
        };
        let variant = if op.is_arg() {
            Variant::pair(acc, acc)
        } else {
            Variant::pair(acc, out_dtype)
        };
        record(
            dev,
            Stage {
                op,
                stage: 2,
                mode: 0,
                variant,
                src,
                src_base: base,
                outer: Group {
                    shape: vec![rows],
                    strides: vec![p as i64],
                },
                inner: Group {
                    shape: vec![p],
                    strides: vec![1],
                },
                m: rows,
                k: p,
                chunk: p,
                chunks: 1,
                dst,
                dst_idx,
                src_idx,
                dst_base: dbase as u64,
                dst_stride: 1,
                k_offset: 0,
            },
        )?;
        m0 += rows;
    }
    Ok(())
}
