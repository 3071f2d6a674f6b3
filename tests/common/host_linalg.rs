#![allow(dead_code)]
//! Host references for the linalg tests, in f64: naive products, a host cyclic Jacobi for
//! eigenvalues, the test matrices and the backward-error check.

use gpuarray::{Array, DType, Device};

/// Deterministic values in [-1, 1).
pub fn data(n: usize, seed: u64) -> Vec<f64> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        })
        .collect()
}

pub fn upload(dev: &Device, v: &[f64], shape: &[usize], dtype: DType) -> Array {
    Array::from_slice(dev, v, shape)
        .unwrap()
        .astype(dtype)
        .unwrap()
}

pub fn read(a: &Array) -> Vec<f64> {
    a.astype(DType::F64).unwrap().to_vec::<f64>().unwrap()
}

pub fn eps(dtype: DType) -> f64 {
    if dtype == DType::F32 {
        f32::EPSILON as f64
    } else {
        f64::EPSILON
    }
}

/// Host matmul of row-major (m × k)·(k × n).
pub fn mm(a: &[f64], b: &[f64], m: usize, k: usize, n: usize) -> Vec<f64> {
    let mut c = vec![0.0; m * n];
    for i in 0..m {
        for p in 0..k {
            for j in 0..n {
                c[i * n + j] += a[i * k + p] * b[p * n + j];
            }
        }
    }
    c
}

pub fn transpose(a: &[f64], m: usize, n: usize) -> Vec<f64> {
    let mut t = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            t[j * m + i] = a[i * n + j];
        }
    }
    t
}

pub fn max_abs(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |m, x| m.max(x.abs()))
}

pub fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).fold(0.0, |m, (x, y)| m.max((x - y).abs()))
}

/// ‖QᵀQ − I‖_max of an m × c matrix.
pub fn orthonormality(q: &[f64], m: usize, c: usize) -> f64 {
    let g = mm(&transpose(q, m, c), q, c, m, c);
    let mut worst: f64 = 0.0;
    for i in 0..c {
        for j in 0..c {
            worst = worst.max((g[i * c + j] - if i == j { 1.0 } else { 0.0 }).abs());
        }
    }
    worst
}

/// Eigenvalues of a symmetric n × n matrix by cyclic Jacobi in f64 (ascending): the host
/// reference.
pub fn host_eigvals(a: &[f64], n: usize) -> Vec<f64> {
    let mut a = a.to_vec();
    for _ in 0..100 {
        let mut off = 0.0;
        for p in 0..n {
            for q in p + 1..n {
                off += a[p * n + q] * a[p * n + q];
            }
        }
        if off < 1e-300 {
            break;
        }
        for p in 0..n {
            for q in p + 1..n {
                let apq = a[p * n + q];
                if apq == 0.0 {
                    continue;
                }
                let theta = (a[q * n + q] - a[p * n + p]) / (2.0 * apq);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for k in 0..n {
                    let (x, y) = (a[k * n + p], a[k * n + q]);
                    a[k * n + p] = c * x - s * y;
                    a[k * n + q] = s * x + c * y;
                }
                for k in 0..n {
                    let (x, y) = (a[p * n + k], a[q * n + k]);
                    a[p * n + k] = c * x - s * y;
                    a[q * n + k] = s * x + c * y;
                }
            }
        }
    }
    let mut w: Vec<f64> = (0..n).map(|i| a[i * n + i]).collect();
    w.sort_by(|x, y| x.partial_cmp(y).unwrap());
    w
}

/// Host singular values of an m × n matrix (descending, min(m, n) of them): square roots of
/// AᵀA's (or AAᵀ's) eigenvalues, by the host Jacobi.
pub fn host_singular_values(a: &[f64], m: usize, n: usize) -> Vec<f64> {
    let (g, k) = if m >= n {
        (mm(&transpose(a, m, n), a, n, m, n), n)
    } else {
        (mm(a, &transpose(a, m, n), m, n, m), m)
    };
    let mut s: Vec<f64> = host_eigvals(&g, k)
        .into_iter()
        .map(|x| x.max(0.0).sqrt())
        .collect();
    s.reverse();
    s
}

/// A well-conditioned n × n matrix: random with a dominant diagonal.
pub fn well_conditioned(n: usize, seed: u64) -> Vec<f64> {
    let mut a = data(n * n, seed);
    for i in 0..n {
        a[i * n + i] += 2.0 + (n as f64).sqrt();
    }
    a
}

/// Checks the backward error of x solving a·x = b per matrix of a batch.
pub fn check_backward(
    a: &[f64],
    x: &[f64],
    b: &[f64],
    n: usize,
    k: usize,
    batch: usize,
    dtype: DType,
) {
    for m in 0..batch {
        let am = &a[m * n * n..(m + 1) * n * n];
        let xm = &x[m * n * k..(m + 1) * n * k];
        let bm = &b[m * n * k..(m + 1) * n * k];
        let r = max_diff(&mm(am, xm, n, n, k), bm);
        let scale = max_abs(am) * max_abs(xm) * n as f64 * eps(dtype);
        assert!(
            r <= 8.0 * scale + 1e-300,
            "matrix {m}: residual {r} vs {scale}"
        );
    }
}

/// M·Mᵀ + n·I: symmetric positive definite.
pub fn spd(n: usize, seed: u64) -> Vec<f64> {
    let m = data(n * n, seed);
    let mut a = mm(&m, &transpose(&m, n, n), n, n, n);
    for i in 0..n {
        a[i * n + i] += n as f64;
    }
    a
}

pub fn symmetric(n: usize, seed: u64) -> Vec<f64> {
    let m = data(n * n, seed);
    let mut a = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            a[i * n + j] = m[i * n + j] + m[j * n + i];
        }
    }
    a
}

/// Whether `dev` has native float64, which linalg needs for float64 (it refuses the software
/// binary64 of GL, WebGPU and Metal); prints why `what` is skipped when it has not.
pub fn native_f64(dev: &Device, what: &str) -> bool {
    let native = dev.supports(DType::F64) && !dev.f64_emulated();
    if !native {
        eprintln!(
            "skipped: {what} (float64 linalg needs native f64; this adapter's is {})",
            dev.info().f64
        );
    }
    native
}

/// The float dtypes linalg takes on `dev`: float32, and float64 where it is native.
pub fn linalg_dtypes(dev: &Device) -> Vec<DType> {
    let mut d = vec![DType::F32];
    if native_f64(dev, "the float64 cases") {
        d.push(DType::F64);
    }
    d
}
