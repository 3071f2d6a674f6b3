//! When a device's pipelines compile: the start-up sequence (copy/fill before `Device::new`
//! returns, the rest of the plan in the background), the driver's pipeline cache loaded from
//! and saved to disk, the records ops keep there (the matmul tune), and the public
//! [`Device::wait_compiled`] / [`Device::compile_stats`].

use super::compiler::CompileStats;
#[cfg(not(target_arch = "wasm32"))]
use super::compiler::Compiler;
#[cfg(not(target_arch = "wasm32"))]
use super::config::CompileMode;
use super::config::MathMode;
use super::kernel_def::KernelDef;
use super::pipeline::{PipelineKey, Variant};
use super::startup;
use super::{Device, DeviceInner};
use crate::dtype::DType;
use crate::error::{Error, Result};

/// The record of kernels a tune chose, so start-up compiles only those of their family: kernel
/// names, one per line.
#[cfg(not(target_arch = "wasm32"))]
const CHOICES: &str = "startup-choices";

/// The compiler of a new device, with the driver cache of the previous run when the adapter
/// offers one and the file checks out.
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn open_compiler(
    (device, queue, maintainer): (
        &wgpu::Device,
        &wgpu::Queue,
        &std::sync::Arc<crate::memory::Maintainer>,
    ),
    (config, adapter): (&super::DeviceConfig, &wgpu::AdapterInfo),
    lost: &std::sync::Arc<std::sync::atomic::AtomicBool>,
    (log, families): (bool, super::Families),
) -> Compiler {
    let env_dir = std::env::var_os("GPUARRAY_CACHE_DIR").filter(|p| !p.is_empty());
    let disk = super::disk_cache::DiskCache::new(
        config
            .cache_dir
            .as_deref()
            .or(env_dir.as_deref().map(std::path::Path::new)),
        config.disable_cache,
        adapter,
        families,
    );
    let mut labels = std::collections::HashSet::new();
    let driver_cache =
        if device.features().contains(wgpu::Features::PIPELINE_CACHE) && disk.dir().is_some() {
            let saved = disk.load(super::compiler::PIPELINES_RECORD);
            let data = saved.as_deref().and_then(|bytes| {
                let split = bytes.windows(2).position(|w| w == b"\n\n")?;
                let text = std::str::from_utf8(&bytes[..split]).ok()?;
                labels = text.lines().map(str::to_string).collect();
                Some(&bytes[split + 2..])
            });
            // A driver that keeps no binaries (lavapipe's cache is a bare header) gives data no
            // longer than an empty cache's: then no pipeline counts as coming from the cache.
            // SAFETY: no initial data.
            let empty = unsafe {
                device.create_pipeline_cache(&wgpu::PipelineCacheDescriptor {
                    label: Some("gpuarray empty pipeline cache"),
                    data: None,
                    fallback: true,
                })
            };
            let empty_len = empty.get_data().map_or(0, |d| d.len());
            if data.is_none_or(|d| d.len() <= empty_len) {
                labels.clear();
            }
            // SAFETY: the data is what `PipelineCache::get_data` returned in an earlier run on an
            // adapter with the same name, ids, driver version and backend (the file's key), and it
            // passed the file's length and checksum; wgpu validates its own header too and, with
            // `fallback`, starts an empty cache when that fails.
            Some(unsafe {
                device.create_pipeline_cache(&wgpu::PipelineCacheDescriptor {
                    label: Some("gpuarray pipeline cache"),
                    data,
                    fallback: true,
                })
            })
        } else {
            None
        };
    Compiler::new(
        device.clone(),
        driver_cache,
        labels,
        log,
        (config.compile, config.math),
        std::sync::Arc::clone(lost),
        (disk, (queue.clone(), std::sync::Arc::clone(maintainer))),
    )
}

impl DeviceInner {
    /// Compiles (or finds) the pipeline for `key`; waits if another thread is compiling it.
    pub(crate) fn pipeline(&self, key: &PipelineKey) -> Result<wgpu::ComputePipeline> {
        let soft = self.f64_emulated && key.variant.has_f64();
        let packed = self.f16_emulated && key.variant.has_f16();
        let resolved;
        let key = if soft || packed {
            resolved = self.emulated_key(key, soft, packed)?;
            &resolved
        } else {
            key
        };
        if let Some(p) = self.compiler.pipelines.get(key) {
            return Ok(p);
        }
        // A family is built only for the variants it declares: a dtype it does not take is an
        // error here, never a shader compiled for a type its WGSL was not written for.
        if !(key.kernel.variants)(&self.dtypes).contains(&key.variant.declared()) {
            return Err(Error::Unsupported {
                op: key.kernel.name,
                feature: format!("no {} kernel for {}", key.kernel.name, key.variant),
            });
        }
        let _compile = self
            .profiler
            .host_call("compile", super::profile::CallKind::Compile);
        self.compiler.get_or_compile(key, || {
            self.guarded("compile", || self.compiler.create(key))
                .map_err(|e| match e {
                    Error::Unsupported { .. } => e,
                    e => Error::Gpu(format!("compiling kernel {}: {e}", key.label())),
                })
        })
    }

    /// `key` on a device that emulates f64 (`soft`) or f16 (`packed`): its variant marked
    /// software or packed, or `Err(Unsupported)` for a family without that path.
    fn emulated_key(&self, key: &PipelineKey, soft: bool, packed: bool) -> Result<PipelineKey> {
        if soft && !key.kernel.soft_f64 {
            return Err(Error::Unsupported {
                op: key.kernel.name,
                feature: format!(
                    "float64 on this device is emulated (f64 {}), and kernel {} has no emulated \
                     float64 path yet; GPUARRAY_F64=native uses the adapter's own where it has \
                     SHADER_F64",
                    self.info.f64, key.kernel.name
                ),
            });
        }
        if packed && !key.kernel.packed_f16 {
            return Err(Error::Unsupported {
                op: key.kernel.name,
                feature: format!(
                    "float16 on this device is emulated (f16 {}), and kernel {} reads no packed \
                     float16 (its op widens f16 to f32 first)",
                    self.info.f16, key.kernel.name
                ),
            });
        }
        let mut emulated = key.clone();
        emulated.variant.soft = soft;
        emulated.variant.f16_packed = packed;
        Ok(emulated)
    }

    /// Whether this device can build `variant` of `kernel` (an emulating device builds the
    /// f64 variants of families with a software path only).
    pub(crate) fn builds(&self, kernel: &KernelDef, variant: Variant) -> bool {
        let needs_soft_f64 = self.f64_emulated && variant.has_f64();
        let needs_packed_f16 = self.f16_emulated && variant.has_f16();
        (!needs_soft_f64 || kernel.soft_f64) && (!needs_packed_f16 || kernel.packed_f16)
    }

    /// Whether an element of `dtype` is one WGSL scalar of its own type here (a word dtype, and
    /// neither software f64's word pair nor packed f16): what the `vec4` kernels need.
    pub(crate) fn one_word_elements(&self, dtype: DType) -> bool {
        dtype.is_word() && !self.emulates(dtype)
    }

    /// Whether `dtype` is emulated here: software f64, or f16 packed two per word.
    pub(crate) fn emulates(&self, dtype: DType) -> bool {
        (self.f64_emulated && dtype == DType::F64) || (self.f16_emulated && dtype == DType::F16)
    }

    /// The pipelines every mode compiles before `Device::new` returns.
    pub(super) fn compile_immediate(&self) -> Result<()> {
        for key in startup::immediate(&self.dtypes, self.families) {
            self.pipeline(&key)?;
        }
        Ok(())
    }

    /// Queues the rest of the start-up plan on one worker per core.
    #[cfg(not(target_arch = "wasm32"))]
    pub(super) fn start_background_compile(self: &std::sync::Arc<Self>) {
        // Every device, whatever its plan: its submitted work must be done at exit too.
        super::exit_guard::register(&self.compiler);
        let choices = self
            .compiler
            .disk
            .load(CHOICES)
            .and_then(|b| String::from_utf8(b).ok());
        // The family names a saved tune chose (the matmul tune's subgroup kernel).
        let chosen: Option<Vec<String>> = choices
            .filter(|_| !self.retune)
            .map(|text| text.lines().map(|l| l.trim().to_string()).collect());
        // Software f64 and packed f16 compile on first use only: a program that never makes
        // one pays nothing.
        let dtypes: Vec<DType> = self
            .dtypes
            .iter()
            .copied()
            .filter(|&d| !self.emulates(d))
            .collect();
        let adapter = super::kernel_def::Adapter {
            dtypes: &dtypes,
            subgroups_of_8: self.has_subgroups_of_8(),
            int64: self
                .device
                .features()
                .contains(wgpu::Features::SHADER_INT64),
            is_cpu: self.is_cpu,
            f16_packed: self.f16_emulated,
            chosen: chosen.as_deref(),
        };
        let mode = self.compiler.mode;
        let plan = startup::background(mode, &adapter, self.families);
        // What the eager plan holds, to name a call's compile that it lacks (in eager mode, and
        // under GPUARRAY_LOG in any mode: a test run then lists the plan's gaps).
        let eager_plan = if mode == CompileMode::Eager {
            plan.iter().cloned().collect()
        } else if self.compiler.log {
            startup::background(CompileMode::Eager, &adapter, self.families)
                .into_iter()
                .collect()
        } else {
            Default::default()
        };
        let warm = startup::warm_ups(&plan);
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        self.compiler
            .start_background(plan, eager_plan, warm, threads);
    }

    /// At drop: the workers stop after their current pipelines (waited for, so no compile is
    /// left inside the driver when a process exits), and new pipelines are saved.
    #[cfg(not(target_arch = "wasm32"))]
    pub(super) fn stop_compiling(&self) {
        self.compiler.stop_and_join();
        if !self.compiler.in_fork_child() {
            self.compiler.save_driver_cache();
        }
    }

    /// Record `name` that an op saved in an earlier run on this adapter, driver and build — with
    /// caching off, by an earlier device of this process — (`None` if none, or the file fails
    /// its checks).
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn load_record(&self, name: &str) -> Option<Vec<u8>> {
        self.compiler.disk.load(name)
    }

    /// Saves an op's record `name` for later runs (never an error: see `disk_cache.rs`).
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn store_record(&self, name: &str, bytes: &[u8]) {
        self.compiler.disk.store(name, bytes);
    }

    /// Tells later starts that of their alternatives only the families `chosen` are worth
    /// compiling (a tune's choice; see `kernel_def::Adapter::chosen`).
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn store_startup_choice(&self, chosen: &[&'static super::KernelDef]) {
        let text: Vec<&str> = chosen.iter().map(|f| f.name).collect();
        self.compiler
            .disk
            .store(CHOICES, text.join("\n").as_bytes());
    }
}

impl Device {
    /// Waits until every pipeline of the start-up plan ([`CompileMode`](crate::CompileMode)) is
    /// compiled, and returns the compile figures. Never needed for correctness — a call whose
    /// pipeline is not ready compiles it or waits for it — but it lets a program (or a
    /// benchmark) pay the whole compile before timing anything.
    ///
    /// Native only: a browser compiles on first use.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// let dev = gpuarray::Device::new()?;
    /// let stats = dev.wait_compiled()?;
    /// assert!(stats.ready_after.is_some());
    /// # Ok(()) }
    /// ```
    #[cfg(not(target_arch = "wasm32"))]
    pub fn wait_compiled(&self) -> Result<CompileStats> {
        self.inner.check_alive("wait_compiled")?;
        self.inner.compiler.wait_drained();
        self.inner.check_alive("wait_compiled")?;
        Ok(self.inner.compiler.stats())
    }

    /// The labels of every pipeline compiled on this device (`kernel[dtypes]{constants}`, as
    /// `GPUARRAY_LOG` and the profiler name them), sorted.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// let dev = gpuarray::Device::new()?;
    /// assert!(dev.compiled_pipelines().iter().any(|l| l == "copy[f32->f32]"));
    /// # Ok(()) }
    /// ```
    pub fn compiled_pipelines(&self) -> Vec<String> {
        let mut labels = self.inner.compiler.pipelines.labels();
        labels.sort();
        labels
    }

    /// The compile figures so far (see [`CompileStats`]); the background plan may still run.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// let dev = gpuarray::Device::new()?;
    /// assert!(dev.compile_stats().compiled >= dev.info().pipelines);
    /// # Ok(()) }
    /// ```
    pub fn compile_stats(&self) -> CompileStats {
        self.inner.compiler.stats()
    }

    /// How this device computes f32 and f16 elementary functions (see [`MathMode`]).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// let dev = gpuarray::Device::new()?;
    /// println!("math: {:?}", dev.math_mode()); // Accurate unless GPUARRAY_MATH=fast
    /// # Ok(()) }
    /// ```
    pub fn math_mode(&self) -> MathMode {
        self.inner.compiler.math
    }

    /// The dtype of the indices and counts this device's ops return: int64 (NumPy's intp)
    /// unless [`DeviceConfig::index_dtype`](crate::DeviceConfig::index_dtype) or
    /// `GPUARRAY_INDEX_DTYPE=i32` asks for int32.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[2.0f32, 9.0, 4.0], &[3])?;
    /// assert_eq!(a.argmax(None, false)?.dtype(), dev.index_dtype());
    /// # Ok(()) }
    /// ```
    pub fn index_dtype(&self) -> crate::DType {
        self.inner.index_dtype
    }
}
