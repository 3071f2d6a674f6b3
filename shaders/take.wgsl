// Row gather: for each (out row, source row) pair, dst[out row, c] = src[source row, c] for the
// `width` columns of one launch (`numpy.take` along an axis, after the host has viewed the
// array as rows). The host prepends `alias T = ..;`.
//
// Rows are window-relative: the host groups the pairs so that every launch's source rows and
// output rows each lie inside one binding, and uploads them as `rows`. Each invocation copies
// a run of EPT consecutive elements, unravelling (pair, column) once and then stepping.

override WG: u32 = 256u;
override EPT: u32 = 8u;

struct Params {
    count: u32,         // pairs * width elements in this launch
    width: u32,         // columns copied per row
    src_stride: u32,    // elements between source rows in the window
    dst_stride: u32,    // elements between output rows in the window
    src_base: u32,      // window-relative element of (row 0, column 0)
    dst_base: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> src: array<T>;
@group(0) @binding(2) var<storage, read_write> dst: array<T>;
@group(0) @binding(3) var<storage, read> rows: array<vec2<u32>>; // (out row, source row)

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let start = ((wid.y * nwg.x + wid.x) * WG + lid) * EPT;
    if (start >= p.count) {
        return;
    }
    var j = start / p.width;
    var c = start % p.width;
    let stop = min(start + EPT, p.count);
    for (var e = start; e < stop; e += 1u) {
        let r = rows[j];
        dst[p.dst_base + r.x * p.dst_stride + c] = src[p.src_base + r.y * p.src_stride + c];
        c += 1u;
        if (c == p.width) {
            c = 0u;
            j += 1u;
        }
    }
}
