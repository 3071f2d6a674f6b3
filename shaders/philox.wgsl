// Philox4x32-10 (Random123; Salmon et al., SC'11) in cuRAND's device-API stream layout, and the
// distributions built on it.
//
// The host prepends `alias T = ..;` (the stored element type) and `alias F = ..;` (f64 for f64
// arrays, f32 otherwise: the "wide" 53-bit distributions compute in F), then a backend:
// philox_u32.wgsl (32-bit arithmetic only, as WebGPU has) or philox_u64.wgsl (SHADER_INT64, for
// 4-byte element types), which supplies mulhilo(), binding 2 and the unit stores, and
// philox_words53.wgsl (the integer halves of the 53-bit draws). The two backends give the same
// bits. Everything else is chosen by override constants: DIST picks the distribution,
// OUT16 marks f16 output, PHASED runs that start inside a block.
//
// Stream layout. Word e of a stream is word (e % 4) of philox(counter, key) for the block counter
// floor(e / 4) (128 bits, words little-endian). A launch covers a contiguous run of words:
// `p.ctr` is the counter of the block holding the run's first word and `p.phase` that word's
// index within it (0..3). The host computes both in 128-bit arithmetic; the shader only adds a
// launch-relative u32 block index, carrying across the four words. Every invocation computes
// whole blocks from (key, counter) alone, so results never depend on workgroup size, launch
// boundaries or adapter.
//
// Units. An invocation handles units of 16 consecutive words of the run (words 16u .. 16u+15):
// four Philox blocks computed side by side, which gives CPUs such as lavapipe the independent
// work their pipelines need (one block's ten rounds are one long dependency chain), plus a fifth
// block when the phase is not 0 (the PHASED pipelines). A unit yields 16 outputs of a one-word distribution, or 8 of a
// wide one (f64 uniforms and exponentials: 53 bits from 2 words; f64 normals: 4 words per pair),
// stored as whole vec4s. There is no per-element bounds test: on SIMD CPUs a divergent branch
// around stores costs its stores even when no lane takes it, so the host makes every launch
// whole units (a draw's partial last unit goes to a scratch unit, then is copied).
//
// Exactness. WGSL lets f32(u32) and the float operators round to either neighbour, so the uniform
// conversions never apply them to inexact values: curand_uniform's RN(RN(x) 2^-32 + 2^-33) is
// assembled bit by bit in integer arithmetic, and the f64 uniform is an integer below 2^53 times
// a power of two; converting such an integer and scaling it is exact in any implementation. Normals and exponentials use the log /
// sin / cos kernels below (WGSL's built-ins are only 2^-11 absolute-accurate): a few ulp from
// the exact values, but not bit-identical across adapters. Per-lane conditions are written as
// select()s: a divergent branch costs both sides on SIMD CPUs anyway.

override WG: u32 = 64u;
// Units (or integer tiles) per invocation; consecutive invocations take consecutive units.
override EPT: u32 = 1u;
override DIST: u32 = 0u;
// 1 when T is f16: uniforms are rounded to f16 exactly (in integer arithmetic) before storing.
override OUT16: u32 = 0u;
// 1 for runs that start inside a block (phase 1..3): a fifth block and word shifting per unit.
// A separate pipeline, because SIMD CPUs run both sides of a branch even when it is uniform.
override PHASED: u32 = 0u;

const DIST_BITS: u32 = 0u;          // raw words (u32)
const DIST_RANDOM: u32 = 1u;        // [0, 1), f32 (or f16): curand_uniform, 1.0 -> 0.0
const DIST_RANDOM_WIDE: u32 = 2u;   // [0, 1), f64: _curand_uniform_double_hq, 1.0 -> 0.0
const DIST_UNIFORM: u32 = 3u;       // lo + (hi - lo) * random, a result of hi -> lo
const DIST_UNIFORM_WIDE: u32 = 4u;
const DIST_NORMAL: u32 = 5u;        // mean + std * Box-Muller (curand_normal4 pairing)
const DIST_NORMAL_WIDE: u32 = 6u;   // the same in F (curand_normal2_double: 4 words per pair)
const DIST_EXPONENTIAL: u32 = 7u;   // -scale * ln(curand_uniform)
const DIST_EXPONENTIAL_WIDE: u32 = 8u;
const DIST_BERNOULLI: u32 = 9u;     // word < threshold (probability exactly threshold / 2^32)
const DIST_INT_DIRECT: u32 = 10u;   // lo + (word * range) >> 32 for power-of-two ranges (no rejection)
const DIST_INT_COUNT: u32 = 11u;    // integers, pass 1: accepted words per tile (Lemire rejection)
const DIST_INT_EMIT: u32 = 12u;     // integers, pass 2: accepted values at their output positions

// The 53-bit distributions: 8 outputs per unit.
override WIDE: bool = DIST == DIST_RANDOM_WIDE || DIST == DIST_UNIFORM_WIDE || DIST == DIST_NORMAL_WIDE || DIST == DIST_EXPONENTIAL_WIDE;

// Units per integer tile: one invocation walks a tile (16 units = 256 words) in order.
const TILE_UNITS: u32 = 16u;

const M0: u32 = 0xD2511F53u;
const M1: u32 = 0xCD9E8D57u;
const W0: u32 = 0x9E3779B9u;
const W1: u32 = 0xBB67AE85u;

struct Params {
    ctr: vec4<u32>,     // counter of the block holding the run's first word
    key: vec2<u32>,     // (seed lo, seed hi)
    phase: u32,         // index of the run's first word in that block (0..3)
    count: u32,         // integer pass 2: outputs in the window
    units: u32,         // units (or integer tiles) in this launch
    ilo: u32,           // integers: lo (two's complement); bernoulli: threshold
    irange: u32,        // integers: hi - lo (0 means 2^32); bernoulli: 1 when p == 1
    ithresh: u32,       // integers: Lemire's rejection threshold 2^32 mod range
    fa: F,              // uniform: lo; normal: mean; exponential: scale
    fb: F,              // uniform: hi; normal: std
}

// A storage binding, not `var<uniform>`: lavapipe specialises a shader for the values of the
// uniforms it finds steering the code (here the counter, in phased runs), compiling and keeping
// one more variant for every distinct value — 150 ms and 1.2 MB per draw from a stream whose
// offset is not a multiple of 4, since every draw starts at a new counter. `main` copies it into
// the private `p` first: the compiler keeps a private copy in registers, where it reloaded the
// storage binding at every use (it cannot tell the binding from the output it writes), which
// cost 10 % of standard_normal's speed.
@group(0) @binding(0) var<storage, read> params: Params;
var<private> p: Params;
// The output window element by element (integer pass 2). The backend declares binding 2, the
// same window as vectors, and the unit stores.
@group(0) @binding(1) var<storage, read_write> dst: array<T>;
// Integer passes: per-tile counts (pass 1) or output positions (pass 2). Other launches bind the
// output window here too and never touch it.
@group(0) @binding(3) var<storage, read_write> aux: array<u32>;

// ---- Philox4x32-10 ----------------------------------------------------------------------------

fn philox_round(c: vec4<u32>, k: vec2<u32>) -> vec4<u32> {
    let p0 = mulhilo(M0, c.x);
    let p1 = mulhilo(M1, c.z);
    return vec4<u32>(p1.x ^ c.y ^ k.x, p1.y, p0.x ^ c.w ^ k.y, p0.y);
}

// philox4x32_R(10, counter, key): a round with the key, then 9 x (bump the key, round).
fn philox(counter: vec4<u32>, key: vec2<u32>) -> vec4<u32> {
    var c = philox_round(counter, key);
    var k = key;
    for (var r = 1u; r < 10u; r += 1u) {
        k += vec2<u32>(W0, W1);
        c = philox_round(c, k);
    }
    return c;
}

// The 128-bit counter c + n.
fn add_ctr(c: vec4<u32>, n: u32) -> vec4<u32> {
    let x = c.x + n;
    let carry0 = select(0u, 1u, x < n);
    let y = c.y + carry0;
    let carry1 = select(0u, 1u, y < carry0);
    let z = c.z + carry1;
    let carry2 = select(0u, 1u, z < carry1);
    return vec4<u32>(x, y, z, c.w + carry2);
}

// Sixteen consecutive words: four vec4s.
struct Unit {
    a: vec4<u32>,
    b: vec4<u32>,
    c: vec4<u32>,
    d: vec4<u32>,
}

// Words 4 .. 7 of (lo, hi) shifted left by the run's phase (uniform control flow).
fn shifted(lo: vec4<u32>, hi: vec4<u32>) -> vec4<u32> {
    switch (p.phase) {
        case 1u: { return vec4<u32>(lo.y, lo.z, lo.w, hi.x); }
        case 2u: { return vec4<u32>(lo.z, lo.w, hi.x, hi.y); }
        case 3u: { return vec4<u32>(lo.w, hi.x, hi.y, hi.z); }
        default: { return lo; }
    }
}

// Words 16u .. 16u+15 of the run: blocks 4u .. 4u+3 (and 4u+4 when the phase is not 0).
fn unit_words(u: u32) -> Unit {
    let c0 = add_ctr(p.ctr, 4u * u);
    var a = philox_round(c0, p.key);
    var b = philox_round(add_ctr(c0, 1u), p.key);
    var c = philox_round(add_ctr(c0, 2u), p.key);
    var d = philox_round(add_ctr(c0, 3u), p.key);
    var k = p.key;
    for (var r = 1u; r < 10u; r += 1u) {
        k += vec2<u32>(W0, W1);
        a = philox_round(a, k);
        b = philox_round(b, k);
        c = philox_round(c, k);
        d = philox_round(d, k);
    }
    if (PHASED == 0u) {
        return Unit(a, b, c, d);
    }
    let e = philox(add_ctr(c0, 4u), p.key);
    return Unit(shifted(a, b), shifted(b, c), shifted(c, d), shifted(d, e));
}

// ---- f32 uniforms, exactly ----------------------------------------------------------------------

// The bits of cuRAND's curand_uniform(x) = RN(RN(x) 2^-32 + 2^-33), in (0, 1], built in integer
// arithmetic as an exact value k 2^e rounded to 24 bits (the only rounding there is):
//   x < 2^23:          (2x + 1) 2^-33         (x + 1/2 is exact)
//   2^23 <= x < 2^24:  (x + (x & 1)) 2^-32    (a tie, to even)
//   x >= 2^24:         RN24(x) 2^-32          (+ 2^-33 is below half an ulp)
// k is normalised to bit 31, its top 24 bits are the significand and the rest rounds it to
// nearest, ties to even; adding the rounding to the whole bit pattern carries into the exponent.
fn curand_uniform_bits(x: u32) -> u32 {
    let small = x < 0x800000u;
    let k = select(x, select(x + (x & 1u), 2u * x + 1u, small), x < 0x1000000u);
    let lz = countLeadingZeros(k);
    let m = k << lz;
    let q = m >> 8u;
    let rem = m & 0xffu;
    let up = select(0u, 1u, rem > 0x80u || (rem == 0x80u && (q & 1u) == 1u));
    // The value is m 2^(e - lz) with m in [2^31, 2^32): biased exponent 31 + e - lz + 127, minus
    // one for the leading bit q carries into the exponent field.
    let biased = select(125u, 124u, small) - lz; // 31 + 127 - 1 + e, e = -32 or -33
    return (biased << 23u) + q + up;
}

// The f16 rounding (to nearest, ties to even) of the positive normal f32 with these bits, for
// values in [2^-33, 1], as an f32: representable in f16, so converting it to f16 is exact.
fn round_to_f16(bits: u32) -> f32 {
    let e = i32(bits >> 23u) - 127;
    let m = (bits & 0x7fffffu) | 0x800000u;
    // Bits dropped from the 24-bit significand: 13 for f16 normals, more for subnormals.
    let sh = u32(max(13, -1 - e));
    let s = min(sh, 31u);
    let q = select(m >> s, 0u, sh > 31u);
    let rem = m & ((1u << s) - 1u);
    let half = 1u << (s - 1u);
    let up = sh <= 25u && (rem > half || (rem == half && (q & 1u) == 1u));
    let r = q + select(0u, 1u, up);
    // r 2^(e + sh - 23) with r <= 2^11 (exact: f32(r) is, and the scale is a power of two).
    return f32(r) * bitcast<f32>(u32(127 + e + i32(sh) - 23) << 23u);
}

// curand_uniform(x) with 1.0 mapped to 0.0 (range [0, 1)), at the output's precision.
fn random01(x: u32) -> f32 {
    var v = bitcast<f32>(curand_uniform_bits(x));
    if (OUT16 == 1u) {
        v = round_to_f16(bitcast<u32>(v));
    }
    return select(v, 0.0, v >= 1.0);
}

// ---- f32 log and sincos (musl logf in ln_bits.wgsl; Cephes sinf/cosf kernels) ----------------------


// (sin, cos) of n pi/2 + a from sin a and cos a: swap for odd n, flip signs by quadrant.
fn quadrant(s: f32, c: f32, n: u32) -> vec2<f32> {
    let odd = (n & 1u) == 1u;
    let sv = select(s, c, odd);
    let cv = select(c, s, odd);
    return vec2<f32>(
        bitcast<f32>(bitcast<u32>(sv) ^ ((n & 2u) << 30u)),
        bitcast<f32>(bitcast<u32>(cv) ^ (((n + 1u) & 2u) << 30u)),
    );
}

// (sin, cos) of 2 pi (y + 1/2) / 2^32: the angle of cuRAND's _curand_box_muller, reduced exactly
// in integer arithmetic to a quarter turn n and a remainder a in [-pi/4, pi/4].
fn sincos_turns(y: u32) -> vec2<f32> {
    let n = (y + 0x20000000u) >> 30u;
    let d = i32(y - (n << 30u));
    let a = (f32(d) + 0.5) * 1.4629180792671596e-09; // 2 pi / 2^32
    let z = a * a;
    let s = a + a * z * (-1.6666654611e-1 + z * (8.3321608736e-3 + z * -1.9515295891e-4));
    let c = 1.0 - 0.5 * z + z * z * (4.166664568298827e-2 + z * (-1.388731625493765e-3 + z * 2.443315711809948e-5));
    return quadrant(s, c, n);
}

// cuRAND's _curand_box_muller(x, y): sqrt(-2 ln u) * (sin v, cos v).
fn box_muller(x: u32, y: u32) -> vec2<f32> {
    let s = sqrt(-2.0 * ln_bits(curand_uniform_bits(x), 0));
    return s * sincos_turns(y);
}

// ---- wide (F) uniforms, log and sincos (fdlibm kernels) -------------------------------------------

// K 2^-54, exactly: an even K is halved first so both parts stay below 2^53.
fn u54_value(k: vec2<u32>) -> F {
    let even = (k.y & 1u) == 0u;
    let hi = select(k.x, k.x >> 1u, even);
    let lo = select(k.y, (k.y >> 1u) | (k.x << 31u), even);
    let scale = select(F(5.551115123125783e-17), F(1.1102230246251565e-16), even); // 2^-54, 2^-53
    return (F(hi) * F(4294967296.0) + F(lo)) * scale;
}

// ln(K 2^-54) for 0 < K <= 2^54 (fdlibm's log kernel on the normalised significand).
fn ln_u54(k: vec2<u32>) -> F {
    let nk = u54_normalized(k);
    let top = nk.z;
    var m = (F(nk.x) * F(4294967296.0) + F(nk.y)) * F(2.220446049250313e-16); // 2^-52
    let big = m > F(1.4142135623730951);
    m = select(m, m * F(0.5), big);
    let kexp = i32(top) - 54 + select(0, 1, big);
    let f = m - F(1.0);
    let hfsq = F(0.5) * f * f;
    let s = f / (F(2.0) + f);
    let z = s * s;
    let w = z * z;
    let t1 = w * (F(3.999999999940941908e-01) + w * (F(2.222219843214978396e-01) + w * F(1.531383769920937332e-01)));
    let t2 = z * (F(6.666666666666735130e-01) + w * (F(2.857142874366239149e-01) + w * (F(1.818357216161805012e-01) + w * F(1.479819860511658591e-01))));
    let dk = F(kexp);
    return s * (hfsq + t2 + t1) + dk * F(1.90821492927058770002e-10) - hfsq + f + dk * F(6.93147180369123816490e-01);
}

// (sin, cos) of pi v with v = zy 2^-52 + 2^-53, zy = y0 ^ (y1 << 21): cuRAND's
// _curand_box_muller_double angle, 2 pi (zy + 1/2) / 2^53, reduced exactly.
fn sincos_turns53(y0: u32, y1: u32) -> vec2<F> {
    let q = quarter_turns53(y0, y1);
    let n = q.x;
    let d = F(bitcast<i32>(q.y)) * F(4294967296.0) + F(q.z);
    let a = (d + F(0.5)) * F(6.975736996017264e-16); // 2 pi / 2^53
    let z = a * a;
    let sr = F(-1.66666666666666324348e-01) + z * (F(8.33333333332248946124e-03) + z * (F(-1.98412698298579493134e-04) + z * (F(2.75573137070700676789e-06) + z * (F(-2.50507602534068634195e-08) + z * F(1.58969099521155010221e-10)))));
    let s = a + a * z * sr;
    let cr = F(4.16666666666666019037e-02) + z * (F(-1.38888888888741095749e-03) + z * (F(2.48015872894767294178e-05) + z * (F(-2.75573143513906633035e-07) + z * (F(2.08757232129817482790e-09) + z * F(-1.13596475577881948265e-11)))));
    let c = F(1.0) - F(0.5) * z + z * z * cr;
    let odd = (n & 1u) == 1u;
    let sv = select(s, c, odd);
    let cv = select(c, s, odd);
    return vec2<F>(select(sv, -sv, (n & 2u) != 0u), select(cv, -cv, ((n + 1u) & 2u) != 0u));
}

fn random_wide(x: u32, y: u32) -> F {
    let v = u54_value(uniform53(x, y));
    return select(v, F(0.0), v >= F(1.0));
}

// ---- distributions ------------------------------------------------------------------------------

// lo + (hi - lo) u, with a result that rounds up to hi mapped to lo (range [lo, hi)).
fn affine(u: f32) -> T {
    let lo = f32(p.fa);
    let hi = f32(p.fb);
    let v = T(lo + (hi - lo) * u);
    return select(v, T(lo), v >= T(hi));
}

fn affine_wide(u: F) -> T {
    let v = p.fa + (p.fb - p.fa) * u;
    return T(select(v, p.fa, v >= p.fb));
}

fn exponential(x: u32) -> T {
    return T((0.0 - ln_bits(curand_uniform_bits(x), 0)) * f32(p.fa));
}

fn bernoulli(x: u32) -> T {
    return T(select(0u, 1u, p.irange == 1u || x < p.ilo));
}

// The integer lo + hi as T (T(i32) reinterprets the bits for u32, is the identity for i32).
fn int_value(hi: u32) -> T {
    return T(bitcast<i32>(p.ilo + hi));
}

fn int_direct(x: u32) -> T {
    // range = 2^k: (x 2^k) >> 32 needs no rejection; range 2^32 (irange 0) is x itself.
    return int_value(select(mulhilo(x, p.irange).x, x, p.irange == 0u));
}

// Four outputs of a one-word distribution from four words.
fn narrow4(w: vec4<u32>) -> vec4<T> {
    switch (DIST) {
        case DIST_RANDOM: {
            return vec4<T>(T(random01(w.x)), T(random01(w.y)), T(random01(w.z)), T(random01(w.w)));
        }
        case DIST_UNIFORM: {
            return vec4<T>(affine(random01(w.x)), affine(random01(w.y)), affine(random01(w.z)), affine(random01(w.w)));
        }
        case DIST_NORMAL: {
            let a = box_muller(w.x, w.y);
            let b = box_muller(w.z, w.w);
            let mean = f32(p.fa);
            let sd = f32(p.fb);
            return vec4<T>(vec4<f32>(mean) + sd * vec4<f32>(a, b));
        }
        case DIST_EXPONENTIAL: {
            return vec4<T>(exponential(w.x), exponential(w.y), exponential(w.z), exponential(w.w));
        }
        case DIST_BERNOULLI: {
            return vec4<T>(bernoulli(w.x), bernoulli(w.y), bernoulli(w.z), bernoulli(w.w));
        }
        case DIST_INT_DIRECT: {
            return vec4<T>(int_direct(w.x), int_direct(w.y), int_direct(w.z), int_direct(w.w));
        }
        default: {
            return vec4<T>(w); // DIST_BITS
        }
    }
}

// Two outputs of a wide distribution from four words.
fn wide2(w: vec4<u32>) -> vec2<T> {
    switch (DIST) {
        case DIST_UNIFORM_WIDE: {
            return vec2<T>(affine_wide(random_wide(w.x, w.y)), affine_wide(random_wide(w.z, w.w)));
        }
        case DIST_NORMAL_WIDE: {
            let s = sqrt(F(-2.0) * ln_u54(uniform53(w.x, w.y)));
            let sc = s * sincos_turns53(w.z, w.w);
            return vec2<T>(vec2<F>(p.fa) + p.fb * sc);
        }
        case DIST_EXPONENTIAL_WIDE: {
            return vec2<T>(
                T((F(0.0) - ln_u54(uniform53(w.x, w.y))) * p.fa),
                T((F(0.0) - ln_u54(uniform53(w.z, w.w))) * p.fa),
            );
        }
        default: {
            return vec2<T>(T(random_wide(w.x, w.y)), T(random_wide(w.z, w.w))); // DIST_RANDOM_WIDE
        }
    }
}

// Unit u's outputs, as vec4s. Launches cover whole units: the host generates a draw's last,
// partial unit into a scratch unit and copies the part it needs.
fn emit_unit(u: u32) {
    let w = unit_words(u);
    if (WIDE) {
        store_wide(u, vec4<T>(wide2(w.a), wide2(w.b)), vec4<T>(wide2(w.c), wide2(w.d)));
    } else {
        store_narrow(u, narrow4(w.a), narrow4(w.b), narrow4(w.c), narrow4(w.d));
    }
}

// ---- integers in [lo, lo + range) by Lemire's method with rejection, in two passes --------------

// Counts (pass 1) or writes (pass 2) the accepted words of four words, in order.
fn lemire4(w: vec4<u32>, pos: ptr<function, u32>, emit: bool) {
    for (var k = 0u; k < 4u; k += 1u) {
        let m = mulhilo(w[k], p.irange);
        if (m.y >= p.ithresh) {
            if (emit && *pos < p.count) {
                dst[*pos] = int_value(m.x);
            }
            *pos += 1u;
        }
    }
}

// Tile t = units 16t .. 16t+15. Pass 1 stores its accepted count in aux[t]; pass 2 writes its
// accepted values from output aux[t] on.
fn walk_tile(t: u32, emit: bool) {
    var pos = 0u;
    if (emit) {
        pos = aux[t];
    }
    let start = pos;
    for (var j = 0u; j < TILE_UNITS; j += 1u) {
        let w = unit_words(t * TILE_UNITS + j);
        lemire4(w.a, &pos, emit);
        lemire4(w.b, &pos, emit);
        lemire4(w.c, &pos, emit);
        lemire4(w.d, &pos, emit);
    }
    if (!emit) {
        aux[t] = pos - start;
    }
}

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    p = params;
    let first = (wid.y * nwg.x + wid.x) * WG * EPT + lid;
    for (var e = 0u; e < EPT; e += 1u) {
        let u = first + e * WG;
        if (u >= p.units) {
            break;
        }
        if (DIST == DIST_INT_COUNT) {
            walk_tile(u, false);
        } else if (DIST == DIST_INT_EMIT) {
            walk_tile(u, true);
        } else {
            emit_unit(u);
        }
    }
}
