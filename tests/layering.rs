//! The layering rule of ARCHITECTURE.md, checked on the source (no GPU): a module never names a
//! module of a higher layer. Layers, bottom up:
//!
//! `dtype`, `error` → `layout` → `memory` → `device` → `array` → `ops` → `random`, `kernels`,
//! `linalg`, `fft` →
//! `interop` → `registry` → `lib.rs`
//!
//! A file "names" a module when its code (comments excluded) says `crate::NAME`, names it in a
//! group (`use crate::{ops, memory::Pool};`, over several lines too), or names an item the crate
//! root re-exports from it (`crate::Array` is `array`'s, `crate::add` is `ops`'s). `super::`
//! paths stay inside a module's own folder and so inside its layer.

use std::path::{Path, PathBuf};

/// Layer of each top-level module (higher numbers sit on lower ones).
const LAYERS: [(&str, u32); 14] = [
    ("dtype", 0),
    ("error", 0),
    ("layout", 1),
    ("memory", 2),
    ("device", 3),
    ("array", 4),
    ("ops", 5),
    ("random", 6),
    ("kernels", 6),
    ("linalg", 6),
    ("fft", 6),
    ("interop", 7),
    ("registry", 8),
    ("lib", 9),
];

fn layer_of(module: &str) -> Option<u32> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|&(_, l)| l)
}

/// The top-level module a source file belongs to (`src/ops/einsum/parse.rs` → `ops`).
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).expect("a file under src/");
    let first = rel.components().next().expect("a path");
    let name = first.as_os_str().to_string_lossy();
    name.trim_end_matches(".rs").to_string()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("reading src/") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a line: empty for comment lines, and what precedes a trailing `//` comment.
fn code_of(line: &str) -> &str {
    let t = line.trim_start();
    if t.starts_with("//") {
        return "";
    }
    match line.find("//") {
        Some(i) => &line[..i],
        None => line,
    }
}

/// The first path segment of a group's item (`ops::einsum` → `ops`), if any.
fn head(item: &str) -> Option<&str> {
    let item = item.trim();
    let end = item
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(item.len());
    (end > 0).then(|| &item[..end])
}

/// The first path segment of each item of a `{ ... }` group starting at `code[open]`, and the
/// offset just past the group.
fn group_heads(code: &str, open: usize) -> (Vec<&str>, usize) {
    let b = code.as_bytes();
    let (mut depth, mut i, mut start) = (0usize, open, open + 1);
    let mut heads = Vec::new();
    while i < b.len() {
        match b[i] {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    heads.extend(head(&code[start..i]));
                    return (heads, i + 1);
                }
            }
            b',' if depth == 1 => {
                heads.extend(head(&code[start..i]));
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    (heads, b.len())
}

/// Every `crate::NAME` in `code` (a whole file, comments removed), with its byte offset: each
/// head of a `crate::{...}` group counts as named there.
fn named_paths(code: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    for (i, m) in code.match_indices("crate::") {
        let rest = &code[i + m.len()..];
        if rest.starts_with('{') {
            let (heads, _) = group_heads(code, i + m.len());
            out.extend(heads.into_iter().map(|h| (i, h)));
            continue;
        }
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        out.push((i, &rest[..end]));
    }
    out
}

/// The names the crate root re-exports (`pub use ops::elementwise::{add, Operand};`) with the
/// top-level module each comes from.
fn root_reexports(src: &Path) -> Vec<(String, String)> {
    let Ok(lib) = std::fs::read_to_string(src.join("lib.rs")) else {
        return Vec::new();
    };
    let code = strip_comments(&lib);
    let mut out = Vec::new();
    for (i, _) in code.match_indices("pub use ") {
        let rest = &code[i + "pub use ".len()..];
        let stmt = &rest[..rest.find(';').unwrap_or(rest.len())];
        let module = stmt.split("::").next().unwrap_or("").trim().to_string();
        let names: Vec<&str> = match (stmt.find('{'), stmt.rfind('}')) {
            (Some(a), Some(b)) => stmt[a + 1..b].split(',').collect(),
            _ => vec![stmt.rsplit("::").next().unwrap_or("")],
        };
        for n in names {
            // `a as b` exports b.
            let n = n.rsplit(" as ").next().unwrap_or("").trim();
            if !n.is_empty() && n != "*" && n != "self" {
                out.push((n.to_string(), module.clone()));
            }
        }
    }
    out
}

/// `text` with `//` comments blanked (lengths kept, so offsets still find lines).
fn strip_comments(text: &str) -> String {
    text.lines()
        .map(|l| {
            let code = code_of(l);
            format!("{code}{}", " ".repeat(l.len() - code.len()))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `file:line: MODULE (layer N) names MODULE (layer M)` for every upward reference in `src`.
fn upward_references(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let reexports = root_reexports(src);
    let layer_named = |name: &str| -> Option<(u32, String)> {
        if let Some(l) = layer_of(name) {
            return Some((l, name.to_string()));
        }
        let (_, module) = reexports.iter().find(|(n, _)| n == name)?;
        Some((layer_of(module)?, module.clone()))
    };
    let mut found = Vec::new();
    for file in files {
        let module = module_of(src, &file);
        let Some(own) = layer_of(&module) else {
            found.push(format!(
                "{}: module `{module}` has no layer in tests/layering.rs",
                file.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(&file).expect("reading a source file");
        let code = strip_comments(&text);
        for (at, named) in named_paths(&code) {
            let Some((theirs, from)) = layer_named(named) else {
                continue;
            };
            if theirs > own {
                let line = code[..at].matches('\n').count();
                found.push(format!(
                    "{}:{}: `{module}` (layer {own}) names `crate::{named}` (`{from}`, layer {theirs}): {}",
                    file.display(),
                    line + 1,
                    text.lines().nth(line).unwrap_or("").trim()
                ));
            }
        }
    }
    found
}

#[test]
fn no_module_names_a_higher_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = upward_references(&src);
    assert!(
        found.is_empty(),
        "upward references (see ARCHITECTURE.md):\n{}",
        found.join("\n")
    );
}

/// The checker itself: an upward reference in a scratch tree is found and located, and the same
/// words in a comment are not.
#[test]
fn an_upward_reference_is_reported_with_file_and_line() {
    let root = std::env::temp_dir().join(format!("gpuarray-layering-{}", std::process::id()));
    let device = root.join("device");
    std::fs::create_dir_all(&device).unwrap();
    std::fs::write(
        device.join("mod.rs"),
        "// crate::ops in a comment is fine\nuse crate::memory::Pool;\nuse crate::ops::matmul::MatmulTuning; // upward\n\
         use crate::{\n    error::Result,\n    ops::einsum, // a group, over lines\n};\n\
         fn f(a: &crate::Array) -> crate::Result<()> { crate::add(a, a).map(|_| ()) }\n",
    )
    .unwrap();
    std::fs::write(root.join("layout.rs"), "use crate::error::Result;\n").unwrap();
    std::fs::write(
        root.join("lib.rs"),
        "pub use array::Array;\npub use error::{Error, Result};\npub use ops::elementwise::{add as add, Operand};\n",
    )
    .unwrap();
    let found = upward_references(&root);
    std::fs::remove_dir_all(&root).unwrap();
    assert_eq!(found.len(), 4, "{found:#?}");
    assert!(found[0].contains("mod.rs:3:"), "{}", found[0]);
    assert!(
        found[0].contains("`device` (layer 3) names `crate::ops` (`ops`, layer 5)"),
        "{}",
        found[0]
    );
    // The group's `ops` (its line is the `use`), and re-exported names: `Array` is `array`'s
    // (layer 4), `add` is `ops`'s; `Result` is `error`'s (below) and passes.
    assert!(
        found[1].contains("mod.rs:4:") && found[1].contains("`crate::ops`"),
        "{}",
        found[1]
    );
    assert!(
        found[2].contains("mod.rs:8:") && found[2].contains("`crate::Array` (`array`, layer 4)"),
        "{}",
        found[2]
    );
    assert!(
        found[3].contains("`crate::add` (`ops`, layer 5)"),
        "{}",
        found[3]
    );
}
