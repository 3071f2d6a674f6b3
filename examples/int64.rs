//! int64 element-wise figures: `add` and `multiply` of two 2^24-element int64 arrays (exact
//! word-pair arithmetic in WGSL, on every adapter) beside the same ops on int32 and NumPy's int64
//! in the same run (inline, when python3 has numpy). Timed by `gpuarray::benchmark` (a warm-up
//! run, then 5 runs each ended by a synchronisation); the figures use the fastest CPU time and
//! count the bytes read and written (24 per int64 element, 12 per int32). On lavapipe these are
//! CPU figures.
//!
//! ```text
//! cargo run --release --example int64
//! ```

use gpuarray::{Array, DType, Device};

#[path = "support/numpy.rs"]
mod numpy;
#[path = "support/timing.rs"]
mod timing;

use timing::bench;

fn main() -> gpuarray::Result<()> {
    let dev = Device::new()?;
    println!("adapter: {}", dev.info());
    dev.wait_compiled()?;
    let n = 1usize << 24;
    let x: Vec<i64> = (0..n as i64)
        .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15_u64 as i64))
        .collect();
    let y: Vec<i64> = (0..n as i64).map(|i| (i << 20) - 5).collect();
    let (a, b) = (
        Array::from_slice(&dev, &x, &[n])?,
        Array::from_slice(&dev, &y, &[n])?,
    );
    let (a32, b32) = (a.astype(DType::I32)?, b.astype(DType::I32)?);
    // Spot-check the results against the host's wrapping arithmetic first.
    let sum = a.add(&b)?.to_vec::<i64>()?;
    let prod = a.mul(&b)?.to_vec::<i64>()?;
    for i in (0..n).step_by(4099) {
        assert_eq!(sum[i], x[i].wrapping_add(y[i]), "add at {i}");
        assert_eq!(prod[i], x[i].wrapping_mul(y[i]), "multiply at {i}");
    }
    let gbs = |bytes: f64, t: std::time::Duration| bytes * n as f64 / t.as_secs_f64() / 1e9;
    let t = bench(&dev, "add int64 2^24", 5, || a.add(&b))?;
    let add64 = t;
    println!(
        "add int64 2^24: {:.3} GB/s ({:.2} ms)",
        gbs(24.0, t),
        t.as_secs_f64() * 1e3
    );
    let t = bench(&dev, "add int32 2^24", 5, || a32.add(&b32))?;
    println!(
        "add int32 2^24: {:.3} GB/s ({:.2} ms)",
        gbs(12.0, t),
        t.as_secs_f64() * 1e3
    );
    let s = a.sum(gpuarray::Axes::All, false)?.item::<i64>()?;
    assert_eq!(s, x.iter().fold(0i64, |acc, v| acc.wrapping_add(*v)), "sum");
    let t = bench(&dev, "sum int64 2^24", 5, || {
        a.sum(gpuarray::Axes::All, false)
    })?;
    let sum64 = t;
    println!(
        "sum int64 2^24: {:.3} GB/s ({:.2} ms)",
        8.0 * n as f64 / t.as_secs_f64() / 1e9,
        t.as_secs_f64() * 1e3
    );
    let t = bench(&dev, "sum int32 2^24", 5, || {
        a32.sum(gpuarray::Axes::All, false)
    })?;
    println!(
        "sum int32 2^24: {:.3} GB/s ({:.2} ms)",
        4.0 * n as f64 / t.as_secs_f64() / 1e9,
        t.as_secs_f64() * 1e3
    );
    let t = bench(&dev, "multiply int64 2^24", 5, || a.mul(&b))?;
    println!(
        "multiply int64 2^24: {:.3} GB/s ({:.2} ms)",
        gbs(24.0, t),
        t.as_secs_f64() * 1e3
    );
    let t = bench(&dev, "multiply int32 2^24", 5, || a32.mul(&b32))?;
    println!(
        "multiply int32 2^24: {:.3} GB/s ({:.2} ms)",
        gbs(12.0, t),
        t.as_secs_f64() * 1e3
    );
    let code = "import numpy as np, time\n\
                n = 1 << 24\n\
                a = np.arange(n, dtype=np.int64) * np.int64(-7046029254386353131)\n\
                b = (np.arange(n, dtype=np.int64) << 20) - 5\n\
                for name, f in (('add', np.add), ('multiply', np.multiply)):\n\
                \x20   best = 1e9\n\
                \x20   for _ in range(5):\n\
                \x20       t = time.perf_counter(); f(a, b); best = min(best, time.perf_counter() - t)\n\
                \x20   print(f'numpy_{name}_int64_2^24 {24 * n / best / 1e9:.3f} GB/s')\n\
                best = 1e9\n\
                for _ in range(5):\n\
                \x20   t = time.perf_counter(); a.sum(); best = min(best, time.perf_counter() - t)\n\
                print(f'numpy_sum_int64_2^24 {8 * n / best / 1e9:.3f} GB/s')\n";
    match numpy::inline(code) {
        Ok(lines) => {
            for l in &lines {
                println!("numpy: {l}");
            }
            if let Some(v) =
                numpy::value(&lines, "numpy_add_int64").and_then(|v| v.parse::<f64>().ok())
            {
                println!(
                    "ratio: gpuarray int64 add / NumPy = {:.2}x",
                    gbs(24.0, add64) / v
                );
            }
            if let Some(v) =
                numpy::value(&lines, "numpy_sum_int64").and_then(|v| v.parse::<f64>().ok())
            {
                let gpu = 8.0 * n as f64 / sum64.as_secs_f64() / 1e9;
                println!("ratio: gpuarray int64 sum / NumPy = {:.2}x", gpu / v);
            }
        }
        Err(why) => println!("numpy: (skipped: {why})"),
    }
    Ok(())
}
