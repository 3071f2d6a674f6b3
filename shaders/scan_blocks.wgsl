// Inclusive scans along one axis (cumsum, cumprod) without barriers or shared memory: every line
// is cut into blocks of `block` consecutive elements (the last one of a line may be shorter) and
// one invocation walks one block sequentially. Lavapipe runs each 8-lane vector of invocations
// on its own and every storage access is a per-lane loop, so what is fast there is each lane
// streaming through its own span with no barriers (a workgroup per line, scanning in shared
// memory, spent its time in barriers and ran on one core for a 1-d array). Per-invocation loops
// stay at `block` iterations, far below lavapipe's cut-off of 65,535.
//
// Entry `totals_main` folds each block into `totals` (accumulator type A: f32 for f16). The host then
// scans those totals per line (the same scan, recursively: they are rows of `blocks` elements),
// and entry `main` scans each block starting from the inclusive total of the blocks before it in
// its line, `offsets[index - 1]` (`index` numbering blocks line by line). With one block per
// line the host binds any read-only buffer as `offsets`: it is not read.
//
// With `has_carry`, each line is a segment continuing an earlier launch, whose last result is the
// element just before the line's first result in `dst` (the host binds dst from one element
// earlier): arrays larger than one binding are scanned in such pieces.
//
// Prepended: `alias T` (the array's dtype), `alias A` (its compute type), helpers, and the
// accumulator's arithmetic `acc_add`, `acc_mul`, `acc_zero`, `acc_one` (the operators for the
// one-word dtypes; for int64/uint64, whose T and A are vec2<u32> words, int64.wgsl's add64 and
// mul64). The vec4 entry points (`scan_blocks_vec4.wgsl`) are appended for one-word dtypes only.
override WG: u32 = 64u;
override OP: u32 = 0u;   // OP_CUMSUM or OP_CUMPROD (the prelude's table)

// Line l's element i is src[src_base + outer(l) + i * axis_stride], its result
// dst[dst_base + dst_outer(l) + i * dst_axis_stride] (binding-relative), `outer` and `dst_outer`
// walking the line index row-major over (up to 4) collapsed axes.
struct Params {
    outer_shape: vec4<u32>,
    outer_strides: vec4<i32>,
    dst_outer_shape: vec4<u32>,
    dst_outer_strides: vec4<i32>,
    src_base: i32,
    axis_stride: i32,
    dst_base: i32,
    dst_axis_stride: i32,
    outer_rank: u32,
    dst_outer_rank: u32,
    m_count: u32,     // lines
    k_count: u32,     // elements per line
    blocks: u32,      // blocks per line
    block: u32,       // elements per block
    has_carry: u32,   // lines continue earlier segments (`main` entries)
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> src: array<T>;
// `totals` uses bindings 1-2, `main` bindings 1-3: each entry point has its own interface.
@group(0) @binding(2) var<storage, read_write> totals: array<A>;
@group(0) @binding(2) var<storage, read> offsets: array<A>;
@group(0) @binding(3) var<storage, read_write> dst: array<T>;

fn combine(x: A, y: A) -> A {
    if (OP == OP_CUMPROD) {
        return acc_mul(x, y);
    }
    return acc_add(x, y);
}

fn identity() -> A {
    if (OP == OP_CUMPROD) {
        return acc_one();
    }
    return acc_zero();
}

// The block of invocation `g`. Invocations go through the lines first, then the blocks, so
// neighbouring invocations scan neighbouring lines: side by side in memory when the lines run
// along a leading axis, where block after block of one line would be whole rows apart. `index`
// numbers blocks line by line (the layout of the totals: rows of `blocks`).
struct Block {
    index: u32,
    line: u32,
    first: u32,
    stop: u32,
}

fn block_of(g: u32) -> Block {
    let line = g % p.m_count;
    let blk = g / p.m_count;
    let first = blk * p.block;
    return Block(line * p.blocks + blk, line, first, min(first + p.block, p.k_count));
}

// src index of element `i` of line `line`.
fn src_index(line: u32, i: u32) -> i32 {
    var rem = line;
    var row = p.src_base;
    for (var k = p.outer_rank; k > 0u; k -= 1u) {
        let d = k - 1u;
        row += i32(rem % p.outer_shape[d]) * p.outer_strides[d];
        rem = rem / p.outer_shape[d];
    }
    return row + i32(i) * p.axis_stride;
}

// dst index of element `i` of line `line`.
fn dst_index(line: u32, i: u32) -> i32 {
    var rem = line;
    var row = p.dst_base;
    for (var k = p.dst_outer_rank; k > 0u; k -= 1u) {
        let d = k - 1u;
        row += i32(rem % p.dst_outer_shape[d]) * p.dst_outer_strides[d];
        rem = rem / p.dst_outer_shape[d];
    }
    return row + i32(i) * p.dst_axis_stride;
}

// What the blocks before `blk` in its line add up to: the scanned block totals.
fn carried_in(blk: Block) -> A {
    if (blk.first > 0u) {
        return offsets[blk.index - 1u];
    }
    return identity();
}

fn invocation(wid: vec3<u32>, nwg: vec3<u32>, lid: u32) -> u32 {
    return (wid.y * nwg.x + wid.x) * WG + lid;
}

@compute @workgroup_size(WG)
fn totals_main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let g = invocation(wid, nwg, lid);
    if (g >= p.m_count * p.blocks) {
        return;
    }
    let blk = block_of(g);
    var at = src_index(blk.line, blk.first);
    var acc = identity();
    for (var i = blk.first; i < blk.stop; i += 1u) {
        acc = combine(acc, A(src[at]));
        at += p.axis_stride;
    }
    totals[blk.index] = acc;
}

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let g = invocation(wid, nwg, lid);
    if (g >= p.m_count * p.blocks) {
        return;
    }
    let blk = block_of(g);
    var acc = carried_in(blk);
    var at = src_index(blk.line, blk.first);
    if (p.has_carry != 0u) {
        acc = combine(A(dst[dst_index(blk.line, 0u) - 1]), acc);
    }
    var o = dst_index(blk.line, blk.first);
    for (var i = blk.first; i < blk.stop; i += 1u) {
        acc = combine(acc, A(src[at]));
        dst[o] = T(acc);
        at += p.axis_stride;
        o += p.dst_axis_stride;
    }
}
