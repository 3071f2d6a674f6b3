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
use gpuarray::{Array, Axes, DType, Device, DeviceConfig, F64Mode};

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
    println!(
        "{:<28} {}",
        "op",
        paths
            .iter()
            .map(|p| format!("{:>16}", p.0))
            .collect::<String>()
    );
    type Op =
        Box<dyn Fn(&Device, DType) -> gpuarray::Result<Box<dyn Fn() -> gpuarray::Result<Array>>>>;
    let rows: Vec<(&str, usize, Op)> = vec![
        (
            "add 2^24",
            5,
            Box::new(|d, t| {
                let a = Array::arange(d, 0.0, (1 << 24) as f64, 1.0, t)?;
                let b = a.mul(0.5)?;
                Ok(Box::new(move || a.add(&b)))
            }),
        ),
        (
            "multiply-add 2^24",
            5,
            Box::new(|d, t| {
                let a = Array::arange(d, 0.0, (1 << 24) as f64, 1.0, t)?;
                let b = a.mul(0.5)?;
                Ok(Box::new(move || a.mul(&b)?.add(&a)))
            }),
        ),
        (
            "sum 2^26",
            3,
            Box::new(|d, t| {
                let a = Array::arange(d, 0.0, (1 << 26) as f64, 1.0, t)?.mul(1e-3)?;
                Ok(Box::new(move || a.sum(Axes::All, false)))
            }),
        ),
        (
            "exp 2^22",
            3,
            Box::new(|d, t| {
                let a = Generator::new(d, 1).standard_normal(&[1 << 22], t)?;
                Ok(Box::new(move || a.exp()))
            }),
        ),
        (
            "matmul 512^3",
            3,
            Box::new(|d, t| {
                let a = Generator::new(d, 2).standard_normal(&[512, 512], t)?;
                Ok(Box::new(move || a.matmul(&a)))
            }),
        ),
        (
            "matmul 1024^3",
            1,
            Box::new(|d, t| {
                let a = Generator::new(d, 2).standard_normal(&[1024, 1024], t)?;
                Ok(Box::new(move || a.matmul(&a)))
            }),
        ),
        (
            "sort 2^22",
            3,
            Box::new(|d, t| {
                let a = Generator::new(d, 3).standard_normal(&[1 << 22], t)?;
                Ok(Box::new(move || a.sort(Some(-1))))
            }),
        ),
        (
            "standard_normal 2^24",
            3,
            Box::new(|d, t| {
                let g = std::cell::RefCell::new(Generator::new(d, 4));
                Ok(Box::new(move || {
                    g.borrow_mut().standard_normal(&[1 << 24], t)
                }))
            }),
        ),
    ];
    for (name, repeats, make) in rows {
        let mut line = format!("{name:<28}");
        for &(_, dev, dtype) in &paths {
            let f = make(dev, dtype)?;
            let t = timing::fastest(dev, repeats, &*f)?;
            line += &format!("{:>13.1} ms", ms(t));
        }
        println!("{line}");
    }
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
