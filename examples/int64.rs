//! int64 figures: `add`, `multiply`, `sum`, `cumsum` and `argsort` of 2^24-element int64
//! arrays and a 512^3 int64 `matmul` (exact word-pair arithmetic in WGSL, on every adapter)
//! beside the same ops on int32 and NumPy's int64 in the same run (inline, when python3 has
//! numpy). Timed by `gpuarray::benchmark` (a warm-up
//! run, then 5 runs each ended by a synchronisation); the figures use the fastest CPU time and
//! count the bytes read and written (24 per int64 element, 12 per int32). On lavapipe these are
//! CPU figures.
//!
//! ```text
//! cargo run --release --example int64
//! ```

use gpuarray::{Array, DType, Device};

#[path = "support/numpy.rs"]
mod numpy;
#[path = "support/timing.rs"]
mod timing;

use timing::bench;

fn main() -> gpuarray::Result<()> {
    let dev = Device::new()?;
    println!("adapter: {}", dev.info());
    dev.wait_compiled()?;
    let n = 1usize << 24;
    let x: Vec<i64> = (0..n as i64)
        .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15_u64 as i64))
        .collect();
    let y: Vec<i64> = (0..n as i64).map(|i| (i << 20) - 5).collect();
    let (a, b) = (
        Array::from_slice(&dev, &x, &[n])?,
        Array::from_slice(&dev, &y, &[n])?,
    );
    let (a32, b32) = (a.astype(DType::I32)?, b.astype(DType::I32)?);
    // Spot-check the results against the host's wrapping arithmetic first.
    let sum = a.add(&b)?.to_vec::<i64>()?;
    let prod = a.mul(&b)?.to_vec::<i64>()?;
    for i in (0..n).step_by(4099) {
        assert_eq!(sum[i], x[i].wrapping_add(y[i]), "add at {i}");
        assert_eq!(prod[i], x[i].wrapping_mul(y[i]), "multiply at {i}");
    }
    let gbs = |bytes: f64, t: std::time::Duration| bytes * n as f64 / t.as_secs_f64() / 1e9;
    let t = bench(&dev, "add int64 2^24", 5, || a.add(&b))?;
    let add64 = t;
    println!(
        "add int64 2^24: {:.3} GB/s ({:.2} ms)",
        gbs(24.0, t),
        t.as_secs_f64() * 1e3
    );
    let t = bench(&dev, "add int32 2^24", 5, || a32.add(&b32))?;
    println!(
        "add int32 2^24: {:.3} GB/s ({:.2} ms)",
        gbs(12.0, t),
        t.as_secs_f64() * 1e3
    );
    let s = a.sum(gpuarray::Axes::All, false)?.item::<i64>()?;
    assert_eq!(s, x.iter().fold(0i64, |acc, v| acc.wrapping_add(*v)), "sum");
    let t = bench(&dev, "sum int64 2^24", 5, || {
        a.sum(gpuarray::Axes::All, false)
    })?;
    let sum64 = t;
    println!(
        "sum int64 2^24: {:.3} GB/s ({:.2} ms)",
        8.0 * n as f64 / t.as_secs_f64() / 1e9,
        t.as_secs_f64() * 1e3
    );
    let t = bench(&dev, "sum int32 2^24", 5, || {
        a32.sum(gpuarray::Axes::All, false)
    })?;
    println!(
        "sum int32 2^24: {:.3} GB/s ({:.2} ms)",
        4.0 * n as f64 / t.as_secs_f64() / 1e9,
        t.as_secs_f64() * 1e3
    );
    let t = bench(&dev, "multiply int64 2^24", 5, || a.mul(&b))?;
    println!(
        "multiply int64 2^24: {:.3} GB/s ({:.2} ms)",
        gbs(24.0, t),
        t.as_secs_f64() * 1e3
    );
    let t = bench(&dev, "multiply int32 2^24", 5, || a32.mul(&b32))?;
    println!(
        "multiply int32 2^24: {:.3} GB/s ({:.2} ms)",
        gbs(12.0, t),
        t.as_secs_f64() * 1e3
    );
    // cumsum (exact in 64 bits) and argsort (64-bit keys), checked on samples first.
    let c = a.cumsum(Some(0))?.to_vec::<i64>()?;
    let mut run = 0i64;
    for (i, v) in x.iter().enumerate() {
        run = run.wrapping_add(*v);
        if i % 4099 == 0 {
            assert_eq!(c[i], run, "cumsum at {i}");
        }
    }
    let t = bench(&dev, "cumsum int64 2^24", 3, || a.cumsum(Some(0)))?;
    let cumsum64 = t;
    println!("cumsum int64 2^24: {:.2} ms", t.as_secs_f64() * 1e3);
    let t = bench(&dev, "cumsum int32 2^24", 3, || a32.cumsum(Some(0)))?;
    println!("cumsum int32 2^24: {:.2} ms", t.as_secs_f64() * 1e3);
    let order = a.argsort(Some(0))?.to_vec::<i64>()?;
    for w in order.windows(2).step_by(4099) {
        let (p, q) = (w[0] as usize, w[1] as usize);
        assert!(x[p] < x[q] || (x[p] == x[q] && p < q), "argsort order");
    }
    let t = bench(&dev, "argsort int64 2^24", 3, || a.argsort(Some(0)))?;
    let argsort64 = t;
    println!("argsort int64 2^24: {:.2} ms", t.as_secs_f64() * 1e3);
    let t = bench(&dev, "argsort int32 2^24", 3, || a32.argsort(Some(0)))?;
    println!("argsort int32 2^24: {:.2} ms", t.as_secs_f64() * 1e3);
    // matmul 512^3: exact, wrapping; one output checked against the host.
    let m = 512usize;
    let ma: Vec<i64> = (0..m * m).map(|i| (i as i64 % 1000) - 500).collect();
    let mb: Vec<i64> = (0..m * m).map(|i| ((i as i64 * 7) % 999) << 20).collect();
    let (ga, gb) = (
        Array::from_slice(&dev, &ma, &[m, m])?,
        Array::from_slice(&dev, &mb, &[m, m])?,
    );
    let got = ga.matmul(&gb)?.to_vec::<i64>()?;
    let (r, col) = (123, 456);
    let want = (0..m).fold(0i64, |s, k| {
        s.wrapping_add(ma[r * m + k].wrapping_mul(mb[k * m + col]))
    });
    assert_eq!(got[r * m + col], want, "matmul element");
    let t = bench(&dev, "matmul int64 512^3", 3, || ga.matmul(&gb))?;
    let matmul64 = t;
    println!(
        "matmul int64 512^3: {:.2} ms ({:.2} Gop/s)",
        t.as_secs_f64() * 1e3,
        2.0 * (m * m * m) as f64 / t.as_secs_f64() / 1e9
    );
    let (ga32, gb32) = (ga.astype(DType::I32)?, gb.astype(DType::I32)?);
    let t = bench(&dev, "matmul int32 512^3", 3, || ga32.matmul(&gb32))?;
    println!("matmul int32 512^3: {:.2} ms", t.as_secs_f64() * 1e3);
    let code = "import numpy as np, time\n\
                n = 1 << 24\n\
                a = np.arange(n, dtype=np.int64) * np.int64(-7046029254386353131)\n\
                b = (np.arange(n, dtype=np.int64) << 20) - 5\n\
                for name, f in (('add', np.add), ('multiply', np.multiply)):\n\
                \x20   best = 1e9\n\
                \x20   for _ in range(5):\n\
                \x20       t = time.perf_counter(); f(a, b); best = min(best, time.perf_counter() - t)\n\
                \x20   print(f'numpy_{name}_int64_2^24 {24 * n / best / 1e9:.3f} GB/s')\n\
                best = 1e9\n\
                for _ in range(5):\n\
                \x20   t = time.perf_counter(); a.sum(); best = min(best, time.perf_counter() - t)\n\
                print(f'numpy_sum_int64_2^24 {8 * n / best / 1e9:.3f} GB/s')\n\
                for name, f in (('cumsum', lambda: np.cumsum(a)), ('argsort', lambda: np.argsort(a, kind='stable'))):\n\
                \x20   best = 1e9\n\
                \x20   for _ in range(3):\n\
                \x20       t = time.perf_counter(); f(); best = min(best, time.perf_counter() - t)\n\
                \x20   print(f'numpy_{name}_int64_2^24 {best * 1e3:.2f} ms')\n\
                ma = (np.arange(512 * 512, dtype=np.int64) % 1000 - 500).reshape(512, 512)\n\
                mb = ((np.arange(512 * 512, dtype=np.int64) * 7 % 999) << 20).reshape(512, 512)\n\
                best = 1e9\n\
                for _ in range(3):\n\
                \x20   t = time.perf_counter(); ma @ mb; best = min(best, time.perf_counter() - t)\n\
                print(f'numpy_matmul_int64_512^3 {best * 1e3:.2f} ms')\n";
    match numpy::inline(code) {
        Ok(lines) => {
            for l in &lines {
                println!("numpy: {l}");
            }
            if let Some(v) =
                numpy::value(&lines, "numpy_add_int64").and_then(|v| v.parse::<f64>().ok())
            {
                println!(
                    "ratio: gpuarray int64 add / NumPy = {:.2}x",
                    gbs(24.0, add64) / v
                );
            }
            if let Some(v) =
                numpy::value(&lines, "numpy_sum_int64").and_then(|v| v.parse::<f64>().ok())
            {
                let gpu = 8.0 * n as f64 / sum64.as_secs_f64() / 1e9;
                println!("ratio: gpuarray int64 sum / NumPy = {:.2}x", gpu / v);
            }
            for (key, ours) in [
                ("numpy_cumsum_int64", cumsum64),
                ("numpy_argsort_int64", argsort64),
                ("numpy_matmul_int64", matmul64),
            ] {
                if let Some(v) = numpy::value(&lines, key).and_then(|v| v.parse::<f64>().ok()) {
                    println!(
                        "ratio: {} NumPy time / gpuarray time = {:.2}x",
                        &key[6..],
                        v / (ours.as_secs_f64() * 1e3)
                    );
                }
            }
        }
        Err(why) => println!("numpy: (skipped: {why})"),
    }
    Ok(())
}
