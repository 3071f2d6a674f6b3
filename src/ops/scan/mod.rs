//! Inclusive scans along one axis: `cumsum` and `cumprod` (the `impl Array` methods), and the host
//! side that picks how lines are scanned; `blocks.rs` records the block-wise scan kernels.
//!
//! When the input and the result each fit one storage binding (every array up to 128 MiB on
//! lavapipe), one call scans every line into a fresh C-contiguous result. Larger arrays are first
//! made contiguous and scanned in pieces that each fit a binding — groups of whole rows, or
//! segments of one row, each segment continuing from the last result of the one before.

mod blocks;
pub(crate) mod families;

use self::blocks::{Lines, scan_blocks};
use crate::array::Array;
use crate::device::Binding;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::normalize_axis;
use crate::ops::reduce::common::Group;
use crate::ops::reduce::op_codes::ScanOp;

impl Array {
    fn scan_op(&self, scan_op: ScanOp, axis: Option<isize>) -> Result<Array> {
        let (op, code) = (scan_op.name(), scan_op.code());
        self.device.inner.check_alive(op)?;
        let x = match self.dtype {
            DType::Bool => self.astype(DType::I32)?,
            // NumPy accumulates the small integers in its default integer of their signedness.
            DType::I8 | DType::I16 => self.astype(DType::I64)?,
            DType::U8 | DType::U16 => self.astype(DType::U64)?,
            _ => self.clone(),
        };
        match axis {
            None => {
                let flat = x.reshape(&[-1])?;
                scan(op, code, &flat, 0)
            }
            Some(a) => {
                let a = normalize_axis(op, a, self.ndim())?;
                scan(op, code, &x, a)
            }
        }
    }

    /// `numpy.cumsum` along `axis` (`None`: of the flattened array). Integers wrap; bool counts
    /// as i32 (NumPy: int64; [`Array::cumsum_dtype`] asks for it); int8/int16 accumulate in
    /// int64 and uint8/uint16 in uint64, as NumPy; f16 accumulates in f32.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1i32, 2, 3, 4, 5, 6], &[2, 3])?;
    /// assert_eq!(a.cumsum(Some(1))?.to_vec::<i32>()?, vec![1, 3, 6, 4, 9, 15]);
    /// assert_eq!(a.cumsum(Some(0))?.to_vec::<i32>()?, vec![1, 2, 3, 5, 7, 9]);
    /// # Ok(()) }
    /// ```
    pub fn cumsum(&self, axis: Option<isize>) -> Result<Array> {
        if self.dtype.is_complex() {
            return crate::ops::reduce::complex::cumsum(self, axis);
        }
        self.scan_op(ScanOp::Cumsum, axis)
    }

    /// `numpy.cumsum(a, axis, dtype=dtype)`: the elements converted to `dtype` (NumPy's
    /// casting), then summed in it: `DType::I64` gives NumPy's default result for int32 and bool
    /// input, exact past 2^31.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// use gpuarray::DType;
    /// let a = gpuarray::Array::from_slice(&dev, &[i32::MAX, i32::MAX, 2], &[3])?;
    /// let c = a.cumsum_dtype(None, DType::I64)?;
    /// assert_eq!(c.to_vec::<i64>()?, vec![2147483647, 4294967294, 4294967296]);
    /// # Ok(()) }
    /// ```
    pub fn cumsum_dtype(&self, axis: Option<isize>, dtype: DType) -> Result<Array> {
        self.scan_in(ScanOp::Cumsum, axis, dtype)
    }

    /// `numpy.cumprod(a, axis, dtype=dtype)`: as [`Array::cumsum_dtype`], for products.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// use gpuarray::DType;
    /// let a = gpuarray::Array::from_slice(&dev, &[65536i32, 65536, 3], &[3])?;
    /// let c = a.cumprod_dtype(None, DType::I64)?;
    /// assert_eq!(c.to_vec::<i64>()?, vec![65536, 1 << 32, 3 << 32]);
    /// # Ok(()) }
    /// ```
    pub fn cumprod_dtype(&self, axis: Option<isize>, dtype: DType) -> Result<Array> {
        self.scan_in(ScanOp::Cumprod, axis, dtype)
    }

    /// The scan in `dtype`: a dtype the kernels accumulate wider (bool, the 8- and 16-bit
    /// integers) is narrowed back, which wraps as accumulating in it would.
    fn scan_in(&self, scan_op: ScanOp, axis: Option<isize>, dtype: DType) -> Result<Array> {
        let r = self.astype(dtype)?.scan_op(scan_op, axis)?;
        if r.dtype == dtype {
            Ok(r)
        } else {
            r.astype(dtype)
        }
    }

    /// `numpy.cumprod` along `axis` (`None`: of the flattened array).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;
    /// assert_eq!(a.cumprod(None)?.to_vec::<f32>()?, vec![1.0, 2.0, 6.0]);
    /// # Ok(()) }
    /// ```
    pub fn cumprod(&self, axis: Option<isize>) -> Result<Array> {
        if self.dtype.is_complex() {
            return crate::ops::reduce::complex::cumprod(self, axis);
        }
        self.scan_op(ScanOp::Cumprod, axis)
    }
}

/// Inclusive scan of `x` along `axis` into a fresh array of `x`'s shape (`code` 0: sum, 1: prod).
pub(crate) fn scan(opname: &'static str, code: u32, x: &Array, axis: usize) -> Result<Array> {
    let dev_handle = x.device().clone();
    let dev = &dev_handle.inner;
    if x.dtype() == DType::F16 && dev.f16_emulated {
        // Packed f16: the scan kernels read no packed halves; f16 scans accumulate in f32 (as
        // the native path's do) and each prefix is rounded to f16.
        return scan(opname, code, &x.astype(DType::F32)?, axis)?.astype(DType::F16);
    }
    let nd = x.ndim();
    // Lines along the last axis of a permuted view; the result is permuted back (a view).
    let mut perm: Vec<usize> = (0..nd).filter(|&d| d != axis).collect();
    perm.push(axis);
    let mut inv = vec![0usize; nd];
    for (i, &d) in perm.iter().enumerate() {
        inv[d] = i;
    }
    let xp = x.transpose(&perm)?;
    let pshape = xp.shape().to_vec();
    let total = x.len() as u64;
    if total == 0 {
        return Array::empty(opname, &dev_handle, x.shape(), x.dtype());
    }
    let k = pshape[nd - 1] as u64;
    let m = total / k;
    let eb = x.dtype().size_bytes();
    let (src_arr, outer) = {
        let (_, l) = xp.storage_and_layout();
        let sh: Vec<u64> = l.shape[..nd - 1].iter().map(|&n| n as u64).collect();
        let st: Vec<i64> = l.strides[..nd - 1].iter().map(|&s| s as i64).collect();
        let g = Group::collapsed(&sh, &st);
        if g.shape.len() <= 4 {
            (xp.clone(), g)
        } else {
            let c = xp.contiguous()?;
            (c, Group::collapsed(&[m], &[k as i64]))
        }
    };
    let (ss, sl) = src_arr.storage_and_layout();
    let sbuf = ss.buffer().expect("non-empty");
    let axis_stride = *sl.strides.last().expect("rank >= 1") as i64;
    let (lo, hi) = sl.element_span();
    let out_fits = dev.window(0, total as i64 - 1, 0, eb, total * eb).is_some();
    if let (Some(sw), true) = (
        dev.window(lo, hi, sl.offset as i64, eb, ss.bytes()),
        out_fits,
    ) {
        // Everything in one binding each: the block-wise scan, into a result laid out like a
        // fresh array of x's shape (each line at the C strides of its axis), so lines along a
        // leading axis are written in the order they are read (neighbouring lines side by side).
        let out = Array::empty(opname, &dev_handle, x.shape(), x.dtype())?;
        let (os, ol) = out.storage_and_layout();
        let first = ol.offset as i64;
        let dw = dev
            .window(first, first + total as i64 - 1, first, eb, os.bytes())
            .ok_or_else(|| Error::overflow(opname, "scan result exceeds a binding"))?;
        let c_strides = &ol.strides;
        let dsh: Vec<u64> = perm[..nd - 1]
            .iter()
            .map(|&d| x.shape()[d] as u64)
            .collect();
        let dst: Vec<i64> = perm[..nd - 1]
            .iter()
            .map(|&d| c_strides[d] as i64)
            .collect();
        scan_blocks(
            opname,
            code,
            &src_arr,
            Lines {
                binding: Binding::of(sbuf, &sw),
                base: sw.base,
                outer: &outer,
                axis_stride,
            },
            (m, k),
            Lines {
                binding: Binding::of(os.buffer().expect("non-empty"), &dw),
                base: dw.base,
                outer: &Group::collapsed(&dsh, &dst),
                axis_stride: c_strides[axis] as i64,
            },
            false,
        )?;
        return Ok(out);
    }
    // Too large for one binding: contiguous rows, in groups of whole rows (or one row) per
    // binding, each group in segments of at most one binding per line, each segment continuing
    // from the last result of the one before; the result is contiguous in the permuted order
    // (permuted back at the end, a view).
    let out = Array::empty(opname, &dev_handle, &pshape, x.dtype())?;
    let (os, _) = out.storage_and_layout();
    let obuf = os.buffer().expect("non-empty");
    let win_elems = (dev.max_window() - 256) / eb;
    let c = xp.contiguous()?;
    let (cs, cl) = c.storage_and_layout();
    let cbuf = cs.buffer().expect("non-empty");
    let off0 = cl.offset as i64;
    let rows_per = if k <= win_elems {
        (win_elems / k).max(1)
    } else {
        1
    };
    let row_group = |rows: u64| Group {
        shape: vec![rows],
        strides: vec![k as i64],
    };
    let mut m0 = 0u64;
    while m0 < m {
        let rows = rows_per.min(m - m0);
        let group = row_group(rows);
        let mut k0 = 0u64;
        while k0 < k {
            let kl = win_elems.min(k - k0);
            let first = (m0 * k + k0) as i64;
            let last = first + ((rows - 1) * k + kl - 1) as i64;
            let sw = dev
                .window(off0 + first, off0 + last, off0 + first, eb, cs.bytes())
                .ok_or_else(|| Error::overflow(opname, "scan piece exceeds a binding"))?;
            // A continuing segment reads the result just before each line's first element.
            let dlo = if k0 > 0 { first - 1 } else { first };
            let dw = dev
                .window(dlo, last, first, eb, os.bytes())
                .ok_or_else(|| Error::overflow(opname, "scan piece exceeds a binding"))?;
            scan_blocks(
                opname,
                code,
                &c,
                Lines {
                    binding: Binding::of(cbuf, &sw),
                    base: sw.base,
                    outer: &group,
                    axis_stride: 1,
                },
                (rows, kl),
                Lines {
                    binding: Binding::of(obuf, &dw),
                    base: dw.base,
                    outer: &group,
                    axis_stride: 1,
                },
                k0 > 0,
            )?;
            k0 += kl;
        }
        m0 += rows;
    }
    out.transpose(&inv)
}
