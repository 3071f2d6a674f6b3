//! The `numpy.linalg` functions composed of the factorizations and the array ops:
//! `matrix_power`, `multi_dot`, `cross`, `pinv`, `matrix_rank`, `lstsq`, `cond`,
//! `tensorsolve`, `tensorinv`.

use super::Stack;
#[cfg(not(target_arch = "wasm32"))]
use super::mt;
use crate::array::Array;
use crate::error::{Error, Result};
use crate::layout::SliceArg;
#[cfg(not(target_arch = "wasm32"))]
use crate::ops::elementwise::where_;

/// `numpy.linalg.matrix_power(a, k)`: a square matrix (or stack) to an integer power by
/// repeated squaring; `k = 0` gives identities of a's dtype, `k < 0` the power of the inverse
/// (a singular matrix is then `Err(LinAlg)`).
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let a = gpuarray::Array::from_slice(&dev, &[1i32, 1, 1, 0], &[2, 2])?;
/// assert_eq!(gpuarray::linalg::matrix_power(&a, 10)?.to_vec::<i32>()?, vec![89, 55, 55, 34]);
/// # Ok(()) }
/// ```
pub fn matrix_power(a: &Array, k: i64) -> Result<Array> {
    let op = "matrix_power";
    let s = Stack::of(op, a, true)?;
    if k == 0 {
        return super::identities(a, &s, s.rows, s.rows, a.dtype());
    }
    let base = if k < 0 {
        #[cfg(not(target_arch = "wasm32"))]
        {
            super::inv(a)?
        }
        #[cfg(target_arch = "wasm32")]
        {
            return Err(crate::error::needs_blocking_readback(
                op,
                "a negative power (its inverse's singularity check)",
            ));
        }
    } else {
        a.clone()
    };
    let mut k = k.unsigned_abs();
    let mut square = base;
    let mut result: Option<Array> = None;
    loop {
        if k & 1 == 1 {
            result = Some(match result {
                None => square.clone(),
                Some(r) => r.matmul(&square)?,
            });
        }
        k >>= 1;
        if k == 0 {
            break;
        }
        square = square.matmul(&square)?;
    }
    Ok(result.expect("k != 0 sets a bit"))
}

/// The cheapest parenthesisation of a matrix chain (dims[i] × dims[i + 1] for matrix i), as
/// NumPy's `_multi_dot_matrix_chain_order`: `split[i][j]` is where chain i..=j splits.
fn chain_order(dims: &[usize]) -> Vec<Vec<usize>> {
    let n = dims.len() - 1;
    let mut cost = vec![vec![0u128; n]; n];
    let mut split = vec![vec![0usize; n]; n];
    for len in 1..n {
        for i in 0..n - len {
            let j = i + len;
            cost[i][j] = u128::MAX;
            for k in i..j {
                let c = cost[i][k] + cost[k + 1][j] + (dims[i] * dims[k + 1] * dims[j + 1]) as u128;
                if c < cost[i][j] {
                    cost[i][j] = c;
                    split[i][j] = k;
                }
            }
        }
    }
    split
}

fn chain(arrays: &[Array], split: &[Vec<usize>], i: usize, j: usize) -> Result<Array> {
    if i == j {
        return Ok(arrays[i].clone());
    }
    let k = split[i][j];
    chain(arrays, split, i, k)?.matmul(&chain(arrays, split, k + 1, j)?)
}

/// `numpy.linalg.multi_dot(arrays)`: the product of two or more matrices in the cheapest order
/// (dynamic programming over the chain, as NumPy); the first may be 1-D (a row vector) and the
/// last 1-D (a column vector), the others 2-D.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// use gpuarray::{Array, DType};
/// let a = Array::ones(&dev, &[10, 100], DType::F32)?;
/// let b = Array::ones(&dev, &[100, 5], DType::F32)?;
/// let c = Array::ones(&dev, &[5], DType::F32)?;
/// let r = gpuarray::linalg::multi_dot(&[&a, &b, &c])?;
/// assert_eq!(r.shape(), &[10]);
/// assert_eq!(r.to_vec::<f32>()?[0], 500.0);
/// # Ok(()) }
/// ```
pub fn multi_dot(arrays: &[&Array]) -> Result<Array> {
    let op = "multi_dot";
    let n = arrays.len();
    if n < 2 {
        return Err(Error::invalid(op, "Expecting at least two arrays."));
    }
    let mut mats: Vec<Array> = Vec::with_capacity(n);
    for (i, a) in arrays.iter().enumerate() {
        let edge_vector = a.ndim() == 1 && (i == 0 || i == n - 1);
        let m = if edge_vector {
            let len = a.len() as isize;
            if i == 0 {
                a.reshape(&[1, len])?
            } else {
                a.reshape(&[len, 1])?
            }
        } else {
            (*a).clone()
        };
        if m.ndim() != 2 {
            return Err(Error::LinAlg {
                op,
                index: None,
                msg: format!(
                    "{}-dimensional array given. Array must be two-dimensional",
                    a.ndim()
                ),
            });
        }
        mats.push(m);
    }
    let mut dims: Vec<usize> = mats.iter().map(|m| m.shape()[0]).collect();
    dims.push(mats[n - 1].shape()[1]);
    let product = chain(&mats, &chain_order(&dims), 0, n - 1)?;
    match (arrays[0].ndim() == 1, arrays[n - 1].ndim() == 1) {
        (true, true) => product.reshape(&[]),
        (true, false) => product.reshape(&[product.shape()[1] as isize]),
        (false, true) => product.reshape(&[product.shape()[0] as isize]),
        (false, false) => Ok(product),
    }
}

/// `a[..., i]` of an axis moved last.
fn component(a: &Array, i: usize) -> Result<Array> {
    let mut args = vec![SliceArg::range(None, None, 1); a.ndim() - 1];
    args.push(SliceArg::Index(i as isize));
    a.slice(&args)
}

/// `numpy.cross(a, b, axis=-1)`: the cross product of 3-vectors (2-vectors take z = 0; two
/// 2-vectors give the z component alone), broadcast over the other axes.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// use gpuarray::Array;
/// let x = Array::from_slice(&dev, &[1.0f32, 0.0, 0.0], &[3])?;
/// let y = Array::from_slice(&dev, &[0.0f32, 1.0, 0.0], &[3])?;
/// assert_eq!(gpuarray::linalg::cross(&x, &y, -1)?.to_vec::<f32>()?, vec![0.0, 0.0, 1.0]);
/// # Ok(()) }
/// ```
pub fn cross(a: &Array, b: &Array, axis: isize) -> Result<Array> {
    let op = "cross";
    if a.ndim() == 0 || b.ndim() == 0 {
        return Err(Error::invalid(
            op,
            "cross needs arrays of at least one dimension",
        ));
    }
    let a = a.swapaxes(axis, -1)?;
    let b = b.swapaxes(axis, -1)?;
    let (la, lb) = (a.shape()[a.ndim() - 1], b.shape()[b.ndim() - 1]);
    if !matches!(la, 2 | 3) || !matches!(lb, 2 | 3) {
        return Err(Error::invalid(
            op,
            format!(
                "incompatible dimensions for cross product (dimension must be 2 or 3), got {la} and {lb}"
            ),
        ));
    }
    let (a0, a1, b0, b1) = (
        component(&a, 0)?,
        component(&a, 1)?,
        component(&b, 0)?,
        component(&b, 1)?,
    );
    let z = a0.mul(&b1)?.sub(&a1.mul(&b0)?)?;
    if la == 2 && lb == 2 {
        return Ok(z);
    }
    let zero = |x: &Array| x.mul(0.0);
    let a2 = if la == 3 {
        component(&a, 2)?
    } else {
        zero(&a0)?
    };
    let b2 = if lb == 3 {
        component(&b, 2)?
    } else {
        zero(&b0)?
    };
    let x = a1.mul(&b2)?.sub(&a2.mul(&b1)?)?;
    let y = a2.mul(&b0)?.sub(&a0.mul(&b2)?)?;
    crate::ops::join::stack(&[&x, &y, &z], -1)?
        .swapaxes(axis, -1)?
        .contiguous()
}

/// The reciprocal of each singular value above `cutoff` (a stack of one per matrix), 0 below.
#[cfg(not(target_arch = "wasm32"))]
fn inverted_values(s: &Array, rcond: f64) -> Result<Array> {
    let cutoff = s.max(-1, true)?.mul(rcond)?;
    let keep = s.gt(&cutoff)?;
    where_(&keep, &s.reciprocal()?, 0.0)
}

/// `numpy.linalg.pinv(a, rcond)`: the Moore–Penrose pseudo-inverse of each matrix of the stack
/// through its SVD, singular values at or below `rcond`·max(S) taken as zero. NumPy's default
/// `rcond` is 1e-15.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let a = gpuarray::Array::from_slice(&dev, &[2.0f32, 0.0, 0.0, 0.0], &[2, 2])?;
/// assert_eq!(gpuarray::linalg::pinv(&a, 1e-15)?.to_vec::<f32>()?, vec![0.5, 0.0, 0.0, 0.0]);
/// # Ok(()) }
/// ```
#[cfg(not(target_arch = "wasm32"))]
pub fn pinv(a: &Array, rcond: f64) -> Result<Array> {
    let (u, s, vh) = super::svd(a, false)?;
    let si = inverted_values(&s, rcond)?;
    // V · diag(1/S) · Uᵀ
    mt(&vh)?.mul(&si.expand_dims(-2)?)?.matmul(&mt(&u)?)
}

/// `numpy.linalg.matrix_rank(a, tol=None, rtol=None)`: the number of singular values above
/// `tol` (default: max(S)·`rtol`, `rtol` by default max(m, n)·ε of the dtype) per matrix, as
/// int64. Arrays of fewer than two dimensions have rank 1 unless all zero.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 2.0, 4.0], &[2, 2])?;
/// assert_eq!(gpuarray::linalg::matrix_rank(&a, None, None)?.to_vec::<i64>()?, vec![1]);
/// # Ok(()) }
/// ```
#[cfg(not(target_arch = "wasm32"))]
pub fn matrix_rank(a: &Array, tol: Option<f64>, rtol: Option<f64>) -> Result<Array> {
    if a.ndim() < 2 {
        return a.ne(0.0)?.any(None, false)?.astype(crate::DType::I64);
    }
    let s = super::svdvals(a)?;
    let st = Stack::of("matrix_rank", a, false)?;
    let eps = if s.dtype() == crate::DType::F32 {
        f32::EPSILON as f64
    } else {
        f64::EPSILON
    };
    let above = match tol {
        Some(t) => s.gt(t)?,
        None => {
            let rtol = rtol.unwrap_or(st.rows.max(st.cols) as f64 * eps);
            s.gt(&s.max(-1, true)?.mul(rtol)?)?
        }
    };
    above.sum_dtype(-1, false, crate::DType::I64)
}

/// What [`lstsq`] returns: NumPy's four results.
#[derive(Debug, Clone)]
pub struct Lstsq {
    /// The least-squares solution (n,) or (n, k).
    pub x: Array,
    /// Squared residual norms per column (k,) (shape (1,) for a vector b) when a has full column
    /// rank and more rows than columns; otherwise empty.
    pub residuals: Array,
    /// The effective rank of a.
    pub rank: usize,
    /// a's singular values, descending.
    pub s: Array,
}

#[cfg(not(target_arch = "wasm32"))]
fn lstsq_parts(a: &Array, b: &Array, rcond: Option<f64>) -> Result<(Array, Array, Array, bool)> {
    let op = "lstsq";
    if a.ndim() != 2 {
        return Err(Error::LinAlg {
            op,
            index: None,
            msg: format!(
                "{}-dimensional array given. Array must be two-dimensional",
                a.ndim()
            ),
        });
    }
    let (m, n) = (a.shape()[0], a.shape()[1]);
    let vector = b.ndim() == 1;
    let bm = if vector {
        b.reshape(&[b.len() as isize, 1])?
    } else {
        b.clone()
    };
    if bm.ndim() != 2 || bm.shape()[0] != m {
        return Err(Error::LinAlg {
            op,
            index: None,
            msg: format!(
                "Incompatible dimensions: a {:?}, b {:?}",
                a.shape(),
                b.shape()
            ),
        });
    }
    let dtype = super::compute_dtype2(op, a, b)?;
    let eps = if dtype == crate::DType::F32 {
        f32::EPSILON as f64
    } else {
        f64::EPSILON
    };
    let rcond = rcond.unwrap_or(eps * m.max(n) as f64);
    let (u, s, vh) = super::svd(&a.astype(dtype)?, false)?;
    let si = inverted_values(&s, rcond)?;
    let bm = bm.astype(dtype)?;
    // x = V · diag(1/S) · Uᵀ · b
    let x = mt(&vh)?.matmul(&si.expand_dims(-1)?.mul(&mt(&u)?.matmul(&bm)?)?)?;
    let rank = si.ne(0.0)?;
    Ok((x, s, rank, vector))
}

/// `numpy.linalg.lstsq(a, b, rcond)`: the x minimising ‖b − a·x‖₂ for a 2-D `a` (m, n) and b
/// (m,) or (m, k), through a's SVD with singular values at or below `rcond`·max(S) dropped
/// (NumPy 2's default `rcond`: ε·max(m, n)).
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// use gpuarray::Array;
/// // Fit y = c0 + c1·t through (0, 1), (1, 3), (2, 5).
/// let a = Array::from_slice(&dev, &[1.0f32, 0.0, 1.0, 1.0, 1.0, 2.0], &[3, 2])?;
/// let y = Array::from_slice(&dev, &[1.0f32, 3.0, 5.0], &[3])?;
/// let fit = gpuarray::linalg::lstsq(&a, &y, None)?;
/// let c = fit.x.to_vec::<f32>()?;
/// assert!((c[0] - 1.0).abs() < 1e-5 && (c[1] - 2.0).abs() < 1e-5);
/// assert_eq!(fit.rank, 2);
/// # Ok(()) }
/// ```
#[cfg(not(target_arch = "wasm32"))]
pub fn lstsq(a: &Array, b: &Array, rcond: Option<f64>) -> Result<Lstsq> {
    let (x, s, rank, vector) = lstsq_parts(a, b, rcond)?;
    let rank = rank
        .sum_dtype(None, false, crate::DType::I64)?
        .to_vec::<i64>()?[0] as usize;
    let (m, n) = (a.shape()[0], a.shape()[1]);
    let bm = if vector {
        b.reshape(&[m as isize, 1])?
    } else {
        b.clone()
    };
    let residuals = if rank == n && m > n {
        let r = bm
            .astype(x.dtype())?
            .sub(&a.astype(x.dtype())?.matmul(&x)?)?;
        r.mul(&r)?.sum(0, false)?
    } else {
        Array::zeros(a.device(), &[0], x.dtype())?
    };
    let x = if vector { x.reshape(&[n as isize])? } else { x };
    Ok(Lstsq {
        x,
        residuals,
        rank,
        s,
    })
}

/// `numpy.linalg.cond(x, p)`: the condition number of each matrix of the stack: σ_max/σ_min
/// for `Default` and 2 (−2: the reciprocal), otherwise ‖x‖·‖x⁻¹‖ in the order's norm (a
/// singular matrix gives inf, as NumPy).
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// use gpuarray::linalg::{NormOrder, cond};
/// let a = gpuarray::Array::from_slice(&dev, &[4.0f32, 0.0, 0.0, 0.5], &[2, 2])?;
/// assert_eq!(cond(&a, NormOrder::Default)?.to_vec::<f32>()?, vec![8.0]);
/// assert_eq!(cond(&a, NormOrder::P(1.0))?.to_vec::<f32>()?, vec![8.0]);
/// # Ok(()) }
/// ```
#[cfg(not(target_arch = "wasm32"))]
pub fn cond(x: &Array, p: super::NormOrder) -> Result<Array> {
    use super::NormOrder;
    Stack::of("cond", x, false)?;
    match p {
        NormOrder::Default | NormOrder::P(2.0) | NormOrder::P(-2.0) => {
            let s = super::svdvals(x)?;
            let (big, small) = (s.max(-1, false)?, s.min(-1, false)?);
            if p == NormOrder::P(-2.0) {
                small.div(&big)
            } else {
                big.div(&small)
            }
        }
        _ => {
            Stack::of("cond", x, true)?;
            let inverse = super::lu::inv_unchecked(x)?.0;
            let r =
                super::matrix_norm(x, p, false)?.mul(&super::matrix_norm(&inverse, p, false)?)?;
            // An inverse of a singular matrix is inf/NaN: NaN becomes inf unless x had NaN.
            let nan_in_x = x.isnan()?.any(crate::Axes::from(vec![-2, -1]), false)?;
            where_(
                &r.isnan()?.logical_and(&nan_in_x.logical_not()?)?,
                f64::INFINITY,
                &r,
            )
        }
    }
}

/// `numpy.linalg.tensorsolve(a, b)`: x with `tensordot(a, x, x.ndim) == b`, a's first b.ndim
/// axes matching b and the product of the rest equal to b's size.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// use gpuarray::{Array, DType};
/// let a = Array::eye(&dev, 6, DType::F32)?.reshape(&[6, 2, 3])?.mul(2.0)?;
/// let b = Array::ones(&dev, &[6], DType::F32)?;
/// let x = gpuarray::linalg::tensorsolve(&a, &b)?;
/// assert_eq!((x.shape(), x.to_vec::<f32>()?[0]), (&[2usize, 3][..], 0.5));
/// # Ok(()) }
/// ```
#[cfg(not(target_arch = "wasm32"))]
pub fn tensorsolve(a: &Array, b: &Array) -> Result<Array> {
    let op = "tensorsolve";
    if a.ndim() < b.ndim() || a.shape()[..b.ndim()] != *b.shape() {
        return Err(Error::shape(
            op,
            format!(
                "a's leading axes {:?} must be b's shape {:?}",
                a.shape(),
                b.shape()
            ),
        ));
    }
    let rest = &a.shape()[b.ndim()..];
    let prod: usize = rest.iter().product();
    if prod != b.len() {
        return Err(Error::LinAlg {
            op,
            index: None,
            msg: format!(
                "the product of a's trailing axes {rest:?} ({prod}) must equal b's size ({})",
                b.len()
            ),
        });
    }
    let x = super::solve(
        &a.reshape(&[prod as isize, prod as isize])?,
        &b.reshape(&[prod as isize])?,
    )?;
    let shape: Vec<isize> = rest.iter().map(|&d| d as isize).collect();
    x.reshape(&shape)
}

/// `numpy.linalg.tensorinv(a, ind)`: the inverse of `a` as an operator from its last axes
/// (from `ind` on) to its first `ind`; the result has shape `a.shape[ind:] + a.shape[:ind]`.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// use gpuarray::{Array, DType};
/// let a = Array::eye(&dev, 6, DType::F32)?.reshape(&[6, 2, 3])?.mul(4.0)?;
/// let ai = gpuarray::linalg::tensorinv(&a, 1)?;
/// assert_eq!(ai.shape(), &[2, 3, 6]);
/// # Ok(()) }
/// ```
#[cfg(not(target_arch = "wasm32"))]
pub fn tensorinv(a: &Array, ind: usize) -> Result<Array> {
    let op = "tensorinv";
    if ind == 0 || ind > a.ndim() {
        return Err(Error::invalid(
            op,
            format!("ind must be a positive integer at most {}", a.ndim()),
        ));
    }
    let (front, back) = a.shape().split_at(ind);
    let (p, q): (usize, usize) = (front.iter().product(), back.iter().product());
    if p != q {
        return Err(Error::LinAlg {
            op,
            index: None,
            msg: format!("the products of a's first {ind} axes ({p}) and the rest ({q}) differ"),
        });
    }
    let inverse = super::inv(&a.reshape(&[p as isize, q as isize])?)?;
    let shape: Vec<isize> = back.iter().chain(front).map(|&d| d as isize).collect();
    inverse.reshape(&shape)
}

#[cfg(test)]
mod tests {
    use super::chain_order;

    #[test]
    fn the_chain_order_is_numpys() {
        // (10×100)(100×5)(5×50): (AB)C costs 7500, A(BC) 75000.
        let split = chain_order(&[10, 100, 5, 50]);
        assert_eq!(split[0][2], 1);
    }
}
