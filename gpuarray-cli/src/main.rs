//! `gpuarray`: the library's adapters, contractions and benchmark figures from a shell.
//!
//! ```text
//! gpuarray info                                        # adapters, features, limits, dtypes
//! gpuarray einsum "ijk,ikm->ijm" a.npy b.npy -o c.npy --path
//! gpuarray matmul a.npy b.npy -o c.npy
//! gpuarray random normal 1000 1000 --seed 42 -o x.npy
//! gpuarray bench all --json                            # BENCHMARKS.md's headline figures
//! gpuarray bench all --chart bench.svg                 # ... and as a chart
//! gpuarray chart figures.json -o chart.svg             # the chart of a recorded --json run
//! ```
//!
//! Errors are one line on stderr, `gpuarray: error: ...`, with a non-zero exit code.

mod bench;
mod chart;
mod compute;
mod info;

use clap::{Parser, Subcommand};
use gpuarray::{Backend, CompileMode, DType, Device, DeviceConfig};
use std::path::PathBuf;
use std::process::ExitCode;

/// What a command returns: its error is the one line printed after `gpuarray: error: `.
pub type CliResult<T> = Result<T, String>;

#[derive(Parser, Debug)]
#[command(
    name = "gpuarray",
    version,
    about = "NumPy-style arrays on any GPU: adapters, einsum/matmul/random on .npy files, benchmarks"
)]
struct Cli {
    /// Use the adapter whose name contains this (case-insensitive); as GPUARRAY_ADAPTER.
    #[arg(long, global = true, value_name = "NAME")]
    adapter: Option<String>,
    /// Use this backend: vulkan, metal, dx12 or gl; as GPUARRAY_BACKEND.
    #[arg(long, global = true, value_name = "BACKEND", value_parser = parse_backend)]
    backend: Option<Backend>,
    /// Use a CPU adapter (lavapipe, WARP); as GPUARRAY_FORCE_FALLBACK=1.
    #[arg(long, global = true)]
    force_fallback: bool,
    /// Print one line per kernel launch on stderr; as GPUARRAY_LOG=1.
    #[arg(long, global = true)]
    log: bool,
    /// Which kernels compile at start: eager, families or lazy; as GPUARRAY_COMPILE. Default:
    /// lazy for one computation (it compiles only what it runs), eager for bench (which waits
    /// for the whole plan before timing anything).
    #[arg(long, global = true, value_name = "MODE", value_parser = parse_compile)]
    compile: Option<CompileMode>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Every adapter wgpu finds: name, backend, type, driver, features, limits, dtypes, and
    /// which one the other commands would use.
    Info {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// numpy.einsum on .npy files, timed after synchronising.
    Einsum {
        /// The subscripts, e.g. "ijk,ikm->ijm".
        subscripts: String,
        /// One .npy file per operand.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        #[command(flatten)]
        run: compute::RunArgs,
        /// Print the contraction path (numpy.einsum_path's report).
        #[arg(long)]
        path: bool,
    },
    /// numpy.matmul of two .npy files, timed after synchronising.
    Matmul {
        /// The left operand (.npy).
        a: PathBuf,
        /// The right operand (.npy).
        b: PathBuf,
        #[command(flatten)]
        run: compute::RunArgs,
    },
    /// Random numbers made on the device (Philox4x32-10): normal, uniform or integers.
    Random {
        #[command(subcommand)]
        dist: compute::Distribution,
    },
    /// BENCHMARKS.md's headline figures on this machine, with NumPy's beside them when
    /// python3 has numpy.
    Bench {
        /// Which figures.
        #[arg(value_enum, default_value = "all")]
        which: bench::Which,
        /// Problem sizes: full (BENCHMARKS.md's: seed 500, matmul 1024, 2^26 normals, 2^24
        /// elements), small, or tiny (for tests).
        #[arg(long, value_enum, default_value = "full")]
        size: bench::Size,
        /// Timed repeats per figure (the best is reported).
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
        repeats: u32,
        /// Leave NumPy out.
        #[arg(long)]
        no_numpy: bool,
        /// Print JSON for scripts instead of the table.
        #[arg(long)]
        json: bool,
        /// Also draw the figures beside NumPy's as a chart (SVG) in this file.
        #[arg(long, value_name = "FILE")]
        chart: Option<PathBuf>,
    },
    /// Draws the figures of a recorded `bench --json` run as a chart (SVG).
    Chart {
        /// The JSON that `gpuarray bench --json` printed.
        figures: PathBuf,
        /// Where the chart goes.
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
    },
}

fn parse_compile(s: &str) -> Result<CompileMode, String> {
    CompileMode::parse(s)
        .ok_or_else(|| format!("unknown compile mode {s:?}: expected eager, families or lazy"))
}

fn parse_backend(s: &str) -> Result<Backend, String> {
    Backend::parse(s)
        .ok_or_else(|| format!("unknown backend {s:?}: expected vulkan, metal, dx12 or gl"))
}

/// `f32`, `float32`, `u8`, `uint8`, ... → the dtype (gpuarray's short names and NumPy's).
pub fn parse_dtype(s: &str) -> Result<DType, String> {
    let s = s.trim().to_ascii_lowercase();
    match s.as_str() {
        "half" => return Ok(DType::F16),
        "double" => return Ok(DType::F64),
        _ => {}
    }
    DType::ALL
        .into_iter()
        .find(|d| d.name() == s || d.numpy_name() == s)
        .ok_or_else(|| {
            let names: Vec<&str> = DType::ALL.iter().map(|d| d.name()).collect();
            format!("unknown dtype {s:?}: expected one of {}", names.join(", "))
        })
}

/// The environment's device configuration with the command line's adapter options on top.
fn config(cli: &Cli) -> CliResult<DeviceConfig> {
    let mut config = DeviceConfig::from_env().map_err(|e| e.to_string())?;
    if let Some(b) = cli.backend {
        config.options.backend = Some(b);
    }
    if let Some(name) = &cli.adapter {
        config.options.adapter_name = Some(name.clone());
    }
    if cli.force_fallback {
        config.options.force_fallback = true;
    }
    config.compile = match cli.compile {
        Some(mode) => mode,
        None if std::env::var_os("GPUARRAY_COMPILE").is_some() => config.compile,
        None if matches!(cli.command, Command::Bench { .. }) => CompileMode::Eager,
        None => CompileMode::Lazy,
    };
    Ok(config)
}

/// The device the commands run on.
pub fn device(config: &DeviceConfig) -> CliResult<Device> {
    Device::with_config(config.clone()).map_err(|e| e.to_string())
}

fn run(cli: Cli) -> CliResult<()> {
    if cli.log {
        // The launch log has no DeviceConfig field: it is read from the environment when the
        // device starts, before any other thread exists.
        std::env::set_var("GPUARRAY_LOG", "1");
    }
    let config = config(&cli)?;
    match cli.command {
        Command::Info { json } => info::run(&config.options, json),
        Command::Einsum {
            subscripts,
            inputs,
            run,
            path,
        } => compute::einsum(&device(&config)?, &subscripts, &inputs, &run, path),
        Command::Matmul { a, b, run } => compute::matmul(&device(&config)?, &a, &b, &run),
        Command::Random { dist } => compute::random(&device(&config)?, &dist),
        Command::Bench {
            which,
            size,
            repeats,
            no_numpy,
            json,
            chart,
        } => bench::run(
            &device(&config)?,
            bench::Options {
                which,
                size,
                repeats,
                with_numpy: !no_numpy,
                json,
                chart,
            },
        ),
        Command::Chart { figures, output } => chart::run(&figures, &output),
    }
}

/// One line: newlines of multi-line messages become "; ".
fn one_line(msg: &str) -> String {
    msg.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion)
                || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            {
                let _ = e.print();
                return if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                    ExitCode::from(2)
                } else {
                    ExitCode::SUCCESS
                };
            }
            // clap's message ("error: ..." and the lines it names) without the usage block.
            let text = e.render().to_string();
            let head = text.split("\n\n").next().unwrap_or("invalid arguments");
            let head = head.trim().trim_start_matches("error: ");
            let words: Vec<&str> = head.split_whitespace().collect();
            eprintln!("gpuarray: error: {} (see gpuarray --help)", words.join(" "));
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("gpuarray: error: {}", one_line(&msg));
            ExitCode::FAILURE
        }
    }
}
