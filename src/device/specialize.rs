//! A pipeline's WGSL with each `switch` on an override constant reduced to the one case its
//! value selects, and without the functions its entry point then never calls.
//!
//! One shader file serves many ops: `binary_float.wgsl`'s `op` is a `switch OP` over twenty
//! cases, and the math library they call is thousands of lines. The override makes `OP` a
//! constant, but the switch is still handed to the driver whole, and lavapipe inlines every
//! case's calls before it folds the switch: `add`'s f32 vec4 pipeline took 550 ms to create,
//! as long as `logaddexp2`'s, and 6 ms once its source held only `a + b`. So before a pipeline
//! is created, every `switch NAME { … }` whose selector is a `u32` override with a known value
//! (the pipeline's constant, else the override's declared default) is replaced by the block of
//! the case that value selects. The override stays declared and is still passed, so the
//! pipeline is the same program; the shader files stay the one readable source.
//!
//! Anything this reader does not fully understand is left as it was: a label that is neither
//! a literal nor a `const NAME: u32 = …u;` of the source, a case that says `break` (inside a
//! plain block it would leave an enclosing loop instead), or braces it cannot match. And as
//! pipelines take their bind group layout from the bindings their entry point uses, a source
//! whose entry point would no longer reach one of its bindings (`compact.wgsl` reads `src` in
//! two of its three modes) is handed over unreduced: the launch code binds the same buffers
//! whatever the constants.
//!
//! A switch whose `default` clause is empty (`default: {}`) is exhaustive: the op files of the
//! element-wise op table are written so. A value that selects no `case` of it — an op whose
//! WGSL was never written — is refused, never handed to the `default` (which WGSL requires).
//!
//! Then every function the entry point does not reach, directly or through others, is left out
//! with its attributes: the driver keeps what it is handed for as long as the pipeline lives, and
//! the math library's thousand lines are mostly other ops' functions (see `prune_functions`).

use std::collections::{BTreeSet, HashMap, HashSet};

/// `wgsl` with every `switch` on a `u32` override reduced to the case selected by its value
/// in `constants` (else its declared default); see the module documentation. `Err` names an
/// `OP` value with no `case`.
pub(crate) fn specialize(
    wgsl: &str,
    constants: &[(&str, u32)],
    entry: &str,
) -> Result<String, String> {
    let reduced = reduce_switches(wgsl, constants)?;
    let specialized =
        if reduced != wgsl && bindings_reached(&reduced, entry) != bindings_reached(wgsl, entry) {
            wgsl.to_string()
        } else {
            reduced
        };
    Ok(prune_functions(&specialized, entry))
}

/// Every `switch` on a known override reduced to its selected case.
fn reduce_switches(wgsl: &str, constants: &[(&str, u32)]) -> Result<String, String> {
    let overrides = override_values(wgsl, constants);
    if overrides.is_empty() {
        return Ok(wgsl.to_string());
    }
    let consts = const_values(wgsl);
    let mut out = wgsl.to_string();
    let mut from = 0;
    while let Some(at) = find_word(&out, "switch", from) {
        match reduce_switch(&out, at, &overrides, &consts) {
            // Scan the chosen block too: it may hold a switch of its own.
            Some(Chosen::Case(end, block)) => out.replace_range(at..end, &block),
            Some(Chosen::NoCase(selector, value)) => {
                return Err(format!(
                    "{selector} = {value} has no `case` in its shader (an op without WGSL)"
                ));
            }
            None => from = at + "switch".len(),
        }
    }
    Ok(out)
}

/// What `reduce_switch` found.
enum Chosen {
    /// The end of the whole statement and the chosen clause's block.
    Case(usize, String),
    /// An exhaustive switch (empty `default`) on this override, whose value no case takes.
    NoCase(String, u32),
}

/// The `@group(0)` bindings function `entry` uses (as `bindings_reached` finds them), with
/// whether each is a uniform (else storage), in binding order: the entries of the bind group
/// layout a pipeline of `entry` gets from wgpu. `None` if a binding of another group is used.
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
pub(super) fn entry_bindings(wgsl: &str, entry: &str) -> Option<Vec<(u32, bool)>> {
    let reached = bindings_reached(wgsl, entry);
    let mut out = Vec::new();
    for (group, binding, name, uniform) in binding_decls(wgsl) {
        if reached.contains(name) {
            if group != 0 {
                return None;
            }
            out.push((binding, uniform));
        }
    }
    out.sort_unstable();
    Some(out)
}

/// `(group, binding, name, is uniform)` of each `@group(g) @binding(b) var<…> name: …;` line.
fn binding_decls(wgsl: &str) -> Vec<(u32, u32, &str, bool)> {
    let number = |l: &str, attr: &str| -> Option<u32> {
        let rest = &l[l.find(attr)? + attr.len()..];
        rest.split(')').next()?.trim().parse().ok()
    };
    code_lines(wgsl)
        .filter(|l| l.starts_with("@group"))
        .filter_map(|l| {
            let (_, decl) = l.split_once("var")?;
            let uniform = decl.trim_start().starts_with("<uniform>");
            let name = decl.split_once('>').map_or(decl, |(_, rest)| rest);
            let name = name.split(':').next()?.trim();
            Some((
                number(l, "@group(")?,
                number(l, "@binding(")?,
                name,
                uniform,
            ))
        })
        .collect()
}

/// One function declaration of a source: its name, where it starts (its attributes
/// included) and the offsets of its body's braces (`end` just past the `}`).
struct Function<'a> {
    name: &'a str,
    start: usize,
    open: usize,
    end: usize,
}

/// The functions of `wgsl` in source order; `None` when a body's braces do not match.
fn functions(wgsl: &str) -> Option<Vec<Function<'_>>> {
    let b = wgsl.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = find_word(wgsl, "fn", from) {
        let rest = &wgsl[at + 2..];
        let name = rest.trim_start().split('(').next().unwrap_or("").trim();
        let open = at + 2 + rest.find('{')?;
        let end = matching_brace(b, open)?;
        out.push(Function {
            name,
            start: attributes_start(b, at),
            open,
            end,
        });
        from = end;
    }
    Some(out)
}

/// Where the attributes before the `fn` at `at` begin (`@compute @workgroup_size(WG) fn`), or
/// `at` when there are none.
fn attributes_start(b: &[u8], at: usize) -> usize {
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut start = at;
    loop {
        let mut i = start;
        while i > 0 && b[i - 1].is_ascii_whitespace() {
            i -= 1;
        }
        // An argument list, `(WG)`, then the attribute's name.
        if i > 0 && b[i - 1] == b')' {
            let mut depth = 0usize;
            while i > 0 {
                i -= 1;
                match b[i] {
                    b')' => depth += 1,
                    b'(' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
            }
            while i > 0 && b[i - 1].is_ascii_whitespace() {
                i -= 1;
            }
        }
        let name_end = i;
        while i > 0 && ident(b[i - 1]) {
            i -= 1;
        }
        if i == name_end || i == 0 || b[i - 1] != b'@' {
            return start;
        }
        start = i - 1;
    }
}

/// The names of the functions `entry` calls, directly or through others, itself included (a
/// word of a body that names a function; a field after `.` is not one).
fn reachable<'a>(fns: &[Function<'a>], wgsl: &'a str, entry: &'a str) -> HashSet<&'a str> {
    let bodies: HashMap<&str, &str> = fns.iter().map(|f| (f.name, &wgsl[f.open..f.end])).collect();
    let mut seen = HashSet::new();
    let mut todo = vec![entry];
    while let Some(f) = todo.pop() {
        let Some(body) = bodies.get(f) else { continue };
        if !seen.insert(f) {
            continue;
        }
        todo.extend(words(body).into_iter().filter(|w| bodies.contains_key(w)));
    }
    seen
}

/// `wgsl` without the functions `entry` never reaches (and their attributes): a kernel's
/// source carries a whole math library, of which one op uses a few functions, and the driver
/// keeps what it is handed for as long as the pipeline lives (measured on lavapipe: an f32 math
/// pipeline held 3.8 MB of the process's memory). Unchanged when a body's braces do not match
/// or `entry` is not a function of the source.
fn prune_functions(wgsl: &str, entry: &str) -> String {
    let Some(fns) = functions(wgsl) else {
        return wgsl.to_string();
    };
    let keep = reachable(&fns, wgsl, entry);
    if !keep.contains(entry) {
        return wgsl.to_string();
    }
    let mut out = String::with_capacity(wgsl.len());
    let mut at = 0;
    for f in fns.iter().filter(|f| !keep.contains(f.name)) {
        out.push_str(&wgsl[at..f.start]);
        at = f.end;
    }
    out.push_str(&wgsl[at..]);
    out
}

/// The names of the `@binding` variables that function `entry` uses, directly or through the
/// functions it calls.
fn bindings_reached(wgsl: &str, entry: &str) -> BTreeSet<String> {
    let bindings: HashSet<&str> = binding_decls(wgsl).into_iter().map(|d| d.2).collect();
    let Some(fns) = functions(wgsl) else {
        return BTreeSet::new();
    };
    let reached = reachable(&fns, wgsl, entry);
    fns.iter()
        .filter(|f| reached.contains(f.name))
        .flat_map(|f| words(&wgsl[f.open..f.end]))
        .filter(|w| bindings.contains(w))
        .map(str::to_string)
        .collect()
}

/// The identifiers of `code` outside comments, except fields (those after a `.`).
fn words(code: &str) -> Vec<&str> {
    let b = code.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if let Some(after) = skip_comment(b, i) {
            i = after;
        } else if ident(b[i]) {
            let start = i;
            while i < b.len() && ident(b[i]) {
                i += 1;
            }
            if start == 0 || b[start - 1] != b'.' {
                out.push(&code[start..i]);
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The value of each `override NAME: u32 = …;` of `wgsl`: the pipeline's constant, else a
/// literal default.
fn override_values(wgsl: &str, constants: &[(&str, u32)]) -> HashMap<String, u32> {
    let mut values = HashMap::new();
    for line in code_lines(wgsl) {
        let Some(rest) = line.strip_prefix("override ") else {
            continue;
        };
        let Some((name, default)) = rest.split_once(": u32") else {
            continue;
        };
        let name = name.trim();
        let given = constants.iter().find(|c| c.0 == name).map(|c| c.1);
        let declared = default
            .trim()
            .strip_prefix('=')
            .and_then(|d| literal(d.trim().trim_end_matches(';')));
        if let Some(v) = given.or(declared) {
            values.insert(name.to_string(), v);
        }
    }
    values
}

/// `NAME -> value` for every `const NAME: u32 = <literal>;` of `wgsl`.
fn const_values(wgsl: &str) -> HashMap<String, u32> {
    code_lines(wgsl)
        .filter_map(|line| {
            let (name, value) = line.strip_prefix("const ")?.split_once(": u32 =")?;
            Some((
                name.trim().to_string(),
                literal(value.trim().trim_end_matches(';'))?,
            ))
        })
        .collect()
}

/// The lines of `wgsl`, trimmed, without their `//` comments.
fn code_lines(wgsl: &str) -> impl Iterator<Item = &str> {
    wgsl.lines()
        .map(|l| l.split_once("//").map_or(l, |(code, _)| code).trim())
}

/// A WGSL integer literal (`3`, `3u`, `0x1fu`) as a u32.
fn literal(s: &str) -> Option<u32> {
    let s = s.trim().trim_end_matches(['u', 'i']);
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16).ok(),
        None => s.parse().ok(),
    }
}

/// The byte offset of the next whole-word `word` in `s` at or after `from`, outside comments.
fn find_word(s: &str, word: &str, from: usize) -> Option<usize> {
    let b = s.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = from;
    while i < b.len() {
        if let Some(after) = skip_comment(b, i) {
            i = after;
            continue;
        }
        if b[i..].starts_with(word.as_bytes())
            && (i == 0 || !ident(b[i - 1]))
            && b.get(i + word.len()).is_none_or(|&c| !ident(c))
        {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// If a comment starts at `i`, the offset just past it.
fn skip_comment(b: &[u8], i: usize) -> Option<usize> {
    if b[i..].starts_with(b"//") {
        return Some(
            b[i..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(b.len(), |p| i + p),
        );
    }
    if b[i..].starts_with(b"/*") {
        return Some(
            b[i + 2..]
                .windows(2)
                .position(|w| w == b"*/")
                .map_or(b.len(), |p| i + 2 + p + 2),
        );
    }
    None
}

/// The offset just past the `}` matching the `{` at `open`.
fn matching_brace(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    while i < b.len() {
        if let Some(after) = skip_comment(b, i) {
            i = after;
            continue;
        }
        match b[i] {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The offset just past the whitespace and comments at `i`.
fn skip_space(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        if let Some(after) = skip_comment(b, i) {
            i = after;
        } else if b[i].is_ascii_whitespace() {
            i += 1;
        } else {
            break;
        }
    }
    i
}

/// For the `switch` at `at`: the end of the whole statement and the block of the case its
/// selector's value picks, `NoCase` for a value an exhaustive switch has no case for, or `None`
/// to leave it as written.
fn reduce_switch(
    s: &str,
    at: usize,
    overrides: &HashMap<String, u32>,
    consts: &HashMap<String, u32>,
) -> Option<Chosen> {
    let b = s.as_bytes();
    let open = at + s[at..].find('{')?;
    let selector = s[at + "switch".len()..open]
        .trim()
        .trim_start_matches('(')
        .trim_end_matches(')')
        .trim();
    let value = *overrides.get(selector)?;
    let label = |l: &str| literal(l).or_else(|| consts.get(l).copied());
    let mut chosen: Option<(usize, usize)> = None;
    let mut default: Option<(usize, usize)> = None;
    let mut i = skip_space(b, open + 1);
    while b.get(i) != Some(&b'}') {
        let body_open = i + s[i..].find('{')?;
        let head = s[i..body_open].trim().trim_end_matches(':');
        let selectors = if let Some(list) = head.strip_prefix("case") {
            list
        } else {
            head.strip_prefix("default")
                .filter(|r| r.trim().is_empty())?;
            "default"
        };
        let body_end = matching_brace(b, body_open)?;
        let body = (body_open, body_end);
        for sel in selectors
            .split(',')
            .map(str::trim)
            .filter(|x| !x.is_empty())
        {
            if sel == "default" {
                default = Some(body);
            } else if label(sel)? == value && chosen.is_none() {
                chosen = Some(body);
            }
        }
        i = skip_space(b, body_end);
    }
    if let (None, Some((from, to))) = (chosen, default) {
        if code_lines(&s[from + 1..to - 1]).all(|l| l.is_empty()) {
            return Some(Chosen::NoCase(selector.to_string(), value));
        }
    }
    let (from, to) = chosen.or(default)?;
    let block = &s[from..to];
    if find_word(block, "break", 0).is_some() {
        return None;
    }
    Some(Chosen::Case(i + 1, block.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "\
override OP: u32 = 0u;   // the op
override MODE: u32 = 1u;
const OP_ADD: u32 = 0u;
const OP_POW: u32 = 6u; // x^y
fn op(a: f32, b: f32) -> f32 {
    switch OP {
        case OP_ADD, 3u: { return a + b; }   // a comment with a brace {
        case OP_POW: {
            if (a > 0.0) { return pow(a, b); }
            return 0.0;
        }
        default: { return a; }
    }
}
fn mode(a: f32) -> f32 {
    switch (MODE) {
        case 0u: { return a; }
        default: {
            switch OP {
                case OP_POW: { return a * a; }
                default: { return -a; }
            }
        }
    }
}
fn both(a: f32) -> f32 { return op(a, a) + mode(a); }
";

    #[test]
    fn each_switch_keeps_the_case_its_constant_selects() {
        let s = specialize(SRC, &[("OP", 6)], "both").unwrap();
        assert!(!s.contains("switch"), "{s}");
        assert!(s.contains("return pow(a, b);") && !s.contains("return a + b;"));
        // MODE's declared default (1) picks the default case, whose inner switch is reduced too.
        assert!(
            s.contains("return a * a;") && !s.contains("return -a;"),
            "{s}"
        );
        // A second label of a case is matched.
        let s = specialize(SRC, &[("OP", 3), ("MODE", 0)], "both").unwrap();
        assert!(s.contains("return a + b;") && !s.contains("pow") && !s.contains("a * a"));
    }

    #[test]
    fn a_value_an_exhaustive_switch_lacks_is_refused() {
        // An empty default marks the switch exhaustive: a value no case names never reaches it.
        let exhaustive = SRC.replace("default: { return a; }", "default: {}  // never taken");
        let e = specialize(&exhaustive, &[("OP", 9), ("MODE", 0)], "both").unwrap_err();
        assert!(e.contains("OP = 9") && e.contains("no `case`"), "{e}");
        assert!(specialize(&exhaustive, &[("OP", 6), ("MODE", 0)], "both").is_ok());
        // A default with a body is an ordinary clause.
        let s = specialize(SRC, &[("OP", 9), ("MODE", 0)], "both").unwrap();
        assert!(s.contains("{ return a; }") && !s.contains("pow"), "{s}");
    }

    #[test]
    fn what_it_cannot_read_is_left_as_written() {
        // A label that is no literal and no const of the source.
        let unknown = SRC.replace("case OP_POW: {\n", "case OP_OTHER: {\n");
        let s = specialize(&unknown, &[("OP", 6)], "both").unwrap();
        assert!(s.contains("switch OP"));
        // `break` would leave an enclosing loop once the switch is gone.
        let breaks = SRC.replace("return 0.0;", "break;");
        assert!(
            specialize(&breaks, &[("OP", 6)], "both")
                .unwrap()
                .contains("switch OP")
        );
        // A switch on a runtime value.
        let runtime =
            "fn f(x: u32) -> u32 { switch x { case 0u: { return 1u; } default: { return 2u; } } }";
        assert_eq!(specialize(runtime, &[("OP", 0)], "f").unwrap(), runtime);
    }

    #[test]
    fn a_binding_only_a_dropped_case_reads_keeps_the_switch() {
        let src = "\
override MODE: u32 = 0u;
@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
struct P { src: u32 }
fn read(i: u32) -> u32 { return src[i]; }
@compute @workgroup_size(1) fn main() {
    let q = P(1u);
    switch MODE {
        case 0u: { out[0] = q.src; }
        default: { out[0] = read(0u); }
    }
}
";
        assert_eq!(
            bindings_reached(src, "main"),
            BTreeSet::from(["out".to_string(), "src".to_string()])
        );
        // MODE 0 would leave `src` unused (the field `q.src` is not the binding) and the
        // pipeline's layout one binding short: the source is handed over whole.
        assert_eq!(specialize(src, &[("MODE", 0)], "main").unwrap(), src);
        // MODE 1 still reads both.
        assert!(
            !specialize(src, &[("MODE", 1)], "main")
                .unwrap()
                .contains("switch")
        );
        assert_eq!(
            entry_bindings(src, "main"),
            Some(vec![(0, false), (1, false)])
        );
        let with_uniform = format!("@group(0) @binding(2) var<uniform> p: P;\n{src}")
            .replace("let q = P(1u);", "let q = p;");
        assert_eq!(
            entry_bindings(&with_uniform, "main"),
            Some(vec![(0, false), (1, false), (2, true)])
        );
    }

    #[test]
    fn functions_the_entry_point_never_reaches_are_left_out() {
        let src = "\
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
override OP: u32 = 0u;
fn helper(x: f32) -> f32 { return x * 2.0; }   // reached through `used`
fn used(x: f32) -> f32 { return helper(x); }
fn unused(x: f32) -> f32 { return used(x) + 1.0; }
fn only_pow(x: f32) -> f32 { return pow(x, x); }
fn op(x: f32) -> f32 {
    switch OP {
        case 0u: { return used(x); }
        default: { return only_pow(x); }
    }
}
@compute @workgroup_size(1)
fn main() { out[0] = op(out[0]); }
@compute @workgroup_size(WG, 1) fn other() { out[0] = unused(1.0); }
";
        let s = specialize(src, &[("OP", 0)], "main").unwrap();
        for kept in [
            "fn helper",
            "fn used",
            "fn op",
            "@compute @workgroup_size(1)\nfn main",
        ] {
            assert!(s.contains(kept), "{kept} missing:\n{s}");
        }
        // Unreached functions go with their attributes; so does a function only a dropped case
        // called.
        for gone in ["fn unused", "fn only_pow", "fn other", "@workgroup_size(WG"] {
            assert!(!s.contains(gone), "{gone} kept:\n{s}");
        }
        // The other entry point keeps what it reaches.
        let s = specialize(src, &[("OP", 0)], "other").unwrap();
        assert!(s.contains("fn unused") && s.contains("fn helper") && !s.contains("fn main"));
        // The case another constant selects keeps its callees.
        let pow_case = src.replace(
            "default: { return only_pow(x); }",
            "case 7u, default: { return only_pow(x); }",
        );
        assert!(
            specialize(&pow_case, &[("OP", 7)], "main")
                .unwrap()
                .contains("fn only_pow")
        );
        // An entry point the source lacks, or braces that do not match: unchanged.
        assert_eq!(prune_functions(src, "missing"), src);
        let broken = format!("{src}fn tail() {{");
        assert_eq!(prune_functions(&broken, "main"), broken);
    }
}
