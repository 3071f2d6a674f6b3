// Comparisons and logical ops of any dtype, giving bool (u32 0/1). NaN compares unequal to
// everything (so `ne` is true and the others false), tested by bits rather than trusting the
// driver's float comparisons with NaN. Logical ops use truth values: non-zero (NaN too) is true.

override OP: u32 = 0u;

fn truth(x: C) -> bool {
    return is_nan(x) || x != C(0);
}

fn op(a: C, b: C) -> R {
    let unordered = is_nan(a) || is_nan(b);
    var r = false;
    switch OP {
        case 0u: { r = !unordered && a == b; }
        case 1u: { r = unordered || a != b; }
        case 2u: { r = !unordered && a < b; }
        case 3u: { r = !unordered && a <= b; }
        case 4u: { r = !unordered && a > b; }
        case 5u: { r = !unordered && a >= b; }
        case 6u: { r = truth(a) && truth(b); }
        case 7u: { r = truth(a) || truth(b); }
        case 8u: { r = truth(a) != truth(b); }
        default: { r = false; }
    }
    return select(0u, 1u, r);
}
