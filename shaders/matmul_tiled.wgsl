// Batched matmul C[b] (+)= A[b] @ B[b] over strided operands: the general kernel (any dtype,
// any strides, any sizes) and the one real GPUs use.
//
// Each workgroup computes a 64 x 64 tile of C; A and B tiles of depth BK = 16 are staged through
// workgroup memory, and each of the 16 x 16 invocations accumulates a 4 x 4 register tile (16
// independent accumulators). Operands are addressed by element strides (row, column, batch), so
// transposed, sliced and batch-broadcast views are read in place. Out-of-range elements read as 0.
// The host prepends `alias T = ..;` (storage), `alias ACC = ..;` (accumulation: f32 for f16)
// and matmul_params.wgsl.

const BM: u32 = 64u;
const BK: u32 = 16u;

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> a: array<T>;
@group(0) @binding(2) var<storage, read> b: array<T>;
@group(0) @binding(3) var<storage, read_write> c: array<T>;

var<workgroup> a_tile: array<ACC, 1024>;   // [BK][BM]
var<workgroup> b_tile: array<ACC, 1024>;   // [BK][BM]

@compute @workgroup_size(16, 16)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(local_invocation_index) li: u32,
) {
    let m0 = wid.y * BM;
    let n0 = wid.x * BM;
    let bz = i32(wid.z);
    let a_batch = p.a_base + bz * p.a_bs;
    let b_batch = p.b_base + bz * p.b_bs;
    var acc: array<ACC, 16>;
    for (var i = 0u; i < 16u; i += 1u) {
        acc[i] = ACC(0);
    }
    for (var k0 = 0u; k0 < p.k; k0 += BK) {
        // Stage the tiles: 1024 elements of each, 4 per invocation; consecutive invocations
        // read consecutive k of A and consecutive n of B.
        for (var t = 0u; t < 4u; t += 1u) {
            let e = li + t * 256u;
            let ar = e >> 4u;
            let ak = e & 15u;
            var av = ACC(0);
            if (m0 + ar < p.m && k0 + ak < p.k) {
                av = ACC(a[a_batch + i32(m0 + ar) * p.a_rs + i32(k0 + ak) * p.a_cs]);
            }
            a_tile[ak * BM + ar] = av;
            let bk = e >> 6u;
            let bn = e & 63u;
            var bv = ACC(0);
            if (k0 + bk < p.k && n0 + bn < p.n) {
                bv = ACC(b[b_batch + i32(k0 + bk) * p.b_rs + i32(n0 + bn) * p.b_cs]);
            }
            b_tile[bk * BM + bn] = bv;
        }
        workgroupBarrier();
        for (var kk = 0u; kk < BK; kk += 1u) {
            let ao = kk * BM + lid.y * 4u;
            let bo = kk * BM + lid.x * 4u;
            let a4 = array<ACC, 4>(a_tile[ao], a_tile[ao + 1u], a_tile[ao + 2u], a_tile[ao + 3u]);
            let b4 = array<ACC, 4>(b_tile[bo], b_tile[bo + 1u], b_tile[bo + 2u], b_tile[bo + 3u]);
            for (var i = 0u; i < 4u; i += 1u) {
                for (var j = 0u; j < 4u; j += 1u) {
                    acc[i * 4u + j] += a4[i] * b4[j];
                }
            }
        }
        workgroupBarrier();
    }
    let c_batch = p.c_base + bz * p.c_bs;
    for (var i = 0u; i < 4u; i += 1u) {
        let m = m0 + lid.y * 4u + i;
        for (var j = 0u; j < 4u; j += 1u) {
            let n = n0 + lid.x * 4u + j;
            if (m < p.m && n < p.n) {
                let at = c_batch + i32(m) * p.c_rs + i32(n) * p.c_cs;
                var v = acc[i * 4u + j];
                if (p.accumulate != 0u) {
                    v += ACC(c[at]);
                }
                c[at] = T(v);
            }
        }
    }
}
