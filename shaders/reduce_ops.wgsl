// The operations of the value reductions, shared by reduce.wgsl (any strides) and
// reduce_rows.wgsl (contiguous rows): the identity, how an element enters the accumulator and
// how two accumulators combine. Needs `alias In, A`, the NaN helpers for A, `truth_in` and the
// accumulator's arithmetic (the family's prelude: operators for native types, software binary64
// for emulated f64): acc_of, acc_add, acc_mul, acc_ge, acc_le, acc_zero, acc_one, acc_neg_zero.

override OP: u32 = 0u;      // OP_SUM, OP_PROD, OP_MAX, OP_MIN, OP_ANY, OP_ALL, OP_NANSUM, OP_NANPROD
                            // (the prelude's table)
override STAGE: u32 = 1u;   // 1: elements of the array (mapped to truth for any/all); 2: partials

// The sum's identity is -0.0, not +0.0 (-0.0 + x is x for every x, +0.0 + -0.0 is +0.0): a sum
// of negative zeros is -0.0, as in NumPy. Converted to an integer type it is 0.
fn identity() -> A {
    switch OP {
        case OP_SUM, OP_NANSUM: { return acc_neg_zero(); }
        case OP_PROD, OP_NANPROD, OP_ALL: { return acc_one(); }
        case OP_MAX: { return lowest(); }
        case OP_MIN: { return highest(); }
        default: { return acc_zero(); }
    }
}

// nansum and nanprod read a NaN element as NumPy's replacement, +0.0 or 1 (`_replace_nan`), in
// the same pass as the sum; partials (stage 2) are taken as they are, so inf + -inf stays NaN.
fn load(x: In) -> A {
    if (STAGE == 1u) {
        if (OP == OP_ANY || OP == OP_ALL) {
            return select(acc_zero(), acc_one(), truth_in(x));
        }
        if ((OP == OP_NANSUM || OP == OP_NANPROD) && is_nan(acc_of(x))) {
            return select(acc_zero(), acc_one(), OP == OP_NANPROD);
        }
    }
    return acc_of(x);
}

// NumPy's maximum/minimum: `a >= b ? a : b`, a NaN on either side wins (tested by bits).
fn combine(x: A, y: A) -> A {
    switch OP {
        case OP_PROD, OP_NANPROD: { return acc_mul(x, y); }
        case OP_MAX, OP_MIN: {
            if (is_nan(x)) {
                return x;
            }
            if (is_nan(y)) {
                return y;
            }
            if (OP == OP_MAX) {
                return select(y, x, acc_ge(x, y));
            }
            return select(y, x, acc_le(x, y));
        }
        case OP_ANY: { return max(x, y); }
        case OP_ALL: { return min(x, y); }
        default: { return acc_add(x, y); }
    }
}
