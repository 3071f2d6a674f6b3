// The textbook matmul: one invocation per output element, a plain loop over k. Kept as the
// baseline the benchmarks compare against (and a simple reference on any adapter).
// The host prepends `alias T = ..;`, `alias ACC = ..;` and matmul_params.wgsl.

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> a: array<T>;
@group(0) @binding(2) var<storage, read> b: array<T>;
@group(0) @binding(3) var<storage, read_write> c: array<T>;

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let row = gid.y;
    let col = gid.x;
    if (row >= p.m || col >= p.n) {
        return;
    }
    let bz = i32(gid.z);
    var acc = ACC(0);
    for (var k = 0u; k < p.k; k += 1u) {
        acc += ACC(a[p.a_base + bz * p.a_bs + i32(row) * p.a_rs + i32(k) * p.a_cs])
            * ACC(b[p.b_base + bz * p.b_bs + i32(k) * p.b_rs + i32(col) * p.b_cs]);
    }
    let at = p.c_base + bz * p.c_bs + i32(row) * p.c_rs + i32(col) * p.c_cs;
    if (p.accumulate != 0u) {
        acc += ACC(c[at]);
    }
    c[at] = T(acc);
}
