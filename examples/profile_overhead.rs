//! What profiling costs: 10,000 chained small ops (`x = x + 1` on 1000 f32, then one readback)
//! and the seed einsum `ijk,ikm->ijm` at N³ (default 500), each timed with and without
//! `Device::profile` around it, alternating, best of 5 per side. Profiling off must cost
//! nothing; on, it adds timestamp queries to every pass and one resolve per submit.
//!
//! ```text
//! cargo run --release --example profile_overhead          # N = 500
//! cargo run --release --example profile_overhead -- 200   # a smaller seed case
//! ```
//! On lavapipe the "GPU" is the CPU: these are CPU figures.

use gpuarray::{Array, DType, Device, einsum};
use std::time::{Duration, Instant};

const ROUNDS: usize = 5;

fn main() -> gpuarray::Result<()> {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(500);
    let dev = Device::new()?;
    // The start-up plan compiles on every core in the background: wait for it, so that no
    // figure below shares the CPU with it (lavapipe's kernels run on those cores).
    dev.wait_compiled()?;
    println!("adapter: {}", dev.info());
    println!("GPU timestamps: {}", dev.has_gpu_timestamps());

    let x0 = Array::zeros(&dev, &[1000], DType::F32)?;
    let chain = || -> gpuarray::Result<f32> {
        let mut x = x0.clone();
        for _ in 0..10_000 {
            x = x.add(1.0)?;
        }
        let v = x.to_vec::<f32>()?;
        Ok(v[999])
    };
    let (off, on, launches) = compare(&dev, &chain, |v| assert_eq!(v, 10_000.0))?;
    report(
        "10,000 chained adds of 1000 f32 + readback",
        off,
        on,
        launches,
    );

    let a = Array::full(&dev, &[n, n, n], 0.5, DType::F32)?;
    let b = Array::full(&dev, &[n, n, n], 0.25, DType::F32)?;
    dev.matmul_tuning()?;
    let seed = || -> gpuarray::Result<f32> {
        let c = einsum("ijk,ikm->ijm", &[&a, &b])?;
        dev.synchronize()?;
        c.slice(&[gpuarray::SliceArg::Index(0), gpuarray::SliceArg::Index(0)])?
            .slice(&[gpuarray::SliceArg::range(Some(0), Some(1), 1)])?
            .to_vec::<f32>()
            .map(|v| v[0])
    };
    let want = 0.125 * n as f32;
    let (off, on, launches) = compare(&dev, &seed, |v| assert_eq!(v, want))?;
    report(&format!("seed einsum at {n}^3"), off, on, launches);
    if dev.info().device_type == "Cpu" {
        println!(
            "note: {} is a CPU adapter: these are CPU figures",
            dev.info().name
        );
    }
    Ok(())
}

/// Best wall time of `f` without and with a profile around it (alternating rounds after a
/// warm-up of each), and the launches one profiled run records.
fn compare<T>(
    dev: &Device,
    f: &impl Fn() -> gpuarray::Result<T>,
    check: impl Fn(T),
) -> gpuarray::Result<(Duration, Duration, usize)> {
    check(f()?);
    dev.profile(f)?.0?;
    let (mut off, mut on, mut launches) = (Duration::MAX, Duration::MAX, 0);
    for _ in 0..ROUNDS {
        dev.synchronize()?;
        let t = Instant::now();
        check(f()?);
        off = off.min(t.elapsed());
        dev.synchronize()?;
        let t = Instant::now();
        let (out, prof) = dev.profile(f)?;
        check(out?);
        on = on.min(t.elapsed());
        launches = prof.launches.len();
    }
    Ok((off, on, launches))
}

fn report(what: &str, off: Duration, on: Duration, launches: usize) {
    println!(
        "{what}: off {:.2} ms, profiled {:.2} ms ({launches} launches recorded): {:+.1} %",
        off.as_secs_f64() * 1e3,
        on.as_secs_f64() * 1e3,
        100.0 * (on.as_secs_f64() / off.as_secs_f64() - 1.0)
    );
}
