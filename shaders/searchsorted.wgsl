// numpy.searchsorted: for every query, the first position of the sorted 1-d array `a` whose
// element is not before it (left) or is after it (RIGHT), by binary search over the keys of
// `sort_keys.wgsl` (joined before this file), so NaN, -0.0 and +0.0 place as NumPy places them.
// One invocation per query, at most 32 steps each. Arrays past one storage binding are searched
// window by window: a sorted array in parts, each part's position added to the last (`accumulate`:
// the count of elements before the query in a sorted array is the sum of its parts' counts), and
// the queries in windows (`v_base`, `out_base`).

override WG: u32 = 256u;
override RIGHT: bool = false;

struct Params {
    n: u32,
    count: u32,
    a_base: u32,
    v_base: u32,
    out_base: u32,
    accumulate: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> a: array<u32>;
@group(0) @binding(2) var<storage, read> v: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<i32>;

fn a_key(i: u32) -> vec2<u32> {
    if (wide()) {
        return key64(a[p.a_base + 2u * i], a[p.a_base + 2u * i + 1u]);
    }
    return vec2<u32>(key32(a[p.a_base + i]), 0u);
}

fn v_key(i: u32) -> vec2<u32> {
    if (wide()) {
        return key64(v[p.v_base + 2u * i], v[p.v_base + 2u * i + 1u]);
    }
    return vec2<u32>(key32(v[p.v_base + i]), 0u);
}

// x < y (or x <= y with `or_equal`) for two-word keys.
fn below(x: vec2<u32>, y: vec2<u32>, or_equal: bool) -> bool {
    if (x.x != y.x) {
        return x.x < y.x;
    }
    if (x.y != y.y) {
        return x.y < y.y;
    }
    return or_equal;
}

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
    let q = v_key(e);
    var lo = 0u;
    var hi = p.n;
    loop {
        if (lo >= hi) {
            break;
        }
        let mid = lo + (hi - lo) / 2u;
        if (below(a_key(mid), q, RIGHT)) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    let o = p.out_base + e;
    out[o] = i32(lo) + select(0, out[o], p.accumulate != 0u);
}
