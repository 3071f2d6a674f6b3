//! Element types: the runtime [`DType`] tag and the [`Element`] trait for host types.

use std::fmt;

/// The element type of an [`Array`](crate::Array).
///
/// `F16` needs the adapter feature `SHADER_F16` and `F64` needs `SHADER_F64`
/// (see [`Device::supports`](crate::Device::supports)).
///
/// ```
/// use gpuarray::DType;
/// assert_eq!(DType::F64.size_bytes(), 8);
/// assert_eq!(DType::F16.to_string(), "f16");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    /// 32-bit IEEE float.
    F32,
    /// 16-bit IEEE float (host type `half::f16`).
    F16,
    /// 64-bit IEEE float.
    F64,
    /// 32-bit signed integer.
    I32,
    /// 32-bit unsigned integer.
    U32,
    /// Boolean: the result of comparisons and predicates. WGSL cannot store `bool` in buffers, so
    /// each element is stored as a `u32` holding exactly 0 or 1 (4 bytes per element). Read it with
    /// [`Array::to_vec_bool`](crate::Array::to_vec_bool), make it with
    /// [`Array::from_bools`](crate::Array::from_bools) or `astype(DType::Bool)` (non-zero → 1).
    Bool,
}

impl DType {
    /// Every dtype, in declaration order.
    pub const ALL: [DType; 6] = [
        DType::F32,
        DType::F16,
        DType::F64,
        DType::I32,
        DType::U32,
        DType::Bool,
    ];
    /// The numeric dtypes (every dtype but `Bool`).
    pub const NUMERIC: [DType; 5] = [DType::F32, DType::F16, DType::F64, DType::I32, DType::U32];

    /// Bytes per element.
    pub const fn size_bytes(self) -> u64 {
        match self {
            DType::F16 => 2,
            DType::F32 | DType::I32 | DType::U32 | DType::Bool => 4,
            DType::F64 => 8,
        }
    }

    /// NumPy's name of the dtype, as `numpy.dtype(name)` takes it and `repr` prints it.
    ///
    /// ```
    /// assert_eq!(gpuarray::DType::U32.numpy_name(), "uint32");
    /// ```
    pub const fn numpy_name(self) -> &'static str {
        match self {
            DType::F32 => "float32",
            DType::F16 => "float16",
            DType::F64 => "float64",
            DType::I32 => "int32",
            DType::U32 => "uint32",
            DType::Bool => "bool",
        }
    }

    /// The dtype NumPy calls `name` (`float32`, `int32`, ...), or `None` for a NumPy dtype this
    /// crate does not have (`int64`, `complex64`, ...).
    ///
    /// ```
    /// use gpuarray::DType;
    /// assert_eq!(DType::from_numpy_name("float16"), Some(DType::F16));
    /// assert_eq!(DType::from_numpy_name("int64"), None);
    /// ```
    pub fn from_numpy_name(name: &str) -> Option<DType> {
        DType::ALL.into_iter().find(|d| d.numpy_name() == name)
    }

    /// NumPy-style name: `f32`, `f16`, `f64`, `i32`, `u32`, `bool`.
    pub const fn name(self) -> &'static str {
        match self {
            DType::F32 => "f32",
            DType::F16 => "f16",
            DType::F64 => "f64",
            DType::I32 => "i32",
            DType::U32 => "u32",
            DType::Bool => "bool",
        }
    }

    /// Whether this is a floating-point dtype.
    pub const fn is_float(self) -> bool {
        matches!(self, DType::F32 | DType::F16 | DType::F64)
    }

    /// Whether this is an integer dtype (`i32`, `u32`; not `bool`).
    pub const fn is_int(self) -> bool {
        matches!(self, DType::I32 | DType::U32)
    }

    /// The WGSL scalar type that stores this dtype.
    pub(crate) const fn wgsl(self) -> &'static str {
        match self {
            DType::Bool => "u32",
            other => other.name(),
        }
    }

    /// The WGSL type in which scalar parameters of this dtype are passed and computed:
    /// f16 values travel and compute as f32, so no f16 appears in uniform buffers.
    pub(crate) const fn wgsl_compute(self) -> &'static str {
        match self {
            DType::F16 => "f32",
            other => other.wgsl(),
        }
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A host element type that maps to a [`DType`]: `f32`, `f64`, `i32`, `u32` and `half::f16`.
///
/// ```
/// use gpuarray::{DType, Element};
/// assert_eq!(<f32 as Element>::DTYPE, DType::F32);
/// ```
pub trait Element: bytemuck::Pod + Send + Sync + 'static {
    /// The dtype of arrays holding this type.
    const DTYPE: DType;
}

impl Element for f32 {
    const DTYPE: DType = DType::F32;
}
impl Element for f64 {
    const DTYPE: DType = DType::F64;
}
impl Element for i32 {
    const DTYPE: DType = DType::I32;
}
impl Element for u32 {
    const DTYPE: DType = DType::U32;
}
impl Element for half::f16 {
    const DTYPE: DType = DType::F16;
}
