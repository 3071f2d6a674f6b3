// Strided copy with conversion: dst[view] = convert(src[view]) over one block of at most 8 axes.
//
// The host prepends `alias Src = ..; alias Dst = ..;`, `fn convert(Src) -> Dst` (to bool: non-zero is
// true) and `enable f16;` when needed. Both
// operands are addressed through their own window of their buffer: `*_base` is the window-relative
// index of the block's first element and the strides are in elements (negative for reversed views,
// 0 for broadcast axes). The host guarantees every index stays inside its window, so the i32
// arithmetic below cannot overflow.

override WG: u32 = 256u;
// Elements per invocation: each invocation copies a run of EPT consecutive block elements, so the
// index unravelling (integer divisions, which CPUs such as lavapipe's cannot vectorise) happens
// once per run, and the run itself only adds strides.
override EPT: u32 = 8u;

struct Params {
    shape: array<vec4<u32>, 2>,        // block extents, outermost first; axes >= rank are unused
    src_strides: array<vec4<i32>, 2>,
    dst_strides: array<vec4<i32>, 2>,
    src_base: i32,
    dst_base: i32,
    rank: u32,
    count: u32,                        // elements in the block
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> src: array<Src>;
@group(0) @binding(2) var<storage, read_write> dst: array<Dst>;

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    // 2-D grid: more than 65535 workgroups spill into y.
    let start = ((wid.y * nwg.x + wid.x) * WG + lid) * EPT;
    if (start >= p.count) {
        return;
    }
    // Unravel the run's first row-major block index, innermost axis first.
    var coord: array<u32, 8>;
    var rem = start;
    var s = p.src_base;
    var d = p.dst_base;
    for (var k = p.rank; k > 0u; k -= 1u) {
        let a = k - 1u;
        let n = p.shape[a / 4u][a % 4u];
        coord[a] = rem % n;
        rem = rem / n;
        s += i32(coord[a]) * p.src_strides[a / 4u][a % 4u];
        d += i32(coord[a]) * p.dst_strides[a / 4u][a % 4u];
    }
    let stop = min(start + EPT, p.count);
    for (var i = start; i < stop; i += 1u) {
        dst[d] = convert(src[s]);
        // Step to the next index: bump the innermost axis, carrying outwards.
        for (var a = p.rank - 1u; ; a -= 1u) {
            coord[a] += 1u;
            s += p.src_strides[a / 4u][a % 4u];
            d += p.dst_strides[a / 4u][a % 4u];
            let n = p.shape[a / 4u][a % 4u];
            if (coord[a] < n || a == 0u) {
                break;
            }
            coord[a] = 0u;
            s -= i32(n) * p.src_strides[a / 4u][a % 4u];
            d -= i32(n) * p.dst_strides[a / 4u][a % 4u];
        }
    }
}
