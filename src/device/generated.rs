//! Pipelines from WGSL generated at run time: user kernels and fused kernels
//! (`crate::kernels`). The device compiles them as it compiles its families' pipelines —
//! inside error scopes, through the driver cache saved on disk, counted in
//! [`CompileStats`](crate::CompileStats) — but does not key or keep them: their owner caches
//! them by their source, on the device's extensions.

use super::DeviceInner;
use super::config::MathMode;
use crate::error::{Error, Result};

impl DeviceInner {
    /// Compiles `source` (entry point `entry`; `fast_math`: the name in `source` of the math
    /// library's `FAST_MATH` override, which follows the device's math mode). An invalid module is `Err(Gpu)`
    /// with wgpu's message (native; in a browser the error arrives at the next await).
    /// `GPUARRAY_LOG=2` prints the source.
    pub(crate) fn compile_generated(
        &self,
        label: &str,
        source: &str,
        entry: &str,
        fast_math: Option<&str>,
    ) -> Result<wgpu::ComputePipeline> {
        if log_sources() {
            eprintln!("gpuarray: WGSL of {label}:\n{source}");
        }
        // As a family's: switches on overrides reduced, unreached functions left out.
        let reduced = super::specialize::specialize(source, &[], entry)
            .map_err(|why| Error::Gpu(format!("kernel {label}: {why}")))?;
        let _compile = self
            .profiler
            .host_call("compile", super::profile::CallKind::Compile);
        self.guarded("compile", || {
            Ok(self.create_generated(label, &reduced, entry, fast_math))
        })
        .map_err(|e| match e {
            Error::Gpu(why) => Error::Gpu(format!("compiling kernel {label}: {why}")),
            e => e,
        })
    }
}

impl DeviceInner {
    /// Creates the pipeline (the caller holds the error scopes): not a family's, so not in the
    /// pipeline cache (its owner caches it), but like a family's through the driver cache,
    /// counted in the stats and saved with the plan's.
    fn create_generated(
        &self,
        label: &str,
        source: &str,
        entry: &str,
        fast_math: Option<&str>,
    ) -> wgpu::ComputePipeline {
        let c = &self.compiler;
        let started = web_time::Instant::now();
        let constants: Vec<(&str, f64)> = match fast_math {
            Some(name) if c.math == MathMode::Fast => vec![(name, 1.0)],
            _ => vec![],
        };
        let pipeline = c.in_context(|| {
            let module = c.device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(label),
                source: wgpu::ShaderSource::Wgsl(source.into()),
            });
            c.device
                .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(label),
                    layout: None,
                    module: &module,
                    entry_point: Some(entry),
                    compilation_options: wgpu::PipelineCompilationOptions {
                        constants: &constants,
                        zero_initialize_workgroup_memory: true,
                    },
                    cache: c.driver_cache.as_ref(),
                })
        });
        let took = started.elapsed();
        c.count_generated(took);
        if c.log {
            eprintln!(
                "gpuarray: compiled {label} in {:.1} ms (generated WGSL)",
                took.as_secs_f64() * 1e3
            );
        }
        pipeline
    }
}

/// `GPUARRAY_LOG=2`: the dispatch log, and the WGSL of every generated kernel.
pub(super) fn log_sources() -> bool {
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::env::var("GPUARRAY_LOG").is_ok_and(|v| v.trim() == "2")
    }
    #[cfg(target_arch = "wasm32")]
    {
        false
    }
}
