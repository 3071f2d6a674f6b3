//! The one-time tune that picks a device's f32 kernel, kept in the device's extension cache,
//! and the `impl Device` methods that report it.

#[cfg(not(target_arch = "wasm32"))]
use super::families::sgb_family;
use super::families::{MATMUL_NAIVE, MATMUL_TILED};
use super::sgb_source::TILE_ROWS;
use crate::array::Array;
use crate::device::DeviceInner;
#[cfg(not(target_arch = "wasm32"))]
use crate::device::KernelDef;
use crate::dtype::DType;
use crate::error::Result;
use std::sync::{Mutex, OnceLock};
use web_time::Instant;

use super::plan::for_each_batch;
#[cfg(not(target_arch = "wasm32"))]
use super::record::{RECORD, decode, encode};
use super::sgb::{Store, run_sgb};
use super::strided::launch_strided;
use super::{MatmulKernel, MatmulTuning, OP};

/// The matmul state each device keeps: the tune's result, made once.
#[derive(Default)]
pub(super) struct TuneState {
    pub(super) tuning: OnceLock<MatmulTuning>,
    /// Serialises tuning; whoever comes second reuses the result. (A browser has one thread.)
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub(super) lock: Mutex<()>,
}

/// The device's f32 kernel choice, tuning on first use.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn tuned_kernel(dev: &DeviceInner, device: &crate::Device) -> Result<MatmulTuning> {
    let state = dev.extensions.get::<TuneState>();
    if let Some(t) = state.tuning.get() {
        return Ok(t.clone());
    }
    let _guard = state.lock.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(t) = state.tuning.get() {
        return Ok(t.clone());
    }
    // A tune saved by an earlier run on this adapter, driver and build, unless told to retune;
    // one that names a kernel this device cannot run is ignored.
    let saved = (!dev.retune)
        .then(|| dev.load_record(RECORD))
        .flatten()
        .and_then(|bytes| decode(&bytes))
        .filter(|t| kernels_for(dev).contains(&t.chosen));
    let t = match saved {
        Some(t) => t,
        None => {
            // The compile threads would share the cores with the kernels being timed on a CPU
            // adapter (and skew the choice): they wait for the tune.
            let _quiet = dev.compiler.pause();
            let t = tune(dev, device)?;
            dev.store_record(RECORD, encode(&t).as_bytes());
            let chosen: Vec<&'static KernelDef> = match t.chosen {
                MatmulKernel::SubgroupBroadcast { rows } => vec![sgb_family(rows)],
                _ => vec![],
            };
            dev.store_startup_choice(&chosen);
            t
        }
    };
    log::debug!(
        "gpuarray: matmul tune on {}: chose {} in {:?}{}",
        dev.info,
        t.chosen,
        t.elapsed,
        if t.from_cache {
            " (saved by an earlier run)"
        } else {
            ""
        }
    );
    let _ = state.tuning.set(t.clone());
    Ok(t)
}

/// The device's f32 kernel choice. A browser cannot block for the tune: until
/// [`Device::matmul_tuning_async`](crate::Device::matmul_tuning_async) has run it, this is the
/// tiled kernel (the tune's choice wherever no subgroup kernel is offered, as on WebGPU), untimed.
#[cfg(target_arch = "wasm32")]
pub(crate) fn tuned_kernel(dev: &DeviceInner, _: &crate::Device) -> Result<MatmulTuning> {
    let state = dev.extensions.get::<TuneState>();
    Ok(state.tuning.get().cloned().unwrap_or(MatmulTuning {
        chosen: MatmulKernel::Tiled,
        candidates: vec![],
        shape: TUNE_SHAPE,
        elapsed: std::time::Duration::ZERO,
        rejected: vec![],
        from_cache: false,
    }))
}

/// Timed rounds of the native tune (each candidate once per round).
#[cfg(not(target_arch = "wasm32"))]
const TUNE_ROUNDS: usize = 3;

/// The tuning problem's (M, N, K).
#[cfg(not(target_arch = "wasm32"))]
const TUNE_SHAPE: (usize, usize, usize) = (512, 512, 512);
/// Smaller in a browser: on SwiftShader (headless Chromium without a GPU) the tiled and naive
/// kernels run at 0.1-0.2 GFLOP/s, and 512³ made the tune 12 s of a page's start-up.
#[cfg(target_arch = "wasm32")]
const TUNE_SHAPE: (usize, usize, usize) = (256, 256, 256);

/// The tuning problem's operands: exactly representable inputs and sums, so every correct
/// kernel gives identical bits.
fn tune_operands(device: &crate::Device) -> Result<(Array, Array)> {
    let (m, n, k) = TUNE_SHAPE;
    let ha: Vec<f32> = (0..m * k).map(|i| ((i * 7) % 13) as f32 - 6.0).collect();
    let hb: Vec<f32> = (0..k * n).map(|i| ((i * 5) % 11) as f32 - 5.0).collect();
    Ok((
        Array::from_slice(device, &ha, &[m, k])?,
        Array::from_slice(device, &hb, &[k, n])?,
    ))
}

/// One run of candidate `cand` on the tuning problem, recorded (not waited for).
fn run_candidate(
    dev: &DeviceInner,
    cand: MatmulKernel,
    a: &Array,
    b: &Array,
    c: &Array,
) -> Result<()> {
    match cand {
        MatmulKernel::Tiled => for_each_batch(
            &a.expand_dims(0)?,
            &b.expand_dims(0)?,
            &c.expand_dims(0)?,
            |p| launch_strided(dev, &p, &MATMUL_TILED),
        ),
        MatmulKernel::Naive => for_each_batch(
            &a.expand_dims(0)?,
            &b.expand_dims(0)?,
            &c.expand_dims(0)?,
            |p| launch_strided(dev, &p, &MATMUL_NAIVE),
        ),
        MatmulKernel::SubgroupBroadcast { rows } => run_sgb(
            dev,
            rows,
            &a.expand_dims(0)?,
            true,
            &b.expand_dims(0)?,
            true,
            &c.expand_dims(0)?,
            Store::Write,
        ),
    }
}

/// Why `out` is not accepted: it differs from the first candidate's result `reference`.
fn differs(
    reference: &[f32],
    out: &[f32],
    cand: MatmulKernel,
    first: MatmulKernel,
) -> Option<String> {
    let (m, n, k) = TUNE_SHAPE;
    let wrong = reference.iter().zip(out).filter(|(x, y)| x != y).count();
    (wrong > 0).then(|| {
        format!(
            "{wrong} of {} elements differ from {first}'s on the {m}x{k} @ {k}x{n} tuning problem (kernel {cand})",
            out.len()
        )
    })
}

#[cfg(not(target_arch = "wasm32"))]
pub(super) fn tune(dev: &DeviceInner, device: &crate::Device) -> Result<MatmulTuning> {
    let started = Instant::now();
    let (m, n, k) = TUNE_SHAPE;
    let candidates: Vec<MatmulKernel> = kernels_for(dev)
        .into_iter()
        .filter(|k| *k != MatmulKernel::Naive)
        .collect();
    if candidates.len() == 1 {
        return Ok(MatmulTuning {
            chosen: MatmulKernel::Tiled,
            candidates: vec![],
            shape: TUNE_SHAPE,
            elapsed: started.elapsed(),
            rejected: vec![],
            from_cache: false,
        });
    }
    let (a, b) = tune_operands(device)?;
    let mut reference: Option<Vec<f32>> = None;
    let mut rejected = Vec::new();
    let mut accepted = Vec::new();
    for &cand in &candidates {
        let c = Array::empty(OP, device, &[m, n], DType::F32)?;
        // Warm-up: compiles the kernel on drivers that compile at first use.
        run_candidate(dev, cand, &a, &b, &c)?;
        let out = c.to_vec::<f32>()?;
        // A kernel whose subgroup assumption does not hold on this driver gives wrong results:
        // it is never chosen, and the tuning says so (`rejected`).
        match &reference {
            None => reference = Some(out),
            Some(r) => {
                if let Some(why) = differs(r, &out, cand, candidates[0]) {
                    log::warn!(
                        "gpuarray: matmul kernel {cand} not used on {}: {why}",
                        dev.info
                    );
                    rejected.push((cand, why));
                    continue;
                }
            }
        }
        accepted.push((cand, c, f64::INFINITY));
    }
    // Timed in interleaved rounds (each candidate once per round, best of the rounds): a burst
    // of load from elsewhere then slows every candidate alike instead of deciding the choice,
    // which matters now that the choice is saved for later runs.
    for round in 0..TUNE_ROUNDS {
        // A candidate more than twice as slow as the fastest after a round cannot come within
        // the 5 % `choose` looks at unless noise had doubled its time: it is not run again (on
        // a CPU adapter the tiled kernel is ~10× slower than the subgroup ones, and its rounds
        // were most of the tune — paid by every device that starts without a saved tune).
        let fastest = accepted.iter().map(|x| x.2).fold(f64::INFINITY, f64::min);
        for (cand, c, best) in &mut accepted {
            if round > 0 && *best > 2.0 * fastest {
                continue;
            }
            let t = Instant::now();
            run_candidate(dev, *cand, &a, &b, c)?;
            device.synchronize()?;
            *best = best.min(t.elapsed().as_secs_f64());
        }
    }
    let results: Vec<(MatmulKernel, f64)> = accepted
        .into_iter()
        .map(|(cand, _, best)| (cand, 2.0 * (m * n * k) as f64 / best / 1e9))
        .collect();
    Ok(MatmulTuning {
        chosen: choose(&results),
        candidates: results,
        shape: TUNE_SHAPE,
        elapsed: started.elapsed(),
        rejected,
        from_cache: false,
    })
}

/// The fastest candidate; among those within 5 % of it, the one with the tallest register tile.
/// The tuning problem is small (512³), and there the subgroup kernels often come within noise of
/// each other (lavapipe: 29.4, 27.6 and 29.7 GFLOP/s for 32, 16 and 8 rows in one run, 30.9,
/// 37.5 and 32.8 in another): a near tie goes to the taller tile, which loads each B value once
/// per more rows, since the choice is kept for every later run.
fn choose(results: &[(MatmulKernel, f64)]) -> MatmulKernel {
    let best = results.iter().map(|r| r.1).fold(0.0, f64::max);
    let rows = |k: &MatmulKernel| match k {
        MatmulKernel::SubgroupBroadcast { rows } => *rows,
        _ => 0,
    };
    results
        .iter()
        .filter(|r| r.1 >= 0.95 * best)
        .max_by(|x, y| rows(&x.0).cmp(&rows(&y.0)).then(x.1.total_cmp(&y.1)))
        .map_or(MatmulKernel::Tiled, |r| r.0)
}

/// Every matmul kernel `dev` can run: the naive and tiled kernels everywhere, the
/// subgroup-broadcast ones where subgroups are 8 wide.
pub(super) fn kernels_for(dev: &DeviceInner) -> Vec<MatmulKernel> {
    let mut kernels = vec![MatmulKernel::Tiled, MatmulKernel::Naive];
    if dev.has_subgroups_of_8() {
        kernels.extend(TILE_ROWS.map(|rows| MatmulKernel::SubgroupBroadcast { rows }));
    }
    kernels
}

/// The tune without blocking, for a browser: the same problem, and every kernel the device can
/// run is a candidate, the naive one included (WebGPU offers no subgroup kernel, so the tiled
/// and naive kernels are what there is to compare). A candidate is dropped when the browser
/// rejects its shader or it runs wrong; timings use `performance.now()` around
/// [`Device::synchronize_async`](crate::Device::synchronize_async).
#[cfg(target_arch = "wasm32")]
async fn tune_async(dev: &DeviceInner, device: &crate::Device) -> Result<MatmulTuning> {
    let started = Instant::now();
    let (m, n, k) = TUNE_SHAPE;
    let candidates = kernels_for(dev);
    let (a, b) = tune_operands(device)?;
    let mut reference: Option<Vec<f32>> = None;
    let mut results = Vec::new();
    let mut rejected = Vec::new();
    for &cand in &candidates {
        let c = Array::empty(OP, device, &[m, n], DType::F32)?;
        // The first run compiles the kernel; a shader the browser rejects shows up here.
        let out = match run_candidate(dev, cand, &a, &b, &c) {
            Ok(()) => c.to_vec_async::<f32>().await,
            Err(e) => Err(e),
        };
        let out = match out {
            Ok(out) => out,
            Err(e) => {
                log::warn!(
                    "gpuarray: matmul kernel {cand} not used on {}: {e}",
                    dev.info
                );
                rejected.push((cand, format!("failed on this device: {e}")));
                continue;
            }
        };
        match &reference {
            None => reference = Some(out),
            Some(r) => {
                if let Some(why) = differs(r, &out, cand, candidates[0]) {
                    log::warn!(
                        "gpuarray: matmul kernel {cand} not used on {}: {why}",
                        dev.info
                    );
                    rejected.push((cand, why));
                    continue;
                }
            }
        }
        let mut best = f64::INFINITY;
        for _ in 0..2 {
            let t = Instant::now();
            run_candidate(dev, cand, &a, &b, &c)?;
            device.synchronize_async().await?;
            best = best.min(t.elapsed().as_secs_f64());
        }
        results.push((cand, 2.0 * (m * n * k) as f64 / best / 1e9));
    }
    Ok(MatmulTuning {
        chosen: choose(&results),
        candidates: results,
        shape: TUNE_SHAPE,
        elapsed: started.elapsed(),
        rejected,
        from_cache: false,
    })
}

impl crate::Device {
    /// The f32 matmul kernel this device uses for large products, running the one-time tune
    /// now if no matmul has run it yet (see [`MatmulTuning`](crate::MatmulTuning)).
    ///
    /// Native only (the tune blocks); on wasm32 use
    /// [`Device::matmul_tuning_async`](crate::Device::matmul_tuning_async).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// let dev = gpuarray::Device::new()?;
    /// let t = dev.matmul_tuning()?;
    /// println!("matmul kernel: {} (tuned in {:?})", t.chosen, t.elapsed);
    /// # Ok(()) }
    /// ```
    #[cfg(not(target_arch = "wasm32"))]
    pub fn matmul_tuning(&self) -> Result<MatmulTuning> {
        tuned_kernel(&self.inner, self)
    }

    /// [`Device::matmul_tuning`](crate::Device::matmul_tuning) for async callers. On wasm32 this
    /// is how the tune runs at all: call it once after
    /// [`Device::new_async`](crate::Device::new_async) (until then large f32 matmuls use the tiled
    /// kernel); it times every kernel the browser compiles, without blocking. Natively it is the
    /// blocking tune, which returns at once when a matmul has already run it.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> { pollster::block_on(async {
    /// let dev = gpuarray::Device::new_async().await?;
    /// let t = dev.matmul_tuning_async().await?;
    /// assert!(dev.matmul_kernels().contains(&t.chosen));
    /// # Ok(()) }) }
    /// ```
    pub async fn matmul_tuning_async(&self) -> Result<MatmulTuning> {
        #[cfg(not(target_arch = "wasm32"))]
        return self.matmul_tuning();
        #[cfg(target_arch = "wasm32")]
        {
            let state = self.inner.extensions.get::<TuneState>();
            if let Some(t) = state.tuning.get() {
                return Ok(t.clone());
            }
            // One thread in a browser: no lock needed, and a second caller only repeats the tune.
            let t = tune_async(&self.inner, self).await?;
            let _ = state.tuning.set(t.clone());
            Ok(state.tuning.get().cloned().unwrap_or(t))
        }
    }

    /// Every matmul kernel this device can run (each accepted by
    /// [`Array::matmul_with`](crate::Array::matmul_with)), whichever the tune chooses.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::full(&dev, &[4, 4], 1.0, gpuarray::DType::F32)?;
    /// for k in dev.matmul_kernels() {
    ///     assert_eq!(a.matmul_with(&a, k)?.to_vec::<f32>()?, vec![4.0; 16]);
    /// }
    /// # Ok(()) }
    /// ```
    pub fn matmul_kernels(&self) -> Vec<MatmulKernel> {
        kernels_for(&self.inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_ties_go_to_the_tallest_tile_and_clear_wins_to_the_fastest() {
        let sgb = |rows| MatmulKernel::SubgroupBroadcast { rows };
        let tied = [
            (MatmulKernel::Tiled, 3.4),
            (sgb(32), 32.3),
            (sgb(16), 31.9),
            (sgb(8), 24.4),
        ];
        assert_eq!(choose(&tied), sgb(32));
        let flipped = [(sgb(32), 31.0), (sgb(16), 32.0)];
        assert_eq!(choose(&flipped), sgb(32));
        let clear = [(MatmulKernel::Tiled, 3.4), (sgb(32), 20.0), (sgb(16), 30.0)];
        assert_eq!(choose(&clear), sgb(16));
        assert_eq!(choose(&[(MatmulKernel::Tiled, 1.0)]), MatmulKernel::Tiled);
        assert_eq!(choose(&[]), MatmulKernel::Tiled);
    }
}
