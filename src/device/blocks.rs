//! Splitting an N-d kernel launch into blocks that each fit the adapter's limits.
//!
//! A kernel sees each operand through one storage binding, and a binding covers at most
//! `max_storage_buffer_binding_size` bytes (128 MiB on lavapipe) at an offset that is a multiple of
//! `min_storage_buffer_offset_alignment`. Arrays may be far larger, and views (a transpose, say)
//! touch elements spread over the whole buffer. So a launch over an iteration shape is split into
//! rectangular blocks until, for every operand, the elements one block touches lie inside one
//! aligned window. Within a block every index is window-relative and fits in `i32`, so no shader
//! index can overflow. All host arithmetic here is `u64`/`i64` and checked. Pure host code.

use crate::error::{Error, Result};

/// The most axes a kernel block can have (the shaders' `MAX_RANK`).
pub(crate) const MAX_RANK: usize = 8;

/// One operand of a launch, over the launch's iteration shape.
#[derive(Debug, Clone)]
pub(crate) struct BlockOperand {
    /// Element index of iteration index (0, .., 0) in the operand's buffer.
    pub offset: i64,
    /// Element strides over the iteration shape (0 for broadcast axes; may be negative).
    pub strides: Vec<i64>,
    /// Bytes per element.
    pub elem_bytes: u64,
    /// The buffer's size in bytes (windows never reach past it).
    pub buffer_bytes: u64,
}

/// Limits that bound a block.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BlockLimits {
    /// Largest binding size in bytes.
    pub max_binding: u64,
    /// Required alignment of binding offsets in bytes.
    pub offset_alignment: u64,
    /// Largest number of elements one block may have (the launch's u32 index range).
    pub max_elems: u64,
}

/// Where one operand's binding lies for one block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Window {
    /// Binding offset in bytes.
    pub byte_offset: u64,
    /// Binding size in bytes (a multiple of 4).
    pub byte_size: u64,
    /// Element index, relative to the window, of the block's first element.
    pub base: i64,
}

/// A rectangular part of the iteration space, with the axes of extent 1 removed (a single
/// element keeps one axis of extent 1: kernels need rank >= 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Block {
    /// Extents of the block's non-unit axes, outermost first.
    pub shape: Vec<u64>,
    /// For each operand, its strides on those axes.
    pub strides: Vec<Vec<i64>>,
    /// For each operand, its binding.
    pub windows: Vec<Window>,
    /// Index of the block's first element in the row-major order of the whole launch.
    pub first_index: u64,
    /// The block's start on every axis of the launch (unit axes included).
    pub start: Vec<u64>,
    /// The block's extent on every axis of the launch.
    pub extent: Vec<u64>,
}

impl Block {
    pub fn numel(&self) -> u64 {
        self.shape.iter().product()
    }
}

/// Merges adjacent axes that every operand walks contiguously, and drops axes of extent 1, so
/// that a copy of contiguous data becomes one long axis.
pub(crate) fn collapse(shape: &[u64], strides: &[Vec<i64>]) -> (Vec<u64>, Vec<Vec<i64>>) {
    let mut out_shape: Vec<u64> = Vec::new();
    let mut out_strides: Vec<Vec<i64>> = vec![Vec::new(); strides.len()];
    for (d, &n) in shape.iter().enumerate() {
        if n == 1 {
            continue;
        }
        let mergeable = !out_shape.is_empty()
            && strides
                .iter()
                .zip(&out_strides)
                .all(|(s, o)| *o.last().unwrap() == s[d] * n as i64);
        if mergeable {
            *out_shape.last_mut().unwrap() *= n;
            for (s, o) in strides.iter().zip(out_strides.iter_mut()) {
                *o.last_mut().unwrap() = s[d];
            }
        } else {
            out_shape.push(n);
            for (s, o) in strides.iter().zip(out_strides.iter_mut()) {
                o.push(s[d]);
            }
        }
    }
    (out_shape, out_strides)
}

impl BlockLimits {
    /// The largest binding window: the binding limit, capped so that window-relative element
    /// indices fit in `i32`, in whole 4-byte words.
    pub fn max_window(&self) -> u64 {
        self.max_binding.min(i32::MAX as u64) / 4 * 4
    }

    /// The binding window covering elements `lo..=hi` (indices into a buffer of `buffer_bytes`,
    /// elements of `elem_bytes`): its offset rounded down to the binding alignment, its end up to
    /// a whole word, and `base` the window-relative index of element `first`. Any size; `None`
    /// when the byte arithmetic overflows.
    pub fn span_window(
        &self,
        lo: i64,
        hi: i64,
        first: i64,
        elem_bytes: u64,
        buffer_bytes: u64,
    ) -> Option<Window> {
        let eb = i64::try_from(elem_bytes).ok()?;
        let align = i64::try_from(lcm(lcm(self.offset_alignment, elem_bytes), 4)).ok()?;
        let byte_lo = lo.checked_mul(eb)? / align * align;
        let byte_hi = (hi.checked_add(1)?.checked_mul(eb)?.checked_add(3)? / 4 * 4)
            .min(i64::try_from(buffer_bytes).ok()?);
        Some(Window {
            byte_offset: u64::try_from(byte_lo).ok()?,
            byte_size: u64::try_from(byte_hi - byte_lo).ok()?,
            base: first - byte_lo / eb,
        })
    }
}

fn lcm(a: u64, b: u64) -> u64 {
    fn gcd(a: u64, b: u64) -> u64 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    a / gcd(a, b) * b
}

/// What [`plan_granular`]'s `Err(TooLarge)` names when no split of the launch fits one binding
/// (its numbers: the bytes one operand's window of the smallest block spans, and the largest
/// window).
pub(crate) const UNSPLITTABLE: &str =
    "bytes of one storage binding (even after splitting the launch)";

/// Why a part of a launch does not fit: an axis to split, or no split left (the numbers and
/// the limit for `Err(TooLarge)`).
enum Unfit {
    Split(usize),
    Stuck {
        requested: u64,
        max: u64,
        what: &'static str,
    },
}

/// Plans the blocks of a launch over `shape` (already collapsed or not).
pub(crate) fn plan(
    op: &'static str,
    shape: &[u64],
    operands: &[BlockOperand],
    limits: BlockLimits,
) -> Result<Vec<Block>> {
    plan_granular(op, shape, &vec![1; shape.len()], operands, limits)
}

/// [`plan`], splitting each axis only at multiples of its granule (a kernel's tile size).
pub(crate) fn plan_granular(
    op: &'static str,
    shape: &[u64],
    granules: &[u64],
    operands: &[BlockOperand],
    limits: BlockLimits,
) -> Result<Vec<Block>> {
    let overflow = || Error::overflow(op, format!("index arithmetic for shape {shape:?}"));
    if shape.contains(&0) {
        return Ok(Vec::new());
    }
    let mut blocks = Vec::new();
    // Work list of (start index per axis, extent per axis).
    let mut todo = vec![(vec![0u64; shape.len()], shape.to_vec())];
    while let Some((start, extent)) = todo.pop() {
        match try_block(shape, granules, &start, &extent, operands, limits).ok_or_else(overflow)? {
            Ok(block) => blocks.push(block),
            Err(Unfit::Stuck {
                requested,
                max,
                what,
            }) => {
                return Err(Error::TooLarge {
                    op,
                    requested,
                    max,
                    what,
                });
            }
            Err(Unfit::Split(axis)) => {
                // Split the offending axis in two (at a granule boundary) and plan each half.
                let g = granules[axis];
                let half = (extent[axis] / 2 / g * g).max(g);
                let mut lo = extent.clone();
                lo[axis] = half;
                let mut hi_start = start.clone();
                hi_start[axis] += half;
                let mut hi = extent;
                hi[axis] -= half;
                todo.push((hi_start, hi));
                todo.push((start, lo));
            }
        }
    }
    blocks.sort_by_key(|b| b.first_index);
    Ok(blocks)
}

/// `Some(Ok(block))` when the part fits, `Some(Err(_))` naming the axis to split or why none
/// can be, `None` on arithmetic overflow.
fn try_block(
    shape: &[u64],
    granules: &[u64],
    start: &[u64],
    extent: &[u64],
    operands: &[BlockOperand],
    limits: BlockLimits,
) -> Option<std::result::Result<Block, Unfit>> {
    let nonunit: Vec<usize> = (0..extent.len()).filter(|&d| extent[d] > 1).collect();
    // Axes that can still be split.
    let splittable: Vec<usize> = nonunit
        .iter()
        .copied()
        .filter(|&d| extent[d] > granules[d])
        .collect();
    // Too many axes for the shader: split the outermost non-unit axis.
    if nonunit.len() > MAX_RANK {
        return Some(Err(splittable.first().copied().map_or(
            Unfit::Stuck {
                requested: nonunit.len() as u64,
                max: MAX_RANK as u64,
                what: "axes of one launch (even after splitting it)",
            },
            Unfit::Split,
        )));
    }
    let numel = extent.iter().try_fold(1u64, |a, &n| a.checked_mul(n))?;
    if numel > limits.max_elems {
        return Some(Err(splittable
            .iter()
            .copied()
            .max_by_key(|&d| extent[d])
            .map_or(
                Unfit::Stuck {
                    requested: numel,
                    max: limits.max_elems,
                    what: "elements of one launch (even after splitting it)",
                },
                Unfit::Split,
            )));
    }
    let mut windows = Vec::with_capacity(operands.len());
    let mut worst: Option<(u64, Option<usize>)> = None; // (window bytes, axis to split)
    for o in operands {
        let mut first = o.offset;
        for (d, &s) in start.iter().enumerate() {
            first = first.checked_add((s as i64).checked_mul(o.strides[d])?)?;
        }
        let (mut lo, mut hi) = (first, first);
        for &d in &nonunit {
            let reach = (extent[d] as i64 - 1).checked_mul(o.strides[d])?;
            if reach < 0 { lo += reach } else { hi += reach }
        }
        let window = limits.span_window(lo, hi, first, o.elem_bytes, o.buffer_bytes)?;
        let size = window.byte_size;
        // The window must fit the binding limit and its element indices must fit in i32.
        let max_window = limits.max_window();
        if size > max_window {
            // Split the axis along which this operand reaches furthest.
            let axis = splittable
                .iter()
                .copied()
                .filter(|&d| o.strides[d] != 0)
                .max_by_key(|&d| o.strides[d].unsigned_abs() * (extent[d] - 1));
            if worst.is_none_or(|(bytes, _)| size > bytes) {
                worst = Some((size, axis));
            }
            continue;
        }
        windows.push(window);
    }
    if let Some((bytes, axis)) = worst {
        return Some(Err(axis.map_or(
            Unfit::Stuck {
                requested: bytes,
                max: limits.max_window(),
                what: UNSPLITTABLE,
            },
            Unfit::Split,
        )));
    }
    // Row-major index of the block's first element in the whole launch.
    let mut first_index = 0u64;
    for (d, &s) in start.iter().enumerate() {
        first_index = first_index.checked_mul(shape[d])?.checked_add(s)?;
    }
    if nonunit.is_empty() {
        // A single element: give the kernel one axis of extent 1 (kernels assume rank >= 1).
        let strides = vec![vec![0]; operands.len()];
        return Some(Ok(Block {
            shape: vec![1],
            strides,
            windows,
            first_index,
            start: start.to_vec(),
            extent: extent.to_vec(),
        }));
    }
    Some(Ok(Block {
        shape: nonunit.iter().map(|&d| extent[d]).collect(),
        strides: operands
            .iter()
            .map(|o| nonunit.iter().map(|&d| o.strides[d]).collect())
            .collect(),
        windows,
        first_index,
        start: start.to_vec(),
        extent: extent.to_vec(),
    }))
}

/// A 2-D workgroup grid for `groups` workgroups with at most `max_dim` per dimension.
pub(crate) fn grid(groups: u64, max_dim: u32) -> Option<(u32, u32)> {
    if groups == 0 {
        return Some((0, 1));
    }
    let x = groups.min(max_dim as u64);
    let y = groups.div_ceil(x);
    (y <= max_dim as u64).then_some((x as u32, y as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAVAPIPE: BlockLimits = BlockLimits {
        max_binding: 128 << 20,
        offset_alignment: 32,
        max_elems: 1 << 31,
    };

    fn contiguous(shape: &[u64]) -> Vec<i64> {
        let mut s = vec![0i64; shape.len()];
        let mut acc = 1i64;
        for d in (0..shape.len()).rev() {
            s[d] = acc;
            acc *= shape[d] as i64;
        }
        s
    }

    /// Every element of the launch is covered exactly once, every access stays in its window,
    /// and every window obeys the limits. Exact cover: the blocks' boxes lie inside the launch,
    /// are pairwise disjoint and their volumes add up to it. For launches of up to 2^20 elements,
    /// also element by element: each block, walked row-major with its collapsed shape, strides
    /// and window, reaches exactly the buffer element the operand's own strides give for the
    /// same launch coordinates.
    fn check_cover(shape: &[u64], ops: &[BlockOperand], limits: BlockLimits, blocks: &[Block]) {
        let total: u64 = shape.iter().product();
        assert_eq!(blocks.iter().map(Block::numel).sum::<u64>(), total);
        for b in blocks {
            assert_eq!(b.extent.iter().product::<u64>(), b.numel(), "{b:?}");
            for ((&start, &extent), &n) in b.start.iter().zip(&b.extent).zip(shape) {
                assert!(start + extent <= n, "block {b:?} leaves the launch");
            }
        }
        for (i, x) in blocks.iter().enumerate() {
            for y in &blocks[i + 1..] {
                let apart = (0..shape.len()).any(|d| {
                    x.start[d] + x.extent[d] <= y.start[d] || y.start[d] + y.extent[d] <= x.start[d]
                });
                assert!(apart, "blocks overlap: {x:?} and {y:?}");
            }
        }
        if total <= 1 << 20 {
            check_elements(shape, ops, blocks);
        }
        for b in blocks {
            assert!(b.shape.len() <= MAX_RANK);
            assert!(b.numel() <= limits.max_elems);
            for (o, (w, st)) in ops.iter().zip(b.windows.iter().zip(&b.strides)) {
                assert_eq!(w.byte_offset % limits.offset_alignment, 0);
                assert!(w.byte_size <= limits.max_binding && w.byte_size % 4 == 0);
                assert!(w.byte_offset + w.byte_size <= o.buffer_bytes);
                let wlen = (w.byte_size / o.elem_bytes) as i64;
                // Extreme corners stay inside.
                let (mut lo, mut hi) = (w.base, w.base);
                for (&n, &s) in b.shape.iter().zip(st) {
                    let r = (n as i64 - 1) * s;
                    if r < 0 { lo += r } else { hi += r }
                }
                assert!(lo >= 0 && hi < wlen, "block {b:?} leaves its window");
            }
        }
    }

    /// Row-major coordinates of element `k` of a box of `extent`.
    fn coords(mut k: u64, extent: &[u64]) -> Vec<u64> {
        let mut c = vec![0; extent.len()];
        for d in (0..extent.len()).rev() {
            c[d] = k % extent[d];
            k /= extent[d];
        }
        c
    }

    /// Element-by-element check of [`check_cover`] (small launches).
    fn check_elements(shape: &[u64], ops: &[BlockOperand], blocks: &[Block]) {
        let total: u64 = shape.iter().product();
        let mut seen = vec![0u8; total as usize];
        for b in blocks {
            for k in 0..b.numel() {
                // The launch coordinates of the block's k-th element.
                let local = coords(k, &b.extent);
                let global: Vec<u64> = local.iter().zip(&b.start).map(|(l, s)| l + s).collect();
                let flat = global.iter().zip(shape).fold(0, |acc, (g, n)| acc * n + g);
                seen[flat as usize] += 1;
                let in_block = coords(k, &b.shape);
                for (o, (w, st)) in ops.iter().zip(b.windows.iter().zip(&b.strides)) {
                    let want = o.offset
                        + global
                            .iter()
                            .zip(&o.strides)
                            .map(|(&g, &s)| g as i64 * s)
                            .sum::<i64>();
                    let rel = w.base
                        + in_block
                            .iter()
                            .zip(st)
                            .map(|(&i, &s)| i as i64 * s)
                            .sum::<i64>();
                    let got = (w.byte_offset / o.elem_bytes) as i64 + rel;
                    assert_eq!(got, want, "block {b:?}, element {k} at {global:?}");
                }
            }
        }
        assert!(
            seen.iter().all(|&c| c == 1),
            "an element is covered {} times",
            seen.iter().max().unwrap()
        );
    }

    #[test]
    fn many_small_blocks_cover_a_transposed_copy_element_by_element() {
        // A binding of 512 bytes forces a (37, 29) transposed f32 copy into many blocks.
        let limits = BlockLimits {
            max_binding: 512,
            offset_alignment: 32,
            max_elems: 1 << 20,
        };
        // dst (c, r) row-major = the transpose of src (r, c) row-major, which starts 3 elements in.
        let (r, c) = (37u64, 29u64);
        let ops = [
            BlockOperand {
                offset: 3,
                strides: vec![1, c as i64],
                elem_bytes: 4,
                buffer_bytes: (r * c + 3) * 4,
            },
            BlockOperand {
                offset: 0,
                strides: vec![r as i64, 1],
                elem_bytes: 4,
                buffer_bytes: r * c * 4,
            },
        ];
        let blocks = plan("t", &[c, r], &ops, limits).unwrap();
        assert!(blocks.len() > 10, "{} blocks", blocks.len());
        check_cover(&[c, r], &ops, limits, &blocks);
    }

    #[test]
    fn small_launch_is_one_block() {
        let shape = [3u64, 4];
        let ops = [BlockOperand {
            offset: 0,
            strides: contiguous(&shape),
            elem_bytes: 4,
            buffer_bytes: 48,
        }];
        let blocks = plan("t", &shape, &ops, LAVAPIPE).unwrap();
        assert_eq!(blocks.len(), 1);
        check_cover(&shape, &ops, LAVAPIPE, &blocks);
    }

    #[test]
    fn transposed_300_mib_copy_is_tiled_in_two_dims() {
        let (r, c) = (8960u64, 8960u64); // 306 MiB of f32
        let bytes = r * c * 4;
        let src = BlockOperand {
            offset: 0,
            strides: vec![1, r as i64],
            elem_bytes: 4,
            buffer_bytes: bytes,
        };
        let dst = BlockOperand {
            offset: 0,
            strides: vec![c as i64, 1],
            elem_bytes: 4,
            buffer_bytes: bytes,
        };
        let ops = [src, dst];
        let blocks = plan("t", &[c, r], &ops, LAVAPIPE).unwrap();
        assert!(
            blocks.len() > 2 && blocks.len() <= 16,
            "{} blocks",
            blocks.len()
        );
        check_cover(&[c, r], &ops, LAVAPIPE, &blocks);
    }

    #[test]
    fn more_than_2_pow_32_elements_with_fake_limits() {
        // n = 2^32 + 7 u32 elements, on a device whose limits would allow it.
        let n = (1u64 << 32) + 7;
        let limits = BlockLimits {
            max_binding: 1 << 31,
            offset_alignment: 256,
            max_elems: 1 << 28,
        };
        let ops = [
            BlockOperand {
                offset: 0,
                strides: vec![1],
                elem_bytes: 4,
                buffer_bytes: n * 4,
            },
            BlockOperand {
                offset: n as i64 - 1,
                strides: vec![-1],
                elem_bytes: 4,
                buffer_bytes: n * 4,
            },
        ];
        let blocks = plan("t", &[n], &ops, limits).unwrap();
        check_cover(&[n], &ops, limits, &blocks);
        // 5 * 2^30 f16 elements viewed as (5, 2^30) with a stepped, transposed operand.
        let (a, b) = (5u64, 1u64 << 30);
        let ops = [
            BlockOperand {
                offset: 0,
                strides: vec![b as i64, 1],
                elem_bytes: 2,
                buffer_bytes: a * b * 2,
            },
            BlockOperand {
                offset: 0,
                strides: vec![1, a as i64],
                elem_bytes: 2,
                buffer_bytes: a * b * 2,
            },
        ];
        let blocks = plan("t", &[a, b], &ops, limits).unwrap();
        check_cover(&[a, b], &ops, limits, &blocks);
    }

    #[test]
    fn rank_above_eight_is_split_on_the_host() {
        let shape = vec![2u64; 11];
        let ops = [BlockOperand {
            offset: 0,
            strides: contiguous(&shape).iter().map(|s| s * 3).collect(),
            elem_bytes: 4,
            buffer_bytes: 3 * 4 * 2048,
        }];
        let blocks = plan("t", &shape, &ops, LAVAPIPE).unwrap();
        assert_eq!(blocks.len(), 8);
        check_cover(&shape, &ops, LAVAPIPE, &blocks);
    }

    #[test]
    fn a_single_element_block_has_rank_one() {
        let ops = [BlockOperand {
            offset: 5,
            strides: vec![7, 3],
            elem_bytes: 4,
            buffer_bytes: 64,
        }];
        let blocks = plan("t", &[1, 1], &ops, LAVAPIPE).unwrap();
        assert_eq!(blocks.len(), 1);
        assert_eq!(
            (blocks[0].shape.clone(), blocks[0].strides.clone()),
            (vec![1], vec![vec![0]])
        );
        assert_eq!(blocks[0].windows[0].base, 5);
        let blocks = plan("t", &[], &ops[..0], LAVAPIPE).unwrap();
        assert_eq!(blocks[0].shape, vec![1]);
    }

    #[test]
    fn collapse_merges_contiguous_axes() {
        let (s, st) = collapse(&[2, 3, 1, 4], &[vec![12, 4, 99, 1], vec![0, 0, 5, 0]]);
        assert_eq!(s, vec![24]);
        assert_eq!(st, vec![vec![1], vec![0]]);
        let (s, _) = collapse(&[3, 4], &[vec![1, 3]]);
        assert_eq!(s, vec![3, 4]);
    }

    #[test]
    fn overflowing_offsets_are_errors() {
        let ops = [BlockOperand {
            offset: i64::MAX - 2,
            strides: vec![i64::MAX / 2],
            elem_bytes: 4,
            buffer_bytes: u64::MAX,
        }];
        assert!(plan("t", &[4], &ops, LAVAPIPE).is_err());
    }

    #[test]
    fn grids_stay_within_65535() {
        assert_eq!(grid(65535, 65535), Some((65535, 1)));
        assert_eq!(grid(65536, 65535), Some((65535, 2)));
        let (x, y) = grid((1 << 24) + 3, 65535).unwrap();
        assert!(x as u64 * y as u64 >= (1 << 24) + 3);
        assert_eq!(grid(0, 65535), Some((0, 1)));
    }

    #[test]
    fn an_unsplittable_launch_reports_bytes_against_the_window() {
        // 64 elements that must stay in one block (a granule of 64), 100 elements apart: their
        // window is 25,204 bytes, four times a 4 KiB binding. The error compares bytes to bytes.
        let limits = BlockLimits {
            max_binding: 4096,
            offset_alignment: 32,
            max_elems: 1 << 31,
        };
        let op = BlockOperand {
            offset: 0,
            strides: vec![100],
            elem_bytes: 4,
            buffer_bytes: 64 * 400,
        };
        match plan_granular("probe", &[64], &[64], &[op], limits) {
            Err(Error::TooLarge {
                op: "probe",
                requested,
                max,
                what,
            }) => {
                assert_eq!((requested, max), ((63 * 100 + 1) * 4, 4096));
                assert_eq!(what, UNSPLITTABLE);
            }
            other => panic!("{other:?}"),
        }
    }
}
