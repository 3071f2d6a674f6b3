// Single-precision elementary functions in software (joined for f16 and f32, computed in f32),
// the names math_f64.wgsl implements for f64. The WGSL built-ins leave accuracy wide (exp within
// 3 + 2|x| ulp, trig to 2^-11 absolute, pow as exp2(y log2 x)) and differ between vendors; these
// follow fdlibm/FreeBSD/musl's float code (range reduction, then a minimax polynomial) and use only
// +, -, *, /, sqrt, round, comparisons and integer/bit operations, which are correctly rounded or
// exact on every adapter, so every adapter gives the same bits. Measured worst errors against a
// correctly rounded reference are in tests/math_f32.rs and BENCHMARKS.md (all within 1 ulp for
// exp, exp2, expm1, log, log2, log10, log1p, sin, cos, tan, arctan, arcsin, arccos, pow and hypot;
// within 2 for sinh, cosh, tanh, sigmoid and arctan2).
//
// Subnormals: a driver may flush them in arithmetic (lavapipe reads a subnormal input as 0), so
// subnormal inputs are decoded from their bits and subnormal results are built as bits
// (`ldexp_bits`), never produced by a multiplication.
//
// What the shader compiler may do shapes the code. Mesa folds `(a + b) - a` into `b`, which would
// zero the error term of every compensated sum (Fast2Sum), and reassociates sums with constants
// (`(x + 1) - 1` is x; `pi_hi - (z - pi_lo)` would lose pi_lo), so each such sum or constant
// split passes through `opaque`, an integer OR with a zero the compiler cannot see; so does every
// partial sum of a chain of three or more terms (Mesa's GL compiler rebalances such chains, which
// changes their rounding: log10 differed on 16 % of inputs between lavapipe's Vulkan and GL
// drivers before). And drivers
// may contract `a * b + c` into a fused multiply-add, rounded once where we round twice, which
// gives other bits on other drivers: every inexact product that feeds a sum is a `mul`, which
// keeps it apart; exact products (operands cut to 12 bits by `hi12`, powers of two) are plain.
//
// `FAST_MATH` (DeviceConfig::math = MathMode::Fast) keeps the driver's built-ins instead.

override FAST_MATH: bool = false;

// Round half to even (math_f64.wgsl's f64 form cannot trust the driver's f64 round).
fn rint_(x: f32) -> f32 {
    return round(x);
}

// np.deg2rad's and np.rad2deg's factors as NumPy's C forms them for float: NPY_PIf / 180.0f and
// 180.0f / NPY_PIf, quotients of f32 operands rounded to f32 (folded by the WGSL compiler; the
// second is one ulp below the f32 nearest 180/pi).
const DEG2RAD: f32 = 3.141592653589793f / 180.0f;
const RAD2DEG: f32 = 180.0f / 3.141592653589793f;

// The skeleton's element count is below 2^31 (a block never spans more than one binding), so
// this is 0; the compiler cannot know that, so `opaque(x)` is an operation it cannot look through.
fn opaque(x: f32) -> f32 {
    return bitcast<f32>(bitcast<u32>(x) | (p.count >> 31u));
}

// a b, rounded, and never contracted with an addition into a fused multiply-add (whose single
// rounding would give other bits on drivers that contract): every inexact product that feeds a
// sum goes through here.
fn mul(a: f32, b: f32) -> f32 {
    return opaque(a * b);
}

// x with the low 12 bits of its fraction cleared: products of two such values are exact.
fn hi12(x: f32) -> f32 {
    return bitcast<f32>(bitcast<u32>(x) & 0xfffff000u);
}

// 2^k for k in [-126, 127].
fn pow2i(k: i32) -> f32 {
    return bitcast<f32>(u32(k + 127) << 23u);
}

// y 2^k for a normal y, any k, rounded to nearest even. Results below 2^-126 are built from y's
// bits (a flushing driver would return 0 for the product); above the range, infinity.
fn ldexp_bits(y: f32, k: i32) -> f32 {
    let b = bitcast<u32>(y);
    let sign = b & 0x80000000u;
    let e = i32((b >> 23u) & 0xffu) - 127 + k;
    if (e > 127) {
        return bitcast<f32>(sign | 0x7f800000u);
    }
    if (e >= -126) {
        return bitcast<f32>((b & 0x807fffffu) | (u32(e + 127) << 23u));
    }
    let shift = u32(-126 - e);
    if (shift > 25u) {
        return bitcast<f32>(sign);
    }
    let m = (b & 0x7fffffu) | 0x800000u;
    let q = m >> shift;
    let rest = m & ((1u << shift) - 1u);
    let half = 1u << (shift - 1u);
    let up = rest > half || (rest == half && (q & 1u) == 1u);
    return bitcast<f32>(sign | (q + u32(up)));
}

// The exact product a b as hi + lo (Dekker's, with the halves cut by masks).
fn two_prod(a: f32, b: f32) -> vec2<f32> {
    let p = a * b;
    let ah = hi12(a);
    let bh = hi12(b);
    let al = a - ah;
    let bl = b - bh;
    return vec2<f32>(p, opaque(opaque(opaque(ah * bh - p) + ah * bl) + al * bh) + al * bl);
}

// ---------------------------------------------------------------------------------------------
// exp, exp2, expm1

// e^(hi - lo) 2^k for |hi - lo| <= 0.35 (fdlibm's expf: a rational form of a degree-2 minimax
// polynomial in x^2, error below 2^-27).
fn exp_core(hi: f32, lo: f32, k: i32) -> f32 {
    let x = hi - lo;
    let t = x * x;
    let c = x - mul(t, 1.6666625440e-1 + mul(t, -2.7667332906e-3));
    let y = 1.0 - (opaque(lo - mul(x, c) / (2.0 - c)) - hi);
    return ldexp_bits(y, k);
}

fn exp_(x: C) -> C {
    if (FAST_MATH) {
        return exp(x);
    }
    if (is_nan(x)) {
        return x;
    }
    if (x > 88.72283935546875) {
        return inf_value();
    }
    if (x < -103.972084045410) {
        return C(0);
    }
    let ax = abs(x);
    if (ax < 7.450580596923828e-09) {
        return C(1) + x;
    }
    if (ax <= 0.34657359) {
        return exp_core(x, 0.0, 0);
    }
    // x = k ln2 + r: k ln2 in two parts, the first (16 bits) times k exact.
    var k: i32;
    if (ax < 1.03972077) {
        k = select(-1, 1, x > 0.0);
    } else {
        k = i32(mul(1.4426950216, x) + select(-0.5, 0.5, x > 0.0));
    }
    let kf = f32(k);
    return exp_core(x - kf * 6.9314575195e-01, mul(kf, 1.4286067653e-06), k);
}

// 2^(zh + zl) for |zl| <= ulp(zh), zh in [-150, 128]: k = round(zh), and the rest times ln 2
// in two parts (f's and ln 2's 12-bit heads multiply exactly) into exp_core.
fn exp2_parts(zh: f32, zl: f32) -> f32 {
    let k = round(zh);
    let f = opaque((zh - k) + zl);
    let fe = opaque(opaque(zh - k) - f) + zl;
    let l1 = 0.693115234375; // ln 2's 12-bit head
    let l2 = 3.194618329871446e-05; // ln 2 - l1, rounded
    let l3 = 1.6465717678215697e-12; // ln 2 - l1 - l2
    let fh = hi12(f);
    let fl = f - fh;
    let hp = fh * l1;
    let q = opaque(opaque(mul(fh, l2) + mul(fl, l1 + l2)) + mul(f, l3)) + mul(fe, 0.6931471805599453);
    let hi = opaque(hp + q);
    let lo = opaque(hp - hi) + q;
    return exp_core(hi, -lo, i32(k));
}

fn exp2_(x: C) -> C {
    if (FAST_MATH) {
        return exp2(x);
    }
    if (is_nan(x)) {
        return x;
    }
    if (x >= 128.0) {
        return inf_value();
    }
    if (x <= -150.0) {
        return C(0);
    }
    return exp2_parts(x, 0.0);
}

// fdlibm's expm1f: k ln2 + r with the rounding of r kept in c, a rational correction in r^2.
fn expm1_(x0: C) -> C {
    if (FAST_MATH) {
        return exp(x0) - C(1);
    }
    var x = f32(x0);
    let bits = bitcast<u32>(x);
    let negative = (bits >> 31u) != 0u;
    let hx = bits & 0x7fffffffu;
    if (hx >= 0x4195b844u) { // |x| >= 27 ln 2
        if (hx > 0x7f800000u) {
            return x0;
        }
        if (negative) {
            return C(-1);
        }
        if (x > 88.72283935546875) {
            return inf_value();
        }
    }
    var k: i32 = 0;
    var c = 0.0;
    if (hx > 0x3eb17218u) { // |x| > ln2 / 2
        var hi: f32;
        var lo: f32;
        if (hx < 0x3f851592u) { // |x| < 1.5 ln 2
            k = select(1, -1, negative);
            hi = x - f32(k) * 6.9313812256e-01;
            lo = mul(f32(k), 9.0580006145e-06);
        } else {
            k = i32(mul(1.4426950216, x) + select(0.5, -0.5, negative));
            let t = f32(k);
            hi = x - t * 6.9313812256e-01;
            lo = mul(t, 9.0580006145e-06);
        }
        x = opaque(hi - lo);
        c = opaque(hi - x) - lo;
    } else if (hx < 0x33000000u) { // |x| < 2^-25: x itself (subnormals kept)
        return x0;
    }
    let hfx = 0.5 * x;
    let hxs = mul(x, hfx);
    let r1 = opaque(1.0 + mul(hxs, -3.3333212137e-2 + mul(hxs, 1.5807170421e-3)));
    let t = opaque(3.0 - mul(r1, hfx));
    var e = hxs * ((r1 - t) / (6.0 - mul(x, t)));
    if (k == 0) {
        return x - (mul(x, e) - hxs);
    }
    e = opaque(mul(x, e - c) - c);
    e -= hxs;
    if (k == -1) {
        return mul(0.5, x - e) - 0.5;
    }
    if (k == 1) {
        if (x < -0.25) {
            return -2.0 * (e - opaque(x + 0.5));
        }
        return 1.0 + mul(2.0, x - e);
    }
    if (k <= -2 || k > 56) {
        return ldexp_bits(1.0 - (e - x), k) - 1.0;
    }
    var y: f32;
    if (k < 23) {
        y = bitcast<f32>(0x3f800000u - (0x1000000u >> u32(k))) - (e - x); // (1 - 2^-k) + ...
    } else {
        y = opaque(x - (e + bitcast<f32>(u32(127 - k) << 23u))) + 1.0;
    }
    return ldexp_bits(y, k);
}

// ---------------------------------------------------------------------------------------------
// log, log2, log10, log1p

// NaN, +inf, -inf for zero and negative inputs; 0 means "finite positive, compute it".
fn log_special(x: f32) -> u32 {
    let ix = bitcast<u32>(x);
    if (ix >= 0x7f800000u) {
        let mag = ix & 0x7fffffffu;
        if (mag > 0x7f800000u || ix == 0x7f800000u) {
            return 1u; // NaN, +inf: x itself
        }
        return select(2u, 3u, mag == 0u); // negative: NaN; -0: -inf
    }
    return select(0u, 3u, ix == 0u);
}

fn log_special_value(x: f32, kind: u32) -> f32 {
    if (kind == 1u) {
        return x;
    }
    return select(nan_value(), -inf_value(), kind == 3u);
}

// The bits of a positive finite x, normalised (subnormals shifted up), and the shift.
struct Normalised {
    bits: u32,
    shift: i32,
}

fn normalise(x: f32) -> Normalised {
    var ix = bitcast<u32>(x);
    var k = 0;
    if (ix < 0x00800000u) {
        let s = countLeadingZeros(ix) - 8u;
        ix = ix << s;
        k = -i32(s);
    }
    return Normalised(ix, k);
}

// ln(1 + f) = f - hfsq + s (hfsq + R(s^2)) for x = 2^k (1 + f), 1 + f in [sqrt(2)/2, sqrt(2)):
// musl's logf/log10f reduction (subnormals normalised first), with hi = f - hfsq cut to 12 bits
// and lo the rest, so hi times a constant's head is exact (log2, log10).
struct LogParts {
    f: f32,
    hfsq: f32,
    tail: f32, // s (hfsq + R)
    hi: f32,
    lo: f32,
    k: f32,
}

fn log_parts(x: f32) -> LogParts {
    let n = normalise(x);
    var ix = n.bits + (0x3f800000u - 0x3f3504f3u);
    let k = i32(ix >> 23u) - 0x7f + n.shift;
    ix = (ix & 0x007fffffu) + 0x3f3504f3u;
    let f = bitcast<f32>(ix) - 1.0;
    let s = f / (2.0 + f);
    let z = s * s;
    let w = z * z;
    let r = mul(z, 0.66666662693 + mul(w, 0.28498786688)) + mul(w, 0.40000972152 + mul(w, 0.24279078841));
    let hfsq = mul(0.5 * f, f);
    let tail = mul(s, hfsq + r);
    let hi = hi12(f - hfsq);
    let lo = opaque(opaque(f - hi) - hfsq) + tail;
    return LogParts(f, hfsq, tail, hi, lo, f32(k));
}

// log: musl's logf, k ln 2 with ln 2 in two parts (the arithmetic of ln_bits.wgsl, Philox's
// copy, with products kept out of contractions, which `opaque` can do only in these kernels).
fn log_(x: C) -> C {
    if (FAST_MATH) {
        return log(x);
    }
    let kind = log_special(f32(x));
    if (kind != 0u) {
        return log_special_value(f32(x), kind);
    }
    let v = log_parts(f32(x));
    return C(opaque(opaque(opaque(v.tail + mul(v.k, 9.0580006145e-06)) - v.hfsq) + v.f)
        + mul(v.k, 6.9313812256e-01));
}

fn log2_(x: C) -> C {
    if (FAST_MATH) {
        return log2(x);
    }
    let kind = log_special(f32(x));
    if (kind != 0u) {
        return log_special_value(f32(x), kind);
    }
    let v = log_parts(f32(x));
    // 1/ln 2 = 1.4428710938 (12 bits) - 1.7605285393e-04
    return C(opaque(opaque(mul(v.lo + v.hi, -1.7605285393e-04) + mul(v.lo, 1.4428710938))
        + v.hi * 1.4428710938) + v.k);
}

fn log10_(x: C) -> C {
    if (FAST_MATH) {
        return log(x) * C(0.43429448190325182765);
    }
    let kind = log_special(f32(x));
    if (kind != 0u) {
        return log_special_value(f32(x), kind);
    }
    let v = log_parts(f32(x));
    // 1/ln 10 = 4.3432617188e-01 - 3.1689971365e-05; log10(2) = 3.0102920532e-01 + 7.9034151668e-07
    // Summed in this order on every driver (Mesa's GL compiler rebalances longer chains of sums).
    let a = opaque(mul(v.k, 7.9034151668e-07) + mul(v.lo + v.hi, -3.1689971365e-05));
    let b = opaque(a + mul(v.lo, 4.3432617188e-01));
    return C(opaque(b + v.hi * 4.3432617188e-01) + mul(v.k, 3.0102920532e-01));
}

// musl's log1pf: 1 + x = 2^k (1 + f), with the rounding of 1 + x kept in c / u.
fn log1p_(x0: C) -> C {
    if (FAST_MATH) {
        return log(C(1) + x0);
    }
    let x = f32(x0);
    let ix = bitcast<u32>(x);
    var k = 1;
    var c = 0.0;
    var f = 0.0;
    if (ix < 0x3ed413d0u || (ix >> 31u) != 0u) { // 1 + x < sqrt(2)+
        if (ix >= 0xbf800000u) { // x <= -1, -inf or negative NaN
            if (ix > 0xff800000u) {
                return x0;
            }
            return select(nan_value(), -inf_value(), x == -1.0);
        }
        if ((ix << 1u) < (0x33800000u << 1u)) { // |x| < 2^-24: x itself (subnormals kept)
            return x0;
        }
        if (ix <= 0xbe95f619u) { // sqrt(2)/2- <= 1 + x < sqrt(2)+
            k = 0;
            f = x;
        }
    } else if (ix >= 0x7f800000u) {
        return x0;
    }
    if (k != 0) {
        let u = opaque(1.0 + x);
        var iu = bitcast<u32>(u) + (0x3f800000u - 0x3f3504f3u);
        k = i32(iu >> 23u) - 0x7f;
        // The rounding of 1 + x, relative to it (negligible once 1 + x >= 2^25).
        if (k < 25) {
            c = select(x - opaque(u - 1.0), 1.0 - opaque(u - x), k >= 2) / u;
        }
        iu = (iu & 0x007fffffu) + 0x3f3504f3u;
        f = bitcast<f32>(iu) - 1.0;
    }
    let s = f / (2.0 + f);
    let z = s * s;
    let w = z * z;
    let r = mul(z, 0.66666662693 + mul(w, 0.28498786688)) + mul(w, 0.40000972152 + mul(w, 0.24279078841));
    let hfsq = mul(0.5 * f, f);
    let dk = f32(k);
    return C(mul(s, hfsq + r) + (mul(dk, 9.0580006145e-06) + c) - hfsq + f + mul(dk, 6.9313812256e-01));
}

// ---------------------------------------------------------------------------------------------
// sin, cos, tan

// (mulhilo, the 64-bit product, comes from mulhilo.wgsl, joined before this file.)

// 2/pi's binary digits, 32 per word, after a zero word so the window below may start before the
// binary point (enough for the largest f32: the window ends at bit 230).
var<private> TWO_OVER_PI: array<u32, 9> = array<u32, 9>(0u, 0xa2f9836eu, 0x4e441529u,
    0xfc2757d1u, 0xf534ddc0u, 0xdb629599u, 0x3c439041u, 0xfe5163abu, 0xdebbc561u);

fn two_over_pi_window(start: u32, i: u32) -> u32 {
    let w = start / 32u + i;
    let b = start % 32u;
    if (b == 0u) {
        return TWO_OVER_PI[w];
    }
    return (TWO_OVER_PI[w] << b) | (TWO_OVER_PI[w + 1u] >> (32u - b));
}

struct Reduced {
    quadrant: u32,
    hi: f32,
    lo: f32,
}

// x = quadrant pi/2 + (hi + lo), |hi + lo| <= pi/4, for finite |x| >= pi/4: Payne-Hanek in integer
// arithmetic. |x| = m 2^(e-23); the product m 2/pi needs 2/pi's bits from 2^-(e-24) on (earlier
// ones add multiples of 4), and 96 of them leave an error below 2^-70. The 64 bits after the
// binary point are turned into hi + lo and multiplied by pi/2 in two parts.
fn rem_pio2(x: f32) -> Reduced {
    let ix = bitcast<u32>(x) & 0x7fffffffu;
    let e = i32(ix >> 23u) - 127;
    let m = (ix & 0x7fffffu) | 0x800000u;
    let start = u32(e + 7); // (e - 24) + 31: the bit index in the padded table
    let w2 = mulhilo(m, two_over_pi_window(start, 2u));
    let w1 = mulhilo(m, two_over_pi_window(start, 1u));
    let w0 = mulhilo(m, two_over_pi_window(start, 0u));
    // The 120-bit product's words; its binary point is after bit 94.
    let p0 = w2.y;
    let p1 = w2.x + w1.y;
    let p2 = w1.x + w0.y + u32(p1 < w2.x);
    var q = p2 >> 30u;
    var fh = (p2 << 2u) | (p1 >> 30u);
    var fl = (p1 << 2u) | (p0 >> 30u);
    // A fraction of at least 1/2 is the next quadrant minus (1 - fraction).
    let wrap = (fh >> 31u) != 0u;
    if (wrap) {
        q = (q + 1u) & 3u;
        fl = ~fl + 1u;
        fh = ~fh + u32(fl == 0u);
    }
    // Normalise the 64-bit fraction and take its top 48 bits as two 24-bit pieces.
    let lz = select(32u + countLeadingZeros(fl), countLeadingZeros(fh), fh != 0u);
    var nh: u32;
    var nl: u32;
    if (lz == 0u) {
        nh = fh;
        nl = fl;
    } else if (lz < 32u) {
        nh = (fh << lz) | (fl >> (32u - lz));
        nl = fl << lz;
    } else {
        nh = fl << (lz - 32u);
        nl = 0u;
    }
    let f1 = f32(nh >> 8u) * pow2i(-24 - i32(lz));
    let f2 = f32(((nh & 0xffu) << 16u) | (nl >> 16u)) * pow2i(-48 - i32(lz));
    // (f1 + f2) pi/2 with pi/2 = 1.5707963705062866 - 4.371139000186243e-08.
    let pr = two_prod(f1, 1.5707963705062866);
    let rest = pr.y + opaque(mul(f1, -4.371139000186243e-08) + mul(f2, 1.5707963705062866));
    let hi = opaque(pr.x + rest);
    let lo = opaque(pr.x - hi) + rest;
    let negative = (bitcast<u32>(x) >> 31u) != 0u;
    let flip = wrap != negative;
    return Reduced(select(q, (4u - q) & 3u, negative), select(hi, -hi, flip), select(lo, -lo, flip));
}

// sin(x + y) for |x + y| <= pi/4 (fdlibm's float kernel).
fn sin_kernel(x: f32, y: f32) -> f32 {
    let z = x * x;
    let v = z * x;
    let r = 8.3333337680e-03 + mul(z, -1.9841270114e-04 + mul(z, 2.7557314297e-06
        + mul(z, -2.5050759689e-08 + mul(z, 1.5896910177e-10))));
    return x - (opaque(mul(z, 0.5 * y - mul(v, r)) - y) - mul(v, -1.6666667163e-01));
}

// cos(x + y) for |x + y| <= pi/4: fdlibm's float kernel, with x^2's rounding error added back
// (without it the kernel is 1.3 ulps off near pi/4) and 1 - x/4 made exact.
fn cos_kernel(x: f32, y: f32) -> f32 {
    let ix = bitcast<u32>(x) & 0x7fffffffu;
    let zz = two_prod(x, x);
    let z = zz.x;
    let r = z * (4.1666667908e-02 + mul(z, -1.3888889225e-03 + mul(z, 2.4801587642e-05
        + mul(z, -2.7557314297e-07 + mul(z, 2.0875723372e-09 + mul(z, -1.1359647598e-11))))));
    let tail = mul(z, r) - (mul(x, y) + 0.5 * zz.y);
    if (ix < 0x3e99999au) { // |x| < 0.3
        return 1.0 - opaque(0.5 * z - tail);
    }
    // 1 - z/2 = (1 - qx) - (z/2 - qx), both exact, with qx near x/4 cut to 16 bits.
    let qx = select(bitcast<f32>((ix - 0x01000000u) & 0xffffff00u), 0.28125, ix > 0x3f480000u);
    return opaque(1.0 - qx) - (opaque(0.5 * z - qx) - tail);
}

// tan(x + y), or -1/tan(x + y) when `odd`, for |x + y| <= pi/4 (fdlibm's kernel).
fn tan_kernel(x0: f32, y0: f32, odd: bool) -> f32 {
    var x = x0;
    var y = y0;
    let hx = bitcast<u32>(x);
    let negative = (hx >> 31u) != 0u;
    let big = (hx & 0x7fffffffu) >= 0x3f2ca140u; // |x| >= 0.6744: tan(pi/4 - x) instead
    if (big) {
        if (negative) {
            x = -x;
            y = -y;
        }
        x = opaque(7.8539812565e-01 - x) + (3.7748947079e-08 - y);
        y = 0.0;
    }
    let z = x * x;
    let w = z * z;
    let r = 1.33333333333201242699e-01 + mul(w, 2.18694882948595424599e-02
        + mul(w, 3.59207910759131235356e-03 + mul(w, 5.88041240820264096874e-04
        + mul(w, 7.81794442939557092300e-05 + mul(w, -1.85586374855275456654e-05)))));
    let v = z * (5.39682539762260521377e-02 + mul(w, 8.86323982359930005737e-03
        + mul(w, 1.45620945432529025516e-03 + mul(w, 2.46463134818469906812e-04
        + mul(w, 7.14072491382608190305e-05 + mul(w, 2.59073051863633712884e-05))))));
    let s = z * x;
    let rr = opaque(y + mul(z, mul(s, r + v) + y)) + mul(3.33333333333334091986e-01, s);
    let t = x + rr;
    if (big) {
        let sv = select(1.0, -1.0, odd);
        let result = sv - 2.0 * (x - opaque(mul(t, t) / (t + sv) - rr));
        return select(result, -result, negative);
    }
    if (!odd) {
        return t;
    }
    // -1/t with t = x + rr, to within an ulp: a = -1/t refined from 12-bit heads.
    let th = hi12(t);
    let tv = rr - (th - x);
    let a = -1.0 / t;
    let ah = hi12(a);
    return ah + mul(a, opaque(1.0 + ah * th) + mul(ah, tv));
}

fn sin_(x: C) -> C {
    if (FAST_MATH) {
        return sin(x);
    }
    let ix = bitcast<u32>(f32(x)) & 0x7fffffffu;
    if (ix >= 0x7f800000u) {
        return nan_value();
    }
    if (ix < 0x39800000u) { // |x| < 2^-12: x itself (subnormals kept)
        return x;
    }
    if (ix <= 0x3f490fdbu) {
        return C(sin_kernel(f32(x), 0.0));
    }
    let r = rem_pio2(f32(x));
    let v = select(sin_kernel(r.hi, r.lo), cos_kernel(r.hi, r.lo), (r.quadrant & 1u) == 1u);
    return C(select(v, -v, r.quadrant >= 2u));
}

fn cos_(x: C) -> C {
    if (FAST_MATH) {
        return cos(x);
    }
    let ix = bitcast<u32>(f32(x)) & 0x7fffffffu;
    if (ix >= 0x7f800000u) {
        return nan_value();
    }
    if (ix < 0x39800000u) {
        return C(1);
    }
    if (ix <= 0x3f490fdbu) {
        return C(cos_kernel(f32(x), 0.0));
    }
    let r = rem_pio2(f32(x));
    let v = select(cos_kernel(r.hi, r.lo), sin_kernel(r.hi, r.lo), (r.quadrant & 1u) == 1u);
    return C(select(v, -v, r.quadrant == 1u || r.quadrant == 2u));
}

fn tan_(x: C) -> C {
    if (FAST_MATH) {
        return tan(x);
    }
    let ix = bitcast<u32>(f32(x)) & 0x7fffffffu;
    if (ix >= 0x7f800000u) {
        return nan_value();
    }
    if (ix < 0x39800000u) {
        return x;
    }
    if (ix <= 0x3f490fdbu) {
        return C(tan_kernel(f32(x), 0.0, false));
    }
    let r = rem_pio2(f32(x));
    return C(tan_kernel(r.hi, r.lo, (r.quadrant & 1u) == 1u));
}

// ---------------------------------------------------------------------------------------------
// arctan, arcsin, arccos

// FreeBSD's atanf: four reduction intervals around atan(1/2), atan(1), atan(3/2), pi/2 (each in
// two parts), then an odd polynomial of degree 11.
fn atan_(x0: C) -> C {
    if (FAST_MATH) {
        return atan(x0);
    }
    var x = f32(x0);
    let hx = bitcast<u32>(x);
    let ix = hx & 0x7fffffffu;
    let negative = (hx >> 31u) != 0u;
    if (ix >= 0x4c800000u) { // |x| >= 2^26
        if (ix > 0x7f800000u) {
            return x0;
        }
        let z = 1.5707962513e+00 + 7.5497894159e-08;
        return C(select(z, -z, negative));
    }
    var id = -1;
    if (ix < 0x3ee00000u) { // |x| < 0.4375
        if (ix < 0x39800000u) {
            return x0;
        }
    } else {
        x = abs(x);
        if (ix < 0x3f980000u) { // |x| < 1.1875
            if (ix < 0x3f300000u) {
                id = 0;
                x = (2.0 * x - 1.0) / (2.0 + x); // 2x - 1 is exact here
            } else {
                id = 1;
                x = (x - 1.0) / (x + 1.0);
            }
        } else if (ix < 0x401c0000u) { // |x| < 2.4375
            id = 2;
            x = (x - 1.5) / (1.0 + mul(1.5, x));
        } else {
            id = 3;
            x = -1.0 / x;
        }
    }
    let z = x * x;
    let w = z * z;
    let s1 = mul(z, 3.3333328366e-01 + mul(w, 1.4253635705e-01 + mul(w, 6.1687607318e-02)));
    let s2 = mul(w, -1.9999158382e-01 + mul(w, -1.0648017377e-01));
    if (id < 0) {
        return C(x - mul(x, s1 + s2));
    }
    var hi = 4.6364760399e-01;
    var lo = 5.0121582440e-09;
    if (id == 1) {
        hi = 7.8539812565e-01;
        lo = 3.7748947079e-08;
    } else if (id == 2) {
        hi = 9.8279368877e-01;
        lo = 3.4473217170e-08;
    } else if (id == 3) {
        hi = 1.5707962513e+00;
        lo = 7.5497894159e-08;
    }
    let r = hi - (opaque(mul(x, s1 + s2) - lo) - x);
    return C(select(r, -r, negative));
}

// musl's rational approximation of (asin(x) - x) / x^3 in x^2, for x^2 <= 1/4.
fn asin_r(z: f32) -> f32 {
    let p = z * (1.6666586697e-01 + mul(z, -4.2743422091e-02 + mul(z, -8.6563630030e-03)));
    return p / (1.0 + mul(z, -7.0662963390e-01));
}

// asin: x + x^3 R(x^2) below 1/2; above, pi/2 - 2 asin(sqrt((1 - |x|)/2)) with the square root
// in a 12-bit head and a correction (fdlibm's asinf).
fn asin_(x0: C) -> C {
    if (FAST_MATH) {
        return asin(x0);
    }
    let x = f32(x0);
    let hx = bitcast<u32>(x);
    let ix = hx & 0x7fffffffu;
    let pio2_hi = 1.5707962513e+00;
    let pio2_lo = 7.5497894159e-08;
    if (ix >= 0x3f800000u) {
        if (ix == 0x3f800000u) {
            return C(select(1.5707963267948966, -1.5707963267948966, hx != ix));
        }
        return nan_value();
    }
    if (ix < 0x3f000000u) {
        if (ix < 0x39800000u) {
            return x0;
        }
        return C(x + mul(x, asin_r(x * x)));
    }
    let z = (1.0 - abs(x)) * 0.5;
    let s = sqrt(z);
    var t: f32;
    if (ix >= 0x3f79999au) { // |x| > 0.975
        t = pio2_hi - opaque(2.0 * (s + mul(s, asin_r(z))) - pio2_lo);
    } else {
        let w = hi12(s);
        let c = (z - w * w) / (s + w);
        let pio4_hi = 0.5 * pio2_hi;
        t = pio4_hi - (opaque(mul(2.0 * s, asin_r(z)) - (pio2_lo - 2.0 * c)) - opaque(pio4_hi - 2.0 * w));
    }
    return C(select(t, -t, hx != ix));
}

// musl's acosf.
fn acos_(x0: C) -> C {
    if (FAST_MATH) {
        return acos(x0);
    }
    let x = f32(x0);
    let hx = bitcast<u32>(x);
    let ix = hx & 0x7fffffffu;
    let pio2_hi = 1.5707962513e+00;
    let pio2_lo = 7.5497894159e-08;
    if (ix >= 0x3f800000u) {
        if (ix == 0x3f800000u) {
            return C(select(0.0, 3.141592653589793, hx != ix));
        }
        return nan_value();
    }
    if (ix < 0x3f000000u) {
        if (ix <= 0x32800000u) {
            return C(pio2_hi + pio2_lo);
        }
        return C(pio2_hi - opaque(x - opaque(pio2_lo - mul(x, asin_r(x * x)))));
    }
    if (hx != ix) {
        let z = (1.0 + x) * 0.5;
        let s = sqrt(z);
        return C(2.0 * (pio2_hi - opaque(s + opaque(mul(asin_r(z), s) - pio2_lo))));
    }
    let z = (1.0 - x) * 0.5;
    let s = sqrt(z);
    let df = hi12(s);
    let c = (z - df * df) / (s + df);
    return C(2.0 * (df + opaque(mul(asin_r(z), s) + c)));
}

// ---------------------------------------------------------------------------------------------
// sinh, cosh, tanh, sigmoid

// sign e^x / 2 for x past exp's overflow threshold (where e^x / 2 may still be finite): musl's
// __expo2f, e^(x - 235 ln 2) times 2^234 (by bits: the compiler would fold two scalings by
// constants into one infinite constant).
fn exp_half_large(x: f32, sign: f32) -> f32 {
    return sign * ldexp_bits(exp_(x - 162.88958740234375), 234);
}

fn sinh_(x0: C) -> C {
    if (FAST_MATH) {
        return sinh(x0);
    }
    let x = f32(x0);
    let h = select(0.5, -0.5, x < 0.0);
    let ax = abs(x);
    let w = bitcast<u32>(ax);
    if (w < 0x42b17217u) { // |x| < log(FLT_MAX)
        if (w < 0x39800000u) {
            return x0;
        }
        let t = expm1_(ax);
        if (w < 0x3f800000u) {
            return C(h * (2.0 * t - mul(t, t) / (t + 1.0)));
        }
        return C(h * (t + t / (t + 1.0)));
    }
    if (w > 0x7f800000u) {
        return x0;
    }
    return C(exp_half_large(ax, 2.0 * h));
}

fn cosh_(x0: C) -> C {
    if (FAST_MATH) {
        return cosh(x0);
    }
    let ax = abs(f32(x0));
    let w = bitcast<u32>(ax);
    if (w < 0x3f317217u) { // |x| < ln 2
        if (w < 0x39800000u) {
            return C(1);
        }
        let t = expm1_(ax);
        return C(1.0 + mul(t, t) / (2.0 * (1.0 + t)));
    }
    if (w < 0x42b17217u) {
        let t = exp_(ax);
        return C(0.5 * (t + 1.0 / t));
    }
    if (w > 0x7f800000u) {
        return x0;
    }
    return C(exp_half_large(ax, 1.0));
}

// tanh = e / (e + 2) with e = expm1(2|x|) up to |x| = log(3)/2 (the sum e + 2 kept exactly as two
// parts, so only the division rounds), 1 - 2 / (e + 2) above, 1 past 10; x itself below 2^-12.
fn tanh_(x0: C) -> C {
    if (FAST_MATH) {
        return tanh(x0);
    }
    let x = f32(x0);
    let ax = abs(x);
    let w = bitcast<u32>(ax);
    if (w > 0x7f800000u) {
        return x0;
    }
    if (w < 0x39800000u) {
        return x0;
    }
    var t: f32;
    if (w > 0x41200000u) {
        t = 1.0;
    } else if (w > 0x3f0c9f54u) {
        t = 1.0 - 2.0 / (expm1_(2.0 * ax) + 2.0);
    } else {
        let e = expm1_(2.0 * ax);
        let s = opaque(e + 2.0);
        let err = opaque(2.0 - s) + e;
        let q = e / s;
        t = q - mul(q, err / s);
    }
    return C(select(t, -t, x < 0.0));
}

// 1 / (1 + e) or e / (1 + e) with e = exp(-|x|), the sum kept exactly as two parts; exp(x) itself
// below -17, where 1 + e rounds to 1 (and subnormal results keep their bits).
fn sigmoid_(x0: C) -> C {
    if (FAST_MATH) {
        if (x0 >= C(0)) {
            return C(1) / (C(1) + exp(-x0));
        }
        let e = exp(x0);
        return e / (C(1) + e);
    }
    let x = f32(x0);
    if (is_nan(x)) {
        return x0;
    }
    if (x < -17.0) {
        return exp_(x0);
    }
    let e = exp_(-abs(x));
    let s = opaque(1.0 + e);
    let err = opaque(1.0 - s) + e;
    let q = select(e, 1.0, x >= 0.0) / s;
    return C(q - mul(q, err / s));
}

// ---------------------------------------------------------------------------------------------
// pow, hypot, atan2

// log2(x) as t1 + t2 (t1 cut to 12 bits, |t2| < 2^-12 |t1|, the sum within 2^-30 relative) for
// finite x > 0: FreeBSD's e_powf.c, whose s = (x - b)/(x + b) for b = 1 or 1.5 is carried in two
// parts through the series.
fn log2_parts(x: f32) -> vec2<f32> {
    let nx = normalise(x);
    var ix = nx.bits;
    var n = nx.shift + i32(ix >> 23u) - 0x7f;
    let j = ix & 0x007fffffu;
    ix = j | 0x3f800000u;
    var k = 0u;
    if (j > 0x1cc471u) {
        if (j < 0x5db3d7u) {
            k = 1u;
        } else {
            n += 1;
            ix -= 0x00800000u;
        }
    }
    let big = k == 1u;
    let bp = select(1.0, 1.5, big);
    let dp_h = select(0.0, 5.84960938e-01, big);
    let dp_l = select(0.0, 1.56322085e-06, big);
    let ax = bitcast<f32>(ix);
    let u = ax - bp;
    let v = 1.0 / (ax + bp);
    let s = u * v;
    let s_h = hi12(s);
    let t_h = bitcast<f32>((((ix >> 1u) & 0xfffff000u) | 0x20000000u) + 0x00400000u + (k << 21u));
    let t_l = ax - opaque(t_h - bp);
    let s_l = v * (opaque(u - s_h * t_h) - mul(s_h, t_l));
    let s2 = s * s;
    var r = mul(s2 * s2, 6.0000002384e-01 + mul(s2, 4.2857143283e-01 + mul(s2, 3.3333334327e-01
        + mul(s2, 2.7272811532e-01 + mul(s2, 2.3066075146e-01 + mul(s2, 2.0697501302e-01))))));
    r += mul(s_l, s_h + s);
    let sh2 = s_h * s_h;
    let th = hi12(opaque(3.0 + sh2) + r);
    let tl = r - (opaque(th - 3.0) - sh2);
    let pu = s_h * th;
    let pv = mul(s_l, th) + mul(tl, s);
    let p_h = hi12(pu + pv);
    let p_l = pv - opaque(p_h - pu);
    // times 2/(3 ln 2) = 9.6191406250e-01 - 1.1736857402e-04
    let z_h = 9.6191406250e-01 * p_h;
    let z_l = opaque(mul(-1.1736857402e-04, p_h) + mul(p_l, 9.6179670095e-01)) + dp_l;
    let tn = f32(n);
    let t1 = hi12(opaque(opaque(z_h + z_l) + dp_h) + tn);
    let t2 = z_l - (opaque(opaque(t1 - tn) - dp_h) - z_h);
    return vec2<f32>(t1, t2);
}

// x^y for finite x > 0 and finite y other than 0 and 1 (binary_float.wgsl's `power` decides the
// special values): 2^(y log2 x) with log2 x in two parts and the product exact in its head.
fn pow_(x0: C, y0: C) -> C {
    if (FAST_MATH) {
        return pow(x0, y0);
    }
    let x = f32(x0);
    let y = f32(y0);
    let l = log2_parts(x);
    let pr = two_prod(y, l.x);
    if (pr.x > 129.0) {
        return inf_value();
    }
    if (pr.x < -151.0) {
        return C(0);
    }
    let rest = pr.y + mul(y, l.y);
    let zh = opaque(pr.x + rest);
    let zl = opaque(pr.x - zh) + rest;
    if (zh > 128.0 || (zh == 128.0 && zl >= 0.0)) {
        return inf_value();
    }
    if (zh < -150.0 || (zh == -150.0 && zl <= 0.0)) {
        return C(0);
    }
    return C(exp2_parts(zh, zl));
}

// |x| = m 2^e with m in [1, 2), exactly, for finite non-zero x (subnormals normalised by bits).
fn mantissa_exponent(x: f32) -> vec2<f32> {
    let n = normalise(abs(x));
    let e = i32(n.bits >> 23u) - 127 + n.shift;
    return vec2<f32>(bitcast<f32>((n.bits & 0x007fffffu) | 0x3f800000u), f32(e));
}

// hypot(x, y) for finite x >= y >= 0, x > 0: both scaled by x's exponent (exactly, by bits), the
// sum of squares formed exactly in two parts, its square root corrected once, and the result
// scaled back by bits (so subnormal results are right on a flushing driver).
fn hypot_(x: C, y: C) -> C {
    let mx = mantissa_exponent(x);
    var sy = 0.0;
    if (y != 0.0) {
        let my = mantissa_exponent(y);
        let d = i32(my.y - mx.y);
        if (d >= -100) {
            sy = my.x * pow2i(d);
        }
    }
    let xx = two_prod(mx.x, mx.x);
    let yy = two_prod(sy, sy);
    let h = opaque(xx.x + yy.x);
    let he = opaque(opaque(xx.x - h) + yy.x) + opaque(xx.y + yy.y);
    let r = sqrt(h);
    let rr = two_prod(r, r);
    let c = (opaque(opaque(h - rr.x) - rr.y) + he) / (2.0 * r);
    return C(ldexp_bits(r + c, i32(mx.y)));
}

// atan2(y, x) for finite non-zero x and y (binary_float.wgsl's atan2_ decides the special
// values), musl's atan2f: atan(|y/x|) placed in its quadrant with pi in two parts. |y/x| comes
// from the mantissas and the exponent difference, so subnormal inputs and a quotient below 2^-12
// (where atan(q) rounds to q, possibly subnormal) are exact on a flushing driver.
fn atan2_quadrant(y: C, x: C) -> C {
    let my = mantissa_exponent(y);
    let mx = mantissa_exponent(x);
    let t = my.x / mx.x; // in (1/2, 2)
    let d = i32(my.y - mx.y);
    let y_negative = y < C(0);
    var z: f32;
    if (d > 26) { // |y/x| > 2^26: pi/2 - 1/|y/x| rounds to pi/2
        return select(C(1.5707963267948966), C(-1.5707963267948966), y_negative);
    } else if (d < -13) {
        z = ldexp_bits(t, d); // atan(q) = q (1 - q^2/3) rounds to q
    } else {
        z = f32(atan_(C(t * pow2i(d))));
    }
    if (x > C(0)) {
        return select(z, -z, y_negative);
    }
    let r = 3.1415927410e+00 - opaque(z + 8.7422776573e-08);
    return select(r, -r, y_negative);
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

// ---------------------------------------------------------------------------------------------
// cbrt. |x| = m 2^e with m in [1, 2) and e = 3q + r (r in 0..2), so cbrt|x| = cbrt(y) 2^q with
// y = m 2^r in [1, 8), exact. A linear guess (within 6 %) and two Halley steps give cbrt(y) to
// about 2^-38 in exact arithmetic; then fdlibm's last step: t cut to 12 bits so t t is exact, and
// t += t (y/t² - t) / (2t + y/t²), within 0.667 ulp. Products that feed sums are `mul`s, so no
// driver's fused multiply-add changes the bits.
fn cbrt_(x0: C) -> C {
    let x = f32(x0);
    if (x == 0.0 || is_nan(x) || is_inf(x)) {
        return x0;
    }
    let me = mantissa_exponent(x);
    let e = i32(me.y);
    // Floor division by 3 on a positive numerator (e >= -149): GLSL leaves `/` of negative
    // integers to the driver.
    let q = (e + 150) / 3 - 50;
    let y = me.x * f32(1u << u32(e - 3 * q));
    var t = 0.91 + mul(0.149, y);
    for (var i = 0; i < 2; i++) {
        let t3 = mul(mul(t, t), t);
        t = t * (t3 + 2.0 * y) / (2.0 * t3 + y);
    }
    t = hi12(t);
    let s = y / (t * t);
    t = t + mul(t, (s - t) / (2.0 * t + s));
    let r = t * pow2i(q);
    return C(select(r, -r, sign_bit(x)));
}

// ---------------------------------------------------------------------------------------------
// arcsinh, arccosh, arctanh: musl's asinhf, acoshf and atanhf over this file's log_ and log1p_
// (within 2 ulp, the same bits everywhere: the products that feed sums are `mul`s).

const LN2_F32: f32 = 0.693147180559945309417232121458176568;

fn asinh_(x0: C) -> C {
    if (FAST_MATH) {
        return asinh(x0);
    }
    let x = f32(x0);
    let ix = bitcast<u32>(x) & 0x7fffffffu;
    let a = bitcast<f32>(ix);
    var r: f32;
    if (ix >= 0x45800000u) { // |x| >= 2^12, infinities and NaN
        if (ix >= 0x7f800000u) {
            return x0;
        }
        r = log_(a) + LN2_F32;
    } else if (ix >= 0x40000000u) { // |x| >= 2
        r = log_(2.0 * a + 1.0 / (sqrt(mul(a, a) + 1.0) + a));
    } else if (ix >= 0x39800000u) { // |x| >= 2^-12
        r = log1p_(a + mul(a, a) / (sqrt(mul(a, a) + 1.0) + 1.0));
    } else { // x itself (zeros and subnormals keep their bits)
        return x0;
    }
    return C(select(r, -r, sign_bit(x)));
}

fn acosh_(x0: C) -> C {
    if (FAST_MATH) {
        return acosh(x0);
    }
    let x = f32(x0);
    let u = bitcast<u32>(x);
    if (is_nan(x)) {
        return x0;
    }
    if (u >= 0x80000000u || u < 0x3f800000u) { // x < 1 (and -0)
        return nan_value();
    }
    if (u < 0x40000000u) { // 1 <= x < 2
        let t = x - 1.0;
        return C(log1p_(t + sqrt(mul(t, t) + 2.0 * t)));
    }
    if (u < 0x45800000u) { // 2 <= x < 2^12
        return C(log_(2.0 * x - 1.0 / (x + sqrt(mul(x, x) - 1.0))));
    }
    if (u >= 0x7f800000u) {
        return x0;
    }
    return C(log_(x) + LN2_F32);
}

fn atanh_(x0: C) -> C {
    if (FAST_MATH) {
        return atanh(x0);
    }
    let x = f32(x0);
    let ix = bitcast<u32>(x) & 0x7fffffffu;
    let y = bitcast<f32>(ix);
    if (ix > 0x7f800000u) {
        return x0;
    }
    var r: f32;
    if (ix < 0x3f000000u) { // |x| < 0.5
        if (ix < 0x2f800000u) { // |x| < 2^-32: x itself
            return x0;
        }
        r = 0.5 * log1p_(2.0 * y + mul(2.0 * y, y) / (1.0 - y));
    } else { // 1 / 0 is infinity at |x| = 1; past it log1p of less than -1 is NaN
        r = 0.5 * log1p_(2.0 * (y / (1.0 - y)));
    }
    return C(select(r, -r, sign_bit(x)));
}

// ---------------------------------------------------------------------------------------------
// nextafter: the neighbour of a in the storage type, in the direction of b (b itself when they
// are equal, NaN when either is). Decided on the bits, never on float arithmetic with a subnormal
// (lavapipe reads subnormal inputs as zero): f32 steps its bit pattern; f16, whose values are
// f32 values, adds or subtracts its spacing at |a| exactly.

// The order of finite or infinite values as u32s (-0 just below +0).
fn order_key(x: f32) -> u32 {
    let b = bitcast<u32>(x);
    return select(b | 0x80000000u, ~b, (b >> 31u) != 0u);
}

fn nextafter_f16(a: f32, up: bool) -> f32 {
    let mag = bitcast<u32>(a) & 0x7fffffffu;
    if (mag == 0u) {
        return select(-0x1p-24f, 0x1p-24f, up);
    }
    if (mag == 0x7f800000u) {
        return select(-65504.0, 65504.0, a > 0.0);
    }
    let e = i32(mag >> 23u) - 127;
    let away = up == (a > 0.0);
    var s = pow2i(max(e, -14) - 10);
    // Just below a power of two the spacing is half as wide.
    if (!away && (mag & 0x007fffffu) == 0u && e > -14) {
        s = s * 0.5;
    }
    let m = bitcast<f32>(mag);
    var r = select(m - s, m + s, away);
    if (r > 65504.0) {
        r = inf_value();
    }
    return select(r, -r, a < 0.0);
}

fn nextafter_(a0: C, b0: C) -> C {
    let a = f32(a0);
    let b = f32(b0);
    if (is_nan(a) || is_nan(b)) {
        return nan_value();
    }
    let ka = order_key(a);
    let kb = order_key(b);
    let zeros = ((bitcast<u32>(a) | bitcast<u32>(b)) & 0x7fffffffu) == 0u;
    if (ka == kb || zeros) {
        return b0;
    }
    let up = kb > ka;
    if (STORAGE_IS_F16) {
        return C(nextafter_f16(a, up));
    }
    let bits = bitcast<u32>(a);
    if ((bits & 0x7fffffffu) == 0u) { // the smallest subnormal, towards b
        return C(bitcast<f32>(select(0x80000001u, 1u, up)));
    }
    let away = up == ((bits >> 31u) == 0u);
    return C(bitcast<f32>(select(bits - 1u, bits + 1u, away)));
}
