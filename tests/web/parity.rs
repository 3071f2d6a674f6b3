//! NumPy parity in the browser: `where=`/`initial=` reductions, `np.pad`'s modes, and
//! `nonzero`/`argwhere` (the `_async` forms), each against a host loop written out here.

use super::{check_clean, device};
use gpuarray::{Array, Axes, PadMode, Reduction};
use wasm_bindgen_test::*;

/// A row's elements, each with its `where=` mask.
type Row = [(f32, bool)];

#[wasm_bindgen_test]
async fn masked_reductions_with_initial_match_host_loops() {
    let dev = device().await;
    let (r, c) = (5usize, 700usize);
    let h: Vec<f32> = (0..r * c).map(|i| ((i * 37) % 23) as f32 - 11.0).collect();
    let keep: Vec<bool> = (0..r * c).map(|i| (i * 11) % 7 < 3).collect();
    let a = Array::from_slice(&dev, &h, &[r, c]).unwrap();
    let m = Array::from_bools(&dev, &keep, &[r, c]).unwrap();
    let rows = |f: &dyn Fn(&Row) -> f32| -> Vec<f32> {
        (0..r)
            .map(|i| {
                let row: Vec<(f32, bool)> = (i * c..(i + 1) * c).map(|t| (h[t], keep[t])).collect();
                f(&row)
            })
            .collect()
    };
    let (a2, m2) = (a.clone(), m.clone());
    let got = move |op, initial| {
        let (a, m) = (a2.clone(), m2.clone());
        async move {
            a.reduce_where(op, 1, false, Some(&m), initial)
                .unwrap()
                .to_vec_async::<f32>()
                .await
                .unwrap()
        }
    };
    // Integers in f32: the sums are exact.
    let sums = rows(&|row| 2.5 + row.iter().filter(|p| p.1).map(|p| p.0).sum::<f32>());
    assert_eq!(got(Reduction::Sum, Some(2.5)).await, sums);
    let maxes = rows(&|row| {
        row.iter()
            .filter(|p| p.1)
            .fold(-100.0f32, |s, p| s.max(p.0))
    });
    assert_eq!(got(Reduction::Max, Some(-100.0)).await, maxes);
    let mins = rows(&|row| row.iter().filter(|p| p.1).fold(3.0f32, |s, p| s.min(p.0)));
    assert_eq!(got(Reduction::Min, Some(3.0)).await, mins);
    let means = rows(&|row| {
        let kept: Vec<f32> = row.iter().filter(|p| p.1).map(|p| p.0).collect();
        kept.iter().sum::<f32>() / kept.len() as f32
    });
    for (g, w) in got(Reduction::Mean, None).await.iter().zip(&means) {
        assert!((g - w).abs() <= 1e-6 * w.abs().max(1.0), "{g} vs {w}");
    }
    // A broadcast mask (one per column) over every element, and any/all of the kept elements.
    let col_keep: Vec<bool> = (0..c).map(|j| j % 3 == 0).collect();
    let cm = Array::from_bools(&dev, &col_keep, &[c]).unwrap();
    let total = a
        .reduce_where(Reduction::Sum, Axes::All, false, Some(&cm), None)
        .unwrap()
        .item_async::<f32>()
        .await
        .unwrap();
    let want: f32 = (0..r * c).filter(|t| col_keep[t % c]).map(|t| h[t]).sum();
    assert_eq!(total, want);
    let pos = a.gt(9.0).unwrap();
    let any = pos
        .reduce_where(Reduction::Any, 1, false, Some(&m), None)
        .unwrap()
        .to_vec_bool_async()
        .await
        .unwrap();
    let want_any: Vec<bool> = (0..r)
        .map(|i| (i * c..(i + 1) * c).any(|t| keep[t] && h[t] > 9.0))
        .collect();
    assert_eq!(any, want_any);
    // Nothing selected: max takes `initial`, NumPy's result for an empty selection.
    let none = Array::from_bools(&dev, &vec![false; r * c], &[r, c]).unwrap();
    let empty_max = a
        .reduce_where(Reduction::Max, 1, false, Some(&none), Some(-7.0))
        .unwrap()
        .to_vec_async::<f32>()
        .await
        .unwrap();
    assert_eq!(empty_max, vec![-7.0; r]);
    // And max with a mask but no initial is NumPy's error.
    assert!(
        a.reduce_where(Reduction::Max, 1, false, Some(&m), None)
            .is_err()
    );
    check_clean(&dev).await;
}

/// NumPy's pad modes on one lane, from their definitions (the mirrors applied until the
/// position falls in the lane; the odd extension's period and drift).
fn pad_lane(lane: &[i32], before: usize, after: usize, mode: &str) -> Vec<i32> {
    let n = lane.len() as i64;
    let (first, last) = (lane[0] as i64, lane[n as usize - 1] as i64);
    let value = |i: i64| -> i64 {
        match mode {
            "edge" => lane[i.clamp(0, n - 1) as usize] as i64,
            "wrap" => lane[i.rem_euclid(n) as usize] as i64,
            "reflect" | "symmetric" => {
                let p = if mode == "reflect" {
                    2 * (n - 1)
                } else {
                    2 * n
                };
                let r = i.rem_euclid(p);
                let r = if r < n {
                    r
                } else {
                    p - r - i64::from(mode == "symmetric")
                };
                lane[r as usize] as i64
            }
            _ => {
                // "reflect-odd": period 2(n − 1), drift 2·(last − first) per period.
                let p = 2 * (n - 1);
                let (q, r) = (i.div_euclid(p), i.rem_euclid(p));
                let base = if r < n {
                    lane[r as usize] as i64
                } else {
                    2 * last - lane[(p - r) as usize] as i64
                };
                base + q * 2 * (last - first)
            }
        }
    };
    (-(before as i64)..n + after as i64)
        .map(|i| value(i) as i32)
        .collect()
}

#[wasm_bindgen_test]
async fn pad_modes_match_their_definitions() {
    let dev = device().await;
    let (rows, n) = (3usize, 5usize);
    let h: Vec<i32> = (0..rows * n).map(|i| ((i * 13) % 17) as i32 - 8).collect();
    let a = Array::from_slice(&dev, &h, &[rows, n]).unwrap();
    for (name, mode) in [
        ("edge", PadMode::Edge),
        ("wrap", PadMode::Wrap),
        ("reflect", PadMode::Reflect { odd: false }),
        ("symmetric", PadMode::Symmetric { odd: false }),
        ("reflect-odd", PadMode::Reflect { odd: true }),
    ] {
        // Widths past the axis length: reflections repeat (odd ones in NumPy's rounds).
        for (b, f) in [(2usize, 1usize), (9, 14)] {
            let got = a
                .pad_with(&[(0, 0), (b, f)], mode)
                .unwrap()
                .to_vec_async::<i32>()
                .await
                .unwrap();
            let want: Vec<i32> = (0..rows)
                .flat_map(|i| pad_lane(&h[i * n..(i + 1) * n], b, f, name))
                .collect();
            assert_eq!(got, want, "{name} ({b}, {f})");
        }
    }
    // Statistics of stat_length elements at each end, a ramp to the edge, constants per end.
    let row = Array::from_slice(&dev, &[4i32, 9, 1, 6, 2], &[5]).unwrap();
    let cases = [
        (
            PadMode::Maximum(Some(2), Some(3)),
            vec![9, 9, 4, 9, 1, 6, 2, 6],
        ),
        (
            PadMode::Minimum(None, Some(1)),
            vec![1, 1, 4, 9, 1, 6, 2, 2],
        ),
        // (4 + 9) / 2 = 6.5 rounds half to even; (6 + 2) / 2 = 4.
        (
            PadMode::Mean(Some(2), Some(2)),
            vec![6, 6, 4, 9, 1, 6, 2, 4],
        ),
        (PadMode::Median(Some(3), None), vec![4, 4, 4, 9, 1, 6, 2, 4]),
        // linspace(10, 4, 2, endpoint=False) = [10, 7]; after: [-1].
        (
            PadMode::LinearRamp(10.0, -1.0),
            vec![10, 7, 4, 9, 1, 6, 2, -1],
        ),
        (PadMode::Constant(-3.0, 8.0), vec![-3, -3, 4, 9, 1, 6, 2, 8]),
    ];
    for (mode, want) in cases {
        let got = row
            .pad_axis(0, 2, 1, mode)
            .unwrap()
            .to_vec_async::<i32>()
            .await
            .unwrap();
        assert_eq!(got, want, "{mode:?}");
    }
    assert_eq!(a.to_vec_async::<i32>().await.unwrap(), h);
    check_clean(&dev).await;
}

#[wasm_bindgen_test]
async fn nonzero_and_argwhere_match_host_loops() {
    let dev = device().await;
    let shape = [4usize, 3, 5];
    let h: Vec<i64> = (0..60).map(|i| ((i * 7) % 5) as i64 - 2).collect();
    let a = Array::from_slice(&dev, &h, &shape).unwrap();
    let coords: Vec<[i64; 3]> = (0..60usize)
        .filter(|&t| h[t] != 0)
        .map(|t| [(t / 15) as i64, (t / 5 % 3) as i64, (t % 5) as i64])
        .collect();
    let nz = a.nonzero_async().await.unwrap();
    assert_eq!(nz.len(), 3);
    for (d, axis) in nz.iter().enumerate() {
        let want: Vec<i64> = coords.iter().map(|c| c[d]).collect();
        assert_eq!(axis.to_vec_async::<i64>().await.unwrap(), want);
    }
    let aw = a.argwhere_async().await.unwrap();
    assert_eq!(aw.shape(), &[coords.len(), 3]);
    let flat: Vec<i64> = coords.iter().flatten().copied().collect();
    assert_eq!(aw.to_vec_async::<i64>().await.unwrap(), flat);
    // uint8 through a strided view (every other column of a transpose).
    let u: Vec<u8> = (0..40).map(|i| ((i * 5) % 3) as u8 * 100).collect();
    let b = Array::from_slice(&dev, &u, &[8, 5]).unwrap().t();
    let view = b
        .slice(&[
            gpuarray::SliceArg::full(),
            gpuarray::SliceArg::range(None, None, 2),
        ])
        .unwrap();
    let want: Vec<i64> = (0..5)
        .flat_map(|i| (0..4).map(move |j| (i, j)))
        .filter(|&(i, j)| u[(2 * j) * 5 + i] != 0)
        .flat_map(|(i, j)| [i as i64, j as i64])
        .collect();
    let got = view
        .argwhere_async()
        .await
        .unwrap()
        .to_vec_async::<i64>()
        .await
        .unwrap();
    assert_eq!(got, want);
    check_clean(&dev).await;
}
