//! The op table's ops as WGSL functions, for kernels generated at run time: fused chains
//! (`crate::kernels::fuse`) and the NumPy-named math of user kernels.
//!
//! A generated kernel must compute exactly what the unfused op computes, so its functions are
//! cut from the same op files: each op file's `fn op` (a `switch OP` over the file's cases) is
//! copied once per op used, renamed `op_<file>_<code>` and switched on its own override whose
//! default is that code — which the specializer reduces to the one case, as it does for a
//! family's pipeline. The rest of the file (its helpers), the dtype's helpers, the op codes and
//! the math library are joined once. Everything here is computed in one dtype `C` (the ops'
//! input dtype); comparison and predicate results are bool values in `u32` (0 or 1), as their
//! kernels store them.

use super::rules::{OpSet, Plan};
use super::table::{BinaryOp, UnaryOp};
use super::{ElementwiseOp, Which};
use crate::device::wgsl_helpers::helpers;
use crate::dtype::DType;
use crate::error::{Error, Result};
use std::collections::{BTreeMap, BTreeSet};

/// The WGSL of the table's ops on one dtype, grown as ops are asked for.
#[derive(Debug, Clone)]
pub(crate) struct OpLibrary {
    dtype: DType,
    has_f64: bool,
    used: BTreeMap<OpSet, BTreeSet<u32>>,
}

/// What the library needs of each op file.
impl OpSet {
    fn stem(self) -> &'static str {
        match self {
            OpSet::UnaryFloat => "unary_float",
            OpSet::UnaryInt => "unary_int",
            OpSet::Predicate => "predicate",
            OpSet::BinaryFloat => "binary_float",
            OpSet::BinaryInt => "binary_int",
            OpSet::Compare => "compare",
        }
    }
    fn file(self) -> &'static str {
        match self {
            OpSet::UnaryFloat => include_str!("../../../shaders/unary_float.wgsl"),
            OpSet::UnaryInt => include_str!("../../../shaders/unary_int.wgsl"),
            OpSet::Predicate => include_str!("../../../shaders/unary_predicate.wgsl"),
            OpSet::BinaryFloat => include_str!("../../../shaders/binary_float.wgsl"),
            OpSet::BinaryInt => include_str!("../../../shaders/binary_int.wgsl"),
            OpSet::Compare => include_str!("../../../shaders/binary_compare.wgsl"),
        }
    }
    fn unary(self) -> bool {
        matches!(self, OpSet::UnaryFloat | OpSet::UnaryInt | OpSet::Predicate)
    }
    fn math(self) -> bool {
        matches!(self, OpSet::UnaryFloat | OpSet::BinaryFloat)
    }
}

/// An op resolved for a generated kernel: the function to call and its result's dtype.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OpCall {
    pub function: String,
    pub dtype: DType,
}

impl OpLibrary {
    /// A library of ops on `dtype` (`has_f64`: integer true division may give f64). The
    /// dtypes whose element-wise kernels are plain WGSL: f32, f16 (computed in f32), native
    /// f64, i32, u32 and bool; others are `Err(Unsupported)` naming `op`.
    pub fn new(op: &'static str, dtype: DType, has_f64: bool) -> Result<OpLibrary> {
        if !matches!(
            dtype,
            DType::F32 | DType::F16 | DType::F64 | DType::I32 | DType::U32 | DType::Bool
        ) {
            return Err(Error::Unsupported {
                op,
                feature: format!(
                    "table ops on {dtype} inside a generated kernel (fused and user kernels \
                     take float32, float16, float64, int32, uint32 and bool)"
                ),
            });
        }
        Ok(OpLibrary {
            dtype,
            has_f64,
            used: BTreeMap::new(),
        })
    }

    /// The dtype the ops compute on.
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// Whether any op joins the math library (its `FAST_MATH` override applies).
    pub fn uses_math(&self) -> bool {
        self.used.keys().any(|k| k.math())
    }

    /// The function of table op `op` on the library's dtype: NumPy's refusal where the table
    /// refuses the dtype, `Err(Unsupported)` where the op needs a conversion first (integer
    /// true division) or is the identity (the caller needs no function then: `None`).
    pub fn call(&mut self, op: &ElementwiseOp) -> Result<Option<OpCall>> {
        let plan = match op.which() {
            Which::Unary(u) => u.plan(self.dtype, self.has_f64)?,
            Which::Binary(b) => b.plan(self.dtype, self.has_f64)?,
        };
        match plan {
            Plan::Kernel(set, code, out) => {
                self.used.entry(set).or_default().insert(code);
                Ok(Some(OpCall {
                    function: function_name(set, code),
                    dtype: out,
                }))
            }
            Plan::Identity => Ok(None),
            Plan::InFloat(work) => Err(Error::Unsupported {
                op: op.numpy,
                feature: format!(
                    "{} of {} inside a generated kernel (NumPy converts to {work} first; \
                     convert the operands with astype)",
                    op.numpy, self.dtype
                ),
            }),
        }
    }

    /// The library's WGSL: `alias C`, the dtype's helpers, the op codes, the math library where
    /// an op needs it, each op file's helpers and one function per op used. Its top-level
    /// names are ours: the caller moves them into its namespace.
    pub fn wgsl(&self, packed_f16: bool) -> String {
        let d = self.dtype;
        let mut s = format!("alias C = {};\n", d.wgsl_compute());
        s.push_str(&helpers("C", d));
        if self.used.keys().any(|k| k.unary()) {
            s.push_str(&UnaryOp::wgsl_constants());
        }
        if self.used.keys().any(|k| !k.unary()) {
            s.push_str(&BinaryOp::wgsl_constants());
        }
        if self.uses_math() {
            s.push_str(&format!(
                "const STORAGE_IS_F16: bool = {};\n",
                d == DType::F16
            ));
            if d == DType::F64 {
                s.push_str(include_str!("../../../shaders/math_f64.wgsl"));
            } else {
                s.push_str(include_str!("../../../shaders/mulhilo.wgsl"));
                s.push_str(include_str!("../../../shaders/math_f32.wgsl"));
            }
        }
        for (&key, codes) in &self.used {
            let result = if key.gives_bool() {
                DType::Bool.wgsl_compute()
            } else {
                "C"
            };
            let (rest, op_fn) = split_op_function(key.file());
            s.push_str(&rest);
            for &code in codes {
                let name = function_name(key, code);
                let selector = format!("{}_OP", name.to_uppercase());
                s.push_str(&format!("override {selector}: u32 = {code}u;\n"));
                s.push_str(
                    &op_fn
                        .replacen("fn op(", &format!("fn {name}("), 1)
                        .replace("switch OP {", &format!("switch {selector} {{"))
                        .replace(") -> R {", &format!(") -> {result} {{")),
                );
                s.push('\n');
            }
        }
        // f16 results are rounded to f16 after every op, as the unfused op's store does.
        if d == DType::F16 {
            s.push_str(&round_f16(packed_f16));
        }
        s
    }
}

/// `fn round_f16(v: f32) -> f32`: `v` rounded to f16 as a store of an f16 kernel rounds it.
fn round_f16(packed: bool) -> String {
    if packed {
        let stores = crate::device::element_access::write_value(
            "unused_f16_out",
            0,
            crate::device::Variant {
                f16_packed: true,
                ..crate::device::Variant::one(DType::F16)
            },
            DType::F16,
        );
        // Only the rounding function of the packed store: its binding is never used.
        let start = stores
            .find("fn f16_bits_")
            .expect("the packed store's rounding");
        let end = start + stores[start..].find("\n}\n").expect("its end") + 3;
        format!(
            "{}fn half_value(h: u32) -> f32 {{\n    {}}}\n\
             fn round_f16(v: f32) -> f32 {{ return half_value(f16_bits_unused_f16_out(v)); }}\n",
            &stores[start..end],
            crate::device::element_access::F32_OF_HALF_BITS
        )
    } else {
        "fn round_f16(v: f32) -> f32 { return f32(f16(v)); }\n".to_string()
    }
}

fn function_name(key: OpSet, code: u32) -> String {
    format!("op_{}_{code}", key.stem())
}

/// An op file without its `override OP` line and its `fn op` (returned apart).
fn split_op_function(file: &str) -> (String, String) {
    let start = file.find("\nfn op(").expect("every op file has `fn op`") + 1;
    let open = start + file[start..].find('{').expect("a body");
    let mut depth = 0;
    let mut end = open;
    for (i, c) in file[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    end = open + i + 1;
                    break;
                }
            }
            _ => {}
        }
    }
    let rest = format!("{}{}", &file[..start], &file[end..]).replace("override OP: u32 = 0u;", "");
    (rest, file[start..end].to_string())
}

impl ElementwiseOp {
    /// Which row of the table this is.
    pub(crate) fn which(&self) -> Which {
        self.op
    }

    /// Whether on floats it is one of the float math op files' (a function of the math
    /// library or the float arithmetic, not a comparison or predicate).
    pub(crate) fn float_math(&self) -> bool {
        let plan = match self.op {
            Which::Unary(u) => u.plan(DType::F32, true),
            Which::Binary(b) => b.plan(DType::F32, true),
        };
        matches!(
            plan,
            Ok(Plan::Kernel(OpSet::UnaryFloat | OpSet::BinaryFloat, _, _))
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_are_cut_from_the_op_files() {
        let mut lib = OpLibrary::new("t", DType::F32, true).unwrap();
        let exp = lib
            .call(super::super::elementwise_op("exp").unwrap())
            .unwrap()
            .unwrap();
        let less = lib
            .call(super::super::elementwise_op("less").unwrap())
            .unwrap()
            .unwrap();
        assert_eq!((exp.dtype, less.dtype), (DType::F32, DType::Bool));
        let s = lib.wgsl(false);
        assert!(
            s.contains(&format!("fn {}(x: C) -> C {{", exp.function)),
            "{s}"
        );
        assert!(s.contains(&format!("fn {}(a: C, b: C) -> u32 {{", less.function)));
        assert!(!s.contains("override OP:"));
        // The math library reads the skeleton's element count (`p.count`, its `opaque`).
        let module = naga::front::wgsl::parse_str(&format!(
            "struct P {{ count: u32 }}\n@group(0) @binding(0) var<uniform> p: P;\n{s}\n\
             @compute @workgroup_size(1) fn main() {{ let y = {}(1.0); }}",
            exp.function
        ));
        assert!(module.is_ok(), "{module:?}");
        let mut ints = OpLibrary::new("t", DType::I32, true).unwrap();
        assert!(
            ints.call(super::super::elementwise_op("exp").unwrap())
                .is_err()
        );
        assert!(OpLibrary::new("t", DType::I8, true).is_err());
    }
}
