//! Honest timing: [`Device::profile`] records every kernel launch a closure makes, with its GPU
//! time from timestamp queries where the adapter has them; [`benchmark`] times repeated calls,
//! always after synchronising; a [`Profile`] prints a per-kernel table and writes a Chrome trace.
//! `GPUARRAY_PROFILE=trace.json` profiles a whole run and writes the trace when the device drops.
//!
//! How it works: while a profile is open, the scheduler gives each compute pass it records
//! `timestamp_writes` into a query set of the pending batch ([`timestamps`]); the set is resolved
//! at the end of the batch and read back asynchronously, so the caller's work never waits for
//! the profiler. With no profile open the only cost is one atomic load per launch and per call.
//! Adapters without `TIMESTAMP_QUERY` (or with it hidden: `DeviceConfig::disable_timestamps`,
//! `GPUARRAY_NO_TIMESTAMPS=1`) get CPU times per submit (submit to the host seeing it done),
//! and every report says so.
//!
//! `Device::profile` and `benchmark` wait for the device, so they are native-only; in a browser
//! the recording side compiles but nothing opens a profile yet.
#![cfg_attr(target_arch = "wasm32", allow(dead_code))]

mod benchmark;
mod report;
mod timestamps;
mod trace;

#[cfg(not(target_arch = "wasm32"))]
pub use benchmark::benchmark;
pub use benchmark::{BenchOptions, BenchReport, Stats};
pub use report::{CallKind, GpuSpan, HostSpan, KernelSummary, LaunchProfile, Profile, SubmitSpan};

use super::{Device, DeviceInner};
#[cfg(not(target_arch = "wasm32"))]
use crate::error::Result;
use std::cell::Cell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::ThreadId;
use std::time::Duration;
use timestamps::{Batch, PassQueries, SpareBlocks, Ticks};
use web_time::Instant;

thread_local! {
    /// The outermost API call running on this thread while a profile is open (launches are
    /// attributed to it), and how deeply calls are nested inside it.
    static CURRENT_CALL: Cell<(u32, Option<&'static str>)> = const { Cell::new((0, None)) };
}

/// A launch as recorded, before its GPU times are known.
struct RawLaunch {
    kernel: String,
    variant: String,
    constants: String,
    call: Option<&'static str>,
    what: String,
    workgroups: (u32, u32, u32),
    bytes: u64,
    flops: u64,
    at: Instant,
    batch: Arc<Batch>,
    /// The pass's index in its batch's timestamps; `None` when untimed.
    slot: Option<u32>,
}

#[derive(Clone, Copy)]
struct RawHost {
    name: &'static str,
    kind: CallKind,
    start: Instant,
    end: Instant,
}

/// One open profile: the launches and host calls of one thread (or of every thread).
struct Session {
    id: u64,
    thread: Option<ThreadId>,
    started: Instant,
    launches: Vec<RawLaunch>,
    host: Vec<RawHost>,
}

#[derive(Default)]
struct State {
    sessions: Vec<Session>,
    next_id: u64,
    /// The batch of the pending command encoder, once a profiled launch went into it.
    current: Option<Arc<Batch>>,
}

/// Per-device profiler state (lives in [`DeviceInner`]).
pub(crate) struct Profiler {
    open: AtomicUsize,
    state: Mutex<State>,
    spare: SpareBlocks,
    /// Nanoseconds per timestamp tick; `None` without usable timestamps.
    period_ns: Option<f64>,
    /// `GPUARRAY_PROFILE`: the whole-run session and the file its trace goes to.
    whole_run: Mutex<Option<(u64, std::path::PathBuf)>>,
}

/// Opens a session on construction and closes it on drop, so a panicking closure does not leave
/// the profiler recording.
struct OpenSession<'a> {
    profiler: &'a Profiler,
    id: Option<u64>,
}

impl Drop for OpenSession<'_> {
    fn drop(&mut self) {
        if let Some(id) = self.id.take() {
            self.profiler.take_session(id);
        }
    }
}

/// Records a host call's span when dropped (see [`Profiler::host_call`]).
pub(crate) struct HostCall<'a> {
    profiler: &'a Profiler,
    name: &'static str,
    kind: CallKind,
    start: Instant,
    outermost: bool,
}

impl Drop for HostCall<'_> {
    fn drop(&mut self) {
        let end = Instant::now();
        CURRENT_CALL.with(|c| {
            let (depth, name) = c.get();
            c.set((
                depth.saturating_sub(1),
                if depth <= 1 { None } else { name },
            ));
        });
        // A compile is recorded inside the call it delays: it is why that call was slow.
        if self.outermost || self.kind == CallKind::Compile {
            self.profiler.push_host(RawHost {
                name: self.name,
                kind: self.kind,
                start: self.start,
                end,
            });
        }
    }
}

/// What one launch does, for the profile: a description for logs and traces, and its
/// floating-point (or integer) operations where the launch knows them.
pub(crate) struct Work {
    pub what: String,
    pub flops: u64,
}

impl Work {
    /// A launch that moves data and computes nothing worth counting (copies, gathers).
    pub fn moves(what: String) -> Work {
        Work { what, flops: 0 }
    }
    /// A launch of `flops` arithmetic operations.
    pub fn computes(what: String, flops: u64) -> Work {
        Work { what, flops }
    }
}

/// A profiled launch between its recording and its entry in the sessions.
pub(crate) struct LaunchTag {
    batch: Arc<Batch>,
    slot: Option<u32>,
}

impl Profiler {
    pub(crate) fn new(timestamps: bool, period_ns: f32) -> Profiler {
        Profiler {
            open: AtomicUsize::new(0),
            state: Mutex::new(State::default()),
            spare: Arc::new(Mutex::new(Vec::new())),
            period_ns: (timestamps && period_ns > 0.0).then_some(period_ns as f64),
            whole_run: Mutex::new(None),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether launches on this thread are being recorded (one atomic load when none is).
    pub(crate) fn records_this_thread(&self) -> bool {
        if self.open.load(Ordering::Relaxed) == 0 {
            return false;
        }
        let me = std::thread::current().id();
        self.state()
            .sessions
            .iter()
            .any(|s| s.thread.is_none_or(|t| t == me))
    }

    fn open_session(&self, thread: Option<ThreadId>) -> OpenSession<'_> {
        let mut st = self.state();
        st.next_id += 1;
        let id = st.next_id;
        st.sessions.push(Session {
            id,
            thread,
            started: Instant::now(),
            launches: Vec::new(),
            host: Vec::new(),
        });
        self.open.fetch_add(1, Ordering::SeqCst);
        OpenSession {
            profiler: self,
            id: Some(id),
        }
    }

    fn take_session(&self, id: u64) -> Option<Session> {
        let mut st = self.state();
        let i = st.sessions.iter().position(|s| s.id == id)?;
        self.open.fetch_sub(1, Ordering::SeqCst);
        Some(st.sessions.remove(i))
    }

    /// Marks the start of an API call (`op`) on this thread; its span is recorded when the
    /// returned guard drops, if it is the outermost call. `None` (free) when nothing records.
    pub(crate) fn host_call(&self, name: &'static str, kind: CallKind) -> Option<HostCall<'_>> {
        if !self.records_this_thread() {
            return None;
        }
        let outermost = CURRENT_CALL.with(|c| {
            let (depth, current) = c.get();
            c.set((depth + 1, current.or(Some(name))));
            depth == 0
        });
        Some(HostCall {
            profiler: self,
            name,
            kind,
            start: Instant::now(),
            outermost,
        })
    }

    fn push_host(&self, raw: RawHost) {
        let me = std::thread::current().id();
        for s in self
            .state()
            .sessions
            .iter_mut()
            .filter(|s| s.thread.is_none_or(|t| t == me))
        {
            s.host.push(raw);
        }
    }

    /// Called under the scheduler's lock while recording a pass: the batch it joins and, with
    /// timestamps, the queries it writes.
    pub(crate) fn begin_pass(
        &self,
        device: &wgpu::Device,
        label: &str,
        log: bool,
    ) -> (LaunchTag, Option<PassQueries>) {
        let batch = Arc::clone(self.state().current.get_or_insert_with(Batch::new));
        let timed = self
            .period_ns
            .and_then(|_| batch.next_pass(device, &self.spare, log.then(|| label.to_string())));
        let (queries, slot) = match timed {
            Some((q, slot)) => (Some(q), Some(slot)),
            None => (None, None),
        };
        (LaunchTag { batch, slot }, queries)
    }

    /// Records a launch into every session that wants this thread.
    pub(crate) fn push_launch(
        &self,
        tag: LaunchTag,
        [kernel, variant, constants]: [String; 3],
        workgroups: (u32, u32, u32),
        bytes: u64,
        work: &Work,
    ) {
        let me = std::thread::current().id();
        let call = CURRENT_CALL.with(|c| c.get().1);
        let at = Instant::now();
        let mut st = self.state();
        for s in st
            .sessions
            .iter_mut()
            .filter(|s| s.thread.is_none_or(|t| t == me))
        {
            s.launches.push(RawLaunch {
                kernel: kernel.clone(),
                variant: variant.clone(),
                constants: constants.clone(),
                call,
                what: work.what.clone(),
                workgroups,
                bytes,
                flops: work.flops,
                at,
                batch: Arc::clone(&tag.batch),
                slot: tag.slot,
            });
        }
    }

    /// Called under the scheduler's lock just before the pending encoder is finished: the
    /// profiled batch of that encoder, its timestamps resolved at its end.
    pub(crate) fn finish_batch(&self, encoder: &mut wgpu::CommandEncoder) -> Option<Arc<Batch>> {
        let batch = self.state().current.take()?;
        batch.resolve(encoder);
        batch.mark_submitted();
        Some(batch)
    }

    /// Called under the scheduler's lock right after the submit that carried `batch`.
    pub(crate) fn submitted(&self, batch: &Arc<Batch>, queue: &wgpu::Queue, log: Option<String>) {
        let log = match (log, self.period_ns) {
            (Some(adapter), Some(period)) => Some((period, adapter)),
            _ => None,
        };
        batch.after_submit(queue, &self.spare, log);
    }

    /// Whether GPU timestamps are in use.
    pub(crate) fn has_timestamps(&self) -> bool {
        self.period_ns.is_some()
    }

    /// Starts the whole-run profile of `GPUARRAY_PROFILE` (all threads), written to `path` when
    /// the device drops.
    pub(crate) fn start_whole_run(&self, path: std::path::PathBuf) {
        // The first device of a run writes `path`; later ones `trace-2.json`, `trace-3.json`...
        static WHOLE_RUNS: AtomicUsize = AtomicUsize::new(0);
        let path = match WHOLE_RUNS.fetch_add(1, Ordering::SeqCst) {
            0 => path,
            n => numbered(&path, n + 1),
        };
        let mut session = self.open_session(None);
        let id = session.id.take().expect("a new session");
        *self.whole_run.lock().unwrap_or_else(|e| e.into_inner()) = Some((id, path));
    }
}

/// `trace.json` → `trace-2.json`.
fn numbered(path: &std::path::Path, n: usize) -> std::path::PathBuf {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{n}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{n}"),
    };
    path.with_file_name(name)
}

impl DeviceInner {
    /// Under a profile, marks a composite API call (einsum, ...) so that its launches and
    /// waits are attributed to it; free otherwise.
    pub(crate) fn call_scope(&self, name: &'static str) -> Option<HostCall<'_>> {
        self.profiler.host_call(name, CallKind::Call)
    }

    #[cfg(not(target_arch = "wasm32"))]
    /// Submits, waits and lets the batches of `session` settle, then turns it into a
    /// [`Profile`]. The wait is the device's usual bounded one; the readbacks it then waits for
    /// finished with the batches, so their callbacks run on the next polls.
    fn finish_session(&self, session: Session, wall: Duration) -> Result<Profile> {
        let index = self.flush();
        let waited = self.wait("profile", &index);
        let mut batches: Vec<Arc<Batch>> = Vec::new();
        for l in &session.launches {
            if !batches.iter().any(|b| Arc::ptr_eq(b, &l.batch)) {
                batches.push(Arc::clone(&l.batch));
            }
        }
        if waited.is_ok() {
            let start = Instant::now();
            while !batches.iter().all(|b| b.settled()) && start.elapsed() < self.timeout() {
                self.check_alive("profile")?;
                self.poll_once();
                std::thread::sleep(Duration::from_micros(50));
            }
        }
        waited?;
        Ok(self.build_profile(session, batches, wall))
    }

    fn build_profile(&self, session: Session, batches: Vec<Arc<Batch>>, wall: Duration) -> Profile {
        let t0 = session.started;
        let since = |t: Instant| t.saturating_duration_since(t0);
        let period = self.profiler.period_ns;
        let ticks: Vec<Ticks> = batches.iter().map(|b| b.ticks()).collect();
        // GPU clocks have their own epoch: place them on the host timeline so that no batch
        // starts before the host submitted it (the smallest shift that is true for all).
        let mut shift_ns: Option<f64> = None;
        if let Some(p) = period {
            for (b, t) in batches.iter().zip(&ticks) {
                if let (Ticks::Ready(t), Some(sub)) = (t, b.submitted()) {
                    if let Some(first) = t.iter().step_by(2).min() {
                        let s = since(sub).as_nanos() as f64 - *first as f64 * p;
                        shift_ns = Some(shift_ns.map_or(s, |m: f64| m.max(s)));
                    }
                }
            }
        }
        let index_of: HashMap<*const Batch, usize> = batches
            .iter()
            .enumerate()
            .map(|(i, b)| (Arc::as_ptr(b), i))
            .collect();
        let launches = session
            .launches
            .into_iter()
            .map(|l| {
                let gpu =
                    match (period, shift_ns, l.slot) {
                        (Some(p), Some(shift), Some(slot)) => {
                            match &ticks[index_of[&Arc::as_ptr(&l.batch)]] {
                                Ticks::Ready(t) => t
                                    .get(2 * slot as usize..2 * slot as usize + 2)
                                    .map(|pair| GpuSpan {
                                        start: Duration::from_nanos(
                                            (pair[0] as f64 * p + shift).max(0.0) as u64,
                                        ),
                                        duration: Duration::from_nanos(
                                            (pair[1].saturating_sub(pair[0]) as f64 * p) as u64,
                                        ),
                                    }),
                                _ => None,
                            }
                        }
                        _ => None,
                    };
                LaunchProfile {
                    kernel: l.kernel,
                    variant: l.variant,
                    constants: l.constants,
                    call: l.call.unwrap_or("(internal)"),
                    what: l.what,
                    workgroups: l.workgroups,
                    bytes: l.bytes,
                    flops: l.flops,
                    recorded_at: since(l.at),
                    submit: index_of[&Arc::as_ptr(&l.batch)],
                    gpu,
                }
            })
            .collect::<Vec<_>>();
        let submits = batches
            .iter()
            .enumerate()
            .map(|(i, b)| SubmitSpan {
                submitted: b.submitted().map(since),
                done: b.done().map(since),
                launches: launches.iter().filter(|l| l.submit == i).count(),
            })
            .collect();
        let host = session
            .host
            .into_iter()
            .map(|h| HostSpan {
                name: h.name,
                kind: h.kind,
                start: since(h.start),
                duration: h.end.saturating_duration_since(h.start),
            })
            .collect();
        Profile {
            adapter: self.info.to_string(),
            timestamps: period.is_some(),
            wall,
            launches,
            host,
            submits,
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    /// Writes the `GPUARRAY_PROFILE` trace (at drop); errors are printed, as a drop cannot
    /// return them.
    pub(crate) fn finish_whole_run(&self) {
        let Some((id, path)) = self
            .profiler
            .whole_run
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
        else {
            return;
        };
        let Some(session) = self.profiler.take_session(id) else {
            return;
        };
        let wall = session.started.elapsed();
        match self.finish_session(session, wall) {
            Ok(profile) => match profile.write_chrome_trace(&path) {
                Ok(()) => eprintln!(
                    "gpuarray: GPUARRAY_PROFILE: {} launches, trace written to {}\n{profile}",
                    profile.launches.len(),
                    path.display()
                ),
                Err(e) => eprintln!("gpuarray: GPUARRAY_PROFILE: {e}"),
            },
            Err(e) => eprintln!("gpuarray: GPUARRAY_PROFILE: no trace written: {e}"),
        }
    }
}

/// An open profile (see [`Device::start_profile`]): it records the launches of the thread that
/// opened it, until [`ProfileSession::finish`] waits for the device and returns the [`Profile`].
pub struct ProfileSession {
    device: Device,
    id: Option<u64>,
    started: Instant,
}

impl ProfileSession {
    #[cfg(not(target_arch = "wasm32"))]
    /// Closes the profile, waits for the device to finish the recorded work and returns it. The
    /// wall time runs from [`Device::start_profile`] to the end of that wait.
    pub fn finish(mut self) -> Result<Profile> {
        let inner = &*self.device.inner;
        let id = self.id.take().expect("an open session finishes once");
        let session = inner
            .profiler
            .take_session(id)
            .expect("the session is open until finish or drop");
        let profile = inner.finish_session(session, Duration::ZERO)?;
        Ok(Profile {
            wall: self.started.elapsed(),
            ..profile
        })
    }
}

impl Drop for ProfileSession {
    /// An unfinished session stops recording and is discarded.
    fn drop(&mut self) {
        if let Some(id) = self.id.take() {
            self.device.inner.profiler.take_session(id);
        }
    }
}

impl Device {
    #[cfg(not(target_arch = "wasm32"))]
    /// Runs `f` and records every kernel launch it makes on this thread: kernel, variant,
    /// shape, workgroups, bytes bound, FLOPs, and GPU time (timestamp queries) where the adapter
    /// can time on the GPU. Waits for the device at the end, so the times are complete.
    ///
    /// `f`'s own result comes back as it is — a closure returning `Err` still yields the
    /// launches recorded before the error. The outer `Err` means the profile itself failed
    /// (the device was lost, or a wait timed out). Launches on other threads are not recorded.
    ///
    /// ```
    /// use gpuarray::{einsum, Array, DType, Device};
    /// # fn main() -> gpuarray::Result<()> {
    /// let dev = Device::new()?;
    /// let a = Array::full(&dev, &[4, 8, 16], 1.0, DType::F32)?;
    /// let b = Array::full(&dev, &[4, 16, 8], 2.0, DType::F32)?;
    /// let (c, prof) = dev.profile(|| einsum("ijk,ikm->ijm", &[&a, &b]))?;
    /// assert_eq!(c?.to_vec::<f32>()?[0], 32.0);
    /// assert!(!prof.launches.is_empty());
    /// println!("{prof}");
    /// # Ok(()) }
    /// ```
    pub fn profile<T>(&self, f: impl FnOnce() -> T) -> Result<(T, Profile)> {
        let session = self.start_profile()?;
        let out = f();
        Ok((out, session.finish()?))
    }

    #[cfg(not(target_arch = "wasm32"))]
    /// Opens a profile of this thread's launches, closed by [`ProfileSession::finish`] (the
    /// form for scopes that are not one closure, such as Python's `with gpuarray.profile():`).
    /// [`Device::profile`] is this around a closure. Dropping the session unfinished discards it.
    ///
    /// ```
    /// use gpuarray::{Array, DType, Device};
    /// # fn main() -> gpuarray::Result<()> {
    /// let dev = Device::new()?;
    /// let session = dev.start_profile()?;
    /// let a = Array::full(&dev, &[256], 2.0, DType::F32)?;
    /// let b = a.mul(&a)?;
    /// let prof = session.finish()?;
    /// assert_eq!(prof.launches.len(), 2); // the fill and the multiply
    /// assert_eq!(b.to_vec::<f32>()?[0], 4.0);
    /// # Ok(()) }
    /// ```
    pub fn start_profile(&self) -> Result<ProfileSession> {
        self.inner.check_alive("profile")?;
        let mut open = self
            .inner
            .profiler
            .open_session(Some(std::thread::current().id()));
        let id = open.id.take();
        Ok(ProfileSession {
            device: self.clone(),
            id,
            started: Instant::now(),
        })
    }

    /// Whether this device times kernels with GPU timestamps (`TIMESTAMP_QUERY` granted and not
    /// disabled); without, profiles and benchmarks carry CPU times only and say so.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// let dev = gpuarray::Device::new()?;
    /// println!("GPU timestamps: {}", dev.has_gpu_timestamps());
    /// # Ok(()) }
    /// ```
    pub fn has_gpu_timestamps(&self) -> bool {
        self.inner.profiler.has_timestamps()
    }
}
