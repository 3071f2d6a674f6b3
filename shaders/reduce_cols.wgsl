// Value reductions down columns, stage 1: output (batch t, column c) folds elements
// base + t * batch_stride + i * row_stride + c for rows i < rows — a leading axis of a contiguous
// array, e.g. sum(axis=0) of (N, M), or a middle one, sum(axis=1) of (T, N, M). Prepended like reduce.wgsl (`alias In, Out, A`, NaN helpers, `truth_in`,
// reduce_ops.wgsl).
//
// Work is cut into (batch, block of `block` rows, span of 4 * LANES quads of 4 columns). A span is
// LANES consecutive invocations — one 8-lane vector on lavapipe — whose lane l folds quads l,
// l + LANES, l + 2 LANES, l + 3 LANES down the block's rows: per row the vector reads
// 4 * LANES * 16 contiguous bytes. Lavapipe runs a vector to its end before the next starts, so
// a vector must stream on its own: with one quad per lane (128 bytes a row, 16 KiB apart for
// (4096, 4096) f32) the same reduction ran 3x slower. With VEC the quads are vec4 loads (base,
// strides and width are multiples of 4); otherwise four scalar loads, columns past the width
// clamped to the last and never stored. An f32 sum adds `block` (128) terms sequentially per
// accumulator lane. Each block's partials are stored transposed, [batches * width, blocks], so
// stage 2 is the rows kernel over contiguous rows (a tree per output); with one block they are
// the results.

override WG: u32 = 64u;
override VEC: u32 = 1u;
override LANES: u32 = 8u;   // invocations lavapipe runs as one SIMD vector (256 bits)

struct Params {
    base: u32,         // element (row 0, column 0)
    row_stride: i32,   // elements from one row to the next
    width: u32,        // columns
    rows: u32,
    quads: u32,        // ceil(width / 4)
    blocks: u32,       // row blocks (partials per column)
    block: u32,        // rows per block
    batches: u32,
    batch_stride: i32, // elements from one batch's (row 0, column 0) to the next
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> src: array<In>;
@group(0) @binding(2) var<storage, read> src4: array<In4>;
@group(0) @binding(3) var<storage, read_write> dst: array<Out>;

fn combine4(x: A4, y: A4) -> A4 {
    return A4(combine(x.x, y.x), combine(x.y, y.y), combine(x.z, y.z), combine(x.w, y.w));
}

// Columns 4q..4q+3 of row i of batch t.
fn quad(t: u32, i: u32, q: u32) -> A4 {
    let o = u32(i32(p.base) + i32(t) * p.batch_stride + i32(i) * p.row_stride);
    if (VEC == 1u) {
        return load4(src4[o / 4u + q]);
    }
    let last = p.width - 1u;
    let c = 4u * q;
    return A4(
        load(src[o + min(c, last)]),
        load(src[o + min(c + 1u, last)]),
        load(src[o + min(c + 2u, last)]),
        load(src[o + min(c + 3u, last)]),
    );
}

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let g = (wid.y * nwg.x + wid.x) * WG + lid;
    let lane = g % LANES;
    let v = g / LANES;
    let spans = (p.quads + 4u * LANES - 1u) / (4u * LANES);
    let b = (v / spans) % p.blocks;
    let t = v / spans / p.blocks;
    if (t >= p.batches) {
        return;
    }
    // This lane's quads: q0, q0 + LANES, q0 + 2 LANES, q0 + 3 LANES (past the last: clamped,
    // never stored).
    let q0 = (v % spans) * 4u * LANES + lane;
    let last = p.quads - 1u;
    let q1 = min(q0 + LANES, last);
    let q2 = min(q0 + 2u * LANES, last);
    let q3 = min(q0 + 3u * LANES, last);
    let qa = min(q0, last);
    let i0 = b * p.block;
    let i1 = min(i0 + p.block, p.rows);
    let e = identity();
    let id = A4(e, e, e, e);
    var acc0 = id;
    var acc1 = id;
    var acc2 = id;
    var acc3 = id;
    for (var i = i0; i < i1; i += 1u) {
        acc0 = combine4(acc0, quad(t, i, qa));
        acc1 = combine4(acc1, quad(t, i, q1));
        acc2 = combine4(acc2, quad(t, i, q2));
        acc3 = combine4(acc3, quad(t, i, q3));
    }
    store(t, q0, b, acc0);
    store(t, q0 + LANES, b, acc1);
    store(t, q0 + 2u * LANES, b, acc2);
    store(t, q0 + 3u * LANES, b, acc3);
}

// Partials of quad q's columns of batch t for block b, transposed: [batches * width, blocks].
fn store(t: u32, q: u32, b: u32, v: A4) {
    let c = 4u * q;
    let at = (t * p.width + c) * p.blocks + b;
    if (c < p.width) {
        dst[at] = Out(v.x);
    }
    if (c + 1u < p.width) {
        dst[at + p.blocks] = Out(v.y);
    }
    if (c + 2u < p.width) {
        dst[at + 2u * p.blocks] = Out(v.z);
    }
    if (c + 3u < p.width) {
        dst[at + 3u * p.blocks] = Out(v.w);
    }
}
