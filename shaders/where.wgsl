// Strided select: o[view] = select(b[view], a[view], cond[view] != 0) over one block of at most 8
// axes (`where(cond, a, b)`). `cond` is a bool array (u32 0/1); the host prepends `alias T = ..;`.

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
@group(0) @binding(2) var<storage, read> a: array<T>;
@group(0) @binding(3) var<storage, read> b: array<T>;
@group(0) @binding(4) var<storage, read_write> o: array<T>;

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
    var ic = p.c_base;
    var ia = p.a_base;
    var ib = p.b_base;
    var io = p.o_base;
    for (var k = p.rank; k > 0u; k -= 1u) {
        let d = k - 1u;
        let n = p.shape[d / 4u][d % 4u];
        coord[d] = rem % n;
        rem = rem / n;
        ic += i32(coord[d]) * p.c_strides[d / 4u][d % 4u];
        ia += i32(coord[d]) * p.a_strides[d / 4u][d % 4u];
        ib += i32(coord[d]) * p.b_strides[d / 4u][d % 4u];
        io += i32(coord[d]) * p.o_strides[d / 4u][d % 4u];
    }
    let stop = min(start + EPT, p.count);
    for (var i = start; i < stop; i += 1u) {
        if (cond[ic] != 0u) {
            o[io] = a[ia];
        } else {
            o[io] = b[ib];
        }
        for (var d = p.rank - 1u; ; d -= 1u) {
            coord[d] += 1u;
            ic += p.c_strides[d / 4u][d % 4u];
            ia += p.a_strides[d / 4u][d % 4u];
            ib += p.b_strides[d / 4u][d % 4u];
            io += p.o_strides[d / 4u][d % 4u];
            let n = p.shape[d / 4u][d % 4u];
            if (coord[d] < n || d == 0u) {
                break;
            }
            coord[d] = 0u;
            ic -= i32(n) * p.c_strides[d / 4u][d % 4u];
            ia -= i32(n) * p.a_strides[d / 4u][d % 4u];
            ib -= i32(n) * p.b_strides[d / 4u][d % 4u];
            io -= i32(n) * p.o_strides[d / 4u][d % 4u];
        }
    }
}
