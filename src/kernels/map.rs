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
use super::module::Module;
use super::types::{Scalar, Typing};
use super::watchdog::{self, Watchdog};
use crate::array::Array;
use crate::device::Work;
use crate::device::blocks::{Block, BlockOperand, collapse, plan};
use crate::device::element_access::{read_value, write_value};
use crate::device::params::{Params, base_i32, block_count};
use crate::device::{Binding, LaunchName, Resource};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::broadcast_shapes;

/// Workgroup size of map kernels.
const WG: u32 = 256;
/// Elements per invocation.
const EPT: u32 = 4;

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

/// How one block walks its operands.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Walk {
    /// One axis; per array operand, contiguous (`true`) or one broadcast element; `vec4`:
    /// the contiguous ones are read and written four elements at a time (one-word dtypes,
    /// windows and lengths in whole fours), which CPU drivers turn into vector accesses.
    Flat(Vec<bool>, bool),
    /// Rows of at least one workgroup's elements along the last axis, on which each array
    /// operand is contiguous (`true`) or broadcast; any strides on the other axes. Each
    /// workgroup takes a piece of one row: its outer position is unravelled once. `vec4` as
    /// for `Flat` (rows, and the rows' starts, in whole fours too).
    Rows(Vec<bool>, bool),
    Strided,
}

impl Walk {
    /// The walk of a block (`packed`: an output shares words between elements; `words`: per
    /// array operand, its elements are single words, which `vec4` accesses need; the last
    /// `outputs` operands are the outputs).
    fn of(blk: &Block, packed: bool, words: &[bool], outputs: usize) -> Walk {
        let unit = |s: &Vec<i64>| matches!(s.last(), Some(0 | 1));
        let inner: Vec<bool> = blk.strides.iter().map(|s| s.last() == Some(&1)).collect();
        let fours = |n: i64| n % 4 == 0;
        // Contiguous outputs; every contiguous operand of one-word elements, with a window
        // base and outer strides in whole fours; rows of whole fours.
        let vec4 = !packed
            && inner[inner.len() - outputs..].iter().all(|&c| c)
            && blk.shape.last().is_some_and(|&n| n % 4 == 0)
            && (0..inner.len()).all(|s| {
                let outer = &blk.strides[s][..blk.strides[s].len() - 1];
                !inner[s]
                    || (words[s] && fours(blk.windows[s].base) && outer.iter().all(|&x| fours(x)))
            });
        if blk.shape.len() == 1 && blk.strides.iter().all(unit) {
            Walk::Flat(inner, vec4)
        } else if !packed
            && blk.strides.iter().all(unit)
            && blk
                .shape
                .last()
                .is_some_and(|&n| n >= (WG * EPT / 2) as u64)
        {
            Walk::Rows(inner, vec4)
        } else {
            Walk::Strided
        }
    }

    /// The contiguous operands read and written as `vec4`s.
    fn vec4_operands(&self) -> Option<&[bool]> {
        match self {
            Walk::Flat(c, true) | Walk::Rows(c, true) => Some(c),
            _ => None,
        }
    }
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

    /// The module for one walk: `scalars[k]` says input `k` is a scalar; `typing` covers the
    /// inputs, then the outputs.
    pub fn module(
        &self,
        walk: &Walk,
        scalars: &[bool],
        typing: &[Typing],
        budget: u32,
    ) -> Result<Module> {
        let op = self.op;
        let n_in = self.inputs.len();
        let mut m = Module::default();
        for (numpy, function) in &self.library_calls {
            m.provide(numpy, function);
        }
        if typing.iter().any(Typing::needs_f16) {
            m.frame("enable f16;");
        }
        m.ours(&self.library);
        // Bindings: array inputs, then outputs, from binding 1 (0 is the uniform).
        let mut binding = 1;
        let mut arrays: Vec<String> = Vec::new();
        let mut access = String::new();
        let vec4 = walk.vec4_operands();
        for (k, t) in typing.iter().enumerate() {
            let is_input = k < n_in;
            if is_input && scalars[k] {
                continue;
            }
            let name = format!("gpa_v{k}");
            if vec4.is_some_and(|c| c[arrays.len()]) {
                let mode = if is_input { "read" } else { "read_write" };
                access.push_str(&format!(
                    "@group(0) @binding({binding}) var<storage, {mode}> {name}: array<vec4<{}>>;\n",
                    t.dtype.wgsl()
                ));
                arrays.push(name);
                binding += 1;
                continue;
            }
            access.push_str(&if is_input {
                read_value(&name, binding, t.variant(), t.dtype)
            } else {
                write_value(&name, binding, t.variant(), t.dtype)
            });
            arrays.push(name);
            binding += 1;
        }
        m.ours(&access);
        m.watchdog_at(binding, budget);
        // The uniform.
        let mut params = String::from("struct gpa_Params {\n    shape: array<vec4<u32>, 2>,\n");
        for k in 0..arrays.len() {
            params.push_str(&format!("    s{k}: array<vec4<i32>, 2>,\n"));
        }
        for k in 0..arrays.len() {
            params.push_str(&format!("    b{k}: i32,\n"));
        }
        params
            .push_str("    rank: u32,\n    count: u32,\n    index_shift: i32,\n    total: u32,\n");
        for (k, t) in typing.iter().take(n_in).enumerate() {
            if scalars[k] {
                params.push_str(&format!("    c{k}: {},\n", t.dtype.wgsl_compute()));
            }
        }
        params.push_str("}\n@group(0) @binding(0) var<uniform> p: gpa_Params;\n");
        m.ours(&params);
        // The body, framed as a function of the user's names.
        let out_struct: String = self
            .outputs
            .iter()
            .zip(&typing[n_in..])
            .map(|((name, _), t)| format!("{name}: {}, ", t.user()))
            .collect();
        let args: String = self
            .inputs
            .iter()
            .zip(typing)
            .map(|((name, _), t)| format!("{name}: {}, ", t.user()))
            .collect();
        let locals: String = self
            .outputs
            .iter()
            .zip(&typing[n_in..])
            .map(|((name, _), t)| format!("    var {name}: {};\n", t.user()))
            .collect();
        let names: Vec<&str> = self.outputs.iter().map(|(n, _)| n.as_str()).collect();
        m.frame(&super::types::aliases(&self.aliases));
        if !self.preamble.trim().is_empty() {
            m.user(op, "preamble", &self.preamble)?;
        }
        m.frame(&format!(
            "struct gpa_Out {{ {out_struct}}}\nfn gpa_body({args}i: u32, n: u32) -> gpa_Out {{\n{locals}"
        ));
        let body = super::text::statements(&self.body);
        if self.user_body {
            m.user(op, "operation", &body)?;
        } else {
            m.frame(&body);
        }
        m.frame(&format!("    return gpa_Out({});\n}}", names.join(", ")));
        m.ours(&self.skeleton(walk, scalars, typing, arrays.len()));
        Ok(m)
    }

    /// The entry point for one walk.
    fn skeleton(
        &self,
        walk: &Walk,
        scalars: &[bool],
        typing: &[Typing],
        n_arrays: usize,
    ) -> String {
        let n_in = self.inputs.len();
        // Which array slot each input and output uses.
        let mut slot = Vec::new();
        let mut next = 0;
        for k in 0..typing.len() {
            if scalars.get(k).copied().unwrap_or(false) {
                slot.push(None);
            } else {
                slot.push(Some(next));
                next += 1;
            }
        }
        let out_slot0 = slot[n_in].expect("outputs are arrays");
        let runs = typing[n_in..].iter().any(Typing::shares_words) || *walk == Walk::Strided;
        let at = |s: usize| format!("at{s}");
        let mut args = String::new();
        for k in 0..n_in {
            let t = typing[k];
            let value = match slot[k] {
                Some(s) => format!("load_gpa_v{k}({})", at(s)),
                None => format!("gpa_p.c{k}"),
            };
            args.push_str(&t.user_value(&value));
            args.push_str(", ");
        }
        let mut stores = String::new();
        let mut flushes = String::new();
        for (j, t) in typing[n_in..].iter().enumerate() {
            let k = n_in + j;
            let s = slot[k].expect("an array");
            let value = t.stored_value(&format!("r.{}", self.outputs[j].0));
            let f = if runs { "stage" } else { "store" };
            stores.push_str(&format!("        {f}_gpa_v{k}({}, {value});\n", at(s)));
            if runs {
                flushes.push_str(&format!("    flush_gpa_v{k}();\n"));
            }
        }
        let call = format!(
            "        let r = gpa_body({args}u32(gpa_p.index_shift + {}), gpa_p.total);\n",
            at(out_slot0)
        );
        let header = format!(
            "@compute @workgroup_size({WG})\nfn gpa_main(@builtin(workgroup_id) wid: vec3<u32>, \
             @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {{\n\
             \x20   let group = wid.y * nwg.x + wid.x;\n"
        );
        // Four elements of every contiguous operand at once (`vec4` walks): `q{s}` their
        // vec4's index, `at{s}` a broadcast operand's element, `iout` the first output
        // element's index.
        let step4 = |contiguous: &[bool]| -> String {
            let mut code = String::new();
            for k in 0..n_in {
                match slot[k] {
                    Some(s) if contiguous[s] => {
                        code.push_str(&format!("        let v{k} = gpa_v{k}[q{s}];\n"))
                    }
                    Some(s) => {
                        code.push_str(&format!("        let v{k} = load_gpa_v{k}({});\n", at(s)))
                    }
                    None => {}
                }
            }
            for (j, t) in typing[n_in..].iter().enumerate() {
                code.push_str(&format!("        var o{j}: vec4<{}>;\n", t.dtype.wgsl()));
            }
            for (c, lane) in ["x", "y", "z", "w"].iter().enumerate() {
                let args: String = (0..n_in)
                    .map(|k| {
                        let v = match slot[k] {
                            Some(s) if contiguous[s] => format!("v{k}.{lane}"),
                            Some(_) => format!("v{k}"),
                            None => format!("gpa_p.c{k}"),
                        };
                        format!("{}, ", typing[k].user_value(&v))
                    })
                    .collect();
                code.push_str(&format!(
                    "        {{\n            let r = gpa_body({args}u32(gpa_p.index_shift + iout + {c}), gpa_p.total);\n"
                ));
                for (j, t) in typing[n_in..].iter().enumerate() {
                    let v = t.stored_value(&format!("r.{}", self.outputs[j].0));
                    code.push_str(&format!("            o{j}.{lane} = {v};\n"));
                }
                code.push_str("        }\n");
            }
            for j in 0..self.outputs.len() {
                let k = n_in + j;
                let s = slot[k].expect("an array");
                code.push_str(&format!("        gpa_v{k}[q{s}] = o{j};\n"));
            }
            code
        };
        match walk {
            Walk::Rows(contiguous, true) => {
                let mut init = String::new();
                let mut unravel = String::new();
                let mut qs = String::new();
                for s in 0..n_arrays {
                    init.push_str(&format!("    var row{s} = gpa_p.b{s};\n"));
                    unravel.push_str(&format!(
                        "        row{s} += i32(c) * gpa_p.s{s}[a / 4u][a % 4u];\n"
                    ));
                    qs.push_str(&if contiguous[s] {
                        format!("        let q{s} = u32(row{s}) / 4u + col;\n")
                    } else {
                        format!("        let {} = row{s};\n", at(s))
                    });
                }
                let per = WG * EPT;
                format!(
                    "{header}    let last = gpa_p.rank - 1u;\n\
                     \x20   let width = gpa_p.shape[last / 4u][last % 4u] / 4u;\n\
                     \x20   let pieces = (width + {}u) / {per}u;\n\
                     \x20   var rem = group / pieces;\n    let first = (group % pieces) * {per}u + lid;\n{init}\
                     \x20   for (var k = last; k > 0u; k -= 1u) {{\n        let a = k - 1u;\n\
                     \x20       let e = gpa_p.shape[a / 4u][a % 4u];\n        let c = rem % e;\n\
                     \x20       rem = rem / e;\n{unravel}    }}\n\
                     \x20   if (rem != 0u) {{ return; }}\n\
                     \x20   for (var e = 0u; e < {EPT}u; e += 1u) {{\n\
                     \x20       let col = first + e * {WG}u;\n        if (col >= width) {{ break; }}\n\
                     {qs}        let iout = row{out_slot0} + i32(4u * col);\n{body}    }}\n}}\n",
                    per - 1,
                    body = step4(contiguous),
                )
            }
            Walk::Flat(contiguous, true) => {
                let mut qs = String::new();
                for s in 0..n_arrays {
                    qs.push_str(&if contiguous[s] {
                        format!("        let q{s} = u32(gpa_p.b{s}) / 4u + g;\n")
                    } else {
                        format!("        let {} = gpa_p.b{s};\n", at(s))
                    });
                }
                format!(
                    "{header}    let first = group * {}u + lid;\n    for (var e = 0u; e < {EPT}u; e += 1u) {{\n\
                     \x20       let g = first + e * {WG}u;\n        if (g >= gpa_p.count / 4u) {{ break; }}\n\
                     {qs}        let iout = gpa_p.b{out_slot0} + i32(4u * g);\n{body}    }}\n}}\n",
                    WG * EPT,
                    body = step4(contiguous),
                )
            }
            Walk::Rows(contiguous, false) => {
                let mut ats = String::new();
                let mut unravel = String::new();
                let mut init = String::new();
                for s in 0..n_arrays {
                    init.push_str(&format!("    var row{s} = gpa_p.b{s};\n"));
                    unravel.push_str(&format!(
                        "        row{s} += i32(c) * gpa_p.s{s}[a / 4u][a % 4u];\n"
                    ));
                    let col = if contiguous[s] { " + i32(col)" } else { "" };
                    ats.push_str(&format!("        let {} = row{s}{col};\n", at(s)));
                }
                let per = WG * EPT;
                format!(
                    "{header}    let last = gpa_p.rank - 1u;\n\
                     \x20   let width = gpa_p.shape[last / 4u][last % 4u];\n\
                     \x20   let pieces = (width + {}u) / {per}u;\n\
                     \x20   var rem = group / pieces;\n    let first = (group % pieces) * {per}u + lid;\n{init}\
                     \x20   for (var k = last; k > 0u; k -= 1u) {{\n        let a = k - 1u;\n\
                     \x20       let e = gpa_p.shape[a / 4u][a % 4u];\n        let c = rem % e;\n\
                     \x20       rem = rem / e;\n{unravel}    }}\n\
                     \x20   if (rem != 0u) {{ return; }}\n\
                     \x20   for (var e = 0u; e < {EPT}u; e += 1u) {{\n\
                     \x20       let col = first + e * {WG}u;\n        if (col >= width) {{ break; }}\n\
                     {ats}{call}{stores}    }}\n}}\n",
                    per - 1
                )
            }
            Walk::Flat(contiguous, false) => {
                let index = |s: usize, g: &str| {
                    if contiguous[s] {
                        format!("gpa_p.b{s} + i32({g})")
                    } else {
                        format!("gpa_p.b{s}")
                    }
                };
                let mut ats = String::new();
                for s in 0..n_arrays {
                    ats.push_str(&format!("        let {} = {};\n", at(s), index(s, "g")));
                }
                let (first, step) = if runs {
                    (format!("(group * {WG}u + lid) * {EPT}u"), "1u".to_string())
                } else {
                    (format!("group * {}u + lid", WG * EPT), format!("{WG}u"))
                };
                format!(
                    "{header}    let first = {first};\n    for (var e = 0u; e < {EPT}u; e += 1u) {{\n\
                     \x20       let g = first + e * {step};\n        if (g >= gpa_p.count) {{ break; }}\n\
                     {ats}{call}{stores}    }}\n{flushes}}}\n"
                )
            }
            Walk::Strided => {
                let mut init = String::new();
                let mut step = String::new();
                let mut back = String::new();
                for s in 0..n_arrays {
                    init.push_str(&format!("    var {} = gpa_p.b{s};\n", at(s)));
                    step.push_str(&format!(
                        "            {} += gpa_p.s{s}[a / 4u][a % 4u];\n",
                        at(s)
                    ));
                    back.push_str(&format!(
                        "            {} -= i32(e) * gpa_p.s{s}[a / 4u][a % 4u];\n",
                        at(s)
                    ));
                }
                let unravel: String = (0..n_arrays)
                    .map(|s| {
                        format!(
                            "        {} += i32(c) * gpa_p.s{s}[a / 4u][a % 4u];\n",
                            at(s)
                        )
                    })
                    .collect();
                format!(
                    "{header}    let start = (group * {WG}u + lid) * {EPT}u;\n    if (start >= gpa_p.count) {{ return; }}\n\
                     \x20   var coord: array<u32, 8>;\n{init}    var rem = start;\n\
                     \x20   for (var k = gpa_p.rank; k > 0u; k -= 1u) {{\n        let a = k - 1u;\n\
                     \x20       let e = gpa_p.shape[a / 4u][a % 4u];\n        let c = rem % e;\n\
                     \x20       coord[a] = c;\n        rem = rem / e;\n{unravel}    }}\n\
                     \x20   let stop = min(start + {EPT}u, gpa_p.count);\n\
                     \x20   for (var g = start; g < stop; g += 1u) {{\n{call}{stores}\
                     \x20       for (var a = gpa_p.rank - 1u; ; a -= 1u) {{\n            coord[a] += 1u;\n{step}\
                     \x20           let e = gpa_p.shape[a / 4u][a % 4u];\n            if (coord[a] < e || a == 0u) {{ break; }}\n\
                     \x20           coord[a] = 0u;\n{back}        }}\n    }}\n{flushes}}}\n"
                )
            }
        }
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
        let blocks = blocks_for(op, &arrays)?;
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

/// Plans blocks over the shape of `arrays` (all of one shape; the last ones the outputs).
fn blocks_for(op: &'static str, arrays: &[Array]) -> Result<Vec<Block>> {
    let out = arrays.last().expect("an output");
    let shape: Vec<u64> = out.shape().iter().map(|&n| n as u64).collect();
    let mut operands: Vec<BlockOperand> = arrays
        .iter()
        .map(|a| {
            let (storage, layout) = a.storage_and_layout();
            BlockOperand {
                offset: layout.offset as i64,
                strides: layout.strides.iter().map(|&s| s as i64).collect(),
                elem_bytes: a.dtype().size_bytes(),
                buffer_bytes: storage.bytes(),
            }
        })
        .collect();
    let strides: Vec<Vec<i64>> = operands.iter().map(|o| o.strides.clone()).collect();
    let (shape, strides) = collapse(&shape, &strides);
    for (o, s) in operands.iter_mut().zip(strides) {
        o.strides = s;
    }
    plan(op, &shape, &operands, out.device().inner.block_limits())
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
