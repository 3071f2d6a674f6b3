// Ozaki scheme (the CRT variant, Ozaki-II), step three: each output of one k-block from the f32
// matmuls of the residue planes (ozaki_residues.wgsl). Plane t holds the exact integer product
// C' = sum_k Y_a Y_b modulo m_t. By the Chinese remainder theorem, with M the moduli's product
// and x_t = r_t ((M / m_t)^-1 mod m_t) mod m_t, S = sum_t x_t (M / m_t) is C' modulo M, and
// S / M = sum_t x_t / m_t: C' = S - q M with q that sum rounded to the nearest integer, because
// |C'| / M is below 0.45 (ozaki.rs picks M so) and the f32 sum errs by under 2^-18. S - q M is
// accumulated in eight signed 16-bit limbs (no carries until the end), then C' 2^(E_a + F_b -
// 2150) is rounded once to f64, to nearest, ties to even (subnormal results and overflow
// included), and added to the earlier k-blocks' sum.
//
// Accuracy: Y truncates each element to 53 bits of its vector's largest magnitude, so in units
// of that scale the error is at most 2^-53 (sum_k |y_a| + sum_k |y_b|) <= 2^-52 k. That is within
// the bound of a native f64 dot product, (k - 1) u sum_k |a b|, wherever sum_k |y_a| |y_b| (the f32
// matmul of the magnitudes, `magnitude`) reaches `threshold` (2 k / (k - 1), with a margin for
// that estimate's own rounding). Other outputs -- and every output of a row or column holding an
// infinity or a NaN -- take the direct path: products rounded and added in k order, as the
// word-pair matmul kernel does.
//
// Prepended: mulhilo.wgsl, int64.wgsl, f64_soft.wgsl and mod_small.wgsl.

override WG: u32 = 256u;

struct Params {
    count: u32,           // outputs: batch * rows * cols, cols a multiple of 4
    rows: u32,
    cols: u32,            // columns of the (padded) tile
    k: u32,               // terms of the (padded) block: A's row length, B's column length
    moduli: u32,
    accumulate: u32,      // 1: add to c (a later k-block)
    b_exps: u32,          // where B's column exponents start in `exps`
    threshold: f32,
    live_cols: u32,       // columns before the padding (the rest are written as zeros)
    pad0: u32,
    pad1: u32,
    pad2: u32,
    // Per modulus t, 10 words from 10 t: m_t, (M / m_t)^-1 mod m_t, then M / m_t in 16-bit
    // limbs, lowest first; after them M's eight limbs. A uniform, not storage: every lane reads
    // the same word, which llvmpipe then loads once, not lane by lane.
    table: array<vec4<u32>, 42>,
}

fn table(i: u32) -> u32 {
    return p.table[i / 4u][i % 4u];
}

@group(0) @binding(0) var<uniform> p: Params;
// Plane t (modulus t): count outputs from t * count, four per vec4 (an invocation's four
// outputs: one load per plane, as llvmpipe loads lane by lane).
@group(0) @binding(1) var<storage, read> products: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> magnitude: array<vec4<f32>>;
// A's row exponents (batch * rows), then from b_exps B's column exponents (batch * cols).
@group(0) @binding(3) var<storage, read> exps: array<u32>;
@group(0) @binding(4) var<storage, read> a: array<vec2<u32>>;   // (batch, rows, k)
@group(0) @binding(5) var<storage, read> b: array<vec2<u32>>;   // (batch, k, cols)
// (batch, rows, cols), two outputs per vec4.
@group(0) @binding(6) var<storage, read_write> c: array<vec4<u32>>;

// The planes' values for the invocation's four outputs.
var<private> planes: array<vec4<f32>, 16>;

// The direct path: sum_k a b, each product rounded and added in k order from +0.
fn direct(batch: u32, row: u32, col: u32) -> vec2<u32> {
    let a0 = (batch * p.rows + row) * p.k;
    let b0 = batch * p.k * p.cols + col;
    var acc = vec2<u32>(0u, 0u);
    for (var k = 0u; k < p.k; k += 1u) {
        acc = f64s_add(acc, f64s_mul(a[a0 + k], b[b0 + k * p.cols]));
    }
    return acc;
}

fn word(w: array<u32, 4>, i: u32) -> u32 {
    if (i < 4u) {
        return w[i];
    }
    return 0u;
}

// Bits s .. s + 63 of w, every nonzero bit below s or-ed into the lowest ("jamming").
fn shr128_jam(w: array<u32, 4>, s: u32) -> vec2<u32> {
    let q = s / 32u;
    let r = s % 32u;
    var out = vec2<u32>(0u, 0u);
    for (var i = 0u; i < 2u; i += 1u) {
        let lo = word(w, q + i);
        let hi = word(w, q + i + 1u);
        out[i] = select(lo, (lo >> r) | (hi << (32u - r)), r != 0u);
    }
    var lost = 0u;
    for (var i = 0u; i < q; i += 1u) {
        lost = lost | w[i];
    }
    if (r != 0u) {
        lost = lost | (word(w, q) << (32u - r));
    }
    out.x = out.x | select(0u, 1u, lost != 0u);
    return out;
}

// The output from the residue planes; `scale` is E_a + F_b - 2150 (C' in units of 2^scale).
fn from_residues(j: u32, scale: i32) -> vec2<u32> {
    var limbs = array<i32, 8>(0, 0, 0, 0, 0, 0, 0, 0);
    var turns = 0.0;
    for (var t = 0u; t < p.moduli; t += 1u) {
        let m = table(10u * t);
        let inv = 1.0 / f32(m);
        // An exact integer of at most 2^24 in magnitude.
        let product = planes[t][j];
        var r = mod_small(u32(abs(product)), m, inv);
        if (product < 0.0 && r != 0u) {
            r = m - r;
        }
        let x = mod_small(r * table(10u * t + 1u), m, inv);
        turns += f32(x) * inv;
        // Each limb stays below 16 x 2^9 x 2^16 = 2^29.
        for (var l = 0u; l < 8u; l += 1u) {
            limbs[l] += i32(x * table(10u * t + 2u + l));
        }
    }
    let q = i32(round(turns));
    let top = 10u * p.moduli;
    for (var l = 0u; l < 8u; l += 1u) {
        limbs[l] -= q * i32(table(top + l));
    }
    normalize(&limbs);
    var sign = 0u;
    if (limbs[7] < 0) {
        sign = 1u;
        for (var l = 0u; l < 8u; l += 1u) {
            limbs[l] = -limbs[l];
        }
        normalize(&limbs);
    }
    var w: array<u32, 4>;
    for (var i = 0u; i < 4u; i += 1u) {
        w[i] = u32(limbs[2u * i]) | (u32(limbs[2u * i + 1u]) << 16u);
    }
    // Bit length, then the top 63 bits (the rest jammed) for the rounding.
    var length = 0u;
    for (var i = 0u; i < 4u; i += 1u) {
        if (w[i] != 0u) {
            length = 32u * i + 32u - countLeadingZeros(w[i]);
        }
    }
    if (length == 0u) {
        return vec2<u32>(0u, 0u);
    }
    let shift = select(0u, length - 63u, length > 63u);
    return f64s_norm_round_pack(sign, 0x43c + i32(shift) + scale, shr128_jam(w, shift));
}

// Carries between the limbs: every limb but the top one into [0, 2^16), the top one signed.
fn normalize(limbs: ptr<function, array<i32, 8>>) {
    for (var l = 0u; l < 7u; l += 1u) {
        let carry = (*limbs)[l] >> 16u;
        (*limbs)[l] -= carry << 16u;
        (*limbs)[l + 1u] += carry;
    }
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
    // Four outputs of one row (cols is a multiple of 4).
    let col0 = (4u * quad) % p.cols;
    let rest = (4u * quad) / p.cols;
    let row = rest % p.rows;
    let batch = rest / p.rows;
    let ea = exps[batch * p.rows + row];
    for (var t = 0u; t < p.moduli; t += 1u) {
        planes[t] = products[t * (p.count / 4u) + quad];
    }
    let mag = magnitude[quad];
    var v: array<vec2<u32>, 4>;
    for (var j = 0u; j < 4u; j += 1u) {
        let col = col0 + j;
        let eb = exps[p.b_exps + batch * p.cols + col];
        if (col >= p.live_cols) {
            v[j] = vec2<u32>(0u, 0u);
        } else if (ea != 0x7ffu && eb != 0x7ffu && mag[j] >= p.threshold) {
            v[j] = from_residues(j, i32(ea + eb) - 2150);
        } else {
            v[j] = direct(batch, row, col);
        }
    }
    if (p.accumulate != 0u) {
        let before0 = c[2u * quad];
        let before1 = c[2u * quad + 1u];
        v[0] = f64s_add(before0.xy, v[0]);
        v[1] = f64s_add(before0.zw, v[1]);
        v[2] = f64s_add(before1.xy, v[2]);
        v[3] = f64s_add(before1.zw, v[3]);
    }
    c[2u * quad] = vec4<u32>(v[0], v[1]);
    c[2u * quad + 1u] = vec4<u32>(v[2], v[3]);
}
