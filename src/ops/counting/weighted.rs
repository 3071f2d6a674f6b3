//! Weighted counts (`bincount` and `histogram` with `weights`) in NumPy's order: the elements
//! stably sorted by bin, so each bin's weights lie together in index order, then one invocation
//! per bin adds them in sequence in f64 (`shaders/bincount_weights.wgsl`). The additions are
//! NumPy's own, one by one from 0.0, so the sums have its bits, and no atomics make them depend
//! on the order the adds land in.

use crate::Device;
use crate::array::Array;
use crate::device::params::Params;
use crate::device::{PipelineKey, Variant};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::Axes;
use crate::ops::search::Side;
use crate::ops::sort::sort_by_key;
use crate::ops::{contiguous_window, window_elements};

/// The weights one launch adds per bin (the shader's `CHUNK`).
const CHUNK: u64 = 16384;

/// `bins` zero sums (f64), refused before anything is allocated when f64 is missing or they
/// would not fit the one storage binding the kernel writes them through.
pub(super) fn zero_sums(op: &'static str, device: &Device, bins: usize) -> Result<Array> {
    if !device.supports(DType::F64) {
        return Err(Error::Unsupported {
            op,
            feature: "weights are summed in float64 (NumPy's dtype), which this adapter lacks"
                .into(),
        });
    }
    super::zeros_in_one_binding(
        op,
        device,
        bins,
        DType::F64,
        "weighted counts (f64, one storage binding)",
    )
}

/// The f64 sum of `weights` (1-d, any dtype) for each value `0..bins` of the contiguous 1-d
/// i32/u32 `values` (of the same length; larger values are dropped), each sum in index order.
pub(super) fn sums(
    op: &'static str,
    values: &Array,
    weights: &Array,
    bins: usize,
) -> Result<Array> {
    let out = zero_sums(op, values.device(), bins)?;
    let n = values.len() as u64;
    if n == 0 || bins == 0 {
        return Ok(out);
    }
    // Stable: equal values keep their index order, so each bin's weights stay in that order.
    let (sorted, sorted_weights) = sort_by_key(op, values, &weights.astype(DType::F64)?)?;
    let bin_values = Array::arange(values.device(), 0.0, bins as f64, 1.0, values.dtype())?;
    let start = sorted.searchsorted_i32(&bin_values, Side::Left)?;
    let end = sorted.searchsorted_i32(&bin_values, Side::Right)?;
    let longest = end.sub(&start)?.max(Axes::All, false)?.to_vec::<i32>()?[0] as u64;
    let dev = &values.device.inner;
    let key = PipelineKey::new(&BINCOUNT_WEIGHTS, Variant::one(DType::F64));
    let bins = bins as u64;
    let (start_bind, start_base) = contiguous_window(op, &start, 0, bins, 4)?;
    let (end_bind, end_base) = contiguous_window(op, &end, 0, bins, 4)?;
    let (out_bind, out_base) = contiguous_window(op, &out, 0, bins, 8)?;
    debug_assert!(start_base == 0 && end_base == 0 && out_base == 0);
    // Window by window of the sorted weights, each in launches of CHUNK additions per bin: every
    // launch continues the running sums where the one before stopped.
    let run = window_elements(dev, 8);
    let mut lo = 0;
    while lo < n {
        let len = run.min(n - lo);
        let (w_bind, w_base) = contiguous_window(op, &sorted_weights, lo, len, 8)?;
        let mut skip = 0;
        while skip < longest.min(len) {
            let mut p = Params::default();
            p.u32(bins as u32)
                .u32(lo as u32)
                .u32(len as u32)
                .u32(w_base)
                .u32(skip as u32);
            let binds = [start_bind, end_bind, w_bind, out_bind];
            dev.guarded(op, || dev.dispatch(&key, p.bytes(), &binds, bins, &[bins]))?;
            skip += CHUNK;
        }
        lo += len;
    }
    Ok(out)
}

/// Weighted counts, each bin's weights added in sequence in f64
/// (`shaders/bincount_weights.wgsl`; software binary64 where f64 is emulated). Declared for the
/// device; compiled on first use.
pub(crate) static BINCOUNT_WEIGHTS: crate::device::KernelDef = crate::device::KernelDef {
    soft_f64: true,
    packed_f16: false,
    ..crate::device::KernelDef::on_first_use(
        "bincount_weights",
        "main",
        &[("WG", crate::device::DEFAULT_WG)],
        |dtypes| {
            dtypes
                .iter()
                .copied()
                .filter(|&d| d == crate::dtype::DType::F64)
                .map(crate::device::Variant::one)
                .collect()
        },
        |v| {
            let arithmetic = if v.soft {
                "alias W = vec2<u32>;\nfn w_add(a: W, b: W) -> W { return f64s_add(a, b); }\n"
                    .to_string()
                    + &crate::device::wgsl_helpers::soft_f64_library()
            } else {
                "alias W = f64;\nfn w_add(a: W, b: W) -> W { return a + b; }\n".to_string()
            };
            arithmetic + include_str!("../../../shaders/bincount_weights.wgsl")
        },
    )
};
