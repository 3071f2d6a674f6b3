// Ozaki scheme, step one: the largest binary exponent of each row of A (over k) or each column
// of B (over k), the shared exponent at which ozaki_residues.wgsl turns the vector into integers.
//
// The operand is a contiguous word-pair f64 array of shape (batch, rows, k) for A (`inner` = 1:
// vector = element / k) or (batch, k, columns) for B (`inner` = columns: vector = batch *
// columns + column). `exps` starts at zero; each element raises its vector's entry to its biased
// exponent (1 for zeros and subnormals, whose value is frac * 2^-1074 = frac * 2^(1 - 1075);
// 2047 for infinities and NaN, which send the vector's outputs to the direct path).

override WG: u32 = 256u;

struct Params {
    count: u32,   // elements of the operand
    k: u32,       // length of the contraction axis
    inner: u32,   // 1 for A, the number of columns for B
    pad: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> x: array<vec2<u32>>;
@group(0) @binding(2) var<storage, read_write> exps: array<atomic<u32>>;

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let e = (wid.y * nwg.x + wid.x) * WG + lid;
    if (e >= p.count) {
        return;
    }
    let vector = (e / (p.k * p.inner)) * p.inner + e % p.inner;
    let biased = max((x[e].y >> 20u) & 0x7ffu, 1u);
    // Most elements are below their vector's maximum once a few have run: a plain load spares
    // the atomic read-modify-write.
    if (biased > atomicLoad(&exps[vector])) {
        atomicMax(&exps[vector], biased);
    }
}
