// The operations of the value reductions, shared by reduce.wgsl (any strides) and
// reduce_rows.wgsl (contiguous rows): the identity, how an element enters the accumulator and
// how two accumulators combine. Needs `alias In, A`, the NaN helpers for A and `truth_in`.

override OP: u32 = 0u;      // 0 sum, 1 prod, 2 max, 3 min, 4 any, 5 all
override STAGE: u32 = 1u;   // 1: elements of the array (mapped to truth for any/all); 2: partials

// The sum's identity is -0.0, not +0.0 (-0.0 + x is x for every x, +0.0 + -0.0 is +0.0): a sum
// of negative zeros is -0.0, as in NumPy. Converted to an integer type it is 0.
fn identity() -> A {
    switch OP {
        case 0u: { return A(bitcast<f32>(0x80000000u)); }
        case 1u, 5u: { return A(1); }
        case 2u: { return lowest(); }
        case 3u: { return highest(); }
        default: { return A(0); }
    }
}

fn load(x: In) -> A {
    if (STAGE == 1u) {
        if (OP == 4u || OP == 5u) {
            return select(A(0), A(1), truth_in(x));
        }
    }
    return A(x);
}

// NumPy's maximum/minimum: `a >= b ? a : b`, a NaN on either side wins (tested by bits).
fn combine(x: A, y: A) -> A {
    switch OP {
        case 1u: { return x * y; }
        case 2u, 3u: {
            if (is_nan(x)) {
                return x;
            }
            if (is_nan(y)) {
                return y;
            }
            if (OP == 2u) {
                return select(y, x, x >= y);
            }
            return select(y, x, x <= y);
        }
        case 4u: { return max(x, y); }
        case 5u: { return min(x, y); }
        default: { return x + y; }
    }
}
