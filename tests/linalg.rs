//! `gpuarray::linalg` on the real adapter, against host references in f64 (naive loops and a
//! host Jacobi written here) and the invariants of each factorization: backward errors
//! ‖A·x − b‖/(‖A‖·‖x‖·n·ε), ‖A − Q·R‖, ‖QᵀQ − I‖, ‖A·V − V·Λ‖ bounded by small constants;
//! errors by kind with the failing matrix's batch index.

mod common;

// The derived functions, the forced GPU paths, the large-matrix paths of eigh and svd and the
// tiering of small solves, in this binary (one link).
#[path = "linalg/derived.rs"]
mod derived;
#[path = "linalg/gpu_paths.rs"]
mod gpu_paths;
#[path = "linalg/large.rs"]
mod large;
#[path = "linalg/tiering.rs"]
mod tiering;

use common::host_linalg::*;

use gpuarray::linalg::{self, QrMode};
use gpuarray::{Array, DType, Error};

#[test]
fn solve_has_a_small_backward_error_at_every_size() {
    let Some(dev) = common::device() else { return };
    for dtype in linalg_dtypes(&dev) {
        for (n, batch) in [
            (1, 1),
            (2, 7),
            (3, 10),
            (8, 7),
            (33, 2),
            (64, 1),
            (65, 1),
            // Blocked (panels of 32): rows of whole vec4s take the fused trailing update, 203
            // the product-then-subtract one; batches of two step their panels together.
            (200, 1),
            (203, 2),
            (260, 2),
        ] {
            let mut a = Vec::new();
            for m in 0..batch {
                // Past 200 rows plain random matrices, which pivot at nearly every step (the
                // blocked path's row swaps must reach the whole row).
                let seed = (n * 31 + m) as u64;
                a.extend(if n > 200 {
                    data(n * n, seed)
                } else {
                    well_conditioned(n, seed)
                });
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
    if !native_f64(&dev, "integer solve (computed in float64)") {
        return;
    }
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
    // An exactly zero matrix in f32 (on every adapter).
    let z = Array::zeros(&dev, &[2, 2], DType::F32).unwrap();
    assert!(matches!(
        linalg::inv(&z),
        Err(Error::LinAlg { index: Some(0), .. })
    ));
    let (s, l) = linalg::slogdet(&z).unwrap();
    assert_eq!((read(&s), read(&l)), (vec![0.0], vec![f64::NEG_INFINITY]));
    if !native_f64(&dev, "float64 singular matrices") {
        return;
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
    // Arrays made before the error still read back.
    assert_eq!(read(&b), vec![1.0; n]);
    // det of a singular matrix is 0 and slogdet (0, -inf), not errors.
    let d = read(&linalg::det(&ga).unwrap());
    assert!(d[4].abs() < 1e-12 * d[0].abs().max(1.0), "{d:?}");
}

#[test]
fn inverses_det_and_slogdet_match_the_host() {
    let Some(dev) = common::device() else { return };
    for dtype in linalg_dtypes(&dev) {
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

#[test]
fn cholesky_reconstructs_and_reads_one_triangle() {
    let Some(dev) = common::device() else { return };
    for dtype in linalg_dtypes(&dev) {
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
    if !native_f64(&dev, "the float64 triangle check") {
        return;
    }
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
    for dtype in linalg_dtypes(&dev) {
        for (m, n, batch) in [
            (5, 3, 2),
            (3, 5, 1),
            (4, 4, 3),
            (1, 1, 1),
            (33, 7, 1),
            (70, 70, 1),
            // Blocked (compact WY): tall with a partial last panel, a batch; wide.
            (300, 140, 2),
            (140, 290, 1),
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

#[test]
fn eigh_matches_the_host_and_its_invariants() {
    let Some(dev) = common::device() else { return };
    for dtype in linalg_dtypes(&dev) {
        // Past 128 rows: tridiagonalisation and QL (a batch, an odd size).
        for (n, batch) in [
            (1, 1),
            (2, 3),
            (5, 2),
            (33, 1),
            (64, 1),
            (65, 1),
            (150, 2),
            (201, 1),
        ] {
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
    if !native_f64(&dev, "the float64 UPLO check") {
        return;
    }
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
    for dtype in linalg_dtypes(&dev) {
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
            let host = host_singular_values(&a, m, n);
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
    // Emulated float64 is refused by name (these kernels have no software path); float32 on
    // the same device works.
    if let Some(soft) = common::device_with_f64(gpuarray::F64Mode::Emulated) {
        let a = Array::from_slice(&soft, &[2.0f64, 1.0, 1.0, 3.0], &[2, 2]).unwrap();
        match linalg::inv(&a) {
            Err(Error::Unsupported { feature, .. }) => {
                assert!(feature.contains("SHADER_F64"), "{feature}")
            }
            other => panic!("{other:?}"),
        }
        let a32 = a.astype(DType::F32).unwrap();
        let x = linalg::inv(&a32).unwrap().to_vec::<f32>().unwrap();
        assert!(
            (x[0] - 0.6).abs() < 1e-6 && (x[1] + 0.2).abs() < 1e-6,
            "{x:?}"
        );
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
        for dtype in linalg_dtypes(&dev) {
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
    // A tall matrix below the pairs path (64 columns): one workgroup per matrix, its sweeps in
    // runs of rounds.
    let (m, k) = (1500, 64);
    let t = data(m * k, 6);
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

#[test]
fn batches_of_small_matrices_take_one_invocation_each_with_the_same_answers_and_errors() {
    // Batches of 32 or more small matrices run one invocation per matrix (no barriers): the
    // same checks as the workgroup kernels, and errors still name the first failing matrix.
    let Some(dev) = common::device() else { return };
    for dtype in linalg_dtypes(&dev) {
        for (n, batch) in [(1, 40), (5, 100), (33, 40)] {
            let mut a = Vec::new();
            for m in 0..batch {
                a.extend(well_conditioned(n, (7 * n + m) as u64));
            }
            let b = data(batch * n * 2, 3);
            let ga = upload(&dev, &a, &[batch, n, n], dtype);
            let x = linalg::solve(&ga, &upload(&dev, &b, &[batch, n, 2], dtype)).unwrap();
            check_backward(&a, &read(&x), &b, n, 2, batch, dtype);
            let mut s = Vec::new();
            for m in 0..batch {
                s.extend(spd(n, m as u64));
            }
            let l =
                read(&linalg::cholesky(&upload(&dev, &s, &[batch, n, n], dtype), false).unwrap());
            for m in 0..batch {
                let lm = &l[m * n * n..(m + 1) * n * n];
                let sm = &s[m * n * n..(m + 1) * n * n];
                let err = max_diff(&mm(lm, &transpose(lm, n, n), n, n, n), sm);
                assert!(
                    err < 4.0 * n as f64 * eps(dtype) * max_abs(sm),
                    "{dtype:?} n={n} m={m}"
                );
            }
        }
    }
    let (n, batch) = (6, 64);
    let mut a = Vec::new();
    let mut s = Vec::new();
    for m in 0..batch {
        let mut x = well_conditioned(n, m as u64);
        if m == 50 || m == 60 {
            for j in 0..n {
                x[3 * n + j] = x[j];
            }
        }
        a.extend(x);
        let mut p = spd(n, m as u64);
        if m == 37 {
            p[4 * n + 4] = -1.0;
        }
        s.extend(p);
    }
    match linalg::inv(&upload(&dev, &a, &[batch, n, n], DType::F32)) {
        Err(Error::LinAlg { index, .. }) => assert_eq!(index, Some(50)),
        other => panic!("{other:?}"),
    }
    match linalg::cholesky(&upload(&dev, &s, &[batch, n, n], DType::F32), true) {
        Err(Error::LinAlg { index, .. }) => assert_eq!(index, Some(37)),
        other => panic!("{other:?}"),
    }
}

/// x with a·x = b for one n × n system, by Gaussian elimination with partial pivoting in f64 on
/// the host.
fn host_solve(a: &[f64], b: &[f64], n: usize) -> Vec<f64> {
    let mut m: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            a[i * n..(i + 1) * n]
                .iter()
                .copied()
                .chain([b[i]])
                .collect()
        })
        .collect();
    for j in 0..n {
        let p = (j..n)
            .max_by(|&x, &y| m[x][j].abs().total_cmp(&m[y][j].abs()))
            .unwrap();
        m.swap(j, p);
        for r in j + 1..n {
            let f = m[r][j] / m[j][j];
            let pivot_row = m[j].clone();
            for (x, q) in m[r][j..].iter_mut().zip(&pivot_row[j..]) {
                *x -= f * q;
            }
        }
    }
    let mut x = vec![0.0; n];
    for j in (0..n).rev() {
        x[j] = (m[j][n] - (j + 1..n).map(|c| m[j][c] * x[c]).sum::<f64>()) / m[j][j];
    }
    x
}

#[test]
fn iterative_refinement_recovers_float32_accuracy_on_ill_conditioned_systems() {
    // Ill-conditioned f32 systems: Hilbert matrices (κ ≈ 5e5, 1.5e7 for n = 5, 6) and a graded
    // 150 × 150 matrix (the blocked path, its factors reused). The exact solution of the f32
    // data (solved in f64 on the host) is the reference: refinement (residuals in f64) brings
    // the forward error from ~κ·ε₃₂ down to float32's own precision.
    let Some(dev) = common::device() else { return };
    let check = |a: Vec<f64>, n: usize, blocked: bool| {
        let a32: Vec<f64> = a.iter().map(|&v| v as f32 as f64).collect();
        let b32: Vec<f64> = (0..n)
            .map(|i| (0..n).map(|j| a32[i * n + j]).sum::<f64>() as f32 as f64)
            .collect();
        let exact = host_solve(&a32, &b32, n);
        let scale = max_abs(&exact);
        let forward = |x: Vec<f64>| max_diff(&x, &exact) / scale;
        let ga = upload(&dev, &a32, &[n, n], DType::F32);
        let gb = upload(&dev, &b32, &[n], DType::F32);
        let plain = forward(read(&linalg::solve_refined(&ga, &gb, 0).unwrap()));
        let refined = forward(read(&linalg::solve_refined(&ga, &gb, 4).unwrap()));
        assert!(refined < plain / 10.0, "n={n}: {refined} vs {plain}");
        assert!(refined < 1e-5, "n={n}: {refined} vs {plain}");
        if blocked {
            // solve's default: one step past 128 rows.
            let default = forward(read(&linalg::solve(&ga, &gb).unwrap()));
            assert!(default < plain / 4.0, "{default} vs {plain}");
        }
    };
    for n in [5, 6] {
        check(
            (0..n * n)
                .map(|t| 1.0 / ((t / n + t % n + 1) as f64))
                .collect(),
            n,
            false,
        );
    }
    let n = 150;
    // Well conditioned, then its columns graded over five decades: κ ~ 1e5.
    let mut a = well_conditioned(n, 4);
    for i in 0..n {
        for j in 0..n {
            a[i * n + j] *= 10f64.powf(-5.0 * j as f64 / n as f64);
        }
    }
    check(a, n, true);
}

#[test]
fn empty_stacks_and_nan_follow_numpy() {
    let Some(dev) = common::device() else { return };
    // Zero-size matrices and empty batches give empty results of NumPy's shapes.
    let none = Array::zeros(&dev, &[0, 3, 3], DType::F32).unwrap();
    assert_eq!(linalg::inv(&none).unwrap().shape(), &[0, 3, 3]);
    assert_eq!(linalg::det(&none).unwrap().shape(), &[0]);
    let b = Array::zeros(&dev, &[0, 3], DType::F32).unwrap();
    assert_eq!(
        linalg::solve(&none, &b.reshape(&[0, 3, 1]).unwrap())
            .unwrap()
            .shape(),
        &[0, 3, 1]
    );
    let e = Array::zeros(&dev, &[2, 0, 0], DType::F32).unwrap();
    assert_eq!(linalg::cholesky(&e, false).unwrap().shape(), &[2, 0, 0]);
    let (w, v) = linalg::eigh(&e, true).unwrap();
    assert_eq!(
        (w.shape(), v.shape()),
        (&[2usize, 0][..], &[2usize, 0, 0][..])
    );
    let (u, s, vh) = linalg::svd(&Array::zeros(&dev, &[3, 0], DType::F32).unwrap(), true).unwrap();
    assert_eq!(
        (u.shape(), s.shape(), vh.shape()),
        (&[3usize, 3][..], &[0usize][..], &[0usize, 0][..])
    );
    assert_eq!(read(&u), vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
    // NaN: solve and eigh give NaN, not errors, as NumPy does (NumPy's BLAS skips products by
    // an exact zero, so it can leave more of x finite); svd is NumPy's "did not converge".
    let nan = upload(&dev, &[f64::NAN, 0.0, 0.0, 1.0], &[2, 2], DType::F32);
    let x = read(&linalg::solve(&nan, &upload(&dev, &[1.0, 1.0], &[2], DType::F32)).unwrap());
    assert!(x[0].is_nan(), "{x:?}");
    let w = read(&linalg::eigvalsh(&nan, true).unwrap());
    assert!(w.iter().any(|v| v.is_nan()), "{w:?}");
    match linalg::svd(&nan, false) {
        Err(Error::LinAlg { msg, .. }) => assert!(msg.contains("did not converge"), "{msg}"),
        other => panic!("{other:?}"),
    }
}
