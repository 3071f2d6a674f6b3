// Weighted counts in NumPy's order, for np.bincount(x, weights) and np.histogram(a, weights):
// NumPy adds bin b's weights one by one, in index order, into a float64 that starts at 0.0. The
// elements are stably sorted by bin first, so bin b's weights lie at [start[b], end[b]) of the
// sorted weights, still in index order, and one invocation per bin adds them in sequence: the
// same f64 additions as NumPy's loop, hence the same bits, on every adapter and every run (no
// atomics, whose order would change the rounding).
//
// A launch covers one storage-binding window of the weights, elements lo..lo + len, and adds at
// most CHUNK of each bin's weights from `skip` on within it (lavapipe silently stops a loop past
// 65,535 iterations), continuing the running sum in out[b]; launches follow each other along
// the window and along the windows, so every sum stays one sequence.

override WG: u32 = 256u;
const CHUNK: u32 = 16384u;

struct Params {
    bins: u32,
    lo: u32,
    len: u32,
    base: u32,
    skip: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> start: array<i32>;
@group(0) @binding(2) var<storage, read> end: array<i32>;
@group(0) @binding(3) var<storage, read> w: array<W>;
@group(0) @binding(4) var<storage, read_write> out: array<W>;

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let b = (wid.y * nwg.x + wid.x) * WG + lid;
    if (b >= p.bins) {
        return;
    }
    let s = max(u32(start[b]), p.lo) + p.skip;
    let e = min(u32(end[b]), p.lo + p.len);
    if (s >= e) {
        return;
    }
    let stop = min(e, s + CHUNK);
    var acc = out[b];
    for (var i = s; i < stop; i = i + 1u) {
        acc = w_add(acc, w[p.base + i - p.lo]);
    }
    out[b] = acc;
}
