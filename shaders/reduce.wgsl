// Value reductions over any strides, one stage: each output's reduced elements are split into
// `chunks` chunks and every chunk becomes one result in `dst` (the final value when there is one
// chunk, a partial for a second launch otherwise). The host prepends `alias In, Out, A` (input,
// output, accumulator: f32 for f16, u32 for any/all), NaN helpers for A, `fn truth_in(x: In) ->
// bool` and reduce_ops.wgsl (OP, STAGE, identity, load, combine). Contiguous rows take the faster
// reduce_rows.wgsl instead; this kernel serves every other layout.
//
// MODE 0: one workgroup per (output, chunk); each invocation folds at most `chunk / WG` (+ 1)
// of the chunk's elements (see span()), then the workgroup combines the invocations'
// values in a tree of log2(WG) levels — so f32 sums grow their error with the chunk length / WG
// plus log2(WG), not with n. MODE 1: one invocation per output folds all of it (short reductions).
// Elements are addressed by strides: `outer` over the kept axes, `inner` over the reduced ones.

override WG: u32 = 256u;
override LANES: u32 = 8u;   // invocations lavapipe runs as one SIMD vector (256 bits)
override MODE: u32 = 0u;

struct Params {
    outer_shape: vec4<u32>,
    outer_strides: vec4<i32>,
    inner_shape: vec4<u32>,
    inner_strides: vec4<i32>,
    base: i32,
    outer_rank: u32,
    inner_rank: u32,
    m_count: u32,      // outputs in this launch
    k_count: u32,      // elements reduced per output in this launch
    chunks: u32,       // chunks per output (MODE 0)
    chunk: u32,        // elements per chunk
    dst_base: u32,     // dst index of this launch's first output's first result
    dst_stride: u32,   // dst distance between consecutive outputs' results
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> src: array<In>;
@group(0) @binding(2) var<storage, read_write> dst: array<Out>;

var<workgroup> sh: array<A, WG>;

// span, outer_offset and inner_offset: reduce_index.wgsl.

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
            let row = p.base + outer_offset(m);
            var acc = identity();
            for (var i = 0u; i < p.k_count; i += 1u) {
                acc = combine(acc, load(src[row + inner_offset(i)]));
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
    let row = p.base + outer_offset(m);
    let first = c * p.chunk;
    let stop = min(first + p.chunk, p.k_count);
    // Each run of LANES invocations takes its own contiguous span of the chunk (see span()).
    let sp = span(first, stop, lid);
    var acc = identity();
    for (var i = sp.x; i < sp.y; i += LANES) {
        acc = combine(acc, load(src[row + inner_offset(i)]));
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
