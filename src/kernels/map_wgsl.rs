//! The WGSL of map kernels (`map.rs`): how a block walks its operands, and the module of one
//! walk — our element access and uniform, the user's body framed as a function of the user's
//! names, and the skeleton that calls it per element.

use super::map::{EPT, MapSource, WG};
use super::module::Module;
use super::types::Typing;
use crate::device::blocks::Block;
use crate::device::element_access::{read_value, write_value};
use crate::error::Result;

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
    pub(super) fn of(blk: &Block, packed: bool, words: &[bool], outputs: usize) -> Walk {
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
        let f16 = typing.iter().any(Typing::needs_f16);
        let mut m = Module::with_library(&self.library, &self.library_calls, f16);
        m.ours(super::types::int64_words(typing));
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

    /// The entry point for one walk. (Operands are numbered in the generated names, so the
    /// loops here run over indices.)
    #[allow(clippy::needless_range_loop)]
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
            Walk::Rows(contiguous, vec4) => {
                // The row's start for every operand, unravelled once per workgroup; then a piece
                // of the row: columns (or fours of columns) `first`, `first + WG`, ...
                let mut init = String::new();
                let mut unravel = String::new();
                let mut ats = String::new();
                for s in 0..n_arrays {
                    init.push_str(&format!("    var row{s} = gpa_p.b{s};\n"));
                    unravel.push_str(&format!(
                        "        row{s} += i32(c) * gpa_p.s{s}[a / 4u][a % 4u];\n"
                    ));
                    ats.push_str(&match (contiguous[s], *vec4) {
                        (true, true) => format!("        let q{s} = u32(row{s}) / 4u + col;\n"),
                        (true, false) => format!("        let {} = row{s} + i32(col);\n", at(s)),
                        (false, _) => format!("        let {} = row{s};\n", at(s)),
                    });
                }
                let (units, body) = if *vec4 {
                    (
                        " / 4u",
                        format!(
                            "        let iout = row{out_slot0} + i32(4u * col);\n{}",
                            step4(contiguous)
                        ),
                    )
                } else {
                    ("", format!("{call}{stores}"))
                };
                let per = WG * EPT;
                format!(
                    "{header}    let last = gpa_p.rank - 1u;\n\
                     \x20   let width = gpa_p.shape[last / 4u][last % 4u]{units};\n\
                     \x20   let pieces = (width + {}u) / {per}u;\n\
                     \x20   var rem = group / pieces;\n    let first = (group % pieces) * {per}u + lid;\n{init}\
                     \x20   for (var k = last; k > 0u; k -= 1u) {{\n        let a = k - 1u;\n\
                     \x20       let e = gpa_p.shape[a / 4u][a % 4u];\n        let c = rem % e;\n\
                     \x20       rem = rem / e;\n{unravel}    }}\n\
                     \x20   if (rem != 0u) {{ return; }}\n\
                     \x20   for (var e = 0u; e < {EPT}u; e += 1u) {{\n\
                     \x20       let col = first + e * {WG}u;\n        if (col >= width) {{ break; }}\n\
                     {ats}{body}    }}\n}}\n",
                    per - 1,
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
}
