// Singular values (and vectors) of a batch of upper bidiagonal n × n matrices B by the
// implicit-shift QR method of Golub and Kahan (as LAPACK's dbdsqr, without its zero-shift
// variant: singular values to ε·‖B‖, as the bidiagonal reduction before it gives), for `svd` of
// large matrices after linalg_bidiagonal.wgsl. The host prepends `alias T = ..;`, the dtype's
// constants and linalg_hypot.wgsl.
//
// The iteration is serial: `steps` runs it, one invocation per matrix, on `bd` (per matrix: the
// diagonal d (n), the superdiagonal e (n; e_{n−1} unused), then the deflation threshold
// ε·max_i(|d_i| + |e_i|), −1 until the first launch sets it), and records every plane rotation
// it makes as (p, q, c, s) acting on rows p and q of Zᵀ = [Uᵀ; Vᵀ] (2n × n, U's columns in rows
// 0..n, V's in n..2n): z_p ← c·z_p + s·z_q, z_q ← −s·z_p + c·z_q, for linalg_rotate.wgsl to
// apply in parallel. At the end A = U·diag(d)·Vᵀ with d signed: the host takes |d| and turns
// the rows of Vᵀ whose d is negative.
//
// A launch stops before its loop work could pass `budget` iterations (lavapipe leaves every
// loop of an invocation after 65535 together; see linalg_lu.wgsl) or its rotations could pass
// `cap`; `state` carries the iteration across launches: per matrix [hi (the rows 0..hi not yet
// split off as converged), QR sweeps so far, rotations recorded by the last launch, status (0
// running, 1 done, 2 no convergence in 30·n sweeps)].

override WG: u32 = 64u;

struct Params {
    n: u32,
    batch: u32,
    cap: u32,
    budget: u32,
    record: u32,
    bd_base: u32,
    state_base: u32,
    rot_base: u32,
}

// Parameters through storage, as in linalg_qr.wgsl (no barriers here: read directly).
@group(0) @binding(0) var<storage, read> params: Params;
@group(0) @binding(1) var<storage, read_write> bd: array<T>;
@group(0) @binding(2) var<storage, read_write> state: array<u32>;
// Per rotation (p, q, c, s), as linalg_rotate.wgsl reads them.
@group(0) @binding(3) var<storage, read_write> rot: array<T>;

// This invocation's matrix: where its d and e start, and its rotation record.
var<private> d0: u32;
var<private> e0: u32;
var<private> rec_at: u32;
var<private> rec_on: bool;
var<private> count: u32;
var<private> work: u32;

fn d(i: u32) -> T {
    return bd[d0 + i];
}

fn e(i: u32) -> T {
    return bd[e0 + i];
}

fn set_d(i: u32, x: T) {
    bd[d0 + i] = x;
}

fn set_e(i: u32, x: T) {
    bd[e0 + i] = x;
}

// Rotation number `slot` of this launch.
fn record_at(slot: u32, p: u32, q: u32, c: T, s: T) {
    if (rec_on) {
        rot[rec_at + 4u * slot] = T(p);
        rot[rec_at + 4u * slot + 1u] = T(q);
        rot[rec_at + 4u * slot + 2u] = c;
        rot[rec_at + 4u * slot + 3u] = s;
    }
}

fn record(p: u32, q: u32, c: T, s: T) {
    record_at(count, p, q, c, s);
    count += 1u;
}

// (c, s) with c·x + s·y = r ≥ 0 and −s·x + c·y = 0 (the identity when x = y = 0).
fn givens(x: T, y: T) -> vec3<T> {
    let r = hyp(x, y);
    if (r == T(0.0)) {
        return vec3<T>(T(1.0), T(0.0), T(0.0));
    }
    return vec3<T>(x / r, y / r, r);
}

// d_z = 0 with z < k: e_z is chased along row z to the right by rotations of rows (j, z)
// against d_j, j = z + 1..k, until it leaves the block; B splits at z.
fn chase_right(z: u32, k: u32) {
    var f = e(z);
    set_e(z, T(0.0));
    for (var j = z + 1u; j <= k; j += 1u) {
        work += 1u;
        let g = givens(d(j), f);
        set_d(j, g.z);
        record(j, z, g.x, g.y);
        if (j < k) {
            f = -g.y * e(j);
            set_e(j, g.x * e(j));
        }
    }
}

// d_k = 0: e_{k−1} is chased up column k by rotations of columns (j, k) against d_j,
// j = k − 1 down to l; B splits at k − 1.
fn chase_up(l: u32, k: u32, n: u32) {
    var f = e(k - 1u);
    set_e(k - 1u, T(0.0));
    var j = k;
    while (j > l) {
        j -= 1u;
        work += 1u;
        let g = givens(d(j), f);
        set_d(j, g.z);
        record(n + j, n + k, g.x, g.y);
        if (j > l) {
            f = -g.y * e(j - 1u);
            set_e(j - 1u, g.x * e(j - 1u));
        }
    }
}

// One implicit QR sweep on the block [l, k]: the shift is the eigenvalue of the trailing 2 × 2
// of BᵀB nearer its last entry (Wilkinson's), computed on the block scaled by `top` (its
// largest entry); the bulge is chased down by a rotation of columns (j, j + 1) then one of rows
// (j, j + 1) for each j. V's rotations and U's are recorded as two chains (V's first: they turn
// other rows of Zᵀ, so the order between the two does not matter).
fn sweep(l: u32, k: u32, n: u32, top: T) {
    let sc = T(1.0) / top;
    let dk = d(k) * sc;
    let dk1 = d(k - 1u) * sc;
    let ek1 = e(k - 1u) * sc;
    var ek2 = T(0.0);
    if (k - 1u > l) {
        ek2 = e(k - 2u) * sc;
    }
    let a = dk1 * dk1 + ek2 * ek2;
    let b = dk1 * ek1;
    let c = dk * dk + ek1 * ek1;
    let delta = T(0.5) * (a - c);
    var den = hyp(delta, b);
    if (delta < T(0.0)) {
        den = -den;
    }
    den += delta;
    var mu = c;
    if (den != T(0.0)) {
        mu = c - b * (b / den);
    }
    let dl = d(l) * sc;
    var y = dl * dl - mu;
    var z = dl * (e(l) * sc);
    let len = k - l;
    for (var j = l; j < k; j += 1u) {
        work += 1u;
        // Columns (j, j + 1): the shift's rotation at j = l, else the bulge at (j − 1, j + 1).
        var g = givens(y, z);
        if (j > l) {
            set_e(j - 1u, g.z);
        }
        let dj = d(j);
        let ej = e(j);
        let dn = d(j + 1u);
        let f = g.x * dj + g.y * ej;
        set_e(j, g.x * ej - g.y * dj);
        let bulge = g.y * dn;
        set_d(j + 1u, g.x * dn);
        record_at(count + j - l, n + j, n + j + 1u, g.x, g.y);
        // Rows (j, j + 1): the bulge at (j + 1, j), moving to (j, j + 2).
        g = givens(f, bulge);
        set_d(j, g.z);
        let ej2 = e(j);
        let dn2 = d(j + 1u);
        set_e(j, g.x * ej2 + g.y * dn2);
        set_d(j + 1u, g.x * dn2 - g.y * ej2);
        record_at(count + len + j - l, j, j + 1u, g.x, g.y);
        if (j + 1u < k) {
            y = e(j);
            z = g.y * e(j + 1u);
            set_e(j + 1u, g.x * e(j + 1u));
        }
    }
    count += 2u * len;
}

@compute @workgroup_size(WG)
fn steps(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let p = params;
    let mat = (wid.y * nwg.x + wid.x) * WG + lid;
    if (mat >= p.batch) {
        return;
    }
    let n = p.n;
    let st = p.state_base + 4u * mat;
    d0 = p.bd_base + mat * (2u * n + 1u);
    e0 = d0 + n;
    rec_at = p.rot_base + 4u * mat * p.cap;
    rec_on = p.record != 0u;
    count = 0u;
    work = 0u;
    var hi = state[st];
    var sweeps = state[st + 1u];
    var status = state[st + 3u];
    if (bd[d0 + 2u * n] < T(0.0)) {
        var big = T(0.0);
        for (var i = 0u; i < n; i += 1u) {
            big = max(big, abs(d(i)) + abs(e(i)));
        }
        bd[d0 + 2u * n] = EPS * big;
        work = n;
    }
    let thresh = bd[d0 + 2u * n];
    // A pass finds the bottom block and runs one sweep or chase: at most 3n loop iterations
    // and 2n rotations, checked before it starts.
    while (status == 0u && hi > 0u && work + 3u * n + 3u <= p.budget && count + 2u * n <= p.cap) {
        let k = hi - 1u;
        work += 1u;
        if (k == 0u) {
            hi = 0u;
            continue;
        }
        if (abs(e(k - 1u)) <= thresh) {
            set_e(k - 1u, T(0.0));
            hi = k;
            continue;
        }
        // The unreduced block [l, k] above it: every e between its rows above the threshold.
        var l = k - 1u;
        var top = max(abs(d(k)), abs(e(k - 1u)));
        while (l > 0u && abs(e(l - 1u)) > thresh) {
            work += 1u;
            top = max(top, max(abs(d(l)), abs(e(l - 1u))));
            l -= 1u;
        }
        top = max(top, abs(d(l)));
        if (l > 0u) {
            set_e(l - 1u, T(0.0));
        }
        // A negligible diagonal entry splits the block by a chase instead of a sweep.
        var z = n;
        for (var i = l; i <= k; i += 1u) {
            work += 1u;
            if (abs(d(i)) <= thresh) {
                z = i;
                break;
            }
        }
        if (z < n) {
            set_d(z, T(0.0));
            if (z < k) {
                chase_right(z, k);
            } else {
                chase_up(l, k, n);
            }
            continue;
        }
        if (sweeps >= 30u * n) {
            status = 2u;
            break;
        }
        sweeps += 1u;
        sweep(l, k, n, top);
    }
    if (status == 0u && hi == 0u) {
        status = 1u;
    }
    state[st] = hi;
    state[st + 1u] = sweeps;
    state[st + 2u] = select(0u, count, rec_on);
    state[st + 3u] = status;
}
