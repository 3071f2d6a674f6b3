//! Block-wise inclusive scans (`shaders/scan_blocks.wgsl`): the path for lines whose source and
//! result each fit one storage binding. Every line is cut into blocks that one invocation each
//! walks sequentially, so all cores (or GPU threads) share the work whatever the shape: many
//! short lines are one block each, a long line many blocks. A line of several blocks takes
//! three steps: the block totals, an inclusive scan of each line's totals (the same scan,
//! recursively: they are rows of `k / BLOCK` elements, so a line of up to `BLOCK * BLOCK`
//! elements takes one level and each further level divides by `BLOCK`), and the blocks scanned
//! from the totals before them. Contiguous lines that start at multiples of 4 elements (and are
//! multiples of 4 long) are read and written as vec4s; any other layout walks its strides.
//!
//! Measured on lavapipe (2 cores, `cargo run --release --example cumsum_probe`): see the
//! cumsum line of BENCHMARKS.md (the workgroup-per-line kernel it replaces ran a 1-d array on
//! one core, in barriers).

use super::families::{SCAN_BLOCKS, SCAN_BLOCKS_VEC4, SCAN_TOTALS, SCAN_TOTALS_VEC4};
use crate::array::Array;
use crate::device::params::{Params, base_i32};
use crate::device::{Binding, DeviceInner, PipelineKey, Variant};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::ops::reduce::common::{Group, u32_of, whole};

/// Workgroup size: invocations are independent (no shared memory), so this only sets how many
/// blocks one workgroup covers.
const WG: u64 = 64;
/// Elements per block of a line cut into blocks: long enough that the totals (one per block)
/// are a small second pass, short enough that a 2^20-element line still makes 1024 blocks.
const BLOCK: u64 = 1024;
/// Lines of up to this many elements are one block each when there are at least `MANY_LINES` of
/// them: then every invocation reads its line once, and there are invocations enough for every
/// core without cutting lines.
const LINE: u64 = 4096;
const MANY_LINES: u64 = 256;

/// Elements per block for `m` lines of `k` elements.
fn block_len(m: u64, k: u64) -> u64 {
    if k <= BLOCK || (k <= LINE && m >= MANY_LINES) {
        k
    } else {
        BLOCK
    }
}

/// Where the lines of a scan are in one binding: line `l`'s element `i` is element
/// `base + outer(l) + i * axis_stride` of `binding` (`outer` walks the line index row-major).
pub(super) struct Lines<'a> {
    pub binding: Binding<'a>,
    pub base: i64,
    pub outer: &'a Group,
    pub axis_stride: i64,
}

impl Lines<'_> {
    /// Whether line `l` starts at `base + l * k` and runs forward element by element.
    fn end_to_end(&self, k: u64) -> bool {
        let mut lines = self
            .outer
            .shape
            .iter()
            .zip(&self.outer.strides)
            .filter(|&(&n, _)| n > 1);
        let packed = match (lines.next(), lines.next()) {
            (None, _) => true,
            (Some((_, &s)), None) => s == k as i64,
            _ => false,
        };
        packed && self.axis_stride == 1
    }
}

/// Inclusive scan of `(m, k)`: `m` lines of `k > 0` elements of `x` from `src` into `dst` (`code` 0: sum,
/// 1: prod). With `carry`, every line continues from the result just before its first one in
/// `dst` (the binding must reach it): a segment of longer lines.
pub(super) fn scan_blocks(
    opname: &'static str,
    code: u32,
    x: &Array,
    src: Lines,
    (m, k): (u64, u64),
    dst: Lines,
    carry: bool,
) -> Result<()> {
    let dev_handle = x.device().clone();
    let dev = &dev_handle.inner;
    let dtype = x.dtype();
    let block = block_len(m, k);
    let blocks = k.div_ceil(block);
    let variant = Variant::one(dtype);
    // Lines laid end to end from a multiple of 4, in blocks of multiples of 4 elements: vec4s.
    let vec4 = x.device().inner.one_word_elements(dtype)
        && src.end_to_end(k)
        && dst.end_to_end(k)
        && src.base.rem_euclid(4) == 0
        && dst.base.rem_euclid(4) == 0
        && k.is_multiple_of(4)
        && block.is_multiple_of(4);
    let (totals_kernel, blocks_kernel) = if vec4 {
        (&SCAN_TOTALS_VEC4, &SCAN_BLOCKS_VEC4)
    } else {
        (&SCAN_TOTALS, &SCAN_BLOCKS)
    };
    let key = |kernel| {
        PipelineKey::bare(kernel, variant)
            .with("WG", WG as u32)
            .with("OP", code)
    };
    let stride =
        |s: i64| i32::try_from(s).map_err(|_| Error::overflow(opname, format!("stride {s}")));
    let mut p = Params::default();
    src.outer.push(&mut p);
    dst.outer.push(&mut p);
    p.i32(base_i32(src.base)?)
        .i32(stride(src.axis_stride)?)
        .i32(base_i32(dst.base)?)
        .i32(stride(dst.axis_stride)?)
        .u32(src.outer.shape.len() as u32)
        .u32(dst.outer.shape.len() as u32)
        .u32(u32_of(m, "lines")?)
        .u32(u32_of(k, "line length")?)
        .u32(u32_of(blocks, "blocks")?)
        .u32(u32_of(block, "block")?)
        .u32(u32::from(carry));
    // Block indices stay below 2^32 (element indices are within one binding each).
    u32_of(m * blocks, "blocks")?;
    let shape = [m, k];
    if blocks == 1 {
        // No offsets to read: `src` stands in for them (both read-only).
        let offsets = src.binding;
        return dev.guarded(opname, || {
            dev.dispatch(
                &key(blocks_kernel),
                p.bytes(),
                &[src.binding, offsets, dst.binding],
                m,
                &shape,
            )
        });
    }
    // Totals in the accumulator type (f32 for f16), so the offsets are not rounded to f16.
    let acc = if dtype == DType::F16 {
        DType::F32
    } else {
        dtype
    };
    let totals = Array::empty(opname, &dev_handle, &[m as usize, blocks as usize], acc)?;
    let totals_bound = totals_binding(dev, opname, &totals)?;
    dev.guarded(opname, || {
        dev.dispatch(
            &key(totals_kernel),
            p.bytes(),
            &[src.binding, totals_bound],
            m * blocks,
            &shape,
        )
    })?;
    // The totals of the blocks are themselves scanned (recursively, through the entry point).
    let incl = super::scan(opname, code, &totals, 1)?;
    let incl_binding = totals_binding(dev, opname, &incl)?;
    dev.guarded(opname, || {
        dev.dispatch(
            &key(blocks_kernel),
            p.bytes(),
            &[src.binding, incl_binding, dst.binding],
            m * blocks,
            &shape,
        )
    })
}

/// The binding of a fresh block-totals array, read whole by one launch: `Err` when it exceeds
/// one binding (f16 lines of one block each give totals twice the input's bytes).
fn totals_binding<'a>(
    dev: &DeviceInner,
    opname: &'static str,
    totals: &'a Array,
) -> Result<Binding<'a>> {
    let binding = whole(totals);
    if binding.size > dev.max_window() {
        return Err(Error::overflow(opname, "scan totals exceed a binding"));
    }
    Ok(binding)
}
