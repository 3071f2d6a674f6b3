//! matmul on the real adapter against a naive f64 CPU reference written here: every tile edge,
//! batch broadcasting, 1-D promotion, views as operands, every kernel, integer and f16/f64
//! dtypes, operands beyond the binding limit, and the errors.

mod common;

use gpuarray::{Array, DType, Device, Error, MatmulKernel, SliceArg, f16};

/// Row-major (batch, m, k) x (batch, k, n) in f64; `bb == 1` broadcasts B over the batch.
fn reference(
    a: &[f64],
    b: &[f64],
    batch: usize,
    bb: usize,
    m: usize,
    k: usize,
    n: usize,
) -> Vec<f64> {
    let mut c = vec![0.0; batch * m * n];
    for z in 0..batch {
        let (ao, bo) = (z * m * k, if bb == 1 { 0 } else { z * k * n });
        for i in 0..m {
            for j in 0..n {
                let mut s = 0.0;
                for p in 0..k {
                    s += a[ao + i * k + p] * b[bo + p * n + j];
                }
                c[z * m * n + i * n + j] = s;
            }
        }
    }
    c
}

/// Small integers, so every f32 product and sum here is exact.
fn ints(n: usize, seed: usize) -> Vec<f64> {
    (0..n)
        .map(|i| ((i * 7 + seed * 13) % 7) as f64 - 3.0)
        .collect()
}

/// The int32 product of integer-valued `a` and `b` (host values and shapes) equals `want`.
fn assert_int32_product(
    dev: &Device,
    (a, a_shape): (&[f64], &[usize]),
    (b, b_shape): (&[f64], &[usize]),
    want: &[f64],
    what: &str,
) {
    let ints = |v: &[f64]| v.iter().map(|&x| x as i32).collect::<Vec<i32>>();
    let c = Array::from_slice(dev, &ints(a), a_shape)
        .unwrap()
        .matmul(&Array::from_slice(dev, &ints(b), b_shape).unwrap())
        .unwrap();
    assert_eq!(c.to_vec::<i32>().unwrap(), ints(want), "i32 {what}");
}

fn to_f32(v: &[f64]) -> Vec<f32> {
    v.iter().map(|&x| x as f32).collect()
}

/// The automatic choice, then every kernel the device can run: each is tested directly,
/// whichever the tune keeps.
fn kernels(dev: &Device) -> Vec<Option<MatmulKernel>> {
    let mut ks = vec![None];
    ks.extend(dev.matmul_kernels().into_iter().map(Some));
    ks
}

/// The tune measures every kernel the device has except the naive baseline, and rejects none:
/// a kernel giving a wrong result would otherwise drop out of use (and of these tests) quietly.
#[test]
fn the_tune_measures_every_kernel_and_rejects_none() {
    let Some(dev) = common::device() else { return };
    let tuning = dev.matmul_tuning().unwrap();
    assert!(
        tuning.rejected.is_empty(),
        "rejected: {:?}",
        tuning.rejected
    );
    let measured: Vec<MatmulKernel> = tuning.candidates.iter().map(|c| c.0).collect();
    let expected: Vec<MatmulKernel> = dev
        .matmul_kernels()
        .into_iter()
        .filter(|k| *k != MatmulKernel::Naive)
        .collect();
    if expected.len() > 1 {
        assert_eq!(measured, expected, "the tune's candidates");
    } else {
        println!("one candidate on {}: no tune to check", dev.info());
    }
    assert!(expected.contains(&tuning.chosen), "chose {}", tuning.chosen);
}

fn mm(a: &Array, b: &Array, k: Option<MatmulKernel>) -> gpuarray::Result<Array> {
    match k {
        None => a.matmul(b),
        Some(k) => a.matmul_with(b, k),
    }
}

#[test]
fn every_tile_edge_on_every_axis_is_exact() {
    let Some(dev) = common::device() else { return };
    let sizes = [1usize, 2, 7, 31, 63, 64, 65, 127, 129, 1000];
    let base = [2usize, 33, 33, 33]; // batch, m, k, n
    for axis in 0..4 {
        for &s in &sizes {
            let mut d = base;
            d[axis] = s;
            let [batch, m, k, n] = d;
            let ha = ints(batch * m * k, 1);
            let hb = ints(batch * k * n, 2);
            let want = to_f32(&reference(&ha, &hb, batch, batch, m, k, n));
            let a = Array::from_slice(&dev, &to_f32(&ha), &[batch, m, k]).unwrap();
            let b = Array::from_slice(&dev, &to_f32(&hb), &[batch, k, n]).unwrap();
            let got = a.matmul(&b).unwrap();
            assert_eq!(got.shape(), &[batch, m, n]);
            assert_eq!(
                got.to_vec::<f32>().unwrap(),
                want,
                "batch={batch} m={m} k={k} n={n}"
            );
        }
    }
}

#[test]
fn every_kernel_on_edge_shapes() {
    let Some(dev) = common::device() else { return };
    for kernel in kernels(&dev) {
        for &(batch, m, k, n) in &[
            (1usize, 64usize, 32usize, 64usize),
            (3, 65, 33, 127),
            (2, 1, 70, 129),
            (1, 130, 1, 1),
            (2, 200, 96, 64),
        ] {
            let ha = ints(batch * m * k, 3);
            let hb = ints(batch * k * n, 4);
            let want = to_f32(&reference(&ha, &hb, batch, batch, m, k, n));
            let a = Array::from_slice(&dev, &to_f32(&ha), &[batch, m, k]).unwrap();
            let b = Array::from_slice(&dev, &to_f32(&hb), &[batch, k, n]).unwrap();
            let got = mm(&a, &b, kernel).unwrap().to_vec::<f32>().unwrap();
            assert_eq!(got, want, "{kernel:?} batch={batch} m={m} k={k} n={n}");
        }
    }
}

/// Views whose parents hold NaN and infinity just past K (A's columns, B's rows) and past N:
/// every kernel reads whole vec4s or lanes beyond the edge of a last, partial k-chunk, and none
/// of those values may reach C. The views' rows are whole vec4s, so the subgroup kernels read
/// them in place; that needs K a multiple of 4, so K ends either on an 8-step chunk or 4 steps
/// into one (the other remainders only reach the kernels through zero-padded copies), at several
/// offsets into the tiled kernel's tiles.
#[test]
fn values_past_the_edges_of_a_view_never_leak_in() {
    let Some(dev) = common::device() else { return };
    let (m, n) = (70usize, 68usize);
    for k in [4usize, 36, 44, 64, 92, 100, 132] {
        // Parents: A (m, k + 8), B (k + 8, n + 4); the extra columns and rows are poison.
        let (kp, np) = (k + 8, n + 4);
        let poison = |i: usize| {
            if i.is_multiple_of(2) {
                f32::NAN
            } else {
                f32::INFINITY
            }
        };
        let ha = ints(m * k, 5);
        let hb = ints(k * n, 6);
        let pa: Vec<f32> = (0..m * kp)
            .map(|i| {
                let (r, c) = (i / kp, i % kp);
                if c < k {
                    ha[r * k + c] as f32
                } else {
                    poison(i)
                }
            })
            .collect();
        let pb: Vec<f32> = (0..kp * np)
            .map(|i| {
                let (r, c) = (i / np, i % np);
                if r < k && c < n {
                    hb[r * n + c] as f32
                } else {
                    poison(i)
                }
            })
            .collect();
        let a = Array::from_slice(&dev, &pa, &[m, kp])
            .unwrap()
            .slice(&[SliceArg::full(), SliceArg::range(None, Some(k as isize), 1)])
            .unwrap();
        let b = Array::from_slice(&dev, &pb, &[kp, np])
            .unwrap()
            .slice(&[
                SliceArg::range(None, Some(k as isize), 1),
                SliceArg::range(None, Some(n as isize), 1),
            ])
            .unwrap();
        let want = to_f32(&reference(&ha, &hb, 1, 1, m, k, n));
        for kernel in kernels(&dev) {
            let got = mm(&a, &b, kernel).unwrap().to_vec::<f32>().unwrap();
            assert_eq!(got, want, "{kernel:?} m={m} k={k} n={n}");
        }
    }
}

/// On a device that allows 32 workgroups per grid dimension, products of more workgroups than
/// that fold them into a 2-d grid (the subgroup kernels number theirs down M first, then across
/// N); every output tile must still be computed once, by the right workgroup.
#[test]
fn launches_past_the_grid_limit_fold_into_two_dimensions() {
    let Some(dev) = common::device_with_grid(32) else {
        return;
    };
    // 32x8 tiles: 5 workgroups down M x 7 across N = 35; 16x8: 70; 8x8: 133.
    let (m, k, n) = (300usize, 37usize, 448usize);
    let ha = ints(m * k, 7);
    let hb = ints(k * n, 8);
    let want = to_f32(&reference(&ha, &hb, 1, 1, m, k, n));
    let a = Array::from_slice(&dev, &to_f32(&ha), &[m, k]).unwrap();
    let b = Array::from_slice(&dev, &to_f32(&hb), &[k, n]).unwrap();
    // Every result kept alive until all are checked: a fresh output never reuses an earlier
    // kernel's (correct) result from the pool, so a tile no workgroup writes shows.
    let results: Vec<(Option<MatmulKernel>, Array)> = kernels(&dev)
        .into_iter()
        .map(|kernel| (kernel, mm(&a, &b, kernel).unwrap()))
        .collect();
    for (kernel, c) in &results {
        let got = c.to_vec::<f32>().unwrap();
        assert_eq!(got, want, "{kernel:?} m={m} k={k} n={n}");
    }
}

#[test]
fn numpy_promotion_and_batch_broadcasting() {
    let Some(dev) = common::device() else { return };
    let (m, k, n) = (5usize, 6usize, 7usize);
    let ha = ints(3 * m * k, 5);
    let hb = ints(4 * k * n, 6);
    let a = Array::from_slice(&dev, &to_f32(&ha), &[3, 1, m, k]).unwrap();
    let b = Array::from_slice(&dev, &to_f32(&hb), &[4, k, n]).unwrap();
    let c = a.matmul(&b).unwrap();
    assert_eq!(c.shape(), &[3, 4, m, n]);
    let got = c.to_vec::<f32>().unwrap();
    for i in 0..3 {
        for j in 0..4 {
            let want = reference(
                &ha[i * m * k..(i + 1) * m * k],
                &hb[j * k * n..(j + 1) * k * n],
                1,
                1,
                m,
                k,
                n,
            );
            let off = (i * 4 + j) * m * n;
            assert_eq!(
                &got[off..off + m * n],
                &to_f32(&want)[..],
                "batch ({i}, {j})"
            );
        }
    }
    // 2-D weight shared by a batch (batch stride 0), both orders.
    let w = Array::from_slice(&dev, &to_f32(&hb[..k * n]), &[k, n]).unwrap();
    let x = Array::from_slice(&dev, &to_f32(&ha[..3 * m * k]), &[3, m, k]).unwrap();
    assert_eq!(
        x.matmul(&w).unwrap().to_vec::<f32>().unwrap(),
        to_f32(&reference(&ha, &hb, 3, 1, m, k, n))
    );
    // 1-D promotion: (k,) @ (k, n) -> (n,), (m, k) @ (k,) -> (m,), (k,) @ (k,) -> ().
    let v = Array::from_slice(&dev, &to_f32(&ha[..k]), &[k]).unwrap();
    let vw = v.matmul(&w).unwrap();
    assert_eq!(vw.shape(), &[n]);
    assert_eq!(
        vw.to_vec::<f32>().unwrap(),
        to_f32(&reference(&ha[..k], &hb[..k * n], 1, 1, 1, k, n))
    );
    let mv = x.matmul(&v).unwrap();
    assert_eq!(mv.shape(), &[3, m]);
    let mut want = Vec::new();
    for r in 0..3 * m {
        want.push((0..k).map(|p| ha[r * k + p] * ha[p]).sum::<f64>() as f32);
    }
    assert_eq!(mv.to_vec::<f32>().unwrap(), want);
    let vv = v.matmul(&v).unwrap();
    assert_eq!(vv.shape(), &[] as &[usize]);
    assert_eq!(
        vv.to_vec::<f32>().unwrap(),
        vec![ha[..k].iter().map(|x| x * x).sum::<f64>() as f32]
    );
}

#[test]
fn views_are_consumed_as_operands() {
    let Some(dev) = common::device() else { return };
    let (m, k, n) = (70usize, 90usize, 66usize);
    let ha = ints(k * m, 7); // stored as (k, m): a = stored.T
    let hb = ints(2 * k * n, 8); // stored (k, 2n): b = stored[:, ::-2]
    let at = Array::from_slice(&dev, &to_f32(&ha), &[k, m]).unwrap();
    let bs = Array::from_slice(&dev, &to_f32(&hb), &[k, 2 * n]).unwrap();
    let a = at.t();
    let b = bs
        .slice(&[SliceArg::full(), SliceArg::range(None, None, -2)])
        .unwrap();
    let dense_a: Vec<f64> = (0..m * k).map(|i| ha[(i % k) * m + i / k]).collect();
    let dense_b: Vec<f64> = (0..k * n)
        .map(|i| hb[(i / n) * 2 * n + (2 * n - 1 - 2 * (i % n))])
        .collect();
    let want = to_f32(&reference(&dense_a, &dense_b, 1, 1, m, k, n));
    for kernel in kernels(&dev) {
        assert_eq!(
            mm(&a, &b, kernel).unwrap().to_vec::<f32>().unwrap(),
            want,
            "{kernel:?}"
        );
    }
    // A broadcast row as the left operand: every output row equal.
    let row = Array::from_slice(&dev, &to_f32(&dense_a[..k]), &[1, k])
        .unwrap()
        .broadcast_to(&[5, k])
        .unwrap();
    let r = row.matmul(&b).unwrap().to_vec::<f32>().unwrap();
    let one = to_f32(&reference(&dense_a[..k], &dense_b, 1, 1, 1, k, n));
    for i in 0..5 {
        assert_eq!(&r[i * n..(i + 1) * n], &one[..]);
    }
}

#[test]
fn integer_matmul_is_exact_and_other_dtypes_are_close() {
    let Some(dev) = common::device() else { return };
    let (m, k, n) = (37usize, 129usize, 65usize);
    let ha: Vec<i32> = (0..m * k).map(|i| (i as i32 * 37) % 2001 - 1000).collect();
    let hb: Vec<i32> = (0..k * n).map(|i| (i as i32 * 91) % 2001 - 1000).collect();
    let want: Vec<i32> = reference(
        &ha.iter().map(|&x| x as f64).collect::<Vec<_>>(),
        &hb.iter().map(|&x| x as f64).collect::<Vec<_>>(),
        1,
        1,
        m,
        k,
        n,
    )
    .into_iter()
    .map(|x| x as i32)
    .collect();
    let a = Array::from_slice(&dev, &ha, &[m, k]).unwrap();
    let b = Array::from_slice(&dev, &hb, &[k, n]).unwrap();
    assert_eq!(a.matmul(&b).unwrap().to_vec::<i32>().unwrap(), want);
    let au: Vec<u32> = ha.iter().map(|&x| x.unsigned_abs() % 100).collect();
    let bu: Vec<u32> = hb.iter().map(|&x| x.unsigned_abs() % 100).collect();
    let wu: Vec<u32> = reference(
        &au.iter().map(|&x| x as f64).collect::<Vec<_>>(),
        &bu.iter().map(|&x| x as f64).collect::<Vec<_>>(),
        1,
        1,
        m,
        k,
        n,
    )
    .into_iter()
    .map(|x| x as u32)
    .collect();
    let c = Array::from_slice(&dev, &au, &[m, k])
        .unwrap()
        .matmul(&Array::from_slice(&dev, &bu, &[k, n]).unwrap())
        .unwrap();
    assert_eq!(c.to_vec::<u32>().unwrap(), wu);
    // Floats with rounding: error bound K * eps * sum |a||b| per element.
    let fa: Vec<f64> = (0..m * k).map(|i| ((i as f64) * 0.618).sin()).collect();
    let fb: Vec<f64> = (0..k * n).map(|i| ((i as f64) * 0.377).cos()).collect();
    let exact = reference(&fa, &fb, 1, 1, m, k, n);
    let absref = reference(
        &fa.iter().map(|x| x.abs()).collect::<Vec<_>>(),
        &fb.iter().map(|x| x.abs()).collect::<Vec<_>>(),
        1,
        1,
        m,
        k,
        n,
    );
    let check = |got: Vec<f64>, eps: f64, what: &str| {
        for (i, (g, (e, s))) in got.iter().zip(exact.iter().zip(&absref)).enumerate() {
            assert!(
                (g - e).abs() <= (k as f64) * eps * s + eps,
                "{what} [{i}]: {g} vs {e}"
            );
        }
    };
    let a32 = Array::from_slice(&dev, &to_f32(&fa), &[m, k]).unwrap();
    let b32 = Array::from_slice(&dev, &to_f32(&fb), &[k, n]).unwrap();
    for kernel in kernels(&dev) {
        check(
            mm(&a32, &b32, kernel)
                .unwrap()
                .to_vec::<f32>()
                .unwrap()
                .into_iter()
                .map(f64::from)
                .collect(),
            f32::EPSILON as f64,
            "f32",
        );
    }
    if common::supports(
        &dev,
        DType::F64,
        "integer_matmul_is_exact_and_other_dtypes_are_close",
    ) {
        let c = Array::from_slice(&dev, &fa, &[m, k])
            .unwrap()
            .matmul(&Array::from_slice(&dev, &fb, &[k, n]).unwrap())
            .unwrap();
        check(c.to_vec::<f64>().unwrap(), f64::EPSILON, "f64");
    }
    if common::supports(
        &dev,
        DType::F16,
        "integer_matmul_is_exact_and_other_dtypes_are_close",
    ) {
        // f16 inputs, f32 accumulation, one f16 rounding of the result.
        let ha16: Vec<f16> = fa.iter().map(|&x| f16::from_f64(x)).collect();
        let hb16: Vec<f16> = fb.iter().map(|&x| f16::from_f64(x)).collect();
        let want16 = reference(
            &ha16.iter().map(|x| x.to_f64()).collect::<Vec<_>>(),
            &hb16.iter().map(|x| x.to_f64()).collect::<Vec<_>>(),
            1,
            1,
            m,
            k,
            n,
        );
        let c = Array::from_slice(&dev, &ha16, &[m, k])
            .unwrap()
            .matmul(&Array::from_slice(&dev, &hb16, &[k, n]).unwrap())
            .unwrap();
        for (g, w) in c.to_vec::<f16>().unwrap().iter().zip(&want16) {
            assert!(
                (g.to_f64() - w).abs() <= w.abs() * 2f64.powi(-10) + 1e-3,
                "f16 {g} vs {w}"
            );
        }
    }
}

#[test]
fn operands_beyond_the_binding_limit() {
    let Some(dev) = common::device() else { return };
    let limit = dev.info().max_storage_buffer_binding_size as usize;
    // A long K: A is (48, K) and B (K, 40), each larger than one binding, so K is chunked and
    // later chunks accumulate. Inputs are small integers: the result is exact. On a device with
    // 16 MiB bindings: the same launches as past lavapipe's 128 MiB (the tiled kernel's K
    // slices, whose rows of A span the whole binding), 8× less work (25 s of the suite there).
    let Some(small) = common::device_with_binding(common::TEST_BINDING) else {
        return;
    };
    let k = common::TEST_BINDING as usize / 4 / 40 + 1001;
    let (m, n) = (48usize, 40usize);
    // Non-negative, so a truncated sum can never come out right by cancellation.
    let ha: Vec<f32> = (0..m * k).map(|i| (i % 5) as f32).collect();
    let hb: Vec<f32> = (0..k * n).map(|i| (i % 3) as f32 + 1.0).collect();
    let a = Array::from_slice(&small, &ha, &[m, k]).unwrap();
    let b = Array::from_slice(&small, &hb, &[k, n]).unwrap();
    let c = a.matmul(&b).unwrap().to_vec::<f32>().unwrap();
    for &i in &[0usize, 17, 47] {
        for j in 0..n {
            let s: f64 = (0..k)
                .map(|p| ha[i * k + p] as f64 * hb[p * n + j] as f64)
                .sum();
            assert_eq!(c[i * n + j] as f64, s, "row {i} col {j}");
        }
    }
    drop((a, b, small));
    // Many rows: A is (M, 512) beyond the binding limit; rows are chunked.
    let (m, k, n) = (limit / 4 / 512 + 300, 512usize, 80usize);
    let ha: Vec<f32> = (0..m * k).map(|i| ((i % 7) as f32) - 3.0).collect();
    let hb: Vec<f32> = (0..k * n).map(|i| ((i % 5) as f32) - 2.0).collect();
    let a = Array::from_slice(&dev, &ha, &[m, k]).unwrap();
    let b = Array::from_slice(&dev, &hb, &[k, n]).unwrap();
    let c = a.matmul(&b).unwrap().to_vec::<f32>().unwrap();
    for &i in &[0usize, m / 2, m - 1] {
        for j in 0..n {
            let s: f64 = (0..k)
                .map(|p| ha[i * k + p] as f64 * hb[p * n + j] as f64)
                .sum();
            assert_eq!(c[i * n + j] as f64, s, "row {i} col {j}");
        }
    }
}

#[test]
fn long_sums_are_not_truncated() {
    // lavapipe ends an invocation's loops after 65535 iterations in total; the host splits K so
    // no kernel gets near that. Sums of ones must count every term.
    let Some(dev) = common::device() else { return };
    // 140,001: past two of the GEMV's 131,072-term launches, and nine of the tiled kernel's.
    for k in [65_535usize, 65_536, 140_001] {
        let a = Array::ones(&dev, &[2, 3, k], DType::F32).unwrap();
        let b = Array::ones(&dev, &[2, k, 2], DType::F32).unwrap();
        for kernel in kernels(&dev) {
            assert_eq!(
                mm(&a, &b, kernel).unwrap().to_vec::<f32>().unwrap(),
                vec![k as f32; 12],
                "{kernel:?} k={k}"
            );
        }
        let v = Array::ones(&dev, &[k], DType::I32).unwrap();
        assert_eq!(
            v.dot(&v).unwrap().to_vec::<i32>().unwrap(),
            vec![k as i32],
            "gemv k={k}"
        );
    }
}

#[test]
fn skinny_products_with_long_k_split_k_exactly() {
    // Few output tiles and a long K: K is split into slices summed afterwards (with a remainder
    // slice when K does not divide); integer-valued data keeps every path exact.
    let Some(dev) = common::device() else { return };
    for &(m, k, n) in &[
        (8usize, 20_000usize, 8usize),
        (3, 20_001, 70),
        (64, 9_999, 1),
        (100, 4_096, 40),
    ] {
        let ha = ints(m * k, 11);
        let hb = ints(k * n, 12);
        let want = reference(&ha, &hb, 1, 1, m, k, n);
        let a = Array::from_slice(&dev, &to_f32(&ha), &[m, k]).unwrap();
        let b = Array::from_slice(&dev, &to_f32(&hb), &[k, n]).unwrap();
        assert_eq!(
            a.matmul_with(&b, MatmulKernel::Tiled)
                .unwrap()
                .to_vec::<f32>()
                .unwrap(),
            to_f32(&want),
            "f32 {m}x{k}x{n}"
        );
        assert_int32_product(
            &dev,
            (&ha, &[m, k]),
            (&hb, &[k, n]),
            &want,
            &format!("{m}x{k}x{n}"),
        );
    }
}

#[test]
fn narrow_products_take_one_gemv_per_column_exactly() {
    // C with 2 to 7 columns (or rows, the transposed product): one GEMV launch per column,
    // including transposed and batched operands and a K long enough to be chunked. Integer
    // data: every path is exact, so the result must equal the reference bit for bit.
    let Some(dev) = common::device() else { return };
    for &(batch, m, k, n) in &[
        (1usize, 5usize, 3usize, 2usize),
        (1, 2, 9, 700),
        (1, 7, 70_001, 7),
        (1, 100_000, 4, 3),
        (3, 33, 17, 6),
        (2, 4, 300, 65),
    ] {
        let ha = ints(batch * m * k, 3);
        let hb = ints(batch * k * n, 4);
        let want = reference(&ha, &hb, batch, batch, m, k, n);
        let a = Array::from_slice(&dev, &to_f32(&ha), &[batch, m, k]).unwrap();
        let b = Array::from_slice(&dev, &to_f32(&hb), &[batch, k, n]).unwrap();
        let c = a.matmul(&b).unwrap();
        assert_eq!(
            c.to_vec::<f32>().unwrap(),
            to_f32(&want),
            "{batch}x({m}x{k} @ {k}x{n})"
        );
        // The same product from transposed storage (Aᵀ and Bᵀ stored, read through views).
        let at = Array::from_slice(&dev, &to_f32(&ha), &[batch, m, k])
            .unwrap()
            .transpose(&[0, 2, 1])
            .unwrap()
            .contiguous()
            .unwrap()
            .transpose(&[0, 2, 1])
            .unwrap();
        let bt = b
            .transpose(&[0, 2, 1])
            .unwrap()
            .contiguous()
            .unwrap()
            .transpose(&[0, 2, 1])
            .unwrap();
        assert_eq!(
            at.matmul(&bt).unwrap().to_vec::<f32>().unwrap(),
            to_f32(&want),
            "{batch}x({m}x{k} @ {k}x{n}) from transposed storage"
        );
        // int32 (the GEMV's integer variant).
        assert_int32_product(
            &dev,
            (&ha, &[batch, m, k]),
            (&hb, &[batch, k, n]),
            &want,
            &format!("{batch}x({m}x{k} @ {k}x{n})"),
        );
    }
}

#[test]
fn products_whose_64_rows_pass_one_binding_fall_back_to_the_tiled_kernel() {
    // Bindings capped at 256 KiB: C (60 × 1500 float32, 360 KB) has fewer rows than the
    // subgroup kernel's smallest launch (64), and those rows span more than one binding, so no
    // launch of that kernel fits; the tiled kernel, which splits to single rows, runs instead
    // (the tuned choice is not forced) and gives its own bits exactly.
    let Some(dev) = common::device_with_binding(256 << 10) else {
        return;
    };
    for &(m, k, n) in &[(60usize, 60usize, 1500usize), (60, 64, 1201)] {
        let ha = ints(m * k, 5);
        let hb = ints(k * n, 6);
        let a = Array::from_slice(&dev, &to_f32(&ha), &[m, k]).unwrap();
        let b = Array::from_slice(&dev, &to_f32(&hb), &[k, n]).unwrap();
        let c = a.matmul(&b).unwrap().to_vec::<f32>().unwrap();
        assert_eq!(
            c,
            to_f32(&reference(&ha, &hb, 1, 1, m, k, n)),
            "{m}x{k}x{n}"
        );
        let tiled = a.matmul_with(&b, MatmulKernel::Tiled).unwrap();
        assert_eq!(c, tiled.to_vec::<f32>().unwrap(), "{m}x{k}x{n} vs tiled");
    }
    assert!(dev.take_uncaptured_errors().is_empty());
}

#[test]
fn errors_and_empty_operands() {
    let Some(dev) = common::device() else { return };
    // Taken before any array exists: every array made below must be freed by the end.
    let base = dev.memory_stats().in_use_bytes;
    let a = Array::ones(&dev, &[2, 3], DType::F32).unwrap();
    let b = Array::ones(&dev, &[4, 5], DType::F32).unwrap();
    let e = a.matmul(&b).unwrap_err();
    assert!(
        matches!(e, Error::Shape { .. })
            && e.to_string().contains("[2, 3]")
            && e.to_string().contains("[4, 5]"),
        "{e}"
    );
    let i = Array::ones(&dev, &[3, 2], DType::I32).unwrap();
    assert!(matches!(a.matmul(&i), Err(Error::DTypeMismatch { .. })));
    let s = Array::full(&dev, &[], 2.0, DType::F32).unwrap();
    assert!(matches!(a.matmul(&s), Err(Error::Shape { .. })));
    let b1 = Array::ones(&dev, &[2, 3, 4], DType::F32).unwrap();
    let b2 = Array::ones(&dev, &[3, 4, 5], DType::F32).unwrap();
    assert!(matches!(b1.matmul(&b2), Err(Error::Shape { .. })));
    assert!(matches!(
        a.matmul_with(&a.t(), MatmulKernel::SubgroupBroadcast { rows: 12 }),
        Err(Error::Unsupported { .. })
    ));
    assert!(matches!(
        i.matmul_with(&i.t(), MatmulKernel::SubgroupBroadcast { rows: 32 }),
        Err(Error::Unsupported { .. })
    ));
    // A zero-size K gives zeros; zero-size M or N gives an empty result.
    let z = Array::zeros(&dev, &[3, 0], DType::F32)
        .unwrap()
        .matmul(&Array::zeros(&dev, &[0, 4], DType::F32).unwrap())
        .unwrap();
    assert_eq!(
        (z.shape(), z.to_vec::<f32>().unwrap()),
        (&[3usize, 4][..], vec![0.0; 12])
    );
    let e = Array::zeros(&dev, &[0, 3], DType::F32)
        .unwrap()
        .matmul(&Array::ones(&dev, &[3, 4], DType::F32).unwrap())
        .unwrap();
    assert_eq!(e.shape(), &[0, 4]);
    assert!(e.to_vec::<f32>().unwrap().is_empty());
    // Earlier arrays are intact.
    assert_eq!(a.to_vec::<f32>().unwrap(), vec![1.0; 6]);
    drop((z, e, b1, b2, s, i, b, a));
    common::check_clean(&dev, base);
}

#[test]
fn dot_vdot_inner_outer_tensordot_follow_numpy() {
    let Some(dev) = common::device() else { return };
    let ha = ints(2 * 3 * 4, 9);
    let hb = ints(4 * 3 * 5, 10);
    let a = Array::from_slice(&dev, &to_f32(&ha), &[2, 3, 4]).unwrap();
    let b = Array::from_slice(&dev, &to_f32(&hb), &[4, 3, 5]).unwrap();
    // tensordot over a's axes (1, 2) and b's axes (1, 0): c[i, l] = sum_jk a[i,j,k] b[k,j,l].
    let c = a.tensordot(&b, &[1, 2], &[1, 0]).unwrap();
    assert_eq!(c.shape(), &[2, 5]);
    let mut want = vec![0.0f64; 10];
    for i in 0..2 {
        for l in 0..5 {
            for j in 0..3 {
                for k in 0..4 {
                    want[i * 5 + l] += ha[i * 12 + j * 4 + k] * hb[k * 15 + j * 5 + l];
                }
            }
        }
    }
    assert_eq!(c.to_vec::<f32>().unwrap(), to_f32(&want));
    assert_err!(
        a.tensordot(&b, &[0], &[0]),
        Error::Shape {
            op: "tensordot",
            ..
        },
        "tensordot"
    );
    // dot of N-d and M-d: sum over a's last axis and b's second-to-last.
    let d = a.dot(&b.transpose(&[1, 0, 2]).unwrap()).unwrap(); // (2,3,4) . (3,4,5) -> (2,3,3,5)
    assert_eq!(d.shape(), &[2, 3, 3, 5]);
    let dv = d.to_vec::<f32>().unwrap();
    for (idx, &g) in dv.iter().enumerate() {
        let (i, j, kk, l) = (idx / 45, idx / 15 % 3, idx / 5 % 3, idx % 5);
        let s: f64 = (0..4)
            .map(|p| ha[i * 12 + j * 4 + p] * hb[p * 15 + kk * 5 + l])
            .sum();
        assert_eq!(g as f64, s);
    }
    let v = Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3]).unwrap();
    let w = Array::from_slice(&dev, &[4.0f32, 5.0, 6.0], &[3]).unwrap();
    assert_eq!(v.dot(&w).unwrap().to_vec::<f32>().unwrap(), vec![32.0]);
    assert_eq!(v.inner(&w).unwrap().to_vec::<f32>().unwrap(), vec![32.0]);
    let m2 = Array::from_slice(&dev, &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]).unwrap();
    assert_eq!(m2.vdot(&m2).unwrap().to_vec::<f32>().unwrap(), vec![91.0]);
    assert_eq!(
        m2.inner(&m2).unwrap().to_vec::<f32>().unwrap(),
        vec![14.0, 32.0, 32.0, 77.0]
    );
    assert_eq!(
        v.outer(&w).unwrap().to_vec::<f32>().unwrap(),
        vec![4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 12.0, 15.0, 18.0]
    );
    let two = Array::full(&dev, &[], 2.0, DType::F32).unwrap();
    let sd = two.dot(&m2).unwrap();
    assert_eq!(
        (sd.shape(), sd.to_vec::<f32>().unwrap()),
        (&[2usize, 3][..], vec![2.0, 4.0, 6.0, 8.0, 10.0, 12.0])
    );
    assert_err!(v.vdot(&m2), Error::Shape { op: "vdot", .. }, "vdot");
}
