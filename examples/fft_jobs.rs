//! The FFT jobs of BENCHMARKS.md's before/after table (workgroup-memory transforms, packed real
//! transforms), each the best of 3 synchronised runs after a warm-up. It uses only the public
//! API, so the same file builds against an older commit for a before/after on one machine. On
//! lavapipe these are CPU figures.
//!
//! ```text
//! cargo run --release --example fft_jobs
//! ```
use gpuarray::{DType, Device, fft};
use std::time::Instant;
fn best(dev: &Device, f: &dyn Fn() -> gpuarray::Result<gpuarray::Array>) -> gpuarray::Result<f64> {
    let _ = f()?;
    dev.synchronize()?;
    let mut best = f64::MAX;
    for _ in 0..3 {
        let t = Instant::now();
        let y = f()?;
        dev.synchronize()?;
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
        drop(y);
    }
    Ok(best)
}
fn main() -> gpuarray::Result<()> {
    let dev = Device::new()?;
    let mut g = gpuarray::random::Generator::new(&dev, 1);
    let img = g
        .standard_normal(&[64, 512, 512], DType::F32)?
        .astype(DType::C64)?;
    println!(
        "fft2 64x512x512: {:.1} ms",
        best(&dev, &|| fft::fft2(
            &img,
            None,
            &[-2, -1],
            Default::default()
        ))?
    );
    drop(img);
    let rows = g
        .standard_normal(&[16384, 64], DType::F32)?
        .astype(DType::C64)?;
    println!(
        "fft 16384x64: {:.1} ms",
        best(&dev, &|| fft::fft(&rows, None, -1, Default::default()))?
    );
    let sq = g
        .standard_normal(&[1024, 1024], DType::F32)?
        .astype(DType::C64)?;
    println!(
        "fft 1024x1024 (rows): {:.1} ms",
        best(&dev, &|| fft::fft(&sq, None, -1, Default::default()))?
    );
    println!(
        "fft 1024x1024 (axis 0): {:.1} ms",
        best(&dev, &|| fft::fft(&sq, None, 0, Default::default()))?
    );
    let one = g
        .standard_normal(&[1 << 20], DType::F32)?
        .astype(DType::C64)?;
    println!(
        "fft 2^20: {:.1} ms",
        best(&dev, &|| fft::fft(&one, None, -1, Default::default()))?
    );
    let r = g.standard_normal(&[1 << 22], DType::F32)?;
    println!(
        "rfft 2^22 f32: {:.1} ms",
        best(&dev, &|| fft::rfft(&r, None, -1, Default::default()))?
    );
    let spec = fft::rfft(&r, None, -1, Default::default())?;
    println!(
        "irfft 2^22 f32: {:.1} ms",
        best(&dev, &|| fft::irfft(
            &spec,
            Some(1 << 22),
            -1,
            Default::default()
        ))?
    );
    Ok(())
}
