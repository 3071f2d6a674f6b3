//! `numpy.tril` and `numpy.triu`: one triangle of the last two axes, the rest zeroed.
//!
//! As NumPy does (`where(tri(n, m, k), x, 0)`), the triangle is a boolean mask built from two
//! broadcast index ranges, column minus row compared with `k`, and `where` selects through it:
//! every batch matrix shares the one `n`×`m` mask, and any strided view is read in place.

use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::ops::elementwise::where_;

/// Which triangle is kept.
#[derive(Clone, Copy)]
enum Keep {
    /// Elements with column - row <= k.
    Lower,
    /// Elements with column - row >= k.
    Upper,
}

impl Array {
    /// `numpy.tril(self, k)`: the elements on and below diagonal `k` of the last two axes (`k > 0`
    /// above the main diagonal, `k < 0` below), zeros elsewhere; batched over leading axes. A 1-D
    /// array of length n is taken as the rows of an n×n matrix, as NumPy does; a 0-d array is
    /// refused.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1, 2, 3, 4, 5, 6], &[2, 3])?;
    /// assert_eq!(a.tril(0)?.to_vec::<i32>()?, vec![1, 0, 0, 4, 5, 0]);
    /// assert_eq!(a.tril(1)?.to_vec::<i32>()?, vec![1, 2, 0, 4, 5, 6]);
    /// # Ok(()) }
    /// ```
    pub fn tril(&self, k: isize) -> Result<Array> {
        triangle(self, "tril", k, Keep::Lower)
    }

    /// `numpy.triu(self, k)`: the elements on and above diagonal `k` of the last two axes, zeros
    /// elsewhere; otherwise as [`Array::tril`].
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0, 4.0], &[2, 2])?;
    /// assert_eq!(a.triu(0)?.to_vec::<f32>()?, vec![1.0, 2.0, 0.0, 4.0]);
    /// assert_eq!(a.triu(-1)?.to_vec::<f32>()?, vec![1.0, 2.0, 3.0, 4.0]);
    /// # Ok(()) }
    /// ```
    pub fn triu(&self, k: isize) -> Result<Array> {
        triangle(self, "triu", k, Keep::Upper)
    }
}

fn triangle(x: &Array, op: &'static str, k: isize, keep: Keep) -> Result<Array> {
    let shape = x.shape();
    let (n, m) = match shape {
        [] => {
            return Err(Error::invalid(
                op,
                "needs an array of at least one dimension, got a 0-d array",
            ));
        }
        [len] => (*len, *len),
        [.., n, m] => (*n, *m),
    };
    if n > i32::MAX as usize || m > i32::MAX as usize {
        return Err(Error::invalid(
            op,
            format!("a {n}x{m} matrix has indices past int32, which the mask is built in"),
        ));
    }
    let dev = x.device();
    let rows = Array::arange(dev, 0.0, n as f64, 1.0, DType::I32)?.reshape(&[n as isize, 1])?;
    let cols = Array::arange(dev, 0.0, m as f64, 1.0, DType::I32)?.reshape(&[1, m as isize])?;
    // column - row ranges over [-(n - 1), m - 1]: a k beyond it selects all or nothing, and
    // clamping keeps it inside i32.
    let k = k.clamp(-(n as isize), m as isize) as f64;
    let offset = cols.sub(&rows)?;
    let mask = match keep {
        Keep::Lower => offset.le(k)?,
        Keep::Upper => offset.ge(k)?,
    };
    where_(&mask, x, 0.0)
}
