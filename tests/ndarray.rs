//! `ndarray` interop (feature `ndarray`): every dtype and layout — standard, transposed, sliced
//! with negative steps, broadcast (stride 0), 0-d, empty — uploads with the values ndarray's own
//! iteration gives, and reads back as an `ArrayD` equal to the host original; a dtype mismatch is
//! an `Err` naming both dtypes.

mod common;

use gpuarray::{Array, DType, Error, HostElement, f16};
use ndarray::{ArrayD, ArrayView, Dimension, s};

/// Host arrays of the dtype: values chosen so every element differs (and, for floats, carries
/// a fraction and a sign).
fn host<T: HostElement>(f: impl Fn(usize) -> T) -> ndarray::Array3<T> {
    ndarray::Array::from_shape_fn((4, 5, 6), |(i, j, k)| f((i * 5 + j) * 6 + k))
}

/// Uploads `view`, compares with ndarray's iteration order, and reads it back.
fn round_trip<T, D>(dev: &gpuarray::Device, view: ArrayView<'_, T, D>, what: &str)
where
    T: HostElement + PartialEq + std::fmt::Debug,
    D: Dimension,
{
    let a = Array::from_ndarray(dev, &view).unwrap();
    assert_eq!(a.shape(), view.shape(), "{what}");
    assert_eq!(a.dtype(), T::DTYPE, "{what}");
    let back: ArrayD<T> = a.to_ndarray::<T>().unwrap();
    assert_eq!(back.shape(), view.shape(), "{what}");
    // Element by element in logical order: ndarray's iterator follows the view's strides.
    let want: Vec<T> = view.iter().copied().collect();
    let got: Vec<T> = back.iter().copied().collect();
    assert_eq!(got, want, "{what}");
}

fn all_layouts<T>(dev: &gpuarray::Device, h: &ndarray::Array3<T>, name: &str)
where
    T: HostElement + PartialEq + std::fmt::Debug,
{
    round_trip(dev, h.view(), &format!("{name} standard"));
    round_trip(dev, h.t(), &format!("{name} transposed"));
    round_trip(
        dev,
        h.slice(s![..;-1, 1..;2, ..;-3]),
        &format!("{name} negative steps"),
    );
    round_trip(
        dev,
        h.slice(s![.., 2, ..;-1]).reversed_axes(),
        &format!("{name} 2-d reversed"),
    );
    let row = h.slice(s![0, 0, ..]);
    round_trip(
        dev,
        row.broadcast((3, 6)).unwrap(),
        &format!("{name} broadcast"),
    );
    round_trip(dev, h.slice(s![1, 2, 3]).into_dyn(), &format!("{name} 0-d"));
    round_trip(dev, h.slice(s![.., 0..0, ..]), &format!("{name} empty"));
    // An `Array` (not a view) and a dynamic-rank one go in directly.
    let owned = Array::from_ndarray(dev, h).unwrap();
    assert_eq!(owned.to_ndarray::<T>().unwrap(), h.clone().into_dyn());
    let d = h.clone().into_dyn();
    assert_eq!(
        Array::from_ndarray(dev, &d)
            .unwrap()
            .to_ndarray::<T>()
            .unwrap(),
        d
    );
}

#[test]
fn every_dtype_and_layout_round_trips() {
    let Some(dev) = common::device() else { return };
    all_layouts(&dev, &host(|i| i as f32 * 0.5 - 17.25), "f32");
    all_layouts(&dev, &host(|i| i as i32 * -7919 + 3), "i32");
    all_layouts(&dev, &host(|i| (i as u32).wrapping_mul(2654435761)), "u32");
    all_layouts(&dev, &host(|i| i % 3 == 1), "bool");
    all_layouts(
        &dev,
        &host(|i| gpuarray::Complex32::new(i as f32 - 3.5, 1.0 / (i as f32 + 1.0))),
        "c64",
    );
    if common::supports(&dev, DType::F64, "f64 round trips") {
        all_layouts(&dev, &host(|i| i as f64 / 3.0 - 1e10), "f64");
    }
    if common::supports(&dev, DType::F16, "f16 round trips") {
        all_layouts(&dev, &host(|i| f16::from_f64(i as f64 * 0.25 - 8.0)), "f16");
    }
}

/// The device's values are the ndarray's: a device op on the upload matches the same op on the
/// host (the transpose materialised on the GPU by `contiguous`).
#[test]
fn uploaded_views_compute_like_the_host() {
    let Some(dev) = common::device() else { return };
    let h = host(|i| i as i32 - 60);
    let v = h.slice(s![..;-1, .., 1..;2]);
    let a = Array::from_ndarray(&dev, &v).unwrap();
    let t = a.transpose(&[2, 0, 1]).unwrap().contiguous().unwrap();
    let want = v.permuted_axes([2, 0, 1]);
    assert_eq!(t.to_ndarray::<i32>().unwrap(), want.to_owned().into_dyn());
}

#[test]
fn a_dtype_mismatch_names_both_dtypes() {
    let Some(dev) = common::device() else { return };
    let a = Array::zeros(&dev, &[2, 2], DType::F32).unwrap();
    assert_err!(
        a.to_ndarray::<i32>(),
        Error::DTypeMismatch {
            expected: DType::F32,
            got: DType::I32,
            ..
        },
        "to_ndarray",
        "expected f32, got i32"
    );
    let b = Array::from_bools(&dev, &[true], &[1]).unwrap();
    assert_err!(
        b.to_ndarray::<u32>(),
        Error::DTypeMismatch { .. },
        "to_ndarray",
        "expected bool, got u32"
    );
    // A dtype the adapter lacks is the constructor's Err, not a panic.
    let cfg = gpuarray::DeviceConfig {
        disabled_dtypes: vec![DType::F64],
        ..gpuarray::DeviceConfig::from_env().unwrap()
    };
    let no_f64 = gpuarray::Device::with_config(cfg).unwrap();
    let h = ndarray::arr1(&[1.0f64, 2.0]);
    assert_err!(
        Array::from_ndarray(&no_f64, &h),
        Error::Unsupported { .. },
        "from_slice"
    );
}
