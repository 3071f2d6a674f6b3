//! Complex element-wise ops against NumPy's answers on a grid of ordinary and special values
//! (`tests/golden/complex/values.txt`, written by `tests/golden/complex/make.py`).

use super::common;
use gpuarray::{Array, Complex32, Complex64, DType, Device};
use std::collections::BTreeMap;

type C = Complex64;

struct Case {
    a: C,
    b: Option<C>,
    want: C,
}

fn golden() -> BTreeMap<(String, String), Vec<Case>> {
    let text = include_str!("../golden/complex/values.txt");
    let mut out: BTreeMap<(String, String), Vec<Case>> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (lhs, rhs) = line.split_once(" -> ").expect("a golden line");
        let w: Vec<&str> = lhs.split(' ').collect();
        let f = |s: &str| s.parse::<f64>().expect("a float");
        let r: Vec<f64> = rhs.split(' ').map(f).collect();
        let case = Case {
            a: C::new(f(w[2]), f(w[3])),
            b: (w.len() == 6).then(|| C::new(f(w[4]), f(w[5]))),
            want: C::new(r[0], r[1]),
        };
        out.entry((w[0].to_string(), w[1].to_string()))
            .or_default()
            .push(case);
    }
    out
}

fn upload(dev: &Device, v: &[C], dtype: DType) -> Array {
    if dtype == DType::C64 {
        let v: Vec<Complex32> = v
            .iter()
            .map(|z| Complex32::new(z.re as f32, z.im as f32))
            .collect();
        Array::from_slice(dev, &v, &[v.len()]).unwrap()
    } else {
        Array::from_slice(dev, v, &[v.len()]).unwrap()
    }
}

/// Any result as complex f64 (real results with im 0, bool as 0/1).
fn read(a: &Array) -> Vec<C> {
    match a.dtype() {
        DType::C64 => a
            .to_vec::<Complex32>()
            .unwrap()
            .iter()
            .map(|z| C::new(z.re as f64, z.im as f64))
            .collect(),
        DType::C128 => a.to_vec::<C>().unwrap(),
        DType::F32 => a
            .to_vec::<f32>()
            .unwrap()
            .iter()
            .map(|&x| C::new(x as f64, 0.0))
            .collect(),
        DType::F64 => a
            .to_vec::<f64>()
            .unwrap()
            .iter()
            .map(|&x| C::new(x, 0.0))
            .collect(),
        DType::Bool => a
            .to_vec_bool()
            .unwrap()
            .iter()
            .map(|&b| C::new(b as u8 as f64, 0.0))
            .collect(),
        d => panic!("{d}"),
    }
}

fn run(op: &str, a: &Array, b: Option<&Array>) -> Array {
    let r = match (op, b) {
        ("negative", None) => a.neg(),
        ("conjugate", None) => a.conj(),
        ("square", None) => a.square(),
        ("reciprocal", None) => a.reciprocal(),
        ("sign", None) => a.sign(),
        ("sqrt", None) => a.sqrt(),
        ("exp", None) => a.exp(),
        ("log", None) => a.log(),
        ("sin", None) => a.sin(),
        ("cos", None) => a.cos(),
        ("tan", None) => a.tan(),
        ("sinh", None) => a.sinh(),
        ("cosh", None) => a.cosh(),
        ("tanh", None) => a.tanh(),
        ("absolute", None) => a.abs(),
        ("angle", None) => a.angle(false),
        ("isnan", None) => a.isnan(),
        ("isinf", None) => a.isinf(),
        ("isfinite", None) => a.isfinite(),
        ("exp2", None) => a.exp2(),
        ("expm1", None) => a.expm1(),
        ("log2", None) => a.log2(),
        ("log10", None) => a.log10(),
        ("log1p", None) => a.log1p(),
        ("arcsin", None) => a.asin(),
        ("arccos", None) => a.acos(),
        ("arctan", None) => a.atan(),
        ("arcsinh", None) => a.asinh(),
        ("arccosh", None) => a.acosh(),
        ("arctanh", None) => a.atanh(),
        ("logical_not", None) => a.logical_not(),
        ("add", Some(b)) => a.add(b),
        ("subtract", Some(b)) => a.sub(b),
        ("multiply", Some(b)) => a.mul(b),
        ("divide", Some(b)) => a.div(b),
        ("power", Some(b)) => a.pow(b),
        ("equal", Some(b)) => a.eq(b),
        ("not_equal", Some(b)) => a.ne(b),
        ("less", Some(b)) => a.lt(b),
        ("less_equal", Some(b)) => a.le(b),
        ("greater", Some(b)) => a.gt(b),
        ("greater_equal", Some(b)) => a.ge(b),
        ("maximum", Some(b)) => a.maximum(b),
        ("minimum", Some(b)) => a.minimum(b),
        ("fmax", Some(b)) => a.fmax(b),
        ("fmin", Some(b)) => a.fmin(b),
        ("logical_and", Some(b)) => a.logical_and(b),
        ("logical_or", Some(b)) => a.logical_or(b),
        ("logical_xor", Some(b)) => a.logical_xor(b),
        _ => panic!("no op {op}"),
    };
    r.unwrap()
}

/// Units of the part dtype's epsilon a finite result may differ from NumPy's, relative to its
/// magnitude: 0 for the exact ops, more for those through the math library (NumPy's own
/// functions are not correctly rounded either).
fn tolerance(op: &str) -> f64 {
    match op {
        "negative" | "conjugate" | "add" | "subtract" | "equal" | "not_equal" | "isnan"
        | "isinf" | "isfinite" | "logical_not" | "less" | "less_equal" | "greater"
        | "greater_equal" | "maximum" | "minimum" | "fmax" | "fmin" | "logical_and"
        | "logical_or" | "logical_xor" => 0.0,
        "multiply" | "square" | "absolute" => 2.0,
        "divide" | "reciprocal" | "sign" | "sqrt" => 4.0,
        "power" => 64.0,
        _ => 8.0,
    }
}

/// Whether `got` is NumPy's `want`: NaN for NaN (any sign), infinities and zeros exactly (the
/// sign of zero included), finite values within `tol`·ε·|want|.
fn same(got: C, want: C, tol: f64, eps: f64) -> bool {
    // The magnitude of the finite parts (an infinite part says nothing of the other's error).
    let scale = [want.re, want.im]
        .iter()
        .filter(|x| x.is_finite())
        .fold(0.0f64, |m, x| m.max(x.abs()));
    let part = |g: f64, w: f64| {
        if w.is_nan() {
            g.is_nan()
        } else if w.is_infinite() || w == 0.0 {
            g == w && g.is_sign_negative() == w.is_sign_negative()
        } else if tol == 0.0 {
            g == w
        } else {
            (g - w).abs() <= tol * eps * scale
        }
    };
    part(got.re, want.re) && part(got.im, want.im)
}

/// Cases outside what the math library promises, left out (each with its reason): float64
/// sin/cos/tan of arguments past 8.4e8 (math_f64.wgsl reduces them modulo the double nearest
/// 2π, not by Payne-Hanek), which the complex trigonometric, hyperbolic and exponential
/// functions take of one part (exp2 of ln 2 times it); and squares whose parts' squares overflow, where NumPy's own
/// answer depends on its CPU dispatch (−inf with fused multiply-adds, NaN without).
fn beyond_documented_range(op: &str, dtype: DType, c: &Case) -> bool {
    let trig_of = match op {
        "sin" | "cos" | "tan" => Some(c.a.re),
        "sinh" | "cosh" | "tanh" | "exp" | "expm1" => Some(c.a.im),
        "exp2" => Some(c.a.im * std::f64::consts::LN_2),
        _ => None,
    };
    let huge_trig =
        dtype == DType::C128 && trig_of.is_some_and(|t| t.is_finite() && t.abs() >= 8.4e8);
    let limit = if dtype == DType::C64 {
        f32::MAX as f64
    } else {
        f64::MAX
    }
    .sqrt();
    let square_overflows = op == "square"
        && c.a.re.abs().min(c.a.im.abs()) > limit
        && c.a.re.is_finite() != c.a.im.is_finite()
        || (op == "square" && c.a.re.abs() > limit && c.a.im.abs() > limit);
    huge_trig || square_overflows
}

#[test]
fn complex_ops_give_numpys_answers_on_special_and_ordinary_values() {
    let Some(dev) = common::device() else { return };
    let mut checked = 0;
    let mut complex128_ran = false;
    let mut failures = Vec::new();
    for ((op, dtype), cases) in golden() {
        let dtype = DType::from_numpy_name(&dtype).unwrap();
        if !dev.supports(dtype) || (dtype == DType::C128 && dev.info().f64 != "native") {
            println!("{op} {dtype} skipped: this adapter has no native float64");
            continue;
        }
        complex128_ran |= dtype == DType::C128;
        let eps = if dtype == DType::C64 {
            f32::EPSILON as f64
        } else {
            f64::EPSILON
        };
        let a = upload(&dev, &cases.iter().map(|c| c.a).collect::<Vec<_>>(), dtype);
        let b = cases[0].b.is_some().then(|| {
            upload(
                &dev,
                &cases.iter().map(|c| c.b.unwrap()).collect::<Vec<_>>(),
                dtype,
            )
        });
        let got = read(&run(&op, &a, b.as_ref()));
        for (c, g) in cases.iter().zip(&got) {
            if beyond_documented_range(&op, dtype, c) {
                continue;
            }
            checked += 1;
            if !same(*g, c.want, tolerance(&op), eps) {
                failures.push(format!(
                    "{op} {dtype} {} {:?} -> {g} (NumPy {})",
                    c.a, c.b, c.want
                ));
            }
        }
    }
    // complex64's ~7,100 cases run on every adapter; with native float64 complex128's too.
    assert!(
        checked > if complex128_ran { 10_000 } else { 7_000 },
        "{checked}"
    );
    // At most five lines per op and dtype.
    let mut shown: BTreeMap<String, usize> = BTreeMap::new();
    let report: Vec<&String> = failures
        .iter()
        .filter(|f| {
            let key: String = f.split(' ').take(2).collect::<Vec<_>>().join(" ");
            let n = shown.entry(key).or_default();
            *n += 1;
            *n <= 5
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {checked} differ from NumPy ({shown:?}):\n{}",
        failures.len(),
        report
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn broadcasting_scalars_views_parts_and_refusals() {
    let Some(dev) = common::device() else { return };
    let a = Array::from_slice(
        &dev,
        &[
            Complex32::new(1.0, 2.0),
            Complex32::new(-3.0, 0.5),
            Complex32::new(0.0, -1.0),
        ],
        &[3, 1],
    )
    .unwrap();
    let b = Array::from_slice(
        &dev,
        &[Complex32::new(2.0, 0.0), Complex32::new(0.0, 1.0)],
        &[2],
    )
    .unwrap();
    // (3, 1) × (2,) → (3, 2), against the host's products.
    let p = a.mul(&b).unwrap();
    assert_eq!(p.shape(), &[3, 2]);
    let (av, bv) = (
        a.to_vec::<Complex32>().unwrap(),
        b.to_vec::<Complex32>().unwrap(),
    );
    let want: Vec<Complex32> = av
        .iter()
        .flat_map(|x| bv.iter().map(move |y| x * y))
        .collect();
    assert_eq!(p.to_vec::<Complex32>().unwrap(), want);
    // A real scalar on either side: 2 − z and z / 2.
    let l = (2.0 - &a).unwrap().to_vec::<Complex32>().unwrap();
    assert_eq!(
        l,
        av.iter()
            .map(|z| Complex32::new(2.0, 0.0) - z)
            .collect::<Vec<_>>()
    );
    let d = a.div(2.0).unwrap().to_vec::<Complex32>().unwrap();
    assert_eq!(d, av.iter().map(|z| z / 2.0).collect::<Vec<_>>());
    // A transposed view as an operand.
    let t = p.t();
    let s = t.add(&t).unwrap().to_vec::<Complex32>().unwrap();
    let tv = t.to_vec::<Complex32>().unwrap();
    assert_eq!(s, tv.iter().map(|z| z + z).collect::<Vec<_>>());
    // real/imag are views; conj and angle (degrees).
    assert_eq!(a.real().to_vec::<f32>().unwrap(), vec![1.0, -3.0, 0.0]);
    assert_eq!(
        a.imag().unwrap().to_vec::<f32>().unwrap(),
        vec![2.0, 0.5, -1.0]
    );
    assert!(a.real().may_share_memory(&a));
    assert_eq!(
        a.conj().unwrap().to_vec::<Complex32>().unwrap(),
        av.iter().map(|z| z.conj()).collect::<Vec<_>>()
    );
    let deg = a.angle(true).unwrap().to_vec::<f32>().unwrap();
    for (g, z) in deg.iter().zip(&av) {
        assert!((g - z.arg().to_degrees()).abs() < 1e-4, "{g} {z}");
    }
    let r = Array::from_slice(&dev, &[-2.0f32, 3.0], &[2]).unwrap();
    assert_eq!(
        r.angle(false).unwrap().to_vec::<f32>().unwrap(),
        vec![std::f32::consts::PI, 0.0]
    );
    assert_eq!(r.imag().unwrap().to_vec::<f32>().unwrap(), vec![0.0, 0.0]);
    // Mixed dtypes need astype, as for real arrays; ops NumPy lacks for complex are refused by
    // name, and the operands still read back.
    let f = Array::from_slice(&dev, &[1.0f32, 2.0], &[2]).unwrap();
    assert!(matches!(
        b.add(&f),
        Err(gpuarray::Error::DTypeMismatch { .. })
    ));
    for e in [
        a.floor().unwrap_err(),
        a.arctan2(&a).unwrap_err(),
        a.remainder(&a).unwrap_err(),
    ] {
        assert!(matches!(e, gpuarray::Error::Unsupported { .. }), "{e}");
        assert!(e.to_string().contains("complex"), "{e}");
    }
    assert_eq!(a.to_vec::<Complex32>().unwrap(), av);
}

#[test]
fn reductions_and_matmul_of_complex_arrays_match_the_host() {
    let Some(dev) = common::device() else { return };
    let (m, k, n) = (5, 7, 3);
    let z =
        |i: usize, s: f32| Complex32::new((i as f32 * 0.37 + s).sin(), (i as f32 * 0.11 - s).cos());
    let av: Vec<Complex32> = (0..m * k).map(|i| z(i, 0.2)).collect();
    let bv: Vec<Complex32> = (0..k * n).map(|i| z(i, 1.3)).collect();
    let a = Array::from_slice(&dev, &av, &[m, k]).unwrap();
    let b = Array::from_slice(&dev, &bv, &[k, n]).unwrap();
    let close = |g: &[Complex32], w: &[Complex32], tol: f32| {
        g.len() == w.len()
            && g.iter()
                .zip(w)
                .all(|(x, y)| (x - y).norm() <= tol * (1.0 + y.norm()))
    };
    // matmul against the host's sum of products.
    let mut want = vec![Complex32::new(0.0, 0.0); m * n];
    for i in 0..m {
        for j in 0..n {
            want[i * n + j] = (0..k).map(|t| av[i * k + t] * bv[t * n + j]).sum();
        }
    }
    let c = a.matmul(&b).unwrap();
    assert_eq!((c.dtype(), c.shape()), (DType::C64, &[m, n][..]));
    assert!(close(&c.to_vec::<Complex32>().unwrap(), &want, 1e-5));
    // sum and mean over each axis, cumsum along rows.
    let s0: Vec<Complex32> = (0..k)
        .map(|j| (0..m).map(|i| av[i * k + j]).sum())
        .collect();
    assert!(close(
        &a.sum(0, false).unwrap().to_vec::<Complex32>().unwrap(),
        &s0,
        1e-6
    ));
    let mean1: Vec<Complex32> = (0..m)
        .map(|i| (0..k).map(|j| av[i * k + j]).sum::<Complex32>() / k as f32)
        .collect();
    assert!(close(
        &a.mean(-1, false).unwrap().to_vec::<Complex32>().unwrap(),
        &mean1,
        1e-6
    ));
    let total: Complex32 = av.iter().sum();
    assert!(close(
        &a.sum(gpuarray::Axes::All, false)
            .unwrap()
            .to_vec::<Complex32>()
            .unwrap(),
        &[total],
        1e-5
    ));
    let cs = a.cumsum(Some(1)).unwrap().to_vec::<Complex32>().unwrap();
    let mut want_cs = av.clone();
    for i in 0..m {
        for j in 1..k {
            want_cs[i * k + j] = want_cs[i * k + j - 1] + av[i * k + j];
        }
    }
    assert!(close(&cs, &want_cs, 1e-5));
    // var is real: the mean of |x − mean|².
    let v = a.var(gpuarray::Axes::All, 1, false).unwrap();
    assert_eq!(v.dtype(), DType::F32);
    let mu = total / (m * k) as f32;
    let want_v: f32 = av.iter().map(|x| (x - mu).norm_sqr()).sum::<f32>() / (m * k - 1) as f32;
    assert!((v.item::<f32>().unwrap() - want_v).abs() < 1e-5 * want_v);
    assert!(
        (a.std(gpuarray::Axes::All, 1, false)
            .unwrap()
            .item::<f32>()
            .unwrap()
            - want_v.sqrt())
        .abs()
            < 1e-5
    );
}

#[test]
fn where_isclose_and_vdot_take_complex_operands() {
    let Some(dev) = common::device() else { return };
    let av = [
        Complex32::new(1.0, 2.0),
        Complex32::new(-3.0, 0.5),
        Complex32::new(0.0, -1.0),
    ];
    let bv = [
        Complex32::new(1.0, 2.0),
        Complex32::new(2.0, 0.0),
        Complex32::new(0.0, -1.0 + 1e-7),
    ];
    let a = Array::from_slice(&dev, &av, &[3]).unwrap();
    let b = Array::from_slice(&dev, &bv, &[3]).unwrap();
    let m = Array::from_bools(&dev, &[true, false, true], &[3]).unwrap();
    let w = gpuarray::where_(&m, &a, &b)
        .unwrap()
        .to_vec::<Complex32>()
        .unwrap();
    assert_eq!(w, vec![av[0], bv[1], av[2]]);
    let s = gpuarray::where_(&m, &a, 0.5)
        .unwrap()
        .to_vec::<Complex32>()
        .unwrap();
    assert_eq!(s, vec![av[0], Complex32::new(0.5, 0.0), av[2]]);
    assert_eq!(
        a.isclose(&b, 1e-5, 1e-8, false)
            .unwrap()
            .to_vec_bool()
            .unwrap(),
        vec![true, false, true]
    );
    // vdot conjugates its first operand: Σ conj(a)·b.
    let v = a.vdot(&b).unwrap().to_vec::<Complex32>().unwrap();
    let want: Complex32 = av.iter().zip(&bv).map(|(x, y)| x.conj() * y).sum();
    assert!((v[0] - want).norm() < 1e-5, "{v:?} vs {want}");
}
