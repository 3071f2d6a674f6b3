//! Resident memory of a loop of small ops, while the start-up plan compiles and after it
//! (issue 30): `ones(1000) + ones(1000)` read back, 20,000 times from the moment the device
//! exists, then 20,000 times more once the plan is done (`wait_compiled`). Each phase prints
//! the growth of the process's resident memory per 10^4 ops and the pipelines compiled during
//! it, so growth can be told apart from the plan's own: with `idle` the first phase sleeps
//! instead of computing, for the same time, and the plan alone grows the process.
//! Linux (`/proc/self/statm`).
//!
//! ```text
//! GPUARRAY_COMPILE=eager cargo run --release --example memory           # ops while compiling
//! GPUARRAY_COMPILE=eager cargo run --release --example memory -- idle   # no ops while compiling
//! ```

use gpuarray::{Array, DType, Device};
use std::time::{Duration, Instant};

const OPS: usize = 20_000;

fn resident_mb() -> f64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: f64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0.0);
    pages * 4096.0 / 1e6
}

/// Runs `OPS` ops (or sleeps for `idle`), then prints the phase's figures.
fn phase(dev: &Device, a: &Array, name: &str, idle: Option<Duration>) -> gpuarray::Result<()> {
    let (rss, compiled) = (resident_mb(), dev.compile_stats().compiled);
    let started = Instant::now();
    match idle {
        Some(t) => std::thread::sleep(t),
        None => {
            for _ in 0..OPS {
                let v = a.add(a)?.to_vec::<f32>()?;
                assert_eq!(v[0], 2.0);
            }
        }
    }
    dev.synchronize()?;
    let grown = resident_mb() - rss;
    let pipelines = dev.compile_stats().compiled - compiled;
    println!(
        "mode={:?} phase={name} ops={} seconds={:.2} rss_growth_mb={grown:.1} per_10k_ops_mb={} pipelines_compiled={pipelines} per_pipeline_mb={}",
        dev.compile_stats().mode,
        if idle.is_some() { 0 } else { OPS },
        started.elapsed().as_secs_f64(),
        if idle.is_some() {
            "-".into()
        } else {
            format!("{:.1}", grown * 1e4 / OPS as f64)
        },
        if pipelines > 0 {
            format!("{:.2}", grown / pipelines as f64)
        } else {
            "-".into()
        }
    );
    Ok(())
}

fn main() -> gpuarray::Result<()> {
    let idle = std::env::args().nth(1).as_deref() == Some("idle");
    let dev = Device::new()?;
    let a = Array::ones(&dev, &[1000], DType::F32)?;
    // The same wall time as the ops take on this machine after the plan (measured first on a
    // throwaway loop would disturb the plan): 20,000 × 0.15 ms.
    let sleep = idle.then(|| Duration::from_millis(3000));
    phase(&dev, &a, "while-compiling", sleep)?;
    dev.wait_compiled()?;
    // Warm the loop's own path once more, then measure.
    a.add(&a)?.to_vec::<f32>()?;
    phase(&dev, &a, "after-plan", None)?;
    println!("resident_mb={:.1}", resident_mb());
    Ok(())
}
