// 32 x 32 -> 64-bit multiplication in 32-bit integer arithmetic (WebGPU has no 64-bit types),
// shared by Philox's portable backend and the f32 math library's sin/cos/tan reduction.

// (high, low) words of the 64-bit product a * b. The high word comes from 16-bit limbs; the
// middle sum cannot overflow: p10 <= (2^16 - 1)^2 and the two added terms are below 2^16 each.
fn mulhilo(a: u32, b: u32) -> vec2<u32> {
    let a0 = a & 0xffffu;
    let a1 = a >> 16u;
    let b0 = b & 0xffffu;
    let b1 = b >> 16u;
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let p11 = a1 * b1;
    return vec2<u32>(p11 + (p01 >> 16u) + ((p10 + (p01 & 0xffffu) + (p00 >> 16u)) >> 16u), a * b);
}
