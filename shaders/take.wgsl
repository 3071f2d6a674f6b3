// Gather along one axis (`take`): out[o, j, i] = x[o, idx[j], i] over one block of (o, j, i).
//
// x is addressed through its window with strides (x_os, x_as, x_is); the window spans rows
// [lo, hi) of the taken axis, since which row a j reads depends on the data. When the axis is
// larger than one binding, the host runs one pass per range of rows and each pass writes only
// the outputs whose index falls in its range. Indices are i32, already checked on the host to lie
// in [-n, n); negative ones count from the end, as in NumPy. The host prepends the bindings `x`
// (1) and `out` (3) with their `load_x`/`store_out` (device/element_access.rs: any dtype).

override WG: u32 = 256u;

struct Params {
    count_o: u32,
    count_j: u32,
    count_i: u32,
    axis_len: u32,
    x_base: i32,
    x_os: i32,
    x_as: i32,
    x_is: i32,
    idx_base: i32,
    out_base: i32,
    out_os: i32,
    out_js: i32,
    lo: i32,
    hi: i32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(2) var<storage, read> idx: array<i32>;

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let e = (wid.y * nwg.x + wid.x) * WG + lid;
    let total = p.count_o * p.count_j * p.count_i;
    if (e >= total) {
        return;
    }
    let i = e % p.count_i;
    let j = (e / p.count_i) % p.count_j;
    let o = e / (p.count_i * p.count_j);
    var k = idx[p.idx_base + i32(j)];
    if (k < 0) {
        k += i32(p.axis_len);
    }
    if (k < p.lo || k >= p.hi) {
        return;
    }
    let src = p.x_base + i32(o) * p.x_os + (k - p.lo) * p.x_as + i32(i) * p.x_is;
    store_out(p.out_base + i32(o) * p.out_os + i32(j) * p.out_js + i32(i), load_x(src));
}
