// Strided select: o[view] = select(b[view], a[view], cond[view] != 0) over one block of at most 8
// axes (`where(cond, a, b)`). `cond` is a bool array (u32 0/1); the host prepends the bindings
// `a` (2), `b` (3) and `o` (4) with their `load_*`/`stage_o`/`flush_o` (device/element_access.rs, any dtype),
// and strided_walk.wgsl follows.

override WG: u32 = 256u;
override EPT: u32 = 8u;

struct Params {
    shape: array<vec4<u32>, 2>,
    c_strides: array<vec4<i32>, 2>,
    a_strides: array<vec4<i32>, 2>,
    b_strides: array<vec4<i32>, 2>,
    o_strides: array<vec4<i32>, 2>,
    c_base: i32,
    a_base: i32,
    b_base: i32,
    o_base: i32,
    rank: u32,
    count: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> cond: array<u32>;

fn axis_strides(d: u32) -> vec4<i32> {
    let q = d / 4u;
    let r = d % 4u;
    return vec4<i32>(p.c_strides[q][r], p.a_strides[q][r], p.b_strides[q][r], p.o_strides[q][r]);
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
    var at = walk_from(start, vec4<i32>(p.c_base, p.a_base, p.b_base, p.o_base), &coord);
    let stop = min(start + EPT, p.count);
    for (var i = start; i < stop; i += 1u) {
        if (cond[at.x] != 0u) {
            stage_o(at.w, load_a(at.y));
        } else {
            stage_o(at.w, load_b(at.z));
        }
        walk_next(&coord, &at);
    }
    flush_o();
}
