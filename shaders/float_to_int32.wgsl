// NumPy's float-to-int32 conversion on x86-64 (cvttss2si/cvttsd2si), which its casts to int32,
// int8, uint8, int16 and uint16 go through (the smaller ones keep the low bits): truncation,
// and NaN, infinities and out-of-range values give the integer indefinite -2^31. The f64 form
// is float_to_int32_f64.wgsl, joined only where the variant has f64.

// trunc(x) as int32 for float x, NaN and out-of-range values giving -2^31 (cvttss2si): the
// conversion NumPy's casts to int8, uint8, int16 and uint16 go through before keeping the low
// bits.
fn f32_to_i32_x86(x: f32) -> i32 {
    let bits = bitcast<u32>(x) & 0x7fffffffu;
    // 0x4f000000 is 2^31.
    if (bits >= 0x4f000000u) {
        return i32(-2147483647 - 1);
    }
    return i32(x);
}
