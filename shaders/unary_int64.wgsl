// Integer unary ops on 64-bit word pairs (int64, uint64): unary_int.wgsl's ops. The reciprocal
// of 0 is NumPy's: 1.0 / 0 converted back, the integer indefinite value for int64, 0 for uint64.

override OP: u32 = 0u;

fn op(x: C) -> R {
    switch OP {
        case OP_NEG: { return neg64(x); }
        case OP_ABS: { return magnitude(x); }
        case OP_SIGN: {
            if (is_zero64(x)) { return vec2<u32>(0u); }
            return select(vec2<u32>(1u, 0u), vec2<u32>(0xffffffffu), neg_in_dtype(x));
        }
        case OP_SQUARE: { return mul64(x, x); }
        case OP_RECIPROCAL: {
            if (is_zero64(x)) { return select(vec2<u32>(0u), vec2<u32>(0u, 0x80000000u), SIGNED); }
            // 1 / x truncated: 1 for 1, -1 for -1 (int64), 0 otherwise.
            if (eq64(x, vec2<u32>(1u, 0u))) { return x; }
            if (SIGNED && eq64(x, vec2<u32>(0xffffffffu))) { return x; }
            return vec2<u32>(0u);
        }
        case OP_RELU: { return select(x, vec2<u32>(0u), neg_in_dtype(x)); }
        case OP_BITWISE_NOT: { return ~x; }
        // Never taken: the specializer refuses an OP value without a case (device/specialize.rs).
        default: {}
    }
    return vec2<u32>(0u);
}
