//! Compiling pipelines: once per key, on whichever thread asks first, and in the background
//! from the start-up plan (`startup.rs`) on worker threads, one per core.
//!
//! A call that needs a pipeline another thread is compiling waits for that one pipeline (a
//! claim in `in_flight`, a condition variable), never compiles it twice, and is counted as a
//! wait (and logged under `GPUARRAY_LOG`). The workers hold no reference to the device: they
//! hold what compiling needs (the wgpu device, the pipeline cache, this state), so dropping the
//! last `Device` stops them; the device's drop joins their threads (each finishes the pipeline
//! it is compiling), so no compile is left running inside the driver, and no thread holds the
//! wgpu device, once the `Device` is gone.

use super::config::{CompileMode, MathMode};
use super::pipeline::{PipelineCache, PipelineKey};
#[cfg(not(target_arch = "wasm32"))]
use crate::error::Error;
use crate::error::Result;
use std::collections::{HashSet, VecDeque};
use std::fmt;
use std::sync::atomic::AtomicBool;
#[cfg(not(target_arch = "wasm32"))]
use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;
use web_time::Instant;

/// The name of the driver-cache record in the disk cache.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) const PIPELINES_RECORD: &str = "pipelines";
/// Worker threads' names, numbered.
#[cfg(not(target_arch = "wasm32"))]
const WORKER: &str = "gpuarray-compile-";

/// What compiling a pipeline needs, shared by the device and its workers.
pub(crate) struct Compiler {
    pub device: wgpu::Device,
    pub pipelines: Arc<PipelineCache>,
    /// The driver's binaries, saved between runs (adapters with `PIPELINE_CACHE`).
    pub driver_cache: Option<wgpu::PipelineCache>,
    /// Labels of the pipelines whose binaries the loaded driver cache holds.
    pub cached_labels: HashSet<String>,
    pub log: bool,
    pub mode: CompileMode,
    /// `Fast`: the f32/f16 math kernels are specialised to WGSL's built-ins (`FAST_MATH`).
    pub math: MathMode,
    /// The device's cache files (the driver cache is saved from here when the plan is done).
    #[cfg(not(target_arch = "wasm32"))]
    pub disk: super::disk_cache::DiskCache,
    /// The queue the plan's warm-up dispatches go to (`warm_up.rs`), and the device's lock
    /// around submits and polls they take like every other submit.
    #[cfg(not(target_arch = "wasm32"))]
    pub queue: (wgpu::Queue, Arc<crate::memory::Maintainer>),
    state: Mutex<State>,
    changed: Condvar,
    /// Set when the device drops: workers stop after their current pipeline.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    stop: AtomicBool,
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    lost: Arc<AtomicBool>,
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    started: Instant,
    /// The process that made the device (see `stop_and_join`). Native only: a browser has no
    /// processes (`std::process::id` panics there).
    #[cfg(not(target_arch = "wasm32"))]
    pid: u32,
}

#[derive(Default)]
struct State {
    /// The background plan still to compile, in order.
    queue: VecDeque<PipelineKey>,
    /// Every key of the start-up plan, compiled or not (to tell a call's compile of a key the
    /// plan lacks).
    planned: HashSet<PipelineKey>,
    /// Keys some thread is compiling now.
    in_flight: HashSet<PipelineKey>,
    /// Keys of the plan dispatched once on throwaway buffers when created (`warm_up.rs`).
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    warm: HashSet<PipelineKey>,
    workers: usize,
    /// The workers' threads, joined when the device drops (or the process exits).
    #[cfg(not(target_arch = "wasm32"))]
    handles: Vec<std::thread::JoinHandle<()>>,
    stats: Counts,
    /// When the background plan was done.
    drained: Option<Duration>,
    /// Pipelines compiled since the driver cache was last saved.
    unsaved: usize,
    /// Pauses asked for (`pause`): workers start no new pipeline while this is above 0.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    paused: usize,
    /// Pipelines the workers are compiling now.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    busy_workers: usize,
}

#[derive(Default, Clone)]
struct Counts {
    compiled: usize,
    in_background: usize,
    from_cache: usize,
    failed: usize,
    compile_time: Duration,
    waits: usize,
    wait_time: Duration,
    unplanned: usize,
    warmed: usize,
}

/// How a device's pipelines were compiled: at start-up, in the background, on first use, and
/// how long calls waited for them. `Display` gives one line.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// let dev = gpuarray::Device::new()?;
/// let stats = dev.wait_compiled()?;
/// assert_eq!(stats.pending, 0);
/// println!("{stats}");
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct CompileStats {
    /// The device's [`CompileMode`].
    pub mode: CompileMode,
    /// Pipelines compiled so far (start-up, background and first use together).
    pub compiled: usize,
    /// Of those, compiled by the background workers.
    pub in_background: usize,
    /// Of those, compiled with the previous run's binary in the loaded driver cache (a
    /// driver that keeps none, such as lavapipe's, gives 0).
    pub from_cache: usize,
    /// Background compiles that failed (the call that needs one compiles it again and reports
    /// the error).
    pub failed: usize,
    /// Pipelines of the start-up plan not compiled yet.
    pub pending: usize,
    /// Time spent compiling, summed over threads.
    pub compile_time: Duration,
    /// From device creation until the background plan was done (`None` while it runs).
    pub ready_after: Option<Duration>,
    /// Calls that waited for a pipeline another thread was compiling, and their total wait.
    pub waits: usize,
    /// See `waits`.
    pub wait_time: Duration,
    /// Pipelines a call compiled that the eager start-up plan lacks: a gap in the plan, named by
    /// `GPUARRAY_LOG=1`. Counted in [`CompileMode::Eager`], and in every mode when
    /// `GPUARRAY_LOG` is set.
    pub unplanned: usize,
    /// Pipelines of the plan run once on throwaway buffers as soon as they were created: the
    /// f32 matmul and Philox pipelines, whose first dispatch is the driver's own compile on
    /// drivers that finish a pipeline only when it first runs (lavapipe: LLVM), so a program's
    /// first matmul does not pay it. 0 in [`CompileMode::Lazy`] and in a browser.
    pub warmed: usize,
}

impl fmt::Display for CompileStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} pipelines compiled ({:?} mode; {} in the background, {} with cached binaries) in {:.1} ms of compile time",
            self.compiled,
            self.mode,
            self.in_background,
            self.from_cache,
            self.compile_time.as_secs_f64() * 1e3
        )?;
        match self.ready_after {
            Some(t) => write!(f, ", all ready {:.1} ms after start", t.as_secs_f64() * 1e3)?,
            None => write!(f, ", {} still compiling", self.pending)?,
        }
        if self.failed > 0 {
            write!(f, ", {} failed", self.failed)?;
        }
        if self.warmed > 0 {
            write!(f, ", {} run once at start-up", self.warmed)?;
        }
        if self.unplanned > 0 {
            write!(
                f,
                ", {} compiled on first use outside the plan",
                self.unplanned
            )?;
        }
        write!(
            f,
            "; calls waited for a compile {} times ({:.1} ms)",
            self.waits,
            self.wait_time.as_secs_f64() * 1e3
        )
    }
}

impl Compiler {
    pub fn new(
        device: wgpu::Device,
        driver_cache: Option<wgpu::PipelineCache>,
        cached_labels: HashSet<String>,
        log: bool,
        (mode, math): (CompileMode, MathMode),
        lost: Arc<AtomicBool>,
        #[cfg(not(target_arch = "wasm32"))] (disk, queue): (
            super::disk_cache::DiskCache,
            (wgpu::Queue, Arc<crate::memory::Maintainer>),
        ),
    ) -> Compiler {
        Compiler {
            device,
            pipelines: Arc::default(),
            driver_cache,
            cached_labels,
            log,
            mode,
            math,
            #[cfg(not(target_arch = "wasm32"))]
            disk,
            #[cfg(not(target_arch = "wasm32"))]
            queue,
            state: Mutex::default(),
            changed: Condvar::new(),
            stop: AtomicBool::new(false),
            lost,
            started: Instant::now(),
            #[cfg(not(target_arch = "wasm32"))]
            pid: std::process::id(),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The pipeline for `key`: cached, or compiled by this thread, or — when another thread is
    /// compiling it — that thread's, waited for. `compile` creates it (inside the caller's
    /// error scopes).
    pub fn get_or_compile(
        &self,
        key: &PipelineKey,
        compile: impl FnOnce() -> Result<wgpu::ComputePipeline>,
    ) -> Result<wgpu::ComputePipeline> {
        if let Some(p) = self.pipelines.get(key) {
            return Ok(p);
        }
        let mut waited: Option<Instant> = None;
        let mut st = self.state();
        loop {
            if let Some(p) = self.pipelines.get(key) {
                if let Some(t) = waited {
                    let w = t.elapsed();
                    st.stats.waits += 1;
                    st.stats.wait_time += w;
                    if self.log {
                        eprintln!(
                            "gpuarray: waited {:.1} ms for {} (compiling on another thread)",
                            w.as_secs_f64() * 1e3,
                            key.label()
                        );
                    }
                }
                return Ok(p);
            }
            if !st.in_flight.contains(key) {
                break;
            }
            // Another thread compiles it: wait for that one pipeline (or its failure).
            waited.get_or_insert_with(Instant::now);
            st = self.changed.wait(st).unwrap_or_else(|e| e.into_inner());
        }
        st.in_flight.insert(key.clone());
        // Software f64 and packed f16 compile on first use by design (the plans leave the
        // emulated dtypes out): only a native pipeline the plan lacks is a gap in it.
        let emulated = key.variant.soft || key.variant.f16_packed;
        let unplanned = !st.planned.is_empty() && !st.planned.contains(key) && !emulated;
        if unplanned {
            st.stats.unplanned += 1;
        }
        drop(st);
        if unplanned && self.log {
            eprintln!(
                "gpuarray: {} is not in the start-up plan (compiled on first use)",
                key.label()
            );
        }
        let started = Instant::now();
        let result = compile();
        if let Ok(p) = &result {
            self.publish(key, p);
        }
        self.finish(key, started.elapsed(), result.is_ok(), false);
        result
    }

    /// Makes a created pipeline visible to every thread.
    fn publish(&self, key: &PipelineKey, p: &wgpu::ComputePipeline) {
        self.pipelines.insert(key.clone(), p.clone());
        if self.log {
            eprintln!(
                "gpuarray: compiled {} ({} pipelines on this device)",
                key.label(),
                self.pipelines.len()
            );
        }
    }

    /// Records the end of a compile of `key` and wakes whoever waits for it.
    fn finish(&self, key: &PipelineKey, took: Duration, ok: bool, background: bool) {
        let mut st = self.state();
        st.in_flight.remove(key);
        if ok {
            st.stats.compiled += 1;
            st.stats.compile_time += took;
            st.unsaved += 1;
            if background {
                st.stats.in_background += 1;
            }
            if self.driver_cache.is_some() && self.cached_labels.contains(&key.label()) {
                st.stats.from_cache += 1;
            }
        } else if background {
            st.stats.failed += 1;
        }
        drop(st);
        self.changed.notify_all();
    }

    /// Creates the pipeline of `key` with wgpu (the caller holds the error scopes and publishes
    /// it once they report no error); `Err` before wgpu sees it when the specializer refuses it.
    pub fn create(&self, key: &PipelineKey) -> Result<wgpu::ComputePipeline> {
        let label = key.label();
        let source = key.wgsl()?;
        let mut constants: Vec<(&str, f64)> =
            key.constants.iter().map(|&(n, v)| (n, v as f64)).collect();
        // One math mode per device, so the mode is the compiler's, not part of the key.
        if self.math == MathMode::Fast && (key.kernel.uses_f32_math)(key.variant) {
            constants.push(("FAST_MATH", 1.0));
        }
        Ok(self.in_context(|| {
            let module = self
                .device
                .create_shader_module(wgpu::ShaderModuleDescriptor {
                    label: Some(&label),
                    source: wgpu::ShaderSource::Wgsl(source.into()),
                });
            self.device
                .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(&label),
                    layout: None,
                    module: &module,
                    entry_point: Some(key.kernel.entry),
                    compilation_options: wgpu::PipelineCompilationOptions {
                        constants: &constants,
                        zero_initialize_workgroup_memory: false,
                    },
                    cache: self.driver_cache.as_ref(),
                })
        }))
    }

    /// Runs `f`, a compile, under the device's lock where the backend is GL (a compile holds the
    /// GL context for as long as the driver compiles: `Maintainer::context`). A browser has one
    /// thread.
    pub fn in_context<T>(&self, f: impl FnOnce() -> T) -> T {
        #[cfg(not(target_arch = "wasm32"))]
        return self.queue.1.context(f);
        #[cfg(target_arch = "wasm32")]
        f()
    }

    /// Counts a pipeline compiled from generated WGSL (`generated.rs`) as the plan's are
    /// counted, and marks the driver cache for saving.
    pub fn count_generated(&self, took: Duration) {
        let mut st = self.state();
        st.stats.compiled += 1;
        st.stats.compile_time += took;
        st.unsaved += 1;
    }

    /// Queues the start-up plan and starts `threads` workers on it.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn start_background(
        self: &Arc<Self>,
        plan: Vec<PipelineKey>,
        eager_plan: HashSet<PipelineKey>,
        warm: HashSet<PipelineKey>,
        threads: usize,
    ) {
        let mut st = self.state();
        st.planned = eager_plan;
        st.warm = warm;
        st.queue = plan.into_iter().collect();
        if st.queue.is_empty() {
            st.drained = Some(self.started.elapsed());
            return;
        }
        let threads = threads.clamp(1, st.queue.len());
        st.workers = threads;
        drop(st);
        for i in 0..threads {
            let me = Arc::clone(self);
            let spawned = std::thread::Builder::new()
                .name(format!("{WORKER}{i}"))
                .spawn(move || me.work());
            if let Ok(handle) = spawned {
                self.state().handles.push(handle);
            } else {
                // No thread: the plan's pipelines compile on first use instead.
                let mut st = self.state();
                st.workers -= 1;
                if st.workers == 0 {
                    st.queue.clear();
                    st.drained = Some(self.started.elapsed());
                }
                drop(st);
                self.changed.notify_all();
            }
        }
    }

    /// One worker: compiles queued keys nobody has claimed until the queue is empty or the
    /// device is gone; the last worker out saves the driver cache, then reports the plan done.
    #[cfg(not(target_arch = "wasm32"))]
    fn work(&self) {
        // Below the program's own threads (and, on lavapipe, the driver's compute threads):
        // the plan then fills idle cores instead of slowing the work it is getting ready for.
        #[cfg(target_os = "linux")]
        // SAFETY: setpriority on this thread's own id; a failure leaves the priority as it was.
        unsafe {
            let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
            libc::setpriority(libc::PRIO_PROCESS, tid, 10);
        }
        loop {
            if self.stop.load(Ordering::SeqCst) || self.lost.load(Ordering::SeqCst) {
                break;
            }
            let key = {
                let mut st = self.state();
                while st.paused > 0 && !self.stop.load(Ordering::SeqCst) {
                    st = self.changed.wait(st).unwrap_or_else(|e| e.into_inner());
                }
                let mut next = None;
                while let Some(k) = st.queue.pop_front() {
                    if !st.in_flight.contains(&k) && self.pipelines.get(&k).is_none() {
                        next = Some(k);
                        break;
                    }
                }
                match next {
                    Some(k) => {
                        st.in_flight.insert(k.clone());
                        st.busy_workers += 1;
                        k
                    }
                    None => break,
                }
            };
            let started = Instant::now();
            let ok = self.create_scoped(&key);
            // Once exit has begun (`quiesce`), no new driver work: the pipeline is created, but
            // its first dispatch is left to the call that needs it.
            let warm = self.state().warm.contains(&key) && !self.stop.load(Ordering::SeqCst);
            if let (Ok(()), true, Some(p)) = (&ok, warm, self.pipelines.get(&key)) {
                // A panic inside wgpu must not take the worker (and `wait_compiled`) with it.
                let dispatched = Instant::now();
                let warmed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    super::warm_up::first_dispatch(&self.device, &self.queue, &key, &p)
                }));
                if self.log {
                    // On lavapipe this is LLVM's compile of the kernel (and, when the queue is
                    // busy, the wait for the submits ahead of it): the cold start's long pole.
                    eprintln!(
                        "gpuarray: ran {} once at start-up in {:.1} ms",
                        key.label(),
                        dispatched.elapsed().as_secs_f64() * 1e3
                    );
                }
                if warmed.unwrap_or(false) {
                    self.state().stats.warmed += 1;
                }
            }
            self.state().busy_workers -= 1;
            if let Err(e) = &ok {
                log::debug!(
                    "gpuarray: background compile of {} failed: {e}",
                    key.label()
                );
            }
            self.finish(&key, started.elapsed(), ok.is_ok(), true);
        }
        let last = {
            let mut st = self.state();
            let last = st.workers == 1;
            if last {
                st.queue.clear();
                st.drained = Some(self.started.elapsed());
            }
            last
        };
        if last && !self.stop.load(Ordering::SeqCst) {
            self.save_driver_cache();
        }
        self.state().workers -= 1;
        self.changed.notify_all();
    }

    /// Whether this process is a fork of the one that made the device (whose workers, and
    /// whatever locks they held, did not come along).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn in_fork_child(&self) -> bool {
        std::process::id() != self.pid
    }

    /// Writes the driver's pipeline cache to disk if pipelines were compiled since the last
    /// save (and the adapter keeps one): the labels of the compiled pipelines, one per line, a
    /// blank line, then wgpu's `PipelineCache::get_data` bytes.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn save_driver_cache(&self) {
        let Some(cache) = &self.driver_cache else {
            return;
        };
        if std::mem::take(&mut self.state().unsaved) == 0 {
            return;
        }
        let Some(data) = cache.get_data() else {
            return;
        };
        let mut labels: Vec<String> = self.pipelines.labels();
        labels.sort();
        labels.dedup();
        let mut bytes = labels.join("\n").into_bytes();
        bytes.extend_from_slice(b"\n\n");
        bytes.extend_from_slice(&data);
        self.disk.store(PIPELINES_RECORD, &bytes);
    }

    /// `create` inside this thread's own error scopes (a worker has no caller to hold them).
    #[cfg(not(target_arch = "wasm32"))]
    fn create_scoped(&self, key: &PipelineKey) -> Result<()> {
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let internal = self.device.push_error_scope(wgpu::ErrorFilter::Internal);
        let created = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.create(key)));
        let errors = [
            pollster::block_on(internal.pop()),
            pollster::block_on(validation.pop()),
            pollster::block_on(oom.pop()),
        ];
        match (created, errors.into_iter().flatten().next()) {
            (Ok(Err(e)), _) => Err(e),
            (Ok(Ok(p)), None) => {
                self.publish(key, &p);
                Ok(())
            }
            // The pipeline is invalid: not published, so a call compiles it again and gets the
            // error in its own scopes.
            (_, Some(e)) => Err(Error::Gpu(format!(
                "compiling kernel {}: {}",
                key.label(),
                crate::error::describe_wgpu_error(&e)
            ))),
            (Err(_), None) => Err(Error::Gpu(format!(
                "compiling kernel {}: wgpu panicked",
                key.label()
            ))),
        }
    }

    /// Waits until the background plan is done (or the device is lost).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn wait_drained(&self) {
        let mut st = self.state();
        while st.workers > 0 && !self.lost.load(Ordering::SeqCst) {
            let (s, _) = self
                .changed
                .wait_timeout(st, Duration::from_millis(100))
                .unwrap_or_else(|e| e.into_inner());
            st = s;
        }
    }

    /// Holds the background workers still while the guard lives: they finish the pipelines
    /// they are compiling (waited for here) and start no new one. For measurements that the
    /// compile threads would disturb, such as the matmul tune on a CPU adapter, where the
    /// compile threads and the kernels share the cores.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn pause(&self) -> PauseGuard<'_> {
        let mut st = self.state();
        st.paused += 1;
        while st.busy_workers > 0 {
            st = self.changed.wait(st).unwrap_or_else(|e| e.into_inner());
        }
        PauseGuard { compiler: self }
    }

    /// Stops the workers after their current pipelines and joins their threads, so that none
    /// is left inside the driver (or holding the wgpu device) afterwards.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn stop_and_join(&self) {
        self.stop.store(true, Ordering::SeqCst);
        // A fork child inherits the handles but not the threads (joining one would wait for
        // ever), and possibly a state lock a worker held at the fork: it touches neither.
        if self.in_fork_child() {
            return;
        }
        let handles = {
            let mut st = self.state();
            st.queue.clear();
            std::mem::take(&mut st.handles)
        };
        // A worker never drops the device, so this never runs on one; but never join oneself.
        let me = std::thread::current().id();
        for h in handles {
            if h.thread().id() != me {
                let _ = h.join();
            }
        }
    }

    /// Gets the device ready for the process to exit (`exit_guard.rs`): the queued plan is
    /// dropped and workers start nothing new; then the pipelines being compiled and the work
    /// submitted to the queue are waited for, each for at most `wait`. Whether both finished
    /// (then the pipelines compiled so far are saved). The device stays usable: later calls
    /// compile on first use. A fork child has no workers and no driver threads: nothing to do.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn quiesce(&self, wait: Duration) -> bool {
        if self.in_fork_child() {
            return true;
        }
        self.stop.store(true, Ordering::SeqCst);
        let deadline = Instant::now() + wait;
        let mut st = self.state();
        st.queue.clear();
        // Paused workers wake up to stop.
        self.changed.notify_all();
        while st.busy_workers > 0 {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            st = self
                .changed
                .wait_timeout(st, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        drop(st);
        let (_, maintainer) = &self.queue;
        let idle = maintainer.wait_idle(
            &self.device,
            deadline.saturating_duration_since(Instant::now()),
        );
        if idle {
            self.save_driver_cache();
        }
        idle
    }

    pub fn stats(&self) -> CompileStats {
        let st = self.state();
        let c = st.stats.clone();
        CompileStats {
            mode: self.mode,
            compiled: c.compiled,
            in_background: c.in_background,
            from_cache: c.from_cache,
            failed: c.failed,
            pending: st.queue.len()
                + if st.workers > 0 {
                    st.in_flight.len()
                } else {
                    0
                },
            compile_time: c.compile_time,
            // A browser plans nothing in the background: all there is, is ready.
            ready_after: if cfg!(target_arch = "wasm32") {
                Some(Duration::ZERO)
            } else {
                st.drained
            },
            waits: c.waits,
            wait_time: c.wait_time,
            unplanned: c.unplanned,
            warmed: c.warmed,
        }
    }
}

/// While alive, background compiles are paused (see [`Compiler::pause`]).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) struct PauseGuard<'a> {
    compiler: &'a Compiler,
}

#[cfg(not(target_arch = "wasm32"))]
impl Drop for PauseGuard<'_> {
    fn drop(&mut self) {
        self.compiler.state().paused -= 1;
        self.compiler.changed.notify_all();
    }
}
