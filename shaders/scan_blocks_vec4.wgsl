// Appended to scan_blocks.wgsl for the one-word dtypes: the same scans over contiguous lines
// (line l's element i at src_base + l * k_count + i, its result at dst_base + l * k_count + i)
// whose starts, lengths and blocks are multiples of 4 elements, read and written as vec4s: on
// lavapipe every storage access is a loop over the SIMD lanes, and a vec4 moves four elements
// per trip.
@group(0) @binding(1) var<storage, read> src4: array<vec4<T>>;
@group(0) @binding(3) var<storage, read_write> dst4: array<vec4<T>>;

fn combine4(x: vec4<A>, y: vec4<A>) -> vec4<A> {
    if (OP == OP_CUMPROD) {
        return x * y;
    }
    return x + y;
}

@compute @workgroup_size(WG)
fn totals_vec4(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let g = invocation(wid, nwg, lid);
    if (g >= p.m_count * p.blocks) {
        return;
    }
    let blk = block_of(g);
    let at = (u32(p.src_base) + blk.line * p.k_count + blk.first) / 4u;
    let n = (blk.stop - blk.first) / 4u;
    // Four lanes of accumulators: the fold is not one dependency chain.
    var acc = vec4<A>(identity());
    for (var j = 0u; j < n; j += 1u) {
        acc = combine4(acc, vec4<A>(src4[at + j]));
    }
    totals[blk.index] = combine(combine(acc.x, acc.y), combine(acc.z, acc.w));
}

@compute @workgroup_size(WG)
fn main_vec4(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let g = invocation(wid, nwg, lid);
    if (g >= p.m_count * p.blocks) {
        return;
    }
    let blk = block_of(g);
    var acc = carried_in(blk);
    let at = (u32(p.src_base) + blk.line * p.k_count + blk.first) / 4u;
    let line_start = u32(p.dst_base) + blk.line * p.k_count;
    if (p.has_carry != 0u) {
        acc = combine(A(dst4[line_start / 4u - 1u].w), acc);
    }
    let o = (line_start + blk.first) / 4u;
    let n = (blk.stop - blk.first) / 4u;
    for (var j = 0u; j < n; j += 1u) {
        let v = vec4<A>(src4[at + j]);
        let a0 = combine(acc, v.x);
        let a1 = combine(a0, v.y);
        let a2 = combine(a1, v.z);
        acc = combine(a2, v.w);
        dst4[o + j] = vec4<T>(vec4<A>(a0, a1, a2, acc));
    }
}
