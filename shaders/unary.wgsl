// Strided unary skeleton: o[view] = op(a[view]) over one block of at most 8 axes.
//
// Prepended by the host: the aliases `T`/`C` (input storage/compute type), `O`/`R` (output
// storage/compute type), the dtype helpers, the bindings `a` (1) and `o` (2) with `load_a` and
// `stage_o`/`flush_o` (device/element_access.rs: packed dtypes are loaded widened and stored into their
// byte), an op file defining `fn op(a: C) -> R` (selected by its `OP` override), and
// strided_walk.wgsl. Indexing as in binary.wgsl.

override WG: u32 = 256u;
override EPT: u32 = 8u;

struct Params {
    shape: array<vec4<u32>, 2>,
    a_strides: array<vec4<i32>, 2>,
    o_strides: array<vec4<i32>, 2>,
    a_base: i32,
    o_base: i32,
    rank: u32,
    count: u32,
}

@group(0) @binding(0) var<uniform> p: Params;

fn axis_strides(d: u32) -> vec4<i32> {
    return vec4<i32>(p.a_strides[d / 4u][d % 4u], p.o_strides[d / 4u][d % 4u], 0, 0);
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
    var at = walk_from(start, vec4<i32>(p.a_base, p.o_base, 0, 0), &coord);
    let stop = min(start + EPT, p.count);
    for (var i = start; i < stop; i += 1u) {
        stage_o(at.y, op(load_a(at.x)));
        walk_next(&coord, &at);
    }
    flush_o();
}
