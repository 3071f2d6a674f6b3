//! `RawKernel`: a whole WGSL module, its entry point, bindings by position and the caller's
//! grid — the escape hatch, as CuPy's `RawKernel`.

use super::cache::Generated;
use super::module::Module;
use super::watchdog::{self, Watchdog};
use crate::array::Array;
use crate::device::{Binding, LaunchName, Resource, Work};
use crate::error::{Error, Result};

const OP: &str = "RawKernel";

/// One binding of a [`RawKernel`] call: an array (a storage buffer) or a uniform's bytes.
///
/// ```
/// let args = [gpuarray::RawArg::uniform_u32(&[3, 4])];
/// # let _ = args;
/// ```
#[derive(Debug, Clone)]
pub enum RawArg<'a> {
    /// A contiguous array, bound whole as `var<storage, read>` or `var<storage, read_write>`
    /// (its elements as their storage type: `u32` words for bool and the packed dtypes,
    /// `vec2<u32>` for the 64-bit integers).
    Array(&'a Array),
    /// The bytes of a `var<uniform>` struct, laid out as WGSL lays it out.
    Uniform(Vec<u8>),
}

impl RawArg<'_> {
    /// A uniform of `u32` values.
    pub fn uniform_u32(values: &[u32]) -> RawArg<'static> {
        RawArg::Uniform(values.iter().flat_map(|v| v.to_le_bytes()).collect())
    }
    /// A uniform of `f32` values.
    pub fn uniform_f32(values: &[f32]) -> RawArg<'static> {
        RawArg::Uniform(values.iter().flat_map(|v| v.to_le_bytes()).collect())
    }
}

impl<'a> From<&'a Array> for RawArg<'a> {
    fn from(a: &'a Array) -> Self {
        RawArg::Array(a)
    }
}

/// A whole WGSL compute module run as written: argument `k` is `@group(0) @binding(k)`, and
/// the caller gives the grid of workgroups. Compiled (and checked by naga, errors placed in
/// the code) on the first call, cached per device.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// use gpuarray::{Array, RawArg, RawKernel};
/// let k = RawKernel::new(
///     "@group(0) @binding(0) var<storage, read_write> x: array<f32>;
///      @group(0) @binding(1) var<uniform> scale: f32;
///      @compute @workgroup_size(64)
///      fn double(@builtin(global_invocation_id) id: vec3<u32>) {
///          if (id.x < arrayLength(&x)) { x[id.x] = x[id.x] * scale; }
///      }",
///     "double",
/// )?;
/// let x = Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;
/// k.call((1, 1, 1), &[(&x).into(), RawArg::uniform_f32(&[2.0])])?;
/// assert_eq!(x.to_vec::<f32>()?, vec![2.0, 4.0, 6.0]);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct RawKernel {
    code: String,
    entry: String,
}

impl RawKernel {
    /// A kernel of `code`'s entry point `entry`.
    pub fn new(code: &str, entry: &str) -> Result<RawKernel> {
        if !super::text::is_identifier(entry) {
            return Err(Error::invalid(
                OP,
                format!("entry point `{entry}` is not an identifier"),
            ));
        }
        Ok(RawKernel {
            code: code.to_string(),
            entry: entry.to_string(),
        })
    }

    /// Runs the kernel on a `(x, y, z)` grid of workgroups with `args` at bindings 0, 1, ...;
    /// the arrays must be on one device and contiguous (their bytes from their first element).
    pub fn call(&self, grid: (u32, u32, u32), args: &[RawArg]) -> Result<()> {
        let device = args
            .iter()
            .find_map(|a| match a {
                RawArg::Array(x) => Some(x.device().clone()),
                RawArg::Uniform(_) => None,
            })
            .ok_or_else(|| Error::invalid(OP, "a raw kernel call needs at least one array"))?;
        let inner = &device.inner;
        let limits = inner.limits.clone();
        let max = limits.max_compute_workgroups_per_dimension;
        if grid.0.max(grid.1).max(grid.2) > max {
            return Err(Error::TooLarge {
                op: OP,
                requested: grid.0.max(grid.1).max(grid.2) as u64,
                max: max as u64,
                what: "workgroups per grid dimension (max_compute_workgroups_per_dimension)",
            });
        }
        let mut resources = Vec::new();
        for (k, a) in args.iter().enumerate() {
            resources.push(match a {
                RawArg::Uniform(bytes) => Resource::Uniform(bytes),
                RawArg::Array(x) => {
                    x.same_device(
                        OP,
                        args.iter()
                            .find_map(|a| match a {
                                RawArg::Array(x) => Some(*x),
                                RawArg::Uniform(_) => None,
                            })
                            .expect("one array"),
                    )?;
                    Resource::Storage(binding(k, x, &limits)?)
                }
            });
        }
        if grid.0 == 0 || grid.1 == 0 || grid.2 == 0 {
            return Ok(());
        }
        // Loops run on a budget, checked through the watchdog word bound after the arguments.
        let dog = inner.extensions.get::<Watchdog>();
        let word = watchdog::loops(&[&self.code])
            .then(|| dog.word(&device))
            .transpose()?;
        if let Some(w) = &word {
            resources.push(Resource::Storage(watchdog::binding(w)));
        }
        let started = web_time::Instant::now();
        let arguments = args.len() as u32;
        let cache = inner.extensions.get::<Generated>();
        let key = format!("raw|{}|{}", self.entry, self.code);
        let label = format!("raw:{}", self.entry);
        let pipeline = cache.pipeline(inner, &key, &label, &self.entry, false, || {
            let mut m = Module::default();
            m.watchdog_at(arguments, watchdog::budget(inner));
            m.user(OP, "code", &self.code)?;
            m.checked(OP, &self.entry)
        })?;
        inner.guarded(OP, || {
            inner.launch(
                &pipeline,
                &LaunchName {
                    label: label.clone(),
                    parts: ["raw".to_string(), self.entry.clone(), String::new()],
                },
                &resources,
                (grid.0, grid.1, grid.2),
                Work::computes(format!("grid={grid:?}"), 0),
            )
        })?;
        if word.is_some() {
            dog.check(inner, OP, started)?;
        }
        Ok(())
    }
}

/// The binding of argument `k`: the array's bytes from its first element.
fn binding<'a>(k: usize, x: &'a Array, limits: &wgpu::Limits) -> Result<Binding<'a>> {
    if !x.is_contiguous() {
        return Err(Error::invalid(
            OP,
            format!(
                "argument {k} (shape {:?}, strides {:?}) is not contiguous: bind a contiguous copy",
                x.shape(),
                x.strides()
            ),
        ));
    }
    let Some(buffer) = x.storage.buffer() else {
        return Err(Error::invalid(
            OP,
            format!("argument {k} has no elements to bind"),
        ));
    };
    let (_, layout) = x.storage_and_layout();
    let offset = layout.offset as u64 * x.dtype().size_bytes();
    let align = limits.min_storage_buffer_offset_alignment as u64;
    if !offset.is_multiple_of(align) {
        return Err(Error::invalid(
            OP,
            format!(
                "argument {k} starts {offset} bytes into its buffer, not a multiple of the \
                 adapter's min_storage_buffer_offset_alignment ({align}): bind a copy"
            ),
        ));
    }
    let size = (x.len() as u64 * x.dtype().size_bytes()).next_multiple_of(4);
    let max = limits.max_storage_buffer_binding_size;
    if size > max {
        return Err(Error::TooLarge {
            op: OP,
            requested: size,
            max,
            what: "bytes of one storage binding (max_storage_buffer_binding_size)",
        });
    }
    Ok(Binding {
        buffer,
        offset,
        size: size.min(buffer.size() - offset),
    })
}
