//! The page's live simulation: Gray–Scott (`examples/support/gray_scott.rs`, gpuarray ops only)
//! stepped on the page's WebGPU device and drawn every animation frame, with the same step on
//! the CPU (this module's one thread) beside it for steps/s; and a check that the device's
//! field after a fixed number of steps is the CPU loop's.

use super::{device, err};
use crate::gray_scott::{CORAL, CpuSimulation, Simulation};
use gpuarray::Array;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use web_time::Instant;

struct Live {
    gpu: Simulation,
    cpu: CpuSimulation,
    steps: u64,
}

thread_local! {
    static LIVE: RefCell<Option<Live>> = const { RefCell::new(None) };
}

/// Fields of the start, read back (the CPU loop starts from the device's Philox seed).
async fn start_fields(sim: &Simulation) -> Result<(Vec<f32>, Vec<f32>), JsValue> {
    let u = sim.u.to_vec_async::<f32>().await.map_err(err)?;
    let v = sim.v.to_vec_async::<f32>().await.map_err(err)?;
    Ok((u, v))
}

/// The grid side must be a positive multiple of the seed's block (the simulation asserts it).
fn check_side(n: usize) -> Result<(), JsValue> {
    if n == 0 || !n.is_multiple_of(crate::gray_scott::BLOCK) {
        return Err(JsValue::from_str(&format!(
            "the grid side {n} must be a positive multiple of {}",
            crate::gray_scott::BLOCK
        )));
    }
    Ok(())
}

/// Starts (or restarts) the live simulation on an n × n grid (n a multiple of 8) from `seed`.
#[wasm_bindgen]
pub async fn live_start(n: usize, seed: u32) -> Result<(), JsValue> {
    check_side(n)?;
    let dev = device()?;
    let gpu = Simulation::new(&dev, n, seed as u64, CORAL).map_err(err)?;
    let (u, v) = start_fields(&gpu).await?;
    let cpu = CpuSimulation::new(n, u, v, CORAL);
    LIVE.with(|l| *l.borrow_mut() = Some(Live { gpu, cpu, steps: 0 }));
    Ok(())
}

/// RGBA bytes of an n × n × 3 RGB image array, for `ImageData`.
async fn rgba(image: &Array) -> Result<Vec<u8>, JsValue> {
    let rgb = image.to_vec_async::<u8>().await.map_err(err)?;
    Ok(rgb
        .chunks_exact(3)
        .flat_map(|p| [p[0], p[1], p[2], 255])
        .collect())
}

/// `steps` device steps, timed after `synchronize_async`, then one CPU step (of the CPU's own
/// copy) timed; returns the frame as RGBA bytes (the timings are read by [`live_stats`]).
#[wasm_bindgen]
pub async fn live_frame(steps: u32) -> Result<Vec<u8>, JsValue> {
    let dev = device()?;
    let mut live = LIVE
        .with(|l| l.borrow_mut().take())
        .ok_or_else(|| JsValue::from_str("call live_start() first"))?;
    let t = Instant::now();
    for _ in 0..steps {
        live.gpu.step().map_err(err)?;
    }
    dev.synchronize_async().await.map_err(err)?;
    let gpu_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    live.cpu.step();
    let cpu_s = t.elapsed().as_secs_f64();
    live.steps += steps as u64;
    let image = live.gpu.image().map_err(err)?;
    STATS.with(|s| {
        let mut s = s.borrow_mut();
        s.gpu_s += gpu_s;
        s.gpu_steps += steps as u64;
        s.cpu_s += cpu_s;
        s.cpu_steps += 1;
    });
    LIVE.with(|l| *l.borrow_mut() = Some(live));
    rgba(&image).await
}

#[derive(Default)]
struct Stats {
    gpu_s: f64,
    gpu_steps: u64,
    cpu_s: f64,
    cpu_steps: u64,
}

thread_local! {
    static STATS: RefCell<Stats> = RefCell::new(Stats::default());
}

/// Steps per second since the last call, `{"gpu":..,"cpu":..,"steps":..}` (JSON), and resets.
#[wasm_bindgen]
pub fn live_stats() -> String {
    let s = STATS.with(|s| std::mem::take(&mut *s.borrow_mut()));
    let steps = LIVE.with(|l| l.borrow().as_ref().map_or(0, |l| l.steps));
    let rate = |n: u64, t: f64| if t > 0.0 { n as f64 / t } else { 0.0 };
    format!(
        "{{\"gpu\":{:.1},\"cpu\":{:.1},\"steps\":{steps}}}",
        rate(s.gpu_steps, s.gpu_s),
        rate(s.cpu_steps, s.cpu_s)
    )
}

/// The check: a fresh n × n simulation from `seed`, `steps` steps on the device and on the CPU
/// loop; the largest difference of the v fields, the seeded cell count and both times (JSON).
#[wasm_bindgen]
pub async fn live_check(n: usize, seed: u32, steps: u32) -> Result<String, JsValue> {
    check_side(n)?;
    let dev = device()?;
    let mut gpu = Simulation::new(&dev, n, seed as u64, CORAL).map_err(err)?;
    let (u, v) = start_fields(&gpu).await?;
    let seeded = v.iter().filter(|&&x| x > 0.0).count();
    let mut cpu = CpuSimulation::new(n, u, v, CORAL);
    let t = Instant::now();
    for _ in 0..steps {
        gpu.step().map_err(err)?;
    }
    dev.synchronize_async().await.map_err(err)?;
    let gpu_ms = t.elapsed().as_secs_f64() * 1e3;
    let t = Instant::now();
    for _ in 0..steps {
        cpu.step();
    }
    let cpu_ms = t.elapsed().as_secs_f64() * 1e3;
    let got = gpu.v.to_vec_async::<f32>().await.map_err(err)?;
    let worst = got
        .iter()
        .zip(&cpu.v)
        .fold(0.0f32, |m, (a, b)| m.max((a - b).abs()));
    Ok(format!(
        "{{\"n\":{n},\"steps\":{steps},\"seeded\":{seeded},\"worst\":{worst:e},\"gpu_ms\":{gpu_ms:.1},\"cpu_ms\":{cpu_ms:.1}}}"
    ))
}
