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

use crate::dtype::DType;

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

/// The declaration of a read-write binding `name` of `dtype` at `binding`, and its
/// `store_<name>` (race-free for packed dtypes, see the module docs).
pub(crate) fn write_access(name: &str, binding: u32, dtype: DType) -> String {
    let c = dtype.wgsl_compute();
    if dtype.packed_per_word().is_some() {
        let (per, bits) = packing(dtype);
        return format!(
            "@group(0) @binding({binding}) var<storage, read_write> {name}: array<atomic<u32>>;\n\
             fn store_{name}(i: i32, v: {c}) {{\n    let s = u32(i & {m}) * {bits}u;\n    \
             let keep = {mask}u << s;\n    let w = i >> {sh}u;\n    \
             atomicAnd(&{name}[w], ~keep);\n    atomicOr(&{name}[w], (u32(v) << s) & keep);\n}}\n",
            m = per - 1,
            sh = per.trailing_zeros(),
            mask = (1u64 << bits) - 1,
        );
    }
    let t = dtype.wgsl();
    format!(
        "@group(0) @binding({binding}) var<storage, read_write> {name}: array<{t}>;\n\
         fn store_{name}(i: i32, v: {c}) {{ {name}[i] = {t}(v); }}\n"
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
