// Complex one-operand element-wise ops over contiguous operands (the host materialises views):
// complex → complex (`unary_op`, Z out), complex → real (|z|, arg z: `real_op`, C out) and
// complex → bool predicates (`predicate_op`, u32 0/1 out). The host's prelude picks one by
// defining `OUT` and `unary_result`.

override CPX: u32 = 0u;
override WG: u32 = 64u;

struct Params {
    // Elements (below 2^31: the math library's `opaque` reads it).
    count: u32,
    x_base: u32,
    y_base: u32,
}

@group(0) @binding(0) var<storage, read> p: Params;
@group(0) @binding(1) var<storage, read> x: array<Z>;
@group(0) @binding(2) var<storage, read_write> y: array<OUT>;

fn unary_op(z: Z) -> Z {
    switch CPX {
        case CPX_NEG: { return -z; }
        case CPX_CONJ: { return Z(z.x, -z.y); }
        case CPX_SQUARE: { return cmul(z, z); }
        case CPX_RECIPROCAL: { return crecip(z); }
        case CPX_SIGN: { return csign(z); }
        case CPX_SQRT: { return csqrt(z); }
        case CPX_EXP: { return cexp(z); }
        case CPX_LOG: { return clog(z); }
        case CPX_SIN: { return csin(z); }
        case CPX_COS: { return ccos(z); }
        case CPX_TAN: { return ctan(z); }
        case CPX_SINH: { return csinh(z); }
        case CPX_COSH: { return ccosh(z); }
        case CPX_TANH: { return ctanh(z); }
        case CPX_EXP2: { return cexp2(z); }
        case CPX_EXPM1: { return cexpm1(z); }
        case CPX_LOG2: { return clog(z) * C(1.4426950408889634); }
        case CPX_LOG10: { return clog(z) * C(0.4342944819032518); }
        case CPX_LOG1P: { return clog1p(z); }
        case CPX_ARCSIN: { return casin(z); }
        case CPX_ARCCOS: { return cacos(z); }
        case CPX_ARCTAN: { return catan(z); }
        case CPX_ARCSINH: { return casinh(z); }
        case CPX_ARCCOSH: { return cacosh(z); }
        case CPX_ARCTANH: { return catanh(z); }
        default: { return z; }
    }
}

fn real_op(z: Z) -> C {
    switch CPX {
        case CPX_ABS: { return cabs(z); }
        case CPX_ANGLE: { return carg(z); }
        default: { return z.x; }
    }
}

fn predicate_op(z: Z) -> u32 {
    let nan = is_nan(z.x) || is_nan(z.y);
    let inf = is_inf(z.x) || is_inf(z.y);
    switch CPX {
        case CPX_ISNAN: { return u32(nan); }
        case CPX_ISINF: { return u32(inf); }
        case CPX_ISFINITE: { return u32(!(nan || inf)); }
        case CPX_LOGICAL_NOT: { return u32(z.x == C(0) && z.y == C(0)); }
        default: { return 0u; }
    }
}

@compute @workgroup_size(WG)
fn unary(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let i = (wid.y * nwg.x + wid.x) * WG + lid;
    if (i >= p.count) {
        return;
    }
    y[p.y_base + i] = unary_result(x[p.x_base + i]);
}
