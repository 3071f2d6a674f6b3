//! A live picture from gpuarray ops: Gray–Scott reaction–diffusion (`support/gray_scott.rs`:
//! `roll` for the stencil, `fuse` for each update, Philox for the start) run on the device,
//! with PNG frames of the v field written as it goes and a progress bar; then the same steps
//! as a plain single-threaded Rust loop on the CPU, for steps/s side by side and the largest
//! difference between the two fields. On lavapipe the "GPU" figure is a CPU figure too.
//!
//! ```text
//! cargo run --release --example gray_scott -- [--size 256] [--steps 3000] [--frames 6] [--out target/gray_scott]
//! ```

use gpuarray::Device;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[path = "support/gray_scott.rs"]
mod gray_scott;
#[path = "support/png_out.rs"]
mod png_out;

use gray_scott::{CORAL, CpuSimulation, Simulation};

struct Options {
    size: usize,
    steps: usize,
    frames: usize,
    out: PathBuf,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        size: 256,
        steps: 3000,
        frames: 6,
        out: PathBuf::from("target/gray_scott"),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = || {
            value
                .parse::<usize>()
                .map_err(|e| format!("{flag} {value}: {e}"))
        };
        match flag.as_str() {
            "--size" => o.size = number()?,
            "--steps" => o.steps = number()?,
            "--frames" => o.frames = number()?.max(1),
            "--out" => o.out = PathBuf::from(&value),
            _ => {
                return Err(format!(
                    "unknown option {flag} (--size, --steps, --frames, --out)"
                ));
            }
        }
    }
    if o.size == 0 || !o.size.is_multiple_of(gray_scott::BLOCK) {
        return Err(format!(
            "--size must be a positive multiple of {}",
            gray_scott::BLOCK
        ));
    }
    Ok(o)
}

/// `[#########...........]  45%  1350/3000 steps  812 steps/s` on one line of stderr.
fn progress(done: usize, total: usize, elapsed: Duration) {
    const WIDTH: usize = 30;
    let filled = done * WIDTH / total.max(1);
    let rate = done as f64 / elapsed.as_secs_f64().max(1e-9);
    eprint!(
        "\r[{}{}] {:3}%  {done}/{total} steps  {rate:.0} steps/s ",
        "#".repeat(filled),
        ".".repeat(WIDTH - filled),
        done * 100 / total.max(1)
    );
    let _ = std::io::stderr().flush();
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let o = options()?;
    let dev = Device::new()?;
    println!("adapter: {}", dev.info());
    println!(
        "Gray-Scott on {0} x {0} (f32), {1} steps, {2} frames to {3}",
        o.size,
        o.steps,
        o.frames,
        o.out.display()
    );
    std::fs::create_dir_all(&o.out)?;
    let mut sim = Simulation::new(&dev, o.size, 7, CORAL)?;
    let start_u = sim.u.to_vec::<f32>()?;
    let start_v = sim.v.to_vec::<f32>()?;

    // The device: steps in runs between frames; each run timed after a synchronisation.
    let per_frame = o.steps.div_ceil(o.frames);
    let (mut done, mut stepping) = (0usize, Duration::ZERO);
    let mut frame = 0;
    dev.synchronize()?;
    while done < o.steps {
        let run = per_frame.min(o.steps - done);
        let t = Instant::now();
        for _ in 0..run {
            sim.step()?;
        }
        dev.synchronize()?;
        stepping += t.elapsed();
        done += run;
        progress(done, o.steps, stepping);
        let path = o.out.join(format!("frame_{frame:03}.png"));
        png_out::write_rgb_png(&path, o.size, o.size, &sim.image()?.to_vec::<u8>()?)?;
        frame += 1;
    }
    eprintln!();
    let gpu_rate = o.steps as f64 / stepping.as_secs_f64();

    // The CPU: the same steps from the same start, one thread.
    let mut cpu = CpuSimulation::new(o.size, start_u, start_v, CORAL);
    let t = Instant::now();
    for _ in 0..o.steps {
        cpu.step();
    }
    let cpu_rate = o.steps as f64 / t.elapsed().as_secs_f64();
    let v = sim.v.to_vec::<f32>()?;
    let worst = v
        .iter()
        .zip(&cpu.v)
        .fold(0.0f32, |m, (a, b)| m.max((a - b).abs()));
    println!(
        "device   : {gpu_rate:8.1} steps/s ({}, after synchronising)",
        dev.info().name
    );
    println!("CPU loop : {cpu_rate:8.1} steps/s (plain Rust, one thread)");
    println!("speed-up : {:.2}x", gpu_rate / cpu_rate);
    println!(
        "largest |v_device - v_cpu| after {} steps: {worst:.2e}",
        o.steps
    );
    println!(
        "wrote {frame} frames: {}",
        o.out.join("frame_NNN.png").display()
    );
    Ok(())
}
