//! Reductions over a leading or middle axis of a contiguous array (`shaders/reduce_cols.wgsl`),
//! e.g. sum(axis=0) of (N, M) or sum(axis=1) of (T, N, M): every output is a column (of one of
//! `batches` batches), `row_stride` apart down the rows. The
//! strided kernel would give each output a workgroup walking its own column, touching one
//! element per cache line; here consecutive invocations take consecutive columns of the same
//! rows. Stage 1 folds blocks of `BLOCK` rows into partials stored [M, blocks]; stage 2 is the
//! rows kernel over those rows (a tree per column), so there are two stages at most.

use super::common::{Reduction, new_partials, partial_dtype, u32_of, whole};
use super::families::REDUCE_COLS;
use super::rows::rows_stage2;
use crate::array::Array;
use crate::device::params::Params;
use crate::device::{Binding, PipelineKey, Variant};
use crate::error::{Error, Result};

/// Workgroup size of the columns kernel (no shared memory: only the launch granularity).
const COLS_WG: u64 = 64;
/// Invocations per span (one SIMD vector of lavapipe); each span covers 4 * LANES column quads.
const LANES: u64 = 8;
/// Rows per block: the terms each accumulator lane of an f32 sum adds before the stage-2 tree.
const BLOCK: u64 = 128;

/// Partials per column for `rows` rows (a layout check for the caller).
pub(super) fn cols_blocks(rows: u64) -> u64 {
    rows.div_ceil(BLOCK)
}

/// Reduces `batches` batches (`batch_stride` apart) of `rows` rows of `width` consecutive columns
/// (`row_stride` apart from `base` in the window `src`) down the columns into `out` (contiguous,
/// `batches * width` elements of `out_dtype`).
#[allow(clippy::too_many_arguments)]
pub(super) fn reduce_cols(
    r: &Reduction,
    src: Binding,
    base: u64,
    row_stride: i64,
    width: u64,
    rows: u64,
    (batches, batch_stride): (u64, i64),
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
    let blocks = cols_blocks(rows);
    let quads = width.div_ceil(4);
    let vec = base.is_multiple_of(4)
        && row_stride % 4 == 0
        && batch_stride % 4 == 0
        && width.is_multiple_of(4);
    let acc = partial_dtype(op, dtype);
    let partials = if blocks > 1 {
        Some(new_partials(opname, out, batches * width, blocks, acc)?)
    } else {
        None
    };
    let (dst, dt) = match &partials {
        Some(pa) => (whole(pa), acc),
        None => (whole(out), out_dtype),
    };
    let key = PipelineKey::bare(&REDUCE_COLS, Variant::pair(dtype, dt))
        .with("WG", COLS_WG as u32)
        .with("OP", op.code())
        .with("STAGE", 1)
        .with("VEC", u32::from(vec))
        .with("LANES", LANES as u32);
    let i32_of =
        |v: i64| i32::try_from(v).map_err(|_| Error::overflow(opname, format!("stride {v}")));
    let mut p = Params::default();
    p.u32(u32_of(base, "window base")?)
        .i32(i32_of(row_stride)?)
        .u32(u32_of(width, "columns")?)
        .u32(u32_of(rows, "rows")?)
        .u32(u32_of(quads, "column quads")?)
        .u32(u32_of(blocks, "row blocks")?)
        .u32(BLOCK as u32)
        .u32(u32_of(batches, "batches")?)
        .i32(i32_of(batch_stride)?);
    u32_of(batches * width * blocks, "partials")?;
    // The vec4 view ends at the last whole vec4 of the window.
    let v4 = 4 * eb;
    let src4 = src.whole_units(v4);
    let invocations = quads.div_ceil(4 * LANES) * LANES * blocks * batches;
    dev.dispatch(
        &key,
        p.bytes(),
        &[src, src4, dst],
        invocations,
        &[rows, width],
    )?;
    if let Some(pa) = &partials {
        rows_stage2(dev, opname, op, pa, batches * width, blocks, out_dtype, out)?;
    }
    Ok(())
}
