//! `nextafter` (NumPy's `np.nextafter`) in f16, f32 and f64, checked exactly against a reference
//! written here on the bits (C99's nextafter: NaN when either operand is NaN, `b` when the two
//! are equal, the smallest subnormal towards `b` from a zero, else one step of the bit pattern):
//! every pair of a set of special, boundary, subnormal and ordinary values, and an integer dtype
//! refused.

mod common;

use gpuarray::{Array, DType, f16};

/// C's nextafter for a format of `bits` width, on the bit patterns (`sign` the sign bit).
fn reference(
    a: u64,
    b: u64,
    sign: u64,
    is_nan: impl Fn(u64) -> bool,
    order: impl Fn(u64) -> i128,
) -> u64 {
    if is_nan(a) || is_nan(b) {
        return u64::MAX; // any NaN
    }
    let (oa, ob) = (order(a), order(b));
    let zero = |x: u64| x & !sign == 0;
    if oa == ob || (zero(a) && zero(b)) {
        return b;
    }
    let up = ob > oa;
    if zero(a) {
        return if up { 1 } else { sign | 1 };
    }
    // Away from zero is one step up of the magnitude's bits.
    let away = up == (a & sign == 0);
    if away { a + 1 } else { a - 1 }
}

/// The total order of non-NaN values of a sign-magnitude format (`sign` the sign bit).
fn order_of(sign: u64) -> impl Fn(u64) -> i128 {
    move |x| {
        if x & sign != 0 {
            -((x & !sign) as i128)
        } else {
            x as i128
        }
    }
}

/// Every result's bits against the reference for a format with sign bit `sign` whose NaNs are the
/// magnitudes above `inf` (the infinity's bits).
fn check(a: &[u64], b: &[u64], got: &[u64], sign: u64, inf: u64, show: impl Fn(u64) -> String) {
    let nan = |v: u64| (v & !sign) > inf;
    for i in 0..a.len() {
        let want = reference(a[i], b[i], sign, nan, order_of(sign));
        assert!(
            got[i] == want || (want == u64::MAX && nan(got[i])),
            "nextafter({}, {}) = {}, want {}",
            show(a[i]),
            show(b[i]),
            show(got[i]),
            if want == u64::MAX {
                "NaN".into()
            } else {
                show(want)
            }
        );
    }
}

fn pairs<T: Copy>(values: &[T]) -> (Vec<T>, Vec<T>) {
    let mut a = Vec::new();
    let mut b = Vec::new();
    for &x in values {
        for &y in values {
            a.push(x);
            b.push(y);
        }
    }
    (a, b)
}

fn f32_values() -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        2.0,
        1.5,
        -3.25,
        1e-30,
        3.4e38,
        f32::MAX,
        f32::MIN,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        f32::from_bits(1),
        f32::from_bits(0x8000_0001),
        f32::from_bits(0x007f_ffff),
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
    ];
    v.extend(common::values(12, 5, -1e6, 1e6).iter().map(|&x| x as f32));
    v
}

#[test]
fn nextafter_f32_steps_one_bit_pattern() {
    let Some(dev) = common::device() else { return };
    let (a, b) = pairs(&f32_values());
    let x = Array::from_slice(&dev, &a, &[a.len()]).unwrap();
    let y = Array::from_slice(&dev, &b, &[b.len()]).unwrap();
    let got = x.nextafter(&y).unwrap().to_vec::<f32>().unwrap();
    let bits = |v: &[f32]| -> Vec<u64> { v.iter().map(|x| x.to_bits() as u64).collect() };
    check(
        &bits(&a),
        &bits(&b),
        &bits(&got),
        1 << 31,
        0x7f80_0000,
        |v| format!("{:e}", f32::from_bits(v as u32)),
    );
}

#[test]
fn nextafter_f16_steps_through_half_values() {
    let Some(dev) = common::device() else { return };
    if !common::supports(&dev, DType::F16, "nextafter_f16_steps_through_half_values") {
        return;
    }
    let values: Vec<f16> = [
        0.0f32,
        -0.0,
        1.0,
        -1.0,
        0.5,
        2.0,
        1.5,
        -3.25,
        65504.0,
        -65504.0,
        6.1035156e-5,
        1000.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
    ]
    .iter()
    .map(|&x| f16::from_f32(x))
    .chain([
        f16::from_bits(1),
        f16::from_bits(0x8001),
        f16::from_bits(0x03ff),
        f16::from_bits(0x0400),
    ])
    .collect();
    let (a, b) = pairs(&values);
    let x = Array::from_slice(&dev, &a, &[a.len()]).unwrap();
    let y = Array::from_slice(&dev, &b, &[b.len()]).unwrap();
    let got = x.nextafter(&y).unwrap().to_vec::<f16>().unwrap();
    let bits = |v: &[f16]| -> Vec<u64> { v.iter().map(|x| x.to_bits() as u64).collect() };
    check(&bits(&a), &bits(&b), &bits(&got), 1 << 15, 0x7c00, |v| {
        format!("{} ({v:#06x})", f16::from_bits(v as u16))
    });
}

#[test]
fn nextafter_f64_steps_one_bit_pattern() {
    let Some(dev) = common::device() else { return };
    if !common::supports(&dev, DType::F64, "nextafter_f64_steps_one_bit_pattern") {
        return;
    }
    let mut values = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        2.0,
        1.5,
        -3.25,
        1e-300,
        1e300,
        f64::MAX,
        f64::MIN,
        f64::MIN_POSITIVE,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    values.extend(common::values(12, 6, -1e6, 1e6));
    let (a, b) = pairs(&values);
    let x = Array::from_slice(&dev, &a, &[a.len()]).unwrap();
    let y = Array::from_slice(&dev, &b, &[b.len()]).unwrap();
    let got = x.nextafter(&y).unwrap().to_vec::<f64>().unwrap();
    let bits = |v: &[f64]| -> Vec<u64> { v.iter().map(|x| x.to_bits()).collect() };
    check(
        &bits(&a),
        &bits(&b),
        &bits(&got),
        1 << 63,
        0x7ff0_0000_0000_0000,
        |v| format!("{:e}", f64::from_bits(v)),
    );
}

#[test]
fn nextafter_refuses_integers_and_bools() {
    let Some(dev) = common::device() else { return };
    for dtype in [DType::I32, DType::U32, DType::Bool] {
        let a = Array::zeros(&dev, &[3], dtype).unwrap();
        let e = a.nextafter(&a).unwrap_err().to_string();
        assert!(
            e.contains("nextafter") && e.contains(&dtype.to_string()),
            "{e}"
        );
    }
}
