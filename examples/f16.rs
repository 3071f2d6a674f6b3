//! float16 figures (issue 38): the same ops in f32, in the adapter's own f16 (where it has
//! `shader-f16`) and in packed halves (`F16Mode::Emulated`, what adapters without it get: two
//! per word, computed in f32, each result rounded to f16 in integers), in one run: add and
//! multiply-add of 2^24 elements, sum of 2^26, exp of 2^22, matmul 512^3, sort of 2^22 and
//! standard_normal of 2^24. Timed by `gpuarray::benchmark` (a warm-up run that also compiles,
//! then the fastest of the timed runs, each ended by a synchronisation). On lavapipe these are
//! CPU figures.
//!
//! ```text
//! cargo run --release --example f16
//! ```

use gpuarray::random::Generator;
use gpuarray::{Array, Axes, DType, Device, DeviceConfig, F16Mode};

#[path = "support/timing.rs"]
mod timing;

fn main() -> gpuarray::Result<()> {
    let native = Device::with_config(DeviceConfig {
        f16: F16Mode::Native,
        ..DeviceConfig::from_env()?
    })?;
    let emulated = Device::with_config(DeviceConfig {
        f16: F16Mode::Emulated,
        ..DeviceConfig::from_env()?
    })?;
    println!("adapter: {}", native.info());
    let mut paths: Vec<(&str, &Device, DType)> = vec![("f32", &native, DType::F32)];
    if native.supports(DType::F16) {
        paths.push(("f16 native", &native, DType::F16));
    }
    paths.push(("f16 emulated", &emulated, DType::F16));
    let header: String = paths.iter().map(|p| format!("{:>16}", p.0)).collect();
    println!("{:<24} {header}", "op");
    type Op =
        Box<dyn Fn(&Device, DType) -> gpuarray::Result<Box<dyn Fn() -> gpuarray::Result<Array>>>>;
    // Values that stay finite in f16 (below 65504).
    let ramp = |d: &Device, n: usize, t: DType| -> gpuarray::Result<Array> {
        Array::arange(d, 0.0, n as f64, 1.0, DType::F32)?
            .remainder(2048.0)?
            .mul(1.0 / 64.0)?
            .astype(t)
    };
    let rows: Vec<(&str, usize, Op)> = vec![
        (
            "add 2^24",
            5,
            Box::new(move |d, t| {
                let a = ramp(d, 1 << 24, t)?;
                let b = a.mul(0.5)?;
                Ok(Box::new(move || a.add(&b)))
            }),
        ),
        (
            "multiply-add 2^24",
            5,
            Box::new(move |d, t| {
                let a = ramp(d, 1 << 24, t)?;
                let b = a.mul(0.5)?;
                Ok(Box::new(move || a.mul(&b)?.add(&a)))
            }),
        ),
        (
            "sum 2^26",
            3,
            Box::new(move |d, t| {
                let a = ramp(d, 1 << 26, t)?.mul(1e-3)?;
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
        let mut line = format!("{name:<24}");
        for &(_, dev, dtype) in &paths {
            let f = make(dev, dtype)?;
            let t = timing::fastest(dev, repeats, &*f)?;
            line += &format!("{:>13.1} ms", t.as_secs_f64() * 1e3);
        }
        println!("{line}");
    }
    Ok(())
}
