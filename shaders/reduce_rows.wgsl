// Value reductions of contiguous rows, one stage: the fast path for whole contiguous arrays and
// for trailing axes of contiguous arrays (and every stage 2, whose partials are rows too). Row m
// is the `k_count` consecutive elements from `base + m * row_stride` (binding-relative). Prepended
// like reduce.wgsl (`alias In, Out, A`, NaN helpers, `truth_in`, reduce_ops.wgsl), and a unit
// file: `alias Unit`, `const UNIT` (elements per unit) and `fn load_unit(Unit) -> A4`
// (reduce_rows_vec4.wgsl: a vec4 of elements; reduce_rows_f16x8.wgsl: eight packed halves).
//
// The same window is bound twice: as scalars and as units. A row's elements from its first
// multiple of UNIT to its last are read as units (unit `j` holds elements UNIT j..UNIT j + UNIT -
// 1); the at most 2 (UNIT - 1) elements outside them are read as scalars. On lavapipe every
// storage load is a loop over the SIMD lanes, so a unit moves UNIT elements for one trip of that
// loop; four independent accumulators keep the adds off one dependency chain.
//
// MODE 0: one workgroup per (row, chunk) of `chunk` body units (WG * t, t a multiple of 4 and at
// most 256): the chunk is cut into one contiguous span per LANES consecutive invocations, whose
// lanes read consecutive units (LANES * 16 bytes at a time), then the invocations combine in a
// workgroup tree. Lavapipe runs each 8-lane vector to the next barrier before the next one
// starts, so a vector must stream through memory on its own: the classic interleaving of the
// whole workgroup (lane lid reads lid, lid + WG, ...) made every vector touch 2 of every 16
// cache lines and ran 4-8x slower. An f32 sum adds at most t / 4 <= 64 terms sequentially in
// each of 16 accumulator lanes, then trees of 4 + log2(WG) levels, per stage. MODE 1: one
// invocation per row folds all of it (rows of up to 4096 elements, at most 256 terms per
// accumulator lane: no barriers, no shared memory, each lane streams its own row).
// Per-invocation loops stay far below lavapipe's cut-off of 65,535 iterations.

override WG: u32 = 64u;
override LANES: u32 = 8u;   // invocations that lavapipe runs as one SIMD vector (256 bits)
override MODE: u32 = 0u;

struct Params {
    base: u32,         // first element of row 0
    row_stride: i32,   // elements from one row's first element to the next row's
    m_count: u32,      // rows in this launch
    k_count: u32,      // elements per row
    chunks: u32,       // workgroups per row (MODE 0)
    chunk: u32,        // body units per workgroup
    dst_base: u32,     // dst index of this launch's first row's first result
    dst_stride: u32,   // dst distance between consecutive rows' results
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> src: array<In>;
@group(0) @binding(2) var<storage, read> units: array<Unit>;
@group(0) @binding(3) var<storage, read_write> dst: array<Out>;

var<workgroup> sh: array<A, WG>;

fn combine4(x: A4, y: A4) -> A4 {
    return A4(combine(x.x, y.x), combine(x.y, y.y), combine(x.z, y.z), combine(x.w, y.w));
}

// Pairwise, so the lanes' sums meet in a tree too.
fn fold4(v: A4) -> A {
    return combine(combine(v.x, v.y), combine(v.z, v.w));
}

// Body units start, start + step, ... below stop: unconditional rounds of four loads into four
// accumulators, then the rest (fewer than four) into the first.
fn fold_body(start: u32, stop: u32, step: u32) -> A {
    let e = identity();
    let id = A4(e, e, e, e);
    var acc0 = id;
    var acc1 = id;
    var acc2 = id;
    var acc3 = id;
    var i = start;
    if (stop > start) {
        let rounds = (stop - start) / (4u * step);
        for (var r = 0u; r < rounds; r += 1u) {
            acc0 = combine4(acc0, load_unit(units[i]));
            acc1 = combine4(acc1, load_unit(units[i + step]));
            acc2 = combine4(acc2, load_unit(units[i + 2u * step]));
            acc3 = combine4(acc3, load_unit(units[i + 3u * step]));
            i += 4u * step;
        }
        for (; i < stop; i += step) {
            acc0 = combine4(acc0, load_unit(units[i]));
        }
    }
    return fold4(combine4(combine4(acc0, acc1), combine4(acc2, acc3)));
}

// The row's first element, its end, and its body units [a4, e4).
struct Row {
    a: u32,
    e: u32,
    a4: u32,
    e4: u32,
}

fn row(m: u32) -> Row {
    let a = u32(i32(p.base) + i32(m) * p.row_stride);
    let e = a + p.k_count;
    let a4 = (a + UNIT - 1u) / UNIT;
    return Row(a, e, a4, max(e / UNIT, a4));
}

// Edge element `j` (0..2 (UNIT - 1)) of the row, or the identity: j < UNIT - 1 before the
// body, the rest after.
fn edge(r: Row, j: u32) -> A {
    let head_end = min(UNIT * r.a4, r.e);
    var i = r.a + j;
    var end = head_end;
    if (j >= UNIT - 1u) {
        i = max(UNIT * r.e4, head_end) + j - (UNIT - 1u);
        end = r.e;
    }
    if (i < end) {
        return load(src[i]);
    }
    return identity();
}

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let w = wid.y * nwg.x + wid.x;
    if (MODE == 1u) {
        let m = w * WG + lid;
        if (m < p.m_count) {
            let r = row(m);
            var acc = fold_body(r.a4, r.e4, 1u);
            for (var j = 0u; j < 2u * (UNIT - 1u); j += 1u) {
                acc = combine(acc, edge(r, j));
            }
            dst[p.dst_base + m * p.dst_stride] = Out(acc);
        }
        return;
    }
    let m = w / p.chunks;
    let c = w % p.chunks;
    if (m >= p.m_count) {
        return; // the whole workgroup: uniform
    }
    let r = row(m);
    let first = min(r.a4 + c * p.chunk, r.e4);
    let stop = min(first + p.chunk, r.e4);
    // Each run of LANES invocations streams through its own contiguous span of the chunk.
    let span = p.chunk / (WG / LANES);
    let g_first = min(first + (lid / LANES) * span, stop);
    let g_stop = min(g_first + span, stop);
    var acc = fold_body(g_first + lid % LANES, g_stop, LANES);
    if (c == 0u && lid < 2u * (UNIT - 1u)) {
        acc = combine(acc, edge(r, lid));
    }
    sh[lid] = acc;
    workgroupBarrier();
    for (var s = WG / 2u; s > 0u; s = s / 2u) {
        if (lid < s) {
            sh[lid] = combine(sh[lid], sh[lid + s]);
        }
        workgroupBarrier();
    }
    if (lid == 0u) {
        dst[p.dst_base + m * p.dst_stride + c] = Out(sh[0]);
    }
}
