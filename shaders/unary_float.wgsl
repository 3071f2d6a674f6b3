// Float unary math, NumPy semantics, computed in C (f32 for f16 and f32, f64 for f64).
// NaN and infinity are tested by bits (see binary_float.wgsl). Functions without a WGSL built-in
// (expm1, log1p, log10, sigmoid) or whose built-in loses accuracy near 0 use series or stable
// forms; `round` is WGSL's round-half-to-even, NumPy's rule.

override OP: u32 = 0u;

// expm1: a Taylor polynomial for |x| < 0.35 (where exp(x) - 1 cancels; the terms up to x^13
// leave < 1e-17 relative), exp(x) - 1 elsewhere.
fn expm1_(x: C) -> C {
    if (abs(x) < C(0.35)) {
        var t = C(1.0 / 6227020800.0);
        t = t * x + C(1.0 / 479001600.0);
        t = t * x + C(1.0 / 39916800.0);
        t = t * x + C(1.0 / 3628800.0);
        t = t * x + C(1.0 / 362880.0);
        t = t * x + C(1.0 / 40320.0);
        t = t * x + C(1.0 / 5040.0);
        t = t * x + C(1.0 / 720.0);
        t = t * x + C(1.0 / 120.0);
        t = t * x + C(1.0 / 24.0);
        t = t * x + C(1.0 / 6.0);
        t = t * x + C(0.5);
        return x + x * x * t;
    }
    return exp(x) - C(1);
}

// log1p: 2 atanh(s) with s = x / (2 + x) as an odd series for |x| < 0.35 (|s| < 0.22; terms up
// to s^25), log(1 + x) elsewhere.
fn log1p_(x: C) -> C {
    if (abs(x) < C(0.35)) {
        let s = x / (C(2) + x);
        let s2 = s * s;
        var t = C(1.0 / 25.0);
        t = t * s2 + C(1.0 / 23.0);
        t = t * s2 + C(1.0 / 21.0);
        t = t * s2 + C(1.0 / 19.0);
        t = t * s2 + C(1.0 / 17.0);
        t = t * s2 + C(1.0 / 15.0);
        t = t * s2 + C(1.0 / 13.0);
        t = t * s2 + C(1.0 / 11.0);
        t = t * s2 + C(1.0 / 9.0);
        t = t * s2 + C(1.0 / 7.0);
        t = t * s2 + C(1.0 / 5.0);
        t = t * s2 + C(1.0 / 3.0);
        return C(2) * (s + s * s2 * t);
    }
    return log(C(1) + x);
}

// atan with Cephes' atanf reduction and polynomial (lavapipe's built-in is off by ~2e-5).
fn atan_(x: C) -> C {
    if (is_nan(x)) {
        return x;
    }
    var z = abs(x);
    var base = C(0);
    if (z > C(2.414213562373095)) {
        base = C(1.5707963267948966);
        z = C(-1) / z;
    } else if (z > C(0.4142135623730950)) {
        base = C(0.7853981633974483);
        z = (z - C(1)) / (z + C(1));
    }
    let z2 = z * z;
    let p = (((C(8.05374449538e-2) * z2 - C(1.38776856032e-1)) * z2 + C(1.99777106478e-1)) * z2
        - C(3.33329491539e-1)) * z2 * z + z;
    let r = base + p;
    return select(r, -r, sign_bit(x));
}

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

fn tanh_(x: C) -> C {
    // tanh(x) = sign(x) (1 - 2 / (exp(2|x|) + 1)); small |x| keeps the built-in's accuracy.
    let ax = abs(x);
    if (ax < C(0.5) || is_nan(x)) {
        return tanh(x);
    }
    let t = C(1) - C(2) / (exp(C(2) * ax) + C(1));
    return select(t, -t, x < C(0));
}

fn sinh_(x: C) -> C {
    if (abs(x) < C(0.5)) {
        // (e^x - e^-x) / 2 cancels near 0: use expm1.
        let e = expm1_(x);
        return C(0.5) * (e + e / (e + C(1)));
    }
    return sinh(x);
}

fn sigmoid_(x: C) -> C {
    if (x >= C(0)) {
        return C(1) / (C(1) + exp(-x));
    }
    let e = exp(x);
    return e / (C(1) + e);
}

fn op(x: C) -> R {
    switch OP {
        case 0u: { return -x; }
        case 1u: { return abs(x); }
        case 2u: { return sign_(x); }
        case 3u: { return sqrt(x); }
        case 4u: { return C(1) / sqrt(x); }
        case 5u: { return exp(x); }
        case 6u: { return exp2(x); }
        case 7u: { return expm1_(x); }
        case 8u: { return log(x); }
        case 9u: { return log2(x); }
        case 10u: { return log(x) * C(0.43429448190325182765); }
        case 11u: { return log1p_(x); }
        case 12u: { return sin(x); }
        case 13u: { return cos(x); }
        case 14u: { return tan(x); }
        case 15u: { return asin_(x); }
        case 16u: { return acos_(x); }
        case 17u: { return atan_(x); }
        case 18u: { return sinh_(x); }
        case 19u: { return cosh(x); }
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
