//! `fuse` on the real adapter: fused element-wise chains give the unfused ops' bits (the same
//! WGSL functions), map-reduce chains match host references, reductions inside a chain
//! (softmax) run first, and what cannot be fused is an `Err` naming it.

mod common;

use gpuarray::{Array, DType, Error, fuse};

fn data(n: usize, seed: u32) -> Vec<f32> {
    (0..n)
        .map(|i| {
            ((i as u32).wrapping_mul(2654435761).wrapping_add(seed) % 20011) as f32 / 5000.0 - 2.0
        })
        .collect()
}

#[test]
fn a_fused_chain_has_the_unfused_bits() {
    let Some(dev) = common::device() else { return };
    let x = Array::from_slice(&dev, &data(3 * 1000, 1), &[3, 1000]).unwrap();
    let w = Array::from_slice(&dev, &data(1000, 2), &[1000]).unwrap();
    let b = Array::from_slice(&dev, &data(3, 3), &[3, 1]).unwrap();
    let f = fuse(|[x, w, b]| ((x.exp() * &w + &b).tanh() - w.sin() * 0.5).maximum(x.log1p()) / 3.0);
    let fused = f.call(&[&x, &w, &b]).unwrap().to_vec::<f32>().unwrap();
    let unfused = (x
        .exp()
        .unwrap()
        .mul(&w)
        .unwrap()
        .add(&b)
        .unwrap()
        .tanh()
        .unwrap())
    .sub(&w.sin().unwrap().mul(0.5).unwrap())
    .unwrap()
    .maximum(&x.log1p().unwrap())
    .unwrap()
    .div(3.0)
    .unwrap()
    .to_vec::<f32>()
    .unwrap();
    let differ = fused
        .iter()
        .zip(&unfused)
        .filter(|(a, b)| a.to_bits() != b.to_bits())
        .count();
    assert_eq!(differ, 0, "{differ} of {} elements differ", fused.len());
    // One contiguous axis (four elements at a time) with a bool result, and a length that is
    // not a multiple of four (one at a time).
    for n in [3000, 2999] {
        let flat = x
            .reshape(&[-1])
            .unwrap()
            .slice(&[gpuarray::SliceArg::range(None, Some(n), 1)])
            .unwrap();
        let h = fuse(|[x]| (x.exp() * 2.0).tanh().gt(0.5));
        let got = common::read(&h.call(&[&flat]).unwrap());
        let want = flat
            .exp()
            .unwrap()
            .mul(2.0)
            .unwrap()
            .tanh()
            .unwrap()
            .gt(0.5)
            .unwrap();
        assert_eq!(got, common::read(&want), "n = {n}");
        assert!(got.contains(&1.0) && got.contains(&0.0));
    }
    // A transposed view: the strided walk.
    let xt = x.t();
    let g = fuse(|[x]| x.square().sqrt() + 1.0);
    let got = g.call(&[&xt]).unwrap().to_vec::<f32>().unwrap();
    let want = xt
        .square()
        .unwrap()
        .sqrt()
        .unwrap()
        .add(1.0)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    assert_eq!(got, want);
}

#[test]
fn a_chain_ending_in_a_reduction_is_one_map_reduce() {
    let Some(dev) = common::device() else { return };
    let (r, c) = (64, 5000);
    let xs = data(r * c, 7);
    let ys = data(r * c, 9);
    let x = Array::from_slice(&dev, &xs, &[r, c]).unwrap();
    let y = Array::from_slice(&dev, &ys, &[r, c]).unwrap();
    let loss = fuse(|[x, y]| ((x - y).square()).mean(gpuarray::Axes::All, false));
    let got = loss.call(&[&x, &y]).unwrap().to_vec::<f32>().unwrap()[0] as f64;
    let want = xs
        .iter()
        .zip(&ys)
        .map(|(&a, &b)| ((a - b) as f64).powi(2))
        .sum::<f64>()
        / (r * c) as f64;
    assert!((got - want).abs() < 1e-5 * want, "{got} vs {want}");
    let norm = fuse(|[x]| x.square().sum(1, true).sqrt());
    let got = norm.call(&[&x]).unwrap();
    assert_eq!(got.shape(), &[r, 1]);
    let got = got.to_vec::<f32>().unwrap();
    for i in 0..r {
        let want = xs[i * c..(i + 1) * c]
            .iter()
            .map(|&v| (v as f64).powi(2))
            .sum::<f64>()
            .sqrt();
        assert!((got[i] as f64 - want).abs() < 1e-5 * want, "row {i}");
    }
    // max propagates NaN, as numpy.max.
    let mut with_nan = xs.clone();
    with_nan[5 * c + 17] = f32::NAN;
    let xn = Array::from_slice(&dev, &with_nan, &[r, c]).unwrap();
    let m = fuse(|[x]| x.abs().max(1, false))
        .call(&[&xn])
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    for i in 0..r {
        let row = &with_nan[i * c..(i + 1) * c];
        if i == 5 {
            assert!(m[i].is_nan());
        } else {
            assert_eq!(
                m[i],
                row.iter().map(|v| v.abs()).fold(0.0f32, f32::max),
                "row {i}"
            );
        }
    }
}

#[test]
fn softmax_runs_its_reductions_first() {
    let Some(dev) = common::device() else { return };
    let (r, c) = (33, 257);
    let xs = data(r * c, 11);
    let x = Array::from_slice(&dev, &xs, &[r, c]).unwrap();
    let softmax = fuse(|[x]| {
        let e = (&x - x.max(-1, true)).exp();
        &e / e.sum(-1, true)
    });
    let got = softmax.call(&[&x]).unwrap().to_vec::<f32>().unwrap();
    for i in 0..r {
        let row = &xs[i * c..(i + 1) * c];
        let m = row.iter().cloned().fold(f32::MIN, f32::max) as f64;
        let s: f64 = row.iter().map(|&v| (v as f64 - m).exp()).sum();
        for j in 0..c {
            let want = (row[j] as f64 - m).exp() / s;
            assert!(
                (got[i * c + j] as f64 - want).abs() < 1e-6 + 1e-5 * want,
                "({i}, {j})"
            );
        }
    }
}

#[test]
fn where_scalars_and_f16_follow_the_unfused_ops() {
    let Some(dev) = common::device() else { return };
    let xs = data(999, 5);
    let x = Array::from_slice(&dev, &xs, &[999]).unwrap();
    let f = fuse(|[x]| x.gt(0.25).select(x.square(), -&x * 2.0));
    let got = f.call(&[&x]).unwrap().to_vec::<f32>().unwrap();
    let want: Vec<f32> = xs
        .iter()
        .map(|&v| if v > 0.25 { v * v } else { -v * 2.0 })
        .collect();
    assert_eq!(got, want);
    if common::supports(&dev, DType::F16, "fused f16") {
        let h = x.astype(DType::F16).unwrap();
        let g = fuse(|[h]| (h.exp() * 3.0 - 1.0).sqrt());
        let fused = g.call(&[&h]).unwrap().to_vec::<gpuarray::f16>().unwrap();
        let unfused = h
            .exp()
            .unwrap()
            .mul(3.0)
            .unwrap()
            .sub(1.0)
            .unwrap()
            .sqrt()
            .unwrap();
        let unfused = unfused.to_vec::<gpuarray::f16>().unwrap();
        let bits = |v: &[gpuarray::f16]| v.iter().map(|h| h.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&fused), bits(&unfused));
    }
}

#[test]
fn what_cannot_be_fused_is_an_error() {
    let Some(dev) = common::device() else { return };
    let i = Array::from_slice(&dev, &[1i32, 2, 3], &[3]).unwrap();
    let x = Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3]).unwrap();
    assert_err!(
        fuse(|[i]| i.exp()).call(&[&i]),
        Error::Unsupported { .. },
        "exp"
    );
    assert_err!(
        fuse(|[i]| i.sum(0, false)).call(&[&i]),
        Error::Unsupported { .. },
        "fuse",
        "int64"
    );
    assert_err!(
        fuse(|[x, i]| x + i).call(&[&x, &i]),
        Error::DTypeMismatch { .. },
        "add"
    );
    assert_err!(
        fuse(|[x]| x.apply("frobnicate", &[])).call(&[&x]),
        Error::InvalidArgument { .. },
        "fuse",
        "frobnicate"
    );
    assert_err!(
        fuse(|[x, y]| x + y).call(&[&x]),
        Error::InvalidArgument { .. },
        "fuse",
        "takes 2"
    );
    // The arrays made before the errors are intact.
    assert_eq!(x.to_vec::<f32>().unwrap(), vec![1.0, 2.0, 3.0]);
}

#[test]
fn a_fused_kernel_is_named_by_its_ops_and_shows_its_wgsl() {
    let Some(dev) = common::device() else { return };
    let x = Array::from_slice(&dev, &data(4096, 1), &[64, 64]).unwrap();
    let w = Array::from_slice(&dev, &data(64, 2), &[64]).unwrap();
    let f = fuse(|[x, w]| (x.exp() * w + 1.0).sum(-1, false));
    f.call(&[&x, &w]).unwrap();
    let (_, profile) = dev.profile(|| f.call(&[&x, &w]).unwrap()).unwrap();
    let labels: Vec<String> = profile.kernels().into_iter().map(|k| k.label).collect();
    assert!(
        labels
            .iter()
            .any(|l| l.starts_with("fused[exp,mul,add,sum][f32,f32,f32->f32]")),
        "{labels:?}"
    );
    let k = gpuarray::ElementwiseKernel::new("float32 x", "float32 y", "y = exp(x)", "e").unwrap();
    let wgsl = k.wgsl(&[(&x).into()]).unwrap();
    assert!(wgsl.contains("y = gpa_op_unary_float_5(x);"), "{wgsl}");
    assert!(wgsl.contains("fn gpa_main("), "{wgsl}");
}
