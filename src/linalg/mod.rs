//! `numpy.linalg` on the GPU: factorizations and the functions built on them, batched over
//! leading axes ("stacked" matrices) with NumPy's semantics and errors.
//!
//! - **Small matrices** are factored one workgroup per matrix, many matrices per launch (LU with
//!   partial pivoting, Cholesky, Householder QR, triangular solves, Jacobi `eigh` and one-sided
//!   Jacobi `svd`), in WGSL of `shaders/linalg_*.wgsl`.
//! - **Large matrices**: LU, Cholesky and QR are blocked, right-looking: a panel of columns is
//!   factored by the same kernel and the trailing matrix is updated by the tuned matmul (QR's
//!   reflectors in compact WY form); `eigh` reduces to tridiagonal form and runs implicit QL.
//! - **Errors like NumPy's**: a singular matrix in `solve`/`inv`, a matrix that is not positive
//!   definite in `cholesky`, or Jacobi sweeps (QL iterations) that do not converge are
//!   [`Error::LinAlg`](crate::Error::LinAlg) naming the first failing matrix of the batch
//!   (Python: `numpy.linalg.LinAlgError`). Finding out needs one small readback, so those
//!   functions have `_async` forms for the browser.
//! - **Dtypes**: float32 stays float32, float64 stays float64 (where the adapter has native f64:
//!   these kernels have no software path), integers and bool compute in float64 as NumPy's do,
//!   float16 is refused as NumPy refuses it.
//!
//! ```
//! # fn main() -> gpuarray::Result<()> {
//! # let dev = gpuarray::Device::new()?;
//! use gpuarray::{Array, linalg};
//! let a = Array::from_slice(&dev, &[4.0f32, 2.0, 2.0, 3.0], &[2, 2])?;
//! let b = Array::from_slice(&dev, &[2.0f32, 1.0], &[2])?;
//! let x = linalg::solve(&a, &b)?;                       // a @ x == b
//! let r = a.matmul(&x)?.to_vec::<f32>()?;
//! assert!((r[0] - 2.0).abs() < 1e-6 && (r[1] - 1.0).abs() < 1e-6);
//! # Ok(()) }
//! ```

mod bidiagonal;
mod cholesky;
mod derived;
mod eigh;
pub(crate) mod families;
mod jacobi;
mod lu;
mod lu_past_binding;
mod norm;
mod qr;
mod rotations;
mod svd;
mod tiny;
mod trailing;
mod tridiagonal;
mod tsqr;

#[cfg(not(target_arch = "wasm32"))]
pub use cholesky::cholesky;
pub use cholesky::cholesky_async;
pub use derived::{Lstsq, cross, matrix_power, multi_dot};
#[cfg(not(target_arch = "wasm32"))]
pub use derived::{cond, lstsq, matrix_rank, pinv, tensorinv, tensorsolve};
#[cfg(not(target_arch = "wasm32"))]
pub use eigh::{eigh, eigvalsh};
pub use eigh::{eigh_async, eigvalsh_async};
pub use lu::{det, inv_async, slogdet, solve_async, solve_refined_async};
#[cfg(not(target_arch = "wasm32"))]
pub use lu::{inv, solve, solve_refined};
pub use norm::{NormOrder, vector_norm};
#[cfg(not(target_arch = "wasm32"))]
pub use norm::{matrix_norm, norm};
pub use qr::{QrMode, qr};
#[cfg(not(target_arch = "wasm32"))]
pub use svd::{svd, svdvals};
pub use svd::{svd_async, svdvals_async};
#[doc(hidden)]
pub use tiny::tier_small_solves_after;

use crate::array::Array;
use crate::device::{Binding, LaunchName, PipelineKey, Resource, Variant, Work};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::SliceArg;

/// A stack of matrices: the batch axes, their product and the matrix shape.
#[derive(Debug, Clone)]
pub(crate) struct Stack {
    pub batch: Vec<usize>,
    pub count: usize,
    pub rows: usize,
    pub cols: usize,
}

impl Stack {
    /// The stack of `a` (at least 2-D, as NumPy's `_assert_stacked_2d`), square where asked
    /// (`_assert_stacked_square`).
    pub fn of(op: &'static str, a: &Array, square: bool) -> Result<Stack> {
        let shape = a.shape();
        if shape.len() < 2 {
            return Err(Error::LinAlg {
                op,
                index: None,
                msg: format!(
                    "{}-dimensional array given. Array must be at least two-dimensional",
                    shape.len()
                ),
            });
        }
        let (rows, cols) = (shape[shape.len() - 2], shape[shape.len() - 1]);
        if square && rows != cols {
            return Err(Error::LinAlg {
                op,
                index: None,
                msg: format!("Last 2 dimensions of the array must be square, got shape {shape:?}"),
            });
        }
        let batch = shape[..shape.len() - 2].to_vec();
        Ok(Stack {
            count: batch.iter().product(),
            batch,
            rows,
            cols,
        })
    }

    /// The batch shape followed by `tail`.
    pub fn shape(&self, tail: &[usize]) -> Vec<usize> {
        let mut s = self.batch.clone();
        s.extend_from_slice(tail);
        s
    }
}

/// The float dtype NumPy's `linalg` computes `dtype` in: f32 and f64 stay, integers and bool
/// go to f64, f16 is refused (NumPy: "array type float16 is unsupported in linalg"). f64 needs
/// the adapter's native f64.
pub(crate) fn compute_dtype(op: &'static str, a: &Array) -> Result<DType> {
    let d = match a.dtype() {
        DType::F32 => DType::F32,
        DType::F16 => {
            return Err(Error::Unsupported {
                op,
                feature: "array type float16 is unsupported in linalg (as in NumPy); convert \
                          to float32 first"
                    .into(),
            });
        }
        _ => DType::F64,
    };
    if d == DType::F64 && !native_f64(a) {
        return Err(Error::Unsupported {
            op,
            feature: format!(
                "{} in float64 needs an adapter with native f64 (SHADER_F64); this one's f64 is \
                 {} (convert to float32 first)",
                if a.dtype() == DType::F64 {
                    "linalg"
                } else {
                    "linalg of integer arrays (computed"
                },
                a.device().info().f64
            ),
        });
    }
    Ok(d)
}

fn native_f64(a: &Array) -> bool {
    a.device().supports(DType::F64) && !a.device().f64_emulated()
}

/// The common compute dtype of two operands.
pub(crate) fn compute_dtype2(op: &'static str, a: &Array, b: &Array) -> Result<DType> {
    let (x, y) = (compute_dtype(op, a)?, compute_dtype(op, b)?);
    Ok(if x == DType::F64 || y == DType::F64 {
        DType::F64
    } else {
        DType::F32
    })
}

/// A workgroup size for matrices of `n` rows: a power of two from 8 to 256.
pub(crate) fn workgroup_size(n: usize) -> u32 {
    (n.next_power_of_two() as u32).clamp(8, 256)
}

/// Loop iterations one invocation may run in one launch. lavapipe (Mesa's gallivm, every CPU
/// adapter we run on) leaves *all* loops of an invocation, silently, once they have run 65535
/// iterations together, so its launches stay below that; elsewhere the bound keeps launches
/// short for GPU watchdogs. Kernels that step (columns, rounds) take ranges of steps so the host
/// can split them.
pub(crate) fn loop_budget(a: &Array) -> u64 {
    if a.device().inner.is_cpu {
        60_000
    } else {
        1 << 22
    }
}

/// The steps of `per_step` loop iterations (an upper bound) that fit one launch, or
/// `Err(TooLarge)` when not even one does (a matrix too large for this adapter's loop limit).
pub(crate) fn steps_per_launch(op: &'static str, a: &Array, per_step: u64) -> Result<usize> {
    let budget = loop_budget(a);
    if per_step > budget {
        return Err(Error::TooLarge {
            op,
            requested: per_step,
            max: budget,
            what: "loop iterations per invocation of one step (lavapipe stops every loop of an \
                   invocation after 65535; the matrix is too large for this adapter)",
        });
    }
    Ok((budget / per_step.max(1)).max(1) as usize)
}

/// Elements of `a`'s dtype that one storage binding holds: a matrix (or panel, or run of
/// columns) of at most this many is bound whole.
pub(crate) fn binding_elements(a: &Array) -> usize {
    let elements = crate::ops::window_elements(&a.device().inner, a.dtype().size_bytes());
    elements.min(usize::MAX as u64) as usize
}

/// `[lo, hi)` in runs of at most `run`.
pub(crate) fn runs(lo: usize, hi: usize, run: usize) -> Vec<(usize, usize)> {
    (lo..hi)
        .step_by(run.max(1))
        .map(|a| (a, (a + run).min(hi)))
        .collect()
}

/// `ceil(a / b)` as a loop count.
pub(crate) fn per(a: usize, b: u32) -> u64 {
    a.div_ceil(b as usize) as u64
}

/// One operand of a per-matrix launch: a contiguous array of matrices, `per` elements each.
pub(crate) struct Operand<'a> {
    pub array: &'a Array,
    pub per: u64,
}

/// Launches `key` once per run of matrices of a batch of `count`, `groups` workgroups per
/// matrix: each operand bound as one window holding the run's matrices, and
/// `params(bases, run)` the uniform of a run (bases: each operand's element offset in its
/// window). Runs are as long as one storage binding and the grid allow.
pub(crate) fn per_matrix(
    op: &'static str,
    key: &PipelineKey,
    operands: &[Operand],
    count: u64,
    groups: u64,
    flops_per_matrix: u64,
    params: impl Fn(&[u32], u32) -> Vec<u8>,
) -> Result<()> {
    if count == 0 {
        return Ok(());
    }
    let dev = &operands[0].array.device().inner;
    let mut run = u64::MAX;
    for o in operands {
        let bytes = o.array.dtype().size_bytes();
        let fits = crate::ops::window_elements(dev, bytes) / o.per.max(1);
        if fits == 0 {
            return Err(Error::TooLarge {
                op,
                requested: o.per * bytes,
                max: dev.max_window(),
                what: "bytes of one matrix (one storage binding; matrices past it are not \
                       supported yet)",
            });
        }
        run = run.min(fits);
    }
    let max_dim = dev.limits.max_compute_workgroups_per_dimension as u64;
    run = run
        .min(max_dim * max_dim / groups)
        .min(u32::MAX as u64 / groups);
    let mut start = 0;
    while start < count {
        let len = run.min(count - start);
        let mut bindings: Vec<Binding> = Vec::with_capacity(operands.len());
        let mut bases = Vec::with_capacity(operands.len());
        for o in operands {
            let bytes = o.array.dtype().size_bytes();
            let (b, base) = crate::ops::contiguous_window(
                op,
                o.array,
                start * o.per,
                (len * o.per).max(1),
                bytes,
            )?;
            bindings.push(b);
            bases.push(base);
        }
        let x = (len * groups).min(max_dim);
        let y = (len * groups).div_ceil(x);
        let p = params(&bases, len as u32);
        dev.guarded(op, || {
            dev.dispatch_grid(
                key,
                &p,
                &bindings,
                (x as u32, y as u32, 1),
                Work::computes(format!("matrices={len}"), flops_per_matrix * len),
            )
        })?;
        start += len;
    }
    Ok(())
}

/// What a one-invocation-per-matrix launch runs: a family's pipeline, or one generated at run
/// time (`tiny.rs`).
pub(crate) enum Kernel<'a> {
    Family(&'a PipelineKey),
    Generated(wgpu::ComputePipeline, LaunchName),
}

std::thread_local! {
    /// The GPU paths on CPU adapters too, on this thread (see [`force_gpu_paths`]).
    static FORCE_GPU_PATHS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Makes CPU adapters take the paths chosen for GPUs — the interleaved batch layout of the
/// one-invocation-per-matrix kernels, Jacobi by pairs for large `eigh`/`svd` — for the calls of
/// this thread, so that the suite (on lavapipe) runs them too. For tests.
#[doc(hidden)]
pub fn force_gpu_paths(on: bool) {
    FORCE_GPU_PATHS.with(|f| f.set(on));
}

/// Whether `a`'s adapter takes the GPU paths: not a CPU adapter, or forced on this thread.
pub(crate) fn gpu_paths(a: &Array) -> bool {
    !a.device().inner.is_cpu || FORCE_GPU_PATHS.with(|f| f.get())
}

/// A batch's layout for the one-invocation-per-matrix kernels.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// Each matrix row-major, one after another (what the array holds): no copy to reorder.
    RowMajor,
    /// Element (i, j) of every matrix together (`(i·cols + j)·len + b`): neighbouring
    /// invocations read neighbouring words, which a GPU coalesces.
    Interleaved,
}

/// Runs a one-invocation-per-matrix kernel (`key`) over a batch of `count` matrices: each of
/// `stacks` (count, rows, cols) is copied chunk by chunk (in `dtype`, interleaved on GPUs —
/// coalesced —, row-major on CPU adapters, where lavapipe gathers either way and the reorder
/// costs two copies), the kernel runs with its bindings in `stacks` order then `info` (one i32
/// per matrix), and the results come back as contiguous (count, rows, cols) arrays.
/// `params(len, info_base, strides)` is a chunk's uniform, `strides` each stack's (per-matrix,
/// per-element) strides. Chunks are as long as one storage binding and the grid allow.
pub(crate) fn one_per_invocation(
    op: &'static str,
    kernel: &Kernel,
    stacks: &[&Array],
    dtype: DType,
    info: &Array,
    flops_per_matrix: u64,
    params: impl Fn(u32, u32, &[(u32, u32)]) -> Vec<u8>,
) -> Result<Vec<Array>> {
    let count = info.len();
    let dev = &info.device().inner;
    let layout = if gpu_paths(info) {
        Layout::Interleaved
    } else {
        Layout::RowMajor
    };
    let outs: Vec<Array> = stacks
        .iter()
        .map(|s| Array::empty(op, info.device(), s.shape(), dtype))
        .collect::<Result<_>>()?;
    if count == 0 {
        return Ok(outs);
    }
    let bytes = dtype.size_bytes();
    let mut chunk = crate::ops::window_elements(dev, 4) as usize;
    for s in stacks {
        let per = s.len() / count;
        chunk = chunk.min(crate::ops::window_elements(dev, bytes) as usize / per.max(1));
    }
    // In u64: the grid's capacity (65535² workgroups) overflows wasm32's usize.
    let max_dim = dev.limits.max_compute_workgroups_per_dimension as u64;
    let grid = max_dim * max_dim * SMALL_WG as u64;
    chunk = chunk.min(grid.min(usize::MAX as u64) as usize);
    if chunk == 0 {
        return Err(Error::TooLarge {
            op,
            requested: (stacks[0].len() / count) as u64 * bytes,
            max: dev.max_window(),
            what: "bytes of one matrix (one storage binding)",
        });
    }
    let rows = |a: &Array, lo: usize, hi: usize| {
        let mut args = vec![SliceArg::range(Some(lo as isize), Some(hi as isize), 1)];
        args.extend(vec![SliceArg::range(None, None, 1); a.ndim() - 1]);
        a.slice(&args)
    };
    for (lo, hi) in runs(0, count, chunk) {
        let len = hi - lo;
        let chunks: Vec<Array> = stacks
            .iter()
            .map(|s| match layout {
                Layout::RowMajor => rows(s, lo, hi)?.astype(dtype),
                Layout::Interleaved => rows(s, lo, hi)?.transpose(&[1, 2, 0])?.astype(dtype),
            })
            .collect::<Result<_>>()?;
        let strides: Vec<(u32, u32)> = chunks
            .iter()
            .map(|c| match layout {
                Layout::RowMajor => ((c.len() / len) as u32, 1),
                Layout::Interleaved => (1, len as u32),
            })
            .collect();
        let mut bindings = Vec::with_capacity(stacks.len() + 1);
        for c in &chunks {
            bindings.push(crate::ops::contiguous_window(op, c, 0, c.len() as u64, bytes)?.0);
        }
        let (info_binding, info_base) =
            crate::ops::contiguous_window(op, info, lo as u64, len as u64, 4)?;
        bindings.push(info_binding);
        let groups = len.div_ceil(SMALL_WG as usize);
        let x = groups.min(max_dim as usize);
        let p = params(len as u32, info_base, &strides);
        let grid = (x as u32, groups.div_ceil(x) as u32, 1);
        let work = Work::computes(format!("matrices={len}"), flops_per_matrix * len as u64);
        dev.guarded(op, || match kernel {
            Kernel::Family(key) => dev.dispatch_grid(key, &p, &bindings, grid, work),
            Kernel::Generated(pipeline, name) => {
                let mut resources = vec![Resource::Uniform(&p)];
                resources.extend(bindings.iter().map(|&b| Resource::Storage(b)));
                dev.launch(pipeline, name, &resources, grid, work)
            }
        })?;
        for (out, c) in outs.iter().zip(&chunks) {
            match layout {
                Layout::RowMajor if len == count => return Ok(chunks),
                Layout::RowMajor => rows(out, lo, hi)?.assign(c)?,
                Layout::Interleaved => rows(out, lo, hi)?.assign(&c.transpose(&[2, 0, 1])?)?,
            }
        }
    }
    Ok(outs)
}

/// Whether one invocation per matrix suits a batch: `count` matrices (enough of them to fill
/// workgroups) whose whole factorization takes `iterations` loop iterations, within the budget.
pub(crate) fn one_invocation_each(a: &Array, count: usize, iterations: u64) -> bool {
    count >= SMALL_BATCH && iterations <= loop_budget(a)
}

/// Batches from this many matrices take the one-invocation-per-matrix kernels when they fit.
const SMALL_BATCH: usize = 32;

/// Invocations per workgroup of the one-invocation-per-matrix kernels.
pub(crate) const SMALL_WG: u32 = 64;

/// The pipeline key of `family` for `dtype` with `wg` invocations per workgroup.
pub(crate) fn key(family: &'static crate::device::KernelDef, dtype: DType, wg: u32) -> PipelineKey {
    PipelineKey::new(family, Variant::one(dtype)).with("WG", wg)
}

/// A batch of identity matrices `rows` × `cols` in `dtype`, contiguous and writable.
pub(crate) fn identities(
    a: &Array,
    stack: &Stack,
    rows: usize,
    cols: usize,
    dtype: DType,
) -> Result<Array> {
    Array::eye_k(a.device(), rows, cols, 0, dtype)?
        .broadcast_to(&stack.shape(&[rows, cols]))?
        .astype(dtype)
}

/// The first matrix whose `info` word is not zero, and that word.
fn first_failure(info: &[i32]) -> Option<(usize, i32)> {
    info.iter().position(|&i| i != 0).map(|at| (at, info[at]))
}

/// `Err(LinAlg)` for the first matrix whose `info` is not zero, its message from `what(info)`.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn check_info(op: &'static str, info: &Array, what: fn(i32) -> String) -> Result<()> {
    if info.is_empty() {
        return Ok(());
    }
    failure(op, &info.to_vec::<i32>()?, what)
}

/// [`check_info`] without blocking (every target).
pub(crate) async fn check_info_async(
    op: &'static str,
    info: &Array,
    what: fn(i32) -> String,
) -> Result<()> {
    if info.is_empty() {
        return Ok(());
    }
    failure(op, &info.to_vec_async::<i32>().await?, what)
}

fn failure(op: &'static str, info: &[i32], what: fn(i32) -> String) -> Result<()> {
    match first_failure(info) {
        Some((index, word)) => Err(Error::LinAlg {
            op,
            index: Some(index),
            msg: what(word),
        }),
        None => Ok(()),
    }
}

/// The last two axes swapped (`matrix_transpose`).
pub(crate) fn mt(a: &Array) -> Result<Array> {
    a.swapaxes(-1, -2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workgroups_are_powers_of_two_from_8_to_256() {
        assert_eq!(workgroup_size(1), 8);
        assert_eq!(workgroup_size(33), 64);
        assert_eq!(workgroup_size(4096), 256);
    }

    #[test]
    fn the_first_nonzero_info_fails() {
        assert_eq!(first_failure(&[0, 0, 3, 1]), Some((2, 3)));
        assert_eq!(first_failure(&[0, 0]), None);
    }
}
