//! How a device is chosen and configured: backends, adapter options, device-level settings and
//! the environment variables that set them.

use crate::dtype::DType;
use crate::error::{Error, Result};
use std::time::Duration;

/// A graphics API that wgpu can drive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Backend {
    /// Vulkan (Linux, Windows, Android; lavapipe on CPUs).
    Vulkan,
    /// Metal (macOS, iOS).
    Metal,
    /// Direct3D 12 (Windows).
    Dx12,
    /// OpenGL / OpenGL ES.
    Gl,
}

impl Backend {
    pub(super) fn wgpu(self) -> wgpu::Backends {
        match self {
            Backend::Vulkan => wgpu::Backends::VULKAN,
            Backend::Metal => wgpu::Backends::METAL,
            Backend::Dx12 => wgpu::Backends::DX12,
            Backend::Gl => wgpu::Backends::GL,
        }
    }

    /// Parses `vulkan`, `metal`, `dx12` or `gl` (case-insensitive).
    ///
    /// ```
    /// assert_eq!(gpuarray::Backend::parse("Vulkan"), Some(gpuarray::Backend::Vulkan));
    /// ```
    pub fn parse(s: &str) -> Option<Backend> {
        match s.trim().to_ascii_lowercase().as_str() {
            "vulkan" | "vk" => Some(Backend::Vulkan),
            "metal" | "mtl" => Some(Backend::Metal),
            "dx12" | "d3d12" => Some(Backend::Dx12),
            "gl" | "gles" | "opengl" => Some(Backend::Gl),
            _ => None,
        }
    }
}

/// How to choose an adapter. `Default` reads nothing; [`DeviceOptions::from_env`] reads
/// `GPUARRAY_BACKEND`, `GPUARRAY_ADAPTER` and `GPUARRAY_FORCE_FALLBACK`.
///
/// ```
/// use gpuarray::{Backend, Device, DeviceOptions};
/// # fn main() -> gpuarray::Result<()> {
/// let dev = Device::with_options(DeviceOptions {
///     backend: Some(Backend::Vulkan),
///     adapter_name: Some("llvmpipe".into()),
///     force_fallback: false,
/// })?;
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeviceOptions {
    /// Only adapters of this backend.
    pub backend: Option<Backend>,
    /// Only adapters whose name contains this (case-insensitive).
    pub adapter_name: Option<String>,
    /// Only CPU adapters (lavapipe, WARP, SwiftShader).
    pub force_fallback: bool,
}

impl DeviceOptions {
    /// Options from `GPUARRAY_BACKEND` (vulkan|metal|dx12|gl), `GPUARRAY_ADAPTER` (name
    /// substring) and `GPUARRAY_FORCE_FALLBACK=1`.
    pub fn from_env() -> Result<Self> {
        let backend = match std::env::var("GPUARRAY_BACKEND") {
            Ok(s) if !s.trim().is_empty() => Some(Backend::parse(&s).ok_or_else(|| {
                Error::invalid(
                    "Device::new",
                    format!("GPUARRAY_BACKEND={s:?}: expected vulkan, metal, dx12 or gl"),
                )
            })?),
            _ => None,
        };
        let adapter_name = std::env::var("GPUARRAY_ADAPTER")
            .ok()
            .filter(|s| !s.trim().is_empty());
        let force_fallback = match std::env::var("GPUARRAY_FORCE_FALLBACK") {
            Ok(s) => parse_flag(&s).ok_or_else(|| {
                Error::invalid(
                    "Device::new",
                    format!(
                        "GPUARRAY_FORCE_FALLBACK={s:?}: expected 1, true, yes, on, 0, false, no or off"
                    ),
                )
            })?,
            Err(_) => false,
        };
        Ok(DeviceOptions {
            backend,
            adapter_name,
            force_fallback,
        })
    }
}

/// Everything [`Device::with_config`](crate::Device::with_config) can set: the adapter choice plus device-level settings.
///
/// ```
/// use gpuarray::{DType, Device, DeviceConfig};
/// # fn main() -> gpuarray::Result<()> {
/// // A device that behaves like an adapter without f64 and with a 256 MiB buffer limit.
/// let dev = Device::with_config(DeviceConfig {
///     disabled_dtypes: vec![DType::F64],
///     max_buffer_size: Some(256 << 20),
///     ..DeviceConfig::from_env()?
/// })?;
/// assert!(!dev.supports(DType::F64));
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Default)]
pub struct DeviceConfig {
    /// Which adapter.
    pub options: DeviceOptions,
    /// Dtypes to treat as unsupported even when the adapter has them (their features are not
    /// requested from wgpu).
    pub disabled_dtypes: Vec<DType>,
    /// Ask wgpu for a smaller `max_buffer_size` than the adapter offers (this also caps the
    /// storage binding, which cannot exceed a buffer).
    pub max_buffer_size: Option<u64>,
    /// Ask wgpu for a smaller `max_storage_buffer_binding_size` than the adapter offers, buffers
    /// left as they are: arrays larger than one binding, and the launches that split over
    /// several bindings, then appear at small sizes (tests use this to cross a binding cheaply
    /// on every adapter; `GPUARRAY_MAX_BINDING`, e.g. `1M`, for a whole process). Values below
    /// 4 KiB are raised to 4 KiB.
    pub max_binding_size: Option<u64>,
    /// Ask wgpu for fewer workgroups per grid dimension than the adapter offers (65535 on most):
    /// launches that fold their workgroups into a second grid dimension then do so at small
    /// sizes (tests use this to cross the limit cheaply). Values below 16 are raised to 16.
    pub max_workgroups_per_dimension: Option<u32>,
    /// Ask wgpu for fewer storage buffers per shader stage than the adapter offers (WebGPU's
    /// default is 8): user kernels and fused chains then meet the limit a browser has, on any
    /// adapter. Values below 4 are raised to 4.
    pub max_storage_buffers_per_shader_stage: Option<u32>,
    /// The memory pool's byte limit (`GPUARRAY_MEMORY_LIMIT`, e.g. `512M`, `2G`).
    pub memory_limit: Option<u64>,
    /// How long any wait for the GPU may take (`GPUARRAY_TIMEOUT_SECS`; default 600 s).
    pub timeout: Option<Duration>,
    /// Hide the adapter's `TIMESTAMP_QUERY` (`GPUARRAY_NO_TIMESTAMPS=1`): profiles and
    /// benchmarks then carry CPU times only, as on adapters without timestamps.
    pub disable_timestamps: bool,
    /// Profile the whole run on this device and write a Chrome trace here when the device drops
    /// (`GPUARRAY_PROFILE=trace.json`; a second device of the run writes `trace-2.json`, ...).
    pub profile_path: Option<std::path::PathBuf>,
    /// Which kernels compile when the device starts (`GPUARRAY_COMPILE=eager|families|lazy`;
    /// default [`CompileMode::Lazy`]).
    pub compile: CompileMode,
    /// Where the persistent pipeline cache and the matmul tune are kept: `None` is
    /// `GPUARRAY_CACHE_DIR`, else the platform's cache directory (`~/.cache/gpuarray`,
    /// `%LOCALAPPDATA%\gpuarray`, `~/Library/Caches/gpuarray`).
    pub cache_dir: Option<std::path::PathBuf>,
    /// Keep no cache on disk (`GPUARRAY_CACHE=0`): every process compiles and tunes afresh
    /// (its devices on one adapter share the matmul tune in memory).
    pub disable_cache: bool,
    /// Ignore a saved matmul tune and tune again at the first large matmul, saving the new
    /// result (`GPUARRAY_RETUNE=1`).
    pub retune: bool,
    /// How f32 and f16 elementary functions are computed (`GPUARRAY_MATH=accurate|fast`;
    /// default [`MathMode::Accurate`]).
    pub math: MathMode,
    /// The dtype of the indices and counts ops return (`GPUARRAY_INDEX_DTYPE=i64|i32`;
    /// default [`IndexDType::I64`], NumPy's intp).
    pub index_dtype: IndexDType,
    /// How float64 is computed (`GPUARRAY_F64=auto|native|emulated`; default [`F64Mode::Auto`]).
    pub f64: F64Mode,
    /// How float16 is stored and computed (`GPUARRAY_F16=auto|native|emulated`; default
    /// [`F16Mode::Auto`]).
    pub f16: F16Mode,
}

/// How a [`Device`](crate::Device) computes float64. `Native` uses the adapter's `SHADER_F64`
/// (an adapter without it has no float64); `Emulated` stores each f64 as its IEEE bits in two
/// `u32` words (the host's bytes: uploads and readbacks stay plain copies) and computes with
/// exact software binary64 (`shaders/f64_soft.wgsl`): add, sub, mul, div, sqrt and fma correctly
/// rounded, the same bits on every adapter. `Auto` (the default) is `Native` where the adapter
/// has `SHADER_F64` and `Emulated` where it does not, so float64 works on every adapter.
///
/// ```
/// use gpuarray::{Array, DType, Device, DeviceConfig, F64Mode};
/// # fn main() -> gpuarray::Result<()> {
/// let dev = Device::with_config(DeviceConfig {
///     f64: F64Mode::Emulated,
///     ..DeviceConfig::from_env()?
/// })?;
/// assert!(dev.supports(DType::F64) && dev.f64_emulated());
/// let a = Array::from_slice(&dev, &[0.1f64, 1e308], &[2])?;
/// let b = Array::from_slice(&dev, &[0.2f64, 1e308], &[2])?;
/// assert_eq!(a.add(&b)?.to_vec::<f64>()?, vec![0.1 + 0.2, f64::INFINITY]);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum F64Mode {
    /// The adapter's own float64 where it has it, software binary64 elsewhere (the default).
    #[default]
    Auto,
    /// Only the adapter's own float64: none where it lacks `SHADER_F64`.
    Native,
    /// Software binary64 on 32-bit integers, even where the adapter has float64.
    Emulated,
}

impl F64Mode {
    /// Parses `auto`, `native` or `emulated` (case-insensitive).
    ///
    /// ```
    /// assert_eq!(gpuarray::F64Mode::parse("Emulated"), Some(gpuarray::F64Mode::Emulated));
    /// assert_eq!(gpuarray::F64Mode::parse("soft"), None);
    /// ```
    pub fn parse(s: &str) -> Option<F64Mode> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Some(F64Mode::Auto),
            "native" => Some(F64Mode::Native),
            "emulated" => Some(F64Mode::Emulated),
            _ => None,
        }
    }
}

/// How a [`Device`](crate::Device) stores and computes float16. `Native` uses the adapter's
/// `shader-f16` (an adapter without it has no float16); `Emulated` packs two f16 elements into
/// each `u32` word (NumPy's bytes: uploads and readbacks stay plain copies), loads them with
/// WGSL's core `unpack2x16float`, computes in f32 and rounds each stored result to f16 to
/// nearest, ties to even, in integer arithmetic — what NumPy's float16 ufuncs do, so the bits
/// are NumPy's. Reductions, scans, matmul, sorting and random draws widen to f32 and round
/// their results. `Auto` (the default) is `Native` where the adapter has `shader-f16` and
/// `Emulated` where it does not (GL, WebGPU adapters without the feature).
///
/// ```
/// use gpuarray::{Array, DType, Device, DeviceConfig, F16Mode};
/// use half::f16;
/// # fn main() -> gpuarray::Result<()> {
/// let dev = Device::with_config(DeviceConfig {
///     f16: F16Mode::Emulated,
///     ..DeviceConfig::from_env()?
/// })?;
/// assert!(dev.supports(DType::F16) && dev.f16_emulated());
/// let a = Array::from_slice(&dev, &[f16::from_f32(0.1), f16::MAX], &[2])?;
/// let b = Array::from_slice(&dev, &[f16::from_f32(0.2), f16::MAX], &[2])?;
/// // Each element in f32, rounded once to f16: NumPy's float16 add.
/// let near = f16::from_f32(f16::from_f32(0.1).to_f32() + f16::from_f32(0.2).to_f32());
/// assert_eq!(a.add(&b)?.to_vec::<f16>()?, vec![near, f16::INFINITY]);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum F16Mode {
    /// The adapter's own float16 where it has it, packed words elsewhere (the default).
    #[default]
    Auto,
    /// Only the adapter's own float16: none where it lacks `shader-f16`.
    Native,
    /// Two f16 per `u32` word computed in f32, even where the adapter has `shader-f16`.
    Emulated,
}

impl F16Mode {
    /// Parses `auto`, `native` or `emulated` (case-insensitive).
    ///
    /// ```
    /// assert_eq!(gpuarray::F16Mode::parse("emulated"), Some(gpuarray::F16Mode::Emulated));
    /// assert_eq!(gpuarray::F16Mode::parse("half"), None);
    /// ```
    pub fn parse(s: &str) -> Option<F16Mode> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Some(F16Mode::Auto),
            "native" => Some(F16Mode::Native),
            "emulated" => Some(F16Mode::Emulated),
            _ => None,
        }
    }
}

/// The dtype of the indices and counts that `argsort`, `argmax`/`argmin`, `argpartition`,
/// `lexsort`, `nonzero`/`flatnonzero`/`argwhere`, `searchsorted`, `unique_all`, `bincount`,
/// `histogram` and `count_nonzero` return. NumPy returns intp (int64 on 64-bit platforms), and so
/// does gpuarray by default, on every adapter; `I32` keeps the 32-bit results the kernels compute
/// (one conversion pass fewer, half the memory): every index fits, since no array here has 2^31
/// elements along an axis that is indexed.
///
/// ```
/// use gpuarray::{Array, DType, Device, DeviceConfig, IndexDType};
/// # fn main() -> gpuarray::Result<()> {
/// let dev = Device::new()?;
/// let a = Array::from_slice(&dev, &[3.0f32, 1.0, 2.0], &[3])?;
/// assert_eq!(a.argsort(Some(-1))?.dtype(), dev.index_dtype()); // int64 unless GPUARRAY_INDEX_DTYPE=i32
/// let narrow = Device::with_config(DeviceConfig {
///     index_dtype: IndexDType::I32,
///     ..DeviceConfig::from_env()?
/// })?;
/// let b = Array::from_slice(&narrow, &[3.0f32, 1.0, 2.0], &[3])?;
/// assert_eq!(b.argsort(Some(-1))?.to_vec::<i32>()?, vec![1, 2, 0]);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum IndexDType {
    /// int64, NumPy's intp (the default).
    #[default]
    I64,
    /// int32: today's kernels' own results, without the widening pass.
    I32,
}

impl IndexDType {
    /// Parses `i64`/`int64`/`intp` or `i32`/`int32` (case-insensitive).
    ///
    /// ```
    /// assert_eq!(gpuarray::IndexDType::parse("int32"), Some(gpuarray::IndexDType::I32));
    /// assert_eq!(gpuarray::IndexDType::parse("i16"), None);
    /// ```
    pub fn parse(s: &str) -> Option<IndexDType> {
        match s.trim().to_ascii_lowercase().as_str() {
            "i64" | "int64" | "intp" => Some(IndexDType::I64),
            "i32" | "int32" => Some(IndexDType::I32),
            _ => None,
        }
    }

    /// The array dtype.
    ///
    /// ```
    /// assert_eq!(gpuarray::IndexDType::I64.dtype(), gpuarray::DType::I64);
    /// ```
    pub fn dtype(self) -> DType {
        match self {
            IndexDType::I64 => DType::I64,
            IndexDType::I32 => DType::I32,
        }
    }
}

/// How a [`Device`](crate::Device) computes the f32 and f16 elementary functions (exp, log, sin,
/// pow, tanh, ...). f64 is always computed in software (WGSL's built-ins are 32-bit only).
///
/// ```
/// use gpuarray::{Array, Device, DeviceConfig, MathMode};
/// # fn main() -> gpuarray::Result<()> {
/// let fast = Device::with_config(DeviceConfig {
///     math: MathMode::Fast,
///     ..DeviceConfig::from_env()?
/// })?;
/// assert_eq!(fast.math_mode(), MathMode::Fast);
/// let x = Array::from_slice(&fast, &[0.5f32], &[1])?;
/// let e = x.exp()?.to_vec::<f32>()?[0];
/// assert!((e - 0.5f32.exp()).abs() < 1e-5); // the driver's accuracy, not ours
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum MathMode {
    /// The crate's own software functions (`shaders/math_f32.wgsl`): within 1 ulp for exp,
    /// exp2, log, log2, sin, cos and the other functions BENCHMARKS.md lists, within 2 for the
    /// rest, and the same bits on every adapter.
    #[default]
    Accurate,
    /// WGSL's built-ins, as fast as the driver makes them, as accurate as it makes them (the
    /// WGSL spec allows, e.g., exp within 3 + 2|x| ulp and sin to 2^-11 absolute), and possibly
    /// different from one adapter to another.
    Fast,
}

impl MathMode {
    /// Parses `accurate` or `fast` (case-insensitive).
    ///
    /// ```
    /// assert_eq!(gpuarray::MathMode::parse("Fast"), Some(gpuarray::MathMode::Fast));
    /// assert_eq!(gpuarray::MathMode::parse("exact"), None);
    /// ```
    pub fn parse(s: &str) -> Option<MathMode> {
        match s.trim().to_ascii_lowercase().as_str() {
            "accurate" => Some(MathMode::Accurate),
            "fast" => Some(MathMode::Fast),
            _ => None,
        }
    }
}

/// Which kernels a [`Device`](crate::Device) compiles when it starts. Whatever the mode, a call
/// whose kernel is not compiled yet compiles it (once: a call whose kernel another thread is
/// compiling waits for that one pipeline), so the modes differ only in when the cost is paid.
///
/// The default is [`CompileMode::Lazy`]: a program pays for the kernels it calls and nothing
/// else. Measured on lavapipe (BENCHMARKS.md, "Exit and memory"), a background plan does not
/// make a program that computes at once any faster (its first calls compete with the plan for
/// the cores), keeps the cores busy after the program's own work (eager: about 12 s of CPU warm),
/// makes a short program's exit wait for the compiles in flight (2–3 s cold), and costs memory
/// for every pipeline it compiles (lavapipe holds about 1 MB per pipeline: eager's 2,121 hold
/// 2.1 GB). [`CompileMode::Families`] suits a service that starts, then waits for requests
/// whose first matmul or Philox draw must be fast.
///
/// ```
/// use gpuarray::{CompileMode, Device, DeviceConfig};
/// # fn main() -> gpuarray::Result<()> {
/// let dev = Device::with_config(DeviceConfig {
///     compile: CompileMode::Families,
///     ..DeviceConfig::from_env()?
/// })?;
/// dev.wait_compiled()?; // matmul, einsum's contraction and Philox are ready now
/// println!("{}", dev.compile_stats());
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum CompileMode {
    /// Every kernel family: copy/fill first (before `Device::new` returns), then in the
    /// background, on one thread per core, matmul (tiled, GEMV, the subgroup kernels where
    /// subgroups are 8 wide; only the tuned one when a saved tune exists), Philox for every
    /// distribution and dtype, and every cast, element-wise, reduction and scan variant of the
    /// adapter's dtypes.
    Eager,
    /// Only the three families a start-up should not wait for — matmul, the einsum contraction
    /// (matmul's kernels and copy) and Philox — in the background; the rest on first use.
    Families,
    /// Only copy (within a dtype), fill and sequence at start; everything else, casts between
    /// dtypes included, compiles on first use (the default).
    #[default]
    Lazy,
}

impl CompileMode {
    /// Parses `eager`, `families` or `lazy` (case-insensitive).
    ///
    /// ```
    /// assert_eq!(gpuarray::CompileMode::parse("Lazy"), Some(gpuarray::CompileMode::Lazy));
    /// assert_eq!(gpuarray::CompileMode::parse("later"), None);
    /// ```
    pub fn parse(s: &str) -> Option<CompileMode> {
        match s.trim().to_ascii_lowercase().as_str() {
            "eager" => Some(CompileMode::Eager),
            "families" => Some(CompileMode::Families),
            "lazy" => Some(CompileMode::Lazy),
            _ => None,
        }
    }
}

impl DeviceConfig {
    /// The adapter's `limits`, lowered as this configuration asks.
    pub(crate) fn lowered(&self, mut limits: wgpu::Limits) -> wgpu::Limits {
        if let Some(b) = self.max_binding_size {
            limits.max_storage_buffer_binding_size =
                limits.max_storage_buffer_binding_size.min(b.max(4096));
        }
        if let Some(w) = self.max_workgroups_per_dimension {
            limits.max_compute_workgroups_per_dimension =
                limits.max_compute_workgroups_per_dimension.min(w.max(16));
        }
        if let Some(m) = self.max_buffer_size {
            limits.max_buffer_size = limits.max_buffer_size.min(m);
            limits.max_storage_buffer_binding_size = limits.max_storage_buffer_binding_size.min(m);
        }
        if let Some(n) = self.max_storage_buffers_per_shader_stage {
            limits.max_storage_buffers_per_shader_stage =
                limits.max_storage_buffers_per_shader_stage.min(n.max(4));
        }
        limits
    }

    /// The configuration the environment asks for.
    pub fn from_env() -> Result<Self> {
        let memory_limit = match std::env::var("GPUARRAY_MEMORY_LIMIT") {
            Ok(s) if !s.trim().is_empty() => Some(parse_bytes(&s).ok_or_else(|| {
                Error::invalid(
                    "Device::new",
                    format!(
                        "GPUARRAY_MEMORY_LIMIT={s:?}: expected bytes such as 1073741824, 512M or 2G"
                    ),
                )
            })?),
            _ => None,
        };
        let max_binding_size = match std::env::var("GPUARRAY_MAX_BINDING") {
            Ok(s) if !s.trim().is_empty() => Some(parse_bytes(&s).ok_or_else(|| {
                Error::invalid(
                    "Device::new",
                    format!("GPUARRAY_MAX_BINDING={s:?}: expected bytes such as 1048576 or 1M"),
                )
            })?),
            _ => None,
        };
        let timeout = match std::env::var("GPUARRAY_TIMEOUT_SECS") {
            Ok(s) if !s.trim().is_empty() => {
                let secs = s
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|v| *v > 0.0 && v.is_finite())
                    .ok_or_else(|| {
                        Error::invalid(
                            "Device::new",
                            format!("GPUARRAY_TIMEOUT_SECS={s:?}: expected a finite number of seconds > 0"),
                        )
                    })?;
                // `Duration::from_secs_f64` panics past ~1.8e19 s (1e20, say): longer than
                // `MAX_TIMEOUT` is stored as `MAX_TIMEOUT`, which is "never" in practice.
                Some(if secs >= MAX_TIMEOUT.as_secs_f64() {
                    MAX_TIMEOUT
                } else {
                    Duration::from_secs_f64(secs)
                })
            }
            _ => None,
        };
        let profile_path = std::env::var_os("GPUARRAY_PROFILE")
            .filter(|p| !p.is_empty())
            .map(std::path::PathBuf::from);
        let compile = env_choice(
            "GPUARRAY_COMPILE",
            CompileMode::parse,
            "eager, families or lazy",
        )?;
        let cache_dir = std::env::var_os("GPUARRAY_CACHE_DIR")
            .filter(|p| !p.is_empty())
            .map(std::path::PathBuf::from);
        let disable_cache = match std::env::var("GPUARRAY_CACHE") {
            Ok(s) => !parse_flag_named("GPUARRAY_CACHE", &s, true)?,
            Err(_) => false,
        };
        let math = env_choice("GPUARRAY_MATH", MathMode::parse, "accurate or fast")?;
        let index_dtype = env_choice(
            "GPUARRAY_INDEX_DTYPE",
            IndexDType::parse,
            "i64 (int64) or i32 (int32)",
        )?;
        let f64 = env_choice("GPUARRAY_F64", F64Mode::parse, "auto, native or emulated")?;
        let f16 = env_choice("GPUARRAY_F16", F16Mode::parse, "auto, native or emulated")?;
        let retune = match std::env::var("GPUARRAY_RETUNE") {
            Ok(s) => parse_flag_named("GPUARRAY_RETUNE", &s, false)?,
            Err(_) => false,
        };
        Ok(DeviceConfig {
            options: DeviceOptions::from_env()?,
            memory_limit,
            max_binding_size,
            timeout,
            disable_timestamps: env_flag("GPUARRAY_NO_TIMESTAMPS"),
            profile_path,
            compile,
            cache_dir,
            disable_cache,
            retune,
            math,
            index_dtype,
            f64,
            f16,
            ..Default::default()
        })
    }
}

/// The setting environment variable `var` names, parsed by `parse` (its `Default` when unset or
/// empty); an unparsable value is an error listing the `expected` values.
fn env_choice<T: Default>(var: &str, parse: fn(&str) -> Option<T>, expected: &str) -> Result<T> {
    match std::env::var(var) {
        Ok(s) if !s.trim().is_empty() => parse(&s).ok_or_else(|| {
            Error::invalid("Device::new", format!("{var}={s:?}: expected {expected}"))
        }),
        _ => Ok(T::default()),
    }
}

/// Parses `123`, `64K`, `512M`, `2G` (binary multiples).
fn parse_bytes(s: &str) -> Option<u64> {
    let s = s.trim();
    let (num, mult) = match s.char_indices().last()? {
        (i, 'k' | 'K') => (&s[..i], 1u64 << 10),
        (i, 'm' | 'M') => (&s[..i], 1 << 20),
        (i, 'g' | 'G') => (&s[..i], 1 << 30),
        _ => (s, 1),
    };
    num.trim().parse::<u64>().ok()?.checked_mul(mult)
}

/// The flag `name` set to `s`: an empty value is `empty`; anything but a flag word is an `Err`
/// naming the variable.
fn parse_flag_named(name: &str, s: &str, empty: bool) -> Result<bool> {
    if s.trim().is_empty() {
        return Ok(empty);
    }
    parse_flag(s).ok_or_else(|| {
        Error::invalid(
            "Device::new",
            format!("{name}={s:?}: expected 1, true, yes, on, 0, false, no or off"),
        )
    })
}

/// A boolean environment value; an empty one is false. `None` when it is none of the words.
fn parse_flag(s: &str) -> Option<bool> {
    match s.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Some(true),
        "" | "0" | "false" | "no" | "off" => Some(false),
        _ => None,
    }
}

/// The longest wait timeout a device keeps: 100 years, "never" for any real program. Longer
/// requests are stored as this, so `Instant::now() + timeout` cannot overflow on any platform
/// and `Device::timeout` reports what is in force.
///
/// ```
/// assert_eq!(gpuarray::MAX_TIMEOUT.as_secs(), 100 * 365 * 86_400);
/// ```
pub const MAX_TIMEOUT: Duration = Duration::from_secs(100 * 365 * 24 * 60 * 60);

/// A timeout as the device stores it: whole milliseconds in 1..=`MAX_TIMEOUT`.
pub(super) fn timeout_millis(timeout: Duration) -> u64 {
    // MAX_TIMEOUT is about 3.2e12 ms: the conversion cannot fail after the clamp.
    u64::try_from(timeout.min(MAX_TIMEOUT).as_millis())
        .unwrap_or(u64::MAX)
        .max(1)
}

pub(super) fn env_flag(name: &str) -> bool {
    std::env::var(name)
        .map(|v| matches!(v.trim(), "1" | "true" | "yes" | "on"))
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_sizes_parse() {
        assert_eq!(parse_bytes("1024"), Some(1024));
        assert_eq!(parse_bytes("512M"), Some(512 << 20));
        assert_eq!(parse_bytes(" 2g "), Some(2 << 30));
        assert_eq!(parse_bytes("x"), None);
        assert_eq!(parse_bytes("99999999999999G"), None);
    }

    #[test]
    fn backends_parse() {
        assert_eq!(Backend::parse("GL"), Some(Backend::Gl));
        assert_eq!(Backend::parse("cuda"), None);
    }
}
