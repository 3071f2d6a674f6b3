//! Start-up compilation in figures: how long `Device::new` takes, when the background plan is
//! done (`Device::wait_compiled`), how many pipelines it compiled and in how much compile time,
//! the cache on disk, and then the first call of each family once everything is ready. One
//! line of `key=value` figures, for shell loops over modes and cold/warm caches (BENCHMARKS.md
//! has the loop); `examples/first_calls.rs` times the first calls without waiting.
//!
//! ```text
//! GPUARRAY_COMPILE=eager GPUARRAY_CACHE_DIR=/tmp/c cargo run --release --example startup
//! ```

use gpuarray::random::Generator;
use gpuarray::{Array, DType, Device, einsum};
use std::time::Instant;

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

/// Bytes of the files in `dir` (the cache on disk).
fn dir_bytes(dir: &std::path::Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|it| {
            it.flatten()
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

fn main() -> gpuarray::Result<()> {
    let start = Instant::now();
    let dev = Device::new()?;
    let new_ms = ms(start);
    let stats = dev.wait_compiled()?;
    let ready_ms = ms(start);
    let t = Instant::now();
    let tune = dev.matmul_tuning()?;
    let tune_ms = ms(t);
    // The first call of each family, now that the plan is compiled.
    let m = Array::ones(&dev, &[64, 64], DType::F32)?;
    let t = Instant::now();
    assert!(m.matmul(&m)?.to_vec::<f32>()?.iter().all(|&v| v == 64.0));
    let matmul_ms = ms(t);
    let b = Array::ones(&dev, &[8, 64, 64], DType::F32)?;
    let t = Instant::now();
    let e = einsum("ijk,ikm->ijm", &[&b, &b])?.to_vec::<f32>()?;
    assert!(e.iter().all(|&v| v == 64.0));
    let einsum_ms = ms(t);
    let t = Instant::now();
    let r = Generator::new(&dev, 1)
        .standard_normal(&[1 << 16], DType::F32)?
        .to_vec::<f32>()?;
    assert!(r.iter().all(|v| v.is_finite()));
    let philox_ms = ms(t);
    let x = Array::ones(&dev, &[1 << 16], DType::F32)?;
    let t = Instant::now();
    assert!(x.add(&x)?.to_vec::<f32>()?.iter().all(|&v| v == 2.0));
    let add_ms = ms(t);
    let t = Instant::now();
    assert_eq!(x.sum(None, false)?.to_vec::<f32>()?[0], 65536.0);
    let sum_ms = ms(t);
    let after = dev.compile_stats();
    let dir = std::env::var_os("GPUARRAY_CACHE_DIR").map(std::path::PathBuf::from);
    println!(
        "mode={:?} device_new_ms={new_ms:.1} ready_ms={ready_ms:.1} pipelines={} in_background={} compile_cpu_ms={:.0} failed={} tune_ms={tune_ms:.1} tune_from_cache={} \
         first_after_ready: matmul_ms={matmul_ms:.1} einsum_ms={einsum_ms:.1} philox_ms={philox_ms:.1} add_ms={add_ms:.1} sum_ms={sum_ms:.1} compiled_later={} cache_bytes={}",
        stats.mode,
        stats.compiled,
        stats.in_background,
        stats.compile_time.as_secs_f64() * 1e3,
        stats.failed,
        tune.from_cache,
        after.compiled - stats.compiled,
        dir.as_deref().map_or(0, dir_bytes),
    );
    Ok(())
}
