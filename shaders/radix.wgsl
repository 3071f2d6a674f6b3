// One pass of a stable LSD radix sort over 8 bits of the (key, index) pairs that `sort.wgsl`'s
// `keys` entry made: `count` histograms each chunk's digits, the host turns the histograms into
// exclusive offsets (digit-major, so every digit's chunks follow each other: the scan kernels),
// and `scatter` moves each chunk's pairs to their places in order, which keeps the sort stable.
// One invocation per chunk walks its elements in sequence: no workgroup barriers (slow on CPU
// adapters) and no atomics. The digit comes from the high key word, the low one (f64) or the
// row (index / n), so rows sort as the most significant digits.

override WG: u32 = 64u;
// The words of f64 keys (two per element) move with the pairs.
override WIDE: bool = false;

struct Params {
    total: u32,
    chunk: u32,
    chunks: u32,
    shift: u32,
    // 0: the high key word, 1: the low key word, 2: the row (index / n).
    source: u32,
    n: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> index_in: array<u32>;
@group(0) @binding(2) var<storage, read> hi_in: array<u32>;
@group(0) @binding(3) var<storage, read> lo_in: array<u32>;
// count: the histograms (256 per chunk, digit-major); scatter: their exclusive offsets.
@group(0) @binding(4) var<storage, read_write> counts: array<u32>;
@group(0) @binding(5) var<storage, read_write> index_out: array<u32>;
@group(0) @binding(6) var<storage, read_write> hi_out: array<u32>;
@group(0) @binding(7) var<storage, read_write> lo_out: array<u32>;

fn digit(e: u32) -> u32 {
    var w: u32;
    switch p.source {
        case 0u: { w = hi_in[e]; }
        case 1u: { w = lo_in[e]; }
        default: { w = index_in[e] / p.n; }
    }
    return (w >> p.shift) & 0xffu;
}

fn chunk_of(wid: vec3<u32>, nwg: vec3<u32>, lid: u32) -> u32 {
    return (wid.y * nwg.x + wid.x) * WG + lid;
}

@compute @workgroup_size(WG)
fn count(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let c = chunk_of(wid, nwg, lid);
    if (c >= p.chunks) {
        return;
    }
    var hist: array<u32, 256>;
    let end = min(p.total, (c + 1u) * p.chunk);
    for (var e = c * p.chunk; e < end; e += 1u) {
        let d = digit(e);
        hist[d] += 1u;
    }
    for (var d = 0u; d < 256u; d += 1u) {
        counts[d * p.chunks + c] = hist[d];
    }
    // Every binding is touched, so every entry point has the same layout.
    if (p.total == 0xffffffffu) {
        index_out[0] = 0u;
        hi_out[0] = 0u;
        lo_out[0] = 0u;
    }
}

@compute @workgroup_size(WG)
fn scatter(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let c = chunk_of(wid, nwg, lid);
    if (c >= p.chunks) {
        return;
    }
    var next: array<u32, 256>;
    for (var d = 0u; d < 256u; d += 1u) {
        next[d] = counts[d * p.chunks + c];
    }
    let end = min(p.total, (c + 1u) * p.chunk);
    for (var e = c * p.chunk; e < end; e += 1u) {
        let d = digit(e);
        let to = next[d];
        next[d] = to + 1u;
        index_out[to] = index_in[e];
        hi_out[to] = hi_in[e];
        if (WIDE) {
            lo_out[to] = lo_in[e];
        }
    }
}
