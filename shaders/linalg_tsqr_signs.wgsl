// The signs that make a TSQR's factors LAPACK's (src/linalg/tsqr.rs). Householder QR of A and
// of its orthonormal factor Q (A = Q·R, R upper triangular) build the same reflectors, and
// Householder QR of Q ends in a diagonal S of ±1: LAPACK's factors of A are Q·S and S·R. S
// needs no reflectors: it is the modified LU of Q's top n × n block (Ballard et al.,
// "Reconstructing Householder vectors from tall-skinny QR", 2015). At step j the pivot u is
// the Schur complement's diagonal, s_j = −sign(u) as dlarfg's β = −sign(α)·‖x‖ (sign(0) is +),
// the pivot becomes u − s_j (|u − s_j| ≥ 1: never small) and the rows below are eliminated.
//
// One workgroup per matrix, in place in a copy of the top blocks; each invocation takes rows.
// The host prepends `alias T = ..;`.

override WG: u32 = 64u;

struct Params {
    n: u32,
    batch: u32,
    a_base: u32,
    s_base: u32,
}

// The parameters come through a storage binding, not `var<uniform>` (as in shaders/philox.wgsl):
// lavapipe specialises a shader for the uniform values steering it and keeps a variant per
// distinct value, and the window bases here differ from call to call. Loaded once, through
// workgroup memory so that they stay uniform.
@group(0) @binding(0) var<storage, read> params: Params;
var<workgroup> shared_params: Params;
@group(0) @binding(1) var<storage, read_write> a: array<T>;
@group(0) @binding(2) var<storage, read_write> s: array<T>;

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
    let n = p.n;
    let base = p.a_base + mat * n * n;
    for (var j = 0u; j < n; j += 1u) {
        let u = a[base + j * n + j];
        var sign = T(1.0);
        if (u >= T(0.0)) {
            sign = T(-1.0);
        }
        let pivot = u - sign;
        if (lid == 0u) {
            s[p.s_base + mat * n + j] = sign;
        }
        // Row j is final: every invocation reads it while updating its own rows below.
        for (var r = j + 1u + lid; r < n; r += WG) {
            let l = a[base + r * n + j] / pivot;
            for (var c = j + 1u; c < n; c += 1u) {
                a[base + r * n + c] -= l * a[base + j * n + c];
            }
        }
        // The updated rows are read as row j + 1 and its pivot by every invocation next.
        storageBarrier();
    }
}
