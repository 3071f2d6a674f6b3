// Float binary ops on software f64 (word pairs, f64_soft.wgsl): binary_float.wgsl's ops and
// NumPy semantics for a device that emulates float64. The exact ops give the native path's bits;
// pow, arctan2, hypot and logaddexp run math_f64_soft.wgsl (the native math file's steps in
// software).

override OP: u32 = 0u;

const F64S_ONE: vec2<u32> = vec2<u32>(0u, 0x3ff00000u);
const F64S_HALF: vec2<u32> = vec2<u32>(0u, 0x3fe00000u);

fn f64s_neg(x: vec2<u32>) -> vec2<u32> {
    return vec2<u32>(x.x, x.y ^ 0x80000000u);
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
        case OP_POW: { return power(a, b); }
        case OP_ARCTAN2: { return atan2_(a, b); }
        case OP_HYPOT: { return hypotenuse(a, b); }
        case OP_LOGADDEXP: { return logaddexp_(a, b, false); }
        case OP_LOGADDEXP2: { return logaddexp_(a, b, true); }
        // Internal: exp(a - b).
        case OP_SUB_EXP: { return exp_(f64s_sub(a, b)); }
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
