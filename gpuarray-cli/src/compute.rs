//! `gpuarray einsum | matmul | random`: load `.npy` operands, run on the device, time it after
//! synchronising (`gpuarray::benchmark`), and save the result (or print it).

use crate::{parse_dtype, CliResult};
use clap::{Args, Subcommand};
use gpuarray::random::Generator;
use gpuarray::{benchmark, Array, BenchOptions, DType, Device};
use std::path::{Path, PathBuf};

/// Options of the commands that compute something.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// Where to save the result (.npy); without it the result is printed.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Convert the operands to this dtype first (f32, f16, f64, i32, u32, i64, u8, ...).
    #[arg(long, value_parser = parse_dtype)]
    dtype: Option<DType>,
    /// Timed runs (after one untimed warm-up run).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    repeats: u32,
}

/// The distributions of `gpuarray random`.
#[derive(Subcommand, Debug)]
pub enum Distribution {
    /// Normal samples (Box-Muller on Philox4x32-10, cuRAND's layout).
    Normal {
        /// The shape, e.g. `1000 1000`.
        #[arg(required = true)]
        shape: Vec<usize>,
        /// The mean.
        #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
        mean: f64,
        /// The standard deviation.
        #[arg(long, default_value_t = 1.0)]
        std: f64,
        #[command(flatten)]
        common: RandomArgs,
    },
    /// Uniform samples in [low, high).
    Uniform {
        /// The shape.
        #[arg(required = true)]
        shape: Vec<usize>,
        /// The lower bound.
        #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
        low: f64,
        /// The upper bound (excluded).
        #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
        high: f64,
        #[command(flatten)]
        common: RandomArgs,
    },
    /// Integers in [low, high), exact (Lemire's method with rejection).
    Integers {
        /// The shape.
        #[arg(required = true)]
        shape: Vec<usize>,
        /// The lower bound.
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        low: i64,
        /// The upper bound (excluded).
        #[arg(long, allow_negative_numbers = true)]
        high: i64,
        #[command(flatten)]
        common: RandomArgs,
    },
}

/// What every distribution takes.
#[derive(Args, Debug)]
pub struct RandomArgs {
    /// The Philox seed: the same seed gives the same numbers on every adapter.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The dtype (default f32; i32 for integers).
    #[arg(long, value_parser = parse_dtype)]
    dtype: Option<DType>,
    /// Where to save the samples (.npy); without it they are printed.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

fn err(e: gpuarray::Error) -> String {
    e.to_string()
}

fn load(dev: &Device, path: &Path, dtype: Option<DType>) -> CliResult<Array> {
    let a = Array::load_npy(dev, path).map_err(err)?;
    match dtype {
        Some(d) if d != a.dtype() => a.astype(d).map_err(err),
        _ => Ok(a),
    }
}

/// Saves `a` to `output`, or prints it.
fn emit(a: &Array, output: Option<&Path>) -> CliResult<()> {
    match output {
        Some(path) => {
            a.save_npy(path).map_err(err)?;
            println!("wrote {} ({:?} {})", path.display(), a.shape(), a.dtype());
        }
        None => println!("{}", a.format(&Default::default()).map_err(err)?),
    }
    Ok(())
}

/// Times `f` (one warm-up, `repeats` timed runs, each ending after the device finished) and
/// returns its last result with the report.
fn timed(
    dev: &Device,
    name: &str,
    repeats: u32,
    mut f: impl FnMut() -> gpuarray::Result<Array>,
) -> CliResult<(Array, gpuarray::BenchReport)> {
    let mut last = None;
    let report = benchmark(
        dev,
        || {
            let out = f()?;
            last = Some(out.clone());
            Ok(out)
        },
        BenchOptions {
            name: name.to_string(),
            warmup: 1,
            repeats: repeats as usize,
            ..Default::default()
        },
    )
    .map_err(err)?;
    let out = last.ok_or("the benchmark ran nothing")?;
    Ok((out, report))
}

fn print_timing(dev: &Device, report: &gpuarray::BenchReport, flops: Option<f64>) {
    println!("ran on: {}", dev.info());
    println!("{report}");
    let best = report.cpu_stats().min.as_secs_f64();
    if let Some(flops) = flops.filter(|_| best > 0.0) {
        println!(
            "best: {:.3} ms, {:.2} GFLOP/s (CPU wall time including synchronisation)",
            best * 1e3,
            flops / best / 1e9
        );
    }
}

pub fn einsum(
    dev: &Device,
    subscripts: &str,
    inputs: &[PathBuf],
    run: &RunArgs,
    show_path: bool,
) -> CliResult<()> {
    let operands: Vec<Array> = inputs
        .iter()
        .map(|p| load(dev, p, run.dtype))
        .collect::<CliResult<_>>()?;
    let refs: Vec<&Array> = operands.iter().collect();
    let path = gpuarray::einsum_path(subscripts, &refs).map_err(err)?;
    if show_path {
        println!("{path}");
    }
    let name = format!("einsum {subscripts}");
    let (out, report) = timed(dev, &name, run.repeats, || {
        gpuarray::einsum(subscripts, &refs)
    })?;
    print_timing(dev, &report, Some(path.optimized_flops as f64));
    emit(&out, run.output.as_deref())
}

pub fn matmul(dev: &Device, a: &Path, b: &Path, run: &RunArgs) -> CliResult<()> {
    let (a, b) = (load(dev, a, run.dtype)?, load(dev, b, run.dtype)?);
    let (out, report) = timed(dev, "matmul", run.repeats, || a.matmul(&b))?;
    // Every output element is a dot product over a's last axis.
    let k = a.shape().last().copied().unwrap_or(1);
    print_timing(dev, &report, Some(2.0 * out.len() as f64 * k as f64));
    emit(&out, run.output.as_deref())
}

pub fn random(dev: &Device, dist: &Distribution) -> CliResult<()> {
    let (shape, common) = match dist {
        Distribution::Normal { shape, common, .. }
        | Distribution::Uniform { shape, common, .. }
        | Distribution::Integers { shape, common, .. } => (shape, common),
    };
    let mut g = Generator::new(dev, common.seed);
    let out = match dist {
        Distribution::Normal { mean, std, .. } => {
            g.normal(*mean, *std, shape, common.dtype.unwrap_or(DType::F32))
        }
        Distribution::Uniform { low, high, .. } => {
            g.uniform(*low, *high, shape, common.dtype.unwrap_or(DType::F32))
        }
        Distribution::Integers { low, high, .. } => {
            g.integers(*low, *high, shape, common.dtype.unwrap_or(DType::I32))
        }
    }
    .map_err(err)?;
    dev.synchronize().map_err(err)?;
    emit(&out, common.output.as_deref())
}
