//! `eigh` of large symmetric matrices as LAPACK's dsyevd/dsyev does it: blocked Householder
//! reduction to a tridiagonal matrix (Qᵀ·A·Q = T, dsytrd/dlatrd, `shaders/linalg_tridiagonal.wgsl`:
//! per column a correction and a reflector in one workgroup per matrix and A22·v as the array
//! API's matrix-vector product, per panel of 32 columns one matmul for the trailing update), Q
//! formed by QR's code from the reflectors (blocked, compact WY, on the matmul), then the
//! implicit QL method on T (`shaders/linalg_tql.wgsl`): the serial iteration in one invocation
//! per matrix recording its rotations, the rotations applied to Z = Q in parallel, one invocation
//! per four columns. No launch binds a whole matrix — A22·v and the trailing update run over
//! windows, Zᵀ is kept as blocks of columns — so matrices past one storage binding reduce too.

use super::families::{TQL_STEPS, TRIDIAGONAL_COLUMN, TRIDIAGONAL_CORRECT, TRIDIAGONAL_SYMV};
use super::lu::block;
use super::rotations::{Rotations, padded};
use super::{Operand, Stack, key, mt, per, per_matrix};
use crate::array::Array;
use crate::device::params::Params;
use crate::error::Result;

/// Matrices with more rows take this path (smaller ones: Jacobi, one workgroup per matrix,
/// which gives small eigenvalues to high relative accuracy).
pub(crate) const TRIDIAGONAL_FROM: usize = 128;

/// Invocations per workgroup of the two per-column kernels.
const WG: u32 = 64;
/// Columns per panel (`NB` in the shader).
const NB: usize = 32;
/// Rows per chunk of A22·v's partial sums (`shaders/linalg_symv.wgsl`).
const CHUNK_ROWS: usize = 64;

/// The QL iteration's state between launches.
pub(crate) struct Tql {
    /// Per matrix: d (n) then e (n).
    tri: Array,
    /// Zᵀ (…, n, n rounded up to a multiple of 4) as blocks of whole columns, each within one
    /// storage binding, when eigenvectors are wanted.
    zt: Vec<Array>,
    /// Per matrix the state [l, iterations, rotations of the last launch, status] (see the
    /// shader), and the rotations.
    pub rotations: Rotations,
    stack: Stack,
    vectors: bool,
}

/// The arrays of one reduction.
struct Reduction<'a> {
    /// The matrices, rows `ld` long (…, n, ld).
    a: &'a Array,
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

impl Reduction<'_> {
    fn chunks(&self) -> usize {
        self.n.div_ceil(CHUNK_ROWS)
    }

    /// One launch of a per-column kernel: `column` binds row k and the tridiagonal, `correct`
    /// the partial sums.
    fn per_column(
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
        per_matrix(
            op,
            &key(family, self.tau.dtype(), WG),
            &operands,
            self.count as u64,
            1,
            (4 * (i + 1) * (n - k)) as u64,
            |b, run| {
                Params::default()
                    .u32(n as u32)
                    .u32(ld as u32)
                    .u32(run)
                    .u32(k as u32)
                    .u32(i as u32)
                    .u32(CHUNK_ROWS as u32)
                    .u32(self.chunks() as u32)
                    .u32(b[0])
                    .u32(b[1])
                    .u32(b[2])
                    .u32(b[3])
                    .u32(b.get(4).copied().unwrap_or(0))
                    .bytes()
                    .to_vec()
            },
        )
    }

    /// A22·v's partial sums (`shaders/linalg_symv.wgsl`) for the column k whose v is row i of
    /// V: the chunks holding rows past k, over runs of matrices where a matrix fits one storage
    /// binding, else over windows of whole chunks of one matrix.
    fn symv(&self, op: &'static str, (k, i): (usize, usize)) -> Result<()> {
        let (n, ld, count) = (self.n, self.ld, self.count);
        let chunks = self.chunks();
        let first = (k + 1) / CHUNK_ROWS;
        let quad_groups = per(ld / 4 - (k + 1) / 4, WG);
        let launch =
            |a: &Array, vt: &Array, part: &Array, (row0, rows): (usize, usize), matrices| {
                let (chunk0, launch_chunks) = (row0 / CHUNK_ROWS, rows.div_ceil(CHUNK_ROWS));
                let chunk0 = chunk0.max(first);
                let launch_chunks = (row0 / CHUNK_ROWS + launch_chunks) - chunk0;
                per_matrix(
                    op,
                    &key(&TRIDIAGONAL_SYMV, a.dtype(), WG),
                    &[
                        Operand {
                            array: a,
                            per: (rows * ld) as u64,
                        },
                        Operand {
                            array: vt,
                            per: (NB * ld) as u64,
                        },
                        Operand {
                            array: part,
                            per: (chunks * ld) as u64,
                        },
                    ],
                    matrices,
                    launch_chunks as u64 * quad_groups,
                    (2 * rows * (n - k)) as u64,
                    |b, run| {
                        // Windows start on multiples of four elements: bases in vec4s.
                        Params::default()
                            .u32(n as u32)
                            .u32(ld as u32)
                            .u32(run)
                            .u32(k as u32)
                            .u32(i as u32)
                            .u32(CHUNK_ROWS as u32)
                            .u32(chunk0 as u32)
                            .u32(launch_chunks as u32)
                            .u32(row0 as u32)
                            .u32(quad_groups as u32)
                            .u32(b[0] / 4)
                            .u32(b[1])
                            .u32(b[2] / 4)
                            .u32(chunks as u32)
                            .bytes()
                            .to_vec()
                    },
                )
            };
        let fits = super::binding_elements(self.a);
        if n * ld <= fits {
            return launch(self.a, &self.vt, &self.part, (0, n), count as u64);
        }
        // Past one binding: each matrix by windows of whole chunks, from the chunk of row k + 1.
        let window = (fits / ld) / CHUNK_ROWS * CHUNK_ROWS;
        if window == 0 {
            return Err(crate::error::Error::TooLarge {
                op,
                requested: (CHUNK_ROWS * ld) as u64 * self.a.dtype().size_bytes(),
                max: self.a.device().inner.max_window(),
                what: "bytes of one chunk of rows (one storage binding)",
            });
        }
        let rows_of = |x: &Array, per: usize, b: usize| -> Result<Array> {
            block(
                &x.reshape(&[(count * per) as isize, ld as isize])?,
                (b * per, (b + 1) * per),
                (0, ld),
            )
        };
        for b in 0..count {
            let a = rows_of(self.a, n, b)?;
            let (vt, part) = (rows_of(&self.vt, NB, b)?, rows_of(&self.part, chunks, b)?);
            for row0 in (first * CHUNK_ROWS..n).step_by(window) {
                let rows = window.min(n - row0);
                launch(
                    &block(&a, (row0, row0 + rows), (0, ld))?,
                    &vt,
                    &part,
                    (row0, rows),
                    1,
                )?;
            }
        }
        Ok(())
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
    // Rows of whole vec4s for `symv`.
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
        a,
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
    // The reflectors as a QR factorisation of (n − 1) × (n − 1) holds them (for Q).
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
            r.per_column(op, &TRIDIAGONAL_COLUMN, (k, i))?;
            if k + 1 == n {
                break;
            }
            r.symv(op, (k, i))?;
            r.per_column(op, &TRIDIAGONAL_CORRECT, (k, i))?;
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
            // A22 ← A22 − V·Wᵀ − W·Vᵀ on the rows and columns past the panel.
            let v2 = mt(&block(&r.vt, (0, NB), (k1, n))?)?;
            let w2 = block(&r.wt, (0, NB), (k1, n))?;
            let p = v2.matmul(&w2)?;
            let a22 = block(a, (k1, n), (k1, n))?;
            a22.assign(&a22.sub(&p)?.sub(&mt(&p)?)?)?;
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
            // Zᵀ[:, c0..c1] = (Q[c0..c1, :])ᵀ, block by block.
            column_blocks(op, sym, n)?
                .into_iter()
                .map(|(c0, cols)| {
                    let zt = Array::zeros(dev, &stack.shape(&[n, cols]), dtype)?;
                    let w = cols.min(n - c0);
                    block(&zt, (0, n), (0, w))?.assign(&mt(&block(&q, (c0, c0 + w), (0, n))?)?)?;
                    Ok(zt)
                })
                .collect::<Result<Vec<_>>>()?
        }
        None => Vec::new(),
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

/// Zᵀ's blocks of columns, (first column, columns): each a multiple of 4 columns (see
/// [`padded`]) whose n rows fit one storage binding, together covering `padded(n)`.
fn column_blocks(op: &'static str, like: &Array, n: usize) -> Result<Vec<(usize, usize)>> {
    let fit = (super::binding_elements(like) / n.max(1)) / 4 * 4;
    if fit == 0 {
        return Err(crate::error::Error::TooLarge {
            op,
            requested: 4 * n as u64 * like.dtype().size_bytes(),
            max: like.device().inner.max_window(),
            what: "bytes of four eigenvector columns (one storage binding)",
        });
    }
    let total = padded(n);
    Ok((0..total)
        .step_by(fit)
        .map(|c0| (c0, fit.min(total - c0)))
        .collect())
}

/// One launch of QL steps, then their rotations applied to Zᵀ.
pub(crate) fn ql_launch(op: &'static str, t: &Tql) -> Result<()> {
    let n = t.stack.rows;
    let r = &t.rotations;
    // The serial iteration: one invocation per matrix (a workgroup of one; batches of large
    // matrices are short).
    r.steps(op, &TQL_STEPS, &t.tri, 2 * n as u64, n, t.vectors)?;
    // Columns of Zᵀ are independent: every block takes the same rotations.
    for zt in &t.zt {
        r.apply(op, zt, n, zt.shape()[zt.ndim() - 1])?;
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
    let v = match t.zt.as_slice() {
        [] => None,
        [zt] => Some(mt(&block(zt, (0, n), (0, n))?)?),
        blocks => {
            // Z[c0..c1, :] = (Zᵀ[:, c0..c1])ᵀ.
            let z = Array::zeros(blocks[0].device(), &t.stack.shape(&[n, n]), t.tri.dtype())?;
            let mut c0 = 0;
            for zt in blocks {
                let w = zt.shape()[zt.ndim() - 1].min(n - c0);
                block(&z, (c0, c0 + w), (0, n))?.assign(&mt(&block(zt, (0, n), (0, w))?)?)?;
                c0 += w;
            }
            Some(z)
        }
    };
    Ok((w, v))
}
