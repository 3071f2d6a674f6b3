//! The job that brings users here: `np.einsum('ijk,ikm->ijm', a, b)` on 500×500×500 f32, timed
//! honestly by `gpuarray::benchmark` (CPU time after synchronising, GPU time from the kernels'
//! timestamps) next to our own batched matmul on the same shapes and NumPy's einsum
//! (optimize=False and True) on the same machine; the profile table of the seed call (which
//! kernels ran, on which adapter, for how long); then three contractions that need permutes,
//! against the equivalent GEMM.
//!
//! ```text
//! cargo run --release --example einsum_seed            # B = N = 500
//! cargo run --release --example einsum_seed -- 200     # a smaller seed case
//! ```
//! On lavapipe the "GPU" is the CPU: these are CPU figures.

use gpuarray::{Array, BenchOptions, DType, Device, benchmark, einsum, einsum_path};
#[path = "support/numpy.rs"]
mod numpy;

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
    let tune = dev.matmul_tuning()?;
    println!(
        "matmul kernel: {} (tuned in {:.2} s)",
        tune.chosen,
        tune.elapsed.as_secs_f64()
    );

    // The seed case.
    let a = Array::full(&dev, &[n, n, n], 0.5, DType::F32)?;
    let b = Array::full(&dev, &[n, n, n], 0.25, DType::F32)?;
    dev.synchronize()?;
    let inputs = dev.memory_stats().in_use_bytes;
    let flops = 2.0 * (n as f64).powi(4);
    println!(
        "\nseed: timed by gpuarray::benchmark (CPU: call + synchronize; GPU: kernel timestamps)"
    );
    let (t_e, c) = best(&dev, "einsum ijk,ikm->ijm", 3, || {
        einsum("ijk,ikm->ijm", &[&a, &b])
    })?;
    let peak = dev.memory_stats().peak_bytes;
    let (t_m, _) = best(&dev, "matmul", 3, || a.matmul(&b))?;
    let wrong = c
        .to_vec::<f32>()?
        .iter()
        .filter(|&&x| x != 0.125 * n as f32)
        .count();
    println!(
        "\nseed: einsum('ijk,ikm->ijm') on ({n},{n},{n}) f32, {:.1} GFLOP",
        flops / 1e9
    );
    println!(
        "  gpuarray einsum        {:>9.3} s  {:>7.1} GFLOP/s  ({} wrong elements)",
        t_e,
        flops / t_e / 1e9,
        wrong
    );
    println!(
        "  gpuarray matmul        {:>9.3} s  {:>7.1} GFLOP/s  -> einsum at {:.0} % of matmul",
        t_m,
        flops / t_m / 1e9,
        100.0 * t_m / t_e
    );
    let out_bytes = (n * n * n * 4) as u64;
    println!(
        "  pool peak {:.0} MiB = inputs {:.0} MiB + output {:.0} MiB + {:.1} MiB other",
        mib(peak),
        mib(inputs),
        mib(out_bytes),
        mib(peak.saturating_sub(inputs + out_bytes))
    );
    numpy::print("  NumPy  ", &["seed", &n.to_string()]);
    drop(c);

    // Where did it run, and how long did each kernel take?
    let (c, profile) = dev.profile(|| einsum("ijk,ikm->ijm", &[&a, &b]))?;
    drop(c?);
    println!("\nthe seed call, profiled:\n{profile}");
    drop((a, b));

    // Contractions that need permutes, against the equivalent GEMM.
    println!(
        "\npermuted contractions (GFLOP/s, and as a fraction of matmul on the equivalent GEMM):"
    );
    let cases: [Contraction; 3] = [
        (
            "bhqd,bhkd->bhqk",
            vec![vec![4, 8, 256, 64], vec![4, 8, 256, 64]],
            [32, 256, 64, 256],
            2.0 * 32.0 * 256.0 * 256.0 * 64.0,
        ),
        (
            "abcd,dcbe->ae",
            vec![vec![256, 16, 16, 16], vec![16, 16, 16, 256]],
            [1, 256, 4096, 256],
            2.0 * 256.0 * 4096.0 * 256.0,
        ),
        (
            "ij,jk,kl->il",
            vec![vec![512, 512], vec![512, 512], vec![512, 512]],
            [2, 512, 512, 512],
            2.0 * 2.0 * 512f64.powi(3),
        ),
    ];
    for (expr, shapes, [bt, m, k, nn], fl) in cases {
        let ops: Vec<Array> = shapes
            .iter()
            .map(|s| Array::full(&dev, s, 1.0, DType::F32))
            .collect::<gpuarray::Result<_>>()?;
        let refs: Vec<&Array> = ops.iter().collect();
        let (t, _) = best(&dev, expr, 3, || einsum(expr, &refs))?;
        let ga = Array::full(&dev, &[bt, m, k], 1.0, DType::F32)?;
        let gb = Array::full(&dev, &[bt, k, nn], 1.0, DType::F32)?;
        let (tg, _) = best(&dev, "GEMM", 3, || ga.matmul(&gb))?;
        println!(
            "  {expr:<18} {:>7.1} GFLOP/s   GEMM {bt}x({m}x{k} @ {k}x{nn}) {:>7.1} GFLOP/s   {:>4.0} %",
            fl / t / 1e9,
            fl / tg / 1e9,
            100.0 * tg / t
        );
        if expr == "ij,jk,kl->il" {
            println!("{}", einsum_path(expr, &refs)?);
        }
    }
    if dev.info().device_type == "Cpu" {
        println!(
            "note: {} is a CPU adapter: these are CPU figures",
            dev.info().name
        );
    }
    Ok(())
}

/// (subscripts, operand shapes, equivalent GEMM as [batch, m, k, n], flops).
type Contraction = (&'static str, Vec<Vec<usize>>, [usize; 4], f64);

/// The fastest of `reps` runs of `f` (after one warm-up) in seconds, from `gpuarray::benchmark`
/// (each run ends with a synchronisation; its line, CPU and GPU times, is printed), and the
/// result of one more run.
fn best(
    dev: &Device,
    name: &str,
    reps: usize,
    f: impl Fn() -> gpuarray::Result<Array>,
) -> gpuarray::Result<(f64, Array)> {
    let report = benchmark(
        dev,
        &f,
        BenchOptions {
            name: name.into(),
            warmup: 1,
            repeats: reps,
            ..Default::default()
        },
    )?;
    println!("  {report}");
    Ok((report.cpu_stats().min.as_secs_f64(), f()?))
}

fn mib(b: u64) -> f64 {
    b as f64 / (1 << 20) as f64
}
