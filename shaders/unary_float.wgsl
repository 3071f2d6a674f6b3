// Float unary math, NumPy semantics, computed in C (f32 for f16 and f32, f64 for f64).
// NaN and infinity are tested by bits (see binary_float.wgsl). The elementary functions (exp_,
// log_, sin_, asin_, sigmoid_, ...) come from the math file joined before this one, both in
// software: math_f32.wgsl or math_f64.wgsl. Only what is the same formula for both widths lives
// here; `rint_` (the math file's) rounds halves to even, NumPy's rule. DEG2RAD and RAD2DEG are the math
// file's.

override OP: u32 = 0u;

fn sign_(x: C) -> C {
    if (is_nan(x)) {
        return x;
    }
    // Through integers: lavapipe turns the obvious branches into its sign built-in, which keeps
    // the sign of -0.0; NumPy's sign(-0.0) is +0.0.
    return C(i32(x > C(0)) - i32(x < C(0)));
}

fn op(x: C) -> R {
    switch OP {
        case OP_NEG: { return -x; }
        case OP_ABS: { return abs(x); }
        case OP_SIGN: { return sign_(x); }
        case OP_SQRT: { return sqrt(x); }
        case OP_RSQRT: { return C(1) / sqrt(x); }
        case OP_EXP: { return exp_(x); }
        case OP_EXP2: { return exp2_(x); }
        case OP_EXPM1: { return expm1_(x); }
        case OP_LOG: { return log_(x); }
        case OP_LOG2: { return log2_(x); }
        case OP_LOG10: { return log10_(x); }
        case OP_LOG1P: { return log1p_(x); }
        case OP_SIN: { return sin_(x); }
        case OP_COS: { return cos_(x); }
        case OP_TAN: { return tan_(x); }
        case OP_ARCSIN: { return asin_(x); }
        case OP_ARCCOS: { return acos_(x); }
        case OP_ARCTAN: { return atan_(x); }
        case OP_SINH: { return sinh_(x); }
        case OP_COSH: { return cosh_(x); }
        case OP_TANH: { return tanh_(x); }
        case OP_FLOOR: { return floor(x); }
        case OP_CEIL: { return ceil(x); }
        case OP_ROUND, OP_RINT: { return rint_(x); }
        // trunc by its definition rather than the builtin: Mesa's f64 lowering of trunc
        // (lavapipe, nir lower_doubles) returns +0 for every x in (-1, -0], where IEEE and
        // NumPy keep the sign; floor and ceil keep it on every driver we test.
        case OP_TRUNC: { return select(ceil(x), floor(x), x >= C(0)); }
        case OP_SQUARE: { return x * x; }
        case OP_RECIPROCAL: { return C(1) / x; }
        case OP_SIGMOID: { return sigmoid_(x); }
        case OP_CBRT: { return cbrt_(x); }
        case OP_DEG2RAD: { return x * DEG2RAD; }
        case OP_RAD2DEG: { return x * RAD2DEG; }
        case OP_RELU: { if (is_nan(x)) { return x; } return select(C(0), x, x > C(0)); }
        case OP_ARCSINH: { return asinh_(x); }
        case OP_ARCCOSH: { return acosh_(x); }
        case OP_ARCTANH: { return atanh_(x); }
        // Never taken: the specializer refuses an OP value without a case (device/specialize.rs).
        default: {}
    }
    return nan_value();
}
