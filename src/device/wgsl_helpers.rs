//! WGSL text the kernel families paste into their preludes, per dtype: NaN/infinity/sign tests
//! by bits (lavapipe folds `x != x`), saturation bounds of float-to-integer casts and NumPy's
//! truth of an element.

use crate::dtype::DType;

/// The clamp bounds, as `Src` literals, that make a float-to-integer conversion saturate: the
/// integer's range rounded inwards to values the float type holds.
pub(crate) fn saturation(src: DType, dst: DType) -> Option<(&'static str, &'static str)> {
    match (src, dst) {
        (DType::F32, DType::I32) => Some(("-2147483648.0f", "2147483520.0f")),
        (DType::F32, DType::U32) => Some(("0.0f", "4294967040.0f")),
        (DType::F64, DType::I32) => Some(("-2147483648.0lf", "2147483647.0lf")),
        (DType::F64, DType::U32) => Some(("0.0lf", "4294967295.0lf")),
        (DType::F16, DType::U32) => Some(("0.0h", "65504.0h")),
        _ => None,
    }
}

/// `fn truth_in(x: In) -> bool`: NumPy's bool() of an input element, by bits for floats (non-zero
/// magnitude bits: NaN is true, ±0 false).
pub(crate) fn truth_in(dtype: DType) -> &'static str {
    match dtype {
        DType::F32 | DType::F16 => {
            "fn truth_in(x: In) -> bool { return (bitcast<u32>(f32(x)) & 0x7fffffffu) != 0u; }\n"
        }
        DType::F64 => {
            "fn truth_in(x: In) -> bool { return (bitcast<u32>(f32(x)) & 0x7fffffffu) != 0u || x != 0.0lf; }\n"
        }
        _ => "fn truth_in(x: In) -> bool { return x != In(0); }\n",
    }
}

/// The software binary64 library (`shaders/f64_soft.wgsl`) with the word-pair arithmetic it is
/// built on (`mulhilo.wgsl`, `int64.wgsl`): what every kernel family's software-f64 variant joins.
pub(crate) fn soft_f64_library() -> String {
    [
        include_str!("../../shaders/mulhilo.wgsl"),
        include_str!("../../shaders/int64.wgsl"),
        include_str!("../../shaders/f64_soft.wgsl"),
    ]
    .concat()
}

/// The helpers of [`helpers`] for software f64 (word pairs, `shaders/f64_soft.wgsl`, which the
/// including kernel joins): the native path's NaN (0x7ff8000000000000) and infinities, by bits.
pub(crate) fn helpers_soft_f64(ty: &str) -> String {
    format!(
        "fn is_nan(x: {ty}) -> bool {{ return f64s_is_nan(x); }}\n\
         fn is_inf(x: {ty}) -> bool {{ return (x.y & 0x7fffffffu) == 0x7ff00000u && x.x == 0u; }}\n\
         fn sign_bit(x: {ty}) -> bool {{ return (x.y >> 31u) != 0u; }}\n\
         fn nan_value() -> {ty} {{ return vec2<u32>(0u, 0x7ff80000u); }}\n\
         fn inf_value() -> {ty} {{ return vec2<u32>(0u, 0x7ff00000u); }}\n\
         fn lowest() -> {ty} {{ return vec2<u32>(0u, 0xfff00000u); }}\n\
         fn highest() -> {ty} {{ return inf_value(); }}\n"
    )
}

/// Per-dtype helpers over the compute type named `ty`: NaN and infinity tests by bits (lavapipe
/// folds `x != x` to false and its `max`/`min` swallow NaN, so nothing here relies on float
/// comparisons of a value with itself), the sign bit, and NaN/infinity constants.
///
/// The NaN and infinity bits are read from a private variable, not written as `bitcast` of a
/// literal: that bitcast is a constant expression, and WGSL forbids constant expressions whose
/// value is NaN or infinite (Chromium's Tint rejects the shader; naga lets it through).
pub(crate) fn helpers(ty: &str, dtype: DType) -> String {
    match dtype {
        DType::C64 | DType::C128 => unreachable!("kernel families are built for DType::REAL"),
        DType::F32 | DType::F16 => format!(
            "fn is_nan(x: {ty}) -> bool {{ return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }}\n\
             fn is_inf(x: {ty}) -> bool {{ return (bitcast<u32>(x) & 0x7fffffffu) == 0x7f800000u; }}\n\
             fn sign_bit(x: {ty}) -> bool {{ return (bitcast<u32>(x) & 0x80000000u) != 0u; }}\n\
             var<private> NAN_INF_BITS: vec2<u32> = vec2<u32>(0x7fc00000u, 0x7f800000u);\n\
             fn nan_value() -> {ty} {{ return bitcast<f32>(NAN_INF_BITS.x); }}\n\
             fn inf_value() -> {ty} {{ return bitcast<f32>(NAN_INF_BITS.y); }}\n\
             fn lowest() -> {ty} {{ return -inf_value(); }}\n\
             fn highest() -> {ty} {{ return inf_value(); }}\n"
        ),
        // f64 has no 64-bit bitcast without SHADER_INT64: narrowing to f32 keeps NaN a NaN and
        // keeps the sign (also of -0.0 and of tiny values); infinity is the one non-zero value
        // equal to its half.
        DType::F64 => format!(
            "fn is_nan(x: {ty}) -> bool {{ return (bitcast<u32>(f32(x)) & 0x7fffffffu) > 0x7f800000u; }}\n\
             fn is_inf(x: {ty}) -> bool {{ return x != 0.0lf && x * 0.5lf == x; }}\n\
             fn sign_bit(x: {ty}) -> bool {{ return (bitcast<u32>(f32(x)) & 0x80000000u) != 0u; }}\n\
             var<private> NAN_INF_BITS: vec2<u32> = vec2<u32>(0x7fc00000u, 0x7f800000u);\n\
             fn nan_value() -> {ty} {{ return {ty}(bitcast<f32>(NAN_INF_BITS.x)); }}\n\
             fn inf_value() -> {ty} {{ return {ty}(bitcast<f32>(NAN_INF_BITS.y)); }}\n\
             fn lowest() -> {ty} {{ return -inf_value(); }}\n\
             fn highest() -> {ty} {{ return inf_value(); }}\n"
        ),
        DType::I32 => format!(
            "fn is_nan(x: {ty}) -> bool {{ return false; }}\n\
             fn is_inf(x: {ty}) -> bool {{ return false; }}\n\
             fn sign_bit(x: {ty}) -> bool {{ return x < 0; }}\n\
             fn nan_value() -> {ty} {{ return 0; }}\n\
             fn inf_value() -> {ty} {{ return 2147483647; }}\n\
             fn lowest() -> {ty} {{ return ~2147483647; }}\n\
             fn highest() -> {ty} {{ return 2147483647; }}\n"
        ),
        // The packed integers compute widened: i32/u32 helpers with their own range.
        DType::I8 | DType::I16 => {
            let hi = if dtype == DType::I8 { 127 } else { 32767 };
            format!(
                "fn is_nan(x: {ty}) -> bool {{ return false; }}\n\
                 fn is_inf(x: {ty}) -> bool {{ return false; }}\n\
                 fn sign_bit(x: {ty}) -> bool {{ return x < 0; }}\n\
                 fn nan_value() -> {ty} {{ return 0; }}\n\
                 fn inf_value() -> {ty} {{ return {hi}; }}\n\
                 fn lowest() -> {ty} {{ return {lo}; }}\n\
                 fn highest() -> {ty} {{ return {hi}; }}\n",
                lo = -hi - 1
            )
        }
        DType::U8 | DType::U16 => {
            let hi = if dtype == DType::U8 { 255 } else { 65535 };
            format!(
                "fn is_nan(x: {ty}) -> bool {{ return false; }}\n\
                 fn is_inf(x: {ty}) -> bool {{ return false; }}\n\
                 fn sign_bit(x: {ty}) -> bool {{ return false; }}\n\
                 fn nan_value() -> {ty} {{ return 0u; }}\n\
                 fn inf_value() -> {ty} {{ return {hi}u; }}\n\
                 fn lowest() -> {ty} {{ return 0u; }}\n\
                 fn highest() -> {ty} {{ return {hi}u; }}\n"
            )
        }
        // Word pairs, low word first; int64 reads the high word's top bit as the sign.
        DType::I64 | DType::U64 => {
            let signed = dtype == DType::I64;
            let (lo, hi, sign) = if signed {
                (
                    "vec2<u32>(0u, 0x80000000u)",
                    "vec2<u32>(0xffffffffu, 0x7fffffffu)",
                    "(x.y >> 31u) != 0u",
                )
            } else {
                ("vec2<u32>(0u)", "vec2<u32>(0xffffffffu)", "false")
            };
            format!(
                "fn is_nan(x: {ty}) -> bool {{ return false; }}\n\
                 fn is_inf(x: {ty}) -> bool {{ return false; }}\n\
                 fn sign_bit(x: {ty}) -> bool {{ return {sign}; }}\n\
                 fn nan_value() -> {ty} {{ return vec2<u32>(0u); }}\n\
                 fn inf_value() -> {ty} {{ return {hi}; }}\n\
                 fn lowest() -> {ty} {{ return {lo}; }}\n\
                 fn highest() -> {ty} {{ return {hi}; }}\n"
            )
        }
        DType::U32 | DType::Bool => format!(
            "fn is_nan(x: {ty}) -> bool {{ return false; }}\n\
             fn is_inf(x: {ty}) -> bool {{ return false; }}\n\
             fn sign_bit(x: {ty}) -> bool {{ return false; }}\n\
             fn nan_value() -> {ty} {{ return 0u; }}\n\
             fn inf_value() -> {ty} {{ return 4294967295u; }}\n\
             fn lowest() -> {ty} {{ return 0u; }}\n\
             fn highest() -> {ty} {{ return 4294967295u; }}\n"
        ),
    }
}
