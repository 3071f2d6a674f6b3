// Scatter by position into one storage-binding window of a larger array: element i of `src`
// goes to position pos[i], and this launch writes the elements whose position falls in its
// window, lo <= pos[i] < lo + len, at out[out_base + pos[i] - lo]. The sort merges parts sorted
// one binding at a time this way (`src/ops/sort/merge.rs`): pos is each element's rank in the
// merged row, and one launch per (part, window of the output) places them all. One word per
// element plus `add` (argsort: a part's local indices become the row's), or two (WIDE: f64).

override WG: u32 = 256u;
override WIDE: bool = false;

struct Params {
    count: u32,
    pos_base: u32,
    src_base: u32,
    out_base: u32,
    lo: u32,
    len: u32,
    add: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> pos: array<u32>;
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
    // Positions below the window wrap to huge offsets and are skipped with those past it.
    let t = pos[p.pos_base + i] - p.lo;
    if (t >= p.len) {
        return;
    }
    if (WIDE) {
        out[p.out_base + 2u * t] = src[p.src_base + 2u * i];
        out[p.out_base + 2u * t + 1u] = src[p.src_base + 2u * i + 1u];
    } else {
        out[p.out_base + t] = src[p.src_base + i] + p.add;
    }
}
