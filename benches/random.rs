//! Random generation throughput: `random` f32, `standard_normal` f32 and `bits` at 2^26 and 2^28
//! elements (1 GiB), plus integers with rejection and a misaligned stream.
//!
//! ```text
//! cargo bench --bench random
//! ```
//! On lavapipe the "GPU" is the CPU: these are CPU figures. Every timed region ends with
//! `synchronize()`, so the numbers are on the device when the clock stops. The NumPy side of the
//! comparison is `cargo run --release --example random` (same machine, same run).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use gpuarray::random::Generator;
use gpuarray::{Array, DType, Device};
use std::time::Duration;

fn device() -> Device {
    Device::new()
        .expect("benchmarks need an adapter (on Linux: apt-get install mesa-vulkan-drivers)")
}

fn generators(c: &mut Criterion) {
    let dev = device();
    println!("adapter: {}", dev.info());
    let mut g = Generator::new(&dev, 42);
    type Draw = fn(&mut Generator, usize) -> gpuarray::Result<Array>;
    let draws: [(&str, Draw); 3] = [
        ("random_f32", |g, n| g.random(&[n], DType::F32)),
        ("standard_normal_f32", |g, n| {
            g.standard_normal(&[n], DType::F32)
        }),
        ("bits", |g, n| g.bits(&[n])),
    ];
    for log2 in [26u32, 28] {
        let n = 1usize << log2;
        let mut group = c.benchmark_group(format!("random_2^{log2}"));
        group
            .sample_size(10)
            .measurement_time(Duration::from_secs(if log2 == 28 { 20 } else { 8 }))
            .throughput(Throughput::Elements(n as u64));
        for (name, draw) in draws {
            group.bench_function(BenchmarkId::from_parameter(name), |b| {
                b.iter(|| {
                    let a = draw(&mut g, n).unwrap();
                    dev.synchronize().unwrap();
                    a
                })
            });
        }
        group.finish();
        dev.empty_cache();
    }
}

fn variants(c: &mut Criterion) {
    let dev = device();
    let n = 1usize << 24;
    let mut group = c.benchmark_group("random_2^24_variants");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(6))
        .throughput(Throughput::Elements(n as u64));
    let mut g = Generator::new(&dev, 7);
    group.bench_function("integers_i32_0..1000 (two passes, rejection)", |b| {
        b.iter(|| {
            let a = g.integers(0, 1000, &[n], DType::I32).unwrap();
            dev.synchronize().unwrap();
            a
        })
    });
    group.bench_function("random_f32 from offset 1 (misaligned stream)", |b| {
        b.iter(|| {
            let mut h = Generator::with_stream(&dev, 7, 0, 1);
            let a = h.random(&[n], DType::F32).unwrap();
            dev.synchronize().unwrap();
            a
        })
    });
    if dev.supports(DType::F64) {
        // A fresh stream per draw: the integer draws above leave `g` at an arbitrary offset, and a
        // stream that starts inside a block takes the slower PHASED pipeline.
        group.bench_function("standard_normal_f64", |b| {
            b.iter(|| {
                let a = Generator::new(&dev, 7)
                    .standard_normal(&[n], DType::F64)
                    .unwrap();
                dev.synchronize().unwrap();
                a
            })
        });
    }
    group.finish();
}

criterion_group!(benches, generators, variants);
criterion_main!(benches);
