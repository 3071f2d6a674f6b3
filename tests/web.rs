//! The browser tests: gpuarray compiled to wasm32 on the browser's WebGPU (headless Chromium on
//! SwiftShader in CI), through the async API, every result checked against a CPU reference
//! written out here (naive loops) or the independent Philox model of `common/philox.rs`.
//!
//! Run: `cargo test --target wasm32-unknown-unknown --test web` (README, `.ci/run`). Natively
//! this file is empty.
#![cfg(target_arch = "wasm32")]

#[path = "web/fft.rs"]
mod fft;
#[path = "web/linalg.rs"]
mod linalg;
#[path = "web/parity.rs"]
mod parity;

#[path = "common/philox.rs"]
#[allow(dead_code)]
mod cpu;

use gpuarray::random::{Generator, philox_blocks};
use gpuarray::{Array, Axes, DType, Device, DeviceConfig, Error, SliceArg, einsum, f16};
use std::cell::RefCell;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

thread_local! {
    /// One device for the tests that need no special configuration (start-up compiles kernels).
    static SHARED: RefCell<Option<Device>> = const { RefCell::new(None) };
}

async fn device() -> Device {
    if let Some(d) = SHARED.with(|s| s.borrow().clone()) {
        return d;
    }
    let d = Device::with_config_async(DeviceConfig::default())
        .await
        .expect("the browser offers a WebGPU adapter (Chromium needs --enable-unsafe-webgpu)");
    SHARED.with(|s| *s.borrow_mut() = Some(d.clone()));
    d
}

/// Every test ends here: no error reached wgpu's uncaptured-error handler or a late scope.
async fn check_clean(dev: &Device) {
    dev.synchronize_async().await.expect("no late errors");
    assert!(dev.take_uncaptured_errors().is_empty());
}

/// Small integers, exact in f32 sums and products of the sizes used here.
fn ints(n: usize, seed: usize, modulus: usize) -> Vec<f32> {
    (0..n)
        .map(|i| ((i * 7 + seed * 13) % modulus) as f32 - (modulus / 2) as f32)
        .collect()
}

#[wasm_bindgen_test]
async fn the_adapter_and_its_limits() {
    let dev = device().await;
    let info = dev.info();
    console_log!("{info} · features {:?}", info.features);
    assert_eq!(info.backend, "BrowserWebGpu");
    // Limits are the adapter's, as granted, never assumed.
    assert_eq!(
        dev.limits().max_storage_buffer_binding_size as u64,
        info.max_storage_buffer_binding_size
    );
    assert!(info.max_storage_buffer_binding_size >= 128 << 20);
    for d in [DType::F32, DType::I32, DType::U32, DType::Bool] {
        assert!(dev.supports(d), "{d}");
    }
    assert!(info.pipelines > 0);
    check_clean(&dev).await;
}

#[wasm_bindgen_test]
async fn every_variant_compiles_in_the_browser() {
    let dev = device().await;
    let n = dev.compile_variants_async().await.unwrap();
    console_log!("{n} shader variants compiled by the browser");
    // Every family on f32/i32/u32/bool at least (the native count with f16/f64 is ~200).
    assert!(n >= 100, "{n}");
    check_clean(&dev).await;
}

/// int64/uint64/uint8 beyond element-wise in the browser: cumsum, sort/argsort, matmul and
/// 64-bit Philox integers (a full 2^64 range, and one that rejects, awaited), against host
/// references written out here.
#[wasm_bindgen_test]
async fn int64_scans_sorts_matmul_and_integers_in_the_browser() {
    let dev = device().await;
    let x: Vec<i64> = vec![
        5,
        i64::MIN,
        -1,
        1 << 40,
        (1 << 40) + 3,
        i64::MAX,
        0,
        -(1 << 33),
    ];
    let a = Array::from_slice(&dev, &x, &[8]).unwrap();
    let mut run = 0i64;
    let want: Vec<i64> = x
        .iter()
        .map(|v| {
            run = run.wrapping_add(*v);
            run
        })
        .collect();
    let c = a
        .cumsum(Some(0))
        .unwrap()
        .to_vec_async::<i64>()
        .await
        .unwrap();
    assert_eq!(c, want);
    let mut sorted = x.clone();
    sorted.sort();
    let s = a.sort(None).unwrap().to_vec_async::<i64>().await.unwrap();
    assert_eq!(s, sorted);
    let mut order: Vec<i64> = (0..8).collect();
    order.sort_by_key(|&i| x[i as usize]);
    let o = a
        .argsort(None)
        .unwrap()
        .to_vec_async::<i64>()
        .await
        .unwrap();
    assert_eq!(o, order);
    // A 4 x 2 @ 2 x 4 int64 matmul and a uint8 one, wrapping.
    let m = a.reshape(&[4, 2]).unwrap();
    let mt = m.transpose(&[1, 0]).unwrap();
    let p = m.matmul(&mt).unwrap().to_vec_async::<i64>().await.unwrap();
    for i in 0..4 {
        for j in 0..4 {
            let w = (0..2).fold(0i64, |acc, k| {
                acc.wrapping_add(x[i * 2 + k].wrapping_mul(x[j * 2 + k]))
            });
            assert_eq!(p[i * 4 + j], w, "int64 matmul ({i}, {j})");
        }
    }
    let bytes: Vec<u8> = vec![200, 3, 17, 255, 1, 128];
    let u = Array::from_slice(&dev, &bytes, &[2, 3]).unwrap();
    let ut = u.transpose(&[1, 0]).unwrap();
    let q = u.matmul(&ut).unwrap().to_vec_async::<u8>().await.unwrap();
    for i in 0..2 {
        for j in 0..2 {
            let w = (0..3).fold(0u8, |acc, k| {
                acc.wrapping_add(bytes[i * 3 + k].wrapping_mul(bytes[j * 3 + k]))
            });
            assert_eq!(q[i * 2 + j], w, "uint8 matmul ({i}, {j})");
        }
    }
    // 64-bit integers: the full uint64 range in one pass, and a range that rejects.
    let mut g = Generator::new(&dev, 9);
    let full = g
        .integers_i128_async(0, 1 << 64, &[1000], DType::U64)
        .await
        .unwrap()
        .to_vec_async::<u64>()
        .await
        .unwrap();
    assert!(full.iter().any(|&v| v > 1 << 63) && full.iter().any(|&v| v < 1 << 63));
    let (lo, hi) = (-(3i128 << 40), (5i128 << 40) + 12_345);
    let k = g
        .integers_i128_async(lo, hi, &[1000], DType::I64)
        .await
        .unwrap()
        .to_vec_async::<i64>()
        .await
        .unwrap();
    assert!(k.iter().all(|&v| lo <= i128::from(v) && i128::from(v) < hi));
    assert!(k.iter().any(|&v| v < 0) && k.iter().any(|&v| v > 1 << 41));
    check_clean(&dev).await;
}

/// int64 and uint8, emulated in WebGPU as everywhere: transfers, casts, and wrapping integer
/// ops give NumPy's values (independent references written out here).
#[wasm_bindgen_test]
async fn int64_and_uint8_are_exact_in_the_browser() {
    let dev = device().await;
    for d in DType::EMULATED {
        assert!(dev.supports(d), "{d}");
    }
    let x: Vec<i64> = vec![i64::MIN, -1, 0, 1 << 40, (1 << 53) + 1, i64::MAX];
    let a = Array::from_slice(&dev, &x, &[6]).unwrap();
    assert_eq!(a.to_vec_async::<i64>().await.unwrap(), x);
    // Wrapping add and multiply, and floor division with NumPy's signs.
    let sum = a.add(&a).unwrap().to_vec_async::<i64>().await.unwrap();
    assert_eq!(
        sum,
        x.iter().map(|v| v.wrapping_add(*v)).collect::<Vec<_>>()
    );
    let three = Array::from_slice(&dev, &[3i64; 6], &[6]).unwrap();
    let prod = a.mul(&three).unwrap().to_vec_async::<i64>().await.unwrap();
    assert_eq!(
        prod,
        x.iter().map(|v| v.wrapping_mul(3)).collect::<Vec<_>>()
    );
    let q = a
        .floor_divide(&three)
        .unwrap()
        .to_vec_async::<i64>()
        .await
        .unwrap();
    assert_eq!(q, x.iter().map(|v| v.div_euclid(3)).collect::<Vec<_>>());
    // int64 -> f32 rounds correctly (2^53 + 1 -> 2^53), -> uint8 keeps the low byte.
    let f = a
        .astype(DType::F32)
        .unwrap()
        .to_vec_async::<f32>()
        .await
        .unwrap();
    assert_eq!(f, x.iter().map(|&v| v as f32).collect::<Vec<_>>());
    let b = a
        .astype(DType::U8)
        .unwrap()
        .to_vec_async::<u8>()
        .await
        .unwrap();
    assert_eq!(b, x.iter().map(|&v| v as u8).collect::<Vec<_>>());
    // uint8 arithmetic wraps; a strided write leaves the neighbouring bytes alone.
    let img: Vec<u8> = (0..=255).collect();
    let u = Array::from_slice(&dev, &img, &[256]).unwrap();
    let w = u.add(200.0).unwrap().to_vec_async::<u8>().await.unwrap();
    assert_eq!(
        w,
        img.iter().map(|v| v.wrapping_add(200)).collect::<Vec<_>>()
    );
    let odd = u.slice(&[SliceArg::range(Some(1), None, 2)]).unwrap();
    odd.fill(7.0).unwrap();
    let got = u.to_vec_async::<u8>().await.unwrap();
    let want: Vec<u8> = (0..=255u8)
        .map(|i| if i % 2 == 1 { 7 } else { i })
        .collect();
    assert_eq!(got, want);
    check_clean(&dev).await;
}

#[wasm_bindgen_test]
async fn round_trips_of_every_dtype() {
    let dev = device().await;
    let f: Vec<f32> = vec![1.5, -0.0, f32::INFINITY, f32::MIN_POSITIVE, -3.25, 7.0];
    let i: Vec<i32> = vec![i32::MIN, -1, 0, 1, i32::MAX, 42];
    let u: Vec<u32> = vec![0, 1, u32::MAX, 1 << 31, 12345, 7];
    let b = vec![true, false, false, true, true, false];
    let af = Array::from_slice(&dev, &f, &[2, 3]).unwrap();
    let got = af.to_vec_async::<f32>().await.unwrap();
    assert_eq!(
        got.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
        f.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
    );
    let ai = Array::from_slice(&dev, &i, &[3, 2]).unwrap();
    assert_eq!(ai.to_vec_async::<i32>().await.unwrap(), i);
    let au = Array::from_slice(&dev, &u, &[6]).unwrap();
    assert_eq!(au.to_vec_async::<u32>().await.unwrap(), u);
    let ab = Array::from_bools(&dev, &b, &[2, 3]).unwrap();
    assert_eq!(ab.to_vec_bool_async().await.unwrap(), b);
    assert_eq!(ai.dtype(), DType::I32);
    // Odd sizes, the empty array, and one element.
    let odd: Vec<u32> = (0..1001).collect();
    let ao = Array::from_slice(&dev, &odd, &[1001]).unwrap();
    assert_eq!(ao.to_vec_async::<u32>().await.unwrap(), odd);
    let empty = Array::zeros(&dev, &[3, 0], DType::F32).unwrap();
    assert!(empty.to_vec_async::<f32>().await.unwrap().is_empty());
    let one = Array::from_slice(&dev, &[9i32], &[]).unwrap();
    assert_eq!(one.item_async::<i32>().await.unwrap(), 9);
    // A dtype mismatch is an Err, not a reinterpretation.
    assert!(matches!(
        af.to_vec_async::<i32>().await,
        Err(Error::DTypeMismatch { .. })
    ));
    assert!(matches!(
        af.item_async::<f32>().await,
        Err(Error::InvalidArgument { .. })
    ));
    check_clean(&dev).await;
}

#[wasm_bindgen_test]
async fn views_read_back_as_their_host_equivalents() {
    let dev = device().await;
    let (r, c) = (5usize, 7usize);
    let host: Vec<i32> = (0..(r * c) as i32).collect();
    let at = |i: usize, j: usize| host[i * c + j];
    let a = Array::from_slice(&dev, &host, &[r, c]).unwrap();
    // Transpose.
    let t = a.transpose(&[1, 0]).unwrap();
    let want: Vec<i32> = (0..c)
        .flat_map(|j| (0..r).map(move |i| (i, j)))
        .map(|(i, j)| at(i, j))
        .collect();
    assert_eq!(t.to_vec_async::<i32>().await.unwrap(), want);
    // a[1:5:2, ::-3]
    let s = a
        .slice(&[
            SliceArg::range(Some(1), Some(5), 2),
            SliceArg::range(None, None, -3),
        ])
        .unwrap();
    let want: Vec<i32> = [1usize, 3]
        .iter()
        .flat_map(|&i| [6usize, 3, 0].map(|j| at(i, j)))
        .collect();
    assert_eq!(s.shape(), &[2, 3]);
    assert_eq!(s.to_vec_async::<i32>().await.unwrap(), want);
    // Broadcast a row to (3, 7), reshape a view of a view.
    let row = a.slice(&[SliceArg::Index(2)]).unwrap();
    let b = row.broadcast_to(&[3, c]).unwrap();
    let want: Vec<i32> = (0..3).flat_map(|_| (0..c).map(|j| at(2, j))).collect();
    assert_eq!(b.to_vec_async::<i32>().await.unwrap(), want);
    let re = a.reshape(&[7, -1]).unwrap();
    assert_eq!(re.shape(), &[7, 5]);
    assert_eq!(re.to_vec_async::<i32>().await.unwrap(), host);
    // Views of f32, u32 and bool arrays too (the copy kernel of each dtype).
    let hf: Vec<f32> = host.iter().map(|&x| x as f32 * 0.5).collect();
    let f = Array::from_slice(&dev, &hf, &[r, c]).unwrap();
    let ft: Vec<f32> = (0..c)
        .flat_map(|j| (0..r).map(move |i| (i, j)))
        .map(|(i, j)| hf[i * c + j])
        .collect();
    assert_eq!(
        f.transpose(&[1, 0])
            .unwrap()
            .to_vec_async::<f32>()
            .await
            .unwrap(),
        ft
    );
    let hu: Vec<u32> = host.iter().map(|&x| x as u32 * 3).collect();
    let u = Array::from_slice(&dev, &hu, &[r, c]).unwrap();
    let ucol: Vec<u32> = (0..r).map(|i| hu[i * c + 4]).collect();
    let got = u
        .slice(&[SliceArg::range(None, None, 1), SliceArg::Index(4)])
        .unwrap()
        .to_vec_async::<u32>()
        .await
        .unwrap();
    assert_eq!(got, ucol);
    let hb: Vec<bool> = host.iter().map(|&x| x % 3 == 0).collect();
    let bo = Array::from_bools(&dev, &hb, &[r, c]).unwrap();
    let bt: Vec<bool> = (0..c)
        .flat_map(|j| (0..r).map(move |i| (i, j)))
        .map(|(i, j)| hb[i * c + j])
        .collect();
    assert_eq!(
        bo.transpose(&[1, 0])
            .unwrap()
            .to_vec_bool_async()
            .await
            .unwrap(),
        bt
    );
    // A cast on the device.
    let cast = a.astype(DType::F32).unwrap();
    let want: Vec<f32> = host.iter().map(|&x| x as f32).collect();
    assert_eq!(cast.to_vec_async::<f32>().await.unwrap(), want);
    check_clean(&dev).await;
}

#[wasm_bindgen_test]
async fn elementwise_ops_broadcast_like_numpy() {
    let dev = device().await;
    // (3, 1, 4) + (5, 1) -> (3, 5, 4)
    let ha = ints(12, 1, 9);
    let hb = ints(5, 2, 11);
    let a = Array::from_slice(&dev, &ha, &[3, 1, 4]).unwrap();
    let b = Array::from_slice(&dev, &hb, &[5, 1]).unwrap();
    let c = a.add(&b).unwrap();
    assert_eq!(c.shape(), &[3, 5, 4]);
    let mut want = Vec::new();
    for i in 0..3 {
        for y in &hb {
            for k in 0..4 {
                want.push(ha[i * 4 + k] + y);
            }
        }
    }
    assert_eq!(c.to_vec_async::<f32>().await.unwrap(), want);
    // Scalars, a chain, a comparison to bool, where.
    let d = a.mul(&b).unwrap().sub(2.0).unwrap();
    let want_d: Vec<f32> = want
        .iter()
        .enumerate()
        .map(|(n, _)| {
            let (i, j, k) = (n / 20, (n / 4) % 5, n % 4);
            ha[i * 4 + k] * hb[j] - 2.0
        })
        .collect();
    assert_eq!(d.to_vec_async::<f32>().await.unwrap(), want_d);
    let m = d.gt(0.0).unwrap();
    let want_m: Vec<bool> = want_d.iter().map(|&x| x > 0.0).collect();
    assert_eq!(m.to_vec_bool_async().await.unwrap(), want_m);
    let w = gpuarray::where_(&m, &d, 0.0).unwrap();
    let want_w: Vec<f32> = want_d
        .iter()
        .map(|&x| if x > 0.0 { x } else { 0.0 })
        .collect();
    assert_eq!(w.to_vec_async::<f32>().await.unwrap(), want_w);
    // Transcendentals within a few ulp of the host's f64 result.
    let e = a.exp().unwrap().to_vec_async::<f32>().await.unwrap();
    for (g, &x) in e.iter().zip(&ha) {
        let r = (x as f64).exp();
        assert!(
            ((*g as f64) - r).abs() <= 4.0 * f32::EPSILON as f64 * r,
            "exp({x}) = {g}, want {r}"
        );
    }
    // NaN handling by bits (lavapipe and SwiftShader may both fold x != x).
    let nan = Array::from_slice(&dev, &[f32::NAN, 1.0, f32::INFINITY], &[3]).unwrap();
    assert_eq!(
        nan.isnan().unwrap().to_vec_bool_async().await.unwrap(),
        vec![true, false, false]
    );
    let mx = nan
        .maximum(&Array::from_slice(&dev, &[0.0f32; 3], &[3]).unwrap())
        .unwrap();
    let got = mx.to_vec_async::<f32>().await.unwrap();
    assert!(
        got[0].is_nan() && got[1] == 1.0 && got[2] == f32::INFINITY,
        "{got:?}"
    );
    // Integers wrap; u32 too.
    let hi: Vec<i32> = vec![i32::MAX, -5, 7, 100];
    let ai = Array::from_slice(&dev, &hi, &[4]).unwrap();
    let got = ai.add(1.0).unwrap().to_vec_async::<i32>().await.unwrap();
    assert_eq!(
        got,
        hi.iter().map(|x| x.wrapping_add(1)).collect::<Vec<_>>()
    );
    let hu: Vec<u32> = vec![0, 3, u32::MAX, 8];
    let au = Array::from_slice(&dev, &hu, &[4, 1]).unwrap();
    let bu = Array::from_slice(&dev, &[2u32, 5], &[1, 2]).unwrap();
    let got = au.mul(&bu).unwrap().to_vec_async::<u32>().await.unwrap();
    let want: Vec<u32> = hu
        .iter()
        .flat_map(|&x| [2u32, 5].map(|y| x.wrapping_mul(y)))
        .collect();
    assert_eq!(got, want);
    check_clean(&dev).await;
}

#[wasm_bindgen_test]
async fn reductions_match_host_loops() {
    let dev = device().await;
    let (r, c) = (37usize, 300usize);
    let h = ints(r * c, 3, 17);
    let a = Array::from_slice(&dev, &h, &[r, c]).unwrap();
    let total: f32 = h.iter().sum();
    let got = a
        .sum(Axes::All, false)
        .unwrap()
        .item_async::<f32>()
        .await
        .unwrap();
    assert_eq!(got, total);
    let rows: Vec<f32> = (0..r).map(|i| h[i * c..(i + 1) * c].iter().sum()).collect();
    assert_eq!(
        a.sum(1, false)
            .unwrap()
            .to_vec_async::<f32>()
            .await
            .unwrap(),
        rows
    );
    let cols: Vec<f32> = (0..c).map(|j| (0..r).map(|i| h[i * c + j]).sum()).collect();
    let s0 = a.sum(0, true).unwrap();
    assert_eq!(s0.shape(), &[1, c]);
    assert_eq!(s0.to_vec_async::<f32>().await.unwrap(), cols);
    let maxes: Vec<f32> = (0..r)
        .map(|i| {
            h[i * c..(i + 1) * c]
                .iter()
                .cloned()
                .fold(f32::MIN, f32::max)
        })
        .collect();
    assert_eq!(
        a.max(1, false)
            .unwrap()
            .to_vec_async::<f32>()
            .await
            .unwrap(),
        maxes
    );
    // Indices are int64, NumPy's intp, in the browser too.
    let argmax: Vec<i64> = (0..c)
        .map(|j| {
            let col: Vec<f32> = (0..r).map(|i| h[i * c + j]).collect();
            let m = col.iter().cloned().fold(f32::MIN, f32::max);
            col.iter().position(|&x| x == m).unwrap() as i64
        })
        .collect();
    assert_eq!(
        a.argmax(Some(0), false)
            .unwrap()
            .to_vec_async::<i64>()
            .await
            .unwrap(),
        argmax
    );
    let mean = a
        .mean(Axes::All, false)
        .unwrap()
        .item_async::<f32>()
        .await
        .unwrap();
    let want = total as f64 / (r * c) as f64;
    assert!((mean as f64 - want).abs() < 1e-5, "{mean} vs {want}");
    // i32 sums are exact (and wrap).
    let hi: Vec<i32> = (0..100_000)
        .map(|i| (i * 7919) % 100_003 - 50_000)
        .collect();
    let ai = Array::from_slice(&dev, &hi, &[100_000]).unwrap();
    let want = hi.iter().fold(0i32, |s, &x| s.wrapping_add(x));
    assert_eq!(
        ai.sum(Axes::All, false)
            .unwrap()
            .item_async::<i32>()
            .await
            .unwrap(),
        want
    );
    // Boolean any/all over a comparison.
    let pos = a.gt(7.0).unwrap();
    let any = pos
        .any(Axes::All, false)
        .unwrap()
        .to_vec_bool_async()
        .await
        .unwrap();
    assert_eq!(any, vec![h.iter().any(|&x| x > 7.0)]);
    check_clean(&dev).await;
}

/// C = A @ B by the textbook triple loop.
fn host_matmul(a: &[f32], b: &[f32], m: usize, k: usize, n: usize) -> Vec<f32> {
    let mut c = vec![0.0f32; m * n];
    for i in 0..m {
        for j in 0..n {
            let mut s = 0.0f32;
            for p in 0..k {
                s += a[i * k + p] * b[p * n + j];
            }
            c[i * n + j] = s;
        }
    }
    c
}

#[wasm_bindgen_test]
async fn matmul_matches_the_triple_loop() {
    let dev = device().await;
    // Small integers: every kernel's sums are exact, so equality is the test.
    for &(m, k, n) in &[
        (1, 9, 5),
        (7, 1, 3),
        (67, 45, 71),
        (130, 140, 150),
        (256, 64, 200),
    ] {
        let ha = ints(m * k, 1, 7);
        let hb = ints(k * n, 2, 5);
        let a = Array::from_slice(&dev, &ha, &[m, k]).unwrap();
        let b = Array::from_slice(&dev, &hb, &[k, n]).unwrap();
        let got = a.matmul(&b).unwrap().to_vec_async::<f32>().await.unwrap();
        assert_eq!(got, host_matmul(&ha, &hb, m, k, n), "{m}x{k} @ {k}x{n}");
    }
    // Every kernel the device offers, forced, on a transposed operand.
    let (m, k, n) = (96, 80, 72);
    let ha = ints(m * k, 4, 9);
    let hb = ints(n * k, 5, 7);
    let a = Array::from_slice(&dev, &ha, &[m, k]).unwrap();
    let bt = Array::from_slice(&dev, &hb, &[n, k]).unwrap();
    let b = bt.transpose(&[1, 0]).unwrap();
    let hbt: Vec<f32> = (0..k)
        .flat_map(|p| (0..n).map(move |j| (p, j)))
        .map(|(p, j)| hb[j * k + p])
        .collect();
    let want = host_matmul(&ha, &hbt, m, k, n);
    for kernel in dev.matmul_kernels() {
        let got = a
            .matmul_with(&b, kernel)
            .unwrap()
            .to_vec_async::<f32>()
            .await
            .unwrap();
        assert_eq!(got, want, "{kernel}");
    }
    // Batched, with batch broadcasting: (2, 1, 6, 5) @ (3, 5, 4) -> (2, 3, 6, 4).
    let ha = ints(2 * 6 * 5, 6, 5);
    let hb = ints(3 * 5 * 4, 7, 3);
    let a = Array::from_slice(&dev, &ha, &[2, 1, 6, 5]).unwrap();
    let b = Array::from_slice(&dev, &hb, &[3, 5, 4]).unwrap();
    let got = a.matmul(&b).unwrap();
    assert_eq!(got.shape(), &[2, 3, 6, 4]);
    let got = got.to_vec_async::<f32>().await.unwrap();
    let mut want = Vec::new();
    for x in 0..2 {
        for y in 0..3 {
            want.extend(host_matmul(
                &ha[x * 30..x * 30 + 30],
                &hb[y * 20..y * 20 + 20],
                6,
                5,
                4,
            ));
        }
    }
    assert_eq!(got, want);
    check_clean(&dev).await;
}

#[wasm_bindgen_test]
async fn the_matmul_tune_runs_in_the_browser() {
    let dev = device().await;
    let t = dev.matmul_tuning_async().await.unwrap();
    console_log!(
        "matmul tune: chose {} from {:?} in {:?}",
        t.chosen,
        t.candidates,
        t.elapsed
    );
    assert!(t.rejected.is_empty(), "{:?}", t.rejected);
    // Every kernel the device offers was timed, and the fastest was chosen.
    assert_eq!(t.candidates.len(), dev.matmul_kernels().len());
    let best = t
        .candidates
        .iter()
        .max_by(|x, y| x.1.total_cmp(&y.1))
        .unwrap();
    assert_eq!(best.0, t.chosen);
    assert!(t.candidates.iter().all(|c| c.1 > 0.0 && c.1.is_finite()));
    // Asking again returns the same tune without running it.
    assert_eq!(dev.matmul_tuning_async().await.unwrap().elapsed, t.elapsed);
    check_clean(&dev).await;
}

#[wasm_bindgen_test]
async fn einsum_matches_host_loops() {
    let dev = device().await;
    // The seed pattern: ijk,ikm->ijm (a batched matmul over i).
    let (bi, bj, bk, bm) = (3usize, 5usize, 7usize, 4usize);
    let ha = ints(bi * bj * bk, 8, 7);
    let hb = ints(bi * bk * bm, 9, 5);
    let a = Array::from_slice(&dev, &ha, &[bi, bj, bk]).unwrap();
    let b = Array::from_slice(&dev, &hb, &[bi, bk, bm]).unwrap();
    let got = einsum("ijk,ikm->ijm", &[&a, &b]).unwrap();
    assert_eq!(got.shape(), &[bi, bj, bm]);
    let mut want = vec![0.0f32; bi * bj * bm];
    for i in 0..bi {
        for j in 0..bj {
            for m in 0..bm {
                for k in 0..bk {
                    want[(i * bj + j) * bm + m] +=
                        ha[(i * bj + j) * bk + k] * hb[(i * bk + k) * bm + m];
                }
            }
        }
    }
    assert_eq!(got.to_vec_async::<f32>().await.unwrap(), want);
    // An ellipsis: '...ij,...jk->...ik' over batch dims (2, 3), and a transposing output.
    let hx = ints(2 * 3 * 4 * 5, 10, 5);
    let hy = ints(2 * 3 * 5 * 6, 11, 7);
    let x = Array::from_slice(&dev, &hx, &[2, 3, 4, 5]).unwrap();
    let y = Array::from_slice(&dev, &hy, &[2, 3, 5, 6]).unwrap();
    let got = einsum("...ij,...jk->...ki", &[&x, &y]).unwrap();
    assert_eq!(got.shape(), &[2, 3, 6, 4]);
    let mut want = vec![0.0f32; 2 * 3 * 6 * 4];
    for bt in 0..6 {
        for i in 0..4 {
            for k in 0..6 {
                let mut s = 0.0;
                for j in 0..5 {
                    s += hx[bt * 20 + i * 5 + j] * hy[bt * 30 + j * 6 + k];
                }
                want[bt * 24 + k * 4 + i] = s;
            }
        }
    }
    assert_eq!(got.to_vec_async::<f32>().await.unwrap(), want);
    // A trace and a sum over a label: 'ii->' and 'ij->j'.
    let hs = ints(36, 12, 9);
    let s = Array::from_slice(&dev, &hs, &[6, 6]).unwrap();
    let tr = einsum("ii->", &[&s])
        .unwrap()
        .item_async::<f32>()
        .await
        .unwrap();
    assert_eq!(tr, (0..6).map(|i| hs[i * 7]).sum::<f32>());
    let cols = einsum("ij->j", &[&s])
        .unwrap()
        .to_vec_async::<f32>()
        .await
        .unwrap();
    let want: Vec<f32> = (0..6)
        .map(|j| (0..6).map(|i| hs[i * 6 + j]).sum())
        .collect();
    assert_eq!(cols, want);
    // 2^32 points in the iteration space: past wasm32's isize::MAX, which NumPy's 64-bit bound
    // (the one gpuarray keeps on every target) allows. Three sums of ones: exact in f32.
    let a = Array::ones(&dev, &[2048], DType::F32).unwrap();
    let c = Array::ones(&dev, &[1024], DType::F32).unwrap();
    let big = einsum("i,j,k->", &[&a, &a, &c]).unwrap();
    assert_eq!(big.item_async::<f32>().await.unwrap(), 4294967296.0);
    check_clean(&dev).await;
}

/// The first words of `Generator::new(dev, 42)` and of its `standard_normal` in f32, as the
/// native build reads them on lavapipe (`Generator::new(&dev, 42)` then `bits(&[4])`, and a
/// fresh one's `standard_normal(&[4097], F32)`): the same bits on every adapter.
const NATIVE_SEED42_BITS: [u32; 4] = [0x9ceaf053, 0x77f5493b, 0x12bf50ad, 0x5742b3d7];
const NATIVE_SEED42_NORMAL_BITS: [u32; 4] = [0x3e46ace8, 0xbf785e5c, 0x3ff6433c, 0xbf9e28d2];

#[wasm_bindgen_test]
async fn philox_matches_random123_and_the_native_stream() {
    let dev = device().await;
    let kats: [([u32; 4], [u32; 2], [u32; 4]); 3] = [
        (
            [0; 4],
            [0; 2],
            [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8],
        ),
        (
            [!0; 4],
            [!0; 2],
            [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd],
        ),
        (
            [0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344],
            [0xa4093822, 0x299f31d0],
            [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1],
        ),
    ];
    for (ctr, key, want) in kats {
        let got = philox_blocks(&dev, ctr, key, 1)
            .unwrap()
            .to_vec_async::<u32>()
            .await
            .unwrap();
        assert_eq!(got, want, "counter {ctr:08x?} key {key:08x?}");
    }
    // Streams with odd offsets and subsequences, against the CPU model.
    for &(seed, sub, off) in &[
        (42u64, 0u64, 0u64),
        (42, 7, 5),
        (u64::MAX, 3, (1 << 34) + 1),
    ] {
        let mut g = Generator::with_stream(&dev, seed, sub, off);
        let got = g
            .bits(&[10_001])
            .unwrap()
            .to_vec_async::<u32>()
            .await
            .unwrap();
        assert_eq!(
            got,
            cpu::stream(seed, sub, off, 10_001),
            "{seed} {sub} {off}"
        );
    }
    let mut g = Generator::new(&dev, 42);
    let bits = g.bits(&[4]).unwrap().to_vec_async::<u32>().await.unwrap();
    assert_eq!(bits, NATIVE_SEED42_BITS);
    // Normals: Box-Muller on word pairs, as cuRAND; the first equal to the native run's bits.
    let n = 4097;
    let words = cpu::stream(42, 0, 0, 2 * n + 2);
    let mut g = Generator::new(&dev, 42);
    let x = g
        .standard_normal(&[n], DType::F32)
        .unwrap()
        .to_vec_async::<f32>()
        .await
        .unwrap();
    let first: Vec<u32> = x[..4].iter().map(|v| v.to_bits()).collect();
    assert_eq!(first, NATIVE_SEED42_NORMAL_BITS);
    for (i, &v) in x.iter().enumerate() {
        let (s, c) = cpu::box_muller_f32(words[i & !1], words[i | 1]);
        let want = if i % 2 == 0 { s } else { c };
        assert!(
            (v as f64 - want).abs() <= 1e-5 * want.abs().max(1.0),
            "normal {i}: {v} vs {want}"
        );
    }
    check_clean(&dev).await;
}

#[wasm_bindgen_test]
async fn take_async_gathers_like_numpy() {
    let dev = device().await;
    let (r, c) = (4usize, 6usize);
    let h: Vec<f32> = (0..r * c).map(|x| x as f32 * 1.5).collect();
    let a = Array::from_slice(&dev, &h, &[r, c]).unwrap();
    let hi: Vec<i32> = vec![5, 0, -1, 2, -6, 5];
    let i = Array::from_slice(&dev, &hi, &[2, 3]).unwrap();
    let t = a.take_async(&i, Some(1)).await.unwrap();
    assert_eq!(t.shape(), &[r, 2, 3]);
    let col = |k: i32| {
        if k < 0 {
            (k + c as i32) as usize
        } else {
            k as usize
        }
    };
    let want: Vec<f32> = (0..r)
        .flat_map(|row| hi.iter().map(move |&k| (row, k)))
        .map(|(row, k)| h[row * c + col(k)])
        .collect();
    assert_eq!(t.to_vec_async::<f32>().await.unwrap(), want);
    // Flattened (axis None), u32 indices.
    let iu = Array::from_slice(&dev, &[23u32, 0, 7], &[3]).unwrap();
    let flat = a.take_async(&iu, None).await.unwrap();
    assert_eq!(
        flat.to_vec_async::<f32>().await.unwrap(),
        vec![h[23], h[0], h[7]]
    );
    check_clean(&dev).await;
}

#[wasm_bindgen_test]
async fn integers_async_match_the_cpu_model() {
    let dev = device().await;
    // Ranges with rejection: pass 1's counts are awaited, then pass 2 writes the values.
    for &(lo, hi, n, dtype) in &[
        (0i64, 10i64, 20_000usize, DType::I32),
        (-1000, 1_000_001, 3001, DType::I32),
        (5, 3_000_000_000, 777, DType::U32),
    ] {
        let mut g = Generator::with_stream(&dev, 99, 1, 5);
        let a = g.integers_async(lo, hi, &[n], dtype).await.unwrap();
        let got: Vec<i64> = if dtype == DType::I32 {
            let v = a.to_vec_async::<i32>().await.unwrap();
            v.into_iter().map(i64::from).collect()
        } else {
            let v = a.to_vec_async::<u32>().await.unwrap();
            v.into_iter().map(i64::from).collect()
        };
        let words = cpu::stream(99, 1, 5, 2 * n + 64);
        let (want, used) = cpu::integers(&words, lo, (hi - lo) as u64, n);
        assert_eq!(got, want, "[{lo}, {hi}) {dtype}");
        assert_eq!(g.offset(), 5 + used as u64, "words consumed");
    }
    check_clean(&dev).await;
}

#[wasm_bindgen_test]
async fn one_pass_draws_match_the_cpu_model() {
    let dev = device().await;
    // A power-of-two range rejects nothing: one pass, no readback, so it works in a browser.
    let n = 5000;
    let mut g = Generator::with_stream(&dev, 11, 2, 3);
    let got = g
        .integers(-8, 8, &[n], DType::I32)
        .unwrap()
        .to_vec_async::<i32>()
        .await
        .unwrap();
    let (want, used) = cpu::integers(&cpu::stream(11, 2, 3, n), -8, 16, n);
    assert_eq!(got.iter().map(|&x| i64::from(x)).collect::<Vec<_>>(), want);
    assert_eq!(g.offset(), 3 + used as u64);
    // Uniform f32 from the same words: exact.
    let mut g = Generator::with_stream(&dev, 11, 2, 3);
    let u = g
        .random(&[n], DType::F32)
        .unwrap()
        .to_vec_async::<f32>()
        .await
        .unwrap();
    let words = cpu::stream(11, 2, 3, n);
    for (i, (&x, &w)) in u.iter().zip(&words).enumerate() {
        assert_eq!(x, cpu::random_f32(w), "uniform {i} from word {w:#x}");
    }
    check_clean(&dev).await;
}

#[wasm_bindgen_test]
async fn f64_and_f16_work_without_shader_f64_and_shader_f16() {
    let dev = device().await;
    // WebGPU has no f64: the device computes it in software binary64, the same bits as the
    // host's IEEE f64 for the exact ops, as a native device's.
    assert!(dev.supports(DType::F64) && dev.f64_emulated());
    assert_eq!(dev.info().f64, "emulated");
    let n = 1000;
    let xs: Vec<f64> = (0..n)
        .map(|i| ((i * 7919) % 1013) as f64 * 0.37 - 150.1)
        .collect();
    let ys: Vec<f64> = (0..n)
        .map(|i| ((i * 104729) % 997) as f64 / 7.0 + 0.5)
        .collect();
    let a = Array::from_slice(&dev, &xs, &[n]).unwrap();
    let b = Array::from_slice(&dev, &ys, &[n]).unwrap();
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    let got = a.mul(&b).unwrap().add(&a).unwrap().div(&b).unwrap();
    let got = got.to_vec_async::<f64>().await.unwrap();
    let want: Vec<f64> = (0..n).map(|i| (xs[i] * ys[i] + xs[i]) / ys[i]).collect();
    assert_eq!(bits(&got), bits(&want), "(a b + a) / b");
    let s = a.sqrt().unwrap().to_vec_async::<f64>().await.unwrap();
    assert_eq!(
        bits(&s),
        bits(&xs.iter().map(|x| x.sqrt()).collect::<Vec<_>>()),
        "sqrt"
    );
    // A reduction: the sum within n u sum|x| of the host's; max exactly.
    let total = a
        .sum(Axes::All, false)
        .unwrap()
        .to_vec_async::<f64>()
        .await
        .unwrap()[0];
    let host: f64 = xs.iter().sum();
    let bound = n as f64 * f64::EPSILON * xs.iter().map(|x| x.abs()).sum::<f64>();
    assert!((total - host).abs() <= bound, "sum {total} vs {host}");
    let top = a
        .max(Axes::All, false)
        .unwrap()
        .to_vec_async::<f64>()
        .await
        .unwrap()[0];
    assert_eq!(top, xs.iter().copied().fold(f64::MIN, f64::max));
    // matmul: each product rounded and added in k order, as the host loop here (8 columns: a
    // C narrower than that takes the GEMV kernel per column, its four interleaved sums).
    let (m, k, p) = (9, 40, 8);
    let ma = Array::from_slice(&dev, &xs[..m * k], &[m, k]).unwrap();
    let mb = Array::from_slice(&dev, &ys[..k * p], &[k, p]).unwrap();
    let c = ma.matmul(&mb).unwrap().to_vec_async::<f64>().await.unwrap();
    for i in 0..m {
        for j in 0..p {
            let mut acc = 0.0f64;
            for l in 0..k {
                acc += xs[i * k + l] * ys[l * p + j];
            }
            assert_eq!(c[i * p + j].to_bits(), acc.to_bits(), "matmul [{i}, {j}]");
        }
    }
    // A larger matmul takes the Ozaki scheme (residue planes on the f32 kernels, recombined
    // exactly): within a native dot product's bound of the exact sum (here the host's sum in
    // doubled precision: TwoProduct and TwoSum per term).
    let (m, k, p) = (20, 48, 20);
    let ma = Array::from_slice(&dev, &xs[..m * k], &[m, k]).unwrap();
    let mb = Array::from_slice(&dev, &ys[..k * p], &[k, p]).unwrap();
    let c = ma.matmul(&mb).unwrap().to_vec_async::<f64>().await.unwrap();
    for i in 0..m {
        for j in 0..p {
            let (mut s, mut err, mut abs) = (0.0f64, 0.0f64, 0.0f64);
            for l in 0..k {
                let (x, y) = (xs[i * k + l], ys[l * p + j]);
                let prod = x * y;
                let t = s + prod;
                let back = t - s;
                err += (s - (t - back)) + (prod - back) + x.mul_add(y, -prod);
                s = t;
                abs += prod.abs();
            }
            let want = s + err;
            let bound = k as f64 * f64::EPSILON / 2.0 * abs;
            let got = c[i * p + j];
            assert!(
                (got - want).abs() <= bound,
                "ozaki matmul [{i}, {j}]: {got} vs {want}"
            );
        }
    }
    // Philox: 53 bits from the same two words as the native path.
    let mut g = Generator::with_stream(&dev, 11, 2, 3);
    let u = g
        .random(&[n], DType::F64)
        .unwrap()
        .to_vec_async::<f64>()
        .await
        .unwrap();
    let words = cpu::stream(11, 2, 3, 2 * n);
    for i in 0..n {
        let want = cpu::random_f64(words[2 * i], words[2 * i + 1]);
        assert_eq!(u[i].to_bits(), want.to_bits(), "random f64 {i}");
    }
    // Casts both ways.
    let back = a.astype(DType::F32).unwrap().astype(DType::F64).unwrap();
    let back = back.to_vec_async::<f64>().await.unwrap();
    assert_eq!(
        bits(&back),
        bits(&xs.iter().map(|&x| x as f32 as f64).collect::<Vec<_>>())
    );
    // f16 on every adapter: packed two per word and computed in f32 where the adapter lacks
    // shader-f16 (SwiftShader does), each result rounded once to f16 as NumPy's float16 ufuncs.
    let has_f16 = dev.info().features.contains(&"shader-f16");
    assert!(dev.supports(DType::F16));
    assert_eq!(dev.f16_emulated(), !has_f16, "{}", dev.info());
    let hx: Vec<f16> = xs.iter().map(|&x| f16::from_f64(x)).collect();
    let hy: Vec<f16> = ys.iter().map(|&y| f16::from_f64(y)).collect();
    let ha = Array::from_slice(&dev, &hx, &[n]).unwrap();
    let hb = Array::from_slice(&dev, &hy, &[n]).unwrap();
    let q = ha.div(&hb).unwrap().to_vec_async::<f16>().await.unwrap();
    let p16 = ha.mul(&hb).unwrap().add(&ha).unwrap();
    let p16 = p16.to_vec_async::<f16>().await.unwrap();
    for i in 0..n {
        let (x, y) = (hx[i].to_f32(), hy[i].to_f32());
        assert_eq!(q[i], f16::from_f32(x / y), "f16 divide [{i}]");
        let prod = f16::from_f32(x * y).to_f32();
        assert_eq!(p16[i], f16::from_f32(prod + x), "f16 a b + a [{i}]");
    }
    let wide = ha
        .astype(DType::F64)
        .unwrap()
        .to_vec_async::<f64>()
        .await
        .unwrap();
    assert_eq!(
        wide,
        hx.iter().map(|h| h.to_f64()).collect::<Vec<_>>(),
        "f16 -> f64"
    );
    let top = ha
        .max(Axes::All, false)
        .unwrap()
        .to_vec_async::<f16>()
        .await
        .unwrap()[0];
    assert_eq!(top, hx.iter().copied().fold(f16::NEG_INFINITY, f16::max));
    // matmul of halves: the f32 dot product rounded once (within one f16 ulp of the exact sum;
    // operands scaled so that the sums stay below f16's 65504).
    let (m, k, p) = (9, 40, 7);
    let hx: Vec<f16> = hx
        .iter()
        .map(|h| f16::from_f64(h.to_f64() / 16.0))
        .collect();
    let ma = Array::from_slice(&dev, &hx[..m * k], &[m, k]).unwrap();
    let mb = Array::from_slice(&dev, &hy[..k * p], &[k, p]).unwrap();
    let c = ma.matmul(&mb).unwrap().to_vec_async::<f16>().await.unwrap();
    for i in 0..m {
        for j in 0..p {
            let exact: f64 = (0..k)
                .map(|l| hx[i * k + l].to_f64() * hy[l * p + j].to_f64())
                .sum();
            let ulp = exact.abs().max(6.103515625e-05) * 2f64.powi(-10);
            let got = c[i * p + j].to_f64();
            assert!(
                (got - exact).abs() <= ulp,
                "f16 matmul [{i}, {j}]: {got} vs {exact}"
            );
        }
    }
    check_clean(&dev).await;
}

#[wasm_bindgen_test]
async fn bad_input_is_an_err() {
    let dev = device().await;
    let a = Array::zeros(&dev, &[2, 3], DType::F32).unwrap();
    let b = Array::zeros(&dev, &[4], DType::F32).unwrap();
    assert!(matches!(a.add(&b), Err(Error::Shape { .. })));
    let m = Array::zeros(&dev, &[4, 5], DType::F32).unwrap();
    assert!(matches!(a.matmul(&m), Err(Error::Shape { .. })));
    assert!(matches!(
        Array::from_slice(&dev, &[1.0f32, 2.0], &[3]),
        Err(Error::Shape { .. })
    ));
    assert!(matches!(a.reshape(&[4, -1]), Err(Error::Shape { .. })));
    assert!(
        matches!(einsum("ij,jk->ik", &[&a, &a]), Err(Error::Einsum { .. })),
        "j is 3 and 2"
    );
    assert!(matches!(einsum("ij,j", &[&a]), Err(Error::Einsum { .. })));
    let i = Array::zeros(&dev, &[2, 3], DType::I32).unwrap();
    assert!(matches!(a.add(&i), Err(Error::DTypeMismatch { .. })));
    assert!(matches!(a.sum(5, false), Err(Error::Axis { .. })));
    // What needs a blocking readback of a device value is refused on wasm32, not hung.
    let idx = Array::from_slice(&dev, &[0i32, 2], &[2]).unwrap();
    assert!(matches!(
        a.take(&idx, Some(1)),
        Err(Error::Unsupported { .. })
    ));
    // take_async checks the bounds by awaiting: out of range is an Err too.
    let far = Array::from_slice(&dev, &[0i32, 3], &[2]).unwrap();
    assert!(matches!(
        a.take_async(&far, Some(1)).await,
        Err(Error::InvalidArgument { .. })
    ));
    let mut g = Generator::new(&dev, 1);
    assert!(matches!(
        g.integers(0, 10, &[8], DType::I32),
        Err(Error::Unsupported { .. })
    ));
    assert!(matches!(
        g.integers_async(5, 5, &[8], DType::I32).await,
        Err(Error::InvalidArgument { .. })
    ));
    // The device still works.
    let ok = a.add(1.0).unwrap().to_vec_async::<f32>().await.unwrap();
    assert_eq!(ok, vec![1.0; 6]);
    check_clean(&dev).await;
}

#[wasm_bindgen_test]
async fn arrays_past_a_128_mib_binding() {
    // Bindings capped at 128 MiB (what many real browsers report); the arrays are 136 MiB, so
    // every kernel runs over several binding windows.
    let dev = Device::with_config_async(DeviceConfig {
        max_binding_size: Some(128 << 20),
        ..Default::default()
    })
    .await
    .unwrap();
    assert_eq!(dev.info().max_storage_buffer_binding_size, 128 << 20);
    let n = (34 << 20) + 3;
    let x = Array::arange(&dev, 0.0, n as f64, 1.0, DType::I32).unwrap();
    let y = x.add(7.0).unwrap();
    let got = y.to_vec_async::<i32>().await.unwrap();
    assert_eq!(got.len(), n);
    if let Some(bad) = (0..n).find(|&i| got[i] != i as i32 + 7) {
        panic!("element {bad}: {} (want {})", got[bad], bad + 7);
    }
    drop(got);
    let s = Array::ones(&dev, &[n], DType::I32).unwrap();
    assert_eq!(
        s.sum(Axes::All, false)
            .unwrap()
            .item_async::<i32>()
            .await
            .unwrap(),
        n as i32
    );
    assert_eq!(
        y.max(Axes::All, false)
            .unwrap()
            .item_async::<i32>()
            .await
            .unwrap(),
        n as i32 + 6
    );
    assert_eq!(
        y.argmax(None, false)
            .unwrap()
            .item_async::<i64>()
            .await
            .unwrap(),
        n as i64 - 1
    );
    check_clean(&dev).await;
}

#[wasm_bindgen_test]
async fn a_wait_past_the_timeout_is_an_err_and_the_device_recovers() {
    let dev = Device::with_config_async(DeviceConfig::default())
        .await
        .unwrap();
    // A 512³ matmul takes about a second on SwiftShader; the readback may wait 1 ms.
    let a = Array::full(&dev, &[512, 512], 0.5, DType::F32).unwrap();
    let c = a.matmul(&a).unwrap();
    dev.set_timeout(std::time::Duration::from_millis(1));
    assert!(matches!(
        c.to_vec_async::<f32>().await,
        Err(Error::Timeout { .. })
    ));
    dev.set_timeout(std::time::Duration::from_secs(600));
    let v = c.to_vec_async::<f32>().await.unwrap();
    assert!(v.iter().all(|&x| x == 128.0), "0.5 * 0.5 * 512");
    check_clean(&dev).await;
}

#[wasm_bindgen_test]
async fn a_destroyed_device_fails_fast() {
    let dev = Device::with_config_async(DeviceConfig::default())
        .await
        .unwrap();
    let a = Array::ones(&dev, &[1000], DType::F32).unwrap();
    dev.destroy();
    assert!(matches!(
        a.to_vec_async::<f32>().await,
        Err(Error::DeviceLost { .. })
    ));
    assert!(matches!(
        dev.synchronize_async().await,
        Err(Error::DeviceLost { .. })
    ));
    assert!(dev.lost_reason().is_some());
}

#[wasm_bindgen_test]
async fn user_kernels_and_fuse_in_the_browser() {
    use gpuarray::{ElementwiseKernel, RawArg, RawKernel, ReductionKernel, fuse};
    let dev = device().await;
    let (r, c) = (24, 301);
    let xs: Vec<f32> = (0..r * c)
        .map(|i| ((i * 7919) % 1013) as f32 / 100.0 - 5.0)
        .collect();
    let ys: Vec<f32> = (0..c).map(|i| (i % 17) as f32 * 0.25).collect();
    let x = Array::from_slice(&dev, &xs, &[r, c]).unwrap();
    let y = Array::from_slice(&dev, &ys, &[c]).unwrap();
    // CuPy's squared difference, broadcast; Tint compiles the generated WGSL.
    let k =
        ElementwiseKernel::new("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff").unwrap();
    let z = k.call(&[(&x).into(), (&y).into()]).unwrap();
    let got = z[0].to_vec_async::<f32>().await.unwrap();
    for i in 0..r * c {
        let d = xs[i] - ys[i % c];
        assert_eq!(got[i], d * d, "at {i}");
    }
    // CuPy's L2 norm over rows.
    let l2 = ReductionKernel::new(
        "T x",
        "T y",
        "x * x",
        "a + b",
        "y = sqrt(a)",
        Some("0"),
        "l2norm",
    )
    .unwrap();
    let norms = l2.call(&[(&x).into()], 1, false).unwrap()[0]
        .to_vec_async::<f32>()
        .await
        .unwrap();
    for i in 0..r {
        let want = xs[i * c..(i + 1) * c]
            .iter()
            .map(|&v| (v as f64).powi(2))
            .sum::<f64>()
            .sqrt();
        assert!((norms[i] as f64 - want).abs() < 1e-5 * want, "row {i}");
    }
    // A fused chain has the unfused bits; softmax runs its reductions first.
    let f = fuse(|[x, y]| ((x.exp() * &y + 1.0).tanh() - y.sin()).maximum(0.125));
    let fused = f
        .call(&[&x, &y])
        .unwrap()
        .to_vec_async::<f32>()
        .await
        .unwrap();
    let unfused = x
        .exp()
        .unwrap()
        .mul(&y)
        .unwrap()
        .add(1.0)
        .unwrap()
        .tanh()
        .unwrap()
        .sub(&y.sin().unwrap())
        .unwrap()
        .maximum(0.125)
        .unwrap()
        .to_vec_async::<f32>()
        .await
        .unwrap();
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&fused), bits(&unfused));
    let softmax = fuse(|[x]| {
        let e = (&x - x.max(-1, true)).exp();
        &e / e.sum(-1, true)
    });
    let s = softmax
        .call(&[&x])
        .unwrap()
        .to_vec_async::<f32>()
        .await
        .unwrap();
    for i in 0..r {
        let row = &xs[i * c..(i + 1) * c];
        let m = row.iter().cloned().fold(f32::MIN, f32::max) as f64;
        let total: f64 = row.iter().map(|&v| (v as f64 - m).exp()).sum();
        for j in 0..c {
            let want = (row[j] as f64 - m).exp() / total;
            assert!(
                (s[i * c + j] as f64 - want).abs() < 1e-6 + 1e-5 * want,
                "({i}, {j})"
            );
        }
    }
    // A raw kernel.
    let raw = RawKernel::new(
        "@group(0) @binding(0) var<storage, read_write> v: array<f32>;
         @group(0) @binding(1) var<uniform> s: vec4<f32>;
         @compute @workgroup_size(64)
         fn scale(@builtin(global_invocation_id) id: vec3<u32>) {
             if (id.x < arrayLength(&v)) { v[id.x] = v[id.x] * s.x; }
         }",
        "scale",
    )
    .unwrap();
    let v = Array::from_slice(&dev, &ys, &[c]).unwrap();
    raw.call(
        ((c as u32).div_ceil(64), 1, 1),
        &[(&v).into(), RawArg::uniform_f32(&[4.0, 0.0, 0.0, 0.0])],
    )
    .unwrap();
    let scaled = v.to_vec_async::<f32>().await.unwrap();
    assert!(scaled.iter().zip(&ys).all(|(a, b)| *a == b * 4.0));
    check_clean(&dev).await;
    // A body naga refuses: an `Err` at the call, placed in the user's text, as natively.
    let bad = ElementwiseKernel::new("float32 x", "float32 y", "y = x +\n  undefined_name", "bad")
        .unwrap();
    let e = bad.call(&[(&x).into()]).unwrap_err().to_string();
    assert!(e.contains("line 2, column 3 of the operation"), "{e}");
    let _ = dev.synchronize_async().await;
    assert_eq!(y.to_vec_async::<f32>().await.unwrap(), ys);
}
