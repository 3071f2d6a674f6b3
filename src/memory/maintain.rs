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

/// Serialises the calls that retire submissions on one device.
#[derive(Default)]
pub(crate) struct Maintainer {
    lock: Mutex<()>,
    /// Threads inside a call here (holding the lock or waiting for it).
    users: AtomicUsize,
}

/// The lock, and this thread counted among its users until dropped.
struct Held<'a> {
    users: &'a AtomicUsize,
    _guard: MutexGuard<'a, ()>,
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        self.users.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Maintainer {
    fn lock(&self) -> Held<'_> {
        self.users.fetch_add(1, Ordering::SeqCst);
        Held {
            users: &self.users,
            _guard: self.lock.lock().unwrap_or_else(|e| e.into_inner()),
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
