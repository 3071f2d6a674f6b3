//! Planning a matmul's launches: problems with one batch axis, operand views, and the blocks
//! over (batch, M, N, K) whose operands each fit one storage binding.

use crate::array::Array;
use crate::device::blocks::{Block, BlockLimits, BlockOperand, Window, collapse, plan_granular};
use crate::device::{Binding, DeviceInner};
use crate::error::{Error, Result};

use super::{MAX_BATCH, OP};

/// One batched problem on raw operands: C[b] = A[b] @ B[b] with element strides.
#[derive(Clone, Copy)]
pub(super) struct Problem<'a> {
    pub(super) batch: u64,
    pub(super) m: u64,
    pub(super) n: u64,
    pub(super) k: u64,
    pub(super) a: View<'a>,
    pub(super) b: View<'a>,
    pub(super) c: View<'a>,
}

/// An operand as (buffer, element offset, batch/row/column strides).
#[derive(Clone, Copy)]
pub(super) struct View<'a> {
    pub(super) array: &'a Array,
    pub(super) offset: i64,
    pub(super) bs: i64,
    pub(super) rs: i64,
    pub(super) cs: i64,
}

impl<'a> View<'a> {
    pub(super) fn buffer(&self) -> &'a wgpu::Buffer {
        self.array.storage.buffer().expect("non-empty operand")
    }
    pub(super) fn operand(&self, strides: [i64; 4]) -> BlockOperand {
        BlockOperand {
            offset: self.offset,
            strides: strides.to_vec(),
            elem_bytes: self.array.dtype().size_bytes(),
            buffer_bytes: self.array.storage.bytes(),
        }
    }
}

/// Splits the batch axes into problems with one batch axis each (collapsing what collapses).
pub(super) fn for_each_batch<'a>(
    a: &'a Array,
    b: &'a Array,
    c: &'a Array,
    mut f: impl FnMut(Problem<'a>) -> Result<()>,
) -> Result<()> {
    let nd = c.ndim();
    let batch: Vec<u64> = c.shape()[..nd - 2].iter().map(|&d| d as u64).collect();
    let bstr = |x: &Array| {
        x.strides()[..nd - 2]
            .iter()
            .map(|&s| s as i64)
            .collect::<Vec<_>>()
    };
    let (shape, strides) = collapse(&batch, &[bstr(a), bstr(b), bstr(c)]);
    // The innermost collapsed batch axis goes to the grid; the others are looped here.
    let (outer, inner) = if shape.is_empty() {
        (&[][..], 1)
    } else {
        (&shape[..shape.len() - 1], shape[shape.len() - 1])
    };
    let inner_stride = |i: usize| strides[i].last().copied().unwrap_or(0);
    let outer_count: u64 = outer.iter().product();
    let (m, n, k) = (
        c.shape()[nd - 2] as u64,
        c.shape()[nd - 1] as u64,
        a.shape()[nd - 1] as u64,
    );
    let s = |x: &Array, d: usize| x.strides()[d] as i64;
    for o in 0..outer_count {
        let mut rem = o;
        let mut offs = [
            a.layout.offset as i64,
            b.layout.offset as i64,
            c.layout.offset as i64,
        ];
        for d in (0..outer.len()).rev() {
            let idx = (rem % outer[d]) as i64;
            rem /= outer[d];
            for (off, st) in offs.iter_mut().zip(&strides) {
                *off += idx * st[d];
            }
        }
        let view = |x: &'a Array, i: usize| View {
            array: x,
            offset: offs[i],
            bs: inner_stride(i),
            rs: s(x, nd - 2),
            cs: s(x, nd - 1),
        };
        f(Problem {
            batch: inner,
            m,
            n,
            k,
            a: view(a, 0),
            b: view(b, 1),
            c: view(c, 2),
        })?;
    }
    Ok(())
}

pub(super) fn bind<'a>(v: &View<'a>, w: &Window) -> Binding<'a> {
    Binding::of(v.buffer(), w)
}

pub(super) fn limits(dev: &DeviceInner) -> BlockLimits {
    BlockLimits {
        max_elems: u64::MAX,
        ..dev.block_limits()
    }
}

pub(super) fn i32_of(v: i64) -> Result<i32> {
    i32::try_from(v)
        .map_err(|_| Error::overflow(OP, format!("stride or offset {v} does not fit in i32")))
}

/// One kernel launch of a matmul: a block of (batch, M, N, K), and whether it adds to C (a
/// later K chunk) rather than writing it.
pub(super) struct Launch {
    pub(super) block: Block,
    pub(super) accumulate: bool,
}

/// Plans the launches over (batch, M, N, K): at most 65535 batches (the grid's z) and `max_k`
/// k-steps per launch, each operand inside one binding window. Launches are ordered so that for
/// every output element the first K chunk (which writes) runs before later ones (which add).
///
/// `max_k` bounds the loop trip count of one invocation: lavapipe (llvmpipe) stops every loop of
/// an invocation once 65535 iterations have run in total, silently truncating longer sums.
pub(super) fn plan_mnk(
    dev: &DeviceInner,
    p: &Problem,
    granules: [u64; 4],
    max_k: u64,
    ops: &[BlockOperand],
) -> Result<Vec<Launch>> {
    plan_mnk_from(dev, p, granules, max_k, ops, false)
}

/// [`plan_mnk`]; with `add`, every launch adds to C (the problem continues an earlier sum).
pub(super) fn plan_mnk_from(
    dev: &DeviceInner,
    p: &Problem,
    granules: [u64; 4],
    max_k: u64,
    ops: &[BlockOperand],
    add: bool,
) -> Result<Vec<Launch>> {
    let mut launches = Vec::new();
    let max_k = max_k / granules[3] * granules[3];
    let mut b0 = 0;
    while b0 < p.batch {
        let nb = (p.batch - b0).min(MAX_BATCH);
        let mut k0 = 0;
        while k0 < p.k {
            let nk = (p.k - k0).min(max_k);
            let shifted: Vec<BlockOperand> = ops
                .iter()
                .map(|o| BlockOperand {
                    offset: o.offset + b0 as i64 * o.strides[0] + k0 as i64 * o.strides[3],
                    ..o.clone()
                })
                .collect();
            let mut blocks =
                plan_granular(OP, &[nb, p.m, p.n, nk], &granules, &shifted, limits(dev))?;
            blocks.sort_by_key(|bl| (bl.start[3], bl.first_index));
            launches.extend(blocks.into_iter().map(|block| Launch {
                accumulate: add || k0 + block.start[3] > 0,
                block,
            }));
            k0 += nk;
        }
        b0 += nb;
    }
    Ok(launches)
}

/// A shape with its batch axes merged: `(batch, rows, cols)`.
pub(super) fn flat3(shape: &[usize]) -> [isize; 3] {
    let nd = shape.len();
    let batch: usize = shape[..nd - 2].iter().product();
    [
        batch as isize,
        shape[nd - 2] as isize,
        shape[nd - 1] as isize,
    ]
}
