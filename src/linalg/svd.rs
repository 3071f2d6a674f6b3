//! `numpy.linalg.svd` and `svdvals`: one-sided Jacobi (Hestenes) on the tall orientation of each
//! matrix, one workgroup per matrix; U's columns without a singular value to normalise by (rank
//! deficiency, `full_matrices`) are completed to an orthonormal basis in the kernel.

use super::eigh::{converged, sweeps_per_launch};
use super::families::SVD_JACOBI;
use super::lu::block;
use super::{Operand, Stack, compute_dtype, key, mt, per_matrix, workgroup_size};
use crate::array::Array;
use crate::device::params::Params;
use crate::dtype::DType;
use crate::error::Result;

/// The iteration's state: `u` (…, big, uc) starts as the tall matrix in its first `small`
/// columns.
struct Jacobi {
    u: Array,
    v: Array,
    s: Array,
    info: Array,
    scratch: Array,
    stack: Stack,
    big: usize,
    small: usize,
    uc: usize,
    wide: bool,
    dtype: DType,
}

fn start(op: &'static str, a: &Array, full: bool) -> Result<Jacobi> {
    let dtype = compute_dtype(op, a)?;
    let stack = Stack::of(op, a, false)?;
    let (m, n) = (stack.rows, stack.cols);
    let wide = m < n;
    let (big, small) = if wide { (n, m) } else { (m, n) };
    let uc = if full { big } else { small };
    let tall = if wide { mt(a)? } else { a.clone() };
    let dev = a.device();
    let u = Array::zeros(dev, &stack.shape(&[big, uc]), dtype)?;
    if small > 0 {
        block(&u, (0, big), (0, small))?.assign(&tall)?;
    }
    Ok(Jacobi {
        u,
        v: super::identities(a, &stack, small, small, dtype)?,
        s: Array::zeros(dev, &stack.shape(&[small]), dtype)?,
        info: Array::zeros(dev, &[stack.count], DType::I32)?,
        scratch: Array::zeros(dev, &[stack.count, uc.max(1)], dtype)?,
        stack,
        big,
        small,
        uc,
        wide,
        dtype,
    })
}

fn launch(op: &'static str, j: &Jacobi) -> Result<()> {
    let (m, n, uc) = (j.big, j.small, j.uc);
    let sweeps = sweeps_per_launch(n);
    per_matrix(
        op,
        &key(&SVD_JACOBI, j.dtype, workgroup_size(n.max(m))),
        &[
            Operand {
                array: &j.u,
                per: (m * uc) as u64,
            },
            Operand {
                array: &j.v,
                per: (n * n) as u64,
            },
            Operand {
                array: &j.s,
                per: n as u64,
            },
            Operand {
                array: &j.info,
                per: 1,
            },
            Operand {
                array: &j.scratch,
                per: uc.max(1) as u64,
            },
        ],
        j.stack.count as u64,
        1,
        6 * (m * n * n) as u64 * sweeps as u64,
        |b, run| {
            Params::default()
                .u32(m as u32)
                .u32(n as u32)
                .u32(uc as u32)
                .u32(run)
                .u32(b[0])
                .u32(b[1])
                .u32(b[2])
                .u32(b[3])
                .u32(b[4])
                .u32(sweeps)
                .bytes()
                .to_vec()
        },
    )
}

/// Whether there is nothing to iterate: no matrices, or no columns (U is then the identity's
/// first columns, which `finish` builds).
fn empty(j: &Jacobi) -> bool {
    j.small == 0 || j.stack.count == 0
}

/// (U, S, Vh) of the original orientation.
fn finish(a: &Array, j: Jacobi) -> Result<(Array, Array, Array)> {
    let u = if j.small == 0 {
        super::identities(a, &j.stack, j.big, j.uc, j.dtype)?
    } else {
        j.u
    };
    // Tall: A = U·S·Vᵀ. Wide: Aᵀ = U·S·Vᵀ, so A = V·S·Uᵀ.
    Ok(if j.wide {
        (j.v, j.s, mt(&u)?.contiguous()?)
    } else {
        (u, j.s, mt(&j.v)?.contiguous()?)
    })
}

#[cfg(not(target_arch = "wasm32"))]
fn run(op: &'static str, a: &Array, full: bool) -> Result<(Array, Array, Array)> {
    let j = start(op, a, full)?;
    let mut launches = 0;
    while !empty(&j) {
        launch(op, &j)?;
        launches += 1;
        if converged(op, &j.info.to_vec::<i32>()?, launches, j.small)? {
            break;
        }
    }
    finish(a, j)
}

async fn run_async(op: &'static str, a: &Array, full: bool) -> Result<(Array, Array, Array)> {
    let j = start(op, a, full)?;
    let mut launches = 0;
    while !empty(&j) {
        launch(op, &j)?;
        launches += 1;
        let info = j.info.to_vec_async::<i32>().await?;
        if converged(op, &info, launches, j.small)? {
            break;
        }
    }
    finish(a, j)
}

/// `numpy.linalg.svd(a, full_matrices)`: `(U, S, Vh)` with a = U·diag(S)·Vh for each matrix of
/// the stack, S descending; U is (…, m, m) and Vh (…, n, n) with `full_matrices`, else (…, m,
/// k) and (…, k, n), k = min(m, n). One-sided Jacobi: singular values to high relative
/// accuracy, no AᵀA formed. No convergence within [`MAX_SWEEPS`](super::eigh::MAX_SWEEPS) sweeps is `Err(LinAlg)`.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let a = gpuarray::Array::from_slice(&dev, &[3.0f32, 0.0, 0.0, -4.0], &[2, 2])?;
/// let (u, s, vh) = gpuarray::linalg::svd(&a, true)?;
/// assert_eq!(s.to_vec::<f32>()?, vec![4.0, 3.0]);
/// assert_eq!((u.shape(), vh.shape()), (&[2usize, 2][..], &[2usize, 2][..]));
/// # Ok(()) }
/// ```
#[cfg(not(target_arch = "wasm32"))]
pub fn svd(a: &Array, full_matrices: bool) -> Result<(Array, Array, Array)> {
    run("svd", a, full_matrices)
}

/// [`svd`] without blocking (every target).
pub async fn svd_async(a: &Array, full_matrices: bool) -> Result<(Array, Array, Array)> {
    run_async("svd", a, full_matrices).await
}

/// `numpy.linalg.svdvals(a)` (`svd(a, compute_uv=False)`): the singular values, descending.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let a = gpuarray::Array::from_slice(&dev, &[0.0f32, 2.0, 0.0, 0.0, 0.0, 1.0], &[2, 3])?;
/// assert_eq!(gpuarray::linalg::svdvals(&a)?.to_vec::<f32>()?, vec![2.0, 1.0]);
/// # Ok(()) }
/// ```
#[cfg(not(target_arch = "wasm32"))]
pub fn svdvals(a: &Array) -> Result<Array> {
    Ok(run("svdvals", a, false)?.1)
}

/// [`svdvals`] without blocking (every target).
pub async fn svdvals_async(a: &Array) -> Result<Array> {
    Ok(run_async("svdvals", a, false).await?.1)
}

#[cfg(test)]
mod tests {
    #[test]
    fn sweeps_are_bounded() {
        assert!(super::sweeps_per_launch(1000) <= super::MAX_SWEEPS);
    }
}
