// Arg-reductions (argmax, argmin), one stage, laid out like reduce.wgsl (MODE 0 only): every
// (output, chunk) workgroup writes the winning value and its index. NumPy's rules: the first
// NaN wins; among equal values the first index wins. Stage 1 reads the array (index = position
// along the reduced elements plus `k_offset`); stage 2 reads the (value, index) partials.
// The host prepends `alias In, A` (input storage, accumulator), NaN helpers for A and the
// accumulator's vocabulary: acc_of, acc_zero, acc_eq, acc_lt (operators, or software f64).

override WG: u32 = 256u;
override LANES: u32 = 8u;   // invocations lavapipe runs as one SIMD vector (256 bits)
override OP: u32 = 0u;      // OP_ARGMAX or OP_ARGMIN (the prelude's table)
override STAGE: u32 = 1u;

struct Params {
    outer_shape: vec4<u32>,
    outer_strides: vec4<i32>,
    inner_shape: vec4<u32>,
    inner_strides: vec4<i32>,
    base: i32,
    outer_rank: u32,
    inner_rank: u32,
    m_count: u32,
    k_count: u32,
    chunks: u32,
    chunk: u32,
    dst_base: u32,
    dst_stride: u32,
    k_offset: u32,
}

const NONE: u32 = 0xffffffffu;

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> src: array<In>;
@group(0) @binding(2) var<storage, read> src_idx: array<u32>;   // stage 2 only
@group(0) @binding(3) var<storage, read_write> dst: array<A>;
@group(0) @binding(4) var<storage, read_write> dst_idx: array<u32>;

var<workgroup> sh_v: array<A, WG>;
var<workgroup> sh_i: array<u32, WG>;

// Whether (av, ai) beats (bv, bi).
fn better(av: A, ai: u32, bv: A, bi: u32) -> bool {
    if (bi == NONE) {
        return true;
    }
    if (ai == NONE) {
        return false;
    }
    let an = is_nan(av);
    let bn = is_nan(bv);
    if (an || bn) {
        if (an && bn) {
            return ai <= bi;
        }
        return an;
    }
    if (!acc_eq(av, bv)) {
        if (OP == OP_ARGMAX) {
            return acc_lt(bv, av);
        }
        return acc_lt(av, bv);
    }
    return ai <= bi;
}

// span, outer_offset and inner_offset: reduce_index.wgsl. Ties still go to the first index:
// better() compares indices, not visiting order.

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let w = wid.y * nwg.x + wid.x;
    let m = w / p.chunks;
    let c = w % p.chunks;
    if (m >= p.m_count) {
        return;
    }
    let row = p.base + outer_offset(m);
    let first = c * p.chunk;
    let stop = min(first + p.chunk, p.k_count);
    var bv = acc_zero();
    var bi = NONE;
    // Each run of LANES invocations takes its own contiguous span of the chunk (see span()).
    let sp = span(first, stop, lid);
    for (var i = sp.x; i < sp.y; i += LANES) {
        let at = row + inner_offset(i);
        let v = acc_of(src[at]);
        var idx = i + p.k_offset;
        if (STAGE == 2u) {
            idx = src_idx[at];
        }
        if (better(v, idx, bv, bi)) {
            bv = v;
            bi = idx;
        }
    }
    sh_v[lid] = bv;
    sh_i[lid] = bi;
    workgroupBarrier();
    for (var s = WG / 2u; s > 0u; s = s / 2u) {
        if (lid < s) {
            if (better(sh_v[lid + s], sh_i[lid + s], sh_v[lid], sh_i[lid])) {
                sh_v[lid] = sh_v[lid + s];
                sh_i[lid] = sh_i[lid + s];
            }
        }
        workgroupBarrier();
    }
    if (lid == 0u) {
        let o = p.dst_base + m * p.dst_stride + c;
        dst[o] = sh_v[0];
        dst_idx[o] = sh_i[0];
    }
}
