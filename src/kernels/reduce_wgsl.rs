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

impl ReduceSource {
    /// The module of one stage (`last`: it applies `post` and stores the outputs).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn module(
        &self,
        reads: Reads,
        last: bool,
        interleaved: bool,
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
                    access.push_str(&read_value(
                        &format!("gpa_v{k}"),
                        binding,
                        t.variant(),
                        t.dtype,
                    ));
                    slots.push(Some(slots.iter().flatten().count()));
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
        m.ours(&self.skeleton(reads, last, typing, &slots, n_read, r, interleaved));
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
        interleaved: bool,
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
        // Interleaved (one reduced axis): invocation `chunk` of an output takes elements
        // chunk, chunk + chunks, ..., so neighbouring invocations read neighbouring elements.
        // Chunked: a run of `chunk` consecutive elements, walked over the reduced axes.
        let advance = if interleaved {
            each(&|s| format!("        at{s} += i32(gpa_p.chunks) * gpa_p.rs{s}[0][0];\n"))
        } else {
            format!(
                "        for (var a = gpa_p.reduced_rank - 1u; ; a -= 1u) {{\n            coord[a] += 1u;\n{step}\
                 \x20           let e = gpa_p.reduced[a / 4u][a % 4u];\n\
                 \x20           if (coord[a] < e || a == 0u) {{ break; }}\n            coord[a] = 0u;\n{back}        }}\n"
            )
        };
        let (first, stop, stride) = if interleaved {
            ("chunk", "gpa_p.length", "gpa_p.chunks")
        } else {
            (
                "chunk * gpa_p.chunk",
                "min(first + gpa_p.chunk, gpa_p.length)",
                "1u",
            )
        };
        let value = match reads {
            Reads::Inputs => {
                let args: String = (0..n_in)
                    .map(|k| {
                        let v = match slots[k] {
                            Some(s) => format!("load_gpa_v{k}(at{s})"),
                            None => format!("gpa_p.c{k}"),
                        };
                        format!("{}, ", typing[k].user_value(&v))
                    })
                    .collect();
                format!("gpa_map({args})")
            }
            Reads::Partials => r.user_value("gpa_partial_in[at0]"),
        };
        let start = match (&self.identity, reads) {
            (Some(_), Reads::Inputs) => {
                "    var acc = gpa_identity();\n    var j = first;\n".to_string()
            }
            _ => format!(
                "    var acc = {value};\n    var j = first + {stride};\n    {{\n{advance}    }}\n"
            ),
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
             \x20   var coord: array<u32, 8>;\n    rem = first;\n\
             \x20   for (var k = gpa_p.reduced_rank; k > 0u; k -= 1u) {{\n        let a = k - 1u;\n\
             \x20       let e = gpa_p.reduced[a / 4u][a % 4u];\n        let c = rem % e;\n        coord[a] = c;\n        rem = rem / e;\n{unravel}    }}\n\
             {start}\
             \x20   for (; j < stop; j += {stride}) {{\n        acc = gpa_reduce(acc, {value});\n{advance}    }}\n{store}}}\n"
        )
    }
}
