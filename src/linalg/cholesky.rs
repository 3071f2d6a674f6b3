//! `numpy.linalg.cholesky`: A = L·Lᵀ, one workgroup per small matrix, blocked right-looking
//! (panels factored by the kernel, the trailing matrix updated by the tuned matmul) for large
//! ones.

use super::families::{CHOLESKY_PANEL, SMALL_CHOLESKY};
use super::lu::{block, panels};
use super::{
    Operand, SMALL_WG, Stack, compute_dtype, key, mt, one_invocation_each, per, per_matrix, runs,
    steps_per_launch, workgroup_size,
};
use crate::array::Array;
use crate::device::params::Params;
use crate::error::Result;

fn not_positive_definite(_: i32) -> String {
    "Matrix is not positive definite".into()
}

/// The factor and its `info` (0, or the first column whose diagonal was not positive).
fn cholesky_unchecked(a: &Array, upper: bool) -> Result<(Array, Array)> {
    let op = "cholesky";
    let dtype = compute_dtype(op, a)?;
    let stack = Stack::of(op, a, true)?;
    let n = stack.rows;
    // The upper factor reads the upper triangle: that of aᵀ is lower, and Uᵀ = L of aᵀ.
    let source = if upper { mt(a)? } else { a.clone() };
    let info = Array::zeros(a.device(), &[stack.count], crate::DType::I32)?;
    if n == 0 || stack.count == 0 {
        return Ok((source.astype(dtype)?, info));
    }
    let wg = workgroup_size(n);
    let small_iterations: u64 = (0..n)
        .map(|j| 1 + (n - j) as u64 + ((n - j) * (n - j + 1) / 2) as u64)
        .sum();
    if one_invocation_each(a, stack.count, small_iterations) {
        let flat = source.reshape(&[stack.count as isize, n as isize, n as isize])?;
        let out = super::one_per_invocation(
            op,
            &super::Kernel::Family(&key(&SMALL_CHOLESKY, dtype, SMALL_WG)),
            &[&flat],
            dtype,
            &info,
            (n * n * n / 3) as u64,
            |len, info_base, strides| {
                Params::default()
                    .u32(n as u32)
                    .u32(len)
                    .u32(0)
                    .u32(info_base)
                    .u32(strides[0].0)
                    .u32(strides[0].1)
                    .bytes()
                    .to_vec()
            },
        )?;
        let shape: Vec<isize> = a.shape().iter().map(|&d| d as isize).collect();
        let lower = out[0].reshape(&shape)?.tril(0)?;
        return Ok((if upper { mt(&lower)? } else { lower }, info));
    }
    // One workgroup per matrix. Each panel (its rows on and below the diagonal) is factored in
    // a contiguous copy of its own, so that the kernel binds the panel, not the matrix: a
    // matrix larger than one storage binding is factored too. The copies move n·32 elements a
    // panel, against the (n − k)²·32 multiply-adds of its trailing update; a matrix that is one
    // panel is factored in place.
    let l = source.astype(dtype)?;
    let key = key(&CHOLESKY_PANEL, dtype, wg);
    for (k0, k1) in panels(n) {
        let (rows, width) = (n - k0, k1 - k0);
        let whole = k0 == 0 && k1 == n;
        let panel = if whole {
            l.clone()
        } else {
            block(&l, (k0, n), (k0, k1))?.contiguous()?
        };
        // Per step: the scaling of the column, then the update on a grid of `lanes` columns ×
        // wg / lanes rows (as in the kernel).
        let lanes = wg.min(32);
        let run = steps_per_launch(
            op,
            a,
            per(rows, wg) + per(width, lanes) * per(rows, wg / lanes) + 8,
        )?;
        for (j0, j1) in runs(0, width, run) {
            per_matrix(
                op,
                &key,
                &[
                    Operand {
                        array: &panel,
                        per: (rows * width) as u64,
                    },
                    Operand {
                        array: &info,
                        per: 1,
                    },
                ],
                stack.count as u64,
                1,
                (rows * width * (j1 - j0)) as u64,
                |bases, run| {
                    Params::default()
                        .u32(rows as u32)
                        .u32(width as u32)
                        .u32(k0 as u32)
                        .u32(j0 as u32)
                        .u32(j1 as u32)
                        .u32(run)
                        .u32(bases[0])
                        .u32(bases[1])
                        .bytes()
                        .to_vec()
                },
            )?;
        }
        if !whole {
            block(&l, (k0, n), (k0, k1))?.assign(&panel)?;
        }
        if k1 < n {
            // A22 -= L21 · L21ᵀ (only its lower triangle is read later), L21 read from the
            // panel's copy, where its rows are contiguous.
            let l21 = block(&panel, (width, rows), (0, width))?;
            let a22 = block(&l, (k1, n), (k1, n))?;
            crate::ops::matmul::matmul_sub_into(&l21, &mt(&l21)?, &a22)?;
        }
    }
    let lower = l.tril(0)?;
    Ok((if upper { mt(&lower)? } else { lower }, info))
}

/// `numpy.linalg.cholesky(a, upper=False)`: the lower factor L with a = L·Lᵀ of each matrix
/// of the stack, read from a's lower triangle (or, `upper`, the upper factor U = Lᵀ read from
/// the upper triangle). A matrix that is not positive definite (or has NaN on the way) is
/// `Err(LinAlg)` naming the first one of the batch.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// use gpuarray::{Array, linalg};
/// let a = Array::from_slice(&dev, &[4.0f32, 2.0, 2.0, 5.0], &[2, 2])?;
/// assert_eq!(linalg::cholesky(&a, false)?.to_vec::<f32>()?, vec![2.0, 0.0, 1.0, 2.0]);
/// assert_eq!(linalg::cholesky(&a, true)?.to_vec::<f32>()?, vec![2.0, 1.0, 0.0, 2.0]);
/// let indefinite = Array::from_slice(&dev, &[1.0f32, 2.0, 2.0, 1.0], &[2, 2])?;
/// assert!(linalg::cholesky(&indefinite, false).is_err());
/// # Ok(()) }
/// ```
#[cfg(not(target_arch = "wasm32"))]
pub fn cholesky(a: &Array, upper: bool) -> Result<Array> {
    let (l, info) = cholesky_unchecked(a, upper)?;
    super::check_info("cholesky", &info, not_positive_definite)?;
    Ok(l)
}

/// [`cholesky`] without blocking (every target).
pub async fn cholesky_async(a: &Array, upper: bool) -> Result<Array> {
    let (l, info) = cholesky_unchecked(a, upper)?;
    super::check_info_async("cholesky", &info, not_positive_definite).await?;
    Ok(l)
}
