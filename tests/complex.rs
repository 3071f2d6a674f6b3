//! Complex dtypes (`complex64`, `complex128`) and `gpuarray::fft`, against host references in
//! f64: a naive O(n²) DFT, direct sums for single bins of long transforms, NumPy's formatting.

#[path = "complex/arith.rs"]
mod arith;
mod common;
#[path = "complex/fft.rs"]
mod fft;
#[path = "complex/order.rs"]
mod order;

use gpuarray::{Array, Complex32, Complex64, DType, PrintOptions, SliceArg};

#[test]
fn complex_arrays_upload_read_back_view_and_cast() {
    let Some(dev) = common::device() else { return };
    let v: Vec<Complex32> = (0..6)
        .map(|i| Complex32::new(i as f32, -(i as f32) / 2.0))
        .collect();
    let a = Array::from_slice(&dev, &v, &[2, 3]).unwrap();
    assert_eq!(a.dtype(), DType::C64);
    assert_eq!(a.to_vec::<Complex32>().unwrap(), v);
    // A transposed view and a reversed one read back through the part-wise copy.
    let t = a.t().to_vec::<Complex32>().unwrap();
    assert_eq!(t, vec![v[0], v[3], v[1], v[4], v[2], v[5]]);
    let r = a
        .slice(&[SliceArg::full(), SliceArg::range(None, None, -1)])
        .unwrap();
    assert_eq!(
        r.to_vec::<Complex32>().unwrap(),
        vec![v[2], v[1], v[0], v[5], v[4], v[3]]
    );
    // complex → real keeps the real part (NumPy, with its ComplexWarning); real → complex has a
    // zero imaginary part; complex64 → complex128 widens both parts.
    let re = a.astype(DType::F32).unwrap().to_vec::<f32>().unwrap();
    assert_eq!(re, v.iter().map(|z| z.re).collect::<Vec<_>>());
    let i = a.astype(DType::I32).unwrap().to_vec::<i32>().unwrap();
    assert_eq!(i, vec![0, 1, 2, 3, 4, 5]);
    let x = Array::from_slice(&dev, &[1.5f32, -2.0], &[2]).unwrap();
    assert_eq!(
        x.astype(DType::C64).unwrap().to_vec::<Complex32>().unwrap(),
        vec![Complex32::new(1.5, 0.0), Complex32::new(-2.0, 0.0)]
    );
    if dev.supports(DType::C128) {
        let w = a
            .astype(DType::C128)
            .unwrap()
            .to_vec::<Complex64>()
            .unwrap();
        assert_eq!(
            w,
            v.iter()
                .map(|z| Complex64::new(z.re as f64, z.im as f64))
                .collect::<Vec<_>>()
        );
    }
    // To and from every real dtype: complex → d is the real part's cast to d; d → complex is
    // d's cast to the part dtype, with a zero imaginary part.
    let wide = Array::from_slice(
        &dev,
        &[
            Complex32::new(-3.75, 1.0),
            Complex32::new(250.5, -2.0),
            Complex32::new(0.0, 7.0),
            Complex32::new(1e6, 0.5),
        ],
        &[4],
    )
    .unwrap();
    let re = wide.astype(DType::F32).unwrap();
    for d in DType::REAL
        .into_iter()
        .filter(|&d| d != DType::Bool && dev.supports(d))
    {
        let via = re.astype(d).unwrap().astype(DType::F64);
        let got = wide.astype(d).unwrap().astype(DType::F64);
        if let (Ok(via), Ok(got)) = (via, got) {
            assert_eq!(
                got.to_vec::<f64>().unwrap(),
                via.to_vec::<f64>().unwrap(),
                "c64 -> {d}"
            );
        }
        let back = re.astype(d).unwrap();
        let c = back
            .astype(DType::C64)
            .unwrap()
            .to_vec::<Complex32>()
            .unwrap();
        let want = back.astype(DType::F32).unwrap().to_vec::<f32>().unwrap();
        assert_eq!(
            c,
            want.iter()
                .map(|&r| Complex32::new(r, 0.0))
                .collect::<Vec<_>>(),
            "{d} -> c64"
        );
    }
    // NumPy's "either part non-zero" for bool needs an op: refused, not wrong.
    assert!(a.astype(DType::Bool).is_err());
    // Constructors: value + 0j.
    let f = Array::full(&dev, &[3], 2.5, DType::C64).unwrap();
    assert_eq!(
        f.to_vec::<Complex32>().unwrap(),
        vec![Complex32::new(2.5, 0.0); 3]
    );
    let z = Array::zeros(&dev, &[0, 4], DType::C64).unwrap();
    assert!(z.to_vec::<Complex32>().unwrap().is_empty());
    // Reading as the wrong host type is an error naming the dtypes.
    assert!(a.to_vec::<f32>().is_err());
    assert_eq!(DType::from_numpy_name("complex128"), Some(DType::C128));
    assert_eq!(DType::C64.size_bytes(), 8);
}

#[test]
fn complex_arrays_print_as_numpy() {
    let Some(dev) = common::device() else { return };
    let a = Array::from_slice(
        &dev,
        &[Complex32::new(1.0, 2.0), Complex32::new(0.0, -1.0)],
        &[2],
    )
    .unwrap();
    let o = PrintOptions::default();
    // numpy: repr(np.array([1+2j, -1j], dtype=np.complex64))
    assert_eq!(
        a.format(&o).unwrap(),
        "array([1.+2.j, 0.-1.j], dtype=complex64)"
    );
    // numpy: repr(np.array([1e-5+1j, 3+1e5j], dtype=np.complex64))
    let s = Array::from_slice(
        &dev,
        &[Complex32::new(1e-5, 1.0), Complex32::new(3.0, 1e5)],
        &[2],
    )
    .unwrap();
    assert_eq!(
        s.format(&o).unwrap(),
        "array([1.e-05+1.e+00j, 3.e+00+1.e+05j], dtype=complex64)"
    );
    if dev.supports(DType::C128) {
        let b = Array::from_slice(
            &dev,
            &[
                Complex64::new(1.5, 0.25),
                Complex64::new(-3.0, f64::INFINITY),
                Complex64::new(f64::NAN, -0.5),
            ],
            &[3],
        )
        .unwrap();
        // numpy: repr(np.array([1.5+0.25j, complex(-3, np.inf), complex(np.nan, -0.5)]))
        assert_eq!(
            b.format(&o).unwrap(),
            "array([ 1.5+0.25j, -3.  +infj,  nan-0.5j ])"
        );
    }
}
