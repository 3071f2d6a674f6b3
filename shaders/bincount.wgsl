// Counting for np.bincount and np.histogram: every value v of `x` (i32 or u32, read as words)
// with v - lo below `bins` adds one to counts[v - lo]. Atomic integer adds are exact and their
// order does not matter, so the counts are the same bits on every adapter and every run. Values
// below `lo` wrap to huge words and are dropped with those past the last bin.

override WG: u32 = 256u;

struct Params {
    count: u32,
    base: u32,
    lo: u32,
    bins: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> x: array<u32>;
@group(0) @binding(2) var<storage, read_write> counts: array<atomic<u32>>;

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let e = (wid.y * nwg.x + wid.x) * WG + lid;
    if (e >= p.count) {
        return;
    }
    let v = x[p.base + e] - p.lo;
    if (v < p.bins) {
        atomicAdd(&counts[v], 1u);
    }
}
