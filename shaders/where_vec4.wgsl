// Contiguous select: o[i] = select(b[i], a[i], cond[i] != 0) with every operand of one shape,
// read and written four elements at a time (`where(cond, a, b)`, and the masked reductions'
// `where(mask, a, identity)`). The host takes it when every array operand's block is
// contiguous, starts at a multiple of 4 elements and holds a multiple of 4; `count` and the
// bases are in vec4s. `cond` is a bool array (u32 0/1). Prepended by the host: `alias T` (the
// one-word storage type of a, b and o) and `alias S` (the scalars' type in the parameters).
//
// SCALAR bit 0: `a` is the scalar `p.a_scalar`; bit 1: `b` is `p.b_scalar`. A scalar side's
// binding repeats another read-only binding and is not read. The strided kernel (where.wgsl)
// takes every other layout, with scalars as 0-d arrays.

override WG: u32 = 256u;
override EPT: u32 = 4u;
override SCALAR: u32 = 0u;

struct Params {
    c_base: u32,
    a_base: u32,
    b_base: u32,
    o_base: u32,
    count: u32,
    a_scalar: S,
    b_scalar: S,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> cond: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read> a: array<vec4<T>>;
@group(0) @binding(3) var<storage, read> b: array<vec4<T>>;
@group(0) @binding(4) var<storage, read_write> o: array<vec4<T>>;

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
        var x = vec4<T>(T(p.a_scalar));
        if ((SCALAR & 1u) == 0u) {
            x = a[p.a_base + i];
        }
        var y = vec4<T>(T(p.b_scalar));
        if ((SCALAR & 2u) == 0u) {
            y = b[p.b_base + i];
        }
        o[p.o_base + i] = select(y, x, cond[p.c_base + i] != vec4<u32>(0u));
    }
}
