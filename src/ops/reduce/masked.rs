//! NumPy's `where=` and `initial=` on reductions (`np.sum(a, where=mask, initial=5)`), on the
//! device: the elements the mask leaves out are replaced by the reduction's identity (or by
//! `initial`, for `max`/`min`, which have none) with one `where` launch, the ordinary reduction
//! runs, and `initial` joins the result as NumPy's does — one more element of every reduction.

use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::{Axes, broadcast_shapes, dims_product, resolve_axes};
use crate::ops::elementwise::where_;

/// The reductions that take NumPy's `where=` mask (and, but for `Mean`, `Any` and `All`,
/// `initial=`), for [`Array::reduce_where`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reduction {
    /// `numpy.sum`.
    Sum,
    /// `numpy.prod`.
    Prod,
    /// `numpy.max`: with a mask NumPy requires `initial` (no identity).
    Max,
    /// `numpy.min`: with a mask NumPy requires `initial`.
    Min,
    /// `numpy.mean`: the mean of the selected elements (NaN where none is).
    Mean,
    /// `numpy.any`.
    Any,
    /// `numpy.all`.
    All,
}

impl Reduction {
    fn name(self) -> &'static str {
        match self {
            Reduction::Sum => "sum",
            Reduction::Prod => "prod",
            Reduction::Max => "max",
            Reduction::Min => "min",
            Reduction::Mean => "mean",
            Reduction::Any => "any",
            Reduction::All => "all",
        }
    }
}

impl Array {
    /// A reduction with NumPy's `where=` (`mask`, broadcast to this array's shape: only its
    /// true elements take part) and `initial=` (a first element of every reduction): what
    /// `numpy.sum(a, axis, keepdims=..., where=mask, initial=...)` and its siblings give, on
    /// the device. `max`/`min` with a mask need `initial` (as NumPy says, they have no identity);
    /// `mean`, `any` and `all` take no `initial`. Without mask and initial it is the plain
    /// reduction.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// use gpuarray::{Array, Axes, Reduction};
    /// let a = Array::from_slice(&dev, &[1.0f32, 2.0, 3.0, 4.0], &[2, 2])?;
    /// let m = Array::from_bools(&dev, &[true, false], &[2])?;
    /// let s = a.reduce_where(Reduction::Sum, 1, false, Some(&m), Some(10.0))?;
    /// assert_eq!(s.to_vec::<f32>()?, vec![11.0, 13.0]);
    /// let top = a.reduce_where(Reduction::Max, Axes::All, false, Some(&m), Some(-1.0))?;
    /// assert_eq!(top.item::<f32>()?, 3.0);
    /// # Ok(()) }
    /// ```
    pub fn reduce_where(
        &self,
        op: Reduction,
        axes: impl Into<Axes>,
        keepdims: bool,
        mask: Option<&Array>,
        initial: Option<f64>,
    ) -> Result<Array> {
        let name = op.name();
        let axes = axes.into();
        if initial.is_some() && matches!(op, Reduction::Mean | Reduction::Any | Reduction::All) {
            return Err(Error::invalid(name, "takes no initial value"));
        }
        let mask = match mask {
            Some(m) => {
                self.same_device(name, m)?;
                let shape = broadcast_shapes(name, &[self.shape(), m.shape()])?;
                if shape != self.shape() {
                    return Err(Error::shape(
                        name,
                        format!(
                            "where mask of shape {:?} does not broadcast to the array's shape {:?}",
                            m.shape(),
                            self.shape()
                        ),
                    ));
                }
                let truth = if m.dtype() == DType::Bool {
                    m.clone()
                } else {
                    m.truth()?
                };
                Some(truth.broadcast_to(self.shape())?)
            }
            None => None,
        };
        let reduced = resolve_axes(name, &axes, self.ndim())?;
        let empty = dims_product(reduced.iter().map(|&d| &self.shape()[d])) == 0;
        let fill = |v: f64| -> Result<Array> {
            match &mask {
                Some(m) => where_(m, self, v),
                None => Ok(self.clone()),
            }
        };
        match op {
            Reduction::Sum | Reduction::Prod => {
                let identity = if op == Reduction::Sum { 0.0 } else { 1.0 };
                let x = fill(identity)?;
                let r = if op == Reduction::Sum {
                    x.sum(axes, keepdims)?
                } else {
                    x.prod(axes, keepdims)?
                };
                match (initial, op) {
                    (Some(v), Reduction::Sum) => r.add(v),
                    (Some(v), _) => r.mul(v),
                    (None, _) => Ok(r),
                }
            }
            Reduction::Max | Reduction::Min => {
                let Some(init) = initial else {
                    if mask.is_some() {
                        return Err(Error::invalid(
                            name,
                            format!(
                                "reduction operation '{}' does not have an identity, so to use \
                                 a where mask one has to specify 'initial'",
                                if op == Reduction::Max {
                                    "maximum"
                                } else {
                                    "minimum"
                                }
                            ),
                        ));
                    }
                    return if op == Reduction::Max {
                        self.max(axes, keepdims)
                    } else {
                        self.min(axes, keepdims)
                    };
                };
                if empty {
                    let shape = super::reduced_shape(self.shape(), &reduced, keepdims);
                    return Array::full(self.device(), &shape, init, self.dtype());
                }
                let x = fill(init)?;
                if op == Reduction::Max {
                    x.max(axes, keepdims)?.maximum(init)
                } else {
                    x.min(axes, keepdims)?.minimum(init)
                }
            }
            Reduction::Mean => {
                let Some(m) = &mask else {
                    return self.mean(axes, keepdims);
                };
                let x = if self.dtype().is_float() || self.dtype().is_complex() {
                    self.clone()
                } else {
                    self.astype(self.float_work_dtype())?
                };
                let sum = where_(m, &x, 0.0)?.sum(axes.clone(), keepdims)?;
                let count = m.astype(sum.dtype().real())?.sum(axes, keepdims)?;
                sum.div(&count.astype(sum.dtype())?)
            }
            Reduction::Any | Reduction::All => {
                let truth = self.ne(0.0)?;
                let x = match &mask {
                    Some(m) => where_(m, &truth, op == Reduction::All)?,
                    None => truth,
                };
                if op == Reduction::Any {
                    x.any(axes, keepdims)
                } else {
                    x.all(axes, keepdims)
                }
            }
        }
    }
}
