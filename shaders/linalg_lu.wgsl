// LU factorisation with partial pivoting (P·A = L·U, LAPACK's getrf) of the columns [j0, j1) of
// a panel of columns ending at k1, for a batch of square row-major matrices, one workgroup per
// matrix, in place: L's multipliers below the diagonal, U on and above it. The host prepends
// `alias T = f32;` (or f64). It splits a panel's columns over launches so that no invocation
// runs more loop iterations than the adapter allows (lavapipe leaves every loop of an
// invocation once they have run 65535 iterations together).
//
// A small matrix is one panel (k1 = n). A large
// one is factored in panels of columns; between two panels the host subtracts L21·U12 from the
// trailing matrix with the tuned matmul (blocked right-looking LU). So that the host needs no
// triangular solve, each step here also eliminates in the panel's own rows right of the panel
// (U12 = L11⁻¹·A12), and row swaps move whole rows (the L columns left of the panel too, as
// getrf's laswp does).
//
// Per column: the pivot is the first row of largest magnitude at or below the diagonal (LAPACK's
// idamax); its row index goes to `piv`, a zero pivot sets `info` to its 1-based column (the first
// one only; the factorisation goes on as LAPACK's does, and the host reports the matrix as
// singular).

override WG: u32 = 64u;

struct Params {
    n: u32,
    k1: u32,
    j0: u32,
    j1: u32,
    batch: u32,
    a_base: u32,
    piv_base: u32,
    info_base: u32,
}

// The parameters come through a storage binding, not `var<uniform>` (as in shaders/philox.wgsl):
// lavapipe specialises a shader for the uniform values steering it and keeps a variant per
// distinct value, and the window bases here differ from call to call (30 ms and 1 MB a launch).
// Each entry point loads them once, through workgroup memory so that they stay uniform.
@group(0) @binding(0) var<storage, read> params: Params;
var<workgroup> shared_params: Params;
@group(0) @binding(1) var<storage, read_write> a: array<T>;
@group(0) @binding(2) var<storage, read_write> piv: array<i32>;
@group(0) @binding(3) var<storage, read_write> info: array<i32>;

var<workgroup> best_abs: array<T, WG>;
var<workgroup> best_row: array<u32, WG>;

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
    let m = wid.y * nwg.x + wid.x;
    if (m >= p.batch) {
        return;
    }
    let n = p.n;
    let base = p.a_base + m * n * n;
    for (var j = p.j0; j < p.j1; j += 1u) {
        // The pivot: each invocation scans its rows, then a tree keeps the largest magnitude,
        // the smaller row on ties (a NaN below the diagonal never wins, as in idamax).
        var ba = T(-1.0);
        var br = j;
        for (var r = j + lid; r < n; r += WG) {
            let v = abs(a[base + r * n + j]);
            if (!is_nan(v) && v > ba) {
                ba = v;
                br = r;
            }
        }
        best_abs[lid] = ba;
        best_row[lid] = br;
        workgroupBarrier();
        for (var s = WG / 2u; s > 0u; s = s >> 1u) {
            if (lid < s) {
                let oa = best_abs[lid + s];
                let orow = best_row[lid + s];
                if (oa > best_abs[lid] || (oa == best_abs[lid] && orow < best_row[lid])) {
                    best_abs[lid] = oa;
                    best_row[lid] = orow;
                }
            }
            workgroupBarrier();
        }
        // idamax starts from the diagonal: a NaN there is the pivot (NaN elsewhere never is).
        let dj = a[base + j * n + j];
        let pr = select(best_row[0], j, is_nan(dj));
        if (pr != j) {
            for (var c = lid; c < n; c += WG) {
                let x = a[base + j * n + c];
                a[base + j * n + c] = a[base + pr * n + c];
                a[base + pr * n + c] = x;
            }
        }
        if (lid == 0u) {
            piv[p.piv_base + m * n + j] = i32(pr);
        }
        storageBarrier();
        let d = a[base + j * n + j];
        if (d == T(0.0) && !is_nan(d)) {
            if (lid == 0u && info[p.info_base + m] == 0) {
                info[p.info_base + m] = i32(j + 1u);
            }
        } else {
            for (var r = j + 1u + lid; r < n; r += WG) {
                a[base + r * n + j] = a[base + r * n + j] / d;
            }
        }
        storageBarrier();
        // Rank-1 update of the rows below j in the panel's columns right of j ...
        let cols = p.k1 - j - 1u;
        if (cols > 0u) {
            let pairs = (n - j - 1u) * cols;
            for (var t = lid; t < pairs; t += WG) {
                let r = j + 1u + t / cols;
                let c = j + 1u + t % cols;
                a[base + r * n + c] -= a[base + r * n + j] * a[base + j * n + c];
            }
        }
        // ... and of the panel's rows below j in the columns right of the panel (U12).
        let rest = n - p.k1;
        if (rest > 0u && cols > 0u) {
            let pairs = cols * rest;
            for (var t = lid; t < pairs; t += WG) {
                let r = j + 1u + t / rest;
                let c = p.k1 + t % rest;
                a[base + r * n + c] -= a[base + r * n + j] * a[base + j * n + c];
            }
        }
        storageBarrier();
    }
}
