//! Sorting arrays past one storage binding. The sorts of `bitonic.rs` and `radix.rs` bind their
//! keys, indices and input whole, so larger arrays are sorted one binding at a time:
//!
//! - rows that each fit go in groups of whole rows, each group sorted alone into its rows of
//!   the result;
//! - a longer row is cut into parts that each fit, every part sorted alone, and each element
//!   then placed by its rank in the whole row: its position in its own part plus, for every other
//!   part, how many of that part's elements go before it (a `searchsorted` of the part: right for
//!   parts before its own, so equal elements keep their order, left for parts after). The ranks
//!   are a permutation of the row, and `shaders/scatter.wgsl` writes each part's values (or
//!   indices) there, one launch per window of the output.
//!
//! Every step is a kernel on the device; nothing comes back to the host.

use super::{finish, fits_one_binding, sort_fitting, sort_keys, sorted_output};
use crate::array::Array;
use crate::device::params::Params;
use crate::device::{PipelineKey, Variant};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::SliceArg;
use crate::ops::search::Side;
use crate::ops::{contiguous_window, window_elements};

fn range(lo: usize, hi: usize) -> SliceArg {
    SliceArg::range(Some(lo as isize), Some(hi as isize), 1)
}

/// The sorted values (`x`'s dtype) or i32 indices of every row of the contiguous 2-d `x`,
/// which does not fit one storage binding.
pub(super) fn sort_past_one_binding(
    op: &'static str,
    x: &Array,
    dtype_code: u32,
    indices: bool,
) -> Result<Array> {
    let (rows, n) = (x.shape()[0], x.shape()[1]);
    if n > i32::MAX as usize {
        return Err(Error::TooLarge {
            op,
            requested: n as u64,
            max: i32::MAX as u64,
            what: "sort row length (its indices and ranks are i32)",
        });
    }
    // The most elements one sort binds: its input, and its keys and indices of 4 bytes each.
    let elem_bytes = x.dtype().size_bytes().max(4);
    let part = window_elements(&x.device.inner, elem_bytes) as usize;
    let out = sorted_output(op, x, indices)?;
    if n <= part {
        let group = part / n;
        for r0 in (0..rows).step_by(group) {
            let r1 = (r0 + group).min(rows);
            // A copy starts at the buffer's start, where the sort binds it.
            let block = x.slice(&[range(r0, r1)])?.astype(x.dtype())?;
            debug_assert!(fits_one_binding(&block, block.len()));
            let sorted = sort_fitting(op, &block, r1 - r0, n, dtype_code, indices)?;
            out.slice(&[range(r0, r1)])?.assign(&sorted)?;
        }
    } else {
        for r in 0..rows {
            let row = x.slice(&[SliceArg::Index(r as isize)])?;
            let out_row = out.slice(&[SliceArg::Index(r as isize)])?;
            merge_row(op, &row, &out_row, part, dtype_code, indices)?;
        }
    }
    Ok(out)
}

/// Sorts the 1-d `row`, longer than `part`, into `out_row` (contiguous, the row's length): in
/// parts of at most `part` elements, merged by rank.
fn merge_row(
    op: &'static str,
    row: &Array,
    out_row: &Array,
    part: usize,
    dtype_code: u32,
    indices: bool,
) -> Result<()> {
    let n = row.len();
    // Parts of equal length: fewer searches than full parts and a short last one.
    let parts = n.div_ceil(part);
    let len = n.div_ceil(parts);
    let mut values = Vec::with_capacity(parts);
    let mut local = Vec::with_capacity(parts);
    for j in 0..parts {
        let (lo, hi) = (j * len, ((j + 1) * len).min(n));
        let piece = row.slice(&[range(lo, hi)])?.astype(row.dtype())?;
        let sorted = sort_keys(op, &piece, 1, hi - lo, dtype_code)?;
        values.push(finish(op, &piece, &sorted, 1, hi - lo, false)?);
        if indices {
            local.push(finish(op, &piece, &sorted, 1, hi - lo, true)?);
        }
    }
    for j in 0..parts {
        let mut rank = Array::arange(row.device(), 0.0, values[j].len() as f64, 1.0, DType::I32)?;
        for (r, other) in values.iter().enumerate() {
            if r != j {
                let side = if r < j { Side::Right } else { Side::Left };
                rank = rank.add(&other.searchsorted_i32(&values[j], side)?)?;
            }
        }
        let (src, add) = if indices {
            (&local[j], (j * len) as u32)
        } else {
            (&values[j], 0)
        };
        scatter(op, &rank, src, out_row, add)?;
    }
    Ok(())
}

/// `out[pos[i]] = src[i] (+ add)` for the contiguous `pos` (i32) and `src` (one binding each) into
/// the contiguous 1-d `out` of `src`'s dtype (or i32), one launch per window of `out`.
fn scatter(op: &'static str, pos: &Array, src: &Array, out: &Array, add: u32) -> Result<()> {
    let dev = &out.device.inner;
    let elem_bytes = src.dtype().size_bytes();
    let wide = elem_bytes == 8;
    let count = pos.len() as u64;
    let n = out.len() as u64;
    let (pos_bind, pos_base) = contiguous_window(op, pos, 0, count, 4)?;
    let (src_bind, src_base) = contiguous_window(op, src, 0, count, elem_bytes)?;
    let words = (elem_bytes / 4) as u32;
    let key = PipelineKey::new(&super::families::SCATTER, Variant::one(DType::U32))
        .with("WIDE", wide as u32);
    let run = window_elements(dev, elem_bytes);
    let mut lo = 0;
    while lo < n {
        let len = run.min(n - lo);
        let (out_bind, out_base) = contiguous_window(op, out, lo, len, elem_bytes)?;
        let mut p = Params::default();
        p.u32(count as u32)
            .u32(pos_base)
            .u32(src_base * words)
            .u32(out_base * words)
            .u32(lo as u32)
            .u32(len as u32)
            .u32(add);
        let binds = [pos_bind, src_bind, out_bind];
        dev.guarded(op, || {
            dev.dispatch(&key, p.bytes(), &binds, count, &[count])
        })?;
        lo += len;
    }
    Ok(())
}
