//! Timing shared by the examples, through `gpuarray::benchmark`: every repeat starts on an idle
//! device and ends only when the device has finished, and each reports CPU and GPU time.

use gpuarray::{BenchOptions, Device, benchmark};
use std::time::Duration;

/// One warm-up and `repeats` timed runs of `f`; prints the benchmark's line (`name: CPU: ...
/// GPU-0: ...`) and returns the fastest CPU time (closure plus synchronisation).
#[allow(dead_code)]
pub fn bench<T>(
    dev: &Device,
    name: &str,
    repeats: usize,
    f: impl FnMut() -> gpuarray::Result<T>,
) -> gpuarray::Result<Duration> {
    let report = benchmark(
        dev,
        f,
        BenchOptions {
            name: name.into(),
            warmup: 1,
            repeats,
            ..Default::default()
        },
    )?;
    println!("  {report}");
    Ok(report.cpu_stats().min)
}

/// The fastest CPU time of `repeats` runs after a warm-up, unprofiled (`gpu_times: false`), so
/// A/B comparisons of builds measure the code and not the profiler; prints nothing.
#[allow(dead_code)]
pub fn fastest<T>(
    dev: &Device,
    repeats: usize,
    f: impl FnMut() -> gpuarray::Result<T>,
) -> gpuarray::Result<Duration> {
    let options = BenchOptions {
        warmup: 1,
        repeats,
        gpu_times: false,
        ..Default::default()
    };
    Ok(benchmark(dev, f, options)?.cpu_stats().min)
}
