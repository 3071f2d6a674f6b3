//! Every shipped shader variant as text, for tools and tests that validate them without a GPU.

use super::config::CompileMode;
use super::kernel_def::Families;
use super::pipeline::{PipelineKey, Variant};
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

/// Every shader variant of `families`, for every dtype, and the software-f64 and packed-f16
/// forms of each f64 and f16 variant of a family that has them (the public `gpuarray::shader_variants` passes the crate's
/// registry).
pub(crate) fn shader_variants(families: Families) -> Vec<ShaderVariant> {
    families
        .iter()
        .flat_map(|&k| {
            // Each declared variant, and its software-f64 and packed-f16 forms (and both at
            // once) where the family has those paths.
            (k.variants)(&DType::REAL)
                .into_iter()
                .flat_map(move |v| {
                    let softs: &[bool] = if k.soft_f64 && v.has_f64() {
                        &[false, true]
                    } else {
                        &[false]
                    };
                    let packs: &[bool] = if k.packed_f16 && v.has_f16() {
                        &[false, true]
                    } else {
                        &[false]
                    };
                    softs.iter().flat_map(move |&soft| {
                        packs.iter().map(move |&f16_packed| Variant {
                            soft,
                            f16_packed,
                            ..v
                        })
                    })
                })
                .map(move |v| ShaderVariant {
                    label: PipelineKey::new(k, v).label(),
                    wgsl: k.source(v),
                    entry: k.entry,
                })
        })
        .collect()
}

/// Every pipeline the eager start-up plan compiles with `families` on an adapter with every
/// feature and dtype, as the driver receives it (or the error of a key the specializer refuses).
pub(crate) fn shader_pipelines(families: Families) -> crate::error::Result<Vec<ShaderVariant>> {
    let adapter = super::kernel_def::Adapter {
        dtypes: &DType::REAL,
        subgroups_of_8: true,
        int64: true,
        is_cpu: true,
        f16_packed: false,
        chosen: None,
    };
    let mut keys = startup::immediate(&DType::REAL, families);
    keys.extend(startup::background(CompileMode::Eager, &adapter, families));
    keys.into_iter()
        .map(|key| {
            Ok(ShaderVariant {
                label: key.label(),
                wgsl: key.wgsl()?,
                entry: key.kernel.entry,
            })
        })
        .collect()
}
