//! The table the float-emulation examples (`f64.rs`, `f16.rs`) print: the same ops timed on
//! each path (f32, the adapter's own type, the emulated one), one row per op, each the fastest
//! of its timed runs after a warm-up (`timing::fastest`). Values stay below 65504, so every row
//! is finite in f16 too.

use super::timing;
use gpuarray::random::Generator;
use gpuarray::{Array, Axes, DType, Device};

/// Builds a row's inputs on a device in a dtype and returns the call to time.
type Op = Box<dyn Fn(&Device, DType) -> gpuarray::Result<Box<dyn Fn() -> gpuarray::Result<Array>>>>;

/// `0, 1/64, ..., 2047/64` repeated: `n` elements of `dtype`.
fn ramp(d: &Device, n: usize, dtype: DType) -> gpuarray::Result<Array> {
    Array::arange(d, 0.0, n as f64, 1.0, DType::F32)?
        .remainder(2048.0)?
        .mul(1.0 / 64.0)?
        .astype(dtype)
}

/// Add and multiply-add of 2^24 elements, sum of 2^26, exp of 2^22, matmul 512^3 (and 1024^3
/// with `matmul_1024`), sort of 2^22 and standard_normal of 2^24: (name, timed runs, op).
fn rows(matmul_1024: bool) -> Vec<(&'static str, usize, Op)> {
    let mut rows: Vec<(&'static str, usize, Op)> = vec![
        (
            "add 2^24",
            5,
            Box::new(|d, t| {
                let a = ramp(d, 1 << 24, t)?;
                let b = a.mul(0.5)?;
                Ok(Box::new(move || a.add(&b)))
            }),
        ),
        (
            "multiply-add 2^24",
            5,
            Box::new(|d, t| {
                let a = ramp(d, 1 << 24, t)?;
                let b = a.mul(0.5)?;
                Ok(Box::new(move || a.mul(&b)?.add(&a)))
            }),
        ),
        (
            "sum 2^26",
            3,
            Box::new(|d, t| {
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
    ];
    if matmul_1024 {
        rows.push((
            "matmul 1024^3",
            1,
            Box::new(|d, t| {
                let a = Generator::new(d, 2).standard_normal(&[1024, 1024], t)?;
                Ok(Box::new(move || a.matmul(&a)))
            }),
        ));
    }
    rows.push((
        "sort 2^22",
        3,
        Box::new(|d, t| {
            let a = Generator::new(d, 3).standard_normal(&[1 << 22], t)?;
            Ok(Box::new(move || a.sort(Some(-1))))
        }),
    ));
    rows.push((
        "standard_normal 2^24",
        3,
        Box::new(|d, t| {
            let g = std::cell::RefCell::new(Generator::new(d, 4));
            Ok(Box::new(move || {
                g.borrow_mut().standard_normal(&[1 << 24], t)
            }))
        }),
    ));
    rows
}

/// Prints the header and one timed line per row for each `(label, device, dtype)` path.
pub fn print_table(paths: &[(&str, &Device, DType)], matmul_1024: bool) -> gpuarray::Result<()> {
    let header: String = paths.iter().map(|p| format!("{:>16}", p.0)).collect();
    println!("{:<24} {header}", "op");
    for (name, repeats, make) in rows(matmul_1024) {
        let mut line = format!("{name:<24}");
        for &(_, dev, dtype) in paths {
            let f = make(dev, dtype)?;
            let t = timing::fastest(dev, repeats, &*f)?;
            line += &format!("{:>13.1} ms", t.as_secs_f64() * 1e3);
        }
        println!("{line}");
    }
    Ok(())
}
