// Contiguous binary skeleton: operands of one shape, read and written four elements at a time
// (`array<vec4<..>>` bindings). The host uses it when every operand's block is contiguous, starts
// at a multiple of 4 elements and has a multiple of 4 elements; `count` and the bases are in vec4s.
// Consecutive invocations touch consecutive vec4s; each invocation handles EPT of them, WG apart.
// Prepended as for binary.wgsl (aliases, helpers, `fn op(a: C, b: C) -> R`).

override WG: u32 = 256u;
override EPT: u32 = 4u;
override SCALAR: u32 = 0u;

struct Params {
    a_base: u32,
    b_base: u32,
    o_base: u32,
    count: u32,
    scalar: C,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> a: array<vec4<T>>;
@group(0) @binding(2) var<storage, read> b: array<vec4<T>>;
@group(0) @binding(3) var<storage, read_write> o: array<vec4<O>>;

fn apply(x: T, y: T) -> O {
    if (SCALAR == 1u) {
        return O(op(C(x), p.scalar));
    }
    if (SCALAR == 2u) {
        return O(op(p.scalar, C(x)));
    }
    return O(op(C(x), C(y)));
}

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let first = (wid.y * nwg.x + wid.x) * WG * EPT + lid;
    for (var e = 0u; e < EPT; e += 1u) {
        let i = first + e * WG;
        if (i >= p.count) {
            return;
        }
        let x = a[p.a_base + i];
        var y = x;
        if (SCALAR == 0u) {
            y = b[p.b_base + i];
        }
        o[p.o_base + i] = vec4<O>(apply(x.x, y.x), apply(x.y, y.y), apply(x.z, y.z), apply(x.w, y.w));
    }
}
