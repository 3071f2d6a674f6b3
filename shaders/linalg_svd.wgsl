// Singular value decomposition of a batch of row-major m × n matrices, m ≥ n (the host passes
// Aᵀ otherwise), by one-sided Jacobi (Hestenes): columns of U (starting as A) are rotated in pairs
// until every pair is orthogonal to working accuracy, V accumulating the rotations; then
// σ_j = ‖U_j‖ and U_j /= σ_j. Accurate to high relative accuracy, and no AᵀA is ever formed.
// One workgroup per matrix; the host prepends `alias T = ..;`, `const EPS: T` and `const TINY: T`.
//
// A sweep visits every column pair once in n − 1 rounds of disjoint pairs (the round-robin
// tournament of linalg_eigh.wgsl); an invocation takes a whole pair (its dot products and both
// rotations), so pairs need no barrier but the one between rounds. A pair rotates while
// |γ| > EPS·√(α·β), α, β, γ = U_pᵀU_p, U_qᵀU_q, U_pᵀU_q.
//
// On convergence the singular values are sorted descending (U's and V's columns with them), and
// the columns of U that have no singular value to normalise by (σ ≤ TINY, and the columns n..uc
// of full_matrices) are completed to an orthonormal basis: each from the unit vector e_k least
// covered by the columns before it, orthogonalised twice against them. `info` as in
// linalg_eigh.wgsl: −1 done, else the sweeps run without converging.

override WG: u32 = 64u;

struct Params {
    m: u32,
    n: u32,
    uc: u32,
    batch: u32,
    u_base: u32,
    v_base: u32,
    s_base: u32,
    info_base: u32,
    scratch_base: u32,
    sweeps: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read_write> u: array<T>;
@group(0) @binding(2) var<storage, read_write> v: array<T>;
@group(0) @binding(3) var<storage, read_write> sv: array<T>;
@group(0) @binding(4) var<storage, read_write> info: array<i32>;
@group(0) @binding(5) var<storage, read_write> scratch: array<T>;

var<workgroup> rotated: atomic<u32>;
var<workgroup> flag: u32;
var<workgroup> red: array<T, WG>;
var<workgroup> red_i: array<u32, WG>;

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

// The workgroup's sum of `x`, uniform.
fn sum_all(lid: u32, x: T) -> T {
    red[lid] = x;
    workgroupBarrier();
    for (var s = WG / 2u; s > 0u; s = s >> 1u) {
        if (lid < s) {
            red[lid] = red[lid] + red[lid + s];
        }
        workgroupBarrier();
    }
    let r = workgroupUniformLoad(&red[0]);
    workgroupBarrier();
    return r;
}

// The index of the workgroup's smallest `x` (the smaller index on ties), uniform.
fn argmin_all(lid: u32, x: T, i: u32) -> u32 {
    red[lid] = x;
    red_i[lid] = i;
    workgroupBarrier();
    for (var s = WG / 2u; s > 0u; s = s >> 1u) {
        if (lid < s) {
            let ox = red[lid + s];
            let oi = red_i[lid + s];
            if (ox < red[lid] || (ox == red[lid] && oi < red_i[lid])) {
                red[lid] = ox;
                red_i[lid] = oi;
            }
        }
        workgroupBarrier();
    }
    let r = workgroupUniformLoad(&red_i[0]);
    workgroupBarrier();
    return r;
}

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let mat = wid.y * nwg.x + wid.x;
    if (mat >= p.batch) {
        return;
    }
    if (lid == 0u) {
        flag = select(0u, 1u, info[p.info_base + mat] < 0);
    }
    if (workgroupUniformLoad(&flag) == 1u) {
        return;
    }
    let m = p.m;
    let n = p.n;
    let uc = p.uc;
    let ub = p.u_base + mat * m * uc;
    let vb = p.v_base + mat * n * n;
    let sb = p.s_base + mat * n;
    let players = n + (n & 1u);
    let half = players / 2u;
    var sweeps_rotating = 0u;
    for (var sweep = 0u; sweep < p.sweeps; sweep += 1u) {
        if (lid == 0u) {
            atomicStore(&rotated, 0u);
        }
        workgroupBarrier();
        for (var r = 0u; r + 1u < players; r += 1u) {
            for (var k = lid; k < half; k += WG) {
                let pq = pair(r, k, players);
                if (pq.y >= n) {
                    continue;
                }
                var al = T(0.0);
                var be = T(0.0);
                var ga = T(0.0);
                for (var i = 0u; i < m; i += 1u) {
                    let x = u[ub + i * uc + pq.x];
                    let y = u[ub + i * uc + pq.y];
                    al += x * x;
                    be += y * y;
                    ga += x * y;
                }
                if (abs(ga) > EPS * sqrt(al) * sqrt(be) && abs(ga) > TINY) {
                    let zeta = (be - al) / (T(2.0) * ga);
                    var t = T(1.0) / (abs(zeta) + sqrt(zeta * zeta + T(1.0)));
                    if (abs(zeta) > T(1.0) / EPS) {
                        t = T(0.5) / abs(zeta);
                    }
                    if (zeta < T(0.0)) {
                        t = -t;
                    }
                    let c = T(1.0) / sqrt(t * t + T(1.0));
                    let s = t * c;
                    for (var i = 0u; i < m; i += 1u) {
                        let x = u[ub + i * uc + pq.x];
                        let y = u[ub + i * uc + pq.y];
                        u[ub + i * uc + pq.x] = c * x - s * y;
                        u[ub + i * uc + pq.y] = s * x + c * y;
                    }
                    for (var i = 0u; i < n; i += 1u) {
                        let x = v[vb + i * n + pq.x];
                        let y = v[vb + i * n + pq.y];
                        v[vb + i * n + pq.x] = c * x - s * y;
                        v[vb + i * n + pq.y] = s * x + c * y;
                    }
                    atomicStore(&rotated, 1u);
                }
            }
            storageBarrier();
        }
        workgroupBarrier();
        if (lid == 0u) {
            flag = atomicLoad(&rotated);
        }
        if (workgroupUniformLoad(&flag) == 0u) {
            break;
        }
        sweeps_rotating += 1u;
    }
    if (sweeps_rotating == p.sweeps) {
        if (lid == 0u) {
            info[p.info_base + mat] = i32(sweeps_rotating);
        }
        return;
    }
    if (lid == 0u) {
        info[p.info_base + mat] = -1;
    }
    // σ_j = ‖U_j‖ (scaled, so that squares neither overflow nor underflow).
    for (var j = lid; j < n; j += WG) {
        var big = T(0.0);
        for (var i = 0u; i < m; i += 1u) {
            big = max(big, abs(u[ub + i * uc + j]));
        }
        var ss = T(0.0);
        if (big > T(0.0)) {
            for (var i = 0u; i < m; i += 1u) {
                let x = u[ub + i * uc + j] / big;
                ss += x * x;
            }
        }
        sv[sb + j] = big * sqrt(ss);
    }
    storageBarrier();
    // Descending, U's and V's columns with them (selection sort; ties keep their order).
    for (var i = 0u; i + 1u < n; i += 1u) {
        if (lid == 0u) {
            var best = i;
            for (var j = i + 1u; j < n; j += 1u) {
                if (sv[sb + j] > sv[sb + best]) {
                    best = j;
                }
            }
            flag = best;
        }
        let b = workgroupUniformLoad(&flag);
        if (b != i) {
            for (var row = lid; row < m; row += WG) {
                let x = u[ub + row * uc + i];
                u[ub + row * uc + i] = u[ub + row * uc + b];
                u[ub + row * uc + b] = x;
            }
            for (var row = lid; row < n; row += WG) {
                let x = v[vb + row * n + i];
                v[vb + row * n + i] = v[vb + row * n + b];
                v[vb + row * n + b] = x;
            }
            storageBarrier();
            if (lid == 0u) {
                let x = sv[sb + i];
                sv[sb + i] = sv[sb + b];
                sv[sb + b] = x;
            }
        }
        storageBarrier();
    }
    // Normalise; the first column without a usable σ starts the completion.
    var first_bad = n;
    for (var j = 0u; j < n; j += 1u) {
        if (!(sv[sb + j] > TINY)) {
            first_bad = j;
            break;
        }
    }
    for (var t = lid; t < m * first_bad; t += WG) {
        let i = t / first_bad;
        let j = t % first_bad;
        u[ub + i * uc + j] = u[ub + i * uc + j] / sv[sb + j];
    }
    storageBarrier();
    if (lid == 0u) {
        flag = first_bad;
    }
    let start = workgroupUniformLoad(&flag);
    for (var j = start; j < uc; j += 1u) {
        // e_k with the least of it in span(U_0 .. U_{j-1}).
        var least = T(3.0);
        var at = 0u;
        for (var k = lid; k < m; k += WG) {
            var cover = T(0.0);
            for (var c = 0u; c < j; c += 1u) {
                let x = u[ub + k * uc + c];
                cover += x * x;
            }
            if (cover < least) {
                least = cover;
                at = k;
            }
        }
        let kk = argmin_all(lid, least, at);
        for (var i = lid; i < m; i += WG) {
            var x = select(T(0.0), T(1.0), i == kk);
            for (var c = 0u; c < j; c += 1u) {
                x -= u[ub + kk * uc + c] * u[ub + i * uc + c];
            }
            u[ub + i * uc + j] = x;
        }
        storageBarrier();
        // Once more against the same columns, for orthogonality to working accuracy.
        for (var c = lid; c < j; c += WG) {
            var d = T(0.0);
            for (var i = 0u; i < m; i += 1u) {
                d += u[ub + i * uc + c] * u[ub + i * uc + j];
            }
            scratch[p.scratch_base + mat * uc + c] = d;
        }
        storageBarrier();
        var sq = T(0.0);
        for (var i = lid; i < m; i += WG) {
            var x = u[ub + i * uc + j];
            for (var c = 0u; c < j; c += 1u) {
                x -= scratch[p.scratch_base + mat * uc + c] * u[ub + i * uc + c];
            }
            u[ub + i * uc + j] = x;
            sq += x * x;
        }
        let norm = sqrt(sum_all(lid, sq));
        for (var i = lid; i < m; i += WG) {
            u[ub + i * uc + j] = u[ub + i * uc + j] / norm;
        }
        storageBarrier();
    }
}
