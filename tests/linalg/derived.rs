//! The `numpy.linalg` functions built on the factorizations (norms, cond, rank, pinv, lstsq,
//! matrix powers, multi_dot, cross, tensorsolve/tensorinv) against host references in f64.

use crate::common;
use crate::common::host_linalg::*;
use gpuarray::linalg::{self, NormOrder};
use gpuarray::{Array, DType, Error};

#[test]
fn norms_of_every_order_match_the_host() {
    let Some(dev) = common::device() else { return };
    if !native_f64(&dev, "float64 norms, rank, pinv and lstsq") {
        return;
    }
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
    if !native_f64(&dev, "float64 norms, rank, pinv and lstsq") {
        return;
    }
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
            let pivot_row = aug[j].clone();
            for (x, p) in aug[r][j..].iter_mut().zip(&pivot_row[j..]) {
                *x -= f * p;
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
    if !native_f64(&dev, "float64 powers, chains, cross and tensor forms") {
        return;
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
