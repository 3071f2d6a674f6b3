//! `numpy.linalg.svd` and `svdvals`. Up to 128 columns (of the tall orientation) one-sided
//! Jacobi (Hestenes), one workgroup per matrix: singular values to high relative accuracy; U's
//! columns without a singular value to normalise by (rank deficiency, `full_matrices`) are
//! completed to an orthonormal basis in the kernel. Tall matrices of those (past 256 rows, or
//! a U past one binding) first go through QR, the Jacobi taking the square R. Past 128
//! columns, as LAPACK's dgesvd: QR to a square R when the matrix is not square, then
//! bidiagonalisation and implicit-shift QR (`bidiagonal.rs`).

use super::bidiagonal::{self, BIDIAGONAL_FROM, Bdsqr};

/// Tall matrices with more rows than this (of the tall orientation) go through their QR.
const THROUGH_R_FROM: usize = 256;
use super::families::{SVD_JACOBI, SVD_ROUND};
use super::jacobi::{
    MAX_SWEEPS, Schedule, converged, permute_rows, rounds, schedule, settle, spent,
};
use super::lu::block;
use super::qr::{QrMode, qr};
use super::{Operand, Stack, compute_dtype, key, mt, per, per_matrix, workgroup_size};
use crate::array::Array;
use crate::device::params::Params;
use crate::dtype::DType;
use crate::error::Result;
use crate::ops::elementwise::where_;

/// The iteration's state: `u` (…, big, uc) starts as the tall matrix in its first `small`
/// columns.
struct Jacobi {
    /// Whether any matrix has NaN (0-d bool).
    nan: Array,
    u: Array,
    v: Array,
    info: Array,
    stack: Stack,
    big: usize,
    small: usize,
    uc: usize,
    wide: bool,
    dtype: DType,
    wg: u32,
    /// One workgroup per pair (large matrices on GPUs), else one per matrix on `plan`.
    pairs: bool,
    plan: Schedule,
}

fn start(op: &'static str, a: &Array, full: bool) -> Result<Jacobi> {
    let dtype = compute_dtype(op, a)?;
    let stack = Stack::of(op, a, false)?;
    let (m, n) = (stack.rows, stack.cols);
    let wide = m < n;
    let (big, small) = if wide { (n, m) } else { (m, n) };
    let uc = if full { big } else { small };
    let tall = if wide { mt(a)? } else { a.clone() };
    // A matrix with NaN is iterated as zeros (comparisons with NaN may be compiled assuming
    // none) and reported as NumPy does ("SVD did not converge").
    let nan = tall.isnan()?.any(crate::Axes::All, false)?;
    let tall = crate::ops::elementwise::where_(&nan, 0.0, &tall)?;
    let dev = a.device();
    let u = Array::zeros(dev, &stack.shape(&[big, uc]), dtype)?;
    if small > 0 {
        block(&u, (0, big), (0, small))?.assign(&tall)?;
    }
    let v = super::identities(a, &stack, small, small, dtype)?;
    let wg = workgroup_size(small.max(big));
    // A round: each invocation's pairs, three passes over the rows of U and one over V's.
    let per_round = per(small.div_ceil(2), wg) * (2 * big as u64 + small as u64 + 4) + 4;
    Ok(Jacobi {
        nan,
        u,
        v,
        info: Array::zeros(dev, &[stack.count, 2], DType::U32)?,
        // Large matrices go by pairs (`sweep_by_pairs`): no per-matrix schedule.
        pairs: super::jacobi::by_pairs(a, small),
        plan: if super::jacobi::by_pairs(a, small) {
            Schedule {
                sweeps: 1,
                rounds: Vec::new(),
            }
        } else {
            schedule(op, a, rounds(small.max(1)), per_round)?
        },
        stack,
        big,
        small,
        uc,
        wide,
        dtype,
        wg,
    })
}

fn launch(op: &'static str, j: &Jacobi, (r0, r1): (usize, usize)) -> Result<()> {
    let (m, n, uc) = (j.big, j.small, j.uc);
    per_matrix(
        op,
        &key(&SVD_JACOBI, j.dtype, j.wg),
        &[
            Operand {
                array: &j.u,
                per: (m * uc) as u64,
            },
            Operand {
                array: &j.v,
                per: (n * n) as u64,
            },
            Operand {
                array: &j.info,
                per: 2,
            },
        ],
        j.stack.count as u64,
        1,
        3 * (m * n * (r1 - r0)) as u64 * j.plan.sweeps as u64,
        |b, run| {
            Params::default()
                .u32(m as u32)
                .u32(n as u32)
                .u32(uc as u32)
                .u32(run)
                .u32(b[0])
                .u32(b[1])
                .u32(b[2])
                .u32(j.plan.sweeps)
                .u32(r0 as u32)
                .u32(r1 as u32)
                .bytes()
                .to_vec()
        },
    )
}

/// Whether there is nothing to iterate: no matrices, or no columns.
fn empty(j: &Jacobi) -> bool {
    j.small == 0 || j.stack.count == 0
}

fn sweep(op: &'static str, j: &Jacobi) -> Result<()> {
    for &r in &j.plan.rounds {
        launch(op, j, r)?;
    }
    Ok(())
}

/// The converged columns' norms (σ, sorted descending with U's and V's columns), U's columns
/// normalised, and where a column has no σ to normalise by (σ at the rounding-noise level
/// ε·‖A‖_F) or U has more columns than σs (`full_matrices`), the columns completed to an
/// orthonormal basis: Householder QR of U with those columns zeroed gives Q whose first columns
/// span the rest and whose last ones are orthogonal to them.
fn finish_parts(j: &Jacobi) -> Result<(Array, Array, Array, Array)> {
    let (m, n) = (j.big, j.small);
    let cols = block(&j.u, (0, m), (0, n))?;
    let s = cols.mul(&cols)?.sum(-2, false)?.sqrt()?;
    let order = s.neg()?.argsort(Some(-1))?;
    let s = permute_rows(&s, &order, &j.stack, n)?;
    let u = mt(&permute_rows(&mt(&cols)?, &order, &j.stack, n)?)?;
    let v = mt(&permute_rows(&mt(&j.v)?, &order, &j.stack, n)?)?;
    // Columns at the rounding-noise level of the matrix (σ ≤ ε·‖A‖_F, ‖A‖_F² = Σσ²) were left
    // unrotated among themselves by the kernel's floor: they are completed, not normalised.
    let (eps, tiny) = if j.dtype == DType::F32 {
        (f32::EPSILON as f64, f32::MIN_POSITIVE as f64)
    } else {
        (f64::EPSILON, f64::MIN_POSITIVE)
    };
    let fro = s.mul(&s)?.sum(-1, true)?.sqrt()?;
    let good = s.gt(&fro.mul(eps)?)?.logical_and(&s.gt(tiny)?)?;
    let u = u.div(&where_(&good, &s, 1.0)?.expand_dims(-2)?)?;
    Ok((u, s, v, good))
}

/// (U, S, Vh) of the original orientation; `complete` says whether U needs completing (a σ
/// without a column, or `full_matrices`).
fn finish(
    a: &Array,
    j: Jacobi,
    parts: Option<(Array, Array, Array, Array)>,
    complete: bool,
) -> Result<(Array, Array, Array)> {
    let (u, s, v) = match parts {
        None => (
            super::identities(a, &j.stack, j.big, j.uc, j.dtype)?,
            Array::zeros(a.device(), &j.stack.shape(&[j.small]), j.dtype)?,
            j.v.clone(),
        ),
        Some((u, s, v, good)) => {
            let u = if complete {
                let padded = Array::zeros(a.device(), &j.stack.shape(&[j.big, j.uc]), j.dtype)?;
                block(&padded, (0, j.big), (0, j.small))?.assign(&where_(
                    &good.expand_dims(-2)?,
                    &u,
                    0.0,
                )?)?;
                let (q, _) = qr(&padded, QrMode::Complete)?;
                let q = block(&q.expect("complete mode has Q"), (0, j.big), (0, j.uc))?;
                let keep = Array::zeros(a.device(), &j.stack.shape(&[j.uc]), DType::Bool)?;
                block(&keep.expand_dims(-2)?, (0, 1), (0, j.small))?
                    .assign(&good.expand_dims(-2)?)?;
                let full = Array::zeros(a.device(), &j.stack.shape(&[j.big, j.uc]), j.dtype)?;
                block(&full, (0, j.big), (0, j.small))?.assign(&u)?;
                where_(&keep.expand_dims(-2)?, &full, &q)?
            } else {
                u.contiguous()?
            };
            (u, s, v)
        }
    };
    // Tall: A = U·S·Vᵀ. Wide: Aᵀ = U·S·Vᵀ, so A = V·S·Uᵀ.
    Ok(if j.wide {
        (v.contiguous()?, s, mt(&u)?.contiguous()?)
    } else {
        (u, s, mt(&v)?.contiguous()?)
    })
}

fn by_pairs(j: &Jacobi) -> bool {
    j.pairs
}

/// ‖A‖_F² of each matrix (the noise floor's scale), contiguous (count,).
fn norms(j: &Jacobi) -> Result<Array> {
    let cols = block(&j.u, (0, j.big), (0, j.small))?;
    cols.mul(&cols)?
        .sum(crate::Axes::from(vec![-2, -1]), false)?
        .reshape(&[j.stack.count as isize])?
        .contiguous()
}

/// The n − 1 launches of one sweep, one workgroup per (matrix, pair).
fn sweep_by_pairs(op: &'static str, j: &Jacobi, norms: &Array) -> Result<()> {
    let (m, n, uc) = (j.big, j.small, j.uc);
    let pairs = (n + (n & 1)) / 2;
    for r in 0..rounds(n) {
        per_matrix(
            op,
            &key(&SVD_ROUND, j.dtype, workgroup_size(m).min(64)),
            &[
                Operand {
                    array: &j.u,
                    per: (m * uc) as u64,
                },
                Operand {
                    array: &j.v,
                    per: (n * n) as u64,
                },
                Operand {
                    array: &j.info,
                    per: 2,
                },
                Operand {
                    array: norms,
                    per: 1,
                },
            ],
            j.stack.count as u64,
            pairs as u64,
            6 * (m * pairs) as u64,
            |b, run| {
                Params::default()
                    .u32(m as u32)
                    .u32(n as u32)
                    .u32(uc as u32)
                    .u32(run)
                    .u32(b[0])
                    .u32(b[1])
                    .u32(b[2])
                    .u32(b[3])
                    .u32(r as u32)
                    .u32(pairs as u32)
                    .bytes()
                    .to_vec()
            },
        )?;
    }
    Ok(())
}

/// Two flags read back together: whether the input has NaN (NumPy's "SVD did not converge"),
/// and whether every column has a σ to normalise by.
fn summary(j: &Jacobi, parts: &(Array, Array, Array, Array)) -> Result<Array> {
    let nan = j.nan.reshape(&[1])?;
    let good = parts.3.all(crate::Axes::All, false)?.reshape(&[1])?;
    crate::ops::join::concatenate(&[&nan, &good], 0)?.astype(DType::U8)
}

/// NumPy's error for an SVD of NaN.
fn did_not_converge(op: &'static str, flags: &[u8]) -> Result<()> {
    if flags[0] == 1 {
        return Err(crate::Error::LinAlg {
            op,
            index: None,
            msg: "SVD did not converge (the matrix has NaN)".into(),
        });
    }
    Ok(())
}

/// How the SVD of a stack's square factor turns back into the stack's: Q of the tall
/// orientation when it is not square (reduced, or complete for `full_matrices`), and whether
/// the stack is wide (its transpose was factored).
struct Orientation {
    q: Option<Array>,
    wide: bool,
    big: usize,
    small: usize,
}

/// What the bidiagonal path's finishing needs: the orientation, and whether every entry is
/// finite (0-d bool).
struct Square {
    turn: Orientation,
    finite: Array,
}

/// Whether `a` goes by bidiagonalisation.
fn large(op: &'static str, a: &Array) -> Result<bool> {
    let stack = Stack::of(op, a, false)?;
    Ok(stack.count > 0 && stack.rows.min(stack.cols) > BIDIAGONAL_FROM)
}

fn bidiagonal_start(
    op: &'static str,
    a: &Array,
    full: bool,
    vectors: bool,
) -> Result<(Bdsqr, Square)> {
    let dtype = compute_dtype(op, a)?;
    let stack = Stack::of(op, a, false)?;
    let wide = stack.rows < stack.cols;
    let tall = if wide { mt(a)? } else { a.clone() }.astype(dtype)?;
    let (big, small) = (stack.rows.max(stack.cols), stack.rows.min(stack.cols));
    // A matrix with NaN or ±inf is iterated as zeros (comparisons with NaN may be compiled
    // assuming none) and reported as NumPy does ("SVD did not converge").
    let ok = tall.isfinite()?;
    let finite = ok.all(crate::Axes::All, false)?;
    let x = where_(&ok, &tall, 0.0)?;
    let (q, square) = if big > small {
        tall_qr(&x, small, full, vectors)?
    } else {
        (None, x)
    };
    let square_stack = Stack {
        batch: stack.batch.clone(),
        count: stack.count,
        rows: small,
        cols: small,
    };
    let t = bidiagonal::reduce(op, &square, &square_stack, vectors)?;
    Ok((
        t,
        Square {
            turn: Orientation {
                q,
                wide,
                big,
                small,
            },
            finite,
        },
    ))
}

/// QR of the tall orientation `x` (…, big, small): Q as the results need it (none for the
/// values only, reduced, or complete for `full_matrices`) and the square R (…, small, small).
fn tall_qr(x: &Array, small: usize, full: bool, vectors: bool) -> Result<(Option<Array>, Array)> {
    let mode = match (vectors, full) {
        (false, _) => QrMode::R,
        (true, false) => QrMode::Reduced,
        (true, true) => QrMode::Complete,
    };
    let (q, r) = qr(x, mode)?;
    Ok((q, block(&r, (0, small), (0, small))?.contiguous()?))
}

/// Tall matrices (of the tall orientation: more than [`THROUGH_R_FROM`] rows, or a U larger
/// than one storage binding) with up to [`BIDIAGONAL_FROM`] columns: QR first, then the
/// Jacobi SVD of the square R, as LAPACK's gesvd and gesdd do past about 1.6 rows a column.
/// One-sided Jacobi in one workgroup walks every row of U for every rotation (70,000 × 3 was
/// past lavapipe's loop limit, and a U past one binding could not be bound); R is at most
/// 128 × 128. Returns R and how to turn its SVD back; `None` for the matrices that the Jacobi
/// takes whole.
fn through_r(
    op: &'static str,
    a: &Array,
    full: bool,
    vectors: bool,
) -> Result<Option<(Array, Orientation)>> {
    let dtype = compute_dtype(op, a)?;
    let stack = Stack::of(op, a, false)?;
    let wide = stack.rows < stack.cols;
    let (big, small) = (stack.rows.max(stack.cols), stack.rows.min(stack.cols));
    let uc = if full { big } else { small };
    let window = crate::ops::window_elements(&a.device().inner, dtype.size_bytes());
    let tall_enough = big > THROUGH_R_FROM || (big * uc) as u64 > window;
    if stack.count == 0 || small == 0 || small > BIDIAGONAL_FROM || big == small || !tall_enough {
        return Ok(None);
    }
    let tall = if wide { mt(a)? } else { a.clone() }.astype(dtype)?;
    // NaN or ±inf spread through the reflectors into R, whose Jacobi reports it.
    let (q, r) = tall_qr(&tall, small, full, vectors)?;
    Ok(Some((
        r,
        Orientation {
            q,
            wide,
            big,
            small,
        },
    )))
}

/// The SVD of a stack from the SVD (`u`, `s`, `vh`) of its square factor R (`through_r`).
fn through_r_finish(
    turn: Orientation,
    (u, s, vh): (Option<Array>, Array, Option<Array>),
) -> Result<(Option<Array>, Array, Option<Array>)> {
    // Without vectors (`svdvals`) there is no Q, and R's U and Vh are not wanted.
    match (u, vh) {
        (Some(u), Some(vh)) if turn.q.is_some() => {
            let (u, vh) = turn_back(&turn, u, vh)?;
            Ok((Some(u), s, Some(vh)))
        }
        _ => Ok((None, s, None)),
    }
}

/// U and Vh of the original orientation from the SVD of the square factor (U_R, Vh_R): U is
/// Q·U_R (complete: Q's first columns turned by U_R, the rest as they are).
fn turn_back(turn: &Orientation, u: Array, vh: Array) -> Result<(Array, Array)> {
    let (big, small) = (turn.big, turn.small);
    let u = match &turn.q {
        None => u,
        Some(q) if q.shape()[q.ndim() - 1] == small => q.matmul(&u)?,
        Some(q) => {
            let turned = block(q, (0, big), (0, small))?.matmul(&u)?;
            let q = q.contiguous()?;
            block(&q, (0, big), (0, small))?.assign(&turned)?;
            q
        }
    };
    // Tall: A = U·S·Vh. Wide: Aᵀ = U·S·Vh, so A = Vhᵀ·S·Uᵀ.
    Ok(if turn.wide {
        (mt(&vh)?.contiguous()?, mt(&u)?.contiguous()?)
    } else {
        (u, vh)
    })
}

/// (U, S, Vh) of the original orientation (U and Vh `None` without vectors).
fn bidiagonal_finish(
    op: &'static str,
    t: Bdsqr,
    sq: Square,
    finite: &[u8],
) -> Result<(Option<Array>, Array, Option<Array>)> {
    if finite[0] != 1 {
        did_not_converge(op, &[1])?;
    }
    let (s, vectors) = bidiagonal::results(t)?;
    let Some((u, vh)) = vectors else {
        return Ok((None, s, None));
    };
    let (u, vh) = turn_back(&sq.turn, u, vh)?;
    Ok((Some(u), s, Some(vh)))
}

/// The Jacobi path's results.
fn jacobi_finish(
    op: &'static str,
    a: &Array,
    j: Jacobi,
    parts: Option<(Array, Array, Array, Array)>,
    flags: &[u8],
    vectors: bool,
) -> Result<(Option<Array>, Array, Option<Array>)> {
    let (u, s, vh) = match parts {
        None => finish(a, j, None, false)?,
        Some(parts) => {
            did_not_converge(op, flags)?;
            let complete = vectors && (j.uc > j.small || flags[1] != 1);
            finish(a, j, Some(parts), complete)?
        }
    };
    Ok((Some(u), s, Some(vh)))
}

#[cfg(not(target_arch = "wasm32"))]
/// The SVD; without `vectors` (svdvals) U's columns are not completed (nobody reads them).
fn run(
    op: &'static str,
    a: &Array,
    full: bool,
    vectors: bool,
) -> Result<(Option<Array>, Array, Option<Array>)> {
    if large(op, a)? {
        let (t, sq) = bidiagonal_start(op, a, full, vectors)?;
        loop {
            bidiagonal::qr_launch(op, &t)?;
            if bidiagonal::settled(op, &t.rotations.state.to_vec::<u32>()?)? {
                break;
            }
        }
        let finite = sq.finite.astype(DType::U8)?.to_vec::<u8>()?;
        return bidiagonal_finish(op, t, sq, &finite);
    }
    if let Some((r, turn)) = through_r(op, a, full, vectors)? {
        let square = run(op, &r, false, vectors)?;
        return through_r_finish(turn, square);
    }
    let j = start(op, a, full)?;
    let mut sweeps = 0;
    if !empty(&j) && by_pairs(&j) {
        let norms = norms(&j)?;
        loop {
            sweep_by_pairs(op, &j, &norms)?;
            sweeps += 1;
            let info = j.info.to_vec::<u32>()?;
            match settle(&info) {
                None => break,
                Some(_) if sweeps >= MAX_SWEEPS => return Err(spent(op, &info)),
                Some(next) => {
                    j.info
                        .assign(&Array::from_slice(a.device(), &next, j.info.shape())?)?
                }
            }
        }
    }
    while !empty(&j) && !by_pairs(&j) {
        sweep(op, &j)?;
        sweeps += j.plan.sweeps;
        if converged(op, &j.info.to_vec::<u32>()?, sweeps)? {
            break;
        }
    }
    if empty(&j) {
        return jacobi_finish(op, a, j, None, &[], vectors);
    }
    let parts = finish_parts(&j)?;
    let flags = summary(&j, &parts)?.to_vec::<u8>()?;
    jacobi_finish(op, a, j, Some(parts), &flags, vectors)
}

async fn run_async(
    op: &'static str,
    a: &Array,
    full: bool,
    vectors: bool,
) -> Result<(Option<Array>, Array, Option<Array>)> {
    if large(op, a)? {
        let (t, sq) = bidiagonal_start(op, a, full, vectors)?;
        loop {
            bidiagonal::qr_launch(op, &t)?;
            if bidiagonal::settled(op, &t.rotations.state.to_vec_async::<u32>().await?)? {
                break;
            }
        }
        let finite = sq.finite.astype(DType::U8)?.to_vec_async::<u8>().await?;
        return bidiagonal_finish(op, t, sq, &finite);
    }
    if let Some((r, turn)) = through_r(op, a, full, vectors)? {
        let square = Box::pin(run_async(op, &r, false, vectors)).await?;
        return through_r_finish(turn, square);
    }
    let j = start(op, a, full)?;
    let mut sweeps = 0;
    if !empty(&j) && by_pairs(&j) {
        let norms = norms(&j)?;
        loop {
            sweep_by_pairs(op, &j, &norms)?;
            sweeps += 1;
            let info = j.info.to_vec_async::<u32>().await?;
            match settle(&info) {
                None => break,
                Some(_) if sweeps >= MAX_SWEEPS => return Err(spent(op, &info)),
                Some(next) => {
                    j.info
                        .assign(&Array::from_slice(a.device(), &next, j.info.shape())?)?
                }
            }
        }
    }
    while !empty(&j) && !by_pairs(&j) {
        sweep(op, &j)?;
        sweeps += j.plan.sweeps;
        if converged(op, &j.info.to_vec_async::<u32>().await?, sweeps)? {
            break;
        }
    }
    if empty(&j) {
        return jacobi_finish(op, a, j, None, &[], vectors);
    }
    let parts = finish_parts(&j)?;
    let flags = summary(&j, &parts)?.to_vec_async::<u8>().await?;
    jacobi_finish(op, a, j, Some(parts), &flags, vectors)
}

/// U and Vh of a run with vectors.
fn with_vectors(r: (Option<Array>, Array, Option<Array>)) -> (Array, Array, Array) {
    let (u, s, vh) = r;
    (u.expect("svd computes U"), s, vh.expect("svd computes Vh"))
}

/// `numpy.linalg.svd(a, full_matrices)`: `(U, S, Vh)` with a = U·diag(S)·Vh for each matrix of
/// the stack, S descending; U is (…, m, m) and Vh (…, n, n) with `full_matrices`, else (…, m,
/// k) and (…, k, n), k = min(m, n). Up to 128 columns (of the tall orientation) one-sided
/// Jacobi: singular values to high relative accuracy (of the matrix, or past 256 rows of its
/// R from a QR first, as LAPACK's gesdd); past that QR (when not square),
/// bidiagonalisation and implicit-shift QR, as LAPACK's dgesvd: singular values accurate to
/// ε·‖A‖, as NumPy's gesdd. No convergence (Jacobi within
/// [`MAX_SWEEPS`](super::jacobi::MAX_SWEEPS) sweeps, QR within 30·k sweeps) and NaN or ±inf
/// entries are `Err(LinAlg)`.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let a = gpuarray::Array::from_slice(&dev, &[3.0f32, 0.0, 0.0, -4.0], &[2, 2])?;
/// let (u, s, vh) = gpuarray::linalg::svd(&a, true)?;
/// assert_eq!(s.to_vec::<f32>()?, vec![4.0, 3.0]);
/// assert_eq!((u.shape(), vh.shape()), (&[2usize, 2][..], &[2usize, 2][..]));
/// # Ok(()) }
/// ```
#[cfg(not(target_arch = "wasm32"))]
pub fn svd(a: &Array, full_matrices: bool) -> Result<(Array, Array, Array)> {
    run("svd", a, full_matrices, true).map(with_vectors)
}

/// [`svd`] without blocking (every target).
pub async fn svd_async(a: &Array, full_matrices: bool) -> Result<(Array, Array, Array)> {
    run_async("svd", a, full_matrices, true)
        .await
        .map(with_vectors)
}

/// `numpy.linalg.svdvals(a)` (`svd(a, compute_uv=False)`): the singular values, descending.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let a = gpuarray::Array::from_slice(&dev, &[0.0f32, 2.0, 0.0, 0.0, 0.0, 1.0], &[2, 3])?;
/// assert_eq!(gpuarray::linalg::svdvals(&a)?.to_vec::<f32>()?, vec![2.0, 1.0]);
/// # Ok(()) }
/// ```
#[cfg(not(target_arch = "wasm32"))]
pub fn svdvals(a: &Array) -> Result<Array> {
    Ok(run("svdvals", a, false, false)?.1)
}

/// [`svdvals`] without blocking (every target).
pub async fn svdvals_async(a: &Array) -> Result<Array> {
    Ok(run_async("svdvals", a, false, false).await?.1)
}
