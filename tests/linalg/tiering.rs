//! Small solves above 8 × 8 run the looped kernel until a device has solved enough systems of
//! one shape, then a kernel generated for that shape with every value in a register
//! (`src/linalg/tiny.rs`). The switch must change only the time: the same bits, the same
//! failing matrix. The threshold is lowered on this thread to reach both kernels with small
//! batches.

use crate::common;
use crate::common::host_linalg::*;
use gpuarray::linalg;
use gpuarray::{DType, Error};

#[test]
fn the_generated_small_solve_gives_the_looped_kernels_bits() {
    let Some(dev) = common::device() else { return };
    // Odd sizes below and past 16 with several right-hand sides (32 × 32 compiles for 10–20 s
    // on lavapipe: the unit test in tiny.rs validates its WGSL, examples/linalg.rs runs it).
    for dtype in linalg_dtypes(&dev) {
        for (n, m, batch) in [(11, 5, 40), (17, 3, 33)] {
            let mut a = Vec::new();
            for k in 0..batch {
                a.extend(well_conditioned(n, (n * 100 + k) as u64));
            }
            let b = data(batch * n * m, n as u64);
            let ga = upload(&dev, &a, &[batch, n, n], dtype);
            let gb = upload(&dev, &b, &[batch, n, m], dtype);
            linalg::tier_small_solves_after(Some(u64::MAX));
            let looped = read(&linalg::solve(&ga, &gb).unwrap());
            linalg::tier_small_solves_after(Some(0));
            let generated = read(&linalg::solve(&ga, &gb).unwrap());
            linalg::tier_small_solves_after(None);
            let differ = looped
                .iter()
                .zip(&generated)
                .filter(|(l, g)| l != g)
                .count();
            assert_eq!(
                differ, 0,
                "{dtype} {n}x{n}, {m} right-hand sides: elements that differ"
            );
            check_backward(&a, &generated, &b, n, m, batch, dtype);
        }
    }
    // A singular matrix (a zero column) in the middle of the batch: the same error from both.
    let (n, batch) = (12, 40);
    let mut a = Vec::new();
    for k in 0..batch {
        let mut one = well_conditioned(n, k as u64);
        if k == 23 {
            for i in 0..n {
                one[i * n + 4] = 0.0;
            }
        }
        a.extend(one);
    }
    let ga = upload(&dev, &a, &[batch, n, n], DType::F32);
    let gb = upload(&dev, &data(batch * n, 9), &[batch, n, 1], DType::F32);
    for after in [u64::MAX, 0] {
        linalg::tier_small_solves_after(Some(after));
        let got = linalg::solve(&ga, &gb);
        linalg::tier_small_solves_after(None);
        match got {
            Err(Error::LinAlg { index, msg, .. }) => {
                assert_eq!(index, Some(23), "threshold {after}");
                assert_eq!(msg, "Singular matrix");
            }
            other => panic!("threshold {after}: expected LinAlg, got {other:?}"),
        }
    }
    assert!(dev.take_uncaptured_errors().is_empty());
}
