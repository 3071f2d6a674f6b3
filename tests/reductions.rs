//! Reductions, scans and their compositions on the real adapter, against f64 references written
//! here: every axis set with and without keepdims on contiguous and strided views, integer
//! exactness, NumPy's empty-reduction rules, NaN propagation, tolerances that scale with the
//! number of summed terms, and one array larger than a 128 MiB storage binding.

mod common;

use common::Indices;

use common::{read, strides_of, unravel, upload, values};
use gpuarray::{Array, Axes, DType, Error, SliceArg};

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
    assert_err!(a.sum(3, false), Error::Axis { op: "sum", .. }, "sum");
    assert_err!(
        a.sum([0, 0], false),
        Error::InvalidArgument { op: "sum", .. },
        "sum"
    );
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
    assert!(
        e.mean(Axes::All, false)
            .unwrap()
            .item::<f32>()
            .unwrap()
            .is_nan()
    );
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
    assert_err!(
        e.max(Axes::All, false),
        Error::InvalidArgument { op: "max", .. },
        "max"
    );
    assert_err!(
        e.argmin(None, false),
        Error::InvalidArgument { op: "argmin", .. },
        "argmin"
    );
    let z = Array::zeros(&dev, &[3, 0], DType::I32).unwrap();
    assert_eq!(read(&z.sum(1, false).unwrap()), vec![0.0; 3]);
    assert_eq!(z.sum(0, false).unwrap().shape(), &[0]);
    assert_err!(
        z.max(1, false),
        Error::InvalidArgument { op: "max", .. },
        "max"
    );
    assert_eq!(z.max(0, false).unwrap().shape(), &[0]);
}

#[test]
fn nan_and_signed_zero_in_reductions() {
    let Some(dev) = common::device() else { return };
    let mut h = values(5000, 3, -10.0, 10.0);
    h[1234] = f64::NAN;
    h[4321] = f64::NAN;
    let a = upload(&dev, &h, &[5000], DType::F32);
    assert!(
        a.max(Axes::All, false)
            .unwrap()
            .item::<f32>()
            .unwrap()
            .is_nan()
    );
    assert!(
        a.min(Axes::All, false)
            .unwrap()
            .item::<f32>()
            .unwrap()
            .is_nan()
    );
    assert!(
        a.sum(Axes::All, false)
            .unwrap()
            .item::<f32>()
            .unwrap()
            .is_nan()
    );
    assert_eq!(common::idx(&a.argmax(None, false).unwrap())[0], 1234);
    assert_eq!(common::idx(&a.argmin(None, false).unwrap())[0], 1234);
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
    assert_eq!(common::idx(&t.argmax(None, false).unwrap())[0], 2);
    assert_eq!(common::idx(&t.argmin(None, false).unwrap())[0], 4);
    let z = upload(&dev, &[-0.0, -0.0], &[2], DType::F32);
    assert_eq!(
        z.max(Axes::All, false)
            .unwrap()
            .item::<f32>()
            .unwrap()
            .to_bits(),
        (-0.0f32).to_bits()
    );
    assert_eq!(common::idx(&z.argmax(None, false).unwrap())[0], 0);
    // cumsum of negative zeros stays -0.0 (NumPy: np.cumsum([-0.0, -0.0, 0.0]) is [-0, -0, 0]).
    let zs = upload(&dev, &[-0.0, -0.0, 0.0], &[3], DType::F32);
    let bits: Vec<u32> = zs
        .cumsum(None)
        .unwrap()
        .to_vec::<f32>()
        .unwrap()
        .iter()
        .map(|x| x.to_bits())
        .collect();
    assert_eq!(bits, vec![0x8000_0000, 0x8000_0000, 0]);
    let inf = upload(
        &dev,
        &[1.0, f64::INFINITY, f64::NEG_INFINITY],
        &[3],
        DType::F32,
    );
    assert!(
        inf.sum(Axes::All, false)
            .unwrap()
            .item::<f32>()
            .unwrap()
            .is_nan()
    );
    assert_eq!(
        inf.max(Axes::All, false).unwrap().item::<f32>().unwrap(),
        f32::INFINITY
    );
    // Subnormals survive max/argmax.
    let s = upload(&dev, &[1e-40, 2e-40, 0.0], &[3], DType::F32);
    assert_eq!(common::idx(&s.argmax(None, false).unwrap())[0], 1);
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
        if !common::supports(&dev, dtype, "arg_reductions_along_axes_every_dtype") {
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
        // Errors in f32 ulps of each result's natural magnitude (the mean of |x| for the mean,
        // which may be near 0; the result itself otherwise). A 1000-term row is folded in runs
        // of at most 256 sequential terms per accumulator under trees (src/ops/reduce_rows.rs);
        // such a run's rounding errors add like a random walk, ~sqrt(256) = 16 ulps, so the bound
        // is 4 x 16 = 64 ulps (at most 5.7 measured, softmax), plus exp's 8 where exp is used.
        let (e, k) = (f32::EPSILON as f64, 64.0);
        let mag: f64 = row.iter().map(|x| x.abs()).sum::<f64>() / c as f64;
        let near = |got: f64, want: f64, scale: f64, what: &str| {
            let u = (got - want).abs() / (e * scale.abs());
            assert!(
                u <= k,
                "{what} row {i}: {got} vs {want} ({u:.1} ulps > {k})"
            );
        };
        near(mean[i], m, mag, "mean");
        let v = ss / (c - 1) as f64;
        near(var[i], v, v, "var");
        let sd = (ss / c as f64).sqrt();
        near(std[i], sd, sd, "std");
        let mx = row.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let z: f64 = row.iter().map(|x| (x - mx).exp()).sum();
        for j in 0..c {
            let w = (row[j] - mx).exp() / z;
            let u = (sm[i * c + j] - w).abs() / (e * w);
            assert!(
                u <= k + 8.0,
                "softmax [{i}, {j}]: {} vs {w} ({u:.1} ulps)",
                sm[i * c + j]
            );
        }
        near(lse[i], mx + z.ln(), mx + z.ln(), "logsumexp");
        let (mut acc, mut acc_abs) = (0.0, 0.0);
        for j in 0..c {
            acc += row[j];
            acc_abs += row[j].abs();
            // A scan: the same 64-ulp bound, of the prefix's sum of magnitudes.
            near(cs[i * c + j], acc, acc_abs, "cumsum");
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
    assert_err!(
        i.softmax(0),
        Error::Unsupported { op: "softmax", .. },
        "softmax"
    );
    assert_err!(
        i.logsumexp(Axes::All, false),
        Error::Unsupported {
            op: "logsumexp",
            ..
        },
        "logsumexp"
    );
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
    let Some(dev) = common::device_with_binding(common::TEST_BINDING) else {
        return;
    };
    // A sixteenth more f32 than one storage binding holds: whole-array and per-axis reductions.
    let what = "reduction_larger_than_one_binding";
    let Some(n) = common::past_binding(&dev, 4, 1000, what) else {
        return;
    };
    common::assert_crosses_binding(&dev, 4 * n as u64, what);
    // Small integers (1, 2, 3 repeating), so every partial sum is an exact f32 (the total stays
    // under 2^24) and every sum must equal the host's exactly: an element lost or doubled at a
    // seam between binding windows moves a sum by 1 or more. The one maximum (5) and the one
    // minimum (0) sit in the last window, which a reduction that stopped early never reads.
    let mut host: Vec<f32> = (0..n).map(|i| 1.0 + (i % 3) as f32).collect();
    let (max_at, min_at) = (n - 7, n - 3);
    host[max_at] = 5.0;
    host[min_at] = 0.0;
    let exact: f64 = host.iter().map(|&x| x as f64).sum();
    assert!(exact < (1u64 << 24) as f64);
    let a = Array::from_slice(&dev, &host, &[n]).unwrap();
    let got = a.sum(Axes::All, false).unwrap().item::<f32>().unwrap() as f64;
    assert_eq!(got, exact, "whole-array sum");
    let (rows_n, cols_n) = (n / 1000, 1000);
    let rows = a.reshape(&[rows_n as isize, cols_n as isize]).unwrap();
    let cols = read(&rows.sum(0, false).unwrap());
    for (j, v) in cols.iter().enumerate() {
        let w: f64 = (0..rows_n).map(|r| host[r * cols_n + j] as f64).sum();
        assert_eq!(*v, w, "column {j}");
    }
    // Whole rows in groups of rows that each fit a binding (the rows kernel, in pieces).
    let row_sums = read(&rows.sum(1, false).unwrap());
    assert_eq!(row_sums.len(), rows_n);
    for (r, v) in row_sums.iter().enumerate() {
        let w: f64 = host[r * cols_n..(r + 1) * cols_n]
            .iter()
            .map(|&x| x as f64)
            .sum();
        assert_eq!(*v, w, "row {r}");
    }
    assert_eq!(a.max(Axes::All, false).unwrap().item::<f32>().unwrap(), 5.0);
    assert_eq!(a.min(Axes::All, false).unwrap().item::<f32>().unwrap(), 0.0);
    assert_eq!(
        common::idx(&a.argmax(None, false).unwrap())[0],
        max_at as i32
    );
    assert_eq!(
        common::idx(&a.argmin(None, false).unwrap())[0],
        min_at as i32
    );
    // Arg-reductions of whole rows over 128 MiB: one chunk per row, straight into the outputs.
    // Row r starts on 1 + r % 3 (1000 % 3 == 1): its first 3 is at (2 - r % 3) % 3, its first
    // 1 at (3 - r % 3) % 3; the last row holds the 5 and the 0.
    let am = rows.argmax(Some(1), false).unwrap().indices();
    let an = rows.argmin(Some(1), false).unwrap().indices();
    assert_eq!((am.len(), an.len()), (rows_n, rows_n));
    for r in 0..rows_n {
        let (want_max, want_min) = if r == rows_n - 1 {
            (max_at % cols_n, min_at % cols_n)
        } else {
            ((2 + 3 - r % 3) % 3, (3 - r % 3) % 3)
        };
        assert_eq!(am[r] as usize, want_max, "row {r} argmax");
        assert_eq!(an[r] as usize, want_min, "row {r} argmin");
    }
    let t = rows.t();
    let col_max = read(&t.max(1, false).unwrap());
    for (j, &v) in col_max.iter().enumerate() {
        let w = (0..rows_n)
            .map(|r| host[r * cols_n + j])
            .fold(f32::MIN, f32::max);
        assert_eq!(v, w as f64, "column {j} max");
    }
    // Element-wise over the same 150 MiB: scalar, a broadcast row, a comparison.
    let b = a.mul(2.0).unwrap().add(1.0).unwrap();
    let row = Array::from_slice(&dev, &vec![1.0f32; 1000], &[1000]).unwrap();
    let c = rows.sub(&row).unwrap();
    let m = a.ge(1.5).unwrap();
    let (bv, cv, mv) = (
        b.to_vec::<f32>().unwrap(),
        c.to_vec::<f32>().unwrap(),
        m.to_vec_bool().unwrap(),
    );
    for i in (0..n).step_by(4099).chain([n - 1]) {
        assert_eq!(bv[i], host[i] * 2.0 + 1.0, "[{i}]");
        assert_eq!(cv[i], host[i] - 1.0, "[{i}]");
        assert_eq!(mv[i], host[i] >= 1.5, "[{i}]");
    }
    drop((b, c, m, row));
    drop((a, rows, t));
    common::check_clean(&dev, 0);
}

/// The dtypes the adapter supports, of all the reductions take.
fn dtypes(dev: &gpuarray::Device) -> Vec<DType> {
    [
        DType::F32,
        DType::F16,
        DType::F64,
        DType::I32,
        DType::U32,
        DType::Bool,
    ]
    .into_iter()
    .filter(|&d| common::supports(dev, d, "the every-dtype reduction tests"))
    .collect()
}

/// Host values for `dtype`: small integers for the integer types and bool (exact sums), signed
/// values otherwise.
fn sample(n: usize, seed: u64, dtype: DType) -> Vec<f64> {
    let v = values(n, seed, -100.0, 100.0);
    match dtype {
        DType::I32 => v.iter().map(|x| x.trunc()).collect(),
        DType::U32 => v.iter().map(|x| (x + 100.0).trunc()).collect(),
        DType::Bool => v.iter().map(|&x| f64::from(x > 60.0)).collect(),
        _ => v,
    }
}

/// Unit roundoff of the accumulation (f16 sums in f32, then one rounding to f16 at the end).
fn eps(dtype: DType) -> (f64, f64) {
    match dtype {
        DType::F32 => (f32::EPSILON as f64, 0.0),
        DType::F16 => (f32::EPSILON as f64, 1.0 / 1024.0),
        DType::F64 => (f64::EPSILON, 0.0),
        _ => (0.0, 0.0),
    }
}

/// Checks sum, max, min, any, all (and prod of the integer types, exact with wrapping) of `a`
/// over `axes` against references over the host copy `h` (shape `shape`).
fn check_all_ops(
    a: &Array,
    h: &[f64],
    shape: &[usize],
    axes: &[usize],
    keepdims: bool,
    what: &str,
) {
    let dtype = a.dtype();
    let ax: Vec<isize> = axes.iter().map(|&d| d as isize).collect();
    let (oshape, want, mag) = reduce_ref(h, shape, axes, 0.0, |x, y| x + y);
    let k = (h.len() / oshape.iter().product::<usize>().max(1)).max(1) as f64;
    let got = a.sum(ax.clone(), keepdims).unwrap();
    let mut expect_shape = shape.to_vec();
    for &d in axes.iter().rev() {
        if keepdims {
            expect_shape[d] = 1;
        } else {
            expect_shape.remove(d);
        }
    }
    assert_eq!(got.shape(), &expect_shape[..], "{what}: sum shape");
    let (e, out_e) = eps(dtype);
    for (i, g) in read(&got).iter().enumerate() {
        // Sequential runs of at most a few hundred terms per accumulator, under trees.
        let tol = (k.log2() + 300.0) * e * mag[i] + out_e * want[i].abs();
        let w = match dtype {
            DType::U32 => want[i] % 4294967296.0,
            // Past f16's largest finite value the f16 result is an infinity (as in NumPy).
            DType::F16 if want[i].abs() > 65504.0 + 16.0 => want[i].signum() * f64::INFINITY,
            _ => want[i],
        };
        if w.is_infinite() {
            assert_eq!(*g, w, "{what}: sum {axes:?} [{i}]");
            continue;
        }
        assert!(
            (g - w).abs() <= tol,
            "{what}: sum {axes:?} [{i}] {g} vs {w}"
        );
    }
    if dtype != DType::Bool {
        let (_, want, _) = reduce_ref(h, shape, axes, f64::NEG_INFINITY, f64::max);
        assert_eq!(
            read(&a.max(ax.clone(), keepdims).unwrap()),
            want,
            "{what}: max {axes:?}"
        );
        let (_, want, _) = reduce_ref(h, shape, axes, f64::INFINITY, f64::min);
        assert_eq!(
            read(&a.min(ax.clone(), keepdims).unwrap()),
            want,
            "{what}: min {axes:?}"
        );
    }
    if dtype == DType::I32 || dtype == DType::U32 {
        let (_, want, _) = reduce_ref(h, shape, axes, 1.0, |x, y| {
            (x as i64 as u32).wrapping_mul(y as i64 as u32) as f64
        });
        let got = read(&a.prod(ax.clone(), keepdims).unwrap());
        for (g, w) in got.iter().zip(&want) {
            let w = if dtype == DType::I32 {
                *w as u32 as i32 as f64
            } else {
                *w
            };
            assert_eq!(*g, w, "{what}: prod {axes:?}");
        }
    }
    let (_, want, _) = reduce_ref(h, shape, axes, 0.0, |x, y| f64::from(x != 0.0 || y != 0.0));
    assert_eq!(
        read(&a.any(ax.clone(), keepdims).unwrap()),
        want,
        "{what}: any {axes:?}"
    );
    let (_, want, _) = reduce_ref(h, shape, axes, 1.0, |x, y| f64::from(x != 0.0 && y != 0.0));
    assert_eq!(
        read(&a.all(ax, keepdims).unwrap()),
        want,
        "{what}: all {axes:?}"
    );
}

#[test]
fn whole_array_lengths_and_offsets_every_dtype() {
    let Some(dev) = common::device() else { return };
    // Lengths around every load-unit, chunk and one-invocation-per-row boundary, at each
    // alignment of the first element (slices of a longer array).
    let lengths = [
        0usize,
        1,
        3,
        4,
        5,
        7,
        255,
        256,
        257,
        1023,
        4095,
        4096,
        4097,
        65536 + 5,
        (1 << 20) + 3,
    ];
    let n = (1 << 20) + 16;
    for dtype in dtypes(&dev) {
        let h = sample(n, 99, dtype);
        let a = upload(&dev, &h, &[n], dtype);
        let hf = read(&a);
        for &len in &lengths {
            // f16 loads eight packed halves at a time: eight alignments for it.
            let aligns = if dtype == DType::F16 { 8 } else { 4 };
            for off in 0..aligns {
                if len > 4096 && off % 2 == 1 {
                    continue; // half the alignments suffice for the long ones
                }
                let s = a
                    .slice(&[SliceArg::range(
                        Some(off as isize),
                        Some((off + len) as isize),
                        1,
                    )])
                    .unwrap();
                let hs = &hf[off..off + len];
                let what = format!("{dtype} len {len} offset {off}");
                if len == 0 {
                    assert_eq!(read(&s.sum(Axes::All, false).unwrap()), vec![0.0], "{what}");
                    continue;
                }
                check_all_ops(&s, hs, &[len], &[0], false, &what);
            }
        }
    }
}

#[test]
fn float_prod_and_mean_on_the_fast_path() {
    let Some(dev) = common::device() else { return };
    for dtype in [DType::F32, DType::F16, DType::F64] {
        if !common::supports(&dev, dtype, "float_prod_and_mean_on_the_fast_path") {
            continue;
        }
        // Factors near 1 keep the product finite; tolerance n eps relative.
        for len in [1usize, 5, 257, 4097, 100_003] {
            let h = values(len, 4, 0.999, 1.001);
            let a = upload(&dev, &h, &[len], dtype);
            let hf = read(&a);
            let want: f64 = hf.iter().product();
            let got = read(&a.prod(Axes::All, false).unwrap())[0];
            let (e, out_e) = eps(dtype);
            let tol = (len as f64 * 2.0 * e + out_e) * want.abs();
            assert!(
                (got - want).abs() <= tol,
                "{dtype} prod {len}: {got} vs {want}"
            );
            let mean = read(&a.mean(Axes::All, false).unwrap())[0];
            let wm = hf.iter().sum::<f64>() / len as f64;
            // Runs of at most 64 sequential terms per accumulator under a tree of log2(len)
            // levels (src/ops/reduce_rows.rs), in the accumulation's eps, plus the final rounding
            // of f16 (f64 at 100003 terms: 13 ulps measured; an f32 accumulation is ~10^7 off).
            let tol = ((len as f64).log2() + 64.0) * e * wm + out_e * wm;
            assert!(
                (mean - wm).abs() <= tol,
                "{dtype} mean {len}: {mean} vs {wm} (tolerance {tol:e})"
            );
        }
    }
    // Integer mean (f64 or f32) and var over the fast rows path.
    let h: Vec<f64> = (0..5000).map(|i| (i % 17) as f64).collect();
    let a = upload(&dev, &h, &[50, 100], DType::I32);
    let m = a.mean(1, false).unwrap();
    let oe = common::eps(m.dtype());
    let m = read(&m);
    let v = read(&a.var(1, 0, false).unwrap());
    for r in 0..50 {
        let row = &h[r * 100..(r + 1) * 100];
        let wm = row.iter().sum::<f64>() / 100.0;
        let wv = row.iter().map(|x| (x - wm) * (x - wm)).sum::<f64>() / 100.0;
        // The integer sum is exact and divided once: 1 ulp. The variance sums 100 squared
        // deviations of an inexact mean: 100 ulps (2.7 measured).
        assert!(
            (m[r] - wm).abs() <= oe * wm && (v[r] - wv).abs() <= 100.0 * oe * wv,
            "row {r}: mean {} vs {wm}, var {} vs {wv}",
            m[r],
            v[r]
        );
    }
}

#[test]
fn trailing_and_leading_axes_every_dtype() {
    let Some(dev) = common::device() else { return };
    // Rows of every length class (one invocation per row, one workgroup per row, several
    // chunks), and columns whose width is or is not a multiple of 4, with one or several row
    // blocks (partials through the second stage), also of a middle axis (batches of columns);
    // axes of length 1 reduce to copies.
    let shapes: [&[usize]; 11] = [
        &[1, 9],
        &[9, 1],
        &[4, 300, 12],
        &[6, 130, 7],
        &[7, 1000],
        &[33, 257],
        &[3, 5, 4097],
        &[2, 70_001],
        &[300, 12],
        &[1030, 5],
        &[40_000, 3],
    ];
    for dtype in dtypes(&dev) {
        for (si, &shape) in shapes.iter().enumerate() {
            let n: usize = shape.iter().product();
            let h = sample(n, 7 + si as u64, dtype);
            let a = upload(&dev, &h, shape, dtype);
            let hf = read(&a);
            let nd = shape.len();
            let mut axis_sets = vec![vec![nd - 1], vec![0]];
            if nd == 3 {
                axis_sets.push(vec![1]);
                axis_sets.push(vec![1, 2]);
                axis_sets.push(vec![0, 1]);
            }
            for axes in &axis_sets {
                for keepdims in [false, true] {
                    let what = format!("{dtype} {shape:?} keepdims {keepdims}");
                    check_all_ops(&a, &hf, shape, axes, keepdims, &what);
                }
            }
        }
    }
}

#[test]
fn sliced_and_reversed_views_take_the_right_path() {
    let Some(dev) = common::device() else { return };
    let (r, c) = (37usize, 1001usize);
    for dtype in [DType::F32, DType::I32, DType::F16] {
        if !common::supports(&dev, dtype, "sliced_and_reversed_views_take_the_right_path") {
            continue;
        }
        let h = sample(r * c, 3, dtype);
        let a = upload(&dev, &h, &[r, c], dtype);
        let hf = read(&a);
        // (view, host copy, shape) for: rows sliced at a misaligned start (row stride != k),
        // rows reversed (negative row stride), columns reversed (negative unit stride: the
        // strided kernel), a transposed view, and a column slice with a step.
        type View = (Array, Vec<f64>, Vec<usize>, &'static str);
        let mut views: Vec<View> = Vec::new();
        let pick = |f: &dyn Fn(usize, usize) -> (usize, usize), rr: usize, cc: usize| {
            let mut out = Vec::with_capacity(rr * cc);
            for i in 0..rr {
                for j in 0..cc {
                    let (si, sj) = f(i, j);
                    out.push(hf[si * c + sj]);
                }
            }
            out
        };
        views.push((
            a.slice(&[
                SliceArg::range(Some(2), None, 1),
                SliceArg::range(Some(3), Some(998), 1),
            ])
            .unwrap(),
            pick(&|i, j| (i + 2, j + 3), r - 2, 995),
            vec![r - 2, 995],
            "sliced",
        ));
        views.push((
            a.slice(&[SliceArg::range(None, None, -1)]).unwrap(),
            pick(&|i, j| (r - 1 - i, j), r, c),
            vec![r, c],
            "rows reversed",
        ));
        views.push((
            a.slice(&[
                SliceArg::range(None, None, 1),
                SliceArg::range(None, None, -1),
            ])
            .unwrap(),
            pick(&|i, j| (i, c - 1 - j), r, c),
            vec![r, c],
            "columns reversed",
        ));
        views.push((a.t(), pick(&|i, j| (j, i), c, r), vec![c, r], "transposed"));
        views.push((
            a.slice(&[
                SliceArg::range(None, None, 1),
                SliceArg::range(Some(1), None, 3),
            ])
            .unwrap(),
            pick(&|i, j| (i, 1 + 3 * j), r, 334),
            vec![r, 334],
            "column step 3",
        ));
        for (v, hv, shape, name) in &views {
            for axes in [vec![0usize], vec![1], vec![0, 1]] {
                check_all_ops(v, hv, shape, &axes, false, &format!("{dtype} {name}"));
            }
        }
    }
}

#[test]
fn nan_inf_and_negative_zero_on_the_fast_paths() {
    let Some(dev) = common::device() else { return };
    for dtype in [DType::F32, DType::F16, DType::F64] {
        if !common::supports(&dev, dtype, "nan_inf_and_negative_zero_on_the_fast_paths") {
            continue;
        }
        let n = 10_007usize;
        // A NaN at the head, inside the vec4 body, in the tail, or last: max/min/sum are NaN.
        for at in [0usize, 1, 2, 3, 4, 5000, n - 3, n - 1] {
            let mut h = values(n, 5, -1.0, 1.0);
            h[at] = f64::NAN;
            let a = upload(&dev, &h, &[n], dtype);
            for (name, r) in [
                ("max", a.max(Axes::All, false)),
                ("min", a.min(Axes::All, false)),
                ("sum", a.sum(Axes::All, false)),
            ] {
                assert!(read(&r.unwrap())[0].is_nan(), "{dtype} {name} NaN at {at}");
            }
            // Per row (rows and columns kernels): exactly the rows/columns holding the NaN.
            let m = a.slice(&[SliceArg::range(None, Some(10_000), 1)]).unwrap();
            let m = m.reshape(&[100, 100]).unwrap();
            let rows = read(&m.max(1, false).unwrap());
            let cols = read(&m.min(0, true).unwrap());
            for i in 0..100 {
                let in_row = at < 10_000 && at / 100 == i;
                let in_col = at < 10_000 && at % 100 == i;
                assert_eq!(rows[i].is_nan(), in_row, "{dtype} row {i} NaN at {at}");
                assert_eq!(cols[i].is_nan(), in_col, "{dtype} column {i} NaN at {at}");
            }
        }
        // Infinities: max/min pick them, inf + -inf is NaN, inf alone sums to inf.
        let mut h = values(5000, 6, -1.0, 1.0);
        h[10] = f64::INFINITY;
        h[4000] = f64::NEG_INFINITY;
        let a = upload(&dev, &h, &[5000], dtype);
        assert_eq!(read(&a.max(Axes::All, false).unwrap())[0], f64::INFINITY);
        assert_eq!(
            read(&a.min(Axes::All, false).unwrap())[0],
            f64::NEG_INFINITY
        );
        assert!(read(&a.sum(Axes::All, false).unwrap())[0].is_nan());
        let s = a.slice(&[SliceArg::range(None, Some(4000), 1)]).unwrap();
        assert_eq!(read(&s.sum(Axes::All, false).unwrap())[0], f64::INFINITY);
        // -0.0 everywhere: sum, max and min keep the sign bit (NumPy); one +0.0 makes the sum +0.
        for len in [3usize, 4, 9, 300, 5000] {
            let z = upload(&dev, &vec![-0.0; len], &[len], dtype);
            for (name, r) in [
                ("sum", z.sum(Axes::All, false)),
                ("max", z.max(Axes::All, false)),
                ("min", z.min(Axes::All, false)),
            ] {
                let v = read(&r.unwrap())[0];
                assert!(
                    v == 0.0 && v.is_sign_negative(),
                    "{dtype} {name} of -0.0 x {len}: {v}"
                );
            }
            let rows = read(
                &z.reshape(&[1, len as isize])
                    .unwrap()
                    .sum(1, false)
                    .unwrap(),
            );
            assert!(
                rows[0].is_sign_negative(),
                "{dtype} row sum of -0.0 x {len}"
            );
            let mut h = vec![-0.0; len];
            h[len / 2] = 0.0;
            let z = upload(&dev, &h, &[len], dtype);
            let v = read(&z.sum(Axes::All, false).unwrap())[0];
            assert!(
                v == 0.0 && v.is_sign_positive(),
                "{dtype} sum with one +0.0 x {len}"
            );
        }
    }
}

#[test]
fn f32_sums_of_2_pow_24_terms_stay_log_shaped() {
    let Some(dev) = common::device() else { return };
    let n = 1usize << 24;
    let ones = Array::full(&dev, &[n], 1.0, DType::F32).unwrap();
    assert_eq!(
        ones.sum(Axes::All, false).unwrap().item::<f32>().unwrap(),
        n as f32
    );
    drop(ones);
    // Values of one sign: a running f32 sum drifts ~n eps; a tree stays within ~log2(n) eps.
    let h: Vec<f32> = values(n, 31, 0.0, 1.0).iter().map(|&x| x as f32).collect();
    let exact: f64 = h.iter().map(|&x| x as f64).sum();
    let a = Array::from_slice(&dev, &h, &[n]).unwrap();
    let got = a.sum(Axes::All, false).unwrap().item::<f32>().unwrap() as f64;
    let rel = (got - exact).abs() / exact;
    let bound = 2.0 * (n as f64).log2() * f32::EPSILON as f64;
    let naive = h.iter().fold(0.0f32, |s, &x| s + x) as f64;
    eprintln!(
        "sum of 2^24 f32: rel err {rel:e} (bound {bound:e}); naive loop {:e}",
        (naive - exact).abs() / exact
    );
    assert!(rel <= bound, "relative error {rel:e} > {bound:e}");
    // The same values as 4096 rows and as 4096 columns.
    let m = a.reshape(&[4096, 4096]).unwrap();
    for axis in [0usize, 1] {
        let got = read(&m.sum(axis as isize, false).unwrap());
        for (j, g) in got.iter().enumerate().step_by(97) {
            let w: f64 = (0..4096)
                .map(|i| {
                    let at = if axis == 1 {
                        j * 4096 + i
                    } else {
                        i * 4096 + j
                    };
                    h[at] as f64
                })
                .sum();
            let rel = (g - w).abs() / w;
            assert!(
                rel <= 2.0 * 12.0 * f32::EPSILON as f64 + 1e-6,
                "axis {axis} [{j}] {rel:e}"
            );
        }
    }
}

/// Checks the contiguous result `got` — `rows` cumsums of `k` values `f(row, j)` — in i32
/// wrapping arithmetic at every element, reading it back a few million elements at a time.
fn check_cumsum_rows(
    got: &Array,
    rows: usize,
    k: usize,
    f: impl Fn(usize, usize) -> i32,
    what: &str,
) {
    let flat = got.reshape(&[-1]).unwrap();
    assert_eq!(flat.len(), rows * k, "{what}: length");
    let piece = 1usize << 22;
    let mut acc = 0i32;
    for start in (0..rows * k).step_by(piece) {
        let end = (start + piece).min(rows * k);
        let part = flat
            .slice(&[SliceArg::range(Some(start as isize), Some(end as isize), 1)])
            .unwrap()
            .to_vec::<i32>()
            .unwrap();
        for (o, &g) in part.iter().enumerate() {
            let (r, j) = ((start + o) / k, (start + o) % k);
            if j == 0 {
                acc = 0;
            }
            acc = acc.wrapping_add(f(r, j));
            assert!(g == acc, "{what}: row {r} [{j}] {g} vs {acc}");
        }
    }
}

#[test]
fn cumsum_larger_than_one_binding() {
    let Some(dev) = common::device_with_binding(common::TEST_BINDING) else {
        return;
    };
    // A sixteenth more i32 than one binding holds (17 MiB with the 16 MiB test binding): one line crossing
    // binding windows, exact (wrapping) sums checked at every element.
    let value = |i: usize| ((i * 7919) % 2001) as i32 - 1000;
    let what = "cumsum_larger_than_one_binding";
    let Some(n) = common::past_binding(&dev, 4, 6, what) else {
        return;
    };
    common::assert_crosses_binding(&dev, 4 * n as u64, what);
    let host: Vec<i32> = (0..n).map(value).collect();
    let a = Array::from_slice(&dev, &host, &[n]).unwrap();
    drop(host);
    let got = a.cumsum(None).unwrap();
    check_cumsum_rows(&got, 1, n, |_, j| value(j), "1-d");
    drop(got);
    // Freed buffers go back to the system between cases: the peak stays near 3 x 134 MB.
    dev.synchronize().unwrap();
    dev.empty_cache();
    // Several rows: (3, n / 3) along the rows (groups of whole rows per binding), and
    // (n / 2, 2) along axis 0 (two strided lines of 16.8M elements, made contiguous first; the
    // result's transpose holds them as rows).
    let r3 = a.reshape(&[3, (n / 3) as isize]).unwrap();
    let got = r3.cumsum(Some(1)).unwrap();
    check_cumsum_rows(
        &got,
        3,
        n / 3,
        |r, j| value(r * (n / 3) + j),
        "(3, k) axis 1",
    );
    drop((got, r3));
    dev.synchronize().unwrap();
    dev.empty_cache();
    let c2 = a.reshape(&[(n / 2) as isize, 2]).unwrap();
    let got = c2.cumsum(Some(0)).unwrap().t();
    check_cumsum_rows(&got, 2, n / 2, |c, i| value(2 * i + c), "(k, 2) axis 0");
    drop((got, c2, a));
    common::check_clean(&dev, 0);
}

#[test]
fn cumsum_of_lines_longer_than_one_launch() {
    let Some(dev) = common::device() else { return };
    // 2^24 + 5 elements fit one binding but not one launch's loop budget on lavapipe; lines of
    // a 2-d array advance together, one segment per launch; f32 and i32.
    let value = |i: usize| ((i * 31) % 7) as i32 - 3;
    let n = (1usize << 24) + 5;
    let host: Vec<i32> = (0..n).map(value).collect();
    let a = Array::from_slice(&dev, &host, &[n]).unwrap();
    drop(host);
    check_cumsum_rows(&a.cumsum(None).unwrap(), 1, n, |_, j| value(j), "i32 1-d");
    let half = (n - 1) / 2;
    let r2 = a
        .slice(&[SliceArg::range(Some(1), None, 1)])
        .unwrap()
        .reshape(&[2, half as isize])
        .unwrap();
    check_cumsum_rows(
        &r2.cumsum(Some(1)).unwrap(),
        2,
        half,
        |r, j| value(1 + r * half + j),
        "i32 (2, k) axis 1",
    );
    // f32 small integers: every prefix sum is exact.
    let f = a.astype(DType::F32).unwrap();
    let got = f.cumsum(None).unwrap().astype(DType::I32).unwrap();
    check_cumsum_rows(&got, 1, n, |_, j| value(j), "f32 1-d");
}

/// Reference inclusive scan (sum, or product with `prod`) of `h` (row-major `shape`) along
/// `axis`, in the arithmetic of the result: wrapping i32 (bool counts as i32), wrapping u32, f64
/// for the floats (from -0.0, as NumPy's cumsum).
fn scan_ref(h: &[f64], shape: &[usize], axis: usize, dtype: DType, prod: bool) -> Vec<f64> {
    let st = strides_of(shape);
    let k = shape[axis];
    let mut out = vec![0.0; h.len()];
    for start in 0..h.len() {
        if k == 0 || unravel(start, shape)[axis] != 0 {
            continue;
        }
        let (mut ai, mut au, mut af) = if prod {
            (1i32, 1u32, 1.0)
        } else {
            (0, 0, -0.0)
        };
        for j in 0..k {
            let i = start + j * st[axis];
            let x = h[i];
            out[i] = match dtype {
                DType::I32 | DType::Bool => {
                    let v = x as i32;
                    ai = if prod {
                        ai.wrapping_mul(v)
                    } else {
                        ai.wrapping_add(v)
                    };
                    f64::from(ai)
                }
                DType::U32 => {
                    let v = x as u32;
                    au = if prod {
                        au.wrapping_mul(v)
                    } else {
                        au.wrapping_add(v)
                    };
                    f64::from(au)
                }
                _ => {
                    af = if prod { af * x } else { af + x };
                    af
                }
            };
        }
    }
    out
}

/// Compares a scan result with `want`: exactly (NaN with NaN), except for one rounding to f16
/// (past its range: infinity).
fn check_scan(got: &Array, want: &[f64], dtype: DType, what: &str) {
    let out_dtype = if dtype == DType::Bool {
        DType::I32
    } else {
        dtype
    };
    assert_eq!(got.dtype(), out_dtype, "{what}: dtype");
    let g = read(got);
    assert_eq!(g.len(), want.len(), "{what}: length");
    let rel = if dtype == DType::F16 {
        1.0 / 1024.0
    } else {
        0.0
    };
    for (i, (&a, &b)) in g.iter().zip(want).enumerate() {
        let b = if dtype == DType::F16 {
            gpuarray::f16::from_f64(b).to_f64()
        } else {
            b
        };
        let ok = if b.is_nan() {
            a.is_nan()
        } else {
            a == b || (a - b).abs() <= rel * b.abs()
        };
        assert!(ok, "{what} [{i}]: {a} vs {b}");
    }
}

/// Values whose scans are exact in every dtype: i32 and u32 spanning their range (the sums wrap
/// around), 0/1 for bool, integers in [-8, 8] for floats (every partial sum, in any order, stays
/// below 2^24 for lines of up to 2^20 + 1: exact in f32; symmetric, so f16 results mostly stay
/// finite).
fn scan_sample(n: usize, seed: u64, dtype: DType) -> Vec<f64> {
    let v = values(n, seed, 0.0, 1.0);
    match dtype {
        DType::I32 => v
            .iter()
            .map(|x| (x * 4294967296.0 - 2147483648.0).floor())
            .collect(),
        DType::U32 => v.iter().map(|x| (x * 4294967296.0).floor()).collect(),
        DType::Bool => v.iter().map(|&x| f64::from(x > 0.5)).collect(),
        _ => v.iter().map(|x| (x * 17.0 - 8.0).floor()).collect(),
    }
}

#[test]
fn cumsum_lengths_around_block_boundaries_every_dtype() {
    let Some(dev) = common::device() else { return };
    // The block-wise scan cuts lines into blocks of 1024 (lines of up to 4096 are one block when
    // there are many), vec4s when lines start at multiples of 4; past 2^20 elements the block
    // totals are long enough to be cut into blocks again (a second recursive level).
    let lengths = [
        0usize,
        1,
        7,
        8,
        9,
        255,
        256,
        257,
        1023,
        1024,
        1025,
        2047,
        2048,
        2049,
        4096,
        4097,
        (1 << 20) - 1,
        1 << 20,
        (1 << 20) + 1,
    ];
    for dtype in dtypes(&dev) {
        for (s, &n) in lengths.iter().enumerate() {
            let h = scan_sample(n, 100 + s as u64, dtype);
            let a = upload(&dev, &h, &[n], dtype);
            let h = read(&a);
            let want = scan_ref(&h, &[n], 0, dtype, false);
            check_scan(
                &a.cumsum(None).unwrap(),
                &want,
                dtype,
                &format!("{dtype} 1-d {n}"),
            );
            // Many lines of the same length (one block each up to 4096).
            if (1..=4097).contains(&n) {
                let m = 300;
                let h = scan_sample(m * n, 200 + s as u64, dtype);
                let a = upload(&dev, &h, &[m, n], dtype);
                let h = read(&a);
                let want = scan_ref(&h, &[m, n], 1, dtype, false);
                let what = format!("{dtype} ({m}, {n}) axis 1");
                check_scan(&a.cumsum(Some(1)).unwrap(), &want, dtype, &what);
            }
        }
    }
}

#[test]
fn cumsum_of_random_floats_within_rounding_of_the_terms() {
    let Some(dev) = common::device() else { return };
    // Non-integer values: the blocked order differs from NumPy's sequential one, both within
    // rounding that grows with the number of summed terms.
    for n in [2049usize, (1 << 20) + 1] {
        let h = values(n, 7, -1.0, 1.0);
        let a = upload(&dev, &h, &[n], DType::F32);
        let h = read(&a);
        let g = read(&a.cumsum(None).unwrap());
        let (mut acc, mut mag) = (0.0f64, 0.0f64);
        for j in 0..n {
            acc += h[j];
            mag += h[j].abs();
            let tol = (j + 1) as f64 * f32::EPSILON as f64 * mag + 1e-6;
            assert!(
                (g[j] - acc).abs() <= tol,
                "f32 {n} [{j}]: {} vs {acc}",
                g[j]
            );
        }
    }
}

#[test]
fn cumsum_cumprod_along_every_axis_of_3d_arrays_and_views() {
    let Some(dev) = common::device() else { return };
    // (1030, 2, 8): lines along a leading axis, side by side, in blocks.
    let shapes: [[usize; 3]; 4] = [[3, 1025, 4], [2049, 2, 3], [2, 3, 4099], [1030, 2, 8]];
    for dtype in dtypes(&dev) {
        for (s, shape) in shapes.iter().enumerate() {
            let n: usize = shape.iter().product();
            let h = scan_sample(n, 300 + s as u64, dtype);
            let a = upload(&dev, &h, shape, dtype);
            let h = read(&a);
            for axis in 0..3 {
                let want = scan_ref(&h, shape, axis, dtype, false);
                let what = format!("{dtype} {shape:?} axis {axis}");
                check_scan(&a.cumsum(Some(axis as isize)).unwrap(), &want, dtype, &what);
            }
            // Reversed and stepped views along the longest axis, and a transposed view.
            let long = (0..3).max_by_key(|&d| shape[d]).unwrap();
            let mut rev = vec![SliceArg::full(); 3];
            rev[long] = SliceArg::range(None, None, -1);
            let mut step = vec![SliceArg::full(); 3];
            step[long] = SliceArg::range(Some(1), None, 2);
            for (name, v) in [
                ("reversed", a.slice(&rev).unwrap()),
                ("stepped", a.slice(&step).unwrap()),
                ("transposed", a.transpose(&[2, 0, 1]).unwrap()),
            ] {
                let hv = read(&v);
                let vs = v.shape().to_vec();
                for axis in 0..3 {
                    let want = scan_ref(&hv, &vs, axis, dtype, false);
                    let what = format!("{dtype} {name} {vs:?} axis {axis}");
                    check_scan(&v.cumsum(Some(axis as isize)).unwrap(), &want, dtype, &what);
                }
            }
        }
    }
}

/// Factors whose products are exact: for the integers -1, 1, 2, 3 (i32 and u32 wrap), for the
/// floats 1, -1, 2 and 0.5 with the running power of two kept within [-6, 6] (f16 too).
fn prod_sample(n: usize, seed: u64, dtype: DType) -> Vec<f64> {
    let v = values(n, seed, 0.0, 1.0);
    let mut e = 0i32;
    v.iter()
        .map(|&x| {
            let f = match dtype {
                DType::Bool => f64::from(x > 0.1),
                DType::I32 | DType::U32 => [-1.0, 1.0, 2.0, 3.0][(x * 4.0) as usize],
                _ => {
                    let f = [1.0, -1.0, 2.0, 0.5][(x * 4.0) as usize];
                    if (f == 2.0 && e == 6) || (f == 0.5 && e == -6) {
                        1.0
                    } else {
                        f
                    }
                }
            };
            e += if f == 2.0 {
                1
            } else if f == 0.5 {
                -1
            } else {
                0
            };
            if dtype == DType::U32 && f < 0.0 {
                4294967295.0
            } else {
                f
            }
        })
        .collect()
}

#[test]
fn cumprod_exact_across_blocks() {
    let Some(dev) = common::device() else { return };
    for dtype in dtypes(&dev) {
        for (s, shape) in [
            vec![4097usize],
            vec![300, 1027],
            vec![5, 1030, 2],
            vec![(1 << 20) + 1],
        ]
        .into_iter()
        .enumerate()
        {
            let n: usize = shape.iter().product();
            let h = prod_sample(n, 400 + s as u64, dtype);
            let a = upload(&dev, &h, &shape, dtype);
            let h = read(&a);
            for axis in 0..shape.len() {
                let want = scan_ref(&h, &shape, axis, dtype, true);
                let what = format!("{dtype} cumprod {shape:?} axis {axis}");
                check_scan(
                    &a.cumprod(Some(axis as isize)).unwrap(),
                    &want,
                    dtype,
                    &what,
                );
            }
        }
    }
}

#[test]
fn cumsum_cumprod_propagate_nan_and_inf_across_blocks() {
    let Some(dev) = common::device() else { return };
    for dtype in [DType::F32, DType::F16, DType::F64] {
        if !common::supports(
            &dev,
            dtype,
            "cumsum_cumprod_propagate_nan_and_inf_across_blocks",
        ) {
            continue;
        }
        let n = 5000;
        let mut h = vec![1.0; n];
        h[100] = f64::INFINITY;
        h[3000] = f64::NEG_INFINITY;
        let a = upload(&dev, &h, &[n], dtype);
        let want = scan_ref(&h, &[n], 0, dtype, false);
        assert!(want[2999].is_infinite() && want[3000].is_nan());
        check_scan(
            &a.cumsum(None).unwrap(),
            &want,
            dtype,
            &format!("{dtype} inf"),
        );
        let mut h = vec![1.0; n];
        h[2500] = f64::NAN;
        let a = upload(&dev, &h, &[n], dtype);
        for prod in [false, true] {
            let want = scan_ref(&h, &[n], 0, dtype, prod);
            let got = if prod {
                a.cumprod(None)
            } else {
                a.cumsum(None)
            }
            .unwrap();
            check_scan(&got, &want, dtype, &format!("{dtype} nan prod={prod}"));
        }
    }
}
