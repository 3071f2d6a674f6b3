//! LU with partial pivoting and what NumPy builds on it: `solve`, `inv`, `det`, `slogdet`.
//!
//! Matrices up to [`BLOCKED_FROM`] rows are factored in one launch, one workgroup per matrix;
//! larger ones in panels of [`PANEL`] columns, the trailing matrix updated by the tuned matmul
//! between panels (blocked right-looking LU, as LAPACK's getrf).

use super::families::{LU_PANEL, LU_SOLVE, LU_U12, SMALL_SOLVE};
use super::{Kernel, tiny};
use super::{
    Operand, SMALL_WG, Stack, compute_dtype, compute_dtype2, key, one_invocation_each, per,
    per_matrix, runs, steps_per_launch, workgroup_size,
};
use crate::array::Array;
use crate::device::params::Params;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::SliceArg;

/// Matrices with more rows are factored in panels.
const BLOCKED_FROM: usize = 128;
/// Columns per panel of the blocked factorization.
const PANEL: usize = 32;
/// Columns of the right-hand side per workgroup of the substitutions.
const RHS_RUN: usize = 64;
/// Rows per block of the substitutions (`BLOCK` in `shaders/linalg_lu_solve.wgsl`).
const SOLVE_BLOCK: usize = 32;

/// P·A = L·U of a stack of square matrices, in place in a copy.
pub(crate) struct Lu {
    /// L below the diagonal (unit diagonal implied), U on and above it; batch × n × n.
    pub lu: Array,
    /// The row swapped with row j at step j; batch × n, int32.
    pub piv: Array,
    /// Per matrix: 0, or the 1-based column of the first zero pivot.
    pub info: Array,
    pub stack: Stack,
}

/// `a[..., r0:r1, c0:c1]`.
pub(crate) fn block(a: &Array, rows: (usize, usize), cols: (usize, usize)) -> Result<Array> {
    let mut args = vec![SliceArg::range(None, None, 1); a.ndim() - 2];
    args.push(SliceArg::range(
        Some(rows.0 as isize),
        Some(rows.1 as isize),
        1,
    ));
    args.push(SliceArg::range(
        Some(cols.0 as isize),
        Some(cols.1 as isize),
        1,
    ));
    a.slice(&args)
}

/// The panels of a factorization of `n` columns.
pub(crate) fn panels(n: usize) -> Vec<(usize, usize)> {
    if n <= BLOCKED_FROM {
        return vec![(0, n)];
    }
    (0..n)
        .step_by(PANEL)
        .map(|k0| (k0, (k0 + PANEL).min(n)))
        .collect()
}

/// Factors a copy of `a` (square stack) in `dtype`.
pub(crate) fn factor(op: &'static str, a: &Array, dtype: DType) -> Result<Lu> {
    let stack = Stack::of(op, a, true)?;
    let n = stack.rows;
    let dev = a.device();
    let lu = a.astype(dtype)?;
    let piv = Array::zeros(dev, &stack.shape(&[n]), DType::I32)?;
    let info = Array::zeros(dev, &[stack.count], DType::I32)?;
    if n == 0 || stack.count == 0 {
        return Ok(Lu {
            lu,
            piv,
            info,
            stack,
        });
    }
    if !super::lu_past_binding::fits(&lu, n) {
        super::lu_past_binding::factor(op, &lu, &piv, &info, &stack)?;
        return Ok(Lu {
            lu,
            piv,
            info,
            stack,
        });
    }
    for (k0, k1) in panels(n) {
        factor_panel(op, &lu, &piv, &info, stack.count, (n, n), (k0, k1), 0)?;
        if k1 < n {
            solve_block_row(op, &lu, stack.count, (k0, k1))?;
            // A22 -= L21 · U12.
            crate::ops::matmul::matmul_sub_into(
                &block(&lu, (k1, n), (k0, k1))?,
                &block(&lu, (k0, k1), (k1, n))?,
                &block(&lu, (k1, n), (k1, n))?,
            )?;
        }
    }
    Ok(Lu {
        lu,
        piv,
        info,
        stack,
    })
}

/// Factors the columns [k0, k1) of `count` row-major `rows` × `ld` arrays `a` with the panel
/// kernel (`shaders/linalg_lu.wgsl`): the matrices themselves (rows = ld = n, `off` 0) or copies
/// of one panel of each (rows from `off` down, the panel's columns; k0 = 0, k1 = ld). Pivots go
/// to `piv` (n per matrix) as rows of the matrix, the first zero pivot's column to `info`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn factor_panel(
    op: &'static str,
    a: &Array,
    piv: &Array,
    info: &Array,
    count: usize,
    (rows, ld): (usize, usize),
    (k0, k1): (usize, usize),
    off: usize,
) -> Result<()> {
    let n = piv.shape()[piv.ndim() - 1];
    let wg = workgroup_size(rows);
    let key = key(&LU_PANEL, a.dtype(), wg);
    let w = k1 - k0;
    // Per step: the pivot search and its tree, the swap, the scaling, and the update on a grid
    // of `lanes` columns × wg / lanes rows (as in the kernel).
    let lanes = wg.min(32);
    let per_step = 2 * per(rows, wg) + 16 + per(ld, wg) + per(w, lanes) * per(rows, wg / lanes);
    let run = steps_per_launch(op, a, per_step)?;
    for (j0, j1) in runs(k0, k1, run) {
        let flops = 2 * (rows * ld * (j1 - j0)) as u64;
        per_matrix(
            op,
            &key,
            &[
                Operand {
                    array: a,
                    per: (rows * ld) as u64,
                },
                Operand {
                    array: piv,
                    per: n as u64,
                },
                Operand {
                    array: info,
                    per: 1,
                },
            ],
            count as u64,
            1,
            flops,
            |bases, run| {
                Params::default()
                    .u32(rows as u32)
                    .u32(ld as u32)
                    .u32(k1 as u32)
                    .u32(j0 as u32)
                    .u32(j1 as u32)
                    .u32(run)
                    .u32(bases[0])
                    .u32(bases[1])
                    .u32(bases[2])
                    .u32(n as u32)
                    .u32(off as u32)
                    .bytes()
                    .to_vec()
            },
        )?;
    }
    Ok(())
}

/// U12 = L11⁻¹·A12 in place (`shaders/linalg_lu_u12.wgsl`): the rows [k0, k1) right of the
/// panel just factored in `count` contiguous n × n matrices `a`.
fn solve_block_row(
    op: &'static str,
    a: &Array,
    count: usize,
    (k0, k1): (usize, usize),
) -> Result<()> {
    let n = a.shape()[a.ndim() - 1];
    let wg = SMALL_WG;
    let groups = (n - k1).div_ceil(wg as usize);
    let w = (k1 - k0) as u64;
    per_matrix(
        op,
        &key(&LU_U12, a.dtype(), wg),
        &[Operand {
            array: a,
            per: (n * n) as u64,
        }],
        count as u64,
        groups as u64,
        w * w * (n - k1) as u64,
        |bases, run| {
            Params::default()
                .u32(n as u32)
                .u32(k0 as u32)
                .u32(k1 as u32)
                .u32(groups as u32)
                .u32(run)
                .u32(bases[0])
                .bytes()
                .to_vec()
        },
    )
}

/// Overwrites `x` (batch × n × m, contiguous, the factor's dtype) with the solution of
/// A·X = X from `f`.
pub(crate) fn substitute(op: &'static str, f: &Lu, x: &Array) -> Result<()> {
    let n = f.stack.rows;
    let m = x.shape()[x.ndim() - 1];
    if n == 0 || m == 0 || f.stack.count == 0 {
        return Ok(());
    }
    if !super::lu_past_binding::fits(&f.lu, n) {
        return super::lu_past_binding::substitute(op, f, x);
    }
    substitute_phases(op, &f.lu, &f.piv, x, f.stack.count, &[0, 1, 2])
}

/// The phases of `shaders/linalg_lu_solve.wgsl` (0 the swaps of `piv`, 1 forward substitution
/// with the unit lower triangle of `lu`, 2 back substitution with its upper triangle) on `x`
/// (count × n × m, contiguous), for `count` n × n factors `lu` (contiguous).
pub(crate) fn substitute_phases(
    op: &'static str,
    lu: &Array,
    piv: &Array,
    x: &Array,
    count: usize,
    phases: &[u32],
) -> Result<()> {
    let n = lu.shape()[lu.ndim() - 1];
    let m = x.shape()[x.ndim() - 1];
    if n == 0 || m == 0 || count == 0 {
        return Ok(());
    }
    let cw = m.min(RHS_RUN);
    let chunks = m.div_ceil(cw);
    let wg = workgroup_size(n.max(cw));
    let key = key(&LU_SOLVE, lu.dtype(), wg);
    // The swaps run every row for each of an invocation's columns; each row of a substitution
    // its share of its block's rows (at most SOLVE_BLOCK terms for each of an invocation's
    // columns) and of the pass over the rows below (or above) the block.
    steps_per_launch(op, x, n as u64 * per(cw, wg) + 2)?;
    let run = steps_per_launch(
        op,
        x,
        per(n * cw, wg) + per(cw, wg) * SOLVE_BLOCK as u64 + 4,
    )?;
    let mut launches = vec![(0u32, 0, 0)];
    launches.extend(runs(0, n, run).into_iter().map(|(a, b)| (1, a, b)));
    launches.extend(runs(0, n, run).into_iter().rev().map(|(a, b)| (2, a, b)));
    launches.retain(|(phase, _, _)| phases.contains(phase));
    for (phase, j0, j1) in launches {
        per_matrix(
            op,
            &key,
            &[
                Operand {
                    array: lu,
                    per: (n * n) as u64,
                },
                Operand {
                    array: piv,
                    per: (piv.len() / count) as u64,
                },
                Operand {
                    array: x,
                    per: (n * m) as u64,
                },
            ],
            count as u64,
            chunks as u64,
            (n * (j1 - j0) * m) as u64,
            |bases, run| {
                Params::default()
                    .u32(n as u32)
                    .u32(m as u32)
                    .u32(cw as u32)
                    .u32(chunks as u32)
                    .u32(run)
                    .u32(bases[0])
                    .u32(bases[1])
                    .u32(bases[2])
                    .u32(phase)
                    .u32(j0 as u32)
                    .u32(j1 as u32)
                    .bytes()
                    .to_vec()
            },
        )?;
    }
    Ok(())
}

/// Loop iterations of one invocation of `shaders/linalg_small_solve.wgsl` for n × n and m
/// right-hand sides (every loop of the kernel, counted as it runs).
fn small_solve_iterations(n: usize, m: usize) -> u64 {
    let mut it = 0;
    for j in 0..n {
        let below = n - j - 1;
        it += 1 + below + (n - j) + m + below * (1 + below + m);
    }
    for j in 0..n {
        it += m * (1 + (n - j - 1));
    }
    (it + n) as u64
}

/// A·X = B for a batch of small systems, one invocation per matrix: `a` (…, n, n) and `b`
/// (…, n, m) of the same batch shape; the solution and `info`.
fn small_solve(op: &'static str, a: &Array, b: &Array, dtype: DType) -> Result<(Array, Array)> {
    let s = Stack::of(op, a, true)?;
    let (n, m) = (s.rows, b.shape()[b.ndim() - 1]);
    let info = Array::zeros(a.device(), &[s.count], DType::I32)?;
    let flat = |x: &Array, cols: usize| x.reshape(&[s.count as isize, n as isize, cols as isize]);
    // Up to 32 × 32 with at most 64 right-hand-side elements: in registers, specialised on n, m
    // (above 8 × 8 once the device has solved enough of them: tiny.rs).
    let family = key(&SMALL_SOLVE, dtype, SMALL_WG);
    let kernel = if tiny::generated(&a.device().inner, dtype, n, m, s.count) {
        let (pipeline, name) = tiny::pipeline(&a.device().inner, dtype, n, m, SMALL_WG)?;
        Kernel::Generated(pipeline, name)
    } else {
        Kernel::Family(&family)
    };
    let out = super::one_per_invocation(
        op,
        &kernel,
        &[&flat(a, n)?, &flat(b, m)?],
        dtype,
        &info,
        (2 * n * n * n / 3 + 2 * n * n * m) as u64,
        |len, info_base, strides| {
            Params::default()
                .u32(n as u32)
                .u32(m as u32)
                .u32(len)
                .u32(0)
                .u32(0)
                .u32(info_base)
                .u32(strides[0].0)
                .u32(strides[0].1)
                .u32(strides[1].0)
                .u32(strides[1].1)
                .bytes()
                .to_vec()
        },
    )?;
    Ok((out[1].reshape(&shape_of(b))?, info))
}

fn shape_of(a: &Array) -> Vec<isize> {
    a.shape().iter().map(|&d| d as isize).collect()
}

/// The solution of A·X = B (copies of both, the same batch shape) and `info`: one invocation
/// per matrix for batches of small systems, else LU and the substitutions; then `steps` steps of
/// iterative refinement for float32 (below).
fn lu_solve(
    op: &'static str,
    a: &Array,
    b: &Array,
    dtype: DType,
    steps: Option<usize>,
) -> Result<(Array, Array)> {
    let s = Stack::of(op, a, true)?;
    let m = b.shape()[b.ndim() - 1];
    let small =
        s.rows > 0 && m > 0 && one_invocation_each(a, s.count, small_solve_iterations(s.rows, m));
    let refinable = dtype == DType::F32 && a.device().supports(DType::F64);
    // By default, one step where it costs little beside the factorization: large matrices.
    let steps = match steps {
        Some(k) if refinable => k,
        Some(_) => 0,
        None if refinable && s.rows > BLOCKED_FROM => 1,
        None => 0,
    };
    if small {
        let (mut x, info) = small_solve(op, a, b, dtype)?;
        if steps > 0 {
            let (a64, b64) = (a.astype(DType::F64)?, b.astype(DType::F64)?);
            let mut x64 = x.astype(DType::F64)?;
            for _ in 0..steps {
                let r = b64.sub(&a64.matmul(&x64)?)?.astype(dtype)?;
                x64 = x64.add(&small_solve(op, a, &r, dtype)?.0.astype(DType::F64)?)?;
            }
            x = x64.astype(dtype)?;
        }
        return Ok((x, info));
    }
    let f = factor(op, a, dtype)?;
    let x = b.astype(dtype)?;
    substitute(op, &f, &x)?;
    if steps == 0 {
        return Ok((x, f.info));
    }
    let (a64, b64) = (a.astype(DType::F64)?, b.astype(DType::F64)?);
    let mut x64 = x.astype(DType::F64)?;
    for _ in 0..steps {
        // The residual in float64 (native, or software binary64), the correction from the same
        // float32 factors.
        let d = b64.sub(&a64.matmul(&x64)?)?.astype(dtype)?;
        substitute(op, &f, &d)?;
        x64 = x64.add(&d.astype(DType::F64)?)?;
    }
    Ok((x64.astype(dtype)?, f.info))
}

fn singular(_: i32) -> String {
    "Singular matrix".into()
}

/// The solve without its check: the solution and the factorization's `info`.
fn solve_unchecked(a: &Array, b: &Array, steps: Option<usize>) -> Result<(Array, Array)> {
    let op = "solve";
    a.same_device(op, b)?;
    let dtype = compute_dtype2(op, a, b)?;
    let sa = Stack::of(op, a, true)?;
    let n = sa.rows;
    // NumPy 2: b is a vector only when it is 1-D; otherwise a stack of n × k matrices.
    let vector = b.ndim() == 1;
    let bm = if vector {
        if b.len() != n {
            return Err(Error::shape(
                op,
                format!(
                    "b of shape {:?} does not match a of shape {:?} (its length must be {n})",
                    b.shape(),
                    a.shape()
                ),
            ));
        }
        b.reshape(&[n as isize, 1])?
    } else {
        if b.shape()[b.ndim() - 2] != n {
            return Err(Error::shape(
                op,
                format!(
                    "b of shape {:?} does not match a of shape {:?} (its rows must be {n})",
                    b.shape(),
                    a.shape()
                ),
            ));
        }
        b.clone()
    };
    let sb = Stack::of(op, &bm, false)?;
    let batch = crate::layout::broadcast_shapes(op, &[&sa.batch, &sb.batch])?;
    let with = |tail: &[usize]| {
        let mut s = batch.clone();
        s.extend_from_slice(tail);
        s
    };
    let (x, info) = lu_solve(
        op,
        &a.broadcast_to(&with(&[n, n]))?,
        &bm.broadcast_to(&with(&[n, sb.cols]))?,
        dtype,
        steps,
    )?;
    let x = if vector {
        let shape: Vec<isize> = with(&[n]).iter().map(|&d| d as isize).collect();
        x.reshape(&shape)?
    } else {
        x
    };
    Ok((x, info))
}

/// `numpy.linalg.solve(a, b)`: x with a @ x == b, for a stack of square `a` (…, n, n) and `b`
/// either a vector (n,) (NumPy 2: only when `b` is 1-D) or a stack of matrices (…, n, k), batch
/// axes broadcast. LU with partial pivoting, as LAPACK's gesv. A singular matrix is
/// `Err(LinAlg)` naming the first one of the batch.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// use gpuarray::{Array, linalg};
/// let a = Array::from_slice(&dev, &[3.0f32, 1.0, 1.0, 2.0], &[2, 2])?;
/// let b = Array::from_slice(&dev, &[9.0f32, 8.0], &[2])?;
/// let x = linalg::solve(&a, &b)?.to_vec::<f32>()?;
/// assert!((x[0] - 2.0).abs() < 1e-5 && (x[1] - 3.0).abs() < 1e-5);
/// let singular = Array::from_slice(&dev, &[1.0f32, 2.0, 2.0, 4.0], &[2, 2])?;
/// assert!(matches!(linalg::solve(&singular, &b), Err(gpuarray::Error::LinAlg { .. })));
/// # Ok(()) }
/// ```
#[cfg(not(target_arch = "wasm32"))]
pub fn solve(a: &Array, b: &Array) -> Result<Array> {
    let (x, info) = solve_unchecked(a, b, None)?;
    super::check_info("solve", &info, singular)?;
    Ok(x)
}

/// [`solve`] without blocking (every target; the browser's form).
pub async fn solve_async(a: &Array, b: &Array) -> Result<Array> {
    let (x, info) = solve_unchecked(a, b, None)?;
    super::check_info_async("solve", &info, singular).await?;
    Ok(x)
}

/// [`solve`] with `steps` steps of mixed-precision iterative refinement for float32 systems:
/// the residual b − a·x in float64 (native, or the software binary64 on adapters without f64),
/// the correction solved with the same float32 factors, added in float64. Each step shrinks the
/// forward error by about κ(a)·ε₃₂ while κ(a)·ε₃₂ < 1, so a system with κ up to ~10^7 gets close
/// to float32's own precision. [`solve`] already does one step for matrices past 128 rows
/// (where it costs O(n²) beside the O(n³) factorization); `steps = 0` turns that off. Float64
/// systems are solved as [`solve`] solves them (there is no wider type for their residual).
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// use gpuarray::{Array, linalg};
/// // The 3×3 Hilbert matrix (κ ≈ 524) and b = a·1.
/// let h: Vec<f32> = (0..9).map(|t| 1.0 / ((t / 3 + t % 3 + 1) as f32)).collect();
/// let a = Array::from_slice(&dev, &h, &[3, 3])?;
/// let b = a.sum(1, false)?;
/// let x = linalg::solve_refined(&a, &b, 2)?.to_vec::<f32>()?;
/// assert!(x.iter().all(|v| (v - 1.0).abs() < 1e-3));
/// # Ok(()) }
/// ```
#[cfg(not(target_arch = "wasm32"))]
pub fn solve_refined(a: &Array, b: &Array, steps: usize) -> Result<Array> {
    let (x, info) = solve_unchecked(a, b, Some(steps))?;
    super::check_info("solve", &info, singular)?;
    Ok(x)
}

/// [`solve_refined`] without blocking (every target).
pub async fn solve_refined_async(a: &Array, b: &Array, steps: usize) -> Result<Array> {
    let (x, info) = solve_unchecked(a, b, Some(steps))?;
    super::check_info_async("solve", &info, singular).await?;
    Ok(x)
}

pub(crate) fn inv_unchecked(a: &Array) -> Result<(Array, Array)> {
    let op = "inv";
    let dtype = compute_dtype(op, a)?;
    let s = Stack::of(op, a, true)?;
    // The identity broadcast over the batch: `lu_solve` copies it once into the right-hand side.
    let eye = Array::eye_k(a.device(), s.rows, s.rows, 0, dtype)?
        .broadcast_to(&s.shape(&[s.rows, s.rows]))?;
    lu_solve(op, a, &eye, dtype, Some(0))
}

/// `numpy.linalg.inv(a)`: the inverse of each square matrix of the stack (LU, then the
/// substitutions on the identity). A singular matrix is `Err(LinAlg)`.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let a = gpuarray::Array::from_slice(&dev, &[2.0f32, 0.0, 0.0, 4.0], &[2, 2])?;
/// assert_eq!(gpuarray::linalg::inv(&a)?.to_vec::<f32>()?, vec![0.5, 0.0, 0.0, 0.25]);
/// # Ok(()) }
/// ```
#[cfg(not(target_arch = "wasm32"))]
pub fn inv(a: &Array) -> Result<Array> {
    let (x, info) = inv_unchecked(a)?;
    super::check_info("inv", &info, singular)?;
    Ok(x)
}

/// [`inv`] without blocking (every target).
pub async fn inv_async(a: &Array) -> Result<Array> {
    let (x, info) = inv_unchecked(a)?;
    super::check_info_async("inv", &info, singular).await?;
    Ok(x)
}

/// The sign of each permutation: +1 or −1 from the parity of the rows `piv` swapped.
fn permutation_sign(f: &Lu, dtype: DType) -> Result<Array> {
    let n = f.stack.rows;
    let steps = Array::arange(f.lu.device(), 0.0, n as f64, 1.0, DType::I32)?;
    let swaps = f.piv.ne(&steps)?.sum_dtype(-1, false, DType::I32)?;
    // 1 − 2·(swaps mod 2)
    swaps.remainder(2)?.mul(-2)?.add(1)?.astype(dtype)
}

/// `numpy.linalg.det(a)`: the determinant of each square matrix of the stack (the product of
/// U's diagonal, signed by the row swaps). A singular matrix gives 0, not an error.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0, 4.0], &[2, 2])?;
/// let d = gpuarray::linalg::det(&a)?.to_vec::<f32>()?[0];
/// assert!((d + 2.0).abs() < 1e-5);
/// # Ok(()) }
/// ```
pub fn det(a: &Array) -> Result<Array> {
    let op = "det";
    let dtype = compute_dtype(op, a)?;
    let f = factor(op, a, dtype)?;
    if f.stack.rows == 0 {
        return Array::ones(a.device(), &f.stack.batch, dtype);
    }
    let diag = f.lu.diagonal(0, -2, -1)?;
    diag.prod(-1, false)?.mul(&permutation_sign(&f, dtype)?)
}

/// `numpy.linalg.slogdet(a)`: `(sign, logabsdet)` of each square matrix of the stack, without
/// the overflow of [`det`]'s product; a singular matrix gives `(0, -inf)`.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let a = gpuarray::Array::from_slice(&dev, &[1e30f32, 0.0, 0.0, -1e30], &[2, 2])?;
/// let (sign, logdet) = gpuarray::linalg::slogdet(&a)?;
/// assert_eq!(sign.to_vec::<f32>()?, vec![-1.0]);
/// assert!((logdet.to_vec::<f32>()?[0] - 138.155_1).abs() < 1e-3);
/// # Ok(()) }
/// ```
pub fn slogdet(a: &Array) -> Result<(Array, Array)> {
    let op = "slogdet";
    let dtype = compute_dtype(op, a)?;
    let f = factor(op, a, dtype)?;
    if f.stack.rows == 0 {
        return Ok((
            Array::ones(a.device(), &f.stack.batch, dtype)?,
            Array::zeros(a.device(), &f.stack.batch, dtype)?,
        ));
    }
    let diag = f.lu.diagonal(0, -2, -1)?;
    let logabs = diag.abs()?.log()?.sum(-1, false)?;
    let sign = diag
        .sign()?
        .prod(-1, false)?
        .mul(&permutation_sign(&f, dtype)?)?;
    Ok((sign, logabs))
}
