//! The kernel registry: every WGSL kernel the crate ships, its variants per dtype, and the
//! pipeline cache keyed by (kernel, dtypes, override constants).
//!
//! Shaders live in `shaders/*.wgsl` and are embedded with `include_str!`. A variant is the file
//! with a generated prelude of type aliases (`alias T = f32;`) and, for f16, `enable f16;`: the
//! only text substitution. Everything else is specialised with WGSL `override` constants.

use crate::dtype::DType;
use std::collections::HashMap;
use std::sync::RwLock;

/// A kernel family: one `.wgsl` file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Kernel {
    /// Strided copy with conversion (`contiguous`, `astype`, assignment). Dtypes: (src, dst).
    Copy,
    /// Strided fill with a scalar. Dtype: the array's.
    Fill,
    /// Arithmetic sequences (arange, linspace). Dtype: the array's.
    Sequence,
    /// Row gathers along an axis (`numpy.take` with host indices). Dtype: the array's.
    Take,
    /// Philox4x32-10 random numbers and their distributions (`crate::random`), 32-bit
    /// arithmetic only. Dtype: the output's; the distribution is the override constant `DIST`.
    Philox,
    /// The same with the SHADER_INT64 backend (bit-identical, faster), for 4-byte dtypes.
    Philox64,
}

impl Kernel {
    pub const ALL: [Kernel; 6] = [
        Kernel::Copy,
        Kernel::Fill,
        Kernel::Sequence,
        Kernel::Take,
        Kernel::Philox,
        Kernel::Philox64,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kernel::Copy => "copy",
            Kernel::Fill => "fill",
            Kernel::Sequence => "sequence",
            Kernel::Take => "take",
            Kernel::Philox => "philox",
            Kernel::Philox64 => "philox64",
        }
    }

    fn source(self) -> &'static str {
        match self {
            Kernel::Copy => include_str!("../../shaders/copy.wgsl"),
            Kernel::Fill => include_str!("../../shaders/fill.wgsl"),
            Kernel::Sequence => include_str!("../../shaders/sequence.wgsl"),
            Kernel::Take => include_str!("../../shaders/take.wgsl"),
            // A backend (mulhilo, the vector binding, unit stores), then the kernel.
            Kernel::Philox => concat!(
                include_str!("../../shaders/philox_u32.wgsl"),
                include_str!("../../shaders/philox.wgsl")
            ),
            Kernel::Philox64 => concat!(
                include_str!("../../shaders/philox_u64.wgsl"),
                include_str!("../../shaders/philox.wgsl")
            ),
        }
    }

    /// The dtype combinations this kernel is built for, given the dtypes an adapter supports.
    pub fn variants(self, dtypes: &[DType]) -> Vec<Variant> {
        match self {
            Kernel::Copy => dtypes
                .iter()
                .flat_map(|&s| dtypes.iter().map(move |&d| Variant::pair(s, d)))
                .collect(),
            Kernel::Fill | Kernel::Sequence | Kernel::Take | Kernel::Philox => {
                dtypes.iter().map(|&t| Variant::one(t)).collect()
            }
            Kernel::Philox64 => dtypes
                .iter()
                .filter(|t| t.size_bytes() == 4)
                .map(|&t| Variant::one(t))
                .collect(),
        }
    }

    /// The pipelines compiled when a device starts, for the dtypes it supports.
    pub fn startup_keys(self, dtypes: &[DType]) -> Vec<PipelineKey> {
        match self {
            // Compiled on first use, per (dtype, distribution): the 24 combinations would add
            // about 1.8 s to every device start on lavapipe (75 ms each), for draws most
            // programs never make.
            Kernel::Philox | Kernel::Philox64 => Vec::new(),
            _ => self
                .variants(dtypes)
                .into_iter()
                .map(|v| PipelineKey::new(self, v))
                .collect(),
        }
    }

    /// The WGSL type aliases that specialise this kernel for `v`.
    fn aliases(self, v: Variant) -> String {
        match self {
            Kernel::Copy => format!(
                "alias Src = {};\nalias Dst = {};\n",
                v.a.wgsl(),
                v.b.unwrap_or(v.a).wgsl()
            ),
            Kernel::Fill => format!(
                "alias T = {};\nalias V = {};\n",
                v.a.wgsl(),
                v.a.wgsl_compute()
            ),
            Kernel::Sequence => format!(
                "alias T = {};\nalias C = {};\n",
                v.a.wgsl(),
                v.a.wgsl_compute()
            ),
            Kernel::Take => format!("alias T = {};\n", v.a.wgsl()),
            // F: the float type the wide (53-bit) distributions compute in.
            Kernel::Philox | Kernel::Philox64 => format!(
                "alias T = {};\nalias F = {};\n",
                v.a.wgsl(),
                if v.a == DType::F64 { "f64" } else { "f32" }
            ),
        }
    }

    /// The complete WGSL of one variant, exactly as it is compiled.
    pub fn wgsl(self, v: Variant) -> String {
        let f16 = v.a == DType::F16 || v.b == Some(DType::F16);
        let mut s = String::new();
        if f16 {
            s.push_str("enable f16;\n");
        }
        s.push_str(&self.aliases(v));
        s.push_str(self.source());
        s
    }
}

/// The dtypes one variant is specialised for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Variant {
    pub a: DType,
    pub b: Option<DType>,
}

impl Variant {
    pub fn one(a: DType) -> Self {
        Variant { a, b: None }
    }
    pub fn pair(a: DType, b: DType) -> Self {
        Variant { a, b: Some(b) }
    }
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.b {
            Some(b) => write!(f, "{}->{}", self.a, b),
            None => write!(f, "{}", self.a),
        }
    }
}

/// A compiled pipeline's identity.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct PipelineKey {
    pub kernel: Kernel,
    pub variant: Variant,
    /// Override constants, sorted by name.
    pub constants: Vec<(&'static str, u32)>,
}

/// The workgroup size of the element-wise kernels.
pub(crate) const DEFAULT_WG: u32 = 256;
/// Elements each invocation of an element-wise kernel handles.
pub(crate) const DEFAULT_EPT: u32 = 8;

impl PipelineKey {
    pub fn new(kernel: Kernel, variant: Variant) -> Self {
        PipelineKey {
            kernel,
            variant,
            constants: vec![("EPT", DEFAULT_EPT), ("WG", DEFAULT_WG)],
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
    pub fn label(&self) -> String {
        format!("{}[{}]", self.kernel.name(), self.variant)
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
    pub fn len(&self) -> usize {
        self.map.read().unwrap_or_else(|e| e.into_inner()).len()
    }
}

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
}

/// Every shader variant the crate ships, for every dtype (what an adapter with every feature
/// compiles at start-up).
///
/// ```
/// let variants = gpuarray::shader_variants();
/// assert!(variants.iter().any(|v| v.label == "copy[f32->f64]"));
/// ```
pub fn shader_variants() -> Vec<ShaderVariant> {
    Kernel::ALL
        .iter()
        .flat_map(|&k| {
            k.variants(&DType::ALL)
                .into_iter()
                .map(move |v| ShaderVariant {
                    label: PipelineKey::new(k, v).label(),
                    wgsl: k.wgsl(v),
                })
        })
        .collect()
}
