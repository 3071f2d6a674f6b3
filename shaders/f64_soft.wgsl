// Software IEEE 754 binary64 on word pairs, for adapters without SHADER_F64 (Metal, WebGPU, GL):
// an f64 is its bits as vec2<u32> (x the low word, y the high word: the host's bytes, so upload
// and readback stay plain copies, as for int64). Exact integer code only, so the same bits on
// every adapter: add, sub, mul, div, sqrt and fma correctly rounded to nearest, ties to even,
// with subnormals, signed zeros and infinities; comparisons with IEEE's NaN rules; NumPy's maximum,
// minimum, fmax, fmin and nextafter; trunc, floor, ceil and rint; the conversions to and from
// f32 and int64/uint64 (to int64 as x86's cvttsd2si). NaN results are x86-64's (NumPy's host):
// an operand's NaN, quieted (the first operand's when both are NaN), or the default NaN
// 0xfff8000000000000 for an invalid operation (inf - inf, 0 * inf).
//
// The algorithms are Berkeley SoftFloat 3e's (addMagsF64, subMagsF64, mulF64, mulAddF64,
// roundPackToF64, normRoundPackToF64, f32_to_f64, f64_to_f32), written here for word pairs; div
// and sqrt use restoring division and the digit-by-digit root instead of SoftFloat's reciprocal
// estimates. Significands are uint64 with the leading bit at 62 and 10 bits below the result's
// last one (a sticky bit folded into the lowest), and a packed result is (sign << 63) +
// (exponent << 52) + significand, so a significand that rounds up into bit 53 carries into the
// exponent.
//
// Needs mulhilo.wgsl and int64.wgsl (the word-pair add, sub, shifts, comparisons, clz).

const F64S_DEFAULT_NAN: vec2<u32> = vec2<u32>(0u, 0xfff80000u);

fn f64s_exp(a: vec2<u32>) -> i32 {
    return i32((a.y >> 20u) & 0x7ffu);
}

fn f64s_frac(a: vec2<u32>) -> vec2<u32> {
    return vec2<u32>(a.x, a.y & 0xfffffu);
}

fn f64s_nonzero(x: vec2<u32>) -> bool {
    return (x.x | x.y) != 0u;
}

fn f64s_is_nan(a: vec2<u32>) -> bool {
    return f64s_exp(a) == 0x7ff && f64s_nonzero(f64s_frac(a));
}

fn f64s_is_inf(a: vec2<u32>) -> bool {
    return (a.y & 0x7fffffffu) == 0x7ff00000u && a.x == 0u;
}

// (sign << 63) + (exp << 52) + sig: the sum, not an or (see the header).
fn f64s_pack(sign: u32, exp: i32, sig: vec2<u32>) -> vec2<u32> {
    return add64(vec2<u32>(0u, (sign << 31u) + (bitcast<u32>(exp) << 20u)), sig);
}

// x86's NaN result for two operands of which at least one is a NaN: the first NaN, quieted.
fn f64s_nan_of(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    if (f64s_is_nan(a)) {
        return vec2<u32>(a.x, a.y | 0x00080000u);
    }
    return vec2<u32>(b.x, b.y | 0x00080000u);
}

// x >> n with every shifted-out bit or-ed into the lowest ("jamming"), for any n.
fn f64s_shr_jam64(x: vec2<u32>, n: u32) -> vec2<u32> {
    if (n == 0u) {
        return x;
    }
    if (n >= 63u) {
        return vec2<u32>(select(0u, 1u, f64s_nonzero(x)), 0u);
    }
    let kept = shr64(x, n);
    let lost = shl64(x, 64u - n);
    return vec2<u32>(kept.x | select(0u, 1u, f64s_nonzero(lost)), kept.y);
}

// The result of sign, exponent and a significand with its leading bit at 62 (or below, for a
// subnormal result), rounded to nearest, ties to even; overflow gives infinity.
fn f64s_round_pack(sign: u32, exp_in: i32, sig_in: vec2<u32>) -> vec2<u32> {
    var exp = exp_in;
    var sig = sig_in;
    var round_bits = sig.x & 0x3ffu;
    if (bitcast<u32>(exp) >= 0x7fdu) {
        if (exp < 0) {
            sig = f64s_shr_jam64(sig, u32(-exp));
            exp = 0;
            round_bits = sig.x & 0x3ffu;
        } else if (exp > 0x7fd || !ult64(sig, vec2<u32>(0xfffffe00u, 0x7fffffffu))) {
            return f64s_pack(sign, 0x7ff, vec2<u32>(0u, 0u));
        }
    }
    sig = shr64(add64(sig, vec2<u32>(0x200u, 0u)), 10u);
    if (round_bits == 0x200u) {
        sig.x = sig.x & ~1u;
    }
    if (!f64s_nonzero(sig)) {
        exp = 0;
    }
    return f64s_pack(sign, exp, sig);
}

// f64s_round_pack of a significand whose leading bit may be anywhere.
fn f64s_norm_round_pack(sign: u32, exp_in: i32, sig: vec2<u32>) -> vec2<u32> {
    let shift = i32(clz64(sig)) - 1;
    let exp = exp_in - shift;
    if (shift >= 10 && bitcast<u32>(exp) < 0x7fdu) {
        return f64s_pack(sign, select(0, exp, f64s_nonzero(sig)), shl64(sig, u32(shift - 10)));
    }
    return f64s_round_pack(sign, exp, shl64(sig, u32(shift)));
}

// |a| + |b| with the result's sign `sign`.
fn f64s_add_mags(a: vec2<u32>, b: vec2<u32>, sign: u32) -> vec2<u32> {
    let exp_a = f64s_exp(a);
    let exp_b = f64s_exp(b);
    var sig_a = f64s_frac(a);
    var sig_b = f64s_frac(b);
    let diff = exp_a - exp_b;
    if (diff == 0) {
        if (exp_a == 0) {
            // Two subnormals: exact (a carry into bit 52 makes the smallest normal).
            return f64s_pack(sign, 0, add64(sig_a, sig_b));
        }
        if (exp_a == 0x7ff) {
            if (f64s_nonzero(sig_a) || f64s_nonzero(sig_b)) {
                return f64s_nan_of(a, b);
            }
            return a;
        }
        let sig = shl64(add64(add64(vec2<u32>(0u, 0x00200000u), sig_a), sig_b), 9u);
        return f64s_round_pack(sign, exp_a, sig);
    }
    sig_a = shl64(sig_a, 9u);
    sig_b = shl64(sig_b, 9u);
    var exp_z: i32;
    if (diff < 0) {
        if (exp_b == 0x7ff) {
            if (f64s_nonzero(sig_b)) {
                return f64s_nan_of(a, b);
            }
            return f64s_pack(sign, 0x7ff, vec2<u32>(0u, 0u));
        }
        exp_z = exp_b;
        sig_a = select(shl64(sig_a, 1u), add64(sig_a, vec2<u32>(0u, 0x20000000u)), exp_a != 0);
        sig_a = f64s_shr_jam64(sig_a, u32(-diff));
    } else {
        if (exp_a == 0x7ff) {
            if (f64s_nonzero(sig_a)) {
                return f64s_nan_of(a, b);
            }
            return a;
        }
        exp_z = exp_a;
        sig_b = select(shl64(sig_b, 1u), add64(sig_b, vec2<u32>(0u, 0x20000000u)), exp_b != 0);
        sig_b = f64s_shr_jam64(sig_b, u32(diff));
    }
    var sig_z = add64(add64(vec2<u32>(0u, 0x20000000u), sig_a), sig_b);
    if (ult64(sig_z, vec2<u32>(0u, 0x40000000u))) {
        exp_z -= 1;
        sig_z = shl64(sig_z, 1u);
    }
    return f64s_round_pack(sign, exp_z, sig_z);
}

// |a| - |b| with `sign` the sign of a (flipped when |b| is larger).
fn f64s_sub_mags(a: vec2<u32>, b: vec2<u32>, sign_a: u32) -> vec2<u32> {
    var sign = sign_a;
    let exp_a = f64s_exp(a);
    let exp_b = f64s_exp(b);
    var sig_a = f64s_frac(a);
    var sig_b = f64s_frac(b);
    let diff = exp_a - exp_b;
    if (diff == 0) {
        if (exp_a == 0x7ff) {
            if (f64s_nonzero(sig_a) || f64s_nonzero(sig_b)) {
                return f64s_nan_of(a, b);
            }
            return F64S_DEFAULT_NAN;
        }
        var d = sub64(sig_a, sig_b);
        if (!f64s_nonzero(d)) {
            // An exact zero is +0 when rounding to nearest.
            return vec2<u32>(0u, 0u);
        }
        var e = exp_a;
        if (e != 0) {
            e -= 1;
        }
        if ((d.y >> 31u) != 0u) {
            sign ^= 1u;
            d = neg64(d);
        }
        var shift = i32(clz64(d)) - 11;
        var exp_z = e - shift;
        if (exp_z < 0) {
            shift = e;
            exp_z = 0;
        }
        return f64s_pack(sign, exp_z, shl64(d, u32(shift)));
    }
    sig_a = shl64(sig_a, 10u);
    sig_b = shl64(sig_b, 10u);
    var exp_z: i32;
    var sig_z: vec2<u32>;
    if (diff < 0) {
        sign ^= 1u;
        if (exp_b == 0x7ff) {
            if (f64s_nonzero(sig_b)) {
                return f64s_nan_of(a, b);
            }
            return f64s_pack(sign, 0x7ff, vec2<u32>(0u, 0u));
        }
        sig_a = add64(sig_a, select(sig_a, vec2<u32>(0u, 0x40000000u), exp_a != 0));
        sig_a = f64s_shr_jam64(sig_a, u32(-diff));
        sig_b = vec2<u32>(sig_b.x, sig_b.y | 0x40000000u);
        exp_z = exp_b;
        sig_z = sub64(sig_b, sig_a);
    } else {
        if (exp_a == 0x7ff) {
            if (f64s_nonzero(sig_a)) {
                return f64s_nan_of(a, b);
            }
            return a;
        }
        sig_b = add64(sig_b, select(sig_b, vec2<u32>(0u, 0x40000000u), exp_b != 0));
        sig_b = f64s_shr_jam64(sig_b, u32(diff));
        sig_a = vec2<u32>(sig_a.x, sig_a.y | 0x40000000u);
        exp_z = exp_a;
        sig_z = sub64(sig_a, sig_b);
    }
    return f64s_norm_round_pack(sign, exp_z - 1, sig_z);
}

// a + b.
fn f64s_add(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let sign_a = a.y >> 31u;
    if (sign_a == (b.y >> 31u)) {
        return f64s_add_mags(a, b, sign_a);
    }
    return f64s_sub_mags(a, b, sign_a);
}

// a - b.
fn f64s_sub(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let sign_a = a.y >> 31u;
    if (sign_a == (b.y >> 31u)) {
        return f64s_sub_mags(a, b, sign_a);
    }
    return f64s_add_mags(a, b, sign_a);
}

// The 128-bit product of two uint64, as four words, lowest first.
fn f64s_mul128(a: vec2<u32>, b: vec2<u32>) -> array<u32, 4> {
    let ll = mulhilo(a.x, b.x);
    let lh = mulhilo(a.x, b.y);
    let hl = mulhilo(a.y, b.x);
    let hh = mulhilo(a.y, b.y);
    // Word 1: ll's high + both cross products' low words, with its carries into word 2.
    let s1 = ll.x + lh.y;
    let w1 = s1 + hl.y;
    let c1 = select(0u, 1u, s1 < ll.x) + select(0u, 1u, w1 < s1);
    let s2 = lh.x + hl.x;
    let s3 = s2 + hh.y;
    let w2 = s3 + c1;
    let c2 = select(0u, 1u, s2 < lh.x) + select(0u, 1u, s3 < s2) + select(0u, 1u, w2 < s3);
    return array<u32, 4>(ll.y, w1, w2, hh.x + c2);
}

// A subnormal's significand normalised: (exponent, significand with its leading bit at 52).
fn f64s_norm_subnormal(sig: vec2<u32>) -> vec3<u32> {
    let shift = clz64(sig) - 11u;
    let s = shl64(sig, shift);
    return vec3<u32>(bitcast<u32>(1 - i32(shift)), s.x, s.y);
}

// a * b.
fn f64s_mul(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let sign = (a.y ^ b.y) >> 31u;
    var exp_a = f64s_exp(a);
    var exp_b = f64s_exp(b);
    var sig_a = f64s_frac(a);
    var sig_b = f64s_frac(b);
    if (exp_a == 0x7ff) {
        if (f64s_nonzero(sig_a) || (exp_b == 0x7ff && f64s_nonzero(sig_b))) {
            return f64s_nan_of(a, b);
        }
        if (exp_b == 0 && !f64s_nonzero(sig_b)) {
            return F64S_DEFAULT_NAN;
        }
        return f64s_pack(sign, 0x7ff, vec2<u32>(0u, 0u));
    }
    if (exp_b == 0x7ff) {
        if (f64s_nonzero(sig_b)) {
            return f64s_nan_of(a, b);
        }
        if (exp_a == 0 && !f64s_nonzero(sig_a)) {
            return F64S_DEFAULT_NAN;
        }
        return f64s_pack(sign, 0x7ff, vec2<u32>(0u, 0u));
    }
    if (exp_a == 0) {
        if (!f64s_nonzero(sig_a)) {
            return f64s_pack(sign, 0, vec2<u32>(0u, 0u));
        }
        let n = f64s_norm_subnormal(sig_a);
        exp_a = bitcast<i32>(n.x);
        sig_a = n.yz;
    }
    if (exp_b == 0) {
        if (!f64s_nonzero(sig_b)) {
            return f64s_pack(sign, 0, vec2<u32>(0u, 0u));
        }
        let n = f64s_norm_subnormal(sig_b);
        exp_b = bitcast<i32>(n.x);
        sig_b = n.yz;
    }
    var exp_z = exp_a + exp_b - 0x3ff;
    sig_a = shl64(vec2<u32>(sig_a.x, sig_a.y | 0x00100000u), 10u);
    sig_b = shl64(vec2<u32>(sig_b.x, sig_b.y | 0x00100000u), 11u);
    let p = f64s_mul128(sig_a, sig_b);
    var sig_z = vec2<u32>(p[2] | select(0u, 1u, (p[0] | p[1]) != 0u), p[3]);
    if (ult64(sig_z, vec2<u32>(0u, 0x40000000u))) {
        exp_z -= 1;
        sig_z = shl64(sig_z, 1u);
    }
    return f64s_round_pack(sign, exp_z, sig_z);
}

// a == b (NaN equals nothing; -0 equals +0).
fn f64s_eq(a: vec2<u32>, b: vec2<u32>) -> bool {
    if (f64s_is_nan(a) || f64s_is_nan(b)) {
        return false;
    }
    let both_zero = ((a.y | b.y) & 0x7fffffffu) == 0u && (a.x | b.x) == 0u;
    return both_zero || (a.x == b.x && a.y == b.y);
}

// a < b (false when either is NaN; -0 is not below +0).
fn f64s_lt(a: vec2<u32>, b: vec2<u32>) -> bool {
    if (f64s_is_nan(a) || f64s_is_nan(b)) {
        return false;
    }
    let sign_a = (a.y >> 31u) != 0u;
    let sign_b = (b.y >> 31u) != 0u;
    if (sign_a != sign_b) {
        // Different signs: a < b unless both are zeros.
        let both_zero = ((a.y | b.y) & 0x7fffffffu) == 0u && (a.x | b.x) == 0u;
        return sign_a && !both_zero;
    }
    let differ = a.x != b.x || a.y != b.y;
    // Same sign: the magnitudes order as the bits, reversed for negatives.
    return differ && (sign_a != ult64(a, b));
}

// The f32 with bits `x`, exactly (an sNaN is quieted, as x86's cvtss2sd does).
fn f64s_from_f32_bits(x: u32) -> vec2<u32> {
    let sign = x >> 31u;
    let exp = (x >> 23u) & 0xffu;
    var frac = x & 0x7fffffu;
    if (exp == 0xffu) {
        if (frac != 0u) {
            return vec2<u32>(frac << 29u, (sign << 31u) | 0x7ff80000u | (frac >> 3u));
        }
        return vec2<u32>(0u, (sign << 31u) | 0x7ff00000u);
    }
    if (exp == 0u) {
        if (frac == 0u) {
            return vec2<u32>(0u, sign << 31u);
        }
        // Subnormal: normalise (the leading bit moves to bit 23, then is dropped).
        let shift = countLeadingZeros(frac) - 8u;
        frac = (frac << shift) & 0x7fffffu;
        let e = 1u + 896u - shift;
        return vec2<u32>(frac << 29u, (sign << 31u) | (e << 20u) | (frac >> 3u));
    }
    return vec2<u32>(frac << 29u, (sign << 31u) | ((exp + 896u) << 20u) | (frac >> 3u));
}

// a rounded to f32 (to nearest, ties to even), as bits; NaN keeps its sign and payload's top
// bits, quieted (x86's cvtsd2ss).
fn f64s_to_f32_bits(a: vec2<u32>) -> u32 {
    let sign = a.y >> 31u;
    let exp = f64s_exp(a);
    let frac = f64s_frac(a);
    if (exp == 0x7ff) {
        if (f64s_nonzero(frac)) {
            return (sign << 31u) | 0x7fc00000u | (((frac.y << 3u) | (frac.x >> 29u)) & 0x3fffffu);
        }
        return (sign << 31u) | 0x7f800000u;
    }
    // 30 significant bits with a sticky bit: frac >> 22, jammed.
    let j = f64s_shr_jam64(frac, 22u);
    var sig = j.x;
    if (exp == 0 && sig == 0u) {
        return sign << 31u;
    }
    sig = sig | 0x40000000u;
    var e = exp - 0x381;
    var round_bits = sig & 0x7fu;
    if (bitcast<u32>(e) >= 0xfdu) {
        if (e < 0) {
            let n = u32(-e);
            if (n >= 31u) {
                sig = select(0u, 1u, sig != 0u);
            } else {
                sig = (sig >> n) | select(0u, 1u, (sig << (32u - n)) != 0u);
            }
            e = 0;
            round_bits = sig & 0x7fu;
        } else if (e > 0xfd || sig + 0x40u >= 0x80000000u) {
            return (sign << 31u) | 0x7f800000u;
        }
    }
    sig = (sig + 0x40u) >> 7u;
    if (round_bits == 0x40u) {
        sig = sig & ~1u;
    }
    if (sig == 0u) {
        e = 0;
    }
    return (sign << 31u) + (bitcast<u32>(e) << 23u) + sig;
}

// a / b: the quotient's significand by restoring division (63 bits, the remainder jammed into
// the lowest), then rounded as the others.
fn f64s_div(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let sign = (a.y ^ b.y) >> 31u;
    var exp_a = f64s_exp(a);
    var exp_b = f64s_exp(b);
    var sig_a = f64s_frac(a);
    var sig_b = f64s_frac(b);
    if (exp_a == 0x7ff) {
        if (f64s_nonzero(sig_a)) {
            return f64s_nan_of(a, b);
        }
        if (exp_b == 0x7ff) {
            if (f64s_nonzero(sig_b)) {
                return f64s_nan_of(a, b);
            }
            return F64S_DEFAULT_NAN;
        }
        return f64s_pack(sign, 0x7ff, vec2<u32>(0u, 0u));
    }
    if (exp_b == 0x7ff) {
        if (f64s_nonzero(sig_b)) {
            return f64s_nan_of(a, b);
        }
        return f64s_pack(sign, 0, vec2<u32>(0u, 0u));
    }
    if (exp_b == 0) {
        if (!f64s_nonzero(sig_b)) {
            if (exp_a == 0 && !f64s_nonzero(sig_a)) {
                return F64S_DEFAULT_NAN;
            }
            return f64s_pack(sign, 0x7ff, vec2<u32>(0u, 0u));
        }
        let n = f64s_norm_subnormal(sig_b);
        exp_b = bitcast<i32>(n.x);
        sig_b = n.yz;
    }
    if (exp_a == 0) {
        if (!f64s_nonzero(sig_a)) {
            return f64s_pack(sign, 0, vec2<u32>(0u, 0u));
        }
        let n = f64s_norm_subnormal(sig_a);
        exp_a = bitcast<i32>(n.x);
        sig_a = n.yz;
    }
    var exp_z = exp_a - exp_b + 0x3fe;
    sig_a = vec2<u32>(sig_a.x, sig_a.y | 0x00100000u);
    sig_b = vec2<u32>(sig_b.x, sig_b.y | 0x00100000u);
    if (ult64(sig_a, sig_b)) {
        exp_z -= 1;
        sig_a = shl64(sig_a, 1u);
    }
    // Now sig_b <= sig_a < 2 sig_b: the quotient's first bit is 1.
    var r = sub64(sig_a, sig_b);
    var q = vec2<u32>(1u, 0u);
    for (var i = 0u; i < 62u; i += 1u) {
        r = shl64(r, 1u);
        q = shl64(q, 1u);
        if (!ult64(r, sig_b)) {
            r = sub64(r, sig_b);
            q.x = q.x | 1u;
        }
    }
    q.x = q.x | select(0u, 1u, f64s_nonzero(r));
    return f64s_round_pack(sign, exp_z, q);
}

// sqrt(a): 55 bits of the integer square root, digit by digit, the remainder jammed into the
// lowest; -0 is -0, a negative number gives the default NaN.
fn f64s_sqrt(a: vec2<u32>) -> vec2<u32> {
    let sign = a.y >> 31u;
    var exp_a = f64s_exp(a);
    var sig = f64s_frac(a);
    if (exp_a == 0x7ff) {
        if (f64s_nonzero(sig)) {
            return f64s_nan_of(a, a);
        }
        if (sign == 0u) {
            return a;
        }
        return F64S_DEFAULT_NAN;
    }
    if (exp_a == 0 && !f64s_nonzero(sig)) {
        return a;
    }
    if (sign != 0u) {
        return F64S_DEFAULT_NAN;
    }
    if (exp_a == 0) {
        let n = f64s_norm_subnormal(sig);
        exp_a = bitcast<i32>(n.x);
        sig = n.yz;
    }
    let exp_z = ((exp_a - 0x3ff) >> 1u) + 0x3fe;
    sig = vec2<u32>(sig.x, sig.y | 0x00100000u);
    if (((exp_a - 0x3ff) & 1) != 0) {
        sig = shl64(sig, 1u);
    }
    // The radicand sig * 2^56 (110 bits) as four words, lowest first.
    let m = array<u32, 4>(0u, sig.x << 24u, (sig.x >> 8u) | (sig.y << 24u), sig.y >> 8u);
    var r = vec2<u32>(0u, 0u);
    var s = vec2<u32>(0u, 0u);
    for (var i = 55u; i > 0u; i -= 1u) {
        let p = 2u * (i - 1u);
        let pair = (m[p / 32u] >> (p % 32u)) & 3u;
        r = shl64(r, 2u);
        r.x = r.x | pair;
        let t = vec2<u32>((s.x << 2u) | 1u, (s.y << 2u) | (s.x >> 30u));
        s = shl64(s, 1u);
        if (!ult64(r, t)) {
            r = sub64(r, t);
            s.x = s.x | 1u;
        }
    }
    s.x = s.x | select(0u, 1u, f64s_nonzero(r));
    return f64s_round_pack(0u, exp_z, shl64(s, 8u));
}

// trunc(a): the fraction bits below the binary point cleared (NaN quieted).
fn f64s_trunc(a: vec2<u32>) -> vec2<u32> {
    let exp = f64s_exp(a);
    if (exp == 0x7ff) {
        return select(a, f64s_nan_of(a, a), f64s_is_nan(a));
    }
    let e = exp - 0x3ff;
    if (e < 0) {
        return vec2<u32>(0u, a.y & 0x80000000u);
    }
    if (e >= 52) {
        return a;
    }
    // Keep the sign, the exponent and the top e fraction bits.
    let frac_bits = u32(52 - e);
    let mask = shl64(vec2<u32>(0xffffffffu, 0xffffffffu), frac_bits);
    return vec2<u32>(a.x & mask.x, a.y & mask.y);
}

// Whether a (finite) has fraction bits, i.e. differs from its trunc.
fn f64s_has_fraction(a: vec2<u32>) -> bool {
    let t = f64s_trunc(a);
    return t.x != a.x || t.y != a.y;
}

// floor(a): trunc, one less for a negative value with a fraction.
fn f64s_floor(a: vec2<u32>) -> vec2<u32> {
    let t = f64s_trunc(a);
    if (f64s_exp(a) != 0x7ff && (a.y >> 31u) != 0u && f64s_has_fraction(a)) {
        return f64s_sub(t, vec2<u32>(0u, 0x3ff00000u));
    }
    return t;
}

// ceil(a): trunc, one more for a positive value with a fraction (-0.5 gives -0).
fn f64s_ceil(a: vec2<u32>) -> vec2<u32> {
    let t = f64s_trunc(a);
    if (f64s_exp(a) != 0x7ff && (a.y >> 31u) == 0u && f64s_has_fraction(a)) {
        return f64s_add(t, vec2<u32>(0u, 0x3ff00000u));
    }
    return t;
}

// rint(a): to the nearest integer, ties to even (NumPy's rint), by adding and subtracting 2^52
// to the magnitude (exact, rounded once); the sign kept, so -0.3 gives -0.
fn f64s_rint(a: vec2<u32>) -> vec2<u32> {
    let exp = f64s_exp(a);
    if (exp == 0x7ff) {
        return select(a, f64s_nan_of(a, a), f64s_is_nan(a));
    }
    if (exp >= 0x433) {
        return a;
    }
    let two52 = vec2<u32>(0u, 0x43300000u);
    let mag = vec2<u32>(a.x, a.y & 0x7fffffffu);
    let r = f64s_sub(f64s_add(mag, two52), two52);
    return vec2<u32>(r.x, r.y | (a.y & 0x80000000u));
}

// The int64 (two's complement word pair) x, correctly rounded.
fn f64s_from_i64(x: vec2<u32>) -> vec2<u32> {
    let sign = x.y >> 31u;
    if (x.x == 0u && (x.y & 0x7fffffffu) == 0u) {
        // 0, or -2^63 (exact).
        return vec2<u32>(0u, select(0u, 0xc3e00000u, sign != 0u));
    }
    let mag = select(x, neg64(x), sign != 0u);
    return f64s_norm_round_pack(sign, 0x43c, mag);
}

// The uint64 x, correctly rounded.
fn f64s_from_u64(x: vec2<u32>) -> vec2<u32> {
    if (!f64s_nonzero(x)) {
        return x;
    }
    if ((x.y >> 31u) != 0u) {
        return f64s_round_pack(0u, 0x43d, f64s_shr_jam64(x, 1u));
    }
    return f64s_norm_round_pack(0u, 0x43c, x);
}

// a truncated to int64, x86's cvttsd2si: NaN, infinities and values outside int64 give
// 0x8000000000000000 (NumPy's result on x86-64).
fn f64s_to_i64(a: vec2<u32>) -> vec2<u32> {
    let exp = f64s_exp(a);
    let sign = a.y >> 31u;
    let shift = 0x433 - exp;
    var mag: vec2<u32>;
    let sig = vec2<u32>(a.x, (a.y & 0xfffffu) | 0x00100000u);
    if (shift <= 0) {
        if (shift < -10) {
            // |a| >= 2^63, infinite or NaN (-2^63 itself gives the same bits).
            return vec2<u32>(0u, 0x80000000u);
        }
        mag = shl64(sig, u32(-shift));
    } else {
        if (shift >= 53) {
            return vec2<u32>(0u, 0u);
        }
        mag = shr64(sig, u32(shift));
    }
    return select(mag, neg64(mag), sign != 0u);
}

// a truncated to uint64, as the native path's f64_to_u64 (int64_f64.wgsl): from 2^63 up, the
// top bit set on the truncation of a - 2^63 (exact); below, as f64s_to_i64.
fn f64s_to_u64(a: vec2<u32>) -> vec2<u32> {
    if (!f64s_is_nan(a) && (a.y >> 31u) == 0u && f64s_exp(a) >= 0x43e) {
        let r = f64s_to_i64(f64s_sub(a, vec2<u32>(0u, 0x43e00000u)));
        return vec2<u32>(r.x, r.y ^ 0x80000000u);
    }
    return f64s_to_i64(a);
}

// a truncated to int32, x86's 32-bit cvttsd2si (float_to_int32_f64.wgsl's f64_to_i32_x86):
// NaN, infinities and values outside int32 give -2^31.
fn f64s_to_i32(a: vec2<u32>) -> i32 {
    let r = f64s_to_i64(a);
    let extended = select(0u, 0xffffffffu, bitcast<i32>(r.x) < 0);
    return select(i32(-2147483647 - 1), bitcast<i32>(r.x), r.y == extended);
}

// a to uint32, saturating as the native `u32(clamp(x, 0, 4294967295))` (NaN gives 0).
fn f64s_to_u32(a: vec2<u32>) -> u32 {
    if (f64s_is_nan(a) || (a.y >> 31u) != 0u) {
        return 0u;
    }
    let r = f64s_to_i64(a);
    return select(0xffffffffu, r.x, r.y == 0u);
}

// a rounded to f16 (to nearest, ties to even), as bits in the low half-word: NumPy's
// npy_double_to_half, a NaN keeping its sign and the top of its payload (never turned into an
// infinity). Exact integer rounding: a driver's f32 -> f16 conversion may truncate.
fn f64s_to_f16_bits(a: vec2<u32>) -> u32 {
    let sign = (a.y >> 16u) & 0x8000u;
    let exp = f64s_exp(a);
    if (exp == 0x7ff) {
        if (f64s_nonzero(f64s_frac(a))) {
            return sign | 0x7c00u | max((a.y >> 10u) & 0x3ffu, 1u);
        }
        return sign | 0x7c00u;
    }
    let e = exp - 1023;
    if (e >= 16) {
        return sign | 0x7c00u;
    }
    if (exp == 0) {
        return sign;
    }
    let sig = vec2<u32>(a.x, (a.y & 0xfffffu) | 0x00100000u);
    if (e >= -14) {
        // Keep bits 52..42; bit 41 is the halfway bit.
        var q = sig.y >> 10u;
        let rest = sig.y & 0x3ffu;
        if (rest > 0x200u || (rest == 0x200u && (sig.x != 0u || (q & 1u) != 0u))) {
            q += 1u;
        }
        // A carry out of the significand moves into the exponent (to infinity past the last).
        return sign | ((bitcast<u32>(e + 14) << 10u) + q);
    }
    // Subnormal: multiples of 2^-24, the value sig >> (1051 - exp).
    let s = u32(1051 - exp);
    if (s >= 54u) {
        return sign;
    }
    var q = shr64(sig, s);
    let rest = sub64(sig, shl64(q, s));
    let half = shl64(vec2<u32>(1u, 0u), s - 1u);
    if (ult64(half, rest) || (all(rest == half) && (q.x & 1u) != 0u)) {
        q.x += 1u;
    }
    return sign | q.x;
}

// np.maximum / np.minimum: a NaN operand wins (the first when both are NaN, as the native path
// does); otherwise a when a >= b (a <= b), so equal zeros give a.
fn f64s_maximum(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    if (f64s_is_nan(a)) {
        return a;
    }
    if (f64s_is_nan(b)) {
        return b;
    }
    return select(a, b, f64s_lt(a, b));
}

fn f64s_minimum(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    if (f64s_is_nan(a)) {
        return a;
    }
    if (f64s_is_nan(b)) {
        return b;
    }
    return select(a, b, f64s_lt(b, a));
}

// np.fmax / np.fmin: a NaN is ignored unless both are NaN.
fn f64s_fmax(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    if (f64s_is_nan(b)) {
        return a;
    }
    if (f64s_is_nan(a)) {
        return b;
    }
    return select(a, b, f64s_lt(a, b));
}

fn f64s_fmin(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    if (f64s_is_nan(b)) {
        return a;
    }
    if (f64s_is_nan(a)) {
        return b;
    }
    return select(a, b, f64s_lt(b, a));
}

// np.nextafter: the neighbour of a towards b (b itself when equal, zeros included; NaN when
// either is NaN: the default NaN's magnitude, as the native path's nan_value()).
fn f64s_nextafter(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    if (f64s_is_nan(a) || f64s_is_nan(b)) {
        return vec2<u32>(0u, 0x7ff80000u);
    }
    if (f64s_eq(a, b)) {
        return b;
    }
    let up = f64s_lt(a, b);
    if (((a.y & 0x7fffffffu) | a.x) == 0u) {
        // The smallest subnormal, towards b.
        return vec2<u32>(1u, select(0x80000000u, 0u, up));
    }
    let away = up == ((a.y >> 31u) == 0u);
    return select(sub64(a, vec2<u32>(1u, 0u)), add64(a, vec2<u32>(1u, 0u)), away);
}

// 128-bit helpers for fma: vec4<u32>, x the lowest word.
fn f64s_wide(hi: vec2<u32>, lo: vec2<u32>) -> vec4<u32> {
    return vec4<u32>(lo.x, lo.y, hi.x, hi.y);
}

fn f64s_add128(a: vec4<u32>, b: vec4<u32>) -> vec4<u32> {
    let lo = add64(a.xy, b.xy);
    let carry = select(0u, 1u, ult64(lo, a.xy));
    let hi = add64(add64(a.zw, b.zw), vec2<u32>(carry, 0u));
    return f64s_wide(hi, lo);
}

fn f64s_sub128(a: vec4<u32>, b: vec4<u32>) -> vec4<u32> {
    let lo = sub64(a.xy, b.xy);
    let borrow = select(0u, 1u, ult64(a.xy, b.xy));
    let hi = sub64(sub64(a.zw, b.zw), vec2<u32>(borrow, 0u));
    return f64s_wide(hi, lo);
}

// x >> n with the shifted-out bits jammed into the lowest, for any n.
fn f64s_shr_jam128(x: vec4<u32>, n: u32) -> vec4<u32> {
    if (n == 0u) {
        return x;
    }
    let any = (x.x | x.y | x.z | x.w) != 0u;
    if (n >= 127u) {
        return vec4<u32>(select(0u, 1u, any), 0u, 0u, 0u);
    }
    var hi: vec2<u32>;
    var lo: vec2<u32>;
    var lost: bool;
    if (n >= 64u) {
        let m = n - 64u;
        hi = vec2<u32>(0u, 0u);
        lo = shr64(x.zw, m);
        lost = f64s_nonzero(x.xy) || (m > 0u && f64s_nonzero(shl64(x.zw, 64u - m)));
    } else {
        hi = shr64(x.zw, n);
        lo = shr64(x.xy, n);
        if (n > 0u) {
            lo = vec2<u32>(lo.x | shl64(x.zw, 64u - n).x, lo.y | shl64(x.zw, 64u - n).y);
        }
        lost = f64s_nonzero(shl64(x.xy, 64u - n));
    }
    return vec4<u32>(lo.x | select(0u, 1u, lost), lo.y, hi.x, hi.y);
}

fn f64s_shl128(x: vec4<u32>, n: u32) -> vec4<u32> {
    if (n == 0u) {
        return x;
    }
    if (n >= 64u) {
        return f64s_wide(shl64(x.xy, n - 64u), vec2<u32>(0u, 0u));
    }
    let hi = shl64(x.zw, n);
    let carried = shr64(x.xy, 64u - n);
    return f64s_wide(vec2<u32>(hi.x | carried.x, hi.y | carried.y), shl64(x.xy, n));
}

// a * b + c with one rounding (SoftFloat's softfloat_mulAddF64). A NaN result is one of the NaN
// operands, quieted (a's, then b's, then c's), or the default NaN (inf * 0, inf - inf).
fn f64s_fma(a: vec2<u32>, b: vec2<u32>, c: vec2<u32>) -> vec2<u32> {
    let sign_c = c.y >> 31u;
    var sign_z = (a.y ^ b.y) >> 31u;
    var exp_a = f64s_exp(a);
    var exp_b = f64s_exp(b);
    var exp_c = f64s_exp(c);
    var sig_a = f64s_frac(a);
    var sig_b = f64s_frac(b);
    var sig_c = f64s_frac(c);
    // Infinities and NaN.
    if (exp_a == 0x7ff || exp_b == 0x7ff) {
        if (f64s_is_nan(a) || f64s_is_nan(b)) {
            return f64s_nan_of(f64s_nan_of(a, b), c);
        }
        // An infinite product, or inf * 0.
        let zero_a = exp_a == 0 && !f64s_nonzero(sig_a);
        let zero_b = exp_b == 0 && !f64s_nonzero(sig_b);
        let other_zero = select(zero_a, zero_b, exp_a == 0x7ff);
        if (other_zero) {
            return select(F64S_DEFAULT_NAN, f64s_nan_of(c, c), f64s_is_nan(c));
        }
        if (exp_c == 0x7ff) {
            if (f64s_nonzero(sig_c)) {
                return f64s_nan_of(c, c);
            }
            if (sign_z != sign_c) {
                return F64S_DEFAULT_NAN;
            }
        }
        return f64s_pack(sign_z, 0x7ff, vec2<u32>(0u, 0u));
    }
    if (exp_c == 0x7ff) {
        if (f64s_nonzero(sig_c)) {
            return f64s_nan_of(c, c);
        }
        return c;
    }
    // A zero product: c itself, or +0 when it cancels a zero c of the other sign.
    let zero_a = exp_a == 0 && !f64s_nonzero(sig_a);
    let zero_b = exp_b == 0 && !f64s_nonzero(sig_b);
    if (zero_a || zero_b) {
        if (exp_c == 0 && !f64s_nonzero(sig_c) && sign_z != sign_c) {
            return vec2<u32>(0u, 0u);
        }
        return c;
    }
    if (exp_a == 0) {
        let n = f64s_norm_subnormal(sig_a);
        exp_a = bitcast<i32>(n.x);
        sig_a = n.yz;
    }
    if (exp_b == 0) {
        let n = f64s_norm_subnormal(sig_b);
        exp_b = bitcast<i32>(n.x);
        sig_b = n.yz;
    }
    var exp_z = exp_a + exp_b - 0x3fe;
    sig_a = shl64(vec2<u32>(sig_a.x, sig_a.y | 0x00100000u), 10u);
    sig_b = shl64(vec2<u32>(sig_b.x, sig_b.y | 0x00100000u), 10u);
    let p = f64s_mul128(sig_a, sig_b);
    var prod = vec4<u32>(p[0], p[1], p[2], p[3]);
    if (ult64(prod.zw, vec2<u32>(0u, 0x20000000u))) {
        exp_z -= 1;
        prod = f64s_add128(prod, prod);
    }
    var sig_z: vec2<u32>;
    if (exp_c == 0) {
        if (!f64s_nonzero(sig_c)) {
            exp_z -= 1;
            sig_z = shl64(prod.zw, 1u);
            sig_z.x = sig_z.x | select(0u, 1u, f64s_nonzero(prod.xy));
            return f64s_round_pack(sign_z, exp_z, sig_z);
        }
        let n = f64s_norm_subnormal(sig_c);
        exp_c = bitcast<i32>(n.x);
        sig_c = n.yz;
    }
    sig_c = shl64(vec2<u32>(sig_c.x, sig_c.y | 0x00100000u), 9u);
    let diff = exp_z - exp_c;
    var wide_c = vec4<u32>(0u, 0u, sig_c.x, sig_c.y);
    if (diff < 0) {
        exp_z = exp_c;
        if (sign_z == sign_c || diff < -1) {
            let j = f64s_shr_jam64(prod.zw, u32(-diff));
            prod = vec4<u32>(prod.x, prod.y, j.x, j.y);
        } else {
            prod = f64s_shr_jam128(prod, 1u);
        }
    } else if (diff > 0) {
        wide_c = f64s_shr_jam128(wide_c, u32(diff));
    }
    if (sign_z == sign_c) {
        if (diff <= 0) {
            sig_z = add64(sig_c, prod.zw);
            sig_z.x = sig_z.x | select(0u, 1u, f64s_nonzero(prod.xy));
        } else {
            let s = f64s_add128(prod, wide_c);
            sig_z = vec2<u32>(s.z | select(0u, 1u, f64s_nonzero(s.xy)), s.w);
        }
        if (ult64(sig_z, vec2<u32>(0u, 0x40000000u))) {
            exp_z -= 1;
            sig_z = shl64(sig_z, 1u);
        }
        return f64s_round_pack(sign_z, exp_z, sig_z);
    }
    if (diff < 0) {
        sign_z = sign_c;
        prod = f64s_sub128(vec4<u32>(0u, 0u, sig_c.x, sig_c.y), prod);
    } else if (diff == 0) {
        let top = sub64(prod.zw, sig_c);
        prod = vec4<u32>(prod.x, prod.y, top.x, top.y);
        if (!f64s_nonzero(prod.zw) && !f64s_nonzero(prod.xy)) {
            return vec2<u32>(0u, 0u);
        }
        if ((prod.w >> 31u) != 0u) {
            sign_z ^= 1u;
            prod = f64s_sub128(vec4<u32>(0u, 0u, 0u, 0u), prod);
        }
    } else {
        prod = f64s_sub128(prod, wide_c);
    }
    if (!f64s_nonzero(prod.zw)) {
        exp_z -= 64;
        prod = vec4<u32>(0u, 0u, prod.x, prod.y);
    }
    let shift = i32(clz64(prod.zw)) - 1;
    exp_z -= shift;
    if (shift < 0) {
        sig_z = f64s_shr_jam64(prod.zw, u32(-shift));
    } else {
        let s = f64s_shl128(prod, u32(shift));
        prod = s;
        sig_z = s.zw;
    }
    sig_z.x = sig_z.x | select(0u, 1u, f64s_nonzero(prod.xy));
    return f64s_round_pack(sign_z, exp_z, sig_z);
}

fn f64s_is_zero(x: vec2<u32>) -> bool {
    return ((x.y & 0x7fffffffu) | x.x) == 0u;
}

// The significand of finite non-zero x with its leading bit moved to bit 52, and the exponent
// that goes with it (below 1 for subnormals): x = sig 2^(exp - 1075).
fn f64s_unpack_normal(x: vec2<u32>) -> vec3<u32> {
    let e = f64s_exp(x);
    var sig = f64s_frac(x);
    if (e != 0) {
        sig.y = sig.y | 0x00100000u;
        return vec3<u32>(sig, bitcast<u32>(e));
    }
    let shift = clz64(sig) - 11u;
    return vec3<u32>(shl64(sig, shift), bitcast<u32>(1 - i32(shift)));
}

// C's fmod, exact (the remainder of the truncated quotient has the sign of a and is always
// representable): the significands' remainder by shift-and-subtract, one bit of the quotient per
// step of the exponent difference. NaN as the native fmod_ (math_f64.wgsl): 0x7ff8000000000000.
fn f64s_fmod(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    if (f64s_is_nan(a) || f64s_is_nan(b) || f64s_is_inf(a) || !f64s_nonzero(vec2<u32>(b.x, b.y & 0x7fffffffu))) {
        return vec2<u32>(0u, 0x7ff80000u);
    }
    let abs_a = vec2<u32>(a.x, a.y & 0x7fffffffu);
    let abs_b = vec2<u32>(b.x, b.y & 0x7fffffffu);
    if (f64s_is_inf(b) || ult64(abs_a, abs_b)) {
        return a;
    }
    let ua = f64s_unpack_normal(a);
    let ub = f64s_unpack_normal(b);
    let mb = ub.xy;
    var r = ua.xy;
    if (!ult64(r, mb)) {
        r = sub64(r, mb);
    }
    for (var d = bitcast<i32>(ua.z) - bitcast<i32>(ub.z); d > 0; d -= 1) {
        r = shl64(r, 1u);
        if (!ult64(r, mb)) {
            r = sub64(r, mb);
        }
    }
    let sign = a.y >> 31u;
    if (!f64s_nonzero(r)) {
        return vec2<u32>(0u, sign << 31u);
    }
    // r 2^(exp_b - 1075), exact: norm_round_pack's scale is 2^(exp - 0x43c).
    return f64s_norm_round_pack(sign, bitcast<i32>(ub.z) + 9, r);
}
