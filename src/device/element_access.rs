//! WGSL access to the elements of a storage binding, per dtype: the binding's declaration and
//! `load_<name>(i)` / `store_<name>(i, v)`, where `i` is a window-relative element index and `v`
//! is in the dtype's compute type ([`DType::wgsl_compute`]).
//!
//! Word dtypes are one array element each. 64-bit integers are `vec2<u32>` word pairs (low word
//! first, NumPy's bytes). 8- and 16-bit integers are packed four or two to a `u32` word, in
//! NumPy's byte order (element `i` is byte `i % 4` of word `i / 4`, little-endian), loaded
//! widened to `i32` (sign-extended) or `u32`. A packed output is declared `array<atomic<u32>>` and
//! each store clears and sets only its own byte or half-word with two atomic operations: an
//! output view may share words with other invocations' elements or with elements outside the view
//! (odd offsets, strides, transposes), and no store can lose another's bits.
//!
//! Packed f16 (a device without `shader-f16`, [`Variant::f16_packed`]) is stored as the 16-bit
//! integers are, and [`read_value`]/[`write_value`] give its values in f32: a load converts the
//! half's bits exactly (subnormals included, in integers: no driver conversion to trust), a
//! store rounds to nearest, ties to even, in integers (lavapipe's own f32 -> f16 conversions
//! truncate), a NaN keeping its sign and the top of its payload, as NumPy's `npy_float_to_half`.

use super::pipeline::Variant;
use crate::dtype::DType;

/// WGSL statements returning the exact f32 value of the half whose bits are in `h: u32`
/// (subnormal halves are m * 2^-24, a normal f32), in integer arithmetic.
pub(crate) const F32_OF_HALF_BITS: &str = "let sign = (h & 0x8000u) << 16u;\n    \
    let e = (h >> 10u) & 0x1fu;\n    let m = h & 0x3ffu;\n    \
    if (e == 0u) { return bitcast<f32>(sign | bitcast<u32>(f32(m) * 0x1p-24f)); }\n    \
    return bitcast<f32>(sign | (select(e + 112u, 255u, e == 31u) << 23u) | (m << 13u));\n";

/// The declaration of a read-only binding `name` holding dtype `d` of variant `v`, and its
/// `load_<name>` giving values in the compute type: f32 for packed f16, word pairs for software
/// f64 (its compute type), else as [`read_access`].
pub(crate) fn read_value(name: &str, binding: u32, v: Variant, d: DType) -> String {
    if !v.is_packed(d) {
        return read_access(name, binding, v.stored(d));
    }
    format!(
        "@group(0) @binding({binding}) var<storage, read> {name}: array<u32>;\n\
         fn load_{name}(i: i32) -> f32 {{\n    \
         let h = ({name}[i >> 1u] >> (u32(i & 1) * 16u)) & 0xffffu;\n    \
         {F32_OF_HALF_BITS}}}\n"
    )
}

/// The declaration of a read-write binding `name` holding dtype `d` of variant `v`, and its
/// `store_<name>(i, v)` taking a value in the compute type: f32 for packed f16, rounded to f16
/// as the module docs say; else as [`write_access`].
pub(crate) fn write_value(name: &str, binding: u32, v: Variant, d: DType) -> String {
    if !v.is_packed(d) {
        return write_access(name, binding, v.stored(d));
    }
    format!(
        "@group(0) @binding({binding}) var<storage, read_write> {name}: array<atomic<u32>>;\n\
         fn f16_bits_{name}(v: f32) -> u32 {{\n    \
         let b = bitcast<u32>(v);\n    \
         let sign = (b >> 16u) & 0x8000u;\n    \
         let a = b & 0x7fffffffu;\n    \
         if (a > 0x7f800000u) {{ return sign | 0x7c00u | max((a >> 13u) & 0x3ffu, 1u); }}\n    \
         // 65520 and up round to infinity (65504 is odd: the tie goes up).\n    \
         if (a >= 0x477ff000u) {{ return sign | 0x7c00u; }}\n    \
         if (a >= 0x38800000u) {{\n        \
         // Normal: rebias the exponent (127 - 15), drop 13 bits to nearest even.\n        \
         let m = a - 0x38000000u;\n        \
         return sign | ((m + 0xfffu + ((m >> 13u) & 1u)) >> 13u);\n    }}\n    \
         // 2^-25 and below round to zero (the tie at 2^-25 to the even 0).\n    \
         if (a <= 0x33000000u) {{ return sign; }}\n    \
         // Subnormal: the multiple of 2^-24 nearest the value, ties to even.\n    \
         let s = 126u - (a >> 23u);\n    \
         let sig = (a & 0x7fffffu) | 0x800000u;\n    \
         let k = sig >> s;\n    \
         let rest = sig - (k << s);\n    \
         let half = 1u << (s - 1u);\n    \
         return sign | (k + select(0u, 1u, rest > half || (rest == half && (k & 1u) != 0u)));\n}}\n\
         fn bits_{name}(v: f32) -> u32 {{ return f16_bits_{name}(v); }}\n"
    ) + &packed_stores(name, "f32", 2, 16)
}

/// The declaration of a read-only binding `name` of `dtype` at `binding`, and its `load_<name>`.
pub(crate) fn read_access(name: &str, binding: u32, dtype: DType) -> String {
    let c = dtype.wgsl_compute();
    let decl = format!(
        "@group(0) @binding({binding}) var<storage, read> {name}: array<{}>;\n",
        dtype.wgsl()
    );
    let load = match dtype {
        DType::I8 | DType::I16 => {
            let (per, bits) = packing(dtype);
            format!(
                "fn load_{name}(i: i32) -> i32 {{\n    let s = u32(i & {m}) * {bits}u;\n    \
                 return bitcast<i32>({name}[i >> {sh}u] << ({top}u - s)) >> {top}u;\n}}\n",
                m = per - 1,
                sh = per.trailing_zeros(),
                top = 32 - bits,
            )
        }
        DType::U8 | DType::U16 => {
            let (per, bits) = packing(dtype);
            format!(
                "fn load_{name}(i: i32) -> u32 {{\n    let s = u32(i & {m}) * {bits}u;\n    \
                 return ({name}[i >> {sh}u] >> s) & {mask}u;\n}}\n",
                m = per - 1,
                sh = per.trailing_zeros(),
                mask = (1u64 << bits) - 1,
            )
        }
        _ => format!("fn load_{name}(i: i32) -> {c} {{ return {c}({name}[i]); }}\n"),
    };
    decl + &load
}

/// The declaration of a read-write binding `name` of `dtype` at `binding`, its `store_<name>`
/// (race-free for packed dtypes, see the module docs), and `stage_<name>`/`flush_<name>` for
/// skeletons that store runs of elements (see [`packed_stores`]).
pub(crate) fn write_access(name: &str, binding: u32, dtype: DType) -> String {
    let c = dtype.wgsl_compute();
    if dtype.packed_per_word().is_some() {
        let (per, bits) = packing(dtype);
        let decl = format!(
            "@group(0) @binding({binding}) var<storage, read_write> {name}: array<atomic<u32>>;\n\
             fn bits_{name}(v: {c}) -> u32 {{ return u32(v) & {mask}u; }}\n",
            mask = (1u64 << bits) - 1,
        );
        return decl + &packed_stores(name, c, per, bits);
    }
    let t = dtype.wgsl();
    format!(
        "@group(0) @binding({binding}) var<storage, read_write> {name}: array<{t}>;\n\
         fn store_{name}(i: i32, v: {c}) {{ {name}[i] = {t}(v); }}\n\
         fn stage_{name}(i: i32, v: {c}) {{ store_{name}(i, v); }}\n\
         fn flush_{name}() {{}}\n"
    )
}

/// The stores of a packed binding `name` whose `fn bits_<name>(v: C) -> u32` gives an element's
/// bits: `store_<name>(i, v)` clears and sets its own bits with two atomic operations, and the
/// skeletons that walk a run of elements (copy, fill, unary, binary, where) `stage_<name>` each
/// element and `flush_<name>()` at the end. Staging gathers consecutive elements of one word in
/// a private register and writes the word when the run leaves it: a word the invocation filled
/// whole is one plain atomic store (no other invocation holds any of its bits), a partial one
/// the two atomic operations of its bits. On lavapipe a contiguous f16 or uint8 output then costs
/// one store per word instead of two read-modify-writes per element.
fn packed_stores(name: &str, c: &str, per: i32, bits: u32) -> String {
    format!(
        "fn store_{name}(i: i32, v: {c}) {{\n    let s = u32(i & {m}) * {bits}u;\n    \
         let w = i >> {sh}u;\n    \
         atomicAnd(&{name}[w], ~({mask}u << s));\n    atomicOr(&{name}[w], bits_{name}(v) << s);\n}}\n\
         // The staged word: (index, bits, mask of the bits set); index 0xffffffff when none.\n\
         var<private> staged_{name}: vec3<u32> = vec3<u32>(0xffffffffu, 0u, 0u);\n\
         fn flush_{name}() {{\n    let r = staged_{name};\n    \
         if (r.x == 0xffffffffu) {{ return; }}\n    \
         if (r.z == 0xffffffffu) {{\n        atomicStore(&{name}[r.x], r.y);\n    }} else {{\n        \
         atomicAnd(&{name}[r.x], ~r.z);\n        atomicOr(&{name}[r.x], r.y);\n    }}\n    \
         staged_{name}.x = 0xffffffffu;\n}}\n\
         fn stage_{name}(i: i32, v: {c}) {{\n    let s = u32(i & {m}) * {bits}u;\n    \
         let w = u32(i >> {sh}u);\n    \
         if (staged_{name}.x != w) {{\n        flush_{name}();\n        \
         staged_{name} = vec3<u32>(w, 0u, 0u);\n    }}\n    \
         staged_{name}.y |= bits_{name}(v) << s;\n    staged_{name}.z |= {mask}u << s;\n}}\n",
        m = per - 1,
        sh = per.trailing_zeros(),
        mask = (1u64 << bits) - 1,
    )
}

/// (elements per word, bits per element) of a packed dtype.
fn packing(dtype: DType) -> (i32, u32) {
    let per = dtype.packed_per_word().expect("a packed dtype");
    (per as i32, 32 / per)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_loads_shift_by_the_byte_and_half_word() {
        let s = read_access("src", 1, DType::I8);
        assert!(s.contains("u32(i & 3) * 8u"), "{s}");
        assert!(s.contains("src[i >> 2u] << (24u - s)) >> 24u"), "{s}");
        let s = read_access("src", 1, DType::U16);
        assert!(
            s.contains("u32(i & 1) * 16u") && s.contains("& 65535u"),
            "{s}"
        );
        let s = write_access("dst", 2, DType::U8);
        assert!(
            s.contains("array<atomic<u32>>") && s.contains("255u << s"),
            "{s}"
        );
        assert!(write_access("dst", 2, DType::I64).contains("array<vec2<u32>>"));
    }
}
