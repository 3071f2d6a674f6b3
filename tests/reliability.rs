//! Fault and bad-input tests: the checklist of /work/shared/notes/reliability.md §5.
//!
//! Every test checks that a bad request returns the right `Err` variant (never a panic), that
//! nothing hangs (each body runs under a watchdog), and that nothing is lost: arrays made
//! earlier still read back correctly and the pool's `in_use_bytes` returns to its baseline.
//! Expected values are always computed independently on the host.

mod common;

use gpuarray::{Array, DType, Device, DeviceConfig, Error, SliceArg};
use half::f16;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

const MIB: u64 = 1 << 20;

/// `start:stop:step`.
fn r(start: Option<isize>, stop: Option<isize>, step: isize) -> SliceArg {
    SliceArg::range(start, stop, step)
}

/// Index of the first element where `got` differs from `want`, for readable failures.
fn first_mismatch<T: PartialEq>(got: &[T], want: &[T]) -> Option<usize> {
    if got.len() != want.len() {
        return Some(got.len().min(want.len()));
    }
    got.iter().zip(want).position(|(a, b)| a != b)
}

fn assert_same<T: PartialEq + std::fmt::Debug>(got: &[T], want: &[T], what: &str) {
    if let Some(i) = first_mismatch(got, want) {
        panic!(
            "{what}: lengths {} vs {}; first mismatch at {i}: got {:?}, want {:?}",
            got.len(),
            want.len(),
            got.get(i),
            want.get(i)
        );
    }
}

// ---- #1 shape mismatch ---------------------------------------------------------------------

#[test]
fn shape_mismatches_are_errors_that_name_the_shapes() {
    let Some(dev) = common::device() else { return };
    common::with_watchdog(60, move || {
        let base = dev.memory_stats().in_use_bytes;
        let host: Vec<f32> = (0..6).map(|i| i as f32 * 1.5 - 2.0).collect();
        let a = Array::from_slice(&dev, &host, &[2, 3]).unwrap();

        let e = a.reshape(&[4]).unwrap_err();
        assert!(matches!(e, Error::Shape { op: "reshape", .. }), "{e:?}");
        let m = e.to_string();
        assert!(m.contains("[2, 3]") && m.contains("[4]"), "{m}");

        let e = a.broadcast_to(&[4]).unwrap_err();
        assert!(
            matches!(
                e,
                Error::Shape {
                    op: "broadcast_to",
                    ..
                }
            ),
            "{e:?}"
        );
        let m = e.to_string();
        assert!(m.contains("[2, 3]") && m.contains("[4]"), "{m}");
        // Same rank, incompatible extent.
        let e = a.broadcast_to(&[2, 4]).unwrap_err();
        assert!(matches!(e, Error::Shape { .. }), "{e:?}");

        // a[0] = [x, y]: a [2] into a [3] view.
        let row = a.slice(&[SliceArg::Index(0)]).unwrap();
        assert_eq!(row.shape(), &[3]);
        let two = Array::from_slice(&dev, &[9.0f32, 8.0], &[2]).unwrap();
        let e = row.assign(&two).unwrap_err();
        assert!(matches!(e, Error::Shape { op: "assign", .. }), "{e:?}");
        let m = e.to_string();
        assert!(m.contains("[2]") && m.contains("[3]"), "{m}");

        let e = Array::from_slice(&dev, &[1.0f32; 5], &[2, 3]).unwrap_err();
        assert!(
            matches!(
                e,
                Error::Shape {
                    op: "from_slice",
                    ..
                }
            ),
            "{e:?}"
        );
        let m = e.to_string();
        assert!(m.contains("[2, 3]") && m.contains('5'), "{m}");

        let e = a.to_vec::<i32>().unwrap_err();
        assert!(
            matches!(
                e,
                Error::DTypeMismatch {
                    expected: DType::F32,
                    got: DType::I32,
                    ..
                }
            ),
            "{e:?}"
        );
        let m = e.to_string();
        assert!(m.contains("f32") && m.contains("i32"), "{m}");

        // Bad permutations are errors too, not panics.
        assert!(matches!(a.transpose(&[0]), Err(Error::Shape { .. })));
        assert!(matches!(
            a.transpose(&[0, 2]),
            Err(Error::Axis {
                axis: 2,
                ndim: 2,
                ..
            })
        ));
        assert!(matches!(
            a.transpose(&[1, 1]),
            Err(Error::InvalidArgument { .. })
        ));

        // Nothing was written: a and the failed assign's target still hold their values.
        assert_eq!(a.to_vec::<f32>().unwrap(), host);
        assert_eq!(row.to_vec::<f32>().unwrap(), &host[..3]);
        assert_eq!(two.to_vec::<f32>().unwrap(), vec![9.0, 8.0]);
        drop((a, row, two));
        common::check_clean(&dev, base);
    });
}

// ---- #6 dtype not on adapter -----------------------------------------------------------------

#[test]
fn disabled_dtypes_are_unsupported_errors() {
    let Some(dev) = common::device() else { return };
    drop(dev);
    common::with_watchdog(60, move || {
        let lim = Device::with_config(DeviceConfig {
            disabled_dtypes: vec![DType::F16, DType::F64],
            ..Default::default()
        })
        .expect("a device without f16/f64");
        assert!(!lim.supports(DType::F64));
        assert!(!lim.supports(DType::F16));
        for d in [DType::F32, DType::I32, DType::U32] {
            assert!(lim.supports(d), "{d}");
        }
        assert!(!lim.info().features.contains(&"shader-f64"));
        assert!(!lim.info().features.contains(&"shader-f16"));
        let before = lim.memory_stats();

        let a = Array::from_slice(&lim, &[1.0f32, -2.5, 3.75], &[3]).unwrap();
        let unsupported = |r: gpuarray::Result<Array>, what: &str| match r {
            Err(e @ Error::Unsupported { .. }) => e.to_string(),
            other => panic!("{what}: expected Err(Unsupported), got {other:?}"),
        };
        for dtype in [DType::F64, DType::F16] {
            let m = unsupported(Array::zeros(&lim, &[4], dtype), "zeros");
            assert!(m.contains(dtype.name()), "{m}");
            unsupported(Array::ones(&lim, &[4], dtype), "ones");
            unsupported(Array::full(&lim, &[2, 2], 3.0, dtype), "full");
            unsupported(Array::arange(&lim, 0.0, 5.0, 1.0, dtype), "arange");
            unsupported(Array::linspace(&lim, 0.0, 1.0, 5, dtype), "linspace");
            unsupported(Array::eye(&lim, 3, dtype), "eye");
            let m = unsupported(a.astype(dtype), "astype");
            assert!(m.starts_with("astype"), "{m}");
            // Even an empty array of the dtype is refused.
            unsupported(Array::zeros(&lim, &[0], dtype), "zeros([0])");
        }
        let m = unsupported(
            Array::from_slice(&lim, &[1.0f64, 2.0], &[2]),
            "from_slice f64",
        );
        assert!(m.contains("SHADER_F64"), "{m}");
        unsupported(Array::from_slice(&lim, &[f16::ONE], &[1]), "from_slice f16");

        // Integer linspace falls back to an f32 work dtype: 0, 2.5, 5, 7.5, 10 truncated.
        let l = Array::linspace(&lim, 0.0, 10.0, 5, DType::I32).unwrap();
        assert_eq!(l.to_vec::<i32>().unwrap(), vec![0, 2, 5, 7, 10]);

        assert!(lim.take_uncaptured_errors().is_empty());
        assert_eq!(a.to_vec::<f32>().unwrap(), vec![1.0, -2.5, 3.75]);
        assert_eq!(
            a.astype(DType::I32).unwrap().to_vec::<i32>().unwrap(),
            vec![1, -2, 3]
        );
        // Refused allocations reserved nothing.
        let after = lim.memory_stats();
        assert_eq!(after.ooms, before.ooms);
        drop((a, l));
        common::check_clean(&lim, before.in_use_bytes);
    });
}

// ---- #7 f16 odd length -----------------------------------------------------------------------

#[test]
fn f16_odd_lengths_and_odd_offsets_round_trip() {
    let Some(dev) = common::device() else { return };
    common::with_watchdog(60, move || {
        if !common::supports(
            &dev,
            DType::F16,
            "f16_odd_lengths_and_odd_offsets_round_trip",
        ) {
            assert!(matches!(
                Array::zeros(&dev, &[3], DType::F16),
                Err(Error::Unsupported { .. })
            ));
            return;
        }
        let base = dev.memory_stats().in_use_bytes;
        let bits = |v: &[f16]| v.iter().map(|x| x.to_bits()).collect::<Vec<u16>>();
        let vals = [f16::from_f32(1.5), f16::from_f32(-2.25), f16::MAX];
        let a = Array::from_slice(&dev, &vals, &[3]).unwrap();
        assert_eq!(bits(&a.to_vec::<f16>().unwrap()), bits(&vals));
        assert_eq!(
            a.astype(DType::F32).unwrap().to_vec::<f32>().unwrap(),
            vec![1.5, -2.25, 65504.0]
        );

        // a[1:] starts at byte 2, not a multiple of 4.
        let tail = a.slice(&[r(Some(1), None, 1)]).unwrap();
        assert_eq!(bits(&tail.to_vec::<f16>().unwrap()), bits(&vals[1..]));
        assert_eq!(
            tail.astype(DType::F32).unwrap().to_vec::<f32>().unwrap(),
            vec![-2.25, 65504.0]
        );
        assert_eq!(
            bits(&tail.contiguous().unwrap().to_vec::<f16>().unwrap()),
            bits(&vals[1..])
        );
        // a[1] as a 0-d array.
        let mid = a.slice(&[SliceArg::Index(1)]).unwrap();
        assert_eq!(mid.shape(), &[] as &[usize]);
        assert_eq!(bits(&mid.to_vec::<f16>().unwrap()), bits(&vals[1..2]));
        // a[::-1]: a kernel writing three 2-byte elements.
        let rev = a.slice(&[r(None, None, -1)]).unwrap().contiguous().unwrap();
        assert_eq!(
            bits(&rev.to_vec::<f16>().unwrap()),
            bits(&[vals[2], vals[1], vals[0]])
        );

        // f32 -> f16 of odd length, and a stepped f16 view.
        let five: Vec<f32> = vec![0.5, 3.0, -7.0, 1024.0, -0.125];
        let h = Array::from_slice(&dev, &five, &[5])
            .unwrap()
            .astype(DType::F16)
            .unwrap();
        let want: Vec<f16> = five.iter().map(|&x| f16::from_f32(x)).collect();
        assert_eq!(bits(&h.to_vec::<f16>().unwrap()), bits(&want));
        let odd = h.slice(&[r(Some(1), None, 2)]).unwrap();
        assert_eq!(
            bits(&odd.to_vec::<f16>().unwrap()),
            bits(&[want[1], want[3]])
        );

        // Writing an odd run of f16 must not clobber the neighbouring halves of each word.
        let z = Array::full(&dev, &[6], 9.0, DType::F16).unwrap();
        z.slice(&[r(Some(1), Some(4), 1)])
            .unwrap()
            .assign(&a)
            .unwrap();
        let nine = f16::from_f32(9.0);
        assert_eq!(
            bits(&z.to_vec::<f16>().unwrap()),
            bits(&[nine, vals[0], vals[1], vals[2], nine, nine])
        );
        z.slice(&[r(Some(4), Some(5), 1)])
            .unwrap()
            .fill(-1.0)
            .unwrap();
        assert_eq!(
            bits(&z.to_vec::<f16>().unwrap()),
            bits(&[nine, vals[0], vals[1], vals[2], f16::from_f32(-1.0), nine])
        );

        assert_eq!(bits(&a.to_vec::<f16>().unwrap()), bits(&vals));
        drop((a, tail, mid, rev, h, odd, z));
        common::check_clean(&dev, base);
    });
}

// ---- #9 larger than max_buffer_size ------------------------------------------------------------

#[test]
fn larger_than_max_buffer_size_is_too_large() {
    let Some(dev) = common::device() else { return };
    drop(dev);
    common::with_watchdog(120, move || {
        let dev = Device::with_config(DeviceConfig {
            max_buffer_size: Some(256 * MIB),
            ..Default::default()
        })
        .unwrap();
        assert_eq!(dev.limits().max_buffer_size, 256 * MIB);
        let base = dev.memory_stats().in_use_bytes;
        let small_host: Vec<f32> = (0..(1 << 18)).map(|i| (i % 1000) as f32 - 500.0).collect();
        let small = Array::from_slice(&dev, &small_host, &[1 << 18]).unwrap();
        let held = dev.memory_stats().in_use_bytes;

        let e = Array::zeros(&dev, &[300 << 18], DType::F32).unwrap_err();
        match &e {
            Error::TooLarge {
                requested,
                max,
                what,
                ..
            } => {
                assert_eq!(
                    (*requested, *max, *what),
                    (300 * MIB, 256 * MIB, "max_buffer_size")
                );
            }
            other => panic!("expected TooLarge, got {other:?}"),
        }
        let m = e.to_string();
        assert!(
            m.contains("max_buffer_size") && m.contains(&(256 * MIB).to_string()),
            "{m}"
        );
        // One element over the limit.
        assert!(matches!(
            Array::zeros(&dev, &[(256 << 18) + 1], DType::F32),
            Err(Error::TooLarge { .. })
        ));
        assert!(matches!(
            Array::ones(&dev, &[300 << 18], DType::F32),
            Err(Error::TooLarge { .. })
        ));
        assert!(matches!(
            Array::arange(&dev, 0.0, (300u64 << 18) as f64, 1.0, DType::U32),
            Err(Error::TooLarge { .. })
        ));
        // A view needs no memory, but copying it out does.
        let one = Array::from_slice(&dev, &[1.0f32], &[1]).unwrap();
        let wide = one.broadcast_to(&[300 << 18]).unwrap();
        assert!(matches!(wide.contiguous(), Err(Error::TooLarge { .. })));
        let half_size = one.broadcast_to(&[150 << 18]).unwrap();
        if common::supports(&dev, DType::F64, "larger_than_max_buffer_size_is_too_large") {
            assert!(matches!(
                half_size.astype(DType::F64),
                Err(Error::TooLarge { .. })
            ));
        }
        assert_eq!(
            dev.memory_stats().in_use_bytes,
            held + 256,
            "failed requests reserved memory"
        );

        // Under the limit works (200 MiB), and the earlier array is intact.
        let n = 200usize << 18;
        let big = Array::full(&dev, &[n], 1.0, DType::F32).unwrap();
        let v = big.to_vec::<f32>().unwrap();
        assert_eq!(v.len(), n);
        assert!(
            v.iter().all(|&x| x == 1.0),
            "first bad element at {:?}",
            v.iter().position(|&x| x != 1.0)
        );
        assert_eq!(v.iter().map(|&x| x as f64).sum::<f64>(), n as f64);
        drop((v, big));
        // Exactly max_buffer_size is allowed.
        let exact = Array::zeros(&dev, &[256 << 18], DType::F32).unwrap();
        assert_eq!(
            exact
                .slice(&[r(Some(-4), None, 1)])
                .unwrap()
                .to_vec::<f32>()
                .unwrap(),
            vec![0.0; 4]
        );
        drop(exact);
        dev.synchronize().unwrap();
        dev.empty_cache();

        assert_eq!(small.to_vec::<f32>().unwrap(), small_host);
        drop((small, one, wide, half_size));
        common::check_clean(&dev, base);
    });
}

// ---- #10 overflow ----------------------------------------------------------------------------

#[test]
fn size_overflow_is_an_error_not_a_panic() {
    let Some(dev) = common::device() else { return };
    common::with_watchdog(60, move || {
        let base = dev.memory_stats().in_use_bytes;
        let keep = Array::arange(&dev, 0.0, 8.0, 1.0, DType::I32).unwrap();
        let overflow_or_too_large = |r: gpuarray::Result<Array>, what: &str| match r {
            Err(Error::Overflow { .. }) | Err(Error::TooLarge { .. }) => {}
            other => panic!("{what}: expected Err(Overflow | TooLarge), got {other:?}"),
        };
        // The shape product overflows u64.
        let e = Array::zeros(&dev, &[1 << 40, 1 << 40], DType::F32).unwrap_err();
        assert!(matches!(e, Error::Overflow { op: "zeros", .. }), "{e:?}");
        assert!(
            e.to_string().contains("[1099511627776, 1099511627776]"),
            "{e}"
        );
        // The element count fits but the byte count does not.
        assert!(matches!(
            Array::zeros(&dev, &[1 << 62], DType::F32),
            Err(Error::Overflow { .. })
        ));
        overflow_or_too_large(Array::zeros(&dev, &[1 << 61], DType::F32), "2^63 bytes");
        overflow_or_too_large(Array::ones(&dev, &[usize::MAX, 2], DType::U32), "ones");
        overflow_or_too_large(
            Array::from_slice(&dev, &[] as &[f32], &[1 << 40, 1 << 40, 1 << 40]),
            "from_slice",
        );
        overflow_or_too_large(
            Array::arange(&dev, 0.0, 1e30, 1.0, DType::F32),
            "arange 1e30",
        );
        overflow_or_too_large(
            Array::arange(&dev, 0.0, 1e18, 1.0, DType::F32),
            "arange 1e18",
        );
        overflow_or_too_large(Array::eye(&dev, 1 << 40, DType::F32), "eye");
        overflow_or_too_large(keep.broadcast_to(&[1 << 40, 1 << 40, 8]), "broadcast_to");
        assert_err!(
            keep.reshape(&[1 << 40, 1 << 40, -1]),
            Error::Overflow { op: "reshape", .. },
            "reshape"
        );
        assert_eq!(keep.to_vec::<i32>().unwrap(), (0..8).collect::<Vec<i32>>());
        assert_eq!(dev.memory_stats().ooms, 0);
        drop(keep);
        common::check_clean(&dev, base);
    });
}

// ---- #11 grids over 65535 workgroups ---------------------------------------------------------

#[test]
fn launches_over_65535_workgroups_write_every_element_once() {
    let Some(dev) = common::device() else { return };
    common::with_watchdog(120, move || {
        let base = dev.memory_stats().in_use_bytes;
        let n: usize = 65535 * 256 + 1;
        let u = Array::arange(&dev, 0.0, n as f64, 1.0, DType::U32).unwrap();
        let want: Vec<u32> = (0..n as u32).collect();
        assert_same(&u.to_vec::<u32>().unwrap(), &want, "arange u32");
        drop(u);
        let i = Array::arange(&dev, 0.0, n as f64, 1.0, DType::I32).unwrap();
        let want: Vec<i32> = (0..n as i32).collect();
        assert_same(&i.to_vec::<i32>().unwrap(), &want, "arange i32");
        // Counting down: element k is n - 1 - k.
        let down = Array::arange(&dev, (n - 1) as f64, -1.0, -1.0, DType::I32).unwrap();
        let want: Vec<i32> = (0..n as i32).rev().collect();
        assert_same(
            &down.to_vec::<i32>().unwrap(),
            &want,
            "arange i32 descending",
        );
        drop(down);

        let m = (1usize << 24) + 3;
        let f = Array::full(&dev, &[m], 3.25, DType::F32).unwrap();
        let v = f.to_vec::<f32>().unwrap();
        assert_eq!(v.len(), m);
        assert!(
            v.iter().all(|&x| x == 3.25),
            "first bad element at {:?}",
            v.iter().position(|&x| x != 3.25)
        );
        drop((f, v));

        // A strided fill over the even elements: odd ones must stay 0.
        let z = Array::zeros(&dev, &[2 * m], DType::U32).unwrap();
        z.slice(&[r(None, None, 2)]).unwrap().fill(1.0).unwrap();
        let v = z.to_vec::<u32>().unwrap();
        let bad = v
            .iter()
            .enumerate()
            .position(|(k, &x)| x != (k % 2 == 0) as u32);
        assert!(bad.is_none(), "strided fill wrong at {bad:?}");
        drop((z, v));

        // The first array is still right after all that.
        assert_eq!(
            i.slice(&[r(Some(-3), None, 1)])
                .unwrap()
                .to_vec::<i32>()
                .unwrap(),
            vec![n as i32 - 3, n as i32 - 2, n as i32 - 1]
        );
        drop(i);
        common::check_clean(&dev, base);
    });
}

// ---- #12 zero-size ---------------------------------------------------------------------------

#[test]
fn zero_size_arrays_allocate_nothing_and_read_back_empty() {
    let Some(dev) = common::device() else { return };
    common::with_watchdog(60, move || {
        let before = dev.memory_stats();
        let a = Array::zeros(&dev, &[0], DType::F32).unwrap();
        let b = Array::zeros(&dev, &[3, 0], DType::I32).unwrap();
        let c = Array::from_slice(&dev, &[] as &[f32], &[0, 5]).unwrap();
        let d = Array::full(&dev, &[2, 0, 4], 7.0, DType::U32).unwrap();
        let e = Array::arange(&dev, 5.0, 5.0, 1.0, DType::F32).unwrap();
        let f = Array::linspace(&dev, 0.0, 1.0, 0, DType::F32).unwrap();
        let g = Array::eye(&dev, 0, DType::F32).unwrap();
        assert_eq!(
            (a.shape(), b.shape(), c.shape()),
            (&[0usize][..], &[3usize, 0][..], &[0usize, 5][..])
        );
        for x in [&a, &b, &c, &d, &e, &f, &g] {
            assert!(x.is_empty(), "{x:?}");
        }
        assert_eq!(a.to_vec::<f32>().unwrap(), Vec::<f32>::new());
        assert_eq!(b.to_vec::<i32>().unwrap(), Vec::<i32>::new());
        assert_eq!(c.to_vec::<f32>().unwrap(), Vec::<f32>::new());
        assert_eq!(d.to_vec::<u32>().unwrap(), Vec::<u32>::new());
        assert!(e.to_vec::<f32>().unwrap().is_empty() && f.to_vec::<f32>().unwrap().is_empty());
        assert!(g.to_vec::<f32>().unwrap().is_empty());
        // The dtype check still applies to empty arrays.
        assert!(matches!(
            a.to_vec::<u32>(),
            Err(Error::DTypeMismatch { .. })
        ));

        let bt = b.transpose(&[1, 0]).unwrap();
        assert_eq!(bt.shape(), &[0, 3]);
        assert!(bt.to_vec::<i32>().unwrap().is_empty());
        assert!(bt.contiguous().unwrap().to_vec::<i32>().unwrap().is_empty());
        let bf = bt.astype(DType::F32).unwrap();
        assert_eq!(bf.shape(), &[0, 3]);
        assert!(bf.to_vec::<f32>().unwrap().is_empty());
        assert!(
            c.astype(DType::U32)
                .unwrap()
                .to_vec::<u32>()
                .unwrap()
                .is_empty()
        );
        assert_eq!(c.reshape(&[5, 0]).unwrap().shape(), &[5, 0]);
        assert_eq!(c.broadcast_to(&[2, 0, 5]).unwrap().shape(), &[2, 0, 5]);
        c.fill(1.0).unwrap();
        bf.assign(&bt).unwrap();
        // Empty arrays took nothing from the pool.
        let now = dev.memory_stats();
        assert_eq!(now, before, "empty arrays touched the pool");
        // Broadcasting a [3] into the [0, 3] array is allowed and writes nothing.
        let three = Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3]).unwrap();
        bf.assign(&three).unwrap();
        assert!(bf.to_vec::<f32>().unwrap().is_empty());
        assert_eq!(three.to_vec::<f32>().unwrap(), vec![1.0, 2.0, 3.0]);

        // An empty view of a non-empty array.
        let full = Array::arange(&dev, 0.0, 5.0, 1.0, DType::F32).unwrap();
        let none = full.slice(&[r(Some(3), Some(1), 1)]).unwrap();
        assert_eq!(none.shape(), &[0]);
        assert!(none.to_vec::<f32>().unwrap().is_empty());
        assert!(
            none.astype(DType::I32)
                .unwrap()
                .to_vec::<i32>()
                .unwrap()
                .is_empty()
        );
        none.assign(&a).unwrap();
        assert_eq!(full.to_vec::<f32>().unwrap(), vec![0.0, 1.0, 2.0, 3.0, 4.0]);
        drop((full, none, three));
        drop((a, b, c, d, e, f, g, bt, bf));
        common::check_clean(&dev, before.in_use_bytes);
    });
}

// ---- #13 out of memory under a pool limit ----------------------------------------------------

#[test]
fn pool_limit_gives_out_of_memory_then_recovers() {
    let Some(dev) = common::device() else { return };
    common::with_watchdog(120, move || {
        let base = dev.memory_stats().in_use_bytes;
        assert_eq!(base, 0, "a fresh device holds nothing");
        let limit = 64 * MIB;
        dev.set_memory_limit(Some(limit));
        assert_eq!(dev.memory_stats().limit, Some(limit));
        let n16 = (16 * MIB / 4) as usize; // 16 MiB of f32
        let a_host: Vec<f32> = (0..n16).map(|i| i as f32 * 0.25).collect();
        let a = Array::from_slice(&dev, &a_host, &[n16]).unwrap();

        // The chain: three more 16 MiB arrays fill the limit, a fourth does not fit.
        let b = Array::zeros(&dev, &[n16], DType::F32).unwrap();
        let c = Array::ones(&dev, &[n16], DType::I32).unwrap();
        let d = a.astype(DType::F32).unwrap();
        assert_eq!(dev.memory_stats().in_use_bytes, limit);
        let ooms0 = dev.memory_stats().ooms;
        let e = Array::zeros(&dev, &[n16], DType::F32).unwrap_err();
        match &e {
            Error::OutOfMemory {
                requested,
                in_use,
                limit: l,
            } => {
                assert_eq!((*requested, *in_use, *l), (16 * MIB, limit, limit));
            }
            other => panic!("expected OutOfMemory, got {other:?}"),
        }
        assert!(e.to_string().contains(&format!("limit {limit}")), "{e}");
        // Other ops that need memory fail the same way.
        assert!(matches!(
            a.astype(DType::I32),
            Err(Error::OutOfMemory { .. })
        ));
        assert!(matches!(
            a.slice(&[r(None, None, -1)]).unwrap().contiguous(),
            Err(Error::OutOfMemory { .. })
        ));
        assert!(matches!(
            Array::from_slice(&dev, &a_host[..1000], &[1000]),
            Err(Error::OutOfMemory { .. })
        ));
        let s = dev.memory_stats();
        assert_eq!(s.ooms, ooms0 + 4);
        assert_eq!(s.in_use_bytes, limit, "failed requests reserved memory");

        // Nothing already made was harmed.
        assert_same(&a.to_vec::<f32>().unwrap(), &a_host, "A after OOM");
        assert_same(
            &d.to_vec::<f32>().unwrap(),
            &a_host,
            "astype copy after OOM",
        );
        assert!(c.to_vec::<i32>().unwrap().iter().all(|&x| x == 1));
        assert!(b.to_vec::<f32>().unwrap().iter().all(|&x| x == 0.0));

        // After freeing, the same allocation succeeds (served from the cache).
        drop((b, c, d));
        let s = dev.memory_stats();
        assert_eq!((s.in_use_bytes, s.cached_bytes), (16 * MIB, 48 * MIB));
        let e = Array::full(&dev, &[n16], -3.0, DType::F32).unwrap();
        assert!(e.to_vec::<f32>().unwrap().iter().all(|&x| x == -3.0));
        drop(e);

        // 32 MiB fits under the limit only once the 48 MiB cache is flushed: one retry.
        let retries0 = dev.memory_stats().alloc_retries;
        let f = Array::full(&dev, &[2 * n16], 2.0, DType::F32).unwrap();
        let s = dev.memory_stats();
        assert_eq!(s.alloc_retries, retries0 + 1);
        assert_eq!(s.cached_bytes, 0);
        assert_eq!(s.in_use_bytes, 48 * MIB);
        assert!(s.in_use_bytes + s.cached_bytes <= limit);
        assert!(f.to_vec::<f32>().unwrap().iter().all(|&x| x == 2.0));
        assert_same(&a.to_vec::<f32>().unwrap(), &a_host, "A after retry");
        assert!(s.ooms >= 1);
        drop((a, f));
        common::check_clean(&dev, base);
        dev.empty_cache();
        assert_eq!(dev.memory_stats().cached_bytes, 0);
    });
}

// ---- #15 device lost -------------------------------------------------------------------------

#[test]
fn every_op_after_destroy_is_device_lost() {
    let Some(dev) = common::device() else { return };
    common::with_watchdog(30, move || {
        let host: Vec<f32> = (0..1000).map(|i| i as f32).collect();
        let a = Array::from_slice(&dev, &host, &[10, 100]).unwrap();
        let b = Array::arange(&dev, 0.0, 1000.0, 1.0, DType::F32)
            .unwrap()
            .reshape(&[10, 100])
            .unwrap();
        assert_eq!(a.to_vec::<f32>().unwrap(), host);
        let pending = a.astype(DType::I32).unwrap(); // recorded, never read before the loss
        assert!(dev.lost_reason().is_none());

        let t = Instant::now();
        dev.destroy();
        assert!(dev.lost_reason().is_some());
        // Each error names the call the user made and why the device is gone.
        fn lost<T: std::fmt::Debug>(r: gpuarray::Result<T>, call: &str) {
            match r {
                Err(e @ Error::DeviceLost { .. }) => {
                    let msg = e.to_string();
                    assert!(msg.starts_with(&format!("{call}: ")), "{call}: {msg}");
                    assert!(msg.contains("Device::destroy"), "{call}: {msg}");
                }
                other => panic!("{call}: expected Err(DeviceLost), got {other:?}"),
            }
        }
        lost(Array::zeros(&dev, &[4], DType::F32), "zeros");
        lost(Array::ones(&dev, &[4], DType::F32), "ones");
        lost(Array::from_slice(&dev, &[1.0f32, 2.0], &[2]), "from_slice");
        lost(Array::arange(&dev, 0.0, 4.0, 1.0, DType::I32), "arange");
        lost(Array::eye(&dev, 3, DType::F32), "eye");
        lost(a.astype(DType::I32), "astype");
        lost(a.transpose(&[1, 0]).unwrap().contiguous(), "contiguous");
        // Empty arrays too: the device is gone.
        lost(Array::zeros(&dev, &[0], DType::F32), "zeros");
        lost(a.to_vec::<f32>(), "to_vec");
        lost(pending.to_vec::<i32>(), "to_vec");
        lost(pollster::block_on(b.to_vec_async::<f32>()), "to_vec_async");
        lost(a.assign(&b), "assign");
        lost(a.fill(0.0), "fill");
        lost(dev.synchronize(), "synchronize");
        // Views are host-only and still fine.
        assert_eq!(a.transpose(&[1, 0]).unwrap().shape(), &[100, 10]);
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "ops after the loss took {:?}",
            t.elapsed()
        );

        // Dropping everything, emptying the cache and dropping the device does not panic.
        drop((a, b, pending));
        dev.empty_cache();
        let _ = dev.take_uncaptured_errors();
        drop(dev);
    });
}

#[test]
fn destroy_during_a_readback_returns_instead_of_hanging() {
    let Some(dev) = common::device() else { return };
    common::with_watchdog(60, move || {
        let n = 1usize << 24; // 64 MiB of f32
        let big = Array::arange(&dev, 0.0, n as f64, 1.0, DType::F32).unwrap();
        let wide = if dev.supports(DType::F64) {
            DType::F64
        } else {
            DType::I32
        };
        let started = Arc::new(AtomicBool::new(false));
        let reader = {
            let (big, started) = (big.clone(), Arc::clone(&started));
            std::thread::spawn(move || -> (usize, Error) {
                let mut rounds = 0;
                loop {
                    started.store(true, Ordering::SeqCst);
                    let r = big.astype(wide).and_then(|w| match wide {
                        DType::F64 => w
                            .to_vec::<f64>()
                            .map(|v| v.iter().enumerate().all(|(i, &x)| x == i as f64)),
                        _ => w
                            .to_vec::<i32>()
                            .map(|v| v.iter().enumerate().all(|(i, &x)| x == i as i32)),
                    });
                    match r {
                        Ok(correct) => assert!(correct, "round {rounds} read back wrong values"),
                        Err(e) => return (rounds, e),
                    }
                    rounds += 1;
                }
            })
        };
        while !started.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(1));
        }
        std::thread::sleep(Duration::from_millis(50));
        dev.destroy();
        let t = Instant::now();
        let (rounds, e) = reader.join().expect("the reader panicked");
        eprintln!(
            "reader: {rounds} full rounds, then {e:?} {:?} after destroy",
            t.elapsed()
        );
        assert!(
            matches!(e, Error::DeviceLost { .. } | Error::Gpu(_)),
            "{e:?}"
        );
        assert!(matches!(
            big.to_vec::<f32>(),
            Err(Error::DeviceLost { op: "to_vec", .. })
        ));
        drop(big);
        drop(dev);
    });
}

// ---- #16 poll timeout ------------------------------------------------------------------------

#[test]
fn a_timed_out_wait_is_an_error_and_a_later_wait_succeeds() {
    let Some(dev) = common::device() else { return };
    common::with_watchdog(240, move || {
        let base = dev.memory_stats().in_use_bytes;
        let (rows, cols) = (8192usize, 4096usize); // 128 MiB of f32
        let host: Vec<f32> = (0..rows * cols)
            .map(|i| (i % 4093) as f32 - 2000.0)
            .collect();
        let a = Array::from_slice(&dev, &host, &[rows, cols]).unwrap();
        dev.synchronize().unwrap();
        let wide = if dev.supports(DType::F64) {
            DType::F64
        } else {
            DType::F32
        };
        // t[j][i] = a[i][j]
        let want: Vec<f64> = (0..cols)
            .flat_map(|j| (0..rows).map(move |i| (i, j)))
            .map(|(i, j)| host[i * cols + j] as f64)
            .collect();
        drop(host);
        let read = |x: &Array| -> gpuarray::Result<Vec<f64>> {
            match wide {
                DType::F64 => x.to_vec::<f64>(),
                _ => x
                    .to_vec::<f32>()
                    .map(|v| v.into_iter().map(f64::from).collect()),
            }
        };

        dev.set_timeout(Duration::from_millis(1));
        assert_eq!(dev.timeout(), Duration::from_millis(1));
        let t = Instant::now();
        let d = a.transpose(&[1, 0]).unwrap().astype(wide).unwrap();
        match read(&d) {
            Ok(v) => {
                eprintln!("the adapter finished within the 1 ms timeout");
                assert_same(&v, &want, "transposed astype");
            }
            Err(e @ Error::Timeout { .. }) => {
                eprintln!("got {e} after {:?}", t.elapsed());
                assert!(
                    t.elapsed() < Duration::from_secs(30),
                    "a 1 ms timeout took {:?}",
                    t.elapsed()
                );
                assert!(e.to_string().contains("timed out"), "{e}");
                dev.set_timeout(Duration::from_secs(120));
                dev.synchronize().unwrap();
                assert_same(
                    &read(&d).unwrap(),
                    &want,
                    "transposed astype after the timeout",
                );
            }
            Err(other) => panic!("expected Ok or Err(Timeout), got {other:?}"),
        }
        dev.set_timeout(Duration::from_secs(120));
        // The device is healthy afterwards: the pool still serves and readbacks work.
        let small = Array::arange(&dev, 0.0, 10.0, 1.0, DType::I32).unwrap();
        assert_eq!(
            small.to_vec::<i32>().unwrap(),
            (0..10).collect::<Vec<i32>>()
        );
        assert_eq!(
            a.slice(&[SliceArg::Index(1), r(None, Some(3), 1)])
                .unwrap()
                .to_vec::<f32>()
                .unwrap(),
            vec![
                4096.0 % 4093.0 - 2000.0,
                4097.0 % 4093.0 - 2000.0,
                4098.0 % 4093.0 - 2000.0
            ]
        );
        drop((a, d, small));
        common::check_clean(&dev, base);
    });
}

// ---- #17 concurrency -------------------------------------------------------------------------

/// `iters` mixed ops for thread `t`, each checked against the host; returns every result.
fn mixed_ops(dev: &Device, t: usize, iters: usize) -> Vec<Vec<f64>> {
    let mut out = Vec::with_capacity(iters);
    for i in 0..iters {
        let n = 1 + (t * 131 + i * 37) % 4096;
        let ctx = format!("thread {t} op {i} (n {n})");
        let res: Vec<f64> = match i % 6 {
            0 => {
                let data: Vec<f32> = (0..n)
                    .map(|k| (t * 10_000 + i * 7 + k) as f32 * 0.5)
                    .collect();
                let got = Array::from_slice(dev, &data, &[n])
                    .unwrap()
                    .to_vec::<f32>()
                    .unwrap();
                assert_same(&got, &data, &ctx);
                got.into_iter().map(f64::from).collect()
            }
            1 => {
                let (rows, cols) = (1 + i % 13, 1 + n % 300);
                let data: Vec<f32> = (0..rows * cols).map(|k| k as f32 + t as f32).collect();
                let a = Array::from_slice(dev, &data, &[rows, cols]).unwrap();
                let got = a
                    .transpose(&[1, 0])
                    .unwrap()
                    .contiguous()
                    .unwrap()
                    .to_vec::<f32>()
                    .unwrap();
                let want: Vec<f32> = (0..cols)
                    .flat_map(|j| (0..rows).map(move |row| (row, j)))
                    .map(|(row, j)| data[row * cols + j])
                    .collect();
                assert_same(&got, &want, &ctx);
                got.into_iter().map(f64::from).collect()
            }
            2 => {
                let data: Vec<f32> = (0..n)
                    .map(|k| (k as f32 - (n / 2) as f32) * 0.75 + t as f32)
                    .collect();
                let a = Array::from_slice(dev, &data, &[n]).unwrap();
                let ints = a.astype(DType::I32).unwrap();
                let want_i: Vec<i32> = data.iter().map(|&x| x as i32).collect();
                assert_same(&ints.to_vec::<i32>().unwrap(), &want_i, &ctx);
                let back = ints.astype(DType::F32).unwrap().to_vec::<f32>().unwrap();
                let want: Vec<f32> = want_i.iter().map(|&x| x as f32).collect();
                assert_same(&back, &want, &ctx);
                back.into_iter().map(f64::from).collect()
            }
            3 => {
                let start = t as i32 * 100 - i as i32;
                let got = Array::arange(
                    dev,
                    start as f64,
                    (start + n as i32) as f64,
                    1.0,
                    DType::I32,
                )
                .unwrap()
                .to_vec::<i32>()
                .unwrap();
                let want: Vec<i32> = (0..n as i32).map(|k| start + k).collect();
                assert_same(&got, &want, &ctx);
                got.into_iter().map(f64::from).collect()
            }
            4 => {
                let step = 1 + i % 4;
                let data: Vec<f32> = (0..n).map(|k| (k * (t + 1)) as f32).collect();
                let a = Array::from_slice(dev, &data, &[n]).unwrap();
                let got = a
                    .slice(&[r(None, None, -(step as isize))])
                    .unwrap()
                    .to_vec::<f32>()
                    .unwrap();
                let want: Vec<f32> = data.iter().rev().step_by(step).copied().collect();
                assert_same(&got, &want, &ctx);
                got.into_iter().map(f64::from).collect()
            }
            _ => {
                let (rows, cols) = (1 + i % 7, 1 + n % 50);
                let data: Vec<f32> = (0..rows * cols).map(|k| (k + t) as f32 - 3.0).collect();
                let a = Array::from_slice(dev, &data, &[rows, cols]).unwrap();
                // a[::-1, -2::-2]
                let v = a
                    .slice(&[r(None, None, -1), r(Some(-2), None, -2)])
                    .unwrap();
                let want_cols: Vec<usize> = (0..cols.saturating_sub(1)).rev().step_by(2).collect();
                assert_eq!(v.shape(), &[rows, want_cols.len()], "{ctx}");
                let want: Vec<f32> = (0..rows)
                    .rev()
                    .flat_map(|row| want_cols.iter().map(move |&c| (row, c)))
                    .map(|(row, c)| data[row * cols + c])
                    .collect();
                let got = v.contiguous().unwrap().to_vec::<f32>().unwrap();
                assert_same(&got, &want, &ctx);
                got.into_iter().map(f64::from).collect()
            }
        };
        out.push(res);
    }
    out
}

#[test]
fn eight_threads_of_mixed_ops_match_the_single_thread_run() {
    let Some(dev) = common::device() else { return };
    common::with_watchdog(300, move || {
        let base = dev.memory_stats().in_use_bytes;
        let (threads, iters) = (8usize, 200usize);
        let shared_host: Vec<f32> = (0..4096).map(|k| k as f32 * -0.5).collect();
        let shared = Array::from_slice(&dev, &shared_host, &[64, 64]).unwrap();
        let parallel: Vec<Vec<Vec<f64>>> = std::thread::scope(|s| {
            let workers: Vec<_> = (0..threads)
                .map(|t| {
                    let dev = &dev;
                    s.spawn(move || mixed_ops(dev, t, iters))
                })
                .collect();
            // One more thread only reads back (a shared array, plainly and transposed).
            let (shared, shared_host) = (&shared, &shared_host);
            let reader = s.spawn(move || {
                for k in 0..100 {
                    if k % 2 == 0 {
                        assert_same(
                            &shared.to_vec::<f32>().unwrap(),
                            shared_host,
                            "shared readback",
                        );
                    } else {
                        let got = shared.t().to_vec::<f32>().unwrap();
                        let want: Vec<f32> = (0..64)
                            .flat_map(|j| (0..64).map(move |i| shared_host[i * 64 + j]))
                            .collect();
                        assert_same(&got, &want, "shared transposed readback");
                    }
                }
            });
            reader.join().expect("reader thread panicked");
            workers
                .into_iter()
                .map(|w| w.join().expect("worker panicked"))
                .collect()
        });
        assert!(dev.take_uncaptured_errors().is_empty());
        for (t, got) in parallel.iter().enumerate() {
            let single = mixed_ops(&dev, t, iters);
            assert_eq!(got.len(), single.len());
            for (i, (p, q)) in got.iter().zip(&single).enumerate() {
                assert_same(
                    p,
                    q,
                    &format!("thread {t} op {i}: parallel vs single-threaded"),
                );
            }
        }
        assert_same(
            &shared.to_vec::<f32>().unwrap(),
            &shared_host,
            "shared after",
        );
        drop(shared);
        common::check_clean(&dev, base);
    });
}

// ---- #18 write_buffer hazard -----------------------------------------------------------------

#[test]
fn an_upload_into_a_reused_buffer_does_not_overtake_recorded_reads() {
    let Some(dev) = common::device() else { return };
    common::with_watchdog(60, move || {
        let base = dev.memory_stats().in_use_bytes;
        // A buffer copy that reads x is recorded but not submitted; x is freed and its buffer
        // reused by an upload, which must land after the copy.
        let x = Array::from_slice(&dev, &[1.0f32; 4096], &[4096]).unwrap();
        let y = Array::zeros(&dev, &[4096], DType::F32).unwrap();
        y.assign(&x).unwrap();
        drop(x);
        let hits = dev.memory_stats().cache_hits;
        let z = Array::from_slice(&dev, &[2.0f32; 4096], &[4096]).unwrap();
        assert_eq!(
            dev.memory_stats().cache_hits,
            hits + 1,
            "z did not reuse x's buffer"
        );
        assert!(
            y.to_vec::<f32>().unwrap().iter().all(|&v| v == 1.0),
            "the copy saw the later upload"
        );
        assert!(z.to_vec::<f32>().unwrap().iter().all(|&v| v == 2.0));

        // The same with a kernel (a cast from a strided view) reading the freed array.
        let host: Vec<f32> = (0..4096).map(|k| k as f32).collect();
        let x = Array::from_slice(&dev, &host, &[64, 64]).unwrap();
        let cast = x.t().astype(DType::I32).unwrap();
        drop(x);
        let hits = dev.memory_stats().cache_hits;
        let w = Array::from_slice(&dev, &[-5.0f32; 4096], &[64, 64]).unwrap();
        assert_eq!(
            dev.memory_stats().cache_hits,
            hits + 1,
            "w did not reuse x's buffer"
        );
        let want: Vec<i32> = (0..64)
            .flat_map(|j| (0..64).map(move |i| i * 64 + j))
            .collect();
        assert_same(&cast.to_vec::<i32>().unwrap(), &want, "cast after reuse");
        assert!(w.to_vec::<f32>().unwrap().iter().all(|&v| v == -5.0));
        drop((y, z, cast, w));
        common::check_clean(&dev, base);
    });
}

// ---- #19 cross-device ------------------------------------------------------------------------

#[test]
fn arrays_from_two_devices_do_not_mix() {
    let Some(dev) = common::device() else { return };
    common::with_watchdog(60, move || {
        let dev2 = Device::new().expect("a second device on the same adapter");
        let (b1, b2) = (
            dev.memory_stats().in_use_bytes,
            dev2.memory_stats().in_use_bytes,
        );
        let a = Array::zeros(&dev, &[4], DType::F32).unwrap();
        let b = Array::from_slice(&dev2, &[1.0f32, 2.0, 3.0, 4.0], &[4]).unwrap();
        let e = a.assign(&b).unwrap_err();
        assert!(
            matches!(e, Error::DeviceMismatch { op: "assign", .. }),
            "{e:?}"
        );
        assert!(e.to_string().contains("different devices"), "{e}");
        assert!(matches!(b.assign(&a), Err(Error::DeviceMismatch { .. })));
        // A shape mismatch across devices still reports the device first.
        let c = Array::zeros(&dev2, &[7], DType::F32).unwrap();
        assert!(matches!(a.assign(&c), Err(Error::DeviceMismatch { .. })));
        assert_eq!(a.to_vec::<f32>().unwrap(), vec![0.0; 4]);
        assert_eq!(b.to_vec::<f32>().unwrap(), vec![1.0, 2.0, 3.0, 4.0]);
        drop((a, b, c));
        common::check_clean(&dev, b1);
        common::check_clean(&dev2, b2);
    });
}

// ---- #20 aliasing ----------------------------------------------------------------------------

#[test]
fn assigning_overlapping_views_of_one_buffer_matches_numpy() {
    let Some(dev) = common::device() else { return };
    common::with_watchdog(60, move || {
        let base = dev.memory_stats().in_use_bytes;
        let a = Array::arange(&dev, 0.0, 10.0, 1.0, DType::F32).unwrap();
        let mut h: Vec<f32> = (0..10).map(|i| i as f32).collect();

        // a[1:] = a[:9]: NumPy reads the whole source before writing.
        a.slice(&[r(Some(1), None, 1)])
            .unwrap()
            .assign(&a.slice(&[r(None, Some(9), 1)]).unwrap())
            .unwrap();
        let src = h[..9].to_vec();
        h[1..].copy_from_slice(&src);
        assert_eq!(h, vec![0.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]);
        assert_eq!(a.to_vec::<f32>().unwrap(), h);

        // a[:9] = a[1:]: the other direction.
        a.slice(&[r(None, Some(9), 1)])
            .unwrap()
            .assign(&a.slice(&[r(Some(1), None, 1)]).unwrap())
            .unwrap();
        let src = h[1..].to_vec();
        h[..9].copy_from_slice(&src);
        assert_eq!(a.to_vec::<f32>().unwrap(), h);

        // a[...] = a[::-1]
        a.assign(&a.slice(&[r(None, None, -1)]).unwrap()).unwrap();
        h.reverse();
        assert_eq!(a.to_vec::<f32>().unwrap(), h);

        // a[...] = a (a no-op) and a 2-D in-place transpose m[...] = m.T.
        a.assign(&a).unwrap();
        assert_eq!(a.to_vec::<f32>().unwrap(), h);
        let m = Array::arange(&dev, 0.0, 16.0, 1.0, DType::I32)
            .unwrap()
            .reshape(&[4, 4])
            .unwrap();
        m.assign(&m.t()).unwrap();
        let want: Vec<i32> = (0..4)
            .flat_map(|row| (0..4).map(move |c| c * 4 + row))
            .collect();
        assert_eq!(m.to_vec::<i32>().unwrap(), want);

        // A broadcast destination would write elements twice: refused.
        let dst = a
            .slice(&[r(None, Some(1), 1)])
            .unwrap()
            .broadcast_to(&[3])
            .unwrap();
        assert!(matches!(
            dst.assign(&a.slice(&[r(None, Some(3), 1)]).unwrap()),
            Err(Error::InvalidArgument { .. })
        ));
        assert!(matches!(dst.fill(1.0), Err(Error::InvalidArgument { .. })));
        assert_eq!(a.to_vec::<f32>().unwrap(), h);
        drop((a, m, dst));
        common::check_clean(&dev, base);
    });
}

// ---- #23/#24 uncaptured-error gate and leak check --------------------------------------------

#[test]
fn a_thousand_allocations_leak_nothing() {
    let Some(dev) = common::device() else { return };
    common::with_watchdog(120, move || {
        let before = dev.memory_stats();
        for i in 0..1000usize {
            let n = 1 + (i * 7919) % 50_000;
            let dtype = [DType::F32, DType::I32, DType::U32][i % 3];
            let a = if i % 2 == 0 {
                Array::zeros(&dev, &[n], dtype)
            } else {
                Array::ones(&dev, &[n], dtype)
            }
            .unwrap();
            assert_eq!(a.len(), n);
            if i % 50 == 1 || i % 50 == 2 {
                // Reused buffers hold old data: zeros must clear them, ones must overwrite them.
                let want = (i % 2) as i64;
                let ok = match dtype {
                    DType::F32 => a.to_vec::<f32>().unwrap().iter().all(|&x| x == want as f32),
                    DType::I32 => a.to_vec::<i32>().unwrap().iter().all(|&x| x == want as i32),
                    _ => a.to_vec::<u32>().unwrap().iter().all(|&x| x == want as u32),
                };
                assert!(
                    ok,
                    "iteration {i}: {}({n}, {dtype}) read back wrong",
                    if want == 1 { "ones" } else { "zeros" }
                );
            }
        }
        let s = dev.memory_stats();
        assert_eq!(
            s.allocations + s.cache_hits,
            before.allocations + before.cache_hits + 1000,
            "{s:?}"
        );
        assert!(
            s.cache_hits > before.cache_hits,
            "the cache was never used: {s:?}"
        );
        assert_eq!(s.ooms, before.ooms);
        common::check_clean(&dev, before.in_use_bytes);
        dev.empty_cache();
        let s = dev.memory_stats();
        assert_eq!(s.cached_bytes, 0);
        assert_eq!(s.in_use_bytes, before.in_use_bytes);
        // The device still works after emptying the cache.
        let a = Array::full(&dev, &[3], 4.0, DType::I32).unwrap();
        assert_eq!(a.to_vec::<i32>().unwrap(), vec![4, 4, 4]);
        drop(a);
        common::check_clean(&dev, before.in_use_bytes);
    });
}

// ---- releasing cached buffers while work that uses them is recorded --------------------------

/// `y[...] = x` recorded but not submitted: returns (keep, y, x, x's values). The callers free
/// `x`, so its buffer leaves the array while the copy that reads it is still unsubmitted.
fn recorded_copy(dev: &Device) -> (Array, Array, Array, Vec<f32>) {
    let keep = Array::from_slice(dev, &[5.0f32; 8], &[8]).unwrap();
    let vals: Vec<f32> = (0..1024).map(|k| k as f32 - 7.0).collect();
    let x = Array::from_slice(dev, &vals, &[1024]).unwrap();
    let y = Array::zeros(dev, &[1024], DType::F32).unwrap();
    y.assign(&x).unwrap(); // a buffer copy in the pending encoder
    (keep, y, x, vals)
}

/// The recorded copy still lands and later readbacks work; `Err` describes what went wrong.
fn recorded_work_survived(
    dev: &Device,
    keep: &Array,
    y: &Array,
    vals: &[f32],
) -> Result<(), String> {
    let got = y.to_vec::<f32>().map_err(|e| format!("y.to_vec: {e}"))?;
    if got != vals {
        return Err(format!(
            "the recorded copy was lost: y[..4] = {:?}",
            &got[..4]
        ));
    }
    let k = keep
        .to_vec::<f32>()
        .map_err(|e| format!("keep.to_vec: {e}"))?;
    if k != [5.0; 8] {
        return Err(format!("keep changed: {k:?}"));
    }
    dev.synchronize().map_err(|e| format!("synchronize: {e}"))
}

#[test]
fn freeing_cached_buffers_keeps_recorded_work() {
    let Some(dev) = common::device() else { return };
    drop(dev);
    common::with_watchdog(60, move || {
        let mut failures = Vec::new();

        // 1. Device::empty_cache.
        let dev = Device::new().unwrap();
        let (keep, y, x, vals) = recorded_copy(&dev);
        drop(x);
        dev.empty_cache();
        assert_eq!(dev.memory_stats().cached_bytes, 0);
        if let Err(e) = recorded_work_survived(&dev, &keep, &y, &vals) {
            failures.push(format!("empty_cache: {e}"));
        }

        // 2. The pool's flush-and-retry when the cache is in the way of its limit.
        let dev = Device::new().unwrap();
        dev.set_memory_limit(Some(16 << 10));
        let (keep, y, x, vals) = recorded_copy(&dev);
        drop(x);
        let retries = dev.memory_stats().alloc_retries;
        let z = Array::zeros(&dev, &[2000], DType::F32).unwrap(); // 8 KiB: fits only without the cache
        assert_eq!(
            dev.memory_stats().alloc_retries,
            retries + 1,
            "{:?}",
            dev.memory_stats()
        );
        if let Err(e) = recorded_work_survived(&dev, &keep, &y, &vals) {
            failures.push(format!("limit retry: {e}"));
        }
        drop(z);

        // 3. A freed buffer released instead of cached because the limit was lowered.
        let dev = Device::new().unwrap();
        let (keep, y, x, vals) = recorded_copy(&dev);
        let s = dev.memory_stats();
        dev.set_memory_limit(Some(s.in_use_bytes + s.cached_bytes - 1));
        drop(x);
        assert_eq!(
            dev.memory_stats().cached_bytes,
            s.cached_bytes,
            "x should have been released, not cached"
        );
        if let Err(e) = recorded_work_survived(&dev, &keep, &y, &vals) {
            failures.push(format!("release over the limit: {e}"));
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    });
}

#[test]
fn a_failed_readback_does_not_poison_later_readbacks() {
    let Some(dev) = common::device() else { return };
    common::with_watchdog(60, move || {
        // The sequence that made a submit fail during a readback while the release bug above
        // was present. With it fixed nothing fails here, and that is asserted: the first
        // readback must succeed with the recorded values (a failure is no longer tolerated),
        // and readbacks of the same size class after it too.
        let (keep, _y, x, _vals) = recorded_copy(&dev);
        drop(x);
        dev.empty_cache();
        match keep.to_vec::<f32>() {
            Ok(v) => assert_eq!(v, vec![5.0; 8], "first readback after the release"),
            Err(e) => panic!("the first readback after the release failed: {e}"),
        }
        for attempt in 0..3 {
            match keep.to_vec::<f32>() {
                Ok(v) => assert_eq!(v, vec![5.0; 8]),
                Err(e) => panic!("readback {attempt} after one failed readback: {e}"),
            }
        }
        let other = Array::from_slice(&dev, &[3i32; 10], &[10]).unwrap();
        assert_eq!(other.to_vec::<i32>().unwrap(), vec![3; 10]);
    });
}
