//! Foundation figures: start-up, upload/readback bandwidth, device copies against host memcpy,
//! and per-op overhead of batched vs synchronised launches.
//!
//! ```text
//! cargo bench --bench transfers
//! ```
//! On lavapipe the "GPU" is the CPU: these are CPU figures. Every timed GPU region ends with
//! `synchronize()` or a blocking readback, so the work is finished when the clock stops.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use gpuarray::{Array, DType, Device, SliceArg};
use std::hint::black_box;
use std::time::Duration;

const MIB: usize = 1 << 20;

fn device() -> Device {
    Device::new()
        .expect("benchmarks need an adapter (on Linux: apt-get install mesa-vulkan-drivers)")
}

fn startup(c: &mut Criterion) {
    let mut g = c.benchmark_group("startup");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("Device::new (adapter, device, all kernels)", |b| {
        b.iter(|| black_box(device()))
    });
    g.finish();
}

fn transfers(c: &mut Criterion) {
    let dev = device();
    println!("adapter: {}", dev.info());
    let mut g = c.benchmark_group("transfer");
    g.sample_size(10).measurement_time(Duration::from_secs(8));
    for mib in [1usize, 256] {
        let n = mib * MIB / 4;
        let host: Vec<f32> = (0..n).map(|i| i as f32).collect();
        g.throughput(Throughput::Bytes((mib * MIB) as u64));
        g.bench_with_input(
            BenchmarkId::new("upload", format!("{mib}MiB")),
            &host,
            |b, host| {
                b.iter(|| {
                    let a = Array::from_slice(&dev, host, &[host.len()]).unwrap();
                    dev.synchronize().unwrap();
                    a
                })
            },
        );
        let a = Array::from_slice(&dev, &host, &[n]).unwrap();
        g.bench_with_input(
            BenchmarkId::new("readback", format!("{mib}MiB")),
            &a,
            |b, a| b.iter(|| a.to_vec::<f32>().unwrap()),
        );
    }
    g.finish();
}

fn copies(c: &mut Criterion) {
    let dev = device();
    let n = 256 * MIB / 4;
    let host: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let a = Array::from_slice(&dev, &host, &[n]).unwrap();
    let square = a.reshape(&[8192, 8192]).unwrap();
    let mut g = c.benchmark_group("copy_256MiB");
    g.sample_size(10).measurement_time(Duration::from_secs(8));
    // Bytes moved = read + write.
    g.throughput(Throughput::Bytes(2 * 256 * MIB as u64));
    g.bench_function("host memcpy", |b| {
        let mut dst = vec![0f32; n];
        b.iter(|| {
            dst.copy_from_slice(black_box(&host));
            black_box(&dst);
        })
    });
    g.bench_function("device contiguous copy (buffer copy)", |b| {
        b.iter(|| {
            let c = a.astype(DType::F32).unwrap();
            dev.synchronize().unwrap();
            c
        })
    });
    g.bench_function("device reversed-view copy (copy kernel)", |b| {
        let rev = a.slice(&[SliceArg::range(None, None, -1)]).unwrap();
        b.iter(|| {
            let c = rev.contiguous().unwrap();
            dev.synchronize().unwrap();
            c
        })
    });
    g.bench_function("device transposed copy 8192x8192 (copy kernel)", |b| {
        b.iter(|| {
            let c = square.t().contiguous().unwrap();
            dev.synchronize().unwrap();
            c
        })
    });
    g.finish();
}

fn per_op_overhead(c: &mut Criterion) {
    let dev = device();
    let x0 = Array::arange(&dev, 0.0, 1024.0, 1.0, DType::F32).unwrap();
    let mut g = c.benchmark_group("10000_small_ops");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    // Each op is one launch of the strided-copy kernel on 1k elements (x = x[::-1] copied),
    // every one depending on the previous.
    let step = |x: &Array| {
        x.slice(&[SliceArg::range(None, None, -1)])
            .unwrap()
            .contiguous()
            .unwrap()
    };
    g.bench_function("one sync at the end", |b| {
        b.iter(|| {
            let mut x = x0.clone();
            for _ in 0..10_000 {
                x = step(&x);
            }
            dev.synchronize().unwrap();
            x
        })
    });
    g.bench_function("sync after every op", |b| {
        b.iter(|| {
            let mut x = x0.clone();
            for _ in 0..10_000 {
                x = step(&x);
                dev.synchronize().unwrap();
            }
            x
        })
    });
    g.finish();
}

criterion_group!(benches, startup, transfers, copies, per_op_overhead);
criterion_main!(benches);
