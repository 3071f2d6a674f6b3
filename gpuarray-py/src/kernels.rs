//! User kernels and fusion from Python: `_ElementwiseKernel`, `_ReductionKernel`,
//! `_RawKernel` (the crate's, taking `_Array`s and typed scalars) and `fused`, which runs a
//! program traced by `gpuarray.fuse` (`python/gpuarray/_kernels.py`).

use gpuarray::{
    Arg, Array, Axes, ElementwiseKernel, Expr, Fused, RawArg, RawKernel, ReductionKernel,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::array::{parse_dtype, PyArr};
use crate::device::wait;
use crate::errors::to_py;

/// An argument from Python: an `_Array`, or `(value, dtype name or None)`.
#[derive(FromPyObject)]
enum PyArg<'py> {
    Arr(Bound<'py, PyArr>),
    Scalar((f64, Option<String>)),
}

fn args<'a>(xs: &'a [PyArg<'_>]) -> PyResult<Vec<Arg<'a>>> {
    xs.iter()
        .map(|a| {
            Ok(match a {
                PyArg::Arr(x) => Arg::Array(x.get().array()),
                PyArg::Scalar((v, None)) => Arg::Scalar(*v),
                PyArg::Scalar((v, Some(d))) => Arg::Typed(*v, parse_dtype(d)?),
            })
        })
        .collect()
}

fn outs<'a>(out: &'a Option<Vec<Bound<'_, PyArr>>>) -> Option<Vec<&'a Array>> {
    out.as_ref()
        .map(|o| o.iter().map(|x| x.get().array()).collect())
}

#[pyclass(frozen, name = "_ElementwiseKernel", module = "gpuarray._gpuarray")]
struct PyElementwise(ElementwiseKernel);

#[pymethods]
impl PyElementwise {
    #[new]
    fn new(
        py: Python<'_>,
        in_params: &str,
        out_params: &str,
        operation: &str,
        name: &str,
        preamble: &str,
    ) -> PyResult<Self> {
        let k = ElementwiseKernel::new(in_params, out_params, operation, name)
            .map_err(|e| to_py(py, e))?
            .with_preamble(preamble);
        Ok(PyElementwise(k))
    }

    #[pyo3(signature = (arguments, out=None))]
    fn __call__(
        &self,
        py: Python<'_>,
        arguments: Vec<PyArg<'_>>,
        out: Option<Vec<Bound<'_, PyArr>>>,
    ) -> PyResult<Vec<PyArr>> {
        let a = args(&arguments)?;
        let o = outs(&out);
        let result = match &o {
            None => wait(py, || self.0.call(&a))?,
            Some(o) => {
                wait(py, || self.0.call_into(&a, o))?;
                o.iter().map(|&x| x.clone()).collect()
            }
        };
        Ok(result.into_iter().map(PyArr::new).collect())
    }

    /// The WGSL a call with `arguments` compiles.
    fn wgsl(&self, py: Python<'_>, arguments: Vec<PyArg<'_>>) -> PyResult<String> {
        let a = args(&arguments)?;
        self.0.wgsl(&a).map_err(|e| to_py(py, e))
    }
}

#[pyclass(frozen, name = "_ReductionKernel", module = "gpuarray._gpuarray")]
struct PyReduction(ReductionKernel);

#[pymethods]
impl PyReduction {
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        in_params: &str,
        out_params: &str,
        map_expr: &str,
        reduce_expr: &str,
        post_map_expr: &str,
        identity: Option<&str>,
        name: &str,
        reduce_type: Option<&str>,
        preamble: &str,
    ) -> PyResult<Self> {
        let mut k = ReductionKernel::new(
            in_params,
            out_params,
            map_expr,
            reduce_expr,
            post_map_expr,
            identity,
            name,
        )
        .map_err(|e| to_py(py, e))?
        .with_preamble(preamble);
        if let Some(t) = reduce_type {
            k = k.with_reduce_type(t).map_err(|e| to_py(py, e))?;
        }
        Ok(PyReduction(k))
    }

    #[pyo3(signature = (arguments, axis, keepdims, out=None))]
    fn __call__(
        &self,
        py: Python<'_>,
        arguments: Vec<PyArg<'_>>,
        axis: Option<Vec<isize>>,
        keepdims: bool,
        out: Option<Vec<Bound<'_, PyArr>>>,
    ) -> PyResult<Vec<PyArr>> {
        let a = args(&arguments)?;
        let axes = axis.map_or(Axes::All, Axes::List);
        let o = outs(&out);
        let result = match &o {
            None => wait(py, || self.0.call(&a, axes.clone(), keepdims))?,
            Some(o) => {
                wait(py, || self.0.call_into(&a, axes.clone(), keepdims, o))?;
                o.iter().map(|&x| x.clone()).collect()
            }
        };
        Ok(result.into_iter().map(PyArr::new).collect())
    }
}

/// A raw kernel's argument: an `_Array` or a uniform's bytes.
#[derive(FromPyObject)]
enum PyRawArg<'py> {
    Arr(Bound<'py, PyArr>),
    Bytes(Vec<u8>),
}

#[pyclass(frozen, name = "_RawKernel", module = "gpuarray._gpuarray")]
struct PyRaw(RawKernel);

#[pymethods]
impl PyRaw {
    #[new]
    fn new(py: Python<'_>, code: &str, name: &str) -> PyResult<Self> {
        RawKernel::new(code, name)
            .map(PyRaw)
            .map_err(|e| to_py(py, e))
    }

    fn __call__(
        &self,
        py: Python<'_>,
        grid: (u32, u32, u32),
        arguments: Vec<PyRawArg<'_>>,
    ) -> PyResult<()> {
        let a: Vec<RawArg> = arguments
            .iter()
            .map(|x| match x {
                PyRawArg::Arr(x) => RawArg::Array(x.get().array()),
                PyRawArg::Bytes(b) => RawArg::Uniform(b.clone()),
            })
            .collect();
        wait(py, || self.0.call(grid, &a))
    }
}

/// One node of a traced program (see `_kernels.py`): `("arg", k)`, `("scalar", value)`,
/// `("op", numpy_name, [ids])`, `("where", c, a, b)`, `("cast", id, dtype)`,
/// `("reduce", kind, id, axes or None, keepdims)`.
#[derive(FromPyObject)]
enum Node {
    Arg((String, usize)),
    Scalar((String, f64)),
    Op((String, String, Vec<usize>)),
    Where((String, usize, usize, usize)),
    Cast((String, usize, String)),
    Reduce((String, String, usize, Option<Vec<isize>>, bool)),
}

/// Runs a traced program on `arrays` as fused kernels; its result is node `root`.
#[pyfunction]
fn fused(
    py: Python<'_>,
    nodes: Vec<Node>,
    root: usize,
    arrays: Vec<Bound<'_, PyArr>>,
) -> PyResult<PyArr> {
    let mut built: Vec<Expr> = Vec::with_capacity(nodes.len());
    let get = |built: &Vec<Expr>, k: usize| -> PyResult<Expr> {
        built
            .get(k)
            .cloned()
            .ok_or_else(|| PyValueError::new_err(format!("node {k} used before it is defined")))
    };
    for n in &nodes {
        let e = match n {
            Node::Arg((_, k)) => Expr::arg(*k),
            Node::Scalar((_, v)) => Expr::scalar(*v),
            Node::Op((_, name, ids)) => {
                let first = get(&built, ids[0])?;
                let rest = ids[1..]
                    .iter()
                    .map(|&k| get(&built, k))
                    .collect::<PyResult<Vec<_>>>()?;
                let refs: Vec<&Expr> = rest.iter().collect();
                first.apply(name, &refs)
            }
            Node::Where((_, c, a, b)) => {
                get(&built, *c)?.select(get(&built, *a)?, get(&built, *b)?)
            }
            Node::Cast((_, a, d)) => get(&built, *a)?.astype(parse_dtype(d)?),
            Node::Reduce((_, kind, a, axes, keepdims)) => {
                let x = get(&built, *a)?;
                let axes = axes.clone().map_or(Axes::All, Axes::List);
                match kind.as_str() {
                    "sum" => x.sum(axes, *keepdims),
                    "prod" => x.prod(axes, *keepdims),
                    "max" => x.max(axes, *keepdims),
                    "min" => x.min(axes, *keepdims),
                    "mean" => x.mean(axes, *keepdims),
                    other => {
                        return Err(PyValueError::new_err(format!(
                            "no fused reduction {other:?}"
                        )))
                    }
                }
            }
        };
        built.push(e);
    }
    let f = Fused::new(get(&built, root)?, arrays.len());
    let xs: Vec<&Array> = arrays.iter().map(|x| x.get().array()).collect();
    wait(py, || f.call(&xs)).map(PyArr::new)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyElementwise>()?;
    m.add_class::<PyReduction>()?;
    m.add_class::<PyRaw>()?;
    m.add_function(wrap_pyfunction!(fused, m)?)?;
    Ok(())
}
