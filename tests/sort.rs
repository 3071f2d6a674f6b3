//! `sort` and `argsort` against a CPU reference written here (a stable sort by NumPy's order:
//! NaN last, -0.0 equal to +0.0): random values with NaN, ±inf, ±0 and many duplicates, every
//! dtype, every axis of a 3-d array, the flattened array, rows shorter and longer than a
//! workgroup block, already sorted, reversed and all-equal input, sizes 0 and 1, views, a
//! 2^24-element array, and arrays past one storage binding (a small-binding device in CI, 2^26
//! f32 on the default one `--ignored`).

mod common;

use common::Indices;

use common::xorshift;

use gpuarray::{Array, DType, Error};
use std::cmp::Ordering;

/// NumPy's sort order for floats: NaN after everything, -0.0 == +0.0.
fn order(a: f64, b: f64) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        _ => a.partial_cmp(&b).unwrap(),
    }
}

/// The stable argsort of each lane of `x` (shape `shape`) along `axis`, and the sorted lanes, in
/// `x`'s layout (the axis kept in place).
fn reference(x: &[f64], shape: &[usize], axis: usize) -> (Vec<f64>, Vec<i32>) {
    let outer: usize = shape[..axis].iter().product();
    let n = shape[axis];
    let inner: usize = shape[axis + 1..].iter().product();
    let mut vals = vec![0.0; x.len()];
    let mut idx = vec![0; x.len()];
    for o in 0..outer {
        for i in 0..inner {
            let at = |k: usize| (o * n + k) * inner + i;
            let mut lane: Vec<usize> = (0..n).collect();
            lane.sort_by(|&a, &b| order(x[at(a)], x[at(b)])); // stable
            for (k, &src) in lane.iter().enumerate() {
                vals[at(k)] = x[at(src)];
                idx[at(k)] = src as i32;
            }
        }
    }
    (vals, idx)
}

/// Values with duplicates (16 distinct finite values), NaN, ±inf and both zeros.
fn data(n: usize, seed: u64) -> Vec<f64> {
    let mut next = xorshift(seed);
    (0..n)
        .map(|_| match next() % 20 {
            0 => f64::NAN,
            1 => f64::INFINITY,
            2 => f64::NEG_INFINITY,
            3 => -0.0,
            4 => 0.0,
            _ => (next() % 16) as f64 - 7.5,
        })
        .collect()
}

fn same(got: &[f64], want: &[f64]) -> bool {
    got.len() == want.len()
        && got.iter().zip(want).all(|(g, w)| {
            (g.is_nan() && w.is_nan()) || (g == w && g.is_sign_negative() == w.is_sign_negative())
        })
}

/// Checks sort and argsort of `a` along every axis and flattened against the reference.
fn check_all_axes(a: &Array, label: &str) {
    let x = common::read(a);
    let shape = a.shape().to_vec();
    for axis in 0..shape.len() {
        let (vals, idx) = reference(&x, &shape, axis);
        let got = a.argsort(Some(axis as isize)).unwrap();
        assert_eq!(got.shape(), &shape[..]);
        assert_eq!(got.indices(), idx, "{label}: argsort axis {axis}");
        let s = a.sort(Some(axis as isize)).unwrap();
        assert_eq!(s.dtype(), a.dtype());
        // Zeros compare equal: the stable order decides which sign comes first, as in NumPy.
        assert!(same(&common::read(&s), &vals), "{label}: sort axis {axis}");
    }
    let (vals, idx) = reference(&x, &[x.len()], 0);
    assert_eq!(
        common::idx(&a.argsort(None).unwrap()),
        idx,
        "{label}: argsort None"
    );
    let flat = a.sort(None).unwrap();
    assert_eq!(flat.shape(), &[x.len()]);
    assert!(same(&common::read(&flat), &vals), "{label}: sort None");
}

#[test]
fn every_dtype_every_axis_against_a_stable_reference() {
    let Some(dev) = common::device() else { return };
    // Axis lengths below, at and above the 512-pair block (and not powers of two).
    for (shape, seed) in [
        (vec![3usize, 7, 5], 1u64),
        (vec![2, 700, 3], 2),
        (vec![1, 1, 1300], 3),
    ] {
        let n: usize = shape.iter().product();
        let x = data(n, seed);
        // The word dtypes; the emulated integers are sorted and searched in integer_dtypes.rs.
        for dtype in DType::WORD {
            if !common::supports(&dev, dtype, &format!("{dtype:?}")) {
                continue;
            }
            let a = Array::from_slice(&dev, &x, &shape).unwrap();
            let a = match dtype {
                // Integers and bools: the finite values, as NumPy's astype would give them.
                DType::I32 | DType::U32 | DType::Bool => {
                    let finite: Vec<f64> = x
                        .iter()
                        .map(|v| {
                            if v.is_finite() {
                                v.abs().floor()
                                    * if dtype == DType::I32 && *v < 0.0 {
                                        -1.0
                                    } else {
                                        1.0
                                    }
                            } else {
                                3.0
                            }
                        })
                        .collect();
                    Array::from_slice(&dev, &finite, &shape)
                        .unwrap()
                        .astype(dtype)
                        .unwrap()
                }
                _ => a.astype(dtype).unwrap(),
            };
            check_all_axes(&a, &format!("{dtype:?} {shape:?}"));
        }
    }
}

#[test]
fn stability_special_inputs_sizes_and_views() {
    let Some(dev) = common::device() else { return };
    // Many duplicates: argsort must keep equal elements in index order.
    let dup: Vec<i32> = (0..5000).map(|i: i32| i * 7919 % 13).collect();
    let a = Array::from_slice(&dev, &dup, &[dup.len()]).unwrap();
    let idx = common::idx(&a.argsort(Some(-1)).unwrap());
    for w in idx.windows(2) {
        let (p, q) = (w[0] as usize, w[1] as usize);
        assert!(
            dup[p] < dup[q] || (dup[p] == dup[q] && p < q),
            "unstable at {p}, {q}"
        );
    }
    // Sorted, reversed, all equal (argsort is the identity there, by stability).
    let up: Vec<f32> = (0..3000).map(|i| i as f32 * 0.5 - 100.0).collect();
    let down: Vec<f32> = up.iter().rev().copied().collect();
    let eq = vec![4.25f32; 3000];
    for (label, v) in [("sorted", &up), ("reversed", &down), ("equal", &eq)] {
        let a = Array::from_slice(&dev, v, &[v.len()]).unwrap();
        let mut want = v.clone();
        want.sort_by(|a, b| a.partial_cmp(b).unwrap());
        assert_eq!(
            a.sort(Some(0)).unwrap().to_vec::<f32>().unwrap(),
            want,
            "{label}"
        );
    }
    let a = Array::from_slice(&dev, &eq, &[eq.len()]).unwrap();
    assert_eq!(
        common::idx(&a.argsort(None).unwrap()),
        (0..3000).collect::<Vec<i32>>()
    );
    // Sizes 0 and 1, and a 0-d array (flattened: one element; along an axis: an error).
    let empty = Array::zeros(&dev, &[3, 0], DType::F32).unwrap();
    assert_eq!(empty.sort(Some(1)).unwrap().shape(), &[3, 0]);
    assert_eq!(empty.argsort(Some(0)).unwrap().shape(), &[3, 0]);
    let one = Array::from_slice(&dev, &[2.5f32, -1.0], &[2, 1]).unwrap();
    assert_eq!(
        one.sort(Some(1)).unwrap().to_vec::<f32>().unwrap(),
        vec![2.5, -1.0]
    );
    assert_eq!(common::idx(&one.argsort(Some(1)).unwrap()), vec![0, 0]);
    let scalar = Array::from_slice(&dev, &[7.0f32], &[]).unwrap();
    assert_eq!(
        scalar.sort(None).unwrap().to_vec::<f32>().unwrap(),
        vec![7.0]
    );
    assert!(matches!(
        scalar.sort(Some(-1)),
        Err(Error::Axis { op: "sort", .. })
    ));
    // Views: a transposed and a reversed array sort as their values say.
    let x = data(60, 9);
    let base = Array::from_slice(&dev, &x, &[6, 10])
        .unwrap()
        .astype(DType::F32)
        .unwrap();
    check_all_axes(&base.transpose(&[1, 0]).unwrap(), "transposed");
    let rev = base
        .slice(&[
            gpuarray::SliceArg::range(None, None, -1),
            gpuarray::SliceArg::full(),
        ])
        .unwrap();
    check_all_axes(&rev, "reversed rows");
    // Bad axes name the op.
    assert!(matches!(
        base.argsort(Some(2)),
        Err(Error::Axis { op: "argsort", .. })
    ));
}

/// 2^24 f32 elements in one row: sixteen stages past the workgroup block.
#[test]
fn sorts_two_to_the_24_elements() {
    let Some(dev) = common::device() else { return };
    let n = 1usize << 24;
    let mut next = xorshift(11);
    let x: Vec<f32> = (0..n).map(|_| ((next() >> 40) as f32) - 8e6).collect();
    let a = Array::from_slice(&dev, &x, &[n]).unwrap();
    let got = a.sort(Some(-1)).unwrap().to_vec::<f32>().unwrap();
    let mut want = x.clone();
    want.sort_by(|a, b| a.partial_cmp(b).unwrap());
    assert!(got == want, "sort of 2^24 f32 differs from the reference");
}

/// Sorting past one storage binding, on a device whose bindings hold 64 KiB (16,320 f32 or
/// 8,160 f64 per window): long rows cut into parts and merged by rank (stability across parts
/// included: 16 distinct values in 50,000), rows in groups, every dtype, every axis and views.
/// The 128 MiB default takes the same path from 2^25 f32 on (`sorts_two_to_the_26_elements`).
#[test]
fn sorts_past_one_storage_binding_in_parts() {
    let Some(dev) = common::device_with_binding(1 << 16) else {
        return;
    };
    // The word dtypes; the emulated integers are sorted and searched in integer_dtypes.rs.
    for dtype in DType::WORD {
        if !common::supports(&dev, dtype, &format!("{dtype:?}")) {
            continue;
        }
        // One row of 4 parts (3 for f64's wider windows: 8 for the 2-byte and 1-byte dtypes'
        // 4-byte keys too), then the same values as rows to group.
        let x = data(50_000, 31 + dtype.size_bytes());
        let a = Array::from_slice(&dev, &x, &[x.len()])
            .unwrap()
            .astype(dtype)
            .unwrap();
        let held = common::read(&a);
        let (vals, idx) = reference(&held, &[held.len()], 0);
        let got = common::idx(&a.argsort(Some(-1)).unwrap());
        assert!(got == idx, "{dtype:?}: argsort of 50,000 in parts");
        assert!(
            same(&common::read(&a.sort(None).unwrap()), &vals),
            "{dtype:?}: sort of 50,000 in parts"
        );
    }
    // Every axis of a 3-d array past one binding (groups of rows along each axis, merged parts
    // flattened), a transposed and a reversed view, and f64 with fewer elements per window.
    let x = data(60_000, 33);
    let a = Array::from_slice(&dev, &x, &[5, 40, 300])
        .unwrap()
        .astype(DType::F32)
        .unwrap();
    check_all_axes(&a, "3-d f32 past one binding");
    check_all_axes(
        &a.transpose(&[2, 0, 1]).unwrap(),
        "transposed, past one binding",
    );
    let rev = a
        .slice(&[gpuarray::SliceArg::range(None, None, -1)])
        .unwrap();
    check_all_axes(&rev, "reversed, past one binding");
    let w = Array::from_slice(&dev, &x[..30_000], &[3, 10_000]).unwrap();
    check_all_axes(&w, "2-d f64 rows past one window each");
    // Already sorted, reversed and all-equal rows (the identity argsort across all parts).
    let up: Vec<f32> = (0..40_000).map(|i| i as f32 * 0.25 - 3000.0).collect();
    let down: Vec<f32> = up.iter().rev().copied().collect();
    for (label, v) in [("sorted", &up), ("reversed", &down)] {
        let a = Array::from_slice(&dev, v, &[v.len()]).unwrap();
        assert_eq!(
            a.sort(None).unwrap().to_vec::<f32>().unwrap(),
            up,
            "{label}"
        );
    }
    let eq = Array::full(&dev, &[40_000], 1.5, DType::F32).unwrap();
    assert_eq!(
        common::idx(&eq.argsort(None).unwrap()),
        (0..40_000).collect::<Vec<i32>>()
    );
    // unique rides on the sort and the mask compaction, both past one binding here.
    check_unique(&a, "unique past one binding");
    check_unique(&w, "unique of f64 past one binding");
}

/// 2^26 f32 (256 MiB) in one row on the default 128 MiB binding: sorted in parts and merged.
/// Slow on a CPU adapter: `cargo test --release --test sort -- --ignored --nocapture`.
#[test]
#[ignore]
fn sorts_two_to_the_26_elements() {
    let Some(dev) = common::device() else { return };
    let n = 1usize << 26;
    let mut next = xorshift(12);
    let x: Vec<f32> = (0..n).map(|_| ((next() >> 40) as f32) - 8e6).collect();
    let a = Array::from_slice(&dev, &x, &[n]).unwrap();
    let t = std::time::Instant::now();
    let s = a.sort(Some(-1)).unwrap();
    dev.synchronize().unwrap();
    println!("sort of 2^26 f32: {:.2} s", t.elapsed().as_secs_f64());
    let got = s.to_vec::<f32>().unwrap();
    let mut want = x.clone();
    want.sort_by(|a, b| a.partial_cmp(b).unwrap());
    assert!(got == want, "sort of 2^26 f32 differs from the reference");
    let t = std::time::Instant::now();
    let i = a.argsort(Some(-1)).unwrap();
    dev.synchronize().unwrap();
    println!("argsort of 2^26 f32: {:.2} s", t.elapsed().as_secs_f64());
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&p, &q| x[p].partial_cmp(&x[q]).unwrap());
    let idx = i.indices();
    assert!(
        idx.iter().zip(&order).all(|(&g, &w)| g as usize == w),
        "argsort of 2^26 f32 differs from the stable reference"
    );
}

/// searchsorted with a sorted array and queries past one storage binding (64 KiB windows): the
/// array searched in parts whose counts add up, the queries in windows.
#[test]
fn searchsorted_past_one_storage_binding() {
    let Some(dev) = common::device_with_binding(1 << 16) else {
        return;
    };
    for dtype in [DType::F32, DType::F64, DType::I32] {
        let x: Vec<f64> = data(45_000, 41)
            .into_iter()
            .map(|v| {
                if dtype == DType::I32 && !v.is_finite() {
                    3.0
                } else {
                    v.trunc() * 0.5
                }
            })
            .collect();
        let a = Array::from_slice(&dev, &x, &[x.len()])
            .unwrap()
            .astype(dtype)
            .unwrap()
            .sort(None)
            .unwrap();
        let q = Array::from_slice(&dev, &data(30_000, 42), &[30_000])
            .unwrap()
            .astype(dtype)
            .unwrap();
        let (held, qs) = (common::read(&a), common::read(&q));
        for (side, right) in [(gpuarray::Side::Left, false), (gpuarray::Side::Right, true)] {
            let got = common::idx(&a.searchsorted(&q, side).unwrap());
            // A binary search here: the linear reference is too slow at this size.
            let want: Vec<i32> = qs
                .iter()
                .map(|&v| {
                    held.partition_point(|&e| order(e, v).is_lt() || (right && order(e, v).is_eq()))
                        as i32
                })
                .collect();
            assert!(got == want, "{dtype:?} {side:?} past one binding");
        }
    }
}

/// NumPy's searchsorted on a sorted array: the first index whose element is not before the
/// query (left) or is after it (right), in the sort order (NaN last, -0.0 == +0.0).
fn search_reference(a: &[f64], q: f64, right: bool) -> i32 {
    a.iter()
        .position(|&x| {
            let o = order(x, q);
            if right {
                o == Ordering::Greater
            } else {
                o != Ordering::Less
            }
        })
        .unwrap_or(a.len()) as i32
}

#[test]
fn searchsorted_matches_numpy_for_every_dtype_and_side() {
    let Some(dev) = common::device() else { return };
    let x = data(3000, 21);
    let queries = data(700, 22);
    // The word dtypes; the emulated integers are sorted and searched in integer_dtypes.rs.
    for dtype in DType::WORD {
        if !common::supports(&dev, dtype, &format!("{dtype:?}")) {
            continue;
        }
        let cast = |v: &[f64]| -> Vec<f64> {
            match dtype {
                DType::I32 => v
                    .iter()
                    .map(|x| if x.is_finite() { x.trunc() } else { 5.0 })
                    .collect(),
                DType::U32 | DType::Bool => v
                    .iter()
                    .map(|x| if x.is_finite() { x.abs().trunc() } else { 5.0 })
                    .collect(),
                _ => v.to_vec(),
            }
        };
        let a = Array::from_slice(&dev, &cast(&x), &[x.len()])
            .unwrap()
            .astype(dtype)
            .unwrap()
            .sort(None)
            .unwrap();
        let q = Array::from_slice(&dev, &cast(&queries), &[7, 100])
            .unwrap()
            .astype(dtype)
            .unwrap();
        let (held, qs) = (common::read(&a), common::read(&q));
        for (side, right) in [(gpuarray::Side::Left, false), (gpuarray::Side::Right, true)] {
            let got = a.searchsorted(&q, side).unwrap();
            assert_eq!(got.shape(), &[7, 100]);
            let want: Vec<i32> = qs
                .iter()
                .map(|&v| search_reference(&held, v, right))
                .collect();
            assert_eq!(got.indices(), want, "{dtype:?} {side:?}");
        }
    }
    // Mixed dtypes compare as floats; an empty array or no queries; a 2-d array is refused.
    let a = Array::from_slice(&dev, &[1i32, 3, 5], &[3]).unwrap();
    let q = Array::from_slice(&dev, &[2.5f32, 5.0, -1.0], &[3]).unwrap();
    assert_eq!(
        a.searchsorted(&q, gpuarray::Side::Left).unwrap().indices(),
        vec![1, 2, 0]
    );
    let empty = Array::zeros(&dev, &[0], DType::F32).unwrap();
    assert_eq!(
        empty
            .searchsorted(&q, gpuarray::Side::Right)
            .unwrap()
            .indices(),
        vec![0, 0, 0]
    );
    assert_eq!(
        q.searchsorted(&empty, gpuarray::Side::Left)
            .unwrap()
            .shape(),
        &[0]
    );
    let m = Array::zeros(&dev, &[2, 2], DType::F32).unwrap();
    assert!(matches!(
        m.searchsorted(&q, gpuarray::Side::Left),
        Err(Error::Shape {
            op: "searchsorted",
            ..
        })
    ));
}

/// unique and unique_all of `a` against a reference written here: distinct values in sort order
/// (NaNs as one, -0.0 == +0.0, the first occurrence's sign kept), first indices, inverse (which
/// rebuilds the input) and counts.
fn check_unique(a: &Array, label: &str) {
    let dtype = a.dtype();
    let held = common::read(a);
    // The reference: distinct values in sort order (NaNs as one, -0.0 == +0.0, the first
    // occurrence's sign kept), first indices, inverse and counts.
    let mut perm: Vec<usize> = (0..held.len()).collect();
    perm.sort_by(|&p, &q| order(held[p], held[q]));
    let mut values = Vec::new();
    let mut first = Vec::new();
    let mut counts: Vec<i32> = Vec::new();
    let mut inverse = vec![0i32; held.len()];
    for &i in &perm {
        let v = held[i];
        if values
            .last()
            .is_none_or(|&l: &f64| order(l, v) != Ordering::Equal)
        {
            values.push(v);
            first.push(i as i32);
            counts.push(0);
        }
        *counts.last_mut().unwrap() += 1;
        inverse[i] = values.len() as i32 - 1;
    }
    assert!(
        same(&common::read(&a.unique().unwrap()), &values),
        "{label} {dtype:?} unique"
    );
    let u = a.unique_all().unwrap();
    assert!(
        same(&common::read(&u.values), &values),
        "{label} {dtype:?} values"
    );
    assert_eq!(common::idx(&u.indices), first, "{label} {dtype:?} indices");
    assert_eq!(common::idx(&u.counts), counts, "{label} {dtype:?} counts");
    assert_eq!(u.inverse.shape(), a.shape());
    assert_eq!(
        common::idx(&u.inverse),
        inverse,
        "{label} {dtype:?} inverse"
    );
    // The inverse reconstructs the input.
    let back = u
        .values
        .take(&u.inverse.reshape(&[-1]).unwrap(), Some(0))
        .unwrap();
    let rebuilt = common::read(&back);
    assert!(
        rebuilt
            .iter()
            .zip(&held)
            .all(|(r, h)| r == h || (r.is_nan() && h.is_nan()))
    );
}

#[test]
fn unique_and_unique_all_match_numpy() {
    let Some(dev) = common::device() else { return };
    let x = data(2000, 31);
    // The word dtypes; the emulated integers are sorted and searched in integer_dtypes.rs.
    for dtype in DType::WORD {
        if !common::supports(&dev, dtype, &format!("{dtype:?}")) {
            continue;
        }
        let src: Vec<f64> = if dtype == DType::I32 {
            x.iter()
                .map(|v| if v.is_finite() { v.trunc() } else { 9.0 })
                .collect()
        } else {
            x.clone()
        };
        let a = Array::from_slice(&dev, &src, &[40, 50])
            .unwrap()
            .astype(dtype)
            .unwrap();
        check_unique(&a, "unique");
    }
    let empty = Array::zeros(&dev, &[0], DType::F32).unwrap();
    let u = empty.unique_all().unwrap();
    assert_eq!(
        (
            u.values.len(),
            u.indices.len(),
            u.counts.len(),
            u.inverse.len()
        ),
        (0, 0, 0, 0)
    );
}

/// NumPy's partition contract: the kth element is the sorted one, nothing after it sorts before
/// it and nothing before it after.
fn partitioned_at(p: &[f64], k: usize) -> bool {
    let mut sorted = p.to_vec();
    sorted.sort_by(|a, b| order(*a, *b));
    same(&p[k..=k], &sorted[k..=k])
        && p[..k].iter().all(|&v| order(v, p[k]) != Ordering::Greater)
        && p[k + 1..].iter().all(|&v| order(v, p[k]) != Ordering::Less)
}

#[test]
fn partition_argpartition_and_lexsort_keep_numpys_contracts() {
    let Some(dev) = common::device() else { return };
    let h = data(3 * 1000, 0x9a7);
    let a = common::upload(&dev, &h, &[3, 1000], DType::F32);
    let h = common::read(&a);
    for kth in [vec![0isize], vec![999], vec![-1, 17, 500]] {
        let p = common::read(&a.partition(&kth, Some(-1)).unwrap());
        let ap = a.argpartition(&kth, Some(1)).unwrap().indices();
        for row in 0..3 {
            let lane = &p[row * 1000..(row + 1) * 1000];
            let idx = &ap[row * 1000..(row + 1) * 1000];
            let gathered: Vec<f64> = idx.iter().map(|&i| h[row * 1000 + i as usize]).collect();
            for &k in &kth {
                let k = if k < 0 {
                    (k + 1000) as usize
                } else {
                    k as usize
                };
                assert!(partitioned_at(lane, k), "partition row {row} kth {k}");
                assert!(
                    partitioned_at(&gathered, k),
                    "argpartition row {row} kth {k}"
                );
            }
        }
    }
    // The flattened array, and NumPy's refusals (kth out of bounds, a 0-d array).
    let flat = common::read(&a.partition(&[1234], None).unwrap());
    assert!(partitioned_at(&flat, 1234));
    let e = a.partition(&[1000], Some(1)).unwrap_err().to_string();
    assert!(
        e.contains("partition") && e.contains("out of bounds"),
        "{e}"
    );
    let e = a.argpartition(&[-1001], Some(-1)).unwrap_err().to_string();
    assert!(
        e.contains("argpartition") && e.contains("out of bounds"),
        "{e}"
    );
    let scalar = Array::from_slice(&dev, &[1.0f32], &[]).unwrap();
    assert_err!(
        scalar.partition(&[0], Some(0)),
        Error::Shape { .. },
        "partition",
        "0-d"
    );

    // lexsort: three keys with many ties, against a stable sort by (last, middle, first).
    let mut next = xorshift(0x1e5);
    let n = 5000;
    let k0: Vec<i32> = (0..n).map(|_| (next() % 50) as i32 - 25).collect();
    let k1: Vec<u32> = (0..n).map(|_| (next() % 7) as u32).collect();
    let k2: Vec<f32> = (0..n)
        .map(|i| {
            if i % 97 == 0 {
                f32::NAN
            } else {
                (next() % 5) as f32 - 2.0
            }
        })
        .collect();
    let (a0, a1, a2) = (
        Array::from_slice(&dev, &k0, &[n]).unwrap(),
        Array::from_slice(&dev, &k1, &[n]).unwrap(),
        Array::from_slice(&dev, &k2, &[n]).unwrap(),
    );
    let got = gpuarray::lexsort(&[&a0, &a1, &a2]).unwrap().indices();
    let mut want: Vec<i32> = (0..n as i32).collect();
    want.sort_by(|&i, &j| {
        let (i, j) = (i as usize, j as usize);
        order(f64::from(k2[i]), f64::from(k2[j]))
            .then(k1[i].cmp(&k1[j]))
            .then(k0[i].cmp(&k0[j]))
    });
    assert_eq!(got, want);
    let short = Array::from_slice(&dev, &[1i32, 2], &[2]).unwrap();
    let e = gpuarray::lexsort(&[&a0, &short]).unwrap_err().to_string();
    assert!(e.contains("lexsort"), "{e}");
    assert_err!(
        gpuarray::lexsort(&[]),
        Error::InvalidArgument { .. },
        "lexsort",
        "at least one key"
    );
}

/// NumPy's edges (issue 31): a 0-d array's argsort is `[0]` (it sorts as a 1-element 1-d array:
/// axis -1, 0 or None; axis 1 is out of bounds), and an array with no elements takes any `kth`.
#[test]
fn numpys_edges_of_argsort_and_partition() {
    let Some(dev) = common::device() else { return };
    let scalar = Array::from_slice(&dev, &[7.0f32], &[]).unwrap();
    for axis in [Some(-1), Some(0), None] {
        let got = scalar.argsort(axis).unwrap();
        assert_eq!(got.shape(), &[1], "axis {axis:?}");
        assert_eq!(got.indices(), vec![0], "axis {axis:?}");
    }
    assert_err!(scalar.argsort(Some(1)), Error::Axis { .. }, "argsort");
    for shape in [&[0usize][..], &[2, 0], &[0, 3]] {
        let empty = Array::zeros(&dev, shape, DType::F32).unwrap();
        for kth in [0isize, -1, 1, 5, -3] {
            let p = empty.partition(&[kth], Some(-1)).unwrap();
            assert_eq!(p.shape(), shape, "partition kth {kth} of {shape:?}");
            let i = empty.argpartition(&[kth, 0], None).unwrap();
            assert_eq!(i.shape(), &[0], "argpartition kth {kth} of {shape:?}");
            assert_eq!(i.dtype(), dev.index_dtype());
        }
    }
    // A non-empty axis keeps NumPy's bounds.
    let one = Array::from_slice(&dev, &[1.0f32], &[1]).unwrap();
    assert_err!(
        one.partition(&[1], Some(0)),
        Error::InvalidArgument { .. },
        "partition",
        "out of bounds"
    );
}
