//! Inclusive scans along one axis: cumsum and cumprod.
//!
//! When the input and the result each fit one storage binding (every array up to 128 MiB on
//! lavapipe), the block-wise scan of `scan_blocks.rs` does the work, into a fresh C-contiguous
//! result. Larger arrays take `shaders/scan.wgsl`: first made contiguous and scanned in pieces —
//! groups of whole rows, or segments of one row — that each fit a binding, one workgroup per
//! line, in launches that each cover a segment of at most `SEG` elements of every line, the next
//! segment continuing from the last result of the previous one: lavapipe silently stops an
//! invocation's loops after 65,535 iterations in total, which cut a single launch off after
//! about 13.4 million elements of a line. That kernel runs a line on one workgroup (one core on
//! lavapipe, about 0.2 GB/s); the pieces could take the block-wise scan too, given a carry.

use super::params::{base_i32, Params};
use super::reduce::{u32_of, Group, WG};
use super::scan_blocks::{scan_blocks, Lines};
use crate::array::Array;
use crate::device::{Binding, Kernel, PipelineKey, Variant};
use crate::error::{Error, Result};

/// Elements of a line one launch scans at most: 512 chunks of WG * RUN (2048) elements, about
/// 13,000 loop iterations per invocation.
const SEG: u64 = 512 * 2048;

/// Inclusive scan of `x` along `axis` into a fresh array of `x`'s shape (`code` 0: sum, 1: prod).
pub(crate) fn scan(opname: &'static str, code: u32, x: &Array, axis: usize) -> Result<Array> {
    let dev_handle = x.device().clone();
    let dev = &dev_handle.inner;
    let nd = x.ndim();
    // Lines along the last axis of a permuted view; the result is permuted back (a view).
    let mut perm: Vec<usize> = (0..nd).filter(|&d| d != axis).collect();
    perm.push(axis);
    let mut inv = vec![0usize; nd];
    for (i, &d) in perm.iter().enumerate() {
        inv[d] = i;
    }
    let xp = x.transpose(&perm)?;
    let pshape = xp.shape().to_vec();
    let total = x.len() as u64;
    if total == 0 {
        return Array::empty(opname, &dev_handle, x.shape(), x.dtype());
    }
    let k = pshape[nd - 1] as u64;
    let m = total / k;
    let eb = x.dtype().size_bytes();
    let (src_arr, outer) = {
        let (_, l) = xp.storage_and_layout();
        let sh: Vec<u64> = l.shape[..nd - 1].iter().map(|&n| n as u64).collect();
        let st: Vec<i64> = l.strides[..nd - 1].iter().map(|&s| s as i64).collect();
        let g = Group::collapsed(&sh, &st);
        if g.shape.len() <= 4 {
            (xp.clone(), g)
        } else {
            let c = xp.contiguous()?;
            (c, Group::collapsed(&[m], &[k as i64]))
        }
    };
    let (ss, sl) = src_arr.storage_and_layout();
    let sbuf = ss.buffer().expect("non-empty");
    let axis_stride = *sl.strides.last().expect("rank >= 1") as i64;
    let (mut lo, mut hi) = (sl.offset as i64, sl.offset as i64);
    for (&n, &s) in sl.shape.iter().zip(&sl.strides) {
        let r = (n as i64 - 1) * s as i64;
        if r < 0 {
            lo += r
        } else {
            hi += r
        }
    }
    let out_fits = dev.window(0, total as i64 - 1, 0, eb, total * eb).is_some();
    if let (Some(sw), true) = (
        dev.window(lo, hi, sl.offset as i64, eb, ss.bytes()),
        out_fits,
    ) {
        // Everything in one binding each: the block-wise scan, into a result laid out like a
        // fresh array of x's shape (each line at the C strides of its axis), so lines along a
        // leading axis are written in the order they are read (neighbouring lines side by side).
        let out = Array::empty(opname, &dev_handle, x.shape(), x.dtype())?;
        let (os, ol) = out.storage_and_layout();
        let first = ol.offset as i64;
        let dw = dev
            .window(first, first + total as i64 - 1, first, eb, os.bytes())
            .ok_or_else(|| Error::overflow(opname, "scan result exceeds a binding"))?;
        let c_strides = &ol.strides;
        let dsh: Vec<u64> = perm[..nd - 1]
            .iter()
            .map(|&d| x.shape()[d] as u64)
            .collect();
        let dst: Vec<i64> = perm[..nd - 1]
            .iter()
            .map(|&d| c_strides[d] as i64)
            .collect();
        scan_blocks(
            opname,
            code,
            &src_arr,
            Lines {
                binding: Binding {
                    buffer: sbuf,
                    offset: sw.offset,
                    size: sw.size,
                },
                base: sw.base,
                outer: &outer,
                axis_stride,
            },
            m,
            k,
            Lines {
                binding: Binding {
                    buffer: os.buffer().expect("non-empty"),
                    offset: dw.offset,
                    size: dw.size,
                },
                base: dw.base,
                outer: &Group::collapsed(&dsh, &dst),
                axis_stride: c_strides[axis] as i64,
            },
        )?;
        return Ok(out);
    }
    // Too large for one binding: the segmented workgroup-per-line kernel, into a result
    // contiguous in the permuted order (permuted back at the end, a view).
    let out = Array::empty(opname, &dev_handle, &pshape, x.dtype())?;
    let key = PipelineKey::bare(Kernel::Scan, Variant::one(x.dtype())).with("OP", code);
    let (os, _) = out.storage_and_layout();
    let obuf = os.buffer().expect("non-empty");
    // One launch: `lines` lines of `kl` elements; `carry`: they continue earlier segments.
    let launch = |src: Binding,
                  src_base: i64,
                  outer: &Group,
                  axis_stride: i64,
                  lines: u64,
                  kl: u64,
                  dst: Binding,
                  dst_base: i64,
                  dst_stride: u64,
                  carry: bool|
     -> Result<()> {
        let mut p = Params::default();
        outer.push(&mut p);
        p.i32(base_i32(src_base)?)
            .i32(
                i32::try_from(axis_stride)
                    .map_err(|_| Error::overflow(opname, format!("stride {axis_stride}")))?,
            )
            .u32(outer.shape.len() as u32)
            .u32(u32_of(lines, "lines")?)
            .u32(u32_of(kl, "line length")?)
            .u32(u32_of(dst_base as u64, "result index")?)
            .u32(u32_of(dst_stride, "line stride")?)
            .u32(u32::from(carry));
        dev.dispatch(&key, p.bytes(), &[src, dst], lines * WG, &[lines, kl])
    };
    let win_elems = (dev.max_window() - 256) / eb;
    // Too large for one binding: contiguous rows, in groups of whole rows (or one row) per
    // binding, each group in segments of at most SEG (and at most one binding) per line.
    let c = xp.contiguous()?;
    let (cs, cl) = c.storage_and_layout();
    let cbuf = cs.buffer().expect("non-empty");
    let off0 = cl.offset as i64;
    let seg = SEG.min(win_elems);
    let rows_per = if k <= win_elems {
        (win_elems / k).max(1)
    } else {
        1
    };
    dev.guarded(opname, || {
        let mut m0 = 0u64;
        while m0 < m {
            let rows = rows_per.min(m - m0);
            let mut k0 = 0u64;
            while k0 < k {
                let kl = seg.min(k - k0);
                let first = (m0 * k + k0) as i64;
                let last = first + ((rows - 1) * k + kl - 1) as i64;
                let sw = dev
                    .window(off0 + first, off0 + last, off0 + first, eb, cs.bytes())
                    .ok_or_else(|| Error::overflow(opname, "scan piece exceeds a binding"))?;
                // A continuing segment reads the result just before each line's first element.
                let dlo = if k0 > 0 { first - 1 } else { first };
                let dw = dev
                    .window(dlo, last, first, eb, os.bytes())
                    .ok_or_else(|| Error::overflow(opname, "scan piece exceeds a binding"))?;
                launch(
                    Binding {
                        buffer: cbuf,
                        offset: sw.offset,
                        size: sw.size,
                    },
                    sw.base,
                    &Group {
                        shape: vec![rows],
                        strides: vec![k as i64],
                    },
                    1,
                    rows,
                    kl,
                    Binding {
                        buffer: obuf,
                        offset: dw.offset,
                        size: dw.size,
                    },
                    dw.base,
                    k,
                    k0 > 0,
                )?;
                k0 += kl;
            }
            m0 += rows;
        }
        Ok(())
    })?;
    out.transpose(&inv)
}
