//! Linear algebra on arrays: `matmul` and the NumPy products built on it.

use crate::array::Array;
use crate::error::{Error, Result};
use crate::layout::{checked_numel, dims_product, normalize_axis};
use crate::ops::matmul;

/// `a @ b` with complex operands (of one dtype): four real products on the tuned matmul over
/// the parts' views, (ArBr − AiBi) + i(ArBi + AiBr), as BLAS's cgemm/zgemm computes it.
fn complex_matmul(a: &Array, b: &Array) -> Result<Array> {
    if a.dtype() != b.dtype() {
        return Err(Error::DTypeMismatch {
            op: "matmul",
            expected: a.dtype(),
            got: b.dtype(),
        });
    }
    let (ar, ai, br, bi) = (a.real(), a.imag()?, b.real(), b.imag()?);
    let re = ar.matmul(&br)?.sub(&ai.matmul(&bi)?)?;
    let im = ar.matmul(&bi)?.add(&ai.matmul(&br)?)?;
    let out = Array::zeros(a.device(), re.shape(), a.dtype())?;
    out.real().assign(&re)?;
    out.imag()?.assign(&im)?;
    Ok(out)
}

impl Array {
    /// `numpy.matmul(self, other)`: 1-D operands are promoted (and the added axis removed),
    /// batch axes broadcast, `(..., M, K) @ (..., K, N)`. Transposed, sliced and broadcast views
    /// are read in place. Any size works: large operands are split into chunks internally.
    ///
    /// ```
    /// use gpuarray::{Array, DType};
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = Array::from_slice(&dev, &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
    /// let b = Array::from_slice(&dev, &[1.0f32, 0.0, 1.0], &[3])?;
    /// assert_eq!(a.matmul(&b)?.to_vec::<f32>()?, vec![4.0, 10.0]);          // (2,3) @ (3,) -> (2,)
    /// assert_eq!(a.matmul(&a.t())?.shape(), &[2, 2]);                       // a @ a.T
    /// # Ok(()) }
    /// ```
    ///
    /// Complex operands (complex64 or complex128, both of one dtype) take four real products.
    pub fn matmul(&self, other: &Array) -> Result<Array> {
        if self.dtype().is_complex() || other.dtype().is_complex() {
            return complex_matmul(self, other);
        }
        matmul::matmul(self, other, None)
    }

    /// [`Array::matmul`] with the kernel forced (for benchmarks and kernel tests); M = 1 and N = 1
    /// products use it too instead of the GEMV kernel. `Err(Unsupported)` when the kernel cannot
    /// run on this adapter or dtype.
    ///
    /// ```
    /// use gpuarray::{Array, DType, MatmulKernel};
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = Array::ones(&dev, &[64, 64], DType::F32)?;
    /// let c = a.matmul_with(&a, MatmulKernel::Naive)?;
    /// assert_eq!(c.to_vec::<f32>()?[0], 64.0);
    /// # Ok(()) }
    /// ```
    pub fn matmul_with(&self, other: &Array, kernel: matmul::MatmulKernel) -> Result<Array> {
        matmul::matmul(self, other, Some(kernel))
    }

    /// `numpy.dot`: the inner product for 1-D operands, `matmul` for 2-D, and for N-D a sum
    /// product over the last axis of `self` and the second-to-last of `other`.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let v = gpuarray::Array::from_slice(&dev, &[1i32, 2, 3], &[3])?;
    /// assert_eq!(v.dot(&v)?.to_vec::<i32>()?, vec![14]);
    /// # Ok(()) }
    /// ```
    pub fn dot(&self, other: &Array) -> Result<Array> {
        match (self.ndim(), other.ndim()) {
            (0, _) | (_, 0) => {
                // A scalar scales the other operand: an outer product with one factor of size 1.
                let shape: Vec<isize> = if self.ndim() == 0 {
                    other.shape()
                } else {
                    self.shape()
                }
                .iter()
                .map(|&d| d as isize)
                .collect();
                self.outer(other)?.reshape(&shape)
            }
            (_, 1) | (1, 2) | (2, 2) => self.matmul(other),
            _ => self.tensordot(other, &[-1], &[-2]),
        }
    }

    /// `numpy.vdot`: the dot product of the flattened operands (a 0-d array); a complex first
    /// operand is conjugated, as in NumPy.
    pub fn vdot(&self, other: &Array) -> Result<Array> {
        if self.len() != other.len() {
            return Err(Error::shape(
                "vdot",
                format!(
                    "operands of shapes {:?} and {:?} have different sizes",
                    self.shape(),
                    other.shape()
                ),
            ));
        }
        // NumPy conjugates the first operand (a copy; real arrays as they are).
        let lhs = if self.dtype().is_complex() {
            self.conj()?
        } else {
            self.clone()
        };
        lhs.reshape(&[-1])?.matmul(&other.reshape(&[-1])?)
    }

    /// `numpy.inner`: a sum product over the last axes; the result has shape
    /// `self.shape[:-1] + other.shape[:-1]`.
    pub fn inner(&self, other: &Array) -> Result<Array> {
        if self.ndim() == 0 || other.ndim() == 0 {
            return self.dot(other);
        }
        self.tensordot(other, &[-1], &[-1])
    }

    /// `numpy.outer`: `self.ravel()[:, None] * other.ravel()[None, :]`.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0], &[2])?;
    /// let b = gpuarray::Array::from_slice(&dev, &[3.0f32, 4.0, 5.0], &[3])?;
    /// assert_eq!(a.outer(&b)?.to_vec::<f32>()?, vec![3.0, 4.0, 5.0, 6.0, 8.0, 10.0]);
    /// # Ok(()) }
    /// ```
    pub fn outer(&self, other: &Array) -> Result<Array> {
        let a = self.reshape(&[-1, 1])?;
        let b = other.reshape(&[1, -1])?;
        a.matmul(&b)
    }

    /// `numpy.tensordot(self, other, axes=(axes_self, axes_other))`: sums products over the
    /// paired axes; the result's axes are the remaining axes of `self`, then of `other`.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::ones(&dev, &[3, 4, 5], gpuarray::DType::F32)?;
    /// let b = gpuarray::Array::ones(&dev, &[4, 3, 2], gpuarray::DType::F32)?;
    /// let c = a.tensordot(&b, &[1, 0], &[0, 1])?;
    /// assert_eq!((c.shape(), c.to_vec::<f32>()?[0]), (&[5usize, 2][..], 12.0));
    /// # Ok(()) }
    /// ```
    pub fn tensordot(
        &self,
        other: &Array,
        axes_self: &[isize],
        axes_other: &[isize],
    ) -> Result<Array> {
        let op = "tensordot";
        if axes_self.len() != axes_other.len() {
            return Err(Error::invalid(
                op,
                format!("axes {axes_self:?} and {axes_other:?} must pair up"),
            ));
        }
        let na: Vec<usize> = axes_self
            .iter()
            .map(|&a| normalize_axis(op, a, self.ndim()))
            .collect::<Result<_>>()?;
        let nb: Vec<usize> = axes_other
            .iter()
            .map(|&a| normalize_axis(op, a, other.ndim()))
            .collect::<Result<_>>()?;
        for (i, (&x, &y)) in na.iter().zip(&nb).enumerate() {
            if na[..i].contains(&x) || nb[..i].contains(&y) {
                return Err(Error::invalid(
                    op,
                    format!("repeated axis in {axes_self:?} / {axes_other:?}"),
                ));
            }
            if self.shape()[x] != other.shape()[y] {
                return Err(Error::shape(
                    op,
                    format!(
                        "shape mismatch for sum: axis {x} of {:?} has {} elements, axis {y} of {:?} has {}",
                        self.shape(),
                        self.shape()[x],
                        other.shape(),
                        other.shape()[y]
                    ),
                ));
            }
        }
        let free_a: Vec<usize> = (0..self.ndim()).filter(|d| !na.contains(d)).collect();
        let free_b: Vec<usize> = (0..other.ndim()).filter(|d| !nb.contains(d)).collect();
        let k = dims_product(na.iter().map(|&d| &self.shape()[d]));
        let m = dims_product(free_a.iter().map(|&d| &self.shape()[d]));
        let n = dims_product(free_b.iter().map(|&d| &other.shape()[d]));
        // The result's shape may be too big even when an operand is empty.
        let out: Vec<usize> = free_a
            .iter()
            .map(|&d| self.shape()[d])
            .chain(free_b.iter().map(|&d| other.shape()[d]))
            .collect();
        checked_numel(op, &out)?;
        // (free_a, summed) @ (summed, free_b): reshape copies only when the permuted view needs it.
        let pa: Vec<usize> = free_a.iter().chain(&na).copied().collect();
        let pb: Vec<usize> = nb.iter().chain(&free_b).copied().collect();
        let a2 = self.transpose(&pa)?.reshape(&[m as isize, k as isize])?;
        let b2 = other.transpose(&pb)?.reshape(&[k as isize, n as isize])?;
        let shape: Vec<isize> = free_a
            .iter()
            .map(|&d| self.shape()[d] as isize)
            .chain(free_b.iter().map(|&d| other.shape()[d] as isize))
            .collect();
        a2.matmul(&b2)?.reshape(&shape)
    }
}

impl Array {
    /// `numpy.diagonal(a, offset, axis1, axis2)`: the diagonal of the (axis1, axis2) planes as
    /// the last axis of a view (`offset > 0` above the main diagonal, `< 0` below).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::arange(&dev, 0.0, 9.0, 1.0, gpuarray::DType::I32)?.reshape(&[3, 3])?;
    /// assert_eq!(a.diagonal(0, 0, 1)?.to_vec::<i32>()?, vec![0, 4, 8]);
    /// assert_eq!(a.diagonal(1, 0, 1)?.to_vec::<i32>()?, vec![1, 5]);
    /// # Ok(()) }
    /// ```
    pub fn diagonal(&self, offset: isize, axis1: isize, axis2: isize) -> Result<Array> {
        let op = "diagonal";
        if self.ndim() < 2 {
            return Err(Error::shape(
                op,
                format!(
                    "diag requires an array of at least two dimensions, got shape {:?}",
                    self.shape()
                ),
            ));
        }
        let (a1, a2) = (
            normalize_axis(op, axis1, self.ndim())?,
            normalize_axis(op, axis2, self.ndim())?,
        );
        if a1 == a2 {
            return Err(Error::invalid(
                op,
                format!("axis1 and axis2 cannot be the same ({a1})"),
            ));
        }
        let (n1, n2) = (self.shape()[a1], self.shape()[a2]);
        // `unsigned_abs` and saturating differences: `-isize::MIN` does not exist, and an offset
        // past either axis gives NumPy's answer, an empty diagonal.
        let (r0, c0) = if offset >= 0 {
            (0, offset.unsigned_abs())
        } else {
            (offset.unsigned_abs(), 0)
        };
        let len = n1.saturating_sub(r0).min(n2.saturating_sub(c0));
        let mut l = self.layout.clone();
        let (s1, s2) = (l.strides[a1], l.strides[a2]);
        if len > 0 {
            // r0 < n1 and c0 < n2 here, so both are element positions inside the view.
            l.offset = (l.offset as isize + r0 as isize * s1 + c0 as isize * s2) as usize;
        }
        let keep: Vec<usize> = (0..self.ndim()).filter(|&d| d != a1 && d != a2).collect();
        let mut shape: Vec<usize> = keep.iter().map(|&d| l.shape[d]).collect();
        let mut strides: Vec<isize> = keep.iter().map(|&d| l.strides[d]).collect();
        shape.push(len);
        strides.push(s1 + s2);
        Ok(self.with_layout(crate::layout::Layout {
            shape,
            strides,
            offset: l.offset,
        }))
    }

    /// `numpy.trace(a, offset)`: sums of the diagonals of the planes of the first two axes.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let e = gpuarray::Array::eye(&dev, 4, gpuarray::DType::F32)?;
    /// assert_eq!(e.trace(0)?.to_vec::<f32>()?, vec![4.0]);
    /// # Ok(()) }
    /// ```
    pub fn trace(&self, offset: isize) -> Result<Array> {
        self.diagonal(offset, 0, 1)?.sum(-1isize, false)
    }

    /// `numpy.kron(a, b)`: the Kronecker product; blocks of `b` scaled by each element of `a`.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1i32, 10], &[2])?;
    /// let b = gpuarray::Array::from_slice(&dev, &[1i32, 2, 3], &[3])?;
    /// assert_eq!(a.kron(&b)?.to_vec::<i32>()?, vec![1, 2, 3, 10, 20, 30]);
    /// # Ok(()) }
    /// ```
    pub fn kron(&self, other: &Array) -> Result<Array> {
        let op = "kron";
        self.same_device(op, other)?;
        let nd = self.ndim().max(other.ndim());
        let pad = |a: &Array| -> Vec<usize> {
            let mut s = vec![1usize; nd - a.ndim()];
            s.extend_from_slice(a.shape());
            s
        };
        let (sa, sb) = (pad(self), pad(other));
        // a as (a0, 1, a1, 1, ...) times b as (1, b0, 1, b1, ...), then merge the pairs.
        let ia: Vec<isize> = sa.iter().flat_map(|&n| [n as isize, 1]).collect();
        let ib: Vec<isize> = sb.iter().flat_map(|&n| [1, n as isize]).collect();
        let out: Vec<usize> = sa
            .iter()
            .zip(&sb)
            .map(|(&x, &y)| {
                x.checked_mul(y).ok_or_else(|| {
                    Error::overflow(
                        op,
                        format!(
                            "axes of length {x} and {y} (shapes {:?} and {:?})",
                            self.shape(),
                            other.shape()
                        ),
                    )
                })
            })
            .collect::<Result<_>>()?;
        // Checked here so a product too big for the device is refused in kron's name, not in
        // the name of the multiplication that would allocate it.
        let numel = checked_numel(op, &out)?;
        self.device.check_buffer_size(op, numel, self.dtype)?;
        let out: Vec<isize> = out.iter().map(|&n| n as isize).collect();
        self.reshape(&ia)?.mul(&other.reshape(&ib)?)?.reshape(&out)
    }
}

/// `numpy.matmul(a, b)`; see [`Array::matmul`].
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let a = gpuarray::Array::eye(&dev, 3, gpuarray::DType::F64)?;
/// assert_eq!(gpuarray::matmul(&a, &a)?.to_vec::<f64>()?, a.to_vec::<f64>()?);
/// # Ok(()) }
/// ```
pub fn matmul(a: &Array, b: &Array) -> Result<Array> {
    a.matmul(b)
}
