//! `numpy.linalg.eigh` and `eigvalsh`: cyclic Jacobi on the symmetric matrix NumPy reads from
//! one triangle, one workgroup per matrix, sweeps until every pair is negligible.

use super::families::EIGH_JACOBI;
use super::{Operand, Stack, compute_dtype, key, mt, per_matrix, workgroup_size};
use crate::array::Array;
use crate::device::params::Params;
use crate::dtype::DType;
use crate::error::{Error, Result};

/// Sweeps before `eigh` reports no convergence (Jacobi converges quadratically: 6–12 sweeps
/// are typical).
pub(crate) const MAX_SWEEPS: u32 = 60;

/// Sweeps per launch: all of them for small matrices, a few for large ones so that no launch
/// runs for long.
pub(crate) fn sweeps_per_launch(n: usize) -> u32 {
    if n <= 128 { MAX_SWEEPS } else { 2 }
}

/// The Jacobi iteration's state between launches.
struct Jacobi {
    a: Array,
    v: Array,
    w: Array,
    info: Array,
    cs: Array,
    stack: Stack,
    dtype: DType,
}

fn start(op: &'static str, a: &Array, lower: bool) -> Result<Jacobi> {
    let dtype = compute_dtype(op, a)?;
    let stack = Stack::of(op, a, true)?;
    let n = stack.rows;
    let x = a.astype(dtype)?;
    // The symmetric matrix of the triangle NumPy reads (UPLO).
    let sym = if lower {
        x.tril(0)?.add(&mt(&x.tril(-1)?)?)?
    } else {
        x.triu(0)?.add(&mt(&x.triu(1)?)?)?
    };
    let dev = a.device();
    Ok(Jacobi {
        a: sym,
        v: super::identities(a, &stack, n, n, dtype)?,
        w: Array::zeros(dev, &stack.shape(&[n]), dtype)?,
        info: Array::zeros(dev, &[stack.count], DType::I32)?,
        cs: Array::zeros(dev, &[stack.count, n + 1], dtype)?,
        stack,
        dtype,
    })
}

fn launch(op: &'static str, j: &Jacobi) -> Result<()> {
    let n = j.stack.rows;
    let nn = (n * n) as u64;
    let sweeps = sweeps_per_launch(n);
    per_matrix(
        op,
        &key(&EIGH_JACOBI, j.dtype, workgroup_size(n)),
        &[
            Operand {
                array: &j.a,
                per: nn,
            },
            Operand {
                array: &j.v,
                per: nn,
            },
            Operand {
                array: &j.w,
                per: n as u64,
            },
            Operand {
                array: &j.info,
                per: 1,
            },
            Operand {
                array: &j.cs,
                per: n as u64 + 1,
            },
        ],
        j.stack.count as u64,
        1,
        8 * nn * n as u64 * sweeps as u64,
        |b, run| {
            Params::default()
                .u32(n as u32)
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

/// Whether every matrix is done (`info` −1), or `Err` once the sweeps are spent.
pub(crate) fn converged(op: &'static str, info: &[i32], launches: u32, n: usize) -> Result<bool> {
    match info.iter().position(|&i| i >= 0) {
        None => Ok(true),
        Some(index) if launches * sweeps_per_launch(n) >= MAX_SWEEPS => Err(Error::LinAlg {
            op,
            index: Some(index),
            msg: format!("did not converge in {MAX_SWEEPS} Jacobi sweeps"),
        }),
        Some(_) => Ok(false),
    }
}

fn empty(j: &Jacobi) -> bool {
    j.stack.rows == 0 || j.stack.count == 0
}

#[cfg(not(target_arch = "wasm32"))]
fn run(op: &'static str, a: &Array, lower: bool) -> Result<(Array, Array)> {
    let j = start(op, a, lower)?;
    let mut launches = 0;
    while !empty(&j) {
        launch(op, &j)?;
        launches += 1;
        if converged(op, &j.info.to_vec::<i32>()?, launches, j.stack.rows)? {
            break;
        }
    }
    Ok((j.w, j.v))
}

async fn run_async(op: &'static str, a: &Array, lower: bool) -> Result<(Array, Array)> {
    let j = start(op, a, lower)?;
    let mut launches = 0;
    while !empty(&j) {
        launch(op, &j)?;
        launches += 1;
        let info = j.info.to_vec_async::<i32>().await?;
        if converged(op, &info, launches, j.stack.rows)? {
            break;
        }
    }
    Ok((j.w, j.v))
}

/// `numpy.linalg.eigh(a, UPLO)`: the eigenvalues (ascending) and eigenvectors (columns) of each
/// symmetric matrix of the stack, read from its lower (`lower`, NumPy's `'L'`) or upper
/// triangle. Cyclic Jacobi: eigenvalues to high relative accuracy, eigenvectors orthonormal to
/// working accuracy. Sweeps that do not converge are `Err(LinAlg)`.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let a = gpuarray::Array::from_slice(&dev, &[2.0f32, 1.0, 1.0, 2.0], &[2, 2])?;
/// let (w, v) = gpuarray::linalg::eigh(&a, true)?;
/// let w = w.to_vec::<f32>()?;
/// assert!((w[0] - 1.0).abs() < 1e-6 && (w[1] - 3.0).abs() < 1e-6);
/// assert_eq!(v.shape(), &[2, 2]);
/// # Ok(()) }
/// ```
#[cfg(not(target_arch = "wasm32"))]
pub fn eigh(a: &Array, lower: bool) -> Result<(Array, Array)> {
    run("eigh", a, lower)
}

/// [`eigh`] without blocking (every target).
pub async fn eigh_async(a: &Array, lower: bool) -> Result<(Array, Array)> {
    run_async("eigh", a, lower).await
}

/// `numpy.linalg.eigvalsh(a, UPLO)`: [`eigh`]'s eigenvalues only.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let a = gpuarray::Array::from_slice(&dev, &[5.0f32, 0.0, 0.0, -1.0], &[2, 2])?;
/// assert_eq!(gpuarray::linalg::eigvalsh(&a, true)?.to_vec::<f32>()?, vec![-1.0, 5.0]);
/// # Ok(()) }
/// ```
#[cfg(not(target_arch = "wasm32"))]
pub fn eigvalsh(a: &Array, lower: bool) -> Result<Array> {
    Ok(run("eigvalsh", a, lower)?.0)
}

/// [`eigvalsh`] without blocking (every target).
pub async fn eigvalsh_async(a: &Array, lower: bool) -> Result<Array> {
    Ok(run_async("eigvalsh", a, lower).await?.0)
}
