//! Element-wise ops on the real adapter against CPU references written here in f64: a
//! broadcasting matrix (0-d, size-1 and size-0 axes, ranks 1–6, reversed and transposed views),
//! every op on every dtype it supports (and an `Err` for one it rejects), and NumPy's NaN, ±0,
//! ±Inf and subnormal semantics checked by bits.

#![allow(clippy::type_complexity)] // tables of (name, reference, op) rows

mod common;

use common::{read, strides_of, unravel, upload, values};
use gpuarray::{Array, DType, Device, Error, SliceArg};

/// NumPy broadcasting by plain index arithmetic: the result shape and each output's source
/// positions in the two inputs.
fn broadcast_ref(a: &[usize], b: &[usize]) -> Option<(Vec<usize>, Vec<(usize, usize)>)> {
    let nd = a.len().max(b.len());
    let pad = |s: &[usize]| -> Vec<usize> {
        let mut v = vec![1; nd - s.len()];
        v.extend_from_slice(s);
        v
    };
    let (pa, pb) = (pad(a), pad(b));
    let mut out = Vec::new();
    for d in 0..nd {
        out.push(match (pa[d], pb[d]) {
            (x, y) if x == y => x,
            (1, y) => y,
            (x, 1) => x,
            _ => return None,
        });
    }
    let (sa, sb) = (strides_of(&pa), strides_of(&pb));
    let n: usize = out.iter().product();
    let pos = (0..n)
        .map(|i| {
            let idx = unravel(i, &out);
            let mut ia = 0;
            let mut ib = 0;
            for d in 0..nd {
                if pa[d] != 1 {
                    ia += idx[d] * sa[d];
                }
                if pb[d] != 1 {
                    ib += idx[d] * sb[d];
                }
            }
            (ia, ib)
        })
        .collect();
    Some((out, pos))
}

#[test]
fn broadcasting_matrix() {
    let Some(dev) = common::device() else { return };
    let cases: &[(&[usize], &[usize])] = &[
        (&[], &[]),
        (&[], &[5]),
        (&[7], &[]),
        (&[1], &[6]),
        (&[4, 1], &[3]),
        (&[2, 1, 3], &[4, 1]),
        (&[0, 3], &[1, 3]),
        (&[2, 0], &[2, 1]),
        (&[3, 1, 0], &[1]),
        (&[5, 1, 1, 2, 1, 3], &[1, 4, 1, 2, 3, 1]),
        (&[2, 3, 1, 2, 2], &[1, 1, 4, 2, 1]),
        (&[64, 33], &[33]),
        (&[1000], &[1000]),
    ];
    for (k, &(sa, sb)) in cases.iter().enumerate() {
        let (na, nb): (usize, usize) = (sa.iter().product(), sb.iter().product());
        let ha = values(na, 2 * k as u64, -50.0, 50.0)
            .iter()
            .map(|x| x.round())
            .collect::<Vec<_>>();
        let hb = values(nb, 2 * k as u64 + 1, -50.0, 50.0)
            .iter()
            .map(|x| x.round())
            .collect::<Vec<_>>();
        let (shape, pos) = broadcast_ref(sa, sb).unwrap();
        let a = upload(&dev, &ha, sa, DType::F32);
        let b = upload(&dev, &hb, sb, DType::F32);
        let ai = upload(&dev, &ha, sa, DType::I32);
        let bi = upload(&dev, &hb, sb, DType::I32);
        // A representative of each class: arithmetic, comparison, selection.
        let sum = a.add(&b).unwrap();
        assert_eq!(sum.shape(), &shape[..], "case {k}");
        let want: Vec<f64> = pos.iter().map(|&(i, j)| ha[i] + hb[j]).collect();
        assert_eq!(read(&sum), want, "add case {k}: {sa:?} + {sb:?}");
        let lt = ai.lt(&bi).unwrap();
        assert_eq!(lt.dtype(), DType::Bool);
        let want: Vec<f64> = pos
            .iter()
            .map(|&(i, j)| f64::from(u8::from(ha[i] < hb[j])))
            .collect();
        assert_eq!(read(&lt), want, "lt case {k}");
        let w = gpuarray::where_(&lt, &a, &b).unwrap();
        let want: Vec<f64> = pos
            .iter()
            .map(|&(i, j)| if ha[i] < hb[j] { ha[i] } else { hb[j] })
            .collect();
        assert_eq!(read(&w), want, "where case {k}");
        // A unary op keeps the shape and maps every element. exp's condition number is |x|:
        // the driver's f32 exp2(x * log2(e)) is off by up to 0.6 |x| ulps on lavapipe (26 at
        // x = 45), so the bound is 1 + |x| ulps (a flushed or wrong value is millions off).
        let e = a.exp().unwrap();
        assert_eq!(e.shape(), sa);
        for (&x, &g) in ha.iter().zip(&read(&e)) {
            let u = common::err_units(g, x.exp(), 0.0, DType::F32);
            assert!(
                u <= 1.0 + x.abs(),
                "exp case {k}: exp({x}) = {g} ({u:.1} ulps)"
            );
        }
    }
    // Incompatible shapes are errors naming both.
    let a = Array::zeros(&dev, &[2, 3], DType::F32).unwrap();
    let b = Array::zeros(&dev, &[4], DType::F32).unwrap();
    let e = a.add(&b).unwrap_err().to_string();
    assert!(e.contains("[2, 3]") && e.contains("[4]"), "{e}");
}

#[test]
fn views_with_negative_strides_and_transposes() {
    let Some(dev) = common::device() else { return };
    let (r, c) = (37usize, 29usize);
    let h: Vec<f64> = values(r * c, 9, -10.0, 10.0);
    let a = upload(&dev, &h, &[r, c], DType::F32);
    let hf: Vec<f64> = h.iter().map(|&x| x as f32 as f64).collect();
    // a[::-1, ::2] - a.T[:, ::-1].T[::-1, ::2] == 0 and a[::-1] * row
    let rev = a
        .slice(&[
            SliceArg::range(None, None, -1),
            SliceArg::range(None, None, 2),
        ])
        .unwrap();
    let cols = c.div_ceil(2);
    let row = upload(&dev, &values(cols, 3, 1.0, 2.0), &[cols], DType::F32);
    let hrow: Vec<f64> = read(&row);
    let prod = rev.mul(&row).unwrap();
    let mut want = Vec::new();
    for i in 0..r {
        for j in 0..cols {
            want.push((hf[(r - 1 - i) * c + 2 * j] as f32 * hrow[j] as f32) as f64);
        }
    }
    assert_eq!(read(&prod), want);
    // Transposed (4-d) view against its own contiguous copy, a 6-d broadcast, in place.
    let t = a.t();
    let tt = t.add(&t.contiguous().unwrap()).unwrap();
    let want: Vec<f64> = (0..r * c)
        .map(|i| {
            let (j, k) = (i / r, i % r);
            2.0 * hf[k * c + j]
        })
        .collect();
    assert_eq!(read(&tt), want);
    let six = upload(
        &dev,
        &values(24, 4, -1.0, 1.0),
        &[2, 3, 1, 2, 1, 2],
        DType::F32,
    );
    let h6 = read(&six);
    let flipped = six.slice(&[SliceArg::range(None, None, -1)]).unwrap();
    let s = flipped
        .sub(
            &six.slice(&[SliceArg::full(), SliceArg::range(None, None, -1)])
                .unwrap(),
        )
        .unwrap();
    let sh = [2usize, 3, 1, 2, 1, 2];
    let st = strides_of(&sh);
    let want: Vec<f64> = (0..h6.len())
        .map(|i| {
            let idx = unravel(i, &sh);
            let mut x = idx.clone();
            x[0] = 1 - idx[0];
            let mut y = idx.clone();
            y[1] = 2 - idx[1];
            let at = |v: &Vec<usize>| v.iter().zip(&st).map(|(a, b)| a * b).sum::<usize>();
            (h6[at(&x)] as f32 - h6[at(&y)] as f32) as f64
        })
        .collect();
    assert_eq!(read(&s), want);
    // In place through a view: a[1] += 1 writes into a.
    let z = Array::zeros(&dev, &[3, 4], DType::I32).unwrap();
    z.slice(&[SliceArg::Index(1)])
        .unwrap()
        .add_assign(5)
        .unwrap();
    z.add_assign(&upload(&dev, &[1.0, 2.0, 3.0, 4.0], &[4], DType::I32))
        .unwrap();
    assert_eq!(
        read(&z),
        vec![1., 2., 3., 4., 6., 7., 8., 9., 1., 2., 3., 4.]
    );
    assert_err!(
        z.add_assign(&Array::zeros(&dev, &[2, 3, 4], DType::I32).unwrap()),
        Error::Shape { op: "add", .. },
        "add"
    );
}

fn floor_div_ref(a: f64, b: f64) -> f64 {
    if b == 0.0 {
        return a / b;
    }
    (a / b).floor()
}

fn rem_ref(a: f64, b: f64) -> f64 {
    let m = a % b;
    if m != 0.0 && ((m < 0.0) != (b < 0.0)) {
        m + b
    } else {
        m
    }
}

type BinRef = fn(f64, f64) -> f64;

/// np.heaviside(x, h0).
fn heaviside_ref(x: f64, h0: f64) -> f64 {
    if x.is_nan() {
        x
    } else if x == 0.0 {
        h0
    } else if x < 0.0 {
        0.0
    } else {
        1.0
    }
}

/// np.gcd of two integers held in f64 (never negative).
fn gcd_ref(a: f64, b: f64) -> f64 {
    let (mut x, mut y) = (a.abs() as u64, b.abs() as u64);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    x as f64
}

#[test]
fn every_binary_op_on_every_dtype() {
    let Some(dev) = common::device() else { return };
    let n = 301; // not a multiple of 4: the strided skeleton; 4 * 75 below takes vec4
    for len in [n, 300] {
        let fa = values(len, 11, -6.0, 6.0);
        let fb: Vec<f64> = values(len, 12, 0.25, 4.0)
            .iter()
            .zip(values(len, 13, 0.0, 1.0))
            .map(|(&x, s)| if s < 0.5 { -x } else { x })
            .collect();
        let float_ops: Vec<(&str, BinRef, fn(&Array, &Array) -> gpuarray::Result<Array>)> = vec![
            ("add", |a, b| a + b, |a, b| a.add(b)),
            ("sub", |a, b| a - b, |a, b| a.sub(b)),
            ("mul", |a, b| a * b, |a, b| a.mul(b)),
            ("div", |a, b| a / b, |a, b| a.div(b)),
            ("floor_divide", floor_div_ref, |a, b| a.floor_divide(b)),
            ("remainder", rem_ref, |a, b| a.remainder(b)),
            ("pow", |a, b| a.abs().powf(b), |a, b| a.abs()?.pow(b)),
            ("maximum", f64::max, |a, b| a.maximum(b)),
            ("minimum", f64::min, |a, b| a.minimum(b)),
            ("fmax", f64::max, |a, b| a.fmax(b)),
            ("fmin", f64::min, |a, b| a.fmin(b)),
            ("arctan2", f64::atan2, |a, b| a.arctan2(b)),
            ("hypot", f64::hypot, |a, b| a.hypot(b)),
            ("copysign", f64::copysign, |a, b| a.copysign(b)),
            ("fmod", |a, b| a % b, |a, b| a.fmod(b)),
            ("heaviside", heaviside_ref, |a, b| a.heaviside(b)),
            (
                "logaddexp",
                |a, b| (a.exp() + b.exp()).ln(),
                |a, b| a.logaddexp(b),
            ),
            (
                "logaddexp2",
                |a, b| (a.exp2() + b.exp2()).log2(),
                |a, b| a.logaddexp2(b),
            ),
        ];
        for dtype in [DType::F32, DType::F16, DType::F64] {
            if !common::supports(&dev, dtype, "every_binary_op_on_every_dtype") {
                continue;
            }
            let (a, b) = (
                upload(&dev, &fa, &[len], dtype),
                upload(&dev, &fb, &[len], dtype),
            );
            let (ha, hb) = (read(&a), read(&b));
            for (name, f, g) in &float_ops {
                // Relative error in ulps of the result (floored at the smallest normal). f16 is
                // computed in f32 and rounded once, so its reference is rounded to f16 too and 1
                // ulp covers a double rounding. f32 and f64 arithmetic is correctly rounded (0.5
                // ulp against the exact f64 reference); 2 ulps leaves room for fused operations.
                // f32 arctan2 is a driver built-in (1.6 ulps measured on lavapipe); f32 pow is
                // exp2(b * log2(a)), whose log2 error grows by |b ln a| <= 4 ln 6 = 7.2 (7.6 ulps
                // measured).
                // logaddexp is the larger operand plus log1p(exp(-d)): when they nearly cancel
                // (the result near 0), their 1-ulp errors are large beside the result.
                let ulps = match (dtype, *name) {
                    (_, "fmod" | "heaviside") => 0.0,
                    (DType::F16, _) => 1.0,
                    (_, "logaddexp" | "logaddexp2") => 4.0,
                    (DType::F32, "pow") => 16.0,
                    (DType::F32, "arctan2") => 4.0,
                    _ => 2.0,
                };
                let got = read(&g(&a, &b).unwrap());
                for i in 0..len {
                    let mut want = f(ha[i], hb[i]);
                    if dtype == DType::F16 {
                        want = gpuarray::f16::from_f64(want).to_f64(); // overflow to inf
                    }
                    // floor_divide/remainder sit on a discontinuity when a/b is near an integer.
                    let q = ha[i] / hb[i];
                    if (*name == "floor_divide" || *name == "remainder")
                        && (q - q.round()).abs() < 1e-3
                    {
                        continue;
                    }
                    // logaddexp's errors are those of its larger operand and its log1p term.
                    let scale = if name.starts_with("logaddexp") {
                        ha[i].abs().max(hb[i].abs())
                    } else {
                        0.0
                    };
                    let u = common::err_units(got[i], want, scale, dtype);
                    assert!(
                        u <= ulps,
                        "{name} {dtype} [{i}] {} {}: got {} want {want} ({u:.1} ulps > {ulps})",
                        ha[i],
                        hb[i],
                        got[i]
                    );
                }
            }
            for bad in [a.bitwise_and(&b), a.left_shift(&b), a.gcd(&b), a.lcm(&b)] {
                let e = bad.unwrap_err().to_string();
                assert!(e.contains(&dtype.to_string()), "{e}");
            }
        }
        // Integers: exact, NumPy's floor semantics, 0 for division by zero, wrap-around.
        let ia: Vec<f64> = values(len, 21, -1000.0, 1000.0)
            .iter()
            .map(|x| x.trunc())
            .collect();
        let ib: Vec<f64> = values(len, 22, -9.0, 9.0)
            .iter()
            .map(|x| x.trunc())
            .collect();
        let a = upload(&dev, &ia, &[len], DType::I32);
        let b = upload(&dev, &ib, &[len], DType::I32);
        let wrap = |x: f64| (x as i64 as i32) as f64;
        let int_ops: Vec<(&str, BinRef, fn(&Array, &Array) -> gpuarray::Result<Array>)> = vec![
            ("add", |a, b| a + b, |a, b| a.add(b)),
            ("sub", |a, b| a - b, |a, b| a.sub(b)),
            ("mul", |a, b| a * b, |a, b| a.mul(b)),
            (
                "floor_divide",
                |a, b| if b == 0.0 { 0.0 } else { (a / b).floor() },
                |a, b| a.floor_divide(b),
            ),
            (
                "remainder",
                |a, b| if b == 0.0 { 0.0 } else { rem_ref(a, b) },
                |a, b| a.remainder(b),
            ),
            ("maximum", f64::max, |a, b| a.maximum(b)),
            ("minimum", f64::min, |a, b| a.minimum(b)),
            ("fmax", f64::max, |a, b| a.fmax(b)),
            ("fmin", f64::min, |a, b| a.fmin(b)),
            (
                "fmod",
                |a, b| if b == 0.0 { 0.0 } else { a % b },
                |a, b| a.fmod(b),
            ),
            ("gcd", gcd_ref, |a, b| a.gcd(b)),
            (
                "lcm",
                |a, b| {
                    let g = gcd_ref(a, b);
                    if g == 0.0 { 0.0 } else { (a / g * b).abs() }
                },
                |a, b| a.lcm(b),
            ),
            (
                "bitwise_and",
                |a, b| ((a as i32) & (b as i32)) as f64,
                |a, b| a.bitwise_and(b),
            ),
            (
                "bitwise_or",
                |a, b| ((a as i32) | (b as i32)) as f64,
                |a, b| a.bitwise_or(b),
            ),
            (
                "bitwise_xor",
                |a, b| ((a as i32) ^ (b as i32)) as f64,
                |a, b| a.bitwise_xor(b),
            ),
        ];
        for (name, f, g) in &int_ops {
            let got = read(&g(&a, &b).unwrap());
            let want: Vec<f64> = (0..len).map(|i| wrap(f(ia[i], ib[i]))).collect();
            assert_eq!(got, want, "{name} i32");
        }
        // Shifts (counts past the width give 0, or -1 for negatives shifted right), pow.
        let counts: Vec<f64> = (0..len).map(|i| (i % 40) as f64).collect();
        let c = upload(&dev, &counts, &[len], DType::I32);
        let shl = read(&a.left_shift(&c).unwrap());
        let shr = read(&a.right_shift(&c).unwrap());
        for i in 0..len {
            let (x, k) = (ia[i] as i32, counts[i] as u32);
            let l = if k >= 32 { 0 } else { x.wrapping_shl(k) };
            let r = if k >= 32 {
                if x < 0 { -1 } else { 0 }
            } else {
                x >> k
            };
            assert_eq!((shl[i], shr[i]), (l as f64, r as f64), "shift {x} by {k}");
        }
        let e = upload(
            &dev,
            &(0..len).map(|i| (i % 7) as f64).collect::<Vec<_>>(),
            &[len],
            DType::I32,
        );
        let got = read(&a.pow(&e).unwrap());
        for i in 0..len {
            let want = (ia[i] as i32).wrapping_pow((i % 7) as u32) as f64;
            assert_eq!(got[i], want, "pow {} {}", ia[i], i % 7);
        }
        assert_err!(
            a.pow(&b),
            Error::InvalidArgument { op: "power", .. },
            "power"
        );
        assert_err!(
            a.pow(-1),
            Error::InvalidArgument { op: "power", .. },
            "power"
        );
        // Integer true division gives floats (NumPy), arctan2 of ints is refused.
        let q = a.div(&b).unwrap();
        assert!(q.dtype().is_float());
        assert!(a.arctan2(&b).unwrap_err().to_string().contains("i32"));
        // u32: wrapping subtraction, unsigned shifts.
        let ua = upload(&dev, &[5.0, 0.0, 4294967295.0, 7.0], &[4], DType::U32);
        let ub = upload(&dev, &[7.0, 1.0, 1.0, 3.0], &[4], DType::U32);
        assert_eq!(
            read(&ua.sub(&ub).unwrap()),
            vec![4294967294.0, 4294967295.0, 4294967294.0, 4.0]
        );
        assert_eq!(
            read(&ua.right_shift(&ub).unwrap()),
            vec![0.0, 0.0, 2147483647.0, 0.0]
        );
        assert_eq!(
            read(&ua.floor_divide(&ub).unwrap()),
            vec![0.0, 0.0, 4294967295.0, 2.0]
        );
        assert_eq!(read(&ua.remainder(3).unwrap()), vec![2.0, 0.0, 0.0, 1.0]);
    }
    // Bool: and/or/xor/max, add is or, mul is and; subtraction is refused.
    let p = Array::from_bools(&dev, &[true, true, false, false], &[4]).unwrap();
    let q = Array::from_bools(&dev, &[true, false, true, false], &[4]).unwrap();
    assert_eq!(
        p.bitwise_and(&q).unwrap().to_vec_bool().unwrap(),
        vec![true, false, false, false]
    );
    assert_eq!(
        p.add(&q).unwrap().to_vec_bool().unwrap(),
        vec![true, true, true, false]
    );
    assert_eq!(
        p.mul(&q).unwrap().to_vec_bool().unwrap(),
        vec![true, false, false, false]
    );
    assert_eq!(
        p.bitwise_xor(&q).unwrap().to_vec_bool().unwrap(),
        vec![false, true, true, false]
    );
    assert_eq!(
        p.maximum(&q).unwrap().to_vec_bool().unwrap(),
        vec![true, true, true, false]
    );
    assert!(p.sub(&q).unwrap_err().to_string().contains("bool"));
    // Mixed dtypes name both.
    let f = Array::zeros(&dev, &[4], DType::F32).unwrap();
    let e = f.add(&p).unwrap_err();
    assert!(
        matches!(
            e,
            Error::DTypeMismatch {
                op: "add",
                expected: DType::F32,
                got: DType::Bool
            }
        ),
        "{e:?}"
    );
    let e = e.to_string();
    assert!(e.contains("f32") && e.contains("bool"), "{e}");
    // Scalars adopt the array's dtype; an int array refuses 2.5.
    assert_err!(
        upload(&dev, &[1.0], &[1], DType::I32).add(2.5),
        Error::InvalidArgument { op: "add", .. },
        "add"
    );
}

#[test]
fn scalars_on_either_side_and_operators() {
    let Some(dev) = common::device() else { return };
    let a = upload(&dev, &[1.0, 2.0, 4.0, 8.0, -3.0], &[5], DType::F32);
    assert_eq!(
        read(&gpuarray::sub(10.0, &a).unwrap()),
        vec![9.0, 8.0, 6.0, 2.0, 13.0]
    );
    assert_eq!(
        read(&gpuarray::div(8.0, &a).unwrap()),
        vec![8.0, 4.0, 2.0, 1.0, (-8.0f32 / 3.0) as f64]
    );
    assert_eq!(
        read(&gpuarray::pow(2.0, &a).unwrap()),
        vec![2.0, 4.0, 16.0, 256.0, 0.125]
    );
    assert_eq!(read(&a.pow(2).unwrap()), vec![1.0, 4.0, 16.0, 64.0, 9.0]);
    let b = (&a * 2.0).unwrap();
    let c = ((&a + &b) - &a).unwrap();
    // Small integers: every step is exact, so the host reference is exact.
    assert_eq!(read(&b), vec![2.0, 4.0, 8.0, 16.0, -6.0]);
    assert_eq!(read(&c), vec![2.0, 4.0, 8.0, 16.0, -6.0]);
    assert_eq!(read(&(1.0 - &a).unwrap()), vec![0.0, -1.0, -3.0, -7.0, 4.0]);
    assert_eq!(read(&(-&a).unwrap()), vec![-1.0, -2.0, -4.0, -8.0, 3.0]);
    assert_eq!(read(&(&a % 3.0).unwrap()), vec![1.0, 2.0, 1.0, 2.0, 0.0]);
    let i = upload(&dev, &[6.0, -7.0], &[2], DType::I32);
    assert_eq!(read(&(&i & 3).unwrap()), vec![2.0, 1.0]);
    assert_eq!(read(&(&i << 2).unwrap()), vec![24.0, -28.0]);
    assert_eq!(read(&(!&i).unwrap()), vec![-7.0, 6.0]);
    let m = a.gt(1.5).unwrap();
    assert_eq!(read(&(!&m).unwrap()), vec![1.0, 0.0, 0.0, 0.0, 1.0]);
    assert_eq!(
        read(&a.clip(Some(0.0), Some(3.0)).unwrap()),
        vec![1.0, 2.0, 3.0, 3.0, 0.0]
    );
    assert_eq!(
        read(&gpuarray::where_(&m, 1.0, &a).unwrap()),
        vec![1.0, 1.0, 1.0, 1.0, -3.0]
    );
    assert_err!(
        gpuarray::add(1.0, 2.0),
        Error::InvalidArgument { op: "add", .. },
        "add"
    );
}

/// A float input table with NaN, ±Inf, ±0 and subnormals.
fn specials() -> Vec<f32> {
    vec![
        f32::NAN,
        -f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        0.0,
        -0.0,
        1e-40,
        -1e-40,
        1.0,
        -2.5,
    ]
}

/// NumPy's documented maximum: `where(a >= b, a, b)` with NaN propagated from either side.
fn np_maximum(a: f32, b: f32) -> f32 {
    if a.is_nan() {
        a
    } else if b.is_nan() {
        b
    } else if a >= b {
        a
    } else {
        b
    }
}
fn np_minimum(a: f32, b: f32) -> f32 {
    if a.is_nan() {
        a
    } else if b.is_nan() {
        b
    } else if a <= b {
        a
    } else {
        b
    }
}
/// np.fmax: a NaN is ignored unless both are NaN.
fn np_fmax(a: f32, b: f32) -> f32 {
    if b.is_nan() {
        a
    } else if a.is_nan() {
        b
    } else if a >= b {
        a
    } else {
        b
    }
}
fn np_fmin(a: f32, b: f32) -> f32 {
    if b.is_nan() {
        a
    } else if a.is_nan() {
        b
    } else if a <= b {
        a
    } else {
        b
    }
}

/// Equal as NumPy results: identical bits, or both NaN (NumPy does not fix a NaN payload).
fn same(x: f32, y: f32) -> bool {
    x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())
}

#[test]
fn nan_inf_signed_zero_and_subnormals_by_bits() {
    let Some(dev) = common::device() else { return };
    let s = specials();
    let n = s.len();
    // Every pair, laid out as (n, n) by broadcasting a column against a row.
    let col = Array::from_slice(&dev, &s, &[n, 1]).unwrap();
    let row = Array::from_slice(&dev, &s, &[n]).unwrap();
    type F = fn(f32, f32) -> f32;
    let table: [(&str, F, Array); 4] = [
        ("maximum", np_maximum, col.maximum(&row).unwrap()),
        ("minimum", np_minimum, col.minimum(&row).unwrap()),
        ("fmax", np_fmax, col.fmax(&row).unwrap()),
        ("fmin", np_fmin, col.fmin(&row).unwrap()),
    ];
    for (name, f, got) in &table {
        let got = got.to_vec::<f32>().unwrap();
        for i in 0..n {
            for j in 0..n {
                let want = f(s[i], s[j]);
                assert!(
                    same(got[i * n + j], want),
                    "{name}({:e}, {:e}) = {:e} (bits {:#x}), NumPy gives {:e} (bits {:#x})",
                    s[i],
                    s[j],
                    got[i * n + j],
                    got[i * n + j].to_bits(),
                    want,
                    want.to_bits()
                );
            }
        }
    }
    // Comparisons: NaN is unordered; -0.0 == 0.0.
    type C = fn(f32, f32) -> bool;
    let cmps: [(&str, C, Array); 6] = [
        ("eq", |a, b| a == b, col.eq(&row).unwrap()),
        ("ne", |a, b| a != b, col.ne(&row).unwrap()),
        ("lt", |a, b| a < b, col.lt(&row).unwrap()),
        ("le", |a, b| a <= b, col.le(&row).unwrap()),
        ("gt", |a, b| a > b, col.gt(&row).unwrap()),
        ("ge", |a, b| a >= b, col.ge(&row).unwrap()),
    ];
    for (name, f, got) in &cmps {
        let got = got.to_vec_bool().unwrap();
        for i in 0..n {
            for j in 0..n {
                assert_eq!(
                    got[i * n + j],
                    f(s[i], s[j]),
                    "{name}({:e}, {:e})",
                    s[i],
                    s[j]
                );
            }
        }
    }
    // Unary: sign, isnan/isinf/isfinite, abs, neg, relu, truth.
    let a = Array::from_slice(&dev, &s, &[n]).unwrap();
    let sign = a.sign().unwrap().to_vec::<f32>().unwrap();
    let isnan = a.isnan().unwrap().to_vec_bool().unwrap();
    let isinf = a.isinf().unwrap().to_vec_bool().unwrap();
    let isfin = a.isfinite().unwrap().to_vec_bool().unwrap();
    let abs = a.abs().unwrap().to_vec::<f32>().unwrap();
    let neg = a.neg().unwrap().to_vec::<f32>().unwrap();
    let truth = a.astype(DType::Bool).unwrap().to_vec_bool().unwrap();
    let not = a.logical_not().unwrap().to_vec_bool().unwrap();
    for i in 0..n {
        let x = s[i];
        // np.sign: -1, 0 (+0.0 for ±0), 1; NaN stays NaN.
        let want = if x.is_nan() {
            x
        } else if x > 0.0 {
            1.0
        } else if x < 0.0 {
            -1.0
        } else {
            0.0
        };
        assert!(same(sign[i], want), "sign({x:e}) = {:e}", sign[i]);
        assert_eq!(
            (isnan[i], isinf[i], isfin[i]),
            (x.is_nan(), x.is_infinite(), x.is_finite()),
            "{x:e}"
        );
        assert_eq!(abs[i].to_bits(), x.abs().to_bits(), "abs({x:e})");
        assert_eq!(neg[i].to_bits(), (-x).to_bits(), "neg({x:e})");
        assert_eq!(truth[i], x != 0.0 || x.is_nan(), "bool({x:e})");
        assert_eq!(not[i], !(x != 0.0 || x.is_nan()), "not({x:e})");
    }
    // The same predicates on f64 (NaN tests by bits through f32, infinity by halving).
    if common::supports(
        &dev,
        DType::F64,
        "the f64 predicates of nan_inf_signed_zero_and_subnormals_by_bits",
    ) {
        let d: Vec<f64> = vec![
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            1e300,
            -1e-310,
            0.0,
            -0.0,
            1.0,
        ];
        let a = Array::from_slice(&dev, &d, &[d.len()]).unwrap();
        let isnan = a.isnan().unwrap().to_vec_bool().unwrap();
        let isinf = a.isinf().unwrap().to_vec_bool().unwrap();
        let m = a.maximum(0.5).unwrap().to_vec::<f64>().unwrap();
        let sb = a.signbit().unwrap().to_vec_bool().unwrap();
        for (i, &x) in d.iter().enumerate() {
            assert_eq!((isnan[i], isinf[i]), (x.is_nan(), x.is_infinite()), "{x:e}");
            assert_eq!(sb[i], x.is_sign_negative(), "signbit({x:e})");
            let want = if x.is_nan() || x >= 0.5 { x } else { 0.5 };
            assert!(m[i].to_bits() == want.to_bits() || (m[i].is_nan() && want.is_nan()));
        }
    }
}

type URef = fn(f64) -> f64;

#[test]
fn every_unary_op_on_every_dtype() {
    let Some(dev) = common::device() else { return };
    let len = 203;
    let ops: Vec<(
        &str,
        URef,
        fn(&Array) -> gpuarray::Result<Array>,
        (f64, f64),
    )> = vec![
        ("neg", |x| -x, |a| a.neg(), (-5.0, 5.0)),
        ("abs", f64::abs, |a| a.abs(), (-5.0, 5.0)),
        ("sign", f64::signum, |a| a.sign(), (-5.0, 5.0)),
        ("sqrt", f64::sqrt, |a| a.sqrt(), (0.0, 50.0)),
        ("rsqrt", |x| 1.0 / x.sqrt(), |a| a.rsqrt(), (0.1, 50.0)),
        ("exp", f64::exp, |a| a.exp(), (-10.0, 10.0)),
        ("exp2", f64::exp2, |a| a.exp2(), (-10.0, 10.0)),
        ("expm1", f64::exp_m1, |a| a.expm1(), (-1e-3, 1e-3)),
        ("log", f64::ln, |a| a.log(), (0.01, 100.0)),
        ("log2", f64::log2, |a| a.log2(), (0.01, 100.0)),
        ("log10", f64::log10, |a| a.log10(), (0.01, 100.0)),
        ("log1p", f64::ln_1p, |a| a.log1p(), (-1e-3, 1e-3)),
        ("sin", f64::sin, |a| a.sin(), (-6.0, 6.0)),
        ("cos", f64::cos, |a| a.cos(), (-6.0, 6.0)),
        ("tan", f64::tan, |a| a.tan(), (-1.2, 1.2)),
        ("asin", f64::asin, |a| a.asin(), (-0.99, 0.99)),
        ("acos", f64::acos, |a| a.acos(), (-0.99, 0.99)),
        ("atan", f64::atan, |a| a.atan(), (-20.0, 20.0)),
        ("sinh", f64::sinh, |a| a.sinh(), (-5.0, 5.0)),
        ("cosh", f64::cosh, |a| a.cosh(), (-5.0, 5.0)),
        ("tanh", f64::tanh, |a| a.tanh(), (-20.0, 20.0)),
        ("floor", f64::floor, |a| a.floor(), (-5.0, 5.0)),
        ("ceil", f64::ceil, |a| a.ceil(), (-5.0, 5.0)),
        ("round", |x| x.round_ties_even(), |a| a.round(), (-5.0, 5.0)),
        ("trunc", f64::trunc, |a| a.trunc(), (-5.0, 5.0)),
        ("rint", |x| x.round_ties_even(), |a| a.rint(), (-5.0, 5.0)),
        ("cbrt", f64::cbrt, |a| a.cbrt(), (-50.0, 50.0)),
        (
            "deg2rad",
            |x| x * (std::f64::consts::PI / 180.0),
            |a| a.deg2rad(),
            (-720.0, 720.0),
        ),
        (
            "rad2deg",
            |x| x * (180.0 / std::f64::consts::PI),
            |a| a.rad2deg(),
            (-7.0, 7.0),
        ),
        ("square", |x| x * x, |a| a.square(), (-5.0, 5.0)),
        ("reciprocal", |x| 1.0 / x, |a| a.reciprocal(), (0.5, 5.0)),
        (
            "sigmoid",
            |x| 1.0 / (1.0 + (-x).exp()),
            |a| a.sigmoid(),
            (-30.0, 30.0),
        ),
        ("relu", |x| x.max(0.0), |a| a.relu(), (-5.0, 5.0)),
    ];
    for dtype in [DType::F32, DType::F16, DType::F64] {
        if !common::supports(&dev, dtype, "every_unary_op_on_every_dtype") {
            continue;
        }
        for (name, f, g, (lo, hi)) in &ops {
            // Relative error in ulps of the result (floored at the smallest normal, so a result
            // flushed to 0 is hundreds of ulps off however small it is). Exact ops are exact.
            // f16 is computed in f32 and rounded once: 1 ulp. f64 uses the crate's own
            // polynomials: 2 ulps (1.3 measured). f32 uses the driver's built-ins, which on
            // lavapipe measure up to 4.5 ulps (sinh) and 14 (sigmoid, through exp); tanh is
            // ours below |x| = 0.5 (expm1's series) and was 49 ulps off there as the built-in.
            let ulps = match (dtype, *name) {
                (
                    _,
                    "neg" | "abs" | "sign" | "floor" | "ceil" | "round" | "rint" | "trunc" | "relu",
                ) => 0.0,
                (DType::F16, _) => 1.0,
                (DType::F64, _) => 2.0,
                (_, "sigmoid") => 16.0,
                _ => 8.0,
            };
            let mut h = values(len, name.len() as u64, *lo, *hi);
            if *name == "round" || *name == "rint" {
                h.extend([0.5, 1.5, 2.5, -0.5, -2.5]);
            }
            let a = upload(&dev, &h, &[h.len()], dtype);
            let x = read(&a);
            let got = read(&g(&a).unwrap());
            let want: Vec<f64> = x.iter().map(|&v| f(v)).collect();
            common::assert_rel(&got, &want, dtype, ulps, name);
        }
        assert_err!(
            upload(&dev, &[1.0], &[1], dtype).bitwise_not(),
            // NumPy's ufunc is `invert` (`bitwise_not` is its alias).
            Error::Unsupported { op: "invert", .. },
            "invert"
        );
    }
    // Integers: exact; transcendental ops are refused naming op and dtype.
    for dtype in [DType::I32, DType::U32] {
        let h: Vec<f64> = if dtype == DType::I32 {
            values(len, 5, -100.0, 100.0)
                .iter()
                .map(|x| x.trunc())
                .collect()
        } else {
            values(len, 5, 0.0, 1000.0)
                .iter()
                .map(|x| x.trunc())
                .collect()
        };
        let a = upload(&dev, &h, &[len], dtype);
        let wrapi = |x: i64| -> f64 {
            if dtype == DType::I32 {
                x as i32 as f64
            } else {
                x as u32 as f64
            }
        };
        let cases: Vec<(&str, Array, Vec<f64>)> = vec![
            (
                "neg",
                a.neg().unwrap(),
                h.iter().map(|&x| wrapi(-(x as i64))).collect(),
            ),
            (
                "abs",
                a.abs().unwrap(),
                h.iter().map(|&x| x.abs()).collect(),
            ),
            (
                "sign",
                a.sign().unwrap(),
                h.iter()
                    .map(|&x| if x == 0.0 { 0.0 } else { x.signum() })
                    .collect(),
            ),
            (
                "square",
                a.square().unwrap(),
                h.iter().map(|&x| wrapi((x * x) as i64)).collect(),
            ),
            (
                "relu",
                a.relu().unwrap(),
                h.iter().map(|&x| x.max(0.0)).collect(),
            ),
            ("floor", a.floor().unwrap(), h.clone()),
            (
                "reciprocal",
                a.reciprocal().unwrap(),
                h.iter()
                    .map(|&x| if x == 0.0 { 0.0 } else { (1.0 / x).trunc() })
                    .collect(),
            ),
            (
                "bitwise_not",
                a.bitwise_not().unwrap(),
                h.iter().map(|&x| wrapi(!(x as i64))).collect(),
            ),
            ("isnan", a.isnan().unwrap(), vec![0.0; len]),
            ("isfinite", a.isfinite().unwrap(), vec![1.0; len]),
        ];
        for (name, got, want) in cases {
            assert_eq!(read(&got), want, "{name} {dtype}");
        }
        let e = a.exp().unwrap_err().to_string();
        assert!(e.contains("exp") && e.contains(&dtype.to_string()), "{e}");
    }
    let b = Array::from_bools(&dev, &[true, false], &[2]).unwrap();
    assert_eq!(
        b.bitwise_not().unwrap().to_vec_bool().unwrap(),
        vec![false, true]
    );
    assert_err!(
        b.neg(),
        Error::Unsupported { op: "negative", .. },
        "negative"
    );
    assert_err!(b.sqrt(), Error::Unsupported { op: "sqrt", .. }, "sqrt");
}

#[test]
fn zero_size_and_device_checks() {
    let Some(dev) = common::device() else { return };
    let z = Array::zeros(&dev, &[3, 0], DType::F32).unwrap();
    let r = z.add(1.0).unwrap().exp().unwrap();
    assert_eq!(r.shape(), &[3, 0]);
    assert!(r.to_vec::<f32>().unwrap().is_empty());
    let other = Device::new().unwrap();
    let w = Array::zeros(&other, &[3, 0], DType::F32).unwrap();
    assert_err!(z.add(&w), Error::DeviceMismatch { op: "add", .. }, "add");
    common::check_clean(&dev, 0);
}

/// Every special value of C99 Annex F's `pow` (signed zeros, infinite bases and exponents, NaN,
/// negative bases with integer, non-integer, odd and huge exponents), in every float dtype,
/// against the host's `powf`, which follows Annex F: bit for bit where the result is special
/// (NaN, ±0, ±inf, ±1, or `x` for `y = 1`), and within the general case's bound elsewhere (that
/// case is the math file's, not what this test is about).
#[test]
fn power_special_values_follow_c99_annex_f() {
    let Some(dev) = common::device() else { return };
    let bases = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        2.0,
        -2.0,
        3.0,
        -3.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        1e-30,
        3e38,
    ];
    let exps = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        2.0,
        -2.0,
        3.0,
        -3.0,
        0.5,
        -0.5,
        2.5,
        -2.5,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        1e20,
        -1e20,
        16777217.0,
    ];
    for dtype in [DType::F32, DType::F16, DType::F64] {
        if !common::supports(&dev, dtype, "pow special values") {
            continue;
        }
        // In the dtype's own precision: the inputs as that dtype holds them.
        let round = |v: f64| match dtype {
            DType::F32 => v as f32 as f64,
            DType::F16 => gpuarray::f16::from_f64(v).to_f64(),
            _ => v,
        };
        let (mut hx, mut hy) = (Vec::new(), Vec::new());
        for &x in &bases {
            for &y in &exps {
                hx.push(round(x));
                hy.push(round(y));
            }
        }
        let n = hx.len();
        let got = read(
            &upload(&dev, &hx, &[n], dtype)
                .pow(&upload(&dev, &hy, &[n], dtype))
                .unwrap(),
        );
        for i in 0..n {
            let (x, y) = (hx[i], hy[i]);
            let want = round(x.powf(y));
            let g = got[i];
            let special =
                want.is_nan() || want == 0.0 || want.is_infinite() || want.abs() == 1.0 || y == 1.0;
            // Subnormal results are issue 15's (the driver flushes them): not checked here.
            let min_normal = match dtype {
                DType::F32 => f32::MIN_POSITIVE as f64,
                DType::F16 => 2f64.powi(-14),
                _ => f64::MIN_POSITIVE,
            };
            if want != 0.0 && want.abs() < min_normal {
                continue;
            }
            if want.is_nan() {
                assert!(g.is_nan(), "{dtype} pow({x}, {y}) = {g}, want NaN");
            } else if special {
                assert!(
                    g == want && g.is_sign_negative() == want.is_sign_negative(),
                    "{dtype} pow({x}, {y}) = {g}, want {want}"
                );
            } else {
                // The general case's bound of the every-op test above: f32 pow is the driver's
                // built-in (16 ulps), f16 rounds that to its own ulp, f64 is software.
                let ulp = match dtype {
                    DType::F32 => 16.0 * f32::EPSILON as f64,
                    DType::F16 => 2f64.powi(-10),
                    _ => 1e-13,
                };
                let tol = ulp * want.abs();
                assert!(
                    (g - want).abs() <= tol,
                    "{dtype} pow({x}, {y}) = {g}, want {want}"
                );
            }
        }
    }
}

/// tanh near 0, where the built-in has only an absolute error bound: relative accuracy from
/// 2^-12 to 0.5 (log-spread inputs of both signs), tanh(x) = x below 2^-12 and for subnormal
/// inputs (no flush to 0), in f32 and f16 (computed in f32), against the host's f64 tanh.
#[test]
fn tanh_keeps_relative_accuracy_near_zero() {
    let Some(dev) = common::device() else { return };
    let mut h: Vec<f64> = (0..400)
        .map(|i| {
            let m = 10f64.powf(-20.0 + 19.7 * i as f64 / 399.0);
            if i % 2 == 0 { m } else { -m }
        })
        .collect();
    h.extend([
        1e-40, -1e-42, 0.0078125, 1e-5, 1e-3, 0.01, 0.25, 0.4999, 0.5,
    ]);
    for dtype in [DType::F32, DType::F16] {
        if !common::supports(&dev, dtype, "tanh near zero") {
            continue;
        }
        let a = upload(&dev, &h, &[h.len()], dtype);
        let x = read(&a);
        let got = read(&a.tanh().unwrap());
        for (i, (&xi, &g)) in x.iter().zip(&got).enumerate() {
            let want = xi.tanh();
            if xi.abs() < 2f64.powi(-12) {
                assert_eq!(
                    g.to_bits(),
                    xi.to_bits(),
                    "{dtype} tanh({xi}) = {g}: not x itself (element {i})"
                );
                continue;
            }
            // 4 ulps of f32 (expm1's series, one addition, one division); f16 rounds once more.
            let bound = match dtype {
                DType::F16 => 2f64.powi(-10),
                _ => 4.0 * f32::EPSILON as f64,
            } * want.abs();
            assert!(
                (g - want).abs() <= bound,
                "{dtype} tanh({xi}) = {g}, want {want} (element {i})"
            );
        }
    }
}

/// f32 `log` is the crate's own (musl's logf): within 1 ulp of the host's f64 `ln` over the
/// whole positive range — subnormals (decoded by bits, never flushed), just below and above 1
/// (where the built-in had 70 % relative error), and up to f32::MAX — and exact at the special
/// values.
#[test]
fn f32_log_is_within_one_ulp_everywhere() {
    let Some(dev) = common::device() else { return };
    let mut h: Vec<f32> = (0..4000)
        .map(|i| 2f64.powf(-149.0 + 277.0 * i as f64 / 3999.0) as f32)
        .filter(|v| *v > 0.0 && v.is_finite())
        .collect();
    let one_ulp_below = f32::from_bits(1.0f32.to_bits() - 1);
    h.extend([
        f32::from_bits(1),
        f32::from_bits(0x7fffff),
        f32::MIN_POSITIVE,
        one_ulp_below,
        f32::from_bits(one_ulp_below.to_bits() - 7),
        f32::from_bits(1.0f32.to_bits() + 1),
        1.0,
        std::f32::consts::FRAC_1_SQRT_2,
        std::f32::consts::SQRT_2,
        2.0,
        f32::MAX,
    ]);
    let a = Array::from_slice(&dev, &h, &[h.len()]).unwrap();
    let got = a.log().unwrap().to_vec::<f32>().unwrap();
    for (&x, &g) in h.iter().zip(&got) {
        let want = (x as f64).ln();
        if want == 0.0 {
            assert_eq!(g.to_bits(), 0, "log({x}) = {g}");
            continue;
        }
        let w = want as f32;
        let ulp = (f32::from_bits(w.abs().to_bits() + 1) - w.abs()) as f64;
        assert!(
            (g as f64 - want).abs() <= ulp,
            "log({x:e}) = {g:e}, want {want:e}: {:.2} ulps",
            (g as f64 - want).abs() / ulp
        );
    }
    let special = Array::from_slice(
        &dev,
        &[0.0f32, -0.0, -1.0, f32::INFINITY, f32::NAN, -f32::INFINITY],
        &[6],
    )
    .unwrap()
    .log()
    .unwrap()
    .to_vec::<f32>()
    .unwrap();
    assert_eq!(special[0], f32::NEG_INFINITY);
    assert_eq!(special[1], f32::NEG_INFINITY);
    assert!(special[2].is_nan() && special[4].is_nan() && special[5].is_nan());
    assert_eq!(special[3], f32::INFINITY);
}
