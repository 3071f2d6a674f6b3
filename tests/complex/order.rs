//! NumPy's order on complex numbers — sort, argsort, unique, max/min, maximum — and products
//! (prod, cumprod), against host references written here: NumPy's comparison (real part, then
//! imaginary part; NaN classes last), its left-to-right `maximum.reduce`, sequential products.

use super::common;
use gpuarray::{Array, Axes, Complex32, Complex64, DType};
use std::cmp::Ordering;

type C = Complex32;

/// NumPy's sort order: finite-or-infinite values lexicographically, then NaN imaginary parts
/// (by real part), NaN real parts (by imaginary part), then both NaN.
fn numpy_order(a: &Complex64, b: &Complex64) -> Ordering {
    let class = |z: &Complex64| 2 * z.re.is_nan() as u8 + z.im.is_nan() as u8;
    let by = |x: f64, y: f64| x.partial_cmp(&y).unwrap_or(Ordering::Equal);
    class(a).cmp(&class(b)).then(match class(a) {
        0 => by(a.re, b.re).then(by(a.im, b.im)),
        1 => by(a.re, b.re),
        2 => by(a.im, b.im),
        _ => Ordering::Equal,
    })
}

fn wide(z: C) -> Complex64 {
    Complex64::new(z.re as f64, z.im as f64)
}

/// NumPy's `maximum`/`minimum` on complex: the first operand if it has a NaN or is not smaller
/// (larger), else the second.
fn pick(a: C, b: C, max: bool) -> C {
    let nan = |z: C| z.re.is_nan() || z.im.is_nan();
    let le = |u: C, v: C| {
        (u.re < v.re && !u.im.is_nan() && !v.im.is_nan()) || (u.re == v.re && u.im <= v.im)
    };
    let keep = if max { le(b, a) } else { le(a, b) };
    if nan(a) || keep { a } else { b }
}

/// Values with ties in the real part, repeated values, signed zeros, infinities and NaNs.
fn values(n: usize) -> Vec<C> {
    let parts = [0.0f32, -0.0, 1.5, -2.0, f32::INFINITY, f32::NAN, 1.5, 3.25];
    (0..n)
        .map(|i| {
            let re = parts[(i * 5 + i / 7) % parts.len()];
            let im = parts[(i * 3 + 1 + i / 11) % parts.len()];
            C::new(re, im)
        })
        .collect()
}

fn same_bits(a: &[C], b: &[C]) -> bool {
    let bits = |z: &C| (z.re.to_bits(), z.im.to_bits());
    let canon = |z: &C| {
        // Any NaN equals any NaN; otherwise the exact bits (the sign of zero included).
        let f = |x: f32| if x.is_nan() { u32::MAX } else { x.to_bits() };
        (f(z.re), f(z.im))
    };
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| canon(x) == canon(y) || bits(x) == bits(y))
}

#[test]
fn sort_argsort_and_unique_follow_numpys_complex_order() {
    let Some(dev) = common::device() else { return };
    let (rows, n) = (3, 37);
    let v = values(rows * n);
    let a = Array::from_slice(&dev, &v, &[rows, n]).unwrap();
    // Along the last axis: each row stably sorted by NumPy's order.
    let mut want_idx = Vec::new();
    let mut want = Vec::new();
    for r in 0..rows {
        let mut idx: Vec<usize> = (0..n).collect();
        idx.sort_by(|&i, &j| numpy_order(&wide(v[r * n + i]), &wide(v[r * n + j])));
        want.extend(idx.iter().map(|&i| v[r * n + i]));
        want_idx.extend(idx.iter().map(|&i| i as i64));
    }
    let got = a.sort(Some(-1)).unwrap().to_vec::<C>().unwrap();
    assert!(same_bits(&got, &want), "{got:?}\n{want:?}");
    assert_eq!(
        a.argsort(Some(1)).unwrap().to_vec::<i64>().unwrap(),
        want_idx
    );
    // Along axis 0 (a strided axis), and flattened.
    let mut want0 = v.clone();
    for c in 0..n {
        let mut col: Vec<C> = (0..rows).map(|r| v[r * n + c]).collect();
        col.sort_by(|x, y| numpy_order(&wide(*x), &wide(*y)));
        for (r, z) in col.into_iter().enumerate() {
            want0[r * n + c] = z;
        }
    }
    let got0 = a.sort(Some(0)).unwrap().to_vec::<C>().unwrap();
    assert!(same_bits(&got0, &want0));
    let mut flat = v.clone();
    flat.sort_by(|x, y| numpy_order(&wide(*x), &wide(*y)));
    assert!(same_bits(
        &a.sort(None).unwrap().to_vec::<C>().unwrap(),
        &flat
    ));
    // unique: equal neighbours once (-0 equal to 0: the first kept), every value with a NaN
    // part as one (NumPy 2's equal_nan), or each its own without equal_nan.
    let nan = |z: &C| z.re.is_nan() || z.im.is_nan();
    let mut uniq: Vec<C> = Vec::new();
    for z in flat.iter().filter(|z| !nan(z)) {
        if uniq.last() != Some(z) {
            uniq.push(*z);
        }
    }
    let nans: Vec<C> = flat.iter().filter(|z| nan(z)).copied().collect();
    let mut with_nan = uniq.clone();
    with_nan.push(nans[0]);
    assert!(same_bits(
        &a.unique().unwrap().to_vec::<C>().unwrap(),
        &with_nan
    ));
    uniq.extend(&nans);
    assert!(same_bits(
        &a.unique_with(false).unwrap().to_vec::<C>().unwrap(),
        &uniq
    ));
    // nonzero: either part non-zero, a NaN part included.
    let nz: Vec<i64> = (0..v.len())
        .filter(|&i| v[i] != C::new(0.0, 0.0))
        .map(|i| i as i64)
        .collect();
    let flat_a = a.reshape(&[-1]).unwrap();
    assert_eq!(flat_a.flatnonzero().unwrap().to_vec::<i64>().unwrap(), nz);
    let u = a.unique_all().unwrap();
    let counts = u.counts.to_vec::<i64>().unwrap();
    assert_eq!(counts.iter().sum::<i64>(), (rows * n) as i64);
    let inverse = u.inverse.to_vec::<i64>().unwrap();
    let values = u.values.to_vec::<C>().unwrap();
    for (i, &k) in inverse.iter().enumerate() {
        let (x, y) = (v[i], values[k as usize]);
        assert!(x == y || (nan(&x) && nan(&y)), "{i}: {x} -> {y}");
    }
    // complex128 too where the adapter has float64.
    if dev.supports(DType::C128) {
        let w: Vec<Complex64> = v.iter().map(|&z| wide(z)).collect();
        let b = Array::from_slice(&dev, &w, &[rows * n]).unwrap();
        let mut sorted = w.clone();
        sorted.sort_by(numpy_order);
        let got = b.sort(None).unwrap().to_vec::<Complex64>().unwrap();
        let narrow = |x: &[Complex64]| -> Vec<C> {
            x.iter().map(|z| C::new(z.re as f32, z.im as f32)).collect()
        };
        assert!(same_bits(&narrow(&got), &narrow(&sorted)));
        assert_eq!(b.unique().unwrap().len(), with_nan.len());
    }
}

#[test]
fn max_min_and_maximum_fold_left_to_right_as_numpy() {
    let Some(dev) = common::device() else { return };
    let (rows, n) = (5, 13);
    let mut v = values(rows * n);
    // Row 0 without NaN; row 1 with two different NaNs (the first must win).
    for z in &mut v[..n] {
        if z.re.is_nan() || z.im.is_nan() {
            *z = C::new(-1.0, 7.0);
        }
    }
    v[n + 2] = C::new(f32::NAN, 1.0);
    v[n + 5] = C::new(2.0, f32::NAN);
    let a = Array::from_slice(&dev, &v, &[rows, n]).unwrap();
    for max in [true, false] {
        let want: Vec<C> = (0..rows)
            .map(|r| {
                v[r * n + 1..(r + 1) * n]
                    .iter()
                    .fold(v[r * n], |acc, &x| pick(acc, x, max))
            })
            .collect();
        let got = if max {
            a.max(1, false)
        } else {
            a.min(1, false)
        }
        .unwrap()
        .to_vec::<C>()
        .unwrap();
        assert!(same_bits(&got, &want), "max={max}: {got:?} vs {want:?}");
        let nan_bits = |z: C| (z.re.to_bits(), z.im.is_nan());
        assert_eq!(nan_bits(got[1]), nan_bits(v[n + 2]), "the first NaN wins");
        // Every axis: the same as the row maxima of the row maxima.
        let all = if max {
            a.max(Axes::All, true)
        } else {
            a.min(Axes::All, true)
        }
        .unwrap();
        assert_eq!(all.shape(), &[1, 1]);
        let whole = want[1..].iter().fold(want[0], |acc, &x| pick(acc, x, max));
        assert!(same_bits(&all.to_vec::<C>().unwrap(), &[whole]));
    }
    // maximum element-wise, broadcast against a row.
    let row = Array::from_slice(&dev, &v[..n], &[n]).unwrap();
    let got = a.maximum(&row).unwrap().to_vec::<C>().unwrap();
    let want: Vec<C> = (0..rows * n).map(|i| pick(v[i], v[i % n], true)).collect();
    assert!(same_bits(&got, &want));
    // An empty max has no identity; an empty product is one.
    let empty = Array::zeros(&dev, &[0, 3], DType::C64).unwrap();
    let e = empty.max(0, false).unwrap_err();
    assert!(e.to_string().contains("identity"), "{e}");
    assert_eq!(
        empty.prod(0, false).unwrap().to_vec::<C>().unwrap(),
        vec![C::new(1.0, 0.0); 3]
    );
    assert_eq!(a.to_vec::<C>().unwrap().len(), rows * n);
}

#[test]
fn prod_and_cumprod_match_sequential_products() {
    let Some(dev) = common::device() else { return };
    let (rows, n) = (4, 29);
    let v: Vec<C> = (0..rows * n)
        .map(|i| {
            let t = i as f32 * 0.7;
            C::new(0.9 + 0.15 * t.sin(), 0.3 * (t * 1.3).cos())
        })
        .collect();
    let a = Array::from_slice(&dev, &v, &[rows, n]).unwrap();
    let close = |g: C, w: Complex64, k: usize| {
        let err = (wide(g) - w).norm();
        err <= 4.0 * k as f64 * f32::EPSILON as f64 * w.norm().max(1e-30)
    };
    // prod along each axis against f64 products.
    let p1 = a.prod(1, false).unwrap().to_vec::<C>().unwrap();
    for r in 0..rows {
        let w: Complex64 = v[r * n..(r + 1) * n].iter().map(|&z| wide(z)).product();
        assert!(close(p1[r], w, n), "row {r}: {} vs {w}", p1[r]);
    }
    let p0 = a.prod(0, true).unwrap();
    assert_eq!(p0.shape(), &[1, n]);
    let p0 = p0.to_vec::<C>().unwrap();
    for c in 0..n {
        let w: Complex64 = (0..rows).map(|r| wide(v[r * n + c])).product();
        assert!(close(p0[c], w, rows));
    }
    // cumprod along rows, along columns, and flattened.
    let c1 = a.cumprod(Some(1)).unwrap().to_vec::<C>().unwrap();
    let c0 = a.cumprod(Some(0)).unwrap().to_vec::<C>().unwrap();
    let cf = a.cumprod(None).unwrap();
    assert_eq!(cf.shape(), &[rows * n]);
    let cf = cf.to_vec::<C>().unwrap();
    let mut running = Complex64::new(1.0, 0.0);
    for i in 0..rows * n {
        running *= wide(v[i]);
        assert!(close(cf[i], running, i + 1), "{i}");
    }
    for r in 0..rows {
        let mut acc = Complex64::new(1.0, 0.0);
        for c in 0..n {
            acc *= wide(v[r * n + c]);
            assert!(close(c1[r * n + c], acc, c + 1));
        }
    }
    for c in 0..n {
        let mut acc = Complex64::new(1.0, 0.0);
        for r in 0..rows {
            acc *= wide(v[r * n + c]);
            assert!(close(c0[r * n + c], acc, r + 1));
        }
    }
    // A length-1 axis and an empty one.
    let one = Array::from_slice(&dev, &v[..3], &[3, 1]).unwrap();
    assert_eq!(one.cumprod(Some(1)).unwrap().to_vec::<C>().unwrap(), v[..3]);
    let none = Array::zeros(&dev, &[2, 0], DType::C64).unwrap();
    assert_eq!(none.cumprod(Some(1)).unwrap().shape(), &[2, 0]);
}

#[test]
fn einsum_of_complex_operands_matches_host_sums() {
    let Some(dev) = common::device() else { return };
    let z = |i: usize, s: f32| C::new((i as f32 * 0.37 + s).sin(), (i as f32 * 0.11 - s).cos());
    let (b, i, k, m) = (2, 3, 5, 4);
    let av: Vec<C> = (0..b * i * k).map(|t| z(t, 0.2)).collect();
    let bv: Vec<C> = (0..b * k * m).map(|t| z(t, 1.1)).collect();
    let a = Array::from_slice(&dev, &av, &[b, i, k]).unwrap();
    let bb = Array::from_slice(&dev, &bv, &[b, k, m]).unwrap();
    let close = |g: &[C], w: &[Complex64], terms: usize| {
        g.len() == w.len()
            && g.iter().zip(w).all(|(x, y)| {
                (wide(*x) - y).norm() <= 4.0 * terms as f64 * f32::EPSILON as f64 * (1.0 + y.norm())
            })
    };
    // A batched matrix product.
    let mut want = vec![Complex64::new(0.0, 0.0); b * i * m];
    for p in 0..b {
        for r in 0..i {
            for c in 0..m {
                want[(p * i + r) * m + c] = (0..k)
                    .map(|t| wide(av[(p * i + r) * k + t]) * wide(bv[(p * k + t) * m + c]))
                    .sum();
            }
        }
    }
    let got = gpuarray::einsum("bik,bkm->bim", &[&a, &bb]).unwrap();
    assert_eq!((got.dtype(), got.shape()), (DType::C64, &[b, i, m][..]));
    assert!(close(&got.to_vec::<C>().unwrap(), &want, k));
    // Three operands (a real one converted first, as einsum takes one dtype): Σ x_i y_i w_i.
    let n = 7;
    let x: Vec<C> = (0..n).map(|t| z(t, 0.5)).collect();
    let y: Vec<C> = (0..n).map(|t| z(t, 2.5)).collect();
    let w: Vec<f32> = (0..n).map(|t| 0.5 + t as f32 * 0.25).collect();
    let (xa, ya) = (
        Array::from_slice(&dev, &x, &[n]).unwrap(),
        Array::from_slice(&dev, &y, &[n]).unwrap(),
    );
    let wa = Array::from_slice(&dev, &w, &[n]).unwrap();
    assert!(matches!(
        gpuarray::einsum("i,i,i->", &[&xa, &ya, &wa]),
        Err(gpuarray::Error::DTypeMismatch { .. })
    ));
    let wa = wa.astype(DType::C64).unwrap();
    let want: Complex64 = (0..n).map(|t| wide(x[t]) * wide(y[t]) * w[t] as f64).sum();
    let got = gpuarray::einsum("i,i,i->", &[&xa, &ya, &wa]).unwrap();
    assert_eq!(got.shape(), &[] as &[usize]);
    assert!(close(&got.to_vec::<C>().unwrap(), &[want], n));
    // A trace, and an outer product in implicit mode.
    let sq = Array::from_slice(&dev, &av[..9], &[3, 3]).unwrap();
    let trace: Complex64 = (0..3).map(|t| wide(av[t * 4])).sum();
    let got = gpuarray::einsum("ii", &[&sq])
        .unwrap()
        .to_vec::<C>()
        .unwrap();
    assert!(close(&got, &[trace], 3));
    let outer: Vec<Complex64> = (0..n)
        .flat_map(|r| (0..n).map(move |c| (r, c)))
        .map(|(r, c)| wide(x[r]) * wide(y[c]))
        .collect();
    let got = gpuarray::einsum("i,j", &[&xa, &ya]).unwrap();
    assert!(close(&got.to_vec::<C>().unwrap(), &outer, 1));
}
