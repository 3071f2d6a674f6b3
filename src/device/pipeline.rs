//! A compiled pipeline's identity — kernel, dtype variant, override constants — and the cache of
//! compiled pipelines keyed by it.

use super::kernel_def::KernelDef;
use crate::dtype::DType;
use std::collections::HashMap;
use std::sync::RwLock;

/// The dtypes one variant is specialised for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Variant {
    pub a: DType,
    pub b: Option<DType>,
    /// Its f64 is software binary64 on word pairs (`F64Mode::Emulated`). Ops key variants by
    /// dtype only; the device sets this on the f64 variants of an emulating device.
    pub soft: bool,
    /// Its f16 is packed two per `u32` word and computed in f32 (`F16Mode::Emulated`). Set by
    /// the device, as `soft`, on the f16 variants of an emulating device.
    pub f16_packed: bool,
}

impl Variant {
    pub fn one(a: DType) -> Self {
        Variant {
            a,
            b: None,
            soft: false,
            f16_packed: false,
        }
    }
    pub fn pair(a: DType, b: DType) -> Self {
        Variant {
            a,
            b: Some(b),
            soft: false,
            f16_packed: false,
        }
    }
    /// Whether either dtype is f64.
    pub fn has_f64(&self) -> bool {
        self.a == DType::F64 || self.b == Some(DType::F64)
    }
    /// Whether either dtype is f16.
    pub fn has_f16(&self) -> bool {
        self.a == DType::F16 || self.b == Some(DType::F16)
    }
    /// The variant as the families declare it: neither software f64 nor packed f16.
    pub fn declared(&self) -> Self {
        Variant {
            soft: false,
            f16_packed: false,
            ..*self
        }
    }
    /// The dtype whose WGSL storage type holds `d`'s bits in this variant: `U64`'s word pairs
    /// for software f64 and `U16`'s packed half-words for packed f16 (the same bytes), `d`
    /// itself otherwise. For kernels that only move bits, and (software f64, whose compute type
    /// is its word pair too) for element access.
    pub fn stored(&self, d: DType) -> DType {
        if self.soft && d == DType::F64 {
            DType::U64
        } else if self.is_packed(d) {
            DType::U16
        } else {
            d
        }
    }
    /// The WGSL type `d`'s values are computed in: software f64's word pair, else the dtype's
    /// own compute type (f32 for f16, packed or not).
    pub fn compute_wgsl(&self, d: DType) -> &'static str {
        self.stored_if_soft(d).wgsl_compute()
    }
    fn stored_if_soft(&self, d: DType) -> DType {
        if self.is_soft(d) { DType::U64 } else { d }
    }
    /// Whether `d` is packed f16 in this variant.
    pub fn is_packed(&self, d: DType) -> bool {
        self.f16_packed && d == DType::F16
    }
    /// Whether `d` is software f64 in this variant.
    pub fn is_soft(&self, d: DType) -> bool {
        self.soft && d == DType::F64
    }
    fn name(&self, d: DType) -> String {
        if self.is_soft(d) {
            "f64s".to_string()
        } else if self.is_packed(d) {
            "f16p".to_string()
        } else {
            d.to_string()
        }
    }
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.b {
            Some(b) => write!(f, "{}->{}", self.name(self.a), self.name(b)),
            None => write!(f, "{}", self.name(self.a)),
        }
    }
}

/// A compiled pipeline's identity.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct PipelineKey {
    /// The family (declared by its owner, equal by name).
    pub kernel: &'static KernelDef,
    pub variant: Variant,
    /// Override constants, sorted by name.
    pub constants: Vec<(&'static str, u32)>,
}

/// The workgroup size of the element-wise kernels.
pub(crate) const DEFAULT_WG: u32 = 256;
/// Elements each invocation of an element-wise kernel handles.
pub(crate) const DEFAULT_EPT: u32 = 8;

impl PipelineKey {
    pub fn new(kernel: &'static KernelDef, variant: Variant) -> Self {
        PipelineKey {
            kernel,
            variant,
            constants: kernel.constants.to_vec(),
        }
    }
    /// A key with only the workgroup size (kernels without an `EPT` override).
    pub fn bare(kernel: &'static KernelDef, variant: Variant) -> Self {
        PipelineKey {
            kernel,
            variant,
            constants: vec![("WG", DEFAULT_WG)],
        }
    }
    /// Elements one workgroup covers (`WG * EPT`).
    pub fn elements_per_workgroup(&self) -> u64 {
        let get = |name: &str, default: u32| {
            self.constants
                .iter()
                .find(|c| c.0 == name)
                .map_or(default, |c| c.1) as u64
        };
        get("WG", DEFAULT_WG) * get("EPT", 1)
    }
    /// Adds (or replaces) an override constant, keeping the list sorted by name.
    pub fn with(mut self, name: &'static str, value: u32) -> Self {
        self.constants.retain(|c| c.0 != name);
        self.constants.push((name, value));
        self.constants.sort();
        self
    }
    /// The WGSL this pipeline is created from: its variant's source with each `switch` on an
    /// override reduced to the case the key's constants select (see `specialize.rs`), or the
    /// error of an `OP` value its source has no `case` for.
    pub fn wgsl(&self) -> crate::error::Result<String> {
        super::specialize::specialize(
            &self.kernel.source(self.variant),
            &self.constants,
            self.kernel.entry,
        )
        .map_err(|why| {
            if self.variant.soft && why.contains("has no `case`") {
                // The software f64 op files cover part of the table so far.
                crate::error::Error::Unsupported {
                    op: self.kernel.name,
                    feature: format!(
                        "kernel {} on emulated float64: {why} (GPUARRAY_F64=native uses the \
                         adapter's own float64 where it has SHADER_F64)",
                        self.label()
                    ),
                }
            } else {
                crate::error::Error::Gpu(format!("kernel {}: {why}", self.label()))
            }
        })
    }
    pub fn label(&self) -> String {
        let extra: Vec<String> = self
            .constants
            .iter()
            .filter(|c| c.0 != "EPT" && c.0 != "WG")
            .map(|c| format!("{}={}", c.0, c.1))
            .collect();
        if extra.is_empty() {
            format!("{}[{}]", self.kernel.name, self.variant)
        } else {
            format!(
                "{}[{}]{{{}}}",
                self.kernel.name,
                self.variant,
                extra.join(",")
            )
        }
    }
}

/// Compiled pipelines; filled at start-up, extended lazily for new override constants.
#[derive(Default)]
pub(crate) struct PipelineCache {
    map: RwLock<HashMap<PipelineKey, wgpu::ComputePipeline>>,
}

impl PipelineCache {
    pub fn get(&self, key: &PipelineKey) -> Option<wgpu::ComputePipeline> {
        self.map
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(key)
            .cloned()
    }
    pub fn insert(&self, key: PipelineKey, p: wgpu::ComputePipeline) {
        self.map
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, p);
    }
    /// The labels of the compiled pipelines.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub fn labels(&self) -> Vec<String> {
        self.map
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .keys()
            .map(PipelineKey::label)
            .collect()
    }
    pub fn len(&self) -> usize {
        self.map.read().unwrap_or_else(|e| e.into_inner()).len()
    }
}
