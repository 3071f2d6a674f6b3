// Predicates on software f64 (word pairs, f64_soft.wgsl), giving bool (u32 0/1): isnan, isinf,
// isfinite, logical_not and truth (non-zero, NaN included, is true), signbit, all by bits.

override OP: u32 = 0u;

fn op(x: C) -> R {
    let nonzero = ((x.y & 0x7fffffffu) | x.x) != 0u;
    var r = false;
    switch OP {
        case OP_ISNAN: { r = is_nan(x); }
        case OP_ISINF: { r = is_inf(x); }
        case OP_ISFINITE: { r = !is_nan(x) && !is_inf(x); }
        case OP_LOGICAL_NOT: { r = !nonzero; }
        case OP_TRUTH: { r = nonzero; }
        case OP_SIGNBIT: { r = sign_bit(x); }
        // Never taken: the specializer refuses an OP value without a case (device/specialize.rs).
        default: {}
    }
    return select(0u, 1u, r);
}
