// Complex binary ops over contiguous operands of one shape (the host broadcasts first): the
// arithmetic (Z out) and the comparisons (u32 0/1 out). The host's prelude picks one by
// defining `OUT` and `binary_result` (`arith_op` or `compare_op`).

override CPX: u32 = 0u;
override WG: u32 = 64u;

struct Params {
    // Elements (below 2^31: the math library's `opaque` reads it).
    count: u32,
    a_base: u32,
    b_base: u32,
    y_base: u32,
}

@group(0) @binding(0) var<storage, read> p: Params;
@group(0) @binding(1) var<storage, read> a: array<Z>;
@group(0) @binding(2) var<storage, read> b: array<Z>;
@group(0) @binding(3) var<storage, read_write> y: array<OUT>;

fn has_nan(z: Z) -> bool {
    return is_nan(z.x) || is_nan(z.y);
}

// NaN is non-zero (tested by its bits: some drivers compile `!=` as an ordered comparison).
fn nonzero(z: Z) -> bool {
    return has_nan(z) || !(z.x == C(0) && z.y == C(0));
}

// NumPy's complex order (its CLT and CLE): by real part, then imaginary part; a NaN imaginary
// part makes a real-part comparison false.
fn c_lt(u: Z, v: Z) -> bool {
    return (u.x < v.x && !is_nan(u.y) && !is_nan(v.y)) || (u.x == v.x && u.y < v.y);
}

fn c_le(u: Z, v: Z) -> bool {
    return (u.x < v.x && !is_nan(u.y) && !is_nan(v.y)) || (u.x == v.x && u.y <= v.y);
}

fn c_ge(u: Z, v: Z) -> bool {
    return c_le(v, u);
}

fn arith_op(u: Z, v: Z) -> Z {
    switch CPX {
        case CPX_ADD: { return u + v; }
        case CPX_SUB: { return u - v; }
        case CPX_MUL: { return cmul(u, v); }
        case CPX_DIV: { return cdiv(u, v); }
        case CPX_POW: { return cpow(u, v); }
        // NumPy's loops: the first operand where it has a NaN (maximum, minimum) or the second
        // has one (fmax, fmin), or where it is the larger (smaller) in the lexicographic order.
        case CPX_MAXIMUM: { return select(v, u, has_nan(u) || c_ge(u, v)); }
        case CPX_MINIMUM: { return select(v, u, has_nan(u) || c_le(u, v)); }
        case CPX_FMAX: { return select(v, u, has_nan(v) || c_ge(u, v)); }
        case CPX_FMIN: { return select(v, u, has_nan(v) || c_le(u, v)); }
        default: { return u; }
    }
}

fn compare_op(u: Z, v: Z) -> u32 {
    let same = u.x == v.x && u.y == v.y;
    switch CPX {
        case CPX_EQ: { return u32(same); }
        case CPX_NE: { return u32(!same); }
        case CPX_LT: { return u32(c_lt(u, v)); }
        case CPX_LE: { return u32(c_le(u, v)); }
        case CPX_GT: { return u32(c_lt(v, u)); }
        case CPX_GE: { return u32(c_le(v, u)); }
        case CPX_LOGICAL_AND: { return u32(nonzero(u) && nonzero(v)); }
        case CPX_LOGICAL_OR: { return u32(nonzero(u) || nonzero(v)); }
        case CPX_LOGICAL_XOR: { return u32(nonzero(u) != nonzero(v)); }
        default: { return 0u; }
    }
}

@compute @workgroup_size(WG)
fn binary(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let i = (wid.y * nwg.x + wid.x) * WG + lid;
    if (i >= p.count) {
        return;
    }
    y[p.y_base + i] = binary_result(a[p.a_base + i], b[p.b_base + i]);
}
