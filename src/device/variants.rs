//! Every shipped shader variant as text, for tools and tests that validate them without a GPU.

use super::config::CompileMode;
use super::kernels::Kernel;
use super::pipeline::PipelineKey;
use super::startup;
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

/// Every pipeline the eager start-up plan compiles on an adapter with every feature and dtype,
/// as the driver receives it: the variant's WGSL with each `switch` on an override reduced to
/// the case the pipeline's constants select. Labels carry those constants
/// (`binary_float_vec4[f32]{OP=0,SCALAR=0}`).
///
/// ```
/// let pipelines = gpuarray::shader_pipelines();
/// let add = pipelines
///     .iter()
///     .find(|p| p.label == "binary_float_vec4[f32]{OP=0,SCALAR=0}")
///     .unwrap();
/// // Only `add`'s case of the op switch is left.
/// assert!(add.wgsl.contains("return a + b;") && !add.wgsl.contains("logaddexp_(a, b, true)"));
/// ```
pub fn shader_pipelines() -> Vec<ShaderVariant> {
    let adapter = startup::Adapter {
        dtypes: &DType::ALL,
        subgroups_of_8: true,
        int64: true,
        is_cpu: true,
        chosen_sgb: None,
    };
    let mut keys = startup::immediate(&DType::ALL);
    keys.extend(startup::background(CompileMode::Eager, &adapter));
    keys.into_iter()
        .map(|key| ShaderVariant {
            label: key.label(),
            wgsl: key.wgsl(),
            entry: key.kernel.spec().entry,
        })
        .collect()
}
