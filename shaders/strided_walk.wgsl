// The strided N-d walk shared by the element-wise skeletons (copy, fill, unary, binary, where):
// a block of at most 8 axes visited in row-major order, with the element index of up to four
// operands carried together in a vec4<i32> (lanes a kernel leaves unused stay 0 and are dropped
// by the shader compiler).
//
// The skeleton that includes this file declares the uniform `p` with `shape: array<vec4<u32>, 2>`
// (block extents, outermost first) and `rank`, and `fn axis_strides(axis: u32) -> vec4<i32>`:
// each operand's stride along `axis`, in elements (0 on broadcast axes, negative on reversed
// views). The host keeps every index inside its operand's window, so the i32 arithmetic cannot
// overflow.
//
// A run of consecutive block elements is unravelled once (integer divisions, which CPUs such as
// lavapipe's cannot vectorise) and then only adds strides.

// A position in the walk is the block coordinates (`coord`, a local array: axes are indexed at
// run time) plus the operands' indices (`at`, kept apart so that it stays in registers).

fn block_extent(axis: u32) -> u32 {
    return p.shape[axis / 4u][axis % 4u];
}

// Sets `coord` to row-major block index `start` and returns the operands' indices there, given
// their indices of the block's first element.
fn walk_from(start: u32, base: vec4<i32>, coord: ptr<function, array<u32, 8>>) -> vec4<i32> {
    var at = base;
    var rem = start;
    for (var k = p.rank; k > 0u; k -= 1u) {
        let a = k - 1u;
        let n = block_extent(a);
        (*coord)[a] = rem % n;
        rem = rem / n;
        at += i32((*coord)[a]) * axis_strides(a);
    }
    return at;
}

// The next block index: bump the innermost axis, carrying outwards.
fn walk_next(coord: ptr<function, array<u32, 8>>, at: ptr<function, vec4<i32>>) {
    for (var a = p.rank - 1u; ; a -= 1u) {
        (*coord)[a] += 1u;
        let s = axis_strides(a);
        *at += s;
        let n = block_extent(a);
        if ((*coord)[a] < n || a == 0u) {
            break;
        }
        (*coord)[a] = 0u;
        *at -= i32(n) * s;
    }
}

// The first block index of this invocation's run (a 2-D grid: more than 65535 workgroups spill
// into y).
fn run_start(wid: vec3<u32>, nwg: vec3<u32>, lid: u32) -> u32 {
    return ((wid.y * nwg.x + wid.x) * WG + lid) * EPT;
}
