//! One submitted batch as the profiler sees it: when it was submitted and when the host saw it
//! finish, and — on adapters with `TIMESTAMP_QUERY` — a query set that every profiled compute
//! pass of the batch writes its begin and end into. The query set is resolved at the end of the
//! batch's own command buffer and read back with `map_async`, so collecting the times never adds
//! a wait to the caller's work; the readback lands when something polls after the batch is done.

use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Profiled passes one query block holds: the scheduler submits after `MAX_BATCH` recordings,
/// so a block never runs out in practice; a pass past it simply goes untimed.
const PASSES_PER_BLOCK: u32 = super::super::scheduler::MAX_BATCH + 16;

/// A query set with its resolve and readback buffers, reused from batch to batch once its
/// readback has landed.
pub(crate) struct QueryBlock {
    set: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    readback: wgpu::Buffer,
}

impl QueryBlock {
    fn new(device: &wgpu::Device) -> QueryBlock {
        let queries = 2 * PASSES_PER_BLOCK;
        let bytes = queries as u64 * 8;
        QueryBlock {
            set: device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("gpuarray profile timestamps"),
                ty: wgpu::QueryType::Timestamp,
                count: queries,
            }),
            resolve: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("gpuarray profile resolve"),
                size: bytes,
                usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            }),
            readback: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("gpuarray profile readback"),
                size: bytes,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }),
        }
    }
}

/// Query blocks whose readback has landed, ready for another batch.
pub(crate) type SpareBlocks = Arc<Mutex<Vec<QueryBlock>>>;

/// What is known of a batch's GPU times.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Ticks {
    /// The readback has not landed yet.
    Pending,
    /// Begin and end ticks of each timed pass, in the order the passes were recorded.
    Ready(Vec<u64>),
    /// No GPU times: the adapter has no timestamps, or the readback failed (device lost).
    None,
}

#[derive(Default)]
struct BatchState {
    block: Option<QueryBlock>,
    timed_passes: u32,
    /// Labels of the timed passes, kept only when `GPUARRAY_LOG` asks for per-launch GPU times.
    labels: Vec<String>,
    submitted: Option<Instant>,
    done: Option<Instant>,
    ticks: Option<Ticks>,
}

/// The profiled launches recorded into one command encoder, from the first one to its submit.
pub(crate) struct Batch {
    state: Mutex<BatchState>,
}

/// The query indices of one timed pass.
pub(crate) struct PassQueries {
    pub set: wgpu::QuerySet,
    pub begin: u32,
}

impl Batch {
    pub fn new() -> Arc<Batch> {
        Arc::new(Batch {
            state: Mutex::new(BatchState::default()),
        })
    }

    fn state(&self) -> std::sync::MutexGuard<'_, BatchState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queries for the next pass, when the batch has a block (`None` once it is full); `slot`
    /// is the pass's index in [`Ticks::Ready`].
    pub fn next_pass(
        &self,
        device: &wgpu::Device,
        spare: &SpareBlocks,
        label: Option<String>,
    ) -> Option<(PassQueries, u32)> {
        let mut s = self.state();
        if s.timed_passes >= PASSES_PER_BLOCK {
            return None;
        }
        if s.block.is_none() {
            let reused = spare.lock().unwrap_or_else(|e| e.into_inner()).pop();
            s.block = Some(reused.unwrap_or_else(|| QueryBlock::new(device)));
        }
        let slot = s.timed_passes;
        s.timed_passes += 1;
        s.labels.extend(label);
        let set = s.block.as_ref().map(|b| b.set.clone())?;
        Some((
            PassQueries {
                set,
                begin: 2 * slot,
            },
            slot,
        ))
    }

    /// Records, at the end of the batch's encoder, the copy of its timestamps to the readback
    /// buffer. Called under the scheduler's lock just before the encoder is finished.
    pub fn resolve(&self, encoder: &mut wgpu::CommandEncoder) {
        let s = self.state();
        if let Some(b) = &s.block {
            let queries = 2 * s.timed_passes;
            encoder.resolve_query_set(&b.set, 0..queries, &b.resolve, 0);
            encoder.copy_buffer_to_buffer(&b.resolve, 0, &b.readback, 0, queries as u64 * 8);
        }
    }

    pub fn mark_submitted(&self) {
        self.state().submitted = Some(Instant::now());
    }

    /// After the submit: asks for the readback (it lands when a later poll sees the batch done)
    /// and for the moment the host sees the batch finish. `log` prints each timed pass's GPU
    /// time when the readback lands (`GPUARRAY_LOG`), `period_ns` converts ticks.
    pub fn after_submit(
        self: &Arc<Self>,
        queue: &wgpu::Queue,
        spare: &SpareBlocks,
        log: Option<(f64, String)>,
    ) {
        let done = Arc::clone(self);
        queue.on_submitted_work_done(move || {
            done.state().done = Some(Instant::now());
        });
        let mut s = self.state();
        let Some(block) = s.block.take() else {
            s.ticks = Some(Ticks::None);
            return;
        };
        let bytes = 2 * s.timed_passes as u64 * 8;
        let labels = std::mem::take(&mut s.labels);
        drop(s);
        let (batch, spare) = (Arc::clone(self), Arc::clone(spare));
        let readback = block.readback.clone();
        readback
            .clone()
            .slice(..bytes)
            .map_async(wgpu::MapMode::Read, move |result| {
                let view = result
                    .ok()
                    .and_then(|()| readback.get_mapped_range(0..bytes).ok());
                let ticks = match view {
                    Some(data) => {
                        let ticks: Vec<u64> = data
                            .chunks_exact(8)
                            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
                            .collect();
                        drop(data);
                        readback.unmap();
                        spare.lock().unwrap_or_else(|e| e.into_inner()).push(block);
                        Ticks::Ready(ticks)
                    }
                    // The device is gone (or the map failed): the block goes with it.
                    None => Ticks::None,
                };
                if let (Some((period_ns, adapter)), Ticks::Ready(t)) = (&log, &ticks) {
                    for (label, pair) in labels.iter().zip(t.chunks_exact(2)) {
                        let us = pair[1].saturating_sub(pair[0]) as f64 * period_ns / 1e3;
                        eprintln!("gpuarray: gpu time {label} {us:.1} us on {adapter}");
                    }
                }
                batch.state().ticks = Some(ticks);
            });
    }

    /// When the batch was submitted (`None` while it is still being recorded).
    pub fn submitted(&self) -> Option<Instant> {
        self.state().submitted
    }

    /// When the host saw the batch finish (`None` until a poll after it finished).
    pub fn done(&self) -> Option<Instant> {
        self.state().done
    }

    /// The batch's timestamps so far.
    pub fn ticks(&self) -> Ticks {
        self.state().ticks.clone().unwrap_or(Ticks::Pending)
    }

    /// Whether everything the profiler waits for has landed.
    pub fn settled(&self) -> bool {
        let s = self.state();
        s.done.is_some() && !matches!(s.ticks, None | Some(Ticks::Pending))
    }
}
