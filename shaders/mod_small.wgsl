// x mod m for x below 2^24 and m below 2^10, without integer division (which llvmpipe runs lane
// by lane): the quotient from f32 (x is exact in f32; x / m is off by under one unit, so it is
// the true quotient or one away), then one correction. `inv` is 1 / f32(m).
fn mod_small(x: u32, m: u32, inv: f32) -> u32 {
    let q = u32(f32(x) * inv);
    let r = i32(x) - i32(q * m);
    if (r < 0) {
        return u32(r + i32(m));
    }
    if (r >= i32(m)) {
        return u32(r - i32(m));
    }
    return u32(r);
}

// mod_small of four values at once.
fn mod_small4(x: vec4<u32>, m: u32, inv: f32) -> vec4<u32> {
    let q = vec4<u32>(vec4<f32>(x) * inv);
    let r = vec4<i32>(x) - vec4<i32>(q * m);
    let mi = vec4<i32>(i32(m));
    let low = select(r, r + mi, r < vec4<i32>(0));
    return vec4<u32>(select(low, low - mi, low >= mi));
}
