// Contiguous unary skeleton: vec4 loads and stores (conditions and layout as binary_vec4.wgsl).

override WG: u32 = 256u;
override EPT: u32 = 4u;

struct Params {
    a_base: u32,
    o_base: u32,
    count: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> a: array<vec4<T>>;
@group(0) @binding(2) var<storage, read_write> o: array<vec4<O>>;

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
        o[p.o_base + i] = vec4<O>(O(op(C(x.x))), O(op(C(x.y))), O(op(C(x.z))), O(op(C(x.w))));
    }
}
