#![allow(dead_code)]
//! Helpers shared by the integration tests: the test device, a post-test cleanliness check and a
//! hang watchdog.

pub mod host_linalg;
pub mod mixed;
pub mod philox;

use gpuarray::Device;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::mpsc;
use std::time::Duration;

/// The storage binding of the devices the binding-crossing tests use (16 MiB): their arrays are
/// sized a little past it, so they cross binding windows on every adapter at a small cost.
pub const TEST_BINDING: u64 = 16 << 20;

/// A test device whose storage bindings are capped at `binding` bytes (buffers are not): arrays
/// a few times that size cross binding windows on every adapter, cheaply.
pub fn device_with_binding(binding: u64) -> Option<Device> {
    device_from(test_config().and_then(|config| {
        Device::with_config(gpuarray::DeviceConfig {
            max_binding_size: Some(binding),
            ..config
        })
    }))
}

/// A test device with float64 in `mode` (`F64Mode::Emulated`: software binary64 on any adapter).
pub fn device_with_f64(mode: gpuarray::F64Mode) -> Option<Device> {
    device_from(test_config().and_then(|config| {
        Device::with_config(gpuarray::DeviceConfig {
            f64: mode,
            ..config
        })
    }))
}

/// A test device with float16 in `mode` (`F16Mode::Emulated`: packed words on any adapter), and
/// storage bindings capped at `binding` bytes when given.
pub fn device_with_f16(mode: gpuarray::F16Mode, binding: Option<u64>) -> Option<Device> {
    device_from(test_config().and_then(|config| {
        Device::with_config(gpuarray::DeviceConfig {
            f16: mode,
            max_binding_size: binding.or(config.max_binding_size),
            ..config
        })
    }))
}

/// A test device that allows at most `max` workgroups per grid dimension: launches that fold
/// their workgroups into a 2-d grid do so at small sizes.
pub fn device_with_grid(max: u32) -> Option<Device> {
    device_from(test_config().and_then(|config| {
        Device::with_config(gpuarray::DeviceConfig {
            max_workgroups_per_dimension: Some(max),
            ..config
        })
    }))
}

/// The environment's configuration, compiling on first use (the default) unless
/// `GPUARRAY_COMPILE` says otherwise: most tests make a device of their own, and a background
/// plan would have each one compile in the background while the test runs (eager: 2,166
/// pipelines, 12 s of lavapipe's two cores). `tests/startup.rs` tests the eager and families
/// plans themselves.
pub fn test_config() -> gpuarray::Result<gpuarray::DeviceConfig> {
    let mut config = gpuarray::DeviceConfig::from_env()?;
    if std::env::var_os("GPUARRAY_COMPILE").is_none() {
        config.compile = gpuarray::CompileMode::Lazy;
    }
    // No state from earlier runs (a saved tune would hide the tune's own path), and no tune
    // measured while other tests load the machine left behind for later runs, unless a cache
    // directory is named.
    if std::env::var_os("GPUARRAY_CACHE_DIR").is_none() {
        config.disable_cache = true;
    }
    Ok(config)
}

/// The test device, or None (with a printed reason) when no adapter exists and GPUARRAY_REQUIRE_GPU is not 1.
/// With GPUARRAY_REQUIRE_GPU=1 a missing adapter panics, so GPU tests never pass silently in CI.
pub fn device() -> Option<Device> {
    device_from(test_config().and_then(Device::with_config))
}

pub fn device_from(made: gpuarray::Result<Device>) -> Option<Device> {
    match made {
        Ok(dev) => Some(dev),
        Err(e) => {
            if std::env::var("GPUARRAY_REQUIRE_GPU").as_deref() == Ok("1") {
                panic!("GPUARRAY_REQUIRE_GPU=1 but no device: {e}");
            }
            println!("skipping GPU test: {e}");
            None
        }
    }
}

/// After a test: no uncaptured wgpu errors, and arrays freed → in_use back to `baseline_in_use`.
pub fn check_clean(dev: &Device, baseline_in_use: u64) {
    dev.synchronize().unwrap();
    let errors = dev.take_uncaptured_errors();
    assert!(errors.is_empty(), "uncaptured wgpu errors: {errors:?}");
    assert_eq!(
        dev.memory_stats().in_use_bytes,
        baseline_in_use,
        "arrays leaked: {:?}",
        dev.memory_stats()
    );
}

/// Runs `f` on a thread and fails the test if it does not finish within `secs` (a hang watchdog).
/// A panic inside `f` is re-raised on the calling thread with its original payload.
pub fn with_watchdog<T: Send + 'static>(secs: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    let handle = std::thread::Builder::new()
        .name("watchdog-body".into())
        .spawn(move || {
            let _ = tx.send(catch_unwind(AssertUnwindSafe(f)));
        })
        .expect("spawning the test thread");
    match rx.recv_timeout(Duration::from_secs(secs)) {
        Ok(Ok(value)) => {
            let _ = handle.join();
            value
        }
        Ok(Err(payload)) => {
            let _ = handle.join();
            resume_unwind(payload)
        }
        Err(mpsc::RecvTimeoutError::Timeout) => {
            panic!("hung: the test body did not finish within {secs} s")
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => match handle.join() {
            Err(payload) => resume_unwind(payload),
            Ok(()) => panic!("the test thread ended without a result"),
        },
    }
}

use gpuarray::{Array, DType, f16};

/// Whether GPUARRAY_REQUIRE_GPU=1 is set (CI): then nothing may be skipped.
pub fn gpu_required() -> bool {
    std::env::var("GPUARRAY_REQUIRE_GPU").as_deref() == Ok("1")
}

/// Reports that `what` cannot run on this adapter because `why`: printed to stdout (shown by the
/// harness for failing tests and under --nocapture), and a panic under GPUARRAY_REQUIRE_GPU=1, so
/// a missing feature fails the tests that need it there instead of passing them.
pub fn skip(what: &str, why: &str) {
    if gpu_required() {
        panic!("GPUARRAY_REQUIRE_GPU=1 but {what} cannot run: {why}");
    }
    println!("skipping {what}: {why}");
}

/// Whether `dev` supports `dtype`; when it does not, reports the skip of `what` (see [`skip`]).
pub fn supports(dev: &Device, dtype: DType, what: &str) -> bool {
    if dev.supports(dtype) {
        return true;
    }
    skip(what, &format!("{} lacks dtype {dtype}", dev.info()));
    false
}

/// A count of `elem_bytes`-byte elements, a multiple of `multiple`, that overfills `dev`'s
/// storage binding by a sixteenth (136 MiB for lavapipe's 128 MiB), so a test of arrays larger
/// than one binding crosses a binding boundary on every adapter. None (reported by [`skip`])
/// when the adapter's buffers cannot exceed its binding, so nothing can cross one.
pub fn past_binding(dev: &Device, elem_bytes: usize, multiple: usize, what: &str) -> Option<usize> {
    let elems = dev.info().max_storage_buffer_binding_size as usize / elem_bytes;
    let n = (elems + elems / 16).next_multiple_of(multiple);
    if (n * elem_bytes) as u64 > dev.info().max_buffer_size {
        skip(
            what,
            &format!(
                "{} cannot hold a buffer larger than its storage binding",
                dev.info()
            ),
        );
        return None;
    }
    Some(n)
}

/// Fails the test unless an array of `bytes` bytes is larger than `dev`'s storage binding, so a
/// test meant to split its launches over several bindings really does.
pub fn assert_crosses_binding(dev: &Device, bytes: u64, what: &str) {
    let binding = dev.info().max_storage_buffer_binding_size;
    assert!(
        bytes > binding,
        "{what}: {bytes} bytes fit in one {binding}-byte storage binding of {}; the test no longer \
         crosses a binding boundary",
        dev.info()
    );
}

/// Machine epsilon of a float dtype (the spacing of its values in [1, 2)).
pub fn eps(dtype: DType) -> f64 {
    match dtype {
        DType::F16 => f64::from(f16::EPSILON),
        DType::F32 => f64::from(f32::EPSILON),
        DType::F64 => f64::EPSILON,
        _ => panic!("eps of {dtype}"),
    }
}

/// The smallest positive normal value of a float dtype.
pub fn tiny(dtype: DType) -> f64 {
    match dtype {
        DType::F16 => f64::from(f16::MIN_POSITIVE),
        DType::F32 => f64::from(f32::MIN_POSITIVE),
        DType::F64 => f64::MIN_POSITIVE,
        _ => panic!("tiny of {dtype}"),
    }
}

/// `|got - want|` in units of `eps(dtype) * max(|scale|, tiny(dtype))`: relative error in ulps
/// of the reference's magnitude (or of `scale`, when larger), floored at the smallest normal.
/// Equal values (infinities included) and two NaNs give 0; a NaN against a number gives +inf.
pub fn err_units(got: f64, want: f64, scale: f64, dtype: DType) -> f64 {
    if got == want || (got.is_nan() && want.is_nan()) {
        return 0.0;
    }
    let d = (got - want).abs();
    if d.is_nan() {
        return f64::INFINITY;
    }
    d / (eps(dtype) * want.abs().max(scale.abs()).max(tiny(dtype)))
}

/// Asserts every `got[i]` is within `units` ulps of `want[i]` in the sense of [`err_units`]
/// (with `scale` 0), naming the worst element.
pub fn assert_rel(got: &[f64], want: &[f64], dtype: DType, units: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    let (worst, i) = got
        .iter()
        .zip(want)
        .enumerate()
        .map(|(i, (&g, &w))| (err_units(g, w, 0.0, dtype), i))
        .fold((0.0, 0), |a, b| if b.0 > a.0 { b } else { a });
    assert!(
        worst <= units,
        "{what} ({dtype}): [{i}] = {} but the reference is {} ({worst:.1} ulps > {units})",
        got[i],
        want[i]
    );
}

/// Asserts that `r` is an `Err` matching `pat` whose message starts with `op:` (and, given a
/// fourth argument, contains it); evaluates to the message.
#[macro_export]
macro_rules! assert_err {
    ($r:expr, $pat:pat, $op:expr) => {
        $crate::assert_err!($r, $pat, $op, "")
    };
    ($r:expr, $pat:pat, $op:expr, $needle:expr) => {{
        match $r {
            Err(e) => {
                let msg = e.to_string();
                assert!(
                    matches!(e, $pat),
                    "{}: expected {}, got {e:?} ({msg})",
                    stringify!($r),
                    stringify!($pat)
                );
                assert!(
                    msg.starts_with(&format!("{}:", $op)),
                    "{}: the message does not name `{}`: {msg}",
                    stringify!($r),
                    $op
                );
                assert!(
                    msg.contains($needle),
                    "{}: the message lacks {:?}: {msg}",
                    stringify!($r),
                    $needle
                );
                msg
            }
            Ok(v) => panic!("{} succeeded: {:?}", stringify!($r), v),
        }
    }};
}

/// Uploads `data` (given as f64) as an array of `dtype` (values must be representable).
pub fn upload(dev: &Device, data: &[f64], shape: &[usize], dtype: DType) -> Array {
    match dtype {
        DType::F32 => {
            let v: Vec<f32> = data.iter().map(|&x| x as f32).collect();
            Array::from_slice(dev, &v, shape).unwrap()
        }
        DType::F16 => {
            let v: Vec<f16> = data.iter().map(|&x| f16::from_f64(x)).collect();
            Array::from_slice(dev, &v, shape).unwrap()
        }
        DType::F64 => Array::from_slice(dev, data, shape).unwrap(),
        DType::I32 => {
            let v: Vec<i32> = data.iter().map(|&x| x as i32).collect();
            Array::from_slice(dev, &v, shape).unwrap()
        }
        DType::U32 => {
            let v: Vec<u32> = data.iter().map(|&x| x as u32).collect();
            Array::from_slice(dev, &v, shape).unwrap()
        }
        DType::Bool => {
            let v: Vec<bool> = data.iter().map(|&x| x != 0.0).collect();
            Array::from_bools(dev, &v, shape).unwrap()
        }
        _ => {
            let v: Vec<i128> = data.iter().map(|&x| x as i128).collect();
            upload_ints(dev, &v, shape, dtype)
        }
    }
}

/// Uploads integers as an array of the integer (or bool) `dtype`, each wrapped to the dtype's
/// width as a NumPy integer cast does.
pub fn upload_ints(dev: &Device, data: &[i128], shape: &[usize], dtype: DType) -> Array {
    macro_rules! up {
        ($t:ty) => {{
            let v: Vec<$t> = data.iter().map(|&x| x as $t).collect();
            Array::from_slice(dev, &v, shape).unwrap()
        }};
    }
    match dtype {
        DType::I32 => up!(i32),
        DType::U32 => up!(u32),
        DType::I64 => up!(i64),
        DType::U64 => up!(u64),
        DType::I8 => up!(i8),
        DType::U8 => up!(u8),
        DType::I16 => up!(i16),
        DType::U16 => up!(u16),
        DType::Bool => {
            let v: Vec<bool> = data.iter().map(|&x| x != 0).collect();
            Array::from_bools(dev, &v, shape).unwrap()
        }
        d => panic!("upload_ints: {d} is not an integer dtype"),
    }
}

/// Reads an integer (or bool) array back exactly.
pub fn read_ints(a: &Array) -> Vec<i128> {
    macro_rules! down {
        ($t:ty) => {
            a.to_vec::<$t>()
                .unwrap()
                .into_iter()
                .map(i128::from)
                .collect()
        };
    }
    match a.dtype() {
        DType::I32 => down!(i32),
        DType::U32 => down!(u32),
        DType::I64 => down!(i64),
        DType::U64 => down!(u64),
        DType::I8 => down!(i8),
        DType::U8 => down!(u8),
        DType::I16 => down!(i16),
        DType::U16 => down!(u16),
        DType::Bool => a
            .to_vec_bool()
            .unwrap()
            .into_iter()
            .map(i128::from)
            .collect(),
        d => panic!("read_ints: {d} is not an integer dtype"),
    }
}

/// Reads any array back as f64 (bool as 0/1).
pub fn read(a: &Array) -> Vec<f64> {
    match a.dtype() {
        DType::F32 => a
            .to_vec::<f32>()
            .unwrap()
            .into_iter()
            .map(f64::from)
            .collect(),
        DType::F16 => a
            .to_vec::<f16>()
            .unwrap()
            .into_iter()
            .map(f64::from)
            .collect(),
        DType::F64 => a.to_vec::<f64>().unwrap(),
        DType::I32 => a
            .to_vec::<i32>()
            .unwrap()
            .into_iter()
            .map(f64::from)
            .collect(),
        DType::U32 => a
            .to_vec::<u32>()
            .unwrap()
            .into_iter()
            .map(f64::from)
            .collect(),
        DType::Bool => a
            .to_vec_bool()
            .unwrap()
            .into_iter()
            .map(|b| if b { 1.0 } else { 0.0 })
            .collect(),
        _ => read_ints(a).into_iter().map(|x| x as f64).collect(),
    }
}

/// A xorshift64 stream of pseudo-random words from `seed` (no external crates).
pub fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    }
}

/// Deterministic pseudo-random values in [lo, hi) (a 64-bit LCG; no external crates).
pub fn values(n: usize, seed: u64, lo: f64, hi: f64) -> Vec<f64> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            lo + (hi - lo) * ((s >> 11) as f64 / (1u64 << 53) as f64)
        })
        .collect()
}

/// Row-major strides of `shape`.
pub fn strides_of(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1usize; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        s[d] = s[d + 1] * shape[d + 1];
    }
    s
}

/// Unravels a row-major flat index.
pub fn unravel(mut i: usize, shape: &[usize]) -> Vec<usize> {
    let mut idx = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        if shape[d] > 0 {
            idx[d] = i % shape[d];
            i /= shape[d];
        }
    }
    idx
}

/// The indices or counts an op returned, checked to be in the device's index dtype (int64, as
/// NumPy's intp, unless `GPUARRAY_INDEX_DTYPE=i32`), as i32 for comparing with references.
#[allow(dead_code)]
pub fn idx(a: &Array) -> Vec<i32> {
    assert_eq!(
        a.dtype(),
        a.device().index_dtype(),
        "indices come in the device's index dtype"
    );
    read_ints(a)
        .into_iter()
        .map(|v| i32::try_from(v).expect("an index that fits i32"))
        .collect()
}

/// [`idx`] as a method, for chains: `a.argsort(None).unwrap().indices()`.
#[allow(dead_code)]
pub trait Indices {
    /// The indices, checked to be in the device's index dtype, as i32.
    fn indices(&self) -> Vec<i32>;
}

impl Indices for Array {
    fn indices(&self) -> Vec<i32> {
        idx(self)
    }
}
