//! Views: new layouts over the same storage, no GPU work.

use super::Array;
use crate::error::Result;
use crate::layout::{SliceArg, normalize_axis};

impl Array {
    /// The same elements in a new shape; `-1` is inferred. A view when the strides allow it
    /// (always for contiguous arrays), otherwise a contiguous copy, like `numpy.reshape`.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::arange(&dev, 0.0, 12.0, 1.0, gpuarray::DType::I32)?;
    /// assert_eq!(a.reshape(&[3, -1])?.shape(), &[3, 4]);
    /// # Ok(()) }
    /// ```
    pub fn reshape(&self, shape: &[isize]) -> Result<Array> {
        match self.layout.reshape("reshape", shape)? {
            Some(l) => Ok(self.with_layout(l)),
            None => {
                let c = self.contiguous()?;
                let l = c
                    .layout
                    .reshape("reshape", shape)?
                    .expect("contiguous arrays always reshape");
                Ok(c.with_layout(l))
            }
        }
    }

    /// Permutes the axes (`numpy.transpose(a, axes)`): a view.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::zeros(&dev, &[2, 3, 4], gpuarray::DType::F32)?;
    /// assert_eq!(a.transpose(&[2, 0, 1])?.shape(), &[4, 2, 3]);
    /// # Ok(()) }
    /// ```
    pub fn transpose(&self, axes: &[usize]) -> Result<Array> {
        Ok(self.with_layout(self.layout.permute("transpose", axes)?))
    }

    /// Reverses the axes (`a.T`): a view.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1i32, 2, 3, 4, 5, 6], &[2, 3])?;
    /// assert_eq!(a.t().shape(), &[3, 2]);
    /// assert_eq!(a.t().to_vec::<i32>()?, vec![1, 4, 2, 5, 3, 6]);
    /// # Ok(()) }
    /// ```
    pub fn t(&self) -> Array {
        let axes: Vec<usize> = (0..self.ndim()).rev().collect();
        self.with_layout(
            self.layout
                .permute("t", &axes)
                .expect("a reversal is a valid permutation"),
        )
    }

    /// Swaps two axes: a view.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::zeros(&dev, &[2, 3, 4], gpuarray::DType::F32)?;
    /// assert_eq!(a.swapaxes(0, -1)?.shape(), &[4, 3, 2]);
    /// assert!(a.swapaxes(0, 3).is_err()); // no axis 3
    /// # Ok(()) }
    /// ```
    pub fn swapaxes(&self, a: isize, b: isize) -> Result<Array> {
        let (a, b) = (
            normalize_axis("swapaxes", a, self.ndim())?,
            normalize_axis("swapaxes", b, self.ndim())?,
        );
        let mut axes: Vec<usize> = (0..self.ndim()).collect();
        axes.swap(a, b);
        self.transpose(&axes)
    }

    /// Broadcasts to `shape` with NumPy's rules (stretched axes get stride 0): a read-only view.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let row = gpuarray::Array::from_slice(&dev, &[1i32, 2, 3], &[3])?;
    /// assert_eq!(row.broadcast_to(&[2, 3])?.to_vec::<i32>()?, vec![1, 2, 3, 1, 2, 3]);
    /// # Ok(()) }
    /// ```
    pub fn broadcast_to(&self, shape: &[usize]) -> Result<Array> {
        crate::layout::checked_numel("broadcast_to", shape)?;
        Ok(self.with_layout(self.layout.broadcast_to("broadcast_to", shape)?))
    }

    /// Basic slicing, `a[i, start:stop:step, None, ...]`: a view. Axes not named are kept whole.
    ///
    /// ```
    /// use gpuarray::{Array, DType, SliceArg};
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = Array::arange(&dev, 0.0, 10.0, 1.0, DType::I32)?;
    /// let r = a.slice(&[SliceArg::range(Some(8), Some(1), -3)])?;    // a[8:1:-3]
    /// assert_eq!(r.to_vec::<i32>()?, vec![8, 5, 2]);
    /// # Ok(()) }
    /// ```
    pub fn slice(&self, args: &[SliceArg]) -> Result<Array> {
        Ok(self.with_layout(self.layout.slice("slice", args)?))
    }

    /// Removes every axis of length 1: a view.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[7i32, 8], &[1, 2, 1])?;
    /// assert_eq!(a.squeeze().shape(), &[2]);
    /// assert_eq!(a.squeeze().to_vec::<i32>()?, vec![7, 8]);
    /// # Ok(()) }
    /// ```
    pub fn squeeze(&self) -> Array {
        self.with_layout(
            self.layout
                .squeeze("squeeze", None)
                .expect("squeezing all unit axes cannot fail"),
        )
    }

    /// Removes the given axes, which must have length 1: a view.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::zeros(&dev, &[1, 2, 1], gpuarray::DType::I32)?;
    /// assert_eq!(a.squeeze_axes(&[-1])?.shape(), &[1, 2]);
    /// assert!(a.squeeze_axes(&[1]).is_err()); // axis 1 has length 2
    /// # Ok(()) }
    /// ```
    pub fn squeeze_axes(&self, axes: &[isize]) -> Result<Array> {
        Ok(self.with_layout(self.layout.squeeze("squeeze", Some(axes))?))
    }

    /// Inserts an axis of length 1 at `axis` (`numpy.expand_dims`): a view.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0], &[2])?;
    /// assert_eq!(a.expand_dims(0)?.shape(), &[1, 2]);
    /// assert_eq!(a.expand_dims(-1)?.shape(), &[2, 1]);
    /// # Ok(()) }
    /// ```
    pub fn expand_dims(&self, axis: isize) -> Result<Array> {
        Ok(self.with_layout(self.layout.expand_dims("expand_dims", axis)?))
    }
}
