//! `gpuarray bench`: BENCHMARKS.md's headline figures — the seed einsum `ijk,ikm->ijm`, matmul
//! GFLOP/s, `standard_normal` G samples/s, `add`/`sum` GB/s — timed with `gpuarray::benchmark`
//! (every repeat ends after the device finished), and NumPy's figures for the same work beside
//! them when `python3` has numpy (a snippet run the way `examples/support/numpy.rs` runs
//! NumPy: OpenBLAS's tuning variables removed for the child only).

use crate::CliResult;
use clap::ValueEnum;
use gpuarray::random::Generator;
use gpuarray::{benchmark, Array, BenchOptions, DType, Device};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use std::process::Command;

/// Which figures to measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Which {
    /// The seed contraction `ijk,ikm->ijm` (n, n, n) x (n, n, n), f32.
    Seed,
    /// A square f32 matmul.
    Matmul,
    /// `standard_normal` f32 samples.
    Random,
    /// `add` of two f32 arrays and `sum` of one.
    Ops,
    /// All of the above.
    All,
}

/// Problem sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Size {
    /// BENCHMARKS.md's: seed n = 500, matmul 1024, 2^26 normals, 2^24 elements.
    Full,
    /// Seed 128, matmul 256, 2^22 normals, 2^22 elements.
    Small,
    /// Seed 16, matmul 64, 2^14 normals, 2^14 elements (for tests).
    Tiny,
}

struct Sizes {
    seed: usize,
    matmul: usize,
    normals: usize,
    elements: usize,
}

impl Size {
    fn sizes(self) -> Sizes {
        match self {
            Size::Full => Sizes {
                seed: 500,
                matmul: 1024,
                normals: 1 << 26,
                elements: 1 << 24,
            },
            Size::Small => Sizes {
                seed: 128,
                matmul: 256,
                normals: 1 << 22,
                elements: 1 << 22,
            },
            Size::Tiny => Sizes {
                seed: 16,
                matmul: 64,
                normals: 1 << 14,
                elements: 1 << 14,
            },
        }
    }
}

/// One measured figure.
struct Figure {
    key: &'static str,
    what: String,
    unit: &'static str,
    /// Work per call, in the unit's numerator (FLOP, samples, bytes), over 1e9.
    work: f64,
    /// Best CPU wall time of a call (synchronised), in seconds.
    wall: f64,
    /// Best GPU time (timestamp queries), when the adapter has them.
    gpu: Option<f64>,
    numpy: Option<f64>,
}

impl Figure {
    fn value(&self) -> f64 {
        self.work / self.wall
    }
}

/// NumPy's side: the same work, best of `repeats` after a warm-up, one `name value` line each.
const NUMPY: &str = r#"
import sys, time
import numpy as np
which = sys.argv[1].split(",")
n_seed, n_mm, n_rand, n_el, reps = (int(x) for x in sys.argv[2:7])
def best(f):
    f()
    ts = []
    for _ in range(reps):
        s = time.perf_counter(); f(); ts.append(time.perf_counter() - s)
    return min(ts)
rng = np.random.default_rng(0)
print("version", np.__version__)
if "seed" in which:
    a = rng.random((n_seed,) * 3, dtype=np.float32)
    b = rng.random((n_seed,) * 3, dtype=np.float32)
    print("seed", 2 * n_seed**4 / best(lambda: np.einsum("ijk,ikm->ijm", a, b)) / 1e9)
if "matmul" in which:
    a = rng.random((n_mm, n_mm), dtype=np.float32)
    b = rng.random((n_mm, n_mm), dtype=np.float32)
    print("matmul", 2 * n_mm**3 / best(lambda: a @ b) / 1e9)
if "random" in which:
    g = np.random.default_rng(42)
    print("random", n_rand / best(lambda: g.standard_normal(n_rand, dtype=np.float32)) / 1e9)
x = rng.random(n_el, dtype=np.float32)
y = rng.random(n_el, dtype=np.float32)
if "add" in which:
    print("add", 12 * n_el / best(lambda: x + y) / 1e9)
if "sum" in which:
    print("sum", 4 * n_el / best(lambda: x.sum()) / 1e9)
"#;

/// NumPy's figures by key and its version, or why there are none.
fn numpy_figures(
    keys: &[&str],
    s: &Sizes,
    repeats: u32,
) -> Result<(String, Vec<(String, f64)>), String> {
    let out = Command::new("python3")
        .args(["-c", NUMPY, &keys.join(",")])
        .args([s.seed, s.matmul, s.normals, s.elements, repeats as usize].map(|n| n.to_string()))
        .env_remove("OPENBLAS_CORETYPE")
        .env_remove("OPENBLAS_L2_SIZE")
        .output()
        .map_err(|e| format!("python3 did not run: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "needs python3 with numpy ({})",
            err.trim().lines().last().unwrap_or("no message")
        ));
    }
    let mut version = String::new();
    let mut figures = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        match line.split_once(' ') {
            Some(("version", v)) => version = v.to_string(),
            Some((k, v)) => {
                let v: f64 = v
                    .trim()
                    .parse()
                    .map_err(|_| format!("NumPy printed {line:?}"))?;
                figures.push((k.to_string(), v));
            }
            None => {}
        }
    }
    Ok((version, figures))
}

/// Times `f` and returns (best wall seconds, best GPU seconds).
fn time(
    dev: &Device,
    name: &str,
    repeats: u32,
    f: impl FnMut() -> gpuarray::Result<Array>,
) -> CliResult<(f64, Option<f64>)> {
    let r = benchmark(
        dev,
        f,
        BenchOptions {
            name: name.to_string(),
            warmup: 1,
            repeats: repeats as usize,
            ..Default::default()
        },
    )
    .map_err(|e| e.to_string())?;
    let wall = r.cpu_stats().min.as_secs_f64().max(1e-9);
    let gpu = r
        .gpu_stats()
        .map(|s| s.min.as_secs_f64())
        .filter(|&t| t > 0.0);
    Ok((wall, gpu))
}

/// What `gpuarray bench` was asked for.
pub struct Options {
    pub which: Which,
    pub size: Size,
    pub repeats: u32,
    pub with_numpy: bool,
    pub json: bool,
    /// Also write the figures as a chart (SVG) here.
    pub chart: Option<std::path::PathBuf>,
}

pub fn run(dev: &Device, o: Options) -> CliResult<()> {
    let Options {
        which,
        size,
        repeats,
        with_numpy,
        json,
        chart,
    } = o;
    // No timed run may include a compile: the whole start-up plan first.
    dev.wait_compiled().map_err(|e| e.to_string())?;
    let s = size.sizes();
    let wanted = |w: Which| which == Which::All || which == w;
    let mut keys = Vec::new();
    for (w, ks) in [
        (Which::Seed, &["seed"][..]),
        (Which::Matmul, &["matmul"][..]),
        (Which::Random, &["random"][..]),
        (Which::Ops, &["add", "sum"][..]),
    ] {
        if wanted(w) {
            keys.extend_from_slice(ks);
        }
    }
    let steps = keys.len() as u64 + u64::from(with_numpy);
    let bar = if json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(steps)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} {msg} ({elapsed})")
            .map_err(|e| e.to_string())?,
    );
    let err = |e: gpuarray::Error| e.to_string();
    let mut g = Generator::new(dev, 1);
    let mut figures = Vec::new();
    for &key in &keys {
        bar.set_message(format!("gpuarray {key}"));
        let fig = match key {
            "seed" => {
                let n = s.seed;
                let a = g.random(&[n, n, n], DType::F32).map_err(err)?;
                let b = g.random(&[n, n, n], DType::F32).map_err(err)?;
                let (wall, gpu) = time(dev, "seed einsum", repeats, || {
                    gpuarray::einsum("ijk,ikm->ijm", &[&a, &b])
                })?;
                Figure {
                    key,
                    what: format!("einsum ijk,ikm->ijm ({n}, {n}, {n}) f32"),
                    unit: "GFLOP/s",
                    work: 2.0 * (n as f64).powi(4) / 1e9,
                    wall,
                    gpu,
                    numpy: None,
                }
            }
            "matmul" => {
                let n = s.matmul;
                let a = g.random(&[n, n], DType::F32).map_err(err)?;
                let b = g.random(&[n, n], DType::F32).map_err(err)?;
                let (wall, gpu) = time(dev, "matmul", repeats, || a.matmul(&b))?;
                Figure {
                    key,
                    what: format!("matmul {n}x{n} @ {n}x{n} f32"),
                    unit: "GFLOP/s",
                    work: 2.0 * (n as f64).powi(3) / 1e9,
                    wall,
                    gpu,
                    numpy: None,
                }
            }
            "random" => {
                let n = s.normals;
                let mut r = Generator::new(dev, 42);
                let (wall, gpu) = time(dev, "standard_normal", repeats, || {
                    r.standard_normal(&[n], DType::F32)
                })?;
                Figure {
                    key,
                    what: format!("standard_normal {n} f32"),
                    unit: "G samples/s",
                    work: n as f64 / 1e9,
                    wall,
                    gpu,
                    numpy: None,
                }
            }
            "add" | "sum" => {
                let n = s.elements;
                let x = g.random(&[n], DType::F32).map_err(err)?;
                let y = g.random(&[n], DType::F32).map_err(err)?;
                let (what, bytes, (wall, gpu)) = if key == "add" {
                    (
                        format!("add {n} + {n} f32 (12 bytes/element)"),
                        12.0,
                        time(dev, "add", repeats, || x.add(&y))?,
                    )
                } else {
                    (
                        format!("sum {n} f32 (4 bytes/element)"),
                        4.0,
                        time(dev, "sum", repeats, || x.sum(gpuarray::Axes::All, false))?,
                    )
                };
                Figure {
                    key,
                    what,
                    unit: "GB/s",
                    work: bytes * n as f64 / 1e9,
                    wall,
                    gpu,
                    numpy: None,
                }
            }
            _ => unreachable!("keys come from the table above"),
        };
        figures.push(fig);
        bar.inc(1);
    }
    let numpy = if with_numpy {
        bar.set_message("NumPy");
        let r = numpy_figures(&keys, &s, repeats);
        bar.inc(1);
        Some(r)
    } else {
        None
    };
    bar.finish_and_clear();
    let mut numpy_version = None;
    let mut numpy_skipped = None;
    match numpy {
        Some(Ok((version, values))) => {
            for f in &mut figures {
                f.numpy = values.iter().find(|(k, _)| k == f.key).map(|(_, v)| *v);
            }
            numpy_version = Some(version);
        }
        Some(Err(why)) => numpy_skipped = Some(why),
        None => numpy_skipped = Some("--no-numpy".to_string()),
    }
    let info = dev.info();
    let cpu_adapter = info.device_type == "Cpu";
    if let Some(path) = &chart {
        let bars: Vec<crate::chart::Bar> = figures
            .iter()
            .map(|f| crate::chart::Bar {
                label: f.what.clone(),
                unit: f.unit.to_string(),
                ours: f.value(),
                numpy: f.numpy,
            })
            .collect();
        crate::chart::write(path, &info.to_string(), &bars)?;
    }
    if json {
        let figs: Vec<_> = figures
            .iter()
            .map(|f| {
                json!({
                    "figure": f.key,
                    "what": f.what,
                    "unit": f.unit,
                    "gpuarray": f.value(),
                    "gpuarray_best_wall_s": f.wall,
                    "gpuarray_gpu_time": f.gpu.map(|t| f.work / t),
                    "numpy": f.numpy,
                })
            })
            .collect();
        let out = json!({
            "adapter": info.to_string(),
            "adapter_type": info.device_type,
            "cpu_figures": cpu_adapter,
            "repeats": repeats,
            "numpy_version": numpy_version,
            "numpy_skipped": numpy_skipped,
            "figures": figs,
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?
        );
        return Ok(());
    }
    println!("adapter: {info}");
    if cpu_adapter {
        println!("(a CPU adapter: every gpuarray figure below is a CPU figure)");
    }
    let numpy_head = match (&numpy_version, &numpy_skipped) {
        (Some(v), _) => format!("NumPy {v}"),
        (None, Some(why)) => format!("NumPy (skipped: {why})"),
        (None, None) => "NumPy".to_string(),
    };
    println!(
        "best of {repeats}, wall time after synchronising (GPU time from timestamps in brackets)"
    );
    println!("{:<48} {:>24} {:>14}", "figure", "gpuarray", numpy_head);
    for f in &figures {
        let gpu = f
            .gpu
            .map(|t| format!(" [{:.2}]", f.work / t))
            .unwrap_or_default();
        let ours = format!("{:.2}{gpu} {}", f.value(), f.unit);
        let theirs = f
            .numpy
            .map(|v| format!("{v:.2} {}", f.unit))
            .unwrap_or_else(|| "-".into());
        println!("{:<48} {ours:>24} {theirs:>14}", f.what);
    }
    if keys.contains(&"seed") && numpy_version.is_some() {
        println!("(NumPy's einsum runs with its default, optimize=False)");
    }
    Ok(())
}
