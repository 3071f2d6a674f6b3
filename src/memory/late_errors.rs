//! Errors that error scopes report after the call that raised them returned.
//!
//! Native wgpu resolves an error scope's pop at once, so ops turn a wgpu error into `Err` on the
//! spot and nothing lands here. In a browser a pop is a JS promise that resolves later, and wasm
//! must never block on it: the pops are spawned ([`LateErrors::defer`]) and their errors, named by
//! the op that pushed the scopes, collected here. [`LateErrors::settled`] waits for every pop
//! still outstanding, so the next `await` on the device (`synchronize_async`, `to_vec_async`,
//! `Device::new_async`, ...) returns those errors as `Err`.

use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;
use std::task::{Context, Poll, Waker};

/// Scope pops still outstanding, the errors they gave, and who waits for them.
#[derive(Default)]
pub(crate) struct LateErrors {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    outstanding: usize,
    errors: Vec<String>,
    waiters: Vec<Waker>,
}

impl LateErrors {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Spawns the pops of `op`'s error scopes (already issued, in the order wgpu requires); the
    /// first error any of them reports is kept as `"op: message"`.
    #[cfg(target_arch = "wasm32")]
    pub fn defer<F>(
        self: &std::sync::Arc<Self>,
        op: &'static str,
        pops: impl IntoIterator<Item = F>,
    ) where
        F: Future<Output = Option<wgpu::Error>> + 'static,
    {
        let pops: Vec<F> = pops.into_iter().collect();
        self.state().outstanding += 1;
        let this = std::sync::Arc::clone(self);
        wasm_bindgen_futures::spawn_local(async move {
            let mut first = None;
            for pop in pops {
                if let Some(e) = pop.await {
                    first.get_or_insert(e);
                }
            }
            let mut s = this.state();
            if let Some(e) = first {
                s.errors
                    .push(format!("{op}: {}", crate::error::describe_wgpu_error(&e)));
            }
            s.outstanding -= 1;
            if s.outstanding == 0 {
                s.waiters.drain(..).for_each(Waker::wake);
            }
        });
    }

    /// Resolves once no pop is outstanding, with the errors collected so far (then forgotten).
    pub fn settled(&self) -> Settled<'_> {
        Settled { late: self }
    }
}

/// The future of [`LateErrors::settled`].
pub(crate) struct Settled<'a> {
    late: &'a LateErrors,
}

impl Future for Settled<'_> {
    type Output = Vec<String>;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Vec<String>> {
        let mut s = self.late.state();
        if s.outstanding == 0 {
            return Poll::Ready(std::mem::take(&mut s.errors));
        }
        s.waiters.push(cx.waker().clone());
        Poll::Pending
    }
}
