// Singular value decomposition of a batch of row-major m × n matrices, m ≥ n (the host passes
// Aᵀ otherwise), by one-sided Jacobi (Hestenes): columns of U (starting as A) are rotated in pairs
// until every pair is orthogonal to working accuracy, V accumulating the rotations; the host
// then takes σ_j = ‖U_j‖, sorts, normalises and completes U. Accurate to high relative accuracy,
// and no AᵀA is ever formed. One workgroup per matrix; the host prepends `alias T = ..;`,
// `const EPS: T` and `const TINY: T`.
//
// A sweep visits every column pair once in n − 1 rounds of disjoint pairs (the round-robin
// tournament of linalg_eigh.wgsl); an invocation takes a whole pair (its dot products and both
// rotations), so pairs need no barrier but the one between rounds. A pair rotates while
// |γ| > EPS·√(α·β) and |γ| > EPS²·‖A‖_F², α, β, γ = U_pᵀU_p, U_qᵀU_q, U_pᵀU_q. Launches, rounds and
// the two `info` words per matrix as in linalg_eigh.wgsl. Only the first n of U's `uc` columns
// are rotated.

override WG: u32 = 64u;

struct Params {
    m: u32,
    n: u32,
    uc: u32,
    batch: u32,
    u_base: u32,
    v_base: u32,
    info_base: u32,
    sweeps: u32,
    r0: u32,
    r1: u32,
}

// The parameters come through a storage binding, not `var<uniform>` (as in shaders/philox.wgsl):
// lavapipe specialises a shader for the uniform values steering it and keeps a variant per
// distinct value, and the window bases here differ from call to call (30 ms and 1 MB a launch).
// Each entry point loads them once, through workgroup memory so that they stay uniform.
@group(0) @binding(0) var<storage, read> params: Params;
var<workgroup> shared_params: Params;
@group(0) @binding(1) var<storage, read_write> u: array<T>;
@group(0) @binding(2) var<storage, read_write> v: array<T>;
@group(0) @binding(3) var<storage, read_write> info: array<u32>;

var<workgroup> rotated: atomic<u32>;
var<workgroup> flag: u32;
var<workgroup> red: array<T, WG>;

// The workgroup's sum of `x`, uniform.
fn sum_all(lid: u32, x: T) -> T {
    red[lid] = x;
    workgroupBarrier();
    for (var s = WG / 2u; s > 0u; s = s >> 1u) {
        if (lid < s) {
            red[lid] = red[lid] + red[lid + s];
        }
        workgroupBarrier();
    }
    let r = workgroupUniformLoad(&red[0]);
    workgroupBarrier();
    return r;
}

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
    let mat = wid.y * nwg.x + wid.x;
    if (mat >= p.batch) {
        return;
    }
    let state = p.info_base + 2u * mat;
    if (lid == 0u) {
        flag = info[state];
    }
    if (workgroupUniformLoad(&flag) == 1u) {
        return;
    }
    let m = p.m;
    let n = p.n;
    let uc = p.uc;
    let ub = p.u_base + mat * m * uc;
    let vb = p.v_base + mat * n * n;
    let players = n + (n & 1u);
    let half = players / 2u;
    // ‖A‖_F², which rotations keep: pairs below EPS²·‖A‖_F² are rounding noise (the null
    // space of a rank-deficient matrix), never rotated, so the sweeps end.
    var sq = T(0.0);
    for (var t = lid; t < m * n; t += WG) {
        let x = u[ub + (t / n) * uc + t % n];
        sq += x * x;
    }
    let floor = max(EPS * EPS * sum_all(lid, sq), TINY);
    for (var sweep = 0u; sweep < p.sweeps; sweep += 1u) {
        if (lid == 0u) {
            atomicStore(&rotated, 0u);
        }
        workgroupBarrier();
        for (var r = p.r0; r < p.r1; r += 1u) {
            for (var k = lid; k < half; k += WG) {
                let pq = pair(r, k, players);
                if (pq.y >= n) {
                    continue;
                }
                var al = T(0.0);
                var be = T(0.0);
                var ga = T(0.0);
                for (var i = 0u; i < m; i += 1u) {
                    let x = u[ub + i * uc + pq.x];
                    let y = u[ub + i * uc + pq.y];
                    al += x * x;
                    be += y * y;
                    ga += x * y;
                }
                if (abs(ga) > EPS * sqrt(al) * sqrt(be) && abs(ga) > floor) {
                    let turn = rotation((be - al) / (T(2.0) * ga));
                    let c = turn.x;
                    let s = turn.y;
                    for (var i = 0u; i < m; i += 1u) {
                        let x = u[ub + i * uc + pq.x];
                        let y = u[ub + i * uc + pq.y];
                        u[ub + i * uc + pq.x] = c * x - s * y;
                        u[ub + i * uc + pq.y] = s * x + c * y;
                    }
                    for (var i = 0u; i < n; i += 1u) {
                        let x = v[vb + i * n + pq.x];
                        let y = v[vb + i * n + pq.y];
                        v[vb + i * n + pq.x] = c * x - s * y;
                        v[vb + i * n + pq.y] = s * x + c * y;
                    }
                    atomicStore(&rotated, 1u);
                }
            }
            storageBarrier();
        }
        workgroupBarrier();
        if (lid == 0u && atomicLoad(&rotated) == 1u) {
            info[state + 1u] = 1u;
        }
        storageBarrier();
        if (p.r1 + 1u == players) {
            if (lid == 0u) {
                flag = info[state + 1u];
            }
            if (workgroupUniformLoad(&flag) == 0u) {
                if (lid == 0u) {
                    info[state] = 1u;
                }
                break;
            }
            if (lid == 0u) {
                info[state + 1u] = 0u;
            }
            storageBarrier();
        }
    }
}
