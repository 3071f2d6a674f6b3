// Small linear systems, one invocation per matrix: no barriers, no workgroup memory, every invocation
// of a workgroup running the same loops (the same n) on its own matrix — what batches of many
// small systems need (10^4 8 × 8 solves are 10^4 invocations, not 10^4 workgroups stepping
// through barriers). The host prepends `alias T = ..;` and uses it while one matrix's loops stay
// within the adapter's loop budget (n up to about 40). Element (i, j) of matrix `mat` is at
// `base + mat·x_mat + (i·n + j)·x_el`: row-major matrices (x_mat = n², x_el = 1) or the batch
// interleaved (x_mat = 1, x_el = batch), which neighbouring invocations read as neighbouring
// words (coalesced on a GPU).
//
// Gaussian elimination with partial pivoting (LAPACK's gesv: the first row of largest
// magnitude at or below the diagonal; rows swapped in A and B together), then back substitution,
// for A (n × n) and B (n × m) of each matrix, in place: B becomes X. A zero pivot sets `info` to
// its 1-based column (the first) and the matrix's X is not meaningful (the host reports it).

struct Params {
    n: u32,
    m: u32,
    batch: u32,
    a_base: u32,
    b_base: u32,
    info_base: u32,
    a_mat: u32,
    a_el: u32,
    b_mat: u32,
    b_el: u32,
}

// The parameters come through a storage binding, not `var<uniform>` (as in shaders/philox.wgsl):
// lavapipe specialises a shader for the uniform values steering it and keeps a variant per
// distinct value, and the window bases here differ from call to call.
@group(0) @binding(0) var<storage, read> params: Params;
@group(0) @binding(1) var<storage, read_write> a: array<T>;
@group(0) @binding(2) var<storage, read_write> b: array<T>;
@group(0) @binding(3) var<storage, read_write> info: array<i32>;

override WG: u32 = 64u;

fn matrix(wid: vec3<u32>, nwg: vec3<u32>, lid: u32) -> u32 {
    return (wid.y * nwg.x + wid.x) * WG + lid;
}

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let p = params;
    let mat = matrix(wid, nwg, lid);
    if (mat >= p.batch) {
        return;
    }
    let n = p.n;
    let m = p.m;
    let ab = p.a_base + mat * p.a_mat;
    let bb = p.b_base + mat * p.b_mat;
    var failed = 0u;
    for (var j = 0u; j < n; j += 1u) {
        // idamax: from the diagonal, the first row of larger magnitude (a NaN on the diagonal
        // stays the pivot; one below never becomes it).
        var pr = j;
        var best = abs(a[ab + (j * n + j) * p.a_el]);
        if (!is_nan(best)) {
            for (var r = j + 1u; r < n; r += 1u) {
                let v = abs(a[ab + (r * n + j) * p.a_el]);
                if (!is_nan(v) && v > best) {
                    best = v;
                    pr = r;
                }
            }
        }
        if (pr != j) {
            for (var c = j; c < n; c += 1u) {
                let x = a[ab + (j * n + c) * p.a_el];
                a[ab + (j * n + c) * p.a_el] = a[ab + (pr * n + c) * p.a_el];
                a[ab + (pr * n + c) * p.a_el] = x;
            }
            for (var c = 0u; c < m; c += 1u) {
                let x = b[bb + (j * m + c) * p.b_el];
                b[bb + (j * m + c) * p.b_el] = b[bb + (pr * m + c) * p.b_el];
                b[bb + (pr * m + c) * p.b_el] = x;
            }
        }
        let d = a[ab + (j * n + j) * p.a_el];
        if (d == T(0.0) && !is_nan(d)) {
            if (failed == 0u) {
                failed = j + 1u;
            }
            continue;
        }
        for (var r = j + 1u; r < n; r += 1u) {
            let f = a[ab + (r * n + j) * p.a_el] / d;
            for (var c = j + 1u; c < n; c += 1u) {
                a[ab + (r * n + c) * p.a_el] -= f * a[ab + (j * n + c) * p.a_el];
            }
            for (var c = 0u; c < m; c += 1u) {
                b[bb + (r * m + c) * p.b_el] -= f * b[bb + (j * m + c) * p.b_el];
            }
        }
    }
    info[p.info_base + mat] = i32(failed);
    for (var jj = 0u; jj < n; jj += 1u) {
        let j = n - 1u - jj;
        let d = a[ab + (j * n + j) * p.a_el];
        for (var c = 0u; c < m; c += 1u) {
            var x = b[bb + (j * m + c) * p.b_el];
            for (var k = j + 1u; k < n; k += 1u) {
                x -= a[ab + (j * n + k) * p.a_el] * b[bb + (k * m + c) * p.b_el];
            }
            b[bb + (j * m + c) * p.b_el] = x / d;
        }
    }
}

