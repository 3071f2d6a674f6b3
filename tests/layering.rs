//! The layering rule of ARCHITECTURE.md, checked on the source (no GPU): a module never names a
//! module of a higher layer. Layers, bottom up:
//!
//! `dtype`, `error` → `layout` → `memory` → `device` → `array` → `ops` → `random` → `interop`
//! → `lib.rs`
//!
//! A file "names" a module when a line of code (comments excluded) contains `crate::NAME` or, at
//! the crate root, declares or re-exports it. `super::` paths stay inside a module's own folder
//! and so inside its layer.

use std::path::{Path, PathBuf};

/// Layer of each top-level module (higher numbers sit on lower ones).
const LAYERS: [(&str, u32); 10] = [
    ("dtype", 0),
    ("error", 0),
    ("layout", 1),
    ("memory", 2),
    ("device", 3),
    ("array", 4),
    ("ops", 5),
    ("random", 6),
    ("interop", 7),
    ("lib", 8),
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

/// Every `crate::NAME` in `code`.
fn named_modules(code: &str) -> Vec<&str> {
    code.match_indices("crate::")
        .map(|(i, m)| {
            let rest = &code[i + m.len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .collect()
}

/// `file:line: MODULE (layer N) names MODULE (layer M)` for every upward reference in `src`.
fn upward_references(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
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
        for (n, line) in text.lines().enumerate() {
            for named in named_modules(code_of(line)) {
                if let Some(theirs) = layer_of(named) {
                    if theirs > own {
                        found.push(format!(
                            "{}:{}: `{module}` (layer {own}) names `crate::{named}` (layer {theirs}): {}",
                            file.display(),
                            n + 1,
                            line.trim()
                        ));
                    }
                }
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
        "// crate::ops in a comment is fine\nuse crate::memory::Pool;\nuse crate::ops::matmul::MatmulTuning; // upward\n",
    )
    .unwrap();
    std::fs::write(root.join("layout.rs"), "use crate::error::Result;\n").unwrap();
    let found = upward_references(&root);
    std::fs::remove_dir_all(&root).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("mod.rs:3:"), "{}", found[0]);
    assert!(
        found[0].contains("`device` (layer 3) names `crate::ops` (layer 5)"),
        "{}",
        found[0]
    );
}
