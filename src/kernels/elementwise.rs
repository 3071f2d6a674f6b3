//! `ElementwiseKernel`: CuPy's user-defined element-wise kernel, with a WGSL body.

use super::map::{Input, MapSource, run};
use super::params::{Bindings, Param, Ty, parse};
use super::types::Scalar;
use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::ops::elementwise::OpLibrary;

const OP: &str = "ElementwiseKernel";

/// One argument of a user kernel call: an array, or a scalar.
///
/// A plain scalar takes the dtype of its parameter (a placeholder bound by another argument);
/// [`Arg::Typed`] gives its dtype, as NumPy's scalar types do.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// use gpuarray::{Arg, DType};
/// let x = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0], &[2])?;
/// let args: [Arg; 3] = [(&x).into(), 2.0.into(), Arg::Typed(3.0, DType::F32)];
/// # let _ = args; Ok(()) }
/// ```
#[derive(Debug, Clone, Copy)]
pub enum Arg<'a> {
    /// An array (broadcast against the others).
    Array(&'a Array),
    /// A scalar in its parameter's dtype.
    Scalar(f64),
    /// A scalar of a given dtype (binds a placeholder).
    Typed(f64, DType),
}

impl<'a> From<&'a Array> for Arg<'a> {
    fn from(a: &'a Array) -> Self {
        Arg::Array(a)
    }
}
macro_rules! scalar_arg {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg<'_> {
            fn from(v: $t) -> Self {
                Arg::Scalar(v as f64)
            }
        }
    )*};
}
scalar_arg!(f64, f32, i32, u32, i64, u64, usize);
impl From<bool> for Arg<'_> {
    fn from(v: bool) -> Self {
        Arg::Scalar(if v { 1.0 } else { 0.0 })
    }
}

/// A user-defined element-wise kernel, as CuPy's `ElementwiseKernel`, with a WGSL body.
///
/// `in_params` and `out_params` are CuPy's parameter lists — `"float32 x, T y"`: each
/// parameter a NumPy dtype name or a type placeholder, bound by the call's arguments — and
/// `operation` the body, WGSL statements that assign the outputs (a lone statement needs no
/// `;`). The body sees each parameter as a WGSL value of its dtype's compute type (`f32` for
/// float32 and float16, `f64`, `i32` for int32/int16/int8, `u32` for the unsigned ones,
/// `bool`), `i` (the element's row-major index, `u32`) and `n` (the element count), and may
/// call NumPy's math under NumPy's names (`exp`, `log1p`, `arctan2`, `power`, ...: the op
/// table's functions, with their accuracy and the device's math mode) and the preamble's
/// functions. Inputs broadcast as NumPy's; any strides and offsets; arrays past one storage
/// binding run in blocks. Pipelines are compiled on first call per dtypes and memory walk,
/// and cached (and on disk, through the driver cache).
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// use gpuarray::{Array, ElementwiseKernel};
/// let squared_diff = ElementwiseKernel::new(
///     "float32 x, float32 y",
///     "float32 z",
///     "z = (x - y) * (x - y)",
///     "squared_diff",
/// )?;
/// let x = Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;
/// let y = Array::from_slice(&dev, &[0.5f32], &[1])?;
/// let z = squared_diff.call(&[(&x).into(), (&y).into()])?;
/// assert_eq!(z[0].to_vec::<f32>()?, vec![0.25, 2.25, 6.25]);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct ElementwiseKernel {
    name: String,
    inputs: Vec<Param>,
    outputs: Vec<Param>,
    operation: String,
    preamble: String,
}

impl ElementwiseKernel {
    /// A kernel from CuPy's four arguments; `Err` for a malformed parameter list or name.
    /// The body is compiled (and checked) on the first call.
    pub fn new(
        in_params: &str,
        out_params: &str,
        operation: &str,
        name: &str,
    ) -> Result<ElementwiseKernel> {
        let inputs = parse(OP, "in_params", in_params)?;
        let outputs = parse(OP, "out_params", out_params)?;
        if outputs.is_empty() {
            return Err(Error::invalid(
                OP,
                "a kernel needs at least one output parameter",
            ));
        }
        check_disjoint(OP, &inputs, &outputs)?;
        check_name(OP, name)?;
        Ok(ElementwiseKernel {
            name: name.to_string(),
            inputs,
            outputs,
            operation: operation.to_string(),
            preamble: String::new(),
        })
    }

    /// The kernel with WGSL helper functions (CuPy's `preamble`) placed before the body.
    pub fn with_preamble(mut self, preamble: &str) -> ElementwiseKernel {
        self.preamble = preamble.to_string();
        self
    }

    /// The kernel's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Runs the kernel on `args` (one per input parameter), returning fresh outputs.
    pub fn call(&self, args: &[Arg]) -> Result<Vec<Array>> {
        let (source, inputs, device) = self.prepare(args, None)?;
        run(&source, &device, &inputs, None)
    }

    /// Runs the kernel on `args`, writing `out` (one per output parameter; of the broadcast
    /// shape and the outputs' dtypes; may alias an input).
    pub fn call_into(&self, args: &[Arg], out: &[&Array]) -> Result<()> {
        let (source, inputs, device) = self.prepare(args, Some(out))?;
        run(&source, &device, &inputs, Some(out)).map(|_| ())
    }

    /// The WGSL module a call with `args` compiles (flat walk over contiguous arrays), as
    /// `GPUARRAY_LOG=2` prints it; `Err` as the call would fail to compile.
    pub fn wgsl(&self, args: &[Arg]) -> Result<String> {
        let (source, inputs, device) = self.prepare(args, None)?;
        source.wgsl_for(&device, &inputs)
    }

    /// Resolves placeholders and scalars, converts arrays given for fixed dtypes, and builds
    /// the kernel's source.
    fn prepare<'a>(
        &self,
        args: &[Arg<'a>],
        out: Option<&[&Array]>,
    ) -> Result<(MapSource, Vec<Input<'a>>, crate::Device)> {
        let (dtypes, out_dtypes, device) =
            resolve(OP, &self.name, &self.inputs, &self.outputs, args, out)?;
        let inputs = inputs_of(args, &dtypes)?;
        let mut all = dtypes.clone();
        all.extend(&out_dtypes);
        let lib = numpy_library(&device, &all, &[&self.operation, &self.preamble])?;
        let source = MapSource {
            op: OP,
            name: self.name.clone(),
            inputs: named(&self.inputs, &dtypes),
            outputs: named(&self.outputs, &out_dtypes),
            library: lib.wgsl,
            library_calls: lib.calls,
            uses_math: lib.uses_math,
            preamble: self.preamble.clone(),
            body: self.operation.clone(),
            user_body: true,
            aliases: placeholders(&self.inputs, &self.outputs, &dtypes, &out_dtypes),
        };
        Ok((source, inputs, device))
    }
}

/// Each type placeholder of the parameters with its dtype in a call.
pub(crate) fn placeholders(
    inputs: &[Param],
    outputs: &[Param],
    dtypes: &[DType],
    out_dtypes: &[DType],
) -> Vec<(String, DType)> {
    let mut out: Vec<(String, DType)> = Vec::new();
    for (p, &d) in inputs
        .iter()
        .zip(dtypes)
        .chain(outputs.iter().zip(out_dtypes))
    {
        if let Ty::Placeholder(t) = &p.ty
            && !out.iter().any(|(n, _)| n == t)
        {
            out.push((t.clone(), d));
        }
    }
    out
}

/// `(name, dtype)` pairs.
pub(crate) fn named(params: &[Param], dtypes: &[DType]) -> Vec<(String, DType)> {
    params
        .iter()
        .zip(dtypes)
        .map(|(p, &d)| (p.name.clone(), d))
        .collect()
}

/// Inputs and outputs may not share a name.
pub(crate) fn check_disjoint(op: &'static str, inputs: &[Param], outputs: &[Param]) -> Result<()> {
    if let Some(p) = outputs
        .iter()
        .find(|o| inputs.iter().any(|i| i.name == o.name))
    {
        return Err(Error::invalid(
            op,
            format!("`{}` is both an input and an output parameter", p.name),
        ));
    }
    Ok(())
}

/// A kernel's name is an identifier (it names its pipelines in logs and profiles).
pub(crate) fn check_name(op: &'static str, name: &str) -> Result<()> {
    if super::text::is_identifier(name) {
        Ok(())
    } else {
        Err(Error::invalid(
            op,
            format!("kernel name `{name}` is not an identifier"),
        ))
    }
}

/// The dtypes of the inputs and outputs of a call, and its device: placeholders bound by the
/// arrays (then typed scalars, then given outputs); a plain scalar takes its parameter's.
pub(crate) fn resolve(
    op: &'static str,
    name: &str,
    inputs: &[Param],
    outputs: &[Param],
    args: &[Arg],
    out: Option<&[&Array]>,
) -> Result<(Vec<DType>, Vec<DType>, crate::Device)> {
    if args.len() != inputs.len() {
        return Err(Error::invalid(
            op,
            format!(
                "kernel `{name}` takes {} argument(s), {} were given",
                inputs.len(),
                args.len()
            ),
        ));
    }
    let mut b = Bindings::default();
    for (p, a) in inputs.iter().zip(args) {
        if let (Ty::Placeholder(t), Arg::Array(x)) = (&p.ty, a) {
            b.bind(op, t, x.dtype())?;
        }
    }
    for (p, a) in inputs.iter().zip(args) {
        if let (Ty::Placeholder(t), Arg::Typed(_, d)) = (&p.ty, a) {
            b.bind(op, t, *d)?;
        }
    }
    if let Some(out) = out {
        for (p, a) in outputs.iter().zip(out) {
            if let Ty::Placeholder(t) = &p.ty {
                b.bind(op, t, a.dtype())?;
            }
        }
    }
    let dtypes = inputs
        .iter()
        .map(|p| b.resolve(op, &p.ty))
        .collect::<Result<Vec<_>>>()?;
    let out_dtypes = outputs
        .iter()
        .map(|p| b.resolve(op, &p.ty))
        .collect::<Result<Vec<_>>>()?;
    let device = args
        .iter()
        .find_map(|a| match a {
            Arg::Array(x) => Some(x.device().clone()),
            _ => None,
        })
        .or_else(|| out.and_then(|o| o.first().map(|a| a.device().clone())))
        .ok_or_else(|| {
            Error::invalid(
                op,
                format!(
                    "kernel `{name}`: the loop size is undecided (no array argument and no output)"
                ),
            )
        })?;
    Ok((dtypes, out_dtypes, device))
}

/// The map inputs of `args` in `dtypes`: arrays of another dtype converted (as CuPy casts
/// them), scalars checked.
pub(crate) fn inputs_of<'a>(args: &[Arg<'a>], dtypes: &[DType]) -> Result<Vec<Input<'a>>> {
    args.iter()
        .zip(dtypes)
        .map(|(a, &d)| {
            Ok(match a {
                Arg::Array(x) if x.dtype() == d => Input::Array(x),
                Arg::Array(x) => Input::Converted(x.astype(d)?),
                Arg::Scalar(v) | Arg::Typed(v, _) => Input::Scalar(Scalar::new(OP, *v, d)?),
            })
        })
        .collect()
}

/// The NumPy-named math a user kernel calls.
pub(crate) struct NumpyLibrary {
    /// The op table's functions (our text).
    pub wgsl: String,
    /// `(NumPy name, function)` of each name the user's text calls.
    pub calls: Vec<(&'static str, String)>,
    /// It joins the math library.
    pub uses_math: bool,
}

/// The NumPy-named math user text may call: the op table's float functions in the kernel's
/// float type (float64 if a parameter is, else float32), for the names `texts` use.
pub(crate) fn numpy_library(
    device: &crate::Device,
    dtypes: &[DType],
    texts: &[&str],
) -> Result<NumpyLibrary> {
    let float = if dtypes.contains(&DType::F64) {
        DType::F64
    } else {
        DType::F32
    };
    let used: std::collections::HashSet<&str> =
        texts.iter().flat_map(|t| super::text::words(t)).collect();
    let mut lib = OpLibrary::new(OP, float, device.supports(DType::F64))?;
    let mut calls = Vec::new();
    for op in crate::ops::elementwise::elementwise_ops() {
        let names = std::iter::once(op.numpy)
            .chain(op.aliases.iter().copied())
            .chain(std::iter::once(op.name));
        for name in names {
            if !used.contains(name) || EXACT_BUILTINS.contains(&name) || !op.float_math() {
                continue;
            }
            if let Some(call) = lib.call(op)? {
                calls.push((name, call.function));
            }
        }
    }
    let uses_math = lib.uses_math();
    let wgsl = if calls.is_empty() {
        String::new()
    } else {
        lib.wgsl(false)
    };
    Ok(NumpyLibrary {
        wgsl,
        calls,
        uses_math,
    })
}

/// WGSL built-ins whose results are NumPy's: user text calling them keeps WGSL's.
const EXACT_BUILTINS: &[&str] = &[
    "abs", "floor", "ceil", "trunc", "sqrt", "sign", "round", "min", "max", "select", "clamp",
];
