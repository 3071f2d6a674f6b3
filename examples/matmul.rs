//! Matmul figures in one run: our kernels against a naive WGSL kernel and NumPy on the same
//! machine.
//!
//! ```text
//! cargo run --release --example matmul            # all sizes
//! cargo run --release --example matmul -- quick   # 512³ and 128x128³ only
//! cargo run --release --example matmul -- big     # one 10000 x 10000 f32 product (400 MB operands)
//! cargo run --release --example matmul -- narrow  # C under 8 columns or rows (GEMV per column)
//!                                                 # and a K past one binding, vs the tiled kernel
//! ```
//! Every time comes from `gpuarray::benchmark` (each run ends with a synchronisation); the best
//! of several runs after a warm-up. On
//! lavapipe the "GPU" is the CPU, so these are CPU figures.

use gpuarray::{Array, BenchOptions, DType, Device, MatmulKernel, benchmark};
#[path = "support/numpy.rs"]
mod numpy;
use std::time::Instant;

fn main() -> gpuarray::Result<()> {
    let quick = std::env::args().any(|a| a == "quick");
    let dev = Device::new()?;
    // The start-up plan compiles on every core in the background: wait for it, so that no
    // figure below shares the CPU with it (lavapipe's kernels run on those cores).
    dev.wait_compiled()?;
    println!("adapter: {}", dev.info());
    if std::env::args().any(|a| a == "big") {
        return big(&dev);
    }
    if std::env::args().any(|a| a == "narrow") {
        return narrow(&dev);
    }
    let t = Instant::now();
    let tune = dev.matmul_tuning()?;
    println!(
        "tune at first use: {:.2} s (kernel compilation included), problem {:?}",
        t.elapsed().as_secs_f64(),
        tune.shape
    );
    for (k, g) in &tune.candidates {
        println!("  candidate {k}: {g:.1} GFLOP/s");
    }
    println!("  chosen: {}", tune.chosen);
    println!();
    println!(
        "{:<14} {:>10} {:>12} {:>10} {:>14}  kernel",
        "shape", "ms", "GFLOP/s", "naive", "NumPy f32"
    );
    let squares: &[usize] = if quick { &[512] } else { &[512, 1024, 2048] };
    for &n in squares {
        let a = Array::full(&dev, &[n, n], 0.5, DType::F32)?;
        let b = Array::full(&dev, &[n, n], 0.25, DType::F32)?;
        let (ms, g) = time(&dev, 3, || a.matmul(&b))?;
        let naive = if n <= 2048 {
            time(&dev, 1, || a.matmul_with(&b, MatmulKernel::Naive))?.1
        } else {
            f64::NAN
        };
        let np = numpy_value(&["matmul", &n.to_string()], "numpy_matmul_float32");
        println!(
            "{:<14} {ms:>10.1} {g:>12.1} {naive:>10.2} {:>14}  {}",
            format!("{n}³"),
            np,
            kernel_for(&tune, n, n)
        );
        check(&a.matmul(&b)?, n, 0.125 * n as f32)?;
    }
    let batches: &[usize] = if quick { &[128] } else { &[128, 256, 500] };
    for &bn in batches {
        let a = Array::full(&dev, &[bn, bn, bn], 0.5, DType::F32)?;
        let b = Array::full(&dev, &[bn, bn, bn], 0.25, DType::F32)?;
        let (ms, g) = time(&dev, 3, || a.matmul(&b))?;
        // The naive kernel on a slice of the batch (same per-matrix work), so the run stays short.
        let part = bn.min(50);
        let sa = a.slice(&[gpuarray::SliceArg::range(None, Some(part as isize), 1)])?;
        let sb = b.slice(&[gpuarray::SliceArg::range(None, Some(part as isize), 1)])?;
        let naive = time(&dev, 1, || sa.matmul_with(&sb, MatmulKernel::Naive))?.1;
        let np = numpy_value(&["seed", &bn.to_string()], "numpy_matmul_batched");
        let label = format!("{bn}x{bn}³");
        let note = if part < bn {
            format!(" (naive on {part} of {bn} batches)")
        } else {
            String::new()
        };
        println!(
            "{label:<14} {ms:>10.1} {g:>12.1} {naive:>10.2} {np:>14}  {}{note}",
            kernel_for(&tune, bn, bn)
        );
        check(&a.matmul(&b)?, bn, 0.125 * bn as f32)?;
    }
    if dev.info().device_type == "Cpu" {
        println!(
            "\nnote: {} is a CPU adapter: these are CPU figures",
            dev.info().name
        );
    }
    Ok(())
}

/// Products whose C has fewer than 8 columns or rows (a tall QR's Vᵀ·A and A·T, a regression's
/// Aᵀ·b with a few right-hand sides): the default (a GEMV launch per column of C) against the
/// tiled kernel forced, and NumPy, each checked exactly (small integers).
fn narrow(dev: &Device) -> gpuarray::Result<()> {
    println!(
        "{:<20} {:>12} {:>12} {:>10} {:>12}",
        "m x k x n", "default ms", "tiled ms", "speed-up", "NumPy ms"
    );
    for (m, k, n) in [
        (300_000usize, 4usize, 4usize),
        (4, 300_000, 4),
        (100_000, 64, 7),
        (7, 100_000, 7),
        (2048, 2048, 4),
        (4, 2048, 2048),
        // Not narrow: a K past one binding for 64 rows of A (lavapipe's 128 MiB), which the
        // subgroup kernel takes in chunks of K.
        (48, 838_861, 40),
    ] {
        let ha: Vec<f32> = (0..m * k).map(|i| ((i * 7) % 5) as f32 - 2.0).collect();
        let hb: Vec<f32> = (0..k * n).map(|i| ((i * 3) % 5) as f32 - 2.0).collect();
        let a = Array::from_slice(dev, &ha, &[m, k])?;
        let b = Array::from_slice(dev, &hb, &[k, n])?;
        let reps = if m * k * n > 1 << 30 { 1 } else { 3 };
        let (ours, _) = time(dev, reps, || a.matmul(&b))?;
        let (tiled, _) = time(dev, reps, || a.matmul_with(&b, MatmulKernel::Tiled))?;
        let got = a.matmul(&b)?.to_vec::<f32>()?;
        if got != a.matmul_with(&b, MatmulKernel::Tiled)?.to_vec::<f32>()? {
            eprintln!("WRONG: {m}x{k}x{n}: the default and tiled products differ (both exact)");
            std::process::exit(1);
        }
        let setup = format!(
            "a = ((np.arange({m} * {k}) * 7) % 5 - 2).astype(np.float32).reshape({m}, {k})\n\
             b = ((np.arange({k} * {n}) * 3) % 5 - 2).astype(np.float32).reshape({k}, {n})"
        );
        let np = numpy::best_ms(&setup, "a @ b", 5)
            .map(|v| format!("{v:.2}"))
            .unwrap_or_else(|| "-".into());
        println!(
            "{:<20} {ours:>12.2} {tiled:>12.2} {:>9.1}x {np:>12}",
            format!("{m} x {k} x {n}"),
            tiled / ours
        );
    }
    Ok(())
}

/// One 10000 x 10000 f32 product: operands beyond the binding limit, checked on sampled entries.
fn big(dev: &Device) -> gpuarray::Result<()> {
    let n = 10_000usize;
    let ha: Vec<f32> = (0..n * n).map(|i| ((i * 7) % 11) as f32 - 5.0).collect();
    let hb: Vec<f32> = (0..n * n).map(|i| ((i * 3) % 7) as f32 - 3.0).collect();
    let a = Array::from_slice(dev, &ha, &[n, n])?;
    let b = Array::from_slice(dev, &hb, &[n, n])?;
    // One timed run (no warm-up: the product takes minutes on a CPU adapter).
    let mut product = None;
    let report = benchmark(
        dev,
        || {
            product = Some(a.matmul(&b)?);
            Ok(())
        },
        BenchOptions {
            name: "10000 x 10000 f32 matmul".into(),
            warmup: 0,
            repeats: 1,
            ..Default::default()
        },
    )?;
    println!("{report}");
    let s = report.cpu_stats().min.as_secs_f64();
    println!(
        "10000 x 10000 f32 matmul: {s:.1} s, {:.1} GFLOP/s",
        2.0 * (n as f64).powi(3) / s / 1e9
    );
    let c = product.expect("the benchmark ran once");
    let got = c.to_vec::<f32>()?;
    let mut wrong = 0;
    for &(i, j) in &[
        (0usize, 0usize),
        (1, 9_999),
        (5_000, 1234),
        (9_999, 9_999),
        (7_777, 3),
    ] {
        let want: f64 = (0..n)
            .map(|k| ha[i * n + k] as f64 * hb[k * n + j] as f64)
            .sum();
        if got[i * n + j] as f64 != want {
            wrong += 1;
            eprintln!(
                "c[{i}, {j}] = {} but the f64 dot product is {want}",
                got[i * n + j]
            );
        }
    }
    println!("sampled entries: {} of 5 exact", 5 - wrong);
    if wrong > 0 {
        std::process::exit(1);
    }
    Ok(())
}

/// Best time in ms and GFLOP/s of `f` (a matmul): `gpuarray::benchmark`, one warm-up run,
/// then `reps` runs each ended by a synchronisation; the fastest CPU time counts.
fn time(
    dev: &Device,
    reps: usize,
    f: impl Fn() -> gpuarray::Result<Array>,
) -> gpuarray::Result<(f64, f64)> {
    let c = f()?;
    let flops = 2.0 * c.len() as f64 * flops_k(&c);
    drop(c);
    let report = benchmark(
        dev,
        f,
        BenchOptions {
            warmup: 0,
            repeats: reps,
            ..Default::default()
        },
    )?;
    let best = report.cpu_stats().min.as_secs_f64();
    Ok((best * 1e3, flops / best / 1e9))
}

/// K for the square problems here equals the last axis of C.
fn flops_k(c: &Array) -> f64 {
    *c.shape().last().unwrap() as f64
}

fn kernel_for(t: &gpuarray::MatmulTuning, m: usize, n: usize) -> String {
    if m >= 64 && n >= 64 {
        t.chosen.to_string()
    } else {
        "tiled".into()
    }
}

/// Spot-checks the product of constant matrices (exact in f32 for these sizes).
fn check(c: &Array, n: usize, want: f32) -> gpuarray::Result<()> {
    let v = c.to_vec::<f32>()?;
    let bad = v.iter().filter(|&&x| x != want).count();
    if bad > 0 {
        eprintln!("WRONG: {bad} elements of the {n} product differ from {want}");
        std::process::exit(1);
    }
    Ok(())
}

/// NumPy's value for `key` from the shared baseline script, or why there is none.
fn numpy_value(args: &[&str], key: &str) -> String {
    match numpy::baseline(args) {
        Ok(lines) => numpy::value(&lines, key).unwrap_or_else(|| "n/a".into()),
        Err(_) => "n/a (no numpy)".into(),
    }
}
