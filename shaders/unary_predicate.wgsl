// Predicates of any dtype, giving bool (u32 0/1): isnan, isinf, isfinite (by bits), logical_not
// and truth (non-zero, NaN included, is true), signbit.

override OP: u32 = 0u;

fn op(x: C) -> R {
    var r = false;
    switch OP {
        case 0u: { r = is_nan(x); }
        case 1u: { r = is_inf(x); }
        case 2u: { r = !is_nan(x) && !is_inf(x); }
        case 3u: { r = !(is_nan(x) || x != C(0)); }
        case 4u: { r = is_nan(x) || x != C(0); }
        case 5u: { r = sign_bit(x); }
        default: { r = false; }
    }
    return select(0u, 1u, r);
}
