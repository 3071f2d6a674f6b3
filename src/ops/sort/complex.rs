//! Sorting complex rows in NumPy's order: lexicographic (real part, then imaginary part), with
//! NaNs last in NumPy's classes — finite-or-infinite parts first, then a NaN imaginary part,
//! then a NaN real part, then both — each class in the order of its other part. Three stable
//! sorts of real keys do it, least significant first: the imaginary parts, the real parts,
//! then the NaN class.

use crate::array::Array;
use crate::dtype::DType;
use crate::error::Result;

/// `a` (rows × n) gathered row by row at the positions `idx` (rows × n, i32).
pub(super) fn take_rows(a: &Array, idx: &Array) -> Result<Array> {
    let (rows, n) = (idx.shape()[0], idx.shape()[1]);
    let starts = Array::arange(
        a.device(),
        0.0,
        (rows * n) as f64,
        n.max(1) as f64,
        DType::I32,
    )?
    .reshape(&[rows as isize, 1])?;
    let flat = idx.add(&starts)?.reshape(&[-1])?;
    a.reshape(&[-1])?
        .take_in_range(&flat, 0)?
        .reshape(&[rows as isize, n as isize])
}

/// The stable order (i32 positions within each row) of the complex `rows` (rows × n).
pub(super) fn argsort_rows(rows: &Array) -> Result<Array> {
    let re = rows.real().contiguous()?;
    let im = rows.imag()?.contiguous()?;
    let class = re
        .isnan()?
        .astype(DType::I32)?
        .mul(2.0)?
        .add(&im.isnan()?.astype(DType::I32)?)?;
    let mut order = im.argsort_i32(Some(-1))?;
    for key in [&re, &class] {
        let by_key = take_rows(key, &order)?.argsort_i32(Some(-1))?;
        order = take_rows(&order, &by_key)?;
    }
    Ok(order)
}
