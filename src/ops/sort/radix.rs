//! The chunked LSD radix sort (`shaders/radix.wgsl`): 8 bits per pass, least significant
//! first — the low word of f64 keys, then the high word, then the row (so rows never mix) —
//! each pass a histogram per chunk, their exclusive offsets (the scan kernels), and a stable
//! scatter, one invocation walking each chunk. 4 passes for one row of 32-bit keys, 8 for f64,
//! plus one per 8 bits of the row count.

use super::Sorted;
use super::families::{RADIX_COUNT, RADIX_SCATTER, SORT_KEYS};
use crate::array::Array;
use crate::device::params::Params;
use crate::device::{PipelineKey, Variant};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::ops::array_binding;

/// The most elements one invocation walks.
const MAX_CHUNK: u64 = 16384;

/// The pairs and key words of one side of the ping-pong.
struct Pairs {
    index: Array,
    hi: Array,
    lo: Array,
}

impl Pairs {
    fn new(op: &'static str, x: &Array, total: usize, wide: bool) -> Result<Pairs> {
        let dev = x.device();
        Ok(Pairs {
            index: Array::empty(op, dev, &[total], DType::U32)?,
            hi: Array::empty(op, dev, &[total], DType::U32)?,
            lo: Array::empty(op, dev, &[if wide { total } else { 1 }], DType::U32)?,
        })
    }
}

pub(crate) fn sort_rows(
    op: &'static str,
    x: &Array,
    rows: usize,
    n: usize,
    dtype_code: u32,
) -> Result<Sorted> {
    let dev = x.device().inner.clone();
    let total = (rows * n) as u64;
    let wide = dtype_code >= 3;
    let limits = dev.block_limits();
    let max_pairs = (limits.max_binding / 4).min(1 << 31);
    let src_bytes = (x.layout.offset as u64 + total) * x.dtype().size_bytes();
    if total > max_pairs || src_bytes > limits.max_binding {
        return Err(Error::TooLarge {
            op,
            requested: (total * 4).max(src_bytes),
            max: limits.max_binding,
            what: "radix sort (its keys and indices, and its input, each in one storage binding; larger arrays take the merge of `merge.rs`)",
        });
    }
    // Chunks a CPU adapter's few cores walk in sequence; many more on a GPU. A chunk stays
    // well below lavapipe's 65,535 loop iterations per invocation (all loops together; past
    // them every loop silently stops): a chunk's loop and the 256 digits, at most 16,640.
    let target = if dev.is_cpu { 256 } else { 16384 };
    let chunk = total.div_ceil(target).clamp(256, MAX_CHUNK);
    let chunks = total.div_ceil(chunk);
    let mut a = Pairs::new(op, x, total as usize, wide)?;
    let mut b = Pairs::new(op, x, total as usize, wide)?;
    let counts = Array::empty(op, x.device(), &[256 * chunks as usize], DType::U32)?;
    // Keys and flat indices, unpadded.
    dev.guarded(op, || {
        let mut p = Params::default();
        p.u32(n as u32)
            .u32(n as u32)
            .u32(rows as u32)
            .u32(total as u32)
            .u32((x.layout.offset as u64 * x.dtype().size_bytes() / 4) as u32)
            .u32(0)
            .u32(0)
            .u32(512)
            .u32(1);
        let binds = [
            array_binding(&a.index, total, 4)?,
            array_binding(&a.hi, total, 4)?,
            array_binding(&a.lo, a.lo.len() as u64, 4)?,
            array_binding(x, total, x.dtype().size_bytes())?,
        ];
        let key = PipelineKey::new(&SORT_KEYS, Variant::one(DType::U32)).with("DTYPE", dtype_code);
        dev.dispatch(&key, p.bytes(), &binds, total, &[total])
    })?;
    // (source, shift) of every pass, least significant first.
    let mut passes: Vec<(u32, u32)> = Vec::new();
    if wide {
        passes.extend([0, 8, 16, 24].map(|s| (1, s)));
    }
    passes.extend([0, 8, 16, 24].map(|s| (0, s)));
    let row_bits = usize::BITS - (rows - 1).leading_zeros();
    passes.extend((0..row_bits).step_by(8).map(|s| (2, s)));
    for (source, shift) in passes {
        let mut p = Params::default();
        p.u32(total as u32)
            .u32(chunk as u32)
            .u32(chunks as u32)
            .u32(shift)
            .u32(source)
            .u32(n as u32);
        let key = |pass| PipelineKey::new(pass, Variant::one(DType::U32)).with("WIDE", wide as u32);
        let run = |pass, counts: &Array| {
            dev.guarded(op, || {
                let binds = [
                    array_binding(&a.index, total, 4)?,
                    array_binding(&a.hi, total, 4)?,
                    array_binding(&a.lo, a.lo.len() as u64, 4)?,
                    array_binding(counts, counts.len() as u64, 4)?,
                    array_binding(&b.index, total, 4)?,
                    array_binding(&b.hi, total, 4)?,
                    array_binding(&b.lo, b.lo.len() as u64, 4)?,
                ];
                // One invocation per chunk.
                dev.dispatch(&key(pass), p.bytes(), &binds, chunks, &[total])
            })
        };
        run(&RADIX_COUNT, &counts)?;
        // Exclusive offsets, digit-major: where each chunk's pairs of each digit begin.
        let offsets = counts.cumsum(None)?.sub(&counts)?;
        run(&RADIX_SCATTER, &offsets)?;
        std::mem::swap(&mut a, &mut b);
    }
    Ok(Sorted {
        index: a.index,
        m: n as u64,
        flat: true,
    })
}
