// The f64 distributions of philox.wgsl on a device that emulates f64: the same stream words
// (drawn by the Philox kernel as bits, in order), turned into f64 values in software binary64
// (f64_soft.wgsl) by philox.wgsl's own steps: uniform53, u54_value, ln_u54 and sincos_turns53,
// operation for operation. Random and uniform draws are exact integer scalings and one affine
// step: the same bits as the native path. Exponential and normal draws evaluate the same
// polynomials in the same order: the same bits wherever the native driver neither fuses nor
// reorders them (WGSL allows both).
//
// Prepended: mulhilo.wgsl, int64.wgsl, f64_soft.wgsl and philox_words53.wgsl (uniform53, the
// normalisation of ln_u54 and the quarter turns of sincos_turns53, shared with philox.wgsl). Four words make two outputs: pair j reads
// words 4j..4j+3 and writes outputs 2j and 2j + 1 (the last one only when `count` says so).

override WG: u32 = 256u;
override DIST: u32 = 2u;

// random/launch.rs's `Dist` codes, as philox.wgsl's.
const DIST_RANDOM_WIDE: u32 = 2u;
const DIST_UNIFORM_WIDE: u32 = 4u;
const DIST_NORMAL_WIDE: u32 = 6u;
const DIST_EXPONENTIAL_WIDE: u32 = 8u;

struct Params {
    count: u32,        // outputs in this launch
    pad: u32,
    fa: vec2<u32>,     // uniform: lo; normal: mean; exponential: scale (f64 bits)
    fb: vec2<u32>,     // uniform: hi; normal: std
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> words: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> out: array<vec2<u32>>;

// philox.wgsl's literals, as f64 bits.
const PW_LN_C1: vec2<u32> = vec2<u32>(0x9997fa04u, 0x3fd99999u); // 3.999999999940941908e-01
const PW_LN_C2: vec2<u32> = vec2<u32>(0x1d8e78afu, 0x3fcc71c5u); // 2.222219843214978396e-01
const PW_LN_C3: vec2<u32> = vec2<u32>(0xd078c69fu, 0x3fc39a09u); // 1.531383769920937332e-01
const PW_LN_C4: vec2<u32> = vec2<u32>(0x55555593u, 0x3fe55555u); // 6.666666666666735130e-01
const PW_LN_C5: vec2<u32> = vec2<u32>(0x94229359u, 0x3fd24924u); // 2.857142874366239149e-01
const PW_LN_C6: vec2<u32> = vec2<u32>(0x96cb03deu, 0x3fc74664u); // 1.818357216161805012e-01
const PW_LN_C7: vec2<u32> = vec2<u32>(0xdf3e5244u, 0x3fc2f112u); // 1.479819860511658591e-01
const PW_LN2_LO: vec2<u32> = vec2<u32>(0x35793c76u, 0x3dea39efu); // 1.90821492927058770002e-10
const PW_LN2_HI: vec2<u32> = vec2<u32>(0xfee00000u, 0x3fe62e42u); // 6.93147180369123816490e-01
const PW_SQRT2: vec2<u32> = vec2<u32>(0x667f3bcdu, 0x3ff6a09eu); // 1.4142135623730951
const PW_TURN: vec2<u32> = vec2<u32>(0x54442d18u, 0x3cc921fbu); // 2 pi / 2^53
const PW_S1: vec2<u32> = vec2<u32>(0x55555549u, 0xbfc55555u); // -1.66666666666666324348e-01
const PW_S2: vec2<u32> = vec2<u32>(0x1110f8a6u, 0x3f811111u); // 8.33333333332248946124e-03
const PW_S3: vec2<u32> = vec2<u32>(0x19c161d5u, 0xbf2a01a0u); // -1.98412698298579493134e-04
const PW_S4: vec2<u32> = vec2<u32>(0x57b1fe7du, 0x3ec71de3u); // 2.75573137070700676789e-06
const PW_S5: vec2<u32> = vec2<u32>(0x8a2b9cebu, 0xbe5ae5e6u); // -2.50507602534068634195e-08
const PW_S6: vec2<u32> = vec2<u32>(0x5acfd57cu, 0x3de5d93au); // 1.58969099521155010221e-10
const PW_C1: vec2<u32> = vec2<u32>(0x5555554cu, 0x3fa55555u); // 4.16666666666666019037e-02
const PW_C2: vec2<u32> = vec2<u32>(0x16c15177u, 0xbf56c16cu); // -1.38888888888741095749e-03
const PW_C3: vec2<u32> = vec2<u32>(0x19cb1590u, 0x3efa01a0u); // 2.48015872894767294178e-05
const PW_C4: vec2<u32> = vec2<u32>(0x809c52adu, 0xbe927e4fu); // -2.75573143513906633035e-07
const PW_C5: vec2<u32> = vec2<u32>(0xbdb4b1c4u, 0x3e21ee9eu); // 2.08757232129817482790e-09
const PW_C6: vec2<u32> = vec2<u32>(0xbe8838d4u, 0xbda8fae9u); // -1.13596475577881948265e-11
const PW_P2_M54: vec2<u32> = vec2<u32>(0u, 0x3c900000u);
const PW_P2_M53: vec2<u32> = vec2<u32>(0u, 0x3ca00000u);
const PW_P2_M52: vec2<u32> = vec2<u32>(0u, 0x3cb00000u);
const PW_P2_32: vec2<u32> = vec2<u32>(0u, 0x41f00000u);
const PW_ONE: vec2<u32> = vec2<u32>(0u, 0x3ff00000u);
const PW_TWO: vec2<u32> = vec2<u32>(0u, 0x40000000u);
const PW_HALF: vec2<u32> = vec2<u32>(0u, 0x3fe00000u);
const PW_MINUS_TWO: vec2<u32> = vec2<u32>(0u, 0xc0000000u);

fn add(x: vec2<u32>, y: vec2<u32>) -> vec2<u32> { return f64s_add(x, y); }
fn sub(x: vec2<u32>, y: vec2<u32>) -> vec2<u32> { return f64s_sub(x, y); }
fn mul(x: vec2<u32>, y: vec2<u32>) -> vec2<u32> { return f64s_mul(x, y); }
fn neg(x: vec2<u32>) -> vec2<u32> { return vec2<u32>(x.x, x.y ^ 0x80000000u); }
fn ge(x: vec2<u32>, y: vec2<u32>) -> bool { return f64s_lt(y, x) || f64s_eq(x, y); }

// hi 2^32 + lo (< 2^53), exactly: philox.wgsl's F(hi) * F(4294967296.0) + F(lo).
fn from_words(hi: u32, lo: u32) -> vec2<u32> {
    return f64s_from_u64(vec2<u32>(lo, hi));
}

fn u54_value(k: vec2<u32>) -> vec2<u32> {
    let even = (k.y & 1u) == 0u;
    let hi = select(k.x, k.x >> 1u, even);
    let lo = select(k.y, (k.y >> 1u) | (k.x << 31u), even);
    return mul(from_words(hi, lo), select(PW_P2_M54, PW_P2_M53, even));
}

fn ln_u54(k: vec2<u32>) -> vec2<u32> {
    let nk = u54_normalized(k);
    let top = nk.z;
    var m = mul(from_words(nk.x, nk.y), PW_P2_M52);
    let big = f64s_lt(PW_SQRT2, m);
    m = select(m, mul(m, PW_HALF), big);
    let kexp = i32(top) - 54 + select(0, 1, big);
    let f = sub(m, PW_ONE);
    let hfsq = mul(mul(PW_HALF, f), f);
    let s = f64s_div(f, add(PW_TWO, f));
    let z = mul(s, s);
    let w = mul(z, z);
    let t1 = mul(w, add(PW_LN_C1, mul(w, add(PW_LN_C2, mul(w, PW_LN_C3)))));
    let t2 = mul(z, add(PW_LN_C4, mul(w, add(PW_LN_C5, mul(w, add(PW_LN_C6, mul(w, PW_LN_C7)))))));
    let dk = f64s_from_i64(vec2<u32>(bitcast<u32>(kexp), select(0u, 0xffffffffu, kexp < 0)));
    let sum = add(mul(s, add(add(hfsq, t2), t1)), mul(dk, PW_LN2_LO));
    return add(add(sub(sum, hfsq), f), mul(dk, PW_LN2_HI));
}

// (sin, cos) of cuRAND's Box-Muller angle, as philox.wgsl's sincos_turns53.
fn sincos_turns53(y0: u32, y1: u32) -> array<vec2<u32>, 2> {
    let q = quarter_turns53(y0, y1);
    let n = q.x;
    let dhi = bitcast<i32>(q.y);
    let dh = f64s_from_i64(vec2<u32>(q.y, select(0u, 0xffffffffu, dhi < 0)));
    let d = add(mul(dh, PW_P2_32), from_words(0u, q.z));
    let a = mul(add(d, PW_HALF), PW_TURN);
    let z = mul(a, a);
    let sr = add(PW_S1, mul(z, add(PW_S2, mul(z, add(PW_S3, mul(z, add(PW_S4, mul(z, add(PW_S5, mul(z, PW_S6))))))))));
    let s = add(a, mul(mul(a, z), sr));
    let cr = add(PW_C1, mul(z, add(PW_C2, mul(z, add(PW_C3, mul(z, add(PW_C4, mul(z, add(PW_C5, mul(z, PW_C6))))))))));
    let c = add(sub(PW_ONE, mul(PW_HALF, z)), mul(mul(z, z), cr));
    let odd = (n & 1u) == 1u;
    let sv = select(s, c, odd);
    let cv = select(c, s, odd);
    return array<vec2<u32>, 2>(select(sv, neg(sv), (n & 2u) != 0u), select(cv, neg(cv), ((n + 1u) & 2u) != 0u));
}

fn random_wide(x: u32, y: u32) -> vec2<u32> {
    let v = u54_value(uniform53(x, y));
    return select(v, vec2<u32>(0u), ge(v, PW_ONE));
}

fn affine_wide(u: vec2<u32>) -> vec2<u32> {
    let v = add(p.fa, mul(sub(p.fb, p.fa), u));
    return select(v, p.fa, ge(v, p.fb));
}

fn exponential(x: u32, y: u32) -> vec2<u32> {
    return mul(sub(vec2<u32>(0u), ln_u54(uniform53(x, y))), p.fa);
}

fn wide2(w: vec4<u32>) -> array<vec2<u32>, 2> {
    switch (DIST) {
        case DIST_UNIFORM_WIDE: {
            return array<vec2<u32>, 2>(affine_wide(random_wide(w.x, w.y)), affine_wide(random_wide(w.z, w.w)));
        }
        case DIST_NORMAL_WIDE: {
            let s = f64s_sqrt(mul(PW_MINUS_TWO, ln_u54(uniform53(w.x, w.y))));
            let sc = sincos_turns53(w.z, w.w);
            return array<vec2<u32>, 2>(add(p.fa, mul(p.fb, mul(s, sc[0]))), add(p.fa, mul(p.fb, mul(s, sc[1]))));
        }
        case DIST_EXPONENTIAL_WIDE: {
            return array<vec2<u32>, 2>(exponential(w.x, w.y), exponential(w.z, w.w));
        }
        case DIST_RANDOM_WIDE: {
            return array<vec2<u32>, 2>(random_wide(w.x, w.y), random_wide(w.z, w.w));
        }
        default: {}
    }
    return array<vec2<u32>, 2>(vec2<u32>(0u), vec2<u32>(0u));
}

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let j = (wid.y * nwg.x + wid.x) * WG + lid;
    if (2u * j >= p.count) {
        return;
    }
    let v = wide2(words[j]);
    out[2u * j] = v[0];
    if (2u * j + 1u < p.count) {
        out[2u * j + 1u] = v[1];
    }
}
