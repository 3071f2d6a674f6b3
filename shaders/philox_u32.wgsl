// philox.wgsl's portable backend: 32-bit integer arithmetic only (WebGPU has no 64-bit types),
// and whole units stored as vec4<T>.

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

@group(0) @binding(2) var<storage, read_write> dst4: array<vec4<T>>;

// Unit u of a one-word distribution: 16 outputs.
fn store_narrow(u: u32, a: vec4<T>, b: vec4<T>, c: vec4<T>, d: vec4<T>) {
    dst4[4u * u] = a;
    dst4[4u * u + 1u] = b;
    dst4[4u * u + 2u] = c;
    dst4[4u * u + 3u] = d;
}

// Unit u of a wide distribution: 8 outputs.
fn store_wide(u: u32, a: vec4<T>, b: vec4<T>) {
    dst4[2u * u] = a;
    dst4[2u * u + 1u] = b;
}

