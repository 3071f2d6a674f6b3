// Stream compaction: the selected elements of a flattened array, in order, without a host round
// trip. `scan` is the inclusive running count of the selection mask (i32, from the scan kernels),
// so element i is selected when its count rises there, and goes to position scan[i] - 1.
// MODE 0: out[pos] = i (the flat index: nonzero, flatnonzero, argwhere); 1: the element's word;
// 2: the element's two words (f64). Arrays past one storage binding are compacted one window of
// the input and one of the output at a time: a launch covers the elements first..first + count
// (`has_before`: the count before `first` is readable just before the window) and writes only
// the positions out_lo..out_lo + out_len, at out[out_base + pos - out_lo].

override WG: u32 = 256u;
override MODE: u32 = 0u;

struct Params {
    count: u32,
    scan_base: u32,
    src_base: u32,
    has_before: u32,
    first: u32,
    out_lo: u32,
    out_len: u32,
    out_base: u32,
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
    var before = 0;
    if (i > 0u || p.has_before != 0u) {
        before = scan[p.scan_base + i - 1u];
    }
    if (here == before) {
        return;
    }
    // Positions below the output window wrap to huge values and are skipped with those past it.
    let t = u32(here - 1) - p.out_lo;
    if (t >= p.out_len) {
        return;
    }
    let pos = p.out_base + t;
    switch MODE {
        case 0u: { out[pos] = p.first + i; }
        case 1u: { out[pos] = src[p.src_base + i]; }
        default: {
            out[2u * pos] = src[p.src_base + 2u * i];
            out[2u * pos + 1u] = src[p.src_base + 2u * i + 1u];
        }
    }
}
