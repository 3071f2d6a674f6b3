//! The `Device`: adapter choice, limits and features, kernels compiled at start-up, the memory
//! pools and the scheduler, behind one cheap-to-clone handle.

mod adapter;
#[cfg(not(target_arch = "wasm32"))]
mod adapters;
pub(crate) mod blocks;
mod checks;
mod compilation;
mod compiler;
mod config;
#[cfg(not(target_arch = "wasm32"))]
mod disk_cache;
pub(crate) mod element_access;
#[cfg(not(target_arch = "wasm32"))]
mod exit_guard;
mod extensions;
mod generated;
mod kernel_def;
mod launch;
pub(crate) mod params;
mod pipeline;
pub mod profile;
mod scheduler;
mod signal;
mod specialize;
mod staging;
pub(crate) mod startup;
mod variants;
#[cfg(not(target_arch = "wasm32"))]
mod warm_up;
pub(crate) mod wgsl_helpers;

use adapter::{ErrorSinks, OPTIONAL_FEATURES, choose_adapter, requested_features};
#[cfg(not(target_arch = "wasm32"))]
pub use adapters::{AdapterInfo, adapters, adapters_with};
pub use compiler::CompileStats;
pub use config::{
    Backend, CompileMode, DeviceConfig, DeviceOptions, F16Mode, F64Mode, IndexDType, MAX_TIMEOUT,
    MathMode,
};
use config::{env_flag, timeout_millis};
#[cfg(not(target_arch = "wasm32"))]
pub use exit_guard::prepare_exit;
pub(crate) use kernel_def::{Adapter, Constants, Families, KernelDef, Needs, When, combinations};
pub(crate) use launch::{Binding, LaunchName, Resource};
pub(crate) use pipeline::{DEFAULT_EPT, DEFAULT_WG, PipelineKey, Variant};
pub(crate) use profile::Work;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) use staging::read_bytes;
pub(crate) use staging::read_bytes_async;
pub use variants::ShaderVariant;
pub(crate) use variants::{shader_pipelines, shader_variants};

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::memory::{LateErrors, Maintainer, MemoryStats, Pool, WgpuBacking};
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use web_time::Instant;

/// What a [`Device`] runs on. `Display` gives one human line, e.g.
/// `llvmpipe (LLVM 15.0.6, 256 bits) · Vulkan · Cpu`.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// let dev = gpuarray::Device::new()?;
/// println!("running on {}", dev.info());
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct DeviceInfo {
    /// The adapter's name.
    pub name: String,
    /// The graphics API.
    pub backend: String,
    /// Discrete / integrated / virtual GPU, CPU, or other.
    pub device_type: String,
    /// The driver's name.
    pub driver: String,
    /// Driver version and details.
    pub driver_info: String,
    /// Optional features that were requested and granted (`shader-f16`, `shader-f64`, ...).
    pub features: Vec<&'static str>,
    /// Largest single buffer, in bytes.
    pub max_buffer_size: u64,
    /// Largest storage binding, in bytes.
    pub max_storage_buffer_binding_size: u64,
    /// Time spent creating the device and compiling every kernel variant.
    pub startup: Duration,
    /// Pipelines compiled at start-up.
    pub pipelines: usize,
    /// How float64 is computed: `"native"` (the adapter's `SHADER_F64`), `"emulated"` (exact
    /// software binary64 on 32-bit words, [`F64Mode::Emulated`]) or `"none"`.
    pub f64: &'static str,
    /// How float16 is stored and computed: `"native"` (the adapter's `shader-f16`),
    /// `"emulated"` (two per `u32` word, computed in f32, [`F16Mode::Emulated`]) or `"none"`.
    pub f16: &'static str,
}

impl fmt::Display for DeviceInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        adapter_line(
            f,
            &self.name,
            &self.driver_info,
            &self.backend,
            &self.device_type,
        )?;
        write!(f, " · f64 {} · f16 {}", self.f64, self.f16)
    }
}

/// `name (driver info) · backend · type`: how an adapter is named everywhere.
pub(crate) fn adapter_line(
    f: &mut fmt::Formatter<'_>,
    name: &str,
    driver_info: &str,
    backend: &str,
    device_type: &str,
) -> fmt::Result {
    f.write_str(name)?;
    if !driver_info.is_empty() {
        write!(f, " ({driver_info})")?;
    }
    write!(f, " · {backend} · {device_type}")
}

/// A GPU (or CPU adapter) with its compiled kernels, memory pool and scheduler.
///
/// Cheap to clone (an `Arc` inside), `Send + Sync`: share one between threads.
///
/// ```
/// use gpuarray::{Array, DType, Device};
/// # fn main() -> gpuarray::Result<()> {
/// let dev = Device::new()?;
/// println!("{}", dev.info());
/// let a = Array::arange(&dev, 0.0, 6.0, 1.0, DType::F32)?.reshape(&[2, 3])?;
/// assert_eq!(a.transpose(&[1, 0])?.to_vec::<f32>()?, vec![0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
/// dev.synchronize()?;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Device {
    pub(crate) inner: Arc<DeviceInner>,
}

pub(crate) struct DeviceInner {
    pub id: u64,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub info: DeviceInfo,
    pub limits: wgpu::Limits,
    pub dtypes: Vec<DType>,
    /// The declared kernel families this device compiles and launches.
    pub families: Families,
    /// Compiled pipelines, and the background workers compiling the start-up plan.
    pub compiler: Arc<compiler::Compiler>,
    /// Ignore a saved matmul tune (`GPUARRAY_RETUNE=1`; a browser keeps no tune).
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub retune: bool,
    /// The dtype index-returning ops give (`DeviceConfig::index_dtype`: I64 or I32).
    pub index_dtype: DType,
    /// f64 is software binary64 on word pairs (`F64Mode::Emulated`): its pipelines are keyed
    /// with [`Variant::soft`] set, and a family without a software path refuses f64.
    pub f64_emulated: bool,
    /// f16 is packed two per `u32` word and computed in f32 (`F16Mode::Emulated`): its
    /// pipelines are keyed with [`Variant::f16_packed`] set; families without a packed path
    /// refuse f16, and the ops that use them widen f16 to f32 first.
    pub f16_emulated: bool,
    pub pool: Arc<Pool<WgpuBacking>>,
    pub staging: Arc<Pool<WgpuBacking>>,
    pending: Mutex<scheduler::Pending>,
    /// Serialises submits and polls (a wgpu-core race; see `memory/maintain.rs`).
    pub maintainer: Arc<Maintainer>,
    /// Errors of scopes popped after their op returned (in a browser; see `memory/late_errors.rs`).
    pub late_errors: Arc<LateErrors>,
    lost: Arc<AtomicBool>,
    lost_reason: Arc<Mutex<Option<String>>>,
    uncaptured: Arc<Mutex<Vec<String>>>,
    timeout_ms: AtomicU64,
    pub log_dispatches: bool,
    /// (min, max) subgroup size the adapter reports.
    pub subgroup_sizes: (u32, u32),
    /// A CPU adapter (lavapipe, llvmpipe, WARP): launch shapes that suit a GPU's thousands of
    /// threads waste a CPU's few cores on per-workgroup start-up, so some kernels ask.
    pub is_cpu: bool,
    /// State the ops keep per device (the matmul tune, ...), by type.
    pub extensions: extensions::Extensions,
    /// Open profiles and their GPU timestamp queries.
    pub profiler: profile::Profiler,
}

static NEXT_DEVICE_ID: AtomicU64 = AtomicU64::new(1);

/// The blocking waits: native only. A browser cannot block its thread, so on wasm32 they do not
/// exist (a compile error, not a run-time panic); use the `_async` versions. (The constructors,
/// which hand a device the crate's kernel families, are in `crate::registry`.)
#[cfg(not(target_arch = "wasm32"))]
impl Device {
    /// Submits all recorded work and waits for it; reports errors that wgpu raised outside any
    /// op (for example on another thread) since the last call.
    ///
    /// Native only (it blocks); on wasm32 use [`Device::synchronize_async`].
    pub fn synchronize(&self) -> Result<()> {
        self.inner.check_alive("synchronize")?;
        let idx = self.inner.flush();
        self.inner.wait("synchronize", &idx)?;
        let errors = self.take_uncaptured_errors();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(Error::Gpu(format!("synchronize: {}", errors.join("; "))))
        }
    }
}

impl Device {
    /// A device for `config` that compiles and launches the device's own kernels and the
    /// declared `families` (what the public constructors hand it: `crate::registry`).
    pub(crate) async fn start(config: DeviceConfig, families: Families) -> Result<Device> {
        let started = Instant::now();
        let backends = config
            .options
            .backend
            .map(Backend::wgpu)
            .unwrap_or(wgpu::Backends::PRIMARY | wgpu::Backends::GL);
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        desc.backends = backends;
        let instance = wgpu::Instance::new(desc);
        let adapter = choose_adapter(&instance, backends, &config.options).await?;
        let ainfo = adapter.get_info();

        let (features, f64_emulated, f16_emulated) =
            adapter::emulated_floats(requested_features(&adapter, &config), &config);
        // The adapter's full limits (the defaults cap buffers at 256 MiB), optionally lowered.
        let limits = config.lowered(adapter.limits());
        // The driver's pipeline binaries are kept between runs where the adapter can export them.
        let features = features | (adapter.features() & wgpu::Features::PIPELINE_CACHE);
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("gpuarray"),
                required_features: features,
                required_limits: limits.clone(),
                experimental_features: wgpu::ExperimentalFeatures::disabled(),
                memory_hints: wgpu::MemoryHints::Performance,
                trace: wgpu::Trace::Off,
            })
            .await
            .map_err(|e| {
                Error::NoAdapter(format!("{} refused to create a device: {e}", ainfo.name))
            })?;

        let sinks = ErrorSinks::install(&device);
        let queue_period = queue.get_timestamp_period();
        let limits = device.limits();
        // The dtypes kernel families are built for; complex arrays reach kernels as their real
        // parts or through complex kernels, and are supported where their part dtype is.
        let dtypes: Vec<DType> = DType::REAL
            .into_iter()
            .filter(|d| match d {
                DType::F16 => f16_emulated || features.contains(wgpu::Features::SHADER_F16),
                DType::F64 => f64_emulated || features.contains(wgpu::Features::SHADER_F64),
                _ => true,
            })
            .collect();
        let storage_usage = wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_SRC
            | wgpu::BufferUsages::COPY_DST;
        let staging_usage = wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST;
        let maintainer = Arc::new(Maintainer::new(ainfo.backend));
        let late_errors = Arc::new(LateErrors::default());
        let pool = Pool::new(
            WgpuBacking::new(
                &device,
                &maintainer,
                &late_errors,
                storage_usage,
                "gpuarray array",
            ),
            limits.max_buffer_size,
            config.memory_limit,
        );
        let staging = Pool::new(
            WgpuBacking::new(
                &device,
                &maintainer,
                &late_errors,
                staging_usage,
                "gpuarray readback",
            ),
            limits.max_buffer_size,
            None,
        );
        let timeout = config.timeout.unwrap_or(Duration::from_secs(600));
        let info = DeviceInfo {
            // Browsers may withhold the adapter's description (Chromium gives "").
            name: if ainfo.name.is_empty() {
                "(unnamed adapter)".into()
            } else {
                ainfo.name.clone()
            },
            backend: format!("{:?}", ainfo.backend),
            device_type: format!("{:?}", ainfo.device_type),
            driver: ainfo.driver.clone(),
            driver_info: ainfo.driver_info.clone(),
            features: OPTIONAL_FEATURES
                .iter()
                .filter(|f| features.contains(f.0))
                .map(|f| f.1)
                .collect(),
            max_buffer_size: limits.max_buffer_size,
            max_storage_buffer_binding_size: limits.max_storage_buffer_binding_size,
            startup: Duration::ZERO,
            pipelines: 0,
            f64: if f64_emulated {
                "emulated"
            } else if features.contains(wgpu::Features::SHADER_F64) {
                "native"
            } else {
                "none"
            },
            f16: if f16_emulated {
                "emulated"
            } else if features.contains(wgpu::Features::SHADER_F16) {
                "native"
            } else {
                "none"
            },
        };
        // GPUARRAY_LOG=2 logs as 1 does, and prints the WGSL of generated kernels too.
        let log_dispatches = env_flag("GPUARRAY_LOG") || generated::log_sources();
        #[cfg(not(target_arch = "wasm32"))]
        let compiler = compilation::open_compiler(
            (&device, &queue, &maintainer),
            (&config, &ainfo),
            &sinks.lost,
            (log_dispatches, families),
        );
        #[cfg(target_arch = "wasm32")]
        let compiler = compiler::Compiler::new(
            device.clone(),
            None,
            Default::default(),
            log_dispatches,
            (config.compile, config.math),
            Arc::clone(&sinks.lost),
        );
        let mut inner = DeviceInner {
            id: NEXT_DEVICE_ID.fetch_add(1, Ordering::Relaxed),
            device,
            queue,
            info,
            limits,
            dtypes,
            families,
            compiler: Arc::new(compiler),
            retune: config.retune,
            index_dtype: config.index_dtype.dtype(),
            f64_emulated,
            f16_emulated,
            pool,
            staging,
            pending: Mutex::new(Default::default()),
            maintainer,
            late_errors,
            lost: sinks.lost,
            lost_reason: sinks.lost_reason,
            uncaptured: sinks.uncaptured,
            timeout_ms: AtomicU64::new(timeout_millis(timeout)),
            log_dispatches,
            subgroup_sizes: (ainfo.subgroup_min_size, ainfo.subgroup_max_size),
            is_cpu: ainfo.device_type == wgpu::DeviceType::Cpu,
            extensions: Default::default(),
            profiler: profile::Profiler::new(
                features.contains(wgpu::Features::TIMESTAMP_QUERY),
                queue_period,
            ),
        };
        // What creating arrays needs compiles now; the rest of the plan in the background.
        let compile_started = Instant::now();
        inner.compile_immediate()?;
        // In a browser the compile errors arrive late: wait for them here.
        inner.late_result("Device::new").await?;
        inner.info.pipelines = inner.compiler.pipelines.len();
        inner.info.startup = started.elapsed();
        if let Some(path) = config.profile_path.clone() {
            inner.profiler.start_whole_run(path);
        }
        log::debug!(
            "gpuarray: {} ready in {:.1} ms ({} pipelines compiled in {:.1} ms)",
            inner.info,
            inner.info.startup.as_secs_f64() * 1e3,
            inner.info.pipelines,
            compile_started.elapsed().as_secs_f64() * 1e3
        );
        let inner = Arc::new(inner);
        #[cfg(not(target_arch = "wasm32"))]
        inner.start_background_compile();
        Ok(Device { inner })
    }

    /// What this device runs on.
    pub fn info(&self) -> &DeviceInfo {
        &self.inner.info
    }

    /// Whether arrays of `dtype` can live on this device.
    pub fn supports(&self, dtype: DType) -> bool {
        self.inner.dtypes.contains(&dtype.real())
    }

    /// Whether this device computes float64 in software ([`F64Mode::Emulated`]): exact IEEE
    /// binary64 on 32-bit words, the same bits on every adapter.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// let dev = gpuarray::Device::new()?;
    /// println!("f64: {}", dev.info().f64); // native, emulated or none
    /// assert_eq!(dev.f64_emulated(), dev.info().f64 == "emulated");
    /// # Ok(()) }
    /// ```
    pub fn f64_emulated(&self) -> bool {
        self.inner.f64_emulated
    }

    /// Whether this device packs float16 two per word and computes it in f32
    /// ([`F16Mode::Emulated`]): NumPy's float16 bits without the adapter's `shader-f16`.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// let dev = gpuarray::Device::new()?;
    /// println!("f16: {}", dev.info().f16); // native, emulated or none
    /// assert_eq!(dev.f16_emulated(), dev.info().f16 == "emulated");
    /// # Ok(()) }
    /// ```
    pub fn f16_emulated(&self) -> bool {
        self.inner.f16_emulated
    }

    /// The device's wgpu limits (the adapter's, as granted).
    pub fn limits(&self) -> &wgpu::Limits {
        &self.inner.limits
    }

    /// [`Device::synchronize`] for async callers (and wasm32): submits all recorded work and
    /// resolves when the GPU has finished it, with `Err` for errors wgpu reported since the last
    /// call: those of ops whose error scopes resolved late (in a browser) and those outside any op.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> { pollster::block_on(async {
    /// # let dev = gpuarray::Device::new_async().await?;
    /// let x = gpuarray::Array::ones(&dev, &[1 << 20], gpuarray::DType::F32)?.exp()?;
    /// dev.synchronize_async().await?; // x is computed: a timer stopped here is honest
    /// # drop(x); Ok(()) }) }
    /// ```
    pub async fn synchronize_async(&self) -> Result<()> {
        const OP: &str = "synchronize_async";
        self.inner.check_alive(OP)?;
        self.inner.flush();
        let (done, notify) = signal::Signal::new();
        self.inner.queue.on_submitted_work_done(move || notify(()));
        done.wait(&self.inner, OP).await?;
        self.inner.late_result(OP).await?;
        let errors = self.take_uncaptured_errors();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(Error::Gpu(format!("{OP}: {}", errors.join("; "))))
        }
    }

    /// Compiles every shader variant this device supports — those compiled at start-up and
    /// those otherwise compiled on first use — and returns how many, or `Err` naming each variant
    /// the driver's shader compiler rejected. A check for new drivers and browsers: naga accepting
    /// a shader does not prove that, say, Chromium's Tint will.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> { pollster::block_on(async {
    /// let dev = gpuarray::Device::new_async().await?;
    /// let n = dev.compile_variants_async().await?;
    /// assert!(n >= dev.info().pipelines);
    /// # Ok(()) }) }
    /// ```
    pub async fn compile_variants_async(&self) -> Result<usize> {
        const OP: &str = "compile_variants_async";
        let inner = &self.inner;
        let mut compiled = 0;
        let mut rejected = Vec::new();
        for &kernel in inner.families.iter().filter(|k| inner.offers(k)) {
            for variant in (kernel.variants)(&inner.dtypes) {
                if !inner.builds(kernel, variant) {
                    continue;
                }
                let key = PipelineKey::new(kernel, variant);
                // Awaited one by one so that a browser's late error names its variant.
                let done = match inner.pipeline(&key) {
                    Ok(_) => inner.late_result(OP).await,
                    Err(e) => Err(e),
                };
                match done {
                    Ok(()) => compiled += 1,
                    Err(e) => rejected.push(format!("{}: {e}", key.label())),
                }
            }
        }
        if rejected.is_empty() {
            Ok(compiled)
        } else {
            Err(Error::Gpu(format!(
                "{OP}: {} of {} variants rejected by {}: {}",
                rejected.len(),
                compiled + rejected.len(),
                inner.info.name,
                rejected.join("; ")
            )))
        }
    }

    /// Errors wgpu reported outside any op's error scope since the last call (normally none).
    pub fn take_uncaptured_errors(&self) -> Vec<String> {
        std::mem::take(
            &mut *self
                .inner
                .uncaptured
                .lock()
                .unwrap_or_else(|p| p.into_inner()),
        )
    }

    /// Compute pipelines compiled on this device so far: those compiled at start-up plus any
    /// compiled on first use. Each is compiled once and cached, so after a warm-up this stays
    /// constant however many calls follow (`GPUARRAY_LOG=1` also prints each compile).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// let dev = gpuarray::Device::new()?;
    /// let before = dev.pipelines_compiled();
    /// assert!(before >= dev.info().pipelines);
    /// # Ok(()) }
    /// ```
    pub fn pipelines_compiled(&self) -> usize {
        self.inner.compiler.pipelines.len()
    }

    /// The memory pool's counters.
    pub fn memory_stats(&self) -> MemoryStats {
        self.inner.pool.stats()
    }

    /// Caps the bytes the pool may hold (live arrays plus cache); `None` lifts the cap.
    pub fn set_memory_limit(&self, bytes: Option<u64>) {
        self.inner.pool.set_limit(bytes);
    }

    /// Releases every cached buffer that no array uses.
    pub fn empty_cache(&self) {
        self.inner.pool.empty_cache();
        self.inner.staging.empty_cache();
    }

    /// The longest any wait for the GPU may take before `Err(Timeout)`.
    pub fn timeout(&self) -> Duration {
        self.inner.timeout()
    }

    /// Sets the wait timeout, in whole milliseconds (at least 1). A timeout above
    /// [`MAX_TIMEOUT`] (100 years) is stored as `MAX_TIMEOUT`: waits are then unbounded in
    /// practice, and [`Device::timeout`] says so.
    ///
    /// ```
    /// use std::time::Duration;
    /// # fn main() -> gpuarray::Result<()> {
    /// let dev = gpuarray::Device::new()?;
    /// dev.set_timeout(Duration::from_secs(30));
    /// assert_eq!(dev.timeout(), Duration::from_secs(30));
    /// dev.set_timeout(Duration::MAX);
    /// assert_eq!(dev.timeout(), gpuarray::MAX_TIMEOUT);
    /// # Ok(()) }
    /// ```
    pub fn set_timeout(&self, timeout: Duration) {
        self.inner
            .timeout_ms
            .store(timeout_millis(timeout), Ordering::Relaxed);
    }

    /// Destroys the GPU device now. Every later op on this device (or its arrays) returns
    /// `Err(DeviceLost)`; a readback in flight returns `Err` rather than hanging.
    pub fn destroy(&self) {
        self.inner.mark_lost("Device::destroy was called");
        self.inner
            .maintainer
            .context(|| self.inner.device.destroy());
        self.inner.poll_once();
    }

    /// Whether the device has been lost (and why).
    pub fn lost_reason(&self) -> Option<String> {
        if self.inner.is_lost() {
            Some(
                self.inner
                    .lost_reason
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .clone()
                    .unwrap_or_else(|| "unknown".into()),
            )
        } else {
            None
        }
    }

    pub(crate) fn same_as(&self, other: &Device) -> bool {
        self.inner.id == other.inner.id
    }
}

impl fmt::Debug for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Device(#{}: {})", self.inner.id, self.inner.info)
    }
}

impl Drop for DeviceInner {
    /// Writes the `GPUARRAY_PROFILE` trace, if one is being recorded (native: it waits), stops
    /// the background compile and saves the pipeline cache if new pipelines were compiled.
    fn drop(&mut self) {
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.finish_whole_run();
            self.stop_compiling();
        }
    }
}

impl DeviceInner {
    pub(crate) fn is_lost(&self) -> bool {
        self.lost.load(Ordering::SeqCst)
    }

    /// `Error::DeviceLost` for `op`, with the recorded reason.
    pub(crate) fn lost_error(&self, op: &'static str) -> Error {
        let reason = self
            .lost_reason
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
            .unwrap_or_else(|| "reason unknown".into());
        Error::DeviceLost { op, reason }
    }

    pub(crate) fn mark_lost(&self, why: &str) {
        let mut r = self.lost_reason.lock().unwrap_or_else(|p| p.into_inner());
        if r.is_none() {
            *r = Some(why.to_string());
        }
        self.lost.store(true, Ordering::SeqCst);
    }

    /// `Err` naming the first op whose error scopes reported an error after it returned (only
    /// in a browser: native scopes resolve at once), once every such scope has resolved.
    pub(crate) async fn late_result(&self, op: &'static str) -> Result<()> {
        let errors = self.late_errors.settled().await;
        self.check_alive(op)?;
        if errors.is_empty() {
            Ok(())
        } else {
            Err(Error::Gpu(format!("{op}: {}", errors.join("; "))))
        }
    }

    pub(crate) fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms.load(Ordering::Relaxed))
    }

    /// Whether this adapter's subgroups are exactly 8 invocations wide (lavapipe's are).
    pub(crate) fn has_subgroups_of_8(&self) -> bool {
        self.device.features().contains(wgpu::Features::SUBGROUP) && self.subgroup_sizes == (8, 8)
    }

    /// Whether this device can run `kernel` at all: what a declared family needs (8-wide
    /// subgroups, `SHADER_INT64`: never in WebGPU).
    fn offers(&self, kernel: &KernelDef) -> bool {
        let int64 = self
            .device
            .features()
            .contains(wgpu::Features::SHADER_INT64);
        (!kernel.needs.subgroups_of_8 || self.has_subgroups_of_8())
            && (!kernel.needs.int64 || int64)
    }
}
