// The operations of the value reductions, shared by reduce.wgsl (any strides) and
// reduce_rows.wgsl (contiguous rows): the identity, how an element enters the accumulator and
// how two accumulators combine. Needs `alias In, A`, the NaN helpers for A and `truth_in`.

override OP: u32 = 0u;      // OP_SUM, OP_PROD, OP_MAX, OP_MIN, OP_ANY, OP_ALL (the prelude's table)
override STAGE: u32 = 1u;   // 1: elements of the array (mapped to truth for any/all); 2: partials

// The sum's identity is -0.0, not +0.0 (-0.0 + x is x for every x, +0.0 + -0.0 is +0.0): a sum
// of negative zeros is -0.0, as in NumPy. Converted to an integer type it is 0.
fn identity() -> A {
    switch OP {
        case OP_SUM: { return A(bitcast<f32>(0x80000000u)); }
        case OP_PROD, OP_ALL: { return A(1); }
        case OP_MAX: { return lowest(); }
        case OP_MIN: { return highest(); }
        default: { return A(0); }
    }
}

fn load(x: In) -> A {
    if (STAGE == 1u) {
        if (OP == OP_ANY || OP == OP_ALL) {
            return select(A(0), A(1), truth_in(x));
        }
    }
    return A(x);
}

// NumPy's maximum/minimum: `a >= b ? a : b`, a NaN on either side wins (tested by bits).
fn combine(x: A, y: A) -> A {
    switch OP {
        case OP_PROD: { return x * y; }
        case OP_MAX, OP_MIN: {
            if (is_nan(x)) {
                return x;
            }
            if (is_nan(y)) {
                return y;
            }
            if (OP == OP_MAX) {
                return select(y, x, x >= y);
            }
            return select(y, x, x <= y);
        }
        case OP_ANY: { return max(x, y); }
        case OP_ALL: { return min(x, y); }
        default: { return x + y; }
    }
}
