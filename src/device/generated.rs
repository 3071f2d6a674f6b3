//! Pipelines from WGSL generated at run time: user kernels and fused kernels
//! (`crate::kernels`). The device compiles them as it compiles its families' pipelines —
//! inside error scopes, through the driver cache saved on disk, counted in
//! [`CompileStats`](crate::CompileStats) — but does not key or keep them: their owner caches
//! them by their source, on the device's extensions.

use super::DeviceInner;
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
            Ok(self
                .compiler
                .create_generated(label, &reduced, entry, fast_math))
        })
        .map_err(|e| match e {
            Error::Gpu(why) => Error::Gpu(format!("compiling kernel {label}: {why}")),
            e => e,
        })
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
