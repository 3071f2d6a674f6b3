//! LU of matrices larger than one storage binding (128 MiB on lavapipe and in browsers): the
//! kernels bind panels and blocks copied out of the matrix, never the matrix.
//!
//! Factorization, per panel of [`PANEL`](super::lu) columns (blocked right-looking, as
//! LAPACK's getrf): the panel's rows from its diagonal down are copied out and factored there
//! with partial pivoting (`shaders/linalg_lu.wgsl`, its swaps moving the copy's rows); the
//! swaps are applied to the matrix's rows a run of columns at a time, each run copied out and
//! back (`shaders/linalg_swap_rows.wgsl`, getrf's laswp); the factored panel is written back;
//! U12 = L11⁻¹·A12 by forward substitution in a copy (`shaders/linalg_lu_solve.wgsl`); and the
//! tuned matmul subtracts L21·U12 from the trailing matrix, which it reads and writes in
//! windows. Substitution (getrs), per block of rows: the matmul subtracts the solved blocks'
//! part, then the block's triangle is solved in a copy.
//!
//! The copies move O(n²/32) elements per panel against the panel's O(n²·32) multiply-adds; the
//! swaps of a panel copy the rows below it once. Matrices within one binding keep the in-place
//! path of `lu.rs`.

use super::families::SWAP_ROWS;
use super::lu::{Lu, block, factor_panel, panels, substitute_phases};
use super::{Operand, Stack, binding_elements, key, per_matrix, runs, steps_per_launch};
use crate::array::Array;
use crate::device::params::Params;
use crate::dtype::DType;
use crate::error::Result;

/// Whether one n × n matrix of `lu` fits one storage binding (the in-place path).
pub(super) fn fits(lu: &Array, n: usize) -> bool {
    n * n <= binding_elements(lu)
}

/// Factors `lu` (a contiguous stack of n × n matrices) in place: pivots to `piv`, the first zero
/// pivot's column to `info`.
pub(super) fn factor(
    op: &'static str,
    lu: &Array,
    piv: &Array,
    info: &Array,
    stack: &Stack,
) -> Result<()> {
    let (n, count) = (stack.rows, stack.count);
    let window = binding_elements(lu);
    let blocks = panels(n);
    // U12's forward substitution swaps nothing (the swaps are applied to the matrix already).
    let no_swaps = Array::zeros(lu.device(), &[count, blocks[0].1], DType::I32)?;
    for (k0, k1) in blocks {
        let (rows, width) = (n - k0, k1 - k0);
        let panel = block(lu, (k0, n), (k0, k1))?.contiguous()?;
        factor_panel(op, &panel, piv, info, count, (rows, width), (0, width), k0)?;
        // The panel's swaps on the matrix's rows from k0 down (its own columns too: the
        // factored copy overwrites them next).
        for (c0, c1) in runs(0, n, (window / rows).max(1)) {
            let part = block(lu, (k0, n), (c0, c1))?.contiguous()?;
            swap_rows(op, &part, piv, count, (k0, k1), k0)?;
            block(lu, (k0, n), (c0, c1))?.assign(&part)?;
        }
        block(lu, (k0, n), (k0, k1))?.assign(&panel)?;
        if k1 < n {
            // U12 = L11⁻¹·A12: forward substitution with the panel's unit lower square.
            let l11 = block(&panel, (0, width), (0, width))?.contiguous()?;
            let u12 = block(lu, (k0, k1), (k1, n))?.contiguous()?;
            substitute_phases(op, &l11, &no_swaps, &u12, count, &[1])?;
            block(lu, (k0, k1), (k1, n))?.assign(&u12)?;
            // A22 -= L21·U12, L21 read from the panel's copy (contiguous rows).
            let l21 = block(&panel, (width, rows), (0, width))?;
            crate::ops::matmul::matmul_sub_into(&l21, &u12, &block(lu, (k1, n), (k1, n))?)?;
        }
    }
    Ok(())
}

/// Overwrites `x` (count × n × m, contiguous) with the solution of A·X = X from `f`, in runs of
/// columns that fit one binding (`inv`'s X is as large as A).
pub(super) fn substitute(op: &'static str, f: &Lu, x: &Array) -> Result<()> {
    let n = f.stack.rows;
    let m = x.shape()[x.ndim() - 1];
    let run = (binding_elements(x) / n).max(1);
    if run >= m {
        return substitute_columns(op, f, x);
    }
    for (c0, c1) in runs(0, m, run) {
        let part = block(x, (0, n), (c0, c1))?.contiguous()?;
        substitute_columns(op, f, &part)?;
        block(x, (0, n), (c0, c1))?.assign(&part)?;
    }
    Ok(())
}

/// [`substitute`] for an `x` within one binding: the swaps, then forward and back substitution
/// a block of rows at a time.
fn substitute_columns(op: &'static str, f: &Lu, x: &Array) -> Result<()> {
    let (n, count) = (f.stack.rows, f.stack.count);
    let m = x.shape()[x.ndim() - 1];
    let whole = (0, m);
    let run = steps_per_launch(op, x, 2)?;
    for (j0, j1) in runs(0, n, run) {
        swap_rows(op, x, &f.piv, count, (j0, j1), 0)?;
    }
    let blocks = panels(n);
    let no_swaps = Array::zeros(x.device(), &[count, blocks[0].1], DType::I32)?;
    // L·Y = P·B, L unit lower: Y_i = L_ii⁻¹·(B_i − L_i,<i · Y_<i).
    for &(i0, i1) in &blocks {
        let xi = block(x, (i0, i1), whole)?;
        if i0 > 0 {
            xi.sub_assign(&block(&f.lu, (i0, i1), (0, i0))?.matmul(&block(x, (0, i0), whole)?)?)?;
        }
        solve_diagonal_block(op, f, x, (i0, i1), &no_swaps, 1)?;
    }
    // U·X = Y: X_i = U_ii⁻¹·(Y_i − U_i,>i · X_>i), from the last block up.
    for &(i0, i1) in blocks.iter().rev() {
        let xi = block(x, (i0, i1), whole)?;
        if i1 < n {
            xi.sub_assign(&block(&f.lu, (i0, i1), (i1, n))?.matmul(&block(x, (i1, n), whole)?)?)?;
        }
        solve_diagonal_block(op, f, x, (i0, i1), &no_swaps, 2)?;
    }
    Ok(())
}

/// One phase of the substitution kernel (1 forward, 2 back) with the diagonal block
/// (i0..i1)² of `f.lu` on rows i0..i1 of `x`, both in copies.
fn solve_diagonal_block(
    op: &'static str,
    f: &Lu,
    x: &Array,
    (i0, i1): (usize, usize),
    no_swaps: &Array,
    phase: u32,
) -> Result<()> {
    let m = x.shape()[x.ndim() - 1];
    let diagonal = block(&f.lu, (i0, i1), (i0, i1))?.contiguous()?;
    let rows = block(x, (i0, i1), (0, m))?.contiguous()?;
    substitute_phases(op, &diagonal, no_swaps, &rows, f.stack.count, &[phase])?;
    block(x, (i0, i1), (0, m))?.assign(&rows)
}

/// Swaps, for j in [j0, j1) in order, rows j − row0 and piv[j] − row0 of each of the `count`
/// contiguous arrays `x` (rows × cols, the matrix's rows from `row0` down).
fn swap_rows(
    op: &'static str,
    x: &Array,
    piv: &Array,
    count: usize,
    (j0, j1): (usize, usize),
    row0: usize,
) -> Result<()> {
    let (rows, cols) = (x.shape()[x.ndim() - 2], x.shape()[x.ndim() - 1]);
    if rows == 0 || cols == 0 || count == 0 {
        return Ok(());
    }
    let n = piv.shape()[piv.ndim() - 1];
    let wg = super::SMALL_WG;
    let groups = cols.div_ceil(wg as usize);
    per_matrix(
        op,
        &key(&SWAP_ROWS, x.dtype(), wg),
        &[
            Operand {
                array: x,
                per: (rows * cols) as u64,
            },
            Operand {
                array: piv,
                per: n as u64,
            },
        ],
        count as u64,
        groups as u64,
        0,
        |bases, run| {
            Params::default()
                .u32(rows as u32)
                .u32(cols as u32)
                .u32(groups as u32)
                .u32(run)
                .u32(bases[0])
                .u32(bases[1])
                .u32(n as u32)
                .u32(j0 as u32)
                .u32(j1 as u32)
                .u32(row0 as u32)
                .bytes()
                .to_vec()
        },
    )
}
