//! `eigh` and `svd` of matrices past 128 rows or columns: tridiagonalisation and implicit QL,
//! QR, bidiagonalisation and implicit-shift QR, against host references in f64 and the
//! invariants of each factorization.

use crate::common;
use crate::common::host_linalg::*;
use gpuarray::linalg;
use gpuarray::{DType, Error};

#[test]
fn large_eigh_by_tridiagonalisation_handles_clusters_diagonals_and_nan() {
    // Past 128 rows eigh reduces to tridiagonal form and runs QL: a cluster of equal
    // eigenvalues (I + u·uᵀ: 1 with multiplicity n − 1) must still give orthonormal vectors; a
    // matrix already diagonal (every reflector the identity, no QL step) its sorted diagonal;
    // a matrix with NaN NaN eigenvalues without spoiling its batch.
    let Some(dev) = common::device() else { return };
    let n = 140;
    let u = data(n, 5);
    let norm2: f64 = u.iter().map(|x| x * x).sum();
    let mut cluster = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            cluster[i * n + j] = u[i] * u[j] + if i == j { 1.0 } else { 0.0 };
        }
    }
    let mut diagonal = vec![0.0; n * n];
    for i in 0..n {
        diagonal[i * n + i] = ((i * 37) % n) as f64 - 70.0;
    }
    let mut with_nan = symmetric(n, 8);
    with_nan[3 * n + 7] = f64::NAN;
    let mut batch = cluster.clone();
    batch.extend(&diagonal);
    batch.extend(&with_nan);
    let (w, v) = linalg::eigh(&upload(&dev, &batch, &[3, n, n], DType::F32), true).unwrap();
    let (w, v) = (read(&w), read(&v));
    let tol = 8.0 * n as f64 * eps(DType::F32);
    // The cluster: n − 1 ones, then 1 + ‖u‖².
    let wc = &w[..n];
    assert!(
        wc[..n - 1]
            .iter()
            .all(|x| (x - 1.0).abs() < tol * (1.0 + norm2)),
        "{wc:?}"
    );
    assert!((wc[n - 1] - (1.0 + norm2)).abs() < tol * (1.0 + norm2));
    let vc = &v[..n * n];
    assert!(orthonormality(vc, n, n) < tol);
    let av = mm(&cluster, vc, n, n, n);
    let mut vl = vc.to_vec();
    for i in 0..n {
        for j in 0..n {
            vl[i * n + j] *= wc[j];
        }
    }
    assert!(max_diff(&av, &vl) < tol * (1.0 + norm2));
    // The diagonal matrix: exactly its sorted diagonal, and a permutation for vectors.
    let mut sorted: Vec<f64> = (0..n).map(|i| diagonal[i * n + i]).collect();
    sorted.sort_by(f64::total_cmp);
    assert_eq!(&w[n..2 * n], &sorted[..]);
    let vd = &v[n * n..2 * n * n];
    assert!(vd.iter().all(|&x| x == 0.0 || x.abs() == 1.0));
    assert!(orthonormality(vd, n, n) == 0.0);
    // NaN in the third matrix only.
    assert!(w[2 * n..].iter().all(|x| x.is_nan()), "{:?}", &w[2 * n..]);
    assert!(w[..2 * n].iter().all(|x| x.is_finite()));
}

#[test]
fn large_rectangular_svd_goes_by_qr_then_bidiagonalisation() {
    // Past 128 columns (of the tall orientation) svd takes QR of the rectangular matrix, then
    // bidiagonalises R: wide and tall, rank deficient (ten zero singular values, whose vectors
    // must still be orthonormal), full (Q complete, its last columns kept) and reduced.
    let Some(dev) = common::device() else { return };
    for (m, n) in [(200, 150), (140, 260)] {
        let mut a = data(m * n, (m + 3 * n) as u64);
        // Rank min(m, n) − 10: the last ten columns (rows, when wide) repeat the first ten.
        for i in 0..m {
            for j in 0..n {
                if m >= n && j >= n - 10 {
                    a[i * n + j] = a[i * n + j - (n - 10)];
                } else if m < n && i >= m - 10 {
                    a[i * n + j] = a[(i - (m - 10)) * n + j];
                }
            }
        }
        let k = m.min(n);
        let host: Vec<f64> = {
            let (g, d) = if m >= n {
                (mm(&transpose(&a, m, n), &a, n, m, n), n)
            } else {
                (mm(&a, &transpose(&a, m, n), m, n, m), m)
            };
            let mut s: Vec<f64> = host_eigvals(&g, d)
                .into_iter()
                .map(|x| x.max(0.0).sqrt())
                .collect();
            s.reverse();
            s
        };
        let ga = upload(&dev, &a, &[m, n], DType::F32);
        let norm = max_abs(&a) * (m * n) as f64;
        let tol = 10.0 * m.max(n) as f64 * eps(DType::F32);
        for full in [true, false] {
            let (u, s, vh) = linalg::svd(&ga, full).unwrap();
            let (uc, vr) = if full { (m, n) } else { (k, k) };
            let (u, s, vh) = (read(&u), read(&s), read(&vh));
            assert!(
                max_diff(&s, &host) < tol * norm,
                "{m}x{n}: {:?} vs {:?}",
                &s[..4],
                &host[..4]
            );
            assert!(
                s[k - 10..].iter().all(|x| x.abs() < tol * norm),
                "{:?}",
                &s[k - 12..]
            );
            assert!(s.windows(2).all(|p| p[0] >= p[1]));
            assert!(orthonormality(&u, m, uc) < tol, "U of {m}x{n} full={full}");
            assert!(
                orthonormality(&transpose(&vh, vr, n), n, vr) < tol,
                "V of {m}x{n}"
            );
            let mut us = vec![0.0; m * k];
            for i in 0..m {
                for j in 0..k {
                    us[i * k + j] = u[i * uc + j] * s[j];
                }
            }
            assert!(
                max_diff(&mm(&us, &vh[..k * n], m, k, n), &a) < tol * max_abs(&a),
                "{m}x{n}"
            );
        }
    }
}

/// max |A − U·diag(S)·Vh| for square n × n factors.
fn reconstruction(a: &[f64], u: &[f64], s: &[f64], vh: &[f64], n: usize) -> f64 {
    let mut us = u.to_vec();
    for i in 0..n {
        for j in 0..n {
            us[i * n + j] *= s[j];
        }
    }
    max_diff(&mm(&us, vh, n, n, n), a)
}

#[test]
fn large_square_svd_splits_at_zero_diagonals_and_orders_signed_values() {
    // The bidiagonal QR's special cases, in a batch of four 136 × 136 matrices: (0) a random
    // matrix with a zero row, a zero column and two repeated columns (negligible entries at the
    // end of the bidiagonal's blocks, chased up by rotations of columns); (1) a diagonal
    // matrix of signed, unsorted entries and zeros (no reflector, no sweep: S is its sorted
    // |diagonal| exactly, Vh carries the signs); (2) matrix 0 scaled by 1e-30 (the deflation
    // threshold scales with the matrix); (3) an upper bidiagonal matrix (its own reduction) with
    // a zero on the diagonal inside a block, chased out along its row by rotations of rows.
    let Some(dev) = common::device() else { return };
    let n = 136;
    let mut a0 = data(n * n, 41);
    for j in 0..n {
        a0[17 * n + j] = 0.0;
    }
    for i in 0..n {
        a0[i * n + 90] = 0.0;
        a0[i * n + 3] = a0[i * n + 5];
        a0[i * n + 100] = a0[i * n + 5];
    }
    let mut a1 = vec![0.0; n * n];
    for i in 0..n {
        a1[i * n + i] = match i % 5 {
            0 => 0.0,
            1 => -((i * 37 % n) as f64),
            _ => (i * 53 % n) as f64 / 4.0,
        };
    }
    let a2: Vec<f64> = a0.iter().map(|x| x * 1e-30).collect();
    let mut a3 = vec![0.0; n * n];
    let r = data(2 * n, 43);
    for i in 0..n {
        a3[i * n + i] = if i == 50 { 0.0 } else { r[i] + 1.0 };
        if i + 1 < n {
            a3[i * n + i + 1] = r[n + i];
        }
    }
    for dtype in linalg_dtypes(&dev) {
        let tol = 10.0 * n as f64 * eps(dtype);
        let batch = [a0.clone(), a1.clone(), a2.clone(), a3.clone()].concat();
        let g = upload(&dev, &batch, &[4, n, n], dtype);
        let (u, s, vh) = linalg::svd(&g, false).unwrap();
        let (u, s, vh) = (read(&u), read(&s), read(&vh));
        let vals = read(&linalg::svdvals(&g).unwrap());
        for (m, a) in [&a0, &a1, &a2, &a3].into_iter().enumerate() {
            let (um, sm, vm) = (
                &u[m * n * n..(m + 1) * n * n],
                &s[m * n..(m + 1) * n],
                &vh[m * n * n..(m + 1) * n * n],
            );
            // σ² against the eigenvalues of AᵀA (the host's square roots of its zero
            // eigenvalues would be off by √ε·‖A‖ themselves).
            let scale = max_abs(a) * n as f64;
            let mut host = host_eigvals(&mm(&transpose(a, n, n), a, n, n, n), n);
            host.reverse();
            let squares: Vec<f64> = sm.iter().map(|x| x * x).collect();
            assert!(
                max_diff(&squares, &host) < tol * scale * scale,
                "matrix {m} {dtype:?}"
            );
            assert_eq!(sm, &vals[m * n..(m + 1) * n], "svdvals of matrix {m}");
            assert!(sm.windows(2).all(|p| p[0] >= p[1]));
            assert!(orthonormality(um, n, n) < tol, "U of matrix {m}");
            assert!(
                orthonormality(&transpose(vm, n, n), n, n) < tol,
                "V of matrix {m}"
            );
            assert!(
                reconstruction(a, um, sm, vm, n) < tol * max_abs(a),
                "A of matrix {m} {dtype:?}"
            );
        }
        // Matrix 0: rank n − 3 (a zero row and column, two repeated columns).
        assert!(
            s[n - 3..n]
                .iter()
                .all(|x| *x < tol * max_abs(&a0) * n as f64)
        );
        assert!(s[n - 4] > 1e-3);
        // Matrix 1: its sorted |diagonal|, exactly.
        let mut diag: Vec<f64> = (0..n).map(|i| a1[i * n + i].abs()).collect();
        diag.sort_by(|x, y| y.total_cmp(x));
        assert_eq!(&s[n..2 * n], &diag[..]);
        assert_eq!(
            reconstruction(&a1, &u[n * n..2 * n * n], &diag, &vh[n * n..2 * n * n], n),
            0.0
        );
    }
}

#[test]
fn large_svd_of_nan_or_inf_is_numpys_error_and_spares_the_inputs() {
    let Some(dev) = common::device() else { return };
    let n = 130;
    let a = data(n * n, 9);
    for bad in [f64::NAN, f64::INFINITY] {
        let mut b = a.clone();
        b[7 * n + 2] = bad;
        let g = upload(&dev, &[a.clone(), b].concat(), &[2, n, n], DType::F32);
        for r in [
            linalg::svd(&g, true).map(|_| ()),
            linalg::svdvals(&g).map(|_| ()),
        ] {
            match r {
                Err(Error::LinAlg { msg, .. }) => {
                    assert!(msg.contains("did not converge"), "{msg}")
                }
                other => panic!("{bad}: {other:?}"),
            }
        }
        // The operand is untouched.
        let back = read(&g);
        assert_eq!(
            back[..n * n],
            a.iter().map(|&x| x as f32 as f64).collect::<Vec<_>>()[..]
        );
    }
}

#[test]
fn cholesky_factors_matrices_past_one_storage_binding() {
    // Bindings capped at 1 MiB (the matmul's tiles need a few hundred KiB): a 600 × 600 float32
    // matrix (1.44 MB) and a batch of two 520 × 520 ones (1.08 MB each) are each larger than one
    // binding; the panels (at most 600 × 32) are not. The inputs must survive, an indefinite
    // matrix past the binding must be reported by index.
    let Some(dev) = common::device_with_binding(1 << 20) else {
        return;
    };
    for (n, batch) in [(600, 1), (520, 2)] {
        let mut a = Vec::new();
        for m in 0..batch {
            a.extend(spd(n, (n + m) as u64));
        }
        let ga = upload(&dev, &a, &[batch, n, n], DType::F32);
        let l = read(&linalg::cholesky(&ga, false).unwrap());
        for m in 0..batch {
            let (am, lm) = (
                &a[m * n * n..(m + 1) * n * n],
                &l[m * n * n..(m + 1) * n * n],
            );
            assert!((0..n).all(|i| (i + 1..n).all(|j| lm[i * n + j] == 0.0)));
            let err = max_diff(&mm(lm, &transpose(lm, n, n), n, n, n), am);
            assert!(
                err < 4.0 * n as f64 * eps(DType::F32) * max_abs(am),
                "n={n} matrix {m}: {err}"
            );
        }
        let intact = read(&ga)
            .iter()
            .zip(&a)
            .all(|(&g, &h)| g == h as f32 as f64);
        assert!(intact, "n={n}: the input changed");
    }
    let n = 520;
    let mut a = spd(n, 7);
    a.extend(spd(n, 8));
    a[n * n + 450 * n + 450] = -1e4;
    let ga = upload(&dev, &a, &[2, n, n], DType::F32);
    match linalg::cholesky(&ga, false) {
        Err(Error::LinAlg { index, op, .. }) => assert_eq!((index, op), (Some(1), "cholesky")),
        other => panic!("{other:?}"),
    }
    assert!(dev.take_uncaptured_errors().is_empty());
}

#[test]
fn lu_functions_handle_matrices_past_one_storage_binding() {
    // Bindings capped at 1 MiB: 600 × 600 float32 matrices (1.44 MB) are factored panel by
    // panel in copies, their swaps applied a run of columns at a time, the substitutions a block
    // of rows at a time — and inv's 600 × 600 right-hand side a run of columns at a time.
    let Some(dev) = common::device_with_binding(1 << 20) else {
        return;
    };
    let n = 600;
    // Not diagonally dominant: partial pivoting must swap rows in every panel.
    let a = data(n * n, 11);
    let ga = upload(&dev, &a, &[n, n], DType::F32);
    let b = data(n * 3, 12);
    let x = read(&linalg::solve(&ga, &upload(&dev, &b, &[n, 3], DType::F32)).unwrap());
    check_backward(&a, &x, &b, n, 3, 1, DType::F32);
    let inv = read(&linalg::inv(&ga).unwrap());
    let eye: Vec<f64> = (0..n * n).map(|t| f64::from(t % (n + 1) == 0)).collect();
    check_backward(&a, &inv, &eye, n, n, 1, DType::F32);
    // det and slogdet against a host LU in f64 (log|det| to float32 accuracy).
    let (sign, logabs) = linalg::slogdet(&ga).unwrap();
    let (sign, logabs) = (read(&sign)[0], read(&logabs)[0]);
    let (host_sign, host_log) =
        host_slogdet(&a.iter().map(|&v| v as f32 as f64).collect::<Vec<_>>(), n);
    assert_eq!(sign, host_sign);
    assert!(
        (logabs - host_log).abs() < 1e-4 * host_log.abs().max(1.0),
        "{logabs} vs {host_log}"
    );
    // A singular matrix past the binding (column 400 zero: an exact zero pivot in a late panel)
    // in a batch of two: named by index.
    let mut two = data(n * n, 13);
    let mut singular = data(n * n, 14);
    for r in 0..n {
        singular[r * n + 400] = 0.0;
    }
    two.extend(singular);
    let g2 = upload(&dev, &two, &[2, n, n], DType::F32);
    let rhs = upload(&dev, &data(2 * n, 15), &[2, n, 1], DType::F32);
    match linalg::solve(&g2, &rhs) {
        Err(Error::LinAlg { index, op, .. }) => assert_eq!((index, op), (Some(1), "solve")),
        other => panic!("{other:?}"),
    }
    assert!(dev.take_uncaptured_errors().is_empty());
}

/// sign and log|det| of an n × n matrix by Gaussian elimination with partial pivoting in f64.
fn host_slogdet(a: &[f64], n: usize) -> (f64, f64) {
    let mut m = a.to_vec();
    let (mut sign, mut log) = (1.0, 0.0);
    for j in 0..n {
        let p = (j..n)
            .max_by(|&r, &s| m[r * n + j].abs().total_cmp(&m[s * n + j].abs()))
            .unwrap();
        if p != j {
            for c in 0..n {
                m.swap(j * n + c, p * n + c);
            }
            sign = -sign;
        }
        let d = m[j * n + j];
        sign *= d.signum();
        log += d.abs().ln();
        for r in j + 1..n {
            let f = m[r * n + j] / d;
            for c in j..n {
                m[r * n + c] -= f * m[j * n + c];
            }
        }
    }
    (sign, log)
}

#[test]
fn qr_factors_matrices_past_one_storage_binding() {
    // Bindings capped at 1 MiB: a tall 3000 × 100 float32 matrix (1.2 MB; 100 columns, which
    // within one binding would be factored unblocked) and a square 600 × 600 one, each in every
    // mode — the complete Q of the tall one (36 MB) far past the binding too.
    let Some(dev) = common::device_with_binding(1 << 20) else {
        return;
    };
    for (m, n) in [(3000, 100), (600, 600)] {
        let a = data(m * n, (m + n) as u64);
        let ga = upload(&dev, &a, &[m, n], DType::F32);
        let k = m.min(n);
        let tol = 8.0 * m as f64 * eps(DType::F32) * max_abs(&a);
        let (q, r) = linalg::qr(&ga, linalg::QrMode::Reduced).unwrap();
        let (q, r) = (read(&q.unwrap()), read(&r));
        assert!(
            (0..k).all(|i| (0..i.min(n)).all(|j| r[i * n + j] == 0.0)),
            "R upper"
        );
        let back = max_diff(&mm(&q, &r, m, k, n), &a);
        assert!(back < tol, "{m}x{n}: ‖A − Q·R‖ = {back}");
        assert!(orthonormality(&q, m, k) < 1e-4, "{m}x{n}: QᵀQ");
        let (none, r_only) = linalg::qr(&ga, linalg::QrMode::R).unwrap();
        assert!(none.is_none());
        assert_eq!(read(&r_only), r, "{m}x{n}: mode r gives reduced's R");
        if m > n {
            // Complete: R's rows past k are zero, so Q·R = Q[:, :k]·R[:k]; Q orthogonal: it
            // maps random vectors back through Qᵀ (m³ host work for QᵀQ would be 27·10^9).
            let (q, r) = linalg::qr(&ga, linalg::QrMode::Complete).unwrap();
            let (q, r) = (read(&q.unwrap()), read(&r));
            assert!(r[k * n..].iter().all(|&v| v == 0.0));
            let qk: Vec<f64> = (0..m * k).map(|t| q[(t / k) * m + t % k]).collect();
            assert!(
                max_diff(&mm(&qk, &r[..k * n], m, k, n), &a) < tol,
                "complete Q·R"
            );
            for seed in 0..3 {
                let x = data(m, 100 + seed);
                let y = mm(&transpose(&q, m, m), &x, m, m, 1);
                let z = mm(&q, &y, m, m, 1);
                assert!(max_diff(&z, &x) < 1e-4, "complete Q·Qᵀ·x = x");
            }
        }
    }
    assert!(dev.take_uncaptured_errors().is_empty());
}

#[test]
fn eigh_of_matrices_past_one_storage_binding() {
    // Bindings capped at 256 KiB: a 300 × 300 float32 matrix (360 KB) and a batch of two
    // 261 × 261 ones (272 KB each; rows not a multiple of 4 long, padded to 264) are reduced to
    // tridiagonal form with A22·v over windows of rows, and their eigenvectors rotated as blocks
    // of columns. A = H·diag(λ)·H with H = I − 2·u·uᵀ/‖u‖² has the eigenvalues λ exactly.
    let Some(dev) = common::device_with_binding(256 << 10) else {
        return;
    };
    for (n, batch) in [(300, 1), (261, 2)] {
        let mut a = Vec::new();
        let mut lambdas = Vec::new();
        for m in 0..batch {
            let u = data(n, (n + m) as u64);
            let uu: f64 = u.iter().map(|x| x * x).sum();
            let lambda: Vec<f64> = (0..n)
                .map(|i| ((i * 7 + m) % n) as f64 - n as f64 / 3.0)
                .collect();
            // (H·Λ·H)[i][j] = Σ_t H[i][t]·λ_t·H[t][j].
            let h = |i: usize, j: usize| f64::from(i == j) - 2.0 * u[i] * u[j] / uu;
            let hl: Vec<f64> = (0..n * n)
                .map(|t| h(t / n, t % n) * lambda[t % n])
                .collect();
            let hm: Vec<f64> = (0..n * n).map(|t| h(t / n, t % n)).collect();
            a.extend(mm(&hl, &hm, n, n, n));
            let mut sorted = lambda;
            sorted.sort_by(f64::total_cmp);
            lambdas.push(sorted);
        }
        let ga = upload(&dev, &a, &[batch, n, n], DType::F32);
        let (w, v) = linalg::eigh(&ga, true).unwrap();
        let (w, v) = (read(&w), read(&v));
        let only = read(&linalg::eigvalsh(&ga, true).unwrap());
        assert_eq!(only, w, "n={n}: eigvalsh differs from eigh");
        for m in 0..batch {
            let am = &a[m * n * n..(m + 1) * n * n];
            let (wm, vm) = (&w[m * n..(m + 1) * n], &v[m * n * n..(m + 1) * n * n]);
            let scale = max_abs(&lambdas[m]);
            let tol = 8.0 * n as f64 * eps(DType::F32);
            let err = max_diff(wm, &lambdas[m]);
            assert!(
                err < tol * scale,
                "n={n} matrix {m}: eigenvalues off by {err}"
            );
            assert!(orthonormality(vm, n, n) < tol, "n={n} matrix {m}");
            let av = mm(am, vm, n, n, n);
            let vl: Vec<f64> = (0..n * n).map(|t| vm[t] * wm[t % n]).collect();
            assert!(
                max_diff(&av, &vl) < tol * scale,
                "n={n} matrix {m}: A·V ≠ V·Λ"
            );
        }
    }
}

#[test]
fn svd_of_matrices_past_one_storage_binding() {
    // Bindings capped at 256 KiB: a 300 × 300 float32 matrix (360 KB) and a wide 262 × 350 one
    // (QR of its transpose first, then 262 × 262, 275 KB, rows padded to 264) are bidiagonalised
    // with Aᵀ·v and A·u over windows of rows, their vectors rotated as blocks of columns; and
    // matrix_rank, built on svd. A = H₁·diag(σ)·H₂ with Householder reflectors
    // H = I − 2·u·uᵀ/‖u‖² has the singular values σ exactly.
    let Some(dev) = common::device_with_binding(256 << 10) else {
        return;
    };
    let reflector = |n: usize, seed: u64| {
        let u = data(n, seed);
        let uu: f64 = u.iter().map(|x| x * x).sum();
        (0..n * n)
            .map(|t| f64::from(t / n == t % n) - 2.0 * u[t / n] * u[t % n] / uu)
            .collect::<Vec<f64>>()
    };
    for (m, n) in [(300, 300), (262, 350)] {
        let k = m.min(n);
        // σ: distinct values from 1 to 4, every 53rd from the 8th zero (rank below k).
        let sigma: Vec<f64> = (0..k)
            .map(|i| {
                if i % 53 == 7 {
                    0.0
                } else {
                    1.0 + 3.0 * ((i * 37) % k) as f64 / k as f64
                }
            })
            .collect();
        let mut sd = vec![0.0; m * n];
        for i in 0..k {
            sd[i * n + i] = sigma[i];
        }
        let a = mm(
            &mm(&reflector(m, 3), &sd, m, m, n),
            &reflector(n, 4),
            m,
            n,
            n,
        );
        let ga = upload(&dev, &a, &[m, n], DType::F32);
        let (u, s, vh) = linalg::svd(&ga, false).unwrap();
        let (u, s, vh) = (read(&u), read(&s), read(&vh));
        let mut want = sigma.clone();
        want.sort_by(|x, y| y.total_cmp(x));
        let tol = 8.0 * n as f64 * eps(DType::F32);
        assert!(max_diff(&s, &want) < tol * 4.0, "{m}×{n}: singular values");
        assert_eq!(
            read(&linalg::svdvals(&ga).unwrap()),
            s,
            "{m}×{n}: svdvals differs from svd"
        );
        assert!(orthonormality(&u, m, k) < tol, "{m}×{n}: UᵀU");
        assert!(
            orthonormality(&transpose(&vh, k, n), n, k) < tol,
            "{m}×{n}: Vh·Vhᵀ"
        );
        let us: Vec<f64> = (0..m * k).map(|t| u[t] * s[t % k]).collect();
        assert!(
            max_diff(&mm(&us, &vh, m, k, n), &a) < tol * 4.0,
            "{m}×{n}: A = U·S·Vh"
        );
        let rank = linalg::matrix_rank(&ga, None, None).unwrap();
        assert_eq!(
            rank.to_vec::<i64>().unwrap(),
            vec![(k - sigma.iter().filter(|&&x| x == 0.0).count()) as i64]
        );
    }
}

/// Checks an SVD (U m × uc, S k, Vh vr × n) of the m × n matrix `a`: S against the host's
/// within `tol`·σ_max (plus the square-root floor of σ near zero), U's first k columns and
/// Vh's first k rows orthonormal, A = U·S·Vh.
#[allow(clippy::too_many_arguments)]
fn check_svd(
    what: &str,
    a: &[f64],
    (m, n): (usize, usize),
    u: &[f64],
    s: &[f64],
    vh: &[f64],
    (uc, vr): (usize, usize),
    tol: f64,
) {
    let k = m.min(n);
    let host = host_singular_values(a, m, n);
    let top = host[0].max(1e-300);
    let err = max_diff(s, &host);
    assert!(
        err <= tol * top + (tol * 1e-3).sqrt() * top,
        "{what}: S off by {err}"
    );
    assert!(s.windows(2).all(|p| p[0] >= p[1]), "{what}: S descending");
    let uk: Vec<f64> = (0..m * k).map(|t| u[(t / k) * uc + t % k]).collect();
    assert!(orthonormality(&uk, m, k) < tol, "{what}: UᵀU");
    assert!(
        orthonormality(&transpose(&vh[..k * n], k, n), n, k) < tol,
        "{what}: Vh·Vhᵀ"
    );
    let us: Vec<f64> = (0..m * k).map(|t| uk[t] * s[t % k]).collect();
    let back = max_diff(&mm(&us, &vh[..k * n], m, k, n), a);
    assert!(back < tol * top, "{what}: ‖A − U·S·Vh‖ = {back}");
    let _ = vr;
}

#[test]
fn tall_svd_and_lstsq_go_through_the_qr() {
    // Past 256 rows (of the tall orientation) and up to 128 columns the SVD factors R of A's QR
    // by Jacobi and turns back with Q, as LAPACK does: 70,000 × 3 walked past lavapipe's loop
    // limit in the Jacobi kernel before. Wide matrices go through their transpose; full
    // matrices complete U with Q's last columns; rank deficiency (column 2 = column 0 −
    // column 1) leaves a zero singular value.
    let Some(dev) = common::device() else { return };
    let dtype = DType::F32;
    for (m, n, deficient) in [
        (300, 7, false),
        (400, 100, true),
        (6, 500, false),
        (70_000, 3, false),
    ] {
        let mut a = data(m * n, (m + 3 * n) as u64);
        if deficient {
            for i in 0..m {
                a[i * n + 2] = a[i * n] - a[i * n + 1];
            }
        }
        let ga = upload(&dev, &a, &[m, n], dtype);
        let k = m.min(n);
        let tol = 8.0 * m.max(n) as f64 * eps(dtype);
        for full in [false, true] {
            if full && m.max(n) > 1000 {
                continue; // a 70,000² U: 19.6 GB, as NumPy's
            }
            let (u, s, vh) = linalg::svd(&ga, full).unwrap();
            let (uc, vr) = if full { (m, n) } else { (k, k) };
            assert_eq!(
                (u.shape(), s.shape(), vh.shape()),
                (&[m, uc][..], &[k][..], &[vr, n][..])
            );
            let (u, s, vh) = (read(&u), read(&s), read(&vh));
            check_svd(
                &format!("{m}x{n} full={full}"),
                &a,
                (m, n),
                &u,
                &s,
                &vh,
                (uc, vr),
                tol,
            );
            if full {
                // The completed U (or Vh) is orthogonal: Q·Qᵀ·x = x.
                let (q, d) = if m >= n {
                    (u.clone(), m)
                } else {
                    (transpose(&vh, n, n), n)
                };
                let x = data(d, 77);
                let y = mm(&transpose(&q, d, d), &x, d, d, 1);
                assert!(
                    max_diff(&mm(&q, &y, d, d, 1), &x) < tol,
                    "{m}x{n}: complete"
                );
            }
            assert_eq!(
                read(&linalg::svdvals(&ga).unwrap()),
                s,
                "{m}x{n}: svdvals differs from svd"
            );
        }
        if m > n && !deficient {
            // Least squares against the host's normal equations (well conditioned here).
            let b = data(m, 99);
            let fit = linalg::lstsq(&ga, &upload(&dev, &b, &[m], dtype), None).unwrap();
            let want = host_least_squares(&a, &b, m, n);
            let x = read(&fit.x);
            assert!(
                max_diff(&x, &want) < tol * max_abs(&want).max(1.0) * 10.0,
                "{m}x{n}: lstsq {x:?} vs {want:?}"
            );
            assert_eq!(fit.rank, n);
        }
    }
}

/// x minimising ‖a·x − b‖ for a full-rank m × n matrix `a`, from the normal equations on the
/// host (well-conditioned matrices only).
fn host_least_squares(a: &[f64], b: &[f64], m: usize, n: usize) -> Vec<f64> {
    let at = transpose(a, m, n);
    host_solve(&mm(&at, a, n, m, n), &mm(&at, b, n, m, 1), n)
}

/// x solving the n × n system a·x = b on the host (Gaussian elimination with partial
/// pivoting, f64).
fn host_solve(a: &[f64], b: &[f64], n: usize) -> Vec<f64> {
    let mut a = a.to_vec();
    let mut b = b.to_vec();
    for c in 0..n {
        let p = (c..n)
            .max_by(|&i, &j| a[i * n + c].abs().total_cmp(&a[j * n + c].abs()))
            .unwrap();
        for t in 0..n {
            a.swap(c * n + t, p * n + t);
        }
        b.swap(c, p);
        for r in c + 1..n {
            let f = a[r * n + c] / a[c * n + c];
            for t in c..n {
                a[r * n + t] -= f * a[c * n + t];
            }
            b[r] -= f * b[c];
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let s: f64 = (r + 1..n).map(|t| a[r * n + t] * x[t]).sum();
        x[r] = (b[r] - s) / a[r * n + r];
    }
    x
}

#[test]
fn tall_qr_svd_lstsq_and_pinv_past_one_storage_binding() {
    // Bindings capped at 256 KiB: 1500 × 60 float32 (360 KB). Its reduced QR is a TSQR; its
    // complete QR is factored in panels narrower than 64 columns (43 and 17: each panel's copy
    // must fit one binding); its SVD goes through those QRs (a full U of 9 MB formed a panel
    // at a time); pinv's V·S⁻¹·Uᵀ has a 60 × 1500
    // result, fewer rows than the subgroup kernel's launch, that no launch of it fits.
    let Some(dev) = common::device_with_binding(256 << 10) else {
        return;
    };
    let (m, n) = (1500, 60);
    let a = data(m * n, 15);
    let ga = upload(&dev, &a, &[m, n], DType::F32);
    let tol = 8.0 * m as f64 * eps(DType::F32);
    let (q, r) = linalg::qr(&ga, linalg::QrMode::Reduced).unwrap();
    let (q, r) = (read(&q.unwrap()), read(&r));
    assert!(
        (0..n).all(|i| (0..i).all(|j| r[i * n + j] == 0.0)),
        "R upper"
    );
    assert!(
        max_diff(&mm(&q, &r, m, n, n), &a) < tol * max_abs(&a),
        "A = Q·R"
    );
    assert!(orthonormality(&q, m, n) < tol, "QᵀQ");
    assert_eq!(read(&linalg::qr(&ga, linalg::QrMode::R).unwrap().1), r);
    let (qc, rc) = linalg::qr(&ga, linalg::QrMode::Complete).unwrap();
    let (qc, rc) = (read(&qc.unwrap()), read(&rc));
    assert!(rc[n * n..].iter().all(|&v| v == 0.0));
    // Reduced R comes from TSQR, complete from Householder QR: the same R but for rounding.
    assert!(
        max_diff(&rc[..n * n], &r) < tol * max_abs(&r),
        "complete R's first rows are reduced R"
    );
    let x = data(m, 3);
    let y = mm(&transpose(&qc, m, m), &x, m, m, 1);
    assert!(
        max_diff(&mm(&qc, &y, m, m, 1), &x) < tol,
        "complete Q orthogonal"
    );
    for full in [false, true] {
        let (u, s, vh) = linalg::svd(&ga, full).unwrap();
        let uc = if full { m } else { n };
        assert_eq!(u.shape(), &[m, uc]);
        let (u, s, vh) = (read(&u), read(&s), read(&vh));
        check_svd(
            &format!("full={full}"),
            &a,
            (m, n),
            &u,
            &s,
            &vh,
            (uc, n),
            tol,
        );
    }
    let b = data(m, 4);
    let fit = linalg::lstsq(&ga, &upload(&dev, &b, &[m], DType::F32), None).unwrap();
    let want = host_least_squares(&a, &b, m, n);
    assert!(
        max_diff(&read(&fit.x), &want) < tol * max_abs(&want) * 10.0,
        "lstsq"
    );
    // pinv(A)·A = I (A has full column rank).
    let p = linalg::pinv(&ga, 1e-15).unwrap();
    assert_eq!(p.shape(), &[n, m]);
    let pa = mm(&read(&p), &a, n, m, n);
    let eye: Vec<f64> = (0..n * n).map(|t| f64::from(t / n == t % n)).collect();
    assert!(max_diff(&pa, &eye) < tol, "pinv(A)·A = I");
    assert!(dev.take_uncaptured_errors().is_empty());
}

#[test]
fn rank_deficient_matrices_keep_finite_factors() {
    // Entries ((t·7919) mod 1000)/500 − 1 (t the flat index): rows repeat every 1000/gcd(1000,
    // n) rows (every 10 at n = 100 or 300), so the rank is at most 10 (50 at n = 260). Past the
    // rank each Householder step reflects the rounding noise of the last, which shrinks to
    // subnormal numbers that GPUs flush to zero; dividing by such a column scale gave ±inf and
    // NaN before (Q all NaN, `svd` "did not converge"). QR unblocked (300 × 100) and blocked
    // (400 × 260), the SVD through R (300 × 100) and bidiagonal (300 × 300), and the
    // tridiagonal eigh of A·Aᵀ (300 × 300) must stay finite and reconstruct.
    let Some(dev) = common::device() else { return };
    let periodic = |m: usize, n: usize| -> Vec<f64> {
        (0..m * n)
            .map(|t| ((t * 7919) % 1000) as f64 / 500.0 - 1.0)
            .collect()
    };
    for (m, n) in [(300, 100), (400, 260)] {
        let a = periodic(m, n);
        let ga = upload(&dev, &a, &[m, n], DType::F32);
        let (q, r) = linalg::qr(&ga, linalg::QrMode::Reduced).unwrap();
        let (q, r) = (read(&q.unwrap()), read(&r));
        assert!(
            q.iter().chain(&r).all(|v| v.is_finite()),
            "{m}x{n}: finite Q, R"
        );
        let tol = 8.0 * m as f64 * eps(DType::F32);
        let scale = max_abs(&a);
        assert!(
            max_diff(&mm(&q, &r, m, n, n), &a) < tol * scale,
            "{m}x{n}: A = Q·R"
        );
        assert!(orthonormality(&q, m, n) < tol, "{m}x{n}: QᵀQ");
    }
    for (m, n) in [(300, 100), (300, 300)] {
        let a = periodic(m, n);
        let ga = upload(&dev, &a, &[m, n], DType::F32);
        let (u, s, vh) = linalg::svd(&ga, false).unwrap();
        let (u, s, vh) = (read(&u), read(&s), read(&vh));
        assert!(
            u.iter().chain(&s).chain(&vh).all(|v| v.is_finite()),
            "{m}x{n}: svd finite"
        );
        let tol = 8.0 * m as f64 * eps(DType::F32);
        check_svd(
            &format!("{m}x{n} rank 10"),
            &a,
            (m, n),
            &u,
            &s,
            &vh,
            (n, n),
            tol,
        );
        assert_eq!(
            linalg::matrix_rank(&ga, None, None)
                .unwrap()
                .to_vec::<i64>()
                .unwrap(),
            vec![s.iter().filter(|&&x| x > tol * s[0]).count() as i64]
        );
    }
    let n = 300;
    let a = periodic(n, n);
    let sym = mm(&a, &transpose(&a, n, n), n, n, n);
    let (w, v) = linalg::eigh(&upload(&dev, &sym, &[n, n], DType::F32), true).unwrap();
    let (w, v) = (read(&w), read(&v));
    assert!(w.iter().chain(&v).all(|x| x.is_finite()), "eigh finite");
    let tol = 8.0 * n as f64 * eps(DType::F32);
    let top = max_abs(&w);
    assert!(orthonormality(&v, n, n) < tol, "eigh: VᵀV");
    let av = mm(&sym, &v, n, n, n);
    let vl: Vec<f64> = (0..n * n).map(|t| v[t] * w[t % n]).collect();
    assert!(max_diff(&av, &vl) < tol * top, "eigh: A·V = V·Λ");
}

/// R (n × n) of the Householder QR of a tall m × n matrix, as LAPACK's geqr2 builds it (each
/// β = −sign(α)·‖x‖, sign(0) = +), on the host in f64.
fn host_householder_r(a: &[f64], m: usize, n: usize) -> Vec<f64> {
    let mut w = a.to_vec();
    for j in 0..n {
        let alpha = w[j * n + j];
        let xnorm = ((j + 1)..m)
            .map(|r| w[r * n + j] * w[r * n + j])
            .sum::<f64>()
            .sqrt();
        if xnorm == 0.0 {
            continue;
        }
        let beta = -alpha.hypot(xnorm).copysign(alpha);
        let tau = (beta - alpha) / beta;
        let scale = 1.0 / (alpha - beta);
        for r in j + 1..m {
            w[r * n + j] *= scale;
        }
        w[j * n + j] = beta;
        for c in j + 1..n {
            let mut s = w[j * n + c];
            for r in j + 1..m {
                s += w[r * n + j] * w[r * n + c];
            }
            s *= tau;
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

#[test]
fn tall_skinny_qr_has_lapacks_signs_at_any_height() {
    // Tall, narrow matrices are factored by TSQR (src/linalg/tsqr.rs): leaves of at least 256
    // rows side by side, their R factors stacked and factored again. Bindings capped at
    // 256 KiB: a float32 column of 70,000 rows (280 KB) is past one binding, which a
    // Householder panel (a copy of at least one column) could not factor. Against Householder
    // QR in f64 on the host: R's signs are LAPACK's and its values agree; Q·R = A; QᵀQ = I;
    // mode r gives reduced's R bit for bit; svdvals and lstsq go through it. Shapes: one and
    // three columns past the binding, a batch of two 5000 × 64 (each past the binding), three
    // levels of leaves (20,000 × 8: 64 leaves, then two), and an odd height whose last leaf is
    // padded.
    let Some(dev) = common::device_with_binding(256 << 10) else {
        return;
    };
    for (batch, m, n, dtypes) in [
        (1, 70_000, 1, vec![DType::F32]),
        (1, 70_000, 3, vec![DType::F32]),
        (2, 5_000, 64, vec![DType::F32]),
        (1, 20_000, 8, vec![DType::F32]),
        (3, 2_047, 5, linalg_dtypes(&dev)),
    ] {
        let a = data(batch * m * n, (m + n) as u64);
        let shape = if batch == 1 {
            vec![m, n]
        } else {
            vec![batch, m, n]
        };
        for dtype in dtypes {
            let what = format!("{batch}×{m}×{n} {dtype:?}");
            let ga = upload(&dev, &a, &shape, dtype);
            let (q, r) = linalg::qr(&ga, linalg::QrMode::Reduced).unwrap();
            let q = q.unwrap();
            assert_eq!(q.shape()[shape.len() - 2..], [m, n], "{what}");
            assert_eq!(r.shape()[shape.len() - 2..], [n, n], "{what}");
            let (q, r) = (read(&q), read(&r));
            let (_, r_only) = linalg::qr(&ga, linalg::QrMode::R).unwrap();
            assert_eq!(read(&r_only), r, "{what}: mode r gives reduced's R");
            let tol = 8.0 * m as f64 * eps(dtype);
            for b in 0..batch {
                let ab = &a[b * m * n..(b + 1) * m * n];
                let qb = &q[b * m * n..(b + 1) * m * n];
                let rb = &r[b * n * n..(b + 1) * n * n];
                let want = host_householder_r(ab, m, n);
                assert!(
                    (0..n).all(|i| (0..i).all(|j| rb[i * n + j] == 0.0)),
                    "{what}: R upper"
                );
                let r_err = max_diff(rb, &want) / max_abs(&want);
                assert!(r_err < tol, "{what}[{b}]: R vs LAPACK's, {r_err}");
                let back = max_diff(&mm(qb, rb, m, n, n), ab) / max_abs(ab);
                assert!(back < tol, "{what}[{b}]: ‖A − Q·R‖ = {back}");
                let orth = orthonormality(qb, m, n);
                assert!(orth < tol, "{what}[{b}]: ‖QᵀQ − I‖ = {orth}");
            }
        }
    }
    // Through QR: the singular values and a least-squares fit of 70,000 × 3.
    let (m, n) = (70_000, 3);
    let a = data(m * n, 5);
    let ga = upload(&dev, &a, &[m, n], DType::F32);
    let tol = 8.0 * m as f64 * eps(DType::F32);
    let s = read(&linalg::svdvals(&ga).unwrap());
    let want = host_singular_values(&a, m, n);
    assert!(
        max_diff(&s, &want) < tol * want[0],
        "svdvals {s:?} vs {want:?}"
    );
    let b = data(m, 6);
    let fit = linalg::lstsq(&ga, &upload(&dev, &b, &[m], DType::F32), None).unwrap();
    let want = host_least_squares(&a, &b, m, n);
    assert!(
        max_diff(&read(&fit.x), &want) < tol * max_abs(&want) * 10.0,
        "lstsq {:?} vs {want:?}",
        read(&fit.x)
    );
    assert!(dev.take_uncaptured_errors().is_empty());
}
