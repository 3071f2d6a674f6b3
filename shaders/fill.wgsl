// Strided fill: dst[view] = value over one block of at most 8 axes (full, ones, eye's diagonal,
// assignment of a scalar to a view).
//
// The host prepends `alias T = ..;` (the stored type) and `alias V = ..;` (the type the value
// travels in: f32 for f16 arrays, so the uniform buffer never holds f16).

override WG: u32 = 256u;
// Elements per invocation: a run of EPT consecutive block elements, unravelled once (see copy.wgsl).
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
@group(0) @binding(1) var<storage, read_write> dst: array<T>;

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
    var d = p.base;
    for (var k = p.rank; k > 0u; k -= 1u) {
        let a = k - 1u;
        let n = p.shape[a / 4u][a % 4u];
        coord[a] = rem % n;
        rem = rem / n;
        d += i32(coord[a]) * p.strides[a / 4u][a % 4u];
    }
    let value = T(p.value);
    let stop = min(start + EPT, p.count);
    for (var i = start; i < stop; i += 1u) {
        dst[d] = value;
        for (var a = p.rank - 1u; ; a -= 1u) {
            coord[a] += 1u;
            d += p.strides[a / 4u][a % 4u];
            let n = p.shape[a / 4u][a % 4u];
            if (coord[a] < n || a == 0u) {
                break;
            }
            coord[a] = 0u;
            d -= i32(n) * p.strides[a / 4u][a % 4u];
        }
    }
}
