//! Selecting by a mask: `nonzero`, `flatnonzero`, `argwhere`, `count_nonzero`, boolean-mask
//! selection (`masked`, NumPy's `a[mask]`, and `extract`), `compress` and `masked_assign`
//! (`a[mask] = value`, `numpy.putmask` with a scalar or broadcast array), and NumPy's cyclic
//! `putmask`/`place`.
//!
//! Selection is stream compaction on the device (`shaders/compact.wgsl`): the mask's running
//! count (the scan kernels) gives every selected element its place in the output, so the data
//! never visits the host. Only the count itself is read back, to size the result (as CuPy and
//! every GPU array library must: the shape depends on the data); `_async` versions await it.
//! Elements are moved as 32-bit words (f64 as two, f16 through f32); inputs and outputs past one
//! storage binding are compacted one window of each at a time.

use super::{contiguous_window, window_elements};
use crate::array::Array;
use crate::device::params::Params;
use crate::device::{PipelineKey, Variant};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::Axes;
use crate::ops::elementwise::{Operand, where_};

/// What `compact` writes for each selected element.
#[derive(Clone, Copy)]
enum Take {
    FlatIndex,
    Word,
    TwoWords,
}

impl Array {
    /// NumPy's truth of each element as bool: non-zero (a complex number: either part, NaN
    /// included), which a cast gives for every real dtype.
    pub(crate) fn truth(&self) -> Result<Array> {
        if self.dtype.is_complex() {
            self.ne(0.0)
        } else {
            self.astype(DType::Bool)
        }
    }
}

impl Array {
    /// `numpy.count_nonzero(a, axis)`: how many elements are true (non-zero; NaN counts) over
    /// `axes`, in the device's index dtype (int64 by default).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[0.0f32, 1.5, f32::NAN, 0.0], &[2, 2])?;
    /// assert_eq!(a.count_nonzero(1, false)?.to_vec::<i64>()?, vec![1, 1]);
    /// # Ok(()) }
    /// ```
    pub fn count_nonzero(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array> {
        crate::ops::as_index(self.truth()?.sum(axes, keepdims)?)
    }

    /// NumPy 2 refuses `nonzero` of a 0-d array.
    fn refuse_0d_nonzero(&self) -> Result<()> {
        if self.ndim() == 0 {
            return Err(Error::invalid(
                "nonzero",
                "calling nonzero on a 0-d array is not allowed (use atleast_1d, as NumPy says)",
            ));
        }
        Ok(())
    }

    /// The running count of this array's true elements in C order, flattened (i32).
    fn selection_count(&self) -> Result<Array> {
        self.truth()?.reshape(&[-1])?.cumsum(None)
    }

    /// `numpy.flatnonzero`: the flat (C-order) indices of the true elements, in the device's
    /// index dtype ([`crate::Device::index_dtype`]).
    ///
    /// Native only (it reads the count back); on wasm32 use [`Array::flatnonzero_async`].
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[0i32, 3, 0, -1], &[2, 2])?;
    /// assert_eq!(a.flatnonzero()?.to_vec::<i64>()?, vec![1, 3]);
    /// # Ok(()) }
    /// ```
    #[cfg(not(target_arch = "wasm32"))]
    pub fn flatnonzero(&self) -> Result<Array> {
        crate::ops::as_index(self.flatnonzero_i32()?)
    }

    /// [`Array::flatnonzero`]'s i32 indices, for the ops built on it.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn flatnonzero_i32(&self) -> Result<Array> {
        let scan = self.selection_count()?;
        let total = selected(&scan)?;
        compact(
            "flatnonzero",
            None,
            &scan,
            total,
            Take::FlatIndex,
            DType::I32,
        )
    }

    /// [`Array::flatnonzero`] for async callers (and wasm32).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> { pollster::block_on(async {
    /// # let dev = gpuarray::Device::new_async().await?;
    /// let a = gpuarray::Array::from_slice(&dev, &[0i32, 3, 0, -1], &[4])?;
    /// assert_eq!(a.flatnonzero_async().await?.to_vec_async::<i64>().await?, vec![1, 3]);
    /// # Ok(()) }) }
    /// ```
    pub async fn flatnonzero_async(&self) -> Result<Array> {
        let scan = self.selection_count()?;
        let total = selected_async(&scan).await?;
        let flat = compact(
            "flatnonzero",
            None,
            &scan,
            total,
            Take::FlatIndex,
            DType::I32,
        )?;
        crate::ops::as_index(flat)
    }

    /// `numpy.nonzero`: one index array (the index dtype) per axis, the coordinates of the true elements in
    /// C order. A 0-d array is an `Err`, as in NumPy 2.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[0i32, 3, 5, 0], &[2, 2])?;
    /// let nz = a.nonzero()?;
    /// assert_eq!(nz[0].to_vec::<i64>()?, vec![0, 1]);
    /// assert_eq!(nz[1].to_vec::<i64>()?, vec![1, 0]);
    /// # Ok(()) }
    /// ```
    #[cfg(not(target_arch = "wasm32"))]
    pub fn nonzero(&self) -> Result<Vec<Array>> {
        self.refuse_0d_nonzero()?;
        let flat = self.flatnonzero_i32()?;
        coordinates(&flat, self.shape())
    }

    /// [`Array::nonzero`] for async callers (and wasm32).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> { pollster::block_on(async {
    /// # let dev = gpuarray::Device::new_async().await?;
    /// let a = gpuarray::Array::from_slice(&dev, &[0i32, 3, 5, 0], &[2, 2])?;
    /// let nz = a.nonzero_async().await?;
    /// assert_eq!(nz[1].to_vec_async::<i64>().await?, vec![1, 0]);
    /// # Ok(()) }) }
    /// ```
    pub async fn nonzero_async(&self) -> Result<Vec<Array>> {
        self.refuse_0d_nonzero()?;
        let flat = self.flatnonzero_async().await?;
        coordinates(&flat, self.shape())
    }

    /// `numpy.argwhere`: the coordinates of the true elements as an array (the index dtype) of shape
    /// (count, ndim).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[0i32, 3, 5, 0], &[2, 2])?;
    /// assert_eq!(a.argwhere()?.to_vec::<i64>()?, vec![0, 1, 1, 0]);
    /// # Ok(()) }
    /// ```
    #[cfg(not(target_arch = "wasm32"))]
    pub fn argwhere(&self) -> Result<Array> {
        self.argwhere_of(&self.flatnonzero_i32()?)
    }

    /// [`Array::argwhere`] for async callers (and wasm32).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> { pollster::block_on(async {
    /// # let dev = gpuarray::Device::new_async().await?;
    /// let a = gpuarray::Array::from_slice(&dev, &[0i32, 3, 5, 0], &[2, 2])?;
    /// assert_eq!(a.argwhere_async().await?.to_vec_async::<i64>().await?, vec![0, 1, 1, 0]);
    /// # Ok(()) }) }
    /// ```
    pub async fn argwhere_async(&self) -> Result<Array> {
        self.argwhere_of(&self.flatnonzero_async().await?)
    }

    /// The (count, ndim) coordinates of the flat positions `flat` of the true elements.
    fn argwhere_of(&self, flat: &Array) -> Result<Array> {
        if self.ndim() == 0 {
            return Array::zeros(&self.device, &[flat.len(), 0], self.device.index_dtype());
        }
        let coords = coordinates(flat, self.shape())?;
        let refs: Vec<&Array> = coords.iter().collect();
        crate::ops::join::stack(&refs, 1)
    }

    /// Boolean-mask selection, NumPy's `a[mask]`: the elements where `mask` (of this array's
    /// shape; any dtype, true where non-zero) is true, in C order, 1-d.
    ///
    /// Native only (it reads the count back); on wasm32 use [`Array::masked_async`].
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, -2.0, 3.0, -4.0], &[2, 2])?;
    /// assert_eq!(a.masked(&a.gt(0.0)?)?.to_vec::<f32>()?, vec![1.0, 3.0]);
    /// # Ok(()) }
    /// ```
    #[cfg(not(target_arch = "wasm32"))]
    pub fn masked(&self, mask: &Array) -> Result<Array> {
        let scan = self.mask_count("masked", mask)?;
        let total = selected(&scan)?;
        self.compact_values("masked", &scan, total)
    }

    /// [`Array::masked`] for async callers (and wasm32).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> { pollster::block_on(async {
    /// # let dev = gpuarray::Device::new_async().await?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1i32, -2, 3], &[3])?;
    /// let m = a.masked_async(&a.lt(0)?).await?;
    /// assert_eq!(m.to_vec_async::<i32>().await?, vec![-2]);
    /// # Ok(()) }) }
    /// ```
    pub async fn masked_async(&self, mask: &Array) -> Result<Array> {
        let scan = self.mask_count("masked", mask)?;
        let total = selected_async(&scan).await?;
        self.compact_values("masked", &scan, total)
    }

    fn mask_count(&self, op: &'static str, mask: &Array) -> Result<Array> {
        self.same_device(op, mask)?;
        if mask.shape() != self.shape() {
            return Err(Error::shape(
                op,
                format!(
                    "boolean index of shape {:?} does not match the array's shape {:?}",
                    mask.shape(),
                    self.shape()
                ),
            ));
        }
        mask.selection_count()
    }

    /// The selected elements of this array (flattened in C order) by the running count `scan`.
    fn compact_values(&self, op: &'static str, scan: &Array, total: usize) -> Result<Array> {
        let flat = self.contiguous()?.reshape(&[-1])?;
        match self.dtype {
            DType::F16 => compact(
                op,
                Some(&flat.astype(DType::F32)?),
                scan,
                total,
                Take::Word,
                DType::F32,
            )?
            .astype(DType::F16),
            // 8-byte elements move as word pairs, whatever they hold.
            d @ (DType::F64 | DType::I64 | DType::U64 | DType::C64) => {
                compact(op, Some(&flat), scan, total, Take::TwoWords, d)
            }
            // complex128 part by part.
            DType::C128 => {
                let part = |p: Array| -> Result<Array> {
                    compact(
                        op,
                        Some(&p.contiguous()?),
                        scan,
                        total,
                        Take::TwoWords,
                        DType::F64,
                    )?
                    .expand_dims(-1)
                };
                let (re, im) = (part(flat.real())?, part(flat.imag()?)?);
                Array::from_parts(&crate::ops::join::concatenate(&[&re, &im], -1)?)
            }
            // Packed elements move widened to words, and are packed again.
            d @ (DType::I8 | DType::I16 | DType::U8 | DType::U16) => {
                let word = if d.is_signed_int() {
                    DType::I32
                } else {
                    DType::U32
                };
                compact(op, Some(&flat.astype(word)?), scan, total, Take::Word, word)?.astype(d)
            }
            d => compact(op, Some(&flat), scan, total, Take::Word, d),
        }
    }

    /// `numpy.compress(condition, a, axis)`: the slices along `axis` (`None`: of the flattened
    /// array) where the 1-d `condition` is true; a condition shorter than the axis selects
    /// among its first entries only.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1i32, 2, 3, 4, 5, 6], &[3, 2])?;
    /// let c = gpuarray::Array::from_bools(&dev, &[true, false, true], &[3])?;
    /// assert_eq!(a.compress(&c, Some(0))?.to_vec::<i32>()?, vec![1, 2, 5, 6]);
    /// # Ok(()) }
    /// ```
    #[cfg(not(target_arch = "wasm32"))]
    pub fn compress(&self, condition: &Array, axis: Option<isize>) -> Result<Array> {
        let op = "compress";
        self.same_device(op, condition)?;
        if condition.ndim() != 1 {
            return Err(Error::shape(
                op,
                format!("condition must be 1-d, got shape {:?}", condition.shape()),
            ));
        }
        let (a, axis) = match axis {
            None => (self.contiguous()?.reshape(&[-1])?, 0),
            Some(ax) => (
                self.clone(),
                crate::layout::normalize_axis(op, ax, self.ndim())?,
            ),
        };
        let len = a.shape()[axis];
        let indices = condition.flatnonzero_i32()?;
        if !indices.is_empty() && indices.max(Axes::All, false)?.item::<i32>()? as usize >= len {
            return Err(Error::invalid(
                op,
                format!(
                    "condition selects index past the axis of length {len} (shape {:?})",
                    a.shape()
                ),
            ));
        }
        a.take(&indices, Some(axis as isize))
    }

    /// `a[mask] = value` (`numpy.putmask` with a scalar or an array broadcast to this array's
    /// shape): writes `value` where `mask` is true, in place (views write through).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, -2.0, 3.0], &[3])?;
    /// a.masked_assign(&a.lt(0.0)?, 0.0)?;
    /// assert_eq!(a.to_vec::<f32>()?, vec![1.0, 0.0, 3.0]);
    /// # Ok(()) }
    /// ```
    pub fn masked_assign<'a>(&self, mask: &Array, value: impl Into<Operand<'a>>) -> Result<()> {
        let op = "masked_assign";
        self.same_device(op, mask)?;
        let merged = where_(&mask.truth()?, value, self)?;
        if merged.shape() != self.shape() {
            return Err(Error::shape(
                op,
                format!(
                    "mask and value broadcast to {:?}, not to the array's shape {:?}",
                    merged.shape(),
                    self.shape()
                ),
            ));
        }
        self.assign(&merged)
    }
}

impl Array {
    /// `numpy.putmask(a, mask, values)`: where `mask` (as many elements as this array) is true,
    /// element `i` in C order becomes `values.flat[i % values.len()]`, converted to this dtype,
    /// in place (views write through). Empty `values` change nothing, as in NumPy.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[0i32, 1, 2, 3, 4], &[5])?;
    /// let v = gpuarray::Array::from_slice(&dev, &[-1i32, -2], &[2])?;
    /// a.putmask(&a.gt(1.0)?, &v)?;
    /// assert_eq!(a.to_vec::<i32>()?, vec![0, 1, -1, -2, -1]);
    /// # Ok(()) }
    /// ```
    pub fn putmask(&self, mask: &Array, values: &Array) -> Result<()> {
        let op = "putmask";
        let mask = self.same_size_mask(op, mask)?;
        self.same_device(op, values)?;
        if values.is_empty() || self.is_empty() {
            return Ok(());
        }
        let at = Array::arange(&self.device, 0.0, self.len() as f64, 1.0, DType::I32)?
            .remainder(values.len() as f64)?;
        self.assign_cycled(&mask, values, &at)
    }

    /// `numpy.place(arr, mask, vals)`: the k-th true element of `mask` (C order; as many
    /// elements as this array) becomes `vals.flat[k % vals.len()]`, converted to this dtype, in
    /// place. Empty `vals` with any true element is an `Err`, as NumPy raises.
    ///
    /// Native only (that check reads the count back).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[0i32, 1, 2, 3, 4], &[5])?;
    /// let v = gpuarray::Array::from_slice(&dev, &[-1i32, -2], &[2])?;
    /// a.place(&a.gt(1.0)?, &v)?;
    /// assert_eq!(a.to_vec::<i32>()?, vec![0, 1, -1, -2, -1]);
    /// a.place(&a.lt(0.0)?, &v)?;
    /// assert_eq!(a.to_vec::<i32>()?, vec![0, 1, -1, -2, -1]);
    /// # Ok(()) }
    /// ```
    #[cfg(not(target_arch = "wasm32"))]
    pub fn place(&self, mask: &Array, vals: &Array) -> Result<()> {
        let op = "place";
        let mask = self.same_size_mask(op, mask)?;
        self.same_device(op, vals)?;
        if self.is_empty() {
            return Ok(());
        }
        // The running count numbers the true elements 1, 2, ...: element k - 1 of vals each.
        let scan = mask.selection_count()?;
        if vals.is_empty() {
            if selected(&scan)? > 0 {
                return Err(Error::invalid(
                    op,
                    "cannot insert from an empty array (vals is empty and the mask selects elements)",
                ));
            }
            return Ok(());
        }
        let at = scan.sub(1.0)?.remainder(vals.len() as f64)?;
        self.assign_cycled(&mask, vals, &at)
    }

    /// `mask` (as many elements as this array) in this array's shape, as bool.
    fn same_size_mask(&self, op: &'static str, mask: &Array) -> Result<Array> {
        self.same_device(op, mask)?;
        if mask.len() != self.len() {
            return Err(Error::shape(
                op,
                format!(
                    "mask and data must be the same size: mask {:?}, data {:?}",
                    mask.shape(),
                    self.shape()
                ),
            ));
        }
        let shape: Vec<isize> = self.shape().iter().map(|&d| d as isize).collect();
        mask.contiguous()?.reshape(&shape)?.truth()
    }

    /// Writes `values.flat[at]` (`at`: i32 indices, flat, one per element) where `mask` is true.
    fn assign_cycled(&self, mask: &Array, values: &Array, at: &Array) -> Result<()> {
        let shape: Vec<isize> = self.shape().iter().map(|&d| d as isize).collect();
        let cycled = values
            .astype(self.dtype)?
            .reshape(&[-1])?
            .take(&at.reshape(&[-1])?, Some(0))?
            .reshape(&shape)?;
        self.masked_assign(mask, &cycled)
    }
}

/// `numpy.extract(condition, arr)`: `arr`'s elements where `condition` (of its shape) is true,
/// flattened ([`Array::masked`]).
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let a = gpuarray::Array::from_slice(&dev, &[5i32, 6, 7], &[3])?;
/// let c = gpuarray::Array::from_slice(&dev, &[1i32, 0, 2], &[3])?;
/// assert_eq!(gpuarray::extract(&c, &a)?.to_vec::<i32>()?, vec![5, 7]);
/// # Ok(()) }
/// ```
#[cfg(not(target_arch = "wasm32"))]
pub fn extract(condition: &Array, arr: &Array) -> Result<Array> {
    arr.masked(condition)
}

/// How many elements a running count selects (its last value; 0 for an empty count).
#[cfg(not(target_arch = "wasm32"))]
fn selected(scan: &Array) -> Result<usize> {
    if scan.is_empty() {
        return Ok(0);
    }
    let last = scan
        .reshape(&[-1])?
        .slice(&[crate::layout::SliceArg::Index(-1)])?;
    Ok(last.item::<i32>()? as usize)
}

async fn selected_async(scan: &Array) -> Result<usize> {
    if scan.is_empty() {
        return Ok(0);
    }
    let last = scan
        .reshape(&[-1])?
        .slice(&[crate::layout::SliceArg::Index(-1)])?;
    Ok(last.item_async::<i32>().await? as usize)
}

/// The coordinates (one i32 array per axis of `shape`) of C-order flat indices.
fn coordinates(flat: &Array, shape: &[usize]) -> Result<Vec<Array>> {
    let mut stride: usize = shape.iter().product();
    shape
        .iter()
        .map(|&n| {
            stride /= n.max(1);
            crate::ops::as_index(
                flat.floor_divide(stride.max(1) as f64)?
                    .remainder(n.max(1) as f64)?,
            )
        })
        .collect()
}

/// The words each element moves as.
fn words_of(take: Take) -> u64 {
    match take {
        Take::TwoWords => 2,
        _ => 1,
    }
}

/// The `total` selected entries of the flattened `src` (or their flat indices) by the running
/// count `scan`, into a fresh 1-d array of `dtype`.
fn compact(
    op: &'static str,
    src: Option<&Array>,
    scan: &Array,
    total: usize,
    take: Take,
    dtype: DType,
) -> Result<Array> {
    // Only word dtypes and 8-byte ones as word pairs reach here (compact_values widens the
    // packed ones).
    debug_assert!(dtype.is_word() || (words_of(take) == 2 && dtype.size_bytes() == 8));
    let device = scan.device();
    let out = Array::empty(op, device, &[total], dtype)?;
    let count = scan.len() as u64;
    if total == 0 || count == 0 {
        return Ok(out);
    }
    let dev = &device.inner;
    let words = words_of(take);
    let src = src.unwrap_or(scan);
    let src_bytes = src.dtype().size_bytes();
    let out_bytes = out.dtype().size_bytes();
    let mode = match take {
        Take::FlatIndex => 0,
        Take::Word => 1,
        Take::TwoWords => 2,
    };
    let key = PipelineKey::new(&COMPACT, Variant::one(DType::U32)).with("MODE", mode);
    // One window of the input (its running count and elements, the count just before it
    // included) and one of the output per launch: a window's selected elements can land in any
    // output window, and each launch writes only its own.
    let run = window_elements(dev, 4 * words);
    let total = total as u64;
    let mut first = 0;
    while first < count {
        let len = run.min(count - first);
        let has_before = first > 0;
        let before = has_before as u64;
        let (scan_bind, scan_base) = contiguous_window(op, scan, first - before, len + before, 4)?;
        let (src_bind, src_base) = if matches!(take, Take::FlatIndex) {
            (scan_bind, 0)
        } else {
            contiguous_window(op, src, first, len, src_bytes)?
        };
        let mut out_lo = 0;
        while out_lo < total {
            let out_len = run.min(total - out_lo);
            let (out_bind, out_base) = contiguous_window(op, &out, out_lo, out_len, out_bytes)?;
            let mut p = Params::default();
            p.u32(len as u32)
                .u32(scan_base + before as u32)
                .u32(src_base * (src_bytes / 4) as u32)
                .u32(has_before as u32)
                .u32(first as u32)
                .u32(out_lo as u32)
                .u32(out_len as u32)
                .u32(out_base * words as u32);
            dev.guarded(op, || {
                dev.dispatch(
                    &key,
                    p.bytes(),
                    &[scan_bind, src_bind, out_bind],
                    len,
                    &[len],
                )
            })?;
            out_lo += out_len;
        }
        first += len;
    }
    Ok(out)
}

/// Stream compaction by a mask's running count (`shaders/compact.wgsl`): the selected flat
/// indices or elements, in order, over 32-bit words (one u32 variant; `MODE` picks what is
/// written). Declared for the device; compiled on first use.
pub(crate) static COMPACT: crate::device::KernelDef = crate::device::KernelDef::on_first_use(
    "compact",
    "main",
    &[("WG", crate::device::DEFAULT_WG)],
    crate::device::KernelDef::words,
    |_| include_str!("../../shaders/compact.wgsl").to_string(),
);
