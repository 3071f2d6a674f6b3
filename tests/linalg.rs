//! `gpuarray::linalg` on the real adapter, against host references in f64 (naive loops and a
//! host Jacobi written here) and the invariants of each factorization: backward errors
//! ‖A·x − b‖/(‖A‖·‖x‖·n·ε), ‖A − Q·R‖, ‖QᵀQ − I‖, ‖A·V − V·Λ‖ bounded by small constants;
//! errors by kind with the failing matrix's batch index.

mod common;

use gpuarray::linalg::{self, NormOrder, QrMode};
use gpuarray::{Array, DType, Device, Error};

/// Deterministic values in [-1, 1).
fn data(n: usize, seed: u64) -> Vec<f64> {
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

fn upload(dev: &Device, v: &[f64], shape: &[usize], dtype: DType) -> Array {
    Array::from_slice(dev, v, shape)
        .unwrap()
        .astype(dtype)
        .unwrap()
}

fn read(a: &Array) -> Vec<f64> {
    a.astype(DType::F64).unwrap().to_vec::<f64>().unwrap()
}

fn eps(dtype: DType) -> f64 {
    if dtype == DType::F32 {
        f32::EPSILON as f64
    } else {
        f64::EPSILON
    }
}

/// Host matmul of row-major (m × k)·(k × n).
fn mm(a: &[f64], b: &[f64], m: usize, k: usize, n: usize) -> Vec<f64> {
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

fn transpose(a: &[f64], m: usize, n: usize) -> Vec<f64> {
    let mut t = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            t[j * m + i] = a[i * n + j];
        }
    }
    t
}

fn max_abs(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |m, x| m.max(x.abs()))
}

fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).fold(0.0, |m, (x, y)| m.max((x - y).abs()))
}

/// ‖QᵀQ − I‖_max of an m × c matrix.
fn orthonormality(q: &[f64], m: usize, c: usize) -> f64 {
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
fn host_eigvals(a: &[f64], n: usize) -> Vec<f64> {
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

/// A well-conditioned n × n matrix: random with a dominant diagonal.
fn well_conditioned(n: usize, seed: u64) -> Vec<f64> {
    let mut a = data(n * n, seed);
    for i in 0..n {
        a[i * n + i] += 2.0 + (n as f64).sqrt();
    }
    a
}

/// Checks the backward error of x solving a·x = b per matrix of a batch.
fn check_backward(a: &[f64], x: &[f64], b: &[f64], n: usize, k: usize, batch: usize, dtype: DType) {
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

#[test]
fn solve_has_a_small_backward_error_at_every_size() {
    let Some(dev) = common::device() else { return };
    for dtype in [DType::F32, DType::F64] {
        for (n, batch) in [
            (1, 1),
            (2, 7),
            (3, 10),
            (8, 7),
            (33, 2),
            (64, 1),
            (65, 1),
            (200, 1),
        ] {
            let mut a = Vec::new();
            for m in 0..batch {
                a.extend(well_conditioned(n, (n * 31 + m) as u64));
            }
            let b = data(batch * n * 3, n as u64);
            let ga = upload(&dev, &a, &[batch, n, n], dtype);
            let gb = upload(&dev, &b, &[batch, n, 3], dtype);
            let x = linalg::solve(&ga, &gb).unwrap();
            assert_eq!((x.shape(), x.dtype()), (&[batch, n, 3][..], dtype));
            check_backward(&a, &read(&x), &b, n, 3, batch, dtype);
        }
    }
}

#[test]
fn solve_takes_numpy_2s_vector_and_broadcast_rules() {
    let Some(dev) = common::device() else { return };
    let n = 5;
    let mut a = Vec::new();
    for m in 0..4 {
        a.extend(well_conditioned(n, 90 + m));
    }
    let ga = upload(&dev, &a, &[4, n, n], DType::F32);
    // A 1-D b is one vector for every matrix: x is (4, n).
    let b = data(n, 7);
    let x = linalg::solve(&ga, &upload(&dev, &b, &[n], DType::F32)).unwrap();
    assert_eq!(x.shape(), &[4, n]);
    let b4: Vec<f64> = (0..4).flat_map(|_| b.clone()).collect();
    check_backward(&a, &read(&x), &b4, n, 1, 4, DType::F32);
    // b (1, n, 2) broadcasts over the batch of a.
    let b2 = data(n * 2, 8);
    let x = linalg::solve(&ga, &upload(&dev, &b2, &[1, n, 2], DType::F32)).unwrap();
    assert_eq!(x.shape(), &[4, n, 2]);
    let b2x4: Vec<f64> = (0..4).flat_map(|_| b2.clone()).collect();
    check_backward(&a, &read(&x), &b2x4, n, 2, 4, DType::F32);
    // A transposed view is read as the matrix it shows.
    let at = ga.swapaxes(-1, -2).unwrap();
    let x = linalg::solve(&at, &upload(&dev, &b, &[n], DType::F32)).unwrap();
    let mut a_t = Vec::new();
    for m in 0..4 {
        a_t.extend(transpose(&a[m * n * n..(m + 1) * n * n], n, n));
    }
    check_backward(&a_t, &read(&x), &b4, n, 1, 4, DType::F32);
    // Integers compute in float64, as NumPy's do.
    let ai = Array::from_slice(&dev, &[2i32, 1, 1, 3], &[2, 2]).unwrap();
    let bi = Array::from_slice(&dev, &[3i32, 5], &[2]).unwrap();
    let x = linalg::solve(&ai, &bi).unwrap();
    assert_eq!(x.dtype(), DType::F64);
    let x = x.to_vec::<f64>().unwrap();
    assert!((x[0] - 0.8).abs() < 1e-14 && (x[1] - 1.4).abs() < 1e-14);
}

#[test]
fn ten_thousand_small_solves_in_one_launch() {
    let Some(dev) = common::device() else { return };
    let (n, batch) = (8, 10_000);
    let mut a = Vec::with_capacity(batch * n * n);
    for m in 0..batch {
        a.extend(well_conditioned(n, m as u64));
    }
    let b = data(batch * n, 3);
    let x = linalg::solve(
        &upload(&dev, &a, &[batch, n, n], DType::F32),
        &upload(&dev, &b, &[batch, n, 1], DType::F32),
    )
    .unwrap();
    check_backward(&a, &read(&x), &b, n, 1, batch, DType::F32);
}

#[test]
fn singular_matrices_are_linalg_errors_naming_the_first() {
    let Some(dev) = common::device() else { return };
    let n = 4;
    let mut a = Vec::new();
    for m in 0..7 {
        let mut x = well_conditioned(n, m);
        if m == 4 || m == 6 {
            // Row 2 = row 0 + row 1.
            for j in 0..n {
                x[2 * n + j] = x[j] + x[n + j];
            }
        }
        a.extend(x);
    }
    let ga = upload(&dev, &a, &[7, n, n], DType::F64);
    let b = Array::ones(&dev, &[n], DType::F64).unwrap();
    for r in [linalg::solve(&ga, &b).err(), linalg::inv(&ga).err()] {
        match r {
            Some(Error::LinAlg { index, msg, .. }) => {
                assert_eq!(index, Some(4));
                assert!(msg.contains("Singular"), "{msg}");
            }
            other => panic!("expected LinAlg, got {other:?}"),
        }
    }
    // An exactly zero matrix in f32 too; arrays made before the error still read back.
    let z = Array::zeros(&dev, &[2, 2], DType::F32).unwrap();
    assert!(matches!(
        linalg::inv(&z),
        Err(Error::LinAlg { index: Some(0), .. })
    ));
    assert_eq!(read(&b), vec![1.0; n]);
    // det of a singular matrix is 0 and slogdet (0, -inf), not errors.
    let d = read(&linalg::det(&ga).unwrap());
    assert!(d[4].abs() < 1e-12 * d[0].abs().max(1.0), "{d:?}");
    let (s, l) = linalg::slogdet(&z).unwrap();
    assert_eq!((read(&s), read(&l)), (vec![0.0], vec![f64::NEG_INFINITY]));
}

#[test]
fn inverses_det_and_slogdet_match_the_host() {
    let Some(dev) = common::device() else { return };
    for dtype in [DType::F32, DType::F64] {
        for n in [1, 2, 3, 17, 64, 130] {
            let a = well_conditioned(n, 5 + n as u64);
            let ga = upload(&dev, &a, &[n, n], dtype);
            let x = read(&linalg::inv(&ga).unwrap());
            let mut eye = vec![0.0; n * n];
            for i in 0..n {
                eye[i * n + i] = 1.0;
            }
            let err = max_diff(&mm(&a, &x, n, n, n), &eye);
            assert!(err < 50.0 * n as f64 * eps(dtype), "{dtype:?} n={n}: {err}");
            // det against the host's LU in f64 (partial pivoting).
            let mut lu = a.clone();
            let mut det = 1.0;
            for j in 0..n {
                let p = (j..n)
                    .max_by(|&x, &y| lu[x * n + j].abs().total_cmp(&lu[y * n + j].abs()))
                    .unwrap();
                if p != j {
                    det = -det;
                    for c in 0..n {
                        lu.swap(j * n + c, p * n + c);
                    }
                }
                det *= lu[j * n + j];
                for r in j + 1..n {
                    let f = lu[r * n + j] / lu[j * n + j];
                    for c in j..n {
                        lu[r * n + c] -= f * lu[j * n + c];
                    }
                }
            }
            let (sign, logabs) = linalg::slogdet(&ga).unwrap();
            assert_eq!(read(&sign), vec![det.signum()]);
            let l = read(&logabs)[0];
            assert!(
                (l - det.abs().ln()).abs()
                    < 20.0 * n as f64 * eps(dtype) * det.abs().ln().abs().max(1.0),
                "{l} vs {}",
                det.abs().ln()
            );
            if n <= 17 {
                let d = read(&linalg::det(&ga).unwrap())[0];
                assert!(
                    (d - det).abs() <= 20.0 * n as f64 * eps(dtype) * det.abs(),
                    "{d} vs {det}"
                );
            }
        }
    }
    // A 0 × 0 matrix has determinant 1, as in NumPy.
    let e = Array::zeros(&dev, &[3, 0, 0], DType::F32).unwrap();
    assert_eq!(read(&linalg::det(&e).unwrap()), vec![1.0; 3]);
}

/// M·Mᵀ + n·I: symmetric positive definite.
fn spd(n: usize, seed: u64) -> Vec<f64> {
    let m = data(n * n, seed);
    let mut a = mm(&m, &transpose(&m, n, n), n, n, n);
    for i in 0..n {
        a[i * n + i] += n as f64;
    }
    a
}

#[test]
fn cholesky_reconstructs_and_reads_one_triangle() {
    let Some(dev) = common::device() else { return };
    for dtype in [DType::F32, DType::F64] {
        for n in [1, 2, 5, 33, 64, 65, 300] {
            let a = spd(n, n as u64);
            let ga = upload(&dev, &a, &[n, n], dtype);
            let l = read(&linalg::cholesky(&ga, false).unwrap());
            for i in 0..n {
                for j in i + 1..n {
                    assert_eq!(l[i * n + j], 0.0, "upper part of L");
                }
            }
            let err = max_diff(&mm(&l, &transpose(&l, n, n), n, n, n), &a);
            assert!(
                err < 4.0 * n as f64 * eps(dtype) * max_abs(&a),
                "{dtype:?} n={n}: {err}"
            );
            // upper: U = Lᵀ (the same matrix, symmetric).
            let u = read(&linalg::cholesky(&ga, true).unwrap());
            assert!(max_diff(&u, &transpose(&l, n, n)) < 4.0 * n as f64 * eps(dtype) * max_abs(&l));
        }
    }
    // Only the lower triangle is read: garbage above it changes nothing.
    let n = 6;
    let a = spd(n, 3);
    let mut junk = a.clone();
    for i in 0..n {
        for j in i + 1..n {
            junk[i * n + j] = 1e6;
        }
    }
    let l1 = read(&linalg::cholesky(&upload(&dev, &a, &[n, n], DType::F64), false).unwrap());
    let l2 = read(&linalg::cholesky(&upload(&dev, &junk, &[n, n], DType::F64), false).unwrap());
    assert_eq!(l1, l2);
}

#[test]
fn cholesky_of_indefinite_or_nan_is_an_error_naming_the_matrix() {
    let Some(dev) = common::device() else { return };
    let n = 4;
    let mut a = Vec::new();
    for m in 0..5u64 {
        let mut x = spd(n, m);
        if m == 3 {
            x[2 * n + 2] = -100.0;
        }
        a.extend(x);
    }
    let ga = upload(&dev, &a, &[5, n, n], DType::F32);
    match linalg::cholesky(&ga, false) {
        Err(Error::LinAlg { index, msg, op }) => {
            assert_eq!((index, op), (Some(3), "cholesky"));
            assert!(msg.contains("positive definite"));
        }
        other => panic!("{other:?}"),
    }
    let nan = Array::from_slice(&dev, &[f32::NAN, 0.0, 0.0, 1.0], &[2, 2]).unwrap();
    assert!(matches!(
        linalg::cholesky(&nan, false),
        Err(Error::LinAlg { .. })
    ));
    // Blocked path: the failure in a later panel is found too.
    let n = 200;
    let mut x = spd(n, 9);
    x[150 * n + 150] = -1e6;
    assert!(matches!(
        linalg::cholesky(&upload(&dev, &x, &[n, n], DType::F32), false),
        Err(Error::LinAlg { index: Some(0), .. })
    ));
}

#[test]
fn qr_in_every_mode_and_shape() {
    let Some(dev) = common::device() else { return };
    for dtype in [DType::F32, DType::F64] {
        for (m, n, batch) in [
            (5, 3, 2),
            (3, 5, 1),
            (4, 4, 3),
            (1, 1, 1),
            (33, 7, 1),
            (70, 70, 1),
        ] {
            let a = data(batch * m * n, (m * n) as u64);
            let ga = upload(&dev, &a, &[batch, m, n], dtype);
            let k = m.min(n);
            for (mode, qc, rr) in [(QrMode::Reduced, k, k), (QrMode::Complete, m, m)] {
                let (q, r) = linalg::qr(&ga, mode).unwrap();
                let q = q.unwrap();
                assert_eq!(
                    (q.shape(), r.shape()),
                    (&[batch, m, qc][..], &[batch, rr, n][..])
                );
                let (q, r) = (read(&q), read(&r));
                for b in 0..batch {
                    let qb = &q[b * m * qc..(b + 1) * m * qc];
                    let rb = &r[b * rr * n..(b + 1) * rr * n];
                    let ab = &a[b * m * n..(b + 1) * m * n];
                    let tol = 8.0 * m.max(n) as f64 * eps(dtype);
                    assert!(orthonormality(qb, m, qc) < tol, "{mode:?} {m}x{n}");
                    assert!(max_diff(&mm(qb, rb, m, qc, n), ab) < tol * max_abs(ab).max(1.0));
                    for i in 0..rr {
                        for j in 0..i.min(n) {
                            assert_eq!(rb[i * n + j], 0.0);
                        }
                    }
                }
            }
            let (none, r) = linalg::qr(&ga, QrMode::R).unwrap();
            assert!(none.is_none());
            assert_eq!(r.shape(), &[batch, k, n]);
        }
    }
    // Empty matrices: Q is the identity's columns, R is empty.
    let e = Array::zeros(&dev, &[3, 0], DType::F32).unwrap();
    let (q, r) = linalg::qr(&e, QrMode::Complete).unwrap();
    assert_eq!(
        (q.unwrap().to_vec::<f32>().unwrap(), r.shape()),
        (
            vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
            &[3usize, 0][..]
        )
    );
}

fn symmetric(n: usize, seed: u64) -> Vec<f64> {
    let m = data(n * n, seed);
    let mut a = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            a[i * n + j] = m[i * n + j] + m[j * n + i];
        }
    }
    a
}

#[test]
fn eigh_matches_the_host_and_its_invariants() {
    let Some(dev) = common::device() else { return };
    for dtype in [DType::F32, DType::F64] {
        for (n, batch) in [(1, 1), (2, 3), (5, 2), (33, 1), (64, 1), (65, 1)] {
            let mut a = Vec::new();
            for m in 0..batch {
                a.extend(symmetric(n, (n + 100 * m) as u64));
            }
            let ga = upload(&dev, &a, &[batch, n, n], dtype);
            let (w, v) = linalg::eigh(&ga, true).unwrap();
            let (w, v) = (read(&w), read(&v));
            for b in 0..batch {
                let ab = &a[b * n * n..(b + 1) * n * n];
                let wb = &w[b * n..(b + 1) * n];
                let vb = &v[b * n * n..(b + 1) * n * n];
                let scale = max_abs(ab) * n as f64;
                let tol = 8.0 * n as f64 * eps(dtype);
                let host = host_eigvals(ab, n);
                assert!(
                    max_diff(wb, &host) < tol * scale,
                    "{dtype:?} n={n}: {wb:?} vs {host:?}"
                );
                assert!(wb.windows(2).all(|p| p[0] <= p[1]), "ascending");
                assert!(orthonormality(vb, n, n) < tol);
                // A·V = V·Λ
                let av = mm(ab, vb, n, n, n);
                let mut vl = vb.to_vec();
                for i in 0..n {
                    for j in 0..n {
                        vl[i * n + j] *= wb[j];
                    }
                }
                assert!(max_diff(&av, &vl) < tol * scale);
            }
            let only = read(&linalg::eigvalsh(&ga, true).unwrap());
            assert_eq!(only, w);
        }
    }
    // UPLO: 'U' reads the upper triangle.
    let a = upload(&dev, &[2.0, 100.0, 1.0, 2.0], &[2, 2], DType::F64);
    let lower = read(&linalg::eigvalsh(&a, true).unwrap());
    let upper = read(&linalg::eigvalsh(&a, false).unwrap());
    assert!(
        (lower[0] - 1.0).abs() < 1e-14 && (lower[1] - 3.0).abs() < 1e-14,
        "{lower:?}"
    );
    assert!(
        (upper[0] + 98.0).abs() < 1e-12 && (upper[1] - 102.0).abs() < 1e-12,
        "{upper:?}"
    );
}

#[test]
fn svd_reconstructs_with_orthonormal_factors_even_when_rank_deficient() {
    let Some(dev) = common::device() else { return };
    for dtype in [DType::F32, DType::F64] {
        for (m, n) in [(5, 3), (3, 5), (4, 4), (6, 1), (1, 6), (33, 10), (65, 65)] {
            let mut a = data(m * n, (7 * m + n) as u64);
            if m >= 3 && n >= 3 {
                // Rank deficient: column 2 = column 0 − column 1.
                for i in 0..m {
                    a[i * n + 2] = a[i * n] - a[i * n + 1];
                }
            }
            let ga = upload(&dev, &a, &[m, n], dtype);
            let k = m.min(n);
            let host: Vec<f64> = {
                let ata = mm(&transpose(&a, m, n), &a, n, m, n);
                let mut s: Vec<f64> = host_eigvals(&ata, n)
                    .into_iter()
                    .map(|x| x.max(0.0).sqrt())
                    .collect();
                s.reverse();
                s.truncate(k);
                s
            };
            for full in [true, false] {
                let (u, s, vh) = linalg::svd(&ga, full).unwrap();
                let (uc, vr) = if full { (m, n) } else { (k, k) };
                assert_eq!(
                    (u.shape(), s.shape(), vh.shape()),
                    (&[m, uc][..], &[k][..], &[vr, n][..])
                );
                let (u, s, vh) = (read(&u), read(&s), read(&vh));
                let tol = 10.0 * m.max(n) as f64 * eps(dtype);
                let norm = max_abs(&a) * (m * n) as f64;
                assert!(
                    max_diff(&s, &host)
                        < tol * norm.max(1.0) + 1e-6 * norm * (dtype == DType::F64) as u8 as f64,
                    "{m}x{n}: {s:?} vs {host:?}"
                );
                assert!(s.windows(2).all(|p| p[0] >= p[1]));
                assert!(orthonormality(&u, m, uc) < tol, "U of {m}x{n} full={full}");
                assert!(
                    orthonormality(&transpose(&vh, vr, n), n, vr) < tol,
                    "V of {m}x{n}"
                );
                // A = U[:, :k]·diag(S)·Vh[:k]
                let mut us = vec![0.0; m * k];
                for i in 0..m {
                    for j in 0..k {
                        us[i * k + j] = u[i * uc + j] * s[j];
                    }
                }
                let back = mm(&us, &vh[..k * n], m, k, n);
                assert!(max_diff(&back, &a) < tol * norm.max(1.0), "{m}x{n}");
            }
            let vals = read(&linalg::svdvals(&ga).unwrap());
            assert!(
                max_diff(&vals, &host)
                    < 10.0 * m.max(n) as f64 * eps(dtype) * (max_abs(&a) * (m * n) as f64).max(1.0)
                        + 1e-6
            );
        }
    }
    // The zero matrix: S = 0 and U, V still orthonormal.
    let z = Array::zeros(&dev, &[4, 3], DType::F32).unwrap();
    let (u, s, _) = linalg::svd(&z, true).unwrap();
    assert_eq!(read(&s), vec![0.0; 3]);
    assert!(orthonormality(&read(&u), 4, 4) < 1e-6);
}

#[test]
fn norms_of_every_order_match_the_host() {
    let Some(dev) = common::device() else { return };
    let (m, n) = (4, 3);
    let a = data(m * n, 11);
    let ga = upload(&dev, &a, &[m, n], DType::F64);
    let col_sums: Vec<f64> = (0..n)
        .map(|j| (0..m).map(|i| a[i * n + j].abs()).sum())
        .collect();
    let row_sums: Vec<f64> = (0..m)
        .map(|i| (0..n).map(|j| a[i * n + j].abs()).sum())
        .collect();
    let fro = a.iter().map(|x| x * x).sum::<f64>().sqrt();
    let s: Vec<f64> = {
        let mut w: Vec<f64> = host_eigvals(&mm(&transpose(&a, m, n), &a, n, m, n), n)
            .into_iter()
            .map(|x| x.sqrt())
            .collect();
        w.reverse();
        w
    };
    let max = |v: &[f64]| v.iter().cloned().fold(f64::MIN, f64::max);
    let min = |v: &[f64]| v.iter().cloned().fold(f64::MAX, f64::min);
    let cases = [
        (NormOrder::Default, fro),
        (NormOrder::Fro, fro),
        (NormOrder::P(1.0), max(&col_sums)),
        (NormOrder::P(-1.0), min(&col_sums)),
        (NormOrder::Inf, max(&row_sums)),
        (NormOrder::NegInf, min(&row_sums)),
        (NormOrder::P(2.0), s[0]),
        (NormOrder::P(-2.0), s[n - 1]),
        (NormOrder::Nuc, s.iter().sum()),
    ];
    for (ord, want) in cases {
        let got = read(&linalg::norm(&ga, ord, None, false).unwrap())[0];
        assert!(
            (got - want).abs() < 1e-12 * want,
            "{ord:?}: {got} vs {want}"
        );
    }
    // Vector orders along an axis, keepdims.
    let v = read(&linalg::norm(&ga, NormOrder::P(3.0), Some(&[0]), true).unwrap());
    for j in 0..n {
        let want = (0..m)
            .map(|i| a[i * n + j].abs().powi(3))
            .sum::<f64>()
            .cbrt();
        assert!((v[j] - want).abs() < 1e-12);
    }
    let zeros = Array::from_slice(&dev, &[0.0f32, 2.0, 0.0, -1.0], &[4]).unwrap();
    assert_eq!(
        read(&linalg::vector_norm(&zeros, NormOrder::P(0.0), None, false).unwrap()),
        vec![2.0]
    );
    assert!(matches!(
        linalg::norm(&zeros, NormOrder::Fro, None, false),
        Err(Error::InvalidArgument { .. })
    ));
    assert!(matches!(
        linalg::norm(&ga, NormOrder::P(3.0), None, false),
        Err(Error::InvalidArgument { .. })
    ));
    // cond: σmax/σmin, and the 1-norm form.
    let c = read(&linalg::cond(&ga, NormOrder::Default).unwrap())[0];
    assert!((c - s[0] / s[n - 1]).abs() < 1e-10 * c);
    let sq = upload(&dev, &[4.0, 1.0, 2.0, 3.0], &[2, 2], DType::F64);
    let c1 = read(&linalg::cond(&sq, NormOrder::P(1.0)).unwrap())[0];
    assert!((c1 - 6.0 * 0.5).abs() < 1e-12, "{c1}"); // ‖A‖₁ = 6, ‖A⁻¹‖₁ = 0.5
    let singular = upload(&dev, &[1.0, 2.0, 2.0, 4.0], &[2, 2], DType::F64);
    assert_eq!(
        read(&linalg::cond(&singular, NormOrder::P(1.0)).unwrap()),
        vec![f64::INFINITY]
    );
}

#[test]
fn rank_pinv_and_lstsq() {
    let Some(dev) = common::device() else { return };
    let (m, n) = (6, 4);
    let mut a = data(m * n, 21);
    for i in 0..m {
        a[i * n + 3] = 2.0 * a[i * n] + a[i * n + 1];
    }
    let ga = upload(&dev, &a, &[m, n], DType::F64);
    assert_eq!(
        linalg::matrix_rank(&ga, None, None)
            .unwrap()
            .to_vec::<i64>()
            .unwrap(),
        vec![3]
    );
    // Moore–Penrose: A·P·A = A and P·A·P = P.
    let p = read(&linalg::pinv(&ga, 1e-10).unwrap());
    let apa = mm(&mm(&a, &p, m, n, m), &a, m, m, n);
    assert!(max_diff(&apa, &a) < 1e-12);
    let pap = mm(&mm(&p, &a, n, m, n), &p, n, n, m);
    assert!(max_diff(&pap, &p) < 1e-12);
    // lstsq of a full-rank tall system against the normal equations solved on the host.
    let b = data(m, 5);
    let full = data(m * 3, 17);
    let fit = linalg::lstsq(
        &upload(&dev, &full, &[m, 3], DType::F64),
        &upload(&dev, &b, &[m], DType::F64),
        None,
    )
    .unwrap();
    assert_eq!(fit.rank, 3);
    let x = read(&fit.x);
    // Normal equations AᵀA x = Aᵀb, by Gaussian elimination on the host.
    let ata = mm(&transpose(&full, m, 3), &full, 3, m, 3);
    let atb = mm(&transpose(&full, m, 3), &b, 3, m, 1);
    let mut aug: Vec<Vec<f64>> = (0..3)
        .map(|i| (0..3).map(|j| ata[i * 3 + j]).chain([atb[i]]).collect())
        .collect();
    for j in 0..3 {
        for r in j + 1..3 {
            let f = aug[r][j] / aug[j][j];
            for c in j..4 {
                aug[r][c] -= f * aug[j][c];
            }
        }
    }
    let mut want = [0.0; 3];
    for j in (0..3).rev() {
        want[j] = (aug[j][3] - (j + 1..3).map(|c| aug[j][c] * want[c]).sum::<f64>()) / aug[j][j];
    }
    assert!(max_diff(&x, &want) < 1e-10, "{x:?} vs {want:?}");
    let resid: f64 = (0..m)
        .map(|i| (b[i] - (0..3).map(|j| full[i * 3 + j] * want[j]).sum::<f64>()).powi(2))
        .sum();
    assert!((read(&fit.residuals)[0] - resid).abs() < 1e-10);
    // Rank deficient: no residuals, as NumPy.
    let fit = linalg::lstsq(&ga, &upload(&dev, &b, &[m], DType::F64), None).unwrap();
    assert_eq!((fit.rank, fit.residuals.shape()), (3, &[0usize][..]));
}

#[test]
fn powers_chains_cross_and_tensor_forms() {
    let Some(dev) = common::device() else { return };
    let a = Array::from_slice(&dev, &[2i64, 1, 0, 3], &[2, 2]).unwrap();
    // Host powers (exact in integers).
    let mut want = [1i64, 0, 0, 1];
    for k in 0..=7 {
        assert_eq!(
            linalg::matrix_power(&a, k)
                .unwrap()
                .to_vec::<i64>()
                .unwrap(),
            want.to_vec(),
            "k={k}"
        );
        want = [
            want[0] * 2,
            want[0] + want[1] * 3,
            want[2] * 2,
            want[2] + want[3] * 3,
        ];
    }
    let f = upload(&dev, &[2.0, 1.0, 0.0, 4.0], &[2, 2], DType::F64);
    let inv2 = read(&linalg::matrix_power(&f, -2).unwrap());
    let host_inv = [0.5, -0.125, 0.0, 0.25];
    let want = mm(&host_inv, &host_inv, 2, 2, 2);
    assert!(max_diff(&inv2, &want) < 1e-15);
    // multi_dot: vector ends, and the result of any order.
    let x = data(3 * 4, 1);
    let y = data(4 * 5, 2);
    let v = data(5, 3);
    let r = linalg::multi_dot(&[
        &upload(&dev, &x, &[3, 4], DType::F64),
        &upload(&dev, &y, &[4, 5], DType::F64),
        &upload(&dev, &v, &[5], DType::F64),
    ])
    .unwrap();
    assert_eq!(r.shape(), &[3]);
    assert!(max_diff(&read(&r), &mm(&mm(&x, &y, 3, 4, 5), &v, 3, 5, 1)) < 1e-14);
    // cross: 3-vectors and 2-vectors, broadcast.
    let p = upload(&dev, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3], DType::F64);
    let q = upload(&dev, &[7.0, 8.0, 9.0], &[3], DType::F64);
    assert_eq!(
        read(&linalg::cross(&p, &q, -1).unwrap()),
        vec![-6.0, 12.0, -6.0, -3.0, 6.0, -3.0]
    );
    let p2 = upload(&dev, &[1.0, 2.0], &[2], DType::F64);
    let q2 = upload(&dev, &[3.0, 4.0], &[2], DType::F64);
    assert_eq!(read(&linalg::cross(&p2, &q2, -1).unwrap()), vec![-2.0]);
    assert!(linalg::cross(&p2, &upload(&dev, &[1.0; 4], &[4], DType::F64), -1).is_err());
    // tensorsolve / tensorinv against solve / inv on the reshaped operator.
    let t = well_conditioned(6, 4);
    let gt = upload(&dev, &t, &[6, 2, 3], DType::F64);
    let b = data(6, 9);
    let x = linalg::tensorsolve(&gt, &upload(&dev, &b, &[6], DType::F64)).unwrap();
    assert_eq!(x.shape(), &[2, 3]);
    check_backward(&t, &read(&x), &b, 6, 1, 1, DType::F64);
    let ti = linalg::tensorinv(&gt, 1).unwrap();
    assert_eq!(ti.shape(), &[2, 3, 6]);
    let mut eye = vec![0.0; 36];
    for i in 0..6 {
        eye[i * 7] = 1.0;
    }
    assert!(max_diff(&mm(&t, &read(&ti), 6, 6, 6), &eye) < 1e-13);
}

#[test]
fn bad_operands_are_errors_like_numpys() {
    let Some(dev) = common::device() else { return };
    let v = Array::ones(&dev, &[3], DType::F32).unwrap();
    let rect = Array::ones(&dev, &[2, 3], DType::F32).unwrap();
    assert!(matches!(
        linalg::inv(&v),
        Err(Error::LinAlg { index: None, .. })
    ));
    assert!(matches!(
        linalg::solve(&rect, &v),
        Err(Error::LinAlg { index: None, .. })
    ));
    assert!(matches!(
        linalg::cholesky(&rect, false),
        Err(Error::LinAlg { .. })
    ));
    assert!(matches!(linalg::det(&rect), Err(Error::LinAlg { .. })));
    let sq = Array::ones(&dev, &[3, 3], DType::F32).unwrap();
    let wrong = Array::ones(&dev, &[4], DType::F32).unwrap();
    assert!(matches!(
        linalg::solve(&sq, &wrong),
        Err(Error::Shape { .. })
    ));
    let h = Array::ones(&dev, &[2, 2], DType::F16).unwrap();
    match linalg::inv(&h) {
        Err(Error::Unsupported { feature, .. }) => assert!(feature.contains("float16")),
        other => panic!("{other:?}"),
    }
    let msg = linalg::inv(&v).unwrap_err().to_string();
    assert!(
        msg.contains("inv") && msg.contains("two-dimensional"),
        "{msg}"
    );
}

#[test]
fn hilbert_systems_show_the_expected_accuracy() {
    let Some(dev) = common::device() else { return };
    // Hilbert matrices are the classic ill-conditioned test: the backward error stays small
    // however large κ grows (forward error ~ κ·ε).
    for n in [4, 8, 12] {
        let a: Vec<f64> = (0..n * n)
            .map(|t| 1.0 / ((t / n + t % n + 1) as f64))
            .collect();
        let b: Vec<f64> = (0..n).map(|i| (0..n).map(|j| a[i * n + j]).sum()).collect(); // x = 1
        for dtype in [DType::F32, DType::F64] {
            let x = read(
                &linalg::solve(
                    &upload(&dev, &a, &[n, n], dtype),
                    &upload(&dev, &b, &[n], dtype),
                )
                .unwrap(),
            );
            check_backward(&a, &x, &b, n, 1, 1, dtype);
        }
    }
}

#[test]
fn large_matrices_split_their_launches_within_the_loop_limit() {
    // lavapipe leaves every loop of an invocation once they have run 65535 iterations together:
    // these sizes need several launches per factorization (substitution steps, QR reflectors,
    // Jacobi rounds), and a missed split would show as a wrong answer here.
    let Some(dev) = common::device() else { return };
    let n = 300;
    let a = well_conditioned(n, 77);
    let ga = upload(&dev, &a, &[n, n], DType::F32);
    let x = read(&linalg::inv(&ga).unwrap());
    let mut eye = vec![0.0; n * n];
    for i in 0..n {
        eye[i * n + i] = 1.0;
    }
    assert!(max_diff(&mm(&a, &x, n, n, n), &eye) < 1e-4);
    let (q, r) = linalg::qr(&ga, QrMode::Reduced).unwrap();
    let (q, r) = (read(&q.unwrap()), read(&r));
    assert!(orthonormality(&q, n, n) < 1e-4);
    assert!(max_diff(&mm(&q, &r, n, n, n), &a) < 1e-4 * max_abs(&a));
    let (m, k) = (200, 150);
    let t = data(m * k, 5);
    let (u, s, vh) = linalg::svd(&upload(&dev, &t, &[m, k], DType::F32), false).unwrap();
    let (u, s, vh) = (read(&u), read(&s), read(&vh));
    assert!(orthonormality(&u, m, k) < 1e-4);
    let mut us = u.clone();
    for i in 0..m {
        for j in 0..k {
            us[i * k + j] *= s[j];
        }
    }
    assert!(max_diff(&mm(&us, &vh, m, k, k), &t) < 1e-4);
}
