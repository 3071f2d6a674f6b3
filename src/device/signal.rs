//! A wgpu callback (a buffer mapped, submitted work done) turned into a future that never blocks.
//!
//! In a browser the callback runs from the event loop, which only turns while wasm is idle: the
//! future parks its waker and the callback wakes it (spinning would starve the loop and hang).
//! Native wgpu runs callbacks only inside `Device::poll`, so there the future polls the device
//! without blocking on each look (as `to_vec_async` always has) and asks to be polled again.

use super::DeviceInner;
use crate::error::{Error, Result};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};
use web_time::Instant;

struct Slot<T> {
    value: Option<T>,
    waker: Option<Waker>,
}

/// The receiving end of a one-shot callback.
pub(crate) struct Signal<T> {
    slot: Arc<Mutex<Slot<T>>>,
}

impl<T: Send + 'static> Signal<T> {
    /// The signal, and the callback that fires it (give that to wgpu).
    pub fn new() -> (Signal<T>, impl FnOnce(T) + Send + 'static) {
        let slot = Arc::new(Mutex::new(Slot {
            value: None,
            waker: None,
        }));
        let sink = Arc::clone(&slot);
        let fire = move |value: T| {
            let waker = {
                let mut s = sink.lock().unwrap_or_else(|p| p.into_inner());
                s.value = Some(value);
                s.waker.take()
            };
            if let Some(w) = waker {
                w.wake();
            }
        };
        (Signal { slot }, fire)
    }

    /// Resolves with the callback's value; `Err` if the device is lost first, or (checked
    /// whenever the future is polled) once the device's timeout has passed.
    pub fn wait<'a>(self, dev: &'a DeviceInner, op: &'static str) -> Waiting<'a, T> {
        Waiting {
            dev,
            op,
            slot: self.slot,
            deadline: Instant::now() + dev.timeout(),
        }
    }
}

/// The future of [`Signal::wait`].
pub(crate) struct Waiting<'a, T> {
    dev: &'a DeviceInner,
    op: &'static str,
    slot: Arc<Mutex<Slot<T>>>,
    deadline: Instant,
}

impl<T> Future for Waiting<'_, T> {
    type Output = Result<T>;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<T>> {
        {
            let mut s = self.slot.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(v) = s.value.take() {
                return Poll::Ready(Ok(v));
            }
            // Parked before the checks below, so a callback that fires meanwhile still wakes us.
            s.waker = Some(cx.waker().clone());
        }
        if let Err(e) = self.dev.check_alive(self.op) {
            return Poll::Ready(Err(e));
        }
        if Instant::now() > self.deadline {
            return Poll::Ready(Err(Error::Timeout {
                op: self.op,
                after: self.dev.timeout(),
            }));
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.dev.poll_once();
            cx.waker().wake_by_ref();
        }
        Poll::Pending
    }
}
