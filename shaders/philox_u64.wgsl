// philox.wgsl's SHADER_INT64 backend, for 4-byte element types (f32, i32, u32): a native
// 32 x 32 -> 64-bit multiply, and stores of two elements per 64-bit component. On lavapipe
// every stored vector component is a loop over the SIMD lanes, so halving the components
// matters: this backend draws normals ~25 % faster there. Bit-identical to philox_u32.wgsl.

fn mulhilo(a: u32, b: u32) -> vec2<u32> {
    return vec2<u32>(u32((u64(a) * u64(b)) >> 32u), a * b);
}

@group(0) @binding(2) var<storage, read_write> dst4: array<vec4<u64>>;

fn pack(v: vec4<T>) -> vec2<u64> {
    let w = bitcast<vec4<u32>>(v);
    return vec2<u64>(u64(w.x) | (u64(w.y) << 32u), u64(w.z) | (u64(w.w) << 32u));
}

// Unit u of a one-word distribution: 16 outputs, 64 bytes.
fn store_narrow(u: u32, a: vec4<T>, b: vec4<T>, c: vec4<T>, d: vec4<T>) {
    dst4[2u * u] = vec4<u64>(pack(a), pack(b));
    dst4[2u * u + 1u] = vec4<u64>(pack(c), pack(d));
}

// Unit u of a wide distribution: 8 outputs, 32 bytes.
fn store_wide(u: u32, a: vec4<T>, b: vec4<T>) {
    dst4[u] = vec4<u64>(pack(a), pack(b));
}

