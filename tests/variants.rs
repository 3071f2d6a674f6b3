//! Direct, exact tests of kernel variants that the family test files did not dispatch (found by
//! `tools/variant_coverage.sh`): casts between every pair of dtypes, comparisons, integer and
//! bool arithmetic, vec4 predicates and integer unary ops, `where`, `take`, and the GEMV and
//! naive matmul kernels, on every dtype the adapter has. Inputs are small integers, so every
//! result is exact and compared with `==` against a host computation.

mod common;

use common::{read, upload};
use gpuarray::{Array, DType, MatmulKernel};

/// Small integers valid in every dtype (u32 and bool included: non-negative, 0/1 in places).
fn ints(n: usize, seed: usize) -> Vec<f64> {
    (0..n).map(|i| ((i * 7 + seed * 3) % 5) as f64).collect()
}

/// What a value becomes in `dtype` (bool: non-zero is 1).
fn as_dtype(x: f64, dtype: DType) -> f64 {
    if dtype == DType::Bool {
        f64::from(u8::from(x != 0.0))
    } else {
        x
    }
}

/// The word dtypes the adapter has (the emulated integers' families and casts are
/// tests/integer_dtypes.rs's).
fn dtypes(dev: &gpuarray::Device) -> Vec<DType> {
    DType::WORD
        .into_iter()
        .filter(|&d| common::supports(dev, d, "variants"))
        .collect()
}

#[test]
fn casts_between_every_pair_of_dtypes() {
    let Some(dev) = common::device() else { return };
    let ds = dtypes(&dev);
    let host = ints(37, 1);
    for &src in &ds {
        let a = upload(&dev, &host, &[37], src);
        for &dst in &ds {
            let got = read(&a.astype(dst).unwrap());
            let want: Vec<f64> = host
                .iter()
                .map(|&x| as_dtype(as_dtype(x, src), dst))
                .collect();
            assert_eq!(got, want, "astype {src} -> {dst}");
        }
    }
}

#[test]
fn transposed_copies_of_every_dtype() {
    let Some(dev) = common::device() else { return };
    let host = ints(24, 8);
    for d in dtypes(&dev) {
        let a = upload(&dev, &host, &[6, 4], d);
        let got = read(&a.t().contiguous().unwrap());
        let want: Vec<f64> = (0..24)
            .map(|k| as_dtype(host[(k % 6) * 4 + k / 6], d))
            .collect();
        assert_eq!(got, want, "contiguous transpose {d}");
    }
}

#[test]
fn comparisons_and_integer_ops_in_both_forms() {
    let Some(dev) = common::device() else { return };
    // (8, 4) contiguous runs the vec4 skeleton; its transpose the strided one.
    let (x, y) = (ints(32, 2), ints(32, 5));
    for d in dtypes(&dev) {
        let (a, b) = (upload(&dev, &x, &[8, 4], d), upload(&dev, &y, &[8, 4], d));
        let (hx, hy): (Vec<f64>, Vec<f64>) = (
            x.iter().map(|&v| as_dtype(v, d)).collect(),
            y.iter().map(|&v| as_dtype(v, d)).collect(),
        );
        for (form, a, b, order) in [
            ("vec4", a.clone(), b.clone(), false),
            ("strided", a.t(), b.t(), true),
        ] {
            // Host values in the order the view reads them.
            let at = |h: &[f64], k: usize| if order { h[(k % 8) * 4 + k / 8] } else { h[k] };
            let lt: Vec<f64> = (0..32)
                .map(|k| f64::from(u8::from(at(&hx, k) < at(&hy, k))))
                .collect();
            assert_eq!(read(&a.lt(&b).unwrap()), lt, "{d} lt ({form})");
            let eq: Vec<f64> = (0..32)
                .map(|k| f64::from(u8::from(at(&hx, k) == at(&hy, k))))
                .collect();
            assert_eq!(read(&a.eq(&b).unwrap()), eq, "{d} eq ({form})");
            match d {
                DType::U32 | DType::I32 => {
                    let sum: Vec<f64> = (0..32).map(|k| at(&hx, k) + at(&hy, k)).collect();
                    assert_eq!(read(&a.add(&b).unwrap()), sum, "{d} add ({form})");
                    let neg: Vec<f64> = (0..32)
                        .map(|k| {
                            let v = at(&hx, k);
                            if d == DType::U32 {
                                f64::from((v as u32).wrapping_neg())
                            } else {
                                -v
                            }
                        })
                        .collect();
                    assert_eq!(read(&a.neg().unwrap()), neg, "{d} neg ({form})");
                }
                DType::Bool => {
                    let and: Vec<f64> = (0..32)
                        .map(|k| f64::from(u8::from(at(&hx, k) != 0.0 && at(&hy, k) != 0.0)))
                        .collect();
                    assert_eq!(read(&a.bitwise_and(&b).unwrap()), and, "bool and ({form})");
                }
                _ => {}
            }
            // Predicates on every dtype: logical_not (bool result).
            let not: Vec<f64> = (0..32)
                .map(|k| f64::from(u8::from(at(&hx, k) == 0.0)))
                .collect();
            assert_eq!(
                read(&a.logical_not().unwrap()),
                not,
                "{d} logical_not ({form})"
            );
            let nan: Vec<f64> = vec![0.0; 32];
            assert_eq!(read(&a.isnan().unwrap()), nan, "{d} isnan ({form})");
        }
    }
}

#[test]
fn where_and_take_on_every_dtype() {
    let Some(dev) = common::device() else { return };
    let (x, y) = (ints(24, 3), ints(24, 4));
    let cond: Vec<bool> = (0..24).map(|i| i % 3 == 0).collect();
    let c = Array::from_bools(&dev, &cond, &[24]).unwrap();
    let idx = Array::from_slice(&dev, &[5i32, 0, -1, 5, 2], &[5]).unwrap();
    for d in dtypes(&dev) {
        let (a, b) = (upload(&dev, &x, &[24], d), upload(&dev, &y, &[24], d));
        let want: Vec<f64> = (0..24)
            .map(|i| as_dtype(if cond[i] { x[i] } else { y[i] }, d))
            .collect();
        assert_eq!(
            read(&gpuarray::where_(&c, &a, &b).unwrap()),
            want,
            "where {d}"
        );
        // Scalar sides: whole contiguous arrays take the vec4 kernel with the scalars in its
        // parameters, a view starting at element 1 the strided kernel with 0-d arrays.
        let (s, t) = if d == DType::Bool {
            (1.0, 0.0)
        } else {
            (3.0, 2.0)
        };
        for (start, len) in [(0usize, 24usize), (1, 20)] {
            let part = |x: &Array| {
                x.slice(&[gpuarray::SliceArg::range(
                    Some(start as isize),
                    Some((start + len) as isize),
                    1,
                )])
                .unwrap()
            };
            let (c, a, b) = (part(&c), part(&a), part(&b));
            let pick =
                |i: usize, on: f64, off: f64| as_dtype(if cond[start + i] { on } else { off }, d);
            let cases = [
                (gpuarray::where_(&c, &a, t).unwrap(), "where(c, a, t)", 0),
                (gpuarray::where_(&c, s, &b).unwrap(), "where(c, s, b)", 1),
            ];
            for (got, what, form) in cases {
                let want: Vec<f64> = (0..len)
                    .map(|i| match form {
                        0 => pick(i, x[start + i], t),
                        _ => pick(i, s, y[start + i]),
                    })
                    .collect();
                assert_eq!(read(&got), want, "{what} {d} from element {start}");
            }
        }
        let m = a.reshape(&[6, 4]).unwrap();
        let got = read(&m.take(&idx, Some(0)).unwrap());
        let want: Vec<f64> = [5usize, 0, 5, 5, 2]
            .iter()
            .flat_map(|&r| (0..4).map(move |j| r * 4 + j))
            .map(|k| as_dtype(x[k], d))
            .collect();
        assert_eq!(got, want, "take {d}");
    }
}

#[test]
fn gemv_and_naive_matmul_on_every_numeric_dtype() {
    let Some(dev) = common::device() else { return };
    let (m, k, n) = (5usize, 7, 3);
    let (x, y) = (ints(m * k, 6), ints(k * n, 7));
    let want: Vec<f64> = (0..m)
        .flat_map(|i| (0..n).map(move |j| (i, j)))
        .map(|(i, j)| (0..k).map(|p| x[i * k + p] * y[p * n + j]).sum())
        .collect();
    for d in dtypes(&dev).into_iter().filter(|&d| d != DType::Bool) {
        let (a, b) = (upload(&dev, &x, &[m, k], d), upload(&dev, &y, &[k, n], d));
        let naive = read(&a.matmul_with(&b, MatmulKernel::Naive).unwrap());
        assert_eq!(naive, want, "naive matmul {d}");
        // A (1, k) row times (k, n): the GEMV kernel.
        let row = a
            .slice(&[gpuarray::SliceArg::range(Some(2), Some(3), 1)])
            .unwrap();
        let got = read(&row.matmul(&b).unwrap());
        assert_eq!(got, want[2 * n..3 * n].to_vec(), "gemv {d}");
    }
}
