// Solves A·X = B from getrf's factors (P·A = L·U in `lu`, row swaps in `piv`) in place in B, a
// batch of row-major n × m right-hand sides, as LAPACK's getrs: the swaps, then forward
// substitution with the unit lower L, then back substitution with U. One workgroup per (matrix,
// run of `cw` columns of B); the host prepends `alias T = ..;`.
//
// The swaps are sequential per column, so each invocation owns columns; the substitutions go
// through the rows in blocks (two barriers a block). `phase` 0 is the swaps, 1 the forward
// steps for rows [j0, j1), 2 the backward steps for rows [j0, j1) (from j1 − 1 up): the host
// splits the rows over launches within the adapter's loop budget (see linalg_lu.wgsl).

override WG: u32 = 64u;
// Rows per block of the substitutions.
const BLOCK: u32 = 32u;

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
        // L·Y = P·B, L unit lower, in blocks of BLOCK rows: the block's own rows one after
        // another (invocations over columns), then every row below takes the block's terms at
        // once (invocations over (row, column) pairs), reading L by rows. Each element takes
        // its terms in the same order as one row at a time would (q ascending), so the bits
        // do not depend on the blocking or on how the host splits the steps.
        for (var i0 = p.j0; i0 < p.j1; i0 += BLOCK) {
            let i1 = min(i0 + BLOCK, p.j1);
            for (var c = lid; c < cw; c += WG) {
                for (var r = i0 + 1u; r < i1; r += 1u) {
                    var x = b[bb + r * m + c];
                    for (var q = i0; q < r; q += 1u) {
                        x -= lu[la + r * n + q] * b[bb + q * m + c];
                    }
                    b[bb + r * m + c] = x;
                }
            }
            storageBarrier();
            let pairs = (n - i1) * cw;
            for (var t = lid; t < pairs; t += WG) {
                let r = i1 + t / cw;
                let c = t % cw;
                var x = b[bb + r * m + c];
                for (var q = i0; q < i1; q += 1u) {
                    x -= lu[la + r * n + q] * b[bb + q * m + c];
                }
                b[bb + r * m + c] = x;
            }
            storageBarrier();
        }
        return;
    }
    // U·X = Y for rows [j0, j1), from the bottom up in blocks of BLOCK rows: the block's rows
    // from its last up (each divided by its diagonal once its terms are in), then every row
    // above takes the block's terms, q descending (the order of one row at a time).
    for (var i1 = p.j1; i1 > p.j0; i1 -= min(BLOCK, i1 - p.j0)) {
        let i0 = max(i1, p.j0 + BLOCK) - BLOCK;
        for (var c = lid; c < cw; c += WG) {
            for (var r = i1; r > i0; r -= 1u) {
                let row = r - 1u;
                var x = b[bb + row * m + c];
                for (var q = i1; q > r; q -= 1u) {
                    x -= lu[la + row * n + q - 1u] * b[bb + (q - 1u) * m + c];
                }
                b[bb + row * m + c] = x / lu[la + row * n + row];
            }
        }
        storageBarrier();
        let pairs = i0 * cw;
        for (var t = lid; t < pairs; t += WG) {
            let r = t / cw;
            let c = t % cw;
            var x = b[bb + r * m + c];
            for (var q = i1; q > i0; q -= 1u) {
                x -= lu[la + r * n + q - 1u] * b[bb + (q - 1u) * m + c];
            }
            b[bb + r * m + c] = x;
        }
        storageBarrier();
    }
}
