//! Just enough of WGSL's lexical grammar to handle user text safely: identifiers (with their
//! positions, comments and numeric literals skipped), the names a module declares at its top
//! level, renaming them, and rewriting calls.
//!
//! Generated modules hold two kinds of text: ours (the math library, the op files, the
//! skeleton) and the user's (body, preamble, expressions). Every name ours declares at the top
//! level is renamed into the `gpa_` namespace, which user text may not use (checked by
//! [`reserved_use`]), so no user identifier can clash with ours, whatever either declares.

use std::collections::{HashMap, HashSet};

/// The prefix of every top-level name of our own in a generated module.
pub(crate) const OURS: &str = "gpa_";

/// An identifier in a text: its byte range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ident {
    pub start: usize,
    pub end: usize,
}

/// The identifiers of `src` in order, skipping comments (`//`, nested `/* */`) and numeric
/// literals (`1e5f`, `0x1p-24f`, `2u`: their letters are not identifiers).
pub(crate) fn identifiers(src: &str) -> Vec<Ident> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            // A number runs over digits, letters, dots and an exponent's sign.
            i += 1;
            while i < b.len() {
                let d = b[i];
                let exp_sign =
                    (d == b'+' || d == b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P');
                if d.is_ascii_alphanumeric() || d == b'.' || d == b'_' || exp_sign {
                    i += 1;
                } else {
                    break;
                }
            }
        } else if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80) {
                i += 1;
            }
            out.push(Ident { start, end: i });
        } else {
            i += 1;
        }
    }
    out
}

/// The previous non-space byte before `at`, if any.
fn before(src: &str, at: usize) -> Option<u8> {
    src[..at].bytes().rev().find(|c| !c.is_ascii_whitespace())
}

/// The next non-space byte from `at`, if any.
fn after(src: &str, at: usize) -> Option<u8> {
    src[at..].bytes().find(|c| !c.is_ascii_whitespace())
}

/// The names `src` declares at its top level (`fn`, `const`, `override`, `alias`, `struct`,
/// `var`), in order.
pub(crate) fn top_level_names(src: &str) -> Vec<String> {
    let ids = identifiers(src);
    let depth = brace_depths(src);
    let mut names = Vec::new();
    for (k, id) in ids.iter().enumerate() {
        let word = &src[id.start..id.end];
        if depth(id.start) != 0 {
            continue;
        }
        let declares = matches!(
            word,
            "fn" | "const" | "override" | "alias" | "struct" | "var"
        );
        if !declares {
            continue;
        }
        // `var<storage, read> name`: skip the address space's words.
        let mut j = k + 1;
        if word == "var" && after(src, id.end) == Some(b'<') {
            let close = src[id.end..].find('>').map_or(src.len(), |c| id.end + c);
            while j < ids.len() && ids[j].start < close {
                j += 1;
            }
        }
        if let Some(name) = ids.get(j) {
            names.push(src[name.start..name.end].to_string());
        }
    }
    names
}

/// A function giving the brace depth at a byte offset of `src` (comments are not skipped:
/// our texts and the user's have no braces inside comments that matter for top-level names,
/// and a miscounted user text only misses a top-level name).
fn brace_depths(src: &str) -> impl Fn(usize) -> i32 + '_ {
    let mut marks: Vec<(usize, i32)> = Vec::new();
    let mut d = 0;
    for (i, c) in src.bytes().enumerate() {
        match c {
            b'{' => {
                d += 1;
                marks.push((i + 1, d));
            }
            b'}' => {
                d -= 1;
                marks.push((i + 1, d));
            }
            _ => {}
        }
    }
    move |at| match marks.partition_point(|&(i, _)| i <= at) {
        0 => 0,
        k => marks[k - 1].1,
    }
}

/// `src` with every identifier in `map` (not after a `.`: a member) replaced, except inside
/// `struct` bodies (member declarations).
pub(crate) fn rename(src: &str, map: &HashMap<String, String>) -> String {
    let ids = identifiers(src);
    let mut out = String::with_capacity(src.len() + src.len() / 8);
    let mut last = 0;
    let mut in_struct: Option<i32> = None;
    let depth = brace_depths(src);
    for (k, id) in ids.iter().enumerate() {
        let word = &src[id.start..id.end];
        let d = depth(id.start);
        if let Some(sd) = in_struct
            && d <= sd
        {
            in_struct = None;
        }
        if k > 0 && &src[ids[k - 1].start..ids[k - 1].end] == "struct" {
            in_struct = Some(d);
        }
        let member_decl = in_struct.is_some_and(|sd| d > sd);
        if member_decl || before(src, id.start) == Some(b'.') {
            continue;
        }
        if let Some(new) = map.get(word) {
            out.push_str(&src[last..id.start]);
            out.push_str(new);
            last = id.end;
        }
    }
    out.push_str(&src[last..]);
    out
}

/// `src` with its top-level names moved into our namespace (`name` → `gpa_name`).
#[cfg(test)]
pub(crate) fn into_our_namespace(src: &str) -> String {
    let map: HashMap<String, String> = top_level_names(src)
        .into_iter()
        .map(|n| (n.clone(), format!("{OURS}{n}")))
        .collect();
    rename(src, &map)
}

/// `src` with each call `name(` of a name in `map` (not a member, not a declaration) renamed,
/// and the edits: `(offset in the result, new length, old length)`.
pub(crate) type Edits = Vec<(usize, usize, usize)>;

/// See [`Edits`].
pub(crate) fn rewrite_calls(src: &str, map: &HashMap<&str, String>) -> (String, Edits) {
    let mut out = String::with_capacity(src.len());
    let mut edits = Vec::new();
    let mut last = 0;
    let ids = identifiers(src);
    for (k, id) in ids.iter().enumerate() {
        let word = &src[id.start..id.end];
        let Some(new) = map.get(word) else { continue };
        let is_call = after(src, id.end) == Some(b'(');
        let declared = k > 0 && &src[ids[k - 1].start..ids[k - 1].end] == "fn";
        if is_call && !declared && before(src, id.start) != Some(b'.') {
            out.push_str(&src[last..id.start]);
            edits.push((out.len(), new.len(), id.end - id.start));
            out.push_str(new);
            last = id.end;
        }
    }
    out.push_str(&src[last..]);
    (out, edits)
}

/// The first identifier of `src` in our namespace (`gpa_…`), if any: user text may not use it.
pub(crate) fn reserved_use(src: &str) -> Option<String> {
    identifiers(src)
        .into_iter()
        .map(|id| &src[id.start..id.end])
        .find(|w| w.starts_with(OURS))
        .map(str::to_string)
}

/// Every identifier of `src`.
pub(crate) fn words(src: &str) -> HashSet<&str> {
    identifiers(src)
        .into_iter()
        .map(|id| &src[id.start..id.end])
        .collect()
}

/// A statement list as CuPy takes it: a lone statement needs no trailing `;`.
pub(crate) fn statements(body: &str) -> String {
    let t = body.trim_end();
    if t.is_empty() || t.ends_with(';') || t.ends_with('}') {
        body.to_string()
    } else {
        format!("{t};")
    }
}

/// Whether `name` is a WGSL identifier.
pub(crate) fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name != "_"
        && !name.starts_with("__")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_and_comments_are_not_identifiers() {
        let src = "let x = 1e5f + 0x1p-24f + 2u; // y\n/* z /* w */ */ v";
        let ws: Vec<&str> = identifiers(src)
            .iter()
            .map(|i| &src[i.start..i.end])
            .collect();
        assert_eq!(ws, ["let", "x", "v"]);
    }

    #[test]
    fn top_level_names_skip_locals_and_address_spaces() {
        let src = "const A: u32 = 1u;\nvar<storage, read> buf: array<u32>;\n\
                   struct S { m: f32 }\nfn f(x: f32) -> f32 { let local = x; return local; }";
        assert_eq!(top_level_names(src), ["A", "buf", "S", "f"]);
    }

    #[test]
    fn renaming_spares_members_and_struct_fields() {
        let src = "struct m { m: f32 }\nfn m2(p: m) -> f32 { return p.m; }\nconst m3 = m2;";
        let out = into_our_namespace(src);
        assert_eq!(
            out,
            "struct gpa_m { m: f32 }\nfn gpa_m2(p: gpa_m) -> f32 { return p.m; }\nconst gpa_m3 = gpa_m2;"
        );
    }

    #[test]
    fn calls_are_rewritten_but_not_declarations_or_members() {
        let map = HashMap::from([("exp", "gpa_np_exp".to_string())]);
        let (out, edits) =
            rewrite_calls("fn exp(x: f32) {} let y = exp (x) + s.exp(x) + exp;", &map);
        assert_eq!(edits, [(26, 10, 3)]);
        assert_eq!(
            out,
            "fn exp(x: f32) {} let y = gpa_np_exp (x) + s.exp(x) + exp;"
        );
    }

    #[test]
    fn a_lone_statement_gets_its_semicolon() {
        assert_eq!(statements("z = x + y"), "z = x + y;");
        assert_eq!(statements("z = x;\n"), "z = x;\n");
        assert_eq!(statements("if (x > 0) { z = x; }"), "if (x > 0) { z = x; }");
        assert!(is_identifier("x_1") && !is_identifier("1x") && !is_identifier("__x"));
        assert_eq!(reserved_use("a + gpa_p.count"), Some("gpa_p".into()));
    }
}
