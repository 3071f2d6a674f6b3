//! The first thing to run: which adapter is in use, then a round trip — upload, compute on the
//! GPU, read back — with honest timings from `gpuarray::benchmark` (every timed run ends with a
//! synchronisation, so the GPU work is really done when the clock stops; GPU times come from
//! timestamp queries where the adapter has them).
//!
//! ```text
//! cargo run --release --example quickstart
//! GPUARRAY_LOG=1 cargo run --release --example quickstart   # one line per kernel launch
//! ```

use gpuarray::{Array, BenchOptions, DType, Device, SliceArg, benchmark};
use std::time::Duration;

fn main() -> gpuarray::Result<()> {
    let dev = Device::new()?;
    let info = dev.info();
    println!("adapter:   {info}");
    println!(
        "features:  {}",
        if info.features.is_empty() {
            "none".to_string()
        } else {
            info.features.join(", ")
        }
    );
    println!(
        "dtypes:    {}",
        DType::ALL
            .iter()
            .filter(|&&d| dev.supports(d))
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!(
        "limits:    max buffer {} MiB, max binding {} MiB",
        info.max_buffer_size >> 20,
        info.max_storage_buffer_binding_size >> 20
    );
    println!(
        "start-up:  {:.1} ms ({} kernel variants compiled before Device::new returned)",
        info.startup.as_secs_f64() * 1e3,
        info.pipelines
    );
    // The rest of the kernels compile in the background (`GPUARRAY_COMPILE` picks which);
    // waiting for them here keeps the timings below free of compile time.
    let compiled = dev.wait_compiled()?;
    println!("compiled:  {compiled}");
    if let Some(dir) = std::env::var_os("GPUARRAY_CACHE_DIR") {
        println!("cache:     {}", std::path::Path::new(&dir).display());
    }

    // Every figure below comes from `gpuarray::benchmark`: a warm-up run, then 3 timed runs,
    // each ended by a synchronisation (its line gives CPU and GPU times); the fastest counts.
    // 1. Upload 64 Mi f32 values (256 MiB: more than one storage binding on many adapters).
    let (rows, cols) = (8192usize, 8192usize);
    let host: Vec<f32> = (0..rows * cols).map(|i| (i % 4096) as f32).collect();
    let up = bench(&dev, "upload", || {
        Array::from_slice(&dev, &host, &[rows, cols])
    })?;
    let a = Array::from_slice(&dev, &host, &[rows, cols])?;
    let mib = (rows * cols * 4) as f64 / (1 << 20) as f64;
    println!(
        "upload:    {mib:.0} MiB in {:.1} ms ({:.2} GB/s)",
        up.as_secs_f64() * 1e3,
        gbps(rows * cols * 4, up)
    );

    // 2. Compute on the GPU: a transposed copy, then a cast to f16 or i32 of a reversed view.
    let tr = bench(&dev, "transpose", || a.t().contiguous())?;
    let at = a.t().contiguous()?;
    println!(
        "transpose: {rows}x{cols} f32 in {:.1} ms ({:.2} GB/s read+write)",
        tr.as_secs_f64() * 1e3,
        gbps(2 * rows * cols * 4, tr)
    );
    let target = if dev.supports(DType::F16) {
        DType::F16
    } else {
        DType::I32
    };
    let cast = || at.slice(&[SliceArg::range(None, None, -1)])?.astype(target);
    let t = bench(&dev, "astype", cast)?;
    let small = cast()?;
    println!(
        "astype:    reversed view f32 -> {target} in {:.1} ms",
        t.as_secs_f64() * 1e3
    );

    // 3. Read back and check against the host.
    let down = bench(&dev, "readback", || at.to_vec::<f32>())?;
    let back = at.to_vec::<f32>()?;
    println!(
        "readback:  {mib:.0} MiB in {:.1} ms ({:.2} GB/s)",
        down.as_secs_f64() * 1e3,
        gbps(rows * cols * 4, down)
    );
    let wrong = (0..rows)
        .flat_map(|i| (0..cols).map(move |j| (i, j)))
        .filter(|&(i, j)| back[j * rows + i] != host[i * cols + j])
        .count();
    println!(
        "check:     transposed copy {} ({} of {} elements wrong)",
        if wrong == 0 { "correct" } else { "WRONG" },
        wrong,
        rows * cols
    );
    println!("cast:      {:?} of {}", small.shape(), small.dtype());

    let s = dev.memory_stats();
    println!(
        "pool:      {} MiB in use, {} MiB cached, peak {} MiB, {} allocations, {} cache hits",
        s.in_use_bytes >> 20,
        s.cached_bytes >> 20,
        s.peak_bytes >> 20,
        s.allocations,
        s.cache_hits
    );
    if info.device_type == "Cpu" {
        println!(
            "note:      this adapter is a CPU ({}); its timings are CPU figures",
            info.name
        );
    }
    if wrong != 0 {
        std::process::exit(1);
    }
    Ok(())
}

/// The fastest of 3 timed runs of `f` after a warm-up, printing the benchmark's line.
fn bench<T>(
    dev: &Device,
    name: &str,
    f: impl FnMut() -> gpuarray::Result<T>,
) -> gpuarray::Result<Duration> {
    let options = BenchOptions {
        name: name.into(),
        warmup: 1,
        repeats: 3,
        ..Default::default()
    };
    let report = benchmark(dev, f, options)?;
    println!("           {report}");
    Ok(report.cpu_stats().min)
}

fn gbps(bytes: usize, d: Duration) -> f64 {
    bytes as f64 / d.as_secs_f64() / 1e9
}
