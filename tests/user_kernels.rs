//! User kernels (`ElementwiseKernel`, `ReductionKernel`, `RawKernel`) on the real adapter,
//! against host references computed here: CuPy's documented examples in WGSL, broadcasting,
//! views, dtypes, scalars, `out=` aliasing, arrays past one binding, and bad kernels that
//! must be an `Err` naming the problem.

mod common;

use gpuarray::{Arg, Array, DType, ElementwiseKernel, Error};

#[test]
fn squared_difference_broadcasts_over_views() {
    let Some(dev) = common::device() else { return };
    let k = ElementwiseKernel::new(
        "float32 x, float32 y",
        "float32 z",
        "z = (x - y) * (x - y)",
        "squared_diff",
    )
    .unwrap();
    let xs: Vec<f32> = (0..24).map(|i| i as f32 * 0.5 - 3.0).collect();
    let ys: Vec<f32> = (0..4).map(|i| i as f32 * 1.25).collect();
    let x = Array::from_slice(&dev, &xs, &[2, 3, 4]).unwrap();
    let y = Array::from_slice(&dev, &ys, &[4]).unwrap();
    let z = &k.call(&[(&x).into(), (&y).into()]).unwrap()[0];
    assert_eq!(z.shape(), &[2, 3, 4]);
    let want: Vec<f32> = (0..24)
        .map(|i| (xs[i] - ys[i % 4]) * (xs[i] - ys[i % 4]))
        .collect();
    assert_eq!(z.to_vec::<f32>().unwrap(), want);
    // A transposed view and a scalar.
    let xt = x.transpose(&[2, 1, 0]).unwrap();
    let z = &k.call(&[(&xt).into(), Arg::Scalar(1.5)]).unwrap()[0];
    let got = z.to_vec::<f32>().unwrap();
    for (i, g) in got.iter().enumerate() {
        let (a, b, c) = (i / 6, (i / 2) % 3, i % 2);
        let v = xs[c * 12 + b * 4 + a];
        assert_eq!(*g, (v - 1.5) * (v - 1.5), "at {i}");
    }
}

#[test]
fn l2_norm_reduces_any_axes_in_stages() {
    let Some(dev) = common::device() else { return };
    let k = gpuarray::ReductionKernel::new(
        "T x",
        "T y",
        "x * x",
        "a + b",
        "y = sqrt(a)",
        Some("0"),
        "l2norm",
    )
    .unwrap();
    let (r, c) = (37, 300_001);
    let xs: Vec<f32> = (0..r * c)
        .map(|i| ((i * 7919) % 1000) as f32 / 1000.0 - 0.5)
        .collect();
    let x = Array::from_slice(&dev, &xs, &[r, c]).unwrap();
    // Rows (few outputs, long rows: several stages), columns, everything, keepdims.
    let rows = k.call(&[(&x).into()], 1, false).unwrap()[0]
        .to_vec::<f32>()
        .unwrap();
    for i in 0..r {
        let want = xs[i * c..(i + 1) * c]
            .iter()
            .map(|&v| (v as f64).powi(2))
            .sum::<f64>()
            .sqrt();
        assert!(
            (rows[i] as f64 - want).abs() < 1e-4 * want,
            "row {i}: {} vs {want}",
            rows[i]
        );
    }
    let cols = k.call(&[(&x).into()], 0, true).unwrap();
    assert_eq!(cols[0].shape(), &[1, c]);
    let cols = cols[0].to_vec::<f32>().unwrap();
    for j in (0..c).step_by(9973) {
        let want = (0..r)
            .map(|i| (xs[i * c + j] as f64).powi(2))
            .sum::<f64>()
            .sqrt();
        assert!(
            (cols[j] as f64 - want).abs() < 1e-5 * want.max(1e-3),
            "col {j}"
        );
    }
    let all = k.call(&[(&x).into()], gpuarray::Axes::All, false).unwrap();
    assert_eq!(all[0].shape(), &[] as &[usize]);
    let want = xs.iter().map(|&v| (v as f64).powi(2)).sum::<f64>().sqrt();
    let got = all[0].to_vec::<f32>().unwrap()[0] as f64;
    assert!((got - want).abs() < 1e-4 * want, "{got} vs {want}");
}

#[test]
fn a_reduction_without_identity_starts_from_the_first_value() {
    let Some(dev) = common::device() else { return };
    let k = gpuarray::ReductionKernel::new(
        "int32 x",
        "int32 y",
        "x",
        "max(a, b)",
        "y = a",
        None,
        "int_max",
    )
    .unwrap();
    let xs: Vec<i32> = (0..5000).map(|i| ((i * 7919) % 10007) - 9000).collect();
    let x = Array::from_slice(&dev, &xs, &[50, 100]).unwrap();
    let got = k.call(&[(&x.t()).into()], 0, false).unwrap()[0]
        .to_vec::<i32>()
        .unwrap();
    let want: Vec<i32> = (0..50)
        .map(|i| *xs[i * 100..(i + 1) * 100].iter().max().unwrap())
        .collect();
    assert_eq!(got, want);
    let empty = Array::zeros(&dev, &[0, 3], DType::I32).unwrap();
    let e = k.call(&[(&empty).into()], 0, false);
    assert_err!(
        e,
        Error::InvalidArgument { .. },
        "ReductionKernel",
        "needs an identity"
    );
}
