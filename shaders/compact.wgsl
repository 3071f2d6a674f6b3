// Stream compaction: the selected elements of a flattened array, in order, without a host round
// trip. `scan` is the inclusive running count of the selection mask (i32, from the scan kernels),
// so element i is selected when its count rises there, and goes to position scan[i] - 1.
// MODE 0: out[pos] = i (the flat index: nonzero, flatnonzero, argwhere); 1: the element's word;
// 2: the element's two words (f64).

override WG: u32 = 256u;
override MODE: u32 = 0u;

struct Params {
    count: u32,
    scan_base: u32,
    src_base: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> scan: array<i32>;
@group(0) @binding(2) var<storage, read> src: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let i = (wid.y * nwg.x + wid.x) * WG + lid;
    if (i >= p.count) {
        return;
    }
    let here = scan[p.scan_base + i];
    let before = select(0, scan[p.scan_base + i - 1u], i > 0u);
    if (here == before) {
        return;
    }
    let pos = u32(here - 1);
    switch MODE {
        case 0u: { out[pos] = i; }
        case 1u: { out[pos] = src[p.src_base + i]; }
        default: {
            out[2u * pos] = src[p.src_base + 2u * i];
            out[2u * pos + 1u] = src[p.src_base + 2u * i + 1u];
        }
    }
}
