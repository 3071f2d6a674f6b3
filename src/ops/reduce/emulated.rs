//! Value reductions of the emulated integer dtypes (int64/uint64 word pairs, packed 8/16-bit):
//! a halving tree of the exact element-wise kernels. The reduced axes are moved last and the
//! array made contiguous as (m, k); each step combines the first and second halves of the rows
//! (one element-wise launch, and one more folding the odd column in), until one column is left:
//! about 2 n element reads in all, in log2(k) steps. Integer addition, multiplication, maximum
//! and minimum are associative, wrapping included, so the result is exact and the same in any
//! order: NumPy's.
//!
//! Result dtypes are NumPy's: sums and products of the 8/16-bit integers are int64/uint64 (the
//! platform integer NumPy accumulates in), max/min keep the dtype; `any`/`all` are the caller's
//! (through `!= 0`).

use super::ReduceOp;
use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::SliceArg;

/// The dtype a reduction of `dtype` by `op` gives (and is computed in).
pub(super) fn result_dtype(op: ReduceOp, dtype: DType) -> DType {
    match op {
        ReduceOp::Sum | ReduceOp::Prod if dtype.is_signed_int() => DType::I64,
        ReduceOp::Sum | ReduceOp::Prod => DType::U64,
        _ => dtype,
    }
}

/// Reduces the contiguous (m, k) array `x` (k > 0) along its last axis with `op`'s element-wise
/// counterpart: an (m, 1) array.
pub(super) fn reduce_rows(name: &'static str, op: ReduceOp, x: Array) -> Result<Array> {
    let combine = |a: &Array, b: &Array| -> Result<Array> {
        match op {
            ReduceOp::Sum => a.add(b),
            ReduceOp::Prod => a.mul(b),
            ReduceOp::Max => a.maximum(b),
            ReduceOp::Min => a.minimum(b),
            _ => Err(Error::Unsupported {
                op: name,
                feature: format!("{name} of dtype {} (no halving step for it)", a.dtype()),
            }),
        }
    };
    let cols = |a: &Array, start: usize, stop: usize| -> Result<Array> {
        a.slice(&[
            SliceArg::full(),
            SliceArg::range(Some(start as isize), Some(stop as isize), 1),
        ])
    };
    let mut x = x;
    let mut k = x.shape()[1];
    while k > 1 {
        let h = k / 2;
        let y = combine(&cols(&x, 0, h)?, &cols(&x, h, 2 * h)?)?;
        if k % 2 == 1 {
            // The odd last column joins the first.
            let first = cols(&y, 0, 1)?;
            first.assign(&combine(&first, &cols(&x, 2 * h, k)?)?)?;
        }
        x = y;
        k = h;
    }
    Ok(x)
}
