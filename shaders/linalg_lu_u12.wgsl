// The block row U12 = L11⁻¹·A12 of a blocked LU (LAPACK's trsm after each panel's getf2), in
// place: for a batch of row-major n × n matrices whose panel of columns [k0, k1) has just been
// factored (shaders/linalg_lu.wgsl, which also swapped whole rows), one invocation per column c
// in [k1, n) (`groups` workgroups per matrix) runs the forward substitution with the panel's unit
// lower triangle L11 down rows k0 + 1 .. k1 − 1 of the column. The host prepends `alias T = ..;`.
//
// Why a kernel of its own: done inside the panel's one-workgroup kernel (a rank-1 update of the
// panel's rows right of the panel at every step) it ran on one workgroup — one CPU thread on
// lavapipe — and its index arithmetic dominated the factorization. Here the columns are
// independent and spread over every workgroup. Each element takes the same subtractions in the
// same order as those rank-1 updates did (x −= l_ip·u_pc for p = k0, k0 + 1, …), so the bits
// are the same.

override WG: u32 = 64u;

struct Params {
    n: u32,
    k0: u32,
    k1: u32,
    groups: u32,
    batch: u32,
    a_base: u32,
}

// Parameters through storage, not a uniform: see shaders/linalg_lu.wgsl.
@group(0) @binding(0) var<storage, read> params: Params;
@group(0) @binding(1) var<storage, read_write> a: array<T>;

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let p = params;
    let g = wid.y * nwg.x + wid.x;
    let mat = g / p.groups;
    let c = p.k1 + (g % p.groups) * WG + lid;
    if (mat >= p.batch || c >= p.n) {
        return;
    }
    let base = p.a_base + mat * p.n * p.n;
    for (var i = p.k0 + 1u; i < p.k1; i += 1u) {
        let row = base + i * p.n;
        var x = a[row + c];
        for (var q = p.k0; q < i; q += 1u) {
            x -= a[row + q] * a[base + q * p.n + c];
        }
        a[row + c] = x;
    }
}
