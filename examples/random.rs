//! Random numbers on the device: samples per second for `random` f32, `standard_normal` f32 and
//! `bits` at 2^26 and 2^28 elements (1 GiB), next to NumPy's on the same machine in the same run.
//!
//! ```text
//! cargo run --release --example random
//! cargo run --release --example random -- 22     # other sizes: 2^22 (the browser demo's)
//! ```
//!
//! Each draw's speed is also given as a share of the device's buffer-clear write speed for the
//! same bytes, measured in the same run (on a GPU, the issue's "memory write bandwidth" figure).
//!
//! Each figure is the best of 5 draws after a warm-up draw (which compiles the pipeline and fills
//! the memory pool), timed by `gpuarray::benchmark`: every timed draw ends with a
//! synchronisation, so the numbers are on the device when the clock stops. On lavapipe the "GPU" is the CPU: those are CPU figures.
//!
//! Beside each figure: the same draw computed natively on every host core (`support/
//! native_philox.rs`: the same Philox stream and conversions, compiled for the CPU's widest
//! SIMD), which on a lavapipe machine is the ceiling for any kernel on that CPU; its first
//! 2^16 outputs are checked against the device's (bits and uniforms exactly, normals to 1e-5).
//!
//! The NumPy side runs `../shared/bench/numpy_baseline.py normal LOG2N` (or the script named by
//! `GPUARRAY_NUMPY_BASELINE`) when `python3 -c "import numpy"` works, with `OPENBLAS_CORETYPE`
//! and `OPENBLAS_L2_SIZE` unset for that command only.

use gpuarray::random::Generator;
use gpuarray::{Array, BenchOptions, DType, Device, benchmark};
#[path = "support/native_philox.rs"]
mod native_philox;
#[path = "support/numpy.rs"]
mod numpy;
use native_philox::Draw;

const REPS: usize = 5;

fn main() -> gpuarray::Result<()> {
    let dev = Device::new()?;
    // The start-up plan compiles on every core in the background: wait for it, so that no
    // figure below shares the CPU with it (lavapipe's kernels run on those cores).
    dev.wait_compiled()?;
    println!("adapter: {}", dev.info());
    if dev.info().device_type == "Cpu" {
        println!("(a CPU adapter: these are CPU figures)");
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    check_native_matches(&dev)?;
    println!(
        "native: the same streams on {threads} host threads with {} (checked against the device)",
        native_philox::simd()
    );
    let mut g = Generator::new(&dev, 42);
    let sizes: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![26, 28]
    } else {
        sizes
    };
    for log2 in sizes {
        let n = 1usize << log2;
        let rate = |t: f64| n as f64 / t / 1e9;
        println!("\n2^{log2} = {n} samples, best and median of {REPS} draws:");
        // The device's own write speed for the same bytes: a buffer clear (vkCmdFillBuffer and
        // its kin; a memset on lavapipe). Every draw below writes 4 bytes per sample.
        let fill = time_draws(&dev, || Array::zeros(&dev, &[n], DType::F32))?;
        println!(
            "  device   fill (buffer clear)     {:6.2} GB/s written (median {:.2})",
            4.0 * rate(fill.0),
            4.0 * rate(fill.1)
        );
        for name in ["random f32", "standard_normal f32", "bits u32"] {
            let times = time_draws(&dev, || match name {
                "random f32" => g.random(&[n], DType::F32),
                "standard_normal f32" => g.standard_normal(&[n], DType::F32),
                _ => g.bits(&[n]),
            })?;
            println!(
                "  gpuarray {name:<20} {:6.3} G samples/s (median {:.3}; {:.1} ms per draw; \
                 {:.0} % of the fill's write speed)",
                rate(times.0),
                rate(times.1),
                times.0 * 1e3,
                100.0 * fill.0 / times.0
            );
            let draw = match name {
                "random f32" => Draw::Random,
                "standard_normal f32" => Draw::Normal,
                _ => Draw::Bits,
            };
            let mut native: Vec<f64> = (0..REPS)
                .map(|_| native_philox::generate(draw, 42, n, threads).1)
                .collect();
            native.sort_by(f64::total_cmp);
            println!(
                "  native   {name:<20} {:6.3} G samples/s (median {:.3})",
                rate(native[0]),
                rate(native[REPS / 2])
            );
        }
        dev.empty_cache();
        numpy::print("  numpy    ", &["normal", &log2.to_string()]);
    }
    Ok(())
}

/// Best and median seconds of `REPS` draws of `make` after one warm-up draw (pipeline compile,
/// pool allocation), through `gpuarray::benchmark`: each timed until the device has finished it.
fn time_draws(
    dev: &Device,
    make: impl FnMut() -> gpuarray::Result<Array>,
) -> gpuarray::Result<(f64, f64)> {
    let report = benchmark(
        dev,
        make,
        BenchOptions {
            warmup: 1,
            repeats: REPS,
            ..Default::default()
        },
    )?;
    let s = report.cpu_stats();
    Ok((s.min.as_secs_f64(), s.median.as_secs_f64()))
}

/// The native baseline computes the device's streams: the first 2^16 bits and uniforms are
/// equal, normals agree to 1e-5 (both use the same polynomials; only float rounding differs).
fn check_native_matches(dev: &Device) -> gpuarray::Result<()> {
    let n = 1 << 16;
    let (bits, _) = native_philox::generate(Draw::Bits, 7, n, 1);
    let (random, _) = native_philox::generate(Draw::Random, 7, n, 1);
    let (normal, _) = native_philox::generate(Draw::Normal, 7, n, 1);
    let gpu_bits = Generator::new(dev, 7).bits(&[n])?.to_vec::<u32>()?;
    let gpu_random = Generator::new(dev, 7)
        .random(&[n], DType::F32)?
        .to_vec::<f32>()?;
    let gpu_normal = Generator::new(dev, 7)
        .standard_normal(&[n], DType::F32)?
        .to_vec::<f32>()?;
    assert_eq!(gpu_bits, bits, "native bits differ from the device's");
    let random_bits: Vec<u32> = gpu_random.iter().map(|v| v.to_bits()).collect();
    assert_eq!(
        random_bits, random,
        "native uniforms differ from the device's"
    );
    let worst = gpu_normal
        .iter()
        .zip(&normal)
        .map(|(&d, &h)| (d - f32::from_bits(h)).abs())
        .fold(0.0f32, f32::max);
    assert!(
        worst < 1e-5,
        "native normals differ from the device's by {worst}"
    );
    Ok(())
}
