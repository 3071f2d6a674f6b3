//! Moving data between the host and the GPU, and copies on the GPU (`contiguous`, `astype`,
//! `assign`).

use super::copy::copy_into;
use super::{Array, Storage};
use crate::device::Device;
#[cfg(not(target_arch = "wasm32"))]
use crate::device::read_bytes;
use crate::device::read_bytes_async;
use crate::dtype::{DType, Element};
use crate::error::{Error, Result};
use crate::layout::{Layout, checked_numel};

/// Bytes per `write_buffer` call: bounds the staging memory wgpu holds for one upload.
const UPLOAD_CHUNK: usize = 64 << 20;

impl Array {
    /// Uploads `data` as an array of `shape` (row-major).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1u32, 2, 3, 4], &[2, 2])?;
    /// assert_eq!(a.to_vec::<u32>()?, vec![1, 2, 3, 4]);
    /// # Ok(()) }
    /// ```
    pub fn from_slice<T: Element>(device: &Device, data: &[T], shape: &[usize]) -> Result<Array> {
        let numel = checked_numel("from_slice", shape)?;
        if numel != data.len() {
            return Err(Error::shape(
                "from_slice",
                format!(
                    "{} elements cannot fill shape {shape:?} ({numel} elements)",
                    data.len()
                ),
            ));
        }
        let a = Array::empty("from_slice", device, shape, T::DTYPE)?;
        if let Some(buffer) = a.storage.buffer() {
            let bytes: &[u8] = bytemuck::cast_slice(data);
            let dev = &device.inner;
            dev.guarded("from_slice", || {
                // Submit recorded work first: write_buffer would otherwise run before it, and this
                // buffer may be a reused one that recorded commands still read.
                dev.after_flush(|| {
                    for (i, chunk) in bytes.chunks(UPLOAD_CHUNK).enumerate() {
                        let offset = (i * UPLOAD_CHUNK) as u64;
                        if chunk.len() % 4 == 0 {
                            dev.maintainer
                                .context(|| dev.queue.write_buffer(buffer, offset, chunk));
                        } else {
                            // Copies must be whole 4-byte words (an odd number of f16, say).
                            let mut padded = chunk.to_vec();
                            padded.resize(chunk.len().next_multiple_of(4), 0);
                            dev.maintainer
                                .context(|| dev.queue.write_buffer(buffer, offset, &padded));
                        }
                        if bytes.len() > UPLOAD_CHUNK {
                            // Hand each chunk to the GPU now so staging memory stays bounded.
                            dev.maintainer.submit(&dev.queue, []);
                        }
                    }
                });
                Ok(())
            })?;
        }
        Ok(a)
    }

    /// Uploads booleans as a [`DType::Bool`] array (stored as `u32` 0/1).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let m = gpuarray::Array::from_bools(&dev, &[true, false, true], &[3])?;
    /// assert_eq!(m.to_vec_bool()?, vec![true, false, true]);
    /// # Ok(()) }
    /// ```
    pub fn from_bools(device: &Device, data: &[bool], shape: &[usize]) -> Result<Array> {
        let words: Vec<u32> = data.iter().map(|&b| u32::from(b)).collect();
        Ok(Array::from_slice(device, &words, shape)?.reinterpret(DType::Bool))
    }

    /// Reads a [`DType::Bool`] array back in row-major order.
    /// `Err(DTypeMismatch)` for any other dtype.
    ///
    /// Native only (it blocks); on wasm32 use [`Array::to_vec_bool_async`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn to_vec_bool(&self) -> Result<Vec<bool>> {
        let words = self.bool_words("to_vec_bool")?.to_vec::<u32>()?;
        Ok(words.into_iter().map(|w| w != 0).collect())
    }

    /// [`Array::to_vec_bool`] for async callers (and wasm32).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> { pollster::block_on(async {
    /// # let dev = gpuarray::Device::new_async().await?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, -2.0], &[2])?;
    /// assert_eq!(a.gt(0.0)?.to_vec_bool_async().await?, vec![true, false]);
    /// # Ok(()) }) }
    /// ```
    pub async fn to_vec_bool_async(&self) -> Result<Vec<bool>> {
        let words = self
            .bool_words("to_vec_bool_async")?
            .to_vec_async::<u32>()
            .await?;
        Ok(words.into_iter().map(|w| w != 0).collect())
    }

    /// The u32 words of a bool array, `Err(DTypeMismatch)` for any other dtype.
    fn bool_words(&self, op: &'static str) -> Result<Array> {
        if self.dtype != DType::Bool {
            return Err(Error::DTypeMismatch {
                op,
                expected: self.dtype,
                got: DType::Bool,
            });
        }
        Ok(self.reinterpret(DType::U32))
    }

    /// Reads back the single element of a 0-d (or one-element) array.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;
    /// assert_eq!(a.sum(gpuarray::Axes::All, false)?.item::<f32>()?, 6.0);
    /// # Ok(()) }
    /// ```
    ///
    /// Native only (it blocks); on wasm32 use [`Array::item_async`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn item<T: Element>(&self) -> Result<T> {
        self.check_item::<T>("item")?;
        Ok(self.to_vec::<T>()?[0])
    }

    /// [`Array::item`] for async callers (and wasm32).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> { pollster::block_on(async {
    /// # let dev = gpuarray::Device::new_async().await?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1i32, 2, 3], &[3])?;
    /// assert_eq!(a.sum(gpuarray::Axes::All, false)?.item_async::<i32>().await?, 6);
    /// # Ok(()) }) }
    /// ```
    pub async fn item_async<T: Element>(&self) -> Result<T> {
        self.check_item::<T>("item_async")?;
        Ok(self.to_vec_async::<T>().await?[0])
    }

    /// Checked before reading, so the error names `item`, not the `to_vec` it reads with.
    fn check_item<T: Element>(&self, op: &'static str) -> Result<()> {
        if T::DTYPE != self.dtype {
            return Err(Error::DTypeMismatch {
                op,
                expected: self.dtype,
                got: T::DTYPE,
            });
        }
        if self.len() != 1 {
            return Err(Error::invalid(
                op,
                format!(
                    "can only convert an array of size 1 to a scalar, not shape {:?}",
                    self.shape()
                ),
            ));
        }
        Ok(())
    }

    /// Reads the array back in row-major order, blocking until the GPU is done.
    /// `Err(DTypeMismatch)` unless `T` is the array's dtype.
    ///
    /// Native only (it blocks); on wasm32 use [`Array::to_vec_async`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        let Some((c, start, skip, len)) = self.readback_plan::<T>("to_vec")? else {
            return Ok(Vec::new());
        };
        let buffer = c.storage.buffer().expect("non-empty arrays have a buffer");
        let mut out = vec![T::zeroed(); self.len()];
        read_bytes(
            &self.device.inner,
            buffer,
            start,
            len,
            skip,
            bytemuck::cast_slice_mut(&mut out),
        )?;
        Ok(out)
    }

    /// [`Array::to_vec`] for async callers (and wasm32, where blocking is not allowed). Errors
    /// that the device's ops reported late (in a browser) surface here as `Err`.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> { pollster::block_on(async {
    /// # let dev = gpuarray::Device::new_async().await?;
    /// let a = gpuarray::Array::arange(&dev, 0.0, 4.0, 1.0, gpuarray::DType::F32)?;
    /// assert_eq!(a.to_vec_async::<f32>().await?, vec![0.0, 1.0, 2.0, 3.0]);
    /// # Ok(()) }) }
    /// ```
    pub async fn to_vec_async<T: Element>(&self) -> Result<Vec<T>> {
        let Some((c, start, skip, len)) = self.readback_plan::<T>("to_vec_async")? else {
            return Ok(Vec::new());
        };
        let buffer = c.storage.buffer().expect("non-empty arrays have a buffer");
        let mut out = vec![T::zeroed(); self.len()];
        read_bytes_async(
            &self.device.inner,
            buffer,
            start,
            len,
            skip,
            bytemuck::cast_slice_mut(&mut out),
        )
        .await?;
        self.device.inner.late_result("to_vec_async").await?;
        Ok(out)
    }

    /// The contiguous array to read, the 4-byte-aligned byte range to copy, and where the data
    /// starts within it. `None` for an empty array.
    fn readback_plan<T: Element>(
        &self,
        op: &'static str,
    ) -> Result<Option<(Array, u64, u64, u64)>> {
        if T::DTYPE != self.dtype {
            return Err(Error::DTypeMismatch {
                op,
                expected: self.dtype,
                got: T::DTYPE,
            });
        }
        self.device.inner.check_alive(op)?;
        if self.is_empty() {
            return Ok(None);
        }
        let c = self.contiguous()?;
        let eb = self.dtype.size_bytes();
        let first = c.layout.offset as u64 * eb;
        let end = first + self.len() as u64 * eb;
        let start = first / 4 * 4;
        let stop = end.next_multiple_of(4);
        Ok(Some((c, start, first - start, stop - start)))
    }

    /// A row-major contiguous array with these elements: `self` when already contiguous (shared
    /// storage, like `numpy.ascontiguousarray`), otherwise a strided-copy kernel on the GPU.
    pub fn contiguous(&self) -> Result<Array> {
        if self.is_contiguous() {
            self.device.inner.check_alive("contiguous")?;
            return Ok(self.clone());
        }
        self.copy_as("contiguous", self.dtype)
    }

    /// A new contiguous array of `dtype` (always a copy, like `numpy.astype`), converted on the
    /// GPU with NumPy's results on x86-64:
    ///
    /// - float to signed integer truncates toward zero; NaN, ±inf and values out of range give
    ///   the "integer indefinite" `MIN` of int32/int64, and int8/int16 (and uint8/uint16) keep the
    ///   low bits of the int32 result (`300.5` → int8 `44`, `-1.0` → uint8 `255`);
    /// - float to uint64: values in [2^63, 2^64) exactly, the rest through int64 (so `-1.0` gives
    ///   `2^64 - 1`); float to uint32 saturates to `[0, 2^32 - 128]` (f32) or `[0, 2^32 - 1]` (f64);
    /// - between integers: the low bits (wrapping), extended by the source's sign;
    /// - integers to floats round to nearest (int64/uint64 to f32 and f64 correctly);
    /// - f64 → f32/f16 rounds to nearest, overflowing to ±inf; to bool: non-zero (NaN too).
    ///
    /// ```
    /// use gpuarray::{Array, DType};
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let x = Array::from_slice(&dev, &[300.5f32, -1.0, 1e10], &[3])?;
    /// assert_eq!(x.astype(DType::U8)?.to_vec::<u8>()?, vec![44, 255, 0]);
    /// assert_eq!(x.astype(DType::I64)?.to_vec::<i64>()?, vec![300, -1, 10_000_000_000]);
    /// # Ok(()) }
    /// ```
    pub fn astype(&self, dtype: DType) -> Result<Array> {
        self.copy_as("astype", dtype)
    }

    fn copy_as(&self, op: &'static str, dtype: DType) -> Result<Array> {
        let out = Array::empty(op, &self.device, self.shape(), dtype)?;
        copy_into(op, self, &out)?;
        Ok(out)
    }

    /// Writes `src` into this array's elements (`a[...] = src`): `src` is broadcast to this shape
    /// and converted to this dtype. Other arrays sharing the storage (views) see the change.
    ///
    /// ```
    /// use gpuarray::{Array, DType, SliceArg};
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = Array::zeros(&dev, &[2, 3], DType::F32)?;
    /// let row = Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;
    /// a.slice(&[SliceArg::Index(1)])?.assign(&row)?;     // a[1] = row
    /// assert_eq!(a.to_vec::<f32>()?, vec![0.0, 0.0, 0.0, 1.0, 2.0, 3.0]);
    /// # Ok(()) }
    /// ```
    pub fn assign(&self, src: &Array) -> Result<()> {
        self.same_device("assign", src)?;
        let src = src.broadcast_to(self.shape()).map_err(|_| {
            Error::shape(
                "assign",
                format!(
                    "could not broadcast input array from shape {:?} into shape {:?}",
                    src.shape(),
                    self.shape()
                ),
            )
        })?;
        if self.layout_has_overlap() {
            return Err(Error::invalid(
                "assign",
                format!(
                    "the destination view (shape {:?}, strides {:?}) writes some elements more than once",
                    self.shape(),
                    self.strides()
                ),
            ));
        }
        // Binding one buffer as both read and read_write is invalid: copy an aliasing source.
        let src = if src.may_share_memory(self) {
            src.copy_as("assign", src.dtype)?
        } else {
            src
        };
        copy_into("assign", &src, self)
    }

    /// Whether two indices of this view address the same element (a broadcast destination).
    fn layout_has_overlap(&self) -> bool {
        self.layout
            .shape
            .iter()
            .zip(&self.layout.strides)
            .any(|(&n, &s)| n > 1 && s == 0)
    }

    pub(crate) fn storage_and_layout(&self) -> (&Storage, &Layout) {
        (&self.storage, &self.layout)
    }
}
