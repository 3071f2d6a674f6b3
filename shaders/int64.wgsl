// 64-bit integers as word pairs: x.x the low word, x.y the high word (NumPy's little-endian
// bytes, so an int64/uint64 buffer is read as array<vec2<u32>> with no conversion). Exact integer
// code only, the same bits on every adapter; int64 is x read as two's complement. Needs
// mulhilo.wgsl.
//
// The conversions from floats follow what NumPy gives on x86-64 (its casts compile to cvttss2si /
// cvttsd2si): truncation toward zero, and NaN, infinities and values outside the target's range
// give the "integer indefinite" 0x8000000000000000. To uint64, values in [2^63, 2^64) convert
// exactly and everything else goes through int64 (so -1.0 gives 2^64 - 1 and +inf gives 0), as
// the compilers' unsigned sequence does. The conversions to f32 round correctly (to nearest, ties
// to even), built from the bits rather than trusting a driver's u32 -> f32 rounding.

// -x (two's complement; wraps at the most negative value).
fn neg64(x: vec2<u32>) -> vec2<u32> {
    let lo = ~x.x + 1u;
    return vec2<u32>(lo, ~x.y + select(0u, 1u, lo == 0u));
}

// a + b (wrapping).
fn add64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let lo = a.x + b.x;
    return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x));
}

// a * b (wrapping; the same bits for int64 and uint64): the full product of the low words
// (mulhilo.wgsl) plus the low words of the cross products.
fn mul64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let p = mulhilo(a.x, b.x);
    return vec2<u32>(p.y, p.x + a.x * b.y + a.y * b.x);
}

// a - b (wrapping).
fn sub64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let lo = a.x - b.x;
    return vec2<u32>(lo, a.y - b.y - select(0u, 1u, a.x < b.x));
}

// a < b as uint64.
fn ult64(a: vec2<u32>, b: vec2<u32>) -> bool {
    return a.y < b.y || (a.y == b.y && a.x < b.x);
}

// x >> n, logical, for n in [0, 63].
fn shr64(x: vec2<u32>, n: u32) -> vec2<u32> {
    if (n == 0u) {
        return x;
    }
    if (n >= 32u) {
        return vec2<u32>(x.y >> (n - 32u), 0u);
    }
    return vec2<u32>((x.x >> n) | (x.y << (32u - n)), x.y >> n);
}

// Whether x, read as int64, is negative.
fn is_neg64(x: vec2<u32>) -> bool {
    return (x.y & 0x80000000u) != 0u;
}

// x << n for n in [0, 63].
fn shl64(x: vec2<u32>, n: u32) -> vec2<u32> {
    if (n == 0u) {
        return x;
    }
    if (n >= 32u) {
        return vec2<u32>(0u, x.x << (n - 32u));
    }
    return vec2<u32>(x.x << n, (x.y << n) | (x.x >> (32u - n)));
}

// Leading zero bits of x (64 for zero).
fn clz64(x: vec2<u32>) -> u32 {
    if (x.y != 0u) {
        return countLeadingZeros(x.y);
    }
    return 32u + countLeadingZeros(x.x);
}

// x as f32, rounded to nearest (ties to even): the top 24 significant bits, rounded up when the
// next bit is set and either a lower bit is set or the kept value is odd; then an exact ldexp.
fn u64_to_f32(x: vec2<u32>) -> f32 {
    let lz = clz64(x);
    if (lz >= 40u) {
        // Below 2^24: the low word holds it exactly.
        return f32(x.x);
    }
    let m = shl64(x, lz);
    var mant = m.y >> 8u;
    let round = (m.y & 0x80u) != 0u;
    let sticky = (m.y & 0x7fu) != 0u || m.x != 0u;
    if (round && (sticky || (mant & 1u) != 0u)) {
        mant += 1u;
    }
    // mant <= 2^24 is exact in f32; x = mant 2^(40 - lz).
    return ldexp(f32(mant), i32(40u - lz));
}

fn i64_to_f32(x: vec2<u32>) -> f32 {
    if (is_neg64(x)) {
        return -u64_to_f32(neg64(x));
    }
    return u64_to_f32(x);
}

// trunc(x) as int64 for float x, NaN and |x| >= 2^63 (but -2^63 itself) giving the integer
// indefinite -2^63. |t| = hi 2^32 + lo with both parts exact in f32 (t has 24 significant bits).
fn f32_to_i64(x: f32) -> vec2<u32> {
    let bits = bitcast<u32>(x) & 0x7fffffffu;
    // 0x5f000000 is 2^63: NaN, infinities and larger magnitudes are out of range.
    if (bits >= 0x5f000000u) {
        return vec2<u32>(0u, 0x80000000u);
    }
    let a = floor(abs(x));
    let hi = floor(a * 2.3283064365386963e-10f);
    let lo = a - hi * 4294967296.0f;
    let m = vec2<u32>(u32(lo), u32(hi));
    return select(m, neg64(m), x < 0.0f);
}

fn f32_to_u64(x: f32) -> vec2<u32> {
    // x >= 2^63 (+inf included; NaN is not: its bits are tested, not compared).
    let bits = bitcast<u32>(x);
    if (bits >= 0x5f000000u && bits <= 0x7f800000u) {
        let r = f32_to_i64(x - 9223372036854775808.0f);
        return vec2<u32>(r.x, r.y ^ 0x80000000u);
    }
    return f32_to_i64(x);
}
