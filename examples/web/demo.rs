//! The browser demo's wasm module: gpuarray on the page's WebGPU adapter, each figure timed
//! honestly (the clock stops after `synchronize_async`, when the GPU has finished) and each
//! result checked against a computation on the CPU. `examples/web/index.html` calls these
//! exports in order and shows what they return (JSON text).
//!
//! ```text
//! bash examples/web/build.sh                       # cargo build + wasm-bindgen --target web
//! python3 -m http.server -d examples/web 8000      # then open http://localhost:8000/
//! ```
//! Natively this example is empty (it is a `cdylib` for wasm32 only).
#![cfg(target_arch = "wasm32")]

#[path = "../../tests/common/philox.rs"]
#[allow(dead_code)]
mod cpu;
#[path = "../support/gray_scott.rs"]
mod gray_scott;
#[path = "live.rs"]
mod live;

use gpuarray::random::Generator;
use gpuarray::{Array, Axes, DType, Device, einsum};
use std::cell::RefCell;
use std::fmt::Write;
use wasm_bindgen::prelude::*;
use web_time::Instant;

thread_local! {
    static DEVICE: RefCell<Option<Device>> = const { RefCell::new(None) };
}

/// Timed runs after the warm-up run (which compiles any pipeline built on first use).
const REPS: usize = 3;

/// The first four `standard_normal` f32 values of `Generator::new(&dev, 42)`, as bits, read by
/// the native build on lavapipe: the same bits on every adapter.
const NATIVE_NORMAL_SEED42: [u32; 4] = [0x3e46ace8, 0xbf785e5c, 0x3ff6433c, 0xbf9e28d2];

fn err(e: gpuarray::Error) -> JsValue {
    JsValue::from_str(&e.to_string())
}

fn device() -> Result<Device, JsValue> {
    DEVICE
        .with(|d| d.borrow().clone())
        .ok_or_else(|| JsValue::from_str("call start() first"))
}

/// Small integers in [-m/2, m/2): products and sums of the sizes here stay exact in f32, so the
/// GPU's result must equal the CPU's bit for bit, in any summation order.
fn ints(n: usize, seed: u64, m: u64) -> Vec<f32> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % m) as f32 - (m / 2) as f32
        })
        .collect()
}

/// The best of [`REPS`] runs of `f` (which records GPU work without waiting) each followed by
/// `synchronize_async`, after a warm-up whose own time is returned too: (best s, warm-up s).
async fn best(
    dev: &Device,
    mut f: impl FnMut() -> gpuarray::Result<()>,
) -> Result<(f64, f64), JsValue> {
    let t = Instant::now();
    f().map_err(err)?;
    dev.synchronize_async().await.map_err(err)?;
    let warm = t.elapsed().as_secs_f64();
    let mut best = f64::INFINITY;
    for _ in 0..REPS {
        let t = Instant::now();
        f().map_err(err)?;
        dev.synchronize_async().await.map_err(err)?;
        best = best.min(t.elapsed().as_secs_f64());
    }
    Ok((best, warm))
}

/// Opens the device: start-up figures and what gpuarray sees. The matmul tune is [`tune`]'s, so
/// the page can start drawing before it.
#[wasm_bindgen]
pub async fn start() -> Result<String, JsValue> {
    let t = Instant::now();
    let dev = Device::new_async().await.map_err(err)?;
    let device_ms = t.elapsed().as_secs_f64() * 1e3;
    let info = dev.info();
    let l = dev.limits();
    let mut s = String::from("{");
    write!(
        s,
        "\"info\":\"{}\",\"features\":\"{}\",\"max_storage_buffer_binding_size\":{},\
         \"max_buffer_size\":{},\"max_compute_invocations_per_workgroup\":{},\
         \"max_compute_workgroup_storage_size\":{},\"max_storage_buffers_per_shader_stage\":{},\
         \"f16\":{},\"f64\":{},\"pipelines\":{},\"device_ms\":{device_ms:.1}}}",
        info.to_string().replace('"', "'"),
        info.features.join(", "),
        l.max_storage_buffer_binding_size,
        l.max_buffer_size,
        l.max_compute_invocations_per_workgroup,
        l.max_compute_workgroup_storage_size,
        l.max_storage_buffers_per_shader_stage,
        dev.supports(DType::F16),
        dev.supports(DType::F64),
        info.pipelines,
    )
    .unwrap();
    DEVICE.with(|d| *d.borrow_mut() = Some(dev));
    Ok(s)
}

/// Runs the matmul tune (each candidate kernel timed on this adapter): what it chose and why.
#[wasm_bindgen]
pub async fn tune() -> Result<String, JsValue> {
    let dev = device()?;
    let tune = dev.matmul_tuning_async().await.map_err(err)?;
    Ok(format!(
        "{{\"tune\":\"{} ({})\",\"tune_ms\":{:.1}}}",
        tune.chosen,
        tune.candidates
            .iter()
            .map(|(k, g)| format!("{k}: {g:.2} GFLOP/s"))
            .collect::<Vec<_>>()
            .join("; "),
        tune.elapsed.as_secs_f64() * 1e3,
    ))
}

/// Runs `f` on the CPU (this wasm module's one thread) and returns its result and seconds.
fn cpu_timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = Instant::now();
    let r = f();
    (r, t.elapsed().as_secs_f64())
}

/// The seed case, `einsum('ijk,ikm->ijm')` on (n, n, n) f32 operands.
#[wasm_bindgen]
pub async fn einsum_seed(n: usize) -> Result<String, JsValue> {
    let dev = device()?;
    let (ha, hb) = (ints(n * n * n, 1, 5), ints(n * n * n, 2, 5));
    let a = Array::from_slice(&dev, &ha, &[n, n, n]).map_err(err)?;
    let b = Array::from_slice(&dev, &hb, &[n, n, n]).map_err(err)?;
    let (t, warm) = best(&dev, || einsum("ijk,ikm->ijm", &[&a, &b]).map(drop)).await?;
    let c = einsum("ijk,ikm->ijm", &[&a, &b])
        .map_err(err)?
        .to_vec_async::<f32>()
        .await
        .map_err(err)?;
    // The CPU: the same contraction as a plain loop (k outside m, so rows stream), one thread.
    let (want, cpu) = cpu_timed(|| {
        let mut c = vec![0.0f32; n * n * n];
        for i in 0..n {
            for j in 0..n {
                let row = &mut c[(i * n + j) * n..(i * n + j + 1) * n];
                for k in 0..n {
                    let x = ha[(i * n + j) * n + k];
                    let b = &hb[(i * n + k) * n..(i * n + k + 1) * n];
                    for (r, y) in row.iter_mut().zip(b) {
                        *r += x * y;
                    }
                }
            }
        }
        c
    });
    let wrong = c.iter().zip(&want).filter(|(g, w)| g != w).count();
    Ok(format!(
        "{{\"n\":{n},\"ms\":{:.2},\"warm_ms\":{:.1},\"cpu_ms\":{:.1},\"gflops\":{:.2},\"checked\":{},\"wrong\":{wrong}}}",
        t * 1e3,
        warm * 1e3,
        cpu * 1e3,
        2.0 * (n as f64).powi(4) / t / 1e9,
        c.len()
    ))
}

/// An (n, n) @ (n, n) f32 matmul.
#[wasm_bindgen]
pub async fn matmul(n: usize) -> Result<String, JsValue> {
    let dev = device()?;
    let (ha, hb) = (ints(n * n, 3, 7), ints(n * n, 4, 7));
    let a = Array::from_slice(&dev, &ha, &[n, n]).map_err(err)?;
    let b = Array::from_slice(&dev, &hb, &[n, n]).map_err(err)?;
    let (t, warm) = best(&dev, || a.matmul(&b).map(drop)).await?;
    let c = a
        .matmul(&b)
        .map_err(err)?
        .to_vec_async::<f32>()
        .await
        .map_err(err)?;
    let (want, cpu) = cpu_timed(|| {
        let mut c = vec![0.0f32; n * n];
        for i in 0..n {
            let row = &mut c[i * n..(i + 1) * n];
            for k in 0..n {
                let x = ha[i * n + k];
                for (r, y) in row.iter_mut().zip(&hb[k * n..(k + 1) * n]) {
                    *r += x * y;
                }
            }
        }
        c
    });
    let wrong = c.iter().zip(&want).filter(|(g, w)| g != w).count();
    Ok(format!(
        "{{\"n\":{n},\"ms\":{:.2},\"warm_ms\":{:.1},\"cpu_ms\":{:.1},\"gflops\":{:.2},\"checked\":{},\"wrong\":{wrong}}}",
        t * 1e3,
        warm * 1e3,
        cpu * 1e3,
        2.0 * (n as f64).powi(3) / t / 1e9,
        c.len()
    ))
}

/// `standard_normal` of 2^log2 f32 samples from seed 42: rate, the first values against the
/// native run's bits, and the first 65536 against the CPU Philox + Box-Muller model.
#[wasm_bindgen]
pub async fn standard_normal(log2: u32) -> Result<String, JsValue> {
    let dev = device()?;
    let n = 1usize << log2;
    let mut g = Generator::new(&dev, 7);
    let (t, warm) = best(&dev, || g.standard_normal(&[n], DType::F32).map(drop)).await?;
    let x = Generator::new(&dev, 42)
        .standard_normal(&[n], DType::F32)
        .map_err(err)?
        .to_vec_async::<f32>()
        .await
        .map_err(err)?;
    let first: Vec<u32> = x[..4].iter().map(|v| v.to_bits()).collect();
    // The CPU: the same n draws from the Philox + Box-Muller model, one thread.
    let (want, cpu_s) = cpu_timed(|| {
        let words = cpu::stream(42, 0, 0, n + 2);
        (0..n)
            .map(|i| {
                let (s, c) = cpu::box_muller_f32(words[i & !1], words[i | 1]);
                if i % 2 == 0 { s } else { c }
            })
            .collect::<Vec<f64>>()
    });
    let m = n;
    let worst = (0..m)
        .map(|i| (x[i] as f64 - want[i]).abs() / want[i].abs().max(1.0))
        .fold(0.0, f64::max);
    let mean = x.iter().map(|&v| v as f64).sum::<f64>() / n as f64;
    let var = x.iter().map(|&v| (v as f64 - mean).powi(2)).sum::<f64>() / n as f64;
    Ok(format!(
        "{{\"n\":{n},\"ms\":{:.2},\"warm_ms\":{:.1},\"cpu_ms\":{:.1},\"gsamples\":{:.3},\"first\":\"{:?}\",\
         \"native_first_equal\":{},\"cpu_checked\":{m},\"cpu_worst_rel\":{worst:.2e},\
         \"mean\":{mean:.5},\"var\":{var:.5}}}",
        t * 1e3,
        warm * 1e3,
        cpu_s * 1e3,
        n as f64 / t / 1e9,
        &x[..4],
        first == NATIVE_NORMAL_SEED42
    ))
}

/// Element-wise and a reduction on 2^log2 f32 elements: `a + b` in GB/s (12 bytes per element:
/// two reads and a write) and `sum` in GB/s (4 bytes per element), checked on the CPU.
#[wasm_bindgen]
pub async fn add_and_sum(log2: u32) -> Result<String, JsValue> {
    let dev = device()?;
    let n = 1usize << log2;
    let (ha, hb) = (ints(n, 5, 9), ints(n, 6, 9));
    let a = Array::from_slice(&dev, &ha, &[n]).map_err(err)?;
    let b = Array::from_slice(&dev, &hb, &[n]).map_err(err)?;
    let (t_add, _) = best(&dev, || a.add(&b).map(drop)).await?;
    let (t_sum, _) = best(&dev, || a.sum(Axes::All, false).map(drop)).await?;
    let c = a
        .add(&b)
        .map_err(err)?
        .to_vec_async::<f32>()
        .await
        .map_err(err)?;
    let (want_add, cpu_add) =
        cpu_timed(|| ha.iter().zip(&hb).map(|(x, y)| x + y).collect::<Vec<f32>>());
    let wrong = c.iter().zip(&want_add).filter(|(g, w)| g != w).count();
    // Small integers: the sum is exact in f32 whatever the order (|sum| < 2^24).
    let s = a
        .sum(Axes::All, false)
        .map_err(err)?
        .item_async::<f32>()
        .await
        .map_err(err)?;
    let (want, cpu_sum) = cpu_timed(|| ha.iter().map(|&v| v as f64).sum::<f64>());
    Ok(format!(
        "{{\"n\":{n},\"add_ms\":{:.2},\"add_gbs\":{:.3},\"sum_ms\":{:.2},\"sum_gbs\":{:.3},\
         \"add_cpu_ms\":{:.2},\"sum_cpu_ms\":{:.2},\"add_wrong\":{wrong},\"sum\":{s},\"sum_cpu\":{want}}}",
        t_add * 1e3,
        12.0 * n as f64 / t_add / 1e9,
        t_sum * 1e3,
        4.0 * n as f64 / t_sum / 1e9,
        cpu_add * 1e3,
        cpu_sum * 1e3
    ))
}
