//! One lock around every wgpu call that retires finished submissions: `Device::poll` and
//! `Queue::submit` (which polls internally).
//!
//! Why: wgpu-core 30.0.2 panics in `Device::maintain` ("If the queue is empty, the current
//! submission index (N) should be at least the wait submission index (N+2)") when two of these
//! calls race on one device: the first reads the fence, the second retires submissions past that
//! reading, and the first then finds the queue empty with a fence value below its target. A
//! `Device` shared by threads died this way within seconds. The upstream fix (gfx-rs/wgpu#9958,
//! re-reading the fence before that assert) is merged but not released. Once `Cargo.lock` has a
//! wgpu-core with it, this module can go: call `queue.submit` and `device.poll` directly again
//! (the waits in `device/scheduler.rs` may then block in wgpu instead of polling).
//!
//! The lock is held only briefly: submits and plain polls never wait for the GPU. A waiter blocks
//! in wgpu (under the lock, for at most [`blocking_slice`]) only while no other thread is using
//! the device's submits or polls, so a lone thread wakes the moment its work is done; with
//! company it checks without blocking and backs off between checks ([`Backoff`]), so another
//! thread's submit waits at most one slice. GPU work itself is never serialised by this lock.
//!
//! On wgpu's GL backend the lock covers every call that uses the GL context ([`Maintainer::context`]):
//! wgpu-hal's GL device makes each such call lock its one context for at most 6 seconds
//! (`CONTEXT_LOCK_TIMEOUT_SECS`) and panics past that ("Could not lock adapter context"), and a
//! pipeline compile holds the context for as long as the driver compiles (llvmpipe with a cold
//! shader cache: longer than that for the software-f64 kernels). A thread that needs the context
//! while another compiles then waits here, without a timeout, instead of inside wgpu.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
#[cfg(not(target_arch = "wasm32"))]
use std::time::Duration;

/// How long a lone waiter blocks inside wgpu before it looks again (for device loss, its
/// deadline, and threads that arrived meanwhile), after waiting `waited` so far: an eighth of
/// that, between 1 ms and 20 ms. Short waits look often; long ones wake rarely, since every
/// wake-up takes CPU time from a CPU adapter's compute threads (1 ms slices cost 2 % of a 175 ms
/// softmax on lavapipe), while a thread that arrives meanwhile waits at most an eighth longer
/// than the work already in flight.
#[cfg(not(target_arch = "wasm32"))] // waits block; a browser awaits instead
pub(crate) fn blocking_slice(waited: Duration) -> Duration {
    (waited / 8).clamp(Duration::from_millis(1), Duration::from_millis(20))
}

/// The outcome of one non-blocking look at a submission.
#[cfg(not(target_arch = "wasm32"))] // waits block; a browser awaits instead
#[derive(Debug)]
pub(crate) enum Progress {
    /// The submission (and everything before it) has finished.
    Done,
    /// Still running; `blocked` when the check already waited (a [`blocking_slice`]), so the
    /// caller need not pause before the next one.
    Running { blocked: bool },
    /// wgpu refused the wait (for example the index of a submission that failed validation).
    Failed(String),
    /// wgpu panicked inside the poll (its fatal-error path, e.g. a lost Vulkan device).
    Panicked,
}

/// Serialises the calls that retire submissions on one device (on GL, every call that uses the
/// GL context).
#[derive(Default)]
pub(crate) struct Maintainer {
    lock: Mutex<()>,
    /// Threads inside a call here (holding the lock or waiting for it).
    users: AtomicUsize,
    /// The adapter is wgpu's GL backend: [`Maintainer::context`] takes the lock.
    whole_context: bool,
}

/// The lock, and this thread counted among its users until dropped.
struct Held<'a> {
    users: &'a AtomicUsize,
    _guard: MutexGuard<'a, ()>,
    /// The maintainer's address, in [`HELD`] while this lives.
    at: usize,
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        // `try_with`: at exit a thread's locals may be gone already (see [`HELD`]).
        let _ = HELD.try_with(|h| h.borrow_mut().retain(|&a| a != self.at));
        self.users.fetch_sub(1, Ordering::SeqCst);
    }
}

std::thread_local! {
    /// The maintainers whose lock this thread holds: a map callback (run inside a poll, under the
    /// lock) that drops a buffer must not wait for the lock its own thread holds. Reached only
    /// through `try_with`: the exit guard waits for devices (under the lock) while the exiting
    /// thread's locals are destroyed, and this one may be gone by then (a Python process's exit
    /// panicked in `LocalKey::with`); a thread without it holds no lock here.
    static HELD: std::cell::RefCell<Vec<usize>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Maintainer {
    /// The lock for a device of `backend`.
    pub fn new(backend: wgpu::Backend) -> Maintainer {
        Maintainer {
            whole_context: backend == wgpu::Backend::Gl,
            ..Maintainer::default()
        }
    }

    /// Runs `f`, a wgpu call that may use the GL context (a compile, a buffer's creation or
    /// release, an upload, a map), under the lock where the backend is GL (see the module's
    /// comment); elsewhere plainly, and plainly too on a thread that holds the lock already (a
    /// map callback, run inside a poll).
    pub fn context<T>(&self, f: impl FnOnce() -> T) -> T {
        // Off GL (every call of a Vulkan, Metal or DX12 device) no thread-local is read.
        if !self.whole_context {
            return f();
        }
        let at = self as *const Maintainer as usize;
        let held_here = HELD.try_with(|h| h.borrow().contains(&at)).unwrap_or(false);
        let _held = (!held_here).then(|| self.lock());
        f()
    }

    fn lock(&self) -> Held<'_> {
        self.users.fetch_add(1, Ordering::SeqCst);
        let guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        let at = self as *const Maintainer as usize;
        let _ = HELD.try_with(|h| h.borrow_mut().push(at));
        Held {
            users: &self.users,
            _guard: guard,
            at,
        }
    }

    /// `queue.submit(buffers)` under the lock.
    pub fn submit(
        &self,
        queue: &wgpu::Queue,
        buffers: impl IntoIterator<Item = wgpu::CommandBuffer>,
    ) -> wgpu::SubmissionIndex {
        let _guard = self.lock();
        queue.submit(buffers)
    }

    /// A non-blocking `device.poll` under the lock: runs the callbacks of finished work and
    /// frees dropped resources. `false` when wgpu panicked (the device is then unusable).
    pub fn poll(&self, device: &wgpu::Device) -> bool {
        let _guard = self.lock();
        catch_unwind(AssertUnwindSafe(|| device.poll(wgpu::PollType::Poll))).is_ok()
    }

    #[cfg(not(target_arch = "wasm32"))]
    /// Whether `index` has finished: a wait that blocks for up to `slice` when this
    /// thread is the only one using the lock, and otherwise does not block at all. It also runs
    /// the callbacks of whatever has finished.
    pub fn check(
        &self,
        device: &wgpu::Device,
        index: &wgpu::SubmissionIndex,
        slice: Duration,
    ) -> Progress {
        let held = self.lock();
        let alone = held.users.load(Ordering::SeqCst) == 1;
        let timeout = if alone { slice } else { Duration::ZERO };
        let polled = catch_unwind(AssertUnwindSafe(|| {
            device.poll(wgpu::PollType::Wait {
                submission_index: Some(index.clone()),
                timeout: Some(timeout),
            })
        }));
        drop(held);
        match polled {
            Ok(Ok(_)) => Progress::Done,
            Ok(Err(wgpu::PollError::Timeout)) => Progress::Running { blocked: alone },
            Ok(Err(e)) => Progress::Failed(e.to_string()),
            Err(_) => Progress::Panicked,
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Maintainer {
    /// Waits (under the lock) until all work submitted so far has finished, for at most
    /// `timeout`; whether it did. wgpu refusing or panicking counts as not finished.
    pub fn wait_idle(&self, device: &wgpu::Device, timeout: Duration) -> bool {
        let _held = self.lock();
        let polled = catch_unwind(AssertUnwindSafe(|| {
            device.poll(wgpu::PollType::Wait {
                submission_index: None,
                timeout: Some(timeout),
            })
        }));
        matches!(polled, Ok(Ok(_)))
    }
}

/// Paces a waiter's non-blocking checks (when other threads use the device too): yields for the
/// first few (small kernels finish in microseconds), then sleeps a thirty-second of the time
/// waited so far, between 10 µs and 500 µs, so a wait overshoots the GPU's finish by about 3 %
/// at most and costs a few checks per millisecond.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) struct Backoff {
    checks: u32,
}

#[cfg(not(target_arch = "wasm32"))]
impl Backoff {
    const YIELDS: u32 = 64;
    const MIN_SLEEP: Duration = Duration::from_micros(10);
    const MAX_SLEEP: Duration = Duration::from_micros(500);

    pub fn new() -> Self {
        Backoff { checks: 0 }
    }

    /// Waits before the next check; `waited` is the time since the wait began.
    pub fn pause(&mut self, waited: Duration) {
        self.checks = self.checks.saturating_add(1);
        if self.checks <= Self::YIELDS {
            std::thread::yield_now();
        } else {
            std::thread::sleep((waited / 32).clamp(Self::MIN_SLEEP, Self::MAX_SLEEP));
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::time::Instant;

    /// How long after `started` a call on this thread entered `m`, while another thread's call
    /// on `m` (begun 50 ms before) held it for 300 ms.
    fn entered_behind_a_long_call(m: Maintainer) -> Duration {
        let m = Arc::new(m);
        let started = Instant::now();
        let long = {
            let m = Arc::clone(&m);
            std::thread::spawn(move || m.context(|| std::thread::sleep(Duration::from_millis(300))))
        };
        std::thread::sleep(Duration::from_millis(50));
        let entered = m.context(|| started.elapsed());
        long.join().unwrap();
        entered
    }

    #[test]
    fn on_gl_a_call_waits_for_another_threads_call_without_a_timeout() {
        // A compile holding the GL context for 300 ms: a second thread's call on the same
        // device starts only after it (wgpu-hal's own wait would panic after 6 s).
        let entered = entered_behind_a_long_call(Maintainer::new(wgpu::Backend::Gl));
        assert!(entered >= Duration::from_millis(300), "{entered:?}");
        // Elsewhere the calls are not serialised.
        let entered = entered_behind_a_long_call(Maintainer::new(wgpu::Backend::Vulkan));
        assert!(entered < Duration::from_millis(250), "{entered:?}");
    }

    #[test]
    fn a_call_on_a_thread_that_holds_the_lock_runs_at_once() {
        // As a map callback does inside a poll: no deadlock on its own thread's lock, and the
        // lock is taken again once released. Another device's lock is its own.
        let m = Maintainer::new(wgpu::Backend::Gl);
        let other = Maintainer::new(wgpu::Backend::Gl);
        let held = m.lock();
        assert_eq!(m.context(|| other.context(|| 7)), 7);
        drop(held);
        assert!(HELD.with(|h| h.borrow().is_empty()));
        assert_eq!(m.context(|| m.users.load(Ordering::SeqCst)), 1);
    }

    /// Takes the lock when its thread's locals are destroyed, as the exit guard does.
    struct LockAtExit(Arc<Maintainer>);

    impl Drop for LockAtExit {
        fn drop(&mut self) {
            drop(self.0.lock());
            assert_eq!(self.0.context(|| 3), 3);
        }
    }

    std::thread_local! {
        static AT_EXIT: std::cell::RefCell<Option<LockAtExit>> = const { std::cell::RefCell::new(None) };
    }

    #[test]
    fn the_lock_works_while_a_threads_locals_are_destroyed() {
        // AT_EXIT is registered before HELD, so it is destroyed after it: its lock must not
        // need HELD (a panic there aborts the process: "thread local panicked on drop").
        let m = Arc::new(Maintainer::new(wgpu::Backend::Gl));
        let worker = {
            let m = Arc::clone(&m);
            std::thread::spawn(move || {
                AT_EXIT.with(|a| *a.borrow_mut() = Some(LockAtExit(Arc::clone(&m))));
                assert_eq!(m.context(|| 1), 1);
            })
        };
        worker.join().unwrap();
        assert_eq!(m.users.load(Ordering::SeqCst), 0);
    }
}
