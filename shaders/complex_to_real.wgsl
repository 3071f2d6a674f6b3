// Complex → real element-wise ops (|z|, arg z: C out) and complex → bool predicates (u32 0/1
// out), over contiguous operands. The host's prelude picks one by defining `OUT` and
// `to_real_result` (`real_op` or `predicate_op`).

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
        default: { return 0u; }
    }
}

@compute @workgroup_size(WG)
fn to_real(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let i = (wid.y * nwg.x + wid.x) * WG + lid;
    if (i >= p.count) {
        return;
    }
    y[p.y_base + i] = to_real_result(x[p.x_base + i]);
}
