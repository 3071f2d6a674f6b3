// LU factorisation with partial pivoting (P·A = L·U, LAPACK's getrf) of the columns [j0, j1) of
// a panel of columns ending at column k1, for a batch of row-major `rows` × `ld` arrays, one
// workgroup per array, in place: L's multipliers below the diagonal, U on and above it. The
// host prepends `alias T = f32;` (or f64). It splits a panel's columns over launches so that no
// invocation runs more loop iterations than the adapter allows (lavapipe leaves every loop of an
// invocation once they have run 65535 iterations together).
//
// In place in a square matrix (rows = ld = n, off = 0): a small matrix is one panel (k1 = n). A
// large one is factored in panels of columns: row swaps move whole rows (the L columns left of
// the panel too, as getrf's laswp does), then the host solves for the block row right of the
// panel (U12 = L11⁻¹·A12, shaders/linalg_lu_u12.wgsl) and subtracts L21·U12 from the trailing
// matrix with the tuned matmul (blocked right-looking LU).
//
// In a copy of one panel (a matrix larger than one storage binding: rows = n − off, ld = k1 =
// the panel's width, `off` its first row and column): the swaps move the copy's rows only; the
// host applies them to the rest of the matrix (shaders/linalg_swap_rows.wgsl), solves for U12
// and writes the copy back.
//
// Per column: the pivot is the first row of largest magnitude at or below the diagonal (LAPACK's
// idamax); its row index in the matrix goes to `piv` (`piv_stride` entries per matrix), a zero
// pivot sets `info` to its 1-based column in the matrix (the first one only; the factorisation
// goes on as LAPACK's does, and the host reports the matrix as singular).

override WG: u32 = 64u;

struct Params {
    rows: u32,
    ld: u32,
    k1: u32,
    j0: u32,
    j1: u32,
    batch: u32,
    a_base: u32,
    piv_base: u32,
    info_base: u32,
    piv_stride: u32,
    off: u32,
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
    let rows = p.rows;
    let ld = p.ld;
    let base = p.a_base + m * rows * ld;
    // The grid of the rank-1 updates: `lanes` columns (WG is a power of two).
    let lanes = min(WG, 32u);
    let lane = lid % lanes;
    let lane_row = lid / lanes;
    for (var j = p.j0; j < p.j1; j += 1u) {
        // The pivot: each invocation scans its rows, then a tree keeps the largest magnitude,
        // the smaller row on ties (a NaN below the diagonal never wins, as in idamax).
        var ba = T(-1.0);
        var br = j;
        for (var r = j + lid; r < rows; r += WG) {
            let v = abs(a[base + r * ld + j]);
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
        let dj = a[base + j * ld + j];
        let pr = select(best_row[0], j, is_nan(dj));
        if (pr != j) {
            for (var c = lid; c < ld; c += WG) {
                let x = a[base + j * ld + c];
                a[base + j * ld + c] = a[base + pr * ld + c];
                a[base + pr * ld + c] = x;
            }
        }
        if (lid == 0u) {
            piv[p.piv_base + m * p.piv_stride + p.off + j] = i32(p.off + pr);
        }
        storageBarrier();
        let d = a[base + j * ld + j];
        let singular = d == T(0.0) && !is_nan(d);
        if (singular && lid == 0u && info[p.info_base + m] == 0) {
            info[p.info_base + m] = i32(p.off + j + 1u);
        }
        // The multipliers, then the rank-1 update of the rows below j in the panel's columns
        // right of j, with the invocations as a grid of `lanes` columns × `WG / lanes` rows so
        // that neighbouring invocations touch neighbouring elements of a row (llvmpipe runs 8
        // invocations as one SIMD thread, and a workgroup on one CPU thread) and no index is
        // divided per element. A zero pivot scales nothing and the update still runs, as in
        // LAPACK's getf2.
        let pivot_row = base + j * ld;
        if (!singular) {
            for (var r = j + 1u + lid; r < rows; r += WG) {
                a[base + r * ld + j] = a[base + r * ld + j] / d;
            }
        }
        storageBarrier();
        for (var c = j + 1u + lane; c < p.k1; c += lanes) {
            let u = a[pivot_row + c];
            for (var r = j + 1u + lane_row; r < rows; r += WG / lanes) {
                a[base + r * ld + c] -= a[base + r * ld + j] * u;
            }
        }
        storageBarrier();
    }
}
