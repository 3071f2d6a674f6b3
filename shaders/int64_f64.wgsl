// The f64 conversions of the 64-bit integer word pairs (int64.wgsl), joined only where the
// variant has f64 (a shader that names f64 needs SHADER_F64). Same rules as there. NaN is tested
// by bits (`is_nan` of the f64 dtype helpers, which the including kernel provides): Mesa may turn
// `!(a < b)` into `a >= b`, which a NaN does not satisfy.

// hi 2^32 + lo: both terms exact in f64, so the one rounding of their sum is the correct one.
fn u64_to_f64(x: vec2<u32>) -> f64 {
    return f64(x.y) * 4294967296.0lf + f64(x.x);
}

fn i64_to_f64(x: vec2<u32>) -> f64 {
    return f64(bitcast<i32>(x.y)) * 4294967296.0lf + f64(x.x);
}

// |x| < 2^63 is in range.
fn f64_to_i64(x: f64) -> vec2<u32> {
    let a = floor(abs(x));
    if (is_nan(x) || a >= 9223372036854775808.0lf) {
        return vec2<u32>(0u, 0x80000000u);
    }
    // a = hi 2^32 + lo: the scaling by 2^-32, floor and the difference are exact.
    let hi = floor(a * 2.3283064365386963e-10lf);
    let lo = a - hi * 4294967296.0lf;
    let m = vec2<u32>(u32(lo), u32(hi));
    return select(m, neg64(m), x < 0.0lf);
}

fn f64_to_u64(x: f64) -> vec2<u32> {
    if (!is_nan(x) && x >= 9223372036854775808.0lf) {
        let r = f64_to_i64(x - 9223372036854775808.0lf);
        return vec2<u32>(r.x, r.y ^ 0x80000000u);
    }
    return f64_to_i64(x);
}
