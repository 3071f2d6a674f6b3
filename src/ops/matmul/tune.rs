//! The one-time tune that picks a device's f32 kernel, kept in the device's extension cache,
//! and the `impl Device` methods that report it.

use crate::array::Array;
use crate::device::matmul_sgb::TILE_ROWS;
use crate::device::{DeviceInner, Kernel};
use crate::dtype::DType;
use crate::error::Result;
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use super::plan::for_each_batch;
use super::sgb::run_sgb;
use super::strided::launch_strided;
use super::{MatmulKernel, MatmulTuning, OP};

/// The matmul state each device keeps: the tune's result, made once.
#[derive(Default)]
pub(super) struct TuneState {
    pub(super) tuning: OnceLock<MatmulTuning>,
    /// Serialises tuning; whoever comes second reuses the result.
    pub(super) lock: Mutex<()>,
}

/// The device's f32 kernel choice, tuning on first use.
pub(crate) fn tuned_kernel(dev: &DeviceInner, device: &crate::Device) -> Result<MatmulTuning> {
    let state = dev.extensions.get::<TuneState>();
    if let Some(t) = state.tuning.get() {
        return Ok(t.clone());
    }
    let _guard = state.lock.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(t) = state.tuning.get() {
        return Ok(t.clone());
    }
    let t = tune(dev, device)?;
    log::debug!(
        "gpuarray: matmul tune on {}: chose {} in {:?}",
        dev.info,
        t.chosen,
        t.elapsed
    );
    let _ = state.tuning.set(t.clone());
    Ok(t)
}

pub(super) fn tune(dev: &DeviceInner, device: &crate::Device) -> Result<MatmulTuning> {
    let started = Instant::now();
    let candidates: Vec<MatmulKernel> = kernels_for(dev)
        .into_iter()
        .filter(|k| *k != MatmulKernel::Naive)
        .collect();
    let (m, n, k) = (512usize, 512usize, 512usize);
    if candidates.len() == 1 {
        return Ok(MatmulTuning {
            chosen: MatmulKernel::Tiled,
            candidates: vec![],
            shape: (m, n, k),
            elapsed: started.elapsed(),
            rejected: vec![],
        });
    }
    // Exactly representable inputs and sums, so every correct kernel gives identical bits.
    let ha: Vec<f32> = (0..m * k).map(|i| ((i * 7) % 13) as f32 - 6.0).collect();
    let hb: Vec<f32> = (0..k * n).map(|i| ((i * 5) % 11) as f32 - 5.0).collect();
    let a = Array::from_slice(device, &ha, &[m, k])?;
    let b = Array::from_slice(device, &hb, &[k, n])?;
    let mut reference: Option<Vec<f32>> = None;
    let mut results = Vec::new();
    let mut rejected = Vec::new();
    for &cand in &candidates {
        let c = Array::empty(OP, device, &[m, n], DType::F32)?;
        let once = || -> Result<()> {
            match cand {
                MatmulKernel::Tiled | MatmulKernel::Naive => for_each_batch(
                    &a.expand_dims(0)?,
                    &b.expand_dims(0)?,
                    &c.expand_dims(0)?,
                    |p| launch_strided(dev, &p, Kernel::MatmulTiled),
                ),
                MatmulKernel::SubgroupBroadcast { rows } => run_sgb(
                    dev,
                    rows,
                    &a.expand_dims(0)?,
                    true,
                    &b.expand_dims(0)?,
                    true,
                    &c.expand_dims(0)?,
                ),
            }
        };
        once()?; // warm-up: compiles the kernel on drivers that compile at first use
        let out = c.to_vec::<f32>()?;
        // A kernel whose subgroup assumption does not hold on this driver gives wrong results:
        // it is never chosen, and the tuning says so (`rejected`).
        match &reference {
            None => reference = Some(out),
            Some(r) if *r != out => {
                let wrong = r.iter().zip(&out).filter(|(x, y)| x != y).count();
                let why = format!(
                    "{wrong} of {} elements differ from {}'s on the {m}x{k} @ {k}x{n} tuning problem",
                    out.len(),
                    candidates[0]
                );
                log::warn!(
                    "gpuarray: matmul kernel {cand} not used on {}: {why}",
                    dev.info
                );
                rejected.push((cand, why));
                continue;
            }
            _ => {}
        }
        let mut best = f64::INFINITY;
        for _ in 0..2 {
            let t = Instant::now();
            once()?;
            device.synchronize()?;
            best = best.min(t.elapsed().as_secs_f64());
        }
        results.push((cand, 2.0 * (m * n * k) as f64 / best / 1e9));
    }
    let chosen = results
        .iter()
        .max_by(|x, y| x.1.total_cmp(&y.1))
        .map_or(MatmulKernel::Tiled, |r| r.0);
    Ok(MatmulTuning {
        chosen,
        candidates: results,
        shape: (m, n, k),
        elapsed: started.elapsed(),
        rejected,
    })
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

impl crate::Device {
    /// The f32 matmul kernel this device uses for large products, running the one-time tune
    /// now if no matmul has run it yet (see [`MatmulTuning`](crate::MatmulTuning)).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// let dev = gpuarray::Device::new()?;
    /// let t = dev.matmul_tuning()?;
    /// println!("matmul kernel: {} (tuned in {:?})", t.chosen, t.elapsed);
    /// # Ok(()) }
    /// ```
    pub fn matmul_tuning(&self) -> Result<MatmulTuning> {
        tuned_kernel(&self.inner, self)
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
