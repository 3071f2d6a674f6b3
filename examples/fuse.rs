//! Fusion and user-kernel figures (issue 33), in one run: a chain of 10 element-wise ops on
//! 2^24 f32 fused into one kernel vs the 10 unfused ops vs NumPy; softmax over the rows of a
//! 4096 x 4096 f32 matrix and a squared-error loss of 2^24 elements as fused map-reduce kernels
//! vs the unfused ops vs NumPy; and the first call of a user kernel with its compile, cold and
//! from the disk cache. GPU times come from `gpuarray::benchmark` (fastest of the timed runs,
//! each ended by a synchronisation); NumPy's from the same machine in the same run. On
//! lavapipe these are CPU figures.
//!
//! ```text
//! cargo run --release --example fuse
//! ```

use gpuarray::{Array, Axes, Device, DeviceConfig, ElementwiseKernel, fuse};
use std::time::{Duration, Instant};

#[path = "support/numpy.rs"]
mod numpy;
#[path = "support/timing.rs"]
mod timing;

const N: usize = 1 << 24;
const SIDE: usize = 4096;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The 10-op chain, unfused: each op a pass over memory.
fn chain_unfused(x: &Array, y: &Array) -> gpuarray::Result<Array> {
    let t = x.mul(1.5)?.add(y)?.mul(x)?.sub(y)?.mul(0.5)?;
    t.add(x)?.mul(y)?.sub(1.0)?.mul(&t)?.add(y)
}

fn main() -> gpuarray::Result<()> {
    let dev = Device::new()?;
    println!("adapter: {}", dev.info());
    let xs: Vec<f32> = (0..N).map(|i| (i % 1000) as f32 / 1000.0).collect();
    let ys: Vec<f32> = (0..N).map(|i| (i % 777) as f32 / 777.0 - 0.5).collect();
    let x = Array::from_slice(&dev, &xs, &[N])?;
    let y = Array::from_slice(&dev, &ys, &[N])?;

    println!("10 element-wise ops on 2^24 f32:");
    let chain = fuse(|[x, y]| {
        let t = ((&x * 1.5 + &y) * &x - &y) * 0.5;
        ((&t + &x) * &y - 1.0) * &t + &y
    });
    let fused = timing::bench(&dev, "fused", 5, || chain.call(&[&x, &y]))?;
    let unfused = timing::bench(&dev, "unfused", 5, || chain_unfused(&x, &y))?;
    let same = chain.call(&[&x, &y])?.to_vec::<f32>()? == chain_unfused(&x, &y)?.to_vec::<f32>()?;
    println!("  fused and unfused results are bit-identical: {same}");
    let numpy_chain = numpy_ms(
        "x = (np.arange(1 << 24) % 1000).astype(np.float32) / 1000; y = (np.arange(1 << 24) % 777).astype(np.float32) / 777 - 0.5",
        "t = ((x * np.float32(1.5) + y) * x - y) * np.float32(0.5); r = ((t + x) * y - np.float32(1)) * t + y",
    );
    report("chain", fused, unfused, numpy_chain);

    println!("squared-error loss, mean((x - y)^2) of 2^24 f32:");
    let loss = fuse(|[x, y]| (x - y).square().mean(Axes::All, false));
    let fused = timing::bench(&dev, "fused loss", 5, || loss.call(&[&x, &y]))?;
    let unfused = timing::bench(&dev, "unfused loss", 5, || {
        x.sub(&y)?.square()?.mean(Axes::All, false)
    })?;
    let numpy_loss = numpy_ms(
        "x = (np.arange(1 << 24) % 1000).astype(np.float32) / 1000; y = (np.arange(1 << 24) % 777).astype(np.float32) / 777 - 0.5",
        "r = np.square(x - y).mean()",
    );
    report("loss", fused, unfused, numpy_loss);

    println!("softmax over the rows of 4096 x 4096 f32:");
    let m = Array::from_slice(&dev, &xs[..SIDE * SIDE], &[SIDE, SIDE])?;
    let softmax = fuse(|[x]| {
        let e = (&x - x.max(-1, true)).exp();
        &e / e.sum(-1, true)
    });
    let fused = timing::bench(&dev, "fused softmax", 3, || softmax.call(&[&m]))?;
    let unfused = timing::bench(&dev, "unfused softmax", 3, || {
        let e = m.sub(&m.max(-1, true)?)?.exp()?;
        e.div(&e.sum(-1, true)?)
    })?;
    let numpy_softmax = numpy_ms(
        "x = (np.arange(4096 * 4096) % 1000).astype(np.float32).reshape(4096, 4096) / 1000",
        "e = np.exp(x - x.max(-1, keepdims=True)); r = e / e.sum(-1, keepdims=True)",
    );
    report("softmax", fused, unfused, numpy_softmax);

    println!("first call of a user kernel (compile + a 1024-element launch + readback):");
    let dir = std::env::temp_dir().join(format!("gpuarray-fuse-figures-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for run in ["cold (empty disk cache)", "from the disk cache"] {
        let dev = Device::with_config(DeviceConfig {
            cache_dir: Some(dir.clone()),
            ..DeviceConfig::from_env()?
        })?;
        let k = ElementwiseKernel::new(
            "float32 x, float32 y",
            "float32 z",
            "z = exp(x) * y + log1p(abs(x))",
            "first_call",
        )?;
        let a = Array::from_slice(&dev, &xs[..1024], &[1024])?;
        let b = Array::from_slice(&dev, &ys[..1024], &[1024])?;
        let started = Instant::now();
        let z = k.call(&[(&a).into(), (&b).into()])?;
        let _ = z[0].to_vec::<f32>()?;
        println!("  {run}: {:.1} ms", ms(started.elapsed()));
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// NumPy's fastest of 5 runs of `code` after `setup`, in ms, or `None` (printed why).
fn numpy_ms(setup: &str, code: &str) -> Option<f64> {
    numpy::best_ms(setup, code, 5)
}

fn report(what: &str, fused: Duration, unfused: Duration, numpy: Option<f64>) {
    let (f, u) = (ms(fused), ms(unfused));
    print!(
        "  {what}: fused {f:.1} ms, unfused {u:.1} ms: fused is {:.2}x unfused",
        u / f
    );
    match numpy {
        Some(n) => println!("; NumPy {n:.1} ms: fused is {:.2}x NumPy", n / f),
        None => println!(),
    }
}
