// Solves A·X = B from getrf's factors (P·A = L·U in `lu`, row swaps in `piv`) in place in B, a
// batch of row-major n × m right-hand sides, as LAPACK's getrs: the swaps, then forward
// substitution with the unit lower L, then back substitution with U. One workgroup per (matrix,
// run of `cw` columns of B); the host prepends `alias T = ..;`.
//
// The swaps are sequential per column, so each invocation owns columns; the substitutions step
// through the rows (one barrier per step) with the invocations over (row, column) pairs of the
// rows still to update. `phase` 0 is the swaps, 1 the forward steps [j0, j1), 2 the backward
// steps for rows [j0, j1) (from j1 − 1 down): the host splits the steps over launches within
// the adapter's loop budget (see linalg_lu.wgsl).

override WG: u32 = 64u;

struct Params {
    n: u32,
    m: u32,
    cw: u32,
    runs: u32,
    batch: u32,
    lu_base: u32,
    piv_base: u32,
    b_base: u32,
    phase: u32,
    j0: u32,
    j1: u32,
}

// The parameters come through a storage binding, not `var<uniform>` (as in shaders/philox.wgsl):
// lavapipe specialises a shader for the uniform values steering it and keeps a variant per
// distinct value, and the window bases here differ from call to call (30 ms and 1 MB a launch).
// Each entry point loads them once, through workgroup memory so that they stay uniform.
@group(0) @binding(0) var<storage, read> params: Params;
var<workgroup> shared_params: Params;
@group(0) @binding(1) var<storage, read> lu: array<T>;
@group(0) @binding(2) var<storage, read> piv: array<i32>;
@group(0) @binding(3) var<storage, read_write> b: array<T>;

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    if (lid == 0u) {
        shared_params = params;
    }
    let p = workgroupUniformLoad(&shared_params);
    let g = wid.y * nwg.x + wid.x;
    let mat = g / p.runs;
    if (mat >= p.batch) {
        return;
    }
    let n = p.n;
    let m = p.m;
    let c0 = (g % p.runs) * p.cw;
    let cw = min(p.cw, m - c0);
    let la = p.lu_base + mat * n * n;
    let bb = p.b_base + mat * n * m + c0;
    if (p.phase == 0u) {
        for (var c = lid; c < cw; c += WG) {
            for (var j = 0u; j < n; j += 1u) {
                let r = u32(piv[p.piv_base + mat * n + j]);
                if (r != j) {
                    let x = b[bb + j * m + c];
                    b[bb + j * m + c] = b[bb + r * m + c];
                    b[bb + r * m + c] = x;
                }
            }
        }
        return;
    }
    if (p.phase == 1u) {
        // L·Y = P·B, L unit lower.
        for (var j = p.j0; j < p.j1; j += 1u) {
            let pairs = (n - j - 1u) * cw;
            for (var t = lid; t < pairs; t += WG) {
                let r = j + 1u + t / cw;
                let c = t % cw;
                b[bb + r * m + c] -= lu[la + r * n + j] * b[bb + j * m + c];
            }
            storageBarrier();
        }
        return;
    }
    // U·X = Y.
    for (var jj = p.j0; jj < p.j1; jj += 1u) {
        let j = p.j1 - 1u - (jj - p.j0);
        for (var c = lid; c < cw; c += WG) {
            b[bb + j * m + c] = b[bb + j * m + c] / lu[la + j * n + j];
        }
        storageBarrier();
        let pairs = j * cw;
        for (var t = lid; t < pairs; t += WG) {
            let r = t / cw;
            let c = t % cw;
            b[bb + r * m + c] -= lu[la + r * n + j] * b[bb + j * m + c];
        }
        storageBarrier();
    }
}
