//! The software f64 elementary functions (shaders/math_f64.wgsl) and the exact float
//! remainder/floor_divide, against Rust's std (a correctly rounded or < 1 ulp libm) on thousands
//! of log-uniformly spread inputs of both signs, the points where the algorithms switch branches,
//! overflow and underflow thresholds, subnormals and the special values (compared by bits).
//!
//! Measured worst errors on lavapipe (ulp, over the ranges below; each row's allowed maximum is
//! in its table entry): exp 1, exp2 1, expm1 2, log 1, log2 2, log10 2, log1p 1, sin 1-2, cos 1,
//! tan 2-3 (|x| < 8.4e8), arcsin 1, arccos 1, atan 1, sinh 2, cosh 2, tanh 3, sigmoid 2; arcsinh 2,
//! arccosh 2, arctanh 2 against glibc's (Rust's own f64::acosh loses digits near 1);
//! arcsin/arccos (through atan) are allowed 4 and atan2 4. pow's error grows with |y log2 m| (m the
//! mantissa of x in [sqrt(1/2), sqrt(2))): the tolerance is 3 + |y log2 m| ulp.

#![allow(clippy::type_complexity)] // tables of (name, reference, op, ranges) rows

mod common;

use common::read;
use gpuarray::{Array, DType, Device};

// The C library's inverse hyperbolics (glibc's are within 2 ulp): Rust's own f64::acosh loses
// digits near 1.
unsafe extern "C" {
    fn asinh(x: f64) -> f64;
    fn acosh(x: f64) -> f64;
    fn atanh(x: f64) -> f64;
}
fn libm_asinh(x: f64) -> f64 {
    // SAFETY: a pure C math function of one double.
    unsafe { asinh(x) }
}
fn libm_acosh(x: f64) -> f64 {
    // SAFETY: as above.
    unsafe { acosh(x) }
}
fn libm_atanh(x: f64) -> f64 {
    // SAFETY: as above.
    unsafe { atanh(x) }
}

/// Distance in units in the last place; 0 for two NaNs or equal values (+0 and -0 count as equal
/// here: signs of zeros are checked by bits on the special values).
fn ulps(a: f64, b: f64) -> f64 {
    if (a.is_nan() && b.is_nan()) || a == b {
        return 0.0;
    }
    if a.is_nan() || b.is_nan() || a.is_infinite() || b.is_infinite() {
        return f64::INFINITY;
    }
    let key = |x: f64| {
        let i = x.to_bits() as i64;
        if i < 0 { i64::MIN - i } else { i }
    };
    (key(a) as i128 - key(b) as i128).unsigned_abs() as f64
}

/// `n` values log-uniform in [lo, hi], negated at random when `both`.
fn spread(n: usize, seed: u64, lo: f64, hi: f64, both: bool) -> Vec<f64> {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    (0..n)
        .map(|_| {
            let u = (next() >> 11) as f64 / (1u64 << 53) as f64;
            let v = (lo.ln() + u * (hi.ln() - lo.ln())).exp();
            if both && next() & 1 == 1 { -v } else { v }
        })
        .collect()
}

fn upload(dev: &Device, v: &[f64]) -> Array {
    Array::from_slice(dev, v, &[v.len()]).unwrap()
}

const SPECIALS: [f64; 9] = [
    0.0,
    -0.0,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
    5e-324,
    -5e-324,
    2.2250738585072014e-308,
    f64::MAX,
];

type Unary = fn(&Array) -> gpuarray::Result<Array>;

#[test]
fn f64_unary_functions_within_stated_ulps() {
    let Some(dev) = common::device() else { return };
    if !common::supports(&dev, DType::F64, "f64_unary_functions_within_stated_ulps") {
        return;
    }
    let base = dev.memory_stats().in_use_bytes;
    let half_pi = std::f64::consts::FRAC_PI_2;
    // (name, reference, op, max ulp, [(lo, hi, both signs)], extra points)
    let ops: Vec<(
        &str,
        fn(f64) -> f64,
        Unary,
        f64,
        Vec<(f64, f64, bool)>,
        Vec<f64>,
    )> = vec![
        (
            "exp",
            f64::exp,
            |a| a.exp(),
            1.0,
            vec![(1e-20, 709.7, true), (700.0, 745.1, false)],
            vec![
                709.782712893384,
                709.78,
                -745.1332191019411,
                -745.14,
                -708.4,
                -740.0,
                0.5 * std::f64::consts::LN_2,
            ],
        ),
        (
            "exp2",
            f64::exp2,
            |a| a.exp2(),
            1.0,
            vec![(1e-20, 1023.9, true), (1000.0, 1074.9, false)],
            vec![1023.999, 1024.0, -1074.0, -1075.0, -1022.5, 0.5, -0.5, 3.0],
        ),
        (
            "expm1",
            f64::exp_m1,
            |a| a.expm1(),
            2.0,
            vec![(1e-300, 709.7, true), (0.3, 0.4, true)],
            vec![
                0.34657359027997264,
                -0.34657359027997264,
                1e-17,
                -38.0,
                -37.0,
                709.78,
                710.0,
            ],
        ),
        (
            "log",
            f64::ln,
            |a| a.log(),
            1.0,
            vec![(1e-320, 1e308, false), (0.5, 2.0, false)],
            vec![
                1.0,
                2.0,
                std::f64::consts::FRAC_1_SQRT_2,
                std::f64::consts::SQRT_2,
                -1.0,
                1e-310,
            ],
        ),
        (
            "log2",
            f64::log2,
            |a| a.log2(),
            2.0,
            vec![(1e-320, 1e308, false), (0.5, 2.0, false)],
            vec![1.0, 8.0, 1024.0, 0.125, 2.0f64.powi(-1074), -2.0],
        ),
        (
            "log10",
            f64::log10,
            |a| a.log10(),
            2.0,
            vec![(1e-320, 1e308, false), (0.5, 2.0, false)],
            vec![1.0, 10.0, 1000.0, 1e-5, -3.0],
        ),
        (
            "log1p",
            f64::ln_1p,
            |a| a.log1p(),
            2.0,
            vec![
                (1e-300, 1e308, false),
                (1e-300, 1.0, false),
                (0.2, 4.0, false),
            ],
            vec![
                -1.0,
                -0.5,
                -0.2928932188134524,
                0.41421356237309503,
                -1.5,
                1e-17,
                -1e-17,
            ],
        ),
        (
            "sin",
            f64::sin,
            |a| a.sin(),
            2.0,
            vec![(1e-300, 8e8, true), (0.1, 10.0, true)],
            (1..40)
                .map(|k| k as f64 * half_pi)
                .chain([1e-9, 3.0e8, 7.0e8])
                .collect(),
        ),
        (
            "cos",
            f64::cos,
            |a| a.cos(),
            2.0,
            vec![(1e-300, 8e8, true), (0.1, 10.0, true)],
            (1..40)
                .map(|k| k as f64 * half_pi)
                .chain([0.3, 0.78125, 0.8])
                .collect(),
        ),
        (
            "tan",
            f64::tan,
            |a| a.tan(),
            3.0,
            vec![(1e-300, 8e8, true), (0.1, 10.0, true)],
            (1..40).map(|k| k as f64 * half_pi * 0.5).collect(),
        ),
        (
            "arcsin",
            f64::asin,
            |a| a.asin(),
            4.0,
            vec![(1e-300, 1.0, true), (0.9, 1.0, true)],
            vec![1.0, -1.0, 0.5, 1.0000001, -2.0],
        ),
        (
            "arccos",
            f64::acos,
            |a| a.acos(),
            4.0,
            vec![(1e-300, 1.0, true), (0.9, 1.0, true)],
            vec![1.0, -1.0, 0.5, -0.5, 1.0000001],
        ),
        (
            "arctan",
            f64::atan,
            |a| a.atan(),
            1.0,
            vec![(1e-300, 1e300, true), (0.3, 3.0, true)],
            vec![
                0.4375,
                0.6875,
                1.1875,
                2.4375,
                1.0,
                2f64.powi(66),
                2f64.powi(-29),
            ],
        ),
        (
            "sinh",
            f64::sinh,
            |a| a.sinh(),
            2.0,
            vec![(1e-300, 710.4, true), (0.1, 30.0, true)],
            vec![22.0, 1.0, 709.78, 710.4758600739439, 710.48, -710.48],
        ),
        (
            "cosh",
            f64::cosh,
            |a| a.cosh(),
            2.0,
            vec![(1e-300, 710.4, true), (0.1, 30.0, true)],
            vec![22.0, 0.34657359027997264, 709.78, 710.4758600739439, 710.48],
        ),
        (
            "tanh",
            f64::tanh,
            |a| a.tanh(),
            3.0,
            vec![(1e-300, 40.0, true), (0.1, 3.0, true)],
            vec![22.0, 1.0, -1.0, 1e-17],
        ),
        (
            "arcsinh",
            libm_asinh,
            |a| a.asinh(),
            2.0,
            vec![(1e-300, 1e300, true), (0.1, 4.0, true), (1e6, 1e9, true)],
            vec![2.0, -2.0, 67108864.0, 1.0 / 67108864.0, 1e-17, 0.125, 0.5],
        ),
        (
            "arccosh",
            libm_acosh,
            |a| a.acosh(),
            // 3 from glibc near x = 1.1 (where glibc itself is 0.7-1.1 ulp from the exact value,
            // mpmath) until log1p kept the rounding error of 1 + x and arccosh its argument's tail.
            2.0,
            vec![(1.0, 1e300, false), (1.0, 1.2, false), (1e6, 1e9, false)],
            vec![
                1.0,
                1.0 + f64::EPSILON,
                1.125,
                2.0,
                67108864.0,
                0.5,
                -2.0,
                0.0,
            ],
        ),
        (
            "arctanh",
            libm_atanh,
            |a| a.atanh(),
            2.0,
            vec![(1e-300, 1.0, true), (0.4, 1.0, true)],
            vec![
                0.5,
                -0.5,
                1.0,
                -1.0,
                1.5,
                1.0 / 4294967296.0,
                1.0 - f64::EPSILON / 2.0,
            ],
        ),
        (
            "sigmoid",
            |x| 1.0 / (1.0 + (-x).exp()),
            |a| a.sigmoid(),
            3.0,
            vec![(1e-300, 700.0, true)],
            vec![],
        ),
    ];
    for (k, (name, f, g, tol, ranges, extra)) in ops.into_iter().enumerate() {
        let mut x: Vec<f64> = ranges
            .iter()
            .enumerate()
            .flat_map(|(j, &(lo, hi, both))| spread(3000, (k * 10 + j) as u64 + 1, lo, hi, both))
            .collect();
        x.extend(extra.iter().flat_map(|&v| [v, -v]));
        let n_checked = x.len();
        x.extend(SPECIALS);
        let got = read(&g(&upload(&dev, &x)).unwrap());
        let mut worst = (0.0, 0.0);
        for i in 0..n_checked {
            let e = ulps(got[i], f(x[i]));
            if e > worst.0 {
                worst = (e, x[i]);
            }
        }
        eprintln!("{name}: max {} ulp (at x = {:e})", worst.0, worst.1);
        assert!(
            worst.0 <= tol,
            "{name}({:e}) off by {} ulp (allowed {tol})",
            worst.1,
            worst.0
        );
        // Special values: exactly libm's (NumPy's) result, sign of zero included.
        for (i, &s) in SPECIALS.iter().enumerate() {
            let (g, w) = (got[n_checked + i], f(s));
            if matches!(name, "sin" | "cos" | "tan") && s.is_finite() && s.abs() > 8.4e8 {
                // Beyond the documented accuracy bound: finite, and bounded for sin/cos.
                assert!(
                    g.is_finite() && (name == "tan" || g.abs() <= 1.0),
                    "{name}({s:e}) = {g:e}"
                );
                continue;
            }
            let same = (g.is_nan() && w.is_nan()) || g.to_bits() == w.to_bits();
            let close = ulps(g, w) <= tol && g.is_sign_negative() == w.is_sign_negative();
            assert!(same || close, "{name}({s:e}) = {g:e}, want {w:e}");
        }
    }
    common::check_clean(&dev, base);
}

/// NumPy's npy_divmod on top of an exact fmod (Rust's `%`): (floor quotient, modulus with the
/// divisor's sign), in the arithmetic of `$t` (what arrays of that dtype compute).
macro_rules! npy_divmod {
    ($name:ident, $t:ty) => {
        fn $name(a: $t, b: $t) -> ($t, $t) {
            let mut m = a % b;
            if b == 0.0 {
                return (a / b, <$t>::NAN);
            }
            let mut d = (a - m) / b;
            if m != 0.0 {
                if (b < 0.0) != (m < 0.0) {
                    m += b;
                    d -= 1.0;
                }
            } else {
                m = (0.0 as $t).copysign(b);
            }
            let f = if d != 0.0 {
                let mut f = d.floor();
                if d - f > 0.5 {
                    f += 1.0;
                }
                f
            } else {
                (0.0 as $t).copysign(a / b)
            };
            (f, m)
        }
    };
}
npy_divmod!(npy_divmod, f64);
npy_divmod!(npy_divmod32, f32);

fn same_bits(g: f64, w: f64) -> bool {
    (g.is_nan() && w.is_nan()) || g.to_bits() == w.to_bits()
}

#[test]
fn remainder_and_floor_divide_are_exact_for_large_quotients() {
    let Some(dev) = common::device() else { return };
    let base = dev.memory_stats().in_use_bytes;
    let n = 6000;
    let mut a = spread(n, 91, 1e-310, 1e308, true);
    let mut b = spread(n, 92, 1e-320, 1e300, true);
    // Hand-picked: large quotients, signed zeros, infinities, NaN, subnormals, equal operands.
    let pairs = [
        (1e30, 3.0),
        (1e10, 0.1),
        (-1e30, 3.0),
        (1e30, -3.0),
        (7.5, 2.0),
        (-7.5, 2.0),
        (7.5, -2.0),
        (0.0, 3.0),
        (-0.0, 3.0),
        (0.0, -3.0),
        (3.0, 0.0),
        (-3.0, 0.0),
        (0.0, 0.0),
        (f64::INFINITY, 3.0),
        (3.0, f64::INFINITY),
        (-3.0, f64::INFINITY),
        (3.0, f64::NEG_INFINITY),
        (f64::NAN, 2.0),
        (2.0, f64::NAN),
        (5e-324, 3e-324),
        (f64::MAX, 3.0),
        (f64::MAX, 1e-320),
        (6.0, 3.0),
        (-6.0, 3.0),
        (1e300, 1e-300),
    ];
    a.extend(pairs.iter().map(|p| p.0));
    b.extend(pairs.iter().map(|p| p.1));
    // f64: bit-exact against the reference.
    if common::supports(
        &dev,
        DType::F64,
        "remainder_and_floor_divide_are_exact_for_large_quotients",
    ) {
        let (ga, gb) = (upload(&dev, &a), upload(&dev, &b));
        let q = read(&ga.floor_divide(&gb).unwrap());
        let r = read(&ga.remainder(&gb).unwrap());
        for i in 0..a.len() {
            let (wq, wr) = npy_divmod(a[i], b[i]);
            assert!(
                same_bits(q[i], wq) && same_bits(r[i], wr),
                "f64 divmod({:e}, {:e}) = ({:e}, {:e}), want ({wq:e}, {wr:e})",
                a[i],
                b[i],
                q[i],
                r[i]
            );
        }
    } else {
        common::skip("the f64 half", "the adapter has no f64");
    }
    // f32: the same inputs narrowed (out-of-range ones become inf/0, which is fine).
    let a32: Vec<f32> = a.iter().map(|&x| x as f32).collect();
    let b32: Vec<f32> = b.iter().map(|&x| x as f32).collect();
    let (fa, fb) = (
        Array::from_slice(&dev, &a32, &[a32.len()]).unwrap(),
        Array::from_slice(&dev, &b32, &[b32.len()]).unwrap(),
    );
    let q = fa.floor_divide(&fb).unwrap().to_vec::<f32>().unwrap();
    let r = fa.remainder(&fb).unwrap().to_vec::<f32>().unwrap();
    for i in 0..a32.len() {
        let (x, y) = (a32[i], b32[i]);
        // lavapipe flushes f32 subnormal arithmetic results; skip pairs whose result is one.
        let (wq, wr) = npy_divmod32(x, y);
        let sub = |v: f32| v != 0.0 && v.abs() < f32::MIN_POSITIVE;
        if sub(x) || sub(y) || sub(wr) || sub(x % y) {
            continue;
        }
        assert!(
            same_bits(q[i] as f64, wq as f64) && same_bits(r[i] as f64, wr as f64),
            "f32 divmod({x:e}, {y:e}) = ({:e}, {:e}), want ({wq:e}, {wr:e})",
            q[i],
            r[i]
        );
    }
    drop((fa, fb));
    common::check_clean(&dev, base);
}

#[test]
fn f64_pow_and_arctan2() {
    let Some(dev) = common::device() else { return };
    if !common::supports(&dev, DType::F64, "f64_pow_and_arctan2") {
        return;
    }
    let base = dev.memory_stats().in_use_bytes;
    let n = 6000;
    let x = spread(n, 7, 1e-300, 1e300, false);
    let s = spread(n, 8, 1e-3, 1e3, true);
    // Exponents that keep |y ln x| below ~700 (results in range), scaled variously.
    let y: Vec<f64> = (0..n)
        .map(|i| s[i] / x[i].ln().abs().max(1e-3) * ((i % 5) as f64 * 0.25))
        .collect();
    // And results near the ends of the range from bases whose mantissa is far from 1 (the
    // hardest case: y log2 x is large and log2 of the mantissa carries it): |y log2 x| up to
    // ~1070.
    let (mut x, mut y) = (x, y);
    for (i, t) in spread(2000, 9, 1.0, 1070.0, true).into_iter().enumerate() {
        let base = [1.41, 0.71, 1.3e5, 7.7e-3, 1.999, 3.0][i % 6];
        x.push(base);
        y.push(t / f64::log2(base));
    }
    let got = read(&upload(&dev, &x).pow(&upload(&dev, &y)).unwrap());
    // The bound: 4 ulp plus what log2(m) carries, m the mantissa of x in [sqrt(1/2), sqrt(2)):
    // log2_hi_lo is good to ~2^-55.5 relative, i.e. about |y log2 m| / 7 ulp (one rounded log2
    // gave about |y log2 m| ulp).
    let (mut worst, mut worst_ratio) = (0.0f64, 0.0f64);
    for i in 0..x.len() {
        let w = x[i].powf(y[i]);
        let e = ulps(got[i], w);
        let m = x[i] / 2f64.powi(x[i].log2().round() as i32);
        let tol = 4.0 + (y[i] * m.log2()).abs() / 6.0;
        worst = worst.max(e);
        worst_ratio = worst_ratio.max(e / tol);
        assert!(
            e <= tol,
            "pow({:e}, {:e}) = {:e}, want {w:e} ({e} ulp, tol {tol})",
            x[i],
            y[i],
            got[i]
        );
    }
    println!(
        "pow: worst {worst} ulp, worst error / bound {worst_ratio:.2}, over {} pairs",
        x.len()
    );
    // Special cases (NumPy = C99 pow), exact.
    let inf = f64::INFINITY;
    let cases = [
        (2.0, 10.0, 1024.0),
        (-2.0, 3.0, -8.0),
        (-2.0, 0.5, f64::NAN),
        (0.0, -1.0, inf),
        (-0.0, -1.0, -inf),
        (-0.0, 3.0, -0.0),
        (0.0, 2.0, 0.0),
        (1.0, f64::NAN, 1.0),
        (f64::NAN, 0.0, 1.0),
        (0.5, inf, 0.0),
        (2.0, inf, inf),
        (0.5, -inf, inf),
        (-inf, 3.0, -inf),
        (-inf, -3.0, -0.0),
        (inf, -2.0, 0.0),
        (3.0, 2.0, 9.0),
        (9.0, 0.5, 3.0),
        (2.0, 1024.0, inf),
        (2.0, -1074.0, 5e-324),
        (2.0, -1080.0, 0.0),
        (4.0, -1.0, 0.25),
    ];
    let (cx, cy): (Vec<f64>, Vec<f64>) = cases.iter().map(|c| (c.0, c.1)).unzip();
    let got = read(&upload(&dev, &cx).pow(&upload(&dev, &cy)).unwrap());
    for (i, c) in cases.iter().enumerate() {
        assert!(
            same_bits(got[i], c.2) || ulps(got[i], c.2) <= 2.0,
            "pow({:e}, {:e}) = {:e}, want {:e}",
            c.0,
            c.1,
            got[i],
            c.2
        );
    }
    // atan2 over all quadrants and magnitudes, and its signed-zero/infinity table.
    let ya = spread(n, 9, 1e-300, 1e300, true);
    let xa = spread(n, 10, 1e-300, 1e300, true);
    let got = read(&upload(&dev, &ya).arctan2(&upload(&dev, &xa)).unwrap());
    for i in 0..n {
        let w = ya[i].atan2(xa[i]);
        assert!(
            ulps(got[i], w) <= 4.0,
            "arctan2({:e}, {:e}) = {:e}, want {w:e}",
            ya[i],
            xa[i],
            got[i]
        );
    }
    let z = [0.0, -0.0, 1.0, -1.0, inf, -inf];
    let (zy, zx): (Vec<f64>, Vec<f64>) = z
        .iter()
        .flat_map(|&p| z.iter().map(move |&q| (p, q)))
        .unzip();
    let got = read(&upload(&dev, &zy).arctan2(&upload(&dev, &zx)).unwrap());
    for i in 0..zy.len() {
        let w = zy[i].atan2(zx[i]);
        assert!(
            same_bits(got[i], w) || (ulps(got[i], w) <= 1.0 && got[i].signum() == w.signum()),
            "arctan2({:e}, {:e}) = {:e}, want {w:e}",
            zy[i],
            zx[i],
            got[i]
        );
    }
    common::check_clean(&dev, base);
}

#[test]
fn f64_softmax_and_logsumexp() {
    let Some(dev) = common::device() else { return };
    if !common::supports(&dev, DType::F64, "f64_softmax_and_logsumexp") {
        return;
    }
    let base = dev.memory_stats().in_use_bytes;
    let (r, c) = (7, 33);
    let h: Vec<f64> = spread(r * c, 11, 1e-3, 700.0, true);
    let a = Array::from_slice(&dev, &h, &[r, c]).unwrap();
    let sm = read(&a.softmax(1).unwrap());
    let lse = read(&a.logsumexp(1, false).unwrap());
    for i in 0..r {
        let row = &h[i * c..(i + 1) * c];
        let mx = row.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let z: f64 = row.iter().map(|&v| (v - mx).exp()).sum();
        for j in 0..c {
            let w = (row[j] - mx).exp() / z;
            assert!(
                (sm[i * c + j] - w).abs() <= 1e-15 + 4e-15 * w,
                "softmax[{i},{j}] = {:e}, want {w:e}",
                sm[i * c + j]
            );
        }
        let w = mx + z.ln();
        assert!(
            (lse[i] - w).abs() <= 4e-15 * w.abs().max(1.0),
            "logsumexp[{i}] = {:e}, want {w:e}",
            lse[i]
        );
    }
    drop(a);
    common::check_clean(&dev, base);
}
