//! `.npy` / `.npz` files (feature `npy`): the golden files NumPy wrote
//! (`tests/golden/npy/make.py`) load exactly — every dtype, C and Fortran order, both byte
//! orders — against values computed here from the script's formulas; our files load back
//! exactly and, when python3 with NumPy is present, in NumPy too; bad files are `Err`s of the
//! right variant.

mod common;

use gpuarray::{Array, DType, Error, f16};
use std::path::{Path, PathBuf};

const SHAPE: [usize; 3] = [3, 4, 5];

fn golden(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/npy")
        .join(name)
}

/// A fresh scratch directory for this test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpuarray-npy-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The script's float formula: `((i*37) % 101 - 50) / 8.0 + i * 1e-3` as Python evaluates
/// it, after four special values.
fn float_value_exact(i: usize) -> f64 {
    match i {
        0 => f64::NAN,
        1 => f64::INFINITY,
        2 => f64::NEG_INFINITY,
        3 => -0.0,
        _ => (((i * 37) % 101) as f64 - 50.0) / 8.0 + i as f64 * 1e-3,
    }
}

fn word(i: usize) -> u32 {
    (i as u32).wrapping_mul(2654435761)
}

/// The script's 64-bit formula, whose low bits the 8-, 16- and 64-bit integers hold.
fn wide(i: usize) -> u64 {
    (i as u64).wrapping_mul(11400714819323198485)
}

/// Host values of the script's formula for `dtype`, as exact bit patterns (bool: 0/1), in
/// row-major order of a `n`-element array.
fn expected_bits(dtype: DType, n: usize) -> Vec<u64> {
    (0..n)
        .map(|i| match dtype {
            DType::C64 | DType::C128 => unreachable!("complex files: complex_files_round_trip"),
            DType::F64 => float_value_exact(i).to_bits(),
            DType::F32 => u64::from((float_value_exact(i) as f32).to_bits()),
            DType::F16 => u64::from(f16::from_f64(float_value_exact(i)).to_bits()),
            DType::I32 => u64::from(word(i)),
            DType::U32 => u64::from(word(i)),
            DType::Bool => u64::from(i % 3 == 0),
            DType::I64 | DType::U64 => wide(i),
            DType::I8 | DType::U8 => wide(i) & 0xff,
            DType::I16 | DType::U16 => wide(i) & 0xffff,
        })
        .collect()
}

/// The array's elements as bit patterns (NaNs canonicalised to the script's NaN, which is
/// the only NaN in the data).
fn bits(a: &Array) -> Vec<u64> {
    match a.dtype() {
        DType::F64 => a
            .to_vec::<f64>()
            .unwrap()
            .iter()
            .map(|x| x.to_bits())
            .collect(),
        DType::F32 => a
            .to_vec::<f32>()
            .unwrap()
            .iter()
            .map(|x| u64::from(x.to_bits()))
            .collect(),
        DType::F16 => a
            .to_vec::<f16>()
            .unwrap()
            .iter()
            .map(|x| u64::from(x.to_bits()))
            .collect(),
        DType::I32 => a
            .to_vec::<i32>()
            .unwrap()
            .iter()
            .map(|&x| u64::from(x as u32))
            .collect(),
        DType::U32 => a
            .to_vec::<u32>()
            .unwrap()
            .iter()
            .map(|&x| u64::from(x))
            .collect(),
        DType::Bool => a
            .to_vec_bool()
            .unwrap()
            .iter()
            .map(|&b| u64::from(b))
            .collect(),
        // The integers' bit patterns, as the script's low bits.
        d => {
            let mask = if d.size_bytes() == 8 {
                u64::MAX
            } else {
                (1u64 << (8 * d.size_bytes())) - 1
            };
            common::read_ints(a)
                .into_iter()
                .map(|x| (x as u64) & mask)
                .collect()
        }
    }
}

/// Uploads the script's formula for `dtype` and `shape`.
fn make(dev: &gpuarray::Device, dtype: DType, shape: &[usize]) -> Array {
    let n = shape.iter().product();
    let b = expected_bits(dtype, n);
    match dtype {
        DType::F64 => {
            let v: Vec<f64> = b.iter().map(|&x| f64::from_bits(x)).collect();
            Array::from_slice(dev, &v, shape).unwrap()
        }
        DType::F32 => {
            let v: Vec<f32> = b.iter().map(|&x| f32::from_bits(x as u32)).collect();
            Array::from_slice(dev, &v, shape).unwrap()
        }
        DType::F16 => {
            let v: Vec<f16> = b.iter().map(|&x| f16::from_bits(x as u16)).collect();
            Array::from_slice(dev, &v, shape).unwrap()
        }
        DType::I32 => {
            let v: Vec<i32> = b.iter().map(|&x| x as u32 as i32).collect();
            Array::from_slice(dev, &v, shape).unwrap()
        }
        DType::U32 => {
            let v: Vec<u32> = b.iter().map(|&x| x as u32).collect();
            Array::from_slice(dev, &v, shape).unwrap()
        }
        DType::Bool => {
            let v: Vec<bool> = b.iter().map(|&x| x == 1).collect();
            Array::from_bools(dev, &v, shape).unwrap()
        }
        d => {
            // The bit patterns read with the dtype's sign (upload_ints wraps to the width).
            let bits = 8 * d.size_bytes() as u32;
            let v: Vec<i128> = b
                .iter()
                .map(|&x| {
                    let x = i128::from(x);
                    if d.is_signed_int() && x >= 1i128 << (bits - 1) {
                        x - (1i128 << bits)
                    } else {
                        x
                    }
                })
                .collect();
            common::upload_ints(dev, &v, shape, d)
        }
    }
}

const KINDS: [(&str, DType); 12] = [
    ("f2", DType::F16),
    ("f4", DType::F32),
    ("f8", DType::F64),
    ("i4", DType::I32),
    ("u4", DType::U32),
    ("b1", DType::Bool),
    ("i8", DType::I64),
    ("u8", DType::U64),
    ("i1", DType::I8),
    ("u1", DType::U8),
    ("i2", DType::I16),
    ("u2", DType::U16),
];

#[test]
fn numpy_goldens_load_exactly() {
    let Some(dev) = common::device() else { return };
    let mut loaded = 0;
    for (kind, dtype) in KINDS {
        if !common::supports(&dev, dtype, kind) {
            continue;
        }
        for order in ["c", "f"] {
            for endian in ["le", "be"] {
                if endian == "be" && (dtype.size_bytes() == 1 || dtype == DType::Bool) {
                    continue;
                }
                let name = format!("{kind}_{order}_{endian}.npy");
                let a = Array::load_npy(&dev, golden(&name)).unwrap();
                assert_eq!((a.shape(), a.dtype()), (&SHAPE[..], dtype), "{name}");
                assert!(a.is_contiguous(), "{name}");
                assert_eq!(bits(&a), expected_bits(dtype, 60), "{name}");
                loaded += 1;
            }
        }
    }
    assert_eq!(loaded, 42);
    let s = Array::load_npy(&dev, golden("f8_0d.npy")).unwrap();
    assert_eq!(
        (s.shape(), bits(&s)),
        (&[][..], expected_bits(DType::F64, 1))
    );
    let e = Array::load_npy(&dev, golden("f4_empty.npy")).unwrap();
    assert_eq!(
        (e.shape(), e.dtype(), e.len()),
        (&[0usize, 3][..], DType::F32, 0)
    );
    let v = Array::load_npy(&dev, golden("i4_1d.npy")).unwrap();
    assert_eq!(
        (v.shape(), bits(&v)),
        (&[7usize][..], expected_bits(DType::I32, 7))
    );
}

#[test]
fn numpy_archives_load_exactly() {
    let Some(dev) = common::device() else { return };
    for file in ["stored.npz", "compressed.npz"] {
        let arrays = gpuarray::load_npz(&dev, golden(file)).unwrap();
        let names: Vec<&str> = arrays.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["a", "b", "c", "s"], "{file}");
        for ((_, a), (dtype, shape)) in arrays.iter().zip([
            (DType::F32, &SHAPE[..]),
            (DType::I32, &SHAPE[..]),
            (DType::Bool, &SHAPE[..]),
            (DType::F64, &[][..]),
        ]) {
            assert_eq!((a.dtype(), a.shape()), (dtype, shape), "{file}");
            assert_eq!(bits(a), expected_bits(dtype, a.len()), "{file} {dtype}");
        }
    }
}

#[test]
fn dtypes_gpuarray_lacks_are_unsupported_errors_naming_them() {
    let Some(dev) = common::device() else { return };
    let file = "unsupported_str.npy";
    let msg = assert_err!(
        Array::load_npy(&dev, golden(file)),
        Error::Unsupported { .. },
        "load_npy",
        "str"
    );
    assert!(msg.contains(file), "{msg}");
    // int64, uint8 and complex64 files, refused before those dtypes existed, load now.
    let c = Array::load_npy(&dev, golden("unsupported_complex64.npy")).unwrap();
    assert_eq!(
        (c.dtype(), c.to_vec::<gpuarray::Complex32>().unwrap()),
        (DType::C64, vec![gpuarray::Complex32::new(1.0, 0.0); 2])
    );
    let a = Array::load_npy(&dev, golden("unsupported_int64.npy")).unwrap();
    assert_eq!(
        (a.dtype(), a.to_vec::<i64>().unwrap()),
        (DType::I64, vec![0, 1, 2, 3])
    );
    let b = Array::load_npy(&dev, golden("unsupported_uint8.npy")).unwrap();
    assert_eq!(
        (b.dtype(), b.to_vec::<u8>().unwrap()),
        (DType::U8, vec![0, 1, 2])
    );
}

/// complex64 and complex128 files (`<c8`, `<c16`) save and load back exactly, views included,
/// and NumPy reads their values when it is present.
#[test]
fn complex_files_round_trip() {
    use gpuarray::{Complex32, Complex64};
    let Some(dev) = common::device() else { return };
    let dir = scratch("complex");
    let v: Vec<Complex64> = (0..60)
        .map(|i| Complex64::new(float_value_exact(i), -float_value_exact(59 - i)))
        .collect();
    let c128 = Array::from_slice(&dev, &v, &SHAPE).unwrap();
    let c64 = Array::from_slice(
        &dev,
        &v.iter()
            .map(|z| Complex32::new(z.re as f32, z.im as f32))
            .collect::<Vec<_>>(),
        &SHAPE,
    )
    .unwrap();
    let same = |a: &[Complex64], b: &[Complex64]| {
        a.iter().zip(b).all(|(x, y)| {
            (x.re.to_bits() == y.re.to_bits() || (x.re.is_nan() && y.re.is_nan()))
                && (x.im.to_bits() == y.im.to_bits() || (x.im.is_nan() && y.im.is_nan()))
        })
    };
    for a in [&c64, &c128] {
        if !dev.supports(a.dtype()) {
            continue;
        }
        let path = dir.join(format!("{}.npy", a.dtype()));
        let view = a
            .t()
            .slice(&[gpuarray::SliceArg::range(None, None, -1)])
            .unwrap();
        view.save_npy(&path).unwrap();
        let back = Array::load_npy(&dev, &path).unwrap();
        assert_eq!((back.dtype(), back.shape()), (a.dtype(), view.shape()));
        let wide = |x: &Array| match x.dtype() {
            DType::C64 => x
                .to_vec::<Complex32>()
                .unwrap()
                .iter()
                .map(|z| Complex64::new(z.re as f64, z.im as f64))
                .collect::<Vec<_>>(),
            _ => x.to_vec::<Complex64>().unwrap(),
        };
        assert!(same(&wide(&back), &wide(&view)), "{}", a.dtype());
        let has_numpy = std::process::Command::new("python3")
            .args(["-c", "import numpy"])
            .output()
            .is_ok_and(|o| o.status.success());
        if has_numpy {
            // NumPy's view of the same file: dtype, shape and the sum of the finite elements.
            let out = std::process::Command::new("python3")
                .args([
                    "-c",
                    "import sys, numpy as np; a = np.load(sys.argv[1]); \
                     s = a[np.isfinite(a)].astype(np.complex128).sum(); \
                     print(a.dtype, ','.join(map(str, a.shape)), repr(float(s.real)), repr(float(s.imag)))",
                ])
                .arg(&path)
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout).to_string();
            let words: Vec<&str> = text.split_whitespace().collect();
            assert_eq!(words[..2], [a.dtype().numpy_name(), "5,4,3"], "{text}");
            let host = wide(&view);
            let sum: Complex64 = host
                .iter()
                .filter(|z| z.re.is_finite() && z.im.is_finite())
                .sum();
            let (re, im): (f64, f64) = (words[2].parse().unwrap(), words[3].parse().unwrap());
            assert!(
                (re - sum.re).abs() < 1e-9 && (im - sum.im).abs() < 1e-9,
                "numpy read {}: {text} vs {sum}",
                path.display()
            );
        }
    }
}

/// Our files load back exactly, whatever the layout of the array saved (a transposed, reversed
/// view is written in C order), and in NumPy when it is present.
#[test]
fn saved_files_round_trip_and_load_in_numpy() {
    let Some(dev) = common::device() else { return };
    let dir = scratch("save");
    for (kind, dtype) in KINDS {
        if !common::supports(&dev, dtype, kind) {
            continue;
        }
        let a = make(&dev, dtype, &SHAPE);
        let path = dir.join(format!("{kind}.npy"));
        a.save_npy(&path).unwrap();
        let b = Array::load_npy(&dev, &path).unwrap();
        assert_eq!((b.shape(), b.dtype()), (&SHAPE[..], dtype));
        assert_eq!(bits(&b), expected_bits(dtype, 60), "{kind}");
        // A view: the file holds its elements in its own row-major order.
        let v = a
            .t()
            .slice(&[gpuarray::SliceArg::range(None, None, -1)])
            .unwrap();
        let vp = dir.join(format!("view-{kind}.npy.tmp"));
        v.save_npy(&vp).unwrap();
        let w = Array::load_npy(&dev, &vp).unwrap();
        assert_eq!(w.shape(), v.shape());
        assert_eq!(bits(&w), bits(&v), "{kind} view");
        std::fs::remove_file(&vp).unwrap();
    }
    let f = make(&dev, DType::F32, &SHAPE);
    // NumPy's archive "b" is Fortran order; ours are always C order with the same values.
    let i = make(&dev, DType::I32, &SHAPE);
    let c = make(&dev, DType::Bool, &SHAPE);
    let s = make(&dev, DType::F64, &[]);
    let arrays = [("a", &f), ("b", &i), ("c", &c), ("s", &s)];
    gpuarray::savez(dir.join("both.npz"), &arrays).unwrap();
    gpuarray::savez_compressed(dir.join("both-compressed.npz"), &arrays).unwrap();
    for file in ["both.npz", "both-compressed.npz"] {
        let back = gpuarray::load_npz(&dev, dir.join(file)).unwrap();
        assert_eq!(back.len(), 4);
        for ((name, got), (want_name, want)) in back.iter().zip(arrays) {
            assert_eq!(name, want_name);
            assert_eq!(bits(got), bits(want), "{file}:{name}");
        }
    }
    let zipped = std::fs::metadata(dir.join("both-compressed.npz"))
        .unwrap()
        .len();
    let stored = std::fs::metadata(dir.join("both.npz")).unwrap().len();
    assert!(zipped < stored, "compressed {zipped} >= stored {stored}");

    // NumPy reads them (the script compares with its own formulas), when it is installed.
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/npy/make.py");
    let has_numpy = std::process::Command::new("python3")
        .args(["-c", "import numpy"])
        .output()
        .is_ok_and(|o| o.status.success());
    if has_numpy {
        let out = std::process::Command::new("python3")
            .arg(&script)
            .arg("--check")
            .arg(&dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "NumPy rejected our files: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        println!("{}", String::from_utf8_lossy(&out.stdout).trim());
    } else {
        common::skip("the NumPy side", "python3 with numpy is not installed");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Truncated, garbage, wrong-magic and missing files are `Err`s of the right variant, never a
/// panic, and a header that claims more data than the file holds allocates nothing for it.
#[test]
fn bad_files_are_errors() {
    let Some(dev) = common::device() else { return };
    let dir = scratch("bad");
    let good = std::fs::read(golden("f8_c_le.npy")).unwrap();
    let write = |name: &str, bytes: &[u8]| {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    };
    // Cut in the data, in the header, in the magic; and empty.
    for (name, len) in [
        ("data.npy", good.len() - 1),
        ("half.npy", 200),
        ("header.npy", 40),
        ("magic.npy", 3),
        ("empty.npy", 0),
    ] {
        let p = write(name, &good[..len]);
        let msg = assert_err!(
            Array::load_npy(&dev, &p),
            Error::InvalidFile { .. },
            "load_npy",
            name
        );
        if len > 128 {
            assert!(msg.contains("truncated"), "{msg}");
        }
    }
    let mut wrong = good.clone();
    wrong[1..6].copy_from_slice(b"NUMPX");
    assert_err!(
        Array::load_npy(&dev, write("wrong.npy", &wrong)),
        Error::InvalidFile { .. },
        "load_npy"
    );
    assert_err!(
        Array::load_npy(&dev, write("garbage.npy", &[0x5a; 4096])),
        Error::InvalidFile { .. },
        "load_npy"
    );
    // A header claiming 10^15 elements over 8 bytes of data.
    let header = "{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000000,), }";
    let mut huge = b"\x93NUMPY\x01\x00".to_vec();
    let pad = 64 - (10 + header.len() + 1) % 64;
    let hlen = (header.len() + pad + 1) as u16;
    huge.extend(hlen.to_le_bytes());
    huge.extend(header.as_bytes());
    huge.extend(std::iter::repeat_n(b' ', pad));
    huge.push(b'\n');
    huge.extend([0u8; 8]);
    assert_err!(
        Array::load_npy(&dev, write("huge.npy", &huge)),
        Error::InvalidFile { .. },
        "load_npy",
        "truncated"
    );
    // A corrupt header: a shape that is not a tuple of integers.
    let bad_header = String::from_utf8_lossy(&good).replace("(3, 4, 5)", "(3, x, 5)");
    assert_err!(
        Array::load_npy(&dev, write("shape.npy", bad_header.as_bytes())),
        Error::InvalidFile { .. },
        "load_npy"
    );
    assert_err!(
        Array::load_npy(&dev, dir.join("missing.npy")),
        Error::Io { .. },
        "load_npy",
        "missing.npy"
    );
    // Archives: not a zip, a truncated zip, a zip whose entry is a broken .npy.
    let npz = std::fs::read(golden("stored.npz")).unwrap();
    assert_err!(
        gpuarray::load_npz(&dev, write("garbage.npz", &[7; 100])),
        Error::InvalidFile { .. },
        "load_npz"
    );
    assert_err!(
        gpuarray::load_npz(&dev, write("cut.npz", &npz[..npz.len() / 2])),
        Error::InvalidFile { .. },
        "load_npz"
    );
    let mut broken = npz.clone();
    let at = broken
        .windows(6)
        .position(|w| w == b"\x93NUMPY")
        .expect("an .npy inside");
    broken[at + 1] = b'X';
    assert_err!(
        gpuarray::load_npz(&dev, write("broken.npz", &broken)),
        Error::InvalidFile { .. },
        "load_npz"
    );
    assert_err!(
        gpuarray::load_npz(&dev, dir.join("missing.npz")),
        Error::Io { .. },
        "load_npz"
    );
    // Writing where no file can be made.
    let a = Array::zeros(&dev, &[2], DType::F32).unwrap();
    assert_err!(
        a.save_npy(dir.join("no/such/dir/a.npy")),
        Error::Io { .. },
        "save_npy"
    );
    assert_err!(
        gpuarray::savez(dir.join("x.npz"), &[("a", &a), ("a", &a)]),
        Error::InvalidArgument { .. },
        "savez",
        "distinct"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
