// Blocked Householder reduction of a batch of real symmetric n × n matrices to tridiagonal form,
// Qᵀ·A·Q = T, as LAPACK's dsytrd/dlatrd (lower) do it, for `eigh` of large matrices. The host
// prepends `alias T = ..;` and the dtype's constants.
//
// Columns go in panels of NB. Within a panel A is not updated: column k (the panel's i-th) is
// corrected by the panel's earlier reflectors as it is reached,
//   a_k ← a_k − V·W[k, :]ᵀ − W·V[k, :]ᵀ,
// its reflector H = I − τ·v·vᵀ built, and w = τ·(A22·v − V·(Wᵀv) − W·(Vᵀv)) − ½τ²(…ᵀv)·v kept
// beside v, so that after the panel the trailing matrix takes the whole panel at once,
// A22 ← A22 − V·Wᵀ − W·Vᵀ: one matmul. A22·v, the one pass over the matrix per column, is
// linalg_atv.wgsl's (launches over windows of rows, so no launch binds the matrix: matrices past
// one storage binding reduce too). The host launches per column:
//
// `column` (one workgroup per matrix): `r` holds row k of the stale A (= column k: A is
// symmetric); corrects it, stores d_k = a_kk, builds the reflector of a[k+1.., k] as dlarfg
// does (linalg_householder.wgsl), stores e_k = β, τ_k and v (zeros up to k, 1 at k + 1) as row
// i of `vt`. The pseudo-column k = n − 1 only stores d_{n−1}.
//
// `correct` (one workgroup per matrix): from y = A22·v (the partial sums of linalg_atv.wgsl,
// added here in a fixed order), w as above, row i of `wt`.
//
// V and W are kept transposed (NB × ld per matrix) so that the invocations of a matrix read
// neighbouring words.

override WG: u32 = 64u;
// The panel width (rows of `vt` and `wt`), at most WG (`correct` takes one dot per invocation).
const NB: u32 = 32u;

struct Params {
    n: u32,
    // Row length of `r`, `vt`, `wt` and the partials (n rounded up to a multiple of 4).
    ld: u32,
    batch: u32,
    k: u32,
    // Column k's place in its panel: the reflectors before it in `vt`/`wt`.
    i: u32,
    // `correct`: the rows per chunk of linalg_atv.wgsl's partials, and chunks per matrix.
    chunk_rows: u32,
    part_chunks: u32,
    r_base: u32,
    vt_base: u32,
    wt_base: u32,
    tau_base: u32,
    tri_base: u32,
}

// Parameters through storage, not `var<uniform>` (lavapipe specialises per uniform value; see
// linalg_qr.wgsl), loaded once through workgroup memory so that they stay uniform.
@group(0) @binding(0) var<storage, read> params: Params;
var<workgroup> shared_params: Params;
// `column`: row k (ld per matrix). `correct`: A22·v's partial sums (part_chunks × ld per matrix).
@group(0) @binding(1) var<storage, read_write> r: array<T>;
@group(0) @binding(2) var<storage, read_write> vt: array<T>;
@group(0) @binding(3) var<storage, read_write> wt: array<T>;
@group(0) @binding(4) var<storage, read_write> tau: array<T>;
// Per matrix: d (n), then e (n; e_{n−1} = 0). `correct` does not bind it.
@group(0) @binding(5) var<storage, read_write> tri: array<T>;

// Wᵀv and Vᵀv over the panel's earlier reflectors, for `correct`.
var<workgroup> dots: array<T, 64>;

var<private> row_base: u32;

// linalg_householder.wgsl's view of the matrix: the corrected row.
fn load(c: u32) -> T {
    return r[row_base + c];
}

fn uniform_params(lid: u32) -> Params {
    if (lid == 0u) {
        shared_params = params;
    }
    return workgroupUniformLoad(&shared_params);
}

@compute @workgroup_size(WG)
fn column(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let p = uniform_params(lid);
    let mat = wid.y * nwg.x + wid.x;
    if (mat >= p.batch) {
        return;
    }
    let n = p.n;
    let k = p.k;
    row_base = p.r_base + mat * p.ld;
    let vb = p.vt_base + mat * NB * p.ld;
    let wb = p.wt_base + mat * NB * p.ld;
    let tb = p.tri_base + mat * 2u * n;
    // a[c, k] for c ≥ k, less the panel's reflectors so far.
    for (var c = k + lid; c < n; c += WG) {
        var x = r[row_base + c];
        for (var l = 0u; l < p.i; l += 1u) {
            x -= vt[vb + l * p.ld + c] * wt[wb + l * p.ld + k] + wt[wb + l * p.ld + c] * vt[vb + l * p.ld + k];
        }
        r[row_base + c] = x;
    }
    storageBarrier();
    workgroupBarrier();
    if (k + 1u == n) {
        if (lid == 0u) {
            tri[tb + k] = r[row_base + k];
            tri[tb + 2u * n - 1u] = T(0.0);
        }
        return;
    }
    let h = reflector_of(lid, r[row_base + k + 1u], k + 2u, 1u, n - k - 2u);
    for (var c = lid; c < n; c += WG) {
        var v = T(0.0);
        if (c == k + 1u) {
            v = T(1.0);
        } else if (c > k + 1u) {
            v = r[row_base + c] * h.inv;
        }
        vt[vb + p.i * p.ld + c] = v;
    }
    if (lid == 0u) {
        tri[tb + k] = r[row_base + k];
        tri[tb + n + k] = h.beta;
        tau[p.tau_base + mat * (n - 1u) + k] = h.tau;
    }
}

@compute @workgroup_size(WG)
fn correct(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let p = uniform_params(lid);
    let mat = wid.y * nwg.x + wid.x;
    if (mat >= p.batch) {
        return;
    }
    let n = p.n;
    let k = p.k;
    let i = p.i;
    let vb = p.vt_base + mat * NB * p.ld;
    let wb = p.wt_base + mat * NB * p.ld;
        let t = tau[p.tau_base + mat * (n - 1u) + k];
    let v = vb + i * p.ld;
    // One dot per invocation: Wᵀv in dots[0..i], Vᵀv in dots[NB..NB + i].
    let l = lid % NB;
    if (lid < 2u * NB && l < i) {
        var s = T(0.0);
        if (lid < NB) {
            for (var c = k + 1u; c < n; c += 1u) {
                s += wt[wb + l * p.ld + c] * vt[v + c];
            }
        } else {
            for (var c = k + 1u; c < n; c += 1u) {
                s += vt[vb + l * p.ld + c] * vt[v + c];
            }
        }
        dots[lid] = s;
    }
    workgroupBarrier();
    // w_c = τ·(y_c − Σ V[c, l]·(Wᵀv)_l − Σ W[c, l]·(Vᵀv)_l), and wᵀv.
    var wv = T(0.0);
    for (var c = k + 1u + lid; c < n; c += WG) {
        var w = y_at(p, mat, c);
        for (var j = 0u; j < i; j += 1u) {
            w -= vt[vb + j * p.ld + c] * dots[j] + wt[wb + j * p.ld + c] * dots[NB + j];
        }
        w *= t;
        wt[wb + i * p.ld + c] = w;
        wv += w * vt[v + c];
    }
    // w ← w − ½τ(wᵀv)·v; each invocation rewrites the words it wrote.
    let shift = T(-0.5) * t * reduce(lid, wv, false);
    for (var c = k + 1u + lid; c < n; c += WG) {
        wt[wb + i * p.ld + c] += shift * vt[v + c];
    }
    for (var c = lid; c <= k; c += WG) {
        wt[wb + i * p.ld + c] = T(0.0);
    }
}

// (A22·v)_c: the chunks' partial sums from the first holding a row past k, in order.
fn y_at(p: Params, mat: u32, c: u32) -> T {
    let base = p.r_base + mat * p.part_chunks * p.ld + c;
    var y = T(0.0);
    for (var ch = (p.k + 1u) / p.chunk_rows; ch < p.part_chunks; ch += 1u) {
        y += r[base + ch * p.ld];
    }
    return y;
}
