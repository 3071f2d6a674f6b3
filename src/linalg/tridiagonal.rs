//! `eigh` of large symmetric matrices as LAPACK's dsyev does it: Householder reduction to a
//! tridiagonal matrix (Qᵀ·A·Q = T, `shaders/linalg_tridiagonal.wgsl`, two launches per column,
//! many workgroups per matrix), Q formed by QR's code from the reflectors (blocked, compact WY,
//! on the matmul), then the implicit QL method on T (`shaders/linalg_tql.wgsl`): the serial
//! iteration in one invocation per matrix recording its rotations, the rotations applied to
//! Z = Q in parallel, one invocation per row. O(n³) like Jacobi, but in about 2n + a few dozen
//! launches instead of 2(n − 1) launches per sweep over ten sweeps, and with no sweep that must
//! visit every pair.

use super::families::{TQL_STEPS, TRIDIAGONAL_REFLECT, TRIDIAGONAL_UPDATE};
use super::lu::block;
use super::rotations::{Rotations, padded};
use super::{Operand, Stack, key, mt, per, per_matrix};
use crate::array::Array;
use crate::device::params::Params;
use crate::error::Result;

/// Matrices with more rows take this path (smaller ones: Jacobi, one workgroup per matrix,
/// which gives small eigenvalues to high relative accuracy).
pub(crate) const TRIDIAGONAL_FROM: usize = 128;

/// Invocations per workgroup of the two reduction kernels.
const WG: u32 = 64;
/// Rows of the trailing matrix per workgroup of the rank-2 update.
const UPDATE_ROWS: usize = 64;

/// The QL iteration's state between launches.
pub(crate) struct Tql {
    /// Per matrix: d (n) then e (n).
    tri: Array,
    /// Zᵀ (…, n, n rounded up to a multiple of 4), when eigenvectors are wanted.
    zt: Option<Array>,
    /// Per matrix the state [l, iterations, rotations of the last launch, status] (see the
    /// shader), and the rotations.
    pub rotations: Rotations,
    stack: Stack,
}

/// Reduces `sym` (a contiguous stack of symmetric n × n matrices, overwritten) to tridiagonal
/// form and forms Q when `vectors`: the state for [`ql_launch`].
pub(crate) fn reduce(op: &'static str, sym: &Array, stack: &Stack, vectors: bool) -> Result<Tql> {
    let n = stack.rows;
    let count = stack.count;
    let dtype = sym.dtype();
    let dev = sym.device();
    let m = n - 1;
    let parts = per(m, WG) as usize;
    // A reflector launch reads the column twice and a row of A22; the update runs its rows.
    super::steps_per_launch(op, sym, n as u64 + 4 * per(n, WG) + 16)?;
    let h = Array::zeros(dev, &stack.shape(&[m, m]), dtype)?;
    let tau = Array::zeros(dev, &stack.shape(&[m]), dtype)?;
    let pv = Array::zeros(dev, &stack.shape(&[n]), dtype)?;
    let part = Array::zeros(dev, &stack.shape(&[parts]), dtype)?;
    let tri = Array::zeros(dev, &stack.shape(&[2 * n]), dtype)?;
    let nn = (n * n) as u64;
    for k in 0..m {
        let len = n - k - 1;
        let col_blocks = per(len, WG) as usize;
        let row_runs = len.div_ceil(UPDATE_ROWS);
        // `update` binds all but `tri`.
        for (family, groups, bound) in [
            (&TRIDIAGONAL_REFLECT, col_blocks, 6),
            (&TRIDIAGONAL_UPDATE, col_blocks * row_runs, 5),
        ] {
            per_matrix(
                op,
                &key(family, dtype, WG),
                &[
                    Operand {
                        array: sym,
                        per: nn,
                    },
                    Operand {
                        array: &h,
                        per: (m * m) as u64,
                    },
                    Operand {
                        array: &pv,
                        per: n as u64,
                    },
                    Operand {
                        array: &part,
                        per: parts as u64,
                    },
                    Operand {
                        array: &tau,
                        per: m as u64,
                    },
                    Operand {
                        array: &tri,
                        per: 2 * n as u64,
                    },
                ][..bound],
                count as u64,
                groups as u64,
                2 * (len * len) as u64,
                |b, run| {
                    Params::default()
                        .u32(n as u32)
                        .u32(run)
                        .u32(k as u32)
                        .u32(groups as u32)
                        .u32(col_blocks as u32)
                        .u32(UPDATE_ROWS as u32)
                        .u32(col_blocks as u32)
                        .u32(b[0])
                        .u32(b[1])
                        .u32(b[2])
                        .u32(b[3])
                        .u32(b[4])
                        .u32(b.get(5).copied().unwrap_or(0))
                        .bytes()
                        .to_vec()
                },
            )?;
        }
    }
    let zt = if vectors {
        // Q = diag(1, Q'), Q' from the reflectors as a QR factorisation of (n − 1) × (n − 1).
        let inner = Stack {
            batch: stack.batch.clone(),
            count,
            rows: m,
            cols: m,
        };
        let q = super::identities(sym, stack, n, n, dtype)?;
        block(&q, (1, n), (1, n))?.assign(&super::qr::form_q(op, &h, &tau, &inner, m)?)?;
        let zt = Array::zeros(dev, &stack.shape(&[n, padded(n)]), dtype)?;
        block(&zt, (0, n), (0, n))?.assign(&mt(&q)?)?;
        Some(zt)
    } else {
        None
    };
    Ok(Tql {
        tri,
        zt,
        // A sweep records at most n rotations.
        rotations: Rotations::new(sym, count, n, n, 0)?,
        stack: stack.clone(),
    })
}

/// One launch of QL steps, then their rotations applied to Zᵀ.
pub(crate) fn ql_launch(op: &'static str, t: &Tql) -> Result<()> {
    let n = t.stack.rows;
    let r = &t.rotations;
    // The serial iteration: one invocation per matrix (a workgroup of one; batches of large
    // matrices are short).
    r.steps(op, &TQL_STEPS, &t.tri, 2 * n as u64, n, t.zt.is_some())?;
    if let Some(zt) = &t.zt {
        r.apply(op, zt, n, padded(n))?;
    }
    Ok(())
}

/// After a QL launch: `Ok(true)` when every matrix is done, `Err(LinAlg)` naming the first that
/// did not converge.
pub(crate) fn settled(op: &'static str, state: &[u32]) -> Result<bool> {
    super::rotations::settled(op, state, "Eigenvalues did not converge")
}

/// The eigenvalues (unsorted, …, n) and eigenvectors (columns, …, n, n) once settled.
pub(crate) fn results(t: Tql) -> Result<(Array, Option<Array>)> {
    let n = t.stack.rows;
    let w = block(
        &t.tri.reshape(&[t.stack.count as isize, 2 * n as isize])?,
        (0, t.stack.count),
        (0, n),
    )?
    .reshape(
        &t.stack
            .shape(&[n])
            .iter()
            .map(|&x| x as isize)
            .collect::<Vec<_>>(),
    )?;
    let v = match t.zt {
        Some(zt) => Some(mt(&block(&zt, (0, n), (0, n))?)?),
        None => None,
    };
    Ok((w, v))
}
