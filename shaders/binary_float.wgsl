// Float binary ops, NumPy semantics, computed in C (f32 for f16 and f32, f64 for f64). fmod_,
// pow_, hypot_, atan2_quadrant and exp_ come from the math file joined before this one
// (math_f32.wgsl/math_f64.wgsl).
// lavapipe folds `x != x` to false and its max/min built-ins swallow NaN, so NaN is always tested
// with the by-bits helpers `is_nan`/`is_inf`, never with max/min or self-comparison.

override OP: u32 = 0u;

// NumPy's npy_divmod: floor division and the matching modulus (sign of the divisor).
// fmod_ (from the math file) is exact; WGSL's `%` (a - b trunc(a / b)) is not once the quotient
// is large (1e30 % 3).
fn divmod(a: C, b: C) -> vec2<C> {
    var m = fmod_(a, b);
    if (b == C(0)) {
        return vec2<C>(a / b, nan_value());
    }
    // fmod is NaN for NaN operands and infinite a: both results are NaN. Tested up front because
    // lavapipe folds `NaN != 0` to false below.
    if (is_nan(m)) {
        return vec2<C>(nan_value(), nan_value());
    }
    var d = (a - m) / b;
    if (m != C(0)) {
        if ((b < C(0)) != (m < C(0))) {
            m += b;
            d -= C(1);
        }
    } else {
        m = select(C(0), -C(0), sign_bit(b));
    }
    var f: C;
    if (d != C(0)) {
        f = floor(d);
        if (d - f > C(0.5)) {
            f += C(1);
        }
    } else {
        f = select(C(0), -C(0), sign_bit(a) != sign_bit(b));
    }
    return vec2<C>(f, m);
}

fn is_odd_integer(y: C) -> bool {
    let h = y * C(0.5);
    return floor(y) == y && floor(h) != h;
}

// NumPy's power for real results: negative bases need integer exponents. Every special value
// of C99 Annex F's pow is decided here, before the general x^y of the math file, whose built-in
// form (exp2(y log2 x)) gets them wrong on some drivers (lavapipe: 0^-1 = 0, 1^inf = NaN).
fn power(a: C, b: C) -> C {
    if (b == C(0) || a == C(1)) {
        return C(1);
    }
    if (is_nan(a) || is_nan(b)) {
        return nan_value();
    }
    let odd = is_odd_integer(b);
    let x = abs(a);
    // A finite negative base needs an integer exponent (infinite exponents are decided below).
    if (a < C(0) && !is_inf(a) && floor(b) != b && !is_inf(b)) {
        return nan_value();
    }
    var r: C;
    if (b == C(1)) {
        r = x;
    } else if (x == C(0)) {
        // (±0)^y: ±inf for negative odd y, +inf for other negative y, (±)0 for positive y.
        r = select(C(0), inf_value(), b < C(0));
    } else if (x == C(1)) {
        // (-1)^±inf and (-1)^(any even integer) are 1; odd integers get their sign below.
        r = C(1);
    } else if (is_inf(b)) {
        // |x| > 1 grows without bound toward +inf and vanishes toward -inf; |x| < 1 the other way.
        r = select(C(0), inf_value(), (x > C(1)) == (b > C(0)));
    } else if (is_inf(x)) {
        // (±inf)^y: infinity for positive y, 0 for negative y (the sign below for odd y).
        r = select(C(0), inf_value(), b > C(0));
    } else {
        r = pow_(x, b);
    }
    if (sign_bit(a) && odd) {
        return -r;
    }
    return r;
}

// np.maximum: `a >= b ? a : b`, NaN from either side wins.
fn maximum(a: C, b: C) -> C {
    if (is_nan(a)) {
        return a;
    }
    if (is_nan(b)) {
        return b;
    }
    return select(b, a, a >= b);
}

fn minimum(a: C, b: C) -> C {
    if (is_nan(a)) {
        return a;
    }
    if (is_nan(b)) {
        return b;
    }
    return select(b, a, a <= b);
}

// np.fmax / np.fmin: a NaN is ignored unless both are NaN.
fn fmaximum(a: C, b: C) -> C {
    if (is_nan(b)) {
        return a;
    }
    if (is_nan(a)) {
        return b;
    }
    return select(b, a, a >= b);
}

fn fminimum(a: C, b: C) -> C {
    if (is_nan(b)) {
        return a;
    }
    if (is_nan(a)) {
        return b;
    }
    return select(b, a, a <= b);
}

fn hypotenuse(a: C, b: C) -> C {
    if (is_inf(a) || is_inf(b)) {
        return inf_value();
    }
    if (is_nan(a) || is_nan(b)) {
        return nan_value();
    }
    let x = abs(a);
    let y = abs(b);
    let m = select(y, x, x >= y);
    if (m == C(0)) {
        return C(0);
    }
    return hypot_(m, select(x, y, x >= y));
}

// C99 atan2, special cases included (signed zeros, infinities).
fn atan2_(y: C, x: C) -> C {
    let pi = C(3.141592653589793);
    if (is_nan(x) || is_nan(y)) {
        return nan_value();
    }
    var r: C;
    if (is_inf(x) || is_inf(y)) {
        if (is_inf(x) && is_inf(y)) {
            r = select(pi / C(4), C(3) * pi / C(4), x < C(0));
        } else if (is_inf(y)) {
            r = pi / C(2);
        } else {
            r = select(C(0), pi, x < C(0));
        }
    } else if (x == C(0) && y == C(0)) {
        r = select(C(0), pi, sign_bit(x));
    } else if (x == C(0)) {
        r = pi / C(2);
    } else if (y == C(0)) {
        r = select(C(0), pi, x < C(0));
    } else {
        return atan2_quadrant(y, x);
    }
    return select(r, -r, sign_bit(y));
}

// np.heaviside: 0 below zero, 1 above, `h0` at ±0, NaN for NaN.
fn heaviside_(x: C, h0: C) -> C {
    if (is_nan(x)) {
        return x;
    }
    if (x == C(0)) {
        return h0;
    }
    return select(C(0), C(1), x > C(0));
}

// NumPy's npy_logaddexp (log(e^a + e^b)) and npy_logaddexp2 (log2(2^a + 2^b)): the larger
// operand plus log1p of the smaller's exponential relative to it, so nothing overflows; equal
// operands (infinities of one sign included) give a + ln 2 (or a + 1). NaNs are tested by bits
// up front (lavapipe folds the comparisons NumPy's code relies on for them).
fn logaddexp_(a: C, b: C, base2: bool) -> C {
    if (is_nan(a) || is_nan(b)) {
        return nan_value();
    }
    if (a == b) {
        return a + select(C(0.6931471805599453), C(1), base2);
    }
    let hi = select(b, a, a > b);
    let d = select(b - a, a - b, a > b);
    if (base2) {
        return hi + mul(C(1.4426950408889634), log1p_(exp2_(-d)));
    }
    return hi + log1p_(exp_(-d));
}

fn op(a: C, b: C) -> R {
    switch OP {
        case OP_ADD: { return a + b; }
        case OP_SUB: { return a - b; }
        case OP_MUL: { return a * b; }
        case OP_DIV: { return a / b; }
        case OP_FLOOR_DIVIDE: { return divmod(a, b).x; }
        case OP_REMAINDER: { return divmod(a, b).y; }
        case OP_POW: { return power(a, b); }
        case OP_MAXIMUM: { return maximum(a, b); }
        case OP_MINIMUM: { return minimum(a, b); }
        case OP_FMAX: { return fmaximum(a, b); }
        case OP_FMIN: { return fminimum(a, b); }
        case OP_ARCTAN2: { return atan2_(a, b); }
        case OP_HYPOT: { return hypotenuse(a, b); }
        case OP_FMOD: { return fmod_(a, b); }
        case OP_HEAVISIDE: { return heaviside_(a, b); }
        case OP_LOGADDEXP: { return logaddexp_(a, b, false); }
        case OP_LOGADDEXP2: { return logaddexp_(a, b, true); }
        case OP_COPYSIGN: { return select(abs(a), -abs(a), sign_bit(b)); }
        // Internal: exp(a - b) (softmax), (a - b)^2 (variance).
        case OP_SUB_EXP: { return exp_(a - b); }
        case OP_SQ_DIFF: { let d = a - b; return d * d; }
        case OP_NEXTAFTER: { return nextafter_(a, b); }
        // Never taken: the specializer refuses an OP value without a case (device/specialize.rs).
        default: {}
    }
    return nan_value();
}
