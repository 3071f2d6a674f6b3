//! Hostile input: every public call fed the integers and floats at the edges (0, 1, the type's
//! maximum and minimum, just past a limit). Each must return NumPy's answer or an `Err` of the
//! fitting variant whose message names the call — never panic, abort or answer wrongly — and
//! arrays made before must still read back. Runs in debug builds too, where overflow panics.
//!
//! The last tests are property tests (proptest) of views, reshape, slicing, pad, tile and repeat
//! against a CPU model written with naive index loops.

mod common;

use gpuarray::random::Generator;
use gpuarray::{Array, Axes, DType, Device, DeviceConfig, Error, SliceArg, concatenate, einsum};
use std::sync::{RwLock, RwLockReadGuard};
use std::time::Duration;

/// Tests that set environment variables hold this for writing; every other test holds it for
/// reading while it makes its device, which reads the environment.
static ENV: RwLock<()> = RwLock::new(());

fn env_read() -> RwLockReadGuard<'static, ()> {
    ENV.read().unwrap_or_else(|p| p.into_inner())
}

/// The test device (see `common::device`), made while no test changes the environment.
fn device() -> Option<Device> {
    let _env = env_read();
    common::device()
}

/// An array made before the hostile calls, read back after them to show nothing was disturbed.
struct Witness(Array);

impl Witness {
    fn new(dev: &Device) -> Witness {
        Witness(Array::from_slice(dev, &[3.5f32, -1.0, 7.25, 0.0], &[2, 2]).unwrap())
    }
    fn check(&self) {
        assert_eq!(self.0.to_vec::<f32>().unwrap(), [3.5, -1.0, 7.25, 0.0]);
        self.0.device().synchronize().unwrap();
    }
}

/// Integer values (i32 data, or indices in the device's index dtype) as i32.
fn ints(a: &Array) -> Vec<i32> {
    a.astype(DType::I32).unwrap().to_vec::<i32>().unwrap()
}

fn arange_i32(dev: &Device, n: usize) -> Array {
    Array::arange(dev, 0.0, n as f64, 1.0, DType::I32).unwrap()
}

/// The elements `start:stop:step` selects from `0..n`, by Python's definition: clamp the
/// bounds, then walk (in i128, so no step overflows).
fn py_slice(n: usize, start: Option<isize>, stop: Option<isize>, step: isize) -> Vec<usize> {
    let (n, step) = (n as i128, step as i128);
    let fix = |v: isize, lo: i128, hi: i128| {
        let v = v as i128;
        (if v < 0 { v + n } else { v }).clamp(lo, hi)
    };
    let (lo, hi) = if step > 0 { (0, n) } else { (-1, n - 1) };
    let start = start.map_or(if step > 0 { 0 } else { n - 1 }, |s| fix(s, lo, hi));
    let stop = stop.map_or(if step > 0 { n } else { -1 }, |s| fix(s, lo, hi));
    let mut out = Vec::new();
    let mut i = start;
    while (step > 0 && i < stop) || (step < 0 && i > stop) {
        out.push(i as usize);
        i += step;
    }
    out
}

#[test]
fn slicing_with_extreme_steps_and_bounds() {
    let Some(dev) = device() else { return };
    let w = Witness::new(&dev);
    let a = arange_i32(&dev, 5);
    let extremes = [
        isize::MAX,
        isize::MIN,
        1 << 62,
        -(1 << 62),
        isize::MAX - 1,
        isize::MIN + 1,
        1,
        -1,
        2,
        -2,
        5,
        -5,
        6,
        -6,
    ];
    let bounds = [
        None,
        Some(0),
        Some(1),
        Some(-1),
        Some(4),
        Some(5),
        Some(isize::MAX),
        Some(isize::MIN),
    ];
    for &step in &extremes {
        for &start in &bounds {
            for &stop in &[None, Some(isize::MAX), Some(isize::MIN), Some(3)] {
                let got = ints(&a.slice(&[SliceArg::range(start, stop, step)]).unwrap());
                let want: Vec<i32> = py_slice(5, start, stop, step)
                    .into_iter()
                    .map(|i| i as i32)
                    .collect();
                assert_eq!(got, want, "a[{start:?}:{stop:?}:{step}]");
            }
        }
    }
    // NumPy: a[::sys.maxsize] is [a[0]], a[::-sys.maxsize - 1] is [a[-1]].
    assert_eq!(
        ints(&a.slice(&[SliceArg::range(None, None, isize::MAX)]).unwrap()),
        [0]
    );
    assert_eq!(
        ints(&a.slice(&[SliceArg::range(None, None, isize::MIN)]).unwrap()),
        [4]
    );
    // Twice, on a 2-D view, and on an empty array.
    let m = arange_i32(&dev, 12).reshape(&[3, 4]).unwrap().t();
    let s = m
        .slice(&[
            SliceArg::range(None, None, isize::MIN),
            SliceArg::range(Some(1), None, isize::MAX),
        ])
        .unwrap();
    assert_eq!((s.shape(), ints(&s)), (&[1usize, 1][..], vec![7]));
    let twice = s
        .slice(&[SliceArg::range(None, None, 1 << 62), SliceArg::full()])
        .unwrap();
    assert_eq!(ints(&twice), [7]);
    let e = Array::zeros(&dev, &[0], DType::I32).unwrap();
    let es = e.slice(&[SliceArg::range(None, None, isize::MIN)]).unwrap();
    assert_eq!(es.shape(), &[0]);
    // Errors: indices out of range at the extremes, a zero step, too many indices.
    for i in [isize::MIN, isize::MAX, 5, -6] {
        assert_err!(
            a.slice(&[SliceArg::Index(i)]),
            Error::InvalidArgument { .. },
            "slice",
            "out of bounds"
        );
    }
    assert_eq!(ints(&a.slice(&[SliceArg::Index(-5)]).unwrap()), [0]);
    assert_err!(
        a.slice(&[SliceArg::range(None, None, 0)]),
        Error::InvalidArgument { .. },
        "slice",
        "step"
    );
    assert_err!(
        a.slice(&[SliceArg::Index(0), SliceArg::Index(0)]),
        Error::InvalidArgument { .. },
        "slice",
        "too many indices"
    );
    w.check();
}

#[test]
fn diagonal_and_trace_with_extreme_offsets() {
    let Some(dev) = device() else { return };
    let w = Witness::new(&dev);
    let m = arange_i32(&dev, 12).reshape(&[3, 4]).unwrap();
    // NumPy: offsets past either axis give an empty diagonal.
    for (offset, want) in [
        (isize::MIN, vec![]),
        (isize::MIN + 1, vec![]),
        (isize::MAX, vec![]),
        (-3, vec![]),
        (-2, vec![8]),
        (-1, vec![4, 9]),
        (0, vec![0, 5, 10]),
        (1, vec![1, 6, 11]),
        (3, vec![3]),
        (4, vec![]),
    ] {
        let d = m.diagonal(offset, 0, 1).unwrap();
        assert_eq!(ints(&d), want, "diagonal({offset})");
        let t = m.trace(offset).unwrap();
        assert_eq!(ints(&t), [want.iter().sum::<i32>()], "trace({offset})");
        // The transposed view: the same diagonal with the roles of the axes swapped.
        assert_eq!(
            ints(&m.t().diagonal(-offset.max(-isize::MAX), 0, 1).unwrap()),
            want
        );
    }
    assert_err!(m.diagonal(0, isize::MIN, 1), Error::Axis { .. }, "diagonal");
    assert_err!(m.diagonal(0, 0, isize::MAX), Error::Axis { .. }, "diagonal");
    assert_err!(
        m.diagonal(0, 1, -1),
        Error::InvalidArgument { .. },
        "diagonal"
    );
    let v = arange_i32(&dev, 3);
    assert_err!(v.trace(isize::MIN), Error::Shape { .. }, "diagonal");
    w.check();
}

#[test]
fn concatenate_of_huge_broadcast_views() {
    let Some(dev) = device() else { return };
    let w = Witness::new(&dev);
    let one = Array::from_slice(&dev, &[1.0f32], &[1]).unwrap();
    let b = one.broadcast_to(&[1 << 62]).unwrap();
    // 4 · 2^62 passes usize::MAX; 2 · 2^62 passes isize::MAX; 2^62 f32 pass the buffer limit.
    assert_err!(
        concatenate(&[&b, &b, &b, &b], 0),
        Error::Overflow { .. },
        "concatenate",
        "add up"
    );
    assert_err!(
        concatenate(&[&b, &b], 0),
        Error::Overflow { .. },
        "concatenate"
    );
    // 2^62 f32 are 2^64 bytes, past u64; 2^60 are 2^62 bytes, past the adapter's buffers.
    assert_err!(
        concatenate(&[&b], 0),
        Error::Overflow { .. } | Error::TooLarge { .. },
        "concatenate"
    );
    let c = one.broadcast_to(&[1 << 60]).unwrap();
    assert_err!(
        concatenate(&[&c], 0),
        Error::TooLarge { .. },
        "concatenate",
        "max_buffer_size"
    );
    // Empty along another axis: the overflow is still an error (NumPy cannot even make it),
    // but joining along the empty axis is fine.
    let flat = Array::zeros(&dev, &[1, 0], DType::F32).unwrap();
    let wide = flat.broadcast_to(&[1 << 62, 0]).unwrap();
    assert_err!(
        concatenate(&[&wide, &wide, &wide, &wide], 0),
        Error::Overflow { .. },
        "concatenate"
    );
    let joined = concatenate(&[&wide, &wide], 1).unwrap();
    assert_eq!(joined.shape(), &[1 << 62, 0]);
    // The ordinary neighbours.
    let a = arange_i32(&dev, 3);
    let empty = Array::zeros(&dev, &[0], DType::I32).unwrap();
    assert_eq!(
        ints(&concatenate(&[&a, &empty, &a], 0).unwrap()),
        [0, 1, 2, 0, 1, 2]
    );
    assert_err!(
        concatenate(&[], 0),
        Error::InvalidArgument { .. },
        "concatenate"
    );
    assert_err!(
        concatenate(&[&a], isize::MIN),
        Error::Axis { .. },
        "concatenate"
    );
    w.check();
}

#[test]
fn pad_tile_repeat_with_huge_counts() {
    let Some(dev) = device() else { return };
    let w = Witness::new(&dev);
    let a = Array::from_slice(&dev, &[1i32, 2, 3], &[3]).unwrap();
    // pad
    for pw in [
        (usize::MAX, 0),
        (0, usize::MAX),
        (usize::MAX - 3, 1),
        (1 << 63, 1 << 63),
    ] {
        assert_err!(a.pad(&[pw], 0.0), Error::Overflow { .. }, "pad");
    }
    // Exactly usize::MAX and isize::MAX + 1: too long an axis.
    assert_err!(
        a.pad(&[(usize::MAX - 3, 0)], 0.0),
        Error::Overflow { .. },
        "pad",
        "maximum allowed dimension"
    );
    assert_err!(
        a.pad(&[(isize::MAX as usize - 2, 0)], 0.0),
        Error::Overflow { .. },
        "pad"
    );
    // isize::MAX elements: a valid shape, but not a buffer.
    assert_err!(
        a.pad(&[(isize::MAX as usize - 3, 0)], 0.0),
        Error::Overflow { .. } | Error::TooLarge { .. },
        "pad"
    );
    assert_err!(
        a.pad(&[(1 << 40, 0)], 0.0),
        Error::TooLarge { .. },
        "pad",
        "max_buffer_size"
    );
    assert_err!(
        a.pad(&[(1, 1)], f64::NAN),
        Error::InvalidArgument { .. },
        "pad"
    );
    assert_err!(a.pad(&[(1, 1), (1, 1)], 0.0), Error::Shape { .. }, "pad");
    assert_eq!(ints(&a.pad(&[(0, 0)], 9.0).unwrap()), [1, 2, 3]);
    assert_eq!(
        ints(&a.pad(&[(1, 2)], -7.0).unwrap()),
        [-7, 1, 2, 3, -7, -7]
    );
    let e = Array::zeros(&dev, &[2, 0], DType::I32).unwrap();
    let big = e.pad(&[(isize::MAX as usize - 2, 0), (0, 0)], 0.0).unwrap();
    assert_eq!(big.shape(), &[isize::MAX as usize, 0]);
    // tile
    assert_err!(a.tile(&[usize::MAX]), Error::Overflow { .. }, "tile");
    assert_err!(
        a.tile(&[isize::MAX as usize]),
        Error::Overflow { .. },
        "tile"
    );
    assert_err!(a.tile(&[usize::MAX, 0]), Error::Overflow { .. }, "tile");
    assert_err!(
        a.tile(&[1 << 40]),
        Error::TooLarge { .. },
        "tile",
        "max_buffer_size"
    );
    assert_eq!(a.tile(&[0]).unwrap().shape(), &[0]);
    assert_eq!(ints(&a.tile(&[1]).unwrap()), [1, 2, 3]);
    assert_eq!(ints(&a.tile(&[2]).unwrap()), [1, 2, 3, 1, 2, 3]);
    assert_eq!(ints(&a.tile(&[]).unwrap()), [1, 2, 3]);
    // NumPy: np.tile(np.zeros(0), 2**63 - 1).shape == (0,); usize::MAX copies of nothing too.
    let z = Array::zeros(&dev, &[0], DType::I32).unwrap();
    assert_eq!(z.tile(&[usize::MAX]).unwrap().shape(), &[0]);
    // repeat
    assert_err!(
        a.repeat(1 << 62, Some(0)),
        Error::Overflow { .. },
        "repeat",
        "4611686018427387904"
    );
    assert_err!(a.repeat(usize::MAX, None), Error::Overflow { .. }, "repeat");
    assert_err!(a.repeat(1 << 40, Some(0)), Error::TooLarge { .. }, "repeat");
    assert_err!(a.repeat(2, Some(isize::MIN)), Error::Axis { .. }, "repeat");
    assert_eq!(a.repeat(0, Some(0)).unwrap().shape(), &[0]);
    assert_eq!(ints(&a.repeat(1, None).unwrap()), [1, 2, 3]);
    assert_eq!(ints(&a.repeat(2, Some(-1)).unwrap()), [1, 1, 2, 2, 3, 3]);
    // NumPy refuses 3 · 2^62 rows even of nothing; 2^62 rows of nothing are fine.
    let e3 = Array::zeros(&dev, &[3, 0], DType::I32).unwrap();
    assert_err!(
        e3.repeat(1 << 62, Some(0)),
        Error::Overflow { .. },
        "repeat"
    );
    let e1 = Array::zeros(&dev, &[1, 0], DType::I32).unwrap();
    assert_eq!(e1.repeat(1 << 62, Some(0)).unwrap().shape(), &[1 << 62, 0]);
    w.check();
}

#[test]
fn kron_of_huge_broadcast_views() {
    let Some(dev) = device() else { return };
    let w = Witness::new(&dev);
    let one = Array::from_slice(&dev, &[2.0f32], &[1]).unwrap();
    let b = one.broadcast_to(&[1 << 40]).unwrap();
    assert_err!(b.kron(&b), Error::Overflow { .. }, "kron");
    let two = Array::from_slice(&dev, &[1.0f32, 3.0], &[2]).unwrap();
    assert_err!(
        b.kron(&two),
        Error::TooLarge { .. },
        "kron",
        "max_buffer_size"
    );
    let b2 = one.broadcast_to(&[1 << 31, 1 << 31]).unwrap();
    assert_err!(b2.kron(&b2), Error::Overflow { .. }, "kron");
    let empty = Array::zeros(&dev, &[0], DType::F32).unwrap();
    assert_eq!(b.kron(&empty).unwrap().shape(), &[0]);
    assert_eq!(one.kron(&two).unwrap().to_vec::<f32>().unwrap(), [2.0, 6.0]);
    w.check();
}

#[test]
fn spawn_counts() {
    let Some(dev) = device() else { return };
    let w = Witness::new(&dev);
    let mut g = Generator::new(&dev, 9);
    let reference = g.clone().spawn(2).unwrap();
    assert_err!(
        g.spawn(usize::MAX),
        Error::TooLarge { .. },
        "spawn",
        "host allocation limit"
    );
    assert_err!(g.spawn(usize::MAX / 2), Error::TooLarge { .. }, "spawn");
    // The failed calls spawned nothing: the next children are the ones a clone gets.
    let kids = g.spawn(2).unwrap();
    let subs = |v: &[Generator]| v.iter().map(|k| k.subsequence()).collect::<Vec<_>>();
    assert_eq!(subs(&kids), subs(&reference));
    assert!(g.spawn(0).unwrap().is_empty());
    assert_eq!(g.spawn(1).unwrap().len(), 1);
    w.check();
}

#[test]
fn environment_values_that_do_not_parse_or_overflow() {
    let _env = ENV.write().unwrap_or_else(|p| p.into_inner());
    let vars = [
        "GPUARRAY_TIMEOUT_SECS",
        "GPUARRAY_MEMORY_LIMIT",
        "GPUARRAY_MAX_BINDING",
        "GPUARRAY_FORCE_FALLBACK",
    ];
    let saved: Vec<Option<String>> = vars.iter().map(|v| std::env::var(v).ok()).collect();
    let with = |name: &str, value: &str| {
        // TODO: Audit that the environment access only happens in single-threaded code.
        unsafe { std::env::set_var(name, value) };
        let r = DeviceConfig::from_env();
        // TODO: Audit that the environment access only happens in single-threaded code.
        unsafe { std::env::remove_var(name) };
        r
    };
    for v in vars {
        // TODO: Audit that the environment access only happens in single-threaded code.
        unsafe { std::env::remove_var(v) };
    }
    // Parses, but past what a Duration holds: saturates to MAX_TIMEOUT instead of panicking.
    for huge in ["1e20", "1.8e19", "1e300", "3.2e9"] {
        let c = with("GPUARRAY_TIMEOUT_SECS", huge).unwrap();
        assert_eq!(c.timeout, Some(gpuarray::MAX_TIMEOUT), "{huge}");
    }
    let c = with("GPUARRAY_TIMEOUT_SECS", "0.5").unwrap();
    assert_eq!(c.timeout, Some(Duration::from_millis(500)));
    for bad in ["abc", "0", "-1", "NaN", "inf", "-inf", "1e400", "5s"] {
        assert_err!(
            with("GPUARRAY_TIMEOUT_SECS", bad),
            Error::InvalidArgument { .. },
            "Device::new",
            "GPUARRAY_TIMEOUT_SECS"
        );
    }
    for bad in ["lots", "-1", "99999999999999G", "18446744073709551616"] {
        assert_err!(
            with("GPUARRAY_MEMORY_LIMIT", bad),
            Error::InvalidArgument { .. },
            "Device::new",
            "GPUARRAY_MEMORY_LIMIT"
        );
    }
    for bad in ["small", "-4", "1.5M"] {
        assert_err!(
            with("GPUARRAY_MAX_BINDING", bad),
            Error::InvalidArgument { .. },
            "Device::new",
            "GPUARRAY_MAX_BINDING"
        );
    }
    assert_eq!(
        with("GPUARRAY_MAX_BINDING", "1M").unwrap().max_binding_size,
        Some(1 << 20)
    );
    for bad in ["maybe", "2", "y"] {
        assert_err!(
            with("GPUARRAY_FORCE_FALLBACK", bad),
            Error::InvalidArgument { .. },
            "Device::new",
            "GPUARRAY_FORCE_FALLBACK"
        );
    }
    for (ok, want) in [("0", false), ("off", false), ("", false)] {
        assert_eq!(
            with("GPUARRAY_FORCE_FALLBACK", ok)
                .unwrap()
                .options
                .force_fallback,
            want
        );
    }
    // A device made with the huge timeout starts and reports it.
    // TODO: Audit that the environment access only happens in single-threaded code.
    unsafe { std::env::set_var("GPUARRAY_TIMEOUT_SECS", "1e20") };
    let dev = common::device();
    // TODO: Audit that the environment access only happens in single-threaded code.
    unsafe { std::env::remove_var("GPUARRAY_TIMEOUT_SECS") };
    if let Some(dev) = dev {
        assert_eq!(dev.timeout(), gpuarray::MAX_TIMEOUT);
    }
    for (v, s) in vars.iter().zip(saved) {
        if let Some(s) = s {
            // TODO: Audit that the environment access only happens in single-threaded code.
            unsafe { std::env::set_var(v, s) };
        }
    }
}

#[test]
fn set_timeout_saturates_honestly() {
    let Some(dev) = device() else { return };
    let w = Witness::new(&dev);
    let before = dev.timeout();
    for huge in [
        Duration::from_secs(1 << 62),
        Duration::MAX,
        Duration::from_secs(u64::MAX / 1000 + 1),
    ] {
        dev.set_timeout(huge);
        assert_eq!(dev.timeout(), gpuarray::MAX_TIMEOUT, "{huge:?}");
        // And the next op waits as usual instead of timing out at once.
        let a = Array::ones(&dev, &[16, 16], DType::F32).unwrap();
        assert_eq!(a.matmul(&a).unwrap().to_vec::<f32>().unwrap()[0], 16.0);
    }
    dev.set_timeout(gpuarray::MAX_TIMEOUT);
    assert_eq!(dev.timeout(), gpuarray::MAX_TIMEOUT);
    dev.set_timeout(Duration::from_secs(30));
    assert_eq!(dev.timeout(), Duration::from_secs(30));
    // Below a millisecond: the 1 ms minimum, never 0.
    for tiny in [Duration::ZERO, Duration::from_nanos(1)] {
        dev.set_timeout(tiny);
        assert_eq!(dev.timeout(), Duration::from_millis(1));
    }
    dev.set_timeout(before);
    w.check();
}

#[test]
fn sampling_sizes_are_checked_before_host_allocation() {
    let Some(dev) = device() else { return };
    let w = Witness::new(&dev);
    let a = Array::arange(&dev, 10.0, 15.0, 1.0, DType::I32).unwrap();
    let mut g = Generator::new(&dev, 3);
    // Would be 8 TiB of host indices: refused before any allocation, consuming nothing.
    assert_err!(
        g.choice(&a, &[1 << 40], true, None),
        Error::TooLarge { .. },
        "choice",
        "max_buffer_size"
    );
    assert_err!(
        g.choice(&a, &[1 << 40], false, None),
        Error::InvalidArgument { .. },
        "choice"
    );
    assert_err!(
        g.choice(&a, &[usize::MAX], true, None),
        Error::Overflow { .. },
        "choice"
    );
    assert_err!(
        g.choice(&a, &[1 << 40, 1 << 40], true, None),
        Error::Overflow { .. },
        "choice"
    );
    let rows = a
        .reshape(&[5, 1])
        .unwrap()
        .broadcast_to(&[5, 1 << 30])
        .unwrap();
    assert_err!(
        g.choice(&rows, &[4], true, None),
        Error::TooLarge { .. },
        "choice"
    );
    assert_eq!(g.offset(), 0);
    assert_eq!(g.choice(&a, &[0], true, None).unwrap().shape(), &[0]);
    let one = g.choice(&a, &[1], false, None).unwrap();
    assert!((10..15).contains(&ints(&one)[0]));
    // permutation: 2^31 i32 (8 GiB, 16 GiB of host u64 before) passes the buffer limit.
    let offset = g.offset();
    assert_err!(
        g.permutation(1 << 31),
        Error::TooLarge { .. },
        "permutation",
        "max_buffer_size"
    );
    for n in [(1 << 31) + 1, usize::MAX] {
        assert_err!(
            g.permutation(n),
            Error::InvalidArgument { .. },
            "permutation"
        );
    }
    assert_eq!(g.offset(), offset);
    assert_eq!(g.permutation(0).unwrap().shape(), &[0]);
    assert_eq!(ints(&g.permutation(1).unwrap()), [0]);
    // permutation_of / shuffle of a long broadcast axis: refused before the host permutation.
    let long = a
        .slice(&[SliceArg::Index(0)])
        .unwrap()
        .broadcast_to(&[1 << 32])
        .unwrap();
    assert_err!(
        g.permutation_of(&long, 0),
        Error::TooLarge { .. },
        "permutation_of"
    );
    assert_eq!(g.offset(), offset);
    w.check();
}

#[test]
fn choice_probabilities_must_sum_to_one() {
    let Some(dev) = device() else { return };
    let w = Witness::new(&dev);
    let a = arange_i32(&dev, 4);
    let mut g = Generator::new(&dev, 1);
    for p in [
        [0.125; 4],
        [0.0; 4],
        [1.0; 4],
        [0.5, 0.5, 0.5, 0.5],
        [1.0, 1e-7, 0.0, 0.0],
    ] {
        assert_err!(
            g.choice(&a, &[2], true, Some(&p)),
            Error::InvalidArgument { .. },
            "choice",
            "sum to 1"
        );
    }
    for p in [
        [f64::NAN, 1.0, 0.0, 0.0],
        [f64::INFINITY, 0.0, 0.0, 0.0],
        [-0.5, 1.5, 0.0, 0.0],
    ] {
        assert_err!(
            g.choice(&a, &[2], true, Some(&p)),
            Error::InvalidArgument { .. },
            "choice"
        );
    }
    assert_err!(
        g.choice(&a, &[2], true, Some(&[1.0])),
        Error::InvalidArgument { .. },
        "choice"
    );
    assert_eq!(g.offset(), 0);
    // Within NumPy's tolerance (sqrt(eps) ~ 1.5e-8): accepted.
    let s = g
        .choice(&a, &[3], true, Some(&[0.0, 0.0, 1.0 + 1e-9, 0.0]))
        .unwrap();
    assert_eq!(ints(&s), [2, 2, 2]);
    let s = g
        .choice(&a, &[2], false, Some(&[0.1, 0.2, 0.3, 0.4]))
        .unwrap();
    assert_eq!(s.shape(), &[2]);
    w.check();
}

#[test]
fn random_calls_refuse_arrays_of_another_device() {
    let Some(dev) = device() else { return };
    let Some(other) = device() else { return };
    let w = Witness::new(&dev);
    let mut g = Generator::new(&dev, 5);
    let a = Array::arange(&other, 0.0, 6.0, 1.0, DType::I32).unwrap();
    assert_err!(g.shuffle(&a, 0), Error::DeviceMismatch { .. }, "shuffle");
    assert_err!(
        g.permutation_of(&a, 0),
        Error::DeviceMismatch { .. },
        "permutation_of"
    );
    assert_err!(
        g.choice(&a, &[2], true, None),
        Error::DeviceMismatch { .. },
        "choice"
    );
    assert_eq!(g.offset(), 0);
    // Untouched.
    assert_eq!(ints(&a), [0, 1, 2, 3, 4, 5]);
    let b = arange_i32(&dev, 2);
    assert_err!(b.kron(&a), Error::DeviceMismatch { .. }, "kron");
    w.check();
}

#[test]
fn uniform_over_ranges_that_overflow() {
    let Some(dev) = device() else { return };
    let w = Witness::new(&dev);
    let n = 4096;
    // hi - lo = 6e38 overflows f32: computed with halved bounds, then doubled, exactly.
    let mut g = Generator::new(&dev, 11);
    let x = g
        .uniform(-3e38, 3e38, &[n], DType::F32)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    let mut h = Generator::new(&dev, 11);
    let half = h
        .uniform(-1.5e38, 1.5e38, &[n], DType::F32)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    assert_eq!(g.offset(), h.offset());
    for (a, b) in x.iter().zip(&half) {
        assert_eq!(*a, 2.0 * b);
        assert!(a.is_finite() && (-3e38..3e38).contains(a), "{a}");
    }
    let negative = x.iter().filter(|&&v| v < 0.0).count();
    assert!(
        negative > n / 3 && negative < 2 * n / 3,
        "{negative} of {n}"
    );
    // The widest f32 range there is.
    let m = f64::from(f32::MAX);
    let y = g
        .uniform(-m, m, &[n], DType::F32)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    assert!(y.iter().all(|v| v.is_finite()));
    // lo == hi: every value is lo.
    let z = g.uniform(2.5, 2.5, &[3], DType::F32).unwrap();
    assert_eq!(z.to_vec::<f32>().unwrap(), [2.5; 3]);
    // f64: NumPy refuses a range past f64 ("high - low range exceeds valid bounds"), and the
    // message shows the bounds as 1e308, not as 309 digits.
    let before = g.offset();
    let msg = assert_err!(
        g.uniform(-1e308, 1e308, &[3], DType::F64),
        Error::InvalidArgument { .. },
        "uniform",
        "1e308"
    );
    assert!(msg.len() < 200, "{msg}");
    for (lo, hi, dtype) in [
        (-1e39, 0.0, DType::F32),
        (0.0, 1e39, DType::F32),
        (-1e308, 1e308, DType::F32),
        (0.0, 70000.0, DType::F16),
        (1.0, 0.0, DType::F32),
        (f64::NAN, 1.0, DType::F64),
        (0.0, f64::INFINITY, DType::F64),
    ] {
        let msg = assert_err!(
            g.uniform(lo, hi, &[3], dtype),
            Error::InvalidArgument { .. },
            "uniform"
        );
        assert!(msg.len() < 200, "{msg}");
    }
    assert_err!(
        g.uniform(0.0, 1.0, &[3], DType::I32),
        Error::Unsupported { .. } | Error::InvalidArgument { .. } | Error::DTypeMismatch { .. },
        "uniform"
    );
    assert_eq!(g.offset(), before);
    w.check();
}

#[test]
fn integer_arange_and_full_refuse_values_out_of_range() {
    let Some(dev) = device() else { return };
    let w = Witness::new(&dev);
    // arange: the kernel's integers would wrap into negatives.
    assert_err!(
        Array::arange(&dev, 2147483640., 2147483660., 1., DType::I32),
        Error::InvalidArgument { .. },
        "arange",
        "2147483659"
    );
    let top = Array::arange(&dev, 2147483640., 2147483648., 1., DType::I32).unwrap();
    assert_eq!(*ints(&top).last().unwrap(), i32::MAX);
    let bottom = Array::arange(&dev, -2147483648., -2147483645., 1., DType::I32).unwrap();
    assert_eq!(ints(&bottom), [i32::MIN, i32::MIN + 1, i32::MIN + 2]);
    assert_err!(
        Array::arange(&dev, -2147483649., 0., 1., DType::I32),
        Error::InvalidArgument { .. },
        "arange"
    );
    let u = Array::arange(&dev, 4294967293., 4294967296., 1., DType::U32).unwrap();
    assert_eq!(
        u.to_vec::<u32>().unwrap(),
        [u32::MAX - 2, u32::MAX - 1, u32::MAX]
    );
    for (start, stop, step) in [
        (4294967293., 4294967297., 1.),
        (-1., 3., 1.),
        (5., -2., -1.),
    ] {
        assert_err!(
            Array::arange(&dev, start, stop, step, DType::U32),
            Error::InvalidArgument { .. },
            "arange"
        );
    }
    let down = Array::arange(&dev, 2., -1., -1., DType::U32).unwrap();
    assert_eq!(down.to_vec::<u32>().unwrap(), [2, 1, 0]);
    assert_err!(
        Array::arange(&dev, 0., 1e300, 1e-300, DType::F32),
        Error::Overflow { .. },
        "arange"
    );
    assert_eq!(
        Array::arange(&dev, 5., 5., 1., DType::I32).unwrap().shape(),
        &[0]
    );
    // full: NaN and out-of-range values for integer dtypes.
    for (v, dtype) in [
        (f64::NAN, DType::I32),
        (1e20, DType::I32),
        (-1e20, DType::I32),
        (2147483648.0, DType::I32),
        (-2147483649.0, DType::I32),
        (f64::INFINITY, DType::I32),
        (-1.0, DType::U32),
        (4294967296.0, DType::U32),
        (f64::NAN, DType::U32),
    ] {
        assert_err!(
            Array::full(&dev, &[3], v, dtype),
            Error::InvalidArgument { .. },
            "full",
            "cannot convert"
        );
    }
    // Truncation toward zero, at the edges, as NumPy's cast.
    let edge = |v: f64, dtype| common::read(&Array::full(&dev, &[2], v, dtype).unwrap());
    assert_eq!(edge(2147483647.9, DType::I32), [2147483647.0; 2]);
    assert_eq!(edge(-2147483648.9, DType::I32), [-2147483648.0; 2]);
    assert_eq!(edge(-0.5, DType::U32), [0.0; 2]);
    assert_eq!(edge(4294967295.5, DType::U32), [4294967295.0; 2]);
    assert_eq!(edge(f64::NAN, DType::Bool), [1.0; 2]);
    assert!(
        edge(f64::INFINITY, DType::F32)
            .iter()
            .all(|v| v.is_infinite())
    );
    let z = Array::zeros(&dev, &[3], DType::I32).unwrap();
    assert_err!(z.fill(f64::NAN), Error::InvalidArgument { .. }, "fill");
    assert_err!(z.fill(3e9), Error::InvalidArgument { .. }, "fill");
    assert_eq!(ints(&z), [0, 0, 0]);
    z.fill(-2147483648.0).unwrap();
    assert_eq!(ints(&z), [i32::MIN; 3]);
    w.check();
}

#[test]
fn messages_name_the_call_and_the_problem() {
    let Some(dev) = device() else { return };
    let w = Witness::new(&dev);
    // A dimension NumPy could not even hold.
    assert_err!(
        Array::zeros(&dev, &[usize::MAX, 0], DType::F32),
        Error::Overflow { .. },
        "zeros",
        "maximum allowed dimension"
    );
    assert_err!(
        Array::zeros(&dev, &[1 << 63], DType::F32),
        Error::Overflow { .. },
        "zeros",
        "9223372036854775808"
    );
    // isize::MAX rows of nothing exist; their sum over the empty axis does not fit.
    let e = Array::zeros(&dev, &[isize::MAX as usize, 0], DType::F32).unwrap();
    assert_err!(
        e.sum(1isize, false),
        Error::Overflow { .. } | Error::TooLarge { .. },
        "sum"
    );
    assert_err!(
        e.mean(1isize, false),
        Error::Overflow { .. } | Error::TooLarge { .. },
        "mean"
    );
    assert_eq!(e.sum(0isize, false).unwrap().shape(), &[0]);
    assert_err!(e.sum(usize::MAX, false), Error::Axis { .. }, "sum");
    let e2 = Array::zeros(&dev, &[1 << 40, 1 << 40, 0], DType::F32).unwrap();
    assert_err!(e2.sum(2isize, false), Error::Overflow { .. }, "sum");
    assert_eq!(
        e2.sum(Axes::All, false).unwrap().to_vec::<f32>().unwrap(),
        [0.0]
    );
    assert!(e2.is_contiguous());
    // transpose: the axis as given, not as -1.
    let m = Array::zeros(&dev, &[3, 2], DType::F32).unwrap();
    assert_err!(
        m.transpose(&[usize::MAX, 0]),
        Error::InvalidArgument { .. },
        "transpose",
        "axis 18446744073709551615"
    );
    assert_err!(
        m.transpose(&[2, 0]),
        Error::Axis { axis: 2, .. },
        "transpose"
    );
    assert_err!(
        m.transpose(&[0, 0]),
        Error::InvalidArgument { .. },
        "transpose"
    );
    // take: the u32 index as given.
    let a = arange_i32(&dev, 3);
    let idx = Array::from_slice(&dev, &[0u32, 4294967295], &[2]).unwrap();
    assert_err!(
        a.take(&idx, Some(0)),
        Error::InvalidArgument { .. },
        "take",
        "index 4294967295 is out of bounds for axis 0 with size 3"
    );
    let idx = Array::from_slice(&dev, &[2147483648u32], &[1]).unwrap();
    assert_err!(
        a.take(&idx, None),
        Error::InvalidArgument { .. },
        "take",
        "index 2147483648"
    );
    let idx = Array::from_slice(&dev, &[-4i32, 0], &[2]).unwrap();
    assert_err!(
        a.take(&idx, Some(0)),
        Error::InvalidArgument { .. },
        "take",
        "index -4"
    );
    let idx = Array::from_slice(&dev, &[i32::MIN, i32::MAX], &[2]).unwrap();
    assert_err!(a.take(&idx, Some(0)), Error::InvalidArgument { .. }, "take");
    let idx = Array::from_slice(&dev, &[2u32, 0, 1], &[3]).unwrap();
    assert_eq!(ints(&a.take(&idx, Some(0)).unwrap()), [2, 0, 1]);
    let idx = Array::from_slice(&dev, &[-3i32, 2], &[2]).unwrap();
    assert_eq!(ints(&a.take(&idx, Some(0)).unwrap()), [0, 2]);
    let fidx = Array::from_slice(&dev, &[0.0f32], &[1]).unwrap();
    assert_err!(a.take(&fidx, None), Error::InvalidArgument { .. }, "take");
    // einsum: the second arrow, not a repeated label.
    let sq = Array::zeros(&dev, &[2, 2], DType::F32).unwrap();
    let msg = assert_err!(
        einsum("ij->ij->ij", &[&sq]),
        Error::Einsum { pos: Some(6), .. },
        "einsum",
        "more than one '->'"
    );
    assert!(!msg.contains("multiple times"), "{msg}");
    // item: its own name on a dtype mismatch.
    let f = Array::from_slice(&dev, &[1.5f32], &[1]).unwrap();
    assert_err!(
        f.item::<i32>(),
        Error::DTypeMismatch {
            op: "item",
            expected: DType::F32,
            got: DType::I32
        },
        "item"
    );
    assert_eq!(f.item::<f32>().unwrap(), 1.5);
    assert_err!(m.item::<f32>(), Error::InvalidArgument { .. }, "item");
    w.check();
}

// ---- property tests against a CPU model ---------------------------------------------------------

mod model {
    //! A row-major host array and the ops under test, written as naive index loops.

    /// Shape and row-major data.
    #[derive(Debug, Clone, PartialEq)]
    pub struct Nd {
        pub shape: Vec<usize>,
        pub data: Vec<i32>,
    }

    pub fn strides(shape: &[usize]) -> Vec<usize> {
        let mut s = vec![1; shape.len()];
        for d in (0..shape.len().saturating_sub(1)).rev() {
            s[d] = s[d + 1] * shape[d + 1];
        }
        s
    }

    /// Every index of `shape` in row-major order.
    pub fn indices(shape: &[usize]) -> Vec<Vec<usize>> {
        let n: usize = shape.iter().product();
        (0..n)
            .map(|mut f| {
                let mut idx = vec![0; shape.len()];
                for d in (0..shape.len()).rev() {
                    idx[d] = f % shape[d];
                    f /= shape[d];
                }
                idx
            })
            .collect()
    }

    impl Nd {
        pub fn arange(shape: &[usize]) -> Nd {
            let n: usize = shape.iter().product();
            Nd {
                shape: shape.to_vec(),
                data: (0..n as i32).collect(),
            }
        }

        pub fn get(&self, idx: &[usize]) -> i32 {
            let s = strides(&self.shape);
            self.data[idx.iter().zip(&s).map(|(i, s)| i * s).sum::<usize>()]
        }

        fn from_fn(shape: Vec<usize>, f: impl Fn(&[usize]) -> i32) -> Nd {
            let data = indices(&shape).iter().map(|i| f(i)).collect();
            Nd { shape, data }
        }

        pub fn transpose(&self, perm: &[usize]) -> Nd {
            let shape = perm.iter().map(|&p| self.shape[p]).collect();
            Nd::from_fn(shape, |i| {
                let mut src = vec![0; i.len()];
                for (k, &p) in perm.iter().enumerate() {
                    src[p] = i[k];
                }
                self.get(&src)
            })
        }

        pub fn pad(&self, widths: &[(usize, usize)], value: i32) -> Nd {
            let shape = self
                .shape
                .iter()
                .zip(widths)
                .map(|(&n, &(b, a))| n + b + a)
                .collect();
            Nd::from_fn(shape, |i| {
                let mut src = Vec::new();
                for (d, &x) in i.iter().enumerate() {
                    let b = widths[d].0;
                    if x < b || x >= b + self.shape[d] {
                        return value;
                    }
                    src.push(x - b);
                }
                self.get(&src)
            })
        }

        pub fn tile(&self, reps: &[usize]) -> Nd {
            let d = reps.len().max(self.shape.len());
            let mut shape = vec![1; d - self.shape.len()];
            shape.extend(&self.shape);
            let mut r = vec![1; d - reps.len()];
            r.extend(reps);
            let me = Nd {
                shape: shape.clone(),
                data: self.data.clone(),
            };
            let out = shape.iter().zip(&r).map(|(&s, &k)| s * k).collect();
            Nd::from_fn(out, |i| {
                let src: Vec<usize> = i.iter().zip(&shape).map(|(&x, &s)| x % s).collect();
                me.get(&src)
            })
        }

        pub fn repeat(&self, k: usize, axis: Option<usize>) -> Nd {
            let Some(ax) = axis else {
                let flat = Nd {
                    shape: vec![self.data.len()],
                    data: self.data.clone(),
                };
                return flat.repeat(k, Some(0));
            };
            let mut shape = self.shape.clone();
            shape[ax] *= k;
            Nd::from_fn(shape, |i| {
                let mut src = i.to_vec();
                src[ax] /= k;
                self.get(&src)
            })
        }
    }
}

use model::Nd;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};

/// Steps: small ones, and the extremes.
const STEPS: [isize; 10] = [
    1,
    -1,
    2,
    -2,
    3,
    -3,
    isize::MAX,
    isize::MIN,
    1 << 62,
    -(1 << 62),
];

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

/// A runner of `cases` cases from a fixed seed, printed (`GPUARRAY_PROPTEST_SEED=N` runs another):
/// the same cases every run, so a failure reproduces from the log alone.
fn runner(cases: u32, what: &str) -> TestRunner {
    let seed: u64 = std::env::var("GPUARRAY_PROPTEST_SEED")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0x5eed_0f7e_57ed);
    println!("{what}: proptest seed {seed} (GPUARRAY_PROPTEST_SEED={seed} repeats these cases)");
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    TestRunner::new_with_rng(
        config(cases),
        TestRng::from_seed(RngAlgorithm::ChaCha, &bytes),
    )
}

fn upload(dev: &Device, m: &Nd) -> Array {
    Array::from_slice(dev, &m.data, &m.shape).unwrap()
}

fn read_back(a: &Array) -> Result<Nd, TestCaseError> {
    let data = a
        .to_vec::<i32>()
        .map_err(|e| TestCaseError::fail(format!("to_vec: {e}")))?;
    Ok(Nd {
        shape: a.shape().to_vec(),
        data,
    })
}

fn shapes() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(0usize..5, 0..4)
}

/// An index argument that may be out of range (-n-2 ..= n+1) or extreme.
fn bound(n: usize, r: u64) -> Option<isize> {
    let n = n as isize;
    match r % 10 {
        0 => None,
        1 => Some(isize::MAX),
        2 => Some(isize::MIN),
        _ => Some((r / 10) as isize % (2 * n + 4) - n - 2),
    }
}

/// The slicing request the random words `r` describe for `shape`, and the model's answer: the
/// source index per output axis, or `None` when NumPy raises IndexError.
fn slicing(src: &Nd, r: &[u64]) -> (Vec<SliceArg>, Option<Nd>) {
    let shape = &src.shape[..];
    let mut args = Vec::new();
    let mut axis = 0;
    let mut k = 0;
    let mut next = || {
        k += 1;
        r[k % r.len()].wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 7
    };
    while axis < shape.len() {
        let n = shape[axis];
        match next() % 6 {
            0 => {
                let i = bound(n, next()).unwrap_or(0);
                args.push(SliceArg::Index(i));
                axis += 1;
            }
            1 if args.len() < 5 => args.push(SliceArg::NewAxis),
            _ => {
                let step = STEPS[(next() % STEPS.len() as u64) as usize];
                args.push(SliceArg::range(bound(n, next()), bound(n, next()), step));
                axis += 1;
            }
        }
        if next() % 4 == 0 {
            break; // leave the remaining axes whole
        }
    }
    // The model: per output axis, the source positions it walks.
    enum Out {
        New,
        Walk(usize, Vec<usize>),
    }
    let mut outs = Vec::new();
    let mut fixed = vec![None; shape.len()];
    let mut axis = 0;
    for a in &args {
        match *a {
            SliceArg::NewAxis => outs.push(Out::New),
            SliceArg::Index(i) => {
                let n = shape[axis] as isize;
                let j = if i < 0 {
                    i as i128 + n as i128
                } else {
                    i as i128
                };
                if j < 0 || j >= n as i128 {
                    return (args, None);
                }
                fixed[axis] = Some(j as usize);
                axis += 1;
            }
            SliceArg::Range { start, stop, step } => {
                outs.push(Out::Walk(axis, py_slice(shape[axis], start, stop, step)));
                axis += 1;
            }
        }
    }
    for (d, &n) in shape.iter().enumerate().skip(axis) {
        outs.push(Out::Walk(d, (0..n).collect()));
    }
    let out_shape: Vec<usize> = outs
        .iter()
        .map(|o| match o {
            Out::New => 1,
            Out::Walk(_, v) => v.len(),
        })
        .collect();
    let data = model::indices(&out_shape)
        .iter()
        .map(|i| {
            let mut at: Vec<usize> = fixed.iter().map(|f| f.unwrap_or(0)).collect();
            for (o, &x) in outs.iter().zip(i) {
                if let Out::Walk(d, v) = o {
                    at[*d] = v[x];
                }
            }
            src.get(&at)
        })
        .collect();
    (
        args,
        Some(Nd {
            shape: out_shape,
            data,
        }),
    )
}

#[test]
fn prop_slicing_matches_the_model() {
    let Some(dev) = device() else { return };
    let w = Witness::new(&dev);
    let mut runner = runner(96, "prop_slicing_matches_the_model");
    let strategy = (
        shapes(),
        prop::collection::vec(any::<u64>(), 1..12),
        any::<bool>(),
    );
    runner
        .run(&strategy, |(shape, r, transposed)| {
            let src = Nd::arange(&shape);
            let a = upload(&dev, &src);
            // Slice the array itself, or its reversed-axes (strided) view.
            let (a, src) = if transposed {
                let perm: Vec<usize> = (0..shape.len()).rev().collect();
                (a.transpose(&perm).unwrap(), src.transpose(&perm))
            } else {
                (a, src)
            };
            let (args, want) = slicing(&src, &r);
            let shape = &src.shape;
            match (a.slice(&args), want) {
                (Ok(v), Some(want)) => prop_assert_eq!(read_back(&v)?, want, "{:?}", args),
                (Err(e), None) => {
                    prop_assert!(matches!(e, Error::InvalidArgument { .. }), "{e:?}");
                    prop_assert!(e.to_string().starts_with("slice:"), "{e}");
                }
                (got, want) => {
                    return Err(TestCaseError::fail(format!(
                        "{args:?} on {shape:?}: got {got:?}, model {want:?}"
                    )));
                }
            }
            Ok(())
        })
        .unwrap();
    w.check();
}

#[test]
fn prop_views_and_reshape_match_the_model() {
    let Some(dev) = device() else { return };
    let w = Witness::new(&dev);
    let mut runner = runner(64, "prop_views_and_reshape_match_the_model");
    let strategy = (
        prop::collection::vec(1usize..4, 1..4),
        prop::collection::vec(any::<u64>(), 8),
    );
    runner
        .run(&strategy, |(shape, r)| {
            let src = Nd::arange(&shape);
            let a = upload(&dev, &src);
            // transpose by a random permutation
            let mut perm: Vec<usize> = (0..shape.len()).collect();
            for i in (1..perm.len()).rev() {
                perm.swap(i, (r[i] % (i as u64 + 1)) as usize);
            }
            let t = a.transpose(&perm).unwrap();
            let tm = src.transpose(&perm);
            prop_assert_eq!(read_back(&t)?, tm.clone());
            // reshape the transposed view (a copy when the strides do not allow a view) into a
            // random factorisation of its size, with a -1 somewhere.
            let n = tm.data.len();
            let mut dims = Vec::new();
            let mut left = n;
            for &x in &r[..3] {
                let divisors: Vec<usize> = (1..=left).filter(|d| left.is_multiple_of(*d)).collect();
                let d = divisors[(x % divisors.len() as u64) as usize];
                dims.push(d as isize);
                left /= d;
            }
            dims.push(left as isize);
            let unknown = (r[3] % dims.len() as u64) as usize;
            let want_shape: Vec<usize> = dims.iter().map(|&d| d as usize).collect();
            dims[unknown] = -1;
            let re = t.reshape(&dims).unwrap();
            prop_assert_eq!(
                read_back(&re)?,
                Nd {
                    shape: want_shape.clone(),
                    data: tm.data.clone()
                }
            );
            // A wrong size and two -1s are errors naming reshape.
            let mut bad: Vec<isize> = want_shape.iter().map(|&d| d as isize).collect();
            bad.push(2);
            if n > 0 {
                let e = t.reshape(&bad).unwrap_err();
                prop_assert!(matches!(e, Error::Shape { .. }), "{e:?}");
                prop_assert!(e.to_string().starts_with("reshape:"));
            }
            let e = t.reshape(&[-1, -1]).unwrap_err();
            prop_assert!(e.to_string().starts_with("reshape:"));
            // expand_dims, then broadcast that axis to 3, then squeeze what is left of length 1.
            let ax = (r[4] % (shape.len() as u64 + 1)) as usize;
            let e = t.expand_dims(ax as isize).unwrap();
            let mut big = e.shape().to_vec();
            big[ax] = 3;
            let b = e.broadcast_to(&big).unwrap();
            let mut bshape = tm.shape.clone();
            bshape.insert(ax, 3);
            let want = Nd {
                data: model::indices(&bshape)
                    .iter()
                    .map(|i| {
                        let mut j = i.clone();
                        j.remove(ax);
                        tm.get(&j)
                    })
                    .collect(),
                shape: bshape,
            };
            prop_assert_eq!(read_back(&b)?, want);
            prop_assert_eq!(b.squeeze().len(), b.len());
            Ok(())
        })
        .unwrap();
    w.check();
}

#[test]
fn prop_pad_tile_repeat_match_the_model() {
    let Some(dev) = device() else { return };
    let w = Witness::new(&dev);
    let mut runner = runner(64, "prop_pad_tile_repeat_match_the_model");
    let strategy = (
        shapes(),
        prop::collection::vec((0usize..3, 0usize..3), 3),
        prop::collection::vec(0usize..4, 0..4),
        0usize..4,
        prop::option::of(0usize..3),
        -5i32..5,
    );
    runner
        .run(&strategy, |(shape, widths, reps, k, axis, value)| {
            let src = Nd::arange(&shape);
            let a = upload(&dev, &src);
            // pad
            let widths = &widths[..shape.len()];
            let p = a.pad(widths, f64::from(value)).unwrap();
            prop_assert_eq!(read_back(&p)?, src.pad(widths, value));
            // tile
            let t = a.tile(&reps).unwrap();
            prop_assert_eq!(read_back(&t)?, src.tile(&reps));
            // repeat, along an axis in range or of the flattened array
            let axis = axis.filter(|&x| x < shape.len());
            let r = a.repeat(k, axis.map(|x| x as isize)).unwrap();
            prop_assert_eq!(read_back(&r)?, src.repeat(k, axis));
            // The same on a reversed view (strided reads).
            if !shape.is_empty() {
                let f = a.flip(None).unwrap();
                let fm = Nd {
                    shape: src.shape.clone(),
                    data: src.data.iter().rev().copied().collect(),
                };
                prop_assert_eq!(read_back(&f.tile(&reps).unwrap())?, fm.tile(&reps));
                prop_assert_eq!(
                    read_back(&f.pad(widths, f64::from(value)).unwrap())?,
                    fm.pad(widths, value)
                );
            }
            Ok(())
        })
        .unwrap();
    w.check();
}

#[test]
fn neighbouring_calls_at_the_extremes() {
    let Some(dev) = device() else { return };
    let w = Witness::new(&dev);
    let a = arange_i32(&dev, 6).reshape(&[2, 3]).unwrap();
    // Constructors.
    assert_err!(
        Array::linspace(&dev, 0.0, 1.0, usize::MAX, DType::F32),
        Error::Overflow { .. },
        "linspace"
    );
    assert_err!(
        Array::eye(&dev, usize::MAX, DType::F32),
        Error::Overflow { .. },
        "eye"
    );
    assert_err!(
        Array::eye(&dev, 1 << 32, DType::F32),
        Error::Overflow { .. } | Error::TooLarge { .. },
        "eye"
    );
    for k in [isize::MIN, isize::MAX, 3, -2] {
        let e = Array::eye_k(&dev, 2, 3, k, DType::I32).unwrap();
        assert_eq!(ints(&e).iter().sum::<i32>(), 0, "eye_k({k})");
    }
    assert_err!(
        Array::from_slice(&dev, &[1i32], &[usize::MAX, 0]),
        Error::Overflow { .. },
        "from_slice"
    );
    assert_err!(
        Array::from_slice(&dev, &[1i32], &[2]),
        Error::Shape { .. },
        "from_slice"
    );
    // Views.
    assert_err!(
        a.broadcast_to(&[usize::MAX, 3]),
        Error::Overflow { .. },
        "broadcast_to"
    );
    assert_err!(
        a.broadcast_to(&[1 << 62, 2, 3]),
        Error::Overflow { .. },
        "broadcast_to"
    );
    assert_err!(a.reshape(&[isize::MAX, 2]), Error::Shape { .. }, "reshape");
    assert_err!(
        a.reshape(&[isize::MAX, 4]),
        Error::Overflow { .. },
        "reshape"
    );
    assert_err!(
        a.reshape(&[isize::MIN]),
        Error::InvalidArgument { .. },
        "reshape"
    );
    assert_err!(a.reshape(&[0, -1]), Error::Shape { .. }, "reshape");
    assert_err!(a.expand_dims(isize::MAX), Error::Axis { .. }, "expand_dims");
    assert_err!(a.expand_dims(isize::MIN), Error::Axis { .. }, "expand_dims");
    assert_err!(a.swapaxes(isize::MIN, 0), Error::Axis { .. }, "swapaxes");
    assert_err!(a.squeeze_axes(&[isize::MAX]), Error::Axis { .. }, "squeeze");
    assert_err!(a.flip(Some(isize::MIN)), Error::Axis { .. }, "flip");
    assert_err!(a.cumsum(Some(isize::MAX)), Error::Axis { .. }, "cumsum");
    assert_err!(
        a.argmax(Some(isize::MIN), false),
        Error::Axis { .. },
        "argmax"
    );
    // Joins and splits.
    for shift in [isize::MIN, isize::MAX, -1, 0, 7] {
        let want: Vec<i32> = (0..6)
            .map(|i| (i - shift.rem_euclid(6) as i32).rem_euclid(6))
            .collect();
        assert_eq!(ints(&a.roll(shift, None).unwrap()), want, "roll({shift})");
    }
    assert_err!(
        a.split(usize::MAX, 1),
        Error::InvalidArgument { .. },
        "split"
    );
    assert_err!(a.split(0, 1), Error::InvalidArgument { .. }, "split");
    let parts = a.split_at(&[usize::MAX, 1], 1).unwrap();
    assert_eq!(
        parts.iter().map(|p| p.shape()[1]).collect::<Vec<_>>(),
        [3, 0, 2]
    );
    // Random draws.
    let mut g = Generator::new(&dev, 2);
    assert_err!(
        g.random(&[usize::MAX], DType::F32),
        Error::Overflow { .. },
        "random"
    );
    assert_err!(
        g.standard_normal(&[1 << 40], DType::F32),
        Error::TooLarge { .. },
        "standard_normal"
    );
    assert_err!(
        g.integers(i64::MIN, i64::MAX, &[2], DType::I32),
        Error::InvalidArgument { .. },
        "integers"
    );
    assert_err!(
        g.integers(0, 0, &[2], DType::U32),
        Error::InvalidArgument { .. },
        "integers"
    );
    assert_err!(
        g.bernoulli(f64::NAN, &[2], DType::F32),
        Error::InvalidArgument { .. },
        "bernoulli"
    );
    g.advance(u64::MAX - g.offset()).unwrap();
    assert_err!(g.advance(1), Error::Overflow { .. }, "advance");
    assert_err!(g.bits(&[1]), Error::Overflow { .. }, "bits");
    assert_err!(
        gpuarray::random::philox_blocks(&dev, [0; 4], [0; 2], usize::MAX),
        Error::Overflow { .. },
        "philox_blocks"
    );
    // Products of huge broadcast views.
    let one = Array::from_slice(&dev, &[1.0f32], &[1, 1]).unwrap();
    let col = one.broadcast_to(&[1 << 40, 1]).unwrap();
    let row = one.broadcast_to(&[1, 1 << 40]).unwrap();
    assert!(matches!(
        col.matmul(&row),
        Err(Error::Overflow { .. } | Error::TooLarge { .. })
    ));
    assert!(matches!(
        col.tensordot(&row, &[], &[]),
        Err(Error::Overflow { .. } | Error::TooLarge { .. })
    ));
    assert_eq!(ints(&a), [0, 1, 2, 3, 4, 5]);
    w.check();
}
