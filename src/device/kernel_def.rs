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
    /// The override constant sets the eager start-up plan compiles for a variant (none: the
    /// family compiles on first use only).
    pub eager: fn(Variant) -> Vec<Constants>,
}

impl KernelDef {
    /// No math library: for families whose variants never join `math_f32.wgsl`.
    pub fn no_f32_math(_: Variant) -> bool {
        false
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
