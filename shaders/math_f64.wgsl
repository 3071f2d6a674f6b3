// Double-precision elementary functions in software (joined for f64; math_f32.wgsl defines the
// same names over the 32-bit built-ins). SPIR-V's GLSL.std.450 Exp/Log/Sin/Pow/Atan/... accept
// only 16- and 32-bit floats, and drivers that take f64 anyway return garbage, so everything here
// uses only +, -, *, /, sqrt, floor, ldexp, comparisons and select, which are exact or
// correctly rounded on f64. Algorithms follow fdlibm (Sun's freely distributable libm): range
// reduction with Cody-Waite multi-part constants (each part short enough that k * part is exact),
// then a minimax polynomial on a small interval. Measured errors against a correctly rounded
// libm are listed in tests/math_f64.rs.
//
// Things the shader compiler is allowed to do shape the code: it may reassociate additions with
// constants (lavapipe turns `(x + 1) - 1` into `x`) and folds `x * 0` to 0, so a compensated sum
// (Fast2Sum) is formed only through `opaque` (log1p, arccosh), and NaN, infinities and signed zeros are handled by
// explicit tests before any arithmetic. frexp is not used: naga types its f64 exponent as i64,
// which needs SHADER_INT64; `split_exponent` gets the exponent exactly from an f32 conversion.

// |x| = m * 2^e with m in [1, 2), for finite non-zero x. Exact: only power-of-two scalings. The
// conditional steps bring |x| into f32's normal range, where the f32 exponent field is read.
struct Split {
    m: f64,
    e: i32,
}

fn split_exponent(x: f64) -> Split {
    var a = abs(x);
    var e = 0;
    if (a >= 0x1p512) { a *= 0x1p-512; e += 512; }
    if (a >= 0x1p256) { a *= 0x1p-256; e += 256; }
    if (a >= 0x1p128) { a *= 0x1p-128; e += 128; }
    if (a >= 0x1p64) { a *= 0x1p-64; e += 64; }
    if (a < 0x1p-512) { a *= 0x1p512; e -= 512; }
    if (a < 0x1p-256) { a *= 0x1p256; e -= 256; }
    if (a < 0x1p-128) { a *= 0x1p128; e -= 128; }
    if (a < 0x1p-64) { a *= 0x1p64; e -= 64; }
    // a is in [2^-114, 2^64): a normal f32, whose exponent is a's up to a carry from rounding.
    var k = i32((bitcast<u32>(f32(a)) >> 23u) & 0xffu) - 127;
    var m = a * f64(bitcast<f32>(u32(127 - k) << 23u));
    if (m < 1.0lf) {
        m *= 2.0lf;
        k -= 1;
    }
    return Split(m, e + k);
}

// Round half to even. Not WGSL's round: lavapipe (Mesa 22.3.6, LLVM 15, on an AMD EPYC host)
// returns round(1.5) = 1, round(3.5) = 3, round(-0.5) = +0 and round(1e15 + 0.5) = 1e15 + 0.5
// for f64, while its f64 floor is right. Exact: x - floor(x) is exact for |x| < 2^52, and larger
// doubles are integers (floor(x) = x); infinities and NaN come back as themselves.
fn rint_(x: f64) -> f64 {
    let f = floor(x);
    let d = x - f;
    var r = f;
    if (d > 0.5lf || (d == 0.5lf && f - 2.0lf * floor(f * 0.5lf) != 0.0lf)) {
        r = f + 1.0lf;
    }
    // A negative x that rounds to zero gives -0.0, as C's rint does.
    return select(r, -abs(r), x < 0.0lf);
}

// np.deg2rad's and np.rad2deg's factors for double, NPY_PI / 180.0 and 180.0 / NPY_PI rounded
// to f64 (written out: naga folds no f64 division).
const DEG2RAD: f64 = 0.017453292519943295lf;
const RAD2DEG: f64 = 57.29577951308232lf;

// x, through a multiplication by 1 that the compiler cannot see (the skeleton's element count is
// below 2^31, math_f32.wgsl's `opaque`): the few error terms below (log1p's 1 + x, arccosh's
// argument) are formed from a sum that passes through here, so Mesa cannot fold `(1 + x) - 1`
// into x. A fused multiply-add of x * 1 with a sum rounds exactly as the sum does.
fn opaque(x: f64) -> f64 {
    return x * f64(1u + (p.count >> 31u));
}

// a b: the name math_f32.wgsl gives a product kept out of fused multiply-adds. Plain here: the
// f64 functions promise accuracy, not bits, across drivers (see above).
fn mul(a: f64, b: f64) -> f64 {
    return a * b;
}

// ---------------------------------------------------------------------------------------------
// exp family. x = k ln2 + r with |r| <= ln2/2: ln2 is split into LN2_HI (32 significant bits,
// so k * LN2_HI is exact for |k| < 2^20) and LN2_LO.
const LN2_HI: f64 = 6.93147180369123816490e-01;
const LN2_LO: f64 = 1.90821492927058770002e-10;
const INV_LN2: f64 = 1.44269504088896338700e+00;

// exp(hi - lo) for |hi - lo| <= ln2/2: fdlibm's rational form exp(r) = 1 + 2r / (R(r^2) - r),
// with R's remez coefficients P1..P5 (error < 2^-59 on the interval).
fn exp_reduced(hi: f64, lo: f64) -> f64 {
    let r = hi - lo;
    let t = r * r;
    let c = r - t * (1.66666666666666019037e-01 + t * (-2.77777777770155933842e-03
        + t * (6.61375632143793436117e-05 + t * (-1.65339022054652515390e-06
        + t * 4.13813679705723846039e-08))));
    return 1.0lf - ((lo - (r * c) / (2.0lf - c)) - hi);
}

fn exp_(x: f64) -> f64 {
    if (is_nan(x)) {
        return x;
    }
    // Outside (-745.13, 709.78) exp over- or underflows (also for +-inf).
    if (x > 709.782712893383973096) {
        return inf_value();
    }
    if (x < -745.13321910194110842) {
        return 0.0lf;
    }
    if (abs(x) < 0x1p-54) {
        return 1.0lf + x;
    }
    let k = rint_(x * INV_LN2);
    // k * LN2_HI is exact and close to x, so the subtraction is exact too.
    let hi = x - k * LN2_HI;
    let lo = k * LN2_LO;
    // ldexp rounds once into the subnormal range.
    return ldexp(exp_reduced(hi, lo), i32(k));
}

fn exp2_(x: f64) -> f64 {
    if (is_nan(x)) {
        return x;
    }
    if (x >= 1024.0lf) {
        return inf_value();
    }
    if (x < -1075.0lf) {
        return 0.0lf;
    }
    // 2^x = 2^k * e^(f ln2) with k = round(x) and f = x - k exact; rounding f ln2 costs < 1/4 ulp.
    let k = rint_(x);
    return ldexp(exp_reduced((x - k) * 0.693147180559945309417232121458176568, 0.0lf), i32(k));
}

// e^r - 1 for |r| <= ln2/2 as a Taylor polynomial (terms to r^14: truncation < 2^-62 relative).
fn expm1_poly(r: f64) -> f64 {
    var t = 1.0lf / 87178291200.0;
    t = t * r + 1.0lf / 6227020800.0;
    t = t * r + 1.0lf / 479001600.0;
    t = t * r + 1.0lf / 39916800.0;
    t = t * r + 1.0lf / 3628800.0;
    t = t * r + 1.0lf / 362880.0;
    t = t * r + 1.0lf / 40320.0;
    t = t * r + 1.0lf / 5040.0;
    t = t * r + 1.0lf / 720.0;
    t = t * r + 1.0lf / 120.0;
    t = t * r + 1.0lf / 24.0;
    t = t * r + 1.0lf / 6.0;
    t = t * r + 0.5lf;
    return r + r * r * t;
}

fn expm1_(x: f64) -> f64 {
    // NaN, +-0 (expm1(-0) = -0) and tiny x return x itself.
    if (is_nan(x) || abs(x) < 0x1p-54) {
        return x;
    }
    if (x > 709.782712893383973096) {
        return inf_value();
    }
    if (x < -38.0lf) {
        // e^x < 2^-54: the result rounds to -1.
        return -1.0lf;
    }
    if (abs(x) <= 0.34657359027997264) {
        return expm1_poly(x);
    }
    let k = rint_(x * INV_LN2);
    let r = (x - k * LN2_HI) - k * LN2_LO;
    if (k > 56.0lf) {
        // 2^k e^r - 1 = 2^k e^r to within rounding.
        return ldexp(expm1_poly(r) + 1.0lf, i32(k));
    }
    // 2^k (e^r - 1) + (2^k - 1): both terms exact scalings, one rounding in the sum.
    let p = ldexp(1.0lf, i32(k));
    return p * expm1_poly(r) + (p - 1.0lf);
}

// ---------------------------------------------------------------------------------------------
// log family. x = 2^e (1 + f) with 1 + f in [sqrt(1/2), sqrt(2)); f = m - 1 is exact.

// log(1 + f) for f in [sqrt(1/2) - 1, sqrt(2) - 1] plus e * ln2 (fdlibm's __ieee754_log core):
// s = f / (2 + f), log(1 + f) = f - f^2/2 + s (f^2/2 + R(s^2)), R a remez polynomial
// (error < 2^-58.45 on the interval).
fn log_parts(f: f64, e: f64) -> f64 {
    return log_parts_c(f, e, 0.0lf);
}

// log_parts plus a small correction c (|c| < ulp(f)), added beside e ln2's low part so that it
// costs no rounding of its own (log1p_ passes the error of forming 1 + x).
fn log_parts_c(f: f64, e: f64, c: f64) -> f64 {
    let hfsq = 0.5lf * f * f;
    let s = f / (2.0lf + f);
    let z = s * s;
    let w = z * z;
    let t1 = w * (3.999999999940941908e-01 + w * (2.222219843214978396e-01
        + w * 1.531383769920937332e-01));
    let t2 = z * (6.666666666666735130e-01 + w * (2.857142874366239149e-01
        + w * (1.818357216161805012e-01 + w * 1.479819860511658591e-01)));
    let r = t2 + t1;
    return e * LN2_HI - ((hfsq - (s * (hfsq + r) + (e * LN2_LO + c))) - f);
}

// log2(1 + f) = hi + lo, for f as in log_parts (FreeBSD msun's e_log2.c): f - f^2/2 is cut to
// 24 bits through f32, so what remains of it, (f - hi) - hfsq, is formed exactly (Sterbenz), and
// 1/ln2 is split into a 29-bit head, so hi * IVLN2_HI is exact. What is left is the rounding of
// f^2/2, s and r: about 2^-55.5 relative (measured ~5x better than one rounded log2), which is
// what bounds pow for large |y log2 m|; fdlibm's e_pow.c gets further with more exact splits.
const IVLN2_HI: f64 = 1.442695040255785;
const IVLN2_LO: f64 = 6.331784189566044e-10;
fn log2_hi_lo(f: f64) -> vec2<f64> {
    let hfsq = 0.5lf * f * f;
    let s = f / (2.0lf + f);
    let z = s * s;
    let w = z * z;
    let t1 = w * (3.999999999940941908e-01 + w * (2.222219843214978396e-01
        + w * 1.531383769920937332e-01));
    let t2 = z * (6.666666666666735130e-01 + w * (2.857142874366239149e-01
        + w * (1.818357216161805012e-01 + w * 1.479819860511658591e-01)));
    let r = s * (hfsq + (t2 + t1));
    let hi = f64(f32(f - hfsq));
    let lo = ((f - hi) - hfsq) + r;
    return vec2<f64>(hi * IVLN2_HI, (lo + hi) * IVLN2_LO + lo * IVLN2_HI);
}

// The (f, e) of log_parts for finite x > 0.
fn log_split(x: f64) -> vec2<f64> {
    let s = split_exponent(x);
    var m = s.m;
    var e = s.e;
    if (m > 1.41421356237309504880) {
        m *= 0.5lf;
        e += 1;
    }
    return vec2<f64>(m - 1.0lf, f64(e));
}

// NaN for NaN and x < 0, -inf for +-0, inf for inf; None (false) for ordinary x.
fn log_special(x: f64) -> vec2<f64> {
    if (is_nan(x) || x < 0.0lf) {
        return vec2<f64>(1.0lf, nan_value());
    }
    if (x == 0.0lf) {
        return vec2<f64>(1.0lf, -inf_value());
    }
    if (is_inf(x)) {
        return vec2<f64>(1.0lf, x);
    }
    return vec2<f64>(0.0lf, 0.0lf);
}

fn log_(x: f64) -> f64 {
    let sp = log_special(x);
    if (sp.x != 0.0lf) {
        return sp.y;
    }
    let fe = log_split(x);
    return log_parts(fe.x, fe.y);
}

fn log2_(x: f64) -> f64 {
    let sp = log_special(x);
    if (sp.x != 0.0lf) {
        return sp.y;
    }
    // e + log2(1 + f): e exact, so powers of two come out exact.
    let fe = log_split(x);
    return fe.y + log_parts(fe.x, 0.0lf) * INV_LN2;
}

fn log10_(x: f64) -> f64 {
    let sp = log_special(x);
    if (sp.x != 0.0lf) {
        return sp.y;
    }
    // e log10(2) split like ln2 (LOG10_2_HI * e exact), plus log(1 + f) / ln10.
    let fe = log_split(x);
    let l = log_parts(fe.x, 0.0lf) * 4.34294481903251827651e-01;
    return fe.y * 3.01029995663611771306e-01 + (fe.y * 3.69423907715893078616e-13 + l);
}

fn log1p_(x: f64) -> f64 {
    return log1p_lo(x, 0.0lf);
}

// log1p(x + lo) for a small tail lo (|lo| below half an ulp of x): arccosh passes the part of
// its argument that one double cannot hold.
fn log1p_lo(x: f64, lo: f64) -> f64 {
    if (is_nan(x) || x < -1.0lf) {
        return nan_value();
    }
    if (x == -1.0lf) {
        return -inf_value();
    }
    if (is_inf(x)) {
        return x;
    }
    // Near 0 (keeping -0 and tiny x), 1 + x is never formed: x itself is log_parts' f, exactly.
    if (abs(x) < 0x1p-54) {
        return x;
    }
    if (x > -0.29289321881345247560 && x < 0.41421356237309504880) {
        return log_parts_c(x, 0.0lf, lo / (1.0lf + x));
    }
    // Farther out 1 + x is rounded to u, which alone would cost up to 1.4 ulp of the result near
    // x = 0.41 (fdlibm's log1p): the rounding error, recovered exactly (Fast2Sum; for u >= 4 the
    // order of the operands changes), is added back as log(1 + x) - log(u) ~ (1 + x - u) / u.
    let u = opaque(1.0lf + x);
    var c = lo / u;
    if (u < 0x1p54) {
        c = (select(x - (u - 1.0lf), 1.0lf - (u - x), u >= 4.0lf) + lo) / u;
    }
    let fe = log_split(u);
    return log_parts_c(fe.x, fe.y, c);
}

// ---------------------------------------------------------------------------------------------
// Trigonometric functions. x = n pi/2 + r with |r| <= pi/4: pi/2 is split into four 24-bit parts
// and a tail (PIO2_1..PIO2_5, 149 bits in all), so n * PIO2_i is exact for |n| < 2^29, each
// subtraction of nearly equal terms is exact, and r keeps full precision for |x| < 2^29 pi/2
// (about 8.4e8), the accuracy bound of sin, cos and tan. Beyond it x is first reduced exactly
// modulo the double nearest 2 pi (fmod_), which differs from 2 pi by 2.4e-16: the reduced
// argument is off by about |x| 4e-17 (4e-8 at 1e9, 4e-2 at 1e15), so results are finite,
// sin and cos stay within [-1, 1], but they are no longer accurate to ulps (libm's Payne-Hanek
// reduction would be). +-inf and NaN give NaN.
const PIO2_1: f64 = 1.5707963705062866;
const PIO2_2: f64 = -4.371138828673793e-08;
const PIO2_3: f64 = -1.7151245100058819e-15;
const PIO2_4: f64 = 1.056299898220315e-23;
const PIO2_5: f64 = 8.4784276603689e-32;

// (r, n mod 4) for finite x.
fn rem_pio2(x0: f64) -> vec2<f64> {
    var x = x0;
    if (abs(x) >= 8.4e8) {
        x = fmod_(x, 6.283185307179586);
    }
    let n = rint_(x * 0.63661977236758134308);
    let r = (((x - n * PIO2_1) - n * PIO2_2) - n * PIO2_3) - n * PIO2_4 - n * PIO2_5;
    // n mod 4, exact for any integer-valued n.
    let q = n - 4.0lf * floor(n * 0.25lf);
    return vec2<f64>(r, q);
}

// sin(x) for |x| <= pi/4 (fdlibm __kernel_sin, error < 2^-58 relative before rounding).
fn sin_kernel(x: f64) -> f64 {
    let z = x * x;
    let v = z * x;
    let r = 8.33333333332248946124e-03 + z * (-1.98412698298579493134e-04
        + z * (2.75573137070700676789e-06 + z * (-2.50507602534068634195e-08
        + z * 1.58969099521155010221e-10)));
    return x + v * (-1.66666666666666324348e-01 + z * r);
}

// cos(x) for |x| <= pi/4 (fdlibm __kernel_cos). For |x| >= 0.3 the leading 1 - x^2/2 is formed
// as (1 - q) - (x^2/2 - q) with q a short value near |x|/4 (fdlibm's choice), so 1 - q is exact
// and the rounding lands on the smaller term.
fn cos_kernel(x: f64) -> f64 {
    let z = x * x;
    let r = z * (4.16666666666666019037e-02 + z * (-1.38888888888741095749e-03
        + z * (2.48015872894767294178e-05 + z * (-2.75573143513906633035e-07
        + z * (2.08757232129817482790e-09 + z * -1.13596475577881948265e-11)))));
    let ax = abs(x);
    if (ax < 0.3lf) {
        return 1.0lf - (0.5lf * z - z * r);
    }
    var qx = 0.28125lf;
    if (ax <= 0.78125lf) {
        qx = f64(f32(ax * 0.25lf));
    }
    let hz = 0.5lf * z - qx;
    let a = 1.0lf - qx;
    return a - (hz - z * r);
}

// sin(r + (n + shift) pi/2) for rq = (r, n mod 4): shift 0 gives sin, shift 1 gives cos.
fn sin_quadrant(rq: vec2<f64>, shift: i32) -> f64 {
    let s = sin_kernel(rq.x);
    let c = cos_kernel(rq.x);
    switch (i32(rq.y) + shift) & 3 {
        case 0: { return s; }
        case 1: { return c; }
        case 2: { return -s; }
        default: { return -c; }
    }
}

fn sin_(x: f64) -> f64 {
    if (is_nan(x) || is_inf(x)) {
        return nan_value();
    }
    // sin x = x to within rounding below 2^-26; this also keeps sin(-0) = -0.
    if (abs(x) < 0x1p-26) {
        return x;
    }
    return sin_quadrant(rem_pio2(x), 0);
}

fn cos_(x: f64) -> f64 {
    if (is_nan(x) || is_inf(x)) {
        return nan_value();
    }
    if (abs(x) < 0x1p-27) {
        return 1.0lf;
    }
    return sin_quadrant(rem_pio2(x), 1);
}

// tan = sin / cos of the reduced argument (-cos / sin in odd quadrants): about 1 ulp more than
// fdlibm's dedicated kernel, for a much shorter shader.
fn tan_(x: f64) -> f64 {
    if (is_nan(x) || is_inf(x)) {
        return nan_value();
    }
    if (abs(x) < 0x1p-27) {
        return x;
    }
    let rq = rem_pio2(x);
    let s = sin_kernel(rq.x);
    let c = cos_kernel(rq.x);
    if (i32(rq.y) % 2 == 0) {
        return s / c;
    }
    return -c / s;
}

// fdlibm's atan: |x| is reduced to |t| < 7/16 with atan(x) = atan(c) + atan(t) for c in
// {0, 1/2, 1, 3/2, inf} (atan(c) as hi + lo), then an odd polynomial in t.
fn atan_(x: f64) -> f64 {
    if (is_nan(x)) {
        return x;
    }
    let ax = abs(x);
    if (ax >= 0x1p66) {
        // Also +-inf.
        return select(1.57079632679489655800e+00lf, -1.57079632679489655800e+00lf, sign_bit(x));
    }
    if (ax < 0x1p-29) {
        return x;
    }
    var t = ax;
    var hi = 0.0lf;
    var lo = 0.0lf;
    var reduced = true;
    if (ax < 0.4375lf) {
        reduced = false;
    } else if (ax < 0.6875lf) {
        hi = 4.63647609000806093515e-01;
        lo = 2.26987774529616870924e-17;
        t = (2.0lf * ax - 1.0lf) / (2.0lf + ax);
    } else if (ax < 1.1875lf) {
        hi = 7.85398163397448278999e-01;
        lo = 3.06161699786838301793e-17;
        t = (ax - 1.0lf) / (ax + 1.0lf);
    } else if (ax < 2.4375lf) {
        hi = 9.82793723247329054082e-01;
        lo = 1.39033110312309984516e-17;
        t = (ax - 1.5lf) / (1.0lf + 1.5lf * ax);
    } else {
        hi = 1.57079632679489655800e+00;
        lo = 6.12323399573676603587e-17;
        t = -1.0lf / ax;
    }
    let z = t * t;
    let w = z * z;
    let s1 = z * (3.33333333333329318027e-01 + w * (1.42857142725034663711e-01
        + w * (9.09088713343650656196e-02 + w * (6.66107313738753120669e-02
        + w * (4.97687799461593236017e-02 + w * 1.62858201153657823623e-02)))));
    let s2 = w * (-1.99999999998764832476e-01 + w * (-1.11111104054623557880e-01
        + w * (-7.69187620504482999495e-02 + w * (-5.83357013379057348645e-02
        + w * -3.65315727442169155270e-02))));
    var r: f64;
    if (reduced) {
        r = hi - ((t * (s1 + s2) - lo) - t);
    } else {
        r = t - t * (s1 + s2);
    }
    return select(r, -r, sign_bit(x));
}

// ---------------------------------------------------------------------------------------------
// Hyperbolic functions (fdlibm): expm1 near 0 avoids cancellation; exp(|x|/2)^2 reaches the
// values between exp's overflow (709.78) and the functions' own (710.4758600739439).
const HYP_OVERFLOW: f64 = 710.47586007394386;

fn sinh_(x: f64) -> f64 {
    if (is_nan(x) || abs(x) < 0x1p-28) {
        return x;
    }
    let ax = abs(x);
    var r: f64;
    if (ax < 22.0lf) {
        let t = expm1_(ax);
        if (ax < 1.0lf) {
            r = 0.5lf * (2.0lf * t - t * t / (t + 1.0lf));
        } else {
            r = 0.5lf * (t + t / (t + 1.0lf));
        }
    } else if (ax < 709.782712893383973096) {
        r = 0.5lf * exp_(ax);
    } else if (ax <= HYP_OVERFLOW) {
        let w = exp_(0.5lf * ax);
        r = (0.5lf * w) * w;
    } else {
        r = inf_value();
    }
    return select(r, -r, x < 0.0lf);
}

fn cosh_(x: f64) -> f64 {
    if (is_nan(x)) {
        return x;
    }
    let ax = abs(x);
    if (ax < 0.34657359027997264) {
        let t = expm1_(ax);
        let w = 1.0lf + t;
        return 1.0lf + (t * t) / (w + w);
    }
    if (ax < 22.0lf) {
        let t = exp_(ax);
        return 0.5lf * t + 0.5lf / t;
    }
    if (ax < 709.782712893383973096) {
        return 0.5lf * exp_(ax);
    }
    if (ax <= HYP_OVERFLOW) {
        let w = exp_(0.5lf * ax);
        return (0.5lf * w) * w;
    }
    return inf_value();
}

fn tanh_(x: f64) -> f64 {
    if (is_nan(x) || abs(x) < 0x1p-55) {
        return x;
    }
    let ax = abs(x);
    var z: f64;
    if (ax >= 22.0lf) {
        z = 1.0lf;
    } else if (ax >= 1.0lf) {
        let t = expm1_(2.0lf * ax);
        z = 1.0lf - 2.0lf / (t + 2.0lf);
    } else {
        let t = expm1_(-2.0lf * ax);
        z = -t / (t + 2.0lf);
    }
    return select(z, -z, x < 0.0lf);
}

// ---------------------------------------------------------------------------------------------
// x^y for x >= 0 (NumPy's signs and negative bases are handled by `power`), y not NaN, y != 0
// and x != 1. x^y = 2^z with z = y e + y log2(m), x = 2^e m, |log2 m| <= 1/2: the products are
// formed exactly (below), so the error comes from log2(m) itself (log2_hi_lo, ~2^-55.5
// relative): within 4 + |y log2 m| / 6 ulp, i.e. a few ulp unless both the result is far from 1
// and the mantissa of x is far from 1 (tests/math_f64.rs measured 140 ulp at worst for results
// near the ends of the range, against 411 with a single rounded log2).
fn pow_(x: f64, y: f64) -> f64 {
    if (x == 0.0lf) {
        return select(0.0lf, inf_value(), y < 0.0lf);
    }
    if (is_inf(x)) {
        return select(0.0lf, inf_value(), y > 0.0lf);
    }
    if (is_inf(y)) {
        return select(0.0lf, inf_value(), (x > 1.0lf) == (y > 0.0lf));
    }
    // NumPy's exact fast paths for the common exponents.
    if (y == 1.0lf) {
        return x;
    }
    if (y == 2.0lf) {
        return x * x;
    }
    if (y == 0.5lf) {
        return sqrt(x);
    }
    if (y == -1.0lf) {
        return 1.0lf / x;
    }
    let fe = log_split(x);
    // log2(m) = gh + gl with gh cut to 24 bits (through f32), so y * gh splits exactly below.
    let g2 = log2_hi_lo(fe.x);
    let g = g2.x + g2.y;
    let gh = f64(f32(g));
    let gl = (g2.x - gh) + g2.y;
    // |log2 x| >= 2^-53 here, so |y| > 2^64 always over- or underflows.
    let up = (fe.y + g > 0.0lf) == (y > 0.0lf);
    if (abs(y) > 0x1p64) {
        return select(0.0lf, inf_value(), up);
    }
    // y log2 x = y e + y gh + y gl, with y = yh + yl (yh 24 bits, yl at most 29): the four
    // products of (yh, yl) with (e, gh) are exact; y gl is 2^-24 of the total. Each exact
    // product is split into an integer and a fraction exactly, so only the sum of fractions
    // (magnitude < 3) rounds, and y e adds no error however large it is.
    let yh = f64(f32(y));
    let yl = y - yh;
    let p1 = yh * fe.y;
    let p2 = yl * fe.y;
    let p3 = yh * gh;
    let p4 = yl * gh;
    let p5 = y * gl;
    let z = p1 + p2 + p3 + p4 + p5;
    if (z >= 1024.0lf) {
        return inf_value();
    }
    if (z < -1080.0lf) {
        return 0.0lf;
    }
    let n1 = rint_(p1);
    let n2 = rint_(p2);
    let n3 = rint_(p3);
    let n4 = rint_(p4);
    let f = (p1 - n1) + (p2 - n2) + (p3 - n3) + (p4 - n4) + p5;
    let n5 = rint_(f);
    let n = n1 + n2 + n3 + n4 + n5;
    let frac = f - n5;
    return ldexp(exp_reduced(frac * 0.693147180559945309417232121458176568, 0.0lf), i32(n));
}

// ---------------------------------------------------------------------------------------------
// The inverse sines, sigmoid, atan2's quadrants and hypot, from the functions above.

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

fn sigmoid_(x: C) -> C {
    if (x >= C(0)) {
        return C(1) / (C(1) + exp_(-x));
    }
    let e = exp_(x);
    return e / (C(1) + e);
}

// atan2(y, x) for finite non-zero x and y (binary_float.wgsl's atan2_ decides the special
// values): atan(|y/x|) placed in its quadrant.
fn atan2_quadrant(y: f64, x: f64) -> f64 {
    var r = abs(atan_(y / x));
    if (x < 0.0lf) {
        r = 3.141592653589793lf - r;
    }
    return select(r, -r, y < 0.0lf);
}

// hypot(x, y) for finite x >= y >= 0, x > 0.
fn hypot_(x: f64, y: f64) -> f64 {
    let s = y / x;
    return x * sqrt(1.0lf + s * s);
}

// ---------------------------------------------------------------------------------------------
// C's fmod, exactly: |a| = ma 2^ea, |b| = mb 2^eb with integer mantissas in [2^52, 2^53) held in
// f64 (exact as integers below 2^53). fmod = (ma 2^(ea - eb) mod mb) 2^eb, reduced 24 exponent
// bits per step: X = r 2^24 < 2^77, q = round(X / mb) < 2^25, and X - q mb is formed from
// q * MB_HI and q * MB_LO (mb split into 2^26-aligned halves), both exact, so every step is exact
// and r stays an integer in [0, mb). At most 88 steps for any pair of doubles, well under
// lavapipe's 65,535 loop iterations per invocation even with 16 elements per invocation.
fn fmod_(a: f64, b: f64) -> f64 {
    if (is_nan(a) || is_nan(b) || is_inf(a) || b == 0.0lf) {
        return nan_value();
    }
    if (is_inf(b) || abs(a) < abs(b)) {
        return a;
    }
    let sa = split_exponent(a);
    let sb = split_exponent(b);
    let mb = sb.m * 0x1p52;
    let mb_hi = floor(mb * 0x1p-26) * 0x1p26;
    let mb_lo = mb - mb_hi;
    var r = sa.m * 0x1p52;
    if (r >= mb) {
        r -= mb;
    }
    var d = sa.e - sb.e;
    loop {
        if (d <= 0) {
            break;
        }
        let k = min(d, 24);
        let x = r * f64(bitcast<f32>(u32(127 + k) << 23u));
        let q = rint_(x / mb);
        r = (x - q * mb_hi) - q * mb_lo;
        if (r < 0.0lf) {
            r += mb;
        }
        if (r >= mb) {
            r -= mb;
        }
        d -= k;
    }
    let m = ldexp(r, sb.e - 52);
    return select(m, -m, sign_bit(a));
}

// ---------------------------------------------------------------------------------------------
// cbrt, as math_f32.wgsl's: |x| = m 2^e, e = 3q + r, y = m 2^r in [1, 8); a linear guess and two
// Halley steps (about 2^-38), t cut to 21 bits so t t is exact, then fdlibm's last step
// t += t (y/t² - t) / (2t + y/t²), within 0.667 ulp.
fn cbrt_(x: f64) -> f64 {
    if (x == 0.0lf || is_nan(x) || is_inf(x)) {
        return x;
    }
    let s = split_exponent(x);
    // Floor division by 3 on a positive numerator (e >= -1074).
    let q = (s.e + 1101) / 3 - 367;
    let y = s.m * f64(1u << u32(s.e - 3 * q));
    var t = 0.91lf + 0.149lf * y;
    for (var i = 0; i < 2; i++) {
        let t3 = t * t * t;
        t = t * (t3 + 2.0lf * y) / (2.0lf * t3 + y);
    }
    t = rint_(t * 0x1p20) * 0x1p-20;
    let w = y / (t * t);
    t = t + t * ((w - t) / (2.0lf * t + w));
    let r = ldexp(t, q);
    return select(r, -r, x < 0.0lf);
}

// ---------------------------------------------------------------------------------------------
// arcsinh, arccosh, arctanh: musl's asinh, acosh and atanh over this file's log_ and log1p_.

const LN2_F64: f64 = 0.693147180559945309417232121458176568lf;

fn asinh_(x: f64) -> f64 {
    let a = abs(x);
    if (is_nan(x) || is_inf(x) || a < 0x1p-26) { // x itself (zeros keep their sign)
        return x;
    }
    var r: f64;
    if (a >= 0x1p26) {
        r = log_(a) + LN2_F64;
    } else if (a >= 2.0lf) {
        r = log_(2.0lf * a + 1.0lf / (sqrt(a * a + 1.0lf) + a));
    } else {
        r = log1p_(a + a * a / (sqrt(a * a + 1.0lf) + 1.0lf));
    }
    return select(r, -r, x < 0.0lf);
}

// arccosh(1 + t) = log1p(t + sqrt(2t + t^2)) for 0 < t < 1. Rounding the argument alone costs up
// to 1.3 ulp of the result, so its error is carried to log1p_lo: each product is split with the
// leading 24 bits of a factor (through f32) so that th * th and th * tl are exact, sums keep their
// rounding error (Fast2Sum, larger operand first), and the square root's residual a - s^2 gives
// its tail. Fusing a multiply into an add changes no exact term here.
fn acosh_near_one(t: f64) -> f64 {
    let th = f64(f32(t));
    let tl = t - th;
    let p = t * t;
    let p_lo = ((th * th - p) + 2.0lf * th * tl) + tl * tl;
    let a = opaque(2.0lf * t + p);
    let a_lo = (p - (a - 2.0lf * t)) + p_lo;
    let s = sqrt(a);
    let sh = f64(f32(s));
    let sl = s - sh;
    let residual = ((a - sh * sh) - 2.0lf * sh * sl) - sl * sl;
    let s_lo = (residual + a_lo) / (2.0lf * s);
    let u = opaque(t + s);
    let u_lo = (t - (u - s)) + s_lo;
    return log1p_lo(u, u_lo);
}

fn acosh_(x: f64) -> f64 {
    if (is_nan(x)) {
        return x;
    }
    if (x < 1.0lf) {
        return nan_value();
    }
    if (x == 1.0lf) {
        return 0.0lf;
    }
    if (x < 2.0lf) {
        return acosh_near_one(x - 1.0lf);
    }
    if (x < 0x1p26) {
        return log_(2.0lf * x - 1.0lf / (x + sqrt(x * x - 1.0lf)));
    }
    if (is_inf(x)) {
        return x;
    }
    return log_(x) + LN2_F64;
}

fn atanh_(x: f64) -> f64 {
    let y = abs(x);
    if (is_nan(x) || y < 0x1p-32) {
        return x;
    }
    var r: f64;
    if (y < 0.5lf) {
        r = 0.5lf * log1p_(2.0lf * y + 2.0lf * y * y / (1.0lf - y));
    } else if (y == 1.0lf) {
        r = inf_value();
    } else if (y > 1.0lf) {
        return nan_value();
    } else {
        r = 0.5lf * log1p_(2.0lf * (y / (1.0lf - y)));
    }
    return select(r, -r, x < 0.0lf);
}

// ---------------------------------------------------------------------------------------------
// nextafter: the neighbour of a in the direction of b (b when equal, NaN when either is). |a| =
// m 2^e: the spacing there is 2^(e - 52) (2^-1074 among subnormals), half of it just below a power
// of two; a +- spacing is exact.

const DBL_MAX: f64 = 1.7976931348623157e308lf;

fn nextafter_(a: f64, b: f64) -> f64 {
    if (is_nan(a) || is_nan(b)) {
        return nan_value();
    }
    if (a == b) {
        return b;
    }
    let up = b > a;
    if (a == 0.0lf) {
        let tiny = ldexp(1.0lf, -1074);
        return select(-tiny, tiny, up);
    }
    if (is_inf(a)) {
        return select(-DBL_MAX, DBL_MAX, a > 0.0lf);
    }
    let sp = split_exponent(a);
    let away = up == (a > 0.0lf);
    var s = ldexp(1.0lf, max(sp.e, -1022) - 52);
    if (!away && sp.m == 1.0lf && sp.e > -1022) {
        s = s * 0.5lf;
    }
    let m = abs(a);
    let r = select(m - s, m + s, away);
    return select(r, -r, a < 0.0lf);
}
