// The plane rotations recorded by a serial iteration (linalg_tql.wgsl's or linalg_bdsqr.wgsl's
// `steps`) applied, in order, to each matrix Zᵀ of a batch (`rows` × n, n a multiple of 4),
// one invocation per four columns of Zᵀ: columns are independent, so the O(n³) part of the
// iteration runs in parallel. Zᵀ holds the vectors as rows, so that neighbouring invocations
// touch neighbouring words; four columns per invocation make each access one vec4 (on
// lavapipe every lane's access is a scalar load or store of its own: 3.7× faster at 512²).
// Rotation (p, q, c, s) acts on rows p and q: z_p ← c·z_p + s·z_q, z_q ← −s·z_p + c·z_q.
// The host prepends `alias T = ..;`.
//
// A rotation is one vec4 (p and q as exact small integers in T): one load, not four. The
// iterations record their sweeps as chains — each rotation's p the previous one's q — so the
// kernel keeps z_q in a register for the next rotation instead of storing and reloading it.

override WG: u32 = 64u;

struct Params {
    // Columns of Zᵀ / 4.
    n: u32,
    rows: u32,
    batch: u32,
    cap: u32,
    // Workgroups per matrix.
    groups: u32,
    state_base: u32,
    // In vec4s.
    rot_base: u32,
    zt_base: u32,
}

@group(0) @binding(0) var<storage, read> params: Params;
// Per matrix: 4 words, the third the rotations recorded by the last `steps` launch.
@group(0) @binding(1) var<storage, read_write> state: array<u32>;
@group(0) @binding(2) var<storage, read_write> rot: array<vec4<T>>;
@group(0) @binding(3) var<storage, read_write> zt: array<vec4<T>>;

@compute @workgroup_size(WG)
fn rotate(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let p = params;
    let flat = wid.y * nwg.x + wid.x;
    let mat = flat / p.groups;
    let col = (flat % p.groups) * WG + lid;
    let n = p.n;
    if (mat >= p.batch || col >= n) {
        return;
    }
    let zb = p.zt_base + mat * p.rows * n + col;
    let rb = p.rot_base + mat * p.cap;
    let count = state[p.state_base + 4u * mat + 2u];
    // The row held in `carry` (none yet: `rows`).
    var held = p.rows;
    var carry = vec4<T>(T(0.0));
    for (var t = 0u; t < count; t += 1u) {
        let r = rot[rb + t];
        let rp = u32(r.x);
        let rq = u32(r.y);
        var x = carry;
        if (rp != held) {
            if (held < p.rows) {
                zt[zb + held * n] = carry;
            }
            x = zt[zb + rp * n];
        }
        let y = zt[zb + rq * n];
        zt[zb + rp * n] = r.z * x + r.w * y;
        carry = r.z * y - r.w * x;
        held = rq;
    }
    if (held < p.rows) {
        zt[zb + held * n] = carry;
    }
}
