//! Listing the adapters wgpu finds (native only): what each offers — features, limits, the
//! dtypes a device on it would support — and which one [`Device::new`](super::Device::new)
//! would pick. The `gpuarray info` command prints this.

use super::adapter::{OPTIONAL_FEATURES, choose_adapter};
use super::{Backend, DeviceOptions};
use crate::dtype::DType;
use crate::error::Result;

/// One adapter wgpu finds, as [`adapters`] reports it.
#[derive(Debug, Clone)]
pub struct AdapterInfo {
    /// The adapter's name, e.g. `llvmpipe (LLVM 15.0.6, 256 bits)`.
    pub name: String,
    /// The graphics API (`Vulkan`, `Metal`, `Dx12`, `Gl`).
    pub backend: String,
    /// `DiscreteGpu`, `IntegratedGpu`, `VirtualGpu`, `Cpu` or `Other`.
    pub device_type: String,
    /// The driver's name.
    pub driver: String,
    /// Driver version and details.
    pub driver_info: String,
    /// The optional features gpuarray uses that the adapter has (`shader-f16`, `shader-f64`,
    /// `shader-int64`, `timestamp-query`, `subgroup`).
    pub features: Vec<&'static str>,
    /// Every wgpu feature the adapter has, by wgpu's name (`SHADER_F16`, ...).
    pub wgpu_features: Vec<&'static str>,
    /// The adapter's limits (a device on it requests exactly these).
    pub limits: wgpu::Limits,
    /// The dtypes a device on this adapter supports.
    pub dtypes: Vec<DType>,
    /// Whether [`Device::with_options`](super::Device::with_options) with the options given
    /// to [`adapters_with`] (for [`adapters`]: the environment's) would pick this adapter.
    pub chosen: bool,
}

impl std::fmt::Display for AdapterInfo {
    /// One line: `name (driver info) · backend · type`, like [`DeviceInfo`](super::DeviceInfo).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        super::adapter_line(
            f,
            &self.name,
            &self.driver_info,
            &self.backend,
            &self.device_type,
        )
    }
}

/// Every adapter wgpu finds on every backend, with the one [`Device::new`](super::Device::new)
/// would pick marked `chosen` (the environment's `GPUARRAY_BACKEND`, `GPUARRAY_ADAPTER` and
/// `GPUARRAY_FORCE_FALLBACK` apply to that choice, not to the list). Native only.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// for a in gpuarray::adapters()? {
///     let mark = if a.chosen { "*" } else { " " };
///     println!("{mark} {a}: {:?}, {} MiB bindings", a.dtypes, a.limits.max_storage_buffer_binding_size >> 20);
/// }
/// # Ok(()) }
/// ```
pub fn adapters() -> Result<Vec<AdapterInfo>> {
    adapters_with(&DeviceOptions::from_env()?)
}

/// [`adapters`] with the choice made by `options` instead of the environment's.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// let opts = gpuarray::DeviceOptions { force_fallback: true, ..Default::default() };
/// let list = gpuarray::adapters_with(&opts)?;
/// assert!(list.iter().filter(|a| a.chosen).all(|a| a.device_type == "Cpu"));
/// assert!(list.iter().filter(|a| a.chosen).count() <= 1);
/// # Ok(()) }
/// ```
pub fn adapters_with(options: &DeviceOptions) -> Result<Vec<AdapterInfo>> {
    pollster::block_on(async {
        let all = wgpu::Backends::PRIMARY | wgpu::Backends::GL;
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        desc.backends = all;
        let instance = wgpu::Instance::new(desc);
        // The same choice as Device::with_config: the options' backend (else all), then rank.
        let backends = options.backend.map(Backend::wgpu).unwrap_or(all);
        let chosen = choose_adapter(&instance, backends, options)
            .await
            .ok()
            .map(|a| a.get_info());
        let found = instance.enumerate_adapters(all).await;
        Ok(found
            .iter()
            .map(|a| {
                let info = a.get_info();
                let have = a.features();
                AdapterInfo {
                    name: info.name.clone(),
                    backend: format!("{:?}", info.backend),
                    device_type: format!("{:?}", info.device_type),
                    driver: info.driver.clone(),
                    driver_info: info.driver_info.clone(),
                    features: OPTIONAL_FEATURES
                        .iter()
                        .filter(|f| have.contains(f.0))
                        .map(|f| f.1)
                        .collect(),
                    wgpu_features: have.iter_names().map(|(name, _)| name).collect(),
                    limits: a.limits(),
                    dtypes: DType::ALL
                        .into_iter()
                        .filter(|d| match d {
                            DType::F16 => have.contains(wgpu::Features::SHADER_F16),
                            DType::F64 | DType::C128 => have.contains(wgpu::Features::SHADER_F64),
                            _ => true,
                        })
                        .collect(),
                    chosen: chosen.as_ref() == Some(&info),
                }
            })
            .collect())
    })
}
