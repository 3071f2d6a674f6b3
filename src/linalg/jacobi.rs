//! What the two Jacobi methods (`eigh`, `svd`) share: the launch schedule within the adapter's
//! loop budget, the convergence check between launches, and the sort of the results.

use super::{Stack, loop_budget, runs, steps_per_launch};
use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};

/// Sweeps before an iteration reports no convergence (Jacobi converges quadratically: 6–12
/// sweeps are typical).
pub(crate) const MAX_SWEEPS: u32 = 60;

/// How launches cover sweeps: several whole sweeps per launch for small matrices, or one sweep
/// in runs of rounds for large ones.
pub(crate) struct Schedule {
    pub sweeps: u32,
    pub rounds: Vec<(usize, usize)>,
}

/// The rounds of a sweep over `n` columns (pairs in a round-robin tournament).
pub(crate) fn rounds(n: usize) -> usize {
    n + (n & 1) - 1
}

/// The schedule for `rounds` rounds of `per_round` loop iterations each.
pub(crate) fn schedule(
    op: &'static str,
    a: &Array,
    rounds: usize,
    per_round: u64,
) -> Result<Schedule> {
    let per_sweep = rounds as u64 * per_round + 16;
    let budget = loop_budget(a);
    if per_sweep <= budget {
        return Ok(Schedule {
            sweeps: ((budget / per_sweep) as u32).clamp(1, MAX_SWEEPS),
            rounds: vec![(0, rounds)],
        });
    }
    let run = steps_per_launch(op, a, per_round)?;
    Ok(Schedule {
        sweeps: 1,
        rounds: runs(0, rounds, run),
    })
}

/// Whether every matrix is done (`info`: two words per matrix, the first 1 when done), or
/// `Err(LinAlg)` naming the first that is not once `sweeps` reach [`MAX_SWEEPS`].
pub(crate) fn converged(op: &'static str, info: &[u32], sweeps: u32) -> Result<bool> {
    match info.chunks(2).position(|w| w[0] != 1) {
        None => Ok(true),
        Some(index) if sweeps >= MAX_SWEEPS => Err(Error::LinAlg {
            op,
            index: Some(index),
            msg: format!("did not converge in {MAX_SWEEPS} Jacobi sweeps"),
        }),
        Some(_) => Ok(false),
    }
}

/// Each matrix's rows of `x` (…, n, inner) in its own order: row j of matrix b becomes row
/// `order[b, j]` of matrix b (`order` (…, n), any integer dtype).
pub(crate) fn permute_rows(x: &Array, order: &Array, stack: &Stack, n: usize) -> Result<Array> {
    let count = stack.count;
    let inner = x.len() / (count * n).max(1);
    if x.is_empty() {
        return Ok(x.clone());
    }
    let dev = x.device();
    let starts = Array::arange(dev, 0.0, (count * n) as f64, n as f64, DType::I32)?
        .reshape(&[count as isize, 1])?;
    let flat = order
        .astype(DType::I32)?
        .reshape(&[count as isize, n as isize])?
        .add(&starts)?
        .contiguous()?;
    let x = x.contiguous()?;
    let out = Array::empty("linalg", dev, x.shape(), x.dtype())?;
    crate::ops::take::gather(&x, &flat, &out, 1, count * n, inner)?;
    Ok(out)
}

/// On GPUs, matrices with at least this many columns take one workgroup per pair, a round per
/// launch (`shaders/linalg_svd_round.wgsl`, `linalg_eigh_round.wgsl`): the whole device on one
/// large matrix, where one workgroup per matrix would leave all but one compute unit idle.
/// Smaller ones, and every matrix on a CPU adapter, take one workgroup per matrix, many
/// matrices per launch: on lavapipe that is faster (256² SVD 2.2 s against 5.6 s by pairs, eigh
/// 3.4 s against 4.9 s; launches and barriers cost more there than the lost parallelism).
pub(crate) const PAIRS_FROM: usize = 96;

/// Whether `a` (n columns) goes by pairs.
pub(crate) fn by_pairs(a: &Array, n: usize) -> bool {
    n >= PAIRS_FROM && super::gpu_paths(a)
}

/// After a sweep by pairs: each matrix whose sweep rotated nothing is done; the others' flags
/// are cleared for the next sweep. `Some(next info)` while any is not done.
pub(crate) fn settle(info: &[u32]) -> Option<Vec<u32>> {
    let next: Vec<u32> = info
        .chunks(2)
        .flat_map(|w| {
            if w[0] == 1 || w[1] == 0 {
                [1, 0]
            } else {
                [0, 0]
            }
        })
        .collect();
    next.chunks(2).any(|w| w[0] == 0).then_some(next)
}

/// `Err(LinAlg)` for the first matrix not done after [`MAX_SWEEPS`] sweeps.
pub(crate) fn spent(op: &'static str, info: &[u32]) -> Error {
    Error::LinAlg {
        op,
        index: info.chunks(2).position(|w| w[0] != 1 && w[1] != 0),
        msg: format!("did not converge in {MAX_SWEEPS} Jacobi sweeps"),
    }
}
