//! f64 draws on a device that emulates f64 (`F64Mode::Emulated`): the Philox kernel draws the
//! stream's words as bits, in order, from the same position, and `shaders/philox_wide_soft.wgsl`
//! turns each four words into two f64 values with the native kernel's steps in software
//! binary64. The draw consumes the same words, so it gives the native path's values (bit for bit
//! for random and uniform draws, whose steps are exact).

use super::families::PHILOX_WIDE_SOFT;
use super::launch::{Dist, Extra, generate};
use super::philox::StreamPos;
use crate::array::Array;
use crate::device::params::Params;
use crate::device::{Binding, PipelineKey, Variant};
use crate::dtype::DType;
use crate::error::Result;

/// Whether `out`'s draw takes this path.
pub(crate) fn applies(out: &Array) -> bool {
    out.dtype() == DType::F64 && out.device().inner.f64_emulated
}

/// Fills the fresh contiguous f64 array `out` with `dist` from `start` (the caller advances the
/// stream by `dist.words(out.len())`, as for every draw).
pub(crate) fn generate_soft(
    op: &'static str,
    out: &Array,
    start: StreamPos,
    dist: Dist,
    extra: &Extra,
) -> Result<()> {
    // `generate` checked the device and returned for empty draws before handing over.
    let dev = &out.device().inner;
    let n = out.len() as u64;
    if !matches!(
        dist,
        Dist::RandomWide | Dist::UniformWide | Dist::NormalWide | Dist::ExponentialWide
    ) {
        // One word per output (Bernoulli's 0 and 1): the f32 draw's values, widened exactly.
        let narrow = Array::empty(op, out.device(), out.shape(), DType::F32)?;
        generate(op, &narrow, start, dist, extra)?;
        return crate::array::copy::copy_into(op, &narrow, out);
    }
    // Four words per pair of outputs; an odd count's last pair draws two words it never uses
    // (the stream still advances by `dist.words(n)`).
    let pairs = n.div_ceil(2);
    let words = Array::empty(op, out.device(), &[pairs as usize * 4], DType::U32)?;
    generate(op, &words, start, Dist::Bits, extra)?;
    let (ws, _) = words.storage_and_layout();
    let (os, _) = out.storage_and_layout();
    let (wbuf, obuf) = (
        ws.buffer().expect("non-empty"),
        os.buffer().expect("non-empty"),
    );
    // Pairs per launch: 16 bytes of words and of output each, in whole 256-byte blocks (storage
    // offsets stay aligned) within one binding.
    let per_launch = (dev.block_limits().max_binding / 256).max(1) * 16;
    let key =
        PipelineKey::new(&PHILOX_WIDE_SOFT, Variant::one(DType::F64)).with("DIST", dist as u32);
    dev.guarded(op, || {
        let mut first = 0u64;
        while first < pairs {
            let len = per_launch.min(pairs - first);
            let outputs = (n - 2 * first).min(2 * len);
            let mut p = Params::default();
            p.u32(outputs as u32)
                .u32(0)
                .u64(extra.fa.to_bits())
                .u64(extra.fb.to_bits());
            let bindings = [
                Binding {
                    buffer: wbuf,
                    offset: first * 16,
                    size: len * 16,
                },
                Binding {
                    buffer: obuf,
                    offset: first * 16,
                    size: outputs * 8,
                },
            ];
            dev.dispatch(&key, p.bytes(), &bindings, len, &[outputs])?;
            first += len;
        }
        Ok(())
    })
}
