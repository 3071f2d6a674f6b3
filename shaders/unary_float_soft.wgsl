// Float unary ops on software f64 (word pairs, f64_soft.wgsl): unary_float.wgsl's ops for a
// device that emulates float64. The exact ones give the native path's bits; the elementary
// functions are math_f64_soft.wgsl's, the native math file's steps in software.

override OP: u32 = 0u;

const F64S_ONE: vec2<u32> = vec2<u32>(0u, 0x3ff00000u);
// math_f64.wgsl's DEG2RAD and RAD2DEG, as bits.
const F64S_DEG2RAD: vec2<u32> = vec2<u32>(0xa2529d39u, 0x3f91df46u);
const F64S_RAD2DEG: vec2<u32> = vec2<u32>(0x1a63c1f8u, 0x404ca5dcu);

// NumPy's sign: NaN stays, ±0 gives +0.
fn sign_(x: C) -> C {
    if (is_nan(x)) {
        return x;
    }
    if (((x.y & 0x7fffffffu) | x.x) == 0u) {
        return vec2<u32>(0u);
    }
    return vec2<u32>(0u, select(0x3ff00000u, 0xbff00000u, sign_bit(x)));
}

fn op(x: C) -> R {
    switch OP {
        case OP_NEG: { return vec2<u32>(x.x, x.y ^ 0x80000000u); }
        case OP_ABS: { return vec2<u32>(x.x, x.y & 0x7fffffffu); }
        case OP_SIGN: { return sign_(x); }
        case OP_SQRT: { return f64s_sqrt(x); }
        case OP_RSQRT: { return f64s_div(F64S_ONE, f64s_sqrt(x)); }
        case OP_FLOOR: { return f64s_floor(x); }
        case OP_CEIL: { return f64s_ceil(x); }
        case OP_ROUND, OP_RINT: { return f64s_rint(x); }
        case OP_TRUNC: { return f64s_trunc(x); }
        case OP_SQUARE: { return f64s_mul(x, x); }
        case OP_RECIPROCAL: { return f64s_div(F64S_ONE, x); }
        case OP_DEG2RAD: { return f64s_mul(x, F64S_DEG2RAD); }
        case OP_RAD2DEG: { return f64s_mul(x, F64S_RAD2DEG); }
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
        case OP_SIGMOID: { return sigmoid_(x); }
        case OP_CBRT: { return cbrt_(x); }
        case OP_ARCSINH: { return asinh_(x); }
        case OP_ARCCOSH: { return acosh_(x); }
        case OP_ARCTANH: { return atanh_(x); }
        case OP_RELU: {
            if (is_nan(x)) {
                return x;
            }
            return select(vec2<u32>(0u), x, f64s_lt(vec2<u32>(0u), x));
        }
        // Never taken: the specializer refuses an OP value without a case (device/specialize.rs).
        default: {}
    }
    return nan_value();
}
