// Gather along an axis (`take`): out[o, j, i] = src[o, idx[j], i] for a contiguous source viewed
// as (outer, K, inner) and a contiguous output (outer, J, inner). Indices are i32, already checked
// on the host to lie in [-K, K); negative ones count from the end. The host prepends `alias T`.

override WG: u32 = 256u;
override EPT: u32 = 8u;

struct Params {
    src_base: u32,
    idx_base: u32,
    dst_base: u32,
    count: u32,
    j_count: u32,
    inner: u32,
    k_count: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> src: array<T>;
@group(0) @binding(2) var<storage, read> idx: array<i32>;
@group(0) @binding(3) var<storage, read_write> dst: array<T>;

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let first = (wid.y * nwg.x + wid.x) * WG * EPT + lid;
    for (var e = 0u; e < EPT; e += 1u) {
        let n = first + e * WG;
        if (n >= p.count) {
            return;
        }
        let i = n % p.inner;
        let t = n / p.inner;
        let j = t % p.j_count;
        let o = t / p.j_count;
        var k = idx[p.idx_base + j];
        if (k < 0) {
            k += i32(p.k_count);
        }
        dst[p.dst_base + n] = src[p.src_base + (o * p.k_count + u32(k)) * p.inner + i];
    }
}
