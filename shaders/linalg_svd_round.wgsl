// One round of one-sided Jacobi (linalg_svd.wgsl's rotations) for large matrices: one workgroup
// per (matrix, column pair) instead of one per matrix, so a single large matrix uses the whole
// device; the round's pairs are disjoint, so their workgroups never touch the same column, and
// the rounds of a sweep are consecutive launches. The workgroup's invocations share a pair's
// rows: they sum α = U_pᵀU_p, β = U_qᵀU_q, γ = U_pᵀU_q together, then rotate U's and V's columns
// p and q. A pair that rotates sets its matrix's second `info` word (the host reads it after the
// sweep and marks the matrix done — first word 1 — when a whole sweep rotated nothing; done
// matrices skip). The host prepends `alias T = ..;`, `EPS`, `TINY`, and passes ‖A‖_F² per matrix
// in `norms` (the noise floor of linalg_svd.wgsl).

override WG: u32 = 64u;

struct Params {
    m: u32,
    n: u32,
    uc: u32,
    batch: u32,
    u_base: u32,
    v_base: u32,
    info_base: u32,
    norms_base: u32,
    round: u32,
    pairs: u32,
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
@group(0) @binding(4) var<storage, read> norms: array<T>;

var<workgroup> red: array<vec3<T>, WG>;
var<workgroup> flag: u32;

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
    let mat = g / p.pairs;
    let k = g % p.pairs;
    if (mat >= p.batch) {
        return;
    }
    let state = p.info_base + 2u * mat;
    let m = p.m;
    let n = p.n;
    let uc = p.uc;
    let pq = pair(p.round, k, n + (n & 1u));
    if (lid == 0u) {
        flag = select(0u, 1u, info[state] == 1u || pq.y >= n);
    }
    if (workgroupUniformLoad(&flag) == 1u) {
        return;
    }
    let ub = p.u_base + mat * m * uc;
    let vb = p.v_base + mat * n * n;
    var s = vec3<T>(T(0.0), T(0.0), T(0.0));
    for (var i = lid; i < m; i += WG) {
        let x = u[ub + i * uc + pq.x];
        let y = u[ub + i * uc + pq.y];
        s += vec3<T>(x * x, y * y, x * y);
    }
    red[lid] = s;
    workgroupBarrier();
    for (var h = WG / 2u; h > 0u; h = h >> 1u) {
        if (lid < h) {
            red[lid] = red[lid] + red[lid + h];
        }
        workgroupBarrier();
    }
    let t3 = red[0];
    let al = t3.x;
    let be = t3.y;
    let ga = t3.z;
    let floor = max(EPS * EPS * norms[p.norms_base + mat], TINY);
    if (!(abs(ga) > EPS * sqrt(al) * sqrt(be) && abs(ga) > floor)) {
        return;
    }
    let turn = rotation((be - al) / (T(2.0) * ga));
    let c = turn.x;
    let sn = turn.y;
    for (var i = lid; i < m; i += WG) {
        let x = u[ub + i * uc + pq.x];
        let y = u[ub + i * uc + pq.y];
        u[ub + i * uc + pq.x] = c * x - sn * y;
        u[ub + i * uc + pq.y] = sn * x + c * y;
    }
    for (var i = lid; i < n; i += WG) {
        let x = v[vb + i * n + pq.x];
        let y = v[vb + i * n + pq.y];
        v[vb + i * n + pq.x] = c * x - sn * y;
        v[vb + i * n + pq.y] = sn * x + c * y;
    }
    if (lid == 0u) {
        info[state + 1u] = 1u;
    }
}
