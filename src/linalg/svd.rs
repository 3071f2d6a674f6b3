//! `numpy.linalg.svd` and `svdvals`: one-sided Jacobi (Hestenes) on the tall orientation of each
//! matrix, one workgroup per matrix (past 128 columns preconditioned by the eigenvectors of
//! AᵀA, found by `eigh`); U's columns without a singular value to normalise by (rank
//! deficiency, `full_matrices`) are completed to an orthonormal basis in the kernel.

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

/// Past this many columns (of the tall orientation) Jacobi starts from the eigenvectors V₀ of
/// AᵀA (`eigh`, by tridiagonalisation: fast): the columns of A·V₀ are orthogonal up to
/// rounding, so a sweep or two finishes (Jacobi's answer: backward stable, singular values to
/// ε·‖A‖ as LAPACK's gesdd, no longer to high relative accuracy) instead of eight to ten.
const PRECONDITION_FROM: usize = super::tridiagonal::TRIDIAGONAL_FROM;

/// AᵀA of the tall orientation of `a` (NaN as zero), when the SVD is preconditioned.
fn gram(op: &'static str, a: &Array) -> Result<Option<Array>> {
    let stack = Stack::of(op, a, false)?;
    if stack.rows.min(stack.cols) <= PRECONDITION_FROM || stack.count == 0 {
        return Ok(None);
    }
    let tall = if stack.rows < stack.cols {
        mt(a)?
    } else {
        a.clone()
    };
    let x = tall.astype(compute_dtype(op, a)?)?;
    let x = where_(&x.isnan()?, 0.0, &x)?;
    Ok(Some(mt(&x)?.matmul(&x)?))
}

fn start(op: &'static str, a: &Array, full: bool, v0: Option<Array>) -> Result<Jacobi> {
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
    let v = match v0 {
        Some(v0) => {
            block(&u, (0, big), (0, small))?.assign(&tall.astype(dtype)?.matmul(&v0)?)?;
            v0.astype(dtype)?
        }
        None => {
            if small > 0 {
                block(&u, (0, big), (0, small))?.assign(&tall)?;
            }
            super::identities(a, &stack, small, small, dtype)?
        }
    };
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

#[cfg(not(target_arch = "wasm32"))]
/// The SVD; without `vectors` (svdvals) U's columns are not completed (nobody reads them).
fn run(op: &'static str, a: &Array, full: bool, vectors: bool) -> Result<(Array, Array, Array)> {
    let v0 = match gram(op, a)? {
        Some(g) => Some(super::eigh::eigh(&g, true)?.1),
        None => None,
    };
    let j = start(op, a, full, v0)?;
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
        return finish(a, j, None, false);
    }
    let parts = finish_parts(&j)?;
    let flags = summary(&j, &parts)?.to_vec::<u8>()?;
    did_not_converge(op, &flags)?;
    let complete = vectors && (j.uc > j.small || flags[1] != 1);
    finish(a, j, Some(parts), complete)
}

async fn run_async(
    op: &'static str,
    a: &Array,
    full: bool,
    vectors: bool,
) -> Result<(Array, Array, Array)> {
    let v0 = match gram(op, a)? {
        Some(g) => Some(super::eigh::eigh_async(&g, true).await?.1),
        None => None,
    };
    let j = start(op, a, full, v0)?;
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
        return finish(a, j, None, false);
    }
    let parts = finish_parts(&j)?;
    let flags = summary(&j, &parts)?.to_vec_async::<u8>().await?;
    did_not_converge(op, &flags)?;
    let complete = vectors && (j.uc > j.small || flags[1] != 1);
    finish(a, j, Some(parts), complete)
}

/// `numpy.linalg.svd(a, full_matrices)`: `(U, S, Vh)` with a = U·diag(S)·Vh for each matrix of
/// the stack, S descending; U is (…, m, m) and Vh (…, n, n) with `full_matrices`, else (…, m,
/// k) and (…, k, n), k = min(m, n). One-sided Jacobi: up to 128 columns singular values to
/// high relative accuracy; past that Jacobi starts from the eigenvectors of AᵀA (a sweep or
/// two instead of ten) and the singular values are accurate to ε·‖A‖, as LAPACK's gesdd
/// (NumPy's). No convergence within [`MAX_SWEEPS`](super::jacobi::MAX_SWEEPS) sweeps is `Err(LinAlg)`.
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
    run("svd", a, full_matrices, true)
}

/// [`svd`] without blocking (every target).
pub async fn svd_async(a: &Array, full_matrices: bool) -> Result<(Array, Array, Array)> {
    run_async("svd", a, full_matrices, true).await
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
