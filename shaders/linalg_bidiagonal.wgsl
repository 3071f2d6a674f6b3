// Householder reduction of a batch of real square n × n matrices to upper bidiagonal form,
// Q_Lᵀ·A·Q_R = B (LAPACK's dgebd2), for `svd` of large matrices. The host prepends
// `alias T = ..;` and the dtype's constants, then linalg_householder.wgsl, and launches per
// column k, many workgroups per matrix:
//
// `left`: the reflector H = I − τ·v·vᵀ (v_k = 1) mapping A[k.., k] to (d_k, 0, …), and
// w = τ·A[k.., k+1..]ᵀ·v over the trailing columns; then `update` with (r, c) = (v, w) from row
// k, column k + 1: A ← H·A.
//
// `right` (k < n − 1): the reflector G = I − τ·u·uᵀ (u_{k+1} = 1) mapping A[k, k+1..] to
// (e_k, 0, …), and x = τ·A[k+1.., k+1..]·u over the trailing rows, one row per invocation; then
// `update` with (r, c) = (x, u) from row and column k + 1: A ← A·G.
//
// A's rows are padded to `w4` vec4s (columns n.. zero, and kept zero): `left` and `update` take
// four neighbouring columns per invocation and `right` walks its row four at a time, each
// access one vec4 (on lavapipe every invocation's access is a scalar access of its own). The
// update is a launch of its own, split over column blocks × row runs, so that a large matrix
// fills the device (fusing each update into its reflector's launch, one column or row per
// invocation, made 512² 15 % slower on lavapipe and leaves a GPU idle). Every workgroup builds
// the reflector itself (a pass over the column or row) rather than waiting on another launch;
// workgroup 0 stores it: v below the diagonal of column k of `h` (n × n, `left`; QR's layout,
// so that Q_L is formed by QR's code) or u below the diagonal of column k of the
// (n − 1) × (n − 1) `h` of `right` (Q_R = diag(1, Q')), τ, and d_k or e_k in `bd` (per matrix
// d (n), e (n), then the threshold slot that linalg_bdsqr.wgsl fills: −1 here).

override WG: u32 = 64u;

struct Params {
    n: u32,
    // vec4s per row of A.
    w4: u32,
    batch: u32,
    k: u32,
    // Workgroups per matrix, and in `update` how they split: column blocks × row runs.
    groups: u32,
    col_blocks: u32,
    rows_per_group: u32,
    // `update`'s first row and column.
    r0: u32,
    c0: u32,
    // In vec4s.
    a_base: u32,
    r_base: u32,
    c_base: u32,
    h_base: u32,
    tau_base: u32,
    bd_base: u32,
}

// Parameters through storage, as in linalg_tridiagonal.wgsl.
@group(0) @binding(0) var<storage, read> params: Params;
var<workgroup> shared_params: Params;
@group(0) @binding(1) var<storage, read_write> a: array<vec4<T>>;
// The update's row and column vectors (n per matrix).
@group(0) @binding(2) var<storage, read_write> rvec: array<T>;
@group(0) @binding(3) var<storage, read_write> cvec: array<T>;
// Not bound by `update`.
@group(0) @binding(4) var<storage, read_write> h: array<T>;
@group(0) @binding(5) var<storage, read_write> tau: array<T>;
@group(0) @binding(6) var<storage, read_write> bd: array<T>;

// Element i of the matrices (linalg_householder.wgsl's view), counted from the binding's
// first vec4.
fn load(i: u32) -> T {
    return a[i >> 2u][i & 3u];
}

// Which of the four columns 4q.. are in [lo, hi), as 1 or 0.
fn inside(q: u32, lo: u32, hi: u32) -> vec4<T> {
    let j = vec4<u32>(4u * q) + vec4<u32>(0u, 1u, 2u, 3u);
    return select(vec4<T>(T(0.0)), vec4<T>(T(1.0)), (j >= vec4<u32>(lo)) & (j < vec4<u32>(hi)));
}

@compute @workgroup_size(WG)
fn left(
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
    let w4 = p.w4;
    let k = p.k;
    let base = p.a_base + mat * n * w4;
    // In elements: column k, row k.
    let col = 4u * base + k;
    let r = reflector_of(lid, load(col + k * 4u * w4), col + (k + 1u) * 4u * w4, 4u * w4, n - k - 1u);
    // w_j = τ·(A[k, j] + Σ_{i>k} A[i, j]·v_i) for this invocation's four columns j.
    let q = (k + 1u) / 4u + g * WG + lid;
    if (q < w4) {
        var w = vec4<T>(T(0.0));
        if (r.tau != T(0.0)) {
            var sum = a[base + k * w4 + q];
            for (var i = k + 1u; i < n; i += 1u) {
                sum += a[base + i * w4 + q] * (load(col + i * 4u * w4) * r.inv);
            }
            w = r.tau * sum;
        }
        let keep = inside(q, k + 1u, n);
        for (var c = 0u; c < 4u; c += 1u) {
            if (keep[c] != T(0.0)) {
                cvec[p.c_base + mat * n + 4u * q + c] = w[c];
            }
        }
    }
    if (g == 0u) {
        for (var i = k + 1u + lid; i < n; i += WG) {
            let v = load(col + i * 4u * w4) * r.inv;
            rvec[p.r_base + mat * n + i] = v;
            h[p.h_base + mat * n * n + i * n + k] = v;
        }
        if (lid == 0u) {
            let bb = p.bd_base + mat * (2u * n + 1u);
            rvec[p.r_base + mat * n + k] = T(1.0);
            tau[p.tau_base + mat * n + k] = r.tau;
            bd[bb + k] = r.beta;
            if (k == 0u) {
                bd[bb + 2u * n - 1u] = T(0.0);
                bd[bb + 2u * n] = T(-1.0);
            }
        }
    }
}

@compute @workgroup_size(WG)
fn right(
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
    let w4 = p.w4;
    let k = p.k;
    let base = p.a_base + mat * n * w4;
    // Row k, in vec4s and in elements.
    let row = base + k * w4;
    let r = reflector_of(lid, load(4u * row + k + 1u), 4u * row + k + 2u, 1u, n - k - 2u);
    // x_i = τ·Σ_j A[i, j]·u_j for this invocation's row i: u is row k's entries past k + 1
    // times inv, 1 at k + 1, 0 before (and 0 in the padding, which A keeps zero).
    let i = k + 1u + g * WG + lid;
    if (i < n) {
        var x = T(0.0);
        if (r.tau != T(0.0)) {
            let q0 = (k + 1u) / 4u;
            var sum = T(0.0);
            for (var q = q0; q < w4; q += 1u) {
                var u = a[row + q] * r.inv;
                if (q == q0) {
                    u = u * inside(q, k + 2u, 4u * w4) + inside(q, k + 1u, k + 2u);
                }
                sum += dot(a[base + i * w4 + q], u);
            }
            x = r.tau * sum;
        }
        rvec[p.r_base + mat * n + i] = x;
    }
    if (g == 0u) {
        let m = n - 1u;
        for (var j = k + 2u + lid; j < n; j += WG) {
            let u = load(4u * row + j) * r.inv;
            cvec[p.c_base + mat * n + j] = u;
            h[p.h_base + mat * m * m + (j - 1u) * m + k] = u;
        }
        if (lid == 0u) {
            cvec[p.c_base + mat * n + k + 1u] = T(1.0);
            tau[p.tau_base + mat * m + k] = r.tau;
            bd[p.bd_base + mat * (2u * n + 1u) + n + k] = r.beta;
        }
    }
}

// A[i, j] −= r_i·c_j for i ≥ r0, j ≥ c0: four columns per invocation, a run of rows per
// workgroup.
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
    let w4 = p.w4;
    let q = p.c0 / 4u + (g % p.col_blocks) * WG + lid;
    if (q >= w4) {
        return;
    }
    let keep = inside(q, p.c0, n);
    var c = vec4<T>(T(0.0));
    for (var t = 0u; t < 4u; t += 1u) {
        if (keep[t] != T(0.0)) {
            c[t] = cvec[p.c_base + mat * n + 4u * q + t];
        }
    }
    let base = p.a_base + mat * n * w4;
    let r0 = p.r0 + (g / p.col_blocks) * p.rows_per_group;
    let r1 = min(n, r0 + p.rows_per_group);
    for (var i = r0; i < r1; i += 1u) {
        a[base + i * w4 + q] -= rvec[p.r_base + mat * n + i] * c;
    }
}
