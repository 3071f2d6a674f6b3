// The plane rotations recorded by linalg_tql.wgsl's `steps` applied, in order, to the
// eigenvector matrix Z of each matrix of a batch, one invocation per row of Z: rows are
// independent, so the O(n³) part of the QL method runs in parallel. Z is stored transposed
// (`zt`, row i = column i of Z) so that neighbouring invocations touch neighbouring words.
// Rotation (i, c, s) acts on columns i and i + 1: z_i ← c·z_i − s·z_{i+1},
// z_{i+1} ← s·z_i + c·z_{i+1}, as EISPACK's tql2. The host prepends `alias T = ..;`.

override WG: u32 = 64u;

struct Params {
    n: u32,
    batch: u32,
    cap: u32,
    // Workgroups per matrix.
    groups: u32,
    state_base: u32,
    rot_base: u32,
    cs_base: u32,
    zt_base: u32,
}

@group(0) @binding(0) var<storage, read> params: Params;
// Per matrix: [l, iterations, rotations recorded by the last `steps` launch, status].
@group(0) @binding(1) var<storage, read_write> state: array<u32>;
@group(0) @binding(2) var<storage, read_write> rot_at: array<u32>;
@group(0) @binding(3) var<storage, read_write> rot_cs: array<T>;
@group(0) @binding(4) var<storage, read_write> zt: array<T>;

@compute @workgroup_size(WG)
fn rotate(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let p = params;
    let flat = wid.y * nwg.x + wid.x;
    let mat = flat / p.groups;
    let row = (flat % p.groups) * WG + lid;
    let n = p.n;
    if (mat >= p.batch || row >= n) {
        return;
    }
    let zb = p.zt_base + mat * n * n;
    let rb = p.rot_base + mat * p.cap;
    let cb = p.cs_base + 2u * mat * p.cap;
    let count = state[p.state_base + 4u * mat + 2u];
    for (var q = 0u; q < count; q += 1u) {
        let i = rot_at[rb + q];
        let c = rot_cs[cb + 2u * q];
        let s = rot_cs[cb + 2u * q + 1u];
        let zi = zt[zb + i * n + row];
        let zf = zt[zb + (i + 1u) * n + row];
        zt[zb + (i + 1u) * n + row] = s * zi + c * zf;
        zt[zb + i * n + row] = c * zi - s * zf;
    }
}
