// float_to_int32.wgsl's conversion from f64, joined only where the variant has f64; NaN is
// tested by bits (`is_nan` of the f64 dtype helpers, which the including kernel provides).

// As f32_to_i32_x86, from f64 (-2^31 itself gives -2^31 either way).
fn f64_to_i32_x86(x: f64) -> i32 {
    let a = floor(abs(x));
    if (is_nan(x) || a >= 2147483648.0lf) {
        return i32(-2147483647 - 1);
    }
    let m = i32(u32(a));
    return select(m, -m, x < 0.0lf);
}
