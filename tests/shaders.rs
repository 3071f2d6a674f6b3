//! Every shipped shader variant parses and validates with naga, exactly as the crate hands it to
//! the driver. Needs no GPU, so it runs everywhere.

use naga::valid::{Capabilities, ValidationFlags, Validator};

#[test]
fn every_shipped_variant_validates() {
    let variants = gpuarray::shader_variants();
    // Copy (6 x 6 dtypes), fill, sequence, element-wise, reductions, matmul, take, philox.
    assert!(variants.len() >= 100, "only {} variants", variants.len());
    assert!(variants.iter().any(|v| v.label == "philox[f16]"));
    assert!(
        variants
            .iter()
            .any(|v| v.label.starts_with("matmul_sgb32x8[f32]"))
    );
    let mut failures = Vec::new();
    for v in &variants {
        let module = match naga::front::wgsl::parse_str(&v.wgsl) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{}: parse: {}", v.label, e.emit_to_string(&v.wgsl)));
                continue;
            }
        };
        let mut validator = Validator::new(ValidationFlags::all(), Capabilities::all());
        if let Err(e) = validator.validate(&module) {
            failures.push(format!(
                "{}: validate: {}",
                v.label,
                e.emit_to_string(&v.wgsl)
            ));
        }
        assert!(
            module.entry_points.iter().any(|e| e.name == v.entry),
            "{}: no entry point `{}`",
            v.label,
            v.entry
        );
    }
    assert!(
        failures.is_empty(),
        "{} invalid variants:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn f16_variants_enable_f16_and_others_do_not() {
    for v in gpuarray::shader_variants() {
        // Packed f16 (`f16p`, for adapters without shader-f16) never names the f16 type.
        assert_eq!(
            v.wgsl.starts_with("enable f16;"),
            v.label.replace("f16p", "").contains("f16"),
            "{}",
            v.label
        );
    }
}

/// naga's verdict on a WGSL source: Ok, or the parse or validation error as text.
fn check_wgsl(src: &str) -> Result<(), String> {
    let module = naga::front::wgsl::parse_str(src).map_err(|e| e.emit_to_string(src))?;
    Validator::new(ValidationFlags::all(), Capabilities::all())
        .validate(&module)
        .map(|_| ())
        .map_err(|e| e.emit_to_string(src))
}

#[test]
fn a_broken_shader_is_rejected() {
    // The validator above really checks: a type error in a variant-like source fails, for that
    // type error, while the same source with the right type passes.
    let src = |value: &str| {
        format!(
            "alias T = f32;\n@group(0) @binding(0) var<storage, read_write> d: array<T>;\n\
             @compute @workgroup_size(1) fn main() {{ d[0] = {value}; }}"
        )
    };
    assert_eq!(check_wgsl(&src("1.0")), Ok(()));
    let e = check_wgsl(&src("1u")).expect_err("assigning u32 to f32 validated");
    assert!(e.contains("u32") && e.contains("f32"), "{e}");
}

/// Every pipeline of the eager start-up plan, specialised as the driver receives it (each
/// `switch` on an override reduced to its selected case), parses and validates, and none keeps
/// a switch on an override: a case the reader failed to reduce would hand lavapipe every op's
/// code again (550 ms for one f32 `add` pipeline instead of 6 ms).
#[test]
fn every_specialised_pipeline_validates_and_keeps_one_case() {
    let pipelines = gpuarray::shader_pipelines();
    assert!(pipelines.len() > 2000, "only {} pipelines", pipelines.len());
    let mut seen = std::collections::HashSet::new();
    let mut failures = Vec::new();
    for p in &pipelines {
        for name in ["OP", "MODE", "DIST", "DTYPE"] {
            let open = format!("switch {name} {{");
            let paren = format!("switch ({name}) {{");
            assert!(
                !p.wgsl.contains(&open) && !p.wgsl.contains(&paren),
                "{}: a switch on {name} was left whole",
                p.label
            );
        }
        if !seen.insert(p.wgsl.clone()) {
            continue;
        }
        if let Err(e) = check_wgsl(&p.wgsl) {
            failures.push(format!("{}: {e}", p.label));
        }
    }
    assert!(
        failures.is_empty(),
        "{} invalid pipelines:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Each op keeps its own case: add's pipeline adds, logaddexp2's calls the math library.
    let find = |label: &str| {
        pipelines
            .iter()
            .find(|p| p.label == label)
            .unwrap_or_else(|| panic!("no pipeline {label}"))
    };
    let add = find("binary_float_vec4[f32]{OP=0,SCALAR=0}");
    assert!(add.wgsl.contains("{ return a + b; }"));
    assert!(!add.wgsl.contains("logaddexp_(a, b, true)"));
}
