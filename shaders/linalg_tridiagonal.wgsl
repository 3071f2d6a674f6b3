// Householder reduction of a batch of real symmetric n × n matrices to tridiagonal form,
// Q ᵀ·A·Q = T (LAPACK's dsytd2, lower), for `eigh` of large matrices. The host prepends
// `alias T = ..;` and the dtype's constants, and launches the two entries once per column k
// (0 ≤ k < n − 1), many workgroups per matrix:
//
// `reflect`: the reflector H_k = I − τ·v·vᵀ (v_{k+1} = 1) that maps A[k+1.., k] to (β, 0, ...),
// built as dlarfg does (β = −sign(α)·‖·‖, the norm scaled by the largest magnitude), then
// p = τ·A22·v over the trailing matrix A22 = A[k+1.., k+1..], one row of p per invocation, and
// each workgroup's share of pᵀv in `part`. Every workgroup builds the reflector itself (a pass
// over the column) rather than waiting on another launch. Workgroup 0 stores d_k = A[k, k],
// e_k = β and τ_k, and v below the diagonal of column k of `h`, an (n − 1) × (n − 1) matrix
// holding the reflectors as a QR factorisation would (so that Q is formed by QR's code);
// at the last column, d_{n−1} too.
//
// `update`: A22 ← H·A22·H = A22 − v·wᵀ − w·vᵀ with w = p − ½τ(pᵀv)·v (one column per
// invocation, a run of rows per workgroup). A stays symmetric and whole (both triangles), so
// `reflect` reads A22·v by columns: neighbouring invocations read neighbouring words.
// The workgroup reduction and the reflector come from linalg_householder.wgsl.

override WG: u32 = 64u;

struct Params {
    n: u32,
    batch: u32,
    k: u32,
    // Workgroups per matrix, and in `update` how they split: column blocks × row runs.
    groups: u32,
    col_blocks: u32,
    rows_per_group: u32,
    // The workgroups per matrix of `reflect` (its `part` entries).
    parts: u32,
    a_base: u32,
    h_base: u32,
    p_base: u32,
    part_base: u32,
    tau_base: u32,
    tri_base: u32,
}

// Parameters through storage, not `var<uniform>` (lavapipe specialises per uniform value; see
// linalg_qr.wgsl), loaded once through workgroup memory so that they stay uniform.
@group(0) @binding(0) var<storage, read> params: Params;
var<workgroup> shared_params: Params;
@group(0) @binding(1) var<storage, read_write> a: array<T>;
@group(0) @binding(2) var<storage, read_write> h: array<T>;
@group(0) @binding(3) var<storage, read_write> pv: array<T>;
@group(0) @binding(4) var<storage, read_write> part: array<T>;
@group(0) @binding(5) var<storage, read_write> tau: array<T>;
// Per matrix: d (n), then e (n; e_{n−1} = 0). Last: `update` does not bind it.
@group(0) @binding(6) var<storage, read_write> tri: array<T>;

// linalg_householder.wgsl's view of the matrix.
fn load(i: u32) -> T {
    return a[i];
}

@compute @workgroup_size(WG)
fn reflect(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    if (lid == 0u) {
        shared_params = params;
    }
    let p = workgroupUniformLoad(&shared_params);
    let flat = wid.y * nwg.x + wid.x;
    let mat = flat / p.groups;
    let g = flat % p.groups;
    if (mat >= p.batch) {
        return;
    }
    let n = p.n;
    let k = p.k;
    let base = p.a_base + mat * n * n;
    // The reflector of the column below the subdiagonal.
    let r = reflector_of(lid, a[base + (k + 1u) * n + k], base + (k + 2u) * n + k, n, n - k - 2u);
    let t = r.tau;
    let beta = r.beta;
    let inv = r.inv;
    // p_i = τ·Σ_j A[j, i]·v_j for this invocation's row i of the trailing matrix.
    let i = k + 1u + g * WG + lid;
    var mine = T(0.0);
    if (i < n && t != T(0.0)) {
        var s = a[base + (k + 1u) * n + i];
        for (var j = k + 2u; j < n; j += 1u) {
            s += a[base + j * n + i] * (a[base + j * n + k] * inv);
        }
        let pi = t * s;
        pv[p.p_base + mat * n + i] = pi;
        var vi = T(1.0);
        if (i > k + 1u) {
            vi = a[base + i * n + k] * inv;
        }
        mine = pi * vi;
    }
    let share = reduce(lid, mine, false);
    if (lid == 0u) {
        part[p.part_base + mat * p.parts + g] = share;
    }
    if (g == 0u) {
        let m = n - 1u;
        let hb = p.h_base + mat * m * m;
        for (var j = k + 2u + lid; j < n; j += WG) {
            h[hb + (j - 1u) * m + k] = a[base + j * n + k] * inv;
        }
        if (lid == 0u) {
            let tb = p.tri_base + mat * 2u * n;
            tri[tb + k] = a[base + k * n + k];
            tri[tb + n + k] = beta;
            tau[p.tau_base + mat * m + k] = t;
            if (k + 2u == n) {
                tri[tb + n - 1u] = a[base + (n - 1u) * n + n - 1u];
                tri[tb + 2u * n - 1u] = T(0.0);
            }
        }
    }
}

// v_i of the current reflector (i > k), from `h`.
fn v_at(hb: u32, m: u32, k: u32, i: u32) -> T {
    if (i == k + 1u) {
        return T(1.0);
    }
    return h[hb + (i - 1u) * m + k];
}

@compute @workgroup_size(WG)
fn update(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let p = params;
    let flat = wid.y * nwg.x + wid.x;
    let mat = flat / p.groups;
    let g = flat % p.groups;
    if (mat >= p.batch) {
        return;
    }
    let n = p.n;
    let k = p.k;
    let m = n - 1u;
    let t = tau[p.tau_base + mat * m + k];
    if (t == T(0.0)) {
        return;
    }
    // pᵀv, from the shares of `reflect`'s workgroups, in the same order everywhere.
    var ptv = T(0.0);
    for (var q = 0u; q < p.parts; q += 1u) {
        ptv += part[p.part_base + mat * p.parts + q];
    }
    let aw = T(-0.5) * t * ptv;
    let base = p.a_base + mat * n * n;
    let hb = p.h_base + mat * m * m;
    let pb = p.p_base + mat * n;
    let j = k + 1u + (g % p.col_blocks) * WG + lid;
    if (j >= n) {
        return;
    }
    let vj = v_at(hb, m, k, j);
    let wj = pv[pb + j] + aw * vj;
    let r0 = k + 1u + (g / p.col_blocks) * p.rows_per_group;
    let r1 = min(n, r0 + p.rows_per_group);
    for (var i = r0; i < r1; i += 1u) {
        let vi = v_at(hb, m, k, i);
        let wi = pv[pb + i] + aw * vi;
        a[base + i * n + j] -= vi * wj + wi * vj;
    }
}
