//! Reductions of complex arrays through their parts (`Array::parts`: a real view with a last
//! axis of (real, imaginary)): a sum, mean or cumulative sum of complex numbers is the same
//! reduction of each part, so the real kernels do it with no kernel of their own; `var` and
//! `std` are real (NumPy: the mean of |x − mean|², computed as re² + im²).

use crate::array::Array;
use crate::error::Result;
use crate::layout::{Axes, dims_product, normalize_axis, resolve_axes};

/// `axes` of a complex array as axes of its parts view (the same non-negative indices; the
/// part axis, last, is never reduced).
fn part_axes(op: &'static str, a: &Array, axes: &Axes) -> Result<Axes> {
    Ok(Axes::List(
        resolve_axes(op, axes, a.ndim())?
            .into_iter()
            .map(|d| d as isize)
            .collect(),
    ))
}

pub(super) fn sum(a: &Array, axes: Axes, keepdims: bool) -> Result<Array> {
    let p = a.parts().sum(part_axes("sum", a, &axes)?, keepdims)?;
    Array::from_parts(&p)
}

pub(super) fn mean(a: &Array, axes: Axes, keepdims: bool) -> Result<Array> {
    let ax = resolve_axes("mean", &axes, a.ndim())?;
    let k = dims_product(ax.iter().map(|&d| &a.shape()[d]));
    // NumPy: the sum divided by the count (a complex division by k + 0j).
    sum(a, axes, keepdims)?.div(k as f64)
}

pub(super) fn var(a: &Array, axes: Axes, ddof: usize, keepdims: bool) -> Result<Array> {
    let ax = resolve_axes("var", &axes, a.ndim())?;
    let k = dims_product(ax.iter().map(|&d| &a.shape()[d]));
    let d = a.sub(&mean(a, axes.clone(), true)?)?;
    let (re, im) = (d.real(), d.imag()?);
    let sq = re.mul(&re)?.add(&im.mul(&im)?)?;
    sq.sum(axes, keepdims)?.div(k.saturating_sub(ddof) as f64)
}

pub(crate) fn cumsum(a: &Array, axis: Option<isize>) -> Result<Array> {
    let (x, ax) = match axis {
        Some(ax) => (a.clone(), normalize_axis("cumsum", ax, a.ndim())?),
        None => (a.reshape(&[-1])?, 0),
    };
    Array::from_parts(&x.parts().cumsum(Some(ax as isize))?)
}
