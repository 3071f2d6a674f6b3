//! Recording one kernel launch: pipeline, uniform parameters, storage bindings, a 2-D grid.

use super::DeviceInner;
use super::blocks::{Window, grid};
use super::pipeline::PipelineKey;
use super::profile::Work;
use crate::error::{Error, Result};
use std::num::NonZeroU64;
use wgpu::util::DeviceExt;

/// A storage binding: a window of a buffer (a borrow and two numbers, so `Copy`).
#[derive(Clone, Copy)]
pub(crate) struct Binding<'a> {
    pub buffer: &'a wgpu::Buffer,
    pub offset: u64,
    pub size: u64,
}

/// One binding of a launch: a storage window, or a uniform's bytes.
#[derive(Clone, Copy)]
pub(crate) enum Resource<'a> {
    Storage(Binding<'a>),
    Uniform(&'a [u8]),
}

/// How a launch is named in the dispatch log and the profile: its label, and the label's
/// (kernel, variant, constants).
pub(crate) struct LaunchName {
    pub label: String,
    pub parts: [String; 3],
}

impl<'a> Binding<'a> {
    /// The binding of a planned window of `buffer`.
    pub fn of(buffer: &'a wgpu::Buffer, window: &Window) -> Binding<'a> {
        Binding {
            buffer,
            offset: window.byte_offset,
            size: window.byte_size,
        }
    }

    /// The same binding ending at its last whole `unit` bytes (vector views of a window whose
    /// tail is not a whole vector).
    pub fn whole_units(self, unit: u64) -> Binding<'a> {
        Binding {
            size: self.size / unit * unit,
            ..self
        }
    }
}

impl DeviceInner {
    /// Records a launch of `key` over `count` elements (`WG * EPT` per workgroup), its parameters in a
    /// fresh parameter buffer (created mapped, so no `write_buffer` ordering hazard), and the given
    /// storage bindings at bindings 1, 2, ... Call inside [`DeviceInner::guarded`].
    pub(crate) fn dispatch(
        &self,
        key: &PipelineKey,
        params: &[u8],
        storage: &[Binding],
        count: u64,
        shape: &[u64],
    ) -> Result<()> {
        debug_assert!(
            count > 0,
            "zero-size launches are filtered out by the callers"
        );
        let wg = key.elements_per_workgroup();
        let max_dim = self.limits.max_compute_workgroups_per_dimension;
        let (x, y) = grid(count.div_ceil(wg), max_dim).ok_or_else(|| Error::TooLarge {
            op: "dispatch",
            requested: count,
            max: wg * (max_dim as u64).pow(2),
            what: "elements per launch",
        })?;
        let elements: u64 = shape.iter().product();
        self.dispatch_grid(
            key,
            params,
            storage,
            (x, y, 1),
            Work::computes(
                format!("shape={shape:?} elements={count}"),
                elements * key.kernel.ops_per_element,
            ),
        )
    }

    /// Records a launch of `key` on an explicit `(x, y, z)` workgroup grid; `work` describes it
    /// for the dispatch log and the profiler.
    pub(crate) fn dispatch_grid(
        &self,
        key: &PipelineKey,
        params: &[u8],
        storage: &[Binding],
        grid: (u32, u32, u32),
        work: Work,
    ) -> Result<()> {
        let pipeline = self.pipeline(key)?;
        let label = key.label();
        // The label is `name[variant]{constants}`: the profile keeps the three apart.
        let (name, variant) = (key.kernel.name.to_string(), key.variant.to_string());
        let constants = label[name.len() + variant.len() + 2..].to_string();
        let mut resources = vec![Resource::Uniform(params)];
        resources.extend(storage.iter().map(|&b| Resource::Storage(b)));
        self.launch(
            &pipeline,
            &LaunchName {
                label,
                parts: [name, variant, constants],
            },
            &resources,
            grid,
            work,
        )
    }

    /// Records a launch of `pipeline` with `resources` at bindings 0, 1, ... of group 0 (a
    /// uniform's bytes go into a fresh parameter buffer, created mapped, so no `write_buffer`
    /// ordering hazard) on an explicit workgroup grid. Call inside [`DeviceInner::guarded`].
    pub(crate) fn launch(
        &self,
        pipeline: &wgpu::ComputePipeline,
        name: &LaunchName,
        resources: &[Resource],
        (x, y, z): (u32, u32, u32),
        work: Work,
    ) -> Result<()> {
        let label = &name.label;
        let max_dim = self.limits.max_compute_workgroups_per_dimension;
        if x.max(y).max(z) > max_dim {
            return Err(Error::TooLarge {
                op: "dispatch",
                requested: x.max(y).max(z) as u64,
                max: max_dim as u64,
                what: "workgroups per grid dimension (max_compute_workgroups_per_dimension)",
            });
        }
        let uniforms: Vec<Option<wgpu::Buffer>> = resources
            .iter()
            .map(|r| match r {
                Resource::Uniform(params) => {
                    let mut padded = params.to_vec();
                    padded.resize(params.len().next_multiple_of(16).max(16), 0);
                    Some(
                        self.device
                            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                                label: Some(label),
                                contents: &padded,
                                // STORAGE too: a kernel whose parameters change on every launch
                                // (Philox's counter) reads them from a storage binding, which
                                // drivers do not specialise shaders on (see shaders/philox.wgsl).
                                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::STORAGE,
                            }),
                    )
                }
                Resource::Storage(_) => None,
            })
            .collect();
        let entries: Vec<wgpu::BindGroupEntry> = resources
            .iter()
            .zip(&uniforms)
            .enumerate()
            .map(|(i, (r, u))| wgpu::BindGroupEntry {
                binding: i as u32,
                resource: match (r, u) {
                    (Resource::Storage(b), _) => {
                        wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                            buffer: b.buffer,
                            offset: b.offset,
                            size: NonZeroU64::new(b.size),
                        })
                    }
                    (Resource::Uniform(_), Some(u)) => u.as_entire_binding(),
                    (Resource::Uniform(_), None) => unreachable!("every uniform has its buffer"),
                },
            })
            .collect();
        let bind_group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(label),
            layout: &pipeline.get_bind_group_layout(0),
            entries: &entries,
        });
        let profiled = self.profiler.records_this_thread();
        let tag = self.record(|encoder| {
            // Under a profile, the pass writes its begin and end into the batch's query set.
            let (tag, queries) = match profiled {
                true => {
                    let (tag, q) =
                        self.profiler
                            .begin_pass(&self.device, label, self.log_dispatches);
                    (Some(tag), q)
                }
                false => (None, None),
            };
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some(label),
                timestamp_writes: queries.as_ref().map(|q| wgpu::ComputePassTimestampWrites {
                    query_set: &q.set,
                    beginning_of_pass_write_index: Some(q.begin),
                    end_of_pass_write_index: Some(q.begin + 1),
                }),
            });
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(x, y, z);
            tag
        });
        if let Some(tag) = tag {
            let bytes = resources
                .iter()
                .map(|r| match r {
                    Resource::Storage(b) => b.size,
                    Resource::Uniform(_) => 0,
                })
                .sum();
            self.profiler
                .push_launch(tag, name.parts.clone(), (x, y, z), bytes, &work);
        }
        let what = &work.what;
        if self.log_dispatches || log::log_enabled!(log::Level::Debug) {
            let line = format!(
                "gpuarray: dispatch {label} {what} workgroups=({x},{y},{z}) on {}",
                self.info
            );
            log::debug!("{line}");
            if self.log_dispatches {
                eprintln!("{line}");
            }
        }
        Ok(())
    }
}
