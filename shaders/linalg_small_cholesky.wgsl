// Small Cholesky factorisations, one invocation per matrix (as linalg_small_solve.wgsl: no
// barriers, for batches of many small matrices): A = L·Lᵀ from the lower triangle, in place,
// in potrf's order; a diagonal that is not positive (or NaN) sets `info` to its 1-based column.
// The host prepends `alias T = ..;`; the layout as in linalg_small_solve.wgsl.

struct Params {
    n: u32,
    batch: u32,
    a_base: u32,
    info_base: u32,
    a_mat: u32,
    a_el: u32,
}

// The parameters come through a storage binding, not `var<uniform>` (as in shaders/philox.wgsl):
// lavapipe specialises a shader for the uniform values steering it and keeps a variant per
// distinct value, and the window bases here differ from call to call.
@group(0) @binding(0) var<storage, read> params: Params;
@group(0) @binding(1) var<storage, read_write> a: array<T>;
@group(0) @binding(2) var<storage, read_write> info: array<i32>;

override WG: u32 = 64u;

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let p = params;
    let mat = (wid.y * nwg.x + wid.x) * WG + lid;
    if (mat >= p.batch) {
        return;
    }
    let n = p.n;
    let ab = p.a_base + mat * p.a_mat;
    var failed = 0u;
    for (var j = 0u; j < n; j += 1u) {
        let d = a[ab + (j * n + j) * p.a_el];
        if ((is_nan(d) || !(d > T(0.0))) && failed == 0u) {
            failed = j + 1u;
        }
        let s = sqrt(d);
        a[ab + (j * n + j) * p.a_el] = s;
        for (var r = j + 1u; r < n; r += 1u) {
            a[ab + (r * n + j) * p.a_el] = a[ab + (r * n + j) * p.a_el] / s;
        }
        for (var r = j + 1u; r < n; r += 1u) {
            let f = a[ab + (r * n + j) * p.a_el];
            for (var c = j + 1u; c <= r; c += 1u) {
                a[ab + (r * n + c) * p.a_el] -= f * a[ab + (c * n + j) * p.a_el];
            }
        }
    }
    info[p.info_base + mat] = i32(failed);
}
