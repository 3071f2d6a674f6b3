//! User kernels (`ElementwiseKernel`, `ReductionKernel`, `RawKernel`) on the real adapter,
//! against host references computed here: CuPy's documented examples in WGSL, broadcasting,
//! views, dtypes, scalars, `out=` aliasing, arrays past one binding, and bad kernels that
//! must be an `Err` naming the problem.

mod common;

use gpuarray::{Arg, Array, DType, ElementwiseKernel, Error};

#[test]
fn squared_difference_broadcasts_over_views() {
    let Some(dev) = common::device() else { return };
    let k = ElementwiseKernel::new(
        "float32 x, float32 y",
        "float32 z",
        "z = (x - y) * (x - y)",
        "squared_diff",
    )
    .unwrap();
    let xs: Vec<f32> = (0..24).map(|i| i as f32 * 0.5 - 3.0).collect();
    let ys: Vec<f32> = (0..4).map(|i| i as f32 * 1.25).collect();
    let x = Array::from_slice(&dev, &xs, &[2, 3, 4]).unwrap();
    let y = Array::from_slice(&dev, &ys, &[4]).unwrap();
    let z = &k.call(&[(&x).into(), (&y).into()]).unwrap()[0];
    assert_eq!(z.shape(), &[2, 3, 4]);
    let want: Vec<f32> = (0..24)
        .map(|i| (xs[i] - ys[i % 4]) * (xs[i] - ys[i % 4]))
        .collect();
    assert_eq!(z.to_vec::<f32>().unwrap(), want);
    // A transposed view and a scalar.
    let xt = x.transpose(&[2, 1, 0]).unwrap();
    let z = &k.call(&[(&xt).into(), Arg::Scalar(1.5)]).unwrap()[0];
    let got = z.to_vec::<f32>().unwrap();
    for (i, g) in got.iter().enumerate() {
        let (a, b, c) = (i / 6, (i / 2) % 3, i % 2);
        let v = xs[c * 12 + b * 4 + a];
        assert_eq!(*g, (v - 1.5) * (v - 1.5), "at {i}");
    }
}

#[test]
fn l2_norm_reduces_any_axes_in_stages() {
    let Some(dev) = common::device() else { return };
    let k = gpuarray::ReductionKernel::new(
        "T x",
        "T y",
        "x * x",
        "a + b",
        "y = sqrt(a)",
        Some("0"),
        "l2norm",
    )
    .unwrap();
    let (r, c) = (37, 300_001);
    let xs: Vec<f32> = (0..r * c)
        .map(|i| ((i * 7919) % 1000) as f32 / 1000.0 - 0.5)
        .collect();
    let x = Array::from_slice(&dev, &xs, &[r, c]).unwrap();
    // Rows (few outputs, long rows: several stages), columns, everything, keepdims.
    let rows = k.call(&[(&x).into()], 1, false).unwrap()[0]
        .to_vec::<f32>()
        .unwrap();
    for i in 0..r {
        let want = xs[i * c..(i + 1) * c]
            .iter()
            .map(|&v| (v as f64).powi(2))
            .sum::<f64>()
            .sqrt();
        assert!(
            (rows[i] as f64 - want).abs() < 1e-4 * want,
            "row {i}: {} vs {want}",
            rows[i]
        );
    }
    let cols = k.call(&[(&x).into()], 0, true).unwrap();
    assert_eq!(cols[0].shape(), &[1, c]);
    let cols = cols[0].to_vec::<f32>().unwrap();
    for j in (0..c).step_by(9973) {
        let want = (0..r)
            .map(|i| (xs[i * c + j] as f64).powi(2))
            .sum::<f64>()
            .sqrt();
        assert!(
            (cols[j] as f64 - want).abs() < 1e-5 * want.max(1e-3),
            "col {j}"
        );
    }
    let all = k.call(&[(&x).into()], gpuarray::Axes::All, false).unwrap();
    assert_eq!(all[0].shape(), &[] as &[usize]);
    let want = xs.iter().map(|&v| (v as f64).powi(2)).sum::<f64>().sqrt();
    let got = all[0].to_vec::<f32>().unwrap()[0] as f64;
    assert!((got - want).abs() < 1e-4 * want, "{got} vs {want}");
}

#[test]
fn a_reduction_without_identity_starts_from_the_first_value() {
    let Some(dev) = common::device() else { return };
    let k = gpuarray::ReductionKernel::new(
        "int32 x",
        "int32 y",
        "x",
        "max(a, b)",
        "y = a",
        None,
        "int_max",
    )
    .unwrap();
    let xs: Vec<i32> = (0..5000).map(|i| ((i * 7919) % 10007) - 9000).collect();
    let x = Array::from_slice(&dev, &xs, &[50, 100]).unwrap();
    let got = k.call(&[(&x.t()).into()], 0, false).unwrap()[0]
        .to_vec::<i32>()
        .unwrap();
    let want: Vec<i32> = (0..50)
        .map(|i| *xs[i * 100..(i + 1) * 100].iter().max().unwrap())
        .collect();
    assert_eq!(got, want);
    // Contiguous rows of whole fours: read four at a time; a broadcast operand beside them.
    let rows = Array::from_slice(&dev, &xs, &[5, 1000]).unwrap();
    let got = k.call(&[(&rows).into()], 1, false).unwrap()[0]
        .to_vec::<i32>()
        .unwrap();
    let want: Vec<i32> = (0..5)
        .map(|i| *xs[i * 1000..(i + 1) * 1000].iter().max().unwrap())
        .collect();
    assert_eq!(got, want);
    let dot = gpuarray::ReductionKernel::new(
        "int32 x, int32 w",
        "int32 y",
        "x * w",
        "a + b",
        "y = a",
        Some("0"),
        "dot",
    )
    .unwrap();
    let w = Array::from_slice(&dev, &[3i32], &[1]).unwrap();
    let got = dot.call(&[(&rows).into(), (&w).into()], 1, false).unwrap()[0]
        .to_vec::<i32>()
        .unwrap();
    let want: Vec<i32> = (0..5)
        .map(|i| xs[i * 1000..(i + 1) * 1000].iter().map(|v| v * 3).sum())
        .collect();
    assert_eq!(got, want);
    let empty = Array::zeros(&dev, &[0, 3], DType::I32).unwrap();
    let e = k.call(&[(&empty).into()], 0, false);
    assert_err!(
        e,
        Error::InvalidArgument { .. },
        "ReductionKernel",
        "needs an identity"
    );
}

#[test]
fn every_dtype_with_scalars_and_the_element_index() {
    let Some(dev) = common::device() else { return };
    let k = ElementwiseKernel::new("T a, T b", "T c", "c = a * b + T(i % 7u)", "affine").unwrap();
    for dtype in [
        DType::F32,
        DType::F16,
        DType::F64,
        DType::I8,
        DType::U8,
        DType::I16,
        DType::U16,
        DType::I32,
        DType::U32,
    ] {
        if !common::supports(&dev, dtype, "user kernel dtype") {
            continue;
        }
        let n = 1001;
        let a: Vec<f64> = (0..n).map(|i| (i % 23) as f64).collect();
        let x = common::upload(&dev, &a, &[n], dtype);
        let got = k.call(&[(&x).into(), Arg::Scalar(3.0)]);
        if dtype == DType::F64 && dev.f64_emulated() {
            assert_err!(
                got,
                Error::Unsupported { .. },
                "ElementwiseKernel",
                "float64"
            );
            continue;
        }
        let got = common::read(&got.unwrap()[0]);
        for i in 0..n {
            let want = a[i] * 3.0 + (i % 7) as f64;
            // Integers wrap as NumPy's do; floats are exact here.
            let want = match dtype {
                DType::I8 => want as i64 as i8 as f64,
                DType::U8 => want as i64 as u8 as f64,
                _ => want,
            };
            assert_eq!(got[i], want, "{dtype} at {i}");
        }
    }
    // A bool parameter and output.
    let pos = ElementwiseKernel::new("float32 x", "bool p", "p = x > 0.0", "positive").unwrap();
    let x = Array::from_slice(&dev, &[-1.0f32, 0.0, 2.0], &[3]).unwrap();
    let p = &pos.call(&[(&x).into()]).unwrap()[0];
    assert_eq!(p.dtype(), DType::Bool);
    assert_eq!(common::read(p), vec![0.0, 0.0, 1.0]);
}

#[test]
fn outputs_given_aliasing_and_past_one_binding() {
    let Some(dev) = common::device_with_binding(1 << 16) else {
        return;
    };
    let n = 3 * (1 << 14) + 5; // 196 KiB of f32: several bindings
    common::assert_crosses_binding(&dev, 4 * n as u64, "user kernel");
    let xs: Vec<f32> = (0..n).map(|i| (i % 1000) as f32).collect();
    let x = Array::from_slice(&dev, &xs, &[n]).unwrap();
    let k = ElementwiseKernel::new(
        "float32 x",
        "float32 y, uint32 j",
        "y = x * 2.0; j = i",
        "two",
    )
    .unwrap();
    let out = k.call(&[(&x).into()]).unwrap();
    let (y, j) = (
        out[0].to_vec::<f32>().unwrap(),
        out[1].to_vec::<u32>().unwrap(),
    );
    for i in 0..n {
        assert_eq!((y[i], j[i]), (xs[i] * 2.0, i as u32), "at {i}");
    }
    // out= aliasing the input: x = x * 2, in place, through a view too.
    let inc = ElementwiseKernel::new("float32 x", "float32 y", "y = x + 1.0", "inc").unwrap();
    inc.call_into(&[(&x).into()], &[&x]).unwrap();
    let got = x.to_vec::<f32>().unwrap();
    assert!(got.iter().zip(&xs).all(|(g, w)| *g == w + 1.0));
    let rev = x
        .slice(&[gpuarray::SliceArg::Range {
            start: None,
            stop: None,
            step: -1,
        }])
        .unwrap();
    inc.call_into(&[(&rev).into()], &[&x]).unwrap();
    let again = x.to_vec::<f32>().unwrap();
    for i in 0..n {
        assert_eq!(again[i], got[n - 1 - i] + 1.0, "at {i}");
    }
    // A wrong output shape or dtype.
    let small = Array::zeros(&dev, &[3], DType::F32).unwrap();
    assert_err!(
        inc.call_into(&[(&x).into()], &[&small]),
        Error::Shape { .. },
        "ElementwiseKernel"
    );
    let ints = Array::zeros(&dev, &[n], DType::I32).unwrap();
    assert_err!(
        inc.call_into(&[(&x).into()], &[&ints]),
        Error::DTypeMismatch { .. },
        "ElementwiseKernel"
    );
}

#[test]
fn bad_kernels_are_errors_naming_the_problem() {
    let Some(dev) = common::device() else { return };
    let x = Array::from_slice(&dev, &[1.0f32, 2.0], &[2]).unwrap();
    let run = |body: &str, out: &str| {
        ElementwiseKernel::new("float32 x", out, body, "bad").and_then(|k| k.call(&[(&x).into()]))
    };
    let e = assert_err!(
        run("y = (x", "float32 y"),
        Error::InvalidArgument { .. },
        "ElementwiseKernel"
    );
    assert!(e.contains("line 1"), "{e}");
    let e = assert_err!(
        run("y = x +\n    q", "float32 y"),
        Error::InvalidArgument { .. },
        "ElementwiseKernel",
        "line 2, column 5 of the operation"
    );
    assert!(e.contains("`q`"), "{e}");
    assert_err!(
        run("y = x", "int32 y"),
        Error::InvalidArgument { .. },
        "ElementwiseKernel",
        "does not compile"
    );
    assert_err!(
        run("y = gpa_p.count", "float32 y"),
        Error::InvalidArgument { .. },
        "ElementwiseKernel",
        "gpa_"
    );
    assert_err!(
        ElementwiseKernel::new("float32 x", "float32 y", "y = x", "bad")
            .unwrap()
            .call(&[]),
        Error::InvalidArgument { .. },
        "ElementwiseKernel",
        "takes 1 argument"
    );
    // A preamble's names cannot clash with the kernel's own: helper functions named like ours.
    let k = ElementwiseKernel::new("float32 x", "float32 y", "y = load_a(x) + p(x)", "clash")
        .unwrap()
        .with_preamble(
            "fn load_a(v: f32) -> f32 { return v * 2.0; }\nfn p(v: f32) -> f32 { return v; }",
        );
    assert_eq!(
        k.call(&[(&x).into()]).unwrap()[0].to_vec::<f32>().unwrap(),
        vec![3.0, 6.0]
    );
    // More arrays than a stage binds (WebGPU's default limit, 8).
    let Some(narrow) = common::device_from(common::test_config().and_then(|c| {
        gpuarray::Device::with_config(gpuarray::DeviceConfig {
            max_storage_buffers_per_shader_stage: Some(8),
            ..c
        })
    })) else {
        return;
    };
    let params: Vec<String> = (0..8).map(|k| format!("float32 x{k}")).collect();
    let wide =
        ElementwiseKernel::new(&params.join(", "), "float32 y", "y = x0 + x7", "wide").unwrap();
    let a = Array::from_slice(&narrow, &[1.0f32], &[1]).unwrap();
    let args: Vec<Arg> = (0..8).map(|_| (&a).into()).collect();
    assert_err!(
        wide.call(&args),
        Error::InvalidArgument { .. },
        "ElementwiseKernel",
        "max_storage_buffers_per_shader_stage (8)"
    );
    assert_eq!(a.to_vec::<f32>().unwrap(), vec![1.0]);
    assert!(dev.take_uncaptured_errors().is_empty());
}

#[test]
fn raw_kernels_bind_by_position() {
    let Some(dev) = common::device() else { return };
    let k = gpuarray::RawKernel::new(
        "@group(0) @binding(0) var<storage, read> a: array<u32>;
         @group(0) @binding(1) var<storage, read_write> b: array<u32>;
         @group(0) @binding(2) var<uniform> k: vec4<u32>;
         @compute @workgroup_size(64)
         fn mix(@builtin(global_invocation_id) id: vec3<u32>) {
             let i = id.x + id.y * 64u * 70000u;
             if (i < arrayLength(&b)) { b[i] = a[i] * k.x + k.y; }
         }",
        "mix",
    )
    .unwrap();
    // A grid past 65535 workgroups in x would be refused: 2-D grids are the caller's job.
    let n = 100_000usize;
    let a: Vec<u32> = (0..n as u32).collect();
    let x = Array::from_slice(&dev, &a, &[n]).unwrap();
    let y = Array::zeros(&dev, &[n], DType::U32).unwrap();
    k.call(
        ((n as u32).div_ceil(64), 1, 1),
        &[
            (&x).into(),
            (&y).into(),
            gpuarray::RawArg::uniform_u32(&[3, 1, 0, 0]),
        ],
    )
    .unwrap();
    let got = y.to_vec::<u32>().unwrap();
    assert!(got.iter().enumerate().all(|(i, &v)| v == i as u32 * 3 + 1));
    assert_err!(
        k.call(
            (70_000, 1, 1),
            &[
                (&x).into(),
                (&y).into(),
                gpuarray::RawArg::uniform_u32(&[0; 4])
            ]
        ),
        Error::TooLarge { .. },
        "RawKernel",
        "max_compute_workgroups_per_dimension"
    );
    let bad = gpuarray::RawKernel::new("fn nope( {", "nope").unwrap();
    assert_err!(
        bad.call((1, 1, 1), &[(&x).into()]),
        Error::InvalidArgument { .. },
        "RawKernel",
        "line 1"
    );
    let strided = x
        .slice(&[gpuarray::SliceArg::Range {
            start: None,
            stop: None,
            step: 2,
        }])
        .unwrap();
    assert_err!(
        k.call(
            (1, 1, 1),
            &[
                (&strided).into(),
                (&y).into(),
                gpuarray::RawArg::uniform_u32(&[0; 4])
            ]
        ),
        Error::InvalidArgument { .. },
        "RawKernel",
        "not contiguous"
    );
}

#[test]
fn a_kernel_that_loops_forever_is_a_timeout_and_the_device_goes_on() {
    let Some(dev) = common::device() else { return };
    let x = Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3]).unwrap();
    let forever = ElementwiseKernel::new(
        "float32 x",
        "float32 y",
        "var k = 0u;\nloop { k += 1u; if (x < 0.0) { break; } }\ny = x + f32(k)",
        "forever",
    )
    .unwrap();
    assert_err!(
        forever.call(&[(&x).into()]),
        Error::Timeout { .. },
        "ElementwiseKernel"
    );
    // A loop that ends within the budget runs, and the device goes on.
    let sum = ElementwiseKernel::new(
        "float32 x",
        "float32 y",
        "var s = 0.0;\nfor (var k = 0; k < 100; k++) { s += x; }\ny = s",
        "bounded",
    )
    .unwrap();
    assert_eq!(
        sum.call(&[(&x).into()]).unwrap()[0]
            .to_vec::<f32>()
            .unwrap(),
        vec![100.0, 200.0, 300.0]
    );
    let raw = gpuarray::RawKernel::new(
        "@group(0) @binding(0) var<storage, read_write> v: array<u32>;
         @compute @workgroup_size(1) fn spin() { while (v[0] != 7u) { v[1] += 1u; } }",
        "spin",
    )
    .unwrap();
    let v = Array::zeros(&dev, &[2], DType::U32).unwrap();
    assert_err!(
        raw.call((1, 1, 1), &[(&v).into()]),
        Error::Timeout { .. },
        "RawKernel"
    );
    assert_eq!(
        (&x * 2.0).unwrap().to_vec::<f32>().unwrap(),
        vec![2.0, 4.0, 6.0]
    );
    assert!(dev.take_uncaptured_errors().is_empty());
}

#[test]
fn loops_that_together_pass_the_cpu_budget_are_a_timeout_not_a_wrong_answer() {
    // lavapipe leaves every loop of an invocation once they have run 65535 iterations together:
    // two loops of 50,000 would silently run the second 15,534 times. On a CPU adapter the
    // budget counts all loops together (an Err); elsewhere both loops run in full.
    let Some(dev) = common::device() else { return };
    let raw = gpuarray::RawKernel::new(
        "@group(0) @binding(0) var<storage, read_write> v: array<u32>;
         @compute @workgroup_size(1) fn two() {
             for (var i = 0u; i < 50000u; i++) { v[0] += 1u; }
             for (var i = 0u; i < 50000u; i++) { v[1] += 1u; }
         }",
        "two",
    )
    .unwrap();
    let v = Array::zeros(&dev, &[2], DType::U32).unwrap();
    match raw.call((1, 1, 1), &[(&v).into()]) {
        Ok(()) => {
            assert_ne!(dev.info().device_type, "Cpu", "a CPU adapter must refuse");
            assert_eq!(v.to_vec::<u32>().unwrap(), vec![50_000, 50_000]);
        }
        Err(Error::Timeout { .. }) => assert_eq!(dev.info().device_type, "Cpu"),
        Err(e) => panic!("{e:?}"),
    }
    assert!(dev.take_uncaptured_errors().is_empty());
}

#[test]
fn long_rows_with_strided_outer_axes() {
    let Some(dev) = common::device() else { return };
    // Rows of 700 (the rows walk): outer axes transposed, one operand broadcast along rows,
    // one along columns, and `i` counting the output's elements.
    let (a, b, w) = (5, 3, 700);
    let xs: Vec<f32> = (0..a * b * w).map(|i| (i % 997) as f32 * 0.5).collect();
    let x = Array::from_slice(&dev, &xs, &[b, a, w])
        .unwrap()
        .transpose(&[1, 0, 2])
        .unwrap();
    let col: Vec<f32> = (0..w).map(|j| j as f32).collect();
    let c = Array::from_slice(&dev, &col, &[w]).unwrap();
    let row: Vec<f32> = (0..a * b).map(|r| r as f32 * 1000.0).collect();
    let r = Array::from_slice(&dev, &row, &[a, b, 1]).unwrap();
    let k = ElementwiseKernel::new(
        "float32 x, float32 c, float32 r",
        "float32 y, uint32 j",
        "y = x + c + r; j = i",
        "rows",
    )
    .unwrap();
    let out = k.call(&[(&x).into(), (&c).into(), (&r).into()]).unwrap();
    let (y, j) = (
        out[0].to_vec::<f32>().unwrap(),
        out[1].to_vec::<u32>().unwrap(),
    );
    for p in 0..a {
        for q in 0..b {
            for s in 0..w {
                let i = (p * b + q) * w + s;
                let want = xs[(q * a + p) * w + s] + col[s] + row[p * b + q];
                assert_eq!((y[i], j[i]), (want, i as u32), "at ({p}, {q}, {s})");
            }
        }
    }
}

#[test]
fn int64_parameters_compute_in_64_bit_integers() {
    let Some(dev) = common::device() else { return };
    let k = ElementwiseKernel::new(
        "int64 a, uint64 b, T s",
        "int64 c, uint64 d",
        "c = a * 3 - s; d = b * b + u64(i)",
        "wide",
    )
    .unwrap();
    let n = 1000usize;
    let a: Vec<i64> = (0..n as i64)
        .map(|i| i * 3_000_000_007 - 1_500_000_000_000)
        .collect();
    let b: Vec<u64> = (0..n as u64).map(|i| (i << 33) + 12_345).collect();
    let x = Array::from_slice(&dev, &a, &[n]).unwrap();
    let y = Array::from_slice(&dev, &b, &[n]).unwrap();
    let got = k.call(&[(&x).into(), (&y).into(), Arg::Typed(7e9, DType::I64)]);
    if !dev.info().features.contains(&"shader-int64") {
        assert_err!(
            got,
            Error::Unsupported { .. },
            "ElementwiseKernel",
            "SHADER_INT64"
        );
        return;
    }
    let out = got.unwrap();
    let (c, d) = (
        out[0].to_vec::<i64>().unwrap(),
        out[1].to_vec::<u64>().unwrap(),
    );
    for i in 0..n {
        assert_eq!(
            c[i],
            a[i].wrapping_mul(3).wrapping_sub(7_000_000_000),
            "c at {i}"
        );
        assert_eq!(
            d[i],
            b[i].wrapping_mul(b[i]).wrapping_add(i as u64),
            "d at {i}"
        );
    }
    // A 64-bit sum: partial results in word pairs between stages.
    let total = gpuarray::ReductionKernel::new(
        "int64 x",
        "int64 s",
        "x",
        "a + b",
        "s = a",
        Some("0"),
        "s64",
    )
    .unwrap();
    let big = Array::from_slice(
        &dev,
        &(0..300_000i64).map(|i| i * 1_000_003).collect::<Vec<_>>(),
        &[300_000],
    )
    .unwrap();
    let s = total.call(&[(&big).into()], 0, false).unwrap()[0]
        .to_vec::<i64>()
        .unwrap()[0];
    assert_eq!(s, (0..300_000i64).map(|i| i * 1_000_003).sum::<i64>());
}
