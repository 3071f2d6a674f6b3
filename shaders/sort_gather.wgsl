// The values of sorted rows from their original words: out[r, i] = src[r, index[r, i]] for
// i < n, with index the (rows x m) indices `sort.wgsl` sorted (m the padded row length). One word
// per element, or two (WIDE: f64's low and high words); with INDICES, the indices themselves
// (argsort: out[r, i] = index[r, i], the padding dropped; src is not read). FLAT: the indices are
// flat (row n + i, the radix sort's) over unpadded rows.

override WG: u32 = 256u;
override WIDE: bool = false;
override INDICES: bool = false;
override FLAT: bool = false;

struct Params {
    m: u32,
    n: u32,
    rows: u32,
    src_base: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> index: array<u32>;
@group(0) @binding(2) var<storage, read> src: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let e = (wid.y * nwg.x + wid.x) * WG + lid;
    if (e >= p.rows * p.n) {
        return;
    }
    let r = e / p.n;
    let k = index[r * p.m + e % p.n];
    if (INDICES) {
        out[e] = select(k, k % p.n, FLAT);
        return;
    }
    let at = select(r * p.n + k, k, FLAT);
    if (WIDE) {
        out[2u * e] = src[p.src_base + 2u * at];
        out[2u * e + 1u] = src[p.src_base + 2u * at + 1u];
    } else {
        out[e] = src[p.src_base + at];
    }
}
