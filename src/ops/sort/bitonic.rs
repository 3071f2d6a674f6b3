//! The bitonic sorting network over padded rows that fit one block of 512 pairs
//! (`shaders/sort.wgsl`): each workgroup sorts its block in workgroup memory, several short rows
//! at once. The fastest kernel for small arrays on lavapipe; larger ones take the radix sort.

use super::Sorted;
use super::families::{SORT_KEYS, SORT_LOCAL};
use crate::array::Array;
use crate::device::params::Params;
use crate::device::{PipelineKey, Variant};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::ops::array_binding;

/// Pairs per workgroup block (two per invocation of a 256-wide workgroup; the shader's arrays).
const BLOCK: u64 = 512;

pub(crate) fn sort_rows(
    op: &'static str,
    x: &Array,
    rows: usize,
    n: usize,
    dtype_code: u32,
) -> Result<Sorted> {
    let dev = x.device().inner.clone();
    let (rows, n) = (rows as u64, n as u64);
    let m = n.next_power_of_two();
    if m > BLOCK {
        return Err(Error::invalid(
            op,
            format!("the bitonic kernel sorts rows of at most {BLOCK} elements, not {n}"),
        ));
    }
    let total = (rows * m).next_multiple_of(BLOCK);
    let wide = dtype_code >= 3;
    let word_bytes = 4u64;
    let limits = dev.block_limits();
    let max_pairs = (limits.max_binding / word_bytes).min(1 << 31);
    if total > max_pairs {
        return Err(Error::TooLarge {
            op,
            requested: total * word_bytes,
            max: max_pairs * word_bytes,
            what: "bitonic sort buffer (rows x the row length rounded up to a power of two, 4 bytes each)",
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
    let params = |k: u64, j: u64| {
        let mut p = Params::default();
        p.u32(m as u32)
            .u32(n as u32)
            .u32(rows as u32)
            .u32(total as u32)
            .u32(src_base as u32)
            .u32(k as u32)
            .u32(j as u32)
            .u32(BLOCK as u32)
            .u32(0);
        p
    };
    let key = |pass| PipelineKey::new(pass, Variant::one(DType::U32)).with("DTYPE", dtype_code);
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
        // One invocation per pair for the keys, two pairs per invocation for the blocks.
        dev.dispatch(
            &key(&SORT_KEYS),
            params(0, 0).bytes(),
            &with_src,
            total,
            &[total],
        )?;
        dev.dispatch(
            &key(&SORT_LOCAL),
            params(0, 0).bytes(),
            &pairs,
            total / 2,
            &[total],
        )?;
        Ok(())
    })?;
    Ok(Sorted {
        index,
        m,
        flat: false,
    })
}
