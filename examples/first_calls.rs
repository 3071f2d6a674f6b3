//! What a fresh process pays before its first results: `Device::new`, then the first call of
//! each family — matmul, einsum, Philox, add, sum — each timed from the call to its result on
//! the host (so compile, tune and the kernel itself are all inside), in a fixed order. One line
//! of `key=value` figures, for shell loops over cold and warm caches (see BENCHMARKS.md).
//!
//! ```text
//! cargo run --release --example first_calls            # Device::new, then the five first calls
//! cargo run --release --example first_calls -- seed    # time to first result: the seed einsum at 64³
//! GPUARRAY_COMPILE=lazy|families|eager                 # the start-up plan (default lazy)
//! GPUARRAY_CACHE_DIR=/tmp/c MESA_SHADER_CACHE_DISABLE=true   # cold: empty caches
//! ```
//!
//! Uses only API that predates start-up compilation, so the same file builds against older
//! commits for before/after comparisons.

use gpuarray::random::Generator;
use gpuarray::{Array, DType, Device, einsum};
use std::time::Instant;

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

fn main() -> gpuarray::Result<()> {
    let seed_only = std::env::args().nth(1).as_deref() == Some("seed");
    let start = Instant::now();
    let dev = Device::new()?;
    let new_ms = ms(start);
    if seed_only {
        // The seed call at 64³, from process start to its result on the host.
        let n = 64;
        let host: Vec<f32> = (0..n * n * n).map(|i| (i % 7) as f32 - 3.0).collect();
        let a = Array::from_slice(&dev, &host, &[n, n, n])?;
        let c = einsum("ijk,ikm->ijm", &[&a, &a])?.to_vec::<f32>()?;
        // Check one entry against the host: batch 1, row 2, column 3.
        let want: f32 = (0..n)
            .map(|k| host[n * n + 2 * n + k] * host[n * n + k * n + 3])
            .sum();
        assert_eq!(c[n * n + 2 * n + 3], want);
        println!(
            "seed64 first_result_ms={:.1} device_new_ms={new_ms:.1}",
            ms(start)
        );
        return Ok(());
    }
    let n = 1 << 16;
    let x = Array::arange(&dev, 0.0, n as f64, 1.0, DType::F32)?;
    let m = Array::ones(&dev, &[64, 64], DType::F32)?;
    let t = Instant::now();
    let mm = m.matmul(&m)?.to_vec::<f32>()?;
    let matmul_ms = ms(t);
    assert!(mm.iter().all(|&v| v == 64.0));
    let b = Array::ones(&dev, &[8, 64, 64], DType::F32)?;
    let t = Instant::now();
    let e = einsum("ijk,ikm->ijm", &[&b, &b])?.to_vec::<f32>()?;
    let einsum_ms = ms(t);
    assert!(e.iter().all(|&v| v == 64.0));
    let t = Instant::now();
    let r = Generator::new(&dev, 1)
        .standard_normal(&[n], DType::F32)?
        .to_vec::<f32>()?;
    let philox_ms = ms(t);
    assert!(r.iter().all(|v| v.is_finite()));
    let t = Instant::now();
    let s = x.add(&x)?.to_vec::<f32>()?;
    let add_ms = ms(t);
    assert_eq!(s[n - 1], 2.0 * (n - 1) as f32);
    let ones = Array::ones(&dev, &[n], DType::F32)?;
    let t = Instant::now();
    let total = ones.sum(None, false)?.to_vec::<f32>()?[0];
    let sum_ms = ms(t);
    assert_eq!(total, n as f32);
    println!(
        "device_new_ms={new_ms:.1} matmul_ms={matmul_ms:.1} einsum_ms={einsum_ms:.1} philox_ms={philox_ms:.1} add_ms={add_ms:.1} sum_ms={sum_ms:.1} first_calls_total_ms={:.1} pipelines={}",
        matmul_ms + einsum_ms + philox_ms + add_ms + sum_ms,
        dev.pipelines_compiled()
    );
    Ok(())
}
