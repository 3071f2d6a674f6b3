//! `svd` of large matrices as LAPACK's dgesvd does it: Householder reduction of the square
//! factor to upper bidiagonal form (Q_Lᵀ·A·Q_R = B, `shaders/linalg_bidiagonal.wgsl`, four
//! launches per column, many workgroups per matrix), Q_L and Q_R formed by QR's code from the
//! reflectors (blocked, compact WY, on the matmul), then implicit-shift QR on B
//! (`shaders/linalg_bdsqr.wgsl`): the serial iteration in one invocation per matrix recording
//! its rotations, the rotations applied to Zᵀ = [Q_Lᵀ; Q_Rᵀ] in parallel
//! (`shaders/linalg_rotate.wgsl`, shared with `eigh`). Rectangular matrices are first reduced
//! to their square R by QR (`svd.rs`).

use super::families::{BDSQR_STEPS, BIDIAGONAL_LEFT, BIDIAGONAL_RIGHT, BIDIAGONAL_UPDATE};
use super::jacobi::permute_rows;
use super::lu::block;
use super::rotations::{Rotations, padded};
use super::{Operand, Stack, key, mt, per, per_matrix};
use crate::array::Array;
use crate::device::KernelDef;
use crate::device::params::Params;
use crate::error::Result;

/// Matrices whose smaller side is longer go this way (smaller ones: one-sided Jacobi, one
/// workgroup per matrix, which gives small singular values to high relative accuracy).
pub(crate) const BIDIAGONAL_FROM: usize = super::tridiagonal::TRIDIAGONAL_FROM;

/// Invocations per workgroup of the reduction's kernels.
const WG: u32 = 64;
/// Rows of the trailing matrix per workgroup of the rank-1 update.
const UPDATE_ROWS: usize = 64;

/// The QR iteration's state between launches.
pub(crate) struct Bdsqr {
    /// Per matrix: d (n), e (n), the deflation threshold.
    bd: Array,
    /// [Uᵀ; Vᵀ] (…, 2n, n rounded up to a multiple of 4), when vectors are wanted.
    zt: Option<Array>,
    /// Per matrix the state [hi, sweeps, rotations of the last launch, status] (see the
    /// shader), and the rotations.
    pub rotations: Rotations,
    stack: Stack,
}

/// The reduction's arrays besides the reflectors, bound by its kernels.
struct Scratch {
    /// The matrices, rows padded to `w4` vec4s.
    a: Array,
    w4: usize,
    rvec: Array,
    cvec: Array,
    bd: Array,
    n: usize,
    count: usize,
}

impl Scratch {
    /// One launch of `family` at column k: `(r0, c0)` the update's first row and column, or
    /// a reflector's with its `h` and `tau`.
    fn launch(
        &self,
        op: &'static str,
        family: &'static KernelDef,
        k: usize,
        (r0, c0): (usize, usize),
        reflector: Option<(&Array, &Array)>,
    ) -> Result<()> {
        let n = self.n;
        let (groups, col_blocks) = match reflector {
            // Columns (rows) k + 1.. of the trailing matrix, one per invocation; at least one
            // workgroup stores the reflector.
            Some(_) if std::ptr::eq(family, &BIDIAGONAL_RIGHT) => {
                (per(n - k - 1, WG).max(1) as usize, 1)
            }
            // Four columns per invocation.
            Some(_) => (per(self.w4 - (k + 1) / 4, WG).max(1) as usize, 1),
            None => {
                let quads = per(self.w4 - c0 / 4, WG) as usize;
                (quads * (n - r0).div_ceil(UPDATE_ROWS), quads)
            }
        };
        let vector = |array| Operand {
            array,
            per: n as u64,
        };
        let mut operands = vec![
            Operand {
                array: &self.a,
                per: (n * 4 * self.w4) as u64,
            },
            vector(&self.rvec),
            vector(&self.cvec),
        ];
        if let Some((h, tau)) = reflector {
            let hn = h.shape()[h.ndim() - 1] as u64;
            operands.extend([
                Operand {
                    array: h,
                    per: hn * hn,
                },
                Operand {
                    array: tau,
                    per: hn,
                },
                Operand {
                    array: &self.bd,
                    per: 2 * n as u64 + 1,
                },
            ]);
        }
        per_matrix(
            op,
            &key(family, self.a.dtype(), WG),
            &operands,
            self.count as u64,
            groups as u64,
            2 * ((n - k) * (n - k)) as u64,
            |b, run| {
                Params::default()
                    .u32(n as u32)
                    .u32(self.w4 as u32)
                    .u32(run)
                    .u32(k as u32)
                    .u32(groups as u32)
                    .u32(col_blocks as u32)
                    .u32(UPDATE_ROWS as u32)
                    .u32(r0 as u32)
                    .u32(c0 as u32)
                    // A window starts on a multiple of four elements: A's base in vec4s.
                    .u32(b[0] / 4)
                    .u32(b[1])
                    .u32(b[2])
                    .u32(b.get(3).copied().unwrap_or(0))
                    .u32(b.get(4).copied().unwrap_or(0))
                    .u32(b.get(5).copied().unwrap_or(0))
                    .bytes()
                    .to_vec()
            },
        )
    }
}

/// Reduces `a` (a stack of square n × n matrices) to bidiagonal form
/// and forms Zᵀ = [Q_Lᵀ; Q_Rᵀ] when `vectors`: the state for [`qr_launch`].
pub(crate) fn reduce(op: &'static str, a: &Array, stack: &Stack, vectors: bool) -> Result<Bdsqr> {
    let n = stack.rows;
    let count = stack.count;
    let dtype = a.dtype();
    let dev = a.device();
    let m = n - 1;
    // A reflector launch passes over its column (row) twice and a column (row) of the trailing
    // matrix; the update runs its rows; the QR iteration's pass is at most 3n.
    super::steps_per_launch(
        op,
        a,
        (n as u64 + 4 * per(n, WG) + 16).max(4 * n as u64 + 3),
    )?;
    let w4 = padded(n) / 4;
    let padded_a = Array::zeros(dev, &stack.shape(&[n, 4 * w4]), dtype)?;
    block(&padded_a, (0, n), (0, n))?.assign(a)?;
    let s = Scratch {
        a: padded_a,
        w4,
        rvec: Array::zeros(dev, &stack.shape(&[n]), dtype)?,
        cvec: Array::zeros(dev, &stack.shape(&[n]), dtype)?,
        bd: Array::zeros(dev, &stack.shape(&[2 * n + 1]), dtype)?,
        n,
        count,
    };
    let hl = Array::zeros(dev, &stack.shape(&[n, n]), dtype)?;
    let taul = Array::zeros(dev, &stack.shape(&[n]), dtype)?;
    let hr = Array::zeros(dev, &stack.shape(&[m, m]), dtype)?;
    let taur = Array::zeros(dev, &stack.shape(&[m]), dtype)?;
    for k in 0..n {
        s.launch(op, &BIDIAGONAL_LEFT, k, (0, 0), Some((&hl, &taul)))?;
        if k + 1 < n {
            s.launch(op, &BIDIAGONAL_UPDATE, k, (k, k + 1), None)?;
            s.launch(op, &BIDIAGONAL_RIGHT, k, (0, 0), Some((&hr, &taur)))?;
        }
        if k + 2 < n {
            s.launch(op, &BIDIAGONAL_UPDATE, k, (k + 1, k + 1), None)?;
        }
    }
    let zt = if vectors {
        let square = |rows| Stack {
            batch: stack.batch.clone(),
            count,
            rows,
            cols: rows,
        };
        // Q_R = diag(1, Q'), Q' from the row reflectors as a QR factorisation of
        // (n − 1) × (n − 1).
        let zt = Array::zeros(dev, &stack.shape(&[2 * n, padded(n)]), dtype)?;
        block(&zt, (0, n), (0, n))?.assign(&mt(&super::qr::form_q(
            op,
            &hl,
            &taul,
            &square(n),
            n,
        )?)?)?;
        let vt = block(&zt, (n, 2 * n), (0, n))?;
        block(&vt, (0, 1), (0, 1))?.fill(1.0)?;
        block(&vt, (1, n), (1, n))?.assign(&mt(&super::qr::form_q(
            op,
            &hr,
            &taur,
            &square(m),
            m,
        )?)?)?;
        Some(zt)
    } else {
        None
    };
    Ok(Bdsqr {
        bd: s.bd,
        zt,
        // A pass records at most 2n rotations; the iteration starts with all n rows.
        rotations: Rotations::new(a, count, n, 2 * n, n as u32)?,
        stack: stack.clone(),
    })
}

/// One launch of QR steps, then their rotations applied to Zᵀ.
pub(crate) fn qr_launch(op: &'static str, t: &Bdsqr) -> Result<()> {
    let n = t.stack.rows;
    let r = &t.rotations;
    r.steps(op, &BDSQR_STEPS, &t.bd, 2 * n as u64 + 1, n, t.zt.is_some())?;
    if let Some(zt) = &t.zt {
        r.apply(op, zt, 2 * n, padded(n))?;
    }
    Ok(())
}

/// After a launch: `Ok(true)` when every matrix is done, `Err(LinAlg)` naming the first that
/// did not converge.
pub(crate) fn settled(op: &'static str, state: &[u32]) -> Result<bool> {
    super::rotations::settled(op, state, "SVD did not converge")
}

/// The singular values (…, n, descending) and, with vectors, U and Vh (…, n, n) once settled:
/// σ = |d|, the rows of Vᵀ of negative d turned, all sorted by σ.
pub(crate) fn results(t: Bdsqr) -> Result<(Array, Option<(Array, Array)>)> {
    let n = t.stack.rows;
    let count = t.stack.count;
    let d = block(
        &t.bd.reshape(&[count as isize, 2 * n as isize + 1])?,
        (0, count),
        (0, n),
    )?;
    let order = d.abs()?.neg()?.argsort(Some(-1))?;
    let s = permute_rows(&d.abs()?.contiguous()?, &order, &t.stack, n)?;
    let shape: Vec<isize> = t.stack.shape(&[n]).iter().map(|&x| x as isize).collect();
    let s = s.reshape(&shape)?;
    let vectors = match t.zt {
        None => None,
        Some(zt) => {
            let ut = block(&zt, (0, n), (0, n))?;
            // 1 − 2·[d < 0]
            let sign = d
                .lt(0.0)?
                .astype(zt.dtype())?
                .mul(-2.0)?
                .add(1.0)?
                .reshape(&{
                    let mut s = shape.clone();
                    s.push(1);
                    s
                })?;
            let vt = block(&zt, (n, 2 * n), (0, n))?.mul(&sign)?;
            let u = mt(&permute_rows(&ut, &order, &t.stack, n)?)?;
            let vh = permute_rows(&vt, &order, &t.stack, n)?;
            Some((u, vh))
        }
    };
    Ok((s, vectors))
}
