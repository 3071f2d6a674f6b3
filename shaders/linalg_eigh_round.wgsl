// One round of cyclic Jacobi (linalg_eigh.wgsl's rotations) for large symmetric matrices: one
// workgroup per (matrix, pair) instead of one per matrix, so a single large matrix uses the whole
// device. A round is two launches: `rows` computes each pair's rotation from the current matrix
// (a_pp, a_qq, a_pq: rows p and q only, which no other pair of the round touches), stores it in
// `cs` and applies it to rows p and q (Jᵀ·A); `cols` applies it to columns p and q of A and V
// (·J), then sets a_pq = a_qp = 0. The round's pairs are disjoint, so the launches' workgroups
// never write the same element. A pair that rotates sets its matrix's second `info` word; the
// host settles the sweep as linalg_svd_round.wgsl's. The host prepends `alias T = ..;`, `EPS`,
// `TINY`, and passes ‖A‖_F per matrix in `norms` (the floor of linalg_eigh.wgsl).

override WG: u32 = 64u;

struct Params {
    n: u32,
    batch: u32,
    a_base: u32,
    v_base: u32,
    info_base: u32,
    cs_base: u32,
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
@group(0) @binding(1) var<storage, read_write> a: array<T>;
@group(0) @binding(2) var<storage, read_write> v: array<T>;
@group(0) @binding(3) var<storage, read_write> info: array<u32>;
@group(0) @binding(4) var<storage, read_write> cs: array<T>;
@group(0) @binding(5) var<storage, read> norms: array<T>;

var<workgroup> flag: u32;
var<workgroup> rot: vec2<T>;

// This workgroup's (matrix, pair), or `None` (flag 1) when the matrix is done or the pair has
// the odd player out.
fn my_pair(p: Params, wid: vec3<u32>, nwg: vec3<u32>, lid: u32) -> vec3<u32> {
    let g = wid.y * nwg.x + wid.x;
    let mat = g / p.pairs;
    let pq = pair(p.round, g % p.pairs, p.n + (p.n & 1u));
    if (lid == 0u) {
        flag = select(0u, 1u, mat >= p.batch || pq.y >= p.n);
        if (flag == 0u && info[p.info_base + 2u * mat] == 1u) {
            flag = 1u;
        }
    }
    return vec3<u32>(mat, pq);
}

@compute @workgroup_size(WG)
fn rows(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    if (lid == 0u) {
        shared_params = params;
    }
    let p = workgroupUniformLoad(&shared_params);
    // V is the columns pass's: named here so that both entry points bind the same slots.
    _ = &v;
    let who = my_pair(p, wid, nwg, lid);
    if (workgroupUniformLoad(&flag) == 1u) {
        return;
    }
    let n = p.n;
    let mat = who.x;
    let pp = who.y;
    let qq = who.z;
    let ab = p.a_base + mat * n * n;
    let k = (wid.y * nwg.x + wid.x) % p.pairs;
    let cb = p.cs_base + mat * 2u * p.pairs + 2u * k;
    if (lid == 0u) {
        let app = a[ab + pp * n + pp];
        let aqq = a[ab + qq * n + qq];
        let apq = a[ab + pp * n + qq];
        let floor = max(EPS * norms[p.norms_base + mat] / T(max(n, 1u)), TINY);
        var c = T(1.0);
        var s = T(0.0);
        if (abs(apq) > EPS * sqrt(abs(app)) * sqrt(abs(aqq)) && abs(apq) > floor) {
            let turn = rotation((aqq - app) / (T(2.0) * apq));
            c = turn.x;
            s = turn.y;
            info[p.info_base + 2u * mat + 1u] = 1u;
        }
        cs[cb] = c;
        cs[cb + 1u] = s;
        rot = vec2<T>(c, s);
    }
    let r = workgroupUniformLoad(&rot);
    if (r.y == T(0.0)) {
        return;
    }
    for (var col = lid; col < n; col += WG) {
        let x = a[ab + pp * n + col];
        let y = a[ab + qq * n + col];
        a[ab + pp * n + col] = r.x * x - r.y * y;
        a[ab + qq * n + col] = r.y * x + r.x * y;
    }
}

@compute @workgroup_size(WG)
fn cols(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    if (lid == 0u) {
        shared_params = params;
    }
    let p = workgroupUniformLoad(&shared_params);
    // The norms are the rows pass's: named here so that both entry points bind the same slots.
    _ = &norms;
    let who = my_pair(p, wid, nwg, lid);
    if (workgroupUniformLoad(&flag) == 1u) {
        return;
    }
    let n = p.n;
    let mat = who.x;
    let pp = who.y;
    let qq = who.z;
    let ab = p.a_base + mat * n * n;
    let vb = p.v_base + mat * n * n;
    let k = (wid.y * nwg.x + wid.x) % p.pairs;
    let cb = p.cs_base + mat * 2u * p.pairs + 2u * k;
    if (lid == 0u) {
        rot = vec2<T>(cs[cb], cs[cb + 1u]);
    }
    let r = workgroupUniformLoad(&rot);
    let c = r.x;
    let s = r.y;
    if (s == T(0.0)) {
        return;
    }
    for (var row = lid; row < n; row += WG) {
        let x = a[ab + row * n + pp];
        let y = a[ab + row * n + qq];
        a[ab + row * n + pp] = c * x - s * y;
        a[ab + row * n + qq] = s * x + c * y;
        let vx = v[vb + row * n + pp];
        let vy = v[vb + row * n + qq];
        v[vb + row * n + pp] = c * vx - s * vy;
        v[vb + row * n + qq] = s * vx + c * vy;
    }
    storageBarrier();
    if (lid == 0u) {
        a[ab + pp * n + qq] = T(0.0);
        a[ab + qq * n + pp] = T(0.0);
    }
}
