//! Choosing the adapter and what to ask of it: the ranking of adapters, the optional features a
//! device requests, and the sinks that catch wgpu's asynchronous error and device-lost reports
//! (wgpu's default handler would panic).

use super::{DeviceConfig, DeviceOptions, F16Mode, F64Mode};
use crate::dtype::DType;
use crate::error::{Error, Result, describe_wgpu_error};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The optional wgpu features a device asks for when the adapter has them: the feature, its name
/// in [`DeviceInfo::features`](super::DeviceInfo::features), and the dtype it enables (a dtype the caller disabled leaves its
/// feature unrequested).
pub(super) const OPTIONAL_FEATURES: [(wgpu::Features, &str, Option<DType>); 5] = [
    (wgpu::Features::SHADER_F16, "shader-f16", Some(DType::F16)),
    (wgpu::Features::SHADER_F64, "shader-f64", Some(DType::F64)),
    (wgpu::Features::SHADER_INT64, "shader-int64", None),
    (wgpu::Features::TIMESTAMP_QUERY, "timestamp-query", None),
    (wgpu::Features::SUBGROUP, "subgroup", None),
];

/// The optional features to request: those the adapter has, less those of disabled dtypes
/// (and timestamps, when the configuration hides them).
pub(super) fn requested_features(adapter: &wgpu::Adapter, config: &DeviceConfig) -> wgpu::Features {
    let have = adapter.features();
    let disabled = &config.disabled_dtypes;
    OPTIONAL_FEATURES
        .iter()
        .filter(|(f, _, dtype)| have.contains(*f) && !dtype.is_some_and(|d| disabled.contains(&d)))
        .filter(|(f, _, _)| !(config.disable_timestamps && *f == wgpu::Features::TIMESTAMP_QUERY))
        .fold(wgpu::Features::empty(), |all, (f, _, _)| all | *f)
}

/// Which of f64 and f16 a device emulates, and the features it asks for then: emulation never
/// asks for SHADER_F64 or SHADER_F16, so no kernel can use the native type by mistake. `Auto`
/// emulates where the adapter lacks the feature (f64: Metal, WebGPU, GL, many integrated GPUs;
/// f16: GL, WebGPU without shader-f16); a disabled dtype is never emulated.
pub(super) fn emulated_floats(
    mut features: wgpu::Features,
    config: &DeviceConfig,
) -> (wgpu::Features, bool, bool) {
    let emulates = |dtype: DType, feature: wgpu::Features, forced: bool, auto: bool| {
        !config.disabled_dtypes.contains(&dtype)
            && (forced || (auto && !features.contains(feature)))
    };
    let f64_emulated = emulates(
        DType::F64,
        wgpu::Features::SHADER_F64,
        config.f64 == F64Mode::Emulated,
        config.f64 == F64Mode::Auto,
    );
    let f16_emulated = emulates(
        DType::F16,
        wgpu::Features::SHADER_F16,
        config.f16 == F16Mode::Emulated,
        config.f16 == F16Mode::Auto,
    );
    if f64_emulated {
        features.remove(wgpu::Features::SHADER_F64);
    }
    if f16_emulated {
        features.remove(wgpu::Features::SHADER_F16);
    }
    (features, f64_emulated, f16_emulated)
}

/// Where wgpu's asynchronous reports land: errors outside any error scope (wgpu's default handler
/// would panic) and the device-lost callback.
pub(super) struct ErrorSinks {
    pub(super) uncaptured: Arc<Mutex<Vec<String>>>,
    pub(super) lost: Arc<AtomicBool>,
    pub(super) lost_reason: Arc<Mutex<Option<String>>>,
}

impl ErrorSinks {
    pub(super) fn install(device: &wgpu::Device) -> ErrorSinks {
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

pub(super) async fn choose_adapter(
    instance: &wgpu::Instance,
    backends: wgpu::Backends,
    opts: &DeviceOptions,
) -> Result<wgpu::Adapter> {
    // In a browser this is the one adapter `navigator.gpu.requestAdapter()` gives.
    let adapters = instance.enumerate_adapters(backends).await;
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
        let install = if cfg!(target_arch = "wasm32") {
            "this browser offers no WebGPU adapter (navigator.gpu is missing or requestAdapter() gave null; Chromium on Linux needs --enable-unsafe-webgpu)"
        } else {
            "install a GPU driver, or a CPU Vulkan driver: on Debian/Ubuntu `apt-get install mesa-vulkan-drivers libvulkan1` (lavapipe)"
        };
        if seen.is_empty() {
            Error::NoAdapter(format!("wgpu found no adapter ({wanted}); {install}"))
        } else {
            Error::NoAdapter(format!("no adapter matches ({wanted}); found: {}", seen.join(", ")))
        }
    })
}
