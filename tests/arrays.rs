//! Arrays on the real adapter: round trips, constructors, views and GPU copies, each checked
//! element by element against a CPU model written here, independently of the library.

mod common;

use gpuarray::{Array, DType, Error, SliceArg, f16};

/// A host model of a strided view: the expected element order is computed by plain index
/// arithmetic on the base data, not by gpuarray's own layout code.
#[derive(Clone, Debug)]
struct Model {
    shape: Vec<usize>,
    strides: Vec<isize>,
    offset: isize,
}

impl Model {
    fn new(shape: &[usize]) -> Model {
        let mut strides = vec![0isize; shape.len()];
        let mut acc = 1;
        for d in (0..shape.len()).rev() {
            strides[d] = acc;
            acc *= shape[d] as isize;
        }
        Model {
            shape: shape.to_vec(),
            strides,
            offset: 0,
        }
    }
    fn transpose(&self, axes: &[usize]) -> Model {
        Model {
            shape: axes.iter().map(|&a| self.shape[a]).collect(),
            strides: axes.iter().map(|&a| self.strides[a]).collect(),
            offset: self.offset,
        }
    }
    /// `start:stop:step` on one axis, with Python's clamping rules spelled out.
    fn slice(&self, axis: usize, start: Option<isize>, stop: Option<isize>, step: isize) -> Model {
        let n = self.shape[axis] as isize;
        let mut idx = Vec::new();
        if step > 0 {
            let s = start
                .map(|s| if s < 0 { (s + n).max(0) } else { s.min(n) })
                .unwrap_or(0);
            let e = stop
                .map(|e| if e < 0 { (e + n).max(0) } else { e.min(n) })
                .unwrap_or(n);
            let mut i = s;
            while i < e {
                idx.push(i);
                i += step;
            }
        } else {
            let s = start
                .map(|s| if s < 0 { (s + n).max(-1) } else { s.min(n - 1) })
                .unwrap_or(n - 1);
            let e = stop
                .map(|e| if e < 0 { (e + n).max(-1) } else { e.min(n - 1) })
                .unwrap_or(-1);
            let mut i = s;
            while i > e {
                idx.push(i);
                i += step;
            }
        }
        let mut m = self.clone();
        if let Some(&first) = idx.first() {
            m.offset += first * self.strides[axis];
        }
        m.shape[axis] = idx.len();
        m.strides[axis] *= step;
        m
    }
    fn index(&self, axis: usize, i: usize) -> Model {
        let mut m = self.clone();
        m.offset += i as isize * self.strides[axis];
        m.shape.remove(axis);
        m.strides.remove(axis);
        m
    }
    fn broadcast(&self, shape: &[usize]) -> Model {
        let lead = shape.len() - self.shape.len();
        let strides = (0..shape.len())
            .map(|d| {
                if d < lead || self.shape[d - lead] != shape[d] {
                    0
                } else {
                    self.strides[d - lead]
                }
            })
            .collect();
        Model {
            shape: shape.to_vec(),
            strides,
            offset: self.offset,
        }
    }
    fn gather<T: Copy>(&self, data: &[T]) -> Vec<T> {
        let n: usize = self.shape.iter().product();
        (0..n)
            .map(|flat| {
                let (mut rem, mut off) = (flat, self.offset);
                for d in (0..self.shape.len()).rev() {
                    off += (rem % self.shape[d]) as isize * self.strides[d];
                    rem /= self.shape[d];
                }
                data[off as usize]
            })
            .collect()
    }
}

fn iota_i32(n: usize) -> Vec<i32> {
    (0..n as i32).map(|i| i * 3 - 7).collect()
}

#[test]
fn round_trips_every_dtype_and_odd_shape() {
    let Some(dev) = common::device() else { return };
    // Taken before any array exists: every array made below must be freed by the end.
    let base = dev.memory_stats().in_use_bytes;
    let shapes: [&[usize]; 8] = [
        &[],
        &[0],
        &[1],
        &[3, 0, 2],
        &[1, 1, 1],
        &[5],
        &[2, 3, 4],
        &[7, 1, 3],
    ];
    for shape in shapes {
        let n: usize = shape.iter().product();
        let ints = iota_i32(n);
        let a = Array::from_slice(&dev, &ints, shape).unwrap();
        assert_eq!(a.shape(), shape);
        assert_eq!(a.len(), n);
        assert_eq!(a.to_vec::<i32>().unwrap(), ints, "i32 {shape:?}");
        let u: Vec<u32> = ints.iter().map(|&v| v as u32).collect();
        assert_eq!(
            Array::from_slice(&dev, &u, shape)
                .unwrap()
                .to_vec::<u32>()
                .unwrap(),
            u
        );
        let f: Vec<f32> = ints.iter().map(|&v| v as f32 * 0.25).collect();
        assert_eq!(
            Array::from_slice(&dev, &f, shape)
                .unwrap()
                .to_vec::<f32>()
                .unwrap(),
            f
        );
        if common::supports(&dev, DType::F64, "round_trips_every_dtype_and_odd_shape") {
            let d: Vec<f64> = ints.iter().map(|&v| v as f64 / 3.0).collect();
            assert_eq!(
                Array::from_slice(&dev, &d, shape)
                    .unwrap()
                    .to_vec::<f64>()
                    .unwrap(),
                d
            );
        }
        if common::supports(&dev, DType::F16, "round_trips_every_dtype_and_odd_shape") {
            let h: Vec<f16> = ints
                .iter()
                .map(|&v| f16::from_f32(v as f32 * 0.5))
                .collect();
            assert_eq!(
                Array::from_slice(&dev, &h, shape)
                    .unwrap()
                    .to_vec::<f16>()
                    .unwrap(),
                h
            );
        }
    }
    // 0-d and all-unit-axis arrays through the kernels (cast, strided copy, fill).
    let s = Array::from_slice(&dev, &[-3i32], &[]).unwrap();
    assert_eq!(
        s.astype(DType::F32).unwrap().to_vec::<f32>().unwrap(),
        vec![-3.0]
    );
    let u = Array::from_slice(&dev, &[4i32, 5], &[2, 1, 1])
        .unwrap()
        .slice(&[SliceArg::Index(1)])
        .unwrap();
    assert_eq!(u.shape(), &[1, 1]);
    assert_eq!(
        u.t().astype(DType::U32).unwrap().to_vec::<u32>().unwrap(),
        vec![5]
    );
    u.fill(9.0).unwrap();
    assert_eq!(u.to_vec::<i32>().unwrap(), vec![9]);
    assert_eq!(
        Array::full(&dev, &[], 2.0, DType::F32)
            .unwrap()
            .to_vec::<f32>()
            .unwrap(),
        vec![2.0]
    );
    drop((s, u));
    common::check_clean(&dev, base);
}

#[test]
fn async_readback_matches_blocking() {
    let Some(dev) = common::device() else { return };
    let data = iota_i32(1000);
    let a = Array::from_slice(&dev, &data, &[10, 100]).unwrap().t();
    let expected = Model::new(&[10, 100]).transpose(&[1, 0]).gather(&data);
    assert_eq!(
        pollster::block_on(a.to_vec_async::<i32>()).unwrap(),
        expected
    );
}

#[test]
fn views_match_a_cpu_model_of_the_same_strides() {
    let Some(dev) = common::device() else { return };
    let shape = [4usize, 5, 6];
    let data = iota_i32(120);
    let a = Array::from_slice(&dev, &data, &shape).unwrap();
    let m = Model::new(&shape);
    let r = |s, e, st| SliceArg::range(s, e, st);
    let cases: Vec<(&str, Array, Model)> = vec![
        (
            "transpose 2,0,1",
            a.transpose(&[2, 0, 1]).unwrap(),
            m.transpose(&[2, 0, 1]),
        ),
        ("t()", a.t(), m.transpose(&[2, 1, 0])),
        (
            "a[::-1]",
            a.slice(&[r(None, None, -1)]).unwrap(),
            m.slice(0, None, None, -1),
        ),
        (
            "a[:, 4:0:-2, 1::3]",
            a.slice(&[
                SliceArg::full(),
                r(Some(4), Some(0), -2),
                r(Some(1), None, 3),
            ])
            .unwrap(),
            m.slice(1, Some(4), Some(0), -2).slice(2, Some(1), None, 3),
        ),
        (
            "a[-1, :, ::-1]",
            a.slice(&[SliceArg::Index(-1), SliceArg::full(), r(None, None, -1)])
                .unwrap(),
            m.index(0, 3).slice(1, None, None, -1),
        ),
        (
            "a[1:3, -2]",
            a.slice(&[r(Some(1), Some(3), 1), SliceArg::Index(-2)])
                .unwrap(),
            m.slice(0, Some(1), Some(3), 1).index(1, 3),
        ),
        (
            "a[10:20] (empty)",
            a.slice(&[r(Some(10), Some(20), 1)]).unwrap(),
            m.slice(0, Some(10), Some(20), 1),
        ),
        (
            "a[None, 2]",
            a.slice(&[SliceArg::NewAxis, SliceArg::Index(2)]).unwrap(),
            {
                let mut x = m.index(0, 2);
                x.shape.insert(0, 1);
                x.strides.insert(0, 0);
                x
            },
        ),
        (
            "a[:, 0:1].broadcast(3,4,5,6)",
            a.slice(&[SliceArg::full(), r(Some(0), Some(1), 1)])
                .unwrap()
                .broadcast_to(&[3, 4, 5, 6])
                .unwrap(),
            m.slice(1, Some(0), Some(1), 1).broadcast(&[3, 4, 5, 6]),
        ),
        (
            "transpose of reversed",
            a.slice(&[r(None, None, -1)])
                .unwrap()
                .transpose(&[1, 2, 0])
                .unwrap(),
            m.slice(0, None, None, -1).transpose(&[1, 2, 0]),
        ),
    ];
    for (name, view, model) in &cases {
        assert_eq!(view.shape(), &model.shape[..], "{name}: shape");
        let expected = model.gather(&data);
        assert_eq!(view.to_vec::<i32>().unwrap(), expected, "{name}: elements");
        // contiguous() and astype() run the strided-copy kernel on the same view.
        let c = view.contiguous().unwrap();
        assert!(c.is_contiguous());
        assert_eq!(c.to_vec::<i32>().unwrap(), expected, "{name}: contiguous");
        let f: Vec<f32> = expected.iter().map(|&v| v as f32).collect();
        assert_eq!(
            view.astype(DType::F32).unwrap().to_vec::<f32>().unwrap(),
            f,
            "{name}: astype f32"
        );
        if common::supports(
            &dev,
            DType::F16,
            "views_match_a_cpu_model_of_the_same_strides",
        ) {
            let h: Vec<f16> = expected.iter().map(|&v| f16::from_f32(v as f32)).collect();
            assert_eq!(
                view.astype(DType::F16).unwrap().to_vec::<f16>().unwrap(),
                h,
                "{name}: astype f16"
            );
        }
    }
    // Views share storage: no new memory for any of them.
    let before = dev.memory_stats().in_use_bytes;
    let _views: Vec<Array> = (0..10)
        .map(|_| a.t().slice(&[r(None, None, -2)]).unwrap())
        .collect();
    assert_eq!(dev.memory_stats().in_use_bytes, before);
}

#[test]
fn reshape_squeeze_expand_dims() {
    let Some(dev) = common::device() else { return };
    let data = iota_i32(24);
    let a = Array::from_slice(&dev, &data, &[2, 3, 4]).unwrap();
    assert_eq!(a.reshape(&[4, -1]).unwrap().shape(), &[4, 6]);
    assert_eq!(a.reshape(&[24]).unwrap().to_vec::<i32>().unwrap(), data);
    // A transposed view cannot be flattened without a copy: reshape copies, like NumPy.
    let t = a.transpose(&[2, 1, 0]).unwrap();
    let expected = Model::new(&[2, 3, 4]).transpose(&[2, 1, 0]).gather(&data);
    let flat = t.reshape(&[-1]).unwrap();
    assert!(!flat.may_share_memory(&a));
    assert_eq!(flat.to_vec::<i32>().unwrap(), expected);
    // ...but splitting an axis of a view stays a view.
    let split = t.reshape(&[2, 2, 3, 2]).unwrap();
    assert!(split.may_share_memory(&a));
    assert_eq!(split.to_vec::<i32>().unwrap(), expected);
    let s = Array::from_slice(&dev, &data, &[1, 24, 1]).unwrap();
    assert_eq!(s.squeeze().shape(), &[24]);
    assert_eq!(s.squeeze_axes(&[-1]).unwrap().shape(), &[1, 24]);
    assert_err!(
        s.squeeze_axes(&[1]),
        Error::InvalidArgument { op: "squeeze", .. },
        "squeeze"
    );
    assert_eq!(s.expand_dims(0).unwrap().shape(), &[1, 1, 24, 1]);
    assert_eq!(
        a.swapaxes(0, -1).unwrap().to_vec::<i32>().unwrap(),
        expected
    );
}

#[test]
fn constructors_are_exact() {
    let Some(dev) = common::device() else { return };
    for dtype in DType::NUMERIC
        .into_iter()
        .filter(|&d| common::supports(&dev, d, "constructors_are_exact"))
    {
        let z = Array::zeros(&dev, &[3, 5], dtype).unwrap();
        let o = Array::ones(&dev, &[7], dtype).unwrap();
        let f = Array::full(&dev, &[2, 2], 6.0, dtype).unwrap();
        let ar = Array::arange(&dev, 2.0, 40.0, 3.0, dtype).unwrap();
        let e = Array::eye_k(&dev, 4, 6, -1, dtype).unwrap();
        let expected_eye: Vec<f64> = (0..24)
            .map(|i| if i / 6 == i % 6 + 1 { 1.0 } else { 0.0 })
            .collect();
        let expected_ar: Vec<f64> = (0..13).map(|i| 2.0 + 3.0 * i as f64).collect();
        // Read everything through f64 so one comparison covers every dtype (all values exact).
        let read = common::read;
        assert_eq!(read(&z), vec![0.0; 15], "{dtype} zeros");
        assert_eq!(read(&o), vec![1.0; 7], "{dtype} ones");
        assert_eq!(read(&f), vec![6.0; 4], "{dtype} full");
        assert_eq!(read(&ar), expected_ar, "{dtype} arange");
        assert_eq!(read(&e), expected_eye, "{dtype} eye_k");
        assert_eq!(
            read(&Array::eye(&dev, 3, dtype).unwrap()),
            vec![1., 0., 0., 0., 1., 0., 0., 0., 1.]
        );
        let ls = Array::linspace(&dev, 0.0, 8.0, 5, dtype).unwrap();
        assert_eq!(read(&ls), vec![0.0, 2.0, 4.0, 6.0, 8.0], "{dtype} linspace");
    }
    // Integer sequences counting down, and u32 wrap-free descent.
    assert_eq!(
        Array::arange(&dev, 5.0, -6.0, -2.0, DType::I32)
            .unwrap()
            .to_vec::<i32>()
            .unwrap(),
        vec![5, 3, 1, -1, -3, -5]
    );
    assert_eq!(
        Array::arange(&dev, 9.0, 0.0, -4.0, DType::U32)
            .unwrap()
            .to_vec::<u32>()
            .unwrap(),
        vec![9, 5, 1]
    );
    assert_err!(
        Array::arange(&dev, 0.0, 1.0, 0.0, DType::F32),
        Error::InvalidArgument { op: "arange", .. },
        "arange"
    );
    assert_err!(
        Array::arange(&dev, 0.5, 3.0, 1.0, DType::I32),
        Error::InvalidArgument { op: "arange", .. },
        "arange"
    );
    assert_eq!(
        Array::arange(&dev, 3.0, 0.0, 1.0, DType::F32)
            .unwrap()
            .len(),
        0
    );
    // Float linspace: last element exactly `stop`, others within an ulp of the f64 formula.
    let n = 1001;
    let v = Array::linspace(&dev, -1.0, 1.0 / 3.0, n, DType::F32)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    assert_eq!(v[n - 1], (1.0f64 / 3.0) as f32);
    for (i, &x) in v.iter().enumerate() {
        let r = -1.0 + i as f64 * (4.0 / 3.0) / (n - 1) as f64;
        approx::assert_relative_eq!(x as f64, r, epsilon = 1e-6, max_relative = 1e-6);
    }
    // Full with a non-integer value truncates for ints, rounds for f16.
    assert_eq!(
        Array::full(&dev, &[1], -2.7, DType::I32)
            .unwrap()
            .to_vec::<i32>()
            .unwrap(),
        vec![-2]
    );
}

#[test]
fn astype_follows_documented_conversions() {
    let Some(dev) = common::device() else { return };
    // Truncation toward zero; out of range (either side) and NaN give i32::MIN, as NumPy's
    // cast does on x86-64 (cvttss2si's integer indefinite).
    let f = Array::from_slice(
        &dev,
        &[
            -2.75f32,
            -0.5,
            0.0,
            1.5,
            2.99,
            1e10,
            -1e10,
            f32::NAN,
            2147483520.0,
        ],
        &[9],
    )
    .unwrap();
    assert_eq!(
        f.astype(DType::I32).unwrap().to_vec::<i32>().unwrap(),
        vec![-2, 0, 0, 1, 2, i32::MIN, i32::MIN, i32::MIN, 2147483520]
    );
    let i = Array::from_slice(&dev, &[-1i32, 0, 7, i32::MIN], &[4]).unwrap();
    assert_eq!(
        i.astype(DType::U32).unwrap().to_vec::<u32>().unwrap(),
        vec![u32::MAX, 0, 7, 1 << 31]
    );
    assert_eq!(
        i.astype(DType::U32)
            .unwrap()
            .astype(DType::I32)
            .unwrap()
            .to_vec::<i32>()
            .unwrap(),
        vec![-1, 0, 7, i32::MIN]
    );
    assert_eq!(
        i.astype(DType::F32).unwrap().to_vec::<f32>().unwrap(),
        vec![-1.0, 0.0, 7.0, -2147483648.0]
    );
    if common::supports(&dev, DType::F64, "astype_follows_documented_conversions") {
        let d = Array::from_slice(&dev, &[0.1f64, -3.25, 1e300], &[3]).unwrap();
        let back = d.astype(DType::F32).unwrap().to_vec::<f32>().unwrap();
        assert_eq!(back[0], 0.1f32);
        assert_eq!(back[1], -3.25f32);
        assert!(back[2].is_infinite());
    }
    if common::supports(&dev, DType::F16, "astype_follows_documented_conversions") {
        let h = f
            .slice(&[SliceArg::range(Some(0), Some(5), 1)])
            .unwrap()
            .astype(DType::F16)
            .unwrap();
        let expect: Vec<f16> = [-2.75f32, -0.5, 0.0, 1.5, 2.99]
            .iter()
            .map(|&x| f16::from_f32(x))
            .collect();
        assert_eq!(h.to_vec::<f16>().unwrap(), expect);
    }
    // Same dtype: always a new buffer, like numpy.astype(copy=True).
    let c = i.astype(DType::I32).unwrap();
    c.fill(5.0).unwrap();
    assert_eq!(i.to_vec::<i32>().unwrap()[2], 7);
}

#[test]
fn assign_and_fill_write_through_views() {
    let Some(dev) = common::device() else { return };
    let a = Array::zeros(&dev, &[3, 4], DType::F32).unwrap();
    let row = Array::from_slice(&dev, &[1.0f32, 2.0, 3.0, 4.0], &[4]).unwrap();
    a.slice(&[SliceArg::range(None, None, 2)])
        .unwrap()
        .assign(&row)
        .unwrap(); // a[::2] = row
    a.slice(&[SliceArg::Index(1), SliceArg::range(None, None, -1)])
        .unwrap()
        .fill(9.0)
        .unwrap(); // a[1, ::-1] = 9
    let col = Array::from_slice(&dev, &[-1i32, -2, -3], &[3, 1]).unwrap();
    a.slice(&[SliceArg::full(), SliceArg::Index(3)])
        .unwrap()
        .assign(&col.reshape(&[3]).unwrap())
        .unwrap(); // a[:, 3] = col (cast)
    assert_eq!(
        a.to_vec::<f32>().unwrap(),
        vec![
            1.0, 2.0, 3.0, -1.0, 9.0, 9.0, 9.0, -2.0, 1.0, 2.0, 3.0, -3.0
        ]
    );
    assert_err!(
        a.assign(&Array::zeros(&dev, &[2], DType::F32).unwrap()),
        Error::Shape { op: "assign", .. },
        "assign"
    );
    assert_err!(
        row.broadcast_to(&[2, 4]).unwrap().fill(0.0),
        Error::InvalidArgument { op: "fill", .. },
        "fill"
    );
}

#[test]
fn arrays_over_the_binding_limit_fill_transpose_cast_and_read_back() {
    let Some(dev) = common::device_with_binding(common::TEST_BINDING) else {
        return;
    };
    // An n x n f32 array of more than twice the device's storage binding (3111 x 3111 = 37 MiB
    // for the 16 MiB test binding), so a transposed copy spans three binding windows.
    let what = "arrays_over_the_binding_limit_fill_transpose_cast_and_read_back";
    let binding = dev.info().max_storage_buffer_binding_size as f64;
    let n = (2.3 * binding / 4.0).sqrt().ceil() as usize;
    let bytes = (n * n * 4) as u64;
    if bytes > dev.info().max_buffer_size {
        common::skip(
            what,
            &format!("{} cannot hold a {bytes}-byte buffer", dev.info()),
        );
        return;
    }
    common::assert_crosses_binding(&dev, bytes / 2, what);
    // Filled on the GPU.
    let full = Array::full(&dev, &[n, n], 1.5, DType::F32).unwrap();
    let v = full.to_vec::<f32>().unwrap();
    assert_eq!(v.len(), n * n);
    assert!(v.iter().all(|&x| x == 1.5));
    drop((full, v));
    // Uploaded (exact values), copied through a transposed view, cast, read back.
    let host: Vec<f32> = (0..n * n).map(|i| (i % 1_000_003) as f32 + 0.5).collect();
    let a = Array::from_slice(&dev, &host, &[n, n]).unwrap();
    let t = a.t().contiguous().unwrap();
    let d = if dev.supports(DType::F64) {
        t.astype(DType::F64).unwrap()
    } else {
        t.astype(DType::F32).unwrap()
    };
    let back: Vec<f64> = match d.dtype() {
        DType::F64 => d.to_vec::<f64>().unwrap(),
        _ => d
            .to_vec::<f32>()
            .unwrap()
            .into_iter()
            .map(f64::from)
            .collect(),
    };
    let mut bad = 0usize;
    for i in 0..n {
        for j in 0..n {
            if back[i * n + j] != host[j * n + i] as f64 {
                bad += 1;
            }
        }
    }
    assert_eq!(bad, 0, "{bad} wrong elements in the transposed copy");
    // A strided view of the big array reaching its last element.
    let corner = a
        .slice(&[
            SliceArg::range(None, None, -4471),
            SliceArg::range(None, None, -4000),
        ])
        .unwrap();
    let rows: Vec<usize> = (0..n).rev().step_by(4471).collect();
    let cols: Vec<usize> = (0..n).rev().step_by(4000).collect();
    let expect: Vec<f32> = rows
        .iter()
        .flat_map(|&r| cols.iter().map(move |&c| (r, c)))
        .map(|(r, c)| host[r * n + c])
        .collect();
    assert_eq!(corner.to_vec::<f32>().unwrap(), expect);
}
