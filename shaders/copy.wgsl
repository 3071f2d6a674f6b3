// Strided copy with conversion: dst[view] = convert(src[view]) over one block of at most 8 axes.
//
// The host prepends the bindings `src` (1) and `dst` (2) with their `load_src`/`stage_dst`/`flush_dst`
// (element_access.rs: word, word-pair and packed dtypes alike), `alias SrcC = ..; alias DstC = ..;`
// (their compute types), `fn convert(SrcC) -> DstC` (to bool: non-zero is true) and `enable f16;`
// when needed. Both operands are addressed through their own window of their buffer: `*_base` is
// the window-relative index of the block's first element and the strides are in elements
// (negative for reversed views, 0 for broadcast axes). The host guarantees every index stays
// inside its window, so the i32 arithmetic cannot overflow. The walk itself is strided_walk.wgsl.

override WG: u32 = 256u;
// Elements per invocation: a run of EPT consecutive block elements (see strided_walk.wgsl).
override EPT: u32 = 8u;

struct Params {
    shape: array<vec4<u32>, 2>,        // block extents, outermost first; axes >= rank are unused
    src_strides: array<vec4<i32>, 2>,
    dst_strides: array<vec4<i32>, 2>,
    src_base: i32,
    dst_base: i32,
    rank: u32,
    count: u32,                        // elements in the block
}

@group(0) @binding(0) var<uniform> p: Params;

fn axis_strides(a: u32) -> vec4<i32> {
    return vec4<i32>(p.src_strides[a / 4u][a % 4u], p.dst_strides[a / 4u][a % 4u], 0, 0);
}

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let start = run_start(wid, nwg, lid);
    if (start >= p.count) {
        return;
    }
    var coord: array<u32, 8>;
    var at = walk_from(start, vec4<i32>(p.src_base, p.dst_base, 0, 0), &coord);
    let stop = min(start + EPT, p.count);
    for (var i = start; i < stop; i += 1u) {
        stage_dst(at.y, convert(load_src(at.x)));
        walk_next(&coord, &at);
    }
    flush_dst();
}
