//! A wgpu callback (a buffer mapped, submitted work done) turned into a future that never blocks.
//!
//! In a browser the callback runs from the event loop, which only turns while wasm is idle: the
//! future parks its waker and the callback wakes it (spinning would starve the loop and hang).
//! Native wgpu runs callbacks only inside `Device::poll`, so there the future polls the device
//! without blocking on each look (as `to_vec_async` always has) and asks to be polled again.
//! In a browser a `setTimeout` at the device's deadline wakes the future too, so a callback that
//! never comes ends in `Err(Timeout)`, not a hang.

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
            #[cfg(target_arch = "wasm32")]
            timer_until: None,
        }
    }
}

/// The future of [`Signal::wait`].
pub(crate) struct Waiting<'a, T> {
    dev: &'a DeviceInner,
    op: &'static str,
    slot: Arc<Mutex<Slot<T>>>,
    deadline: Instant,
    /// When the armed timer fires (a browser's timers are capped near 24.8 days).
    #[cfg(target_arch = "wasm32")]
    timer_until: Option<Instant>,
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
        #[cfg(target_arch = "wasm32")]
        {
            let now = Instant::now();
            if self.timer_until.is_none_or(|t| now >= t) {
                let until = wake_at(self.deadline, cx.waker().clone());
                self.get_mut().timer_until = Some(until);
            }
        }
        Poll::Pending
    }
}

/// Wakes `waker` at `deadline` (or, for a deadline beyond what a browser timer takes, at the
/// longest delay it does); returns when the timer fires.
#[cfg(target_arch = "wasm32")]
fn wake_at(deadline: Instant, waker: Waker) -> Instant {
    use wasm_bindgen::{JsCast, JsValue};
    const MAX_MS: u64 = i32::MAX as u64;
    let ms = (deadline
        .saturating_duration_since(Instant::now())
        .as_millis() as u64
        + 1)
    .min(MAX_MS);
    let wake = wasm_bindgen::closure::Closure::once_into_js(move || waker.wake());
    let global = js_sys::global();
    // In a window or a worker alike; without a setTimeout the wait still ends with its callback.
    if let Ok(f) = js_sys::Reflect::get(&global, &JsValue::from_str("setTimeout")) {
        if let Some(f) = f.dyn_ref::<js_sys::Function>() {
            let _ = f.call2(&global, &wake, &JsValue::from_f64(ms as f64));
        }
    }
    Instant::now() + std::time::Duration::from_millis(ms)
}
