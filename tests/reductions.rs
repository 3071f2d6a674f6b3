//! Reductions, scans and their compositions on the real adapter, against f64 references written
//! here: every axis set with and without keepdims on contiguous and strided views, integer
//! exactness, NumPy's empty-reduction rules, NaN propagation, tolerances that scale with the
//! number of summed terms, and one array larger than a 128 MiB storage binding.

mod common;

use common::{read, strides_of, unravel, upload, values};
use gpuarray::{Array, Axes, DType, SliceArg};

/// Reference reduction of `data` (shape `shape`) over `axes` with `f`, and Σ|x| per output.
fn reduce_ref(
    data: &[f64],
    shape: &[usize],
    axes: &[usize],
    init: f64,
    f: fn(f64, f64) -> f64,
) -> (Vec<usize>, Vec<f64>, Vec<f64>) {
    let kept: Vec<usize> = (0..shape.len()).filter(|d| !axes.contains(d)).collect();
    let out_shape: Vec<usize> = kept.iter().map(|&d| shape[d]).collect();
    let n_out: usize = out_shape.iter().product();
    let os = strides_of(&out_shape);
    let mut out = vec![init; n_out];
    let mut mag = vec![0.0; n_out];
    for (i, &x) in data.iter().enumerate() {
        let idx = unravel(i, shape);
        let o: usize = kept.iter().zip(&os).map(|(&d, &s)| idx[d] * s).sum();
        out[o] = f(out[o], x);
        mag[o] += x.abs();
    }
    (out_shape, out, mag)
}

fn subsets(nd: usize) -> Vec<Vec<usize>> {
    (1..(1usize << nd))
        .map(|m| (0..nd).filter(|d| m & (1 << d) != 0).collect())
        .collect()
}

#[test]
fn sums_and_extrema_over_every_axis_set() {
    let Some(dev) = common::device() else { return };
    let shape = [6usize, 70, 5];
    let n: usize = shape.iter().product();
    let h: Vec<f64> = values(n, 1, -1.0, 1.0);
    let a = upload(&dev, &h, &shape, DType::F32);
    let hf = read(&a);
    // A strided view of the same values: reversed first axis, as a transposed copy's transpose.
    let rev = a.slice(&[SliceArg::range(None, None, -1)]).unwrap();
    let mut hrev = vec![0.0; n];
    for (i, r) in hrev.iter_mut().enumerate() {
        let mut idx = unravel(i, &shape);
        idx[0] = shape[0] - 1 - idx[0];
        *r = hf[idx
            .iter()
            .zip(strides_of(&shape))
            .map(|(a, b)| a * b)
            .sum::<usize>()];
    }
    let tv = a.transpose(&[2, 0, 1]).unwrap(); // non-contiguous, rank 3
    let tshape = [5usize, 6, 70];
    let ht: Vec<f64> = (0..n)
        .map(|i| {
            let t = unravel(i, &tshape);
            hf[t[1] * 350 + t[2] * 5 + t[0]]
        })
        .collect();
    for (arr, host, shp) in [
        (&a, &hf, &shape),
        (&rev, &hrev, &shape),
        (&tv, &ht, &tshape),
    ] {
        for axes in subsets(3) {
            let ax: Vec<isize> = axes.iter().map(|&d| d as isize).collect();
            for keepdims in [false, true] {
                let (oshape, want, mag) = reduce_ref(host, shp, &axes, 0.0, |a, b| a + b);
                let got = arr.sum(ax.clone(), keepdims).unwrap();
                let mut expect_shape = shp.to_vec();
                for &d in axes.iter().rev() {
                    if keepdims {
                        expect_shape[d] = 1;
                    } else {
                        expect_shape.remove(d);
                    }
                }
                assert_eq!(got.shape(), &expect_shape[..]);
                assert_eq!(oshape.iter().product::<usize>(), got.len());
                let k = (n / got.len()) as f64;
                for (i, g) in read(&got).iter().enumerate() {
                    // Tree-shaped: error bound ~ (log2 k + a short sequential run) eps Σ|x|.
                    let tol = (k.log2() + 16.0) * f32::EPSILON as f64 * mag[i];
                    assert!(
                        (g - want[i]).abs() <= tol,
                        "sum {axes:?} [{i}] {g} vs {}",
                        want[i]
                    );
                }
                let (_, want, _) = reduce_ref(host, shp, &axes, f64::NEG_INFINITY, f64::max);
                assert_eq!(
                    read(&arr.max(ax.clone(), keepdims).unwrap()),
                    want,
                    "max {axes:?}"
                );
                let (_, want, _) = reduce_ref(host, shp, &axes, f64::INFINITY, f64::min);
                assert_eq!(
                    read(&arr.min(ax.clone(), keepdims).unwrap()),
                    want,
                    "min {axes:?}"
                );
            }
        }
    }
    // Axis errors.
    assert!(a.sum(3, false).is_err());
    assert!(a.sum([0, 0], false).is_err());
    assert!(a.sum(-1, false).is_ok());
}

#[test]
fn integer_and_bool_reductions_are_exact() {
    let Some(dev) = common::device() else { return };
    let shape = [9usize, 33];
    let h: Vec<f64> = values(297, 7, -1000.0, 1000.0)
        .iter()
        .map(|x| x.trunc())
        .collect();
    let a = upload(&dev, &h, &shape, DType::I32);
    for axes in subsets(2) {
        let ax: Vec<isize> = axes.iter().map(|&d| d as isize).collect();
        let (_, want, _) = reduce_ref(&h, &shape, &axes, 0.0, |a, b| a + b);
        assert_eq!(read(&a.sum(ax.clone(), false).unwrap()), want);
        let (_, want, _) = reduce_ref(&h, &shape, &axes, f64::NEG_INFINITY, f64::max);
        assert_eq!(read(&a.max(ax.clone(), false).unwrap()), want);
        let (_, want, _) = reduce_ref(&h, &shape, &axes, 1.0, |a, b| {
            (a as i32).wrapping_mul(b as i32) as f64
        });
        assert_eq!(
            read(&a.prod(ax.clone(), false).unwrap()),
            want,
            "prod {axes:?}"
        );
        let (_, want, _) = reduce_ref(&h, &shape, &axes, 0.0, |a, b| {
            f64::from(a != 0.0 || b > 500.0)
        });
        assert_eq!(
            read(&a.gt(500).unwrap().any(ax.clone(), false).unwrap()),
            want
        );
        let (_, want, _) = reduce_ref(&h, &shape, &axes, 1.0, |a, b| {
            f64::from(a != 0.0 && b > -900.0)
        });
        assert_eq!(
            read(&a.gt(-900).unwrap().all(ax.clone(), false).unwrap()),
            want
        );
    }
    // i32 sums wrap like NumPy with dtype=int32; a bool sum counts (as i32).
    let big = upload(&dev, &[2147483647.0, 1.0], &[2], DType::I32);
    assert_eq!(
        big.sum(Axes::All, false).unwrap().item::<i32>().unwrap(),
        i32::MIN
    );
    let m = a.gt(0).unwrap().sum(Axes::All, false).unwrap();
    assert_eq!(m.dtype(), DType::I32);
    assert_eq!(
        m.item::<i32>().unwrap(),
        h.iter().filter(|&&x| x > 0.0).count() as i32
    );
    let u = upload(&dev, &[4000000000.0, 5.0, 7.0], &[3], DType::U32);
    assert_eq!(
        u.max(Axes::All, false).unwrap().item::<u32>().unwrap(),
        4000000000
    );
    assert_eq!(u.min(Axes::All, false).unwrap().item::<u32>().unwrap(), 5);
    // Float any/all: NaN is true, -0.0 false.
    let f = upload(&dev, &[0.0, -0.0, f64::NAN], &[3], DType::F32);
    assert_eq!(
        f.any(Axes::All, false).unwrap().to_vec_bool().unwrap(),
        vec![true]
    );
    assert_eq!(
        f.slice(&[SliceArg::range(None, Some(2), 1)])
            .unwrap()
            .any(Axes::All, false)
            .unwrap()
            .to_vec_bool()
            .unwrap(),
        vec![false]
    );
    assert_eq!(
        f.all(Axes::All, false).unwrap().to_vec_bool().unwrap(),
        vec![false]
    );
}

#[test]
fn empty_reductions_follow_numpy() {
    let Some(dev) = common::device() else { return };
    let e = Array::zeros(&dev, &[0], DType::F32).unwrap();
    assert_eq!(e.sum(Axes::All, false).unwrap().item::<f32>().unwrap(), 0.0);
    assert_eq!(
        e.prod(Axes::All, false).unwrap().item::<f32>().unwrap(),
        1.0
    );
    assert!(e
        .mean(Axes::All, false)
        .unwrap()
        .item::<f32>()
        .unwrap()
        .is_nan());
    assert_eq!(
        e.any(Axes::All, false).unwrap().to_vec_bool().unwrap(),
        vec![false]
    );
    assert_eq!(
        e.all(Axes::All, false).unwrap().to_vec_bool().unwrap(),
        vec![true]
    );
    for r in [
        e.max(Axes::All, false),
        e.min(Axes::All, false),
        e.argmax(None, false),
    ] {
        let msg = r.unwrap_err().to_string();
        assert!(msg.contains("empty") || msg.contains("zero-size"), "{msg}");
    }
    assert!(e.max(Axes::All, false).is_err() && e.argmin(None, false).is_err());
    let z = Array::zeros(&dev, &[3, 0], DType::I32).unwrap();
    assert_eq!(read(&z.sum(1, false).unwrap()), vec![0.0; 3]);
    assert_eq!(z.sum(0, false).unwrap().shape(), &[0]);
    assert!(z.max(1, false).is_err());
    assert_eq!(z.max(0, false).unwrap().shape(), &[0]);
}

#[test]
fn nan_and_signed_zero_in_reductions() {
    let Some(dev) = common::device() else { return };
    let mut h = values(5000, 3, -10.0, 10.0);
    h[1234] = f64::NAN;
    h[4321] = f64::NAN;
    let a = upload(&dev, &h, &[5000], DType::F32);
    assert!(a
        .max(Axes::All, false)
        .unwrap()
        .item::<f32>()
        .unwrap()
        .is_nan());
    assert!(a
        .min(Axes::All, false)
        .unwrap()
        .item::<f32>()
        .unwrap()
        .is_nan());
    assert!(a
        .sum(Axes::All, false)
        .unwrap()
        .item::<f32>()
        .unwrap()
        .is_nan());
    assert_eq!(a.argmax(None, false).unwrap().item::<i32>().unwrap(), 1234);
    assert_eq!(a.argmin(None, false).unwrap().item::<i32>().unwrap(), 1234);
    let r = a.reshape(&[50, 100]).unwrap();
    let m = r.max(1, false).unwrap().to_vec::<f32>().unwrap();
    for (i, v) in m.iter().enumerate() {
        let row = &h[i * 100..(i + 1) * 100];
        if row.iter().any(|x| x.is_nan()) {
            assert!(v.is_nan(), "row {i}");
        } else {
            let w = row
                .iter()
                .map(|&x| x as f32)
                .fold(f32::NEG_INFINITY, f32::max);
            assert_eq!(v.to_bits(), w.to_bits(), "row {i}");
        }
    }
    // Ties: the first index; ±0 compare equal; infinities.
    let t = upload(
        &dev,
        &[-0.0, 0.0, 3.0, 3.0, f64::NEG_INFINITY],
        &[5],
        DType::F32,
    );
    assert_eq!(t.argmax(None, false).unwrap().item::<i32>().unwrap(), 2);
    assert_eq!(t.argmin(None, false).unwrap().item::<i32>().unwrap(), 4);
    let z = upload(&dev, &[-0.0, -0.0], &[2], DType::F32);
    assert_eq!(
        z.max(Axes::All, false)
            .unwrap()
            .item::<f32>()
            .unwrap()
            .to_bits(),
        (-0.0f32).to_bits()
    );
    assert_eq!(z.argmax(None, false).unwrap().item::<i32>().unwrap(), 0);
    let inf = upload(
        &dev,
        &[1.0, f64::INFINITY, f64::NEG_INFINITY],
        &[3],
        DType::F32,
    );
    assert!(inf
        .sum(Axes::All, false)
        .unwrap()
        .item::<f32>()
        .unwrap()
        .is_nan());
    assert_eq!(
        inf.max(Axes::All, false).unwrap().item::<f32>().unwrap(),
        f32::INFINITY
    );
    // Subnormals survive max/argmax.
    let s = upload(&dev, &[1e-40, 2e-40, 0.0], &[3], DType::F32);
    assert_eq!(s.argmax(None, false).unwrap().item::<i32>().unwrap(), 1);
    assert_eq!(
        s.max(Axes::All, false)
            .unwrap()
            .item::<f32>()
            .unwrap()
            .to_bits(),
        2e-40f32.to_bits()
    );
}

#[test]
fn arg_reductions_along_axes_every_dtype() {
    let Some(dev) = common::device() else { return };
    let shape = [7usize, 300];
    let h: Vec<f64> = values(2100, 17, 0.0, 200.0)
        .iter()
        .map(|x| x.trunc())
        .collect();
    for dtype in [DType::F32, DType::F16, DType::F64, DType::I32, DType::U32] {
        if !dev.supports(dtype) {
            continue;
        }
        let a = upload(&dev, &h, &shape, dtype);
        for (axis, kdims) in [(0usize, 300usize), (1, 7)] {
            let got = read(&a.argmax(Some(axis as isize), false).unwrap());
            let gmin = read(&a.argmin(Some(axis as isize), true).unwrap());
            assert_eq!(got.len(), kdims);
            for o in 0..kdims {
                let line: Vec<f64> = (0..shape[axis])
                    .map(|j| {
                        if axis == 0 {
                            h[j * 300 + o]
                        } else {
                            h[o * 300 + j]
                        }
                    })
                    .collect();
                let mut best = 0;
                let mut worst = 0;
                for j in 0..line.len() {
                    if line[j] > line[best] {
                        best = j;
                    }
                    if line[j] < line[worst] {
                        worst = j;
                    }
                }
                assert_eq!(got[o], best as f64, "{dtype} argmax axis {axis} [{o}]");
                assert_eq!(gmin[o], worst as f64, "{dtype} argmin axis {axis} [{o}]");
            }
        }
        // Sum, mean, cumsum in every dtype (values are small integers: exact in each).
        let s = read(&a.sum(1, false).unwrap());
        for (o, v) in s.iter().enumerate() {
            let w: f64 = h[o * 300..(o + 1) * 300].iter().sum();
            let tol = if dtype == DType::F16 { w * 2e-3 } else { 0.0 };
            assert!((v - w).abs() <= tol, "{dtype} sum {v} vs {w}");
        }
        let c = read(&a.cumsum(Some(0)).unwrap());
        let mut acc = [0.0f64; 300];
        for r in 0..7 {
            for j in 0..300 {
                acc[j] += h[r * 300 + j];
                assert_eq!(c[r * 300 + j], acc[j], "{dtype} cumsum");
            }
        }
    }
}

#[test]
fn mean_var_std_cumsum_softmax_logsumexp() {
    let Some(dev) = common::device() else { return };
    let (r, c) = (13usize, 1000usize);
    let h = values(r * c, 5, -3.0, 3.0);
    let a = upload(&dev, &h, &[r, c], DType::F32);
    let hf = read(&a);
    let mean = read(&a.mean(1, false).unwrap());
    let var = read(&a.var(1, 1, false).unwrap());
    let std = read(&a.std(1, 0, true).unwrap());
    let sm = read(&a.softmax(1).unwrap());
    let lse = read(&a.logsumexp(1, false).unwrap());
    let cs = read(&a.cumsum(Some(1)).unwrap());
    for i in 0..r {
        let row = &hf[i * c..(i + 1) * c];
        let m: f64 = row.iter().sum::<f64>() / c as f64;
        let ss: f64 = row.iter().map(|x| (x - m) * (x - m)).sum();
        assert!((mean[i] - m).abs() < 1e-5, "mean");
        assert!(
            (var[i] - ss / (c - 1) as f64).abs() < 1e-5 * (ss / c as f64),
            "var"
        );
        assert!((std[i] - (ss / c as f64).sqrt()).abs() < 1e-5, "std");
        let mx = row.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let z: f64 = row.iter().map(|x| (x - mx).exp()).sum();
        for j in 0..c {
            let w = (row[j] - mx).exp() / z;
            assert!((sm[i * c + j] - w).abs() < 1e-6 + 1e-5 * w, "softmax");
        }
        assert!((lse[i] - (mx + z.ln())).abs() < 1e-5, "logsumexp");
        let mut acc = 0.0;
        for j in 0..c {
            acc += row[j];
            // NumPy's cumsum is sequential too: error grows with the prefix length.
            assert!(
                (cs[i * c + j] - acc).abs() <= (j + 1) as f64 * 6e-8 * 3.0 + 1e-6,
                "cumsum"
            );
        }
    }
    // Stable for huge logits; integer mean is f64; cumsum of the flattened array.
    let big = upload(&dev, &[1000.0, 1000.0, -1000.0], &[3], DType::F32);
    let s = read(&big.softmax(0).unwrap());
    assert!((s[0] - 0.5).abs() < 1e-6 && s[2] == 0.0);
    let i = upload(&dev, &[1.0, 2.0, 4.0], &[3], DType::I32);
    let m = i.mean(Axes::All, false).unwrap();
    assert!(m.dtype().is_float());
    assert!((read(&m)[0] - 7.0 / 3.0).abs() < 1e-6);
    assert_eq!(read(&i.cumsum(None).unwrap()), vec![1.0, 3.0, 7.0]);
    assert_eq!(read(&i.cumprod(None).unwrap()), vec![1.0, 2.0, 8.0]);
    assert!(i.softmax(0).is_err() && i.logsumexp(Axes::All, false).is_err());
}

#[test]
fn long_f32_sum_error_grows_slowly() {
    let Some(dev) = common::device() else { return };
    // 2^22 values of one sign: a naive running f32 sum drifts by ~n eps; a tree stays ~log n eps.
    let n = 1usize << 22;
    let h = values(n, 77, 0.0, 1.0);
    let a = upload(&dev, &h, &[n], DType::F32);
    let exact: f64 = read(&a).iter().sum();
    let got = a.sum(Axes::All, false).unwrap().item::<f32>().unwrap() as f64;
    let rel = (got - exact).abs() / exact;
    assert!(rel < 40.0 * f32::EPSILON as f64, "relative error {rel:e}");
    let naive = h.iter().fold(0.0f32, |s, &x| s + x as f32) as f64;
    eprintln!(
        "sum of 2^22 f32: tree rel err {rel:e}, naive f32 loop {:e}",
        (naive - exact).abs() / exact
    );
}

#[test]
fn reduction_larger_than_one_binding() {
    let Some(dev) = common::device() else { return };
    // 150 MiB of f32 (> the 128 MiB binding on lavapipe): whole-array and per-axis reductions.
    let n = 39_321_000usize; // 150 MiB of f32
    let host: Vec<f32> = (0..n).map(|i| ((i % 1000) as f32) * 0.001).collect();
    let a = Array::from_slice(&dev, &host, &[n]).unwrap();
    let exact: f64 = host.iter().map(|&x| x as f64).sum();
    let got = a.sum(Axes::All, false).unwrap().item::<f32>().unwrap() as f64;
    assert!((got - exact).abs() / exact < 1e-5, "{got} vs {exact}");
    let rows = a.reshape(&[(n / 1000) as isize, 1000]).unwrap();
    let cols = read(&rows.sum(0, false).unwrap());
    for (j, v) in cols.iter().enumerate() {
        let w = (n / 1000) as f64 * (j as f32 * 0.001) as f64;
        assert!((v - w).abs() <= 1e-5 * w.max(1.0), "column {j}: {v} vs {w}");
    }
    assert_eq!(a.argmax(None, false).unwrap().item::<i32>().unwrap(), 999);
    let t = rows.t();
    assert_eq!(read(&t.max(1, false).unwrap())[7], 0.007f32 as f64);
    // Element-wise over the same 150 MiB: scalar, a broadcast row, a comparison.
    let b = a.mul(2.0).unwrap().add(1.0).unwrap();
    let row = Array::from_slice(&dev, &vec![1.0f32; 1000], &[1000]).unwrap();
    let c = rows.sub(&row).unwrap();
    let m = a.ge(0.5).unwrap();
    let (bv, cv, mv) = (
        b.to_vec::<f32>().unwrap(),
        c.to_vec::<f32>().unwrap(),
        m.to_vec_bool().unwrap(),
    );
    for i in (0..n).step_by(4099).chain([n - 1]) {
        assert_eq!(bv[i], host[i] * 2.0 + 1.0, "[{i}]");
        assert_eq!(cv[i], host[i] - 1.0, "[{i}]");
        assert_eq!(mv[i], host[i] >= 0.5, "[{i}]");
    }
    drop((b, c, m, row));
    drop((a, rows, t));
    common::check_clean(&dev, 0);
}
