// Complex arithmetic and the small DFTs the FFT kernels share (`shaders/fft.wgsl`,
// `shaders/fft_local.wgsl`): the host joins this file after the `alias T` line and before either.

fn cmul(a: vec2<T>, b: vec2<T>) -> vec2<T> {
    return vec2<T>(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

// (s·i)·z: a quarter turn, clockwise for the forward transform (s = −1).
fn quarter(z: vec2<T>, s: T) -> vec2<T> {
    return vec2<T>(-s * z.y, s * z.x);
}

// e^(s·iπ/4)·z = (1 + s·i)/√2 · z.
fn eighth(z: vec2<T>, s: T) -> vec2<T> {
    let h = T(0.7071067811865476);
    return vec2<T>((z.x - s * z.y) * h, (z.y + s * z.x) * h);
}

// The 4-point DFT of (a, b, c, d) with roots (s·i)^k.
fn dft4(a: vec2<T>, b: vec2<T>, c: vec2<T>, d: vec2<T>, s: T) -> array<vec2<T>, 4> {
    let ac = a + c;
    let amc = a - c;
    let bd = b + d;
    let bmd = quarter(b - d, s);
    return array<vec2<T>, 4>(ac + bd, amc + bmd, ac - bd, amc - bmd);
}
