// The FFT's kernels over complex values stored as `vec2<T>` (real, imaginary), as NumPy stores
// complex64/complex128. The host prepends `alias T = f32;` (or f64).
//
// `stockham`: one pass of a mixed-radix Stockham auto-sort FFT over a batch of transforms of
// length n, radix R (an override: the loops unroll). After the passes with radices R₁…Rᵢ
// (product Ns), the array holds, in block g of Ns elements, the DFT of the subsequence
// x[g + (n/Ns)·t]; a pass combines R such blocks (read n/R apart) into one of Ns·R: invocation
// j = g·Ns + k loads X_r[k] = x[j + r·n/R], multiplies by w^(r·k) (w = e^(-2πi/(Ns·R))), takes
// the R-point DFT and stores output q at (j / Ns)·Ns·R + k + q·Ns. The last pass leaves the
// transform in natural order: no bit-reversal pass.
//
// Twiddles are read from a table the host computes in float64, `tw[t] = e^(-2πi·t/n)` for
// t < n, followed by the three scales of the norms (1, 1/n, 1/√n) so that the last pass scales
// without a pass of its own: every factor is correctly rounded, none accumulates rounding.
//
// `chirp_pre`, `chirp_mul`, `chirp_post`: Bluestein's algorithm for a length n with a large
// prime factor, as three point-wise steps around two power-of-two FFTs of length m ≥ 2n − 1:
// a = x·w (zero-padded to m), A = FFT(a), A·B (B = FFT of the conjugate chirp, kept in the
// plan), C = IFFT(A·B), y = w·C, with w[k] = e^(-πi·k²/n) (k² mod 2n taken exactly on the host).

override R: u32 = 2u;
override WG: u32 = 64u;

struct Params {
    // Transform length (of this pass's FFT: m for the passes inside Bluestein).
    n: u32,
    // Product of the radices of the passes before this one.
    ns: u32,
    batch: u32,
    // Workgroups per transform.
    groups: u32,
    x_base: u32,
    y_base: u32,
    tw_base: u32,
    // 1: the inverse transform (conjugated twiddles, or chirp).
    inverse: u32,
    // Index in `tw` of this pass's scale (n: 1, the last pass of a scaled transform: more).
    scale_at: u32,
    // Bluestein: the length m of the inner FFTs.
    m: u32,
}

@group(0) @binding(0) var<storage, read> p: Params;
@group(0) @binding(1) var<storage, read> x: array<vec2<T>>;
@group(0) @binding(2) var<storage, read_write> y: array<vec2<T>>;
@group(0) @binding(3) var<storage, read> tw: array<vec2<T>>;

// Entry t of the table, conjugated for the inverse transform.
fn twiddle(t: u32) -> vec2<T> {
    let v = tw[p.tw_base + t];
    if (p.inverse != 0u) {
        return vec2<T>(v.x, -v.y);
    }
    return v;
}

// (transform, index within it) of this invocation, or batch when out of range.
fn position(wid: vec3<u32>, nwg: vec3<u32>, lid: u32) -> vec2<u32> {
    let flat = wid.y * nwg.x + wid.x;
    return vec2<u32>(flat / p.groups, (flat % p.groups) * WG + lid);
}

@compute @workgroup_size(WG)
fn stockham(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let at = position(wid, nwg, lid);
    let b = at.x;
    let j = at.y;
    let n = p.n;
    let span = n / R;
    if (b >= p.batch || j >= span) {
        return;
    }
    let ns = p.ns;
    let k = j % ns;
    // w^(r·k) with w = e^(-2πi/(ns·R)) is table entry r·k·n/(ns·R) < n.
    let step = n / (ns * R);
    let xb = p.x_base + b * n;
    var v: array<vec2<T>, 16>;
    v[0] = x[xb + j];
    for (var r = 1u; r < R; r += 1u) {
        let t = x[xb + j + r * span];
        v[r] = select(cmul(t, twiddle(r * k * step)), t, k == 0u);
    }
    let scale = tw[p.tw_base + p.scale_at].x;
    let out = p.y_base + b * n + (j / ns) * ns * R + k;
    // The R-point DFT: output q = Σ_r v[r]·e^(∓2πi·r·q/R). Radices 2, 4 and 8 as butterflies
    // (their roots are ±1, ±i and (±1 ± i)/√2: no table reads, a few multiplications); the
    // others through the table (entry (r·q mod R)·n/R).
    let s = select(T(-1), T(1), p.inverse != 0u);
    if (R == 2u) {
        y[out] = (v[0] + v[1]) * scale;
        y[out + ns] = (v[0] - v[1]) * scale;
        return;
    }
    if (R == 4u) {
        let d = dft4(v[0], v[1], v[2], v[3], s);
        for (var q = 0u; q < 4u; q += 1u) {
            y[out + q * ns] = d[q] * scale;
        }
        return;
    }
    if (R == 8u) {
        let e = dft4(v[0], v[2], v[4], v[6], s);
        let o = dft4(v[1], v[3], v[5], v[7], s);
        let w1 = eighth(o[1], s);
        let w2 = quarter(o[2], s);
        let w3 = quarter(eighth(o[3], s), s);
        y[out] = (e[0] + o[0]) * scale;
        y[out + 4u * ns] = (e[0] - o[0]) * scale;
        y[out + ns] = (e[1] + w1) * scale;
        y[out + 5u * ns] = (e[1] - w1) * scale;
        y[out + 2u * ns] = (e[2] + w2) * scale;
        y[out + 6u * ns] = (e[2] - w2) * scale;
        y[out + 3u * ns] = (e[3] + w3) * scale;
        y[out + 7u * ns] = (e[3] - w3) * scale;
        return;
    }
    for (var q = 0u; q < R; q += 1u) {
        var acc = v[0];
        for (var r = 1u; r < R; r += 1u) {
            let e = (r * q) % R;
            acc += select(cmul(v[r], twiddle(e * span)), v[r], e == 0u);
        }
        y[out + q * ns] = acc * scale;
    }
}

// a[b, k] = x[b, k]·w[k] for k < n (x conjugated first for the inverse), 0 up to m.
@compute @workgroup_size(WG)
fn chirp_pre(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let at = position(wid, nwg, lid);
    let b = at.x;
    let k = at.y;
    if (b >= p.batch || k >= p.m) {
        return;
    }
    var v = vec2<T>(0.0, 0.0);
    if (k < p.n) {
        var t = x[p.x_base + b * p.n + k];
        if (p.inverse != 0u) {
            t = vec2<T>(t.x, -t.y);
        }
        v = cmul(t, tw[p.tw_base + k]);
    }
    y[p.y_base + b * p.m + k] = v;
}

// y[b, k] = x[b, k]·B[k] (B in `tw` from tw_base, m entries).
@compute @workgroup_size(WG)
fn chirp_mul(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let at = position(wid, nwg, lid);
    let b = at.x;
    let k = at.y;
    if (b >= p.batch || k >= p.m) {
        return;
    }
    y[p.y_base + b * p.m + k] = cmul(x[p.x_base + b * p.m + k], tw[p.tw_base + k]);
}

// y[b, k] = w[k]·x[b, k]·scale for k < n (x the inverse FFT of length m, unscaled; the result
// conjugated back for the inverse transform). The chirp table holds, after its n entries, the
// scales 1/m·{1, 1/n, 1/√n}.
@compute @workgroup_size(WG)
fn chirp_post(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let at = position(wid, nwg, lid);
    let b = at.x;
    let k = at.y;
    if (b >= p.batch || k >= p.n) {
        return;
    }
    var v = cmul(x[p.x_base + b * p.m + k], tw[p.tw_base + k]) * tw[p.tw_base + p.scale_at].x;
    if (p.inverse != 0u) {
        v = vec2<T>(v.x, -v.y);
    }
    y[p.y_base + b * p.n + k] = v;
}

// The four-step FFT's twiddles (transforms longer than one storage binding): the matrix x of
// `batch` rows b of `n` columns k (rows `ns` onwards of the whole, `ns` = this window's first row)
// times e^(∓2πi·(b·k)/total), total = p.m · (table entries below), read as the product of two
// table entries: tw[t mod L] · tw[L + t / L], L = p.scale_at (both correctly rounded: the
// product is within an ulp or two).
@compute @workgroup_size(WG)
fn twiddle_rows(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let at = position(wid, nwg, lid);
    let b = at.x;
    let k = at.y;
    if (b >= p.batch || k >= p.n) {
        return;
    }
    let t = (p.ns + b) * k;
    let l = p.scale_at;
    var w = cmul(tw[p.tw_base + t % l], tw[p.tw_base + l + t / l]);
    if (p.inverse != 0u) {
        w = vec2<T>(w.x, -w.y);
    }
    y[p.y_base + b * p.n + k] = cmul(x[p.x_base + b * p.n + k], w);
}

// rfft's last step: y[b, k] for k ≤ n (n here is half the real length) from x = the FFT of the
// real signal's (even, odd) pairs read as complex: with a = x[k], c = conj(x[n − k]) (indices
// mod n), the even samples' spectrum is (a + c)/2 and the odd ones' (a − c)/(2i), and
// y[k] = (a + c)/2 + w^k·(a − c)/(2i), w^k = tw[k] = e^(-2πi·k/(2n)); times the scale at
// tw[scale_at].
@compute @workgroup_size(WG)
fn real_post(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let at = position(wid, nwg, lid);
    let b = at.x;
    let k = at.y;
    let n = p.n;
    if (b >= p.batch || k > n) {
        return;
    }
    let a = x[p.x_base + b * n + k % n];
    let t = x[p.x_base + b * n + (n - k) % n];
    let c = vec2<T>(t.x, -t.y);
    let even = (a + c) * T(0.5);
    // (a − c)/(2i) = −i·(a − c)/2.
    let d = (a - c) * T(0.5);
    let odd = vec2<T>(d.y, -d.x);
    let y_k = even + cmul(tw[p.tw_base + k], odd);
    y[p.y_base + b * (n + 1u) + k] = y_k * tw[p.tw_base + p.scale_at].x;
}

// irfft's first step, real_post's inverse: z[b, k] for k < n (n half the real length) from the
// n + 1 non-negative frequencies x[b, ·] of a real signal, so that the inverse FFT of z (length
// n, unscaled) holds the signal's (even, odd) sample pairs: with a = x[k], c = conj(x[n − k]),
// z[k] = s·((a + c) + i·w^(-k)·(a − c)), s the scale at tw[scale_at]. The imaginary parts of
// x[0] and x[n] are dropped, as NumPy's c2r transform drops them.
@compute @workgroup_size(WG)
fn real_pre(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let at = position(wid, nwg, lid);
    let b = at.x;
    let k = at.y;
    let n = p.n;
    if (b >= p.batch || k >= n) {
        return;
    }
    let edge = select(T(1), T(0), k == 0u);
    let u = x[p.x_base + b * (n + 1u) + k];
    let a = vec2<T>(u.x, u.y * edge);
    let t = x[p.x_base + b * (n + 1u) + n - k];
    let c = vec2<T>(t.x, -t.y * edge);
    let w = tw[p.tw_base + k];
    let d = cmul(vec2<T>(w.x, -w.y), a - c);
    let sum = a + c;
    let z = vec2<T>(sum.x - d.y, sum.y + d.x);
    y[p.y_base + b * n + k] = z * tw[p.tw_base + p.scale_at].x;
}
