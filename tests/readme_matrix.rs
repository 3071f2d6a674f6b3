//! The README's table of element-wise ops by dtype is the op table's: regenerated here from
//! `gpuarray::elementwise_ops()` and compared with the text between its markers. On a mismatch
//! the message holds the table to paste.

use gpuarray::DType;

const START: &str = "<!-- op-matrix:start -->";
const END: &str = "<!-- op-matrix:end -->";

fn cell(op: &gpuarray::ElementwiseOp, dtype: DType) -> String {
    match op.result_dtype(dtype) {
        None => "✗".into(),
        Some(d) if d == dtype => "✓".into(),
        Some(DType::Bool) => "→ bool".into(),
        Some(d) => format!("→ {d}"),
    }
}

fn table() -> String {
    let mut s = String::from(
        "| NumPy | Rust | f16, f32, f64 | integers (int8–64, uint8–64) | bool | complex64, complex128 |\n| --- | --- | --- | --- | --- | --- |\n",
    );
    for op in gpuarray::elementwise_ops() {
        // One column stands for every integer dtype: they must all agree with int32's cell.
        for d in DType::ALL.into_iter().filter(|d| d.is_int()) {
            assert_eq!(cell(op, d), cell(op, DType::I32), "{} on {d}", op.numpy);
        }
        let names: Vec<String> = std::iter::once(op.numpy)
            .chain(op.aliases.iter().copied())
            .map(|n| format!("`{n}`"))
            .collect();
        let rust = if op.arity == 2 {
            format!("`a.{}(b)`", op.name)
        } else {
            format!("`a.{}()`", op.name)
        };
        // complex64's cell names the part dtype as "real" (complex128's is float64).
        assert_eq!(
            cell(op, DType::C64).replace("f32", "real"),
            cell(op, DType::C128).replace("f64", "real"),
            "{}",
            op.numpy
        );
        s.push_str(&format!(
            "| {} | {rust} | {} | {} | {} | {} |\n",
            names.join(", "),
            cell(op, DType::F32),
            cell(op, DType::I32),
            cell(op, DType::Bool),
            cell(op, DType::C64).replace("→ f32", "→ real")
        ));
    }
    s
}

#[test]
fn the_readme_lists_every_op_of_the_table() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let want = table();
    let section = readme
        .split_once(START)
        .and_then(|(_, rest)| rest.split_once(END))
        .map(|(inner, _)| inner.trim_start_matches('\n'));
    assert_eq!(
        section,
        Some(want.as_str()),
        "README.md's op matrix is not the op table's; put this between {START} and {END}:\n{want}"
    );
}
