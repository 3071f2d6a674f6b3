//! How a dtype appears in a generated kernel: the WGSL type user text computes in, its
//! conversions from and to the compute type the element access and the uniform use, and a
//! scalar's bytes in the uniform.

use crate::device::Variant;
use crate::device::params::Params;
use crate::dtype::DType;
use crate::error::{Error, Result};

/// What a device offers generated kernels for one dtype.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Typing {
    pub dtype: DType,
    /// f16 is packed two per word (no `shader-f16`).
    pub packed_f16: bool,
}

impl Typing {
    /// `dtype` on `device`, or `Err(Unsupported)` where generated kernels cannot take it.
    pub fn of(op: &'static str, device: &crate::Device, dtype: DType) -> Result<Typing> {
        let why = match dtype {
            DType::F64 if !device.supports(DType::F64) => {
                Some("float64: this adapter has no float64 (SHADER_F64)".to_string())
            }
            DType::F64 if device.f64_emulated() => Some(
                "float64 on a device that emulates it (f64 emulated): user and fused kernels \
                 compute in WGSL's own types, and WGSL has no float64 here"
                    .to_string(),
            ),
            DType::I64 | DType::U64
                if !device
                    .inner
                    .device
                    .features()
                    .contains(wgpu::Features::SHADER_INT64) =>
            {
                Some(format!(
                    "{dtype} in a user kernel needs the adapter's 64-bit integers (SHADER_INT64: \
                     Vulkan, DX12, Metal; not WebGPU or GL); convert with astype first"
                ))
            }
            _ if !device.supports(dtype) => Some(format!("{dtype} on this adapter")),
            _ => None,
        };
        if let Some(feature) = why {
            return Err(Error::Unsupported { op, feature });
        }
        Ok(Typing {
            dtype,
            packed_f16: dtype == DType::F16 && device.f16_emulated(),
        })
    }

    /// The variant element access is generated for.
    pub fn variant(&self) -> Variant {
        Variant {
            f16_packed: self.packed_f16,
            ..Variant::one(self.dtype)
        }
    }

    /// The WGSL type user text sees: `bool` for bool, `i64`/`u64` for the 64-bit integers
    /// (the adapter's own), the compute type otherwise (f16 in f32, 8- and 16-bit integers
    /// widened to `i32`/`u32`).
    pub fn user(&self) -> &'static str {
        match self.dtype {
            DType::Bool => "bool",
            DType::I64 => "i64",
            DType::U64 => "u64",
            d => d.wgsl_compute(),
        }
    }

    /// `expr` (compute type) as the user type.
    pub fn user_value(self, expr: &str) -> String {
        match self.dtype {
            DType::Bool => format!("({expr} != 0u)"),
            DType::I64 => format!("gpa_i64_of({expr})"),
            DType::U64 => format!("gpa_u64_of({expr})"),
            _ => expr.to_string(),
        }
    }

    /// `expr` (user type) as the compute type.
    pub fn stored_value(self, expr: &str) -> String {
        match self.dtype {
            DType::Bool => format!("select(0u, 1u, {expr})"),
            DType::I64 => format!("gpa_words_of_i64({expr})"),
            DType::U64 => format!("gpa_words_of_u64({expr})"),
            _ => expr.to_string(),
        }
    }

    /// Whether stores of this dtype share words between elements (packed integers, packed
    /// f16): kernels then store runs through `stage_`/`flush_`.
    pub fn shares_words(&self) -> bool {
        self.dtype.packed_per_word().is_some() || self.packed_f16
    }

    /// Whether the module needs `enable f16;` (native f16 storage).
    pub fn needs_f16(&self) -> bool {
        self.dtype == DType::F16 && !self.packed_f16
    }
}

/// A scalar argument: its value converted to `dtype` as NumPy converts a Python scalar for a
/// typed parameter (floats round, integers must be exact and in range, bools 0 or 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Scalar {
    pub value: f64,
    pub dtype: DType,
}

impl Scalar {
    pub fn new(op: &'static str, value: f64, dtype: DType) -> Result<Scalar> {
        let ok = match dtype {
            d if d.is_float() => true,
            DType::Bool => value == 0.0 || value == 1.0,
            d => {
                let bits = 8 * d.size_bytes() as i32;
                let (lo, end) = if d.is_signed_int() {
                    (-(2f64.powi(bits - 1)), 2f64.powi(bits - 1))
                } else {
                    (0.0, 2f64.powi(bits))
                };
                value.fract() == 0.0 && (lo..end).contains(&value)
            }
        };
        if !ok {
            return Err(Error::invalid(
                op,
                format!("the scalar {value} cannot be represented exactly in dtype {dtype}"),
            ));
        }
        Ok(Scalar { value, dtype })
    }

    /// Appends the scalar, in its compute type, to `p` (f16 rounded to f16 on the host).
    pub fn push(&self, p: &mut Params) {
        match self.dtype {
            DType::F32 => p.f32(self.value as f32),
            DType::F16 => p.f32(crate::f16::from_f64(self.value).to_f32()),
            DType::F64 => p.f64(self.value),
            // Word pairs, low word first, as the 64-bit integers are stored.
            DType::I64 => p.u64(self.value as i64 as u64),
            DType::U64 => p.u64(self.value as u64),
            d if d.is_signed_int() => p.i32(self.value as i32),
            _ => p.u32(self.value as u32),
        };
    }
}

/// `alias T = f32;` for each type placeholder (in the type user text computes in).
pub(crate) fn aliases(bound: &[(String, DType)]) -> String {
    bound
        .iter()
        .map(|(name, d)| {
            let t = Typing {
                dtype: *d,
                packed_f16: false,
            };
            format!("alias {name} = {};\n", t.user())
        })
        .collect()
}

/// Our WGSL between the 64-bit integers' stored word pairs (low word first) and the adapter's
/// `i64`/`u64`, for modules whose typing has them. Through `u64` both ways: lavapipe widens
/// `i64(u32)` with the sign of the u32's top bit.
pub(crate) fn int64_words(typing: &[Typing]) -> &'static str {
    if typing
        .iter()
        .any(|t| matches!(t.dtype, DType::I64 | DType::U64))
    {
        "fn u64_of(w: vec2<u32>) -> u64 { return u64(w.x) | (u64(w.y) << 32u); }\n\
         fn i64_of(w: vec2<u32>) -> i64 { return bitcast<i64>(u64_of(w)); }\n\
         fn words_of_u64(v: u64) -> vec2<u32> { return vec2<u32>(u32(v & 0xfffffffflu), u32(v >> 32u)); }\n\
         fn words_of_i64(v: i64) -> vec2<u32> { return words_of_u64(bitcast<u64>(v)); }\n"
    } else {
        ""
    }
}
