// Integer unary ops (i32, u32), NumPy semantics with wrapping: negating a u32 wraps, the absolute
// value of the most negative i32 is itself, the reciprocal truncates (0 for 1/0, like NumPy's
// error-free path).

override OP: u32 = 0u;

fn op(x: C) -> R {
    switch OP {
        case OP_NEG: { return C(0) - x; }
        case OP_ABS: { return select(x, C(0) - x, x < C(0)); }
        case OP_SIGN: { return select(select(C(0), C(1), x > C(0)), ~C(0), x < C(0)); }
        case OP_SQUARE: { return x * x; }
        case OP_RECIPROCAL: { if (x == C(0)) { return C(0); } return C(1) / x; }
        case OP_RELU: { return select(C(0), x, x > C(0)); }
        case OP_BITWISE_NOT: { return ~x; }
        // Never taken: the specializer refuses an OP value without a case (device/specialize.rs).
        default: {}
    }
    return C(0);
}
