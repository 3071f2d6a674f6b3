// Complex → complex element-wise ops over contiguous operands (the host materialises views).

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
@group(0) @binding(2) var<storage, read_write> y: array<Z>;

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
        default: { return z; }
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
    y[p.y_base + i] = unary_op(x[p.x_base + i]);
}
