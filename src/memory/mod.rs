//! GPU memory: the caching pool (pool.rs), the wgpu allocator behind it, and the lock that
//! serialises submits and polls (maintain.rs). Readback staging, which drives the device's
//! scheduler, lives in `device/staging.rs`.

mod late_errors;
mod maintain;
mod pool;

pub(crate) use late_errors::LateErrors;
pub(crate) use maintain::Maintainer;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) use maintain::{Backoff, Progress, blocking_slice};

pub use pool::MemoryStats;
pub(crate) use pool::{Backing, Pool, PoolBlock};

use std::sync::Arc;

/// Creates wgpu buffers of one usage; allocation failures are caught by error scopes and
/// reported to the pool, which then frees its cache and retries.
pub(crate) struct WgpuBacking {
    device: wgpu::Device,
    maintainer: Arc<Maintainer>,
    // Read only on wasm32, where scope pops are deferred.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    late: Arc<LateErrors>,
    usage: wgpu::BufferUsages,
    label: &'static str,
}

impl WgpuBacking {
    pub fn new(
        device: &wgpu::Device,
        maintainer: &Arc<Maintainer>,
        late: &Arc<LateErrors>,
        usage: wgpu::BufferUsages,
        label: &'static str,
    ) -> Self {
        WgpuBacking {
            device: device.clone(),
            maintainer: Arc::clone(maintainer),
            late: Arc::clone(late),
            usage,
            label,
        }
    }
}

impl Backing for WgpuBacking {
    type Buffer = wgpu::Buffer;

    fn alloc(&self, bytes: u64) -> std::result::Result<wgpu::Buffer, String> {
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let buffer = self.maintainer.context(|| {
            self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(self.label),
                size: bytes,
                usage: self.usage,
                mapped_at_creation: false,
            })
        });
        #[cfg(not(target_arch = "wasm32"))]
        let errors = [
            pollster::block_on(validation.pop()),
            pollster::block_on(oom.pop()),
        ];
        // In a browser the pops resolve later: an error surfaces at the next await on the device.
        #[cfg(target_arch = "wasm32")]
        let errors: [Option<wgpu::Error>; 2] = {
            self.late.defer("allocate", [validation.pop(), oom.pop()]);
            [None, None]
        };
        match errors.into_iter().flatten().next() {
            None => Ok(buffer),
            Some(e) => Err(crate::error::describe_wgpu_error(&e)),
        }
    }

    fn release(&self, buffer: wgpu::Buffer) {
        // Dropped, not destroyed: a cached buffer may still be used by recorded or submitted
        // work (an array dropped while a kernel reading it is pending); wgpu frees it when that
        // work is done.
        self.maintainer.context(|| drop(buffer));
    }

    fn collect(&self) {
        // wgpu frees dropped buffers when the device is polled. A panic inside the poll is
        // reported by the next wait on the device, which polls again.
        self.maintainer.poll(&self.device);
    }
}
