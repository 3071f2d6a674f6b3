#![allow(dead_code)]
//! Helpers shared by the integration tests: the test device, a post-test cleanliness check and a
//! hang watchdog.

pub mod mixed;
pub mod philox;

use gpuarray::Device;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use std::time::Duration;

/// The test device, or None (with a printed reason) when no adapter exists and GPUARRAY_REQUIRE_GPU is not 1.
/// With GPUARRAY_REQUIRE_GPU=1 a missing adapter panics, so GPU tests never pass silently in CI.
pub fn device() -> Option<Device> {
    match Device::new() {
        Ok(dev) => Some(dev),
        Err(e) => {
            if std::env::var("GPUARRAY_REQUIRE_GPU").as_deref() == Ok("1") {
                panic!("GPUARRAY_REQUIRE_GPU=1 but no device: {e}");
            }
            eprintln!("skipping GPU test: {e}");
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

use gpuarray::{f16, Array, DType};

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
