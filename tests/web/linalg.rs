//! `gpuarray::linalg` in the browser (f32, the `_async` forms): solve, inv, det, slogdet,
//! Cholesky, QR, eigh and SVD on WebGPU (QR, eigh and SVD also past 128 rows: blocked, by
//! tridiagonalisation, by bidiagonalisation), each checked against its invariant computed on the
//! host, and a singular matrix as `Err(LinAlg)` naming it; batches of small systems; LU,
//! Cholesky and QR of matrices past one storage binding.

use super::{check_clean, device};
use gpuarray::linalg::{self, QrMode};
use gpuarray::{Array, Device, DeviceConfig, Error};
use wasm_bindgen_test::*;

fn matrix(n: usize, seed: usize) -> Vec<f32> {
    (0..n * n)
        .map(|t| {
            let v = ((t * 7919 + seed * 104729) % 1009) as f32 / 1009.0 - 0.5;
            if t % (n + 1) == 0 { v + n as f32 } else { v }
        })
        .collect()
}

fn mm(a: &[f32], b: &[f32], m: usize, k: usize, n: usize) -> Vec<f64> {
    let mut c = vec![0.0f64; m * n];
    for i in 0..m {
        for p in 0..k {
            for j in 0..n {
                c[i * n + j] += a[i * k + p] as f64 * b[p * n + j] as f64;
            }
        }
    }
    c
}

fn worst(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).fold(0.0, |m, (x, y)| m.max((x - y).abs()))
}

fn eye(n: usize) -> Vec<f64> {
    (0..n * n)
        .map(|t| if t % (n + 1) == 0 { 1.0 } else { 0.0 })
        .collect()
}

fn t(a: &[f32], m: usize, n: usize) -> Vec<f32> {
    (0..m * n).map(|k| a[(k % m) * n + k / m]).collect()
}

#[wasm_bindgen_test]
async fn linalg_in_the_browser() {
    let dev = device().await;
    let (n, batch) = (12, 5);
    let host: Vec<f32> = (0..batch).flat_map(|b| matrix(n, b)).collect();
    let a = Array::from_slice(&dev, &host, &[batch, n, n]).unwrap();
    let rhs: Vec<f32> = (0..batch * n).map(|i| (i % 7) as f32 - 3.0).collect();
    let b = Array::from_slice(&dev, &rhs, &[batch, n, 1]).unwrap();
    let x = linalg::solve_async(&a, &b)
        .await
        .unwrap()
        .to_vec_async::<f32>()
        .await
        .unwrap();
    let inv = linalg::inv_async(&a)
        .await
        .unwrap()
        .to_vec_async::<f32>()
        .await
        .unwrap();
    for m in 0..batch {
        let am = &host[m * n * n..(m + 1) * n * n];
        let got = mm(am, &x[m * n..(m + 1) * n], n, n, 1);
        let want: Vec<f64> = rhs[m * n..(m + 1) * n].iter().map(|&v| v as f64).collect();
        assert!(worst(&got, &want) < 1e-4, "solve {m}");
        assert!(
            worst(&mm(am, &inv[m * n * n..(m + 1) * n * n], n, n, n), &eye(n)) < 1e-5,
            "inv {m}"
        );
    }
    let (sign, logdet) = linalg::slogdet(&a).unwrap();
    let det = linalg::det(&a)
        .unwrap()
        .to_vec_async::<f32>()
        .await
        .unwrap();
    let (sign, logdet) = (
        sign.to_vec_async::<f32>().await.unwrap(),
        logdet.to_vec_async::<f32>().await.unwrap(),
    );
    for m in 0..batch {
        assert!(((sign[m] * logdet[m].exp()) / det[m] - 1.0).abs() < 1e-4);
    }
    // Cholesky of A·Aᵀ, QR, eigh of A + Aᵀ, SVD of A.
    let a0 = matrix(n, 9);
    let g0 = Array::from_slice(&dev, &a0, &[n, n]).unwrap();
    let spd = g0.matmul(&g0.t()).unwrap();
    let spd_host = mm(&a0, &t(&a0, n, n), n, n, n);
    let l = linalg::cholesky_async(&spd, false)
        .await
        .unwrap()
        .to_vec_async::<f32>()
        .await
        .unwrap();
    let scale = spd_host.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    assert!(worst(&mm(&l, &t(&l, n, n), n, n, n), &spd_host) < 1e-5 * scale);
    let (q, r) = linalg::qr(&g0, QrMode::Reduced).unwrap();
    let (q, r) = (
        q.unwrap().to_vec_async::<f32>().await.unwrap(),
        r.to_vec_async::<f32>().await.unwrap(),
    );
    assert!(worst(&mm(&t(&q, n, n), &q, n, n, n), &eye(n)) < 1e-5);
    let a0d: Vec<f64> = a0.iter().map(|&v| v as f64).collect();
    assert!(worst(&mm(&q, &r, n, n, n), &a0d) < 1e-4);
    let sym = g0.add(&g0.t()).unwrap();
    let symh = sym.to_vec_async::<f32>().await.unwrap();
    let (w, v) = linalg::eigh_async(&sym, true).await.unwrap();
    let (w, v) = (
        w.to_vec_async::<f32>().await.unwrap(),
        v.to_vec_async::<f32>().await.unwrap(),
    );
    assert!(w.windows(2).all(|p| p[0] <= p[1]));
    let av = mm(&symh, &v, n, n, n);
    let vl: Vec<f64> = (0..n * n).map(|k| v[k] as f64 * w[k % n] as f64).collect();
    assert!(worst(&av, &vl) < 1e-4, "A·V = V·Λ");
    let (u, s, vh) = linalg::svd_async(&g0, false).await.unwrap();
    let (u, s, vh) = (
        u.to_vec_async::<f32>().await.unwrap(),
        s.to_vec_async::<f32>().await.unwrap(),
        vh.to_vec_async::<f32>().await.unwrap(),
    );
    let us: Vec<f32> = (0..n * n).map(|k| u[k] * s[k % n]).collect();
    assert!(worst(&mm(&us, &vh, n, n, n), &a0d) < 1e-4);
    assert!(worst(&mm(&t(&u, n, n), &u, n, n, n), &eye(n)) < 1e-5);
    // Past 128 rows: QR blocked (compact WY on the matmul), eigh by tridiagonalisation and QL.
    let big = 130;
    let hb = matrix(big, 4);
    let gbig = Array::from_slice(&dev, &hb, &[big, big]).unwrap();
    let (q, r) = linalg::qr(&gbig, QrMode::Reduced).unwrap();
    let (q, r) = (
        q.unwrap().to_vec_async::<f32>().await.unwrap(),
        r.to_vec_async::<f32>().await.unwrap(),
    );
    let tol = 8.0 * big as f64 * f32::EPSILON as f64;
    let hbd: Vec<f64> = hb.iter().map(|&v| v as f64).collect();
    let scale = hbd.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    assert!(worst(&mm(&t(&q, big, big), &q, big, big, big), &eye(big)) < tol);
    assert!(worst(&mm(&q, &r, big, big, big), &hbd) < tol * scale);
    let symb = gbig.add(&gbig.t()).unwrap();
    let symbh = symb.to_vec_async::<f32>().await.unwrap();
    let (w, v) = linalg::eigh_async(&symb, true).await.unwrap();
    let (w, v) = (
        w.to_vec_async::<f32>().await.unwrap(),
        v.to_vec_async::<f32>().await.unwrap(),
    );
    assert!(w.windows(2).all(|p| p[0] <= p[1]));
    let av = mm(&symbh, &v, big, big, big);
    let vl: Vec<f64> = (0..big * big)
        .map(|k| v[k] as f64 * w[k % big] as f64)
        .collect();
    assert!(worst(&av, &vl) < tol * 2.0 * scale, "A·V = V·Λ, {big}²");
    assert!(worst(&mm(&t(&v, big, big), &v, big, big, big), &eye(big)) < tol);
    // SVD past 128 columns: bidiagonalisation and implicit-shift QR.
    let (u, s, vh) = linalg::svd_async(&gbig, false).await.unwrap();
    let (u, s, vh) = (
        u.to_vec_async::<f32>().await.unwrap(),
        s.to_vec_async::<f32>().await.unwrap(),
        vh.to_vec_async::<f32>().await.unwrap(),
    );
    assert!(s.windows(2).all(|p| p[0] >= p[1]));
    let us: Vec<f32> = (0..big * big).map(|k| u[k] * s[k % big]).collect();
    assert!(
        worst(&mm(&us, &vh, big, big, big), &hbd) < tol * scale,
        "A = U·S·Vh, {big}²"
    );
    assert!(worst(&mm(&t(&u, big, big), &u, big, big, big), &eye(big)) < tol);
    assert!(worst(&mm(&vh, &t(&vh, big, big), big, big, big), &eye(big)) < tol);
    // A singular matrix of the batch is an error naming it; the arrays made before still read.
    let mut bad = host.clone();
    for j in 0..n {
        bad[3 * n * n + 2 * n + j] = bad[3 * n * n + j];
    }
    let gb = Array::from_slice(&dev, &bad, &[batch, n, n]).unwrap();
    match linalg::inv_async(&gb).await {
        Err(Error::LinAlg { index, .. }) => assert_eq!(index, Some(3)),
        other => panic!("{other:?}"),
    }
    assert_eq!(a.to_vec_async::<f32>().await.unwrap(), host);
    check_clean(&dev).await;
}

/// Batches of small systems take one invocation per matrix and kernels generated per size
/// (`src/linalg/tiny.rs`), compiled here by the browser's WGSL compiler: 6 × 6 always, 13 × 13
/// once the tiering threshold (lowered on this thread) is passed — the looped kernel's bits.
#[wasm_bindgen_test]
async fn batched_small_solves_in_the_browser() {
    let dev = device().await;
    let batch = 40;
    for n in [6, 13] {
        let host: Vec<f32> = (0..batch).flat_map(|b| matrix(n, b)).collect();
        let a = Array::from_slice(&dev, &host, &[batch, n, n]).unwrap();
        let rhs: Vec<f32> = (0..batch * n * 2).map(|i| (i % 11) as f32 - 5.0).collect();
        let b = Array::from_slice(&dev, &rhs, &[batch, n, 2]).unwrap();
        let mut runs = Vec::new();
        for after in [u64::MAX, 0] {
            linalg::tier_small_solves_after(Some(after));
            let x = linalg::solve_async(&a, &b).await;
            linalg::tier_small_solves_after(None);
            runs.push(x.unwrap().to_vec_async::<f32>().await.unwrap());
        }
        assert_eq!(
            runs[0], runs[1],
            "{n} x {n}: the looped and generated kernels differ"
        );
        let x = &runs[1];
        for m in 0..batch {
            let am = &host[m * n * n..(m + 1) * n * n];
            let got = mm(am, &x[m * n * 2..(m + 1) * n * 2], n, n, 2);
            let want: Vec<f64> = rhs[m * n * 2..(m + 1) * n * 2]
                .iter()
                .map(|&v| v as f64)
                .collect();
            assert!(worst(&got, &want) < 1e-4, "{n} x {n}, matrix {m}");
        }
    }
    check_clean(&dev).await;
}

/// Matrices past one storage binding (capped at 1 MiB here; 128 MiB in many browsers): LU,
/// Cholesky and QR factor panels and blocks copied out of the matrix (a tall, narrow QR its
/// leaves of rows), eigh and svd reduce by windows of rows: none binds the matrix.
#[wasm_bindgen_test]
async fn linalg_past_one_binding_in_the_browser() {
    let dev = Device::with_config_async(DeviceConfig {
        max_binding_size: Some(1 << 20),
        ..Default::default()
    })
    .await
    .unwrap();
    let n = 560; // 1.25 MB of float32
    let host = matrix(n, 3);
    let a = Array::from_slice(&dev, &host, &[n, n]).unwrap();
    let rhs: Vec<f32> = (0..n).map(|i| (i % 7) as f32 - 3.0).collect();
    let b = Array::from_slice(&dev, &rhs, &[n]).unwrap();
    let x = linalg::solve_async(&a, &b)
        .await
        .unwrap()
        .to_vec_async::<f32>()
        .await
        .unwrap();
    let want: Vec<f64> = rhs.iter().map(|&v| v as f64).collect();
    assert!(worst(&mm(&host, &x, n, n, 1), &want) < 1e-3, "solve");
    // A·Aᵀ/n + I is positive definite.
    let at = t(&host, n, n);
    let spd: Vec<f32> = mm(&host, &at, n, n, n)
        .iter()
        .enumerate()
        .map(|(k, &v)| (v / n as f64) as f32 + if k % (n + 1) == 0 { 1.0 } else { 0.0 })
        .collect();
    let s = Array::from_slice(&dev, &spd, &[n, n]).unwrap();
    let l = linalg::cholesky_async(&s, false)
        .await
        .unwrap()
        .to_vec_async::<f32>()
        .await
        .unwrap();
    let lt = t(&l, n, n);
    let back: Vec<f64> = mm(&l, &lt, n, n, n);
    let want: Vec<f64> = spd.iter().map(|&v| v as f64).collect();
    assert!(worst(&back, &want) < 1e-3, "cholesky");
    // eigh: tridiagonalised with A22·v over windows of rows, Zᵀ rotated as blocks of columns.
    let (w, v) = linalg::eigh_async(&s, true).await.unwrap();
    let (w, v) = (
        w.to_vec_async::<f32>().await.unwrap(),
        v.to_vec_async::<f32>().await.unwrap(),
    );
    let top = w.iter().fold(0.0f32, |m, x| m.max(x.abs())) as f64;
    let vl: Vec<f64> = (0..n * n).map(|t| (v[t] * w[t % n]) as f64).collect();
    assert!(
        worst(&mm(&spd, &v, n, n, n), &vl) < 1e-4 * top,
        "eigh: A·V = V·Λ"
    );
    assert!(
        worst(&mm(&t(&v, n, n), &v, n, n, n), &eye(n)) < 1e-4,
        "eigh: VᵀV = I"
    );
    // svd: bidiagonalised with Aᵀ·v and A·u over windows of rows.
    let (u, sv, vh) = linalg::svd_async(&a, false).await.unwrap();
    let (u, sv, vh) = (
        u.to_vec_async::<f32>().await.unwrap(),
        sv.to_vec_async::<f32>().await.unwrap(),
        vh.to_vec_async::<f32>().await.unwrap(),
    );
    let us: Vec<f32> = (0..n * n).map(|t| u[t] * sv[t % n]).collect();
    let want: Vec<f64> = host.iter().map(|&v| v as f64).collect();
    assert!(
        worst(&mm(&us, &vh, n, n, n), &want) < 1e-4 * sv[0] as f64,
        "svd: A = U·S·Vh"
    );
    assert!(
        worst(&mm(&t(&u, n, n), &u, n, n, n), &eye(n)) < 1e-4,
        "svd: UᵀU = I"
    );
    // A tall matrix (2400 × 120, 1.15 MB): QR blocked, its panels factored in copies.
    let (m, k) = (2400, 120);
    let tall: Vec<f32> = (0..m * k)
        .map(|i| ((i * 7919 + 13) % 1009) as f32 / 1009.0 - 0.5)
        .collect();
    let g = Array::from_slice(&dev, &tall, &[m, k]).unwrap();
    let (q, r) = linalg::qr(&g, QrMode::Reduced).unwrap();
    let q = q.unwrap().to_vec_async::<f32>().await.unwrap();
    let r = r.to_vec_async::<f32>().await.unwrap();
    let want: Vec<f64> = tall.iter().map(|&v| v as f64).collect();
    assert!(worst(&mm(&q, &r, m, k, k), &want) < 1e-4, "qr");
    // A tall, narrow one whose every column is past the binding (300,000 × 2, 1.2 MB a
    // column): TSQR, with LAPACK's signs; R against Householder QR on the host.
    let (m, k) = (300_000, 2);
    let tall: Vec<f32> = (0..m * k)
        .map(|i| ((i as u64 * 7919 + 29) % 1009) as f32 / 1009.0 - 0.5)
        .collect();
    let g = Array::from_slice(&dev, &tall, &[m, k]).unwrap();
    let (q, r) = linalg::qr(&g, QrMode::Reduced).unwrap();
    let q = q.unwrap().to_vec_async::<f32>().await.unwrap();
    let r = r.to_vec_async::<f32>().await.unwrap();
    let want: Vec<f64> = tall.iter().map(|&v| v as f64).collect();
    let scale = (m as f64).sqrt();
    assert!(
        worst(&mm(&q, &r, m, k, k), &want) < 1e-5 * scale,
        "tsqr: A = Q·R"
    );
    assert!(
        worst(&mm(&t(&q, m, k), &q, k, m, k), &eye(k)) < 1e-3,
        "tsqr: QᵀQ = I"
    );
    let host_r = householder_r(&tall, m, k);
    let r64: Vec<f64> = r.iter().map(|&v| v as f64).collect();
    assert!(
        worst(&r64, &host_r) < 1e-5 * scale,
        "tsqr: R {r:?} vs LAPACK's {host_r:?}"
    );
    check_clean(&dev).await;
}

/// R (n × n) of Householder QR of a tall m × n matrix with LAPACK's signs (each β =
/// −sign(α)·‖x‖), on the host in f64.
fn householder_r(a: &[f32], m: usize, n: usize) -> Vec<f64> {
    let mut w: Vec<f64> = a.iter().map(|&v| v as f64).collect();
    for j in 0..n {
        let alpha = w[j * n + j];
        let xnorm = ((j + 1)..m)
            .map(|r| w[r * n + j].powi(2))
            .sum::<f64>()
            .sqrt();
        if xnorm == 0.0 {
            continue;
        }
        let beta = -alpha.hypot(xnorm).copysign(alpha);
        let (tau, scale) = ((beta - alpha) / beta, 1.0 / (alpha - beta));
        for r in j + 1..m {
            w[r * n + j] *= scale;
        }
        w[j * n + j] = beta;
        for c in j + 1..n {
            let s =
                tau * (w[j * n + c] + (j + 1..m).map(|r| w[r * n + j] * w[r * n + c]).sum::<f64>());
            w[j * n + c] -= s;
            for r in j + 1..m {
                w[r * n + c] -= w[r * n + j] * s;
            }
        }
    }
    (0..n * n)
        .map(|t| if t % n >= t / n { w[t] } else { 0.0 })
        .collect()
}
