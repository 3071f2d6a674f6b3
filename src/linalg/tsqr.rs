//! Tall-skinny QR (TSQR; Demmel, Grigori, Hoemmen and Langou, "Communication-optimal parallel
//! and sequential QR and LU factorizations", 2012) for [`qr`](super::qr)'s reduced and `r`
//! modes.
//!
//! Householder QR factors a matrix one workgroup at a time, and a tall matrix has few columns
//! for that workgroup to share: 100,000 × 10 took 1.2 s on lavapipe, and a single column
//! larger than one storage binding could not be factored at all. TSQR cuts the rows into
//! leaves of [`leaf_rows`] rows, factors every leaf of every matrix in one launch (one
//! workgroup each), stacks their n × n R factors and factors that stack the same way, until it
//! fits one leaf. Q is the leaves' Q factors times the Q of the level above, block by block
//! (one batched product per level). Every array a launch binds is a leaf, so any height that
//! memory holds is factored.
//!
//! Its R and Q differ from LAPACK's by the signs of R's rows (Q's columns); the signs that make
//! them LAPACK's (and so NumPy's) come from Q's top block (`shaders/linalg_tsqr_signs.wgsl`).

use super::families::TSQR_SIGNS;
use super::lu::block;
use super::qr::{factor_in_place, form_q};
use super::{Operand, Stack, key, per_matrix};
use crate::array::Array;
use crate::dtype::DType;
use crate::error::Result;
use crate::layout::SliceArg;

/// Leaves have at least this many rows.
const LEAF_MIN: usize = 256;
/// The widest matrices factored this way: a leaf's QR is one unblocked workgroup.
const MAX_COLS: usize = 64;

/// A matrix is cut into at most this many leaves, unless its leaves would be longer than
/// [`LEAF_MAX`].
const LEAVES: usize = 64;
/// Leaves have at most this many rows: 16 MiB of float32 at 64 columns, one binding on any
/// adapter, and the kernels' passes over a leaf's rows stay within lavapipe's loop budget (a
/// 64th of 2^28 rows would not).
const LEAF_MAX: usize = 1 << 16;

/// The rows of a leaf of an m × n matrix: at least eight times as many rows as columns, so that
/// each level leaves at most an eighth of the rows, and [`LEAVES`] leaves at most up to
/// [`LEAF_MAX`] rows. From the shape alone, so that the bits do not depend on the adapter.
/// (More, smaller leaves cost more barriers per row: on lavapipe, 300,000 × 4 in 1,172 leaves
/// of 256 rows took 1.0 s, in 64 leaves 0.39 s, in 16 leaves 0.36 s; a GPU wants a workgroup
/// per leaf for each of its compute units.)
fn leaf_rows(m: usize, n: usize) -> usize {
    (8 * n).max(LEAF_MIN).max(m.div_ceil(LEAVES).min(LEAF_MAX))
}

/// Whether the stack `s` is tall and narrow enough for TSQR: at least two leaves of
/// [`LEAF_MIN`] rows, at most [`MAX_COLS`] columns.
pub(super) fn applies(s: &Stack) -> bool {
    s.count > 0 && s.cols > 0 && s.cols <= MAX_COLS && s.rows >= 2 * leaf_rows(s.rows, s.cols)
}

/// The factors of one level: Q (…, m, n) where asked, Q's top n × n block, and R (…, n, n).
struct Factors {
    q: Option<Array>,
    top: Array,
    r: Array,
}

/// `qr(a)` of a stack `s` that [`applies`]: `(Some(Q), R)` (NumPy's reduced mode) or
/// `(None, R)` (mode `r`), Q (…, m, n) and R (…, n, n) with LAPACK's signs.
pub(super) fn qr(
    op: &'static str,
    a: &Array,
    dtype: DType,
    s: &Stack,
    want_q: bool,
) -> Result<(Option<Array>, Array)> {
    let (m, n, count) = (s.rows, s.cols, s.count);
    let flat = a.reshape(&[count as isize, m as isize, n as isize])?;
    let f = level(op, &flat, dtype, want_q)?;
    // S from the modified LU of Q's top blocks (in a copy: the kernel works in place).
    let top = f.top.astype(dtype)?;
    let signs = Array::zeros(a.device(), &[count, n], dtype)?;
    per_matrix(
        op,
        &key(&TSQR_SIGNS, dtype, 64),
        &[
            Operand {
                array: &top,
                per: (n * n) as u64,
            },
            Operand {
                array: &signs,
                per: n as u64,
            },
        ],
        count as u64,
        1,
        (n * n * n) as u64,
        |bases, run| {
            crate::device::params::Params::default()
                .u32(n as u32)
                .u32(run)
                .u32(bases[0])
                .u32(bases[1])
                .bytes()
                .to_vec()
        },
    )?;
    // S·R (its rows) and Q·S (its columns); triu keeps the zeros below the diagonal +0.
    let r =
        f.r.mul(&signs.reshape(&[count as isize, n as isize, 1])?)?
            .triu(0)?
            .reshape(&signed(&s.shape(&[n, n])))?;
    let q = match f.q {
        Some(q) => Some(
            q.mul(&signs.reshape(&[count as isize, 1, n as isize])?)?
                .reshape(&signed(&s.shape(&[m, n])))?,
        ),
        None => None,
    };
    Ok((q, r))
}

fn signed(shape: &[usize]) -> Vec<isize> {
    shape.iter().map(|&d| d as isize).collect()
}

/// The TSQR of `x` (count, m, n): the leaves' Householder QR, and the level above on their
/// stacked R factors; Householder QR whole once `x` is less than two leaves tall.
fn level(op: &'static str, x: &Array, dtype: DType, want_q: bool) -> Result<Factors> {
    let (count, m, n) = (x.shape()[0], x.shape()[1], x.shape()[2]);
    let stack = |count: usize, rows: usize| Stack {
        batch: vec![count],
        count,
        rows,
        cols: n,
    };
    let rows = leaf_rows(m, n);
    if m < 2 * rows {
        let h = x.astype(dtype)?;
        let s = stack(count, m);
        let tau = factor_in_place(op, &h, &s)?;
        let q = form_q(op, &h, &tau, &s, n)?;
        return Ok(Factors {
            top: block(&q, (0, n), (0, n))?,
            r: block(&h, (0, n), (0, n))?.triu(0)?,
            q: want_q.then_some(q),
        });
    }
    // The leaves, the last padded with zero rows (which change neither R nor Q's first m rows).
    let leaves_per = m.div_ceil(rows);
    let leaves = if leaves_per * rows == m {
        x.astype(dtype)?
    } else {
        let padded = Array::zeros(x.device(), &[count, leaves_per * rows, n], dtype)?;
        block(&padded, (0, m), (0, n))?.assign(x)?;
        padded
    };
    let all = count * leaves_per;
    let leaves = leaves.reshape(&[all as isize, rows as isize, n as isize])?;
    let leaf_stack = stack(all, rows);
    let tau = factor_in_place(op, &leaves, &leaf_stack)?;
    let stacked = block(&leaves, (0, n), (0, n))?.triu(0)?.reshape(&[
        count as isize,
        (leaves_per * n) as isize,
        n as isize,
    ])?;
    let above = level(op, &stacked, dtype, want_q)?;
    if let Some(q_above) = above.q {
        // Each leaf's Q times its n rows of the Q above.
        let q_above = q_above.reshape(&[all as isize, n as isize, n as isize])?;
        let q = form_q(op, &leaves, &tau, &leaf_stack, n)?
            .matmul(&q_above)?
            .reshape(&[count as isize, (leaves_per * rows) as isize, n as isize])?;
        let q = block(&q, (0, m), (0, n))?;
        return Ok(Factors {
            top: block(&q, (0, n), (0, n))?,
            r: above.r,
            q: Some(q),
        });
    }
    // Without Q, its top block only: the first leaf's Q times the top block above.
    let first = |a: &Array, tail: &[usize]| -> Result<Array> {
        let mut shape = vec![count as isize, leaves_per as isize];
        shape.extend(tail.iter().map(|&d| d as isize));
        let mut args = vec![SliceArg::range(None, None, 1), SliceArg::Index(0)];
        args.extend(tail.iter().map(|_| SliceArg::range(None, None, 1)));
        a.reshape(&shape)?.slice(&args)?.contiguous()
    };
    let q_first = form_q(
        op,
        &first(&leaves, &[rows, n])?,
        &first(&tau, &[n])?,
        &stack(count, rows),
        n,
    )?;
    Ok(Factors {
        top: block(&q_first, (0, n), (0, n))?.matmul(&above.top)?,
        r: above.r,
        q: None,
    })
}
