// What the Jacobi kernels share (linalg_eigh.wgsl, linalg_eigh_round.wgsl, linalg_svd.wgsl,
// linalg_svd_round.wgsl, each joined after this file): the round-robin tournament of pairs and
// the rotation.

// Pair `k` of round `r` of the tournament of `players` (even) players, smaller index first:
// player `players − 1` meets `r`, the others pair up around the ring of the rest, so a round's
// pairs are disjoint and a sweep of `players − 1` rounds meets every pair once.
fn pair(r: u32, k: u32, players: u32) -> vec2<u32> {
    let ring = players - 1u;
    var x = players - 1u;
    var y = r;
    if (k > 0u) {
        x = (r + k) % ring;
        y = (r + ring - k) % ring;
    }
    return vec2<u32>(min(x, y), max(x, y));
}

// (c, s) of the rotation by φ with t = tan φ the smaller root of t² + 2θt − 1 = 0, as Rutishauser
// writes it: t = sign(θ)/(|θ| + √(θ² + 1)), and 1/(2|θ|) (signed) where θ² would overflow.
// θ = (d_q − d_p)/(2·o): a_qq, a_pp, a_pq for eigh; β, α, γ for one-sided SVD.
fn rotation(theta: T) -> vec2<T> {
    var t = T(1.0) / (abs(theta) + sqrt(theta * theta + T(1.0)));
    if (abs(theta) > T(1.0) / EPS) {
        t = T(0.5) / abs(theta);
    }
    if (theta < T(0.0)) {
        t = -t;
    }
    let c = T(1.0) / sqrt(t * t + T(1.0));
    return vec2<T>(c, t * c);
}
