// Strided copy with conversion: dst[view] = Dst(src[view]) over one block of at most 8 axes.
//
// The host prepends `alias Src = ..; alias Dst = ..;` (and `enable f16;` when needed). Both
// operands are addressed through their own window of their buffer: `*_base` is the window-relative
// index of the block's first element and the strides are in elements (negative for reversed views,
// 0 for broadcast axes). The host guarantees every index stays inside its window, so the i32
// arithmetic below cannot overflow.

override WG: u32 = 256u;

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
    let i = (wid.y * nwg.x + wid.x) * WG + lid;
    if (i >= p.count) {
        return;
    }
    var rem = i;
    var s = p.src_base;
    var d = p.dst_base;
    // Unravel the row-major block index, innermost axis first.
    for (var k = p.rank; k > 0u; k -= 1u) {
        let a = k - 1u;
        let n = p.shape[a / 4u][a % 4u];
        let c = i32(rem % n);
        rem = rem / n;
        s += c * p.src_strides[a / 4u][a % 4u];
        d += c * p.dst_strides[a / 4u][a % 4u];
    }
    dst[d] = Dst(src[s]);
}
