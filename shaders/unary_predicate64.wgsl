// Predicates of 64-bit word pairs (int64, uint64) → bool: unary_predicate.wgsl's ops for
// integers (never NaN or infinite).

override OP: u32 = 0u;

fn op(x: C) -> R {
    var r = false;
    switch OP {
        case OP_ISNAN: { r = false; }
        case OP_ISINF: { r = false; }
        case OP_ISFINITE: { r = true; }
        case OP_LOGICAL_NOT: { r = is_zero64(x); }
        case OP_TRUTH: { r = !is_zero64(x); }
        case OP_SIGNBIT: { r = neg_in_dtype(x); }
        // Never taken: the specializer refuses an OP value without a case (device/specialize.rs).
        default: {}
    }
    return select(0u, 1u, r);
}
