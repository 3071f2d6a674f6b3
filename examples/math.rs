//! What accurate f32 math costs: exp, log, sin, tanh and pow of 2^24 f32 elements in GB/s (bytes
//! read + written) with `MathMode::Accurate` (the crate's software functions, within 1-2 ulps and
//! the same bits on every adapter) and `MathMode::Fast` (the driver's built-ins) on two devices of
//! the same adapter, beside NumPy's ufuncs on the same data in the same run (when python3 has
//! numpy). Inputs are spread over each function's useful range (sin up to 1e4, where the reduction
//! is in its general path). Each job is timed by `gpuarray::benchmark` (one warm-up, which also
//! compiles, then 5 runs, each ended by a synchronisation); on lavapipe these are CPU figures.
//!
//! ```text
//! cargo run --release --example math
//! ```

use gpuarray::{Array, DType, Device, DeviceConfig, MathMode};

#[path = "support/numpy.rs"]
mod numpy;
#[path = "support/timing.rs"]
mod timing;

/// The jobs: (name, low, high) of the inputs, spread linearly.
const JOBS: [(&str, f64, f64); 5] = [
    ("exp", -80.0, 80.0),
    ("log", 1e-3, 1e6),
    ("sin", -1e4, 1e4),
    ("tanh", -10.0, 10.0),
    ("pow", 0.5, 4.0),
];

fn run(a: &Array, y: &Array, name: &str) -> gpuarray::Result<Array> {
    match name {
        "exp" => a.exp(),
        "log" => a.log(),
        "sin" => a.sin(),
        "tanh" => a.tanh(),
        _ => a.pow(y),
    }
}

fn main() -> gpuarray::Result<()> {
    let n = 1usize << 24;
    let accurate = Device::with_config(DeviceConfig {
        math: MathMode::Accurate,
        ..DeviceConfig::from_env()?
    })?;
    let fast = Device::with_config(DeviceConfig {
        math: MathMode::Fast,
        ..DeviceConfig::from_env()?
    })?;
    println!("adapter: {}", accurate.info());
    for (name, lo, hi) in JOBS {
        // pow reads two arrays (x in [0.5, 4), y = 2.5): 12 bytes per element; the rest 8.
        let bytes = if name == "pow" { 12.0 } else { 8.0 } * n as f64;
        let mut rate = Vec::new();
        for (mode, dev) in [("accurate", &accurate), ("fast", &fast)] {
            let a = Array::linspace(dev, lo, hi, n, DType::F32)?;
            let y = Array::full(dev, &[n], 2.5, DType::F32)?;
            let t = timing::bench(dev, &format!("{name} f32 2^24 {mode}"), 5, || {
                run(&a, &y, name)
            })?;
            rate.push(bytes / t.as_secs_f64() / 1e9);
        }
        println!(
            "{name} f32 2^24: accurate {:.3} GB/s, fast {:.3} GB/s (accurate / fast = {:.2})",
            rate[0],
            rate[1],
            rate[0] / rate[1]
        );
    }
    let code = format!(
        r#"
import numpy as np, time
n = {n}
jobs = {{"exp": (-80, 80), "log": (1e-3, 1e6), "sin": (-1e4, 1e4), "tanh": (-10, 10), "pow": (0.5, 4)}}
for name, (lo, hi) in jobs.items():
    a = np.linspace(lo, hi, n, dtype=np.float32)
    y = np.full(n, 2.5, dtype=np.float32)
    f = (lambda: np.power(a, y)) if name == "pow" else (lambda: getattr(np, name)(a))
    f()
    best = min((lambda t0: (f(), time.perf_counter() - t0)[1])(time.perf_counter()) for _ in range(5))
    nbytes = (12 if name == "pow" else 8) * n
    print(f"numpy {{name}} f32 2^24: {{nbytes / best / 1e9:.3f}} GB/s")
"#
    );
    match numpy::inline(&code) {
        Ok(lines) => lines.iter().for_each(|l| println!("{l}")),
        Err(why) => println!("numpy: (skipped: {why})"),
    }
    Ok(())
}
