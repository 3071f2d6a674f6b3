//! float64 figures (issue 38): the same ops in f32, in the adapter's own f64 (where it has
//! SHADER_F64) and in software binary64 (`F64Mode::Emulated`, what adapters without f64 get), in
//! one run: add and multiply-add of 2^24 elements, sum of 2^26, exp of 2^22, matmul 512^3 and
//! 1024^3 (emulated f64 by the Ozaki scheme; the direct word-pair kernel beside it, and the
//! residue planes the scheme used), sort of 2^22 and standard_normal of 2^24. Timed by `gpuarray::benchmark` (a warm-up run that also compiles,
//! then the fastest of the timed runs, each ended by a synchronisation). On lavapipe these are
//! CPU figures.
//!
//! ```text
//! cargo run --release --example f64
//! ```

use gpuarray::random::Generator;
use gpuarray::{DType, Device, DeviceConfig, F64Mode};

#[path = "support/float_figures.rs"]
mod float_figures;
#[path = "support/timing.rs"]
mod timing;

fn ms(t: std::time::Duration) -> f64 {
    t.as_secs_f64() * 1e3
}

fn main() -> gpuarray::Result<()> {
    let native = Device::with_config(DeviceConfig {
        f64: F64Mode::Native,
        ..DeviceConfig::from_env()?
    })?;
    let emulated = Device::with_config(DeviceConfig {
        f64: F64Mode::Emulated,
        ..DeviceConfig::from_env()?
    })?;
    println!("adapter: {}", native.info());
    let mut paths: Vec<(&str, &Device, DType)> = vec![("f32", &native, DType::F32)];
    if native.supports(DType::F64) {
        paths.push(("f64 native", &native, DType::F64));
    }
    paths.push(("f64 emulated", &emulated, DType::F64));
    float_figures::print_table(&paths, true)?;
    // The emulated matmul's plan, and the direct word-pair kernel it replaces (512^3).
    let a = Generator::new(&emulated, 2).standard_normal(&[512, 512], DType::F64)?;
    let (c, profile) = emulated.profile(|| a.matmul(&a))?;
    c?;
    for l in profile
        .launches
        .iter()
        .filter(|l| l.kernel.starts_with("matmul"))
    {
        println!("ozaki 512^3 plane products: {} ({})", l.what, l.kernel);
    }
    let direct = timing::fastest(&emulated, 1, &|| {
        a.matmul_with(&a, gpuarray::MatmulKernel::Tiled)
    })?;
    println!(
        "{:<28}{:>13.1} ms (f64 emulated, direct word-pair kernel)",
        "matmul 512^3 direct",
        ms(direct)
    );
    Ok(())
}
