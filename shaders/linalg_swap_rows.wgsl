// Row interchanges (LAPACK's laswp): for a batch of row-major `rows` × `cols` arrays, swaps row
// j − row0 with row piv[j] − row0 for j = j0, …, j1 − 1 in that order, one invocation per
// column (`groups` workgroups per array). `piv` holds rows of the whole matrix, `piv_stride`
// entries per matrix; an array holds the matrix's rows from `row0` on (all of them, or a run of
// its columns). The host prepends `alias T = ..;`.
//
// The LU of a matrix larger than one storage binding factors each panel in a copy; this applies
// the panel's swaps to the matrix, a run of columns at a time (each run copied out and back), and
// the swaps of the whole factorization to the right-hand sides of a solve.

override WG: u32 = 64u;

struct Params {
    rows: u32,
    cols: u32,
    groups: u32,
    batch: u32,
    x_base: u32,
    piv_base: u32,
    piv_stride: u32,
    j0: u32,
    j1: u32,
    row0: u32,
}

// Parameters through storage, not a uniform: see shaders/linalg_lu.wgsl.
@group(0) @binding(0) var<storage, read> params: Params;
@group(0) @binding(1) var<storage, read_write> x: array<T>;
@group(0) @binding(2) var<storage, read> piv: array<i32>;

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let p = params;
    let g = wid.y * nwg.x + wid.x;
    let mat = g / p.groups;
    let c = (g % p.groups) * WG + lid;
    if (mat >= p.batch || c >= p.cols) {
        return;
    }
    let xb = p.x_base + mat * p.rows * p.cols + c;
    for (var j = p.j0; j < p.j1; j += 1u) {
        let r = u32(piv[p.piv_base + mat * p.piv_stride + j]) - p.row0;
        let k = j - p.row0;
        if (r != k) {
            let t = x[xb + k * p.cols];
            x[xb + k * p.cols] = x[xb + r * p.cols];
            x[xb + r * p.cols] = t;
        }
    }
}
