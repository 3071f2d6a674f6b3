//! Joining and rearranging against host models written here with plain index loops.

mod common;

use gpuarray::{Array, DType, Error, concatenate, stack};

fn iota(n: usize, shift: i32) -> Vec<i32> {
    (0..n as i32).map(|i| i * 3 + shift).collect()
}

/// Row-major element of a host array.
fn at(data: &[i32], shape: &[usize], idx: &[usize]) -> i32 {
    data[idx.iter().zip(shape).fold(0, |acc, (&i, &n)| acc * n + i)]
}

fn unravel(mut flat: usize, shape: &[usize]) -> Vec<usize> {
    let mut idx = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        idx[d] = flat % shape[d];
        flat /= shape[d];
    }
    idx
}

#[test]
fn concatenate_and_stack() {
    let Some(dev) = common::device() else { return };
    let (ha, hb, hc) = (iota(6, 0), iota(4, 100), iota(2, 200));
    let a = Array::from_slice(&dev, &ha, &[2, 3]).unwrap();
    let b = Array::from_slice(&dev, &hb, &[2, 2]).unwrap();
    let c = Array::from_slice(&dev, &hc, &[2, 1]).unwrap();
    let r = concatenate(&[&a, &b, &c], 1).unwrap();
    assert_eq!(r.shape(), &[2, 6]);
    let want: Vec<i32> = (0..12)
        .map(|f| {
            let (i, j) = (f / 6, f % 6);
            if j < 3 {
                ha[i * 3 + j]
            } else if j < 5 {
                hb[i * 2 + j - 3]
            } else {
                hc[i]
            }
        })
        .collect();
    assert_eq!(r.to_vec::<i32>().unwrap(), want);
    // Views as inputs, axis 0, negative axis.
    let t = concatenate(&[&a.t(), &b], -2).unwrap();
    let want: Vec<i32> = (0..3)
        .flat_map(|i| (0..2).map(move |j| (i, j)))
        .map(|(i, j)| ha[j * 3 + i])
        .chain(hb.iter().copied())
        .collect();
    assert_eq!(t.to_vec::<i32>().unwrap(), want);
    assert!(matches!(
        concatenate(&[&a, &b], 0),
        Err(Error::Shape { .. })
    ));
    assert!(matches!(
        concatenate(&[&a, &a.astype(DType::F32).unwrap()], 0),
        Err(Error::DTypeMismatch { .. })
    ));
    assert_err!(
        concatenate(&[], 0),
        Error::InvalidArgument {
            op: "concatenate",
            ..
        },
        "concatenate"
    );
    assert_err!(
        concatenate(&[&Array::full(&dev, &[], 1.0, DType::I32).unwrap()], 0),
        Error::InvalidArgument {
            op: "concatenate",
            ..
        },
        "concatenate"
    );
    // stack
    let s = stack(&[&a, &a], 1).unwrap();
    assert_eq!(s.shape(), &[2, 2, 3]);
    let got = s.to_vec::<i32>().unwrap();
    for (f, &g) in got.iter().enumerate() {
        let idx = unravel(f, &[2, 2, 3]);
        assert_eq!(g, at(&ha, &[2, 3], &[idx[0], idx[2]]));
    }
    let s = stack(&[&a, &a.neg().unwrap()], -1).unwrap();
    assert_eq!(s.shape(), &[2, 3, 2]);
    let want: Vec<i32> = ha.iter().flat_map(|&v| [v, -v]).collect();
    assert_eq!(s.to_vec::<i32>().unwrap(), want, "stack axis -1");
    assert_err!(
        stack(&[&a, &b], 0),
        Error::Shape { op: "stack", .. },
        "stack"
    );
}

#[test]
fn split_flip_roll() {
    let Some(dev) = common::device() else { return };
    let h = iota(12, 1);
    let a = Array::from_slice(&dev, &h, &[3, 4]).unwrap();
    let parts = a.split(2, 1).unwrap();
    assert_eq!(parts.len(), 2);
    assert_eq!(
        parts[1].to_vec::<i32>().unwrap(),
        vec![h[2], h[3], h[6], h[7], h[10], h[11]]
    );
    assert_err!(
        a.split(3, 1),
        Error::InvalidArgument { op: "split", .. },
        "split"
    );
    let p = a.split_at(&[1, 10], 0).unwrap();
    assert_eq!(
        (p[0].shape(), p[1].shape(), p[2].shape()),
        (&[1usize, 4][..], &[2usize, 4][..], &[0usize, 4][..])
    );
    assert_eq!(p[0].to_vec::<i32>().unwrap(), h[..4]);
    assert_eq!(p[1].to_vec::<i32>().unwrap(), h[4..]);
    assert!(p[2].to_vec::<i32>().unwrap().is_empty());
    assert_eq!(
        parts[0].to_vec::<i32>().unwrap(),
        [h[0], h[1], h[4], h[5], h[8], h[9]]
    );
    let f = a.flip(Some(1)).unwrap().to_vec::<i32>().unwrap();
    assert_eq!(
        f,
        (0..12)
            .map(|x| h[(x / 4) * 4 + 3 - x % 4])
            .collect::<Vec<_>>()
    );
    let f = a.flip(None).unwrap().to_vec::<i32>().unwrap();
    assert_eq!(f, h.iter().rev().copied().collect::<Vec<_>>());
    for shift in [-5isize, -1, 0, 1, 3, 13] {
        let r = a.roll(shift, Some(1)).unwrap().to_vec::<i32>().unwrap();
        let want: Vec<i32> = (0..12)
            .map(|x| h[(x / 4) * 4 + ((x % 4) as isize - shift).rem_euclid(4) as usize])
            .collect();
        assert_eq!(r, want, "roll {shift} axis 1");
        let r = a.roll(shift, None).unwrap().to_vec::<i32>().unwrap();
        let want: Vec<i32> = (0..12)
            .map(|x| h[(x as isize - shift).rem_euclid(12) as usize])
            .collect();
        assert_eq!(r, want, "roll {shift} flat");
    }
}

#[test]
fn tile_repeat_pad() {
    let Some(dev) = common::device() else { return };
    let h = iota(6, -4);
    let a = Array::from_slice(&dev, &h, &[2, 3]).unwrap();
    let t = a.tile(&[2, 1, 2]).unwrap();
    assert_eq!(t.shape(), &[2, 2, 6]);
    for (f, &g) in t.to_vec::<i32>().unwrap().iter().enumerate() {
        let idx = unravel(f, &[2, 2, 6]);
        assert_eq!(g, at(&h, &[2, 3], &[idx[1] % 2, idx[2] % 3]));
    }
    let r = a.repeat(2, Some(1)).unwrap();
    assert_eq!(r.shape(), &[2, 6]);
    assert_eq!(
        r.to_vec::<i32>().unwrap(),
        (0..12)
            .map(|f| h[(f / 6) * 3 + (f % 6) / 2])
            .collect::<Vec<_>>()
    );
    assert_eq!(
        a.repeat(3, None).unwrap().to_vec::<i32>().unwrap(),
        h.iter().flat_map(|&v| [v, v, v]).collect::<Vec<_>>()
    );
    let p = a.pad(&[(1, 0), (2, 1)], 9.0).unwrap();
    assert_eq!(p.shape(), &[3, 6]);
    let got = p.to_vec::<i32>().unwrap();
    for (f, &g) in got.iter().enumerate() {
        let (i, j) = (f / 6, f % 6);
        let want = if i >= 1 && (2..5).contains(&j) {
            h[(i - 1) * 3 + j - 2]
        } else {
            9
        };
        assert_eq!(g, want, "pad [{i}, {j}]");
    }
    assert_err!(a.pad(&[(1, 1)], 0.0), Error::Shape { op: "pad", .. }, "pad");
}

#[test]
fn take_gathers_along_an_axis() {
    let Some(dev) = common::device() else { return };
    let h = iota(24, 5);
    let a = Array::from_slice(&dev, &h, &[2, 3, 4]).unwrap();
    let idx = Array::from_slice(&dev, &[2i32, -1, 0, 0], &[2, 2]).unwrap();
    let t = a.take(&idx, Some(1)).unwrap();
    assert_eq!(t.shape(), &[2, 2, 2, 4]);
    let picks = [2usize, 2, 0, 0];
    for (f, &g) in t.to_vec::<i32>().unwrap().iter().enumerate() {
        let ix = unravel(f, &[2, 2, 2, 4]);
        assert_eq!(
            g,
            at(&h, &[2, 3, 4], &[ix[0], picks[ix[1] * 2 + ix[2]], ix[3]])
        );
    }
    let u = Array::from_slice(&dev, &[23u32, 0, 7], &[3]).unwrap();
    assert_eq!(
        a.take(&u, None).unwrap().to_vec::<i32>().unwrap(),
        vec![h[23], h[0], h[7]]
    );
    let f = a.astype(DType::F32).unwrap();
    assert_eq!(
        f.take(&u, None).unwrap().to_vec::<f32>().unwrap(),
        vec![h[23] as f32, h[0] as f32, h[7] as f32]
    );
    for bad in [[3i32], [-4]] {
        let i = Array::from_slice(&dev, &bad, &[1]).unwrap();
        assert_err!(
            a.take(&i, Some(1)),
            Error::InvalidArgument { op: "take", .. },
            "take"
        );
    }
    assert_err!(
        a.take(&f, Some(0)),
        Error::InvalidArgument { op: "take", .. },
        "take"
    );
    let empty = Array::from_slice(&dev, &[] as &[i32], &[0]).unwrap();
    assert_eq!(a.take(&empty, Some(2)).unwrap().shape(), &[2, 3, 0]);
}

#[test]
fn joins_beyond_the_binding_limit() {
    let Some(dev) = common::device_with_binding(common::TEST_BINDING) else {
        return;
    };
    // Two halves joined into a sixteenth more than one storage binding (17 MiB with the 16 MiB test binding),
    // then rolled and gathered across the seam.
    let what = "joins_beyond_the_binding_limit";
    let Some(total) = common::past_binding(&dev, 4, 2, what) else {
        return;
    };
    common::assert_crosses_binding(&dev, 4 * total as u64, what);
    let n = total / 2;
    let a = Array::arange(&dev, 0.0, n as f64, 1.0, DType::I32).unwrap();
    let b = Array::full(&dev, &[n], -1.0, DType::I32).unwrap();
    let c = concatenate(&[&a, &b], 0).unwrap();
    let r = c.roll(3, None).unwrap();
    let idx = Array::from_slice(
        &dev,
        &[0i32, 3, n as i32 + 2, n as i32 + 3, 2 * n as i32 - 1],
        &[5],
    )
    .unwrap();
    assert_eq!(
        r.take(&idx, None).unwrap().to_vec::<i32>().unwrap(),
        vec![-1, 0, n as i32 - 1, -1, -1]
    );
    assert_eq!(
        c.take(&idx, None).unwrap().to_vec::<i32>().unwrap(),
        vec![0, 3, -1, -1, -1]
    );
    // Every element of the join and of the roll, not just the probes.
    let cv = c.to_vec::<i32>().unwrap();
    let want = |i: usize| if i < n { i as i32 } else { -1 };
    let bad = (0..2 * n).find(|&i| cv[i] != want(i));
    assert_eq!(bad, None, "first wrong element of the concatenation");
    drop(cv);
    let rv = r.to_vec::<i32>().unwrap();
    let bad = (0..2 * n).find(|&i| rv[i] != want((i + 2 * n - 3) % (2 * n)));
    assert_eq!(bad, None, "first wrong element of the roll");
}

/// NumPy's pad modes on one lane, from their definitions: the edge repeated, the lane repeated,
/// and mirrors applied again and again until the position falls in the lane (reflect mirrors
/// about the edge element, symmetric about the edge itself).
fn pad_lane(lane: &[i32], before: usize, after: usize, mode: &str) -> Vec<i32> {
    let n = lane.len() as i64;
    let source = |mut i: i64| -> i64 {
        match mode {
            "edge" => i.clamp(0, n - 1),
            "wrap" => i.rem_euclid(n),
            _ => {
                let (lo, hi) = if mode == "reflect" {
                    (0.0, (n - 1) as f64)
                } else {
                    (-0.5, n as f64 - 0.5)
                };
                if n == 1 {
                    return 0;
                }
                while !(0..n).contains(&i) {
                    let x = i as f64;
                    i = if x < lo { 2.0 * lo - x } else { 2.0 * hi - x } as i64;
                }
                i
            }
        }
    };
    (-(before as i64)..n + after as i64)
        .map(|i| lane[source(i) as usize])
        .collect()
}

#[test]
fn pad_modes_match_their_definitions() {
    use gpuarray::PadMode;
    let Some(dev) = common::device() else { return };
    let shape = [3usize, 4];
    let data = iota(12, -5);
    let a = Array::from_slice(&dev, &data, &shape).unwrap();
    for (name, mode) in [
        ("edge", PadMode::Edge),
        ("wrap", PadMode::Wrap),
        ("reflect", PadMode::Reflect { odd: false }),
        ("symmetric", PadMode::Symmetric { odd: false }),
    ] {
        // Widths past the axis length: the reflections repeat.
        for (b, f) in [(0, 0), (1, 2), (5, 9)] {
            let got = a.pad_axis(1, b, f, mode).unwrap();
            assert_eq!(got.shape(), &[3, 4 + b + f]);
            let want: Vec<i32> = (0..3)
                .flat_map(|r| pad_lane(&data[r * 4..r * 4 + 4], b, f, name))
                .collect();
            assert_eq!(got.to_vec::<i32>().unwrap(), want, "{name} ({b}, {f})");
        }
        // Both axes: the second pads the first's result (corners from the padded rows).
        let both = a.pad_with(&[(2, 1), (1, 3)], mode).unwrap();
        let rows: Vec<Vec<i32>> = (0..4)
            .map(|c| {
                pad_lane(
                    &(0..3).map(|r| data[r * 4 + c]).collect::<Vec<_>>(),
                    2,
                    1,
                    name,
                )
            })
            .collect();
        let want: Vec<i32> = (0..6)
            .flat_map(|r| pad_lane(&(0..4).map(|c| rows[c][r]).collect::<Vec<_>>(), 1, 3, name))
            .collect();
        assert_eq!(both.to_vec::<i32>().unwrap(), want, "{name} on both axes");
    }
    // Odd reflections: 2·edge − mirrored value.
    let lane: Vec<i32> = data[..4].to_vec();
    let odd = a
        .slice(&[gpuarray::SliceArg::Index(0)])
        .unwrap()
        .pad_axis(0, 2, 1, PadMode::Reflect { odd: true })
        .unwrap();
    let even = pad_lane(&lane, 2, 1, "reflect");
    let want: Vec<i32> = even
        .iter()
        .enumerate()
        .map(|(i, &v)| match i {
            0 | 1 => 2 * lane[0] - v,
            6 => 2 * lane[3] - v,
            _ => v,
        })
        .collect();
    assert_eq!(odd.to_vec::<i32>().unwrap(), want);
    // Odd reflections past one period (NumPy's rounds): in exact arithmetic the border is the
    // lane's odd extension, periodic with period P plus a drift of D per period (P = 2(n − 1)
    // and 2n for reflect and symmetric, D = 2·(last − first)).
    for (name, symmetric) in [("reflect", false), ("symmetric", true)] {
        for (n, b, f) in [
            (4usize, 5usize, 9usize),
            (4, 0, 11),
            (4, 13, 0),
            (2, 6, 5),
            (3, 7, 7),
        ] {
            let lane: Vec<i32> = [4, -3, 9, 2][..n].to_vec();
            let (first, last) = (lane[0] as i64, lane[n - 1] as i64);
            let period = if symmetric {
                2 * n as i64
            } else {
                2 * (n as i64 - 1)
            };
            let drift = 2 * (last - first);
            let value = |i: i64| -> i32 {
                let (q, r) = (i.div_euclid(period), i.rem_euclid(period));
                let base = if r < n as i64 {
                    lane[r as usize] as i64
                } else if symmetric {
                    2 * last - lane[(period - 1 - r) as usize] as i64
                } else {
                    2 * last - lane[(period - r) as usize] as i64
                };
                (base + q * drift) as i32
            };
            let want: Vec<i32> = (-(b as i64)..(n + f) as i64).map(value).collect();
            let mode = if symmetric {
                PadMode::Symmetric { odd: true }
            } else {
                PadMode::Reflect { odd: true }
            };
            let x = Array::from_slice(&dev, &lane, &[1, n]).unwrap();
            let got = x.pad_axis(1, b, f, mode).unwrap();
            assert_eq!(got.shape(), &[1, n + b + f]);
            assert_eq!(
                got.to_vec::<i32>().unwrap(),
                want,
                "{name} odd, n {n}, ({b}, {f})"
            );
        }
    }
    // Statistics of stat_length elements at each end; a ramp to the edge; constants per end.
    let row = Array::from_slice(&dev, &[4i32, 9, 1, 6, 2], &[5]).unwrap();
    let p = |m| row.pad_axis(0, 2, 1, m).unwrap().to_vec::<i32>().unwrap();
    assert_eq!(
        p(PadMode::Maximum(Some(2), Some(3))),
        vec![9, 9, 4, 9, 1, 6, 2, 6]
    );
    assert_eq!(
        p(PadMode::Minimum(None, Some(1))),
        vec![1, 1, 4, 9, 1, 6, 2, 2]
    );
    // Means rounded half to even: (4 + 9) / 2 = 6.5 -> 6; (6 + 2) / 2 = 4.
    assert_eq!(
        p(PadMode::Mean(Some(2), Some(2))),
        vec![6, 6, 4, 9, 1, 6, 2, 4]
    );
    assert_eq!(
        p(PadMode::Median(Some(3), None)),
        vec![4, 4, 4, 9, 1, 6, 2, 4]
    );
    // linspace(10, 4, 2, endpoint=False) = [10, 7]; after: linspace(-1, 2, 1) reversed = [-1].
    assert_eq!(
        p(PadMode::LinearRamp(10.0, -1.0)),
        vec![10, 7, 4, 9, 1, 6, 2, -1]
    );
    assert_eq!(
        p(PadMode::Constant(-3.0, 8.0)),
        vec![-3, -3, 4, 9, 1, 6, 2, 8]
    );
    // An empty axis cannot be extended but by constant/empty; stat_length 0 has no maximum.
    let empty = Array::zeros(&dev, &[0, 2], DType::F32).unwrap();
    assert!(matches!(
        empty.pad_axis(0, 1, 1, PadMode::Edge),
        Err(Error::InvalidArgument { .. })
    ));
    assert_eq!(
        empty.pad_axis(0, 1, 1, PadMode::Empty).unwrap().shape(),
        &[2, 2]
    );
    assert!(
        row.pad_axis(0, 1, 1, PadMode::Maximum(Some(0), None))
            .is_err()
    );
    assert_eq!(a.to_vec::<i32>().unwrap(), data);
}
