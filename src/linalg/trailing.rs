//! The matrix-vector passes of the blocked reductions (`tridiagonal.rs`, `bidiagonal.rs`): per
//! column one pass over the stale trailing matrix, Aᵀ·v by columns (`shaders/linalg_atv.wgsl`,
//! partial sums per chunk of rows) or A·u by rows (`shaders/linalg_av.wgsl`). A launch binds a
//! run of whole matrices where one fits a storage binding, otherwise a window of whole chunks of
//! rows of one matrix, so that no launch needs the matrix in one binding.

use super::families::{MATRIX_ROWS_TIMES, MATRIX_T_TIMES};
use super::lu::block;
use super::{Operand, key, per, per_matrix};
use crate::array::Array;
use crate::device::params::Params;
use crate::error::{Error, Result};

/// Invocations per workgroup of both kernels.
const WG: u32 = 64;
/// Rows per chunk of Aᵀ·v's partial sums (and the windows' granularity).
pub(crate) const CHUNK_ROWS: usize = 64;

/// A stack of `count` matrices of n rows `ld` long (a multiple of 4), contiguous.
pub(crate) struct Trailing<'a> {
    pub a: &'a Array,
    pub n: usize,
    pub ld: usize,
    pub count: usize,
}

/// One launch of a blocked reduction's per-column kernel `family` (one workgroup per matrix)
/// at column k, the i-th of its panel, over a stack of `count` matrices of n rows `ld` long.
/// Params: n, ld, batch, k, i, [`CHUNK_ROWS`], chunks, then the bases of `operands`, `slots`
/// of them (those not bound 0).
pub(crate) fn per_column(
    op: &'static str,
    family: &'static crate::device::KernelDef,
    operands: &[Operand],
    (n, ld, count): (usize, usize, usize),
    (k, i): (usize, usize),
    slots: usize,
) -> Result<()> {
    per_matrix(
        op,
        &key(family, operands[0].array.dtype(), WG),
        operands,
        count as u64,
        1,
        (8 * (i + 1) * (n - k)) as u64,
        |b, run| {
            let mut p = Params::default();
            p.u32(n as u32)
                .u32(ld as u32)
                .u32(run)
                .u32(k as u32)
                .u32(i as u32)
                .u32(CHUNK_ROWS as u32)
                .u32(n.div_ceil(CHUNK_ROWS) as u32);
            for slot in 0..slots {
                p.u32(b.get(slot).copied().unwrap_or(0));
            }
            p.bytes().to_vec()
        },
    )
}

/// The vector of a pass: row `row` of `array`, which holds `rows` rows of `ld` per matrix.
pub(crate) struct VectorRow<'a> {
    pub array: &'a Array,
    pub rows: usize,
    pub row: usize,
}

/// A pass's bindings: the window of A (`rows` rows), its vectors and its output.
fn pass_operands<'b>(
    (a, rows): (&'b Array, usize),
    (vector, vector_rows): (&'b Array, usize),
    (out, out_rows): (&'b Array, usize),
    ld: usize,
) -> [Operand<'b>; 3] {
    [(a, rows), (vector, vector_rows), (out, out_rows)].map(|(array, rows)| Operand {
        array,
        per: (rows * ld) as u64,
    })
}

/// The params both passes start with: n, ld, batch, the first row and column, the vector's row
/// and rows per matrix.
fn pass_params(
    n: usize,
    ld: usize,
    run: u32,
    (row_first, col_first): (usize, usize),
    v: &VectorRow,
) -> Params {
    let mut p = Params::default();
    p.u32(n as u32)
        .u32(ld as u32)
        .u32(run)
        .u32(row_first as u32)
        .u32(col_first as u32)
        .u32(v.row as u32)
        .u32(v.rows as u32);
    p
}

impl Trailing<'_> {
    /// Chunks of [`CHUNK_ROWS`] rows per matrix: the rows of Aᵀ·v's partial sums.
    pub fn chunks(&self) -> usize {
        self.n.div_ceil(CHUNK_ROWS)
    }

    /// Matrix b's `per` rows of `x` (…, per, ld), as a 2-d view.
    fn rows_of(&self, x: &Array, per: usize, b: usize) -> Result<Array> {
        block(
            &x.reshape(&[(self.count * per) as isize, self.ld as isize])?,
            (b * per, (b + 1) * per),
            (0, self.ld),
        )
    }

    /// Calls `launch(a, vector, out, (row0, rows), matrices)` over the rows from `first`
    /// (rounded down to a chunk): once for the whole stack when a matrix fits one binding,
    /// else per matrix and window of whole chunks.
    fn over_rows(
        &self,
        op: &'static str,
        first: usize,
        (vector, out, out_rows): (&Array, &Array, usize),
        vec_rows: usize,
        launch: impl Fn(&Array, &Array, &Array, (usize, usize), u64) -> Result<()>,
    ) -> Result<()> {
        let (n, ld) = (self.n, self.ld);
        let fits = super::binding_elements(self.a);
        if n * ld <= fits {
            return launch(self.a, vector, out, (0, n), self.count as u64);
        }
        let window = (fits / ld) / CHUNK_ROWS * CHUNK_ROWS;
        if window == 0 {
            return Err(Error::TooLarge {
                op,
                requested: (CHUNK_ROWS * ld) as u64 * self.a.dtype().size_bytes(),
                max: self.a.device().inner.max_window(),
                what: "bytes of one chunk of rows (one storage binding)",
            });
        }
        for b in 0..self.count {
            let a = self.rows_of(self.a, n, b)?;
            let vector = self.rows_of(vector, vec_rows, b)?;
            let out = self.rows_of(out, out_rows, b)?;
            for row0 in (first / CHUNK_ROWS * CHUNK_ROWS..n).step_by(window) {
                let rows = window.min(n - row0);
                launch(
                    &block(&a, (row0, row0 + rows), (0, ld))?,
                    &vector,
                    &out,
                    (row0, rows),
                    1,
                )?;
            }
        }
        Ok(())
    }

    /// Aᵀ·v's partial sums over rows from `row_first` and columns from `col_first` into
    /// `part` (…, chunks, ld): chunk j's sums in its row j (rows of chunks wholly before
    /// `row_first` are left as they are).
    pub fn atv(
        &self,
        op: &'static str,
        v: &VectorRow,
        (row_first, col_first): (usize, usize),
        part: &Array,
    ) -> Result<()> {
        let (n, ld) = (self.n, self.ld);
        let chunks = self.chunks();
        let first_chunk = row_first / CHUNK_ROWS;
        let quad_groups = per(ld / 4 - col_first / 4, WG);
        self.over_rows(
            op,
            row_first,
            (v.array, part, chunks),
            v.rows,
            |a, vector, part, (row0, rows), matrices| {
                let chunk0 = (row0 / CHUNK_ROWS).max(first_chunk);
                let launch_chunks = (row0 + rows).div_ceil(CHUNK_ROWS) - chunk0;
                per_matrix(
                    op,
                    &key(&MATRIX_T_TIMES, a.dtype(), WG),
                    &pass_operands((a, rows), (vector, v.rows), (part, chunks), ld),
                    matrices,
                    launch_chunks as u64 * quad_groups,
                    (2 * rows * (n - col_first)) as u64,
                    |b, run| {
                        // Windows start on multiples of four elements: bases in vec4s.
                        pass_params(n, ld, run, (row_first, col_first), v)
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
            },
        )
    }

    /// A·u over rows from `row_first` and columns from `col_first` (u zero before it) into
    /// `out` (…, 1, ld): row r's sum at r.
    pub fn av(
        &self,
        op: &'static str,
        u: &VectorRow,
        (row_first, col_first): (usize, usize),
        out: &Array,
    ) -> Result<()> {
        let (n, ld) = (self.n, self.ld);
        self.over_rows(
            op,
            row_first,
            (u.array, out, 1),
            u.rows,
            |a, vector, out, (row0, rows), matrices| {
                let first = row_first.max(row0);
                let groups = per(row0 + rows - first, WG).max(1);
                per_matrix(
                    op,
                    &key(&MATRIX_ROWS_TIMES, a.dtype(), WG),
                    &pass_operands((a, rows), (vector, u.rows), (out, 1), ld),
                    matrices,
                    groups,
                    (2 * rows * (n - col_first)) as u64,
                    |b, run| {
                        pass_params(n, ld, run, (row_first, col_first), u)
                            .u32(rows as u32)
                            .u32(row0 as u32)
                            .u32(groups as u32)
                            .u32(b[0] / 4)
                            .u32(b[1] / 4)
                            .u32(b[2])
                            .bytes()
                            .to_vec()
                    },
                )
            },
        )
    }
}
