// Integer binary ops (i32, u32; bool arrays use the u32 variant for and/or/xor/max/min), NumPy
// semantics: wrapping arithmetic, floor division and a modulus with the divisor's sign, and 0 for
// division by zero (where NumPy warns). Shifts by the bit width or more give 0 (or -1 for a
// negative value shifted right), like NumPy.

override OP: u32 = 0u;

// Truncated quotient and remainder (b != 0), computed on magnitudes in u32: GLSL, which naga
// emits for the GL backend, leaves `/` and `%` of negative integers undefined (Mesa's GL gives
// other results than Vulkan). most-negative / -1 wraps to the most negative value, like NumPy.
fn trunc_divrem(a: C, b: C) -> vec2<C> {
    // Magnitudes without abs(): naga's GLSL for abs of a u32 goes through a signed int.
    let ua = u32(select(a, C(0) - a, a < C(0)));
    let ub = u32(select(b, C(0) - b, b < C(0)));
    let uq = ua / ub;
    var q = C(uq);
    var r = C(ua - uq * ub);
    if ((a < C(0)) != (b < C(0))) {
        q = C(0) - q;
    }
    if (a < C(0)) {
        r = C(0) - r;
    }
    return vec2<C>(q, r);
}

fn floor_div(a: C, b: C) -> C {
    if (b == C(0)) {
        return C(0);
    }
    let qr = trunc_divrem(a, b);
    let q = qr.x;
    let r = qr.y;
    if (r != C(0) && ((r < C(0)) != (b < C(0)))) {
        return q - C(1);
    }
    return q;
}

fn modulus(a: C, b: C) -> C {
    if (b == C(0)) {
        return C(0);
    }
    let r = trunc_divrem(a, b).y;
    if (r != C(0) && ((r < C(0)) != (b < C(0)))) {
        return r + b;
    }
    return r;
}

// Exponentiation by squaring with wrapping products; the host rejects negative exponents.
fn int_pow(a: C, b: C) -> C {
    var base = a;
    var e = u32(b);
    var r = C(1);
    loop {
        if (e == 0u) {
            break;
        }
        if ((e & 1u) != 0u) {
            r = r * base;
        }
        base = base * base;
        e = e >> 1u;
    }
    return r;
}

fn shift_left(a: C, b: C) -> C {
    // A negative count reads as a huge unsigned one, like NumPy's cast to size_t.
    if (u32(b) >= 32u) {
        return C(0);
    }
    return a << u32(b);
}

fn shift_right(a: C, b: C) -> C {
    if (u32(b) >= 32u) {
        return select(C(0), ~C(0), a < C(0));
    }
    return a >> u32(b);
}

// C's `%` (np.fmod): the truncated remainder, with the dividend's sign; 0 for a zero divisor
// (NumPy warns and gives 0), and most-negative % -1 is 0.
fn c_fmod(a: C, b: C) -> C {
    if (b == C(0)) {
        return C(0);
    }
    return trunc_divrem(a, b).y;
}

// Euclid on magnitudes in u32 (np.gcd is never negative; gcd(most negative, 0) is 2^31, which
// reads back as the most negative i32, as in NumPy). At most 47 steps for 32-bit operands.
fn gcd_magnitude(a: C, b: C) -> u32 {
    var x = u32(select(a, C(0) - a, a < C(0)));
    var y = u32(select(b, C(0) - b, b < C(0)));
    loop {
        if (y == 0u) {
            break;
        }
        let t = x % y;
        x = y;
        y = t;
    }
    return x;
}

// np.lcm: |a / gcd * b| with wrapping products; 0 when either operand is 0.
fn lcm_(a: C, b: C) -> C {
    let g = gcd_magnitude(a, b);
    if (g == 0u) {
        return C(0);
    }
    let ua = u32(select(a, C(0) - a, a < C(0)));
    let ub = u32(select(b, C(0) - b, b < C(0)));
    return C((ua / g) * ub);
}

fn op(a: C, b: C) -> R {
    switch OP {
        case OP_ADD: { return a + b; }
        case OP_SUB: { return a - b; }
        case OP_MUL: { return a * b; }
        case OP_FLOOR_DIVIDE: { return floor_div(a, b); }
        case OP_REMAINDER: { return modulus(a, b); }
        case OP_POW: { return int_pow(a, b); }
        case OP_MAXIMUM, OP_FMAX: { return max(a, b); }
        case OP_MINIMUM, OP_FMIN: { return min(a, b); }
        case OP_BIT_AND: { return a & b; }
        case OP_BIT_OR: { return a | b; }
        case OP_BIT_XOR: { return a ^ b; }
        case OP_LEFT_SHIFT: { return shift_left(a, b); }
        case OP_RIGHT_SHIFT: { return shift_right(a, b); }
        case OP_FMOD: { return c_fmod(a, b); }
        case OP_GCD: { return C(gcd_magnitude(a, b)); }
        case OP_LCM: { return lcm_(a, b); }
        // Internal: (a - b)^2 wrapping.
        case OP_SQ_DIFF: { let d = a - b; return d * d; }
        // Never taken: the specializer refuses an OP value without a case (device/specialize.rs).
        default: {}
    }
    return C(0);
}
