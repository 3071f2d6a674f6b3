// Single-precision elementary functions (joined for f16 and f32, computed in f32): the names
// math_f64.wgsl implements in software, here thin wrappers over WGSL's 32-bit built-ins, plus the
// fixes where a built-in is inaccurate or has no WGSL counterpart.

fn exp_(x: C) -> C {
    return exp(x);
}

fn exp2_(x: C) -> C {
    return exp2(x);
}

// expm1: a Taylor polynomial for |x| < 1 (where exp(x) - 1 cancels; the terms up to x^13 leave
// less than 1/14! relative), exp(x) - 1 elsewhere.
fn expm1_(x: C) -> C {
    // The series to x^13/13! below |x| = 1: its truncation error there is under 1/14! (1e-11),
    // far below an f32 ulp; above, exp - 1 loses little to cancellation.
    if (abs(x) < C(1)) {
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

// log: special values here, subnormal inputs decoded in integer arithmetic (a flushing driver
// reads them as 0: log(1.4e-45) was -88.03, not -103.28), the rest is ln_bits.wgsl's musl logf,
// within 1 ulp and the same bits on every adapter (the built-in has 70 % relative error just
// below 1, log(0.99999994), on lavapipe).
fn log_(x: C) -> C {
    var ix = bitcast<u32>(f32(x));
    if (ix >= 0x7f800000u) {
        let mag = ix & 0x7fffffffu;
        if (mag > 0x7f800000u || ix == 0x7f800000u) {
            return x; // NaN, +inf
        }
        return select(nan_value(), -inf_value(), mag == 0u); // -0: -inf; negative: NaN
    }
    if (ix == 0u) {
        return -inf_value();
    }
    var k: i32 = 0;
    if (ix < 0x00800000u) {
        // m 2^-149 with m < 2^23: shift m's top bit to bit 23, which is then exponent field 1
        // (2^-126) with m's other bits as the fraction, and count the shift in k.
        let shift = countLeadingZeros(ix) - 8u;
        ix = ix << shift;
        k = -i32(shift);
    }
    return C(ln_bits(ix, k));
}

fn log2_(x: C) -> C {
    return log2(x);
}

fn log10_(x: C) -> C {
    return log(x) * C(0.43429448190325182765);
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

fn sin_(x: C) -> C {
    return sin(x);
}

fn cos_(x: C) -> C {
    return cos(x);
}

fn tan_(x: C) -> C {
    return tan(x);
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

fn sinh_(x: C) -> C {
    if (abs(x) < C(0.5)) {
        // (e^x - e^-x) / 2 cancels near 0: use expm1.
        let e = expm1_(x);
        return C(0.5) * (e + e / (e + C(1)));
    }
    return sinh(x);
}

fn cosh_(x: C) -> C {
    return cosh(x);
}

fn tanh_(x: C) -> C {
    let ax = abs(x);
    if (is_nan(x)) {
        return x;
    }
    // Below 2^-12, tanh(x) = x (1 - x^2/3 + ...) rounds to x; returning x itself also keeps
    // subnormal inputs, which arithmetic on a flushing driver would turn into 0.
    if (ax < C(0.000244140625)) {
        return x;
    }
    var t: C;
    if (ax < C(0.5)) {
        // tanh = e / (e + 2) with e = exp(2|x|) - 1 from expm1's series (2|x| < 1): no
        // cancellation, so the result keeps its relative accuracy near 0, where the built-in
        // tanh has only an absolute bound (18-65 ulps at |x| = 0.01 on lavapipe).
        let e = expm1_(C(2) * ax);
        t = e / (e + C(2));
    } else {
        t = C(1) - C(2) / (exp(C(2) * ax) + C(1));
    }
    return select(t, -t, x < C(0));
}

// x^y for x >= 0 (signs and negative bases are handled by the caller).
fn pow_(x: C, y: C) -> C {
    return pow(x, y);
}

// C's fmod, exactly, on the integer mantissas: |a| = ma 2^ea, |b| = mb 2^eb (ma, mb < 2^24), and
// fmod = (ma 2^(ea - eb) mod mb) 2^eb, shifting in 8 exponent bits per step so r << 8 fits in
// u32. WGSL's float `%` is a - b trunc(a / b), which is inexact once the quotient is large. At
// most 32 steps, far below lavapipe's 65,535 loop iterations per invocation.
fn fmod_(a: C, b: C) -> C {
    if (is_nan(a) || is_nan(b) || is_inf(a) || b == C(0)) {
        return nan_value();
    }
    if (is_inf(b) || abs(a) < abs(b)) {
        return a;
    }
    let ba = bitcast<u32>(f32(a)) & 0x7fffffffu;
    let bb = bitcast<u32>(f32(b)) & 0x7fffffffu;
    // Subnormals: exponent field 0 means exponent 1 without the implicit bit.
    let ea = max(ba >> 23u, 1u);
    let eb = max(bb >> 23u, 1u);
    let ma = (ba & 0x7fffffu) | select(0u, 0x800000u, (ba >> 23u) != 0u);
    let mb = (bb & 0x7fffffu) | select(0u, 0x800000u, (bb >> 23u) != 0u);
    var r = ma % mb;
    var d = ea - eb;
    loop {
        if (d == 0u) {
            break;
        }
        let k = min(d, 8u);
        r = (r << k) % mb;
        d -= k;
    }
    // r < 2^24 converts exactly; the scale 2^(eb - 150) puts the unit at b's last mantissa bit.
    // Two power-of-two factors, each a normal f32, so the product (exact: fmod is always
    // representable) never depends on how ldexp treats subnormal results.
    var m: f32;
    if (eb > 127u) {
        m = f32(r) * bitcast<f32>((eb - 23u) << 23u);
    } else {
        m = (f32(r) * 0x1p-24f) * bitcast<f32>((eb + 1u) << 23u);
    }
    return select(m, -m, sign_bit(a));
}
