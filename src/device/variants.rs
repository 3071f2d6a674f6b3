//! Every shipped shader variant as text, for tools and tests that validate them without a GPU.

use super::kernels::Kernel;
use super::pipeline::PipelineKey;
use crate::dtype::DType;

/// One shipped shader variant: its label and its complete WGSL source.
///
/// Returned by [`shader_variants`] so tools and tests can validate every variant the crate can
/// compile, exactly as it ships, without a GPU.
#[derive(Debug, Clone)]
pub struct ShaderVariant {
    /// `kernel[dtypes]`, e.g. `copy[f32->f16]`.
    pub label: String,
    /// The WGSL text handed to the driver.
    pub wgsl: String,
    /// The entry point compiled from it.
    pub entry: &'static str,
}

/// Every shader variant the crate ships, for every dtype (what an adapter with every feature
/// compiles at start-up).
///
/// ```
/// let variants = gpuarray::shader_variants();
/// assert!(variants.iter().any(|v| v.label == "copy[f32->f64]"));
/// ```
pub fn shader_variants() -> Vec<ShaderVariant> {
    Kernel::all()
        .into_iter()
        .flat_map(|k| {
            k.variants(&DType::ALL)
                .into_iter()
                .map(move |v| ShaderVariant {
                    label: PipelineKey::new(k, v).label(),
                    wgsl: k.wgsl(v),
                    entry: k.spec().entry,
                })
        })
        .collect()
}
