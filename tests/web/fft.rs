//! complex64 arrays and `gpuarray::fft` in the browser (WebGPU has no f64: complex64 only):
//! FFTs of a power-of-two, a mixed-radix and a prime length (Bluestein) against a naive DFT
//! on the host, the rfft/irfft round trip, and complex arithmetic against the host.

use super::{check_clean, device};
use gpuarray::fft::{self, Norm};
use gpuarray::{Array, Complex32, DType};
use wasm_bindgen_test::*;

fn dft(x: &[Complex32]) -> Vec<(f64, f64)> {
    let n = x.len();
    (0..n)
        .map(|k| {
            x.iter().enumerate().fold((0.0, 0.0), |(re, im), (t, z)| {
                let a = -2.0 * std::f64::consts::PI * ((k * t) % n) as f64 / n as f64;
                let (s, c) = a.sin_cos();
                (
                    re + z.re as f64 * c - z.im as f64 * s,
                    im + z.re as f64 * s + z.im as f64 * c,
                )
            })
        })
        .collect()
}

#[wasm_bindgen_test]
async fn complex_arrays_and_fft_in_the_browser() {
    let dev = device().await;
    assert!(!dev.supports(DType::C128) || dev.info().f64 != "none");
    for n in [16usize, 60, 97] {
        let x: Vec<Complex32> = (0..n)
            .map(|i| Complex32::new(((i * 37) % 11) as f32 - 5.0, ((i * 13) % 7) as f32 - 3.0))
            .collect();
        let a = Array::from_slice(&dev, &x, &[n]).unwrap();
        let y = fft::fft(&a, None, -1, Norm::Backward)
            .unwrap()
            .to_vec_async::<Complex32>()
            .await
            .unwrap();
        let want = dft(&x);
        let scale = want
            .iter()
            .fold(1.0f64, |m, w| m.max(w.0.abs()).max(w.1.abs()));
        for (g, w) in y.iter().zip(&want) {
            let err = (g.re as f64 - w.0).abs().max((g.im as f64 - w.1).abs());
            assert!(
                err < 1e-5 * scale * (n as f64).log2(),
                "n={n}: {g} vs {w:?}"
            );
        }
    }
    // rfft then irfft gives the signal back (odd length: n given).
    let s: Vec<f32> = (0..21).map(|i| ((i * 5) % 9) as f32 - 4.0).collect();
    let r = Array::from_slice(&dev, &s, &[21]).unwrap();
    let spec = fft::rfft(&r, None, -1, Norm::Ortho).unwrap();
    assert_eq!(spec.shape(), &[11]);
    let back = fft::irfft(&spec, Some(21), -1, Norm::Ortho)
        .unwrap()
        .to_vec_async::<f32>()
        .await
        .unwrap();
    assert!(
        back.iter().zip(&s).all(|(b, v)| (b - v).abs() < 1e-4),
        "{back:?}"
    );
    // Complex arithmetic: (a·b) / b and |a| against the host.
    let av = [Complex32::new(1.0, 2.0), Complex32::new(-3.0, 0.5)];
    let bv = [Complex32::new(0.5, -1.0), Complex32::new(2.0, 2.0)];
    let a = Array::from_slice(&dev, &av, &[2]).unwrap();
    let b = Array::from_slice(&dev, &bv, &[2]).unwrap();
    let p = a.mul(&b).unwrap();
    let pv = p.to_vec_async::<Complex32>().await.unwrap();
    assert_eq!(pv, vec![av[0] * bv[0], av[1] * bv[1]]);
    let q = p
        .div(&b)
        .unwrap()
        .to_vec_async::<Complex32>()
        .await
        .unwrap();
    assert!(q.iter().zip(&av).all(|(g, w)| (g - w).norm() < 1e-6));
    let m = a.abs().unwrap().to_vec_async::<f32>().await.unwrap();
    assert!(m.iter().zip(&av).all(|(g, w)| (g - w.norm()).abs() < 1e-6));
    check_clean(&dev).await;
}

#[wasm_bindgen_test]
async fn complex_inverse_functions_order_and_products_in_the_browser() {
    let dev = device().await;
    let v = [
        Complex32::new(1.5, -2.0),
        Complex32::new(0.25, 0.5),
        Complex32::new(1.5, f32::NAN),
        Complex32::new(-3.0, 1.0),
        Complex32::new(1.5, -4.0),
    ];
    let a = Array::from_slice(&dev, &v, &[5]).unwrap();
    // asin and atanh against num-complex's (finite values, a few ulp).
    let finite = [0, 1, 3, 4];
    for (got, f) in [
        (
            a.asin().unwrap(),
            Complex32::asin as fn(Complex32) -> Complex32,
        ),
        (a.atanh().unwrap(), Complex32::atanh),
    ] {
        let g = got.to_vec_async::<Complex32>().await.unwrap();
        for &i in &finite {
            let w = f(v[i]);
            assert!(
                (g[i] - w).norm() <= 1e-5 * w.norm().max(1.0),
                "{i}: {} vs {w}",
                g[i]
            );
        }
    }
    // NumPy's order: by real part, then imaginary part, a NaN part last.
    let s = a
        .sort(Some(-1))
        .unwrap()
        .to_vec_async::<Complex32>()
        .await
        .unwrap();
    let want = [v[3], v[1], v[4], v[0]];
    assert_eq!(&s[..4], &want);
    assert!(s[4].im.is_nan());
    let m = a
        .slice(&[gpuarray::SliceArg::range(None, Some(2), 1)])
        .unwrap();
    let p = m
        .prod(0, false)
        .unwrap()
        .to_vec_async::<Complex32>()
        .await
        .unwrap();
    assert!((p[0] - v[0] * v[1]).norm() < 1e-6);
    let big = a
        .max(0, false)
        .unwrap()
        .to_vec_async::<Complex32>()
        .await
        .unwrap();
    assert!(big[0].im.is_nan(), "the NaN propagates: {}", big[0]);
    check_clean(&dev).await;
}
