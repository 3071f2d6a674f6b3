//! The `Device`: adapter choice, limits and features, kernels compiled at start-up, the memory
//! pools and the scheduler, behind one cheap-to-clone handle.

pub(crate) mod blocks;
mod config;
mod extensions;
mod kernels;
mod launch;
pub(crate) mod matmul_sgb;
pub(crate) mod op_codes;
pub(crate) mod params;
mod pipeline;
pub mod profile;
mod scheduler;
mod staging;
mod wgsl_helpers;

use config::{env_flag, timeout_millis};
pub use config::{Backend, DeviceConfig, DeviceOptions, MAX_TIMEOUT};
pub use kernels::{shader_variants, ShaderVariant};
pub(crate) use kernels::{BinarySet, Form, Kernel, UnarySet};
pub(crate) use launch::Binding;
pub(crate) use pipeline::{PipelineKey, Variant};
pub(crate) use profile::Work;
pub(crate) use staging::{read_bytes, read_bytes_async};

use crate::dtype::DType;
use crate::error::{describe_wgpu_error, Error, Result};
use crate::memory::{Maintainer, MemoryStats, Pool, WgpuBacking};
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
}

impl fmt::Display for DeviceInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        if !self.driver_info.is_empty() {
            write!(f, " ({})", self.driver_info)?;
        }
        write!(f, " · {} · {}", self.backend, self.device_type)
    }
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
    pub pipelines: pipeline::PipelineCache,
    pub pool: Arc<Pool<WgpuBacking>>,
    pub staging: Arc<Pool<WgpuBacking>>,
    pending: Mutex<scheduler::Pending>,
    /// Serialises submits and polls (a wgpu-core race; see `memory/maintain.rs`).
    pub maintainer: Arc<Maintainer>,
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

impl Device {
    /// The best adapter the environment allows (see [`DeviceConfig::from_env`]): a discrete GPU
    /// before an integrated one, before a CPU adapter such as lavapipe.
    pub fn new() -> Result<Device> {
        Device::with_config(DeviceConfig::from_env()?)
    }

    /// A device chosen by `options`; other settings from the environment.
    pub fn with_options(options: DeviceOptions) -> Result<Device> {
        Device::with_config(DeviceConfig {
            options,
            ..DeviceConfig::from_env()?
        })
    }

    /// A device with every setting explicit.
    pub fn with_config(config: DeviceConfig) -> Result<Device> {
        let started = Instant::now();
        let backends = config
            .options
            .backend
            .map(Backend::wgpu)
            .unwrap_or(wgpu::Backends::PRIMARY | wgpu::Backends::GL);
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        desc.backends = backends;
        let instance = wgpu::Instance::new(desc);
        let adapter = choose_adapter(&instance, backends, &config.options)?;
        let ainfo = adapter.get_info();

        let features = requested_features(&adapter, &config);
        // The adapter's full limits (the defaults cap buffers at 256 MiB), optionally lowered.
        let mut limits = adapter.limits();
        if let Some(b) = config.max_binding_size {
            limits.max_storage_buffer_binding_size =
                limits.max_storage_buffer_binding_size.min(b.max(4096));
        }
        if let Some(m) = config.max_buffer_size {
            limits.max_buffer_size = limits.max_buffer_size.min(m);
            limits.max_storage_buffer_binding_size = limits.max_storage_buffer_binding_size.min(m);
        }
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("gpuarray"),
            required_features: features,
            required_limits: limits.clone(),
            experimental_features: wgpu::ExperimentalFeatures::disabled(),
            memory_hints: wgpu::MemoryHints::Performance,
            trace: wgpu::Trace::Off,
        }))
        .map_err(|e| Error::NoAdapter(format!("{} refused to create a device: {e}", ainfo.name)))?;

        let sinks = ErrorSinks::install(&device);
        let queue_period = queue.get_timestamp_period();
        let limits = device.limits();
        let dtypes: Vec<DType> = DType::ALL
            .into_iter()
            .filter(|d| match d {
                DType::F16 => features.contains(wgpu::Features::SHADER_F16),
                DType::F64 => features.contains(wgpu::Features::SHADER_F64),
                _ => true,
            })
            .collect();
        let storage_usage = wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_SRC
            | wgpu::BufferUsages::COPY_DST;
        let staging_usage = wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST;
        let maintainer = Arc::new(Maintainer::default());
        let pool = Pool::new(
            WgpuBacking::new(&device, &maintainer, storage_usage, "gpuarray array"),
            limits.max_buffer_size,
            config.memory_limit,
        );
        let staging = Pool::new(
            WgpuBacking::new(&device, &maintainer, staging_usage, "gpuarray readback"),
            limits.max_buffer_size,
            None,
        );
        let timeout = config.timeout.unwrap_or(Duration::from_secs(600));
        let info = DeviceInfo {
            name: ainfo.name.clone(),
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
        };
        let mut inner = DeviceInner {
            id: NEXT_DEVICE_ID.fetch_add(1, Ordering::Relaxed),
            device,
            queue,
            info,
            limits,
            dtypes,
            pipelines: pipeline::PipelineCache::default(),
            pool,
            staging,
            pending: Mutex::new(Default::default()),
            maintainer,
            lost: sinks.lost,
            lost_reason: sinks.lost_reason,
            uncaptured: sinks.uncaptured,
            timeout_ms: AtomicU64::new(timeout_millis(timeout)),
            log_dispatches: env_flag("GPUARRAY_LOG"),
            subgroup_sizes: (ainfo.subgroup_min_size, ainfo.subgroup_max_size),
            is_cpu: ainfo.device_type == wgpu::DeviceType::Cpu,
            extensions: Default::default(),
            profiler: profile::Profiler::new(
                features.contains(wgpu::Features::TIMESTAMP_QUERY),
                queue_period,
            ),
        };
        // Compile every kernel for every supported dtype now, so no op pays for it later.
        let compile_started = Instant::now();
        inner.compile_all()?;
        inner.info.pipelines = inner.pipelines.len();
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
        Ok(Device {
            inner: Arc::new(inner),
        })
    }

    /// What this device runs on.
    pub fn info(&self) -> &DeviceInfo {
        &self.inner.info
    }

    /// Whether arrays of `dtype` can live on this device.
    pub fn supports(&self, dtype: DType) -> bool {
        self.inner.dtypes.contains(&dtype)
    }

    /// The device's wgpu limits (the adapter's, as granted).
    pub fn limits(&self) -> &wgpu::Limits {
        &self.inner.limits
    }

    /// Submits all recorded work and waits for it; reports errors that wgpu raised outside any
    /// op (for example on another thread) since the last call.
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
        self.inner.pipelines.len()
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
        self.inner.device.destroy();
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

/// Checks every array constructor makes before it allocates.
impl Device {
    /// The bytes of `numel` elements of `dtype`, or `Err(TooLarge)` past the adapter's
    /// `max_buffer_size`. Host code that sizes a vector from the caller's numbers (random
    /// indices, say) checks the array it will upload or produce with this first, so a request
    /// the device could never hold fails before the host allocates for it.
    pub(crate) fn check_buffer_size(
        &self,
        op: &'static str,
        numel: usize,
        dtype: DType,
    ) -> Result<u64> {
        let bytes = (numel as u64)
            .checked_mul(dtype.size_bytes())
            .ok_or_else(|| {
                Error::overflow(
                    op,
                    format!("{numel} elements of {dtype} need 2^64 bytes or more, past any buffer"),
                )
            })?;
        let max = self.inner.limits.max_buffer_size;
        if bytes > max {
            return Err(Error::TooLarge {
                op,
                requested: bytes,
                max,
                what: "max_buffer_size",
            });
        }
        Ok(bytes)
    }

    /// `Err(Unsupported)` unless arrays of `dtype` can live on this device.
    pub(crate) fn check_dtype(&self, op: &'static str, dtype: DType) -> Result<()> {
        self.inner.check_alive(op)?;
        if self.supports(dtype) {
            return Ok(());
        }
        let feature = match dtype {
            DType::F16 => "SHADER_F16 (WGSL `enable f16`)",
            DType::F64 => "SHADER_F64 (native-only; not in WebGPU or Metal)",
            _ => "a feature this adapter lacks",
        };
        Err(Error::Unsupported {
            op,
            feature: format!(
                "dtype {dtype} needs the adapter feature {feature}, which {} does not offer",
                self.info().name
            ),
        })
    }
}

impl fmt::Debug for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Device(#{}: {})", self.inner.id, self.inner.info)
    }
}

impl Drop for DeviceInner {
    /// Writes the `GPUARRAY_PROFILE` trace, if one is being recorded.
    fn drop(&mut self) {
        self.finish_whole_run();
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

    pub(crate) fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms.load(Ordering::Relaxed))
    }

    /// Whether this adapter's subgroups are exactly 8 invocations wide (lavapipe's are).
    pub(crate) fn has_subgroups_of_8(&self) -> bool {
        self.device.features().contains(wgpu::Features::SUBGROUP) && self.subgroup_sizes == (8, 8)
    }

    fn compile_all(&self) -> Result<()> {
        for kernel in Kernel::all().into_iter().filter(|k| k.spec().eager) {
            if kernel.spec().needs_subgroup_of_8 && !self.has_subgroups_of_8() {
                continue;
            }
            for variant in kernel.variants(&self.dtypes) {
                self.compile(&PipelineKey::new(kernel, variant))?;
            }
        }
        Ok(())
    }

    /// Compiles (or finds) the pipeline for `key`.
    pub(crate) fn pipeline(&self, key: &PipelineKey) -> Result<wgpu::ComputePipeline> {
        match self.pipelines.get(key) {
            Some(p) => Ok(p),
            None => self.compile(key),
        }
    }

    fn compile(&self, key: &PipelineKey) -> Result<wgpu::ComputePipeline> {
        let label = key.label();
        let source = key.kernel.wgsl(key.variant);
        let constants: Vec<(&str, f64)> =
            key.constants.iter().map(|&(n, v)| (n, v as f64)).collect();
        let pipeline = self
            .guarded("compile", || {
                let module = self
                    .device
                    .create_shader_module(wgpu::ShaderModuleDescriptor {
                        label: Some(&label),
                        source: wgpu::ShaderSource::Wgsl(source.into()),
                    });
                Ok(self
                    .device
                    .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                        label: Some(&label),
                        layout: None,
                        module: &module,
                        entry_point: Some(key.kernel.spec().entry),
                        compilation_options: wgpu::PipelineCompilationOptions {
                            constants: &constants,
                            zero_initialize_workgroup_memory: false,
                        },
                        cache: None,
                    }))
            })
            .map_err(|e| Error::Gpu(format!("compiling kernel {label}: {e}")))?;
        self.pipelines.insert(key.clone(), pipeline.clone());
        if self.log_dispatches {
            eprintln!(
                "gpuarray: compiled {label} ({} pipelines on this device)",
                self.pipelines.len()
            );
        }
        Ok(pipeline)
    }
}

/// The optional wgpu features a device asks for when the adapter has them: the feature, its name
/// in [`DeviceInfo::features`], and the dtype it enables (a dtype the caller disabled leaves its
/// feature unrequested).
const OPTIONAL_FEATURES: [(wgpu::Features, &str, Option<DType>); 5] = [
    (wgpu::Features::SHADER_F16, "shader-f16", Some(DType::F16)),
    (wgpu::Features::SHADER_F64, "shader-f64", Some(DType::F64)),
    (wgpu::Features::SHADER_INT64, "shader-int64", None),
    (wgpu::Features::TIMESTAMP_QUERY, "timestamp-query", None),
    (wgpu::Features::SUBGROUP, "subgroup", None),
];

/// The optional features to request: those the adapter has, less those of disabled dtypes
/// (and timestamps, when the configuration hides them).
fn requested_features(adapter: &wgpu::Adapter, config: &DeviceConfig) -> wgpu::Features {
    let have = adapter.features();
    let disabled = &config.disabled_dtypes;
    OPTIONAL_FEATURES
        .iter()
        .filter(|(f, _, dtype)| have.contains(*f) && !dtype.is_some_and(|d| disabled.contains(&d)))
        .filter(|(f, _, _)| !(config.disable_timestamps && *f == wgpu::Features::TIMESTAMP_QUERY))
        .fold(wgpu::Features::empty(), |all, (f, _, _)| all | *f)
}

/// Where wgpu's asynchronous reports land: errors outside any error scope (wgpu's default handler
/// would panic) and the device-lost callback.
struct ErrorSinks {
    uncaptured: Arc<Mutex<Vec<String>>>,
    lost: Arc<AtomicBool>,
    lost_reason: Arc<Mutex<Option<String>>>,
}

impl ErrorSinks {
    fn install(device: &wgpu::Device) -> ErrorSinks {
        let sinks = ErrorSinks {
            uncaptured: Arc::new(Mutex::new(Vec::new())),
            lost: Arc::new(AtomicBool::new(false)),
            lost_reason: Arc::new(Mutex::new(None)),
        };
        let sink = Arc::clone(&sinks.uncaptured);
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            let msg = describe_wgpu_error(&e);
            log::error!("uncaptured wgpu error: {msg}");
            sink.lock().unwrap_or_else(|p| p.into_inner()).push(msg);
        }));
        let (lost, reason) = (Arc::clone(&sinks.lost), Arc::clone(&sinks.lost_reason));
        device.set_device_lost_callback(move |why, msg| {
            // Keep a reason recorded first (Device::destroy records its own before wgpu's
            // callback says only "Destroyed").
            let mut r = reason.lock().unwrap_or_else(|p| p.into_inner());
            if r.is_none() {
                *r = Some(if msg.is_empty() {
                    format!("{why:?}")
                } else {
                    format!("{why:?}: {msg}")
                });
            }
            lost.store(true, Ordering::SeqCst);
        });
        sinks
    }
}

fn choose_adapter(
    instance: &wgpu::Instance,
    backends: wgpu::Backends,
    opts: &DeviceOptions,
) -> Result<wgpu::Adapter> {
    let adapters = pollster::block_on(instance.enumerate_adapters(backends));
    let seen: Vec<String> = adapters
        .iter()
        .map(|a| {
            let i = a.get_info();
            format!("{} ({:?}, {:?})", i.name, i.backend, i.device_type)
        })
        .collect();
    let rank = |t: wgpu::DeviceType| match t {
        wgpu::DeviceType::DiscreteGpu => 0,
        wgpu::DeviceType::IntegratedGpu => 1,
        wgpu::DeviceType::VirtualGpu => 2,
        wgpu::DeviceType::Cpu => 3,
        wgpu::DeviceType::Other => 4,
    };
    let backend_rank = |b: wgpu::Backend| match b {
        wgpu::Backend::Vulkan | wgpu::Backend::Metal | wgpu::Backend::Dx12 => 0,
        _ => 1,
    };
    let best = adapters
        .into_iter()
        .filter(|a| {
            let i = a.get_info();
            let name_ok = opts
                .adapter_name
                .as_ref()
                .is_none_or(|n| i.name.to_lowercase().contains(&n.to_lowercase()));
            let type_ok = !opts.force_fallback || i.device_type == wgpu::DeviceType::Cpu;
            name_ok && type_ok
        })
        .min_by_key(|a| {
            let i = a.get_info();
            (rank(i.device_type), backend_rank(i.backend))
        });
    best.ok_or_else(|| {
        let wanted = format!(
            "backend {}, name {}, {}",
            opts.backend.map(|b| format!("{b:?}")).unwrap_or_else(|| "any".into()),
            opts.adapter_name.as_deref().unwrap_or("any"),
            if opts.force_fallback { "CPU adapters only" } else { "any type" }
        );
        let install = "install a GPU driver, or a CPU Vulkan driver: on Debian/Ubuntu `apt-get install mesa-vulkan-drivers libvulkan1` (lavapipe)";
        if seen.is_empty() {
            Error::NoAdapter(format!("wgpu found no adapter ({wanted}); {install}"))
        } else {
            Error::NoAdapter(format!("no adapter matches ({wanted}); found: {}", seen.join(", ")))
        }
    })
}
