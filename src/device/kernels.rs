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
    /// Batched matmul over strided operands with shared-memory tiles (any dtype; GPUs).
    MatmulTiled,
    /// Matrix-vector products (matmul with M = 1 or N = 1).
    MatmulGemv,
    /// One invocation per output: the baseline benchmarks compare against.
    MatmulNaive,
    /// f32 matmul for 8-wide subgroups (lavapipe); the payload is the rows per invocation.
    MatmulSgb(u32),
}

impl Kernel {
    pub const ALL: [Kernel; 9] = [
        Kernel::Copy,
        Kernel::Fill,
        Kernel::Sequence,
        Kernel::MatmulTiled,
        Kernel::MatmulGemv,
        Kernel::MatmulNaive,
        Kernel::MatmulSgb(32),
        Kernel::MatmulSgb(16),
        Kernel::MatmulSgb(8),
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kernel::Copy => "copy",
            Kernel::Fill => "fill",
            Kernel::Sequence => "sequence",
            Kernel::MatmulTiled => "matmul_tiled",
            Kernel::MatmulGemv => "matmul_gemv",
            Kernel::MatmulNaive => "matmul_naive",
            Kernel::MatmulSgb(32) => "matmul_sgb32x8",
            Kernel::MatmulSgb(16) => "matmul_sgb16x8",
            Kernel::MatmulSgb(_) => "matmul_sgb8x8",
        }
    }

    /// The entry point to compile.
    pub fn entry(self) -> &'static str {
        match self {
            Kernel::MatmulSgb(32) => "main_32x8",
            Kernel::MatmulSgb(16) => "main_16x8",
            Kernel::MatmulSgb(_) => "main_8x8",
            _ => "main",
        }
    }

    /// Whether the kernel relies on subgroups of exactly 8 consecutive invocations.
    pub fn needs_subgroup_of_8(self) -> bool {
        matches!(self, Kernel::MatmulSgb(_))
    }

    fn source(self) -> &'static str {
        match self {
            Kernel::Copy => include_str!("../../shaders/copy.wgsl"),
            Kernel::Fill => include_str!("../../shaders/fill.wgsl"),
            Kernel::Sequence => include_str!("../../shaders/sequence.wgsl"),
            Kernel::MatmulTiled => include_str!("../../shaders/matmul_tiled.wgsl"),
            Kernel::MatmulGemv => include_str!("../../shaders/matmul_gemv.wgsl"),
            Kernel::MatmulNaive => include_str!("../../shaders/matmul_naive.wgsl"),
            Kernel::MatmulSgb(_) => include_str!("../../shaders/matmul_sgb.wgsl"),
        }
    }

    /// The dtype combinations this kernel is built for, given the dtypes an adapter supports.
    pub fn variants(self, dtypes: &[DType]) -> Vec<Variant> {
        match self {
            Kernel::Copy => dtypes
                .iter()
                .flat_map(|&s| dtypes.iter().map(move |&d| Variant::pair(s, d)))
                .collect(),
            Kernel::Fill
            | Kernel::Sequence
            | Kernel::MatmulTiled
            | Kernel::MatmulGemv
            | Kernel::MatmulNaive => dtypes.iter().map(|&t| Variant::one(t)).collect(),
            Kernel::MatmulSgb(_) => vec![Variant::one(DType::F32)],
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
            Kernel::MatmulTiled | Kernel::MatmulGemv | Kernel::MatmulNaive => format!(
                "alias T = {};\nalias ACC = {};\n",
                v.a.wgsl(),
                v.a.wgsl_compute()
            ),
            Kernel::MatmulSgb(_) => String::new(),
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
        let constants = match kernel {
            Kernel::Copy | Kernel::Fill | Kernel::Sequence => {
                vec![("EPT", DEFAULT_EPT), ("WG", DEFAULT_WG)]
            }
            Kernel::MatmulGemv => vec![("WG", DEFAULT_WG)],
            Kernel::MatmulTiled | Kernel::MatmulNaive => vec![],
            Kernel::MatmulSgb(_) => vec![("WGY", 2)],
        };
        PipelineKey {
            kernel,
            variant,
            constants,
        }
    }
    /// Elements one workgroup covers (`WG * EPT`) in the element-wise kernels.
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
    Kernel::ALL
        .iter()
        .flat_map(|&k| {
            k.variants(&DType::ALL)
                .into_iter()
                .map(move |v| ShaderVariant {
                    label: PipelineKey::new(k, v).label(),
                    wgsl: k.wgsl(v),
                    entry: k.entry(),
                })
        })
        .collect()
}
