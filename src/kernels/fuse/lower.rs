//! Lowering a traced expression to generated kernels for one call's arrays: one element-wise
//! kernel, or one map-reduce kernel when the chain ends in a reduction (ops after it become
//! its `post` step). A reduction inside the chain (softmax's `max` and `sum`) is computed
//! first by a kernel of its own, whose result the rest reads as an input.
//!
//! The ops are the op table's own functions (`ops::elementwise::OpLibrary`), so every value
//! has the bits the unfused op gives it: f16 results are rounded to f16 after each op, as an
//! unfused op's store rounds them.

use super::expr::{Expr, Node, Reduction};
use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::map::{Input, MapSource, run as run_map};
use crate::kernels::reduce::ReduceSource;
use crate::kernels::types::Scalar;
use crate::ops::elementwise::{OpLibrary, elementwise_op};
use std::collections::HashMap;
use std::sync::Arc;

pub(crate) const OP: &str = "fuse";

fn key(e: &Expr) -> usize {
    Arc::as_ptr(&e.0) as usize
}

/// Evaluates `root` on `args`; `memo` holds what was computed already (by node).
pub(crate) fn evaluate(
    device: &crate::Device,
    root: &Expr,
    args: &[&Array],
    memo: &mut HashMap<usize, Array>,
) -> Result<Array> {
    if let Some(a) = memo.get(&key(root)) {
        return Ok(a.clone());
    }
    if let Node::Input(k) = &*root.0 {
        return Ok(args[*k].clone());
    }
    let top = top_reduce(root);
    let map_root = match &top {
        Some(r) => match &*r.0 {
            Node::Reduce { arg, .. } => arg.clone(),
            _ => unreachable!("top_reduce gives a reduction"),
        },
        None => root.clone(),
    };
    // Reductions the map part reads are computed first.
    let mut inner = Vec::new();
    inner_reductions(&map_root, &mut inner, &mut Default::default());
    for r in &inner {
        let a = evaluate(device, r, args, memo)?;
        memo.insert(key(r), a);
    }
    let mut g = Gen::new(device, args, memo)?;
    let value = g.value(&map_root)?;
    let result = match &top {
        None => {
            let out = g.finish_value(&value);
            let (inputs, source) = g.map_source(out, value.dtype)?;
            run_map(&source, device, &inputs, None)?.remove(0)
        }
        Some(r) => {
            let Node::Reduce {
                kind,
                axes,
                keepdims,
                ..
            } = &*r.0
            else {
                unreachable!()
            };
            g.reduction(*kind, &value, r, root, axes, *keepdims)?
        }
    };
    memo.insert(key(root), result.clone());
    Ok(result)
}

/// The reduction `root` ends in, when every array `root` reads comes through it.
fn top_reduce(root: &Expr) -> Option<Expr> {
    let mut leaves = Vec::new();
    fn walk(e: &Expr, leaves: &mut Vec<Expr>) {
        match &*e.0 {
            Node::Input(_) | Node::Reduce { .. } => {
                if !leaves.iter().any(|l: &Expr| key(l) == key(e)) {
                    leaves.push(e.clone());
                }
            }
            Node::Scalar(_) => {}
            Node::Op(_, args) => args.iter().for_each(|a| walk(a, leaves)),
            Node::Where(c, a, b) => [c, a, b].into_iter().for_each(|a| walk(a, leaves)),
            Node::Cast(a, _) => walk(a, leaves),
        }
    }
    walk(root, &mut leaves);
    match leaves.as_slice() {
        [r] if matches!(&*r.0, Node::Reduce { .. }) => Some(r.clone()),
        _ => None,
    }
}

/// The reductions `e` reads (not through another reduction).
fn inner_reductions(e: &Expr, out: &mut Vec<Expr>, seen: &mut std::collections::HashSet<usize>) {
    if !seen.insert(key(e)) {
        return;
    }
    match &*e.0 {
        Node::Reduce { .. } => out.push(e.clone()),
        Node::Input(_) | Node::Scalar(_) => {}
        Node::Op(_, args) => args.iter().for_each(|a| inner_reductions(a, out, seen)),
        Node::Where(c, a, b) => [c, a, b]
            .into_iter()
            .for_each(|a| inner_reductions(a, out, seen)),
        Node::Cast(a, _) => inner_reductions(a, out, seen),
    }
}

/// A generated value: its WGSL expression (a `let` name or a scalar's) and dtype; `weak` for
/// a scalar that takes the dtype of the array it meets.
#[derive(Debug, Clone)]
struct Value {
    wgsl: String,
    dtype: DType,
    scalar: Option<f64>,
}

/// The kernel under construction.
struct Gen<'a> {
    device: crate::Device,
    args: &'a [&'a Array],
    memo: &'a HashMap<usize, Array>,
    /// Kernel inputs: arrays (user inputs and computed reductions) and scalars.
    inputs: Vec<(String, Input<'a>)>,
    /// Node → kernel input name.
    input_names: HashMap<usize, String>,
    lib: Option<OpLibrary>,
    /// Generated statements.
    body: String,
    lets: HashMap<usize, Value>,
    ops: Vec<&'static str>,
    /// The reduction's value inside `post` (`a`): set while generating the post step, whose
    /// scalars are literals (the later stages' uniforms have no scalars).
    post_value: Option<(usize, Value)>,
}

impl<'a> Gen<'a> {
    fn new(
        device: &crate::Device,
        args: &'a [&'a Array],
        memo: &'a HashMap<usize, Array>,
    ) -> Result<Gen<'a>> {
        Ok(Gen {
            device: device.clone(),
            args,
            memo,
            inputs: Vec::new(),
            input_names: HashMap::new(),
            lib: None,
            body: String::new(),
            lets: HashMap::new(),
            ops: Vec::new(),
            post_value: None,
        })
    }

    fn has_f64(&self) -> bool {
        self.device.supports(DType::F64) && !self.device.f64_emulated()
    }

    /// The op library of `dtype` (one per kernel).
    fn library(&mut self, dtype: DType, what: &str) -> Result<&mut OpLibrary> {
        if self.lib.is_none() {
            self.lib = Some(OpLibrary::new(OP, dtype, self.has_f64())?);
        }
        let lib = self.lib.as_mut().expect("set above");
        if lib.dtype() != dtype {
            return Err(Error::Unsupported {
                op: OP,
                feature: format!(
                    "{what} on {dtype} in a chain whose ops run on {}: a fused kernel computes \
                     its ops in one dtype (convert with astype outside the fused function)",
                    lib.dtype()
                ),
            });
        }
        Ok(lib)
    }

    fn array_input(&mut self, node: usize, array: Array) -> Value {
        let dtype = array.dtype();
        let name = self.input_names.entry(node).or_insert_with(|| {
            let name = format!("x{}", self.inputs.len());
            self.inputs.push((name.clone(), Input::Converted(array)));
            name
        });
        // Bool inputs arrive as WGSL `bool`: the chain computes on its stored 0/1.
        let wgsl = match dtype {
            DType::Bool => format!("select(0u, 1u, {name})"),
            _ => name.clone(),
        };
        Value {
            wgsl,
            dtype,
            scalar: None,
        }
    }

    /// The value of `e`, its statements appended to the body.
    fn value(&mut self, e: &Expr) -> Result<Value> {
        if let Some(v) = self.lets.get(&key(e)) {
            return Ok(v.clone());
        }
        if let Some((k, v)) = &self.post_value
            && *k == key(e)
        {
            return Ok(v.clone());
        }
        if let Some(a) = self.memo.get(&key(e)) {
            let v = self.array_input(key(e), a.clone());
            self.lets.insert(key(e), v.clone());
            return Ok(v);
        }
        let v = match &*e.0 {
            Node::Input(k) => {
                let a = self.args.get(*k).ok_or_else(|| {
                    Error::invalid(
                        OP,
                        format!("the fused function reads input {k} of {}", self.args.len()),
                    )
                })?;
                self.array_input(key(e), (*a).clone())
            }
            Node::Scalar(v) => Value {
                wgsl: String::new(),
                dtype: DType::F64,
                scalar: Some(*v),
            },
            Node::Reduce { kind, .. } => {
                return Err(Error::invalid(
                    OP,
                    format!("internal: {} reached inside its own kernel", kind.name()),
                ));
            }
            Node::Op(op, args) => {
                let op = *op.as_ref().map_err(|name| {
                    Error::invalid(OP, format!("no element-wise op is called `{name}`"))
                })?;
                let vals = args
                    .iter()
                    .map(|a| self.value(a))
                    .collect::<Result<Vec<_>>>()?;
                let dtype = vals
                    .iter()
                    .find(|v| v.scalar.is_none())
                    .map(|v| v.dtype)
                    .ok_or_else(|| {
                        Error::invalid(
                            OP,
                            format!("{} of scalars only: no array operand", op.numpy),
                        )
                    })?;
                let mut wgsl_args = Vec::new();
                for v in &vals {
                    if v.scalar.is_none() && v.dtype != dtype {
                        return Err(Error::DTypeMismatch {
                            op: op.numpy,
                            expected: dtype,
                            got: v.dtype,
                        });
                    }
                    wgsl_args.push(self.operand(v, dtype)?);
                }
                let call = self.library(dtype, op.numpy)?.call(op)?;
                self.ops.push(op.name);
                match call {
                    None => Value {
                        wgsl: wgsl_args[0].clone(),
                        dtype,
                        scalar: None,
                    },
                    Some(call) => {
                        let expr = format!("gpa_{}({})", call.function, wgsl_args.join(", "));
                        self.bind(expr, call.dtype)
                    }
                }
            }
            Node::Where(c, a, b) => {
                let (c, a, b) = (self.value(c)?, self.value(a)?, self.value(b)?);
                if c.dtype != DType::Bool || c.scalar.is_some() {
                    return Err(Error::DTypeMismatch {
                        op: "where",
                        expected: DType::Bool,
                        got: c.dtype,
                    });
                }
                let dtype = [&a, &b]
                    .iter()
                    .find(|v| v.scalar.is_none())
                    .map(|v| v.dtype)
                    .ok_or_else(|| Error::invalid(OP, "where of two scalars: no array operand"))?;
                let (wa, wb) = (self.operand(&a, dtype)?, self.operand(&b, dtype)?);
                if a.scalar.is_none() && b.scalar.is_none() && a.dtype != b.dtype {
                    return Err(Error::DTypeMismatch {
                        op: "where",
                        expected: a.dtype,
                        got: b.dtype,
                    });
                }
                self.ops.push("where");
                self.bind(format!("select({wb}, {wa}, {} != 0u)", c.wgsl), dtype)
            }
            Node::Cast(a, to) => {
                let v = self.value(a)?;
                self.ops.push("astype");
                self.cast(&v, *to)?
            }
        };
        self.lets.insert(key(e), v.clone());
        Ok(v)
    }

    /// A `let` of `expr` (f16 results rounded to f16).
    fn bind(&mut self, expr: String, dtype: DType) -> Value {
        let name = format!("t{}", self.lets.len());
        let expr = match dtype {
            DType::F16 => format!("gpa_round_f16({expr})"),
            _ => expr,
        };
        self.body.push_str(&format!("    let {name} = {expr};\n"));
        Value {
            wgsl: name,
            dtype,
            scalar: None,
        }
    }

    /// `v` as an operand of dtype `dtype`: a scalar becomes a uniform input of that dtype.
    fn operand(&mut self, v: &Value, dtype: DType) -> Result<String> {
        let Some(s) = v.scalar else {
            return Ok(v.wgsl.clone());
        };
        let scalar = Scalar::new(OP, s, dtype)?;
        if self.post_value.is_some() {
            return literal(scalar);
        }
        let name = format!("x{}", self.inputs.len());
        self.inputs.push((name.clone(), Input::Scalar(scalar)));
        Ok(match dtype {
            DType::Bool => format!("select(0u, 1u, {name})"),
            _ => name,
        })
    }

    fn cast(&mut self, v: &Value, to: DType) -> Result<Value> {
        if v.scalar.is_some() {
            return Ok(Value {
                dtype: to,
                ..v.clone()
            });
        }
        if v.dtype == to {
            return Ok(v.clone());
        }
        if v.dtype == DType::F16 && to == DType::F32 {
            // Halves are computed in f32 already: exact, as `astype` is.
            return Ok(Value {
                dtype: to,
                ..v.clone()
            });
        }
        let numeric = [DType::F32, DType::F64, DType::I32, DType::U32];
        if !numeric.contains(&v.dtype)
            || !numeric.contains(&to)
            || (v.dtype.is_float() && !to.is_float())
        {
            return Err(Error::Unsupported {
                op: OP,
                feature: format!(
                    "astype from {} to {to} inside a fused function (int32/uint32 to float, \
                     float16 to float32, and between float32 and float64 are fused)",
                    v.dtype
                ),
            });
        }
        Ok(self.bind(format!("{}({})", to.wgsl_compute(), v.wgsl), to))
    }

    /// The output statement of a map kernel.
    fn finish_value(&mut self, v: &Value) -> String {
        let expr = match v.dtype {
            DType::Bool => format!("({} != 0u)", v.wgsl),
            _ => v.wgsl.clone(),
        };
        format!("{}    out = {expr};\n", self.body)
    }

    fn label(&self) -> String {
        format!("fused[{}]", self.ops.join(","))
    }

    fn library_wgsl(&self) -> (String, bool) {
        match &self.lib {
            Some(lib) => (lib.wgsl(self.device.f16_emulated()), lib.uses_math()),
            None => (String::new(), false),
        }
    }

    fn map_source(mut self, body: String, dtype: DType) -> Result<(Vec<Input<'a>>, MapSource)> {
        let (library, uses_math) = self.library_wgsl();
        let inputs: Vec<(String, Input)> = std::mem::take(&mut self.inputs);
        let source = MapSource {
            op: OP,
            name: self.label(),
            inputs: inputs
                .iter()
                .map(|(n, i)| (n.clone(), input_dtype(i)))
                .collect(),
            outputs: vec![("out".to_string(), dtype)],
            library,
            library_calls: Vec::new(),
            uses_math,
            preamble: String::new(),
            body,
            user_body: false,
            aliases: Vec::new(),
        };
        Ok((inputs.into_iter().map(|(_, i)| i).collect(), source))
    }

    /// Runs the chain as a map-reduce: `value` (the mapped value) reduced by `kind` over
    /// `axes`, then `root`'s ops after the reduction `r`.
    fn reduction(
        mut self,
        kind: Reduction,
        value: &Value,
        r: &Expr,
        root: &Expr,
        axes: &crate::layout::Axes,
        keepdims: bool,
    ) -> Result<Array> {
        let d = value.dtype;
        if value.scalar.is_some() {
            return Err(Error::invalid(
                OP,
                "a reduction of a scalar: no array operand",
            ));
        }
        let map = format!("{}    return {};", self.body, value.wgsl);
        let (op_name, identity) = match kind {
            Reduction::Sum | Reduction::Mean => ("add", Some("0")),
            Reduction::Prod => ("multiply", Some("1")),
            Reduction::Max => ("maximum", None),
            Reduction::Min => ("minimum", None),
        };
        if matches!(kind, Reduction::Sum | Reduction::Mean | Reduction::Prod)
            && !matches!(d, DType::F32 | DType::F64)
        {
            return Err(Error::Unsupported {
                op: OP,
                feature: format!(
                    "a fused {} of {d} (fused sums, products and means take float32 and \
                     float64; NumPy sums integers in int64)",
                    kind.name()
                ),
            });
        }
        let combine = elementwise_op(op_name).expect("a table op");
        let call = self
            .library(d, kind.name())?
            .call(combine)?
            .expect("a kernel op");
        self.ops.push(kind.name());
        // The post step: `root`'s ops over the reduced value `a`.
        self.body.clear();
        let mean = if kind == Reduction::Mean {
            format!(
                "gpa_{}(a, {}(count))",
                lib_divide(&mut self, d)?,
                d.wgsl_compute()
            )
        } else {
            "a".to_string()
        };
        self.lets.clear();
        self.post_value = Some((
            key(r),
            Value {
                wgsl: mean,
                dtype: d,
                scalar: None,
            },
        ));
        let out = self.value(root)?;
        let mut post = self.body.clone();
        let out_expr = match out.dtype {
            DType::Bool => format!("({} != 0u)", out.wgsl),
            _ => out.wgsl.clone(),
        };
        post.push_str(&format!("    out = {out_expr};"));
        let (library, uses_math) = self.library_wgsl();
        let label = self.label();
        let inputs = std::mem::take(&mut self.inputs);
        let source = ReduceSource {
            op: OP,
            name: label,
            inputs: inputs
                .iter()
                .map(|(n, i)| (n.clone(), input_dtype(i)))
                .collect(),
            outputs: vec![("out".to_string(), out.dtype)],
            reduce_dtype: d,
            map,
            reduce: format!("gpa_{}(a, b)", call.function),
            post,
            identity: identity.map(str::to_string),
            preamble: String::new(),
            library,
            library_calls: Vec::new(),
            uses_math,
            user: false,
            aliases: Vec::new(),
        };
        let inputs: Vec<Input> = inputs.into_iter().map(|(_, i)| i).collect();
        Ok(source
            .run(&self.device, &inputs, axes, keepdims, None)?
            .remove(0))
    }
}

/// A scalar of the post step as a WGSL literal (Rust prints the shortest decimal that reads
/// back as the same value, so the literal is exact).
fn literal(s: Scalar) -> Result<String> {
    if !s.value.is_finite() {
        return Err(Error::Unsupported {
            op: OP,
            feature: format!(
                "the scalar {} after a fused reduction (WGSL has no literal for it)",
                s.value
            ),
        });
    }
    Ok(match s.dtype {
        DType::F32 | DType::F16 => format!("{:?}f", s.value as f32),
        DType::F64 => format!("{:?}lf", s.value),
        DType::Bool => format!("{}u", s.value as u32),
        d if d.is_signed_int() => format!("{}i", s.value as i64),
        _ => format!("{}u", s.value as u64),
    })
}

/// The library function of `divide` on `d` (a mean's division by the count).
fn lib_divide(g: &mut Gen, d: DType) -> Result<String> {
    let op = elementwise_op("divide").expect("a table op");
    Ok(g.library(d, "mean")?
        .call(op)?
        .expect("a kernel op")
        .function)
}

fn input_dtype(i: &Input) -> DType {
    match i {
        Input::Scalar(s) => s.dtype,
        other => other.array().expect("an array").dtype(),
    }
}
