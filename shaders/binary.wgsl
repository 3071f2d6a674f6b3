// Strided binary skeleton: o[view] = op(a[view], b[view]) over one block of at most 8 axes.
//
// Prepended by the host: the aliases `T`/`C` (input storage/compute type), `O`/`R` (output
// storage/compute type), the dtype helpers, the bindings `a` (1), `b` (2) and `o` (3) with their
// `load_*`/`stage_o`/`flush_o` (device/element_access.rs), and an op file defining `fn op(a: C, b: C) -> R`
// (selected by its `OP` override), and strided_walk.wgsl. Strides are in elements (0 on broadcast axes, negative on
// reversed views); `*_base` is the window-relative index of the block's first element. The host
// keeps every index inside its window, so the i32 arithmetic cannot overflow.
//
// SCALAR = 0: both operands are arrays. SCALAR = 1: op(a, p.scalar). SCALAR = 2: op(p.scalar, a).
// With a scalar, binding 2 repeats binding 1 and is not read.

override WG: u32 = 256u;
// Elements per invocation: a run of EPT consecutive block elements (see strided_walk.wgsl).
override EPT: u32 = 8u;
override SCALAR: u32 = 0u;

struct Params {
    shape: array<vec4<u32>, 2>,
    a_strides: array<vec4<i32>, 2>,
    b_strides: array<vec4<i32>, 2>,
    o_strides: array<vec4<i32>, 2>,
    a_base: i32,
    b_base: i32,
    o_base: i32,
    rank: u32,
    count: u32,
    scalar: C,
}

@group(0) @binding(0) var<uniform> p: Params;

fn apply(x: C, y: C) -> R {
    if (SCALAR == 1u) {
        return op(x, p.scalar);
    }
    if (SCALAR == 2u) {
        return op(p.scalar, x);
    }
    return op(x, y);
}

fn axis_strides(d: u32) -> vec4<i32> {
    let q = d / 4u;
    let r = d % 4u;
    return vec4<i32>(p.a_strides[q][r], p.b_strides[q][r], p.o_strides[q][r], 0);
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
    var at = walk_from(start, vec4<i32>(p.a_base, p.b_base, p.o_base, 0), &coord);
    let stop = min(start + EPT, p.count);
    for (var i = start; i < stop; i += 1u) {
        let x = load_a(at.x);
        var y = x;
        if (SCALAR == 0u) {
            y = load_b(at.y);
        }
        stage_o(at.z, apply(x, y));
        walk_next(&coord, &at);
    }
    flush_o();
}
