//! A kernel family as the module that owns it declares it: the device compiles, caches and
//! launches what it is handed and never names an op family.
//!
//! A family in `ops/` or `random/` states its WGSL (prelude and source files per dtype variant),
//! its entry point, the override constants its pipelines start from, the dtype variants it is
//! built for and which pipelines the eager start-up plan compiles. The families reach a device
//! through the registry the public constructors pass in (`crate::registry`); the device keys its
//! pipelines by the family's name.

use super::pipeline::Variant;
use crate::dtype::DType;

/// One set of override constants, `(name, value)`.
pub(crate) type Constants = Vec<(&'static str, u32)>;

/// Which start-up plans compile a family's pipelines ([`CompileMode`](crate::CompileMode)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum When {
    /// Before `Device::new` returns, in every mode: what creating an array needs.
    Immediate,
    /// In the background in the `families` and `eager` plans (matmul, einsum's contractions,
    /// Philox: the named families).
    Named,
    /// In the background in the `eager` plan only.
    Eager,
    /// Only on first use.
    OnFirstUse,
}

/// What a family needs of the adapter beyond its dtypes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Needs {
    /// Subgroups of exactly 8 consecutive invocations (lavapipe's).
    pub subgroups_of_8: bool,
    /// `SHADER_INT64`.
    pub int64: bool,
}

/// What a start-up plan knows of the adapter.
pub(crate) struct Adapter<'a> {
    pub dtypes: &'a [DType],
    /// 8-wide subgroups.
    pub subgroups_of_8: bool,
    /// `SHADER_INT64`.
    pub int64: bool,
    /// A CPU adapter (lavapipe, llvmpipe, WARP).
    pub is_cpu: bool,
    /// f16 is packed (no `shader-f16`): families that widen it plan their f32 forms of f16's
    /// pipelines.
    pub f16_packed: bool,
    /// The family names a saved tune chose among alternatives (`None`: no saved choice).
    pub chosen: Option<&'a [String]>,
}

impl Needs {
    /// Nothing beyond the dtypes.
    pub const NONE: Needs = Needs {
        subgroups_of_8: false,
        int64: false,
    };
}

impl Adapter<'_> {
    /// Whether the adapter has what `needs` asks.
    pub fn has(&self, needs: Needs) -> bool {
        (!needs.subgroups_of_8 || self.subgroups_of_8) && (!needs.int64 || self.int64)
    }
}

/// One kernel family: everything the device needs to compile and launch it.
pub(crate) struct KernelDef {
    /// The label stem (unique among families), e.g. `binary_float_vec4`.
    pub name: &'static str,
    /// The entry point to compile.
    pub entry: &'static str,
    /// The override constants every pipeline of the family starts from.
    pub constants: &'static [(&'static str, u32)],
    /// Arithmetic operations per element of a launch's shape, as the profiler counts them.
    pub ops_per_element: u64,
    /// Whether variant `v` joins `shaders/math_f32.wgsl` (its `FAST_MATH` override applies).
    pub uses_f32_math: fn(Variant) -> bool,
    /// The dtype variants built on an adapter with these dtypes.
    pub variants: fn(&[DType]) -> Vec<Variant>,
    /// The complete WGSL of a variant: its prelude, then its source files.
    pub wgsl: fn(Variant) -> String,
    /// Which start-up plans compile it.
    pub when: When,
    /// The override constant sets the start-up plan compiles for a variant on an adapter.
    pub eager: fn(&Adapter, Variant) -> Vec<Constants>,
    /// What it needs of the adapter (a device without it never compiles the family).
    pub needs: Needs,
    /// Its WGSL has a software path for the f64 variants of an emulating device
    /// ([`Variant::soft`]); a family without one refuses f64 there (`Err(Unsupported)`).
    pub soft_f64: bool,
    /// Its WGSL reads and writes f16 packed two per word, computing in f32, for the f16
    /// variants of an emulating device ([`Variant::f16_packed`]); a family without that path
    /// refuses f16 there (`Err(Unsupported)`), and the ops that use it widen f16 to f32 first.
    pub packed_f16: bool,
    /// The plan dispatches its f32 pipelines once as soon as they are created, so that the
    /// driver's own compile (lavapipe's, at the first dispatch) happens in the background.
    pub warm_up: bool,
}

impl KernelDef {
    /// No math library: for families whose variants never join `math_f32.wgsl`.
    pub fn no_f32_math(_: Variant) -> bool {
        false
    }
    /// The complete WGSL of variant `v`, exactly as it is compiled: `enable f16;` where the
    /// variant has native f16, then the family's source.
    pub fn source(&self, v: Variant) -> String {
        debug_assert!(!v.soft || self.soft_f64, "{}: no software f64", self.name);
        debug_assert!(
            !v.f16_packed || self.packed_f16,
            "{}: no packed f16",
            self.name
        );
        let directive = if v.has_f16() && !v.f16_packed {
            "enable f16;\n"
        } else {
            ""
        };
        format!("{directive}{}", (self.wgsl)(v))
    }

    /// A family compiled on first use only, counted as data movement by the profiler, with no
    /// math library and no needs.
    pub const fn on_first_use(
        name: &'static str,
        entry: &'static str,
        constants: &'static [(&'static str, u32)],
        variants: fn(&[DType]) -> Vec<Variant>,
        wgsl: fn(Variant) -> String,
    ) -> KernelDef {
        KernelDef {
            name,
            entry,
            constants,
            ops_per_element: 0,
            uses_f32_math: KernelDef::no_f32_math,
            variants,
            wgsl,
            when: When::OnFirstUse,
            eager: KernelDef::as_declared,
            needs: Needs::NONE,
            soft_f64: false,
            packed_f16: false,
            warm_up: false,
        }
    }
    /// One variant, u32: kernels over 32-bit words whose element type is an override constant.
    pub fn words(_: &[DType]) -> Vec<Variant> {
        vec![Variant::one(DType::U32)]
    }
    /// One variant per word dtype ([`DType::WORD`]) but bool.
    pub fn numeric_dtypes(dtypes: &[DType]) -> Vec<Variant> {
        dtypes
            .iter()
            .copied()
            .filter(|&d| d != DType::Bool && d.is_word())
            .map(Variant::one)
            .collect()
    }
    /// One variant per dtype, the emulated integers included: for families whose WGSL reads and
    /// writes through `device::element_access`.
    pub fn every_dtype(dtypes: &[DType]) -> Vec<Variant> {
        dtypes.iter().copied().map(Variant::one).collect()
    }
    /// The family's starting constants, once per variant.
    pub fn as_declared(_: &Adapter, _: Variant) -> Vec<Constants> {
        vec![vec![]]
    }
}

// A family is its name: two statics with one name would be one pipeline in the cache.
impl PartialEq for KernelDef {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}
impl Eq for KernelDef {}
impl std::hash::Hash for KernelDef {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name.hash(state);
    }
}
impl std::fmt::Debug for KernelDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// The families a device is handed: declared by their owners, listed once by the registry.
pub(crate) type Families = &'static [&'static KernelDef];

/// Every combination of the given constants' values (a family's eager sets).
pub(crate) fn combinations(domains: &[(&'static str, Vec<u32>)]) -> Vec<Constants> {
    let mut out: Vec<Constants> = vec![vec![]];
    for (name, values) in domains {
        out = out
            .into_iter()
            .flat_map(|set| {
                values.iter().map(move |&v| {
                    let mut s = set.clone();
                    s.push((*name, v));
                    s
                })
            })
            .collect();
    }
    out
}
