//! One line of key figures, for A/B comparisons of two builds run alternately in one sitting:
//! `Device::new`, the matmul tune, 1024³ f32 matmul, `add` of 2^24 f32, `sum` of 2^26 f32,
//! softmax over (4096, 4096), `standard_normal` of 2^26 f32, and the median latency of a small
//! op with its readback (`add` of 1000 f32 + `to_vec`, 3000 times). Best of 5 after a warm-up,
//! through `gpuarray::benchmark`, which ends every timed run with a synchronisation. On lavapipe these are CPU figures.
//!
//! ```text
//! cargo run --release --example figures
//! ```

use gpuarray::random::Generator;
use gpuarray::{Array, Axes, DType, Device};
use std::time::{Duration, Instant};

#[path = "support/timing.rs"]
mod timing;

use timing::fastest;

fn ms(t: Duration) -> f64 {
    t.as_secs_f64() * 1e3
}

fn main() -> gpuarray::Result<()> {
    let started = Instant::now();
    let dev = Device::new()?;
    let new = started.elapsed();
    // The start-up plan compiles on every core in the background: wait for it, so that no
    // figure below shares the CPU with it (lavapipe's kernels run on those cores).
    dev.wait_compiled()?;
    let started = Instant::now();
    dev.matmul_tuning()?;
    let tune = started.elapsed();
    eprintln!("adapter: {}", dev.info());

    let a = Array::full(&dev, &[1024, 1024], 0.5, DType::F32)?;
    let matmul = fastest(&dev, 5, || a.matmul(&a))?;
    let x = Array::ones(&dev, &[1 << 24], DType::F32)?;
    let add = fastest(&dev, 5, || x.add(&x))?;
    let y = Array::ones(&dev, &[1 << 26], DType::F32)?;
    let sum = fastest(&dev, 5, || y.sum(Axes::All, false)?.item::<f32>())?;
    let s = Array::ones(&dev, &[4096, 4096], DType::F32)?;
    let softmax = fastest(&dev, 5, || s.softmax(-1))?;
    let mut g = Generator::new(&dev, 1);
    let normal = fastest(&dev, 5, || g.standard_normal(&[1 << 26], DType::F32))?;
    let small = Array::ones(&dev, &[1000], DType::F32)?;
    let mut latencies = (0..3000)
        .map(|_| {
            let t = Instant::now();
            small.add(&small)?.to_vec::<f32>()?;
            Ok(t.elapsed())
        })
        .collect::<gpuarray::Result<Vec<Duration>>>()?;
    latencies.sort();

    println!(
        "Device::new {:.0} ms | tune {:.2} s | matmul 1024^3 {:.1} ms | add 2^24 {:.2} ms | sum 2^26 {:.2} ms | softmax 4096^2 {:.1} ms | standard_normal 2^26 {:.3} G/s | small add + readback {:.1} us",
        ms(new),
        tune.as_secs_f64(),
        ms(matmul),
        ms(add),
        ms(sum),
        ms(softmax),
        (1u64 << 26) as f64 / normal.as_secs_f64() / 1e9,
        latencies[latencies.len() / 2].as_secs_f64() * 1e6
    );
    Ok(())
}
