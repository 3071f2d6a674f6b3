// philox.wgsl's portable backend: 32-bit integer arithmetic only (WebGPU has no 64-bit types),
// and whole units stored as vec4<T>.

// mulhilo comes from mulhilo.wgsl, joined before this file.

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

