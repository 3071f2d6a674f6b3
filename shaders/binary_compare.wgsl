// Comparisons and logical ops of any dtype, giving bool (u32 0/1). NaN compares unequal to
// everything (so `ne` is true and the others false), tested by bits rather than trusting the
// driver's float comparisons with NaN. Logical ops use truth values: non-zero (NaN too) is true.

override OP: u32 = 0u;

fn truth(x: C) -> bool {
    return is_nan(x) || x != C(0);
}

fn op(a: C, b: C) -> R {
    let unordered = is_nan(a) || is_nan(b);
    var r = false;
    switch OP {
        case OP_EQ: { r = !unordered && a == b; }
        case OP_NE: { r = unordered || a != b; }
        case OP_LT: { r = !unordered && a < b; }
        case OP_LE: { r = !unordered && a <= b; }
        case OP_GT: { r = !unordered && a > b; }
        case OP_GE: { r = !unordered && a >= b; }
        case OP_LOGICAL_AND: { r = truth(a) && truth(b); }
        case OP_LOGICAL_OR: { r = truth(a) || truth(b); }
        case OP_LOGICAL_XOR: { r = truth(a) != truth(b); }
        // Never taken: the specializer refuses an OP value without a case (device/specialize.rs).
        default: {}
    }
    return select(0u, 1u, r);
}
