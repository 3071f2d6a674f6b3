//! The WGSL of map-reduce kernels (`reduce.rs`): the module of one stage — what it reads
//! (the inputs, mapped, or the previous stage's chunk results), the user's `map`, `reduce`,
//! `identity` and `post` framed as functions, and the skeleton that walks a chunk.

use super::module::Module;
use super::reduce::{ReduceSource, WG};
use super::types::Typing;
use crate::device::element_access::{read_value, write_value};
use crate::error::Result;

/// Where a stage reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Reads {
    /// The inputs, mapped.
    Inputs,
    /// The previous stage's chunk results.
    Partials,
}

/// How a stage's invocations walk an output's reduced elements.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum StageWalk {
    /// A run of `chunk` consecutive elements, walked over the reduced axes.
    Chunked,
    /// One reduced axis: invocation `chunk` of an output takes elements chunk, chunk +
    /// chunks, ..., so neighbouring invocations read neighbouring elements.
    Interleaved,
    /// As `Interleaved`, in fours: per read slot, contiguous (`true`: its fours read as one
    /// `vec4`, reduced in order) or broadcast along the reduced axis.
    Interleaved4(Vec<bool>),
}

impl ReduceSource {
    /// The module of one stage (`last`: it applies `post` and stores the outputs).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn module(
        &self,
        reads: Reads,
        last: bool,
        walk: &StageWalk,
        scalars: &[bool],
        typing: &[Typing],
        r: Typing,
        budget: u32,
    ) -> Result<Module> {
        let op = self.op;
        let n_in = self.inputs.len();
        let rt = r.user();
        let f16 = typing.iter().any(Typing::needs_f16);
        let mut m = Module::with_library(&self.library, &self.library_calls, f16);
        m.ours(super::types::int64_words(&[typing, &[r]].concat()));
        // Bindings from 1 (0 is the uniform): what the stage reads, then what it writes.
        let mut access = String::new();
        let mut binding = 1;
        let mut slots = Vec::new();
        match reads {
            Reads::Inputs => {
                for (k, t) in typing[..n_in].iter().enumerate() {
                    if scalars[k] {
                        slots.push(None);
                        continue;
                    }
                    let slot = slots.iter().flatten().count();
                    access.push_str(&match walk {
                        StageWalk::Interleaved4(c) if c[slot] => format!(
                            "@group(0) @binding({binding}) var<storage, read> gpa_v{k}: array<vec4<{}>>;\n",
                            t.dtype.wgsl()
                        ),
                        _ => read_value(&format!("gpa_v{k}"), binding, t.variant(), t.dtype),
                    });
                    slots.push(Some(slot));
                    binding += 1;
                }
            }
            Reads::Partials => {
                access.push_str(&format!(
                    "@group(0) @binding({binding}) var<storage, read> gpa_partial_in: array<{}>;\n",
                    r.dtype.wgsl_compute()
                ));
                slots.push(Some(0));
                binding += 1;
            }
        }
        if last {
            for (j, t) in typing[n_in..].iter().enumerate() {
                access.push_str(&write_value(
                    &format!("gpa_o{j}"),
                    binding,
                    t.variant(),
                    t.dtype,
                ));
                binding += 1;
            }
        } else {
            access.push_str(&format!(
                "@group(0) @binding({binding}) var<storage, read_write> gpa_partial_out: array<{}>;\n",
                r.dtype.wgsl_compute()
            ));
        }
        m.ours(&access);
        m.watchdog_at(if last { binding } else { binding + 1 }, budget);
        let n_read = slots.iter().flatten().count().max(1);
        let mut params = String::from(
            "struct gpa_Params {\n    kept: array<vec4<u32>, 2>,\n    reduced: array<vec4<u32>, 2>,\n",
        );
        for s in 0..n_read {
            params.push_str(&format!(
                "    ks{s}: array<vec4<i32>, 2>,\n    rs{s}: array<vec4<i32>, 2>,\n"
            ));
        }
        for s in 0..n_read {
            params.push_str(&format!("    b{s}: i32,\n"));
        }
        params.push_str(
            "    kept_rank: u32,\n    reduced_rank: u32,\n    outputs: u32,\n    length: u32,\n    \
             chunk: u32,\n    chunks: u32,\n    count: u32,\n",
        );
        if reads == Reads::Inputs {
            for (k, t) in typing[..n_in].iter().enumerate() {
                if scalars[k] {
                    params.push_str(&format!("    c{k}: {},\n", t.dtype.wgsl_compute()));
                }
            }
        }
        params.push_str("}\n@group(0) @binding(0) var<uniform> p: gpa_Params;\n");
        m.ours(&params);
        m.frame(&super::types::aliases(&self.aliases));
        if !self.preamble.trim().is_empty() {
            m.user(op, "preamble", &self.preamble)?;
        }
        let args: String = self
            .inputs
            .iter()
            .zip(typing)
            .map(|((name, _), t)| format!("{name}: {}, ", t.user()))
            .collect();
        self.text(
            &mut m,
            "map_expr",
            &format!("fn gpa_map({args}) -> {rt} {{"),
            &self.map,
            "}",
        )?;
        self.text(
            &mut m,
            "reduce_expr",
            &format!("fn gpa_reduce(a: {rt}, b: {rt}) -> {rt} {{\n    return {rt}("),
            &self.reduce,
            ");\n}",
        )?;
        if let Some(identity) = &self.identity {
            self.text(
                &mut m,
                "identity",
                &format!("fn gpa_identity() -> {rt} {{\n    return {rt}("),
                identity,
                ");\n}",
            )?;
        }
        let fields = |f: &dyn Fn(&str, &Typing) -> String| -> String {
            self.outputs
                .iter()
                .zip(&typing[n_in..])
                .map(|((name, _), t)| f(name, t))
                .collect()
        };
        let out_struct = fields(&|n, t| format!("{n}: {}, ", t.user()));
        let locals = fields(&|n, t| format!("    var {n}: {};\n", t.user()));
        let names: Vec<&str> = self.outputs.iter().map(|(n, _)| n.as_str()).collect();
        m.frame(&format!("struct gpa_Out {{ {out_struct}}}"));
        self.text(
            &mut m,
            "post_map_expr",
            &format!("fn gpa_post(a: {rt}, count: u32) -> gpa_Out {{\n{locals}"),
            &super::text::statements(&self.post),
            &format!("    return gpa_Out({});\n}}", names.join(", ")),
        )?;
        m.ours(&self.skeleton(reads, last, typing, &slots, n_read, r, walk));
        Ok(m)
    }

    /// Appends `text` framed by `head` and `tail`: as user text `what` if the texts are the
    /// user's.
    fn text(
        &self,
        m: &mut Module,
        what: &'static str,
        head: &str,
        text: &str,
        tail: &str,
    ) -> Result<()> {
        m.frame(head);
        if self.user {
            m.user(self.op, what, text)?;
        } else {
            m.frame(text);
        }
        m.frame(tail);
        Ok(())
    }

    /// The entry point of one stage.
    #[allow(clippy::too_many_arguments)]
    fn skeleton(
        &self,
        reads: Reads,
        last: bool,
        typing: &[Typing],
        slots: &[Option<usize>],
        n_read: usize,
        r: Typing,
        walk: &StageWalk,
    ) -> String {
        let n_in = self.inputs.len();
        let each = |f: &dyn Fn(usize) -> String| -> String { (0..n_read).map(f).collect() };
        let init = each(&|s| format!("    var at{s} = gpa_p.b{s};\n"));
        let kept_walk =
            each(&|s| format!("        at{s} += i32(c) * gpa_p.ks{s}[a / 4u][a % 4u];\n"));
        let unravel =
            each(&|s| format!("        at{s} += i32(c) * gpa_p.rs{s}[a / 4u][a % 4u];\n"));
        let step = each(&|s| format!("            at{s} += gpa_p.rs{s}[a / 4u][a % 4u];\n"));
        let back =
            each(&|s| format!("            at{s} -= i32(e) * gpa_p.rs{s}[a / 4u][a % 4u];\n"));
        let fours = match walk {
            StageWalk::Interleaved4(c) => Some(c.as_slice()),
            _ => None,
        };
        let advance = match walk {
            StageWalk::Chunked => format!(
                "        for (var a = gpa_p.reduced_rank - 1u; ; a -= 1u) {{\n            coord[a] += 1u;\n{step}\
                 \x20           let e = gpa_p.reduced[a / 4u][a % 4u];\n\
                 \x20           if (coord[a] < e || a == 0u) {{ break; }}\n            coord[a] = 0u;\n{back}        }}\n"
            ),
            StageWalk::Interleaved => {
                each(&|s| format!("        at{s} += i32(gpa_p.chunks) * gpa_p.rs{s}[0][0];\n"))
            }
            StageWalk::Interleaved4(_) => {
                each(&|s| format!("        at{s} += i32(4u * gpa_p.chunks) * gpa_p.rs{s}[0][0];\n"))
            }
        };
        let (first, stop, stride, first_element) = match walk {
            StageWalk::Chunked => (
                "chunk * gpa_p.chunk",
                "min(first + gpa_p.chunk, gpa_p.length)",
                "1u",
                "first",
            ),
            StageWalk::Interleaved => ("chunk", "gpa_p.length", "gpa_p.chunks", "first"),
            StageWalk::Interleaved4(_) => {
                ("chunk", "gpa_p.length / 4u", "gpa_p.chunks", "4u * first")
            }
        };
        // The mapped value of lane `lane` of the current four (`None`: the current element).
        let value = |lane: Option<&str>| match reads {
            Reads::Inputs => {
                let args: String = (0..n_in)
                    .map(|k| {
                        let v = match (slots[k], lane, fours) {
                            (Some(s), Some(l), Some(c)) if c[s] => format!("v{k}.{l}"),
                            (Some(s), _, _) => format!("load_gpa_v{k}(at{s})"),
                            (None, _, _) => format!("gpa_p.c{k}"),
                        };
                        format!("{}, ", typing[k].user_value(&v))
                    })
                    .collect();
                format!("gpa_map({args})")
            }
            Reads::Partials => r.user_value("gpa_partial_in[at0]"),
        };
        // One step: the four's vectors, then its lanes in order; or one element.
        let (loads, combine, first_value) = match fours {
            Some(c) => {
                let loads: String = (0..n_in)
                    .filter_map(|k| match slots[k] {
                        Some(s) if c[s] => {
                            Some(format!("        let v{k} = gpa_v{k}[u32(at{s}) / 4u];\n"))
                        }
                        _ => None,
                    })
                    .collect();
                let lanes = |from: usize| -> String {
                    ["x", "y", "z", "w"][from..]
                        .iter()
                        .map(|l| format!("        acc = gpa_reduce(acc, {});\n", value(Some(l))))
                        .collect()
                };
                let first_value =
                    format!("{loads}    var acc = {};\n{}", value(Some("x")), lanes(1));
                (loads, lanes(0), first_value)
            }
            None => (
                String::new(),
                format!("        acc = gpa_reduce(acc, {});\n", value(None)),
                format!("    var acc = {};\n", value(None)),
            ),
        };
        let start = match (&self.identity, reads) {
            (Some(_), Reads::Inputs) => {
                "    var acc = gpa_identity();\n    var j = first;\n".to_string()
            }
            _ => format!("{first_value}    var j = first + {stride};\n    {{\n{advance}    }}\n"),
        };
        let store = if last {
            let mut s = String::from("    let out = gpa_post(acc, gpa_p.count);\n");
            for (j, t) in typing[n_in..].iter().enumerate() {
                let v = t.stored_value(&format!("out.{}", self.outputs[j].0));
                s.push_str(&format!("    store_gpa_o{j}(i32(m), {v});\n"));
            }
            s
        } else {
            format!("    gpa_partial_out[gid] = {};\n", r.stored_value("acc"))
        };
        format!(
            "@compute @workgroup_size({WG})\n\
             fn gpa_main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, \
             @builtin(local_invocation_index) lid: u32) {{\n\
             \x20   let gid = (wid.y * nwg.x + wid.x) * {WG}u + lid;\n\
             \x20   let m = gid / gpa_p.chunks;\n    let chunk = gid % gpa_p.chunks;\n\
             \x20   if (m >= gpa_p.outputs) {{ return; }}\n\
             \x20   let first = {first};\n    let stop = {stop};\n\
             {init}    var rem = m;\n\
             \x20   for (var k = gpa_p.kept_rank; k > 0u; k -= 1u) {{\n        let a = k - 1u;\n\
             \x20       let e = gpa_p.kept[a / 4u][a % 4u];\n        let c = rem % e;\n        rem = rem / e;\n{kept_walk}    }}\n\
             \x20   var coord: array<u32, 8>;\n    rem = {first_element};\n\
             \x20   for (var k = gpa_p.reduced_rank; k > 0u; k -= 1u) {{\n        let a = k - 1u;\n\
             \x20       let e = gpa_p.reduced[a / 4u][a % 4u];\n        let c = rem % e;\n        coord[a] = c;\n        rem = rem / e;\n{unravel}    }}\n\
             {start}\
             \x20   for (; j < stop; j += {stride}) {{\n{loads}{combine}{advance}    }}\n{store}}}\n"
        )
    }
}
