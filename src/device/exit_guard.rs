//! Process exit with devices alive: no driver work may be in flight when the C library starts
//! running exit handlers.
//!
//! Why: `exit()` runs the process's `atexit` handlers and C++ static destructors in reverse order
//! of registration while other threads still run. A driver that compiles kernels on threads of
//! its own (lavapipe: LLVM, on its queue thread, at a pipeline's first dispatch) registers
//! destructors *during* those compiles: a C++ function-local static (LLVM's set of value types
//! in `SDNode::getValueTypeList`, its lock) registers its destructor when first constructed.
//! Those destructors therefore run before any handler we registered earlier, while the driver
//! thread may still be compiling with them: measured on lavapipe at ba10709, a one-op program
//! whose `Device` was still alive at exit crashed (SIGSEGV, empty caches) or hung for good
//! (partly warm caches) every time the start-up plan was still compiling. A handler that relies
//! on registration order cannot fix that, so the device is quiesced *before* the handlers run:
//!
//! - **The exiting main thread** (Linux): glibc's `exit()` runs the calling thread's
//!   thread-local destructors first, before any `atexit` handler or static destructor. A
//!   thread-local guard, set on the main thread when a device is made there, quiesces every live
//!   device from its destructor: this covers `main` returning (a `Device` in a `static`) and
//!   `std::process::exit` on the main thread.
//! - **A host language's exit hook** calls [`prepare_exit`] (the Python package does, from
//!   Python's `atexit`, which runs before the interpreter calls `exit()`), as can any program
//!   before exiting from another thread.
//! - **Otherwise** an `atexit` handler registered with the first device quiesces late, with
//!   bounded waits: the driver's destructors may already have run and a compile may never
//!   finish, and an exit that hangs is worse than one that skips the wait.
//!
//! Quiescing a device ([`Compiler::quiesce`]): the queued plan is dropped, workers start no new
//! pipeline or warm-up dispatch, the pipelines in flight finish (waited for), then the queue's
//! submitted work (waited for, bounded). SIGTERM/SIGINT's default actions end the process
//! without running exit handlers at all, so nothing can be in the way there.
//!
//! **A forked child** has neither our workers nor the driver's threads, but inherits the
//! driver's exit handlers, and those join the driver's threads: Mesa's (its `util_queue`s, in
//! the GL driver wgpu loads to list adapters) crashed a child that merely returned from `main`,
//! even with no background compile. So in a child of a process that had made a device, a
//! handler registered at the fork (glibc's `on_exit`, which is handed the exit status) flushes
//! the C streams and ends the child with `_exit(status)` before any handler inherited from the
//! parent runs. Handlers the child registers itself still run first.

use super::compiler::Compiler;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

/// The longest an exit waits for the pipelines in flight, when the driver is known to be intact
/// (before the exit handlers): the slowest single kernel compiles in about 1.3 s on lavapipe.
const IN_FLIGHT_WAIT: Duration = Duration::from_secs(20);
/// The longest the late `atexit` fallback waits: the driver's destructors may have run, and its
/// compile may never end.
const LATE_WAIT: Duration = Duration::from_secs(2);

/// Every device's compiler, while the device lives.
static LIVE: Mutex<Vec<Weak<Compiler>>> = Mutex::new(Vec::new());

/// Registers a new device's compiler, and the exit hooks on first use (the thread-local guard
/// on every call from the main thread).
pub(super) fn register(c: &Arc<Compiler>) {
    let mut live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
    live.retain(|w| w.strong_count() > 0);
    live.push(Arc::downgrade(c));
    drop(live);
    #[cfg(unix)]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            // SAFETY: `late_exit` is an `extern "C" fn()` that never unwinds.
            unsafe {
                libc::atexit(late_exit);
            }
        });
    }
    main_thread::arm();
    fork_child::arm();
}

/// Quiesces every live device, waiting at most `wait` for each; whether all went quiet.
fn quiesce_all(wait: Duration) -> bool {
    std::panic::catch_unwind(|| {
        let live: Vec<Arc<Compiler>> = LIVE
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .filter_map(Weak::upgrade)
            .collect();
        // Every device, even after one timed out.
        let quiet: Vec<bool> = live.iter().map(|c| c.quiesce(wait)).collect();
        quiet.into_iter().all(|q| q)
    })
    .unwrap_or(false)
}

/// Gets every live device ready for the process to exit: each device's background compile
/// stops (queued pipelines are dropped; those being compiled, and the work already submitted to
/// the GPU, are waited for), so that no driver thread is still working when the C library runs
/// its exit handlers. The devices stay usable: a later call compiles what it needs on first use.
///
/// A program rarely needs it: a `Device` that is dropped is made ready by its drop, and on Linux
/// one still alive when `main` returns or the main thread calls `std::process::exit` is made
/// ready before any exit handler runs. Call it before exiting from another thread,
/// or from a host language's exit hook (the Python package calls it from `atexit`). Returns
/// whether every device went quiet within the wait (a driver that never finishes a compile
/// makes it `false` after about 20 s rather than hang).
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// let dev = gpuarray::Device::new()?;
/// let a = gpuarray::Array::ones(&dev, &[3], gpuarray::DType::F32)?;
/// assert!(gpuarray::prepare_exit());
/// // Still usable afterwards.
/// assert_eq!(a.to_vec::<f32>()?, vec![1.0; 3]);
/// # Ok(()) }
/// ```
pub fn prepare_exit() -> bool {
    quiesce_all(IN_FLIGHT_WAIT)
}

/// The `atexit` fallback: an exit from a thread that set no guard.
#[cfg(unix)]
extern "C" fn late_exit() {
    quiesce_all(LATE_WAIT);
}

/// The main thread's thread-local guard (Linux: glibc runs the exiting thread's thread-local
/// destructors before every `atexit` handler; Rust registers them with
/// `__cxa_thread_atexit_impl`).
#[cfg(target_os = "linux")]
mod main_thread {
    /// Quiesces every device when dropped, which on the main thread happens only as the process
    /// exits.
    struct Guard;

    impl Drop for Guard {
        fn drop(&mut self) {
            super::quiesce_all(super::IN_FLIGHT_WAIT);
        }
    }

    thread_local! {
        static GUARD: Guard = const { Guard };
    }

    /// Sets the guard if this is the main thread (another thread's thread-local destructors run
    /// when that thread ends, not at exit).
    pub(super) fn arm() {
        // SAFETY: plain system calls without arguments that can fail.
        let main = unsafe { libc::getpid() as libc::c_long == libc::syscall(libc::SYS_gettid) };
        if main {
            // The first access registers the destructor; a thread already tearing its
            // thread-locals down refuses it, harmlessly.
            let _ = GUARD.try_with(|_| ());
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod main_thread {
    /// Elsewhere only the `atexit` fallback and `prepare_exit` apply.
    pub(super) fn arm() {}
}

/// A forked child's exit skips the exit handlers it inherited (glibc: `on_exit` gets the
/// status to hand on to `_exit`).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod fork_child {
    use std::os::raw::{c_int, c_void};

    unsafe extern "C" {
        fn on_exit(function: extern "C" fn(c_int, *mut c_void), arg: *mut c_void) -> c_int;
    }

    /// In the child, right after `fork`: the exit handler that leaves before the inherited ones.
    extern "C" fn after_fork_in_child() {
        // SAFETY: `leave` is an `extern "C"` function that never returns or unwinds.
        unsafe {
            on_exit(leave, std::ptr::null_mut());
        }
    }

    extern "C" fn leave(status: c_int, _: *mut c_void) {
        // SAFETY: flushing every C stream, then ending the process with the status `exit` was
        // called with; nothing after this runs in the child.
        unsafe {
            libc::fflush(std::ptr::null_mut());
            libc::_exit(status);
        }
    }

    /// Once per process, with its first device: children forked from then on leave this way.
    pub(super) fn arm() {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            // SAFETY: registers a child-side fork handler that only calls `on_exit`.
            unsafe {
                libc::pthread_atfork(None, None, Some(after_fork_in_child));
            }
        });
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
mod fork_child {
    /// Elsewhere a forked child exits through the inherited handlers.
    pub(super) fn arm() {}
}
