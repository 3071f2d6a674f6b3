//! `bincount` and `histogram`: counts by atomic integer adds on the device
//! (`shaders/bincount.wgsl`), exact and the same on every adapter whatever order the adds land
//! in. `histogram` finds each element's bin by a binary search of the bin edges (the
//! `searchsorted` kernel), so an element on an edge goes where NumPy puts it: bin `i` holds
//! `edges[i] <= x < edges[i + 1]`, the last bin its right edge too, and NaN or anything outside
//! the edges is not counted. The edges of `bins = n` are NumPy's `linspace`, formed on the host
//! in the dtype NumPy forms them in. Counts are i32 (NumPy's are int64; gpuarray has no 64-bit
//! integers). Inputs larger than one storage binding are counted window by window.
//!
//! Native only: the size of `bincount`'s result and `histogram`'s automatic range come from the
//! data, which is read back (a single value each).

use crate::array::Array;
use crate::device::params::Params;
use crate::device::{Binding, PipelineKey, Variant};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::{Axes, SliceArg};
use crate::ops::search::Side;

pub(crate) mod weighted;

/// The bins of [`Array::histogram`] (NumPy's `bins`).
#[derive(Debug, Clone, Copy)]
pub enum HistogramBins<'a> {
    /// This many equal-width bins over the range (`bins=10`).
    Count(usize),
    /// These monotonically increasing edges, one more than the bins (`bins=[0, 1, 2.5]`).
    Edges(&'a Array),
}

impl Array {
    /// `numpy.bincount(x, minlength=minlength)` of a 1-d array of non-negative integers (any
    /// integer dtype, or bool): how many times each value `0..=max(x)` occurs, in the index
    /// dtype, at least `minlength` long.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let x = gpuarray::Array::from_slice(&dev, &[1i32, 3, 1, 0, 3, 3], &[6])?;
    /// assert_eq!(x.bincount(0)?.to_vec::<i64>()?, vec![1, 2, 0, 3]);
    /// assert_eq!(x.bincount(6)?.to_vec::<i64>()?, vec![1, 2, 0, 3, 0, 0]);
    /// # Ok(()) }
    /// ```
    pub fn bincount(&self, minlength: usize) -> Result<Array> {
        let op = "bincount";
        let Some((words, largest)) = self.bincount_input(op)? else {
            return Array::zeros(&self.device, &[minlength], self.device.index_dtype());
        };
        let bins = (largest as usize + 1).max(minlength);
        let counts = zero_counts(op, &self.device, bins)?;
        count_into(op, &words, 0, &counts)?;
        crate::ops::as_index(counts)
    }

    /// `numpy.bincount(x, weights, minlength)`: the sum of the weights of each value
    /// `0..=max(x)`, as f64 (NumPy's dtype; weights of any dtype are converted). Each sum adds
    /// its weights one by one in index order, as NumPy's loop does, so the bits are NumPy's.
    /// Needs an adapter with f64.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// # if !dev.supports(gpuarray::DType::F64) { return Ok(()); }
    /// let x = gpuarray::Array::from_slice(&dev, &[1i32, 3, 1, 0], &[4])?;
    /// let w = gpuarray::Array::from_slice(&dev, &[0.5f32, 2.0, 0.25, 1.0], &[4])?;
    /// assert_eq!(x.bincount_weighted(&w, 5)?.to_vec::<f64>()?, vec![1.0, 0.75, 0.0, 2.0, 0.0]);
    /// # Ok(()) }
    /// ```
    pub fn bincount_weighted(&self, weights: &Array, minlength: usize) -> Result<Array> {
        let op = "bincount";
        self.same_device(op, weights)?;
        if weights.shape() != self.shape() {
            return Err(Error::shape(
                op,
                format!(
                    "the weights and the input must have the same shape: {:?} vs {:?}",
                    weights.shape(),
                    self.shape()
                ),
            ));
        }
        let Some((words, largest)) = self.bincount_input(op)? else {
            return weighted::zero_sums(op, &self.device, minlength);
        };
        let bins = (largest as usize + 1).max(minlength);
        weighted::sums(op, &words, weights, bins)
    }

    /// bincount's input as i32/u32 words (contiguous) and its largest value, after NumPy's
    /// checks (1-d, integers, no negatives); `None` when empty.
    fn bincount_input(&self, op: &'static str) -> Result<Option<(Array, u32)>> {
        if self.ndim() != 1 {
            return Err(Error::shape(
                op,
                format!("the input must be 1-d, got shape {:?}", self.shape()),
            ));
        }
        if !(self.dtype.is_int() || self.dtype == DType::Bool) {
            return Err(Error::Unsupported {
                op,
                feature: format!(
                    "bincount counts integers; dtype {} cannot be cast to one safely (NumPy refuses too)",
                    self.dtype
                ),
            });
        }
        if self.is_empty() {
            return Ok(None);
        }
        // The extremes in the input's own dtype (exact for every width), then the values as
        // u32 words: exact once they are known to lie in 0..2^32.
        if self.dtype.is_signed_int() {
            let lowest = extreme(&self.min(Axes::All, false)?)?;
            if lowest < 0 {
                return Err(Error::invalid(
                    op,
                    format!("the input must have no negative elements (its minimum is {lowest})"),
                ));
            }
        }
        let largest = extreme(&self.max(Axes::All, false)?)?;
        let largest = u32::try_from(largest).map_err(|_| Error::TooLarge {
            op,
            requested: largest as u64,
            max: u64::from(u32::MAX),
            what: "bins (the input's largest value plus one)",
        })?;
        let words = match self.dtype {
            DType::I32 | DType::U32 => self.contiguous()?,
            _ => self.astype(DType::U32)?,
        };
        Ok(Some((words, largest)))
    }

    /// `numpy.histogram(a, bins, range)` of the flattened array: the count of each bin (the index dtype) and
    /// the bin edges. `range` (`None`: the data's minimum and maximum) bounds `bins = Count(n)`;
    /// with `Edges` it is ignored, as NumPy ignores it. Float and integer dtypes.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// use gpuarray::HistogramBins;
    /// let a = gpuarray::Array::from_slice(&dev, &[0.5f32, 1.0, 1.5, 2.0, 9.0, f32::NAN], &[6])?;
    /// let (counts, edges) = a.histogram(HistogramBins::Count(2), Some((0.0, 2.0)))?;
    /// assert_eq!(counts.to_vec::<i64>()?, vec![1, 3]); // 2.0 is in the last bin; 9 and NaN in none
    /// assert_eq!(edges.to_vec::<f32>()?, vec![0.0, 1.0, 2.0]);
    /// # Ok(()) }
    /// ```
    pub fn histogram(
        &self,
        bins: HistogramBins<'_>,
        range: Option<(f64, f64)>,
    ) -> Result<(Array, Array)> {
        self.binned("histogram", bins, range, None)
    }

    /// `numpy.histogram(a, bins, range, weights)`: the f64 sum of the weights (of `a`'s shape,
    /// any dtype) in each bin, and the bin edges; the bins as [`Array::histogram`] finds them.
    /// Each bin's weights are added in index order (within parts of 2^24 elements, whose sums
    /// are then added in order), so the bits are the same on every adapter; NumPy adds in blocks
    /// of 65,536, so its last bits can differ. Needs an adapter with f64.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// # if !dev.supports(gpuarray::DType::F64) { return Ok(()); }
    /// use gpuarray::HistogramBins;
    /// let a = gpuarray::Array::from_slice(&dev, &[0.5f32, 1.0, 1.5, 2.0, 9.0], &[5])?;
    /// let w = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 4.0, 8.0, 16.0], &[5])?;
    /// let (sums, _) = a.histogram_weighted(HistogramBins::Count(2), Some((0.0, 2.0)), &w)?;
    /// assert_eq!(sums.to_vec::<f64>()?, vec![1.0, 14.0]);
    /// # Ok(()) }
    /// ```
    pub fn histogram_weighted(
        &self,
        bins: HistogramBins<'_>,
        range: Option<(f64, f64)>,
        weights: &Array,
    ) -> Result<(Array, Array)> {
        let op = "histogram";
        self.same_device(op, weights)?;
        if weights.shape() != self.shape() {
            return Err(Error::shape(
                op,
                format!(
                    "weights should have the same shape as a: {:?} vs {:?}",
                    weights.shape(),
                    self.shape()
                ),
            ));
        }
        self.binned(op, bins, range, Some(weights))
    }

    /// The counts (i32) or weight sums (f64) of each bin, and the edges.
    fn binned(
        &self,
        op: &'static str,
        bins: HistogramBins<'_>,
        range: Option<(f64, f64)>,
        weights: Option<&Array>,
    ) -> Result<(Array, Array)> {
        if self.dtype == DType::Bool {
            return Err(Error::Unsupported {
                op,
                feature: "histogram of bool: NumPy refuses to subtract booleans; use astype".into(),
            });
        }
        let flat = self.contiguous()?.reshape(&[-1])?;
        let edges = match bins {
            HistogramBins::Edges(e) => {
                self.same_device(op, e)?;
                check_edges(op, e)?;
                e.clone()
            }
            HistogramBins::Count(n) => {
                if n == 0 {
                    return Err(Error::invalid(
                        op,
                        "`bins` must be positive, when an integer",
                    ));
                }
                equal_edges(op, &flat, n, range)?
            }
        };
        let bins = edges.len() - 1;
        if flat.is_empty() || bins == 0 {
            let none = match weights {
                Some(_) => weighted::zero_sums(op, &self.device, bins)?,
                None => Array::zeros(&self.device, &[bins], self.device.index_dtype())?,
            };
            return Ok((none, edges));
        }
        let flat_weights = weights.map(|w| w.reshape(&[-1])).transpose()?;
        // The right-side position among the edges is bin + 1 for edges[bin] <= x < edges[bin + 1]
        // (0 below the first edge, len past the last). An element equal to the last edge goes in
        // the last bin; one past it (or NaN, which sorts last) in none: the left-side position
        // among [last edge] tells those apart. Inputs are searched in parts of at most a binding
        // of f64, counted into one array, so the positions and masks held at once stay small.
        let last = edges.slice(&[SliceArg::Range {
            start: Some(bins as isize),
            stop: None,
            step: 1,
        }])?;
        let mut counts = match weights {
            Some(_) => weighted::zero_sums(op, &self.device, bins)?,
            None => zero_counts(op, &self.device, bins)?,
        };
        let part_len = (self.device.inner.max_window() / 8) as usize;
        let mut start = 0;
        while start < flat.len() {
            let stop = (start + part_len).min(flat.len());
            let part = flat.slice(&[SliceArg::Range {
                start: Some(start as isize),
                stop: Some(stop as isize),
                step: 1,
            }])?;
            let position = edges.searchsorted_i32(&part, Side::Right)?;
            let past = last.searchsorted_i32(&part, Side::Left)?.gt(0.0)?;
            let in_last = position.minimum(bins as f64)?;
            let slot = crate::where_(&past, 0.0, &in_last)?;
            match &flat_weights {
                // Slot 0 (not counted) is summed too and dropped.
                Some(w) => {
                    let part_weights = w.slice(&[SliceArg::Range {
                        start: Some(start as isize),
                        stop: Some(stop as isize),
                        step: 1,
                    }])?;
                    let sums = weighted::sums(op, &slot, &part_weights, bins + 1)?;
                    let binned = sums.slice(&[SliceArg::Range {
                        start: Some(1),
                        stop: None,
                        step: 1,
                    }])?;
                    counts = counts.add(&binned)?;
                }
                None => count_into(op, &slot, 1, &counts)?,
            }
            start = stop;
        }
        match weights {
            Some(_) => Ok((counts, edges)),
            None => Ok((crate::ops::as_index(counts)?, edges)),
        }
    }
}

/// The value of a 0-d integer or bool array, widened.
fn extreme(x: &Array) -> Result<i128> {
    Ok(match x.dtype() {
        DType::I8 => x.item::<i8>()?.into(),
        DType::U8 => x.item::<u8>()?.into(),
        DType::I16 => x.item::<i16>()?.into(),
        DType::U16 => x.item::<u16>()?.into(),
        DType::I32 => x.item::<i32>()?.into(),
        DType::U32 => x.item::<u32>()?.into(),
        DType::I64 => x.item::<i64>()?.into(),
        DType::U64 => x.item::<u64>()?.into(),
        _ => i128::from(x.astype(DType::U32)?.item::<u32>()?),
    })
}

/// `bins` zero counts (i32), refused before anything is allocated when they would not fit the
/// one storage binding the counting kernel writes them through.
fn zero_counts(op: &'static str, device: &crate::Device, bins: usize) -> Result<Array> {
    zeros_in_one_binding(op, device, bins, DType::I32, "counts (one storage binding)")
}

/// `bins` zeros of `dtype` for a kernel that writes them through one storage binding, refused
/// (as `what`) before anything is allocated when they would not fit it.
fn zeros_in_one_binding(
    op: &'static str,
    device: &crate::Device,
    bins: usize,
    dtype: DType,
    what: &'static str,
) -> Result<Array> {
    let max_window = device.inner.max_window();
    let bytes = bins as u64 * dtype.size_bytes();
    if bytes > max_window {
        return Err(Error::TooLarge {
            op,
            requested: bytes,
            max: max_window,
            what,
        });
    }
    Array::zeros(device, &[bins], dtype)
}

/// Adds to `counts` (from [`zero_counts`]) the counts of the values `lo..lo + counts.len()` of
/// the i32/u32 array `words` (contiguous), one launch per storage-binding window.
fn count_into(op: &'static str, words: &Array, lo: u32, counts: &Array) -> Result<()> {
    let bins = counts.len();
    let dev = &words.device.inner;
    let max_window = dev.max_window();
    let out_buffer = counts
        .storage
        .buffer()
        .ok_or_else(|| Error::invalid(op, "an empty counts array has no buffer to bind"))?;
    let in_buffer = words
        .storage
        .buffer()
        .ok_or_else(|| Error::invalid(op, "an empty input has no buffer to bind"))?;
    let n = words.len() as i64;
    let first = words.layout.offset as i64;
    // Whole windows less the alignment slack, so each chunk fits one window.
    let chunk = ((max_window - dev.block_limits().offset_alignment) / 4) as i64;
    let key = PipelineKey::new(&BINCOUNT, Variant::one(DType::U32));
    let mut start = 0i64;
    while start < n {
        let len = chunk.min(n - start);
        let lo_el = first + start;
        let window = dev
            .window(lo_el, lo_el + len - 1, lo_el, 4, words.storage.bytes())
            .ok_or_else(|| Error::overflow(op, format!("window of {len} elements")))?;
        let mut p = Params::default();
        p.u32(len as u32)
            .u32(window.base as u32)
            .u32(lo)
            .u32(bins as u32);
        let binds = [
            Binding::of(in_buffer, &window),
            Binding {
                buffer: out_buffer,
                offset: 0,
                size: (bins as u64 * 4).next_multiple_of(4),
            },
        ];
        dev.guarded(op, || {
            dev.dispatch(&key, p.bytes(), &binds, len as u64, &[len as u64])
        })?;
        start += len;
    }
    Ok(())
}

/// NumPy's rule for explicit edges: 1-d, at least one, none above the next (as in NumPy, a NaN
/// edge compares as neither).
fn check_edges(op: &'static str, e: &Array) -> Result<()> {
    if e.ndim() != 1 || e.is_empty() {
        return Err(Error::shape(
            op,
            format!(
                "`bins` must be 1-d with at least one edge, got shape {:?}",
                e.shape()
            ),
        ));
    }
    if e.dtype == DType::Bool {
        return Err(Error::Unsupported {
            op,
            feature: "bool bin edges".into(),
        });
    }
    let host = read_f64(e)?;
    if host.windows(2).any(|w| w[0] > w[1]) {
        return Err(Error::invalid(
            op,
            "`bins` must increase monotonically, when an array",
        ));
    }
    Ok(())
}

/// f64 where the adapter has it (every i32/u32/f16/f32 value converts exactly), else f32.
fn host_dtype(a: &Array) -> DType {
    if a.device.supports(DType::F64) {
        DType::F64
    } else {
        DType::F32
    }
}

/// The values of `a` on the host as f64, read in [`host_dtype`].
fn read_f64(a: &Array) -> Result<Vec<f64>> {
    let h = a.astype(host_dtype(a))?;
    if h.dtype == DType::F64 {
        h.to_vec::<f64>()
    } else {
        Ok(h.to_vec::<f32>()?.into_iter().map(f64::from).collect())
    }
}

/// NumPy's edges for `n` equal bins: the range (given, or the data's minimum and maximum, widened
/// by 0.5 each way when they are equal), then `linspace(first, last, n + 1)` computed in the
/// dtype NumPy computes it in (float64 for a given range or integer data; the data's float dtype
/// for a range from float data) and stored in the bins' dtype (the data's float dtype; float64
/// for integer data).
fn equal_edges(
    op: &'static str,
    flat: &Array,
    n: usize,
    range: Option<(f64, f64)>,
) -> Result<Array> {
    let edge_dtype = if flat.dtype.is_float() {
        flat.dtype
    } else {
        host_dtype(flat)
    };
    let (first, last, arith) = match range {
        Some((lo, hi)) => {
            if lo > hi {
                return Err(Error::invalid(
                    op,
                    "max must be larger than min in range parameter",
                ));
            }
            if !(lo.is_finite() && hi.is_finite()) {
                return Err(Error::invalid(
                    op,
                    format!("supplied range of [{lo}, {hi}] is not finite"),
                ));
            }
            (lo, hi, DType::F64)
        }
        None if flat.is_empty() => (0.0, 1.0, DType::F64),
        None => {
            let read = |a: Array| -> Result<f64> { Ok(read_f64(&a)?[0]) };
            let lo = read(flat.min(Axes::All, false)?)?;
            let hi = read(flat.max(Axes::All, false)?)?;
            if !(lo.is_finite() && hi.is_finite()) {
                return Err(Error::invalid(
                    op,
                    format!("autodetected range of [{lo}, {hi}] is not finite"),
                ));
            }
            let arith = if flat.dtype.is_float() {
                flat.dtype
            } else {
                DType::F64
            };
            (lo, hi, arith)
        }
    };
    let round = rounding(arith);
    let (first, last) = if first == last {
        (round(first - 0.5), round(last + 0.5))
    } else {
        (first, last)
    };
    let edges = linspace(first, last, n + 1, round);
    let to_edge = rounding(edge_dtype);
    let edges: Vec<f64> = edges.into_iter().map(to_edge).collect();
    let dev = &flat.device;
    match edge_dtype {
        DType::F64 => Array::from_slice(dev, &edges, &[n + 1]),
        DType::F16 => {
            let h: Vec<crate::f16> = edges.iter().map(|&x| crate::f16::from_f64(x)).collect();
            Array::from_slice(dev, &h, &[n + 1])
        }
        _ => {
            let h: Vec<f32> = edges.iter().map(|&x| x as f32).collect();
            Array::from_slice(dev, &h, &[n + 1])
        }
    }
}

/// Rounding of an f64 to `dtype`'s precision (f64 arithmetic rounded once per operation gives
/// f32's and f16's +, -, *, / exactly: f64 has more than twice their precision plus two bits).
fn rounding(dtype: DType) -> fn(f64) -> f64 {
    match dtype {
        DType::F32 => |x| x as f32 as f64,
        DType::F16 => |x| crate::f16::from_f64(x).to_f64(),
        _ => |x| x,
    }
}

/// NumPy's `linspace(start, stop, num, endpoint=True)` in the arithmetic `round` gives: `delta =
/// stop - start`, `step = delta / (num - 1)`, `i * step + start` (or `i / div * delta + start`
/// when the step underflows to 0), and the last value `stop` itself.
fn linspace(start: f64, stop: f64, num: usize, round: fn(f64) -> f64) -> Vec<f64> {
    let div = (num - 1) as f64;
    let delta = round(stop - start);
    let step = round(delta / div);
    let mut y: Vec<f64> = (0..num)
        .map(|i| {
            let i = i as f64;
            let scaled = if step == 0.0 {
                round(round(i / div) * delta)
            } else {
                round(i * step)
            };
            round(scaled + start)
        })
        .collect();
    if num > 1 {
        y[num - 1] = stop;
    }
    y
}

/// Counts of small non-negative integers by atomic adds, for bincount and histogram
/// (`shaders/bincount.wgsl`; one u32 variant). Declared for the device; compiled on first use.
pub(crate) static BINCOUNT: crate::device::KernelDef = crate::device::KernelDef::on_first_use(
    "bincount",
    "main",
    &[("WG", crate::device::DEFAULT_WG)],
    crate::device::KernelDef::words,
    |_| include_str!("../../../shaders/bincount.wgsl").to_string(),
);
