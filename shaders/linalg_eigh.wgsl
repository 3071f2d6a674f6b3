// Eigenvalues and eigenvectors of a batch of real symmetric n × n matrices by the cyclic Jacobi
// method, one workgroup per matrix (the host prepends `alias T = ..;` and `const EPS: T`, the
// dtype's machine epsilon, and `const TINY: T`, its smallest normal number).
//
// A sweep visits every pair (p, q) once, in n − 1 rounds of disjoint pairs (the round-robin
// tournament; a dummy player when n is odd). In a round every pair's rotation is computed from the
// current matrix (Rutishauser's formulas: t = sign(θ)/(|θ| + √(θ² + 1)), θ = (a_qq − a_pp)/(2a_pq)),
// then all rotations are applied to rows, then to columns and to V: disjoint rotations commute,
// so this is one orthogonal similarity per round, and a_pq is set to zero exactly. A pair rotates
// only while |a_pq| > EPS·√|a_pp·a_qq| (Demmel–Veselić's relative test, which gives small
// eigenvalues to high relative accuracy) and |a_pq| > TINY.
//
// A launch runs at most `sweeps` sweeps. A matrix that converges gets its eigenvalues sorted
// ascending (V's columns with them) and `info` −1; one that has not yet gets the number of
// sweeps run, and the host launches again (matrices already done skip) or reports no
// convergence. Pair rotations are kept in `cs`.

override WG: u32 = 64u;

struct Params {
    n: u32,
    batch: u32,
    a_base: u32,
    v_base: u32,
    w_base: u32,
    info_base: u32,
    cs_base: u32,
    sweeps: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read_write> a: array<T>;
@group(0) @binding(2) var<storage, read_write> v: array<T>;
@group(0) @binding(3) var<storage, read_write> w: array<T>;
@group(0) @binding(4) var<storage, read_write> info: array<i32>;
@group(0) @binding(5) var<storage, read_write> cs: array<T>;

var<workgroup> rotated: atomic<u32>;
var<workgroup> any_rotated: u32;
var<workgroup> chosen: u32;

// Pair `k` of round `r` of the tournament of `players` (even) players, smaller index first.
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
    let n = p.n;
    let ab = p.a_base + mat * n * n;
    let vb = p.v_base + mat * n * n;
    let cb = p.cs_base + mat * (n + 1u);
    if (lid == 0u) {
        chosen = select(0u, 1u, info[p.info_base + mat] < 0);
    }
    if (workgroupUniformLoad(&chosen) == 1u) {
        return;
    }
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
                var c = T(1.0);
                var s = T(0.0);
                if (pq.y < n) {
                    let app = a[ab + pq.x * n + pq.x];
                    let aqq = a[ab + pq.y * n + pq.y];
                    let apq = a[ab + pq.x * n + pq.y];
                    if (abs(apq) > EPS * sqrt(abs(app)) * sqrt(abs(aqq)) && abs(apq) > TINY) {
                        let theta = (aqq - app) / (T(2.0) * apq);
                        var t = T(1.0) / (abs(theta) + sqrt(theta * theta + T(1.0)));
                        if (abs(theta) > T(1.0) / EPS) {
                            t = T(0.5) / theta;
                        }
                        if (theta < T(0.0)) {
                            t = -t;
                        }
                        c = T(1.0) / sqrt(t * t + T(1.0));
                        s = t * c;
                        atomicStore(&rotated, 1u);
                    }
                }
                cs[cb + 2u * k] = c;
                cs[cb + 2u * k + 1u] = s;
            }
            storageBarrier();
            // Rows p and q of A: Jᵀ·A.
            for (var t = lid; t < half * n; t += WG) {
                let k = t / n;
                let col = t % n;
                let s = cs[cb + 2u * k + 1u];
                if (s != T(0.0)) {
                    let c = cs[cb + 2u * k];
                    let pq = pair(r, k, players);
                    let x = a[ab + pq.x * n + col];
                    let y = a[ab + pq.y * n + col];
                    a[ab + pq.x * n + col] = c * x - s * y;
                    a[ab + pq.y * n + col] = s * x + c * y;
                }
            }
            storageBarrier();
            // Columns p and q of A and V: (Jᵀ·A)·J, V·J.
            for (var t = lid; t < half * n; t += WG) {
                let k = t / n;
                let row = t % n;
                let s = cs[cb + 2u * k + 1u];
                if (s != T(0.0)) {
                    let c = cs[cb + 2u * k];
                    let pq = pair(r, k, players);
                    let x = a[ab + row * n + pq.x];
                    let y = a[ab + row * n + pq.y];
                    a[ab + row * n + pq.x] = c * x - s * y;
                    a[ab + row * n + pq.y] = s * x + c * y;
                    let vx = v[vb + row * n + pq.x];
                    let vy = v[vb + row * n + pq.y];
                    v[vb + row * n + pq.x] = c * vx - s * vy;
                    v[vb + row * n + pq.y] = s * vx + c * vy;
                }
            }
            storageBarrier();
            for (var k = lid; k < half; k += WG) {
                if (cs[cb + 2u * k + 1u] != T(0.0)) {
                    let pq = pair(r, k, players);
                    a[ab + pq.x * n + pq.y] = T(0.0);
                    a[ab + pq.y * n + pq.x] = T(0.0);
                }
            }
            storageBarrier();
        }
        workgroupBarrier();
        if (lid == 0u) {
            any_rotated = atomicLoad(&rotated);
        }
        let go_on = workgroupUniformLoad(&any_rotated);
        if (go_on == 0u) {
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
    // Converged: the eigenvalues ascending (selection sort), V's columns with them.
    for (var i = lid; i < n; i += WG) {
        w[p.w_base + mat * n + i] = a[ab + i * n + i];
    }
    storageBarrier();
    for (var i = 0u; i + 1u < n; i += 1u) {
        if (lid == 0u) {
            var best = i;
            for (var j = i + 1u; j < n; j += 1u) {
                if (w[p.w_base + mat * n + j] < w[p.w_base + mat * n + best]) {
                    best = j;
                }
            }
            chosen = best;
        }
        let b = workgroupUniformLoad(&chosen);
        if (b != i) {
            for (var row = lid; row < n; row += WG) {
                let x = v[vb + row * n + i];
                v[vb + row * n + i] = v[vb + row * n + b];
                v[vb + row * n + b] = x;
            }
            storageBarrier();
            if (lid == 0u) {
                let x = w[p.w_base + mat * n + i];
                w[p.w_base + mat * n + i] = w[p.w_base + mat * n + b];
                w[p.w_base + mat * n + b] = x;
            }
        }
        storageBarrier();
    }
}
