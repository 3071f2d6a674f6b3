// Inclusive scans along one axis (cumsum, cumprod): one workgroup per line. The line is walked
// in chunks of WG * RUN elements; each invocation folds its run of RUN consecutive elements, the
// workgroup scans the run totals (Hillis-Steele in shared memory), and a carry links the chunks.
// Accumulates in A (f32 for f16). Output lines are contiguous. With `has_carry`, each line
// continues an earlier launch whose last result is the element just before the line's first in
// `dst` (the dst window then starts at least one element early). The host cuts lines into such
// segments: lavapipe silently stops an invocation's loops after 65,535 iterations in total, and
// every chunk costs about 2 RUN + log2(WG) + 1 of them, so a launch covers at most a few
// hundred chunks of a line (and no more than one binding).
override WG: u32 = 256u;
override OP: u32 = 0u;   // 0 cumsum, 1 cumprod
const RUN: u32 = 8u;

struct Params {
    outer_shape: vec4<u32>,
    outer_strides: vec4<i32>,
    src_base: i32,
    axis_stride: i32,
    outer_rank: u32,
    m_count: u32,      // lines
    k_count: u32,      // elements per line in this launch
    dst_base: u32,
    dst_stride: u32,   // distance between lines in dst
    has_carry: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> src: array<T>;
@group(0) @binding(2) var<storage, read_write> dst: array<T>;

var<workgroup> sh: array<A, WG>;

fn combine(x: A, y: A) -> A {
    if (OP == 1u) {
        return x * y;
    }
    return x + y;
}

// cumsum starts from -0.0 (as the sums in reduce_ops.wgsl do): -0.0 + x is x for every x, so a
// run of negative zeros stays -0.0 as in NumPy. Converted to an integer type it is 0.
fn identity() -> A {
    if (OP == 1u) {
        return A(1);
    }
    return A(bitcast<f32>(0x80000000u));
}

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let line = wid.y * nwg.x + wid.x;
    if (line >= p.m_count) {
        return;
    }
    var rem = line;
    var row = p.src_base;
    for (var k = p.outer_rank; k > 0u; k -= 1u) {
        let d = k - 1u;
        row += i32(rem % p.outer_shape[d]) * p.outer_strides[d];
        rem = rem / p.outer_shape[d];
    }
    let out_row = p.dst_base + line * p.dst_stride;
    var carry = identity();
    if (p.has_carry != 0u) {
        carry = A(dst[out_row - 1u]);
    }
    for (var start = 0u; start < p.k_count; start += WG * RUN) {
        let mine = start + lid * RUN;
        var vals: array<A, RUN>;
        var total = identity();
        for (var e = 0u; e < RUN; e += 1u) {
            let i = mine + e;
            if (i < p.k_count) {
                total = combine(total, A(src[row + i32(i) * p.axis_stride]));
            }
            vals[e] = total;
        }
        sh[lid] = total;
        workgroupBarrier();
        for (var off = 1u; off < WG; off = off * 2u) {
            var v = identity();
            if (lid >= off) {
                v = sh[lid - off];
            }
            workgroupBarrier();
            sh[lid] = combine(v, sh[lid]);
            workgroupBarrier();
        }
        var before = carry;
        if (lid > 0u) {
            before = combine(carry, sh[lid - 1u]);
        }
        for (var e = 0u; e < RUN; e += 1u) {
            let i = mine + e;
            if (i < p.k_count) {
                dst[out_row + i] = T(combine(before, vals[e]));
            }
        }
        carry = combine(carry, sh[WG - 1u]);
        workgroupBarrier();
    }
}
