//! The N-d [`Array`]: a [`Layout`](crate::layout::Layout) (shape, strides, offset) over pooled GPU
//! storage. Views live in `views.rs`, host transfers in `transfer.rs`, the strided copy/cast
//! kernel they need in `copy.rs`, and printing (NumPy's `repr`, `Display`) in `display.rs`; every
//! other operation lives with its kernels in the ops layer.

pub(crate) mod copy;
mod display;
mod float_format;
mod transfer;
mod views;

pub use display::PrintOptions;

use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::memory::{PoolBlock, WgpuBacking};

use std::fmt;
use std::sync::Arc;

/// GPU memory behind one or more arrays (views share it). Returns to the pool when the last
/// array using it is dropped.
pub(crate) struct Storage {
    /// `None` for zero-size arrays: they never bind or dispatch.
    block: Option<PoolBlock<WgpuBacking>>,
}

impl Storage {
    /// Fresh, uninitialised storage for `numel` elements of `dtype`.
    pub(crate) fn new(
        op: &'static str,
        device: &Device,
        numel: usize,
        dtype: DType,
    ) -> Result<Arc<Storage>> {
        device.check_dtype(op, dtype)?;
        let bytes = device.check_buffer_size(op, numel, dtype)?;
        let block = if bytes == 0 {
            None
        } else {
            Some(device.inner.pool.alloc(bytes.next_multiple_of(4))?)
        };
        Ok(Arc::new(Storage { block }))
    }

    pub(crate) fn buffer(&self) -> Option<&wgpu::Buffer> {
        self.block.as_ref().map(|b| b.buffer())
    }

    /// The buffer's size in bytes (a multiple of 4; 0 when empty).
    pub(crate) fn bytes(&self) -> u64 {
        self.block.as_ref().map_or(0, |b| b.class_bytes())
    }
}

/// An N-dimensional array on a GPU.
///
/// Cloning is cheap and shares the storage, as do views (`reshape`, `transpose`, `slice`, ...).
/// Every method that can fail returns [`Result`]; none panics on bad input.
///
/// ```
/// use gpuarray::{Array, DType, Device};
/// # fn main() -> gpuarray::Result<()> {
/// let dev = Device::new()?;
/// let a = Array::from_slice(&dev, &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
/// assert_eq!((a.shape(), a.ndim(), a.len(), a.dtype()), (&[2usize, 3][..], 2, 6, DType::F32));
/// let t = a.transpose(&[1, 0])?;                    // a view: no copy
/// assert_eq!(t.to_vec::<f32>()?, vec![1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
/// let d = t.astype(DType::F64)?;                     // a cast kernel on the GPU
/// assert_eq!(d.to_vec::<f64>()?[1], 4.0);
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Array {
    pub(crate) storage: Arc<Storage>,
    pub(crate) layout: Layout,
    pub(crate) dtype: DType,
    pub(crate) device: Device,
}

impl Array {
    /// The extent of each axis.
    pub fn shape(&self) -> &[usize] {
        &self.layout.shape
    }

    /// Strides in elements (may be negative or zero for views).
    pub fn strides(&self) -> &[isize] {
        &self.layout.strides
    }

    /// Number of axes.
    pub fn ndim(&self) -> usize {
        self.layout.ndim()
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.layout.numel()
    }

    /// Whether the array has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The element type.
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// The device the array lives on.
    pub fn device(&self) -> &Device {
        &self.device
    }

    /// Whether the elements are stored in row-major order without gaps.
    pub fn is_contiguous(&self) -> bool {
        self.layout.is_contiguous()
    }

    pub(crate) fn with_layout(&self, layout: Layout) -> Array {
        Array {
            storage: Arc::clone(&self.storage),
            layout,
            dtype: self.dtype,
            device: self.device.clone(),
        }
    }

    /// The same elements read as another dtype of the same size (bool ↔ u32 ↔ i32): no copy.
    pub(crate) fn reinterpret(&self, dtype: DType) -> Array {
        debug_assert_eq!(dtype.size_bytes(), self.dtype.size_bytes());
        Array {
            storage: Arc::clone(&self.storage),
            layout: self.layout.clone(),
            dtype,
            device: self.device.clone(),
        }
    }

    /// A complex array's elements as (real, imaginary) pairs: a view of the part dtype
    /// ([`DType::real`]) with a last axis of length 2 (stride 1). How structural kernels
    /// (copies, casts, fills) and the complex ops reach complex data. Any other dtype: itself.
    pub(crate) fn parts(&self) -> Array {
        if !self.dtype.is_complex() {
            return self.clone();
        }
        let l = &self.layout;
        let mut shape = l.shape.clone();
        shape.push(2);
        let mut strides: Vec<isize> = l.strides.iter().map(|&s| 2 * s).collect();
        strides.push(1);
        Array {
            storage: Arc::clone(&self.storage),
            layout: Layout {
                shape,
                strides,
                offset: 2 * l.offset,
            },
            dtype: self.dtype.real(),
            device: self.device.clone(),
        }
    }

    /// Part `k` (0 real, 1 imaginary) of a complex array: a view of the part dtype.
    pub(crate) fn part(&self, k: usize) -> Array {
        debug_assert!(self.dtype.is_complex() && k < 2);
        let p = self.parts();
        let l = &p.layout;
        let n = l.shape.len() - 1;
        self.with_layout(Layout {
            shape: l.shape[..n].to_vec(),
            strides: l.strides[..n].to_vec(),
            offset: l.offset + k,
        })
        .reinterpret_parts(p.dtype)
    }

    /// The complex array whose (real, imaginary) pairs are the last axis (length 2) of the
    /// real array `pairs` (f32 → complex64, f64 → complex128): copied to contiguous first when
    /// needed, then read as complex without a copy. The inverse of [`Array::parts`].
    pub(crate) fn from_parts(pairs: &Array) -> Result<Array> {
        let complex = match pairs.dtype {
            DType::F32 => DType::C64,
            DType::F64 => DType::C128,
            d => {
                return Err(Error::invalid(
                    "from_parts",
                    format!("complex parts are float32 or float64, not {d}"),
                ));
            }
        };
        if pairs.shape().last() != Some(&2) {
            return Err(Error::shape(
                "from_parts",
                format!(
                    "the last axis holds (real, imaginary): shape {:?}",
                    pairs.shape()
                ),
            ));
        }
        let c = pairs.contiguous()?;
        let n = c.layout.shape.len() - 1;
        let shape = c.layout.shape[..n].to_vec();
        let offset = c.layout.offset;
        if offset % 2 != 0 {
            // A contiguous view starting at an odd part: copy to a fresh array.
            return Array::from_parts(&c.astype(c.dtype)?);
        }
        let mut z = c.reinterpret_parts(complex);
        z.layout = Layout {
            strides: Layout::contiguous(&shape).strides,
            shape,
            offset: offset / 2,
        };
        Ok(z)
    }

    /// This array's storage and layout read as `dtype` (no size check: for `part`).
    fn reinterpret_parts(&self, dtype: DType) -> Array {
        Array {
            storage: Arc::clone(&self.storage),
            layout: self.layout.clone(),
            dtype,
            device: self.device.clone(),
        }
    }

    /// A fresh contiguous array on `device` (uninitialised: callers fill it).
    pub(crate) fn empty(
        op: &'static str,
        device: &Device,
        shape: &[usize],
        dtype: DType,
    ) -> Result<Array> {
        let numel = crate::layout::checked_numel(op, shape)?;
        Ok(Array {
            storage: Storage::new(op, device, numel, dtype)?,
            layout: Layout::contiguous(shape),
            dtype,
            device: device.clone(),
        })
    }

    /// `Err(DeviceMismatch)` unless `other` lives on this array's device.
    pub(crate) fn same_device(&self, op: &'static str, other: &Array) -> Result<()> {
        if self.device.same_as(&other.device) {
            Ok(())
        } else {
            Err(Error::DeviceMismatch {
                op,
                lhs: format!("{:?}", self.device),
                rhs: format!("{:?}", other.device),
            })
        }
    }

    /// Whether the two arrays use the same GPU buffer (`numpy.may_share_memory`): views of one
    /// array do, copies do not.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::zeros(&dev, &[2, 3], gpuarray::DType::F32)?;
    /// assert!(a.t().may_share_memory(&a));
    /// assert!(!a.t().contiguous()?.may_share_memory(&a));
    /// # Ok(()) }
    /// ```
    pub fn may_share_memory(&self, other: &Array) -> bool {
        Arc::ptr_eq(&self.storage, &other.storage)
    }
}

impl fmt::Debug for Array {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Array(shape={:?}, dtype={}, strides={:?}, offset={})",
            self.shape(),
            self.dtype,
            self.strides(),
            self.layout.offset
        )
    }
}
