//! Element types: the runtime [`DType`] tag and the [`Element`] trait for host types.

use std::fmt;

/// The element type of an [`Array`](crate::Array).
///
/// `F16` needs the adapter feature `SHADER_F16` and `F64` needs `SHADER_F64`
/// (see [`Device::supports`](crate::Device::supports)). The integer dtypes WGSL lacks are
/// emulated exactly on every adapter, in NumPy's byte layout: `I64`/`U64` as two little-endian
/// `u32` words, `I8`/`U8` four and `I16`/`U16` two to a `u32` word (ARCHITECTURE.md, "Dtypes the
/// hardware lacks").
///
/// ```
/// use gpuarray::DType;
/// assert_eq!(DType::F64.size_bytes(), 8);
/// assert_eq!(DType::U8.size_bytes(), 1);
/// assert_eq!(DType::F16.to_string(), "f16");
/// assert_eq!(DType::from_numpy_name("int64"), Some(DType::I64));
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
    /// 64-bit signed integer (NumPy's default integer and index type), stored as two `u32` words.
    I64,
    /// 64-bit unsigned integer, stored as two `u32` words.
    U64,
    /// 8-bit signed integer, packed four to a `u32` word.
    I8,
    /// 8-bit unsigned integer (images), packed four to a `u32` word.
    U8,
    /// 16-bit signed integer (audio), packed two to a `u32` word.
    I16,
    /// 16-bit unsigned integer, packed two to a `u32` word.
    U16,
    /// Complex of two f32 (real, imaginary), interleaved as NumPy's `complex64` (host type
    /// `num_complex::Complex<f32>`).
    C64,
    /// Complex of two f64, as NumPy's `complex128`: where the device has float64.
    C128,
}

impl DType {
    /// Every dtype, in declaration order.
    pub const ALL: [DType; 14] = [
        DType::F32,
        DType::F16,
        DType::F64,
        DType::I32,
        DType::U32,
        DType::Bool,
        DType::I64,
        DType::U64,
        DType::I8,
        DType::U8,
        DType::I16,
        DType::U16,
        DType::C64,
        DType::C128,
    ];
    /// The complex dtypes.
    pub const COMPLEX: [DType; 2] = [DType::C64, DType::C128];
    /// Every dtype but the complex ones: what kernel families are built for (a complex array
    /// reaches kernels as its real and imaginary parts, [`DType::real`], or through kernels
    /// written for complex values).
    pub const REAL: [DType; 12] = [
        DType::F32,
        DType::F16,
        DType::F64,
        DType::I32,
        DType::U32,
        DType::Bool,
        DType::I64,
        DType::U64,
        DType::I8,
        DType::U8,
        DType::I16,
        DType::U16,
    ];
    /// The real numeric dtypes (every dtype but `Bool` and the complex ones).
    pub const NUMERIC: [DType; 11] = [
        DType::F32,
        DType::F16,
        DType::F64,
        DType::I32,
        DType::U32,
        DType::I64,
        DType::U64,
        DType::I8,
        DType::U8,
        DType::I16,
        DType::U16,
    ];
    /// The integer dtypes WGSL lacks, emulated on every adapter: 64-bit ones as word pairs,
    /// 8- and 16-bit ones packed (every dtype not in [`DType::WORD`]).
    pub const EMULATED: [DType; 6] = [
        DType::I64,
        DType::U64,
        DType::I8,
        DType::U8,
        DType::I16,
        DType::U16,
    ];
    /// The dtypes WGSL stores as one scalar per element (`f32`, `f16`, `f64`, `i32`, `u32`, and
    /// bool as a `u32`): what every kernel family takes. The others (64-bit integers as word
    /// pairs, 8/16-bit integers packed) go through each family's own emulated path.
    pub const WORD: [DType; 6] = [
        DType::F32,
        DType::F16,
        DType::F64,
        DType::I32,
        DType::U32,
        DType::Bool,
    ];

    /// Bytes per element.
    pub const fn size_bytes(self) -> u64 {
        match self {
            DType::I8 | DType::U8 => 1,
            DType::F16 | DType::I16 | DType::U16 => 2,
            DType::F32 | DType::I32 | DType::U32 | DType::Bool => 4,
            DType::F64 | DType::I64 | DType::U64 | DType::C64 => 8,
            DType::C128 => 16,
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
            DType::I64 => "int64",
            DType::U64 => "uint64",
            DType::I8 => "int8",
            DType::U8 => "uint8",
            DType::I16 => "int16",
            DType::U16 => "uint16",
            DType::C64 => "complex64",
            DType::C128 => "complex128",
        }
    }

    /// The dtype NumPy calls `name` (`float32`, `int64`, `complex64`, ...), or `None` for a NumPy
    /// dtype this crate does not have (`longdouble`, ...).
    ///
    /// ```
    /// use gpuarray::DType;
    /// assert_eq!(DType::from_numpy_name("float16"), Some(DType::F16));
    /// assert_eq!(DType::from_numpy_name("uint8"), Some(DType::U8));
    /// assert_eq!(DType::from_numpy_name("complex64"), Some(DType::C64));
    /// assert_eq!(DType::from_numpy_name("clongdouble"), None);
    /// ```
    pub fn from_numpy_name(name: &str) -> Option<DType> {
        DType::ALL.into_iter().find(|d| d.numpy_name() == name)
    }

    /// NumPy-style name: `f32`, `f16`, `f64`, `i32`, `u32`, `bool`, `i64`, `u64`, `i8`, `u8`,
    /// `i16`, `u16`, `c64`, `c128`.
    pub const fn name(self) -> &'static str {
        match self {
            DType::F32 => "f32",
            DType::F16 => "f16",
            DType::F64 => "f64",
            DType::I32 => "i32",
            DType::U32 => "u32",
            DType::Bool => "bool",
            DType::I64 => "i64",
            DType::U64 => "u64",
            DType::I8 => "i8",
            DType::U8 => "u8",
            DType::I16 => "i16",
            DType::U16 => "u16",
            DType::C64 => "c64",
            DType::C128 => "c128",
        }
    }

    /// Whether this is a floating-point dtype.
    pub const fn is_float(self) -> bool {
        matches!(self, DType::F32 | DType::F16 | DType::F64)
    }

    /// Whether this is a complex dtype.
    ///
    /// ```
    /// assert!(gpuarray::DType::C64.is_complex() && !gpuarray::DType::F32.is_complex());
    /// ```
    pub const fn is_complex(self) -> bool {
        matches!(self, DType::C64 | DType::C128)
    }

    /// The dtype of a complex dtype's parts (`C64` → `F32`, `C128` → `F64`); any other dtype
    /// is its own.
    ///
    /// ```
    /// use gpuarray::DType;
    /// assert_eq!(DType::C128.real(), DType::F64);
    /// assert_eq!(DType::I32.real(), DType::I32);
    /// ```
    pub const fn real(self) -> DType {
        match self {
            DType::C64 => DType::F32,
            DType::C128 => DType::F64,
            other => other,
        }
    }

    /// The complex dtype NumPy computes a real dtype's FFT or complex result in: float16 and
    /// float32 → `C64`, float64 → `C128`; integers and bool → `C128` (NumPy's promotion to
    /// float64); complex dtypes are their own.
    ///
    /// ```
    /// use gpuarray::DType;
    /// assert_eq!(DType::F32.to_complex(), DType::C64);
    /// assert_eq!(DType::I64.to_complex(), DType::C128);
    /// ```
    pub const fn to_complex(self) -> DType {
        match self {
            DType::F16 | DType::F32 | DType::C64 => DType::C64,
            _ => DType::C128,
        }
    }

    /// Whether this is an integer dtype (not `bool`).
    pub const fn is_int(self) -> bool {
        matches!(
            self,
            DType::I32
                | DType::U32
                | DType::I64
                | DType::U64
                | DType::I8
                | DType::U8
                | DType::I16
                | DType::U16
        )
    }

    /// Whether this is a signed integer dtype.
    pub const fn is_signed_int(self) -> bool {
        matches!(self, DType::I32 | DType::I64 | DType::I8 | DType::I16)
    }

    /// Whether WGSL stores it as one scalar per element ([`DType::WORD`]).
    pub const fn is_word(self) -> bool {
        !matches!(
            self,
            DType::I64
                | DType::U64
                | DType::I8
                | DType::U8
                | DType::I16
                | DType::U16
                | DType::C64
                | DType::C128
        )
    }

    /// Elements of this dtype per `u32` word when it is packed (8/16-bit integers), else `None`.
    pub const fn packed_per_word(self) -> Option<u32> {
        match self {
            DType::I8 | DType::U8 => Some(4),
            DType::I16 | DType::U16 => Some(2),
            _ => None,
        }
    }

    /// The WGSL type that stores one element, or one word of packed elements: `vec2<u32>` for
    /// the 64-bit integers (low word first), `u32` for bool and the packed dtypes.
    pub(crate) const fn wgsl(self) -> &'static str {
        match self {
            DType::Bool | DType::I8 | DType::U8 | DType::I16 | DType::U16 => "u32",
            DType::I64 | DType::U64 => "vec2<u32>",
            DType::C64 => "vec2<f32>",
            DType::C128 => "vec2<f64>",
            other => other.name(),
        }
    }

    /// The WGSL type in which elements of this dtype are loaded, computed and passed as scalar
    /// parameters: f16 as f32 (no f16 appears in uniform buffers), 8/16-bit integers widened to
    /// `i32`/`u32`, 64-bit integers as `vec2<u32>` word pairs.
    pub(crate) const fn wgsl_compute(self) -> &'static str {
        match self {
            DType::F16 => "f32",
            DType::I8 | DType::I16 => "i32",
            DType::U8 | DType::U16 => "u32",
            other => other.wgsl(),
        }
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A host element type that maps to a [`DType`]: `f32`, `f64`, `half::f16`, `i32`, `u32`,
/// `i64`, `u64`, `i8`, `u8`, `i16`, `u16`, `num_complex::Complex<f32>` (`Complex32`) and
/// `Complex<f64>` (`Complex64`).
///
/// ```
/// use gpuarray::{DType, Element};
/// assert_eq!(<f32 as Element>::DTYPE, DType::F32);
/// assert_eq!(<u8 as Element>::DTYPE, DType::U8);
/// ```
pub trait Element: bytemuck::Pod + Send + Sync + 'static {
    /// The dtype of arrays holding this type.
    const DTYPE: DType;
}

macro_rules! element {
    ($($t:ty => $d:ident),*) => {$(
        impl Element for $t {
            const DTYPE: DType = DType::$d;
        }
    )*};
}
element!(
    f32 => F32, f64 => F64, half::f16 => F16, i32 => I32, u32 => U32,
    i64 => I64, u64 => U64, i8 => I8, u8 => U8, i16 => I16, u16 => U16,
    num_complex::Complex<f32> => C64, num_complex::Complex<f64> => C128
);
