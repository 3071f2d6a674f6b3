//! `gpuarray info`: the adapters wgpu finds and which one the other commands use.

use crate::CliResult;
use gpuarray::{AdapterInfo, DeviceOptions};
use serde_json::json;

/// The limits worth a line, by wgpu's names.
fn limits(a: &AdapterInfo) -> Vec<(&'static str, u64)> {
    let l = &a.limits;
    vec![
        ("max_buffer_size", l.max_buffer_size),
        (
            "max_storage_buffer_binding_size",
            l.max_storage_buffer_binding_size,
        ),
        (
            "max_storage_buffers_per_shader_stage",
            u64::from(l.max_storage_buffers_per_shader_stage),
        ),
        (
            "max_compute_workgroup_storage_size",
            u64::from(l.max_compute_workgroup_storage_size),
        ),
        (
            "max_compute_invocations_per_workgroup",
            u64::from(l.max_compute_invocations_per_workgroup),
        ),
        (
            "max_compute_workgroup_size_x",
            u64::from(l.max_compute_workgroup_size_x),
        ),
        (
            "max_compute_workgroups_per_dimension",
            u64::from(l.max_compute_workgroups_per_dimension),
        ),
        (
            "min_storage_buffer_offset_alignment",
            u64::from(l.min_storage_buffer_offset_alignment),
        ),
    ]
}

pub fn run(options: &DeviceOptions, json: bool) -> CliResult<()> {
    let list = gpuarray::adapters_with(options).map_err(|e| e.to_string())?;
    let chosen = list.iter().find(|a| a.chosen);
    if json {
        let adapters: Vec<_> = list
            .iter()
            .map(|a| {
                json!({
                    "name": a.name,
                    "backend": a.backend,
                    "device_type": a.device_type,
                    "driver": a.driver,
                    "driver_info": a.driver_info,
                    "features": a.features,
                    "wgpu_features": a.wgpu_features,
                    "dtypes": a.dtypes.iter().map(|d| d.name()).collect::<Vec<_>>(),
                    "limits": limits(a)
                        .into_iter()
                        .map(|(k, v)| (k.to_string(), json!(v)))
                        .collect::<serde_json::Map<_, _>>(),
                    "chosen": a.chosen,
                })
            })
            .collect();
        let out = json!({ "adapters": adapters, "chosen": chosen.map(|a| a.to_string()) });
        println!(
            "{}",
            serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?
        );
        return Ok(());
    }
    if list.is_empty() {
        println!("wgpu found no adapter. Install a GPU driver, or a CPU Vulkan driver (Debian/Ubuntu: apt-get install mesa-vulkan-drivers libvulkan1).");
    }
    for (i, a) in list.iter().enumerate() {
        let mark = if a.chosen {
            "  <- used by the other commands"
        } else {
            ""
        };
        println!("adapter {i}: {}{mark}", a.name);
        println!("  backend:  {}", a.backend);
        println!("  type:     {}", a.device_type);
        println!("  driver:   {} ({})", a.driver, a.driver_info);
        let dtypes: Vec<&str> = a.dtypes.iter().map(|d| d.name()).collect();
        println!("  dtypes:   {}", dtypes.join(" "));
        println!("  features: {}", a.features.join(" "));
        println!("  wgpu features: {}", a.wgpu_features.join(" "));
        println!("  limits:");
        for (name, v) in limits(a) {
            println!("    {name:<40} {v}");
        }
    }
    match chosen {
        Some(a) => println!("Device::new() picks: {a}"),
        None if !list.is_empty() => {
            println!("Device::new() picks: none (no adapter matches the options)")
        }
        None => {}
    }
    Ok(())
}
