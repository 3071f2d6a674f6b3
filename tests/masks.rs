//! Mask selection and the nonzero family against CPU references written here: every dtype,
//! NaN counted as true, views (transposed), sizes 0 and 1, 0-d arrays, masks of the wrong shape,
//! and a 2^22-element selection.

mod common;

use common::Indices;

use common::xorshift;

use gpuarray::{Array, DType, Error};

fn values(n: usize, seed: u64) -> Vec<f64> {
    let mut next = xorshift(seed);
    (0..n)
        .map(|_| match next() % 6 {
            0 | 1 => 0.0,
            2 => f64::NAN,
            _ => (next() % 50) as f64 - 20.0,
        })
        .collect()
}

/// `v` on the device: f64, or f32 (exact for these small integers, NaN and zeros) on adapters
/// without f64 (Mesa's GL).
fn upload(dev: &gpuarray::Device, v: &[f64], shape: &[usize]) -> gpuarray::Result<Array> {
    if dev.supports(DType::F64) {
        Array::from_slice(dev, v, shape)
    } else {
        let narrow: Vec<f32> = v.iter().map(|&x| x as f32).collect();
        Array::from_slice(dev, &narrow, shape)
    }
}

fn truthy(v: f64) -> bool {
    v != 0.0 || v.is_nan()
}

fn same(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x == y || (x.is_nan() && y.is_nan()))
}

#[test]
fn selections_match_the_reference_for_every_dtype() {
    let Some(dev) = common::device() else { return };
    let shape = [4usize, 7, 3];
    let x = values(84, 5);
    let m = values(84, 6);
    // The word dtypes; the emulated integers' selections are tested in integer_dtypes.rs.
    for dtype in DType::WORD {
        if !common::supports(&dev, dtype, &format!("{dtype:?}")) {
            continue;
        }
        let src: Vec<f64> = if dtype.is_float() {
            x.clone()
        } else {
            x.iter()
                .map(|v| if v.is_nan() { 1.0 } else { v.abs() })
                .collect()
        };
        let a = upload(&dev, &src, &shape).unwrap().astype(dtype).unwrap();
        let held = common::read(&a);
        let mask = upload(&dev, &m, &shape).unwrap();
        // a[mask]
        let want: Vec<f64> = held
            .iter()
            .zip(&m)
            .filter(|&(_, &k)| truthy(k))
            .map(|(v, _)| *v)
            .collect();
        let got = a.masked(&mask).unwrap();
        assert_eq!(got.dtype(), dtype);
        assert!(same(&common::read(&got), &want), "{dtype:?} masked");
        // flatnonzero, nonzero, argwhere, count_nonzero of the array itself.
        let flat: Vec<i32> = (0..held.len())
            .filter(|&i| truthy(held[i]))
            .map(|i| i as i32)
            .collect();
        assert_eq!(
            common::idx(&a.flatnonzero().unwrap()),
            flat,
            "{dtype:?} flatnonzero"
        );
        let nz = a.nonzero().unwrap();
        assert_eq!(nz.len(), 3);
        let coords: Vec<[i32; 3]> = flat.iter().map(|&f| [f / 21, f / 3 % 7, f % 3]).collect();
        for d in 0..3 {
            let want: Vec<i32> = coords.iter().map(|c| c[d]).collect();
            assert_eq!(common::idx(&nz[d]), want, "{dtype:?} nonzero axis {d}");
        }
        let aw = a.argwhere().unwrap();
        assert_eq!(aw.shape(), &[flat.len(), 3]);
        assert_eq!(common::idx(&aw), coords.concat());
        let per_row: Vec<i32> = (0..4)
            .map(|r| (0..21).filter(|&k| truthy(held[r * 21 + k])).count() as i32)
            .collect();
        assert_eq!(a.count_nonzero([1, 2], false).unwrap().indices(), per_row);
    }
}

#[test]
fn views_empty_and_bad_masks() {
    let Some(dev) = common::device() else { return };
    let x: Vec<f32> = (0..12).map(|i| i as f32 - 5.0).collect();
    let a = Array::from_slice(&dev, &x, &[3, 4]).unwrap();
    let t = a.transpose(&[1, 0]).unwrap();
    // The transposed view in C order: columns of `a`.
    let tv: Vec<f32> = (0..4)
        .flat_map(|c| (0..3).map(move |r| (r * 4 + c) as f32 - 5.0))
        .collect();
    let got = t
        .masked(&t.gt(0.0).unwrap())
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    assert_eq!(
        got,
        tv.iter()
            .copied()
            .filter(|v| *v > 0.0)
            .collect::<Vec<f32>>()
    );
    // Nothing selected, everything selected, and an empty array.
    assert_eq!(a.masked(&a.gt(100.0).unwrap()).unwrap().shape(), &[0]);
    assert_eq!(
        a.masked(&a.gt(-100.0).unwrap())
            .unwrap()
            .to_vec::<f32>()
            .unwrap(),
        x
    );
    let empty = Array::zeros(&dev, &[0, 3], DType::F32).unwrap();
    assert_eq!(empty.flatnonzero().unwrap().shape(), &[0]);
    assert_eq!(empty.nonzero().unwrap()[1].shape(), &[0]);
    // A 0-d array: nonzero refuses (NumPy 2), argwhere gives (count, 0).
    let s = Array::from_slice(&dev, &[3.0f32], &[]).unwrap();
    assert!(matches!(
        s.nonzero(),
        Err(Error::InvalidArgument { op: "nonzero", .. })
    ));
    assert_eq!(s.argwhere().unwrap().shape(), &[1, 0]);
    // Wrong mask shape, compress and its bounds.
    let bad = Array::from_bools(&dev, &[true, false], &[2]).unwrap();
    assert!(matches!(
        a.masked(&bad),
        Err(Error::Shape { op: "masked", .. })
    ));
    let c = Array::from_bools(&dev, &[false, true, true], &[3]).unwrap();
    assert_eq!(
        a.compress(&c, Some(0)).unwrap().to_vec::<f32>().unwrap(),
        x[4..].to_vec()
    );
    assert_eq!(
        a.compress(&c, Some(1)).unwrap().to_vec::<f32>().unwrap(),
        vec![-4.0, -3.0, 0.0, 1.0, 4.0, 5.0]
    );
    assert_eq!(
        a.compress(&c, None).unwrap().to_vec::<f32>().unwrap(),
        vec![-4.0, -3.0]
    );
    let long = Array::from_bools(&dev, &[false, false, false, false, true], &[5]).unwrap();
    assert!(matches!(
        a.compress(&long, Some(0)),
        Err(Error::InvalidArgument { op: "compress", .. })
    ));
    assert_eq!(
        gpuarray::extract(&a.lt(-3.0).unwrap(), &a)
            .unwrap()
            .to_vec::<f32>()
            .unwrap(),
        vec![-5.0, -4.0]
    );
    // masked_assign writes through a view; a value that does not broadcast is an error.
    let b = a.astype(DType::F32).unwrap();
    let col = b.transpose(&[1, 0]).unwrap();
    col.masked_assign(&col.lt(0.0).unwrap(), 9.0).unwrap();
    let want: Vec<f32> = x.iter().map(|&v| if v < 0.0 { 9.0 } else { v }).collect();
    assert_eq!(b.to_vec::<f32>().unwrap(), want);
    let wide = Array::zeros(&dev, &[3, 4, 2], DType::F32).unwrap();
    assert!(matches!(
        b.masked_assign(&b.gt(0.0).unwrap(), &wide),
        Err(Error::Shape { .. })
    ));
}

#[test]
fn a_large_selection() {
    let Some(dev) = common::device() else { return };
    let n = 1usize << 22;
    let x: Vec<u32> = (0..n as u32).map(|i| i.wrapping_mul(2654435761)).collect();
    let a = Array::from_slice(&dev, &x, &[n]).unwrap();
    let mask = a.remainder(3.0).unwrap().eq(0.0).unwrap();
    let got = a.masked(&mask).unwrap().to_vec::<u32>().unwrap();
    let want: Vec<u32> = x.iter().copied().filter(|v| v % 3 == 0).collect();
    assert!(got == want, "{} selected, want {}", got.len(), want.len());
}

/// Selections past one storage binding, on a device whose bindings hold 64 KiB (16,320 words per
/// window): the input compacted one window at a time into several windows of the output, every
/// dtype (f64's two words per element included), flat indices, a transposed view, and a
/// selection that keeps everything and one that keeps nothing.
#[test]
fn selections_past_one_storage_binding() {
    let Some(dev) = common::device_with_binding(1 << 16) else {
        return;
    };
    let n = 70_000;
    let x = values(n, 7);
    let m = values(n, 8);
    let mask = upload(&dev, &m, &[n]).unwrap();
    // The word dtypes; the emulated integers' selections are tested in integer_dtypes.rs.
    for dtype in DType::WORD {
        if !common::supports(&dev, dtype, &format!("{dtype:?}")) {
            continue;
        }
        let a = upload(&dev, &x, &[n]).unwrap().astype(dtype).unwrap();
        let held = common::read(&a);
        let want: Vec<f64> = held
            .iter()
            .zip(&m)
            .filter(|&(_, &k)| truthy(k))
            .map(|(v, _)| *v)
            .collect();
        assert!(
            same(&common::read(&a.masked(&mask).unwrap()), &want),
            "{dtype:?} masked past one binding"
        );
        let flat: Vec<i32> = (0..n)
            .filter(|&i| truthy(held[i]))
            .map(|i| i as i32)
            .collect();
        assert!(
            common::idx(&a.flatnonzero().unwrap()) == flat,
            "{dtype:?} flatnonzero past one binding"
        );
    }
    // A transposed view's C order; all and none selected.
    let a = upload(&dev, &x, &[350, 200]).unwrap();
    let t = a.transpose(&[1, 0]).unwrap();
    let tm = upload(&dev, &m, &[200, 350]).unwrap();
    let want: Vec<f64> = (0..n)
        .map(|k| x[(k % 350) * 200 + k / 350])
        .zip(&m)
        .filter(|&(_, &k)| truthy(k))
        .map(|(v, _)| v)
        .collect();
    assert!(
        same(&common::read(&t.masked(&tm).unwrap()), &want),
        "transposed"
    );
    let all = Array::full(&dev, &[n], 1.0, DType::Bool).unwrap();
    assert!(same(
        &common::read(&a.reshape(&[-1]).unwrap().masked(&all).unwrap()),
        &x
    ));
    let none = Array::zeros(&dev, &[n], DType::Bool).unwrap();
    assert_eq!(
        a.reshape(&[-1]).unwrap().masked(&none).unwrap().shape(),
        &[0]
    );
    // putmask and place cycle their values over several windows of the array and the mask.
    let vals: Vec<f64> = (0..20_000).map(|i| i as f64 * 0.5).collect();
    let v = upload(&dev, &vals, &[vals.len()]).unwrap();
    let mut put = x.clone();
    let mut placed = x.clone();
    let mut k = 0;
    for i in 0..n {
        if truthy(m[i]) {
            put[i] = vals[i % vals.len()];
            placed[i] = vals[k % vals.len()];
            k += 1;
        }
    }
    let p = upload(&dev, &x, &[n]).unwrap();
    p.putmask(&mask, &v).unwrap();
    assert!(same(&common::read(&p), &put), "putmask past one binding");
    let q = upload(&dev, &x, &[n]).unwrap();
    q.place(&mask, &v).unwrap();
    assert!(same(&common::read(&q), &placed), "place past one binding");
}

/// NumPy's cyclic putmask (values by flat index) and place (vals by the count of true elements)
/// against references written here: values shorter and longer than needed, another dtype, views,
/// empty values, and the refusals.
#[test]
fn putmask_and_place_cycle_as_numpy_does() {
    let Some(dev) = common::device() else { return };
    let n = 1000;
    let x: Vec<i32> = (0..n as i32).map(|i| i * 7 % 31 - 15).collect();
    let m: Vec<bool> = x.iter().map(|&v| v > 3 || v == -15).collect();
    let maskf: Vec<f32> = m.iter().map(|&b| b as u8 as f32).collect();
    for vals in [
        vec![100.5f32, -200.25, 300.0],
        (0..1500).map(|i| i as f32).collect(),
    ] {
        let mut put = x.clone();
        let mut placed = x.clone();
        let mut k = 0;
        for i in 0..n {
            if m[i] {
                put[i] = vals[i % vals.len()] as i32;
                placed[i] = vals[k % vals.len()] as i32;
                k += 1;
            }
        }
        let a = Array::from_slice(&dev, &x, &[10, 100]).unwrap();
        let mask = Array::from_slice(&dev, &maskf, &[n]).unwrap();
        let v = Array::from_slice(&dev, &vals, &[vals.len()]).unwrap();
        a.putmask(&mask, &v).unwrap();
        assert_eq!(
            a.to_vec::<i32>().unwrap(),
            put,
            "putmask, {} values",
            vals.len()
        );
        let b = Array::from_slice(&dev, &x, &[10, 100]).unwrap();
        b.place(&mask.reshape(&[10, 100]).unwrap(), &v).unwrap();
        assert_eq!(
            b.to_vec::<i32>().unwrap(),
            placed,
            "place, {} values",
            vals.len()
        );
    }
    // A transposed view writes through to its base, in the view's C order.
    let base = Array::from_slice(&dev, &[0.0f32; 6], &[2, 3]).unwrap();
    let t = base.transpose(&[1, 0]).unwrap();
    let all = Array::full(&dev, &[3, 2], 1.0, DType::Bool).unwrap();
    let v = Array::from_slice(&dev, &[1.0f32, 2.0, 3.0, 4.0], &[4]).unwrap();
    t.place(&all, &v).unwrap();
    assert_eq!(
        t.to_vec::<f32>().unwrap(),
        vec![1.0, 2.0, 3.0, 4.0, 1.0, 2.0]
    );
    assert_eq!(
        base.to_vec::<f32>().unwrap(),
        vec![1.0, 3.0, 1.0, 2.0, 4.0, 2.0]
    );
    // Empty values: putmask changes nothing; place refuses when anything is selected.
    let empty = Array::zeros(&dev, &[0], DType::F32).unwrap();
    base.putmask(&all.reshape(&[2, 3]).unwrap(), &empty)
        .unwrap();
    assert!(matches!(
        base.place(&all.reshape(&[2, 3]).unwrap(), &empty),
        Err(Error::InvalidArgument { op: "place", .. })
    ));
    let none = Array::zeros(&dev, &[2, 3], DType::Bool).unwrap();
    base.place(&none, &empty).unwrap();
    assert_eq!(
        base.to_vec::<f32>().unwrap(),
        vec![1.0, 3.0, 1.0, 2.0, 4.0, 2.0]
    );
    // A mask of another size is refused, naming the op.
    let short = Array::zeros(&dev, &[5], DType::Bool).unwrap();
    assert!(matches!(
        base.putmask(&short, &v),
        Err(Error::Shape { op: "putmask", .. })
    ));
    assert!(matches!(
        base.place(&short, &v),
        Err(Error::Shape { op: "place", .. })
    ));
}

/// NumPy's tril/triu, written out: element (.., i, j) is kept when j - i <= k (tril) or >= k.
fn triangle_reference(x: &[f64], shape: &[usize], k: isize, lower: bool) -> Vec<f64> {
    let (n, m) = match shape {
        [len] => (*len, *len),
        [.., n, m] => (*n, *m),
        [] => unreachable!(),
    };
    let per = n * m;
    let batches = if shape.len() == 1 {
        1
    } else {
        x.len() / per.max(1)
    };
    let mut out = Vec::with_capacity(batches * per);
    for b in 0..batches {
        for i in 0..n {
            for j in 0..m {
                let d = j as isize - i as isize;
                let keep = if lower { d <= k } else { d >= k };
                // A 1-D input is every row of the matrix.
                let v = if shape.len() == 1 {
                    x[j]
                } else {
                    x[b * per + i * m + j]
                };
                out.push(if keep { v } else { 0.0 });
            }
        }
    }
    out
}

#[test]
fn tril_and_triu_match_the_reference() {
    let Some(dev) = common::device() else { return };
    let shapes: [&[usize]; 8] = [
        &[4, 4],
        &[3, 5],
        &[5, 2],
        &[2, 3, 4],
        &[4],
        &[0, 3],
        &[3, 0],
        &[1, 1],
    ];
    for dtype in [DType::F32, DType::I32, DType::Bool, DType::F64] {
        if !common::supports(&dev, dtype, "tril/triu") {
            continue;
        }
        for shape in shapes {
            let len: usize = shape.iter().product();
            let x: Vec<f64> = values(len, len as u64 + 3)
                .into_iter()
                .map(|v| {
                    if dtype == DType::Bool {
                        f64::from(truthy(v))
                    } else if v.is_nan() {
                        7.0
                    } else {
                        v
                    }
                })
                .collect();
            let a = common::upload(&dev, &x, shape, dtype);
            for k in [-7, -2, -1, 0, 1, 2, 7, isize::MIN, isize::MAX] {
                for lower in [true, false] {
                    let got = if lower { a.tril(k) } else { a.triu(k) }.unwrap();
                    let want = triangle_reference(&x, shape, k, lower);
                    let out_shape: Vec<usize> = if shape.len() == 1 {
                        vec![shape[0], shape[0]]
                    } else {
                        shape.to_vec()
                    };
                    assert_eq!(got.shape(), &out_shape[..], "{dtype:?} {shape:?}");
                    assert_eq!(got.dtype(), dtype);
                    assert!(
                        same(&common::read(&got), &want),
                        "{dtype:?} {shape:?} k={k} lower={lower}"
                    );
                }
            }
        }
    }
    // A transposed view is read in place.
    let x: Vec<f64> = (0..12).map(f64::from).collect();
    let a = common::upload(&dev, &x, &[3, 4], DType::F32).t();
    let mut xt = vec![0.0; 12];
    for i in 0..4 {
        for j in 0..3 {
            xt[i * 3 + j] = x[j * 4 + i];
        }
    }
    assert!(same(
        &common::read(&a.tril(-1).unwrap()),
        &triangle_reference(&xt, &[4, 3], -1, true)
    ));
    // A 0-d array is refused with the operation's name.
    let s = common::upload(&dev, &[1.0], &[], DType::F32);
    match s.triu(0) {
        Err(Error::InvalidArgument { op, .. }) => assert_eq!(op, "triu"),
        other => panic!("triu of a 0-d array: {other:?}"),
    }
}
