//! Reductions of complex arrays through their parts (`Array::parts`: a real view with a last
//! axis of (real, imaginary)): a sum, mean or cumulative sum of complex numbers is the same
//! reduction of each part, so the real kernels do it with no kernel of their own; `var` and
//! `std` are real (NumPy: the mean of |x − mean|², computed as re² + im²). Products, `max` and
//! `min` (NumPy's lexicographic order, the first NaN winning) fold with the complex element-wise
//! kernels: neighbours combined pairwise, log2 n launches, the order of the operands kept so
//! that NaN and ties resolve as NumPy's left-to-right loop does; `cumprod` doubles its reach
//! each launch (Hillis–Steele).

use crate::array::Array;
use crate::error::{Error, Result};
use crate::layout::{Axes, SliceArg, dims_product, normalize_axis, resolve_axes};
use crate::ops::join::concatenate;

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

/// A fold of the complex `a` over `axes` by `combine`, an associative op applied as
/// `combine(left, right)` to neighbours. An empty fold is `identity`, or an error without one.
fn fold(
    op: &'static str,
    a: &Array,
    axes: Axes,
    keepdims: bool,
    identity: Option<f64>,
    combine: fn(&Array, &Array) -> Result<Array>,
) -> Result<Array> {
    let reduced = resolve_axes(op, &axes, a.ndim())?;
    let kept: Vec<usize> = (0..a.ndim()).filter(|d| !reduced.contains(d)).collect();
    let out_shape: Vec<usize> = (0..a.ndim())
        .filter_map(|d| match (reduced.contains(&d), keepdims) {
            (false, _) => Some(a.shape()[d]),
            (true, true) => Some(1),
            (true, false) => None,
        })
        .collect();
    let dims = |v: &[usize]| v.iter().map(|&d| d as isize).collect::<Vec<_>>();
    let k = dims_product(reduced.iter().map(|&d| &a.shape()[d]));
    if k == 0 {
        return match identity {
            Some(v) => Array::full(a.device(), &out_shape, v, a.dtype()),
            None => Err(Error::invalid(
                op,
                format!(
                    "zero-size array (shape {:?}) to reduction operation {op} which has no identity",
                    a.shape()
                ),
            )),
        };
    }
    // The reduced axes last and flattened into one: rows of k.
    let perm: Vec<usize> = kept.iter().chain(&reduced).copied().collect();
    let mut rows_shape: Vec<usize> = kept.iter().map(|&d| a.shape()[d]).collect();
    rows_shape.push(k);
    let mut x = a
        .transpose(&perm)?
        .contiguous()?
        .reshape(&dims(&rows_shape))?;
    let lead = vec![SliceArg::full(); rows_shape.len() - 1];
    let last = |arg: SliceArg| -> Vec<SliceArg> { lead.iter().cloned().chain([arg]).collect() };
    // Odd ends set aside at each level: each follows everything still in `x`.
    let mut ends = Vec::new();
    let mut n = k as isize;
    while n > 1 {
        if n % 2 == 1 {
            ends.push(x.slice(&last(SliceArg::range(Some(n - 1), Some(n), 1)))?);
            x = x.slice(&last(SliceArg::range(Some(0), Some(n - 1), 1)))?;
            n -= 1;
        }
        let even = x.slice(&last(SliceArg::range(Some(0), None, 2)))?;
        let odd = x.slice(&last(SliceArg::range(Some(1), None, 2)))?;
        x = combine(&even, &odd)?;
        n /= 2;
    }
    for end in ends.iter().rev() {
        x = combine(&x, end)?;
    }
    x.reshape(&dims(&out_shape))
}

pub(super) fn prod(a: &Array, axes: Axes, keepdims: bool) -> Result<Array> {
    fold("prod", a, axes, keepdims, Some(1.0), |x, y| x.mul(y))
}

pub(super) fn max(a: &Array, axes: Axes, keepdims: bool) -> Result<Array> {
    fold("max", a, axes, keepdims, None, |x, y| x.maximum(y))
}

pub(super) fn min(a: &Array, axes: Axes, keepdims: bool) -> Result<Array> {
    fold("min", a, axes, keepdims, None, |x, y| x.minimum(y))
}

/// Running products along `axis` (`None`: of the flattened array): after the launch with reach
/// r, each element holds the product of the r elements ending at it (fewer at the start).
pub(crate) fn cumprod(a: &Array, axis: Option<isize>) -> Result<Array> {
    let (x, ax) = match axis {
        Some(ax) => (a.clone(), normalize_axis("cumprod", ax, a.ndim())?),
        None => (a.contiguous()?.reshape(&[-1])?, 0),
    };
    // The scanned axis last (a swap is its own inverse).
    let last_axis = x.ndim() as isize - 1;
    let mut y = x.swapaxes(ax as isize, last_axis)?.contiguous()?;
    let n = *y.shape().last().unwrap_or(&1) as isize;
    let lead = vec![SliceArg::full(); y.ndim().saturating_sub(1)];
    let last = |arg: SliceArg| -> Vec<SliceArg> { lead.iter().cloned().chain([arg]).collect() };
    let mut reach = 1;
    while reach < n {
        let head = y.slice(&last(SliceArg::range(Some(0), Some(reach), 1)))?;
        let later = y.slice(&last(SliceArg::range(Some(reach), None, 1)))?;
        let before = y.slice(&last(SliceArg::range(Some(0), Some(n - reach), 1)))?;
        y = concatenate(&[&head, &before.mul(&later)?], -1)?;
        reach *= 2;
    }
    y.swapaxes(ax as isize, last_axis)?.contiguous()
}
