//! `gpuarray::fft` against host references in f64.

use super::common;
use gpuarray::fft::{self, Norm};
use gpuarray::{Array, Complex32, Complex64, DType, Device};

type C = Complex64;

/// Deterministic complex samples in [-1, 1).
fn samples(n: usize, seed: u64) -> Vec<C> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    (0..n).map(|_| C::new(next(), next())).collect()
}

/// Bin k of the DFT of x (sign −1 forward, +1 inverse, unscaled), summed in f64 with the angle
/// reduced exactly (k·t mod n in integers).
fn bin(x: &[C], k: usize, sign: f64) -> C {
    let n = x.len() as u128;
    x.iter()
        .enumerate()
        .map(|(t, &v)| {
            let a =
                sign * 2.0 * std::f64::consts::PI * ((k as u128 * t as u128) % n) as f64 / n as f64;
            v * C::new(a.cos(), a.sin())
        })
        .sum()
}

fn dft(x: &[C], sign: f64) -> Vec<C> {
    (0..x.len()).map(|k| bin(x, k, sign)).collect()
}

fn upload(dev: &Device, x: &[C], shape: &[usize], dtype: DType) -> Array {
    if dtype == DType::C128 {
        Array::from_slice(dev, x, shape).unwrap()
    } else {
        let v: Vec<Complex32> = x
            .iter()
            .map(|z| Complex32::new(z.re as f32, z.im as f32))
            .collect();
        Array::from_slice(dev, &v, shape).unwrap()
    }
}

fn read(a: &Array) -> Vec<C> {
    match a.dtype() {
        DType::C128 => a.to_vec::<C>().unwrap(),
        DType::C64 => a
            .to_vec::<Complex32>()
            .unwrap()
            .iter()
            .map(|z| C::new(z.re as f64, z.im as f64))
            .collect(),
        d => panic!("not complex: {d}"),
    }
}

/// ‖got − want‖₂ / ‖want‖₂.
fn rel_rms(got: &[C], want: &[C]) -> f64 {
    assert_eq!(got.len(), want.len());
    let err: f64 = got.iter().zip(want).map(|(g, w)| (g - w).norm_sqr()).sum();
    let norm: f64 = want.iter().map(|w| w.norm_sqr()).sum();
    (err / norm.max(f64::MIN_POSITIVE)).sqrt()
}

fn eps(dtype: DType) -> f64 {
    if dtype == DType::C128 {
        f64::EPSILON
    } else {
        f32::EPSILON as f64
    }
}

fn dtypes(dev: &Device) -> Vec<DType> {
    let mut d = vec![DType::C64];
    if dev.supports(DType::C128) && dev.info().f64 == "native" {
        d.push(DType::C128);
    } else {
        println!("complex128 FFTs skipped: this adapter has no native float64");
    }
    d
}

#[test]
fn every_length_matches_the_naive_dft_within_log_n_epsilon() {
    let Some(dev) = common::device() else { return };
    for dtype in dtypes(&dev) {
        // 143 = 11·13 and 729 = 3^6: the radices without butterflies, in one workgroup; 2048
        // and 4096: one workgroup or one launch per pass, as the adapter's memory allows.
        for n in [
            1, 2, 3, 5, 7, 8, 16, 17, 97, 128, 143, 729, 1000, 1009, 2048, 4096,
        ] {
            let x = samples(n, n as u64);
            let a = upload(&dev, &x, &[n], dtype);
            let bound = 4.0 * (n as f64).log2().max(1.0) * eps(dtype);
            let y = read(&fft::fft(&a, None, -1, Norm::Backward).unwrap());
            let e = rel_rms(&y, &dft(&x, -1.0));
            assert!(e < bound, "fft {dtype} n={n}: {e:e} > {bound:e}");
            let z = read(&fft::ifft(&a, None, -1, Norm::Backward).unwrap());
            let want: Vec<C> = dft(&x, 1.0).iter().map(|v| v / n as f64).collect();
            let e = rel_rms(&z, &want);
            assert!(e < bound, "ifft {dtype} n={n}: {e:e} > {bound:e}");
        }
    }
}

#[test]
fn long_and_prime_lengths_match_direct_sums_at_sampled_bins() {
    // 65537 (prime: Bluestein over 2^18) and 2^20 (seven Stockham passes): 12 bins each by a
    // direct f64 sum, and the round trip.
    let Some(dev) = common::device() else { return };
    for n in [65537usize, 1 << 20] {
        let x = samples(n, 3);
        let a = upload(&dev, &x, &[n], DType::C64);
        let y = read(&fft::fft(&a, None, -1, Norm::Ortho).unwrap());
        let scale = 1.0 / (n as f64).sqrt();
        let bins: Vec<usize> = (0..12).map(|i| (i * 7919 * 131) % n).collect();
        let want: Vec<C> = bins.iter().map(|&k| bin(&x, k, -1.0) * scale).collect();
        let got: Vec<C> = bins.iter().map(|&k| y[k]).collect();
        // Each bin has magnitude ~1 (sum of n unit samples / √n): absolute error per bin.
        let worst = got
            .iter()
            .zip(&want)
            .map(|(g, w)| (g - w).norm())
            .fold(0.0, f64::max);
        let bound = 4.0 * (n as f64).log2() * f32::EPSILON as f64 * 4.0;
        assert!(worst < bound, "n={n}: {worst:e} > {bound:e}");
        let back =
            read(&fft::ifft(&upload(&dev, &y, &[n], DType::C64), None, -1, Norm::Ortho).unwrap());
        let e = rel_rms(&back, &x);
        assert!(
            e < 4.0 * (n as f64).log2() * f32::EPSILON as f64,
            "n={n}: {e:e}"
        );
    }
}

#[test]
fn norms_scale_as_numpy() {
    let Some(dev) = common::device() else { return };
    let n = 12;
    let x = samples(n, 9);
    let a = upload(&dev, &x, &[n], DType::C64);
    let plain = dft(&x, -1.0);
    let inv = dft(&x, 1.0);
    let nf = n as f64;
    for (norm, f, i) in [
        (Norm::Backward, 1.0, 1.0 / nf),
        (Norm::Ortho, 1.0 / nf.sqrt(), 1.0 / nf.sqrt()),
        (Norm::Forward, 1.0 / nf, 1.0),
    ] {
        let y = read(&fft::fft(&a, None, -1, norm).unwrap());
        let want: Vec<C> = plain.iter().map(|v| v * f).collect();
        assert!(rel_rms(&y, &want) < 1e-6, "{norm:?}");
        let z = read(&fft::ifft(&a, None, -1, norm).unwrap());
        let want: Vec<C> = inv.iter().map(|v| v * i).collect();
        assert!(rel_rms(&z, &want) < 1e-6, "{norm:?}");
    }
    assert_eq!(Norm::from_numpy(None).unwrap(), Norm::Backward);
    assert!(Norm::from_numpy(Some("Ortho")).is_err());
}

#[test]
fn real_input_gives_numpys_dtypes_and_n_crops_or_pads() {
    let Some(dev) = common::device() else { return };
    let x: Vec<f32> = (0..10).map(|i| (i as f32 * 0.7).sin()).collect();
    let a = Array::from_slice(&dev, &x, &[10]).unwrap();
    let xc: Vec<C> = x.iter().map(|&v| C::new(v as f64, 0.0)).collect();
    for n in [4, 10, 16] {
        let y = fft::fft(&a, Some(n), 0, Norm::Backward).unwrap();
        assert_eq!((y.dtype(), y.shape()), (DType::C64, &[n][..]));
        let mut padded = xc.clone();
        padded.resize(n, C::new(0.0, 0.0));
        assert!(rel_rms(&read(&y), &dft(&padded, -1.0)) < 1e-6, "n={n}");
    }
    if dev.supports(DType::C128) && dev.info().f64 == "native" {
        let i = Array::from_slice(&dev, &[1i64, 2, 3], &[3]).unwrap();
        let y = fft::fft(&i, None, -1, Norm::Backward).unwrap();
        assert_eq!(y.dtype(), DType::C128);
        assert_eq!(read(&y)[0], C::new(6.0, 0.0));
    }
}

#[test]
fn rfft_irfft_hfft_ihfft_match_their_definitions() {
    let Some(dev) = common::device() else { return };
    // Even lengths pack their pairs into a half-length complex FFT: 2, 8, 30 (15: radices 3
    // and 5), 34 (17: Bluestein), 2048 (1024 in one workgroup).
    for n in [1usize, 2, 7, 8, 17, 30, 34, 2048] {
        let x: Vec<f64> = samples(n, 5 + n as u64).iter().map(|z| z.re).collect();
        let xc: Vec<C> = x.iter().map(|&v| C::new(v, 0.0)).collect();
        let a = Array::from_slice(&dev, &x.iter().map(|&v| v as f32).collect::<Vec<_>>(), &[n])
            .unwrap();
        let spec = fft::rfft(&a, None, -1, Norm::Backward).unwrap();
        assert_eq!(spec.shape(), &[n / 2 + 1]);
        let full = dft(&xc, -1.0);
        assert!(
            rel_rms(&read(&spec), &full[..n / 2 + 1]) < 1e-5,
            "rfft n={n}"
        );
        // Round trip with the length given (odd lengths need it).
        let back = fft::irfft(&spec, Some(n), -1, Norm::Backward).unwrap();
        assert_eq!((back.dtype(), back.shape()), (DType::F32, &[n][..]));
        let back = back.to_vec::<f32>().unwrap();
        let err = back
            .iter()
            .zip(&x)
            .map(|(b, v)| (*b as f64 - v).abs())
            .fold(0.0, f64::max);
        assert!(err < 1e-5, "irfft n={n}: {err:e}");
        // ihfft(x) = conj(rfft(x)) / n; hfft(ihfft(x), n) = x.
        let ih = read(&fft::ihfft(&a, None, -1, Norm::Backward).unwrap());
        let want: Vec<C> = full[..n / 2 + 1]
            .iter()
            .map(|v| v.conj() / n as f64)
            .collect();
        assert!(rel_rms(&ih, &want) < 1e-5, "ihfft n={n}");
        let h = fft::hfft(
            &fft::ihfft(&a, None, -1, Norm::Backward).unwrap(),
            Some(n),
            -1,
            Norm::Backward,
        )
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
        let err = h
            .iter()
            .zip(&x)
            .map(|(b, v)| (*b as f64 - v).abs())
            .fold(0.0, f64::max);
        assert!(err < 1e-5, "hfft n={n}: {err:e}");
    }
    // rfft along the first axis of (12, 3), every norm, in each part precision the adapter has.
    let (rows, cols) = (12usize, 3usize);
    let x: Vec<f64> = samples(rows * cols, 9).iter().map(|z| z.im).collect();
    let mut reals = vec![DType::F32];
    if dev.supports(DType::C128) && dev.info().f64 == "native" {
        reals.push(DType::F64);
    }
    for real in reals {
        let a = if real == DType::F64 {
            Array::from_slice(&dev, &x, &[rows, cols]).unwrap()
        } else {
            let v: Vec<f32> = x.iter().map(|&v| v as f32).collect();
            Array::from_slice(&dev, &v, &[rows, cols]).unwrap()
        };
        for (norm, scale) in [
            (Norm::Backward, 1.0),
            (Norm::Ortho, 1.0 / (rows as f64).sqrt()),
            (Norm::Forward, 1.0 / rows as f64),
        ] {
            let spectrum = fft::rfft(&a, None, 0, norm).unwrap();
            // And back along the same axis.
            let back = fft::irfft(&spectrum, Some(rows), 0, norm).unwrap();
            assert_eq!((back.dtype(), back.shape()), (real, &[rows, cols][..]));
            let back: Vec<f64> = if real == DType::F64 {
                back.to_vec::<f64>().unwrap()
            } else {
                back.to_vec::<f32>()
                    .unwrap()
                    .iter()
                    .map(|&v| v as f64)
                    .collect()
            };
            let worst = back
                .iter()
                .zip(&x)
                .map(|(b, v)| (b - v).abs())
                .fold(0.0, f64::max);
            assert!(worst < 1e-5, "irfft {real} {norm:?}: {worst:e}");
            let y = spectrum;
            assert_eq!(y.shape(), &[rows / 2 + 1, cols]);
            assert_eq!(
                y.dtype(),
                if real == DType::F64 {
                    DType::C128
                } else {
                    DType::C64
                }
            );
            let y = read(&y);
            for c in 0..cols {
                let line: Vec<C> = (0..rows).map(|r| C::new(x[r * cols + c], 0.0)).collect();
                let want: Vec<C> = dft(&line, -1.0)[..rows / 2 + 1]
                    .iter()
                    .map(|v| v * scale)
                    .collect();
                let got: Vec<C> = (0..=rows / 2).map(|k| y[k * cols + c]).collect();
                let e = rel_rms(&got, &want);
                let complex = if real == DType::F64 {
                    DType::C128
                } else {
                    DType::C64
                };
                assert!(
                    e < 8.0 * eps(complex),
                    "rfft {real} {norm:?} column {c}: {e:e}"
                );
            }
        }
    }
    // irfft ignores the imaginary part of the zero frequency, as NumPy.
    let s = Array::from_slice(
        &dev,
        &[
            Complex32::new(4.0, 9.0),
            Complex32::new(0.0, 0.0),
            Complex32::new(0.0, 0.0),
        ],
        &[3],
    )
    .unwrap();
    let r = fft::irfft(&s, None, -1, Norm::Backward).unwrap();
    assert_eq!(r.to_vec::<f32>().unwrap(), vec![1.0; 4]);
}

#[test]
fn axes_of_views_and_nd_transforms_match_nested_dfts() {
    let Some(dev) = common::device() else { return };
    let (d0, d1, d2) = (3, 5, 4);
    let x = samples(d0 * d1 * d2, 11);
    let a = upload(&dev, &x, &[d0, d1, d2], DType::C64);
    let at = |i: usize, j: usize, k: usize| x[(i * d1 + j) * d2 + k];
    // Along axis 1 (strided).
    let y = read(&fft::fft(&a, None, 1, Norm::Backward).unwrap());
    for i in 0..d0 {
        for k in 0..d2 {
            let line: Vec<C> = (0..d1).map(|j| at(i, j, k)).collect();
            let want = dft(&line, -1.0);
            let got: Vec<C> = (0..d1).map(|j| y[(i * d1 + j) * d2 + k]).collect();
            assert!(rel_rms(&got, &want) < 1e-6);
        }
    }
    // A middle axis longer than one workgroup's share of columns, inverse and orthonormal: the
    // transforms read in place, several workgroups along the columns.
    let (e0, e1, e2) = (3, 256, 6);
    let z = samples(e0 * e1 * e2, 12);
    let za = upload(&dev, &z, &[e0, e1, e2], DType::C64);
    let zy = read(&fft::ifft(&za, None, 1, Norm::Ortho).unwrap());
    for i in 0..e0 {
        for k in 0..e2 {
            let line: Vec<C> = (0..e1).map(|j| z[(i * e1 + j) * e2 + k]).collect();
            let want: Vec<C> = dft(&line, 1.0).iter().map(|v| v / 16.0).collect();
            let got: Vec<C> = (0..e1).map(|j| zy[(i * e1 + j) * e2 + k]).collect();
            assert!(
                rel_rms(&got, &want) < 1e-6,
                "ifft along axis 1, line ({i}, {k})"
            );
        }
    }
    // fftn over all axes = the three 1-D transforms in any order.
    let all = read(&fft::fftn(&a, None, None, Norm::Backward).unwrap());
    let mut want = x.clone();
    for (axis, len, stride) in [(0, d0, d1 * d2), (1, d1, d2), (2, d2, 1)] {
        let _ = axis;
        let mut next = want.clone();
        for base in 0..x.len() {
            if (base / stride) % len != 0 {
                continue;
            }
            let line: Vec<C> = (0..len).map(|t| want[base + t * stride]).collect();
            for (t, v) in dft(&line, -1.0).into_iter().enumerate() {
                next[base + t * stride] = v;
            }
        }
        want = next;
    }
    assert!(rel_rms(&all, &want) < 1e-5);
    // fft2 of a transposed view equals fft2 of its copy.
    let t = a.swapaxes(0, 2).unwrap();
    let v = read(&fft::fft2(&t, None, &[-2, -1], Norm::Backward).unwrap());
    let c = read(&fft::fft2(&t.contiguous().unwrap(), None, &[-2, -1], Norm::Backward).unwrap());
    assert_eq!(v, c);
    // rfftn / irfftn round trip with s.
    let r: Vec<f32> = x.iter().map(|z| z.re as f32).collect();
    let ra = Array::from_slice(&dev, &r, &[d0, d1, d2]).unwrap();
    let spec = fft::rfftn(&ra, None, None, Norm::Ortho).unwrap();
    assert_eq!(spec.shape(), &[d0, d1, d2 / 2 + 1]);
    let back = fft::irfftn(&spec, Some(&[d0, d1, d2]), None, Norm::Ortho)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    assert!(back.iter().zip(&r).all(|(b, v)| (b - v).abs() < 1e-5));
}

#[test]
fn batches_past_the_grid_and_empty_batches() {
    // 70,000 transforms of length 4: more workgroups than one grid dimension on a device
    // limited to 256 per dimension.
    let Some(dev) = common::device_with_grid(256) else {
        return;
    };
    let (batch, n) = (70_000usize, 4usize);
    let x = samples(batch * n, 2);
    let a = upload(&dev, &x, &[batch, n], DType::C64);
    let y = read(&fft::fft(&a, None, -1, Norm::Backward).unwrap());
    for b in [0, 1, 35_000, batch - 1] {
        let want = dft(&x[b * n..(b + 1) * n], -1.0);
        assert!(rel_rms(&y[b * n..(b + 1) * n], &want) < 1e-6, "batch {b}");
    }
    let e = Array::zeros(&dev, &[0, 8], DType::C64).unwrap();
    assert_eq!(
        fft::fft(&e, None, -1, Norm::Backward).unwrap().shape(),
        &[0, 8]
    );
}

#[test]
fn invalid_arguments_are_errors_like_numpys() {
    let Some(dev) = common::device() else { return };
    let a = Array::zeros(&dev, &[4], DType::F32).unwrap();
    let c = Array::zeros(&dev, &[4], DType::C64).unwrap();
    let msg = |r: gpuarray::Result<Array>| r.unwrap_err().to_string();
    assert!(
        msg(fft::fft(&a, Some(0), -1, Norm::Backward))
            .contains("Invalid number of FFT data points (0)")
    );
    let empty = Array::zeros(&dev, &[0], DType::F32).unwrap();
    assert!(fft::fft(&empty, None, -1, Norm::Backward).is_err());
    assert!(fft::fft(&a, None, 1, Norm::Backward).is_err());
    assert!(fft::rfft(&c, None, -1, Norm::Backward).is_err());
    assert!(
        fft::irfft(
            &Array::zeros(&dev, &[1], DType::C64).unwrap(),
            None,
            -1,
            Norm::Backward
        )
        .is_err()
    );
    assert!(
        msg(fft::fftn(&a, Some(&[4, 4]), Some(&[0]), Norm::Backward)).contains("different lengths")
    );
    assert!(fft::fftfreq(&dev, 0, 1.0, DType::F64).is_err());
    // The arrays made before the errors still read back.
    assert_eq!(a.to_vec::<f32>().unwrap(), vec![0.0; 4]);
}

#[test]
fn frequencies_and_shifts_match_numpy() {
    let Some(dev) = common::device() else { return };
    // numpy.fft.fftfreq(6, 0.1).tolist(), rfftfreq(7, 2.0).tolist() (NumPy 2.4.6)
    let f = fft::fftfreq(&dev, 6, 0.1, DType::F64)
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    let want = [
        0.0,
        1.6666666666666665,
        3.333333333333333,
        -5.0,
        -3.333333333333333,
        -1.6666666666666665,
    ];
    assert_eq!(f, want);
    let r = fft::rfftfreq(&dev, 7, 2.0, DType::F64)
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    assert_eq!(
        r,
        [
            0.0,
            0.07142857142857142,
            0.14285714285714285,
            0.21428571428571427
        ]
    );
    let x = Array::arange(&dev, 0.0, 12.0, 1.0, DType::I32)
        .unwrap()
        .reshape(&[3, 4])
        .unwrap();
    // numpy.fft.fftshift(np.arange(12).reshape(3, 4))
    let s = fft::fftshift(&x, None).unwrap().to_vec::<i32>().unwrap();
    assert_eq!(s, vec![10, 11, 8, 9, 2, 3, 0, 1, 6, 7, 4, 5]);
    let s1 = fft::fftshift(&x, Some(&[1]))
        .unwrap()
        .to_vec::<i32>()
        .unwrap();
    assert_eq!(s1, vec![2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9]);
    let back = fft::ifftshift(&fft::fftshift(&x, None).unwrap(), None).unwrap();
    assert_eq!(back.to_vec::<i32>().unwrap(), (0..12).collect::<Vec<_>>());
}

#[test]
fn plans_are_cached_within_their_limits() {
    let Some(dev) = common::device() else { return };
    fft::clear_plan_cache(&dev);
    let x = Array::zeros(&dev, &[17], DType::C64).unwrap();
    fft::fft(&x, None, -1, Norm::Backward).unwrap();
    // 17 is Bluestein over 64: two plans.
    let info = fft::plan_cache_info(&dev);
    assert_eq!((info.size, info.max_size), (2, 16));
    assert!(info.memory > 0);
    fft::set_plan_cache_limits(&dev, 1, 0);
    assert_eq!(fft::plan_cache_info(&dev).size, 1);
    fft::set_plan_cache_limits(&dev, 16, 1);
    assert_eq!(fft::plan_cache_info(&dev).size, 0);
    // Still correct with every plan dropped at once.
    fft::set_plan_cache_limits(&dev, 0, 0);
    let y = fft::fft(
        &Array::ones(&dev, &[17], DType::C64).unwrap(),
        None,
        -1,
        Norm::Backward,
    )
    .unwrap();
    let y = read(&y);
    assert!((y[0] - C::new(17.0, 0.0)).norm() < 1e-4);
    assert!(y[1..].iter().all(|v| v.norm() < 1e-4));
}

#[test]
fn transforms_past_one_binding_take_four_steps() {
    // A 1 MiB binding: 2^18 complex64 points (2 MiB) are a 512 × 512 four-step transform, two
    // of them in a batch; sampled bins against direct sums, and the round trip. A prime past
    // the binding has no split: Err(TooLarge), the operands intact. (At 16 MiB and 2^22 points,
    // the same paths, this test took 21 s of the suite on lavapipe.)
    let Some(dev) = common::device_with_binding(1 << 20) else {
        return;
    };
    let n = 1usize << 18;
    let x = samples(2 * n, 4);
    let a = upload(&dev, &x, &[2, n], DType::C64);
    let y = read(&fft::fft(&a, None, -1, Norm::Ortho).unwrap());
    let scale = 1.0 / (n as f64).sqrt();
    for row in 0..2 {
        let xr = &x[row * n..(row + 1) * n];
        for s in 0..6 {
            let k = (s * 7919 * 131 + row) % n;
            let want = bin(xr, k, -1.0) * scale;
            let err = (y[row * n + k] - want).norm();
            assert!(err < 1e-4, "row {row} bin {k}: {err:e}");
        }
    }
    let back = read(
        &fft::ifft(
            &upload(&dev, &y, &[2, n], DType::C64),
            None,
            -1,
            Norm::Ortho,
        )
        .unwrap(),
    );
    let e = rel_rms(&back, &x);
    assert!(e < 4.0 * 18.0 * f32::EPSILON as f64, "{e:e}");
    // rfft of 2^19 float32 points: its 2^18 + 1 frequencies are past the binding, so the
    // complex four-step takes it (not the half-length packing); sampled bins and the round trip.
    let n = 1usize << 19;
    let r: Vec<f32> = samples(n, 6).iter().map(|z| z.re as f32).collect();
    let ra = Array::from_slice(&dev, &r, &[n]).unwrap();
    let spec = fft::rfft(&ra, None, -1, Norm::Ortho).unwrap();
    assert_eq!(spec.shape(), &[n / 2 + 1]);
    let got = read(&spec);
    let rc: Vec<C> = r.iter().map(|&v| C::new(v as f64, 0.0)).collect();
    let scale = 1.0 / (n as f64).sqrt();
    for k in [0, 1, 12_345, n / 4 + 7, n / 2] {
        let err = (got[k] - bin(&rc, k, -1.0) * scale).norm();
        assert!(err < 1e-4, "rfft bin {k}: {err:e}");
    }
    let back = fft::irfft(&spec, Some(n), -1, Norm::Ortho)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    let worst = back
        .iter()
        .zip(&r)
        .map(|(b, v)| (b - v).abs())
        .fold(0.0f32, f32::max);
    assert!(worst < 1e-5, "rfft round trip past the binding: {worst:e}");
    let p = 131_101; // prime, 1 MiB + 232 bytes of complex64
    let big = Array::zeros(&dev, &[p], DType::C64).unwrap();
    assert!(matches!(
        fft::fft(&big, None, -1, Norm::Backward),
        Err(gpuarray::Error::TooLarge { .. })
    ));
    assert_eq!(big.len(), p);
}
