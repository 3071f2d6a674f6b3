// Ozaki scheme (the CRT variant, Ozaki-II), step two: each f64 element of A or B as a 53-bit
// integer at its vector's shared exponent (ozaki_exponents.wgsl), then that integer modulo each
// of the scheme's small odd moduli, as f32 values in (-m/2, m/2): exact small integers, so the
// f32 matmul of two residue matrices is the exact integer product (every partial sum stays below
// 2^24 in magnitude: at most 512 terms of at most 181^2). Also |y| as f32, y the element scaled
// into (-1, 1), for the f32 matmul that estimates sum |a| |b| (ozaki_combine.wgsl's accuracy
// test).
//
// Prepended: mulhilo.wgsl, int64.wgsl and mod_small.wgsl.
//
// With E the vector's biased exponent and x = m 2^(e - 1075) (m the 53-bit significand, e >= 1),
// x / 2^(E - 1022) scaled by 2^53 is m 2^(e - E): the integer Y = m >> (E - e), truncated toward
// zero (the error is below one unit of 2^-53 of the vector's largest magnitude). Infinities and
// NaN give 0: their vectors' outputs take the direct path.

override WG: u32 = 256u;

struct Params {
    count: u32,     // elements of the operand, a multiple of 4 (ozaki.rs pads k to one)
    k: u32,         // length of the contraction axis
    inner: u32,     // 1 for A, the number of columns for B
    moduli: u32,    // how many moduli (residue planes) to write
    // Per modulus m, two entries: (m, 2^13 mod m, 2^26 mod m, 0) and (2^39 mod m, 2^52 mod m, 0,
    // 0). A uniform, not storage: every lane reads the same entry, which llvmpipe then loads
    // once, not lane by lane.
    table: array<vec4<u32>, 32>,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> x: array<vec2<u32>>;
@group(0) @binding(2) var<storage, read> exps: array<u32>;
// Plane t (modulus t) holds elements t * count .. (t + 1) * count, four per vec4: one store per
// plane for an invocation's four elements (llvmpipe stores lane by lane).
@group(0) @binding(3) var<storage, read_write> residues: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read_write> magnitude: array<vec4<f32>>;

// Element e's integer Y (two words) and whether it is negative.
fn integer_of(e: u32) -> vec3<u32> {
    let bits = x[e];
    let biased = (bits.y >> 20u) & 0x7ffu;
    let shared_exp = exps[(e / (p.k * p.inner)) * p.inner + e % p.inner];
    var y = vec2<u32>(0u, 0u);
    if (biased != 0x7ffu && shared_exp != 0x7ffu) {
        var sig = vec2<u32>(bits.x, bits.y & 0xfffffu);
        if (biased != 0u) {
            sig.y = sig.y | 0x100000u;
        }
        let drop = shared_exp - max(biased, 1u);
        if (drop < 64u) {
            y = shr64(sig, drop);
        }
    }
    return vec3<u32>(y, bits.y >> 31u);
}

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let quad = (wid.y * nwg.x + wid.x) * WG + lid;
    if (4u * quad >= p.count) {
        return;
    }
    let y0 = integer_of(4u * quad);
    let y1 = integer_of(4u * quad + 1u);
    let y2 = integer_of(4u * quad + 2u);
    let y3 = integer_of(4u * quad + 3u);
    let lo = vec4<u32>(y0.x, y1.x, y2.x, y3.x);
    let hi = vec4<u32>(y0.y, y1.y, y2.y, y3.y);
    let negative = vec4<u32>(y0.z, y1.z, y2.z, y3.z) != vec4<u32>(0u);
    // |y| 2^-53 in f32: both words exactly, the sum rounded once (an estimate is all it serves).
    magnitude[quad] = (vec4<f32>(hi) * 4294967296.0 + vec4<f32>(lo)) * 1.1102230246251565e-16;
    // Y (below 2^53) in five 13-bit limbs: Y mod m is the limbs weighted by 2^(13 i) mod m,
    // a sum below 2^24, reduced once.
    let limb0 = lo & vec4<u32>(0x1fffu);
    let limb1 = (lo >> vec4<u32>(13u)) & vec4<u32>(0x1fffu);
    let limb2 = (lo >> vec4<u32>(26u)) | ((hi & vec4<u32>(0x7fu)) << vec4<u32>(6u));
    let limb3 = (hi >> vec4<u32>(7u)) & vec4<u32>(0x1fffu);
    let limb4 = hi >> vec4<u32>(20u);
    let plane = p.count / 4u;
    for (var t = 0u; t < p.moduli; t += 1u) {
        let m = p.table[2u * t];
        let w = p.table[2u * t + 1u];
        let inv = 1.0 / f32(m.x);
        let sum = limb0 + limb1 * m.y + limb2 * m.z + limb3 * w.x + limb4 * w.y;
        let r = mod_small4(sum, m.x, inv);
        let flipped = select(vec4<u32>(m.x) - r, vec4<u32>(0u), r == vec4<u32>(0u));
        let signed_r = select(r, flipped, negative);
        // The representative in (-m/2, m/2) (m is odd).
        let value = vec4<f32>(signed_r);
        residues[t * plane + quad] = select(value, value - f32(m.x), 2u * signed_r > vec4<u32>(m.x));
    }
}
