// Shared by the Householder kernels (linalg_qr.wgsl, linalg_tridiagonal.wgsl,
// linalg_bidiagonal.wgsl): a workgroup-wide sum or max, and a reflector built as LAPACK's
// dlarfg builds it. The including file declares `override WG` and `load(i)`, the matrix's
// element i.

var<workgroup> red: array<T, WG>;

// The sum (or max) over the workgroup of each invocation's `x`; every invocation gets it.
fn reduce(lid: u32, x: T, take_max: bool) -> T {
    red[lid] = x;
    workgroupBarrier();
    for (var s = WG / 2u; s > 0u; s = s >> 1u) {
        if (lid < s) {
            if (take_max) {
                red[lid] = max(red[lid], red[lid + s]);
            } else {
                red[lid] = red[lid] + red[lid + s];
            }
        }
        workgroupBarrier();
    }
    let r = workgroupUniformLoad(&red[0]);
    workgroupBarrier();
    return r;
}

// H = I − τ·v·vᵀ with H·(α, x) = (β, 0, …): β = −sign(α)·‖(α, x)‖, τ = (β − α)/β and
// v = (1, x·inv) with inv = 1/(α − β). ‖x‖ comes as scale·√ssq (scale the largest |x_j|, so
// that squaring neither overflows nor underflows). x = 0 gives H = I (τ = 0, β = α), and so
// does an x below the smallest normal number (TINY): GPUs flush subnormals to zero, so
// dividing by such a scale gives ±inf and NaN where LAPACK's dlarfg would rescale; the
// reflection's change to the matrix is then below TINY·√m, far below rounding of any normal
// entry. (A rank-deficient matrix's columns reach it: their rounding noise shrinks with each
// reflection.)
struct Reflector {
    beta: T,
    tau: T,
    inv: T,
}

fn reflector(alpha: T, scale: T, ssq: T) -> Reflector {
    if (scale < TINY) {
        return Reflector(alpha, T(0.0), T(0.0));
    }
    let top = max(abs(alpha), scale);
    let hyp = top * sqrt((alpha / top) * (alpha / top) + ssq * (scale / top) * (scale / top));
    var beta = hyp;
    if (alpha >= T(0.0)) {
        beta = -hyp;
    }
    return Reflector(beta, (beta - alpha) / beta, T(1.0) / (alpha - beta));
}

// The reflector for (α, x), x_t = load(start + t·stride) for t < count, every invocation of the
// workgroup taking part (each gets it).
fn reflector_of(lid: u32, alpha: T, start: u32, stride: u32, count: u32) -> Reflector {
    var big = T(0.0);
    for (var t = lid; t < count; t += WG) {
        big = max(big, abs(load(start + t * stride)));
    }
    let scale = reduce(lid, big, true);
    var sq = T(0.0);
    if (scale > T(0.0)) {
        for (var t = lid; t < count; t += WG) {
            let x = load(start + t * stride) / scale;
            sq += x * x;
        }
    }
    return reflector(alpha, scale, reduce(lid, sq, false));
}
