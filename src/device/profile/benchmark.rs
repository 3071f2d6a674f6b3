//! `benchmark`: repeated, synchronised timing of a closure, CPU and GPU times per repeat, as
//! `cupyx.profiler.benchmark` gives them.

use super::super::Device;
use crate::error::{Error, Result};
use std::fmt;
use std::time::{Duration, Instant};

/// How [`benchmark`] repeats.
#[derive(Debug, Clone)]
pub struct BenchOptions {
    /// The name the report prints (`cupyx` prints the function's).
    pub name: String,
    /// Untimed runs first (compiles, the matmul tune, pool growth).
    pub warmup: usize,
    /// Timed runs (at least 1).
    pub repeats: usize,
    /// Keep repeating past `repeats` until the timed runs add up to this much.
    pub min_time: Duration,
    /// Profile each repeat for its GPU time (default). Timestamp writes cost little on GPUs, but
    /// lavapipe flushes its context at each (about 50 µs per launch), which inflates the CPU time
    /// of closures made of many tiny launches: `false` measures CPU time alone.
    pub gpu_times: bool,
}

impl Default for BenchOptions {
    /// `warmup: 1, repeats: 10, min_time: 0, gpu_times: true` and no name.
    fn default() -> Self {
        BenchOptions {
            name: String::new(),
            warmup: 1,
            repeats: 10,
            min_time: Duration::ZERO,
            gpu_times: true,
        }
    }
}

/// Min, median, mean, max and standard deviation of some samples.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stats {
    /// The smallest sample.
    pub min: Duration,
    /// The middle sample (the mean of the two middle ones for an even count).
    pub median: Duration,
    /// The mean.
    pub mean: Duration,
    /// The largest sample.
    pub max: Duration,
    /// The population standard deviation.
    pub std: Duration,
}

impl Stats {
    /// The statistics of `samples`; `None` when there are none.
    pub fn of(samples: &[Duration]) -> Option<Stats> {
        if samples.is_empty() {
            return None;
        }
        let mut s = samples.to_vec();
        s.sort();
        let n = s.len();
        let median = if n % 2 == 1 {
            s[n / 2]
        } else {
            (s[n / 2 - 1] + s[n / 2]) / 2
        };
        let secs: Vec<f64> = s.iter().map(Duration::as_secs_f64).collect();
        let mean = secs.iter().sum::<f64>() / n as f64;
        let var = secs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n as f64;
        Some(Stats {
            min: s[0],
            median,
            mean: Duration::from_secs_f64(mean),
            max: s[n - 1],
            std: Duration::from_secs_f64(var.sqrt()),
        })
    }
}

/// What [`benchmark`] measured: per repeat, the CPU wall time (the closure plus the wait for
/// the device) and the GPU time (the sum of the repeat's kernel timestamps).
#[derive(Debug, Clone)]
pub struct BenchReport {
    /// [`BenchOptions::name`].
    pub name: String,
    /// The adapter.
    pub adapter: String,
    /// CPU wall time of each repeat, closure and synchronisation included.
    pub cpu: Vec<Duration>,
    /// GPU time of each repeat; `None` when the adapter has no GPU timestamps or
    /// [`BenchOptions::gpu_times`] was off.
    pub gpu: Option<Vec<Duration>>,
    /// Kernel launches per repeat (the first repeat's count; `None` when repeats were not
    /// profiled).
    pub launches: Option<usize>,
}

impl BenchReport {
    /// Statistics of [`BenchReport::cpu`].
    pub fn cpu_stats(&self) -> Stats {
        Stats::of(&self.cpu).expect("at least one repeat")
    }
    /// Statistics of [`BenchReport::gpu`]; `None` without GPU timestamps.
    pub fn gpu_stats(&self) -> Option<Stats> {
        Stats::of(self.gpu.as_deref()?)
    }
}

fn stat_line(f: &mut fmt::Formatter<'_>, s: Stats) -> fmt::Result {
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    write!(
        f,
        "{:.3} us +/- {:.3} (min: {:.3} / max: {:.3}) us",
        us(s.mean),
        us(s.std),
        us(s.min),
        us(s.max)
    )
}

impl fmt::Display for BenchReport {
    /// One line like `cupyx.profiler.benchmark`'s:
    /// `name: CPU: 1234.567 us +/- 3.210 (min: ... / max: ...) us   GPU-0: ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = if self.name.is_empty() {
            "benchmark"
        } else {
            &self.name
        };
        write!(f, "{name}: CPU: ")?;
        stat_line(f, self.cpu_stats())?;
        write!(f, "   GPU-0: ")?;
        match (self.gpu_stats(), self.launches) {
            (Some(_), Some(0)) => write!(f, "0 us (no GPU work)"),
            (Some(s), _) => stat_line(f, s),
            (None, None) => write!(f, "- (not measured: gpu_times was off)"),
            (None, Some(_)) => write!(
                f,
                "- (GPU timestamps unavailable on {}: CPU times only)",
                self.adapter
            ),
        }
    }
}

/// Times `f` the way `cupyx.profiler.benchmark` does: `warmup` untimed runs, then `repeats`
/// timed ones (more while their total is under `min_time`), each starting on an idle device and
/// ending only when the device has finished all its work — never a time taken before the GPU
/// finished. Each repeat is profiled, so its GPU time is the sum of its kernels' timestamps.
///
/// ```
/// use gpuarray::{benchmark, Array, BenchOptions, DType, Device};
/// # fn main() -> gpuarray::Result<()> {
/// let dev = Device::new()?;
/// let a = Array::full(&dev, &[128, 128], 1.0, DType::F32)?;
/// let report = benchmark(&dev, || a.matmul(&a), BenchOptions {
///     name: "matmul 128".into(),
///     repeats: 5,
///     ..Default::default()
/// })?;
/// assert_eq!(report.cpu.len(), 5);
/// let s = report.cpu_stats();
/// assert!(s.min <= s.median && s.median <= s.max);
/// println!("{report}");
/// # Ok(()) }
/// ```
pub fn benchmark<T>(
    dev: &Device,
    mut f: impl FnMut() -> Result<T>,
    options: BenchOptions,
) -> Result<BenchReport> {
    if options.repeats == 0 {
        return Err(Error::invalid(
            "benchmark",
            "repeats is 0: at least one timed run is needed",
        ));
    }
    for _ in 0..options.warmup {
        f()?;
        dev.synchronize()?;
    }
    let mut cpu = Vec::with_capacity(options.repeats);
    let profiled = options.gpu_times;
    let mut gpu = (profiled && dev.has_gpu_timestamps()).then(Vec::new);
    let mut launches = None;
    while cpu.len() < options.repeats || cpu.iter().sum::<Duration>() < options.min_time {
        // Start from an idle device: earlier work must not be counted.
        dev.synchronize()?;
        let started = Instant::now();
        if profiled {
            let (out, profile) = dev.profile(&mut f)?;
            cpu.push(started.elapsed());
            out?;
            if let (Some(g), Some(total)) = (gpu.as_mut(), profile.gpu_total()) {
                g.push(total);
            }
            launches.get_or_insert(profile.launches.len());
        } else {
            let out = f()?;
            dev.synchronize()?;
            cpu.push(started.elapsed());
            drop(out);
        }
    }
    Ok(BenchReport {
        name: options.name,
        adapter: dev.info().to_string(),
        cpu,
        gpu,
        launches,
    })
}
