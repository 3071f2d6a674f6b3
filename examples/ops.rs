//! Figures for the core ops: `add` of two 2^24-element f32 arrays and `sum` of a 2^26-element f32
//! array in GB/s, softmax over (4096, 4096) f32 in seconds, cumsum of 2^24 f32 (1-d, and as
//! (2^14, 1024) along either axis) in GB/s, next to host `memcpy` bandwidth and the start-up
//! time of `Device::new`, and NumPy's figures for the same jobs in the same run (from
//! `../shared/bench/numpy_baseline.py`, cumsum inline; when python3 has numpy). Each job is timed
//! by `gpuarray::benchmark` (one warm-up run, which also compiles the lazily built pipelines,
//! then 5 runs, each ended by a synchronisation), which prints CPU and GPU times; the figures
//! use the fastest CPU time. On lavapipe these are CPU figures.
//!
//! ```text
//! cargo run --release --example ops
//! ```

use gpuarray::{Array, Axes, DType, Device};
use std::time::Instant;

#[path = "support/numpy.rs"]
mod numpy;
#[path = "support/timing.rs"]
mod timing;

use timing::bench;

fn main() -> gpuarray::Result<()> {
    let s = Instant::now();
    let dev = Device::new()?;
    println!("adapter: {}", dev.info());
    println!(
        "Device::new: {:.1} ms ({} pipelines compiled at start)",
        s.elapsed().as_secs_f64() * 1e3,
        dev.info().pipelines
    );
    // The start-up plan compiles on every core in the background: wait for it, so that no
    // figure below shares the CPU with it (lavapipe's kernels run on those cores).
    dev.wait_compiled()?;

    // Host memcpy of 256 MiB: bytes read + bytes written, like the 12 bytes/element of add.
    let n = 1usize << 26;
    let src = vec![1.0f32; n];
    let mut dst = vec![0.0f32; n];
    let t = bench(&dev, "memcpy 256 MiB (host)", 5, || {
        dst.copy_from_slice(&src);
        std::hint::black_box(&dst);
        Ok(())
    })?;
    println!(
        "memcpy 256 MiB (host): {:.2} GB/s (read + write bytes)",
        2.0 * 4.0 * n as f64 / t.as_secs_f64() / 1e9
    );
    drop((src, dst));

    let n = 1usize << 24;
    let a = Array::arange(&dev, 0.0, n as f64, 1.0, DType::F32)?;
    let b = Array::full(&dev, &[n], 0.5, DType::F32)?;
    let t = bench(&dev, "add f32 2^24", 5, || a.add(&b))?;
    println!(
        "add f32 2^24: {:.3} GB/s ({:.2} ms; 12 bytes per element)",
        12.0 * n as f64 / t.as_secs_f64() / 1e9,
        t.as_secs_f64() * 1e3
    );
    drop((a, b));

    let n = 1usize << 26;
    let x = Array::full(&dev, &[n], 1.0, DType::F32)?;
    let t = bench(&dev, "sum f32 2^26", 5, || x.sum(Axes::All, false))?;
    println!(
        "sum f32 2^26: {:.3} GB/s ({:.2} ms)",
        4.0 * n as f64 / t.as_secs_f64() / 1e9,
        t.as_secs_f64() * 1e3
    );
    drop(x);

    let x = Array::linspace(&dev, -3.0, 3.0, 4096 * 4096, DType::F32)?.reshape(&[4096, 4096])?;
    let t = bench(&dev, "softmax f32 (4096, 4096)", 5, || x.softmax(-1))?;
    println!(
        "softmax f32 (4096, 4096), last axis: {:.4} s",
        t.as_secs_f64()
    );
    drop(x);

    // cumsum of 2^24 f32: the 1-d array (one long line: block totals, their scan, the blocks),
    // and the same data as (2^14, 1024) along axis 1 (many short lines) and axis 0.
    let n = 1usize << 24;
    let a = Array::full(&dev, &[n], 1.0, DType::F32)?;
    let m = a.reshape(&[(n >> 10) as isize, 1024])?;
    for (label, x, axis) in [
        ("1-d", &a, None),
        ("(2^14, 1024) axis 1", &m, Some(1)),
        ("(2^14, 1024) axis 0", &m, Some(0)),
    ] {
        let t = bench(&dev, &format!("cumsum f32 2^24, {label}"), 5, || {
            x.cumsum(axis)
        })?;
        println!(
            "cumsum f32 2^24, {label}: {:.3} GB/s ({:.2} ms)",
            4.0 * n as f64 / t.as_secs_f64() / 1e9,
            t.as_secs_f64() * 1e3
        );
    }
    drop((a, m));

    // NumPy on the same jobs, same machine, same run.
    for job in [["add", "24"], ["sum", "26"], ["softmax", "4096"]] {
        numpy::print("numpy: ", &job);
    }
    // The shared baseline script has no cumsum job: the same three cumsums timed inline.
    let cumsum = r#"
import numpy as np, time
a = np.ones(1 << 24, np.float32)
m = a.reshape(1 << 14, 1024)
jobs = [("1-d", lambda: np.cumsum(a)),
        ("(2^14, 1024) axis 1", lambda: np.cumsum(m, 1)),
        ("(2^14, 1024) axis 0", lambda: np.cumsum(m, 0))]
for label, f in jobs:
    f()
    t = float("inf")
    for _ in range(5):
        s = time.perf_counter()
        f()
        t = min(t, time.perf_counter() - s)
    print(f"numpy_cumsum_f32_2^24 {label}: {4 * a.size / t / 1e9:.3f} GB/s")
"#;
    match numpy::inline(cumsum) {
        Ok(lines) => lines.iter().for_each(|l| println!("numpy: {l}")),
        Err(why) => println!("numpy: (cumsum skipped: {why})"),
    }
    Ok(())
}
