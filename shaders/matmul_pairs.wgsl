// Matmul of word-pair dtypes (low word first): int64/uint64, exact and wrapping as NumPy's
// integer matmul (the bits of a product and a sum modulo 2^64 are the same for both
// signednesses, so one kernel serves both), and software f64, each product rounded and added in
// k order as the native f64 kernels do. Each 16 x 16 workgroup computes a 16 x 16 block of C,
// staging 16 x 16 tiles of A and B in workgroup memory. Zeros pad the last tile of k on both
// sides: their products add +0, which changes no sum (it never starts from -0).
// Prepended: mulhilo.wgsl, int64.wgsl, the dtype's `madd(acc, x, y)` (acc + x y) and
// `plus(x, y)` (add64/mul64, or f64_soft.wgsl's) and matmul_params.wgsl.

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> a: array<vec2<u32>>;
@group(0) @binding(2) var<storage, read> b: array<vec2<u32>>;
@group(0) @binding(3) var<storage, read_write> c: array<vec2<u32>>;

var<workgroup> a_tile: array<vec2<u32>, 256>;   // [row][k]
var<workgroup> b_tile: array<vec2<u32>, 256>;   // [k][col]

@compute @workgroup_size(16, 16)
fn main(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_id) lid: vec3<u32>,
) {
    let row = gid.y;
    let col = gid.x;
    let bz = i32(gid.z);
    let a_row = p.a_base + bz * p.a_bs + i32(row) * p.a_rs;
    let b_col = p.b_base + bz * p.b_bs + i32(col) * p.b_cs;
    var acc = vec2<u32>(0u, 0u);
    // Every invocation of the workgroup walks the same k steps (barriers in uniform control
    // flow); rows and columns past C's edge stage zeros and write nothing.
    for (var k0 = 0u; k0 < p.k; k0 += 16u) {
        let ak = k0 + lid.x;
        var av = vec2<u32>(0u, 0u);
        if (row < p.m && ak < p.k) {
            av = a[a_row + i32(ak) * p.a_cs];
        }
        a_tile[lid.y * 16u + lid.x] = av;
        let bk = k0 + lid.y;
        var bv = vec2<u32>(0u, 0u);
        if (bk < p.k && col < p.n) {
            bv = b[b_col + i32(bk) * p.b_rs];
        }
        b_tile[lid.y * 16u + lid.x] = bv;
        workgroupBarrier();
        for (var kk = 0u; kk < 16u; kk += 1u) {
            acc = madd(acc, a_tile[lid.y * 16u + kk], b_tile[kk * 16u + lid.x]);
        }
        workgroupBarrier();
    }
    if (row >= p.m || col >= p.n) {
        return;
    }
    let at = p.c_base + bz * p.c_bs + i32(row) * p.c_rs + i32(col) * p.c_cs;
    if (p.accumulate != 0u) {
        acc = plus(acc, c[at]);
    }
    c[at] = acc;
}
