//! The scheduler: kernels are recorded into one pending command encoder and submitted together —
//! on readback, on `synchronize`, before an upload, or after a bounded batch. Every GPU-touching
//! step runs inside error scopes, and every wait is bounded, so wgpu errors become `Err` and
//! nothing hangs.

use super::DeviceInner;
use super::profile::CallKind;
use crate::error::{Error, Result};
#[cfg(not(target_arch = "wasm32"))]
use crate::memory::{Backoff, Progress, blocking_slice};
use std::sync::MutexGuard;
#[cfg(not(target_arch = "wasm32"))]
use std::time::Instant;

/// Dispatches recorded before a submit is forced: bounds how much work one submit holds (a
/// watchdog on real GPUs resets long submissions) while keeping per-op overhead low.
pub(crate) const MAX_BATCH: u32 = 256;

#[derive(Default)]
pub(crate) struct Pending {
    encoder: Option<wgpu::CommandEncoder>,
    recorded: u32,
}

impl DeviceInner {
    fn pending(&self) -> MutexGuard<'_, Pending> {
        self.pending.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Fails fast once the device is lost, naming `op` and the reason.
    pub(crate) fn check_alive(&self, op: &'static str) -> Result<()> {
        if self.is_lost() {
            Err(self.lost_error(op))
        } else {
            Ok(())
        }
    }

    /// Runs `f` inside out-of-memory, validation and internal error scopes on this thread, so a
    /// wgpu error raised by anything `f` creates, records or submits becomes an `Err` of `op`.
    pub(crate) fn guarded<T>(&self, op: &'static str, f: impl FnOnce() -> Result<T>) -> Result<T> {
        self.check_alive(op)?;
        let _call = self.profiler.host_call(op, CallKind::Call);
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let internal = self.device.push_error_scope(wgpu::ErrorFilter::Internal);
        let result = f();
        // Pop in reverse order of pushing; on native the futures are already resolved.
        #[cfg(not(target_arch = "wasm32"))]
        let errors = [
            pollster::block_on(internal.pop()),
            pollster::block_on(validation.pop()),
            pollster::block_on(oom.pop()),
        ];
        // In a browser they resolve later: the error surfaces at the next await on the device
        // (see `memory/late_errors.rs`).
        #[cfg(target_arch = "wasm32")]
        let errors: [Option<wgpu::Error>; 3] = {
            self.late_errors
                .defer(op, [internal.pop(), validation.pop(), oom.pop()]);
            [None, None, None]
        };
        self.check_alive(op)?;
        if let Some(e) = errors.into_iter().flatten().next() {
            return Err(match e {
                wgpu::Error::OutOfMemory { .. } => {
                    let s = self.pool.stats();
                    Error::OutOfMemory {
                        requested: 0,
                        in_use: s.in_use_bytes,
                        limit: s.limit.unwrap_or(u64::MAX),
                    }
                }
                other => Error::Gpu(format!(
                    "{op}: {}",
                    crate::error::describe_wgpu_error(&other)
                )),
            });
        }
        result
    }

    /// Records into the pending encoder. Call inside [`DeviceInner::guarded`].
    pub(crate) fn record<T>(&self, f: impl FnOnce(&mut wgpu::CommandEncoder) -> T) -> T {
        let mut p = self.pending();
        let encoder = p.encoder.get_or_insert_with(|| {
            self.device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some("gpuarray batch"),
                })
        });
        let out = f(encoder);
        p.recorded += 1;
        if p.recorded >= MAX_BATCH {
            self.submit_locked(&mut p);
        }
        out
    }

    /// Records `f` after the pending work and submits everything at once, returning the
    /// submission to wait for (readbacks use this).
    pub(crate) fn submit_now(
        &self,
        f: impl FnOnce(&mut wgpu::CommandEncoder),
    ) -> wgpu::SubmissionIndex {
        let mut p = self.pending();
        let encoder = p.encoder.get_or_insert_with(|| {
            self.device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some("gpuarray batch"),
                })
        });
        f(encoder);
        p.recorded += 1;
        self.submit_locked(&mut p)
    }

    /// Submits the pending work, then runs `f` while no other thread can record: `queue.write_buffer`
    /// runs at the start of the *next* submit, before commands already recorded, so an upload into a
    /// reused buffer must never be staged while older commands that read it are still pending.
    pub(crate) fn after_flush<T>(&self, f: impl FnOnce() -> T) -> T {
        let mut p = self.pending();
        self.submit_locked(&mut p);
        f()
    }

    /// Submits pending work (if any) and returns the index of the latest submission.
    pub(crate) fn flush(&self) -> wgpu::SubmissionIndex {
        let mut p = self.pending();
        self.submit_locked(&mut p)
    }

    fn submit_locked(&self, p: &mut Pending) -> wgpu::SubmissionIndex {
        // A profiled batch resolves its timestamps at the end of its own command buffer.
        let profiled = p
            .encoder
            .as_mut()
            .and_then(|e| self.profiler.finish_batch(e));
        let buffers: Vec<wgpu::CommandBuffer> =
            p.encoder.take().map(|e| e.finish()).into_iter().collect();
        p.recorded = 0;
        let index = self.maintainer.submit(&self.queue, buffers);
        if let Some(batch) = profiled {
            // Still under the pending lock: no other submit comes between this one and the
            // batch's completion callback, which wgpu ties to the latest submit.
            let log = self.log_dispatches.then(|| self.info.to_string());
            self.profiler.submitted(&batch, &self.queue, log);
        }
        index
    }

    /// Waits, with the device's timeout, for a submission to finish. Never hangs: checks the
    /// submission in short blocking slices while alone, or without blocking and backing off
    /// between checks while other threads use the device (see `memory/maintain.rs` for why),
    /// checking for device loss each time; a panic inside wgpu's poll (its fatal-error path) is
    /// reported as a lost device. Native only: a browser awaits (`device/signal.rs`).
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn wait(&self, op: &'static str, index: &wgpu::SubmissionIndex) -> Result<()> {
        let _wait = self.profiler.host_call(op, CallKind::Wait);
        let timeout = self.timeout();
        let start = Instant::now();
        let mut backoff = Backoff::new();
        loop {
            self.check_alive(op)?;
            match self
                .maintainer
                .check(&self.device, index, blocking_slice(start.elapsed()))
            {
                Progress::Done => return self.check_alive(op),
                Progress::Running { blocked } => {
                    let waited = start.elapsed();
                    if waited >= timeout {
                        return Err(Error::Timeout { op, after: waited });
                    }
                    if !blocked {
                        backoff.pause(waited);
                    }
                }
                Progress::Failed(e) => {
                    self.check_alive(op)?;
                    return Err(Error::Gpu(format!("{op}: waiting for the GPU failed: {e}")));
                }
                Progress::Panicked => {
                    self.mark_lost("wgpu panicked while polling the device");
                    return Err(self.lost_error(op));
                }
            }
        }
    }

    /// A non-blocking poll that turns a wgpu panic into device loss.
    pub(crate) fn poll_once(&self) {
        if !self.maintainer.poll(&self.device) {
            self.mark_lost("wgpu panicked while polling the device");
        }
    }
}
