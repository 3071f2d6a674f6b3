//! The host side of matmul: NumPy's semantics (1-D promotion, batch broadcasting), the choice of
//! kernel (GEMV, shared-memory tiles, subgroup broadcast), packing, and splitting any problem into
//! launches whose operands fit one storage binding each (chunks over batch, rows, columns and K;
//! later K chunks accumulate).

pub(crate) mod families;
mod ozaki;
mod plan;
#[cfg(not(target_arch = "wasm32"))]
mod record;
mod sgb;
mod sgb_source;
mod strided;
mod tune;

use self::families::{MATMUL_NAIVE, MATMUL_PAIRS};
use self::plan::for_each_batch;
use self::sgb::{
    Store, in_place_target, run_sgb, run_sgb_k_chunks, sgb_fits, takes_k_chunks, unfit,
};
use self::sgb_source::TILE_ROWS;
use self::strided::{launch_narrow, launch_strided, launch_tiled};
use self::tune::tuned_kernel;
use crate::array::Array;
use crate::device::DeviceInner;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::broadcast_shapes;
use std::time::Duration;

const OP: &str = "matmul";

/// Batches per launch: the z dimension of the grid.
const MAX_BATCH: u64 = 65535;

/// Loop iterations one invocation may run: lavapipe ends all loops of an invocation after 65535
/// iterations in total, so long K is split into launches that accumulate.
const MAX_LOOP_TRIPS: u64 = 32768;
/// Products of at least this many multiply-adds (and every side at least 8) take the tuned
/// kernel: the smallest the tune's kernels were first offered for, 64 × 64 × 32.
const SGB_FROM_FLOPS: u64 = 64 * 64 * 32;
/// Products whose C has fewer columns or rows than this take the GEMV kernel per column (or
/// row) of C (`strided::launch_narrow`) unless a kernel is asked for.
const NARROW_BELOW: u64 = 8;

/// The f32 kernel a device uses for large matmuls, chosen by a one-time tune.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatmulKernel {
    /// One invocation per output element: the textbook baseline.
    Naive,
    /// Shared-memory tiles (64 x 64 per workgroup, 4 x 4 per invocation): the GPU kernel.
    Tiled,
    /// Subgroup-broadcast register tiles of `rows` x 8 per invocation (adapters with 8-wide
    /// subgroups, such as lavapipe).
    SubgroupBroadcast {
        /// Rows of C per invocation.
        rows: u32,
    },
}

impl std::fmt::Display for MatmulKernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MatmulKernel::Naive => f.write_str("naive (one output per invocation)"),
            MatmulKernel::Tiled => f.write_str("tiled 64x64 (shared memory, 4x4 per invocation)"),
            MatmulKernel::SubgroupBroadcast { rows } => {
                write!(f, "subgroup-broadcast {rows}x8 per invocation")
            }
        }
    }
}

/// What the first large f32 matmul on a device measured to choose its kernel.
#[derive(Debug, Clone)]
pub struct MatmulTuning {
    /// The kernel chosen.
    pub chosen: MatmulKernel,
    /// Each candidate with its GFLOP/s on the tuning problem (compile excluded).
    pub candidates: Vec<(MatmulKernel, f64)>,
    /// The tuning problem's (M, N, K).
    pub shape: (usize, usize, usize),
    /// Wall time of the whole tune, kernel compilation included.
    pub elapsed: Duration,
    /// Candidates left out because their result differed from the first candidate's (a driver
    /// that breaks a kernel's assumptions), with the reason. Normally empty; the test suite fails
    /// when it is not, so a broken kernel cannot drop out of use unnoticed.
    pub rejected: Vec<(MatmulKernel, String)>,
    /// Read from the cache a previous run on this adapter, driver and build saved — with the
    /// disk cache off, an earlier device of this process — (the figures are that run's;
    /// `elapsed` is its tune's). `GPUARRAY_RETUNE=1` tunes again.
    pub from_cache: bool,
}

/// `numpy.matmul(a, b)`, with the kernel chosen automatically or forced.
pub(crate) fn matmul(a: &Array, b: &Array, forced: Option<MatmulKernel>) -> Result<Array> {
    a.same_device(OP, b)?;
    if a.dtype() != b.dtype() {
        return Err(Error::DTypeMismatch {
            op: OP,
            expected: a.dtype(),
            got: b.dtype(),
        });
    }
    if a.dtype() == DType::Bool {
        return Err(Error::Unsupported {
            op: OP,
            feature: "bool operands (NumPy's boolean matmul); use astype to a numeric dtype".into(),
        });
    }
    if let Some(wide) = widened(a) {
        // 8- and 16-bit integers multiply and add in i32/u32: wrapping there and narrowing back
        // gives the same bits as wrapping in the narrow dtype. Packed f16 multiplies in f32 (as
        // native f16 accumulates) and rounds each result once.
        return matmul(&a.astype(wide)?, &b.astype(wide)?, forced)?.astype(a.dtype());
    }
    if a.ndim() == 0 || b.ndim() == 0 {
        return Err(Error::shape(
            OP,
            format!(
                "operands must have at least one dimension (shapes {:?} and {:?}); use mul for scalars",
                a.shape(),
                b.shape()
            ),
        ));
    }
    let a2 = if a.ndim() == 1 {
        a.expand_dims(0)?
    } else {
        a.clone()
    };
    let b2 = if b.ndim() == 1 {
        b.expand_dims(-1)?
    } else {
        b.clone()
    };
    let (m, ka) = (a2.shape()[a2.ndim() - 2], a2.shape()[a2.ndim() - 1]);
    let (kb, n) = (b2.shape()[b2.ndim() - 2], b2.shape()[b2.ndim() - 1]);
    if ka != kb {
        return Err(Error::shape(
            OP,
            format!(
                "shapes {:?} and {:?} do not align: the last axis of the first has {ka} elements, the second-to-last of the second {kb}",
                a.shape(),
                b.shape()
            ),
        ));
    }
    let batch = broadcast_shapes(
        OP,
        &[&a2.shape()[..a2.ndim() - 2], &b2.shape()[..b2.ndim() - 2]],
    )
    .map_err(|e| match e {
        Error::Shape { .. } => Error::shape(
            OP,
            format!(
                "batch dimensions of shapes {:?} and {:?} do not broadcast",
                a.shape(),
                b.shape()
            ),
        ),
        other => other,
    })?;
    let mut full: Vec<usize> = batch.clone();
    full.extend([m, n]);
    let mut out_shape: Vec<usize> = batch.clone();
    if a.ndim() > 1 {
        out_shape.push(m);
    }
    if b.ndim() > 1 {
        out_shape.push(n);
    }
    let dev = &a.device().inner;
    let c = if ka == 0 {
        // An empty sum: zeros, like NumPy.
        Array::zeros(a.device(), &full, a.dtype())?
    } else {
        let c = Array::empty(OP, a.device(), &full, a.dtype())?;
        if !c.is_empty() {
            let mut ab = batch.clone();
            ab.extend([m, ka]);
            let mut bb = batch.clone();
            bb.extend([ka, n]);
            let batched_a = a2.ndim() > 2;
            let batched_b = b2.ndim() > 2;
            run(
                dev,
                forced,
                &a2.broadcast_to(&ab)?,
                batched_a,
                &b2.broadcast_to(&bb)?,
                batched_b,
                &c,
            )?;
        }
        c
    };
    let shape: Vec<isize> = out_shape.iter().map(|&d| d as isize).collect();
    c.reshape(&shape)
}

/// The one-word dtype the products of `a`'s packed dtype are computed in: i32/u32 for the 8/16-bit
/// integers, f32 for packed f16 (a device without shader-f16).
pub(crate) fn widened(a: &Array) -> Option<DType> {
    match a.dtype() {
        DType::I8 | DType::I16 => Some(DType::I32),
        DType::U8 | DType::U16 => Some(DType::U32),
        DType::F16 if a.device().inner.f16_emulated => Some(DType::F32),
        _ => None,
    }
}

/// `c[...] = a @ b` for 3-d views `(batch, M, K) @ (batch, K, N)` into the `(batch, M, N)` view
/// `c`, which must not share memory with `a` or `b`; a batch stride of 0 broadcasts an operand.
pub(crate) fn matmul_into(a: &Array, b: &Array, c: &Array) -> Result<()> {
    if c.is_empty() {
        return Ok(());
    }
    if a.shape()[2] == 0 {
        return c.fill(0.0);
    }
    let batched = |x: &Array| x.shape()[0] > 1 && x.strides()[0] != 0;
    run(&c.device().inner, None, a, batched(a), b, batched(b), c)
}

/// `c -= a @ b` in place, for f32 or f64 views (`..., M, K`), (`..., K, N`) and (`..., M, N`) of
/// equal batch shape (a blocked factorization's trailing update, A22 -= L21 @ U12). Where the
/// tuned kernel takes the product and `c`'s rows are whole vec4s it subtracts as it stores,
/// with no temporary and no second pass over `c`; otherwise the product is formed and
/// subtracted. `a` and `b` may be views of `c`'s array (outside `c`): they are copied first,
/// as a binding cannot be read and written by one launch.
pub(crate) fn matmul_sub_into(a: &Array, b: &Array, c: &Array) -> Result<()> {
    let nd = c.ndim();
    if c.is_empty() || a.shape()[nd - 1] == 0 {
        return Ok(());
    }
    let dev = &c.device().inner;
    let (m, n, k) = (
        c.shape()[nd - 2] as u64,
        c.shape()[nd - 1] as u64,
        a.shape()[nd - 1] as u64,
    );
    let fused = a.dtype() == b.dtype()
        && a.dtype() == c.dtype()
        && takes_tuned(dev, c.dtype(), m, n, k)
        && in_place_target(c);
    let rows = if fused {
        match tuned_kernel(dev, c.device())?.chosen {
            MatmulKernel::SubgroupBroadcast { rows } => Some(rows),
            _ => None,
        }
    } else {
        None
    };
    let Some(rows) = rows else {
        return c.sub_assign(&a.matmul(b)?);
    };
    let apart = |x: &Array| -> Result<Array> {
        if x.may_share_memory(c) {
            x.astype(x.dtype())
        } else {
            Ok(x.clone())
        }
    };
    let (a, b) = (apart(a)?, apart(b)?);
    let batched = nd > 2;
    match run_sgb(dev, rows, &a, batched, &b, batched, c, Store::Subtract) {
        Err(e) if unfit(&e) => c.sub_assign(&a.matmul(&b)?),
        done => done,
    }
}

/// Whether the tuned kernel takes an M × K by K × N product of `dtype` (when no kernel is
/// forced): f32, every side at least 8, at least 64·64·32 multiply-adds, and the kernel's
/// smallest launch within one binding.
fn takes_tuned(dev: &DeviceInner, dtype: DType, m: u64, n: u64, k: u64) -> bool {
    dtype == DType::F32
        && m.min(n).min(k) >= 8
        && m * n * k >= SGB_FROM_FLOPS
        && sgb_fits(dev, k, n)
}

/// `c = a @ b` for batch-broadcast 3+-d views of equal batch shape; `c` does not alias them.
fn run(
    dev: &DeviceInner,
    forced: Option<MatmulKernel>,
    a: &Array,
    batched_a: bool,
    b: &Array,
    batched_b: bool,
    c: &Array,
) -> Result<()> {
    let nd = c.ndim();
    let (m, n, k) = (
        c.shape()[nd - 2] as u64,
        c.shape()[nd - 1] as u64,
        a.shape()[nd - 1] as u64,
    );
    let kernel = match forced {
        Some(MatmulKernel::SubgroupBroadcast { rows }) => {
            if a.dtype() != DType::F32 || !dev.has_subgroups_of_8() || !TILE_ROWS.contains(&rows) {
                return Err(Error::Unsupported {
                    op: OP,
                    feature: format!(
                        "the subgroup-broadcast kernel ({rows} rows) needs f32 (got {}), rows in {TILE_ROWS:?}, and an adapter with 8-wide subgroups",
                        a.dtype()
                    ),
                });
            }
            Some(MatmulKernel::SubgroupBroadcast { rows })
        }
        Some(other) => Some(other),
        None if m.min(n) < NARROW_BELOW => None,
        // The subgroup kernel but for a K too long for 64 rows of A in one binding: in chunks
        // of K (where the tune chose it).
        None if a.dtype() == DType::F32
            && m.min(k) >= 8
            && takes_k_chunks(dev, c.shape()[..nd - 2].iter().product(), n, k) =>
        {
            match tuned_kernel(dev, a.device())?.chosen {
                MatmulKernel::SubgroupBroadcast { rows } => {
                    match run_sgb_k_chunks(dev, rows, a, batched_a, b, batched_b, c) {
                        // C's 64 rows past one binding: found at the first chunk, before
                        // anything was written.
                        Err(e) if unfit(&e) => Some(MatmulKernel::Tiled),
                        done => return done,
                    }
                }
                other => Some(other),
            }
        }
        // Narrow products too (a blocked factorization's panel times the trailing matrix,
        // 1024 × 1024 × 32: 10× faster on lavapipe than the tiled kernel), but not products
        // too small to be worth the first call's tune (the same cut for every call, so that a
        // shape's kernel — and its bits — never depend on what ran before).
        None if takes_tuned(dev, a.dtype(), m, n, k) => Some(tuned_kernel(dev, a.device())?.chosen),
        None => Some(MatmulKernel::Tiled),
    };
    match kernel {
        Some(MatmulKernel::SubgroupBroadcast { rows }) => {
            match run_sgb(dev, rows, a, batched_a, b, batched_b, c, Store::Write) {
                // The tuned choice, not one asked for: the tiled kernel where no launch fits.
                Err(e) if forced.is_none() && unfit(&e) => {
                    for_each_batch(a, b, c, |p| launch_tiled(dev, &p))
                }
                done => done,
            }
        }
        // Software f64 of a large enough product: exact integer products on the f32 kernels
        // (the Ozaki scheme), unless a kernel was asked for.
        _ if a.dtype() == DType::F64
            && forced.is_none()
            && ozaki::applies(
                dev,
                c.shape()[..nd - 2].iter().product::<usize>() as u64,
                m,
                n,
                k,
            ) =>
        {
            ozaki::run(a, b, c)
        }
        // int64/uint64 whatever the shape, and the rest of software f64 but matrix-vector
        // products (the GEMV kernel has a software-f64 variant in the native kernel's order):
        // the word-pair kernel.
        _ if matches!(a.dtype(), DType::I64 | DType::U64)
            || (a.dtype() == DType::F64 && dev.f64_emulated && kernel.is_some()) =>
        {
            for_each_batch(a, b, c, |p| launch_strided(dev, &p, &MATMUL_PAIRS))
        }
        Some(MatmulKernel::Tiled) => for_each_batch(a, b, c, |p| launch_tiled(dev, &p)),
        Some(MatmulKernel::Naive) => {
            for_each_batch(a, b, c, |p| launch_strided(dev, &p, &MATMUL_NAIVE))
        }
        None => for_each_batch(a, b, c, |p| launch_narrow(dev, &p)),
    }
}
