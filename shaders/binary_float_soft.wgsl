// Float binary ops on software f64 (word pairs, f64_soft.wgsl): binary_float.wgsl's ops and
// NumPy semantics for a device that emulates float64. The ops listed here are exact, so their bits
// equal the native path's; an op without a case here (the elementary functions: pow, arctan2,
// hypot, logaddexp) is refused on such a device until the f64 math library runs on these
// primitives.

override OP: u32 = 0u;

const F64S_ONE: vec2<u32> = vec2<u32>(0u, 0x3ff00000u);
const F64S_HALF: vec2<u32> = vec2<u32>(0u, 0x3fe00000u);

fn f64s_neg(x: vec2<u32>) -> vec2<u32> {
    return vec2<u32>(x.x, x.y ^ 0x80000000u);
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
// step of the exponent difference. NaN as the native fmod_ (math_f64.wgsl): the default NaN's
// magnitude.
fn f64s_fmod(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    if (f64s_is_nan(a) || f64s_is_nan(b) || is_inf(a) || f64s_is_zero(b)) {
        return nan_value();
    }
    let abs_a = vec2<u32>(a.x, a.y & 0x7fffffffu);
    let abs_b = vec2<u32>(b.x, b.y & 0x7fffffffu);
    if (is_inf(b) || ult64(abs_a, abs_b)) {
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

// NumPy's npy_divmod, as binary_float.wgsl's divmod, step for step.
fn divmod(a: C, b: C) -> array<C, 2> {
    var m = f64s_fmod(a, b);
    if (f64s_is_zero(b)) {
        return array<C, 2>(f64s_div(a, b), nan_value());
    }
    if (is_nan(m)) {
        return array<C, 2>(nan_value(), nan_value());
    }
    var d = f64s_div(f64s_sub(a, m), b);
    if (!f64s_is_zero(m)) {
        if (sign_bit(b) != sign_bit(m)) {
            m = f64s_add(m, b);
            d = f64s_sub(d, F64S_ONE);
        }
    } else {
        m = vec2<u32>(0u, select(0u, 0x80000000u, sign_bit(b)));
    }
    var f: C;
    if (!f64s_is_zero(d)) {
        f = f64s_floor(d);
        if (f64s_lt(F64S_HALF, f64s_sub(d, f))) {
            f = f64s_add(f, F64S_ONE);
        }
    } else {
        f = vec2<u32>(0u, select(0u, 0x80000000u, sign_bit(a) != sign_bit(b)));
    }
    return array<C, 2>(f, m);
}

fn heaviside_(x: C, h0: C) -> C {
    if (is_nan(x)) {
        return x;
    }
    if (f64s_is_zero(x)) {
        return h0;
    }
    return select(vec2<u32>(0u), F64S_ONE, !sign_bit(x));
}

fn op(a: C, b: C) -> R {
    switch OP {
        case OP_ADD: { return f64s_add(a, b); }
        case OP_SUB: { return f64s_sub(a, b); }
        case OP_MUL: { return f64s_mul(a, b); }
        case OP_DIV: { return f64s_div(a, b); }
        case OP_FLOOR_DIVIDE: { return divmod(a, b)[0]; }
        case OP_REMAINDER: { return divmod(a, b)[1]; }
        case OP_MAXIMUM: { return f64s_maximum(a, b); }
        case OP_MINIMUM: { return f64s_minimum(a, b); }
        case OP_FMAX: { return f64s_fmax(a, b); }
        case OP_FMIN: { return f64s_fmin(a, b); }
        case OP_FMOD: { return f64s_fmod(a, b); }
        case OP_HEAVISIDE: { return heaviside_(a, b); }
        case OP_COPYSIGN: { return vec2<u32>(a.x, (a.y & 0x7fffffffu) | (b.y & 0x80000000u)); }
        // Internal: (a - b)^2.
        case OP_SQ_DIFF: { let d = f64s_sub(a, b); return f64s_mul(d, d); }
        case OP_NEXTAFTER: { return f64s_nextafter(a, b); }
        // Never taken: the specializer refuses an OP value without a case (device/specialize.rs).
        default: {}
    }
    return nan_value();
}
