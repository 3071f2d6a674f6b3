// Float unary math, NumPy semantics, computed in C (f32 for f16 and f32, f64 for f64).
// NaN and infinity are tested by bits (see binary_float.wgsl). The elementary functions (exp_,
// log_, sin_, atan_, ...) come from the math file joined before this one: math_f32.wgsl (the
// 32-bit built-ins) or math_f64.wgsl (software, since the built-ins are 32-bit only). Only what
// is the same formula for both widths lives here; `round` is WGSL's round-half-to-even, NumPy's
// rule.

override OP: u32 = 0u;

fn asin_(x: C) -> C {
    // atan(x / sqrt((1 - x)(1 + x))): exact factors near |x| = 1; NaN outside [-1, 1].
    let d = sqrt((C(1) - x) * (C(1) + x));
    if (d == C(0)) {
        return select(C(1.5707963267948966), C(-1.5707963267948966), x < C(0));
    }
    return atan_(x / d);
}

fn acos_(x: C) -> C {
    // 2 atan(sqrt((1 - x) / (1 + x))), with acos(-1) = pi.
    if (x == C(-1)) {
        return C(3.141592653589793);
    }
    return C(2) * atan_(sqrt((C(1) - x) / (C(1) + x)));
}

fn sign_(x: C) -> C {
    if (is_nan(x)) {
        return x;
    }
    // Through integers: lavapipe turns the obvious branches into its sign built-in, which keeps
    // the sign of -0.0; NumPy's sign(-0.0) is +0.0.
    return C(i32(x > C(0)) - i32(x < C(0)));
}

fn sigmoid_(x: C) -> C {
    if (x >= C(0)) {
        return C(1) / (C(1) + exp_(-x));
    }
    let e = exp_(x);
    return e / (C(1) + e);
}

fn op(x: C) -> R {
    switch OP {
        case 0u: { return -x; }
        case 1u: { return abs(x); }
        case 2u: { return sign_(x); }
        case 3u: { return sqrt(x); }
        case 4u: { return C(1) / sqrt(x); }
        case 5u: { return exp_(x); }
        case 6u: { return exp2_(x); }
        case 7u: { return expm1_(x); }
        case 8u: { return log_(x); }
        case 9u: { return log2_(x); }
        case 10u: { return log10_(x); }
        case 11u: { return log1p_(x); }
        case 12u: { return sin_(x); }
        case 13u: { return cos_(x); }
        case 14u: { return tan_(x); }
        case 15u: { return asin_(x); }
        case 16u: { return acos_(x); }
        case 17u: { return atan_(x); }
        case 18u: { return sinh_(x); }
        case 19u: { return cosh_(x); }
        case 20u: { return tanh_(x); }
        case 21u: { return floor(x); }
        case 22u: { return ceil(x); }
        case 23u: { return round(x); }
        case 24u: { return trunc(x); }
        case 25u: { return x * x; }
        case 26u: { return C(1) / x; }
        case 27u: { return sigmoid_(x); }
        case 28u: { if (is_nan(x)) { return x; } return select(C(0), x, x > C(0)); }
        default: { return x; }
    }
}
