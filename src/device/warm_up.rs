//! A pipeline's first dispatch, run at start-up on throwaway buffers, so that the first call
//! that uses it does not pay it.
//!
//! Some drivers finish a pipeline only when it first runs. lavapipe is one: creating the
//! pipeline runs naga and its NIR passes, but LLVM compiles the kernel (or loads it from Mesa's
//! disk cache) at its first dispatch, on the queue's thread. Measured on lavapipe with every
//! pipeline compiled and both caches warm, the first 64x64 matmul took 80–190 ms and the second
//! 0.5 ms. So the background plan dispatches the pipelines of the families a program calls
//! first once each, as soon as they are created: one workgroup, every binding a zeroed buffer.
//! Zeroed parameters are an empty problem for these kernels (no rows, no k-steps, no
//! elements), and WGSL's bounds-checked accesses keep any access inside the throwaway buffers,
//! so the dispatch computes nothing and writes nothing anyone reads.

use super::pipeline::PipelineKey;
use crate::memory::Maintainer;
use std::sync::Arc;

/// Bytes of each throwaway binding: more than any of the kernels' parameter structs or array
/// elements need.
const BINDING_BYTES: u64 = 4096;

/// Records and submits one workgroup of `pipeline` (made from `key`) on zeroed buffers, in this
/// thread's own error scopes, submitted under the device's submit lock (`memory/maintain.rs`:
/// wgpu-core panics when a submit races another thread's poll). Not waited for; but lavapipe
/// runs a submit's work, LLVM's compile included, before `submit` returns, so this worker
/// spends the compile here while the other workers go on with the plan. An error (this reader of the shader's bindings got them wrong) is only
/// logged: warming is an optimisation, never a failure. Whether it was submitted.
pub(super) fn first_dispatch(
    device: &wgpu::Device,
    (queue, maintainer): &(wgpu::Queue, Arc<Maintainer>),
    key: &PipelineKey,
    pipeline: &wgpu::ComputePipeline,
) -> bool {
    let Ok(wgsl) = key.wgsl() else {
        return false;
    };
    let Some(bindings) = super::specialize::entry_bindings(&wgsl, key.kernel.entry) else {
        return false;
    };
    let validation = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let oom = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
    let buffers: Vec<wgpu::Buffer> = bindings
        .iter()
        .map(|&(_, uniform)| {
            maintainer.context(|| {
                device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("gpuarray warm-up binding"),
                    size: BINDING_BYTES,
                    usage: if uniform {
                        wgpu::BufferUsages::UNIFORM
                    } else {
                        wgpu::BufferUsages::STORAGE
                    },
                    // Buffers start zeroed in wgpu.
                    mapped_at_creation: false,
                })
            })
        })
        .collect();
    let entries: Vec<wgpu::BindGroupEntry> = bindings
        .iter()
        .zip(&buffers)
        .map(|(&(binding, _), buffer)| wgpu::BindGroupEntry {
            binding,
            resource: buffer.as_entire_binding(),
        })
        .collect();
    let label = format!("warm-up {}", key.label());
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
        label: Some(&label),
    });
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some(&label),
            timestamp_writes: None,
        });
        pass.set_pipeline(pipeline);
        if !entries.is_empty() {
            let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(&label),
                layout: &pipeline.get_bind_group_layout(0),
                entries: &entries,
            });
            pass.set_bind_group(0, &group, &[]);
        }
        pass.dispatch_workgroups(1, 1, 1);
    }
    let commands = encoder.finish();
    let recorded = pop_all([oom, validation]);
    let submitted = recorded.and_then(|()| {
        let validation = device.push_error_scope(wgpu::ErrorFilter::Validation);
        maintainer.submit(queue, [commands]);
        pop_all([validation])
    });
    // Released under the lock too: on GL a buffer whose work is done (or never submitted) is
    // deleted at its drop, in the GL context, which another worker's compile may hold for
    // longer than wgpu-hal waits (a cold-cache exit test on GL panicked here).
    maintainer.context(move || drop(buffers));
    if let Err(e) = &submitted {
        log::debug!(
            "gpuarray: no warm-up dispatch of {}: {}",
            key.label(),
            crate::error::describe_wgpu_error(e)
        );
    }
    submitted.is_ok()
}

/// Pops `scopes`, innermost (the last pushed) first, and gives the first error any caught.
fn pop_all<const N: usize>(scopes: [wgpu::ErrorScopeGuard; N]) -> Result<(), wgpu::Error> {
    let mut first = None;
    for scope in scopes {
        if let Some(e) = pollster::block_on(scope.pop()) {
            first.get_or_insert(e);
        }
    }
    first.map_or(Ok(()), Err)
}
