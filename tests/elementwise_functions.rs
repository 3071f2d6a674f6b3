//! The element-wise functions NumPy users reach for after arithmetic — cbrt, rint, fmod,
//! deg2rad/rad2deg, logaddexp/logaddexp2, heaviside, gcd/lcm, nan_to_num — at their special
//! values (checked by bits against what NumPy 2.4 returns), cbrt over every f32 magnitude against
//! an f64 reference, and the dtypes each refuses. Random-data checks against f64 references are in
//! `tests/elementwise.rs` with the other ops.

mod common;

use common::{read, upload, xorshift};
use gpuarray::{Array, DType, Device};

fn f32s(dev: &Device, v: &[f32]) -> Array {
    Array::from_slice(dev, v, &[v.len()]).unwrap()
}

fn bits(a: &Array) -> Vec<u32> {
    a.to_vec::<f32>()
        .unwrap()
        .iter()
        .map(|x| x.to_bits())
        .collect()
}

fn want_bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn cbrt_is_within_one_ulp_over_every_magnitude() {
    let Some(dev) = common::device() else { return };
    // 2^18 inputs: bit patterns spread over every finite magnitude (subnormals included), both
    // signs, plus exact cubes and the specials.
    let mut next = xorshift(0xcb27);
    let mut x: Vec<f32> = (0..1 << 18)
        .map(|_| f32::from_bits((next() as u32) & 0xff7f_ffff))
        .filter(|v| v.is_finite())
        .collect();
    for k in -49..=42 {
        let c = 2f32.powi(k);
        x.extend([c * c * c, -(c * c * c)]);
    }
    x.extend([27.0, -8.0, 1e-45, f32::MIN_POSITIVE, f32::MAX]);
    let got = f32s(&dev, &x).cbrt().unwrap().to_vec::<f32>().unwrap();
    let mut worst = (0.0f64, 0.0f32);
    for (&v, &g) in x.iter().zip(&got) {
        let want = f64::from(v).cbrt();
        let ulp = f64::from((want as f32).abs().next_up() - (want as f32).abs());
        let err = (f64::from(g) - want).abs() / ulp;
        if err > worst.0 {
            worst = (err, v);
        }
    }
    println!("cbrt f32: worst {:.3} ulps at {:e}", worst.0, worst.1);
    assert!(
        worst.0 <= 1.0,
        "cbrt({:e}) is {:.3} ulps off",
        worst.1,
        worst.0
    );
    let specials = [0.0, -0.0, f32::INFINITY, -f32::INFINITY, f32::NAN];
    let got = bits(&f32s(&dev, &specials).cbrt().unwrap());
    assert_eq!(got[..4], want_bits(&specials)[..4]);
    assert!(f32::from_bits(got[4]).is_nan());
    // f64, where the adapter has it: the same algorithm in f64 arithmetic.
    if common::supports(&dev, DType::F64, "cbrt f64") {
        let h: Vec<f64> = x
            .iter()
            .filter(|v| v.abs() >= f32::MIN_POSITIVE)
            .map(|&v| f64::from(v) * 1.000_000_123)
            .collect();
        let got = read(&upload(&dev, &h, &[h.len()], DType::F64).cbrt().unwrap());
        let want: Vec<f64> = h.iter().map(|v| v.cbrt()).collect();
        common::assert_rel(&got, &want, DType::F64, 1.0, "cbrt f64");
    }
}

#[test]
fn special_values_match_numpy_by_bits() {
    let Some(dev) = common::device() else { return };
    let (nan, inf) = (f32::NAN, f32::INFINITY);
    // deg2rad/rad2deg: NumPy multiplies by NPY_PIf / 180.0f and 180.0f / NPY_PIf, each rounded
    // to f32 (the second is not the f32 nearest 180/pi).
    let x = [1.0f32, 90.0, -720.5, 1e-40, 3.0e38];
    let d2r = std::f32::consts::PI / 180.0;
    let r2d = 180.0 / std::f32::consts::PI;
    assert_eq!(r2d.to_bits(), 1_113_927_392);
    let a = f32s(&dev, &x);
    let want: Vec<f32> = x.iter().map(|v| v * d2r).collect();
    let got = a.deg2rad().unwrap().to_vec::<f32>().unwrap();
    // 1e-40 * d2r is subnormal: a driver may flush subnormal products.
    assert_eq!(want_bits(&got)[..3], want_bits(&want)[..3], "deg2rad");
    let want: Vec<f32> = x.iter().map(|v| v * r2d).collect();
    let got = bits(&a.rad2deg().unwrap());
    assert_eq!(got[..3], want_bits(&want)[..3], "rad2deg");
    assert_eq!(f32::from_bits(got[4]), f32::INFINITY, "rad2deg overflows");
    // rint: halves to even, signed zeros kept.
    let got = bits(
        &f32s(&dev, &[0.5, 1.5, 2.5, -0.5, -2.5, -0.2, 1e30])
            .rint()
            .unwrap(),
    );
    assert_eq!(got, want_bits(&[0.0, 2.0, 2.0, -0.0, -2.0, -0.0, 1e30]));
    // heaviside(x, h0).
    let xs = f32s(&dev, &[-0.0, 0.0, nan, -inf, inf, -1e-45, 3.0]);
    let h0 = f32s(&dev, &[0.5, nan, 0.5, 0.5, 0.5, 0.5, 0.5]);
    let got = xs.heaviside(&h0).unwrap().to_vec::<f32>().unwrap();
    assert_eq!(got[0], 0.5);
    assert!(got[1].is_nan() && got[2].is_nan());
    // -1e-45 is a subnormal, which a flushing driver reads as 0: h0 then, as NumPy under FTZ.
    assert!(got[5] == 0.0 || got[5] == 0.5);
    assert_eq!(
        want_bits(&[got[3], got[4], got[6]]),
        want_bits(&[0.0, 1.0, 1.0])
    );
    // logaddexp: equal infinities, opposite infinities, NaN, no overflow at 1000.
    let a = f32s(&dev, &[inf, -inf, inf, nan, 1000.0, -1000.0, 1.0, 88.0]);
    let b = f32s(&dev, &[-inf, -inf, inf, 1.0, 1000.0, 0.0, 2.0, 88.0]);
    let got = a.logaddexp(&b).unwrap().to_vec::<f32>().unwrap();
    assert_eq!(got[..3], [inf, -inf, inf]);
    assert!(got[3].is_nan());
    assert_eq!(got[4], 1000.0 + std::f32::consts::LN_2);
    assert_eq!(got[5], 0.0);
    let want = (1f64.exp() + 2f64.exp()).ln();
    assert!((f64::from(got[6]) - want).abs() <= 2.0 * f64::from(f32::EPSILON) * want);
    assert_eq!(got[7], 88.0 + std::f32::consts::LN_2);
    let got = a.logaddexp2(&b).unwrap().to_vec::<f32>().unwrap();
    assert_eq!(got[..3], [inf, -inf, inf]);
    assert_eq!(got[4], 1001.0);
    assert_eq!(got[5], 0.0);
    // fmod: the dividend's sign, exact for large quotients, NaN for a zero divisor or an
    // infinite dividend, the dividend itself for an infinite divisor.
    let a = f32s(&dev, &[5.5, -5.5, 1e30, 7.0, inf, 2.0, -0.0, -6.0]);
    let b = f32s(&dev, &[-2.0, 2.0, 3.0, 0.0, 2.0, inf, 1.0, 3.0]);
    let got = bits(&a.fmod(&b).unwrap());
    let want: Vec<f32> = [5.5f32, -5.5, 1e30, 7.0, inf, 2.0, -0.0, -6.0]
        .iter()
        .zip([-2.0f32, 2.0, 3.0, 0.0, 2.0, inf, 1.0, 3.0])
        .map(|(x, y)| x % y)
        .collect();
    for (i, (&g, w)) in got.iter().zip(&want).enumerate() {
        let g = f32::from_bits(g);
        assert!(
            (g.is_nan() && w.is_nan()) || g.to_bits() == w.to_bits(),
            "fmod [{i}]: {g} vs {w}"
        );
    }
    // nan_to_num with NumPy's defaults, in every float dtype the adapter has.
    let specials = [nan, inf, -inf, -0.0, 2.5];
    let got = f32s(&dev, &specials)
        .nan_to_num(0.0, None, None)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    assert_eq!(
        want_bits(&got),
        want_bits(&[0.0, f32::MAX, f32::MIN, -0.0, 2.5])
    );
    let h: Vec<f64> = specials.iter().map(|&v| f64::from(v)).collect();
    for (dtype, big) in [
        (DType::F16, f64::from(gpuarray::f16::MAX)),
        (DType::F64, f64::MAX),
    ] {
        if common::supports(&dev, dtype, "nan_to_num") {
            let a = upload(&dev, &h, &[5], dtype);
            let got = read(&a.nan_to_num(-1.0, Some(7.0), None).unwrap());
            assert_eq!(got, vec![-1.0, 7.0, -big, 0.0, 2.5], "{dtype}");
        }
    }
    let ints = Array::from_slice(&dev, &[3i32, -4], &[2]).unwrap();
    let got = ints.nan_to_num(0.0, None, None).unwrap();
    assert_eq!(got.to_vec::<i32>().unwrap(), vec![3, -4]);
}

#[test]
fn integer_fmod_gcd_and_lcm_follow_numpy() {
    let Some(dev) = common::device() else { return };
    let i = |v: &[i32]| Array::from_slice(&dev, v, &[v.len()]).unwrap();
    let a = i(&[i32::MIN, -7, -7, 7, 0, -12, i32::MIN, 65536, -6, 0]);
    let b = i(&[-1, 0, 3, -3, 0, 18, 0, 196_608, 4, 5]);
    // What NumPy 2.4 returns (fmod by 0 is 0 there, with a warning).
    assert_eq!(
        a.fmod(&b).unwrap().to_vec::<i32>().unwrap(),
        vec![0, 0, -1, 1, 0, -12, 0, 65536, -2, 0]
    );
    assert_eq!(
        a.gcd(&b).unwrap().to_vec::<i32>().unwrap(),
        vec![1, 7, 1, 1, 0, 6, i32::MIN, 65536, 2, 5]
    );
    assert_eq!(
        a.lcm(&b).unwrap().to_vec::<i32>().unwrap(),
        vec![i32::MIN, 0, 21, 21, 0, 36, 0, 196_608, 12, 0]
    );
    let u = |v: &[u32]| Array::from_slice(&dev, v, &[v.len()]).unwrap();
    let a = u(&[u32::MAX, 4_000_000_000, 12, 0]);
    let b = u(&[65535, 3_000_000_000, 0, 0]);
    assert_eq!(
        a.gcd(&b).unwrap().to_vec::<u32>().unwrap(),
        vec![65535, 1_000_000_000, 12, 0]
    );
    assert_eq!(
        a.fmod(&b).unwrap().to_vec::<u32>().unwrap(),
        vec![0, 1_000_000_000, 0, 0]
    );
    // lcm wraps like NumPy's: (4e9 / 1e9) * 3e9 mod 2^32.
    assert_eq!(
        a.lcm(&b).unwrap().to_vec::<u32>().unwrap(),
        vec![u32::MAX, 4u32.wrapping_mul(3_000_000_000), 0, 0]
    );
    // A scalar operand, and the free functions.
    let g = gpuarray::gcd(&i(&[12, 18, -27]), 6).unwrap();
    assert_eq!(g.to_vec::<i32>().unwrap(), vec![6, 6, 3]);
}

#[test]
fn each_function_refuses_the_dtypes_numpy_refuses_or_promotes() {
    let Some(dev) = common::device() else { return };
    let f = Array::from_slice(&dev, &[1.0f32, 2.0], &[2]).unwrap();
    let n = Array::from_slice(&dev, &[1i32, 2], &[2]).unwrap();
    let b = Array::from_bools(&dev, &[true, false], &[2]).unwrap();
    let cases: Vec<(&str, gpuarray::Result<Array>)> = vec![
        ("gcd", f.gcd(&f)),
        ("lcm", f.lcm(2.0)),
        ("gcd", b.gcd(&b)),
        ("cbrt", n.cbrt()),
        ("rint", n.rint()),
        ("deg2rad", n.deg2rad()),
        ("heaviside", n.heaviside(&n)),
        ("logaddexp", n.logaddexp(&n)),
        ("logaddexp2", n.logaddexp2(&n)),
        ("fmod", b.fmod(&b)),
    ];
    for (op, r) in cases {
        let e = r.expect_err(op).to_string();
        assert!(e.contains(op), "{op}: {e}");
    }
    // Arrays made before the refusals still read back.
    assert_eq!(f.to_vec::<f32>().unwrap(), vec![1.0, 2.0]);
}
