// Whole FFTs in workgroup memory: every Stockham pass of a transform of up to LMAX points in one
// launch, so that memory is read once and written once however many passes the length needs.
// The host prepends `alias T = f32;` (or f64).
//
// A workgroup loads PER transforms of length N (LMAX / N of them, at least one), runs the
// mixed-radix passes R0, R1, … between the two halves of `buf`, and stores the results. The
// length and its radices are override constants: a pipeline per length (the plan's), every
// index computation a division by a constant and every pass unrolled, which a CPU driver
// (lavapipe, SwiftShader) needs to run this as fast as one global pass. The pass is the one `shaders/fft.wgsl`
// describes: after passes of product ns, block g of ns points holds the DFT of x[g + (n/ns)·t];
// a radix-R pass combines R blocks (read n/R apart) into one of ns·R, in natural order at the end.
//
// The launch's transforms lie along the middle axis of a contiguous (rows, N, cols) array,
// transform t being column t % cols of row t / cols, so one kernel serves contiguous rows
// (cols = 1) and an axis that is not the last (cols = the product of the axes after it), which
// it reads and writes where it lies: no transposing copy.
//
// Every root of unity is an entry of the plan's table `tw[t] = e^(-2πi·t/N)`, computed in f64 on
// the host: none accumulates rounding. The table ends with the scales 1, 1/N, 1/√N.

override WG: u32 = 64u;
// Points each half of `buf` holds.
override LMAX: u32 = 1024u;
// The transform length, the transforms one workgroup holds, and the radices of the passes in
// order (1: no pass).
override N: u32 = 8u;
override PER: u32 = 1u;
override R0: u32 = 8u;
override R1: u32 = 1u;
override R2: u32 = 1u;
override R3: u32 = 1u;
override R4: u32 = 1u;
override R5: u32 = 1u;
override R6: u32 = 1u;
override R7: u32 = 1u;

struct Params {
    // Transforms in this launch.
    count: u32,
    // Transforms per row (the product of the axes after the transformed one).
    cols: u32,
    x_base: u32,
    y_base: u32,
    tw_base: u32,
    // 1: the inverse transform (conjugated roots).
    inverse: u32,
    // Index in `tw` of the scale applied on the way out.
    scale_at: u32,
}

// The parameters come through storage (see shaders/linalg_lu.wgsl for why not a uniform).
// Nothing read from them bounds a barrier: the passes' constants do, so that the whole of
// workgroup memory is left to the points.
@group(0) @binding(0) var<storage, read> params: Params;
@group(0) @binding(1) var<storage, read> x: array<vec2<T>>;
@group(0) @binding(2) var<storage, read_write> y: array<vec2<T>>;
@group(0) @binding(3) var<storage, read> tw: array<vec2<T>>;

var<workgroup> buf: array<vec2<T>, 2 * LMAX>;

// What every butterfly of a launch reads of the parameters.
struct Roots {
    tw_base: u32,
    inverse: bool,
}

// Table entry t, conjugated for the inverse transform.
fn root(w: Roots, t: u32) -> vec2<T> {
    let v = tw[w.tw_base + t];
    return select(v, vec2<T>(v.x, -v.y), w.inverse);
}

// Input q of a butterfly: buf[at + q·span] times w^(q·k) (table entry q·k·step).
fn input(w: Roots, at: u32, span: u32, q: u32, k: u32, step: u32) -> vec2<T> {
    let t = buf[at + q * span];
    return select(cmul(t, root(w, q * k * step)), t, k == 0u);
}

// One radix-r pass (ns: the product of the radices before it) over the `held` transforms of
// the workgroup, from the half of `buf` at `src` to the one at `dst`, and the barrier after it
// (none for r = 1, a constant: uniform). Radices 2, 4 and 8 in
// named values (a private array indexed in a loop is memory to a CPU driver); the others
// through the table.
fn pass_of(w: Roots, r: u32, ns: u32, src: u32, dst: u32, lid: u32, held: u32) {
    if (r == 1u) {
        return;
    }
    let span = N / r;
    // w^(q·k), w = e^(-2πi/(ns·r)): table entry q·k·N/(ns·r).
    let step = N / (ns * r);
    let s = select(T(-1), T(1), w.inverse);
    for (var u = lid; u < PER * span; u += WG) {
        let slot = u / span;
        if (slot >= held) {
            break;
        }
        let j = u % span;
        let k = j % ns;
        let at = src + slot * N + j;
        let out = dst + slot * N + (j / ns) * ns * r + k;
        if (r == 2u) {
            let a = buf[at];
            let b = input(w, at, span, 1u, k, step);
            buf[out] = a + b;
            buf[out + ns] = a - b;
        } else if (r == 4u) {
            let d = dft4(
                buf[at],
                input(w, at, span, 1u, k, step),
                input(w, at, span, 2u, k, step),
                input(w, at, span, 3u, k, step),
                s,
            );
            buf[out] = d[0];
            buf[out + ns] = d[1];
            buf[out + 2u * ns] = d[2];
            buf[out + 3u * ns] = d[3];
        } else if (r == 8u) {
            let e = dft4(
                buf[at],
                input(w, at, span, 2u, k, step),
                input(w, at, span, 4u, k, step),
                input(w, at, span, 6u, k, step),
                s,
            );
            let o = dft4(
                input(w, at, span, 1u, k, step),
                input(w, at, span, 3u, k, step),
                input(w, at, span, 5u, k, step),
                input(w, at, span, 7u, k, step),
                s,
            );
            let w1 = eighth(o[1], s);
            let w2 = quarter(o[2], s);
            let w3 = quarter(eighth(o[3], s), s);
            buf[out] = e[0] + o[0];
            buf[out + 4u * ns] = e[0] - o[0];
            buf[out + ns] = e[1] + w1;
            buf[out + 5u * ns] = e[1] - w1;
            buf[out + 2u * ns] = e[2] + w2;
            buf[out + 6u * ns] = e[2] - w2;
            buf[out + 3u * ns] = e[3] + w3;
            buf[out + 7u * ns] = e[3] - w3;
        } else {
            // e^(-2πi·e/r) is table entry e·span.
            var v: array<vec2<T>, 13>;
            for (var q = 0u; q < r; q += 1u) {
                v[q] = input(w, at, span, q, k, step);
            }
            for (var q = 0u; q < r; q += 1u) {
                var acc = v[0];
                for (var i = 1u; i < r; i += 1u) {
                    let e = (i * q) % r;
                    acc += select(cmul(v[i], root(w, e * span)), v[i], e == 0u);
                }
                buf[out + q * ns] = acc;
            }
        }
    }
    workgroupBarrier();
}

// Where element e of transform t (cols > 1) is, from `base`.
fn place(t: u32, e: u32, cols: u32, base: u32) -> u32 {
    let r = t / cols;
    return base + (r * N + e) * cols + (t - r * cols);
}

@compute @workgroup_size(WG)
fn local_fft(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let p = params;
    let first = (wid.y * nwg.x + wid.x) * PER;
    // A workgroup past the end holds nothing but still meets every barrier.
    let held = select(0u, min(PER, p.count - first), first < p.count);
    let total = held * N;
    // Consecutive invocations take consecutive addresses: rows are read whole (no division,
    // which a CPU driver does lane by lane), columns across transforms.
    if (p.cols == 1u) {
        for (var i = lid; i < total; i += WG) {
            buf[i] = x[p.x_base + first * N + i];
        }
    } else {
        for (var i = lid; i < PER * N; i += WG) {
            let slot = i % PER;
            let e = i / PER;
            if (slot < held) {
                buf[slot * N + e] = x[place(first + slot, e, p.cols, p.x_base)];
            }
        }
    }
    workgroupBarrier();
    let w = Roots(p.tw_base, p.inverse != 0u);
    // The passes, unrolled (the radices are constants); pass i reads half i % 2.
    pass_of(w, R0, 1u, 0u, LMAX, lid, held);
    pass_of(w, R1, R0, LMAX, 0u, lid, held);
    pass_of(w, R2, R0 * R1, 0u, LMAX, lid, held);
    pass_of(w, R3, R0 * R1 * R2, LMAX, 0u, lid, held);
    pass_of(w, R4, R0 * R1 * R2 * R3, 0u, LMAX, lid, held);
    pass_of(w, R5, R0 * R1 * R2 * R3 * R4, LMAX, 0u, lid, held);
    pass_of(w, R6, R0 * R1 * R2 * R3 * R4 * R5, 0u, LMAX, lid, held);
    pass_of(w, R7, R0 * R1 * R2 * R3 * R4 * R5 * R6, LMAX, 0u, lid, held);
    let passes = u32(R0 > 1u) + u32(R1 > 1u) + u32(R2 > 1u) + u32(R3 > 1u) + u32(R4 > 1u)
        + u32(R5 > 1u) + u32(R6 > 1u) + u32(R7 > 1u);
    let src = (passes % 2u) * LMAX;
    let scale = tw[p.tw_base + p.scale_at].x;
    if (p.cols == 1u) {
        for (var i = lid; i < total; i += WG) {
            y[p.y_base + first * N + i] = buf[src + i] * scale;
        }
    } else {
        for (var i = lid; i < PER * N; i += WG) {
            let slot = i % PER;
            let k = i / PER;
            if (slot < held) {
                y[place(first + slot, k, p.cols, p.y_base)] = buf[src + slot * N + k] * scale;
            }
        }
    }
}
