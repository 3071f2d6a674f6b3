// Matrix-vector products, the M = 1 and N = 1 cases of matmul: out[b, i] (+)= sum_k X[b, i, k] * v[b, k].
//
// One invocation per output element, four independent accumulators over k. X and v are addressed
// by element strides, so A @ x (X = A) and x @ B (X = B transposed, a stride swap) share this kernel.
// The host prepends `alias T = ..;` and `alias ACC = ..;` and the arithmetic: `zero()`,
// `madd(acc, x, y)` (acc + x y in ACC), `plus(a, b)`, `widen(x)` (T to ACC) and `narrow(a)` (ACC
// to T) -- operators for native types, f64_soft.wgsl's routines for software f64 (the same order,
// so the same bits as the native f64 kernel where its driver neither fuses nor reorders).

override WG: u32 = 256u;

struct Params {
    rows: u32,
    k: u32,
    accumulate: u32,
    _pad: u32,
    x_base: i32,
    x_rs: i32,
    x_cs: i32,
    x_bs: i32,
    v_base: i32,
    v_s: i32,
    v_bs: i32,
    o_base: i32,
    o_s: i32,
    o_bs: i32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> x: array<T>;
@group(0) @binding(2) var<storage, read> v: array<T>;
@group(0) @binding(3) var<storage, read_write> o: array<T>;

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let i = (wid.y * nwg.x + wid.x) * WG + lid;
    if (i >= p.rows) {
        return;
    }
    let bz = i32(wid.z);
    let xr = p.x_base + bz * p.x_bs + i32(i) * p.x_rs;
    let vb = p.v_base + bz * p.v_bs;
    var s0 = zero();
    var s1 = zero();
    var s2 = zero();
    var s3 = zero();
    let k4 = p.k & ~3u;
    for (var k = 0u; k < k4; k += 4u) {
        let kk = i32(k);
        s0 = madd(s0, x[xr + kk * p.x_cs], v[vb + kk * p.v_s]);
        s1 = madd(s1, x[xr + (kk + 1) * p.x_cs], v[vb + (kk + 1) * p.v_s]);
        s2 = madd(s2, x[xr + (kk + 2) * p.x_cs], v[vb + (kk + 2) * p.v_s]);
        s3 = madd(s3, x[xr + (kk + 3) * p.x_cs], v[vb + (kk + 3) * p.v_s]);
    }
    for (var k = k4; k < p.k; k += 1u) {
        s0 = madd(s0, x[xr + i32(k) * p.x_cs], v[vb + i32(k) * p.v_s]);
    }
    var total = plus(plus(s0, s1), plus(s2, s3));
    let at = p.o_base + bz * p.o_bs + i32(i) * p.o_s;
    if (p.accumulate != 0u) {
        total = plus(total, widen(o[at]));
    }
    o[at] = narrow(total);
}
