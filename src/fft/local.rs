//! Whole transforms in workgroup memory (`shaders/fft_local.wgsl`): every radix pass of a
//! length up to [`local_max`] in one launch (one read and one write of the data), over
//! contiguous rows or along an axis that is not the last, in place, without a transposing copy.
//!
//! Longer lengths take one launch per pass (`shaders/fft.wgsl`). A four-step split of such a
//! length into two local launches (columns times their twiddles, then rows stored transposed)
//! lost to those passes on lavapipe (2^20: 347 ms against 233; each column's points lie a page
//! apart), so it is not built until a GPU can measure it.

use super::plan::factor;
use crate::array::Array;
use crate::device::params::Params;
use crate::device::{Binding, DeviceInner, KernelDef, PipelineKey, Variant, Work};
use crate::dtype::DType;
use crate::error::{Error, Result};

/// Invocations per workgroup: 64 on a GPU; 32 on a CPU adapter, which runs the invocations
/// between two barriers one SIMD group after another (lavapipe, 1024 × 1024 points: 146 ms
/// with 32, 155 with 64, 184 with 256).
fn workgroup_size(dev: &DeviceInner) -> u32 {
    if dev.is_cpu { 32 } else { 64 }
}
/// The longest transform one workgroup holds, whatever the adapter's workgroup memory.
const LOCAL_CAP: usize = 4096;
/// The override constants of the passes' radices (the longest length's passes: 3^7 = 2187).
const RADIX_NAMES: [&str; 8] = ["R0", "R1", "R2", "R3", "R4", "R5", "R6", "R7"];

fn source(v: Variant) -> String {
    super::kernels::with_prelude(v, include_str!("../../shaders/fft_local.wgsl"))
}

/// Every radix pass of whole transforms in workgroup memory.
pub(crate) static FFT_LOCAL: KernelDef = KernelDef::on_first_use(
    "fft_local",
    "local_fft",
    &[
        ("LMAX", 1024),
        ("N", 8),
        ("PER", 1),
        ("R0", 8),
        ("R1", 1),
        ("R2", 1),
        ("R3", 1),
        ("R4", 1),
        ("R5", 1),
        ("R6", 1),
        ("R7", 1),
        ("WG", 64),
    ],
    super::kernels::variants,
    source,
);

/// The longest transform of `real`'s complex dtype one workgroup holds on this device: the
/// largest power of two whose two halves (the passes ping-pong between them) fit the adapter's
/// workgroup memory, at most [`LOCAL_CAP`]. WebGPU's guaranteed 16 KiB
/// gives 1024 complex64 points.
pub(crate) fn local_max(dev: &DeviceInner, real: DType) -> usize {
    let room = dev.limits.max_compute_workgroup_storage_size as usize;
    let points = room / (2 * 2 * real.size_bytes() as usize);
    if points < 2 {
        return 0;
    }
    (1usize << points.ilog2()).min(LOCAL_CAP)
}

/// The transforms of length `n` along the middle axis of the contiguous `x`, viewed as
/// (rows, n, cols), by `table`'s plan (e^(-2πi·t/n), then the scales), times the table's entry
/// `scale_at`: a new array of `x`'s shape. Launches go window by window over whole rows.
#[allow(clippy::too_many_arguments)]
pub(crate) fn transform(
    op: &'static str,
    real: DType,
    table: &Array,
    x: &Array,
    (rows, n, cols): (u64, usize, u64),
    inverse: bool,
    scale_at: u64,
) -> Result<Array> {
    let dev = &x.device().inner;
    let eb = x.dtype().size_bytes();
    let lmax = local_max(dev, real);
    debug_assert!(x.is_contiguous() && n <= lmax && n >= 1);
    let radices = factor(n)
        .filter(|r| r.len() <= RADIX_NAMES.len())
        .ok_or_else(|| {
            Error::invalid(
                op,
                format!("length {n} is not a product of the kernel's radices"),
            )
        })?;
    let row = n as u64 * cols;
    let per_launch = rows_per_launch(dev, real, n, cols);
    if per_launch == 0 {
        return Err(Error::TooLarge {
            op,
            requested: row * eb,
            max: dev.max_window(),
            what: "bytes of one row of transforms (one storage binding and one grid)",
        });
    }
    let out = Array::empty(op, x.device(), x.shape(), x.dtype())?;
    let per_group = (lmax / n).max(1) as u64;
    let max_dim = dev.limits.max_compute_workgroups_per_dimension as u64;
    let mut key = PipelineKey::new(&FFT_LOCAL, Variant::one(real))
        .with("LMAX", lmax as u32)
        .with("WG", workgroup_size(dev))
        .with("N", n as u32)
        .with("PER", per_group as u32);
    for (name, i) in RADIX_NAMES.iter().zip(0..) {
        key = key.with(name, radices.get(i).map_or(1, |&r| r as u32));
    }
    let (tw, tw_base) = crate::ops::contiguous_window(op, table, 0, table.len() as u64, eb)?;
    let flops_per: u64 = radices
        .iter()
        .map(|&r| (n / r * (8 * r * r.min(3) + 6)) as u64)
        .sum();
    let mut start = 0;
    while start < rows {
        let len = per_launch.min(rows - start);
        let (xw, xb) = crate::ops::contiguous_window(op, x, start * row, len * row, eb)?;
        let (yw, yb) = crate::ops::contiguous_window(op, &out, start * row, len * row, eb)?;
        let count = len * cols;
        let params = Params::default()
            .u32(count as u32)
            .u32(cols as u32)
            .u32(xb)
            .u32(yb)
            .u32(tw_base)
            .u32(u32::from(inverse))
            .u32(scale_at as u32)
            .bytes()
            .to_vec();
        let bindings: [Binding; 3] = [xw, yw, tw];
        let groups = count.div_ceil(per_group);
        let gx = groups.min(max_dim);
        let gy = groups.div_ceil(gx);
        dev.guarded(op, || {
            dev.dispatch_grid(
                &key,
                &params,
                &bindings,
                (gx as u32, gy as u32, 1),
                Work::computes(format!("transforms={count} n={n}"), flops_per * count),
            )
        })?;
        start += len;
    }
    Ok(out)
}

/// How many rows of `cols` length-`n` transforms one launch takes: as many as one binding
/// window and one grid hold (0: not even one).
pub(crate) fn rows_per_launch(dev: &DeviceInner, real: DType, n: usize, cols: u64) -> u64 {
    let elem = 2 * real.size_bytes();
    let max_dim = dev.limits.max_compute_workgroups_per_dimension as u64;
    let per_group = (local_max(dev, real) / n).max(1) as u64;
    let transforms = (max_dim * max_dim).min(u32::MAX as u64) * per_group;
    (crate::ops::window_elements(dev, elem) / (n as u64 * cols)).min(transforms / cols.max(1))
}
