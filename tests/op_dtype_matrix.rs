//! The op × dtype matrix: every element-wise op, comparison and reduction against every dtype we
//! have (f32, f16, f64, i32, u32, bool). Where NumPy defines the op for the dtype the result is
//! checked against a CPU reference written here (exact for integers and bools); where it does not
//! (or where it would need a dtype we lack), the op must return `Err` naming the op and the dtype.
//!
//! The table of which dtypes each op accepts is written out here from NumPy's type rules, not
//! taken from the library, so a change in what the library accepts fails this test.

#![allow(clippy::type_complexity)] // tables of (name, op, accepts, reference) rows

mod common;

use common::{read, upload, values};
use gpuarray::{Array, DType, Error};

const ALL: [DType; 6] = [
    DType::F32,
    DType::F16,
    DType::F64,
    DType::I32,
    DType::U32,
    DType::Bool,
];

fn float(d: DType) -> bool {
    matches!(d, DType::F32 | DType::F16 | DType::F64)
}
fn int(d: DType) -> bool {
    matches!(d, DType::I32 | DType::U32)
}
fn numeric(d: DType) -> bool {
    float(d) || int(d)
}
fn any_dtype(_: DType) -> bool {
    true
}
fn int_or_bool(d: DType) -> bool {
    int(d) || d == DType::Bool
}

/// An op refused for a dtype must say which op and which dtype.
fn assert_refused(name: &str, dtype: DType, got: gpuarray::Result<Array>) {
    let e = got.expect_err(name).to_string();
    assert!(
        e.contains(name) && e.contains(&dtype.to_string()),
        "{name} {dtype}: {e}"
    );
}

/// Wraps an exact integer result to the dtype's width (NumPy's fixed-width arithmetic).
fn wrap(x: i64, d: DType) -> f64 {
    match d {
        DType::I32 => x as i32 as f64,
        DType::U32 => x as u32 as f64,
        DType::Bool => (x != 0) as i32 as f64,
        _ => x as f64,
    }
}

/// Bound on a float result's error in ulps of the result (`common::err_units`: relative, floored
/// at the smallest normal) for the element-wise op `name` in `d`. Exact ops get 0. f16 computes
/// in f32 and rounds once: 1 ulp. f64 uses the crate's own polynomials: 4 ulps (2.0 measured,
/// log1p). f32 transcendentals are the driver's built-ins: 8 ulps (3.4 measured, exp), tanh 64
/// (49 measured in tests/elementwise.rs), sigmoid 16 (14 there), pow 16 (exp2(b log2 a): log2's
/// error grows by |b ln a| <= 4 ln 10 = 9.2; 3.5 measured).
fn ulps(d: DType, name: &str) -> f64 {
    match (d, name) {
        (
            _,
            "add" | "subtract" | "multiply" | "floor_divide" | "remainder" | "maximum" | "minimum"
            | "fmax" | "fmin" | "copysign" | "negative" | "absolute" | "sign" | "floor" | "ceil"
            | "round" | "trunc" | "relu",
        ) => 0.0,
        (DType::F16, _) => 1.0,
        (DType::F64, _) => 4.0,
        (_, "tanh") => 64.0,
        (_, "sigmoid" | "power") => 16.0,
        _ => 8.0,
    }
}

/// Operands per dtype. Floats are exact binary fractions with quotients away from integers (no
/// floor/remainder discontinuity); integers include wrap-around cases; bools cover all pairs.
fn operands(d: DType) -> (Vec<f64>, Vec<f64>) {
    let n = 64;
    match d {
        DType::Bool => {
            let a: Vec<f64> = (0..n).map(|i| (i % 2) as f64).collect();
            let b: Vec<f64> = (0..n).map(|i| ((i / 2) % 2) as f64).collect();
            (a, b)
        }
        DType::I32 => {
            let mut a: Vec<f64> = values(n, 1, -1000.0, 1000.0)
                .iter()
                .map(|x| x.trunc())
                .collect();
            a[0] = i32::MAX as f64;
            a[1] = i32::MIN as f64;
            let b: Vec<f64> = (0..n)
                .map(|i| {
                    let m = (i % 9 + 1) as f64;
                    if i % 3 == 0 { -m } else { m }
                })
                .collect();
            (a, b)
        }
        DType::U32 => {
            let mut a: Vec<f64> = values(n, 2, 0.0, 1000.0)
                .iter()
                .map(|x| x.trunc())
                .collect();
            a[0] = u32::MAX as f64;
            a[1] = 0.0;
            let b: Vec<f64> = (0..n).map(|i| (i % 9 + 1) as f64).collect();
            (a, b)
        }
        _ => {
            // a = k/4 + 1/8 for k in [-40, 40): never an integer multiple of b = ±2^j.
            let a: Vec<f64> = values(n, 3, -40.0, 40.0)
                .iter()
                .map(|x| x.floor() / 4.0 + 0.125)
                .collect();
            let b: Vec<f64> = (0..n)
                .map(|i| {
                    let m = [0.5, 1.0, 2.0, 4.0][i % 4];
                    if i % 3 == 0 { -m } else { m }
                })
                .collect();
            (a, b)
        }
    }
}

type BinOp = fn(&Array, &Array) -> gpuarray::Result<Array>;
/// Float reference (real arithmetic) and integer reference (exact, before wrapping).
type FRef = fn(f64, f64) -> f64;
type IRef = fn(i64, i64, DType) -> i64;

fn floor_div(a: i64, b: i64) -> i64 {
    a.div_euclid(b) - if b < 0 && a.rem_euclid(b) != 0 { 1 } else { 0 }
}

fn shift(a: i64, k: i64, d: DType, left: bool) -> i64 {
    let k = k as u32;
    match (d, left) {
        (DType::I32, true) => (a as i32).checked_shl(k).unwrap_or(0) as i64,
        (DType::I32, false) => (a as i32)
            .checked_shr(k)
            .unwrap_or(if a < 0 { -1 } else { 0 }) as i64,
        (_, true) => (a as u32).checked_shl(k).unwrap_or(0) as i64,
        (_, false) => (a as u32).checked_shr(k).unwrap_or(0) as i64,
    }
}

/// Table filler for ops whose accepted dtypes never reach this reference.
fn no_int(_: i64, _: i64, d: DType) -> i64 {
    unreachable!("no integer reference ({d})")
}
fn no_float(_: f64, _: f64) -> f64 {
    unreachable!("no float reference")
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}
/// Sum of squared deviations from the mean.
fn sq_dev(v: &[f64]) -> f64 {
    let m = mean(v);
    v.iter().map(|x| (x - m) * (x - m)).sum()
}
/// Index of the first element equal to the fold of `v` by `pick` (NumPy's argmax/argmin).
fn first(v: &[f64], pick: fn(f64, f64) -> f64) -> f64 {
    let m = v.iter().cloned().reduce(pick).unwrap();
    v.iter().position(|&x| x == m).unwrap() as f64
}

fn floats(d: DType) -> Out {
    if float(d) { Out::Same } else { Out::Err }
}
fn numbers(d: DType) -> Out {
    if numeric(d) { Out::Same } else { Out::Err }
}
fn ints_bools(d: DType) -> Out {
    if int_or_bool(d) { Out::Same } else { Out::Err }
}

fn np_floor_divide(a: f64, b: f64) -> f64 {
    (a / b).floor()
}
fn np_remainder(a: f64, b: f64) -> f64 {
    a - b * (a / b).floor()
}

#[rustfmt::skip]
fn binary_table() -> Vec<(&'static str, BinOp, fn(DType) -> bool, FRef, IRef)> {
    vec![
        ("add", |a, b| a.add(b), any_dtype, |a, b| a + b, |a, b, _| a + b),
        ("subtract", |a, b| a.sub(b), numeric, |a, b| a - b, |a, b, _| a - b),
        ("multiply", |a, b| a.mul(b), any_dtype, |a, b| a * b, |a, b, _| a * b),
        ("floor_divide", |a, b| a.floor_divide(b), numeric, np_floor_divide, |a, b, _| floor_div(a, b)),
        ("remainder", |a, b| a.remainder(b), numeric, np_remainder, |a, b, _| a - b * floor_div(a, b)),
        ("maximum", |a, b| a.maximum(b), any_dtype, f64::max, |a, b, _| a.max(b)),
        ("minimum", |a, b| a.minimum(b), any_dtype, f64::min, |a, b, _| a.min(b)),
        ("fmax", |a, b| a.fmax(b), any_dtype, f64::max, |a, b, _| a.max(b)),
        ("fmin", |a, b| a.fmin(b), any_dtype, f64::min, |a, b, _| a.min(b)),
        ("arctan2", |a, b| a.arctan2(b), float, f64::atan2, no_int),
        ("hypot", |a, b| a.hypot(b), float, f64::hypot, no_int),
        ("copysign", |a, b| a.copysign(b), float, f64::copysign, no_int),
        ("nextafter", |a, b| a.nextafter(b), float, |_, _| unreachable!(), no_int),
        ("bitwise_and", |a, b| a.bitwise_and(b), int_or_bool, no_float, |a, b, _| a & b),
        ("bitwise_or", |a, b| a.bitwise_or(b), int_or_bool, no_float, |a, b, _| a | b),
        ("bitwise_xor", |a, b| a.bitwise_xor(b), int_or_bool, no_float, |a, b, _| a ^ b),
        ("left_shift", |a, b| a.left_shift(b), int, no_float, |a, b, d| shift(a, b, d, true)),
        ("right_shift", |a, b| a.right_shift(b), int, no_float, |a, b, d| shift(a, b, d, false)),
    ]
}

#[rustfmt::skip]
fn compare_table() -> Vec<(&'static str, BinOp, fn(f64, f64) -> bool)> {
    vec![
        ("equal", |a, b| a.eq(b), |a, b| a == b),
        ("not_equal", |a, b| a.ne(b), |a, b| a != b),
        ("less", |a, b| a.lt(b), |a, b| a < b),
        ("less_equal", |a, b| a.le(b), |a, b| a <= b),
        ("greater", |a, b| a.gt(b), |a, b| a > b),
        ("greater_equal", |a, b| a.ge(b), |a, b| a >= b),
        ("logical_and", |a, b| a.logical_and(b), |a, b| a != 0.0 && b != 0.0),
        ("logical_or", |a, b| a.logical_or(b), |a, b| a != 0.0 || b != 0.0),
        ("logical_xor", |a, b| a.logical_xor(b), |a, b| (a != 0.0) != (b != 0.0)),
    ]
}

#[test]
fn every_binary_op_against_every_dtype() {
    let Some(dev) = common::device() else { return };
    // (name, op, accepts, float reference, integer/bool reference)
    let table = binary_table();
    for dtype in ALL {
        if !common::supports(&dev, dtype, &format!("the {dtype} pass")) {
            continue;
        }
        let (ha, hb) = operands(dtype);
        let n = ha.len();
        let a = upload(&dev, &ha, &[n], dtype);
        let b = upload(&dev, &hb, &[n], dtype);
        for (name, op, accepts, fref, iref) in &table {
            let got = op(&a, &b);
            if !accepts(dtype) {
                assert_refused(name, dtype, got);
                continue;
            }
            let got = got.unwrap_or_else(|e| panic!("{name} {dtype}: {e}"));
            assert_eq!(got.dtype(), dtype, "{name} keeps {dtype}");
            if *name == "nextafter" {
                // Its reference depends on the dtype's spacing: tests/elementwise.rs checks it
                // exactly in f16, f32 and f64.
                continue;
            }
            let got = read(&got);
            // Shift counts are b's magnitudes spread over [0, 35] (past the width included).
            for i in 0..n {
                let want = if float(dtype) {
                    fref(ha[i], hb[i])
                } else {
                    wrap(iref(ha[i] as i64, hb[i] as i64, dtype), dtype)
                };
                // The operands make every float result but arctan2's and hypot's exact.
                let tol = if float(dtype) { ulps(dtype, name) } else { 0.0 };
                assert!(
                    common::err_units(got[i], want, 0.0, dtype) <= tol,
                    "{name} {dtype}: ({}, {}) gave {} want {want}",
                    ha[i],
                    hb[i],
                    got[i]
                );
            }
        }
        // Shifts with counts past the width, and power with non-negative exponents.
        if int(dtype) {
            let counts: Vec<f64> = (0..n).map(|i| (i % 36) as f64).collect();
            let c = upload(&dev, &counts, &[n], dtype);
            for (left, got) in [(true, a.left_shift(&c)), (false, a.right_shift(&c))] {
                let got = read(&got.unwrap());
                for i in 0..n {
                    let want = wrap(shift(ha[i] as i64, counts[i] as i64, dtype, left), dtype);
                    assert_eq!(got[i], want, "shift {dtype} {} by {}", ha[i], counts[i]);
                }
            }
        }
        let exps: Vec<f64> = (0..n).map(|i| (i % 5) as f64).collect();
        let e = upload(&dev, &exps, &[n], dtype);
        let pow = a.pow(&e);
        if numeric(dtype) {
            let got = read(&pow.unwrap());
            for i in 0..n {
                let want = if float(dtype) {
                    ha[i].powf(exps[i])
                } else {
                    wrap((ha[i] as i64).wrapping_pow(exps[i] as u32), dtype)
                };
                let tol = if float(dtype) {
                    ulps(dtype, "power")
                } else {
                    0.0
                };
                assert!(
                    common::err_units(got[i], want, 0.0, dtype) <= tol,
                    "power {dtype} {}^{}: {} want {want}",
                    ha[i],
                    exps[i],
                    got[i]
                );
            }
        } else {
            assert!(pow.unwrap_err().to_string().contains("bool"));
        }
        // True division: floats keep their dtype, integers and bools give a float (NumPy).
        let q = a.div(&b).unwrap_or_else(|e| panic!("divide {dtype}: {e}"));
        assert!(q.dtype().is_float(), "divide {dtype} gives {}", q.dtype());
        if float(dtype) {
            assert_eq!(q.dtype(), dtype);
        }
        // Float quotients by b = ±2^j are exact; integer ones round once in q's dtype.
        let qt = if float(dtype) { 0.0 } else { 0.5 };
        for (i, g) in read(&q).into_iter().enumerate() {
            let want = ha[i] / hb[i];
            if hb[i] == 0.0 {
                assert!(!g.is_finite() || g.is_nan(), "x/0 {dtype}");
                continue;
            }
            let u = common::err_units(g, want, 0.0, q.dtype());
            assert!(
                u <= qt,
                "divide {dtype}: {}/{} = {g} want {want} ({u:.2} ulps)",
                ha[i],
                hb[i]
            );
        }
    }
}

#[test]
fn every_comparison_and_logical_op_against_every_dtype() {
    let Some(dev) = common::device() else { return };
    let table = compare_table();
    for dtype in ALL {
        if !common::supports(&dev, dtype, &format!("the {dtype} pass")) {
            continue;
        }
        let (mut ha, hb) = operands(dtype);
        // Equal pairs and zeros, so every comparison sees both outcomes.
        for i in (0..ha.len()).step_by(5) {
            ha[i] = hb[i];
        }
        if dtype != DType::Bool {
            ha[2] = 0.0;
        }
        let n = ha.len();
        let a = upload(&dev, &ha, &[n], dtype);
        let b = upload(&dev, &hb, &[n], dtype);
        let (ha, hb) = (read(&a), read(&b));
        for (name, op, f) in &table {
            let got = op(&a, &b).unwrap_or_else(|e| panic!("{name} {dtype}: {e}"));
            assert_eq!(got.dtype(), DType::Bool, "{name} {dtype}");
            let want: Vec<bool> = (0..n).map(|i| f(ha[i], hb[i])).collect();
            assert_eq!(got.to_vec_bool().unwrap(), want, "{name} {dtype}");
        }
    }
}

type UnOp = fn(&Array) -> gpuarray::Result<Array>;

/// What NumPy gives for a unary op on a dtype among ours.
#[derive(Clone, Copy, PartialEq)]
enum Out {
    /// Same dtype as the input.
    Same,
    /// A bool array.
    Bool,
    /// Refused.
    Err,
}

#[rustfmt::skip]
fn unary_table() -> Vec<(&'static str, UnOp, fn(f64) -> f64, (f64, f64), fn(DType) -> Out)> {
    vec![
        ("negative", |a| a.neg(), |x| -x, (-5.0, 5.0), numbers),
        ("absolute", |a| a.abs(), f64::abs, (-5.0, 5.0), |_| Out::Same),
        ("sign", |a| a.sign(), f64::signum, (-5.0, 5.0), numbers),
        ("sqrt", |a| a.sqrt(), f64::sqrt, (0.0, 50.0), floats),
        ("rsqrt", |a| a.rsqrt(), |x| 1.0 / x.sqrt(), (0.1, 50.0), floats),
        ("exp", |a| a.exp(), f64::exp, (-10.0, 10.0), floats),
        ("exp2", |a| a.exp2(), f64::exp2, (-10.0, 10.0), floats),
        ("expm1", |a| a.expm1(), f64::exp_m1, (-2.0, 2.0), floats),
        ("log", |a| a.log(), f64::ln, (0.01, 100.0), floats),
        ("log2", |a| a.log2(), f64::log2, (0.01, 100.0), floats),
        ("log10", |a| a.log10(), f64::log10, (0.01, 100.0), floats),
        ("log1p", |a| a.log1p(), f64::ln_1p, (-0.5, 2.0), floats),
        ("sin", |a| a.sin(), f64::sin, (-6.0, 6.0), floats),
        ("cos", |a| a.cos(), f64::cos, (-6.0, 6.0), floats),
        ("tan", |a| a.tan(), f64::tan, (-1.2, 1.2), floats),
        ("arcsin", |a| a.asin(), f64::asin, (-0.99, 0.99), floats),
        ("arccos", |a| a.acos(), f64::acos, (-0.99, 0.99), floats),
        ("arctan", |a| a.atan(), f64::atan, (-20.0, 20.0), floats),
        ("arcsinh", |a| a.asinh(), f64::asinh, (-20.0, 20.0), floats),
        ("arccosh", |a| a.acosh(), f64::acosh, (1.0, 20.0), floats),
        ("arctanh", |a| a.atanh(), f64::atanh, (-0.99, 0.99), floats),
        ("sinh", |a| a.sinh(), f64::sinh, (-5.0, 5.0), floats),
        ("cosh", |a| a.cosh(), f64::cosh, (-5.0, 5.0), floats),
        ("tanh", |a| a.tanh(), f64::tanh, (-5.0, 5.0), floats),
        ("sigmoid", |a| a.sigmoid(), |x| 1.0 / (1.0 + (-x).exp()), (-20.0, 20.0), floats),
        ("floor", |a| a.floor(), f64::floor, (-5.0, 5.0), numbers),
        ("ceil", |a| a.ceil(), f64::ceil, (-5.0, 5.0), numbers),
        ("round", |a| a.round(), f64::round_ties_even, (-5.0, 5.0), numbers),
        ("trunc", |a| a.trunc(), f64::trunc, (-5.0, 5.0), numbers),
        ("square", |a| a.square(), |x| x * x, (-5.0, 5.0), numbers),
        ("reciprocal", |a| a.reciprocal(), |x| 1.0 / x, (0.5, 5.0), numbers),
        ("relu", |a| a.relu(), |x| x.max(0.0), (-5.0, 5.0), numbers),
        ("invert", |a| a.bitwise_not(), |_| unreachable!(), (0.0, 1.0), ints_bools),
        ("isnan", |a| a.isnan(), |x| x.is_nan() as i32 as f64, (-5.0, 5.0), |_| Out::Bool),
        ("isinf", |a| a.isinf(), |x| x.is_infinite() as i32 as f64, (-5.0, 5.0), |_| Out::Bool),
        ("isfinite", |a| a.isfinite(), |x| x.is_finite() as i32 as f64, (-5.0, 5.0), |_| Out::Bool),
        ("logical_not", |a| a.logical_not(), |x| (x == 0.0) as i32 as f64, (-2.0, 2.0), |_| Out::Bool),
        ("signbit", |a| a.signbit(), |x| x.is_sign_negative() as i32 as f64, (-5.0, 5.0), |_| Out::Bool),
    ]
}

#[test]
fn every_unary_op_against_every_dtype() {
    let Some(dev) = common::device() else { return };
    // (name, op, float reference on its domain, input range for floats, result kind per dtype)
    let table = unary_table();
    let n = 67; // not a multiple of 4: the strided kernel; the vec4 one is covered elsewhere
    for dtype in ALL {
        if !common::supports(&dev, dtype, &format!("the {dtype} pass")) {
            continue;
        }
        for (name, op, fref, (lo, hi), out) in &table {
            let h: Vec<f64> = match dtype {
                DType::Bool => (0..n).map(|i| (i % 2) as f64).collect(),
                DType::I32 => values(n, 7, -100.0, 100.0)
                    .iter()
                    .map(|x| x.trunc())
                    .collect(),
                DType::U32 => values(n, 8, 0.0, 1000.0)
                    .iter()
                    .map(|x| x.trunc())
                    .collect(),
                _ => values(n, name.len() as u64, *lo, *hi),
            };
            let a = upload(&dev, &h, &[n], dtype);
            let x = read(&a);
            let got = op(&a);
            let expect = out(dtype);
            if expect == Out::Err {
                assert_refused(name, dtype, got);
                continue;
            }
            let got = got.unwrap_or_else(|e| panic!("{name} {dtype}: {e}"));
            let want_dtype = if expect == Out::Bool {
                DType::Bool
            } else {
                dtype
            };
            assert_eq!(got.dtype(), want_dtype, "{name} {dtype}");
            let got = read(&got);
            for i in 0..n {
                let want = if float(dtype) || expect == Out::Bool {
                    fref(x[i])
                } else {
                    // Integers and bools: exact, NumPy's integer meaning of the op.
                    let v = x[i] as i64;
                    let r = match *name {
                        "negative" => -v,
                        "absolute" => v.abs(),
                        "sign" => v.signum(),
                        "square" => v * v,
                        "reciprocal" => {
                            if v == 0 {
                                0
                            } else {
                                1 / v
                            }
                        }
                        "relu" => v.max(0),
                        "invert" if dtype == DType::Bool => (v == 0) as i64,
                        "invert" => !v,
                        // floor, ceil, round, trunc leave integers as they are.
                        _ => v,
                    };
                    wrap(r, dtype)
                };
                let tol = if float(dtype) && expect == Out::Same {
                    ulps(dtype, name)
                } else {
                    0.0
                };
                assert!(
                    common::err_units(got[i], want, 0.0, dtype) <= tol,
                    "{name} {dtype}({}) = {} want {want}",
                    x[i],
                    got[i]
                );
            }
        }
    }
}

type Red = fn(&Array) -> gpuarray::Result<Array>;

/// Reductions along axis 1 of a (5, 13) array, every dtype.
#[test]
fn every_reduction_against_every_dtype() {
    let Some(dev) = common::device() else { return };
    let (r, c) = (5usize, 13usize);
    // (name, op, accepts, reference over one row)
    #[rustfmt::skip]
    let table: Vec<(&str, Red, fn(DType) -> bool, fn(&[f64]) -> Vec<f64>)> = vec![
        ("sum", |a| a.sum(1, false), any_dtype, |v| vec![v.iter().sum()]),
        ("prod", |a| a.prod(1, false), any_dtype, |v| vec![v.iter().product()]),
        ("max", |a| a.max(1, false), any_dtype, |v| vec![v.iter().cloned().fold(f64::MIN, f64::max)]),
        ("min", |a| a.min(1, false), any_dtype, |v| vec![v.iter().cloned().fold(f64::MAX, f64::min)]),
        ("mean", |a| a.mean(1, false), any_dtype, |v| vec![mean(v)]),
        ("var", |a| a.var(1, 1, false), any_dtype, |v| vec![sq_dev(v) / (v.len() - 1) as f64]),
        ("std", |a| a.std(1, 0, false), any_dtype, |v| vec![(sq_dev(v) / v.len() as f64).sqrt()]),
        ("argmax", |a| a.argmax(Some(1), false), any_dtype, |v| vec![first(v, f64::max)]),
        ("argmin", |a| a.argmin(Some(1), false), any_dtype, |v| vec![first(v, f64::min)]),
        ("any", |a| a.any(1, false), any_dtype, |v| vec![v.iter().any(|&x| x != 0.0) as i32 as f64]),
        ("all", |a| a.all(1, false), any_dtype, |v| vec![v.iter().all(|&x| x != 0.0) as i32 as f64]),
        ("cumsum", |a| a.cumsum(Some(1)), any_dtype, |v| v.iter().scan(0.0, |s, &x| { *s += x; Some(*s) }).collect()),
        ("cumprod", |a| a.cumprod(Some(1)), any_dtype, |v| v.iter().scan(1.0, |s, &x| { *s *= x; Some(*s) }).collect()),
        ("logsumexp", |a| a.logsumexp(1, false), float, |v| vec![v.iter().map(|x| x.exp()).sum::<f64>().ln()]),
        ("softmax", |a| a.softmax(1), float, |v| {
            let s: f64 = v.iter().map(|x| x.exp()).sum();
            v.iter().map(|x| x.exp() / s).collect()
        }),
    ];
    for dtype in ALL {
        if !common::supports(&dev, dtype, &format!("the {dtype} pass")) {
            continue;
        }
        let h: Vec<f64> = match dtype {
            DType::Bool => (0..r * c)
                .map(|i| (i % 3 != 0 && i % 13 != 4) as i32 as f64)
                .collect(),
            // Small magnitudes so products and sums stay exact in every dtype.
            DType::U32 => (0..r * c).map(|i| (1 + i % 3) as f64).collect(),
            _ => (0..r * c)
                .map(|i| {
                    [1.0, -2.0, 1.5, 3.0, -0.5, 2.0, 1.0][i % 7]
                        * if i % 11 == 0 { 2.0 } else { 1.0 }
                })
                .collect(),
        };
        let h: Vec<f64> = if int(dtype) {
            h.iter().map(|x| x.trunc()).collect()
        } else {
            h
        };
        let a = upload(&dev, &h, &[r, c], dtype);
        for (name, op, accepts, f) in &table {
            let got = op(&a);
            if !accepts(dtype) {
                assert_refused(name, dtype, got);
                continue;
            }
            let got = got.unwrap_or_else(|e| panic!("{name} {dtype}: {e}"));
            // Sums, products and extrema of these small values are exact in every dtype (f16
            // included); the rest round in the result's dtype (f64 for integer means, or f32 on
            // adapters without f64).
            let out = got.dtype();
            let exact = !out.is_float()
                || matches!(*name, "sum" | "max" | "min" | "cumsum" | "prod" | "cumprod");
            let got = read(&got);
            let want: Vec<f64> = (0..r).flat_map(|i| f(&h[i * c..(i + 1) * c])).collect();
            assert_eq!(got.len(), want.len(), "{name} {dtype}");
            // In ulps of the result: f16 accumulates in f32 and rounds once (2; 0.94 measured,
            // softmax); f32 and f64 round each of the c = 13 terms of a row once (c ulps), and
            // f32's exp adds its 8 (softmax and logsumexp; 2.7 measured). Integer and bool means
            // round in f64 (or f32).
            let tol = match (exact, out, *name) {
                (true, _, _) => 0.0,
                (_, DType::F16, _) => 2.0,
                (_, DType::F32, "softmax" | "logsumexp") => c as f64 + 8.0,
                _ => c as f64,
            };
            for (g, w) in got.iter().zip(&want) {
                let u = common::err_units(*g, *w, 0.0, out);
                assert!(
                    u <= tol,
                    "{name} {dtype}: {got:?} want {want:?} ({u:.2} ulps > {tol})"
                );
            }
        }
    }
}

#[test]
fn unsupported_dtype_errors_leave_the_device_clean() {
    let Some(dev) = common::device() else { return };
    let base = dev.memory_stats().in_use_bytes;
    let a = upload(&dev, &[1.0, 2.0, 3.0], &[3], DType::I32);
    let keep = read(&a);
    assert_err!(a.exp(), Error::Unsupported { op: "exp", .. }, "exp");
    assert_err!(
        a.arctan2(&a),
        Error::Unsupported { op: "arctan2", .. },
        "arctan2"
    );
    assert_err!(
        a.softmax(0),
        Error::Unsupported { op: "softmax", .. },
        "softmax"
    );
    assert_eq!(
        read(&a),
        keep,
        "arrays made before an error still read back"
    );
    drop(a);
    common::check_clean(&dev, base);
}

/// The ops the crate lists (its op table) are exactly the ops these tables test, and each is
/// accepted for exactly the dtypes the tables (written from NumPy's rules) accept: a new row in
/// the op table without a row here, or a changed allow-list, fails.
#[test]
fn the_tables_here_cover_the_op_table() {
    // Ops tested outside the three tables: power and divide in the binary test itself; the
    // element-wise functions of tests/elementwise_functions.rs with their references there.
    let elsewhere: &[(&str, fn(DType) -> bool)] = &[
        ("power", numeric),
        ("divide", any_dtype),
        ("floor_divide", numeric),
        ("fmod", numeric),
        ("heaviside", float),
        ("logaddexp", float),
        ("logaddexp2", float),
        ("gcd", int),
        ("lcm", int),
        ("cbrt", float),
        ("rint", float),
        ("deg2rad", float),
        ("rad2deg", float),
    ];
    let binary = binary_table();
    let compare = compare_table();
    let unary = unary_table();
    let mut seen = Vec::new();
    for op in gpuarray::elementwise_ops() {
        let accepts: Box<dyn Fn(DType) -> bool> =
            if let Some(row) = binary.iter().find(|r| r.0 == op.numpy) {
                Box::new(row.2)
            } else if compare.iter().any(|r| r.0 == op.numpy) {
                Box::new(any_dtype)
            } else if let Some(row) = unary.iter().find(|r| r.0 == op.numpy) {
                let out = row.4;
                Box::new(move |d| out(d) != Out::Err)
            } else if let Some(row) = elsewhere.iter().find(|r| r.0 == op.numpy) {
                Box::new(row.1)
            } else {
                panic!(
                    "{} ({}) is in the op table but not tested here",
                    op.numpy, op.name
                );
            };
        for d in ALL {
            assert_eq!(op.supports(d), accepts(d), "{} on {d}", op.numpy);
        }
        seen.push(op.numpy);
    }
    for name in binary
        .iter()
        .map(|r| r.0)
        .chain(compare.iter().map(|r| r.0))
        .chain(unary.iter().map(|r| r.0))
    {
        assert!(
            seen.contains(&name),
            "{name} is tested here but not in the op table"
        );
    }
}
