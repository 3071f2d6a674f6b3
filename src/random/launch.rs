//! Launching `shaders/philox.wgsl`: its distributions, pipeline keys, uniform parameters and the
//! split of one draw into launches that fit the adapter's binding limit.

use super::philox::StreamPos;
use crate::array::{Array, Storage};
use crate::device::params::Params;
use crate::device::{Binding, DeviceInner, PipelineKey, Variant};
use crate::dtype::DType;
use crate::error::{Error, Result};

/// The kernel's `DIST` override values (the `DIST_*` constants in `philox.wgsl`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dist {
    Bits = 0,
    Random = 1,
    RandomWide = 2,
    Uniform = 3,
    UniformWide = 4,
    Normal = 5,
    NormalWide = 6,
    Exponential = 7,
    ExponentialWide = 8,
    Bernoulli = 9,
    IntDirect = 10,
    IntCount = 11,
    IntEmit = 12,
}

impl Dist {
    /// Stream words per output: 2 for the 53-bit (f64) distributions, else 1 (a Box–Muller
    /// pair takes 2 words for 2 outputs).
    pub fn words_per_output(self) -> u64 {
        match self {
            Dist::RandomWide | Dist::UniformWide | Dist::NormalWide | Dist::ExponentialWide => 2,
            _ => 1,
        }
    }

    /// Stream words one call consumes for `n` outputs (Box–Muller pairs are never split).
    pub fn words(self, n: u64) -> Option<u64> {
        match self {
            Dist::Normal => n.checked_add(1).map(|m| m / 2 * 2),
            Dist::NormalWide => n.checked_add(1).and_then(|m| (m / 2).checked_mul(4)),
            Dist::RandomWide | Dist::UniformWide | Dist::ExponentialWide => n.checked_mul(2),
            _ => Some(n),
        }
    }
}

/// Workgroup size and 16-word units per invocation of the generation launches. Measured on
/// lavapipe (2 cores): 4 units per invocation and 256 invocations per workgroup run normals
/// ~1.4x faster than 1 and 64 (fewer, longer coroutines); 8 x 128 is the same, 32 x 64 slower.
const WG: u32 = 256;
const EPT: u32 = 4;
/// Units per invocation for large launches on CPU adapters: lavapipe pays a fixed start-up per
/// workgroup (the kernel's prologue, which loads every constant, is ~7 % of a 4-unit launch's
/// profile), and 64 units (a 1 MiB workgroup of f32) amortise it: normals +14-20 %, uniforms +6-15 %, bits +4 % over 4
/// in draw-by-draw interleaved runs at 2^26. GPUs keep 4, which spreads a 2^20-sample draw over
/// 16,384 invocations.
const EPT_CPU: u32 = 64;
/// Launches below this many units use `EPT` even on a CPU, so that a draw still makes several
/// workgroups for the CPU's threads to share (2^18 units, 4 M words: 16 workgroups at `EPT_CPU`).
const CPU_LONG_LAUNCH_UNITS: u64 = 1 << 18;
/// Stream words per unit (one invocation's four Philox blocks).
pub(crate) const UNIT_WORDS: u64 = 16;

/// The pipeline of `dist` writing `dtype` on `dev`, for runs that start at word `phase` of a
/// block (`phase != 0` selects the PHASED variant) and launches of `units` units (or tiles).
/// The SHADER_INT64 backend where the device has it and the dtype is 4 bytes wide.
pub(crate) fn key(
    dev: &DeviceInner,
    dtype: DType,
    dist: Dist,
    phase: u32,
    units: u64,
) -> PipelineKey {
    key_out16(dev, dtype, dist, phase, units, dtype == DType::F16)
}

/// [`key`], with `out16` saying whether the values are f16's (f32 output for packed f16 then
/// rounds uniforms to f16 as an f16 output would).
fn key_out16(
    dev: &DeviceInner,
    dtype: DType,
    dist: Dist,
    phase: u32,
    units: u64,
    out16: bool,
) -> PipelineKey {
    let ept = match dist {
        // Integer passes walk a 256-word tile per invocation: one tile each.
        Dist::IntCount | Dist::IntEmit => 1,
        _ if dev.is_cpu && units >= CPU_LONG_LAUNCH_UNITS => EPT_CPU,
        _ => EPT,
    };
    let int64 = dev.device.features().contains(wgpu::Features::SHADER_INT64);
    let kernel = if super::families::uses_int64(int64, dtype) {
        &super::families::PHILOX64
    } else {
        &super::families::PHILOX
    };
    let mut k = PipelineKey::new(kernel, Variant::one(dtype));
    k.constants = vec![
        ("DIST", dist as u32),
        ("EPT", ept),
        ("OUT16", u32::from(out16)),
        ("PHASED", u32::from(phase != 0)),
        ("WG", WG),
    ];
    k
}

/// The scalar parameters of a distribution (`ilo`, `irange`, `ithresh`, `fa`, `fb` in the
/// kernel's `Params`).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Extra {
    pub ilo: u32,
    pub irange: u32,
    pub ithresh: u32,
    pub fa: f64,
    pub fb: f64,
}

/// One launch's uniform block.
pub(crate) struct Run {
    /// Position of the launch's first word.
    pub start: StreamPos,
    /// Elements the launch may write (read by the integer pass 2; generation launches write
    /// whole units).
    pub count: u32,
    /// 16-word units (or integer tiles).
    pub units: u32,
}

pub(crate) fn params(run: &Run, extra: &Extra, dtype: DType) -> Params {
    let mut p = Params::default();
    for w in run.start.counter() {
        p.u32(w);
    }
    p.u32(run.start.key[0]).u32(run.start.key[1]);
    p.u32(run.start.phase)
        .u32(run.count)
        .u32(run.units)
        .u32(extra.ilo)
        .u32(extra.irange)
        .u32(extra.ithresh);
    if dtype == DType::F64 {
        p.f64(extra.fa).f64(extra.fb);
    } else {
        p.f32(extra.fa as f32).f32(extra.fb as f32);
    }
    p
}

/// Element offsets of the launches are multiples of this: keeps binding offsets aligned for
/// every dtype (1024 elements of 2 bytes = 2 KiB, beyond any adapter's offset alignment) and
/// Box–Muller pairs whole.
pub(crate) const CHUNK_ALIGN: u64 = 1024;

/// Splits `n` elements of `elem_bytes` into `(first, len)` launches whose bindings fit
/// `max_binding` bytes, every `first` a multiple of [`CHUNK_ALIGN`].
pub(crate) fn chunks(n: u64, elem_bytes: u64, max_binding: u64) -> Vec<(u64, u64)> {
    let per = (max_binding / elem_bytes / CHUNK_ALIGN * CHUNK_ALIGN).clamp(CHUNK_ALIGN, 1 << 30);
    let mut out = Vec::new();
    let mut first = 0;
    while first < n {
        let len = per.min(n - first);
        out.push((first, len));
        first += len;
    }
    out
}

/// Fills the fresh contiguous array `out` with `dist`, its first word at `start`. Consumes
/// `dist.words(out.len())` words; the caller advances its stream.
///
/// Launches cover whole 16-word units. The whole units go straight into `out`, in launches that
/// fit the binding limit; a last, partial unit is generated into a scratch unit and the part
/// that belongs to `out` is copied over, so every element comes from the same kernel code
/// whatever the draw's length.
pub(crate) fn generate(
    op: &'static str,
    out: &Array,
    start: StreamPos,
    dist: Dist,
    extra: &Extra,
) -> Result<()> {
    let dev = &out.device.inner;
    dev.check_alive(op)?;
    let n = out.len() as u64;
    if n == 0 {
        return Ok(());
    }
    if super::soft_f64::applies(out) {
        return super::soft_f64::generate_soft(op, out, start, dist, extra);
    }
    if out.dtype == DType::F16 && dev.f16_emulated {
        // Packed f16 (no shader-f16): the f32 kernel computing f16's values (uniforms rounded
        // to f16 first, OUT16), each then rounded to f16 on its way into `out`.
        let wide = Array::empty(op, &out.device, out.shape(), DType::F32)?;
        generate_values(op, &wide, start, dist, extra, true)?;
        return crate::array::copy::copy_into(op, &wide, out);
    }
    generate_values(op, out, start, dist, extra, out.dtype == DType::F16)
}

/// [`generate`] on the kernel itself, `out16` as in [`key_out16`].
fn generate_values(
    op: &'static str,
    out: &Array,
    start: StreamPos,
    dist: Dist,
    extra: &Extra,
    out16: bool,
) -> Result<()> {
    let dev = &out.device.inner;
    let n = out.len() as u64;
    let (storage, _) = out.storage_and_layout();
    let eb = out.dtype.size_bytes();
    let wpo = dist.words_per_output();
    let per_unit = UNIT_WORDS / wpo;
    let whole = n / per_unit * per_unit;
    let launches = chunks(whole, eb, dev.block_limits().max_binding);
    let scratch = if whole < n {
        Some(Array::empty(
            op,
            &out.device,
            &[per_unit as usize],
            out.dtype,
        )?)
    } else {
        None
    };
    let key_for =
        |units: u32| key_out16(dev, out.dtype, dist, start.phase, u64::from(units), out16);
    let spare = Spare::of(dev);
    dev.guarded(op, || {
        // The scratch unit reuses the last whole launch's pipeline (results never depend on the
        // launch shape), so a draw with a tail compiles nothing extra.
        let mut last_key = None;
        for &(first, len) in &launches {
            let run = Run {
                start: start.advanced(first * wpo),
                count: len as u32,
                units: (len / per_unit) as u32,
            };
            let key = key_for(run.units);
            launch(
                dev,
                &key,
                &run,
                extra,
                out.dtype,
                &output_bindings(storage, first * eb, len * eb, &spare),
            )?;
            last_key = Some(key);
        }
        if let Some(scratch) = &scratch {
            let (sst, _) = scratch.storage_and_layout();
            let run = Run {
                start: start.advanced(whole * wpo),
                count: per_unit as u32,
                units: 1,
            };
            launch(
                dev,
                &last_key.unwrap_or_else(|| key_for(1)),
                &run,
                extra,
                out.dtype,
                &output_bindings(sst, 0, per_unit * eb, &spare),
            )?;
            let (src, dst) = (sst.buffer(), storage.buffer());
            let (src, dst) = (src.expect("non-empty"), dst.expect("non-empty"));
            // Offsets are multiples of 4 (whole units); an odd f16 tail copies one padding half.
            let bytes = ((n - whole) * eb).next_multiple_of(4);
            dev.record(|enc| enc.copy_buffer_to_buffer(src, 0, dst, whole * eb, bytes));
        }
        Ok(())
    })
}

/// The bindings of one launch: the output window element-wise and as vec4s, and the per-tile
/// array of the integer passes.
pub(crate) struct Bindings<'a> {
    pub dst: Binding<'a>,
    pub dst4: Binding<'a>,
    pub aux: Binding<'a>,
}

/// A small per-device buffer whose disjoint slots fill the bindings a launch never touches (a
/// draw's `dst` and `aux`, the integer passes' vector view). WebGPU forbids two writable
/// bindings of overlapping ranges of one buffer in a dispatch, so the unused ones cannot simply
/// alias the output window, as native wgpu would allow.
#[derive(Default)]
pub(crate) struct Spare {
    buffer: std::sync::OnceLock<(wgpu::Buffer, u64)>,
}

impl Spare {
    /// Bytes per slot: one vec4 of the widest dtype (f64).
    const SLOT: u64 = 32;

    /// The device's spare buffer, created on first use.
    pub fn of(dev: &DeviceInner) -> std::sync::Arc<Spare> {
        let spare = dev.extensions.get::<Spare>();
        spare.buffer.get_or_init(|| {
            let stride = dev
                .limits
                .min_storage_buffer_offset_alignment
                .max(Self::SLOT as u32) as u64;
            let buffer = dev.maintainer.context(|| {
                dev.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("gpuarray philox spare"),
                    size: 2 * stride + Self::SLOT,
                    usage: wgpu::BufferUsages::STORAGE,
                    mapped_at_creation: false,
                })
            });
            (buffer, stride)
        });
        spare
    }

    /// Slot `i` (0, 1 or 2) as a binding.
    pub fn slot(&self, i: u64) -> Binding<'_> {
        let (buffer, stride) = self.buffer.get().expect("made by Spare::of");
        Binding {
            buffer,
            offset: i * stride,
            size: Self::SLOT,
        }
    }
}

/// The bindings of a draw into an output window of `bytes` at `offset` in `storage`: the window
/// as vectors; `dst` and `aux`, which only the integer passes use, are spare slots.
pub(crate) fn output_bindings<'a>(
    storage: &'a Storage,
    offset: u64,
    bytes: u64,
    spare: &'a Spare,
) -> Bindings<'a> {
    Bindings {
        dst4: vec4_binding(storage, offset, bytes),
        dst: spare.slot(0),
        aux: spare.slot(1),
    }
}

/// The vec4 view of a window. Every vec4 array needs at least one element (32 bytes for f64), so
/// a smaller window binds the buffer's first 32 bytes instead (pooled buffers hold at least 256):
/// the shader stores vec4s only for whole 16-word units, and a window that small has none.
pub(crate) fn vec4_binding(storage: &Storage, offset: u64, bytes: u64) -> Binding<'_> {
    let buffer = storage.buffer().expect("non-empty arrays have a buffer");
    let size = bytes.next_multiple_of(4);
    if size >= 32 {
        Binding {
            buffer,
            offset,
            size,
        }
    } else {
        Binding {
            buffer,
            offset: 0,
            size: 32.min(storage.bytes()),
        }
    }
}

/// Records one launch of the Philox kernel.
pub(crate) fn launch(
    dev: &DeviceInner,
    key: &PipelineKey,
    run: &Run,
    extra: &Extra,
    dtype: DType,
    b: &Bindings,
) -> Result<()> {
    if run.units == 0 {
        return Ok(());
    }
    let p = params(run, extra, dtype);
    dev.dispatch(
        key,
        p.bytes(),
        &[b.dst, b.dst4, b.aux],
        u64::from(run.units),
        &[u64::from(run.count)],
    )
}

/// `Err` unless `dtype` is one of `allowed`.
pub(crate) fn check_dtype(op: &'static str, dtype: DType, allowed: &[DType]) -> Result<()> {
    if allowed.contains(&dtype) {
        Ok(())
    } else {
        let names: Vec<&str> = allowed.iter().map(|d| d.name()).collect();
        Err(Error::invalid(
            op,
            format!(
                "dtype {dtype} is not supported; use one of {}",
                names.join(", ")
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_and_align() {
        let c = chunks(10, 4, 128 << 20);
        assert_eq!(c, vec![(0, 10)]);
        let n = (1u64 << 28) + 3;
        let c = chunks(n, 4, 128 << 20);
        assert_eq!(c.len(), 9);
        assert_eq!(c.iter().map(|x| x.1).sum::<u64>(), n);
        for w in c.windows(2) {
            assert_eq!(w[0].0 + w[0].1, w[1].0);
            assert_eq!(w[1].0 % CHUNK_ALIGN, 0);
            assert!(w[0].1 * 4 <= 128 << 20);
        }
        // A tiny binding limit still makes progress.
        assert_eq!(chunks(3000, 8, 100).len(), 3);
    }

    #[test]
    fn words_per_call() {
        assert_eq!(Dist::Normal.words(5), Some(6));
        assert_eq!(Dist::Normal.words(4), Some(4));
        assert_eq!(Dist::NormalWide.words(3), Some(8));
        assert_eq!(Dist::RandomWide.words(3), Some(6));
        assert_eq!(Dist::Bits.words(3), Some(3));
        assert_eq!(Dist::RandomWide.words(u64::MAX), None);
    }

    #[test]
    fn params_layout_matches_the_shader() {
        let run = Run {
            start: StreamPos::curand(0x0000_0002_0000_0001, 3, 6),
            count: 10,
            units: 3,
        };
        let extra = Extra {
            fa: 1.5,
            fb: 2.5,
            ..Default::default()
        };
        let p = params(&run, &extra, DType::F32);
        let b = p.bytes();
        let word = |i: usize| u32::from_le_bytes(b[4 * i..4 * i + 4].try_into().unwrap());
        assert_eq!([word(0), word(1), word(2), word(3)], [1, 0, 3, 0]);
        assert_eq!(
            [word(4), word(5), word(6), word(7), word(8)],
            [1, 2, 2, 10, 3]
        );
        assert_eq!(f32::from_bits(word(12)), 1.5);
        assert_eq!(p.bytes().len(), 56);
        let p = params(&run, &extra, DType::F64);
        assert_eq!(p.bytes().len(), 64);
        assert_eq!(
            f64::from_le_bytes(p.bytes()[48..56].try_into().unwrap()),
            1.5
        );
    }
}
