//! Map kernels: outputs computed element by element from broadcast inputs — the engine under
//! [`ElementwiseKernel`](super::ElementwiseKernel) and element-wise [`fuse`](super::fuse).
//!
//! A launch is planned like the table's element-wise ops (`device::blocks`): one operand per
//! array input (broadcast axes have stride 0) and per output, split into blocks whose
//! bindings fit the device's limits. Each block takes one of two skeletons, generated per
//! number and dtype of operands:
//!
//! - **flat**: one axis, each operand contiguous or a broadcast element: invocation `lid` of
//!   a workgroup handles elements `lid`, `lid + 256`, ... (neighbouring invocations touch
//!   neighbouring elements, which CPUs vectorise); an output of a packed dtype is written in
//!   runs of consecutive elements instead, whole words at a time;
//! - **strided**: up to 8 axes of any strides, each invocation a run of consecutive elements
//!   walked with `device`'s strided walk.
//!
//! Scalars travel in the uniform; `i` (the output element's row-major index) and `n` (the
//! element count) are CuPy's.

use super::cache::Generated;
use super::map_wgsl::Walk;
use super::types::{Scalar, Typing};
use super::watchdog::{self, Watchdog};
use crate::array::Array;
use crate::device::Work;
use crate::device::params::{Params, base_i32, block_count};
use crate::device::{Binding, LaunchName, Resource};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::broadcast_shapes;
use crate::ops::elementwise::blocks_for;

/// Workgroup size of map kernels.
pub(super) const WG: u32 = 256;
/// Elements per invocation.
pub(super) const EPT: u32 = 4;

/// One input of a map kernel.
#[derive(Debug, Clone)]
pub(crate) enum Input<'a> {
    Array(&'a Array),
    /// An array converted to its parameter's dtype for the call.
    Converted(Array),
    Scalar(Scalar),
}

impl Input<'_> {
    /// The array, if the input is one.
    pub fn array(&self) -> Option<&Array> {
        match self {
            Input::Array(a) => Some(a),
            Input::Converted(a) => Some(a),
            Input::Scalar(_) => None,
        }
    }
}

/// A map kernel's text and typing: everything but the arrays it runs on.
#[derive(Debug, Clone)]
pub(crate) struct MapSource {
    /// The API that runs it, for errors (`ElementwiseKernel`, `fuse`).
    pub op: &'static str,
    /// Its name in labels, logs and profiles.
    pub name: String,
    /// `(name, dtype)` of each input; scalars are known by their [`Input`].
    pub inputs: Vec<(String, DType)>,
    /// `(name, dtype)` of each output.
    pub outputs: Vec<(String, DType)>,
    /// Our functions the body calls: the op library's WGSL, and `(NumPy name, function)` of
    /// those user text may call by NumPy's name.
    pub library: String,
    pub library_calls: Vec<(&'static str, String)>,
    /// The library joins the math library (its `FAST_MATH` follows the device's mode).
    pub uses_math: bool,
    /// User text at the top level (helper functions), possibly empty.
    pub preamble: String,
    /// The body: statements assigning the outputs.
    pub body: String,
    /// The body is the user's (else ours, generated: not checked for our namespace).
    pub user_body: bool,
    /// Type placeholders and their dtypes: `alias T = f32;` for the user's text.
    pub aliases: Vec<(String, DType)>,
}

impl MapSource {
    /// The key its pipelines are cached by (with the walk and the device's typing).
    fn key(&self, walk: &Walk, scalars: &[bool], typing: &[Typing]) -> String {
        format!(
            "map|{}|{:?}|{:?}|{:?}|{}|{}|{}|{:?}|{:?}|{:?}",
            self.name,
            self.aliases,
            self.inputs,
            self.outputs,
            self.preamble,
            self.body,
            self.library,
            walk,
            scalars,
            typing.iter().map(|t| t.packed_f16).collect::<Vec<_>>()
        )
    }

    /// Runs the kernel: `inputs` broadcast together with `outputs` (all of one shape, fresh
    /// and not sharing memory with the inputs: see [`run`]).
    fn launch(&self, inputs: &[Input], outputs: &[&Array], typing: &[Typing]) -> Result<()> {
        let op = self.op;
        let out0 = outputs[0];
        let dev = &out0.device;
        let inner = &dev.inner;
        inner.check_alive(op)?;
        if out0.is_empty() {
            return Ok(());
        }
        let shape: Vec<usize> = out0.shape().to_vec();
        let scalars: Vec<bool> = inputs.iter().map(|i| i.array().is_none()).collect();
        let mut arrays: Vec<Array> = Vec::new();
        for a in inputs.iter().filter_map(Input::array) {
            arrays.push(a.broadcast_to(&shape)?);
        }
        arrays.extend(outputs.iter().map(|&a| a.clone()));
        let bindings = arrays.len() as u64;
        let max = inner.limits.max_storage_buffers_per_shader_stage as u64;
        if bindings > max {
            return Err(Error::invalid(
                op,
                format!(
                    "kernel `{}` binds {bindings} arrays (inputs and outputs), more than this \
                     adapter's max_storage_buffers_per_shader_stage ({max}); pass fewer arrays \
                     (scalars do not count) or split the kernel",
                    self.name
                ),
            ));
        }
        let total = u32::try_from(out0.len())
            .map_err(|_| Error::overflow(op, format!("{} elements (n is a u32)", out0.len())))?;
        let refs: Vec<&Array> = arrays.iter().collect();
        let blocks = blocks_for(op, &refs)?;
        let cache = inner.extensions.get::<Generated>();
        let out_slot = arrays.len() - outputs.len();
        // User text that loops runs on a budget, checked through the watchdog word.
        let dog = inner.extensions.get::<Watchdog>();
        // Array operands whose elements are one word each (what `vec4` accesses need).
        let words: Vec<bool> = arrays
            .iter()
            .map(|a| a.dtype().size_bytes() == 4 && !inner.emulates(a.dtype()))
            .collect();
        let loops = self.user_body && watchdog::loops(&[&self.body, &self.preamble]);
        let word = loops.then(|| dog.word(dev)).transpose()?;
        let started = web_time::Instant::now();
        for blk in &blocks {
            let packed = typing[self.inputs.len()..].iter().any(Typing::shares_words);
            let walk = Walk::of(blk, packed, &words, outputs.len());
            let key = self.key(&walk, &scalars, typing);
            let label = format!("{}[{}]", self.name, self.dtypes_label(typing));
            let pipeline =
                cache.pipeline(inner, &key, &label, "gpa_main", self.uses_math, || {
                    self.module(&walk, &scalars, typing, watchdog::budget(inner))?
                        .checked(op, &self.name)
                })?;
            let mut p = Params::default();
            p.strided_block(blk)?;
            // i: the output element's row-major index = its index in the (contiguous) first
            // output minus the output's offset, plus the window's start.
            let w = &blk.windows[out_slot];
            let (_, layout) = outputs[0].storage_and_layout();
            let shift = (w.byte_offset / out0.dtype().size_bytes()) as i64 - layout.offset as i64;
            p.i32(base_i32(shift)?).u32(total);
            for i in inputs {
                if let Input::Scalar(s) = i {
                    s.push(&mut p);
                }
            }
            let mut resources = vec![Resource::Uniform(p.bytes())];
            for (a, w) in arrays.iter().zip(&blk.windows) {
                let buffer = a.storage.buffer().expect("non-empty");
                resources.push(Resource::Storage(Binding::of(buffer, w)));
            }
            if let Some(word) = &word {
                resources.push(Resource::Storage(watchdog::binding(word)));
            }
            let count = block_count(blk)? as u64;
            let per_group = (WG * EPT) as u64;
            let groups = match &walk {
                // Whole pieces of every row (of vec4s).
                Walk::Rows(_, vec4) => {
                    let width = *blk.shape.last().expect("rank >= 2");
                    let units = if *vec4 { width / 4 } else { width };
                    count / width * units.div_ceil(per_group)
                }
                Walk::Flat(_, true) => (count / 4).div_ceil(per_group),
                _ => count.div_ceil(per_group),
            };
            let max_dim = inner.limits.max_compute_workgroups_per_dimension;
            let (x, y) =
                crate::device::blocks::grid(groups, max_dim).ok_or_else(|| Error::TooLarge {
                    op,
                    requested: count,
                    max: per_group * (max_dim as u64).pow(2),
                    what: "elements per launch",
                })?;
            inner.guarded(op, || {
                inner.launch(
                    &pipeline,
                    &LaunchName {
                        label: label.clone(),
                        parts: [self.name.clone(), self.dtypes_label(typing), String::new()],
                    },
                    &resources,
                    (x, y, 1),
                    Work::computes(format!("shape={:?} elements={count}", blk.shape), count),
                )
            })?;
            if word.is_some() {
                dog.check(inner, op, started)?;
            }
        }
        Ok(())
    }

    /// How the device types each input, then each output.
    pub fn typing(&self, device: &crate::Device, inputs: &[Input]) -> Result<Vec<Typing>> {
        let mut typing = Vec::new();
        for (k, (_, d)) in self.inputs.iter().enumerate() {
            debug_assert!(match &inputs[k] {
                Input::Scalar(s) => s.dtype == *d,
                array => array.array().is_some_and(|a| a.dtype() == *d),
            });
            typing.push(Typing::of(self.op, device, *d)?);
        }
        for (_, d) in &self.outputs {
            typing.push(Typing::of(self.op, device, *d)?);
        }
        Ok(typing)
    }

    /// The checked module of a flat walk over contiguous arrays for `inputs`.
    pub fn wgsl_for(&self, device: &crate::Device, inputs: &[Input]) -> Result<String> {
        let typing = self.typing(device, inputs)?;
        let scalars: Vec<bool> = inputs.iter().map(|i| i.array().is_none()).collect();
        let n_arrays = scalars.iter().filter(|s| !**s).count() + self.outputs.len();
        let contiguous = vec![true; n_arrays];
        self.module(
            &Walk::Flat(contiguous, false),
            &scalars,
            &typing,
            watchdog::budget(&device.inner),
        )?
        .checked(self.op, &self.name)
    }

    /// `f32,f32->f32`: the dtypes of a launch, for its label.
    fn dtypes_label(&self, typing: &[Typing]) -> String {
        let n_in = self.inputs.len();
        let name = |t: &Typing| {
            if t.packed_f16 {
                "f16p".to_string()
            } else {
                t.dtype.to_string()
            }
        };
        let ins: Vec<String> = typing[..n_in].iter().map(name).collect();
        let outs: Vec<String> = typing[n_in..].iter().map(name).collect();
        format!("{}->{}", ins.join(","), outs.join(","))
    }
}

/// Runs `source` on `inputs`, writing fresh outputs or `out`; returns the outputs.
///
/// The launch shape is the inputs' broadcast shape (and `out`'s, which must equal it). An
/// `out` that shares memory with an input, or is not contiguous while the body reads `i`, is
/// computed into a fresh array first and then assigned.
pub(crate) fn run(
    source: &MapSource,
    device: &crate::Device,
    inputs: &[Input],
    out: Option<&[&Array]>,
) -> Result<Vec<Array>> {
    let op = source.op;
    let mut shapes: Vec<&[usize]> = inputs
        .iter()
        .filter_map(Input::array)
        .map(Array::shape)
        .collect();
    if let Some(out) = out {
        if out.len() != source.outputs.len() {
            return Err(Error::invalid(
                op,
                format!(
                    "kernel `{}` has {} output(s), {} were given",
                    source.name,
                    source.outputs.len(),
                    out.len()
                ),
            ));
        }
        shapes.extend(out.iter().map(|a| a.shape()));
    }
    if shapes.is_empty() {
        return Err(Error::invalid(
            op,
            format!(
                "kernel `{}`: the loop size is undecided (no array argument and no output)",
                source.name
            ),
        ));
    }
    let shape = broadcast_shapes(op, &shapes)?;
    let mut arrays = inputs.iter().filter_map(Input::array);
    let first = arrays
        .next()
        .or_else(|| out.and_then(|o| o.first().copied()));
    if let Some(first) = first {
        if !first.device().same_as(device) {
            return Err(Error::DeviceMismatch {
                op,
                lhs: format!("{device:?}"),
                rhs: format!("{:?}", first.device()),
            });
        }
        for a in arrays.chain(out.into_iter().flatten().copied()) {
            first.same_device(op, a)?;
        }
    }
    let typing = source.typing(device, inputs)?;
    let uses_i = super::text::words(&source.body).contains("i");
    match out {
        Some(out) => {
            for (a, (name, d)) in out.iter().zip(&source.outputs) {
                if a.shape() != shape.as_slice() {
                    return Err(Error::shape(
                        op,
                        format!(
                            "output {name} has shape {:?}, the arguments broadcast to {shape:?}",
                            a.shape()
                        ),
                    ));
                }
                if a.dtype() != *d {
                    return Err(Error::DTypeMismatch {
                        op,
                        expected: *d,
                        got: a.dtype(),
                    });
                }
            }
            let aliased = out.iter().enumerate().any(|(k, o)| {
                inputs
                    .iter()
                    .filter_map(Input::array)
                    .any(|a| a.may_share_memory(o))
                    || out[..k].iter().any(|p| p.may_share_memory(o))
            });
            let direct = !aliased && (!uses_i || out[0].is_contiguous());
            if direct {
                source.launch(inputs, out, &typing)?;
                return Ok(out.iter().map(|&a| a.clone()).collect());
            }
            let fresh = fresh_outputs(source, device, &shape)?;
            let refs: Vec<&Array> = fresh.iter().collect();
            source.launch(inputs, &refs, &typing)?;
            for (o, f) in out.iter().zip(&fresh) {
                o.assign(f)?;
            }
            Ok(out.iter().map(|&a| a.clone()).collect())
        }
        None => {
            let fresh = fresh_outputs(source, device, &shape)?;
            let refs: Vec<&Array> = fresh.iter().collect();
            source.launch(inputs, &refs, &typing)?;
            Ok(fresh)
        }
    }
}

fn fresh_outputs(
    source: &MapSource,
    device: &crate::Device,
    shape: &[usize],
) -> Result<Vec<Array>> {
    source
        .outputs
        .iter()
        .map(|(_, d)| Array::empty(source.op, device, shape, *d))
        .collect()
}
