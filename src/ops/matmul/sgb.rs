//! The subgroup-broadcast path (adapters with 8-wide subgroups): operands read in place when
//! their rows are whole vec4s, packed once otherwise.

use crate::array::Array;
use crate::device::blocks::BlockOperand;
use crate::device::params::Params;
use crate::device::{Binding, DeviceInner, PipelineKey, Variant, Work};
use crate::dtype::DType;
use crate::error::{Error, Result};

use super::families::sgb_family;
use super::plan::{Launch, Problem, View, flat3, limits, plan_mnk};
use super::{MAX_LOOP_TRIPS, OP};

/// Whether the subgroup-broadcast kernel's smallest launch (64 padded rows of A, 32 rows of B)
/// fits one binding; otherwise the tiled kernel, which can split to single rows, runs.
pub(super) fn sgb_fits(dev: &DeviceInner, k: u64, n: u64) -> bool {
    64 * k.next_multiple_of(32) * 4 <= limits(dev).max_binding && sgb_fits_n(dev, n)
}

/// Whether 32 rows of B (n columns, padded) fit one binding.
fn sgb_fits_n(dev: &DeviceInner, n: u64) -> bool {
    32 * n.next_multiple_of(64) * 4 <= limits(dev).max_binding
}

/// K-steps (terms) of one launch of the subgroup kernel: the loop budget. Its launches add
/// chunks of this many terms to C in turn.
const SGB_MAX_K: u64 = 8 * MAX_LOOP_TRIPS;

/// The K chunk of [`run_sgb_k_chunks`]: the kernel's own [`SGB_MAX_K`] (so that the sums come
/// out as a product within one binding sums them), or less where 64 rows of that would not fit
/// one binding (bindings under 64 MiB); `None` under 32.
fn k_chunk(dev: &DeviceInner) -> Option<u64> {
    let fit = limits(dev).max_binding / (64 * 4) / 32 * 32;
    (fit >= 32).then_some(fit.min(SGB_MAX_K))
}

/// Whether an unbatched product that the subgroup kernel would take but for its K — 64 rows of
/// A past one binding (48 × 838,861 @ 838,861 × 40 on lavapipe's 128 MiB) — goes by
/// [`run_sgb_k_chunks`]. The tiled kernel took it before, splitting K over a few workgroups of
/// mostly padding (25 s there; the subgroup kernel does 48 × 200,000 × 40 in 0.4 s).
pub(super) fn takes_k_chunks(dev: &DeviceInner, batch: usize, n: u64, k: u64) -> bool {
    batch == 1 && !sgb_fits(dev, k, n) && sgb_fits_n(dev, n) && k_chunk(dev).is_some()
}

/// C = A·B by the subgroup kernel in chunks of K: each chunk of A's columns copied out
/// contiguous (its rows [`k_chunk`] apart, not K), multiplied with B's rows of the chunk (read
/// in place), and added to C — as the kernel's own launches add theirs, so the bits are those
/// of the same product within one binding wherever the chunk is the kernel's (bindings of
/// 64 MiB and more).
#[allow(clippy::too_many_arguments)]
pub(super) fn run_sgb_k_chunks(
    dev: &DeviceInner,
    rows: u32,
    a: &Array,
    batched_a: bool,
    b: &Array,
    batched_b: bool,
    c: &Array,
) -> Result<()> {
    let nd = c.ndim();
    let k = a.shape()[nd - 1];
    let chunk = k_chunk(dev).expect("takes_k_chunks checked the chunk") as usize;
    let on_axis = |x: &Array, axis: usize, (lo, hi): (usize, usize)| -> Result<Array> {
        let mut args = vec![crate::SliceArg::full(); nd];
        args[axis] = crate::SliceArg::range(Some(lo as isize), Some(hi as isize), 1);
        x.slice(&args)
    };
    // Later chunks' products, each added to C (one temporary for all of them).
    let mut partial: Option<Array> = None;
    for k0 in (0..k).step_by(chunk) {
        let part = (k0, (k0 + chunk).min(k));
        let ac = on_axis(a, nd - 1, part)?.contiguous()?;
        let bc = on_axis(b, nd - 2, part)?;
        if k0 == 0 {
            run_sgb(dev, rows, &ac, batched_a, &bc, batched_b, c, Store::Write)?;
            continue;
        }
        if partial.is_none() {
            partial = Some(Array::empty(OP, c.device(), c.shape(), DType::F32)?);
        }
        let p = partial.as_ref().expect("just made");
        run_sgb(dev, rows, &ac, batched_a, &bc, batched_b, p, Store::Write)?;
        c.add_assign(p)?;
    }
    Ok(())
}

/// Whether `e` is [`run_sgb`]'s error for a product none of whose launches fits one binding: its
/// smallest launch still spans 64 rows of C (or of A, or 32 of B) and rows far apart (a wide C,
/// or a block of a larger matrix) do not fit. `run_sgb` plans every launch before it writes
/// anything, so the caller can run another kernel instead (the tiled one splits to single rows).
pub(super) fn unfit(e: &Error) -> bool {
    matches!(e, Error::TooLarge { op, what, .. } if *op == OP && *what == crate::device::blocks::UNSPLITTABLE)
}

/// Rows of C per workgroup of the subgroup-broadcast kernel (2 subgroups of `rows` each).
pub(super) fn sgb_rows_per_workgroup(rows: u32) -> u64 {
    rows as u64 * 2
}

/// Whether a matrix view can feed the subgroup-broadcast kernel in place: rows of whole vec4s
/// (unit column stride, row and batch strides and offset multiples of 4, columns a multiple of 4).
pub(super) fn vec4_rows(x: &Array) -> bool {
    let nd = x.ndim();
    let (cols, cs, rs) = (x.shape()[nd - 1], x.strides()[nd - 1], x.strides()[nd - 2]);
    let batch_ok = x.shape()[..nd - 2]
        .iter()
        .zip(&x.strides()[..nd - 2])
        .all(|(&n, &s)| n == 1 || s % 4 == 0);
    (cs == 1 || cols == 1)
        && cols % 4 == 0
        && rs % 4 == 0
        && rs >= 0
        && x.layout.offset.is_multiple_of(4)
        && batch_ok
}

/// What the subgroup-broadcast kernel does with C.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Store {
    /// C = A @ B.
    Write,
    /// C -= A @ B, in place: C's rows must be whole vec4s ([`in_place_target`]).
    Subtract,
}

/// Whether `c` can be the in-place target of [`Store::Subtract`]: its batch axes merge into one
/// without a copy and its rows are whole vec4s.
pub(super) fn in_place_target(c: &Array) -> bool {
    c.reshape(&flat3(c.shape()))
        .is_ok_and(|c3| c3.may_share_memory(c) && vec4_rows(&c3))
}

/// The subgroup-broadcast path. Operands whose rows are whole vec4s are read in place (the
/// kernel handles any M, any K and the edges); others are packed once into such a layout.
#[allow(clippy::too_many_arguments)]
pub(super) fn run_sgb(
    dev: &DeviceInner,
    rows: u32,
    a: &Array,
    batched_a: bool,
    b: &Array,
    batched_b: bool,
    c: &Array,
    store: Store,
) -> Result<()> {
    let nd = c.ndim();
    let (m, n, k) = (c.shape()[nd - 2], c.shape()[nd - 1], a.shape()[nd - 1]);
    // Columns padded to a multiple of 4 where a copy is needed anyway.
    let (k4, n4) = (k.next_multiple_of(4), n.next_multiple_of(4));
    let prepare = |x: &Array, batched: bool, cols4: usize| -> Result<Array> {
        // An unbatched operand stays one matrix (batch stride 0) instead of being replicated.
        let x = if batched {
            x.clone()
        } else {
            x.slice(&vec![crate::SliceArg::Index(0); nd - 2])?
        };
        let x = x.reshape(&flat3(x.shape()))?;
        if vec4_rows(&x) {
            return Ok(x);
        }
        let (bt, r, cols) = (x.shape()[0], x.shape()[1], x.shape()[2]);
        let padded = Array::zeros(x.device(), &[bt, r, cols4], DType::F32)?;
        padded
            .slice(&[
                crate::SliceArg::full(),
                crate::SliceArg::full(),
                crate::SliceArg::range(None, Some(cols as isize), 1),
            ])?
            .assign(&x)?;
        Ok(padded)
    };
    let ap = prepare(a, batched_a, k4)?;
    let bp = prepare(b, batched_b, n4)?;
    // C's batch axes merged; when that needs a copy, C is written through a temporary.
    let c3 = c.reshape(&flat3(c.shape()))?;
    let in_place = c3.may_share_memory(c) && vec4_rows(&c3);
    if store == Store::Subtract && !in_place {
        return Err(Error::InvalidArgument {
            op: OP,
            msg: format!(
                "an in-place update of a {:?} view whose rows are not whole vec4s",
                c.shape()
            ),
        });
    }
    let cp = if in_place {
        c3.clone()
    } else {
        Array::empty(OP, c.device(), &[c3.shape()[0], m, n4], DType::F32)?
    };
    let nbatch = c3.shape()[0] as u64;
    let bs = |x: &Array| {
        if x.shape()[0] > 1 {
            x.strides()[0] as i64
        } else {
            0
        }
    };
    let st = |x: &Array, d: usize| x.strides()[d] as i64;
    let view = |x: &Array, strides: [i64; 4]| BlockOperand {
        offset: x.layout.offset as i64,
        strides: strides.to_vec(),
        elem_bytes: 4,
        buffer_bytes: x.storage.bytes(),
    };
    let ops = [
        view(&ap, [bs(&ap), st(&ap, 1), 0, 1]),
        view(&bp, [bs(&bp), 0, 1, st(&bp, 1)]),
        view(&cp, [bs(&cp), st(&cp, 1), 1, 0]),
    ];
    let p = Problem {
        batch: nbatch,
        m: m as u64,
        n: n4 as u64,
        k: k as u64,
        a: View {
            array: &ap,
            offset: 0,
            bs: 0,
            rs: 0,
            cs: 0,
        },
        b: View {
            array: &bp,
            offset: 0,
            bs: 0,
            rs: 0,
            cs: 0,
        },
        c: View {
            array: &cp,
            offset: 0,
            bs: 0,
            rs: 0,
            cs: 0,
        },
    };
    let wg_rows = sgb_rows_per_workgroup(rows);
    let launches = plan_mnk(
        dev,
        &p,
        [1, wg_rows.max(64), 64, 32],
        8 * MAX_LOOP_TRIPS,
        &ops,
    )?;
    let key = PipelineKey::new(sgb_family(rows), Variant::one(DType::F32));
    let arrays = [&ap, &bp, &cp];
    dev.guarded(OP, || {
        for Launch {
            block: bl,
            accumulate,
        } in &launches
        {
            let [nb, bm, bn, bk] = [bl.extent[0], bl.extent[1], bl.extent[2], bl.extent[3]];
            let mut par = Params::default();
            for w in &bl.windows {
                par.u32((w.base / 4) as u32);
            }
            for x in arrays {
                par.u32((x.strides()[1] / 4) as u32);
            }
            for o in &ops {
                par.u32((o.strides[0] / 4) as u32);
            }
            par.u32((bk / 8) as u32)
                .u32((bk % 8) as u32)
                .u32(match store {
                    Store::Write => *accumulate as u32,
                    Store::Subtract => 2,
                });
            // Workgroups down M, then across N (see the kernel), folded into a 2-d grid.
            let row_blocks = bm.div_ceil(wg_rows);
            let blocks = row_blocks * bn.div_ceil(64);
            par.u32(bm as u32)
                .u32((bn / 4) as u32)
                .u32(row_blocks as u32)
                .u32(blocks as u32);
            let binds: Vec<Binding> = bl
                .windows
                .iter()
                .zip(arrays)
                .map(|(w, arr)| {
                    // vec4 bindings: whole 16-byte elements.
                    let size = w
                        .byte_size
                        .next_multiple_of(16)
                        .min(arr.storage.bytes() - w.byte_offset);
                    Binding {
                        buffer: arr.storage.buffer().expect("non-empty"),
                        offset: w.byte_offset,
                        size,
                    }
                })
                .collect();
            let max_dim = dev.limits.max_compute_workgroups_per_dimension;
            let (gx, gy) = crate::device::blocks::grid(blocks, max_dim).ok_or_else(|| {
                Error::overflow(
                    OP,
                    format!("{blocks} workgroups of {bm}x{bn} in one launch"),
                )
            })?;
            let grid = (gx, gy, nb as u32);
            dev.dispatch_grid(
                &key,
                par.bytes(),
                &binds,
                grid,
                Work::computes(
                    format!("{nb}x({bm}x{bk} @ {bk}x{bn})"),
                    2 * nb * bm * bk * bn,
                ),
            )?;
        }
        Ok(())
    })?;
    if !in_place {
        let result = cp.slice(&[
            crate::SliceArg::full(),
            crate::SliceArg::full(),
            crate::SliceArg::range(None, Some(n as isize), 1),
        ])?;
        let shape: Vec<isize> = c.shape().iter().map(|&d| d as isize).collect();
        c.assign(&result.reshape(&shape)?)?;
    }
    Ok(())
}
