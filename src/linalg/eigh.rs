//! `numpy.linalg.eigh` and `eigvalsh` on the symmetric matrix NumPy reads from one triangle:
//! up to [`TRIDIAGONAL_FROM`] rows cyclic Jacobi, one workgroup per matrix, sweeps until every
//! pair is negligible (by pairs of columns on GPUs past `PAIRS_FROM`); larger matrices by
//! tridiagonalisation and implicit QL (`tridiagonal.rs`).

use super::families::{EIGH_JACOBI, EIGH_ROUND_COLS, EIGH_ROUND_ROWS};
use super::jacobi::{
    MAX_SWEEPS, Schedule, converged, permute_rows, rounds, schedule, settle, spent,
};
use super::tridiagonal::{self, TRIDIAGONAL_FROM, Tql};
use super::{Operand, Stack, compute_dtype, key, mt, per, per_matrix, workgroup_size};
use crate::array::Array;
use crate::device::params::Params;
use crate::dtype::DType;
use crate::error::Result;

/// The Jacobi iteration's state between launches.
struct Jacobi {
    a: Array,
    /// Per matrix (…, 1, 1): whether it has NaN.
    nan: Array,
    v: Array,
    w: Array,
    info: Array,
    cs: Array,
    stack: Stack,
    dtype: DType,
    wg: u32,
    /// One workgroup per pair (large matrices on GPUs), else one per matrix on `plan`.
    pairs: bool,
    plan: Schedule,
}

/// The symmetric matrices of the triangle NumPy reads (contiguous, a copy), those with NaN
/// zeroed, and which had NaN (…, 1, 1).
fn symmetric(op: &'static str, a: &Array, lower: bool) -> Result<(Array, Array, Stack, DType)> {
    let dtype = compute_dtype(op, a)?;
    let stack = Stack::of(op, a, true)?;
    let x = a.astype(dtype)?;
    // The symmetric matrix of the triangle NumPy reads (UPLO).
    let sym = if lower {
        x.tril(0)?.add(&mt(&x.tril(-1)?)?)?
    } else {
        x.triu(0)?.add(&mt(&x.triu(1)?)?)?
    };
    // A matrix with NaN is iterated as zeros (comparisons with NaN may be compiled assuming
    // none) and its eigenvalues come out NaN.
    let nan = x.isnan()?.any(crate::Axes::from(vec![-2, -1]), true)?;
    let sym = crate::ops::elementwise::where_(&nan, 0.0, &sym)?.contiguous()?;
    Ok((sym, nan, stack, dtype))
}

fn start(op: &'static str, a: &Array, lower: bool) -> Result<Jacobi> {
    let (sym, nan, stack, dtype) = symmetric(op, a, lower)?;
    let n = stack.rows;
    let dev = a.device();
    let wg = workgroup_size(n);
    let half = n.div_ceil(2);
    // A round: the pairs' angles, then the rows and the columns of every pair.
    let per_round = 2 * per(half, wg) + 2 * per(half * n, wg) + 8;
    Ok(Jacobi {
        a: sym,
        nan,
        v: super::identities(a, &stack, n, n, dtype)?,
        w: Array::zeros(dev, &stack.shape(&[n]), dtype)?,
        info: Array::zeros(dev, &[stack.count, 2], DType::U32)?,
        cs: Array::zeros(dev, &[stack.count, n + 1], dtype)?,
        // Large matrices go by pairs (`sweep_by_pairs`): no per-matrix schedule.
        pairs: super::jacobi::by_pairs(a, n),
        plan: if super::jacobi::by_pairs(a, n) {
            Schedule {
                sweeps: 1,
                rounds: Vec::new(),
            }
        } else {
            schedule(op, a, rounds(n.max(1)), per_round + per(n, wg))?
        },
        stack,
        dtype,
        wg,
    })
}

fn launch(op: &'static str, j: &Jacobi, (r0, r1): (usize, usize)) -> Result<()> {
    let n = j.stack.rows;
    let nn = (n * n) as u64;
    per_matrix(
        op,
        &key(&EIGH_JACOBI, j.dtype, j.wg),
        &[
            Operand {
                array: &j.a,
                per: nn,
            },
            Operand {
                array: &j.v,
                per: nn,
            },
            Operand {
                array: &j.w,
                per: n as u64,
            },
            Operand {
                array: &j.info,
                per: 2,
            },
            Operand {
                array: &j.cs,
                per: n as u64 + 1,
            },
        ],
        j.stack.count as u64,
        1,
        8 * (n * (r1 - r0)) as u64 * n as u64 * j.plan.sweeps as u64,
        |b, run| {
            Params::default()
                .u32(n as u32)
                .u32(run)
                .u32(b[0])
                .u32(b[1])
                .u32(b[2])
                .u32(b[3])
                .u32(b[4])
                .u32(j.plan.sweeps)
                .u32(r0 as u32)
                .u32(r1 as u32)
                .bytes()
                .to_vec()
        },
    )
}

fn empty(j: &Jacobi) -> bool {
    j.stack.rows == 0 || j.stack.count == 0
}

/// The launches of one batch of sweeps.
fn sweep(op: &'static str, j: &Jacobi) -> Result<()> {
    for &r in &j.plan.rounds {
        launch(op, j, r)?;
    }
    Ok(())
}

/// ‖A‖_F of each matrix (the floor's scale), contiguous (count,).
fn norms(j: &Jacobi) -> Result<Array> {
    j.a.mul(&j.a)?
        .sum(crate::Axes::from(vec![-2, -1]), false)?
        .sqrt()?
        .reshape(&[j.stack.count as isize])?
        .contiguous()
}

/// The 2(n − 1) launches of one sweep by pairs: per round, the rows pass then the columns pass.
fn sweep_by_pairs(op: &'static str, j: &Jacobi, norms: &Array) -> Result<()> {
    let n = j.stack.rows;
    let nn = (n * n) as u64;
    let pairs = (n + (n & 1)) / 2;
    for r in 0..rounds(n) {
        for family in [&EIGH_ROUND_ROWS, &EIGH_ROUND_COLS] {
            per_matrix(
                op,
                &key(family, j.dtype, workgroup_size(n).min(64)),
                &[
                    Operand {
                        array: &j.a,
                        per: nn,
                    },
                    Operand {
                        array: &j.v,
                        per: nn,
                    },
                    Operand {
                        array: &j.info,
                        per: 2,
                    },
                    Operand {
                        array: &j.cs,
                        per: n as u64 + 1,
                    },
                    Operand {
                        array: norms,
                        per: 1,
                    },
                ],
                j.stack.count as u64,
                pairs as u64,
                4 * (n * pairs) as u64,
                |b, run| {
                    Params::default()
                        .u32(n as u32)
                        .u32(run)
                        .u32(b[0])
                        .u32(b[1])
                        .u32(b[2])
                        .u32(b[3])
                        .u32(b[4])
                        .u32(r as u32)
                        .u32(pairs as u32)
                        .bytes()
                        .to_vec()
                },
            )?;
        }
    }
    Ok(())
}

/// After sweeps by pairs: the eigenvalues are the diagonal.
fn diagonal_to_w(j: &Jacobi) -> Result<()> {
    j.w.assign(&j.a.diagonal(0, -2, -1)?)
}

/// The eigenvalues ascending and the eigenvectors' columns with them.
fn finish(j: Jacobi) -> Result<(Array, Array)> {
    if empty(&j) {
        return Ok((j.w, j.v));
    }
    let (w, v) = sorted(j.w, Some(j.v), &j.nan, &j.stack)?;
    Ok((w, v.expect("Jacobi has vectors")))
}

/// `w` ascending and the columns of `v` with them; NaN eigenvalues for matrices with NaN.
fn sorted(
    w: Array,
    v: Option<Array>,
    nan: &Array,
    stack: &Stack,
) -> Result<(Array, Option<Array>)> {
    let n = stack.rows;
    let order = w.argsort(Some(-1))?;
    let ws = permute_rows(&w, &order, stack, n)?;
    let ws = crate::ops::elementwise::where_(&nan.squeeze_axes(&[-1])?, f64::NAN, &ws)?;
    let vs = match v {
        Some(v) => Some(mt(&permute_rows(&mt(&v)?, &order, stack, n)?)?.contiguous()?),
        None => None,
    };
    Ok((ws, vs))
}

/// Whether `a` goes by tridiagonalisation.
fn large(a: &Array) -> bool {
    a.ndim() >= 2 && a.shape()[a.ndim() - 1] > TRIDIAGONAL_FROM
}

fn tridiagonal_start(
    op: &'static str,
    a: &Array,
    lower: bool,
    vectors: bool,
) -> Result<(Tql, Array, Stack)> {
    let (sym, nan, stack, _) = symmetric(op, a, lower)?;
    Ok((tridiagonal::reduce(op, &sym, &stack, vectors)?, nan, stack))
}

fn tridiagonal_finish(t: Tql, nan: &Array, stack: &Stack) -> Result<(Array, Option<Array>)> {
    let (w, v) = tridiagonal::results(t)?;
    sorted(w.contiguous()?, v, nan, stack)
}

#[cfg(not(target_arch = "wasm32"))]
fn run(op: &'static str, a: &Array, lower: bool, vectors: bool) -> Result<(Array, Option<Array>)> {
    if large(a) {
        let (t, nan, stack) = tridiagonal_start(op, a, lower, vectors)?;
        loop {
            tridiagonal::ql_launch(op, &t)?;
            if tridiagonal::settled(op, &t.rotations.state.to_vec::<u32>()?)? {
                break;
            }
        }
        return tridiagonal_finish(t, &nan, &stack);
    }
    let j = start(op, a, lower)?;
    let mut sweeps = 0;
    if !empty(&j) && j.pairs {
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
        diagonal_to_w(&j)?;
    }
    while !empty(&j) && !j.pairs {
        sweep(op, &j)?;
        sweeps += j.plan.sweeps;
        if converged(op, &j.info.to_vec::<u32>()?, sweeps)? {
            break;
        }
    }
    let (w, v) = finish(j)?;
    Ok((w, Some(v)))
}

async fn run_async(
    op: &'static str,
    a: &Array,
    lower: bool,
    vectors: bool,
) -> Result<(Array, Option<Array>)> {
    if large(a) {
        let (t, nan, stack) = tridiagonal_start(op, a, lower, vectors)?;
        loop {
            tridiagonal::ql_launch(op, &t)?;
            if tridiagonal::settled(op, &t.rotations.state.to_vec_async::<u32>().await?)? {
                break;
            }
        }
        return tridiagonal_finish(t, &nan, &stack);
    }
    let j = start(op, a, lower)?;
    let mut sweeps = 0;
    if !empty(&j) && j.pairs {
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
        diagonal_to_w(&j)?;
    }
    while !empty(&j) && !j.pairs {
        sweep(op, &j)?;
        sweeps += j.plan.sweeps;
        if converged(op, &j.info.to_vec_async::<u32>().await?, sweeps)? {
            break;
        }
    }
    let (w, v) = finish(j)?;
    Ok((w, Some(v)))
}

/// `numpy.linalg.eigh(a, UPLO)`: the eigenvalues (ascending) and eigenvectors (columns) of each
/// symmetric matrix of the stack, read from its lower (`lower`, NumPy's `'L'`) or upper
/// triangle. Up to 128 rows cyclic Jacobi (eigenvalues to high relative accuracy), past that
/// tridiagonalisation and implicit QL (eigenvalues to n·ε·‖A‖, as LAPACK's dsyev); eigenvectors
/// orthonormal to working accuracy. Sweeps or iterations that do not converge are
/// `Err(LinAlg)`.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let a = gpuarray::Array::from_slice(&dev, &[2.0f32, 1.0, 1.0, 2.0], &[2, 2])?;
/// let (w, v) = gpuarray::linalg::eigh(&a, true)?;
/// let w = w.to_vec::<f32>()?;
/// assert!((w[0] - 1.0).abs() < 1e-6 && (w[1] - 3.0).abs() < 1e-6);
/// assert_eq!(v.shape(), &[2, 2]);
/// # Ok(()) }
/// ```
#[cfg(not(target_arch = "wasm32"))]
pub fn eigh(a: &Array, lower: bool) -> Result<(Array, Array)> {
    let (w, v) = run("eigh", a, lower, true)?;
    Ok((w, v.expect("eigh computes vectors")))
}

/// [`eigh`] without blocking (every target).
pub async fn eigh_async(a: &Array, lower: bool) -> Result<(Array, Array)> {
    let (w, v) = run_async("eigh", a, lower, true).await?;
    Ok((w, v.expect("eigh computes vectors")))
}

/// `numpy.linalg.eigvalsh(a, UPLO)`: [`eigh`]'s eigenvalues only.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let a = gpuarray::Array::from_slice(&dev, &[5.0f32, 0.0, 0.0, -1.0], &[2, 2])?;
/// assert_eq!(gpuarray::linalg::eigvalsh(&a, true)?.to_vec::<f32>()?, vec![-1.0, 5.0]);
/// # Ok(()) }
/// ```
#[cfg(not(target_arch = "wasm32"))]
pub fn eigvalsh(a: &Array, lower: bool) -> Result<Array> {
    Ok(run("eigvalsh", a, lower, false)?.0)
}

/// [`eigvalsh`] without blocking (every target).
pub async fn eigvalsh_async(a: &Array, lower: bool) -> Result<Array> {
    Ok(run_async("eigvalsh", a, lower, false).await?.0)
}
