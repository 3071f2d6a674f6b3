// Complex inverse trigonometric and hyperbolic functions: the algorithm of Hull, Fairgrieve
// and Tang ("Implementing the complex arcsine and arccosine functions using exception
// handling", ACM TOMS 23(3), 1997) in the form FreeBSD's msun gives it (Montgomery-Smith's
// catrig), with C99 Annex G's special values: what NumPy answers, to a few ulp, with no
// overflow or underflow on the way for any finite input. asinh does the work; asin, acos and
// acosh follow by reflections, atan from atanh. Joined after complex_math.wgsl; the host's
// prelude defines the part dtype's ARC_* constants (its epsilon, 4·√min, √max/4, √min,
// √(3ε), √(6ε), and π/2 split into a rounded high part and the rest).

// Abstract constants: each use converts them to the part type without an f32 rounding.
const ARC_LN2 = 0.6931471805599453;
const ARC_E = 2.718281828459045;

// (hypot(a, b) − b) / 2 given h = hypot(a, b), without cancellation for b > 0.
fn half_gap(a: C, b: C, h: C) -> C {
    if (b < C(0)) {
        return (h - b) / C(2);
    }
    if (b == C(0)) {
        return a / C(2);
    }
    return mul(a, a) / (h + b) / C(2);
}

// What asinh(x + iy) needs for x, y ≥ 0 below 1/ε (Hull et al.'s A and B, with
// A = (|z + i| + |z − i|)/2 and B = y/A): `rx` = Re asinh z, and either B (`b_usable`)
// or √(A² − y²) with y (both rescaled where √(A² − y²) would underflow).
struct ArcWork {
    rx: C,
    b_usable: bool,
    b: C,
    sqrt_a2my2: C,
    new_y: C,
}

fn asinh_work(x: C, y: C) -> ArcWork {
    var w: ArcWork;
    let r = hypotenuse(x, y + C(1));
    let s = hypotenuse(x, y - C(1));
    // A ≥ 1 mathematically; rounding must not take it below.
    let a = max((r + s) / C(2), C(1));
    if (a < C(10)) {
        // log(A + √(A² − 1)) = log1p((A − 1) + √((A − 1)(A + 1))), A − 1 without cancellation.
        if (y == C(1) && x < ARC_EPS * ARC_EPS / C(128)) {
            w.rx = sqrt(x);
        } else if (x >= ARC_EPS * abs(y - C(1))) {
            let am1 = half_gap(x, C(1) + y, r) + half_gap(x, C(1) - y, s);
            w.rx = log1p_(am1 + sqrt(mul(am1, a + C(1))));
        } else if (y < C(1)) {
            w.rx = x / sqrt(mul(C(1) - y, C(1) + y));
        } else {
            w.rx = log1p_((y - C(1)) + sqrt(mul(y - C(1), y + C(1))));
        }
    } else {
        w.rx = log_(a + sqrt(mul(a, a) - C(1)));
    }
    w.new_y = y;
    if (y < ARC_FOUR_SQRT_MIN) {
        // y/A would underflow: leave Im to atan2 on rescaled operands.
        w.b_usable = false;
        w.sqrt_a2my2 = a * (C(2) / ARC_EPS);
        w.new_y = y * (C(2) / ARC_EPS);
        return w;
    }
    w.b = y / a;
    w.b_usable = true;
    if (w.b > C(0.6417)) {
        // asin B loses accuracy near 1: atan2(y, √((A + y)(A − y))) instead.
        w.b_usable = false;
        if (y == C(1) && x < ARC_EPS / C(128)) {
            w.sqrt_a2my2 = sqrt(x) * sqrt((a + y) / C(2));
        } else if (x >= ARC_EPS * abs(y - C(1))) {
            let amy = half_gap(x, y + C(1), r) + half_gap(x, y - C(1), s);
            w.sqrt_a2my2 = sqrt(mul(amy, a + y));
        } else if (y > C(1)) {
            let scale = C(4) / ARC_EPS / ARC_EPS;
            w.sqrt_a2my2 = x * scale * y / sqrt(mul(y + C(1), y - C(1)));
            w.new_y = y * scale;
        } else {
            w.sqrt_a2my2 = sqrt(mul(C(1) - y, C(1) + y));
        }
    }
    return w;
}

// log z for |z| finite and past about 1/ε (or infinite), without overflow or underflow.
fn clog_large(z: Z) -> Z {
    let ax = max(abs(z.x), abs(z.y));
    let ay = min(abs(z.x), abs(z.y));
    let arg = atan2_(z.y, z.x);
    if (ax > highest_finite() / C(2)) {
        return Z(log_(hypotenuse(z.x / C(ARC_E), z.y / C(ARC_E))) + C(1), arg);
    }
    if (ax > ARC_QUARTER_SQRT_MAX || ay < ARC_SQRT_MIN) {
        return Z(log_(hypotenuse(z.x, z.y)), arg);
    }
    return Z(log_(mul(ax, ax) + mul(ay, ay)) / C(2), arg);
}

fn swap_parts(z: Z) -> Z {
    return Z(z.y, z.x);
}

fn casinh(z: Z) -> Z {
    let x = z.x;
    let y = z.y;
    let ax = abs(x);
    let ay = abs(y);
    if (is_nan(x) || is_nan(y)) {
        if (is_inf(x)) {
            return Z(x, y + y);
        }
        // glibc's sign (C99 leaves it open), which NumPy gives.
        if (is_inf(y)) {
            return Z(abs(y), x + x);
        }
        if (y == C(0)) {
            return Z(x + x, y);
        }
        return Z(nan_value(), nan_value());
    }
    let big = C(1) / ARC_EPS;
    if (ax > big || ay > big) {
        // asinh z = sign(x)·(log(2·sign(x)·z)) up to O(1/z²).
        let w = clog_large(select(z, -z, sign_bit(x))) + Z(C(ARC_LN2), C(0));
        return Z(copysign_(w.x, x), copysign_(w.y, y));
    }
    if (x == C(0) && y == C(0)) {
        return z;
    }
    if (ax < ARC_SQRT_6_EPS / C(4) && ay < ARC_SQRT_6_EPS / C(4)) {
        return z;
    }
    let w = asinh_work(ax, ay);
    var ry: C;
    if (w.b_usable) {
        ry = asin_(w.b);
    } else {
        ry = atan2_(w.new_y, w.sqrt_a2my2);
    }
    return Z(copysign_(w.rx, x), copysign_(ry, y));
}

// asin z = swap(asinh(swap z)), swap(x + iy) = y + ix.
fn casin(z: Z) -> Z {
    return swap_parts(casinh(swap_parts(z)));
}

// acos z = π/2 − asin z, computed so that it stays accurate near z = 1.
fn cacos(z: Z) -> Z {
    let x = z.x;
    let y = z.y;
    let ax = abs(x);
    let ay = abs(y);
    if (is_nan(x) || is_nan(y)) {
        if (is_inf(x)) {
            return Z(y + y, -inf_value());
        }
        if (is_inf(y)) {
            return Z(x + x, -y);
        }
        if (x == C(0)) {
            return Z(ARC_PIO2_HI + ARC_PIO2_LO, y + y);
        }
        return Z(nan_value(), nan_value());
    }
    let big = C(1) / ARC_EPS;
    if (ax > big || ay > big) {
        let w = clog_large(z);
        let ry = w.x + C(ARC_LN2);
        return Z(abs(w.y), select(-ry, ry, sign_bit(y)));
    }
    if (x == C(1) && y == C(0)) {
        return Z(C(0), -y);
    }
    if (ax < ARC_SQRT_6_EPS / C(4) && ay < ARC_SQRT_6_EPS / C(4)) {
        return Z(ARC_PIO2_HI - (x - ARC_PIO2_LO), -y);
    }
    let w = asinh_work(ay, ax);
    var rx: C;
    if (w.b_usable) {
        rx = acos_(select(w.b, -w.b, sign_bit(x)));
    } else {
        rx = atan2_(w.sqrt_a2my2, select(w.new_y, -w.new_y, sign_bit(x)));
    }
    return Z(rx, select(-w.rx, w.rx, sign_bit(y)));
}

// acosh z = ±i·acos z, the sign making the real part non-negative.
fn cacosh(z: Z) -> Z {
    let w = cacos(z);
    if (is_nan(w.x) && is_nan(w.y)) {
        return Z(w.y, w.x);
    }
    if (is_nan(w.x)) {
        return Z(abs(w.y), w.x);
    }
    // acos(±0 + iNaN) = π/2 + iNaN: glibc (and so NumPy) answers NaN + iπ/2.
    if (is_nan(w.y)) {
        return Z(w.y, w.x);
    }
    return Z(abs(w.y), copysign_(w.x, z.y));
}

// Re 1/(x + iy) = x/(x² + y²) where |x| or |y| is past 1/ε: scaled by the larger part so that
// the squares cannot overflow.
fn real_part_reciprocal(x: C, y: C) -> C {
    if (is_inf(x)) {
        return C(1) / x;
    }
    if (is_inf(y)) {
        return x / y / y;
    }
    let m = max(abs(x), abs(y));
    let xs = x / m;
    let ys = y / m;
    return xs / (mul(xs, xs) + mul(ys, ys)) / m;
}

// atanh z = log((1 + z)/(1 − z))/2 = log1p(4x/|z − 1|²)/4 + i·atan2(2y, (1 − x)(1 + x) − y²)/2.
fn catanh(z: Z) -> Z {
    let x = z.x;
    let y = z.y;
    let ax = abs(x);
    let ay = abs(y);
    if (y == C(0) && ax <= C(1)) {
        return Z(atanh_(x), y);
    }
    if (x == C(0)) {
        return Z(x, atan_(y));
    }
    let pio2 = ARC_PIO2_HI + ARC_PIO2_LO;
    if (is_nan(x) || is_nan(y)) {
        if (is_inf(x)) {
            return Z(copysign_(C(0), x), y + y);
        }
        if (is_inf(y)) {
            return Z(copysign_(C(0), x), copysign_(pio2, y));
        }
        return Z(nan_value(), nan_value());
    }
    let big = C(1) / ARC_EPS;
    if (ax > big || ay > big) {
        return Z(real_part_reciprocal(x, y), copysign_(pio2, y));
    }
    if (ax < ARC_SQRT_3_EPS / C(2) && ay < ARC_SQRT_3_EPS / C(2)) {
        return z;
    }
    var rx: C;
    if (ax == C(1) && ay < ARC_EPS) {
        rx = (C(ARC_LN2) - log_(ay)) / C(2);
    } else {
        let d = ax - C(1);
        // |z − 1|², without y² where it would underflow.
        var sq = mul(d, d);
        if (ay >= ARC_SQRT_MIN) {
            sq = sq + mul(ay, ay);
        }
        rx = log1p_(C(4) * ax / sq) / C(4);
    }
    var ry: C;
    if (ax == C(1)) {
        ry = atan2_(C(2), -ay) / C(2);
    } else if (ay < ARC_EPS) {
        ry = atan2_(C(2) * ay, mul(C(1) - ax, C(1) + ax)) / C(2);
    } else {
        ry = atan2_(C(2) * ay, mul(C(1) - ax, C(1) + ax) - mul(ay, ay)) / C(2);
    }
    return Z(copysign_(rx, x), copysign_(ry, y));
}

// atan z = swap(atanh(swap z)).
fn catan(z: Z) -> Z {
    return swap_parts(catanh(swap_parts(z)));
}
