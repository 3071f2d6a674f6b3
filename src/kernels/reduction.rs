//! `ReductionKernel`: CuPy's user-defined reduction, with WGSL expressions.

use super::elementwise::{
    Arg, check_disjoint, check_name, inputs_of, named, numpy_library, placeholders, resolve,
};
use super::params::{Param, Ty, dtype_named, parse};
use super::reduce::ReduceSource;
use crate::array::Array;
use crate::error::{Error, Result};
use crate::layout::Axes;

const OP: &str = "ReductionKernel";

/// A user-defined reduction, as CuPy's `ReductionKernel`, with WGSL expressions.
///
/// Each output element maps the broadcast inputs with `map_expr` (an expression of the input
/// parameters), combines the mapped values with `reduce_expr` (an associative expression of
/// `a` and `b`) starting from `identity` (an expression; `None`: from the first value, and an
/// empty reduction is an error), and assigns the outputs from the result `a` with
/// `post_map_expr` (statements; `count` is the number of reduced elements). `a` and `b` have
/// the reduce type: the first output's dtype unless [`with_reduce_type`] says otherwise. The
/// order of the reductions depends on the shapes only, so every adapter gives the same bits.
///
/// [`with_reduce_type`]: ReductionKernel::with_reduce_type
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// use gpuarray::{Array, ReductionKernel};
/// let l2norm = ReductionKernel::new(
///     "T x", "T y", "x * x", "a + b", "y = sqrt(a)", Some("0"), "l2norm",
/// )?;
/// let x = Array::from_slice(&dev, &[3.0f32, 4.0, 6.0, 8.0], &[2, 2])?;
/// let y = l2norm.call(&[(&x).into()], 1, false)?;
/// assert_eq!(y[0].to_vec::<f32>()?, vec![5.0, 10.0]);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct ReductionKernel {
    name: String,
    inputs: Vec<Param>,
    outputs: Vec<Param>,
    map_expr: String,
    reduce_expr: String,
    post_map_expr: String,
    identity: Option<String>,
    reduce_type: Option<Ty>,
    preamble: String,
}

impl ReductionKernel {
    /// A reduction from CuPy's arguments; `Err` for a malformed parameter list or name.
    pub fn new(
        in_params: &str,
        out_params: &str,
        map_expr: &str,
        reduce_expr: &str,
        post_map_expr: &str,
        identity: Option<&str>,
        name: &str,
    ) -> Result<ReductionKernel> {
        let inputs = parse(OP, "in_params", in_params)?;
        let outputs = parse(OP, "out_params", out_params)?;
        if outputs.is_empty() {
            return Err(Error::invalid(
                OP,
                "a reduction needs at least one output parameter",
            ));
        }
        check_disjoint(OP, &inputs, &outputs)?;
        check_name(OP, name)?;
        for p in inputs.iter().chain(&outputs) {
            if ["a", "b", "count"].contains(&p.name.as_str()) {
                return Err(Error::invalid(
                    OP,
                    format!(
                        "`{}` is reserved in a reduction (a, b: reduced values; count)",
                        p.name
                    ),
                ));
            }
        }
        Ok(ReductionKernel {
            name: name.to_string(),
            inputs,
            outputs,
            map_expr: map_expr.to_string(),
            reduce_expr: reduce_expr.to_string(),
            post_map_expr: post_map_expr.to_string(),
            identity: identity.map(str::to_string),
            reduce_type: None,
            preamble: String::new(),
        })
    }

    /// The reduction with `a` and `b` of type `reduce_type` (a dtype name or a placeholder;
    /// CuPy's `reduce_type`).
    pub fn with_reduce_type(mut self, reduce_type: &str) -> Result<ReductionKernel> {
        self.reduce_type = Some(match dtype_named(reduce_type) {
            Some(d) => Ty::Fixed(d),
            None if super::text::is_identifier(reduce_type) => {
                Ty::Placeholder(reduce_type.to_string())
            }
            None => {
                return Err(Error::invalid(
                    OP,
                    format!(
                        "reduce_type `{reduce_type}` is neither a dtype name nor a placeholder"
                    ),
                ));
            }
        });
        Ok(self)
    }

    /// The reduction with WGSL helper functions (CuPy's `preamble`).
    pub fn with_preamble(mut self, preamble: &str) -> ReductionKernel {
        self.preamble = preamble.to_string();
        self
    }

    /// Reduces `args` over `axes` (`Axes::All`: every axis), keeping reduced axes as size 1
    /// with `keepdims`; fresh outputs.
    pub fn call(&self, args: &[Arg], axes: impl Into<Axes>, keepdims: bool) -> Result<Vec<Array>> {
        let (source, device) = self.source(args, None)?;
        let inputs = inputs_of(args, &source.inputs.iter().map(|i| i.1).collect::<Vec<_>>())?;
        source.run(&device, &inputs, &axes.into(), keepdims, None)
    }

    /// As [`call`](ReductionKernel::call), writing `out`.
    pub fn call_into(
        &self,
        args: &[Arg],
        axes: impl Into<Axes>,
        keepdims: bool,
        out: &[&Array],
    ) -> Result<()> {
        let (source, device) = self.source(args, Some(out))?;
        let inputs = inputs_of(args, &source.inputs.iter().map(|i| i.1).collect::<Vec<_>>())?;
        source
            .run(&device, &inputs, &axes.into(), keepdims, Some(out))
            .map(|_| ())
    }

    fn source(
        &self,
        args: &[Arg],
        out: Option<&[&Array]>,
    ) -> Result<(ReduceSource, crate::Device)> {
        let (dtypes, out_dtypes, device) =
            resolve(OP, &self.name, &self.inputs, &self.outputs, args, out)?;
        let reduce_dtype = match &self.reduce_type {
            None => out_dtypes[0],
            Some(Ty::Fixed(d)) => *d,
            Some(Ty::Placeholder(t)) => {
                let params = self.inputs.iter().chain(&self.outputs);
                let all = dtypes.iter().chain(&out_dtypes);
                params
                    .zip(all)
                    .find(|(p, _)| p.ty == Ty::Placeholder(t.clone()))
                    .map(|(_, d)| *d)
                    .ok_or_else(|| {
                        Error::invalid(OP, format!("reduce_type placeholder {t} is not bound"))
                    })?
            }
        };
        let mut all = dtypes.clone();
        all.extend(&out_dtypes);
        all.push(reduce_dtype);
        let texts = [
            self.map_expr.as_str(),
            &self.reduce_expr,
            &self.post_map_expr,
            &self.preamble,
        ];
        let lib = numpy_library(&device, &all, &texts)?;
        let source = ReduceSource {
            op: OP,
            name: self.name.clone(),
            inputs: named(&self.inputs, &dtypes),
            outputs: named(&self.outputs, &out_dtypes),
            reduce_dtype,
            map: format!(
                "    return ({});",
                self.map_expr.trim().trim_end_matches(';')
            ),
            reduce: self.reduce_expr.trim().trim_end_matches(';').to_string(),
            post: self.post_map_expr.clone(),
            identity: self.identity.clone(),
            preamble: self.preamble.clone(),
            library: lib.wgsl,
            library_calls: lib.calls,
            uses_math: lib.uses_math,
            user: true,
            aliases: placeholders(&self.inputs, &self.outputs, &dtypes, &out_dtypes),
        };
        Ok((source, device))
    }
}
