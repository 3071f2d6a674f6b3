// Comparisons and logical ops of 64-bit word pairs (int64, uint64) → bool: binary_compare.wgsl
// without NaN, in the dtype's order (int64_ops.wgsl's lt64).

override OP: u32 = 0u;

fn op(a: C, b: C) -> R {
    var r = false;
    switch OP {
        case OP_EQ: { r = eq64(a, b); }
        case OP_NE: { r = !eq64(a, b); }
        case OP_LT: { r = lt64(a, b); }
        case OP_LE: { r = !lt64(b, a); }
        case OP_GT: { r = lt64(b, a); }
        case OP_GE: { r = !lt64(a, b); }
        case OP_LOGICAL_AND: { r = !is_zero64(a) && !is_zero64(b); }
        case OP_LOGICAL_OR: { r = !is_zero64(a) || !is_zero64(b); }
        case OP_LOGICAL_XOR: { r = is_zero64(a) != is_zero64(b); }
        // Never taken: the specializer refuses an OP value without a case (device/specialize.rs).
        default: {}
    }
    return select(0u, 1u, r);
}
