//! `numpy.linalg.norm`, `vector_norm` and `matrix_norm`: every order NumPy takes, composed of
//! reductions (and [`svdvals`](super::svdvals) for the 2, −2 and nuclear matrix norms).

use super::compute_dtype;
use crate::array::Array;
use crate::error::{Error, Result};
use crate::layout::Axes;

/// A norm's `ord`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NormOrder {
    /// NumPy's `None`: the 2-norm of vectors, Frobenius of matrices.
    Default,
    /// `'fro'` (matrices).
    Fro,
    /// `'nuc'` (matrices): the sum of the singular values.
    Nuc,
    /// `inf`.
    Inf,
    /// `-inf`.
    NegInf,
    /// A number: any p for vectors (0 counts non-zeros); 1, −1, 2, −2 for matrices.
    P(f64),
}

fn float(op: &'static str, x: &Array) -> Result<Array> {
    let d = compute_dtype(op, x)?;
    if x.dtype() == d {
        Ok(x.clone())
    } else {
        x.astype(d)
    }
}

fn to_axes(axes: &[isize]) -> Axes {
    axes.to_vec().into()
}

/// `numpy.linalg.vector_norm(x, ord, axis, keepdims)`: the p-norm over `axis` (all axes when
/// `None`).
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// use gpuarray::linalg::{NormOrder, vector_norm};
/// let x = gpuarray::Array::from_slice(&dev, &[3.0f32, -4.0], &[2])?;
/// assert_eq!(vector_norm(&x, NormOrder::Default, None, false)?.to_vec::<f32>()?, vec![5.0]);
/// assert_eq!(vector_norm(&x, NormOrder::Inf, None, false)?.to_vec::<f32>()?, vec![4.0]);
/// assert_eq!(vector_norm(&x, NormOrder::P(1.0), None, false)?.to_vec::<f32>()?, vec![7.0]);
/// # Ok(()) }
/// ```
pub fn vector_norm(
    x: &Array,
    ord: NormOrder,
    axis: Option<&[isize]>,
    keepdims: bool,
) -> Result<Array> {
    let op = "vector_norm";
    let x = float(op, x)?;
    let all: Vec<isize> = (0..x.ndim() as isize).collect();
    let axes = to_axes(axis.unwrap_or(&all));
    let a = x.abs()?;
    match ord {
        NormOrder::Default | NormOrder::P(2.0) => a.mul(&a)?.sum(axes, keepdims)?.sqrt(),
        NormOrder::Inf => a.max(axes, keepdims),
        NormOrder::NegInf => a.min(axes, keepdims),
        NormOrder::P(0.0) => a.ne(0.0)?.astype(x.dtype())?.sum(axes, keepdims),
        NormOrder::P(1.0) => a.sum(axes, keepdims),
        NormOrder::P(p) => a.pow(p)?.sum(axes, keepdims)?.pow(1.0 / p),
        NormOrder::Fro | NormOrder::Nuc => Err(Error::invalid(
            op,
            format!("Invalid norm order '{}' for vectors", name(ord)),
        )),
    }
}

fn name(ord: NormOrder) -> String {
    match ord {
        NormOrder::Default => "None".into(),
        NormOrder::Fro => "fro".into(),
        NormOrder::Nuc => "nuc".into(),
        NormOrder::Inf => "inf".into(),
        NormOrder::NegInf => "-inf".into(),
        NormOrder::P(p) => p.to_string(),
    }
}

/// `numpy.linalg.matrix_norm(x, ord, keepdims)`: the norm of each matrix of the stack (the
/// last two axes).
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// use gpuarray::linalg::{NormOrder, matrix_norm};
/// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, -2.0, 3.0, 4.0], &[2, 2])?;
/// assert_eq!(matrix_norm(&a, NormOrder::P(1.0), false)?.to_vec::<f32>()?, vec![6.0]);
/// assert_eq!(matrix_norm(&a, NormOrder::Inf, false)?.to_vec::<f32>()?, vec![7.0]);
/// # Ok(()) }
/// ```
#[cfg(not(target_arch = "wasm32"))]
pub fn matrix_norm(x: &Array, ord: NormOrder, keepdims: bool) -> Result<Array> {
    matrix_norm_axes(x, ord, (-2, -1), keepdims)
}

/// The matrix norm over the axis pair `(row, col)`.
#[cfg(not(target_arch = "wasm32"))]
fn matrix_norm_axes(
    x: &Array,
    ord: NormOrder,
    (row, col): (isize, isize),
    keepdims: bool,
) -> Result<Array> {
    let op = "matrix_norm";
    let x = float(op, x)?;
    let nd = x.ndim() as isize;
    if nd < 2 {
        return Err(Error::LinAlg {
            op,
            index: None,
            msg: format!("{nd}-dimensional array given. Array must be at least two-dimensional"),
        });
    }
    let norm_axis = |a: isize| crate::layout::normalize_axis(op, a, nd as usize);
    let (r, c) = (norm_axis(row)? as isize, norm_axis(col)? as isize);
    if r == c {
        return Err(Error::invalid(op, "Duplicate axes given."));
    }
    // Reductions over one axis of the pair, then the other (the first removes an axis: the
    // second's index shifts when it came after).
    let then = |first: isize, second: isize| if second > first { second - 1 } else { second };
    let result = match ord {
        NormOrder::Default | NormOrder::Fro => x.mul(&x)?.sum(to_axes(&[r, c]), false)?.sqrt()?,
        NormOrder::P(1.0) => x.abs()?.sum(r, false)?.max(then(r, c), false)?,
        NormOrder::P(-1.0) => x.abs()?.sum(r, false)?.min(then(r, c), false)?,
        NormOrder::Inf => x.abs()?.sum(c, false)?.max(then(c, r), false)?,
        NormOrder::NegInf => x.abs()?.sum(c, false)?.min(then(c, r), false)?,
        NormOrder::P(p) if p == 2.0 || p == -2.0 => {
            let s = super::svdvals(&last_two(&x, r, c)?)?;
            if p > 0.0 {
                s.max(-1, false)?
            } else {
                s.min(-1, false)?
            }
        }
        NormOrder::Nuc => super::svdvals(&last_two(&x, r, c)?)?.sum(-1, false)?,
        NormOrder::P(_) => return Err(Error::invalid(op, "Invalid norm order for matrices.")),
    };
    if !keepdims {
        return Ok(result);
    }
    let (lo, hi) = (r.min(c), r.max(c));
    result.expand_dims(lo)?.expand_dims(hi)
}

/// `x` with axes `r`, `c` moved to the end (in that order).
#[cfg(not(target_arch = "wasm32"))]
fn last_two(x: &Array, r: isize, c: isize) -> Result<Array> {
    let mut order: Vec<usize> = (0..x.ndim())
        .filter(|&a| a as isize != r && a as isize != c)
        .collect();
    order.push(r as usize);
    order.push(c as usize);
    x.transpose(&order)
}

/// `numpy.linalg.norm(x, ord, axis, keepdims)`: a vector norm over one axis, a matrix norm over
/// two, and with no axis the 2-norm of the flattened array (`ord` `Default`) or the norm of a 1-D
/// or 2-D array by its order.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// use gpuarray::linalg::{NormOrder, norm};
/// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 2.0, 4.0], &[2, 2])?;
/// assert_eq!(norm(&a, NormOrder::Default, None, false)?.to_vec::<f32>()?, vec![5.0]);
/// assert_eq!(norm(&a, NormOrder::Inf, Some(&[1]), false)?.to_vec::<f32>()?, vec![2.0, 4.0]);
/// # Ok(()) }
/// ```
#[cfg(not(target_arch = "wasm32"))]
pub fn norm(x: &Array, ord: NormOrder, axis: Option<&[isize]>, keepdims: bool) -> Result<Array> {
    let op = "norm";
    match axis {
        None => match (ord, x.ndim()) {
            (NormOrder::Default, _) => {
                let flat = vector_norm(x, NormOrder::Default, None, false)?;
                if keepdims {
                    flat.reshape(&vec![1; x.ndim()])
                } else {
                    Ok(flat)
                }
            }
            (_, 1) => vector_norm(x, ord, Some(&[0]), keepdims),
            (_, 2) => matrix_norm_axes(x, ord, (0, 1), keepdims),
            _ => Err(Error::invalid(op, "Improper number of dimensions to norm.")),
        },
        Some([a]) => vector_norm(x, ord, Some(&[*a]), keepdims),
        Some([r, c]) => matrix_norm_axes(x, ord, (*r, *c), keepdims),
        Some(_) => Err(Error::invalid(op, "Improper number of dimensions to norm.")),
    }
}
