// Strided unary skeleton: o[view] = op(a[view]) over one block of at most 8 axes.
//
// Prepended by the host: the aliases `T`/`C` (input storage/compute type), `O`/`R` (output
// storage/compute type), the dtype helpers, and an op file defining `fn op(a: C) -> R` (selected
// by its `OP` override). Indexing as in binary.wgsl.

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
@group(0) @binding(1) var<storage, read> a: array<T>;
@group(0) @binding(2) var<storage, read_write> o: array<O>;

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let start = ((wid.y * nwg.x + wid.x) * WG + lid) * EPT;
    if (start >= p.count) {
        return;
    }
    var coord: array<u32, 8>;
    var rem = start;
    var ia = p.a_base;
    var io = p.o_base;
    for (var k = p.rank; k > 0u; k -= 1u) {
        let d = k - 1u;
        let n = p.shape[d / 4u][d % 4u];
        coord[d] = rem % n;
        rem = rem / n;
        ia += i32(coord[d]) * p.a_strides[d / 4u][d % 4u];
        io += i32(coord[d]) * p.o_strides[d / 4u][d % 4u];
    }
    let stop = min(start + EPT, p.count);
    for (var i = start; i < stop; i += 1u) {
        o[io] = O(op(C(a[ia])));
        for (var d = p.rank - 1u; ; d -= 1u) {
            coord[d] += 1u;
            ia += p.a_strides[d / 4u][d % 4u];
            io += p.o_strides[d / 4u][d % 4u];
            let n = p.shape[d / 4u][d % 4u];
            if (coord[d] < n || d == 0u) {
                break;
            }
            coord[d] = 0u;
            ia -= i32(n) * p.a_strides[d / 4u][d % 4u];
            io -= i32(n) * p.o_strides[d / 4u][d % 4u];
        }
    }
}
