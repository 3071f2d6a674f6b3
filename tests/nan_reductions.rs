//! The NaN-aware reductions and the whole-array comparisons against CPU references written here
//! from NumPy's definitions: random data with NaN, ±inf, ±0, all-NaN rows, size-0 and size-1
//! axes, every axis of a 3-d array, f32/f64/f16 and the integers (for which the NaN-aware
//! functions are the plain ones).

mod common;

use common::Indices;

use common::xorshift;

use gpuarray::{Array, Axes, DType, Error};

/// Values in [-8, 8) with about a quarter NaN, a few infinities and zeros of both signs.
fn data(n: usize, seed: u64) -> Vec<f64> {
    let mut next = xorshift(seed);
    (0..n)
        .map(|_| match next() % 16 {
            0..=3 => f64::NAN,
            4 => f64::INFINITY,
            5 => -0.0,
            _ => ((next() % 1024) as f64 - 512.0) / 64.0,
        })
        .collect()
}

/// Reduces `x` of `shape` along `axis` (None: everything) with `f` over each lane's values.
fn lanes(x: &[f64], shape: &[usize], axis: Option<usize>, f: impl Fn(&[f64]) -> f64) -> Vec<f64> {
    let Some(axis) = axis else { return vec![f(x)] };
    let outer: usize = shape[..axis].iter().product();
    let n = shape[axis];
    let inner: usize = shape[axis + 1..].iter().product();
    let mut out = Vec::new();
    for o in 0..outer {
        for i in 0..inner {
            let lane: Vec<f64> = (0..n).map(|k| x[(o * n + k) * inner + i]).collect();
            out.push(f(&lane));
        }
    }
    out
}

fn non_nan(v: &[f64]) -> Vec<f64> {
    v.iter().copied().filter(|x| !x.is_nan()).collect()
}

fn nanmean(v: &[f64]) -> f64 {
    let k = non_nan(v);
    k.iter().sum::<f64>() / k.len() as f64
}

fn nanvar(v: &[f64], ddof: usize) -> f64 {
    let k = non_nan(v);
    let m = nanmean(v);
    let dof = k.len() as f64 - ddof as f64;
    if dof <= 0.0 {
        return f64::NAN;
    }
    k.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / dof
}

fn close(got: f64, want: f64, tol: f64) -> bool {
    (got.is_nan() && want.is_nan())
        || got == want
        || (got - want).abs() <= tol * want.abs().max(1.0)
}

#[test]
fn nan_reductions_match_numpys_definitions_on_every_axis() {
    let Some(dev) = common::device() else { return };
    let shape = [3usize, 5, 4];
    let mut x = data(60, 7);
    // Lanes of NaNs only along the last axis (row 0) and along the middle one (column 2 of
    // block 1), so every axis sees all-NaN slices.
    for v in &mut x[0..4] {
        *v = f64::NAN;
    }
    for k in 0..5 {
        x[20 + k * 4 + 2] = f64::NAN;
    }
    let dtypes = [DType::F32, DType::F64, DType::F16];
    for dtype in dtypes {
        if !common::supports(&dev, dtype, &format!("{dtype:?}")) {
            continue;
        }
        // The reference sees the values the device holds (f16/f32 rounding).
        let a = Array::from_slice(&dev, &x, &shape)
            .unwrap()
            .astype(dtype)
            .unwrap();
        let held = a.astype(DType::F64).unwrap_or(a.clone());
        let xs: Vec<f64> = if held.dtype() == DType::F64 {
            held.to_vec::<f64>().unwrap()
        } else {
            held.to_vec::<f32>()
                .unwrap()
                .into_iter()
                .map(f64::from)
                .collect()
        };
        let tol = match dtype {
            DType::F16 => 2e-3,
            DType::F32 => 1e-6,
            _ => 1e-12,
        };
        let read = |r: Array| -> Vec<f64> {
            let r = r.astype(DType::F64).unwrap_or(r);
            if r.dtype() == DType::F64 {
                r.to_vec::<f64>().unwrap()
            } else {
                r.astype(DType::F32)
                    .unwrap()
                    .to_vec::<f32>()
                    .unwrap()
                    .into_iter()
                    .map(f64::from)
                    .collect()
            }
        };
        for axis in [None, Some(0usize), Some(1), Some(2)] {
            let ax: Axes = axis.map_or(Axes::All, |a| Axes::from(a as isize));
            let rows: [(&str, Array, Vec<f64>); 8] = [
                (
                    "nansum",
                    a.nansum(ax.clone(), false).unwrap(),
                    lanes(&xs, &shape, axis, |v| non_nan(v).iter().sum()),
                ),
                (
                    "nanprod",
                    a.nanprod(ax.clone(), false).unwrap(),
                    lanes(&xs, &shape, axis, |v| {
                        non_nan(v).iter().map(|x| x / 4.0).product::<f64>()
                    }),
                ),
                (
                    "nanmax",
                    a.nanmax(ax.clone(), false).unwrap(),
                    lanes(&xs, &shape, axis, |v| {
                        non_nan(v).into_iter().reduce(f64::max).unwrap_or(f64::NAN)
                    }),
                ),
                (
                    "nanmin",
                    a.nanmin(ax.clone(), false).unwrap(),
                    lanes(&xs, &shape, axis, |v| {
                        non_nan(v).into_iter().reduce(f64::min).unwrap_or(f64::NAN)
                    }),
                ),
                (
                    "nanmean",
                    a.nanmean(ax.clone(), false).unwrap(),
                    lanes(&xs, &shape, axis, nanmean),
                ),
                (
                    "nanvar",
                    a.nanvar(ax.clone(), 0, false).unwrap(),
                    lanes(&xs, &shape, axis, |v| nanvar(v, 0)),
                ),
                (
                    "nanvar ddof=1",
                    a.nanvar(ax.clone(), 1, false).unwrap(),
                    lanes(&xs, &shape, axis, |v| nanvar(v, 1)),
                ),
                (
                    "nanstd",
                    a.nanstd(ax.clone(), 0, false).unwrap(),
                    lanes(&xs, &shape, axis, |v| nanvar(v, 0).sqrt()),
                ),
            ];
            for (name, got, want) in rows {
                // nanprod's reference divides by 4 per element to stay finite: scale it back.
                let got = if name == "nanprod" {
                    let counts = lanes(&xs, &shape, axis, |v| non_nan(v).len() as f64);
                    read(got)
                        .into_iter()
                        .zip(counts)
                        .map(|(g, c)| g / 4f64.powf(c))
                        .collect()
                } else {
                    read(got)
                };
                assert_eq!(got.len(), want.len(), "{name} {dtype:?} axis {axis:?}");
                for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                    let t = if name.starts_with("nanvar") || name == "nanstd" {
                        tol * 8.0
                    } else {
                        tol
                    };
                    assert!(
                        close(*g, *w, t),
                        "{name} {dtype:?} axis {axis:?} [{i}]: {g} vs {w}"
                    );
                }
            }
        }
    }
}

#[test]
fn nanargmax_errs_on_all_nan_slices_and_matches_numpy_elsewhere() {
    let Some(dev) = common::device() else { return };
    let x = [
        1.0f32,
        f32::NAN,
        7.0,
        -2.0,
        f32::NAN,
        f32::NAN,
        3.0,
        3.0,
        f32::NEG_INFINITY,
    ];
    let a = Array::from_slice(&dev, &x, &[3, 3]).unwrap();
    // Along axis 1, row 1 is [-2, NaN, NaN]: fine; along axis 0, column 1 is [NaN, NaN, 3].
    assert_eq!(
        a.nanargmax(Some(1), false).unwrap().indices(),
        vec![2, 0, 0]
    );
    assert_eq!(
        a.nanargmin(Some(1), false).unwrap().indices(),
        vec![0, 0, 2]
    );
    assert_eq!(
        a.nanargmax(Some(0), false).unwrap().indices(),
        vec![2, 2, 0]
    );
    assert_eq!(common::idx(&a.nanargmax(None, false).unwrap())[0], 2);
    // NumPy's tie of NaN with -inf: [NaN, -inf] gives 0 (NaN is replaced by -inf first).
    let tie = Array::from_slice(&dev, &[f32::NAN, f32::NEG_INFINITY], &[2]).unwrap();
    assert_eq!(common::idx(&tie.nanargmax(None, false).unwrap())[0], 0);
    let all_nan = Array::from_slice(&dev, &[f32::NAN, f32::NAN, 1.0, 2.0], &[2, 2]).unwrap();
    for (name, r) in [
        ("nanargmax", all_nan.nanargmax(Some(1), false)),
        ("nanargmin", all_nan.nanargmin(Some(1), false)),
        ("nanargmax", all_nan.nanargmax(Some(1), true)),
    ] {
        match r {
            Err(Error::InvalidArgument { op, msg }) => {
                assert_eq!(op, name);
                assert!(msg.contains("All-NaN slice"), "{msg}");
            }
            other => panic!("{name}: want Err(InvalidArgument), got {other:?}"),
        }
    }
    // Along axis 0 the same array has no all-NaN column.
    assert_eq!(
        all_nan.nanargmax(Some(0), false).unwrap().indices(),
        vec![1, 1]
    );
    // Bad axes name the NaN-aware op.
    for r in [
        a.nanargmax(Some(2), false),
        a.nansum(3, false),
        a.nanvar(-3, 0, false),
    ] {
        assert!(
            matches!(r, Err(Error::Axis { op, .. }) if op.starts_with("nan")),
            "{r:?}"
        );
    }
}

#[test]
fn nan_functions_of_integers_are_the_plain_ones_and_nancumsum_skips_nan() {
    let Some(dev) = common::device() else { return };
    let i = Array::from_slice(&dev, &[3i32, -1, 4, 1, -5, 9], &[2, 3]).unwrap();
    assert_eq!(
        i.nansum(1, false).unwrap().to_vec::<i32>().unwrap(),
        vec![6, 5]
    );
    assert_eq!(
        i.nanmax(0, false).unwrap().to_vec::<i32>().unwrap(),
        vec![3, -1, 9]
    );
    assert_eq!(common::idx(&i.nanargmin(None, false).unwrap())[0], 4);
    let x = [1.0f32, f32::NAN, 2.0, f32::NAN, f32::NAN, 5.0];
    let a = Array::from_slice(&dev, &x, &[2, 3]).unwrap();
    assert_eq!(
        a.nancumsum(Some(1)).unwrap().to_vec::<f32>().unwrap(),
        vec![1.0, 1.0, 3.0, 0.0, 0.0, 5.0]
    );
    assert_eq!(
        a.nancumsum(None).unwrap().to_vec::<f32>().unwrap(),
        vec![1.0, 1.0, 3.0, 3.0, 3.0, 8.0]
    );
    // Size-0 lanes: nansum 0, nanmean NaN; a size-1 axis is the values themselves (NaN → 0/NaN).
    let empty = Array::zeros(&dev, &[2, 0], DType::F32).unwrap();
    assert_eq!(
        empty.nansum(1, false).unwrap().to_vec::<f32>().unwrap(),
        vec![0.0, 0.0]
    );
    assert!(
        empty
            .nanmean(1, false)
            .unwrap()
            .to_vec::<f32>()
            .unwrap()
            .iter()
            .all(|v| v.is_nan())
    );
    let col = Array::from_slice(&dev, &[f32::NAN, 2.0], &[2, 1]).unwrap();
    assert_eq!(
        col.nansum(1, true).unwrap().to_vec::<f32>().unwrap(),
        vec![0.0, 2.0]
    );
    assert_eq!(col.nansum(1, true).unwrap().shape(), &[2, 1]);
}

#[test]
fn isclose_allclose_and_array_equal_follow_numpy() {
    let Some(dev) = common::device() else { return };
    let inf = f32::INFINITY;
    let a = [1.0f32, 1e10, 1e-9, f32::NAN, inf, inf, -inf, 0.0, 100.0];
    let b = [
        1.000001f32,
        1.00001e10,
        0.0,
        f32::NAN,
        inf,
        -inf,
        -inf,
        -0.0,
        100.002,
    ];
    let x = Array::from_slice(&dev, &a, &[a.len()]).unwrap();
    let y = Array::from_slice(&dev, &b, &[b.len()]).unwrap();
    let reference = |equal_nan: bool| -> Vec<bool> {
        a.iter()
            .zip(&b)
            .map(|(&p, &q)| {
                let (p, q) = (p as f64, q as f64);
                (p == q)
                    || ((p - q).abs() <= 1e-8 + 1e-5 * q.abs() && q.is_finite())
                    || (equal_nan && p.is_nan() && q.is_nan())
            })
            .collect()
    };
    assert_eq!(
        x.isclose(&y, 1e-5, 1e-8, false)
            .unwrap()
            .to_vec_bool()
            .unwrap(),
        reference(false)
    );
    assert_eq!(
        x.isclose(&y, 1e-5, 1e-8, true)
            .unwrap()
            .to_vec_bool()
            .unwrap(),
        reference(true)
    );
    assert_eq!(
        x.allclose(&y, 1e-5, 1e-8, true)
            .unwrap()
            .to_vec_bool()
            .unwrap(),
        vec![false]
    );
    let y5 = Array::from_slice(&dev, &b[..5], &[5]).unwrap();
    let near = y5.add(1e-9).unwrap();
    assert_eq!(
        y5.allclose(&near, 1e-5, 1e-8, true)
            .unwrap()
            .to_vec_bool()
            .unwrap(),
        vec![true]
    );
    assert_eq!(
        y5.allclose(&near, 1e-5, 1e-8, false)
            .unwrap()
            .to_vec_bool()
            .unwrap(),
        vec![false]
    );
    // Broadcasting, and integers compared as floats.
    let i = Array::from_slice(&dev, &[1i32, 2, 3], &[3]).unwrap();
    let f = Array::from_slice(&dev, &[1.0f32, 2.0, 3.0000001, 1.0, 2.0, 3.5], &[2, 3]).unwrap();
    assert_eq!(
        f.isclose(&i, 1e-5, 1e-8, false)
            .unwrap()
            .to_vec_bool()
            .unwrap(),
        vec![true, true, true, true, true, false]
    );
    assert!(matches!(
        i.isclose(
            &Array::zeros(&dev, &[2], DType::F32).unwrap(),
            1e-5,
            1e-8,
            false
        ),
        Err(Error::Shape { op: "isclose", .. })
    ));
    // array_equal: shapes must match (a mismatch is false, not an error); array_equiv broadcasts.
    let row = Array::from_slice(&dev, &[1i32, 2, 3], &[1, 3]).unwrap();
    assert_eq!(
        i.array_equal(&i, false).unwrap().to_vec_bool().unwrap(),
        vec![true]
    );
    assert_eq!(
        i.array_equal(&row, false).unwrap().to_vec_bool().unwrap(),
        vec![false]
    );
    assert_eq!(
        i.array_equiv(&row).unwrap().to_vec_bool().unwrap(),
        vec![true]
    );
    assert_eq!(
        i.array_equiv(&f).unwrap().to_vec_bool().unwrap(),
        vec![false]
    );
    assert_eq!(
        i.array_equiv(&Array::zeros(&dev, &[2], DType::I32).unwrap())
            .unwrap()
            .to_vec_bool()
            .unwrap(),
        vec![false]
    );
    let n = Array::from_slice(&dev, &[f32::NAN, 1.0], &[2]).unwrap();
    assert_eq!(
        n.array_equal(&n, false).unwrap().to_vec_bool().unwrap(),
        vec![false]
    );
    assert_eq!(
        n.array_equal(&n, true).unwrap().to_vec_bool().unwrap(),
        vec![true]
    );
}

/// nansum and nanprod read NaN as 0 or 1 inside the reduction kernels: every kernel shape they
/// take (a long 1-d array through two stages, rows of the rows kernel, columns of the columns
/// kernel, f16 rows of the f16x8 kernel, f64), against sums here; an all-NaN row sums to +0.0
/// (NumPy's replaced zeros, not the sum's -0.0 identity) and inf + -inf past NaNs stays NaN.
#[test]
fn fused_nansum_and_nanprod_on_every_reduction_kernel() {
    let Some(dev) = common::device() else { return };
    let finite = |v: f64| if v.is_infinite() { 1.0 } else { v };
    let x: Vec<f64> = data(1_000_003, 77).into_iter().map(finite).collect();
    let want: f64 = x.iter().filter(|v| !v.is_nan()).sum();
    for dtype in [DType::F32, DType::F64] {
        let a = Array::from_slice(&dev, &x, &[x.len()])
            .unwrap()
            .astype(dtype)
            .unwrap();
        let got = common::read(&a.nansum(Axes::All, false).unwrap())[0];
        assert!(close(got, want, 1e-4), "{dtype:?} 1-d: {got} vs {want}");
    }
    let (r, c) = (250usize, 4000usize);
    let m = Array::from_slice(&dev, &x[..r * c], &[r, c])
        .unwrap()
        .astype(DType::F32)
        .unwrap();
    let rows = common::read(&m.nansum(1, false).unwrap());
    let cols = common::read(&m.nansum(0, false).unwrap());
    for i in 0..r {
        let w: f64 = x[i * c..(i + 1) * c].iter().filter(|v| !v.is_nan()).sum();
        assert!(close(rows[i], w, 1e-4), "row {i}: {} vs {w}", rows[i]);
    }
    for j in 0..c {
        let w: f64 = (0..r).map(|i| x[i * c + j]).filter(|v| !v.is_nan()).sum();
        assert!(close(cols[j], w, 1e-4), "column {j}: {} vs {w}", cols[j]);
    }
    if dev.supports(DType::F16) {
        let h = m.astype(DType::F16).unwrap();
        let held = common::read(&h);
        let hr = common::read(&h.nansum(1, false).unwrap());
        for i in 0..r {
            let w: f64 = held[i * c..(i + 1) * c]
                .iter()
                .filter(|v| !v.is_nan())
                .sum();
            assert!(close(hr[i], w, 2e-3), "f16 row {i}: {} vs {w}", hr[i]);
        }
    } else {
        common::skip("f16 rows", "the adapter lacks f16");
    }
    // Products of values near 1, so they stay finite over 4000 terms.
    let near: Vec<f64> = x[..r * c]
        .iter()
        .map(|&v| if v.is_nan() { v } else { 1.0 + v / 4096.0 })
        .collect();
    let p = Array::from_slice(&dev, &near, &[r, c]).unwrap();
    let pr = p.nanprod(1, false).unwrap().to_vec::<f64>().unwrap();
    for i in 0..r {
        let w: f64 = near[i * c..(i + 1) * c]
            .iter()
            .filter(|v| !v.is_nan())
            .product();
        assert!(close(pr[i], w, 1e-9), "nanprod row {i}: {} vs {w}", pr[i]);
    }
    // An all-NaN row: +0.0 and 1; inf and -inf between NaNs: NaN.
    let special = Array::from_slice(
        &dev,
        &[
            f32::NAN,
            f32::NAN,
            f32::NAN,
            f32::INFINITY,
            f32::NAN,
            f32::NEG_INFINITY,
        ],
        &[2, 3],
    )
    .unwrap();
    let s = special.nansum(1, false).unwrap().to_vec::<f32>().unwrap();
    assert!(
        s[0] == 0.0 && s[0].is_sign_positive(),
        "all-NaN row sums to {}",
        s[0]
    );
    assert!(s[1].is_nan());
    assert_eq!(
        special.nanprod(1, false).unwrap().to_vec::<f32>().unwrap()[0],
        1.0
    );
}

/// NumPy's `where=` and `initial=` (`Array::reduce_where`) against host loops over the selected
/// elements of every lane: a full mask and one broadcast from the last axis, every axis, i32
/// (exact) and f32 means (NaN where nothing is selected).
#[test]
fn where_and_initial_select_and_seed_every_reduction() {
    use gpuarray::Reduction;
    let Some(dev) = common::device() else { return };
    let shape = [3usize, 4, 5];
    let n: usize = shape.iter().product();
    let mut next = xorshift(17);
    let vals: Vec<i32> = (0..n).map(|_| (next() % 7) as i32 - 3).collect();
    let full: Vec<bool> = (0..n).map(|_| !next().is_multiple_of(3)).collect();
    let last: Vec<bool> = vec![true, false, true, true, false];
    let a = Array::from_slice(&dev, &vals, &shape).unwrap();
    let positions: Vec<f64> = (0..n).map(|i| i as f64).collect();
    for (mask_host, mask_shape) in [(full.clone(), &shape[..]), (last.clone(), &shape[2..])] {
        let m = Array::from_bools(&dev, &mask_host, mask_shape).unwrap();
        let picked = |i: usize| mask_host[if mask_shape.len() == 3 { i } else { i % 5 }];
        for axis in [None, Some(0usize), Some(1), Some(2)] {
            let ax: Axes = axis.map_or(Axes::All, |d| Axes::from(d as isize));
            let host = |f: &dyn Fn(Vec<i32>) -> f64| {
                lanes(&positions, &shape, axis, |lane| {
                    f(lane
                        .iter()
                        .map(|&p| p as usize)
                        .filter(|&i| picked(i))
                        .map(|i| vals[i])
                        .collect())
                })
            };
            let run = |op, init| {
                a.reduce_where(op, ax.clone(), false, Some(&m), init)
                    .unwrap()
                    .astype(DType::F64)
                    .unwrap()
                    .to_vec::<f64>()
                    .unwrap()
            };
            let sum = host(&|v| 7.0 + v.iter().sum::<i32>() as f64);
            assert_eq!(run(Reduction::Sum, Some(7.0)), sum, "sum {axis:?}");
            let prod = host(&|v| 2.0 * v.iter().map(|&x| x as f64).product::<f64>());
            assert_eq!(run(Reduction::Prod, Some(2.0)), prod, "prod {axis:?}");
            let max = host(&|v| v.iter().fold(2.0f64, |m, &x| m.max(x as f64)));
            assert_eq!(run(Reduction::Max, Some(2.0)), max, "max {axis:?}");
            let min = host(&|v| v.iter().fold(-2.0f64, |m, &x| m.min(x as f64)));
            assert_eq!(run(Reduction::Min, Some(-2.0)), min, "min {axis:?}");
            let any = host(&|v| v.iter().any(|&x| x != 0) as u8 as f64);
            assert_eq!(run(Reduction::Any, None), any, "any {axis:?}");
            let all = host(&|v| v.iter().all(|&x| x != 0) as u8 as f64);
            assert_eq!(run(Reduction::All, None), all, "all {axis:?}");
            let mean = host(&|v| v.iter().sum::<i32>() as f64 / v.len() as f64);
            let got = run(Reduction::Mean, None);
            assert!(
                got.iter()
                    .zip(&mean)
                    .all(|(g, w)| (g.is_nan() && w.is_nan()) || (g - w).abs() < 1e-12),
                "mean {axis:?}: {got:?} vs {mean:?}"
            );
        }
    }
    // keepdims, no mask (initial only), and the refusals NumPy makes.
    let s = a
        .reduce_where(Reduction::Sum, 2, true, None, Some(100.0))
        .unwrap();
    assert_eq!(s.shape(), &[3, 4, 1]);
    let want: Vec<i32> = (0..12)
        .map(|r| 100 + vals[r * 5..r * 5 + 5].iter().sum::<i32>())
        .collect();
    assert_eq!(s.to_vec::<i32>().unwrap(), want);
    let m = Array::from_bools(&dev, &full, &shape).unwrap();
    let e = a
        .reduce_where(Reduction::Max, Axes::All, false, Some(&m), None)
        .unwrap_err();
    assert!(e.to_string().contains("initial"), "{e}");
    assert!(matches!(
        a.reduce_where(Reduction::Mean, 0, false, None, Some(1.0)),
        Err(Error::InvalidArgument { .. })
    ));
    let bad = Array::from_bools(&dev, &[true, false], &[2]).unwrap();
    let e = a
        .reduce_where(Reduction::Sum, 0, false, Some(&bad), None)
        .unwrap_err();
    assert!(e.to_string().contains("[2]"), "{e}");
    // An empty max with initial is the initial value.
    let empty = Array::zeros(&dev, &[0, 3], DType::F32).unwrap();
    let r = empty
        .reduce_where(Reduction::Max, 0, false, None, Some(-2.5))
        .unwrap();
    assert_eq!(r.to_vec::<f32>().unwrap(), vec![-2.5; 3]);
    assert_eq!(a.to_vec::<i32>().unwrap(), vals);
}
