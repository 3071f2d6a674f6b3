// Comparisons and logical ops on software f64 (word pairs, f64_soft.wgsl), giving bool (u32 0/1):
// binary_compare.wgsl's rules (NaN unordered; non-zero, NaN included, is true).

override OP: u32 = 0u;

fn truth(x: C) -> bool {
    return ((x.y & 0x7fffffffu) | x.x) != 0u;
}

fn op(a: C, b: C) -> R {
    let unordered = is_nan(a) || is_nan(b);
    var r = false;
    switch OP {
        case OP_EQ: { r = !unordered && f64s_eq(a, b); }
        case OP_NE: { r = unordered || !f64s_eq(a, b); }
        case OP_LT: { r = !unordered && f64s_lt(a, b); }
        case OP_LE: { r = !unordered && (f64s_lt(a, b) || f64s_eq(a, b)); }
        case OP_GT: { r = !unordered && f64s_lt(b, a); }
        case OP_GE: { r = !unordered && (f64s_lt(b, a) || f64s_eq(a, b)); }
        case OP_LOGICAL_AND: { r = truth(a) && truth(b); }
        case OP_LOGICAL_OR: { r = truth(a) || truth(b); }
        case OP_LOGICAL_XOR: { r = truth(a) != truth(b); }
        // Never taken: the specializer refuses an OP value without a case (device/specialize.rs).
        default: {}
    }
    return select(0u, 1u, r);
}
