// How the strided reductions (reduce.wgsl, argreduce.wgsl) address their input: which span of a
// chunk an invocation folds, and the element offsets of an output (`outer` axes) and of a
// reduced element (`inner` axes) from the strides in `p`.

// The elements [first, stop) of a chunk that invocation lid folds, as (start, end) for a step
// of LANES: runs of LANES consecutive invocations (one 8-lane vector on lavapipe) take
// consecutive spans, and a vector's lanes consecutive elements. Lavapipe runs each vector to the
// next barrier before starting the next, so the usual interleaving over the whole workgroup
// (lid, lid + WG, ...) would have every vector touch a sliver of every cache line it loads.
fn span(first: u32, stop: u32, lid: u32) -> vec2<u32> {
    let runs = WG / LANES;
    let len = (stop - first + runs - 1u) / runs;
    let start = min(first + (lid / LANES) * len, stop);
    return vec2<u32>(start + lid % LANES, min(start + len, stop));
}

fn outer_offset(m: u32) -> i32 {
    var rem = m;
    var off = 0;
    for (var k = p.outer_rank; k > 0u; k -= 1u) {
        let d = k - 1u;
        off += i32(rem % p.outer_shape[d]) * p.outer_strides[d];
        rem = rem / p.outer_shape[d];
    }
    return off;
}

fn inner_offset(i: u32) -> i32 {
    if (p.inner_rank == 1u) {
        return i32(i) * p.inner_strides[0];
    }
    var rem = i;
    var off = 0;
    for (var k = p.inner_rank; k > 0u; k -= 1u) {
        let d = k - 1u;
        off += i32(rem % p.inner_shape[d]) * p.inner_strides[d];
        rem = rem / p.inner_shape[d];
    }
    return off;
}
