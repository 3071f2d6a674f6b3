// ln of the positive normal f32 with these bits, times 2^k0: musl's logf (from FreeBSD's
// e_logf.c). x = 2^k (1 + f) with 1 + f in [sqrt(2)/2, sqrt(2)); log(1 + f) = f - f^2/2 +
// s (f^2/2 + R(s^2)) with s = f / (2 + f) and R a minimax polynomial (|error| < 2^-34.24), plus
// k ln 2 in two parts. Only correctly rounded operations, so every adapter gives the same bits,
// within 1 ulp. Shared by the f32 math library (`log_`, which also takes subnormals and special
// values: k0 carries a subnormal's normalising shift) and Philox's Box-Muller and exponential.
fn ln_bits(bits: u32, k0: i32) -> f32 {
    var ix = bits + (0x3f800000u - 0x3f3504f3u);
    let k = i32(ix >> 23u) - 0x7f + k0;
    ix = (ix & 0x007fffffu) + 0x3f3504f3u;
    let f = bitcast<f32>(ix) - 1.0;
    let s = f / (2.0 + f);
    let z = s * s;
    let w = z * z;
    let t1 = w * (0.40000972152 + w * 0.24279078841);
    let t2 = z * (0.66666662693 + w * 0.28498786688);
    let r = t2 + t1;
    let hfsq = 0.5 * f * f;
    let dk = f32(k);
    return s * (hfsq + r) + dk * 9.0580006145e-06 - hfsq + f + dk * 6.9313812256e-01;
}
