// Blocked Householder reduction of a batch of real square n × n matrices to upper bidiagonal
// form, Q_Lᵀ·A·Q_R = B, as LAPACK's dgebrd/dlabrd do it, for `svd` of large matrices. The host
// prepends `alias T = ..;` and the dtype's constants, then linalg_householder.wgsl.
//
// Columns go in panels of NB. Within a panel A is not updated: column k and row k (the panel's
// i-th) are corrected by the panel's earlier reflectors as they are reached, and beside the left
// reflectors V and the right reflectors U the panel keeps Y = τ_q·(Aᵀv − …) and
// X = τ_p·(A·u − …), so that after the panel the trailing matrix takes the whole panel at once,
// A22 ← A22 − V·Yᵀ − X·Uᵀ: one matmul of [V X] by [Y; U]. The passes over the stale trailing
// matrix, Aᵀ·v and A·u, are linalg_atv.wgsl's and linalg_av.wgsl's (over windows of rows, so no
// launch binds the matrix). Per column k, one workgroup per matrix:
//
// `left`: `src` holds column k of the stale A; corrects it,
//   a[k.., k] ← a[k.., k] − V·Y[k, :]ᵀ − X·U[:, k],
// builds its reflector (d_k = β, τ_q) as dlarfg does and stores v (zeros before k, 1 at k) as
// row i of V.
//
// `right` (k < n − 1): `src` holds the partial sums of Aᵀ·v (from row k, linalg_atv.wgsl); forms
//   y = τ_q·(Aᵀv − Y·(Vᵀv) − Uᵀ·(Xᵀv))   (columns k + 1..)
// as row i of Y, then corrects row k of the stale A (`row`),
//   a[k, k+1..] ← a[k, k+1..] − Y·V[k, :]ᵀ − Uᵀ·X[k, :]ᵀ   (the panel so far, y included),
// and builds its reflector (e_k = β, τ_p), u (zeros up to k, 1 at k + 1) as row i of U.
//
// `finish` (k < n − 1): `src` holds A·u (rows k + 1.., linalg_av.wgsl); forms
//   x = τ_p·(A·u − V·(Yᵀu) − X·(U·u))   (rows k + 1.., V and Y the panel so far, v included)
// as row i of X.
//
// V and X are rows 0..NB and NB..2NB of `lx`, Y and U rows 0..NB and NB..2NB of `yu` (NB × ld
// each per matrix, rows `ld` long), so that [V X] and [Y; U] are plain views for the matmul;
// the invocations of a matrix read neighbouring words. `taus` holds τ_q (n) then τ_p (n) per
// matrix; `bd` d (n), e (n), then the threshold slot that linalg_bdsqr.wgsl fills (−1 here).

override WG: u32 = 64u;
// The panel width, at most WG / 2 (`right` and `finish` take one dot per invocation).
const NB: u32 = 32u;

struct Params {
    n: u32,
    // Row length of `src`, `row`, `lx` and `yu` (n rounded up to a multiple of 4).
    ld: u32,
    batch: u32,
    k: u32,
    // Column k's place in its panel.
    i: u32,
    // `right`: the rows per chunk of linalg_atv.wgsl's partials, and chunks per matrix.
    chunk_rows: u32,
    part_chunks: u32,
    src_base: u32,
    lx_base: u32,
    yu_base: u32,
    taus_base: u32,
    bd_base: u32,
    row_base: u32,
}

// Parameters through storage, as in linalg_tridiagonal.wgsl.
@group(0) @binding(0) var<storage, read> params: Params;
var<workgroup> shared_params: Params;
// `left`: column k (ld per matrix). `right`: Aᵀ·v's partial sums (part_chunks × ld).
// `finish`: A·u (ld).
@group(0) @binding(1) var<storage, read_write> src: array<T>;
@group(0) @binding(2) var<storage, read_write> lx: array<T>;
@group(0) @binding(3) var<storage, read_write> yu: array<T>;
@group(0) @binding(4) var<storage, read_write> taus: array<T>;
// Not bound by `finish`.
@group(0) @binding(5) var<storage, read_write> bd: array<T>;
// Row k (ld per matrix); bound by `left` too, which reads `src` through `load`.
@group(0) @binding(6) var<storage, read_write> row: array<T>;

// Wᵀ·v-like dots over the panel's reflectors, one per invocation.
var<workgroup> dots: array<T, 64>;

var<private> load_row: bool;
var<private> load_base: u32;

// linalg_householder.wgsl's view of the matrix: the corrected column (`left`) or row (`right`).
fn load(c: u32) -> T {
    if (load_row) {
        return row[load_base + c];
    }
    return src[load_base + c];
}

fn uniform_params(lid: u32) -> Params {
    if (lid == 0u) {
        shared_params = params;
    }
    return workgroupUniformLoad(&shared_params);
}

// Row j of V (0..NB) or X (NB..2NB), and of Y or U, of matrix `mat`.
fn lx_row(p: Params, mat: u32, j: u32) -> u32 {
    return p.lx_base + (mat * 2u * NB + j) * p.ld;
}

fn yu_row(p: Params, mat: u32, j: u32) -> u32 {
    return p.yu_base + (mat * 2u * NB + j) * p.ld;
}

@compute @workgroup_size(WG)
fn left(
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
    load_row = false;
    load_base = p.src_base + mat * p.ld;
    for (var r = k + lid; r < n; r += WG) {
        var x = src[load_base + r];
        for (var l = 0u; l < p.i; l += 1u) {
            x -= lx[lx_row(p, mat, l) + r] * yu[yu_row(p, mat, l) + k]
                + lx[lx_row(p, mat, NB + l) + r] * yu[yu_row(p, mat, NB + l) + k];
        }
        src[load_base + r] = x;
    }
    storageBarrier();
    workgroupBarrier();
    let h = reflector_of(lid, src[load_base + k], k + 1u, 1u, n - k - 1u);
    let v = lx_row(p, mat, p.i);
    for (var r = lid; r < n; r += WG) {
        var x = T(0.0);
        if (r == k) {
            x = T(1.0);
        } else if (r > k) {
            x = src[load_base + r] * h.inv;
        }
        lx[v + r] = x;
    }
    if (lid == 0u) {
        let bb = p.bd_base + mat * (2u * n + 1u);
        taus[p.taus_base + mat * 2u * n + k] = h.tau;
        bd[bb + k] = h.beta;
        if (k == 0u) {
            bd[bb + 2u * n - 1u] = T(0.0);
            bd[bb + 2u * n] = T(-1.0);
        }
    }
}

@compute @workgroup_size(WG)
fn right(
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
    let v = lx_row(p, mat, i);
    // Vᵀv in dots[0..i], Xᵀv in dots[NB..NB + i] (rows k..), one per invocation.
    let l = lid % NB;
    if (lid < 2u * NB && l < i) {
        let other = lx_row(p, mat, select(l, NB + l, lid >= NB));
        var s = T(0.0);
        for (var r = k; r < n; r += 1u) {
            s += lx[other + r] * lx[v + r];
        }
        dots[lid] = s;
    }
    workgroupBarrier();
    let tq = taus[p.taus_base + mat * 2u * n + k];
    let parts = p.src_base + mat * p.part_chunks * p.ld;
    let y = yu_row(p, mat, i);
    load_row = true;
    load_base = p.row_base + mat * p.ld;
    for (var c = k + 1u + lid; c < n; c += WG) {
        // Aᵀv: the chunks' partial sums from the one holding row k, in order.
        var yc = T(0.0);
        for (var ch = k / p.chunk_rows; ch < p.part_chunks; ch += 1u) {
            yc += src[parts + ch * p.ld + c];
        }
        for (var j = 0u; j < i; j += 1u) {
            yc -= yu[yu_row(p, mat, j) + c] * dots[j] + yu[yu_row(p, mat, NB + j) + c] * dots[NB + j];
        }
        yc *= tq;
        yu[y + c] = yc;
        // Row k less the panel so far (V[i, k] = 1).
        var z = row[load_base + c] - yc;
        for (var j = 0u; j < i; j += 1u) {
            z -= yu[yu_row(p, mat, j) + c] * lx[lx_row(p, mat, j) + k]
                + yu[yu_row(p, mat, NB + j) + c] * lx[lx_row(p, mat, NB + j) + k];
        }
        row[load_base + c] = z;
    }
    for (var c = lid; c <= k; c += WG) {
        yu[y + c] = T(0.0);
    }
    storageBarrier();
    workgroupBarrier();
    let h = reflector_of(lid, row[load_base + k + 1u], k + 2u, 1u, n - k - 2u);
    let u = yu_row(p, mat, NB + i);
    for (var c = lid; c < n; c += WG) {
        var x = T(0.0);
        if (c == k + 1u) {
            x = T(1.0);
        } else if (c > k + 1u) {
            x = row[load_base + c] * h.inv;
        }
        yu[u + c] = x;
    }
    if (lid == 0u) {
        taus[p.taus_base + mat * 2u * n + n + k] = h.tau;
        bd[p.bd_base + mat * (2u * n + 1u) + n + k] = h.beta;
    }
}

@compute @workgroup_size(WG)
fn finish(
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
    let u = yu_row(p, mat, NB + i);
    // Yᵀu in dots[0..=i] (y included), U·u in dots[NB..NB + i] (columns k + 1..).
    let l = lid % NB;
    if ((lid < NB && l <= i) || (lid >= NB && lid < 2u * NB && l < i)) {
        let other = yu_row(p, mat, select(l, NB + l, lid >= NB));
        var s = T(0.0);
        for (var c = k + 1u; c < n; c += 1u) {
            s += yu[other + c] * yu[u + c];
        }
        dots[lid] = s;
    }
    workgroupBarrier();
    let tp = taus[p.taus_base + mat * 2u * n + n + k];
    let x = lx_row(p, mat, NB + i);
    for (var r = k + 1u + lid; r < n; r += WG) {
        var xr = src[p.src_base + mat * p.ld + r];
        for (var j = 0u; j <= i; j += 1u) {
            xr -= lx[lx_row(p, mat, j) + r] * dots[j];
        }
        for (var j = 0u; j < i; j += 1u) {
            xr -= lx[lx_row(p, mat, NB + j) + r] * dots[NB + j];
        }
        lx[x + r] = tp * xr;
    }
    for (var r = lid; r <= k; r += WG) {
        lx[x + r] = T(0.0);
    }
}
