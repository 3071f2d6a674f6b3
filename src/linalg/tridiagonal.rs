//! `eigh` of large symmetric matrices as LAPACK's dsyevd/dsyev does it: blocked Householder
//! reduction to a tridiagonal matrix (Qᵀ·A·Q = T, dsytrd/dlatrd, `shaders/linalg_tridiagonal.wgsl`:
//! per column a correction and a reflector in one workgroup per matrix, A22·v by `trailing.rs`,
//! per panel of 32 columns one matmul for the trailing update), Q
//! formed by QR's code from the reflectors (blocked, compact WY, on the matmul), then the
//! implicit QL method on T (`shaders/linalg_tql.wgsl`): the serial iteration in one invocation
//! per matrix recording its rotations, the rotations applied to Z = Q in parallel, one invocation
//! per four columns. No launch binds a whole matrix — A22·v and the trailing update run over
//! windows, Zᵀ is kept as blocks of columns — so matrices past one storage binding reduce too.

use super::families::{TQL_STEPS, TRIDIAGONAL_COLUMN, TRIDIAGONAL_CORRECT};
use super::lu::block;
use super::rotations::{Rotations, Zt, padded};
use super::trailing::{CHUNK_ROWS, Trailing, VectorRow, per_column};
use super::{Operand, Stack, mt, per};
use crate::array::Array;
use crate::error::Result;
use crate::ops::join::concatenate;

/// Matrices with more rows take this path (smaller ones: Jacobi, one workgroup per matrix,
/// which gives small eigenvalues to high relative accuracy).
pub(crate) const TRIDIAGONAL_FROM: usize = 128;

/// Invocations per workgroup of the two per-column kernels.
const WG: u32 = 64;
/// Columns per panel (`NB` in the shader).
const NB: usize = 32;

/// The QL iteration's state between launches.
pub(crate) struct Tql {
    /// Per matrix: d (n) then e (n).
    tri: Array,
    /// Zᵀ (…, n, n), when eigenvectors are wanted.
    zt: Option<Zt>,
    /// Per matrix the state [l, iterations, rotations of the last launch, status] (see the
    /// shader), and the rotations.
    pub rotations: Rotations,
    stack: Stack,
    vectors: bool,
}

/// The arrays of one reduction.
struct Reduction {
    /// V and W transposed (…, NB, ld).
    vt: Array,
    wt: Array,
    /// Row k (…, 1, ld), for `column`.
    row: Array,
    /// A22·v's partial sums, a row per chunk of CHUNK_ROWS rows (…, chunks, ld).
    part: Array,
    tau: Array,
    tri: Array,
    n: usize,
    ld: usize,
    count: usize,
}

impl Reduction {
    fn chunks(&self) -> usize {
        self.n.div_ceil(CHUNK_ROWS)
    }

    /// One launch of a per-column kernel: `column` binds row k and the tridiagonal, `correct`
    /// the partial sums.
    fn launch(
        &self,
        op: &'static str,
        family: &'static crate::device::KernelDef,
        (k, i): (usize, usize),
    ) -> Result<()> {
        let (n, ld) = (self.n, self.ld);
        let column = std::ptr::eq(family, &TRIDIAGONAL_COLUMN);
        let per_panel = (NB * ld) as u64;
        let mut operands = vec![
            if column {
                Operand {
                    array: &self.row,
                    per: ld as u64,
                }
            } else {
                Operand {
                    array: &self.part,
                    per: (self.chunks() * ld) as u64,
                }
            },
            Operand {
                array: &self.vt,
                per: per_panel,
            },
            Operand {
                array: &self.wt,
                per: per_panel,
            },
            Operand {
                array: &self.tau,
                per: (n - 1) as u64,
            },
        ];
        if column {
            operands.push(Operand {
                array: &self.tri,
                per: 2 * n as u64,
            });
        }
        per_column(op, family, &operands, (n, ld, self.count), (k, i), 5)
    }
}

/// Reduces `sym` (a contiguous stack of symmetric n × n matrices, overwritten) to tridiagonal
/// form and forms Q when `vectors`: the state for [`ql_launch`].
pub(crate) fn reduce(op: &'static str, sym: &Array, stack: &Stack, vectors: bool) -> Result<Tql> {
    let n = stack.rows;
    let count = stack.count;
    let dtype = sym.dtype();
    let dev = sym.device();
    let m = n - 1;
    // An invocation of `correct` runs one dot over the column; the kernels' other loops are
    // shorter.
    super::steps_per_launch(op, sym, n as u64 + (NB as u64 + 4) * per(n, WG) + 16)?;
    // Rows of whole vec4s for the pass over the matrix (`trailing.rs`).
    let ld = padded(n);
    let padded_a;
    let a = if ld == n {
        sym
    } else {
        padded_a = Array::zeros(dev, &stack.shape(&[n, ld]), dtype)?;
        block(&padded_a, (0, n), (0, n))?.assign(sym)?;
        &padded_a
    };
    let r = Reduction {
        vt: Array::zeros(dev, &stack.shape(&[NB, ld]), dtype)?,
        wt: Array::zeros(dev, &stack.shape(&[NB, ld]), dtype)?,
        row: Array::zeros(dev, &stack.shape(&[1, ld]), dtype)?,
        part: Array::zeros(dev, &stack.shape(&[n.div_ceil(CHUNK_ROWS), ld]), dtype)?,
        tau: Array::zeros(dev, &stack.shape(&[m]), dtype)?,
        tri: Array::zeros(dev, &stack.shape(&[2 * n]), dtype)?,
        n,
        ld,
        count,
    };
    let trailing = Trailing { a, n, ld, count };
    // An (n − 1) × (n − 1) matrix holds the reflectors as a QR factorisation would (for Q).
    let h = if vectors {
        Some(Array::zeros(dev, &stack.shape(&[m, m]), dtype)?)
    } else {
        None
    };
    for k0 in (0..n).step_by(NB) {
        let k1 = (k0 + NB).min(n);
        for k in k0..k1 {
            let i = k - k0;
            r.row.assign(&block(a, (k, k + 1), (0, ld))?)?;
            r.launch(op, &TRIDIAGONAL_COLUMN, (k, i))?;
            if k + 1 == n {
                break;
            }
            // A22·v.
            trailing.atv(
                op,
                &VectorRow {
                    array: &r.vt,
                    rows: NB,
                    row: i,
                },
                (k + 1, k + 1),
                &r.part,
            )?;
            r.launch(op, &TRIDIAGONAL_CORRECT, (k, i))?;
        }
        let width = k1.min(m).saturating_sub(k0);
        if let Some(h) = &h
            && width > 0
        {
            block(h, (k0, m), (k0, k0 + width))?.assign(&mt(&block(
                &r.vt,
                (0, width),
                (k0 + 1, n),
            )?)?)?;
        }
        if k1 < n {
            // A22 ← A22 − V·Wᵀ − W·Vᵀ = A22 − [V W]·[W V]ᵀ on the rows and columns past the
            // panel: one matmul (K = 2·NB) and one pass over A22, as svd's update.
            let v2 = block(&r.vt, (0, NB), (k1, n))?;
            let w2 = block(&r.wt, (0, NB), (k1, n))?;
            crate::ops::matmul::matmul_sub_into(
                &mt(&concatenate(&[&v2, &w2], -2)?)?,
                &concatenate(&[&w2, &v2], -2)?,
                &block(a, (k1, n), (k1, n))?,
            )?;
        }
    }
    let tau = r.tau;
    let tri = r.tri;
    let zt = match h {
        Some(h) => {
            // Q = diag(1, Q'), Q' from the reflectors as a QR factorisation of (n − 1) × (n − 1).
            let inner = Stack {
                batch: stack.batch.clone(),
                count,
                rows: m,
                cols: m,
            };
            let q = super::identities(sym, stack, n, n, dtype)?;
            block(&q, (1, n), (1, n))?.assign(&super::qr::form_q(op, &h, &tau, &inner, m)?)?;
            Some(Zt::of_columns(op, stack, n, n, &[(0, &q)])?)
        }
        None => None,
    };
    Ok(Tql {
        tri,
        zt,
        // A sweep records at most n rotations.
        rotations: Rotations::new(sym, count, n, n, 0)?,
        stack: stack.clone(),
        vectors,
    })
}

/// One launch of QL steps, then their rotations applied to Zᵀ.
pub(crate) fn ql_launch(op: &'static str, t: &Tql) -> Result<()> {
    let n = t.stack.rows;
    let r = &t.rotations;
    // The serial iteration: one invocation per matrix (a workgroup of one; batches of large
    // matrices are short).
    r.steps(op, &TQL_STEPS, &t.tri, 2 * n as u64, n, t.vectors)?;
    if let Some(zt) = &t.zt {
        zt.turn(op, r)?;
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
    let v = match &t.zt {
        Some(zt) => Some(mt(&zt.rows((0, n))?)?),
        None => None,
    };
    Ok((w, v))
}
