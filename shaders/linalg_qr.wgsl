// Householder QR of a batch of row-major m × n matrices (LAPACK's geqr2 and org2r), one
// workgroup per matrix, in place. The host prepends `alias T = ..;`.
//
// `factor`: for each column j < k = min(m, n) the reflector H_j = I − τ·v·vᵀ (v_j = 1) that
// maps a[j.., j] to (β, 0, ...) with β = −sign(α)·‖a[j.., j]‖, as dlarfg builds it (so R's
// diagonal has LAPACK's signs and Q, R are NumPy's up to rounding); v goes below the diagonal,
// τ to `tau`, β to the diagonal, and H_j is applied to the columns right of j by the whole
// workgroup (a grid of columns × rows). The norm is scaled by the column's largest magnitude,
// so squares neither overflow nor underflow.
//
// `form_q`: Q = H_0·H_1·…·H_{k−1} applied to the first `qc` columns of the identity (the host
// fills `q` with them), backwards as org2r does; every column of Q is independent, so each
// invocation takes whole columns through every reflector.
//
// Both take the reflectors [j0, j1) (form_q from j1 − 1 down): the host splits them over
// launches within the adapter's loop budget (see linalg_lu.wgsl). `factor` applies each
// reflector to the columns up to `c_end`: n unblocked, the panel's end when blocked.
//
// `block_t`: for a blocked QR, the triangular factor T (b × b) of a panel's reflectors
// [j0, j0 + b), H_j0·…·H_{j0+b−1} = I − V·T·Vᵀ (LAPACK's dlarft, forward, columnwise), from
// G = VᵀV (in `a`, b × b per matrix) and τ; T goes to `q`. Row r of T needs only row r's
// earlier entries (T[r, i] = −τ_i·Σ_{r≤c<i} T[r, c]·G[c, i]), so each invocation computes one
// row on its own, without barriers.

override WG: u32 = 64u;

struct Params {
    m: u32,
    n: u32,
    qc: u32,
    batch: u32,
    a_base: u32,
    tau_base: u32,
    q_base: u32,
    j0: u32,
    j1: u32,
    c_end: u32,
    // `factor`: columns updated side by side (a power of two up to min(WG, 32), from the
    // shape: fewer for narrow panels, so that more rows go in parallel).
    lanes: u32,
}

// The parameters come through a storage binding, not `var<uniform>` (as in shaders/philox.wgsl):
// lavapipe specialises a shader for the uniform values steering it and keeps a variant per
// distinct value, and the window bases here differ from call to call (30 ms and 1 MB a launch).
// Each entry point loads them once, through workgroup memory so that they stay uniform.
@group(0) @binding(0) var<storage, read> params: Params;
var<workgroup> shared_params: Params;
@group(0) @binding(1) var<storage, read_write> a: array<T>;
@group(0) @binding(2) var<storage, read_write> tau: array<T>;
@group(0) @binding(3) var<storage, read_write> q: array<T>;

// linalg_householder.wgsl (prepended: the workgroup reduction and the reflector) reads the
// matrix through this.
fn load(i: u32) -> T {
    return a[i];
}

// `factor`'s partial sums of vᵀ·a[.., c], one per invocation.
var<workgroup> partial: array<T, WG>;

@compute @workgroup_size(WG)
fn factor(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    if (lid == 0u) {
        shared_params = params;
    }
    let p = workgroupUniformLoad(&shared_params);
    let mat = wid.y * nwg.x + wid.x;
    if (mat >= p.batch) {
        return;
    }
    let m = p.m;
    let n = p.n;
    let k = min(m, n);
    let base = p.a_base + mat * m * n;
    // The grid of the reflector's application: `lanes` columns × `row_groups` rows.
    let lanes = p.lanes;
    let lane = lid % lanes;
    let lane_row = lid / lanes;
    let row_groups = WG / lanes;
    for (var j = p.j0; j < p.j1; j += 1u) {
        let h = reflector_of(lid, a[base + j * n + j], base + (j + 1u) * n + j, n, m - j - 1u);
        let t = h.tau;
        // Every invocation has read the column before it is scaled (outside the branch: `t`
        // comes from α, a storage load, which is not uniform to the WGSL analysis).
        storageBarrier();
        if (t != T(0.0)) {
            for (var r = j + 1u + lid; r < m; r += WG) {
                a[base + r * n + j] = a[base + r * n + j] * h.inv;
            }
            if (lid == 0u) {
                a[base + j * n + j] = h.beta;
            }
        }
        if (lid == 0u) {
            tau[p.tau_base + mat * k + j] = t;
        }
        storageBarrier();
        // H_j through the columns right of j, `lanes` of them at a time, the rows split over
        // the workgroup's `WG / lanes` row groups: each invocation sums v·a[.., c] over its
        // rows, the column's partial sums are added in row-group order (the same bits however
        // the adapter schedules), and each invocation updates its rows. Neighbouring
        // invocations touch neighbouring elements of a row. (One invocation per column, its
        // two passes over all m rows in turn, left most of a 256-wide workgroup idle in a
        // panel of 32 columns.) The barriers sit outside the branches on τ, which is not
        // uniform to the WGSL analysis.
        for (var c0 = j + 1u; c0 < p.c_end; c0 += lanes) {
            let c = c0 + lane;
            let live = c < p.c_end && t != T(0.0);
            var s = T(0.0);
            if (live) {
                for (var r = j + 1u + lane_row; r < m; r += row_groups) {
                    s += a[base + r * n + j] * a[base + r * n + c];
                }
            }
            partial[lid] = s;
            workgroupBarrier();
            var w = T(0.0);
            if (live) {
                w = a[base + j * n + c];
                for (var g = 0u; g < row_groups; g += 1u) {
                    w += partial[g * lanes + lane];
                }
                w = w * t;
            }
            // Every invocation has read a[j, c] and the partial sums before they change.
            workgroupBarrier();
            if (live) {
                if (lane_row == 0u) {
                    a[base + j * n + c] -= w;
                }
                for (var r = j + 1u + lane_row; r < m; r += row_groups) {
                    a[base + r * n + c] -= a[base + r * n + j] * w;
                }
            }
        }
        storageBarrier();
    }
}

@compute @workgroup_size(WG)
fn form_q(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    if (lid == 0u) {
        shared_params = params;
    }
    let p = workgroupUniformLoad(&shared_params);
    let mat = wid.y * nwg.x + wid.x;
    if (mat >= p.batch) {
        return;
    }
    let m = p.m;
    let n = p.n;
    let k = min(m, n);
    let qc = p.qc;
    let base = p.a_base + mat * m * n;
    let qb = p.q_base + mat * m * qc;
    for (var c = lid; c < qc; c += WG) {
        for (var jj = p.j0; jj < p.j1; jj += 1u) {
            let j = p.j1 - 1u - (jj - p.j0);
            let t = tau[p.tau_base + mat * k + j];
            if (t == T(0.0)) {
                continue;
            }
            var w = q[qb + j * qc + c];
            for (var r = j + 1u; r < m; r += 1u) {
                w += a[base + r * n + j] * q[qb + r * qc + c];
            }
            w = w * t;
            q[qb + j * qc + c] -= w;
            for (var r = j + 1u; r < m; r += 1u) {
                q[qb + r * qc + c] -= a[base + r * n + j] * w;
            }
        }
    }
}

@compute @workgroup_size(WG)
fn block_t(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let p = params;
    let mat = wid.y * nwg.x + wid.x;
    let b = p.qc;
    let r = lid;
    if (mat >= p.batch || r >= b) {
        return;
    }
    let k = min(p.m, p.n);
    let g = p.a_base + mat * b * b;
    let t = p.q_base + mat * b * b;
    let taus = p.tau_base + mat * k + p.j0;
    for (var i = 0u; i < b; i += 1u) {
        var x = T(0.0);
        if (i == r) {
            x = tau[taus + i];
        } else if (i > r) {
            var s = T(0.0);
            for (var c = r; c < i; c += 1u) {
                s += q[t + r * b + c] * a[g + c * b + i];
            }
            x = -tau[taus + i] * s;
        }
        q[t + r * b + i] = x;
    }
}
