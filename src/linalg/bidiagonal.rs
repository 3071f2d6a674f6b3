//! `svd` of large matrices as LAPACK's dgesvd does it: blocked Householder reduction of the
//! square factor to upper bidiagonal form (Q_Lᵀ·A·Q_R = B, dgebrd/dlabrd,
//! `shaders/linalg_bidiagonal.wgsl`: per column three one-workgroup kernels that correct the
//! column and the row by the panel so far and build both reflectors, the passes Aᵀ·v and A·u
//! over the stale trailing matrix by `trailing.rs`, per panel of 32 one matmul for the trailing
//! update), Q_L and Q_R formed by QR's code from the reflectors (blocked, compact WY, on the
//! matmul), then implicit-shift QR on B (`shaders/linalg_bdsqr.wgsl`): the serial iteration in
//! one invocation per matrix recording its rotations, the rotations applied to
//! Zᵀ = [Q_Lᵀ; Q_Rᵀ] in parallel (`shaders/linalg_rotate.wgsl`, shared with `eigh`). No launch
//! binds a whole matrix, so matrices past one storage binding reduce too. Rectangular matrices
//! are first reduced to their square R by QR (`svd.rs`).

use super::families::{BDSQR_STEPS, BIDIAGONAL_FINISH, BIDIAGONAL_LEFT, BIDIAGONAL_RIGHT};
use super::jacobi::permute_rows;
use super::lu::block;
use super::rotations::{Rotations, Zt, padded};
use super::trailing::{Trailing, VectorRow, per_column};
use super::{Operand, Stack, mt, per};
use crate::array::Array;
use crate::device::KernelDef;
use crate::error::Result;

/// Matrices whose smaller side is longer go this way (smaller ones: one-sided Jacobi, one
/// workgroup per matrix, which gives small singular values to high relative accuracy).
pub(crate) const BIDIAGONAL_FROM: usize = super::tridiagonal::TRIDIAGONAL_FROM;

/// Invocations per workgroup of the per-column kernels.
const WG: u32 = 64;
/// Columns per panel (`NB` in the shader).
const NB: usize = 32;

/// The QR iteration's state between launches.
pub(crate) struct Bdsqr {
    /// Per matrix: d (n), e (n), the deflation threshold.
    bd: Array,
    /// [Uᵀ; Vᵀ] (…, 2n, n), when vectors are wanted.
    zt: Option<Zt>,
    /// Per matrix the state [hi, sweeps, rotations of the last launch, status] (see the
    /// shader), and the rotations.
    pub rotations: Rotations,
    stack: Stack,
}

/// The per-column arrays of one reduction.
struct Panel {
    /// [V; X] and [Y; U], 2·NB rows of `ld` per matrix.
    lx: Array,
    yu: Array,
    /// Column k and row k of the stale matrix (…, 1, ld).
    col: Array,
    row: Array,
    /// Aᵀ·v's partial sums (…, chunks, ld) and A·u (…, 1, ld).
    part: Array,
    xs: Array,
    /// τ_q (n) then τ_p (n) per matrix (…, 2, n).
    taus: Array,
    bd: Array,
    n: usize,
    ld: usize,
    count: usize,
}

impl Panel {
    /// One launch of a per-column kernel, `src` its first binding.
    fn launch(
        &self,
        op: &'static str,
        family: &'static KernelDef,
        (src, per_src): (&Array, usize),
        (k, i): (usize, usize),
    ) -> Result<()> {
        let (n, ld) = (self.n, self.ld);
        let per_panel = (2 * NB * ld) as u64;
        let mut operands = vec![
            Operand {
                array: src,
                per: per_src as u64,
            },
            Operand {
                array: &self.lx,
                per: per_panel,
            },
            Operand {
                array: &self.yu,
                per: per_panel,
            },
            Operand {
                array: &self.taus,
                per: 2 * n as u64,
            },
        ];
        if !std::ptr::eq(family, &BIDIAGONAL_FINISH) {
            operands.extend([
                Operand {
                    array: &self.bd,
                    per: 2 * n as u64 + 1,
                },
                Operand {
                    array: &self.row,
                    per: ld as u64,
                },
            ]);
        }
        per_column(op, family, &operands, (n, ld, self.count), (k, i), 6)
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
    // An invocation of `right` or `finish` runs one dot over a row; the QR iteration's pass
    // is at most 3n.
    super::steps_per_launch(
        op,
        a,
        (n as u64 + (2 * NB as u64 + 4) * per(n, WG) + 16).max(4 * n as u64 + 3),
    )?;
    // Rows of whole vec4s for the passes over the matrix.
    let ld = padded(n);
    let padded_a = Array::zeros(dev, &stack.shape(&[n, ld]), dtype)?;
    block(&padded_a, (0, n), (0, n))?.assign(a)?;
    let trailing = Trailing {
        a: &padded_a,
        n,
        ld,
        count,
    };
    let p = Panel {
        lx: Array::zeros(dev, &stack.shape(&[2 * NB, ld]), dtype)?,
        yu: Array::zeros(dev, &stack.shape(&[2 * NB, ld]), dtype)?,
        col: Array::zeros(dev, &stack.shape(&[1, ld]), dtype)?,
        row: Array::zeros(dev, &stack.shape(&[1, ld]), dtype)?,
        part: Array::zeros(dev, &stack.shape(&[trailing.chunks(), ld]), dtype)?,
        xs: Array::zeros(dev, &stack.shape(&[1, ld]), dtype)?,
        taus: Array::zeros(dev, &stack.shape(&[2, n]), dtype)?,
        bd: Array::zeros(dev, &stack.shape(&[2 * n + 1]), dtype)?,
        n,
        ld,
        count,
    };
    // The reflectors as QR factorisations hold them: v below the diagonal of column k of an
    // n × n matrix, u of an (n − 1) × (n − 1) one (Q_R = diag(1, Q')).
    let h = if vectors {
        Some((
            Array::zeros(dev, &stack.shape(&[n, n]), dtype)?,
            Array::zeros(dev, &stack.shape(&[m, m]), dtype)?,
        ))
    } else {
        None
    };
    let vector = |array, row| VectorRow {
        array,
        rows: 2 * NB,
        row,
    };
    for k0 in (0..n).step_by(NB) {
        let k1 = (k0 + NB).min(n);
        for k in k0..k1 {
            let i = k - k0;
            block(&p.col, (0, 1), (0, n))?.assign(&mt(&block(&padded_a, (0, n), (k, k + 1))?)?)?;
            p.launch(op, &BIDIAGONAL_LEFT, (&p.col, ld), (k, i))?;
            if k + 1 == n {
                break;
            }
            trailing.atv(op, &vector(&p.lx, i), (k, k + 1), &p.part)?;
            p.row.assign(&block(&padded_a, (k, k + 1), (0, ld))?)?;
            p.launch(
                op,
                &BIDIAGONAL_RIGHT,
                (&p.part, trailing.chunks() * ld),
                (k, i),
            )?;
            trailing.av(op, &vector(&p.yu, NB + i), (k + 1, k + 1), &p.xs)?;
            p.launch(op, &BIDIAGONAL_FINISH, (&p.xs, ld), (k, i))?;
        }
        if let Some((hl, hr)) = &h {
            block(hl, (k0, n), (k0, k1))?.assign(&mt(&block(&p.lx, (0, k1 - k0), (k0, n))?)?)?;
            let width = k1.min(m).saturating_sub(k0);
            if width > 0 {
                block(hr, (k0, m), (k0, k0 + width))?.assign(&mt(&block(
                    &p.yu,
                    (NB, NB + width),
                    (k0 + 1, n),
                )?)?)?;
            }
        }
        if k1 < n {
            // A22 ← A22 − V·Yᵀ − X·Uᵀ = A22 − [V X]·[Y; U] past the panel.
            crate::ops::matmul::matmul_sub_into(
                &mt(&block(&p.lx, (0, 2 * NB), (k1, n))?)?,
                &block(&p.yu, (0, 2 * NB), (k1, n))?,
                &block(&padded_a, (k1, n), (k1, n))?,
            )?;
        }
    }
    let zt = match h {
        Some((hl, hr)) => {
            let square = |rows| Stack {
                batch: stack.batch.clone(),
                count,
                rows,
                cols: rows,
            };
            let tau = |row, len| -> Result<Array> {
                let shape: Vec<isize> = stack.shape(&[len]).iter().map(|&x| x as isize).collect();
                block(&p.taus, (row, row + 1), (0, len))?
                    .contiguous()?
                    .reshape(&shape)
            };
            let ql = super::qr::form_q(op, &hl, &tau(0, n)?, &square(n), n)?;
            // Q_R = diag(1, Q'), Q' from the row reflectors as a QR factorisation of
            // (n − 1) × (n − 1).
            let qr = super::identities(a, stack, n, n, dtype)?;
            block(&qr, (1, n), (1, n))?.assign(&super::qr::form_q(
                op,
                &hr,
                &tau(1, m)?,
                &square(m),
                m,
            )?)?;
            Some(Zt::of_columns(op, stack, 2 * n, n, &[(0, &ql), (n, &qr)])?)
        }
        None => None,
    };
    Ok(Bdsqr {
        bd: p.bd,
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
        zt.turn(op, r)?;
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
            let ut = zt.rows((0, n))?;
            // 1 − 2·[d < 0]
            let sign = d
                .lt(0.0)?
                .astype(ut.dtype())?
                .mul(-2.0)?
                .add(1.0)?
                .reshape(&{
                    let mut s = shape.clone();
                    s.push(1);
                    s
                })?;
            let vt = zt.rows((n, 2 * n))?.mul(&sign)?;
            let u = mt(&permute_rows(&ut, &order, &t.stack, n)?)?;
            let vh = permute_rows(&vt, &order, &t.stack, n)?;
            Some((u, vh))
        }
    };
    Ok((s, vectors))
}
