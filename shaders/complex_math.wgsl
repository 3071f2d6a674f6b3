// Complex arithmetic with NumPy's answers (its npy_math complex functions, after FreeBSD's
// msun, and its ufunc loops), on `vec2<C>` = (real, imaginary). Joined after the math library
// (exp_, log_, log1p_, sin_, cos_, sinh_, cosh_, tan_, hypot_) and binary_float.wgsl (whose
// `hypotenuse`, `atan2_` and `power` give the special values of |z|, arg z and real powers),
// so results are the same bits on every adapter. Each op group's file (complex_*.wgsl) selects
// one of these by its `CPX` override. The host's prelude defines `C`, the `CPX_*` codes,
// `highest_finite()` and `TANH_LARGE` (where tanh x rounds to ±1: 11 for f32, 22 for f64).

alias Z = vec2<C>;

fn cmul(a: Z, b: Z) -> Z {
    return Z(mul(a.x, b.x) - mul(a.y, b.y), mul(a.x, b.y) + mul(a.y, b.x));
}

// NumPy's complex division loop: Smith's algorithm, dividing by the larger part of b first so
// that nothing overflows on the way; a zero divisor gives NumPy's inf/NaN.
fn cdiv(a: Z, b: Z) -> Z {
    let br = abs(b.x);
    let bi = abs(b.y);
    if (br >= bi) {
        if (br == C(0) && bi == C(0)) {
            return Z(a.x / br, a.y / br);
        }
        let rat = b.y / b.x;
        let scl = C(1) / (b.x + mul(b.y, rat));
        return Z((a.x + mul(a.y, rat)) * scl, (a.y - mul(a.x, rat)) * scl);
    }
    let rat = b.x / b.y;
    let scl = C(1) / (b.y + mul(b.x, rat));
    return Z((mul(a.x, rat) + a.y) * scl, (mul(a.y, rat) - a.x) * scl);
}

// NumPy's reciprocal loop.
fn crecip(z: Z) -> Z {
    if (abs(z.y) <= abs(z.x)) {
        let r = z.y / z.x;
        let d = z.x + mul(z.y, r);
        return Z(C(1) / d, -r / d);
    }
    let r = z.x / z.y;
    let d = mul(z.x, r) + z.y;
    return Z(r / d, C(-1) / d);
}

fn cabs(z: Z) -> C {
    return hypotenuse(z.x, z.y);
}

fn carg(z: Z) -> C {
    return atan2_(z.y, z.x);
}

fn copysign_(x: C, s: C) -> C {
    return select(abs(x), -abs(x), sign_bit(s));
}

// NumPy 2's sign: z / |z| (0 for 0; the unit along an infinite part).
fn csign(z: Z) -> Z {
    let m = cabs(z);
    if (is_nan(m)) {
        return Z(nan_value(), nan_value());
    }
    if (is_inf(m)) {
        if (is_inf(z.x)) {
            if (is_inf(z.y)) {
                return Z(nan_value(), nan_value());
            }
            return Z(select(C(-1), C(1), z.x > C(0)), C(0));
        }
        return Z(C(0), select(C(-1), C(1), z.y > C(0)));
    }
    if (m == C(0)) {
        return Z(C(0), C(0));
    }
    return Z(z.x / m, z.y / m);
}

// cexp with glibc's special values (NumPy calls the C library's cexp on Linux).
fn cexp(z: Z) -> Z {
    let x = z.x;
    let y = z.y;
    if (y == C(0)) {
        return Z(exp_(x), y);
    }
    if (x == C(0)) {
        return Z(cos_(y), sin_(y));
    }
    if (is_inf(y) || is_nan(y)) {
        if (!is_inf(x)) {
            return Z(nan_value(), nan_value());
        }
        if (x < C(0)) {
            return Z(C(0), copysign_(C(0), y));
        }
        return Z(x, nan_value());
    }
    let e = exp_(x);
    return Z(e * cos_(y), e * sin_(y));
}

// NumPy's npy_clog: log|z| without overflow or underflow, by log1p near |z| = 1.
fn clog(z: Z) -> Z {
    let ax = abs(z.x);
    let ay = abs(z.y);
    var rr: C;
    if (is_nan(ax) || is_nan(ay)) {
        if (is_inf(ax) || is_inf(ay)) {
            return Z(inf_value(), nan_value());
        }
        return Z(nan_value(), nan_value());
    }
    if (ax == C(0) && ay == C(0)) {
        return Z(-inf_value(), carg(z));
    }
    if (is_inf(ax) || is_inf(ay)) {
        return Z(inf_value(), carg(z));
    }
    let big = highest_finite() / C(4);
    if (ax > big || ay > big) {
        rr = log_(hypotenuse(ax / C(2), ay / C(2))) + C(0.6931471805599453);
    } else {
        let h = hypotenuse(ax, ay);
        if (C(0.71) <= h && h <= C(1.73)) {
            let am = max(ax, ay);
            let an = min(ax, ay);
            rr = log1p_(mul(am - C(1), am + C(1)) + mul(an, an)) / C(2);
        } else {
            rr = log_(h);
        }
    }
    return Z(rr, carg(z));
}

// NumPy's nc_exp2, nc_expm1 and nc_log1p (its log2 and log10 scale `clog` by log2 e, log10 e).
fn cexp2(z: Z) -> Z {
    return cexp(z * C(0.6931471805599453));
}

fn cexpm1(z: Z) -> Z {
    let a = sin_(z.y / C(2));
    return Z(mul(expm1_(z.x), cos_(z.y)) - mul(C(2) * a, a), exp_(z.x) * sin_(z.y));
}

fn clog1p(z: Z) -> Z {
    let x1 = z.x + C(1);
    return Z(log_(hypotenuse(x1, z.y)), atan2_(z.y, x1));
}

// msun's csqrt: exact on the axes, no overflow for large parts.
fn csqrt(z: Z) -> Z {
    var a = z.x;
    var b = z.y;
    if (a == C(0) && b == C(0)) {
        return Z(C(0), b);
    }
    if (is_inf(b)) {
        return Z(inf_value(), b);
    }
    if (is_nan(a)) {
        return Z(a, nan_value());
    }
    if (is_inf(a)) {
        if (sign_bit(a)) {
            return Z(select(C(0), nan_value(), is_nan(b)), copysign_(inf_value(), b));
        }
        return Z(a, select(copysign_(C(0), b), nan_value(), is_nan(b)));
    }
    let limit = highest_finite() / C(4);
    let scale = abs(a) >= limit || abs(b) >= limit;
    if (scale) {
        a = a * C(0.25);
        b = b * C(0.25);
    }
    var r: Z;
    if (a >= C(0)) {
        let t = sqrt((a + hypotenuse(a, b)) * C(0.5));
        r = Z(t, b / (C(2) * t));
    } else {
        let t = sqrt((-a + hypotenuse(a, b)) * C(0.5));
        r = Z(abs(b) / (C(2) * t), copysign_(t, b));
    }
    if (scale) {
        r = r * C(2);
    }
    return r;
}

// e^|x|/2 · (cos y, sin y) without overflowing on the way: the finite-x branch of sinh and
// cosh once |x| is large (both are e^|x|/2 there, up to rounding).
fn half_exp_cis(ax: C, y: C) -> Z {
    let e = exp_(ax * C(0.5));
    let h = e * C(0.5);
    return Z((h * cos_(y)) * e, (h * sin_(y)) * e);
}

// sinh(x + iy), special values as glibc's csinh.
fn csinh(z: Z) -> Z {
    let x = z.x;
    let y = z.y;
    let x_finite = !(is_inf(x) || is_nan(x));
    let y_finite = !(is_inf(y) || is_nan(y));
    if (x_finite && y_finite) {
        if (y == C(0)) {
            return Z(sinh_(x), y);
        }
        if (abs(x) < TANH_LARGE) {
            return Z(mul(sinh_(x), cos_(y)), mul(cosh_(x), sin_(y)));
        }
        let r = half_exp_cis(abs(x), y);
        return Z(copysign_(C(1), x) * r.x, r.y);
    }
    if (x_finite) {
        if (x == C(0)) {
            return Z(x, nan_value());
        }
        return Z(nan_value(), nan_value());
    }
    if (is_inf(x)) {
        if (y == C(0)) {
            return Z(x, y);
        }
        if (!y_finite) {
            return Z(inf_value(), nan_value());
        }
        return Z(copysign_(inf_value(), cos_(y)) * copysign_(C(1), x), copysign_(inf_value(), sin_(y)));
    }
    return Z(nan_value(), select(nan_value(), y, y == C(0)));
}

// cosh(x + iy), special values as glibc's ccosh.
fn ccosh(z: Z) -> Z {
    let x = z.x;
    let y = z.y;
    let x_finite = !(is_inf(x) || is_nan(x));
    let y_finite = !(is_inf(y) || is_nan(y));
    if (x_finite && y_finite) {
        if (y == C(0)) {
            return Z(cosh_(x), y * copysign_(C(1), x));
        }
        if (abs(x) < TANH_LARGE) {
            return Z(mul(cosh_(x), cos_(y)), mul(sinh_(x), sin_(y)));
        }
        let r = half_exp_cis(abs(x), y);
        return Z(r.x, copysign_(C(1), x) * r.y);
    }
    if (x_finite) {
        return Z(nan_value(), select(nan_value(), C(0), x == C(0)));
    }
    if (is_inf(x)) {
        if (y == C(0)) {
            return Z(inf_value(), y * copysign_(C(1), x));
        }
        if (!y_finite) {
            return Z(inf_value(), nan_value());
        }
        return Z(copysign_(inf_value(), cos_(y)), copysign_(inf_value(), sin_(y)) * copysign_(C(1), x));
    }
    return Z(nan_value(), select(nan_value(), y, y == C(0)));
}

// tanh(x + iy): Kahan's formula (msun's ctanh: no overflow for large |x|), special values as
// glibc's ctanh.
fn ctanh(z: Z) -> Z {
    let x = z.x;
    let y = z.y;
    if (is_inf(x)) {
        var s = y;
        if (!(is_inf(y) || is_nan(y)) && abs(y) > C(1)) {
            s = mul(sin_(y), cos_(y));
        }
        return Z(copysign_(C(1), x), copysign_(C(0), s));
    }
    if (is_nan(x) || is_inf(y) || is_nan(y)) {
        if (y == C(0)) {
            return z;
        }
        return Z(select(nan_value(), x, x == C(0)), nan_value());
    }
    if (abs(x) >= TANH_LARGE) {
        let e = exp_(-abs(x));
        return Z(copysign_(C(1), x), C(4) * sin_(y) * cos_(y) * e * e);
    }
    let t = tan_(y);
    let beta = C(1) + mul(t, t);
    let s = sinh_(x);
    let rho = sqrt(C(1) + mul(s, s));
    let denom = C(1) + mul(mul(beta, s), s);
    return Z(mul(mul(beta, rho), s) / denom, t / denom);
}

// sin z = −i·sinh(iz), cos z = cosh(iz), tan z = −i·tanh(iz).
fn csin(z: Z) -> Z {
    // glibc's csin, not the identity, here: sin(±inf or NaN ± i·inf) = NaN + i·inf.
    if ((is_inf(z.x) || is_nan(z.x)) && is_inf(z.y)) {
        return Z(nan_value(), inf_value());
    }
    let r = csinh(Z(-z.y, z.x));
    return Z(r.y, -r.x);
}

fn ccos(z: Z) -> Z {
    return ccosh(Z(-z.y, z.x));
}

fn ctan(z: Z) -> Z {
    let r = ctanh(Z(-z.y, z.x));
    return Z(r.y, -r.x);
}

// a·b as C99's Annex G multiplies (libgcc's __muldc3): the plain products, and where both
// parts come out NaN, infinities recovered from an infinite factor. What the C library's cpow
// computes b·log(a) with; NumPy's multiply ufunc itself is the plain `cmul`.
fn cmul_annex_g(u: Z, v: Z) -> Z {
    var a = u.x;
    var b = u.y;
    var c = v.x;
    var d = v.y;
    let r = cmul(u, v);
    if (!(is_nan(r.x) && is_nan(r.y))) {
        return r;
    }
    var recalc = false;
    if (is_inf(a) || is_inf(b)) {
        a = copysign_(select(C(0), C(1), is_inf(a)), a);
        b = copysign_(select(C(0), C(1), is_inf(b)), b);
        if (is_nan(c)) {
            c = copysign_(C(0), c);
        }
        if (is_nan(d)) {
            d = copysign_(C(0), d);
        }
        recalc = true;
    }
    if (is_inf(c) || is_inf(d)) {
        c = copysign_(select(C(0), C(1), is_inf(c)), c);
        d = copysign_(select(C(0), C(1), is_inf(d)), d);
        if (is_nan(a)) {
            a = copysign_(C(0), a);
        }
        if (is_nan(b)) {
            b = copysign_(C(0), b);
        }
        recalc = true;
    }
    if (!recalc
        && (is_inf(mul(u.x, v.x)) || is_inf(mul(u.y, v.y)) || is_inf(mul(u.x, v.y))
            || is_inf(mul(u.y, v.x)))) {
        if (is_nan(a)) {
            a = copysign_(C(0), a);
        }
        if (is_nan(b)) {
            b = copysign_(C(0), b);
        }
        if (is_nan(c)) {
            c = copysign_(C(0), c);
        }
        if (is_nan(d)) {
            d = copysign_(C(0), d);
        }
        recalc = true;
    }
    if (recalc) {
        return Z(inf_value() * (mul(a, c) - mul(b, d)), inf_value() * (mul(a, d) + mul(b, c)));
    }
    return r;
}

// NumPy's nc_pow: 1 for a zero exponent, 0 (positive real part of b) or NaN for a zero base, small integer exponents by
// repeated squaring (exact where the products are), others as exp(b·log a).
fn cpow(a: Z, b: Z) -> Z {
    if (b.x == C(0) && b.y == C(0)) {
        return Z(C(1), C(0));
    }
    if (a.x == C(0) && a.y == C(0)) {
        if (b.x > C(0)) {
            return Z(C(0), C(0));
        }
        return Z(nan_value(), nan_value());
    }
    if (b.y == C(0) && b.x == trunc(b.x) && abs(b.x) < C(100)) {
        let n = i32(b.x);
        if (n == 1) {
            return a;
        }
        if (n == 2) {
            return cmul(a, a);
        }
        if (n == 3) {
            return cmul(a, cmul(a, a));
        }
        var m = u32(abs(n));
        var p = a;
        var r = Z(C(1), C(0));
        for (var k = 0u; k < 8u; k += 1u) {
            if ((m & 1u) != 0u) {
                r = cmul(r, p);
            }
            m = m >> 1u;
            if (m == 0u) {
                break;
            }
            p = cmul(p, p);
        }
        if (n < 0) {
            return cdiv(Z(C(1), C(0)), r);
        }
        return r;
    }
    return cexp(cmul_annex_g(b, clog(a)));
}
