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
// eigenvalues to high relative accuracy) and |a_pq| > EPS·‖A‖_F/n.
//
// A launch runs rounds [r0, r1) of `sweeps` sweeps (several whole sweeps for small matrices,
// part of one for large ones: the host keeps every invocation within the adapter's loop budget,
// see linalg_lu.wgsl). Per matrix, `info` holds two words: done (1 once a whole sweep rotated
// nothing; the diagonal is then copied to `w`, unsorted, and later launches skip the matrix) and
// whether the current sweep has rotated. Pair rotations are kept in `cs`.

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
    r0: u32,
    r1: u32,
}

// The parameters come through a storage binding, not `var<uniform>` (as in shaders/philox.wgsl):
// lavapipe specialises a shader for the uniform values steering it and keeps a variant per
// distinct value, and the window bases here differ from call to call (30 ms and 1 MB a launch).
// Each entry point loads them once, through workgroup memory so that they stay uniform.
@group(0) @binding(0) var<storage, read> params: Params;
var<workgroup> shared_params: Params;
@group(0) @binding(1) var<storage, read_write> a: array<T>;
@group(0) @binding(2) var<storage, read_write> v: array<T>;
@group(0) @binding(3) var<storage, read_write> w: array<T>;
@group(0) @binding(4) var<storage, read_write> info: array<u32>;
@group(0) @binding(5) var<storage, read_write> cs: array<T>;

var<workgroup> rotated: atomic<u32>;
var<workgroup> flag: u32;
var<workgroup> red: array<T, WG>;

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
    let state = p.info_base + 2u * mat;
    if (lid == 0u) {
        flag = info[state];
    }
    if (workgroupUniformLoad(&flag) == 1u) {
        return;
    }
    let n = p.n;
    let ab = p.a_base + mat * n * n;
    let vb = p.v_base + mat * n * n;
    let cb = p.cs_base + mat * (n + 1u);
    let players = n + (n & 1u);
    let half = players / 2u;
    // ‖A‖_F, which rotations keep: an a_pq below EPS·‖A‖_F/n is negligible for every eigenvalue
    // (cuSOLVER's syevj stops at ‖off(A)‖_F ≤ ε‖A‖_F), so rounding noise is never rotated and
    // the sweeps end.
    var sq = T(0.0);
    for (var t = lid; t < n * n; t += WG) {
        let x = a[ab + (t / n) * n + t % n];
        sq += x * x;
    }
    let floor = max(EPS * sqrt(sum_all(lid, sq)) / T(max(n, 1u)), TINY);
    for (var sweep = 0u; sweep < p.sweeps; sweep += 1u) {
        if (lid == 0u) {
            atomicStore(&rotated, 0u);
        }
        workgroupBarrier();
        for (var r = p.r0; r < p.r1; r += 1u) {
            for (var k = lid; k < half; k += WG) {
                let pq = pair(r, k, players);
                var c = T(1.0);
                var s = T(0.0);
                if (pq.y < n) {
                    let app = a[ab + pq.x * n + pq.x];
                    let aqq = a[ab + pq.y * n + pq.y];
                    let apq = a[ab + pq.x * n + pq.y];
                    if (abs(apq) > EPS * sqrt(abs(app)) * sqrt(abs(aqq)) && abs(apq) > floor) {
                        let turn = rotation((aqq - app) / (T(2.0) * apq));
                        c = turn.x;
                        s = turn.y;
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
        if (lid == 0u && atomicLoad(&rotated) == 1u) {
            info[state + 1u] = 1u;
        }
        storageBarrier();
        if (p.r1 + 1u == players) {
            // The sweep is complete: done if it rotated nothing, else the next one starts.
            if (lid == 0u) {
                flag = info[state + 1u];
            }
            if (workgroupUniformLoad(&flag) == 0u) {
                for (var i = lid; i < n; i += WG) {
                    w[p.w_base + mat * n + i] = a[ab + i * n + i];
                }
                if (lid == 0u) {
                    info[state] = 1u;
                }
                break;
            }
            if (lid == 0u) {
                info[state + 1u] = 0u;
            }
            storageBarrier();
        }
    }
}
