//! bincount and histogram against CPU references written here: exact counts (integers), NaN,
//! ±inf and values on the edges, NumPy's edges for `bins = n` (from the NumPy 2.4 formulas the
//! reference reimplements), explicit edges, size 0 and 1, views, inputs past one storage
//! binding, and the refusals NumPy makes.

mod common;

use common::Indices;

use common::{TEST_BINDING, xorshift};
use gpuarray::{Array, DType, HistogramBins};

fn bincount_ref(x: &[u32], minlength: usize) -> Vec<i32> {
    let len = x
        .iter()
        .map(|&v| v as usize + 1)
        .max()
        .unwrap_or(0)
        .max(minlength);
    let mut c = vec![0; len];
    for &v in x {
        c[v as usize] += 1;
    }
    c
}

/// bin i holds edges[i] <= x < edges[i + 1]; the last bin also its right edge.
fn histogram_ref(x: &[f64], edges: &[f64]) -> Vec<i32> {
    let bins = edges.len() - 1;
    let mut c = vec![0; bins];
    for &v in x {
        if !(v >= edges[0] && v <= edges[bins]) {
            continue;
        }
        let i = edges.partition_point(|&e| e <= v).min(bins);
        c[i - 1] += 1;
    }
    c
}

#[test]
fn bincount_counts_exactly() {
    let Some(dev) = common::device() else { return };
    let mut next = xorshift(0xb1c);
    // Many duplicates (1000 distinct values), then a sparse long tail.
    let x: Vec<u32> = (0..100_003).map(|_| (next() % 1000) as u32).collect();
    let a = Array::from_slice(&dev, &x, &[x.len()]).unwrap();
    assert_eq!(common::idx(&a.bincount(0).unwrap()), bincount_ref(&x, 0));
    let xi: Vec<i32> = x.iter().map(|&v| v as i32 * 37).collect();
    let ai = Array::from_slice(&dev, &xi, &[xi.len()]).unwrap();
    let got = ai.bincount(5).unwrap();
    assert_eq!(got.dtype(), dev.index_dtype());
    let xu: Vec<u32> = xi.iter().map(|&v| v as u32).collect();
    assert_eq!(common::idx(&got), bincount_ref(&xu, 5));
    // minlength past the largest value, a reversed view, bools, one element, none.
    assert_eq!(
        ai.slice(&[gpuarray::SliceArg::Range {
            start: None,
            stop: None,
            step: -7
        }])
        .unwrap()
        .bincount(40_000)
        .unwrap()
        .indices(),
        bincount_ref(
            &xu.iter().rev().step_by(7).copied().collect::<Vec<_>>(),
            40_000
        )
    );
    let b = Array::from_bools(&dev, &[true, false, true, true], &[4]).unwrap();
    assert_eq!(common::idx(&b.bincount(0).unwrap()), vec![1, 3]);
    let one = Array::from_slice(&dev, &[4i32], &[1]).unwrap();
    assert_eq!(common::idx(&one.bincount(0).unwrap()), vec![0, 0, 0, 0, 1]);
    let none = Array::from_slice(&dev, &[0i32; 0], &[0]).unwrap();
    assert_eq!(common::idx(&none.bincount(3).unwrap()), vec![0, 0, 0]);
    // NumPy's refusals: negative values, 2-d input, floats.
    let neg = Array::from_slice(&dev, &[1i32, -2], &[2]).unwrap();
    let e = neg.bincount(0).unwrap_err().to_string();
    assert!(e.contains("bincount") && e.contains("negative"), "{e}");
    let e = a
        .reshape(&[-1, 1])
        .unwrap()
        .bincount(0)
        .unwrap_err()
        .to_string();
    assert!(e.contains("bincount") && e.contains("1-d"), "{e}");
    let f = Array::from_slice(&dev, &[1.0f32], &[1]).unwrap();
    assert!(f.bincount(0).unwrap_err().to_string().contains("bincount"));
    // The arrays made before the refusals still read back.
    assert_eq!(neg.to_vec::<i32>().unwrap(), vec![1, -2]);
}

#[test]
fn bincount_and_histogram_cross_binding_windows() {
    let Some(dev) = common::device_with_binding(TEST_BINDING) else {
        return;
    };
    // 4.5 M u32 = 18 MiB, past the 16 MiB binding: counted in two windows.
    let n = (TEST_BINDING as usize / 4) * 9 / 8;
    let mut next = xorshift(7);
    let x: Vec<u32> = (0..n).map(|_| (next() % 257) as u32).collect();
    let a = Array::from_slice(&dev, &x, &[n]).unwrap();
    common::assert_crosses_binding(&dev, (n * 4) as u64, "bincount");
    assert_eq!(common::idx(&a.bincount(0).unwrap()), bincount_ref(&x, 0));
    let f: Vec<f32> = x.iter().map(|&v| v as f32 * 0.25 - 3.0).collect();
    let af = Array::from_slice(&dev, &f, &[n]).unwrap();
    let (counts, edges) = af.histogram(HistogramBins::Count(50), None).unwrap();
    let edges = edges.to_vec::<f32>().unwrap();
    let fx: Vec<f64> = f.iter().map(|&v| f64::from(v)).collect();
    let e64: Vec<f64> = edges.iter().map(|&v| f64::from(v)).collect();
    assert_eq!(common::idx(&counts), histogram_ref(&fx, &e64));
}

/// NumPy 2.4's `linspace(first, last, n + 1)` for float32 data without a range: f32 arithmetic.
fn numpy_edges_f32(first: f32, last: f32, n: usize) -> Vec<f32> {
    let (first, last) = if first == last {
        (first - 0.5, last + 0.5)
    } else {
        (first, last)
    };
    let div = n as f32;
    let step = (last - first) / div;
    let mut y: Vec<f32> = (0..=n).map(|i| i as f32 * step + first).collect();
    y[n] = last;
    y
}

#[test]
fn histogram_bins_and_edges_follow_numpy() {
    let Some(dev) = common::device() else { return };
    let mut next = xorshift(0x415);
    let mut x: Vec<f32> = (0..20_000)
        .map(|_| (next() % 2_000_001) as f32 / 1000.0 - 1000.0)
        .collect();
    x.extend([
        f32::NAN,
        f32::INFINITY,
        -f32::INFINITY,
        1000.0,
        -1000.0,
        0.0,
        -0.0,
    ]);
    let finite: Vec<f32> = x.iter().copied().filter(|v| v.is_finite()).collect();
    let a = Array::from_slice(&dev, &finite, &[finite.len()]).unwrap();
    let hx: Vec<f64> = finite.iter().map(|&v| f64::from(v)).collect();
    // bins = n, no range: the data's extremes, edges in f32 arithmetic, data on edges counted once.
    for n in [1usize, 7, 10, 256] {
        let (counts, edges) = a.histogram(HistogramBins::Count(n), None).unwrap();
        let want_edges = numpy_edges_f32(-1000.0, 1000.0, n);
        assert_eq!(
            edges.to_vec::<f32>().unwrap(),
            want_edges,
            "edges, {n} bins"
        );
        let e64: Vec<f64> = want_edges.iter().map(|&v| f64::from(v)).collect();
        let c = common::idx(&counts);
        assert_eq!(c, histogram_ref(&hx, &e64), "{n} bins");
        assert_eq!(c.iter().sum::<i32>() as usize, finite.len());
    }
    // A range: NaN, ±inf and everything outside it uncounted; edges from f64, stored as f32.
    let all = Array::from_slice(&dev, &x, &[x.len()]).unwrap();
    let hall: Vec<f64> = x.iter().map(|&v| f64::from(v)).collect();
    let (counts, edges) = all
        .histogram(HistogramBins::Count(3), Some((-0.1, 0.2)))
        .unwrap();
    // linspace in f64: step = 0.30000000000000004 / 3 = 0.10000000000000002, i * step - 0.1.
    let step = (0.2f64 - -0.1) / 3.0;
    let want_exact: Vec<f32> = (0..4)
        .map(|i| {
            if i == 3 {
                0.2f32
            } else {
                (i as f64 * step + -0.1) as f32
            }
        })
        .collect();
    assert_eq!(edges.to_vec::<f32>().unwrap(), want_exact);
    let e64: Vec<f64> = want_exact.iter().map(|&v| f64::from(v)).collect();
    assert_eq!(common::idx(&counts), histogram_ref(&hall, &e64));
    // Explicit, uneven edges (a repeated one too), in f64 against f32 data.
    if common::supports(&dev, DType::F64, "histogram f64 edges") {
        let e = [-1000.0, -3.5, 0.0, 0.0, 2.25, 999.0];
        let edges = Array::from_slice(&dev, &e, &[e.len()]).unwrap();
        let (counts, back) = all
            .histogram(HistogramBins::Edges(&edges), Some((5.0, 6.0)))
            .unwrap();
        assert_eq!(common::idx(&counts), histogram_ref(&hall, &e));
        assert_eq!(back.to_vec::<f64>().unwrap(), e.to_vec());
        // Integer data: float64 edges, as NumPy.
        let ints: Vec<i32> = (0..1000).map(|i| (i * 7919) % 101 - 50).collect();
        let ai = Array::from_slice(&dev, &ints, &[10, 100]).unwrap();
        let (counts, edges) = ai.histogram(HistogramBins::Count(8), None).unwrap();
        assert_eq!(edges.dtype(), DType::F64);
        let want_e: Vec<f64> = (0..=8)
            .map(|i| if i == 8 { 50.0 } else { i as f64 * 12.5 - 50.0 })
            .collect();
        assert_eq!(edges.to_vec::<f64>().unwrap(), want_e);
        let hi: Vec<f64> = ints.iter().map(|&v| f64::from(v)).collect();
        assert_eq!(common::idx(&counts), histogram_ref(&hi, &want_e));
    }
    // All equal: the range widens by 0.5 each way. Empty: range (0, 1).
    let same = Array::from_slice(&dev, &[3.0f32; 5], &[5]).unwrap();
    let (counts, edges) = same.histogram(HistogramBins::Count(2), None).unwrap();
    assert_eq!(edges.to_vec::<f32>().unwrap(), vec![2.5, 3.0, 3.5]);
    assert_eq!(common::idx(&counts), vec![0, 5]);
    let empty = Array::from_slice(&dev, &[0.0f32; 0], &[0]).unwrap();
    let (counts, edges) = empty.histogram(HistogramBins::Count(4), None).unwrap();
    assert_eq!(common::idx(&counts), vec![0; 4]);
    assert_eq!(
        edges.to_vec::<f32>().unwrap(),
        vec![0.0, 0.25, 0.5, 0.75, 1.0]
    );
    // A transposed view counts the same elements.
    let m = a
        .slice(&[gpuarray::SliceArg::Range {
            start: Some(0),
            stop: Some(20_000),
            step: 1,
        }])
        .unwrap()
        .reshape(&[100, 200])
        .unwrap()
        .transpose(&[1, 0])
        .unwrap();
    let (counts, edges) = m
        .histogram(HistogramBins::Count(9), Some((-500.0, 500.0)))
        .unwrap();
    let e64: Vec<f64> = edges
        .to_vec::<f32>()
        .unwrap()
        .iter()
        .map(|&v| f64::from(v))
        .collect();
    assert_eq!(common::idx(&counts), histogram_ref(&hx[..20_000], &e64));
}

#[test]
fn histogram_refusals_name_the_operation() {
    let Some(dev) = common::device() else { return };
    let a = Array::from_slice(&dev, &[1.0f32, f32::NAN], &[2]).unwrap();
    let cases = [
        a.histogram(HistogramBins::Count(4), None).map(|_| ()),
        a.histogram(HistogramBins::Count(0), Some((0.0, 1.0)))
            .map(|_| ()),
        a.histogram(HistogramBins::Count(4), Some((2.0, 1.0)))
            .map(|_| ()),
        a.histogram(HistogramBins::Count(4), Some((0.0, f64::INFINITY)))
            .map(|_| ()),
        a.histogram(
            HistogramBins::Edges(&Array::from_slice(&dev, &[0.0f32, 2.0, 1.0], &[3]).unwrap()),
            None,
        )
        .map(|_| ()),
        Array::from_bools(&dev, &[true], &[1])
            .unwrap()
            .histogram(HistogramBins::Count(2), None)
            .map(|_| ()),
    ];
    let wants = [
        "not finite",
        "positive",
        "larger",
        "not finite",
        "monotonically",
        "bool",
    ];
    for (r, want) in cases.into_iter().zip(wants) {
        let e = r.expect_err(want).to_string();
        assert!(e.contains("histogram") && e.contains(want), "{e}");
    }
}

/// NumPy's weighted bincount loop: `out[x[i]] += w[i]` in f64, in index order, from 0.0.
fn weighted_ref(x: &[u32], w: &[f64], bins: usize) -> Vec<f64> {
    let mut s = vec![0.0f64; bins];
    for (&v, &wt) in x.iter().zip(w) {
        if (v as usize) < bins {
            s[v as usize] += wt;
        }
    }
    s
}

fn same_bits(got: &[f64], want: &[f64]) -> bool {
    got.len() == want.len()
        && got
            .iter()
            .zip(want)
            .all(|(g, w)| g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()))
}

/// Weighted bincount and histogram give NumPy's bits: each bin's weights added one by one in
/// index order. Weights of mixed magnitude (so the order of the additions shows in the last
/// bits), a NaN weight, integer and bool weights, a bin of 40,000 elements (more than one
/// launch's 16,384 additions) and, on a 64 KiB-binding device, weights past one binding.
#[test]
fn weighted_counts_have_numpys_bits() {
    for (label, dev) in [
        ("default", common::device()),
        ("64 KiB bindings", common::device_with_binding(1 << 16)),
    ] {
        let Some(dev) = dev else { return };
        if !common::supports(&dev, DType::F64, "weighted counts") {
            return;
        }
        let mut next = xorshift(0x5eed);
        let n = 60_000;
        // Half the elements in bin 0 (one long run), the rest spread over 300 bins.
        let x: Vec<u32> = (0..n)
            .map(|i| if i % 2 == 0 { 0 } else { (next() % 300) as u32 })
            .collect();
        let w: Vec<f32> = (0..n)
            .map(|_| {
                let m = (next() % 1_000_000) as f32 * 1e-3 - 500.0;
                m * [1.0, 1e-4, 1e4][(next() % 3) as usize]
            })
            .collect();
        let w64: Vec<f64> = w.iter().map(|&v| v as f64).collect();
        let a = Array::from_slice(&dev, &x, &[n]).unwrap();
        let wa = Array::from_slice(&dev, &w, &[n]).unwrap();
        let got = a.bincount_weighted(&wa, 0).unwrap();
        assert_eq!(got.dtype(), DType::F64);
        let want = weighted_ref(&x, &w64, 300);
        assert!(
            same_bits(&got.to_vec::<f64>().unwrap(), &want),
            "{label}: weighted bincount"
        );
        // A NaN weight poisons its bin only; i32 weights and bool input; minlength.
        let mut wn = w64.clone();
        wn[7] = f64::NAN;
        let gn = a
            .bincount_weighted(&Array::from_slice(&dev, &wn, &[n]).unwrap(), 310)
            .unwrap()
            .to_vec::<f64>()
            .unwrap();
        assert!(
            same_bits(&gn, &weighted_ref(&x, &wn, 310)),
            "{label}: NaN weight"
        );
        assert!(gn[x[7] as usize].is_nan());
        let wi: Vec<i32> = (0..n as i32).map(|i| i % 7 - 3).collect();
        let wif: Vec<f64> = wi.iter().map(|&v| v as f64).collect();
        let b: Vec<u32> = x.iter().map(|&v| (v % 2 == 1) as u32).collect();
        let ab = Array::from_slice(&dev, &b, &[n])
            .unwrap()
            .astype(DType::Bool)
            .unwrap();
        let gi = ab
            .bincount_weighted(&Array::from_slice(&dev, &wi, &[n]).unwrap(), 0)
            .unwrap();
        assert!(same_bits(
            &gi.to_vec::<f64>().unwrap(),
            &weighted_ref(&b, &wif, 2)
        ));
        // histogram with weights: the same sums over the bins of the values.
        let v: Vec<f32> = x.iter().map(|&k| k as f32 * 0.5 + 0.25).collect();
        let av = Array::from_slice(&dev, &v, &[n]).unwrap();
        let (hs, edges) = av
            .histogram_weighted(HistogramBins::Count(30), Some((0.0, 150.0)), &wa)
            .unwrap();
        let e = common::read(&edges);
        let slots: Vec<u32> = v
            .iter()
            .map(|&x| {
                let x = x as f64;
                if !(x >= e[0] && x <= e[30]) {
                    99
                } else {
                    (e.partition_point(|&b| b <= x).min(30) - 1) as u32
                }
            })
            .collect();
        // In parts of a binding of f64 (2^24 elements by default), whose sums add in order.
        let part = (dev.info().max_storage_buffer_binding_size / 8) as usize;
        let mut want = vec![0.0f64; 30];
        for (xs, ws) in slots.chunks(part).zip(w64.chunks(part)) {
            for (t, s) in want.iter_mut().zip(weighted_ref(xs, ws, 30)) {
                *t += s;
            }
        }
        assert!(
            same_bits(&hs.to_vec::<f64>().unwrap(), &want),
            "{label}: weighted histogram"
        );
    }
}

#[test]
fn weighted_counts_refuse_what_numpy_refuses() {
    let Some(dev) = common::device() else { return };
    if !common::supports(&dev, DType::F64, "weighted counts") {
        return;
    }
    let x = Array::from_slice(&dev, &[1i32, 2, 3], &[3]).unwrap();
    let short = Array::from_slice(&dev, &[1.0f32, 2.0], &[2]).unwrap();
    assert!(matches!(
        x.bincount_weighted(&short, 0),
        Err(gpuarray::Error::Shape { op: "bincount", .. })
    ));
    let neg = Array::from_slice(&dev, &[1i32, -2, 3], &[3]).unwrap();
    let w = Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3]).unwrap();
    assert!(matches!(
        neg.bincount_weighted(&w, 0),
        Err(gpuarray::Error::InvalidArgument { op: "bincount", .. })
    ));
    assert!(matches!(
        x.histogram_weighted(HistogramBins::Count(2), None, &short),
        Err(gpuarray::Error::Shape {
            op: "histogram",
            ..
        })
    ));
    // Nothing to count: minlength zeros, in f64; the arrays before still read back.
    let empty = Array::zeros(&dev, &[0], DType::I32).unwrap();
    let none = Array::zeros(&dev, &[0], DType::F32).unwrap();
    assert_eq!(
        empty
            .bincount_weighted(&none, 3)
            .unwrap()
            .to_vec::<f64>()
            .unwrap(),
        vec![0.0; 3]
    );
    assert_eq!(x.to_vec::<i32>().unwrap(), vec![1, 2, 3]);
}
