// Strided fill: dst[view] = value over one block of at most 8 axes (full, ones, eye's diagonal,
// assignment of a scalar to a view).
//
// The host prepends `alias V = ..;` (the dtype's compute type, which the value travels in: f32
// for f16 arrays, so the uniform buffer never holds f16; a word pair for 64-bit integers) and the
// binding `dst` (1) with its `stage_dst`/`flush_dst` (element_access.rs).

override WG: u32 = 256u;
// Elements per invocation: a run of EPT consecutive block elements (see strided_walk.wgsl).
override EPT: u32 = 8u;

struct Params {
    shape: array<vec4<u32>, 2>,
    strides: array<vec4<i32>, 2>,
    base: i32,
    rank: u32,
    count: u32,
    value: V,
}

@group(0) @binding(0) var<uniform> p: Params;

fn axis_strides(a: u32) -> vec4<i32> {
    return vec4<i32>(p.strides[a / 4u][a % 4u], 0, 0, 0);
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
    var at = walk_from(start, vec4<i32>(p.base, 0, 0, 0), &coord);
    let value = p.value;
    let stop = min(start + EPT, p.count);
    for (var i = start; i < stop; i += 1u) {
        stage_dst(at.x, value);
        walk_next(&coord, &at);
    }
    flush_dst();
}
