//! A uint8 image pipeline: a 4096×4096×3 RGB image (48 MiB of bytes) uploaded as uint8, converted
//! to f32 and normalised to [0, 1] on the device, then reduced to its per-channel means. Beside
//! it, the same pipeline from a host-widened int32 upload (4× the bytes: what had to be done
//! before gpuarray had uint8), and NumPy's same pipeline in the same run (inline, when python3
//! has numpy). Each job is timed by `gpuarray::benchmark` (a warm-up run, then 5 runs ended by a
//! synchronisation; the upload is inside the job, as a real pipeline pays it); the figures use the
//! fastest CPU time. On lavapipe these are CPU figures.
//!
//! ```text
//! cargo run --release --example uint8_image
//! ```

use gpuarray::{Array, Axes, DType, Device};

#[path = "support/numpy.rs"]
mod numpy;
#[path = "support/timing.rs"]
mod timing;

use timing::bench;

const H: usize = 4096;
const W: usize = 4096;

fn main() -> gpuarray::Result<()> {
    let dev = Device::new()?;
    println!("adapter: {}", dev.info());
    dev.wait_compiled()?;

    // A deterministic image: every byte value appears, channels differ.
    let image: Vec<u8> = (0..H * W * 3)
        .map(|i| {
            ((i / 3) as u32).wrapping_mul(2654435761).wrapping_shr(24) as u8 ^ ((i % 3) as u8 * 85)
        })
        .collect();
    let want: Vec<f64> = (0..3)
        .map(|c| {
            let s: u64 = image.iter().skip(c).step_by(3).map(|&b| u64::from(b)).sum();
            s as f64 / (H * W) as f64 / 255.0
        })
        .collect();

    let pipeline = |a: &Array| -> gpuarray::Result<Array> {
        a.astype(DType::F32)?
            .mul(1.0 / 255.0)?
            .mean(Axes::List(vec![0, 1]), false)
    };

    let mut means = Vec::new();
    let t_u8 = bench(&dev, "uint8 upload + normalise + mean", 5, || {
        let a = Array::from_slice(&dev, &image, &[H, W, 3])?;
        let m = pipeline(&a)?;
        means = m.to_vec::<f32>()?;
        Ok(())
    })?;
    check("uint8", &means, &want);

    let widened: Vec<i32> = image.iter().map(|&b| i32::from(b)).collect();
    let t_i32 = bench(
        &dev,
        "int32 (host-widened) upload + normalise + mean",
        5,
        || {
            let a = Array::from_slice(&dev, &widened, &[H, W, 3])?;
            let m = pipeline(&a)?;
            means = m.to_vec::<f32>()?;
            Ok(())
        },
    )?;
    check("int32", &means, &want);

    let bytes = (H * W * 3) as f64;
    println!(
        "uint8 pipeline 4096x4096x3: {:.1} ms ({:.2} GB/s of image bytes)",
        t_u8.as_secs_f64() * 1e3,
        bytes / t_u8.as_secs_f64() / 1e9
    );
    println!(
        "int32-widened pipeline: {:.1} ms (the uint8 pipeline takes {:.2}x its time, uploading 4x fewer bytes)",
        t_i32.as_secs_f64() * 1e3,
        t_u8.as_secs_f64() / t_i32.as_secs_f64()
    );
    let code = format!(
        "import numpy as np, time\n\
         img = (((np.arange({H}*{W}*3) // 3).astype(np.uint64) * 2654435761 % 2**32 >> 24).astype(np.uint8) \
         ^ ((np.arange({H}*{W}*3) % 3) * 85).astype(np.uint8)).reshape({H}, {W}, 3)\n\
         best = 1e9\n\
         for _ in range(5):\n\
         \x20   t = time.perf_counter(); m = (img.astype(np.float32) * np.float32(1 / 255)).mean(axis=(0, 1)); best = min(best, time.perf_counter() - t)\n\
         print(f'numpy_uint8_pipeline {{best * 1e3:.1f}} ms')\n\
         print(f'numpy_means {{m.tolist()}}')\n"
    );
    match numpy::inline(&code) {
        Ok(lines) => {
            for l in &lines {
                println!("numpy: {l}");
            }
            if let Some(ms) =
                numpy::value(&lines, "numpy_uint8_pipeline").and_then(|v| v.parse::<f64>().ok())
            {
                println!(
                    "ratio: gpuarray uint8 pipeline / NumPy = {:.2}x NumPy's speed",
                    ms / (t_u8.as_secs_f64() * 1e3)
                );
            }
        }
        Err(why) => println!("numpy: (skipped: {why})"),
    }
    Ok(())
}

/// The device's per-channel means against the host's exact ones (f32 sums of 2^24 terms: a
/// relative error of a few 1e-6 is the reduction's rounding).
fn check(what: &str, got: &[f32], want: &[f64]) {
    for (c, (&g, &w)) in got.iter().zip(want).enumerate() {
        assert!(
            (f64::from(g) - w).abs() <= 1e-5 * w.max(1e-3),
            "{what}: channel {c} mean {g} vs {w}"
        );
    }
    println!("{what}: per-channel means {got:?} match the host's");
}
