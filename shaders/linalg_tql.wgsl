// Eigenvalues (and eigenvectors) of a batch of symmetric tridiagonal matrices by the implicit
// QL method with Wilkinson-like shifts (EISPACK's tql2), for `eigh` of large matrices after
// linalg_tridiagonal.wgsl. The host prepends `alias T = ..;` and the dtype's constants.
//
// The iteration itself is serial: `steps` runs it, one invocation per matrix, on d (the
// diagonal) and e (the subdiagonal, e_{n−1} = 0) in `tri`, and records every plane rotation it
// makes — on columns i and i + 1 of Z: z_i ← c·z_i − s·z_{i+1}, z_{i+1} ← s·z_i + c·z_{i+1}, as
// EISPACK's tql2, recorded as linalg_rotate.wgsl's (i + 1, i, c, s) — in order, for that
// kernel to apply to the eigenvectors in parallel. `hyp` comes from linalg_hypot.wgsl.
//
// A launch of `steps` stops before its loop work could pass `budget` iterations (lavapipe leaves
// every loop of an invocation after 65535 together; see linalg_lu.wgsl) or its rotations could
// pass `cap`; `state` carries the iteration across launches: per matrix [l (the eigenvalue being
// found), iterations so far, rotations recorded by the last launch, status (0 running, 1 done,
// 2 no convergence in 30·n iterations, as LAPACK's dsteqr)].

override WG: u32 = 64u;

struct Params {
    n: u32,
    batch: u32,
    cap: u32,
    budget: u32,
    record: u32,
    tri_base: u32,
    state_base: u32,
    rot_base: u32,
}

// Parameters through storage, as in linalg_qr.wgsl (no barriers here: read directly).
@group(0) @binding(0) var<storage, read> params: Params;
@group(0) @binding(1) var<storage, read_write> tri: array<T>;
@group(0) @binding(2) var<storage, read_write> state: array<u32>;
// Per rotation (p, q, c, s), as linalg_rotate.wgsl reads them.
@group(0) @binding(3) var<storage, read_write> rot: array<T>;

// |x| carrying the sign of y (Fortran's SIGN).
fn sign_of(x: T, y: T) -> T {
    if (y >= T(0.0)) {
        return abs(x);
    }
    return -abs(x);
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
    let d0 = p.tri_base + mat * 2u * n;
    let e0 = d0 + n;
    let rb = p.rot_base + 4u * mat * p.cap;
    var count = 0u;
    var l = state[st];
    var iters = state[st + 1u];
    var status = state[st + 3u];
    var work = 0u;
    // Each pass of this loop finds a deflation point and runs at most one QL sweep: at most
    // 2n loop iterations and n rotations, checked before it starts.
    while (status == 0u && l < n && work + 2u * n <= p.budget && count + n <= p.cap) {
        var m = l;
        while (m + 1u < n) {
            work += 1u;
            let dd = abs(tri[d0 + m]) + abs(tri[d0 + m + 1u]);
            if (abs(tri[e0 + m]) <= EPS * dd || abs(tri[e0 + m]) <= TINY) {
                break;
            }
            m += 1u;
        }
        if (m == l) {
            l += 1u;
            continue;
        }
        if (iters >= 30u * n) {
            status = 2u;
            break;
        }
        iters += 1u;
        let dl = tri[d0 + l];
        let el = tri[e0 + l];
        var g = (tri[d0 + l + 1u] - dl) / (T(2.0) * el);
        var r = hyp(g, T(1.0));
        g = tri[d0 + m] - dl + el / (g + sign_of(r, g));
        var s = T(1.0);
        var c = T(1.0);
        var pp = T(0.0);
        var underflow = false;
        var i = m;
        while (i > l) {
            i -= 1u;
            work += 1u;
            let ei = tri[e0 + i];
            let f = s * ei;
            let b = c * ei;
            r = hyp(f, g);
            tri[e0 + i + 1u] = r;
            if (r == T(0.0)) {
                // Underflow: the sweep ends here and the search starts again.
                tri[d0 + i + 1u] -= pp;
                tri[e0 + m] = T(0.0);
                underflow = true;
                break;
            }
            s = f / r;
            c = g / r;
            g = tri[d0 + i + 1u] - pp;
            r = (tri[d0 + i] - g) * s + T(2.0) * c * b;
            pp = s * r;
            tri[d0 + i + 1u] = g + pp;
            g = c * r - b;
            if (p.record != 0u) {
                // Rows (i + 1, i): each sweep a chain for linalg_rotate.wgsl.
                rot[rb + 4u * count] = T(i + 1u);
                rot[rb + 4u * count + 1u] = T(i);
                rot[rb + 4u * count + 2u] = c;
                rot[rb + 4u * count + 3u] = s;
            }
            count += 1u;
        }
        if (!underflow) {
            tri[d0 + l] -= pp;
            tri[e0 + l] = g;
            tri[e0 + m] = T(0.0);
        }
    }
    if (status == 0u && l >= n) {
        status = 1u;
    }
    state[st] = l;
    state[st + 1u] = iters;
    state[st + 2u] = select(0u, count, p.record != 0u);
    state[st + 3u] = status;
}
