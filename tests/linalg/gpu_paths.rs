//! The paths gpuarray takes on GPUs, forced on the adapter at hand (lavapipe in CI) so the suite
//! runs them: the interleaved batch layout of the one-invocation-per-matrix kernels (the same
//! bits as the row-major one), and Jacobi by pairs — one workgroup per column pair, a round per
//! launch — for large `eigh`/`svd`. The switch is per thread, so the other tests of the binary
//! keep the CPU paths.

use crate::common;
use crate::common::host_linalg::*;
use gpuarray::DType;
use gpuarray::linalg;

#[test]
fn the_gpu_paths_give_the_answers_of_the_cpu_paths() {
    let Some(dev) = common::device() else { return };
    // GPUs run the one-invocation-per-matrix kernels on an interleaved batch (coalesced);
    // lavapipe on the row-major one.
    let (n, batch) = (7, 300);
    let mut a = Vec::new();
    let mut s = Vec::new();
    for m in 0..batch {
        a.extend(well_conditioned(n, m as u64));
        s.extend(spd(12, m as u64));
    }
    let ga = upload(&dev, &a, &[batch, n, n], DType::F32);
    let gs = upload(&dev, &s, &[batch, 12, 12], DType::F32);
    let b = upload(&dev, &data(batch * n * 3, 1), &[batch, n, 3], DType::F32);
    let run = || {
        (
            read(&linalg::solve(&ga, &b).unwrap()),
            read(&linalg::inv(&ga).unwrap()),
            read(&linalg::cholesky(&gs, false).unwrap()),
        )
    };
    let row_major = run();
    linalg::force_gpu_paths(true);
    let interleaved = run();
    assert_eq!(row_major, interleaved);
    check_backward(
        &a,
        &row_major.0,
        &data(batch * n * 3, 1),
        n,
        3,
        batch,
        DType::F32,
    );

    // Jacobi by pairs (past 96 columns on GPUs).
    let n = 100;
    let sym = symmetric(n, 3);
    let (w, v) = linalg::eigh(&upload(&dev, &sym, &[n, n], DType::F32), true).unwrap();
    let (w, v) = (read(&w), read(&v));
    assert!(
        max_diff(&w, &host_eigvals(&sym, n)) < 1e-4 * n as f64,
        "{w:?}"
    );
    assert!(orthonormality(&v, n, n) < 1e-4);
    let (m, k) = (200, 150);
    let t = data(m * k, 5);
    let (u, s, vh) = linalg::svd(&upload(&dev, &t, &[m, k], DType::F32), false).unwrap();
    linalg::force_gpu_paths(false);
    let (u, s, vh) = (read(&u), read(&s), read(&vh));
    assert!(orthonormality(&u, m, k) < 1e-4);
    let mut us = u.clone();
    for i in 0..m {
        for j in 0..k {
            us[i * k + j] *= s[j];
        }
    }
    assert!(max_diff(&mm(&us, &vh, m, k, k), &t) < 1e-4);
    assert!(dev.take_uncaptured_errors().is_empty());
}
