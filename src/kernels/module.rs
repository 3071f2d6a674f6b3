//! A generated WGSL module: our text (library, bindings, skeleton) and the user's (preamble,
//! body, expressions), joined so that neither can name the other's declarations by accident,
//! checked by naga before wgpu sees it, with errors reported at their line and column in the
//! user's own text.

use super::text::{Edits, OURS, reserved_use, rewrite_calls, top_level_names};
use crate::error::{Error, Result};
use std::collections::HashMap;

/// Where a piece of a module comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Origin {
    /// Our library and skeleton: top-level names moved into the `gpa_` namespace.
    Ours,
    /// Our framing around user text (written with `gpa_` names and the user's parameter
    /// names): left as written.
    Frame,
    /// User text, named for messages (`operation`, `preamble`, `map_expr`, ...).
    User(&'static str),
}

/// One piece, and for user text the calls rewritten in it: `(offset in the rewritten text,
/// length there, length in the user's text)`.
#[derive(Debug, Clone)]
struct Piece {
    origin: Origin,
    text: String,
    original: String,
    /// The rewrites applied to the user's text, in order (loop guards, then calls).
    edits: Vec<Edits>,
}

/// A module under construction.
#[derive(Debug, Clone, Default)]
pub(crate) struct Module {
    pieces: Vec<Piece>,
    /// NumPy-named functions user text may call, mapped to ours.
    calls: HashMap<&'static str, String>,
    /// The binding of the watchdog word and the loop budget, for loops in user text
    /// (`watchdog.rs`).
    watchdog: Option<(u32, u32)>,
    /// Some user text loops.
    loops: bool,
}

impl Module {
    /// A module that starts with our `library` (`enable f16;` first when `f16`), whose
    /// functions user text may call by the NumPy names of `calls`.
    pub fn with_library(library: &str, calls: &[(&'static str, String)], f16: bool) -> Module {
        let mut m = Module::default();
        for (numpy, function) in calls {
            m.provide(numpy, function);
        }
        if f16 {
            m.frame("enable f16;");
        }
        m.ours(library);
        m
    }

    /// Calls in user text of `numpy` (not declared by the user) go to our `function`.
    pub fn provide(&mut self, numpy: &'static str, function: &str) {
        self.calls.insert(numpy, format!("{OURS}{function}"));
    }

    /// Loops in user text will check their budget (iterations of all loops of an invocation
    /// together) through the watchdog word at `binding`.
    pub fn watchdog_at(&mut self, binding: u32, budget: u32) {
        self.watchdog = Some((binding, budget));
    }

    /// Appends our text.
    pub fn ours(&mut self, text: &str) {
        self.push(Origin::Ours, text.to_string(), Vec::new(), text);
    }

    /// Appends framing text (left as written).
    pub fn frame(&mut self, text: &str) {
        self.push(Origin::Frame, text.to_string(), Vec::new(), text);
    }

    /// Appends user text `what`, with its NumPy-named calls (of names it does not declare)
    /// going to ours. `Err` if it names our namespace.
    pub fn user(&mut self, op: &'static str, what: &'static str, text: &str) -> Result<()> {
        if let Some(word) = reserved_use(text) {
            return Err(Error::invalid(
                op,
                format!(
                    "the {what} uses `{word}`: names starting `{OURS}` belong to the kernel's own \
                     code"
                ),
            ));
        }
        let declared = top_level_names(text);
        let calls: HashMap<&str, String> = self
            .calls
            .iter()
            .filter(|(k, _)| !declared.iter().any(|d| d == *k))
            .map(|(k, v)| (*k, v.clone()))
            .collect();
        let (guarded, guards) = super::watchdog::guard_loops(text);
        self.loops |= !guards.is_empty();
        let (rewritten, edits) = rewrite_calls(&guarded, &calls);
        self.push(Origin::User(what), rewritten, vec![guards, edits], text);
        Ok(())
    }

    fn push(&mut self, origin: Origin, text: String, edits: Vec<Edits>, o: &str) {
        self.pieces.push(Piece {
            origin,
            text,
            original: o.to_string(),
            edits,
        });
    }

    /// The module's WGSL: our pieces' top-level names moved into our namespace (consistently
    /// across pieces), every piece on lines of its own.
    #[cfg(test)]
    pub fn wgsl(&self) -> String {
        self.assemble().0
    }

    /// The WGSL and each piece's byte range in it.
    fn assemble(&self) -> (String, Vec<std::ops::Range<usize>>) {
        let mut pieces = self.pieces.clone();
        if let (true, Some((binding, budget))) = (self.loops, self.watchdog) {
            let text = super::watchdog::wgsl(binding, budget);
            pieces.push(Piece {
                origin: Origin::Ours,
                original: text.clone(),
                text,
                edits: Vec::new(),
            });
        }
        let ours: String = pieces
            .iter()
            .filter(|p| p.origin == Origin::Ours)
            .map(|p| p.text.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        let map: HashMap<String, String> = top_level_names(&ours)
            .into_iter()
            .filter(|n| !n.starts_with(OURS))
            .map(|n| (n.clone(), format!("{OURS}{n}")))
            .collect();
        let mut out = String::new();
        let mut ranges = Vec::new();
        for p in &pieces {
            let text = match p.origin {
                Origin::Ours => super::text::rename(&p.text, &map),
                _ => p.text.clone(),
            };
            let start = out.len();
            out.push_str(&text);
            ranges.push(start..out.len());
            out.push('\n');
        }
        (out, ranges)
    }

    /// Checks the module with naga (parse and validation, every capability: the device then
    /// refuses what its adapter lacks), and returns its WGSL. `Err` names `kernel`, naga's
    /// message and, for an error in user text, its line and column there and the line itself.
    pub fn checked(&self, op: &'static str, kernel: &str) -> Result<String> {
        let (source, ranges) = self.assemble();
        if let Some((message, offset)) = naga_error(&source) {
            return Err(self.locate(op, kernel, &source, &ranges, &message, offset));
        }
        Ok(source)
    }

    /// The error `message` at byte `offset` of `source`, placed in the user's text.
    fn locate(
        &self,
        op: &'static str,
        kernel: &str,
        source: &str,
        ranges: &[std::ops::Range<usize>],
        message: &str,
        offset: Option<usize>,
    ) -> Error {
        let place = offset.and_then(|at| {
            let k = ranges.iter().position(|r| r.contains(&at) || r.end == at)?;
            let piece = self.pieces.get(k)?;
            let Origin::User(what) = piece.origin else {
                return None;
            };
            let local = piece
                .edits
                .iter()
                .rev()
                .fold(at - ranges[k].start, |at, e| original_offset(at, e));
            let text = &piece.original;
            let local = local.min(text.len());
            let line = text[..local].matches('\n').count() + 1;
            let line_start = text[..local].rfind('\n').map_or(0, |p| p + 1);
            let column = text[line_start..local].chars().count() + 1;
            let line_text = text[line_start..].lines().next().unwrap_or("");
            Some(format!(
                " at line {line}, column {column} of the {what}:\n    {line_text}\n    {}^",
                " ".repeat(column - 1)
            ))
        });
        let place = place.unwrap_or_else(|| match offset {
            // An error in our text is a type mismatch the user's text caused (a wrong
            // output type, an argument of another type): show the generated line.
            Some(at) => {
                let line = source[..at].matches('\n').count() + 1;
                let start = source[..at].rfind('\n').map_or(0, |p| p + 1);
                let text = source[start..].lines().next().unwrap_or("");
                format!(
                    " at line {line} of the generated WGSL:\n    {}",
                    text.trim()
                )
            }
            None => String::new(),
        });
        Error::invalid(
            op,
            format!("kernel `{kernel}` does not compile: {message}{place}"),
        )
    }
}

/// The offset in the user's text of `at`, an offset in its rewritten text.
fn original_offset(at: usize, edits: &[(usize, usize, usize)]) -> usize {
    let mut shift: isize = 0;
    for &(start, new_len, old_len) in edits {
        if start + new_len <= at {
            shift += old_len as isize - new_len as isize;
        } else if start <= at {
            return (start as isize + shift) as usize;
        }
    }
    (at as isize + shift) as usize
}

/// naga's first error in `source` (parse, then validation) with its byte offset.
fn naga_error(source: &str) -> Option<(String, Option<usize>)> {
    let module = match naga::front::wgsl::parse_str(source) {
        Ok(m) => m,
        Err(e) => {
            let offset = e.location(source).map(|l| l.offset as usize);
            return Some((e.message().to_string(), offset));
        }
    };
    let mut validator = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    );
    match validator.validate(&module) {
        Ok(_) => None,
        Err(e) => {
            let offset = e.location(source).map(|l| l.offset as usize);
            let mut message = e.as_inner().to_string();
            let mut cause = std::error::Error::source(e.as_inner());
            while let Some(c) = cause {
                message.push_str(&format!(": {c}"));
                cause = c.source();
            }
            // The innermost span names the offending expression.
            let inner = e
                .spans()
                .filter_map(|(span, _)| span.to_range())
                .min_by_key(|r| r.len())
                .map(|r| r.start);
            Some((message, inner.or(offset)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_errors_are_placed_in_the_user_text() {
        let mut m = Module::default();
        m.provide("exp", "np_exp");
        m.ours("fn np_exp(x: f32) -> f32 { return exp(x); }\nfn helper() -> f32 { return 1.0; }");
        m.frame("fn gpa_body(x: f32) -> f32 {\n    var z: f32;");
        m.user("t", "operation", "z = exp(x) +\n  exp(x) * q;")
            .unwrap();
        m.frame("    return z;\n}\n@compute @workgroup_size(1) fn gpa_main() { let r = gpa_body(1.0); }");
        let e = m.checked("t", "k").unwrap_err().to_string();
        assert!(e.contains("line 2, column 12 of the operation"), "{e}");
        assert!(e.contains("exp(x) * q"), "{e}");
        let w = m.wgsl();
        assert!(
            w.contains("fn gpa_np_exp(") && w.contains("fn gpa_helper("),
            "{w}"
        );
        assert!(w.contains("z = gpa_np_exp(x)"), "{w}");
        let mut bad = Module::default();
        assert!(bad.user("t", "operation", "z = gpa_p.count").is_err());
    }
}
