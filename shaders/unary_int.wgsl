// Integer unary ops (i32, u32), NumPy semantics with wrapping: negating a u32 wraps, the absolute
// value of the most negative i32 is itself, the reciprocal truncates (0 for 1/0, like NumPy's
// error-free path).

override OP: u32 = 0u;

fn op(x: C) -> R {
    switch OP {
        case 0u: { return C(0) - x; }
        case 1u: { return select(x, C(0) - x, x < C(0)); }
        case 2u: { return select(select(C(0), C(1), x > C(0)), ~C(0), x < C(0)); }
        case 25u: { return x * x; }
        case 26u: { if (x == C(0)) { return C(0); } return C(1) / x; }
        case 28u: { return select(C(0), x, x > C(0)); }
        case 30u: { return ~x; }
        default: { return x; }
    }
}
