// Integer binary ops on 64-bit word pairs (int64, uint64): binary_int.wgsl's ops and semantics,
// over int64.wgsl and int64_ops.wgsl.

override OP: u32 = 0u;

fn op(a: C, b: C) -> R {
    switch OP {
        case OP_ADD: { return add64(a, b); }
        case OP_SUB: { return sub64(a, b); }
        case OP_MUL: { return mul64(a, b); }
        case OP_FLOOR_DIVIDE: { return floor_div64(a, b); }
        case OP_REMAINDER: { return modulus64(a, b); }
        case OP_POW: { return pow64(a, b); }
        case OP_MAXIMUM, OP_FMAX: { return select(a, b, lt64(a, b)); }
        case OP_MINIMUM, OP_FMIN: { return select(a, b, lt64(b, a)); }
        case OP_BIT_AND: { return a & b; }
        case OP_BIT_OR: { return a | b; }
        case OP_BIT_XOR: { return a ^ b; }
        case OP_LEFT_SHIFT: { return shift_left64(a, b); }
        case OP_RIGHT_SHIFT: { return shift_right64(a, b); }
        case OP_FMOD: { return fmod64(a, b); }
        case OP_GCD: { return gcd64(a, b); }
        case OP_LCM: { return lcm64(a, b); }
        // Internal: (a - b)^2 wrapping.
        case OP_SQ_DIFF: { let d = sub64(a, b); return mul64(d, d); }
        // Never taken: the specializer refuses an OP value without a case (device/specialize.rs).
        default: {}
    }
    return vec2<u32>(0u);
}
