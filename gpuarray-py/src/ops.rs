//! The crate's operations as module functions over `_Array`s. Ops are named as in NumPy
//! (`"subtract"`, `"arcsin"`, `"invert"`) so the Python dispatch tables map a ufunc to a call
//! by its `__name__`. Dtype promotion happens in Python before these run: binary ops here need
//! equal dtypes (or a Python scalar, which adopts the array's dtype), as in the crate.

use gpuarray::{Array, Axes, DType, EinsumPath, EinsumStrategy, Operand};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::array::{parse_dtype, PyArr};
use crate::device::{device, wait};
use crate::errors::to_py;

/// A binary op's operand from Python: an `_Array` or a Python number (bools count as 0/1).
#[derive(FromPyObject)]
pub(crate) enum Opnd<'py> {
    Arr(Bound<'py, PyArr>),
    Scalar(f64),
}

impl Opnd<'_> {
    fn operand(&self) -> Operand<'_> {
        match self {
            Opnd::Arr(a) => Operand::Array(a.get().array()),
            Opnd::Scalar(s) => Operand::Scalar(*s),
        }
    }
}

fn arrays<'a>(xs: &'a [Bound<'_, PyArr>]) -> Vec<&'a Array> {
    xs.iter().map(|x| x.get().array()).collect()
}

fn axes(a: Option<Vec<isize>>) -> Axes {
    match a {
        None => Axes::All,
        Some(v) => Axes::List(v),
    }
}

fn unknown(kind: &str, op: &str) -> PyErr {
    PyValueError::new_err(format!("gpuarray has no {kind} op {op:?}"))
}

/// `op(a, b)` for a binary op of the crate's op table by its NumPy name (or an alias: `add`,
/// `true_divide`, `less`, `logical_xor`, ...).
#[pyfunction]
fn binary(py: Python<'_>, op: &str, a: Opnd<'_>, b: Opnd<'_>) -> PyResult<PyArr> {
    let f = gpuarray::elementwise_op(op)
        .filter(|f| f.arity == 2)
        .ok_or_else(|| unknown("binary", op))?;
    let (x, y) = (a.operand(), b.operand());
    wait(py, || f.call(&[x, y])).map(PyArr::new)
}

/// `op(a)` for a unary op of the op table by its NumPy name (`negative`, `arcsin`, `invert`,
/// ...), `positive` (a copy) and `conjugate`.
#[pyfunction]
fn unary(py: Python<'_>, op: &str, a: &Bound<'_, PyArr>) -> PyResult<PyArr> {
    let a = a.get().array();
    if op == "positive" {
        return wait(py, || a.astype(a.dtype())).map(PyArr::new);
    }
    if op == "conjugate" {
        return wait(py, || a.conj()).map(PyArr::new);
    }
    let f = gpuarray::elementwise_op(op)
        .filter(|f| f.arity == 1)
        .ok_or_else(|| unknown("unary", op))?;
    wait(py, || f.call(&[a.into()])).map(PyArr::new)
}

/// The op table's public rows as `(numpy_name, aliases, arity)`: what `_ufuncs.py` maps NumPy's
/// ufuncs from.
#[pyfunction]
fn elementwise_ops() -> Vec<(&'static str, Vec<&'static str>, usize)> {
    gpuarray::elementwise_ops()
        .iter()
        .map(|op| (op.numpy, op.aliases.to_vec(), op.arity))
        .collect()
}

/// A reduction over `axes` (`None`: all): sum, prod, max, min, any, all, mean, logsumexp.
#[pyfunction]
#[pyo3(signature = (op, a, axes, keepdims))]
fn reduce(
    py: Python<'_>,
    op: &str,
    a: &Bound<'_, PyArr>,
    axes: Option<Vec<isize>>,
    keepdims: bool,
) -> PyResult<PyArr> {
    let f: fn(&Array, Axes, bool) -> gpuarray::Result<Array> = match op {
        "sum" => |a, x, k| a.sum(x, k),
        "prod" => |a, x, k| a.prod(x, k),
        "max" => |a, x, k| a.max(x, k),
        "min" => |a, x, k| a.min(x, k),
        "any" => |a, x, k| a.any(x, k),
        "all" => |a, x, k| a.all(x, k),
        "mean" => |a, x, k| a.mean(x, k),
        "logsumexp" => |a, x, k| a.logsumexp(x, k),
        "nansum" => |a, x, k| a.nansum(x, k),
        "nanprod" => |a, x, k| a.nanprod(x, k),
        "nanmax" => |a, x, k| a.nanmax(x, k),
        "nanmin" => |a, x, k| a.nanmin(x, k),
        "nanmean" => |a, x, k| a.nanmean(x, k),
        other => return Err(unknown("reduction", other)),
    };
    let (a, ax) = (a.get().array(), self::axes(axes));
    wait(py, || f(a, ax, keepdims)).map(PyArr::new)
}

/// A reduction with NumPy's `where=` mask (`None`: every element) and `initial=`.
#[pyfunction]
#[pyo3(signature = (op, a, axes, keepdims, mask=None, initial=None))]
fn reduce_where(
    py: Python<'_>,
    op: &str,
    a: &Bound<'_, PyArr>,
    axes: Option<Vec<isize>>,
    keepdims: bool,
    mask: Option<&Bound<'_, PyArr>>,
    initial: Option<f64>,
) -> PyResult<PyArr> {
    use gpuarray::Reduction;
    let op = match op {
        "sum" => Reduction::Sum,
        "prod" => Reduction::Prod,
        "max" => Reduction::Max,
        "min" => Reduction::Min,
        "mean" => Reduction::Mean,
        "any" => Reduction::Any,
        "all" => Reduction::All,
        other => return Err(unknown("reduction", other)),
    };
    let a = a.get().array();
    let mask = mask.map(|m| m.get().array().clone());
    let ax = self::axes(axes);
    wait(py, || {
        a.reduce_where(op, ax, keepdims, mask.as_ref(), initial)
    })
    .map(PyArr::new)
}

/// `var` (or `std` when `std`) over `axes` with `ddof`.
#[pyfunction]
#[pyo3(signature = (a, axes, ddof, keepdims, std, nan=false))]
fn var(
    py: Python<'_>,
    a: &Bound<'_, PyArr>,
    axes: Option<Vec<isize>>,
    ddof: usize,
    keepdims: bool,
    std: bool,
    nan: bool,
) -> PyResult<PyArr> {
    let (a, ax) = (a.get().array(), self::axes(axes));
    wait(py, || match (std, nan) {
        (true, false) => a.std(ax, ddof, keepdims),
        (false, false) => a.var(ax, ddof, keepdims),
        (true, true) => a.nanstd(ax, ddof, keepdims),
        (false, true) => a.nanvar(ax, ddof, keepdims),
    })
    .map(PyArr::new)
}

/// `argmax`/`argmin` along `axis` (`None`: the flattened array); int32 indices.
#[pyfunction]
#[pyo3(signature = (op, a, axis, keepdims))]
fn argreduce(
    py: Python<'_>,
    op: &str,
    a: &Bound<'_, PyArr>,
    axis: Option<isize>,
    keepdims: bool,
) -> PyResult<PyArr> {
    let a = a.get().array();
    match op {
        "argmax" => wait(py, || a.argmax(axis, keepdims)),
        "argmin" => wait(py, || a.argmin(axis, keepdims)),
        "nanargmax" => wait(py, || a.nanargmax(axis, keepdims)),
        "nanargmin" => wait(py, || a.nanargmin(axis, keepdims)),
        other => Err(unknown("arg-reduction", other)),
    }
    .map(PyArr::new)
}

/// `cumsum`/`cumprod` along `axis` (`None`: the flattened array).
#[pyfunction]
#[pyo3(signature = (op, a, axis))]
fn scan(py: Python<'_>, op: &str, a: &Bound<'_, PyArr>, axis: Option<isize>) -> PyResult<PyArr> {
    let a = a.get().array();
    match op {
        "cumsum" => wait(py, || a.cumsum(axis)),
        "cumprod" => wait(py, || a.cumprod(axis)),
        "nancumsum" => wait(py, || a.nancumsum(axis)),
        other => Err(unknown("scan", other)),
    }
    .map(PyArr::new)
}

/// `partition` (or `argpartition` when `indices`) at `kth` along `axis` (`None`: flattened).
#[pyfunction]
fn partition(
    py: Python<'_>,
    a: &Bound<'_, PyArr>,
    kth: Vec<isize>,
    axis: Option<isize>,
    indices: bool,
) -> PyResult<PyArr> {
    let a = a.get().array();
    wait(py, || {
        if indices {
            a.argpartition(&kth, axis)
        } else {
            a.partition(&kth, axis)
        }
    })
    .map(PyArr::new)
}

/// `numpy.lexsort(keys)` of 1-d keys (the last is the primary one).
#[pyfunction]
fn lexsort(py: Python<'_>, keys: Vec<Bound<'_, PyArr>>) -> PyResult<PyArr> {
    let keys = arrays(&keys);
    wait(py, || gpuarray::lexsort(&keys)).map(PyArr::new)
}

/// `sort` (or `argsort` when `indices`) along `axis` (`None`: the flattened array).
#[pyfunction]
fn sort(
    py: Python<'_>,
    a: &Bound<'_, PyArr>,
    axis: Option<isize>,
    indices: bool,
) -> PyResult<PyArr> {
    let a = a.get().array();
    wait(py, || {
        if indices {
            a.argsort(axis)
        } else {
            a.sort(axis)
        }
    })
    .map(PyArr::new)
}

/// `numpy.nan_to_num(a, nan=, posinf=, neginf=)` (`None`: the dtype's extremes).
#[pyfunction]
#[pyo3(signature = (a, nan, posinf=None, neginf=None))]
fn nan_to_num(
    py: Python<'_>,
    a: &Bound<'_, PyArr>,
    nan: f64,
    posinf: Option<f64>,
    neginf: Option<f64>,
) -> PyResult<PyArr> {
    let a = a.get().array();
    wait(py, || a.nan_to_num(nan, posinf, neginf)).map(PyArr::new)
}

/// `numpy.isclose(a, b, rtol, atol, equal_nan)`, element-wise, as a bool array.
#[pyfunction]
fn isclose(
    py: Python<'_>,
    a: &Bound<'_, PyArr>,
    b: &Bound<'_, PyArr>,
    rtol: f64,
    atol: f64,
    equal_nan: bool,
) -> PyResult<PyArr> {
    let (a, b) = (a.get().array(), b.get().array());
    wait(py, || a.isclose(b, rtol, atol, equal_nan)).map(PyArr::new)
}

/// `softmax` along one axis.
#[pyfunction]
fn softmax(py: Python<'_>, a: &Bound<'_, PyArr>, axis: isize) -> PyResult<PyArr> {
    let a = a.get().array();
    wait(py, || a.softmax(axis)).map(PyArr::new)
}

/// `numpy.where(cond, a, b)`; `a`/`b` arrays of one dtype or scalars.
#[pyfunction]
fn where_(py: Python<'_>, cond: &Bound<'_, PyArr>, a: Opnd<'_>, b: Opnd<'_>) -> PyResult<PyArr> {
    let (c, x, y) = (cond.get().array(), a.operand(), b.operand());
    wait(py, || gpuarray::where_(c, x, y)).map(PyArr::new)
}

/// `numpy.clip(a, lo, hi)`; either bound may be `None`.
#[pyfunction]
#[pyo3(signature = (a, lo, hi))]
fn clip(
    py: Python<'_>,
    a: &Bound<'_, PyArr>,
    lo: Option<Opnd<'_>>,
    hi: Option<Opnd<'_>>,
) -> PyResult<PyArr> {
    let a = a.get().array();
    let (l, h) = (
        lo.as_ref().map(|o| o.operand()),
        hi.as_ref().map(|o| o.operand()),
    );
    wait(py, || a.clip(l, h)).map(PyArr::new)
}

/// Two-operand linear algebra: matmul, dot, vdot, inner, outer, kron.
#[pyfunction]
fn linalg2(
    py: Python<'_>,
    op: &str,
    a: &Bound<'_, PyArr>,
    b: &Bound<'_, PyArr>,
) -> PyResult<PyArr> {
    let f: fn(&Array, &Array) -> gpuarray::Result<Array> = match op {
        "matmul" => Array::matmul,
        "dot" => Array::dot,
        "vdot" => Array::vdot,
        "inner" => Array::inner,
        "outer" => Array::outer,
        "kron" => Array::kron,
        other => return Err(unknown("linear-algebra", other)),
    };
    let (a, b) = (a.get().array(), b.get().array());
    wait(py, || f(a, b)).map(PyArr::new)
}

/// `numpy.tensordot(a, b, axes=(axes_a, axes_b))`.
#[pyfunction]
fn tensordot(
    py: Python<'_>,
    a: &Bound<'_, PyArr>,
    b: &Bound<'_, PyArr>,
    axes_a: Vec<isize>,
    axes_b: Vec<isize>,
) -> PyResult<PyArr> {
    let (a, b) = (a.get().array(), b.get().array());
    wait(py, || a.tensordot(b, &axes_a, &axes_b)).map(PyArr::new)
}

/// `numpy.trace(a, offset)` over the first two axes.
#[pyfunction]
fn trace(py: Python<'_>, a: &Bound<'_, PyArr>, offset: isize) -> PyResult<PyArr> {
    let a = a.get().array();
    wait(py, || a.trace(offset)).map(PyArr::new)
}

fn strategy(name: &str) -> PyResult<EinsumStrategy> {
    match name {
        "optimal" => Ok(EinsumStrategy::Optimal),
        "greedy" => Ok(EinsumStrategy::Greedy),
        "naive" => Ok(EinsumStrategy::Naive),
        other => Err(PyValueError::new_err(format!(
            "einsum: optimize must be 'optimal', 'greedy', True or False, not {other:?}"
        ))),
    }
}

/// `numpy.einsum(subscripts, *operands)` with a planning strategy (`optimal`, `greedy`,
/// `naive`: left to right, NumPy's `optimize=False` order).
#[pyfunction]
fn einsum(
    py: Python<'_>,
    subscripts: &str,
    operands: Vec<Bound<'_, PyArr>>,
    strategy: &str,
) -> PyResult<PyArr> {
    let s = self::strategy(strategy)?;
    let ops = arrays(&operands);
    wait(py, || gpuarray::einsum_with(subscripts, &ops, s)).map(PyArr::new)
}

/// `numpy.einsum_path` for operands of these shapes: the steps and NumPy's printed report.
#[pyfunction]
fn einsum_path(
    py: Python<'_>,
    subscripts: &str,
    shapes: Vec<Vec<usize>>,
    strategy: &str,
) -> PyResult<(Vec<(usize, usize)>, String)> {
    let s = self::strategy(strategy)?;
    let refs: Vec<&[usize]> = shapes.iter().map(|v| v.as_slice()).collect();
    let p: EinsumPath =
        EinsumPath::from_shapes(subscripts, &refs, s, None).map_err(|e| to_py(py, e))?;
    let text = p.to_string();
    Ok((p.steps, text))
}

/// `numpy.concatenate` (`stack=False`) or `numpy.stack` along `axis`.
#[pyfunction]
fn join(
    py: Python<'_>,
    arrays: Vec<Bound<'_, PyArr>>,
    axis: isize,
    stack: bool,
) -> PyResult<PyArr> {
    let xs = self::arrays(&arrays);
    wait(py, || {
        if stack {
            gpuarray::stack(&xs, axis)
        } else {
            gpuarray::concatenate(&xs, axis)
        }
    })
    .map(PyArr::new)
}

/// `numpy.split` at `indices` along `axis` (views).
#[pyfunction]
fn split_at(
    py: Python<'_>,
    a: &Bound<'_, PyArr>,
    indices: Vec<usize>,
    axis: isize,
) -> PyResult<Vec<PyArr>> {
    let a = a.get().array();
    let parts = wait(py, || a.split_at(&indices, axis))?;
    Ok(parts.into_iter().map(PyArr::new).collect())
}

/// `numpy.flip` along one axis, or all (`None`).
#[pyfunction]
#[pyo3(signature = (a, axis))]
fn flip(py: Python<'_>, a: &Bound<'_, PyArr>, axis: Option<isize>) -> PyResult<PyArr> {
    let a = a.get().array();
    wait(py, || a.flip(axis)).map(PyArr::new)
}

/// `numpy.roll` by one shift along one axis, or the flattened array (`None`).
#[pyfunction]
#[pyo3(signature = (a, shift, axis))]
fn roll(
    py: Python<'_>,
    a: &Bound<'_, PyArr>,
    shift: isize,
    axis: Option<isize>,
) -> PyResult<PyArr> {
    let a = a.get().array();
    wait(py, || a.roll(shift, axis)).map(PyArr::new)
}

/// `numpy.tile(a, reps)`.
#[pyfunction]
fn tile(py: Python<'_>, a: &Bound<'_, PyArr>, reps: Vec<usize>) -> PyResult<PyArr> {
    let a = a.get().array();
    wait(py, || a.tile(&reps)).map(PyArr::new)
}

/// `numpy.repeat(a, repeats, axis)` with one repeat count.
#[pyfunction]
#[pyo3(signature = (a, repeats, axis))]
fn repeat(
    py: Python<'_>,
    a: &Bound<'_, PyArr>,
    repeats: usize,
    axis: Option<isize>,
) -> PyResult<PyArr> {
    let a = a.get().array();
    wait(py, || a.repeat(repeats, axis)).map(PyArr::new)
}

/// `numpy.pad(a, pad_width, constant_values=value)`.
#[pyfunction]
fn pad(
    py: Python<'_>,
    a: &Bound<'_, PyArr>,
    pad_width: Vec<(usize, usize)>,
    value: f64,
) -> PyResult<PyArr> {
    let a = a.get().array();
    wait(py, || a.pad(&pad_width, value)).map(PyArr::new)
}

/// One axis of `numpy.pad` in any mode: `before`/`after` are the end values of `constant` and
/// `linear_ramp`, or the `stat_length`s (None: the whole axis) of the statistics; `odd` is
/// `reflect_type="odd"`.
#[pyfunction]
#[pyo3(signature = (a, axis, widths, mode, before=None, after=None, odd=false))]
#[allow(clippy::too_many_arguments)]
fn pad_axis(
    py: Python<'_>,
    a: &Bound<'_, PyArr>,
    axis: isize,
    widths: (usize, usize),
    mode: &str,
    before: Option<f64>,
    after: Option<f64>,
    odd: bool,
) -> PyResult<PyArr> {
    use gpuarray::PadMode;
    let value = |v: Option<f64>| v.unwrap_or(0.0);
    let length = |v: Option<f64>| v.map(|x| x as usize);
    let mode = match mode {
        "constant" => PadMode::Constant(value(before), value(after)),
        "edge" => PadMode::Edge,
        "wrap" => PadMode::Wrap,
        "reflect" => PadMode::Reflect { odd },
        "symmetric" => PadMode::Symmetric { odd },
        "linear_ramp" => PadMode::LinearRamp(value(before), value(after)),
        "maximum" => PadMode::Maximum(length(before), length(after)),
        "minimum" => PadMode::Minimum(length(before), length(after)),
        "mean" => PadMode::Mean(length(before), length(after)),
        "median" => PadMode::Median(length(before), length(after)),
        "empty" => PadMode::Empty,
        other => return Err(unknown("pad mode", other)),
    };
    let a = a.get().array();
    wait(py, || a.pad_axis(axis, widths.0, widths.1, mode)).map(PyArr::new)
}

/// `numpy.take(a, indices, axis)` (`None`: the flattened array); int32 indices.
#[pyfunction]
#[pyo3(signature = (a, indices, axis))]
fn take(
    py: Python<'_>,
    a: &Bound<'_, PyArr>,
    indices: &Bound<'_, PyArr>,
    axis: Option<isize>,
) -> PyResult<PyArr> {
    let (a, i) = (a.get().array(), indices.get().array());
    wait(py, || a.take(i, axis)).map(PyArr::new)
}

/// `a[mask]` for a mask of `a`'s shape (stream compaction on the device; the count is read back).
#[pyfunction]
fn masked(py: Python<'_>, a: &Bound<'_, PyArr>, mask: &Bound<'_, PyArr>) -> PyResult<PyArr> {
    let (a, m) = (a.get().array(), mask.get().array());
    wait(py, || a.masked(m)).map(PyArr::new)
}

/// `numpy.putmask(a, mask, values)` (values cycled by flat index), in place.
#[pyfunction]
fn putmask(
    py: Python<'_>,
    a: &Bound<'_, PyArr>,
    mask: &Bound<'_, PyArr>,
    values: &Bound<'_, PyArr>,
) -> PyResult<()> {
    let (a, m, v) = (a.get().array(), mask.get().array(), values.get().array());
    wait(py, || a.putmask(m, v))
}

/// `numpy.place(arr, mask, vals)` (vals cycled over the true elements), in place.
#[pyfunction]
fn place(
    py: Python<'_>,
    a: &Bound<'_, PyArr>,
    mask: &Bound<'_, PyArr>,
    vals: &Bound<'_, PyArr>,
) -> PyResult<()> {
    let (a, m, v) = (a.get().array(), mask.get().array(), vals.get().array());
    wait(py, || a.place(m, v))
}

/// `numpy.flatnonzero(a)` as int32, computed on the device.
#[pyfunction]
fn flatnonzero(py: Python<'_>, a: &Bound<'_, PyArr>) -> PyResult<PyArr> {
    let a = a.get().array();
    wait(py, || a.flatnonzero()).map(PyArr::new)
}

/// `numpy.searchsorted(a, v, side)` with `right` for `side="right"`.
#[pyfunction]
fn searchsorted(
    py: Python<'_>,
    a: &Bound<'_, PyArr>,
    v: &Bound<'_, PyArr>,
    right: bool,
) -> PyResult<PyArr> {
    let (a, v) = (a.get().array(), v.get().array());
    let side = if right {
        gpuarray::Side::Right
    } else {
        gpuarray::Side::Left
    };
    wait(py, || a.searchsorted(v, side)).map(PyArr::new)
}

/// `numpy.unique(a, return_index=True, return_inverse=True, return_counts=True)`: (values,
/// indices, inverse, counts).
#[pyfunction]
#[pyo3(signature = (a, equal_nan=true))]
fn unique_all(
    py: Python<'_>,
    a: &Bound<'_, PyArr>,
    equal_nan: bool,
) -> PyResult<(PyArr, PyArr, PyArr, PyArr)> {
    let a = a.get().array();
    let u = wait(py, || a.unique_all_with(equal_nan))?;
    Ok((
        PyArr::new(u.values),
        PyArr::new(u.indices),
        PyArr::new(u.inverse),
        PyArr::new(u.counts),
    ))
}

/// `numpy.bincount(x, weights=, minlength=)`: i32 counts, or f64 sums of the weights.
#[pyfunction]
#[pyo3(signature = (a, minlength, weights=None))]
fn bincount(
    py: Python<'_>,
    a: &Bound<'_, PyArr>,
    minlength: usize,
    weights: Option<Bound<'_, PyArr>>,
) -> PyResult<PyArr> {
    let a = a.get().array();
    let weights: Option<&Array> = weights.as_ref().map(|w| w.get().array());
    wait(py, || match weights {
        Some(w) => a.bincount_weighted(w, minlength),
        None => a.bincount(minlength),
    })
    .map(PyArr::new)
}

/// `numpy.histogram(a, bins, range, weights)`: `bins` a count or an `_Array` of edges;
/// (i32 counts or f64 weight sums, edges).
#[pyfunction]
#[pyo3(signature = (a, count, edges, range=None, weights=None))]
fn histogram(
    py: Python<'_>,
    a: &Bound<'_, PyArr>,
    count: usize,
    edges: Option<Bound<'_, PyArr>>,
    range: Option<(f64, f64)>,
    weights: Option<Bound<'_, PyArr>>,
) -> PyResult<(PyArr, PyArr)> {
    let a = a.get().array();
    let edges: Option<&Array> = edges.as_ref().map(|e| e.get().array());
    let weights: Option<&Array> = weights.as_ref().map(|w| w.get().array());
    let (counts, edges) = wait(py, || {
        let bins = match edges {
            Some(e) => gpuarray::HistogramBins::Edges(e),
            None => gpuarray::HistogramBins::Count(count),
        };
        match weights {
            Some(w) => a.histogram_weighted(bins, range, w),
            None => a.histogram(bins, range),
        }
    })?;
    Ok((PyArr::new(counts), PyArr::new(edges)))
}

/// A new array: `kind` is `zeros`, `ones` or `full` (with `value`).
#[pyfunction]
fn filled(
    py: Python<'_>,
    kind: &str,
    shape: Vec<usize>,
    value: f64,
    dtype: &str,
) -> PyResult<PyArr> {
    let dt = parse_dtype(dtype)?;
    let dev = device(py)?;
    match kind {
        "zeros" => wait(py, || Array::zeros(&dev, &shape, dt)),
        "ones" => wait(py, || Array::ones(&dev, &shape, dt)),
        "full" => wait(py, || Array::full(&dev, &shape, value, dt)),
        other => Err(unknown("constructor", other)),
    }
    .map(PyArr::new)
}

/// `numpy.arange(start, stop, step, dtype)`.
#[pyfunction]
fn arange(py: Python<'_>, start: f64, stop: f64, step: f64, dtype: &str) -> PyResult<PyArr> {
    let dt = parse_dtype(dtype)?;
    let dev = device(py)?;
    wait(py, || Array::arange(&dev, start, stop, step, dt)).map(PyArr::new)
}

/// `numpy.linspace(start, stop, num, dtype)` (endpoint included).
#[pyfunction]
fn linspace(py: Python<'_>, start: f64, stop: f64, num: usize, dtype: &str) -> PyResult<PyArr> {
    let dt = parse_dtype(dtype)?;
    let dev = device(py)?;
    wait(py, || Array::linspace(&dev, start, stop, num, dt)).map(PyArr::new)
}

/// `numpy.eye(n, m, k, dtype)`.
#[pyfunction]
fn eye(py: Python<'_>, n: usize, m: usize, k: isize, dtype: &str) -> PyResult<PyArr> {
    let dt = parse_dtype(dtype)?;
    let dev = device(py)?;
    wait(py, || Array::eye_k(&dev, n, m, k, dt)).map(PyArr::new)
}

/// Refuses a dtype name the crate lacks, with the same `TypeError` every function gives.
#[pyfunction]
fn check_dtype(dtype: &str) -> PyResult<()> {
    parse_dtype(dtype).map(|_: DType| ())
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(binary, m)?)?;
    m.add_function(wrap_pyfunction!(unary, m)?)?;
    m.add_function(wrap_pyfunction!(elementwise_ops, m)?)?;
    m.add_function(wrap_pyfunction!(reduce, m)?)?;
    m.add_function(wrap_pyfunction!(reduce_where, m)?)?;
    m.add_function(wrap_pyfunction!(var, m)?)?;
    m.add_function(wrap_pyfunction!(isclose, m)?)?;
    m.add_function(wrap_pyfunction!(nan_to_num, m)?)?;
    m.add_function(wrap_pyfunction!(bincount, m)?)?;
    m.add_function(wrap_pyfunction!(partition, m)?)?;
    m.add_function(wrap_pyfunction!(lexsort, m)?)?;
    m.add_function(wrap_pyfunction!(histogram, m)?)?;
    m.add_function(wrap_pyfunction!(sort, m)?)?;
    m.add_function(wrap_pyfunction!(masked, m)?)?;
    m.add_function(wrap_pyfunction!(putmask, m)?)?;
    m.add_function(wrap_pyfunction!(place, m)?)?;
    m.add_function(wrap_pyfunction!(flatnonzero, m)?)?;
    m.add_function(wrap_pyfunction!(searchsorted, m)?)?;
    m.add_function(wrap_pyfunction!(unique_all, m)?)?;
    m.add_function(wrap_pyfunction!(argreduce, m)?)?;
    m.add_function(wrap_pyfunction!(scan, m)?)?;
    m.add_function(wrap_pyfunction!(softmax, m)?)?;
    m.add_function(wrap_pyfunction!(where_, m)?)?;
    m.add_function(wrap_pyfunction!(clip, m)?)?;
    m.add_function(wrap_pyfunction!(linalg2, m)?)?;
    m.add_function(wrap_pyfunction!(tensordot, m)?)?;
    m.add_function(wrap_pyfunction!(trace, m)?)?;
    m.add_function(wrap_pyfunction!(einsum, m)?)?;
    m.add_function(wrap_pyfunction!(einsum_path, m)?)?;
    m.add_function(wrap_pyfunction!(join, m)?)?;
    m.add_function(wrap_pyfunction!(split_at, m)?)?;
    m.add_function(wrap_pyfunction!(flip, m)?)?;
    m.add_function(wrap_pyfunction!(roll, m)?)?;
    m.add_function(wrap_pyfunction!(tile, m)?)?;
    m.add_function(wrap_pyfunction!(repeat, m)?)?;
    m.add_function(wrap_pyfunction!(pad, m)?)?;
    m.add_function(wrap_pyfunction!(pad_axis, m)?)?;
    m.add_function(wrap_pyfunction!(take, m)?)?;
    m.add_function(wrap_pyfunction!(filled, m)?)?;
    m.add_function(wrap_pyfunction!(arange, m)?)?;
    m.add_function(wrap_pyfunction!(linspace, m)?)?;
    m.add_function(wrap_pyfunction!(eye, m)?)?;
    m.add_function(wrap_pyfunction!(check_dtype, m)?)?;
    Ok(())
}
