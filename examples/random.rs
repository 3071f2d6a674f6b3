//! Random numbers on the device: samples per second for `random` f32, `standard_normal` f32 and
//! `bits` at 2^26 and 2^28 elements (1 GiB), next to NumPy's on the same machine in the same run.
//!
//! ```text
//! cargo run --release --example random
//! ```
//!
//! Each figure is the best of 5 draws after a warm-up draw (which compiles the pipeline and fills
//! the memory pool); every timed draw ends with `synchronize()`, so the numbers are on the device
//! when the clock stops. On lavapipe the "GPU" is the CPU: those are CPU figures.
//!
//! The NumPy side runs `../shared/bench/numpy_baseline.py normal LOG2N` (or the script named by
//! `GPUARRAY_NUMPY_BASELINE`) when `python3 -c "import numpy"` works, with `OPENBLAS_CORETYPE`
//! and `OPENBLAS_L2_SIZE` unset for that command only.

use gpuarray::random::Generator;
use gpuarray::{DType, Device};
#[path = "support/numpy.rs"]
mod numpy;
use std::time::Instant;

const REPS: usize = 5;

fn main() -> gpuarray::Result<()> {
    let dev = Device::new()?;
    println!("adapter: {}", dev.info());
    if dev.info().device_type == "Cpu" {
        println!("(a CPU adapter: these are CPU figures)");
    }
    let mut g = Generator::new(&dev, 42);
    for log2 in [26u32, 28] {
        let n = 1usize << log2;
        println!("\n2^{log2} = {n} samples, best and median of {REPS} draws:");
        for name in ["random f32", "standard_normal f32", "bits u32"] {
            let mut draw = || -> gpuarray::Result<f64> {
                let t = Instant::now();
                let a = match name {
                    "random f32" => g.random(&[n], DType::F32)?,
                    "standard_normal f32" => g.standard_normal(&[n], DType::F32)?,
                    _ => g.bits(&[n])?,
                };
                dev.synchronize()?;
                let s = t.elapsed().as_secs_f64();
                drop(a);
                Ok(s)
            };
            draw()?; // warm-up: pipeline compile, pool allocation
            let mut times: Vec<f64> = (0..REPS).map(|_| draw()).collect::<Result<_, _>>()?;
            times.sort_by(f64::total_cmp);
            let rate = |t: f64| n as f64 / t / 1e9;
            println!(
                "  gpuarray {name:<20} {:6.3} G samples/s (median {:.3}; {:.1} ms per draw)",
                rate(times[0]),
                rate(times[REPS / 2]),
                times[0] * 1e3
            );
        }
        dev.empty_cache();
        numpy::print("  numpy    ", &["normal", &log2.to_string()]);
    }
    Ok(())
}
