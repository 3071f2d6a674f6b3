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

fn arith_op(u: Z, v: Z) -> Z {
    switch CPX {
        case CPX_ADD: { return u + v; }
        case CPX_SUB: { return u - v; }
        case CPX_MUL: { return cmul(u, v); }
        case CPX_DIV: { return cdiv(u, v); }
        case CPX_POW: { return cpow(u, v); }
        default: { return u; }
    }
}

fn compare_op(u: Z, v: Z) -> u32 {
    let same = u.x == v.x && u.y == v.y;
    switch CPX {
        case CPX_EQ: { return u32(same); }
        case CPX_NE: { return u32(!same); }
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
