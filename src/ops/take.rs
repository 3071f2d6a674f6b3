//! Gathering along an axis (`numpy.take(a, indices, axis)`) with `shaders/take.wgsl`, for
//! indices known on the host (the random module's permutations and samples).
//!
//! The array is viewed as rows: `[outer, m, inner]` around the axis, so output row
//! `o * k + i` is source row `o * m + indices[i]`, each `inner` elements long. The host lists the
//! (output row, source row) pairs and groups them so that each launch's source rows and output
//! rows fit one binding each; rows longer than a binding go column block by column block.

use super::params::Params;
use crate::array::Array;
use crate::device::{Binding, Kernel, PipelineKey, Variant};
use crate::error::{Error, Result};

/// Rows within one binding of `limit` bytes, leaving room for aligning the window's start down.
fn rows_per_window(row_bytes: u64, limit: u64, align: u64) -> u64 {
    (limit.saturating_sub(align) / row_bytes).max(1)
}

/// A binding window starting at element `first` (of `eb` bytes) and `len` elements long, with
/// its offset aligned down: returns the window and the element index of `first` within it.
fn window(buffer: &wgpu::Buffer, first: u64, len: u64, eb: u64, align: u64) -> (Binding<'_>, u32) {
    let start = first * eb;
    let offset = start / align * align;
    let size = (start + len * eb - offset).next_multiple_of(4);
    (
        Binding {
            buffer,
            offset,
            size,
        },
        ((start - offset) / eb) as u32,
    )
}

/// `a` gathered along `axis` at `indices` (each `< a.shape()[axis]`, checked by the caller).
pub(crate) fn take_axis(
    op: &'static str,
    a: &Array,
    axis: usize,
    indices: &[u64],
) -> Result<Array> {
    let shape = a.shape();
    let mut out_shape = shape.to_vec();
    out_shape[axis] = indices.len();
    let out = Array::empty(op, a.device(), &out_shape, a.dtype())?;
    if out.is_empty() {
        return Ok(out);
    }
    let a = a.contiguous()?;
    let dev = &a.device.inner;
    let outer: u64 = shape[..axis].iter().map(|&n| n as u64).product();
    let m = shape[axis] as u64;
    let inner: u64 = shape[axis + 1..].iter().map(|&n| n as u64).product();
    let k = indices.len() as u64;
    let eb = a.dtype().size_bytes();
    let limits = dev.block_limits();
    let align = limits.offset_alignment.max(eb).max(4); // powers of two: also a multiple of eb
    let (src_store, src_layout) = a.storage_and_layout();
    let (dst_store, _) = out.storage_and_layout();
    let (sbuf, dbuf) = (
        src_store.buffer().expect("non-empty"),
        dst_store.buffer().expect("non-empty"),
    );
    let src0 = src_layout.offset as u64; // the view's first element
    let row_bytes = inner * eb;
    let total_rows = outer * k;
    let too_big = || Error::overflow(op, format!("gather of {total_rows} rows of {inner}"));
    let key = PipelineKey::new(Kernel::Take, Variant::one(a.dtype()));

    // One launch: `pairs` (window-relative), `width` columns from column `c0`.
    struct Launch {
        pairs: Vec<[u32; 2]>,
        src_first: u64, // element of the source window's (row 0, column 0)
        src_len: u64,
        dst_first: u64,
        dst_len: u64,
        width: u64,
    }
    let mut launches: Vec<Launch> = Vec::new();
    if row_bytes <= limits.max_binding.saturating_sub(align) {
        // Whole rows: bucket the pairs by (output window, source window).
        let ws = rows_per_window(row_bytes, limits.max_binding, align);
        let nsrc = (outer * m).div_ceil(ws);
        let ndst = total_rows.div_ceil(ws);
        let buckets = usize::try_from(nsrc * ndst).map_err(|_| too_big())?;
        let mut groups: Vec<Vec<[u32; 2]>> = vec![Vec::new(); buckets];
        for o in 0..outer {
            for (i, &ix) in indices.iter().enumerate() {
                let q = o * k + i as u64;
                let s = o * m + ix;
                let (qw, sw) = (q / ws, s / ws);
                groups[(qw * nsrc + sw) as usize]
                    .push([(q - qw * ws) as u32, (s - sw * ws) as u32]);
            }
        }
        for (g, pairs) in groups.into_iter().enumerate() {
            if pairs.is_empty() {
                continue;
            }
            let (qw, sw) = (g as u64 / nsrc, g as u64 % nsrc);
            launches.push(Launch {
                pairs,
                src_first: src0 + sw * ws * inner,
                src_len: ws.min(outer * m - sw * ws) * inner,
                dst_first: qw * ws * inner,
                dst_len: ws.min(total_rows - qw * ws) * inner,
                width: inner,
            });
        }
    } else {
        // Rows longer than a binding: one launch per (row, column block).
        let w = (limits.max_binding.saturating_sub(align) / eb / 64 * 64).max(64);
        for o in 0..outer {
            for (i, &ix) in indices.iter().enumerate() {
                let (q, s) = (o * k + i as u64, o * m + ix);
                let mut c0 = 0;
                while c0 < inner {
                    let width = w.min(inner - c0);
                    launches.push(Launch {
                        pairs: vec![[0, 0]],
                        src_first: src0 + s * inner + c0,
                        src_len: width,
                        dst_first: q * inner + c0,
                        dst_len: width,
                        width,
                    });
                    c0 += width;
                }
            }
        }
    }

    // All pair lists in one upload, each starting at an aligned offset (32 pairs = 256 bytes).
    let mut flat: Vec<u32> = Vec::new();
    let mut starts = Vec::with_capacity(launches.len());
    for l in &launches {
        starts.push(flat.len() as u64 / 2);
        flat.extend(l.pairs.iter().flatten());
        flat.resize(flat.len().next_multiple_of(64), 0);
    }
    let rows = Array::from_slice(a.device(), &flat, &[flat.len()])?;
    let (rstore, _) = rows.storage_and_layout();
    let rbuf = rstore.buffer().expect("non-empty");
    dev.guarded(op, || {
        for (l, &start) in launches.iter().zip(&starts) {
            let (src, src_base) = window(sbuf, l.src_first, l.src_len, eb, align);
            let (dst, dst_base) = window(dbuf, l.dst_first, l.dst_len, eb, align);
            let count = l.pairs.len() as u64 * l.width;
            let mut p = Params::default();
            p.u32(u32::try_from(count).map_err(|_| too_big())?)
                .u32(l.width as u32)
                .u32(inner.min(u64::from(u32::MAX)) as u32)
                .u32(inner.min(u64::from(u32::MAX)) as u32)
                .u32(src_base)
                .u32(dst_base);
            let rows = Binding {
                buffer: rbuf,
                offset: start * 8,
                size: l.pairs.len() as u64 * 8,
            };
            dev.dispatch(&key, p.bytes(), &[src, dst, rows], count, &[count])?;
        }
        Ok(())
    })?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_align_down_and_cover() {
        assert_eq!(rows_per_window(100, 1000, 256), 7);
        assert_eq!(rows_per_window(5000, 1000, 256), 1);
    }
}
