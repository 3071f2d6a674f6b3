//! `numpy.pad`'s modes beyond a constant: the border of each axis, axis after axis (corners come
//! from the axes padded before, as NumPy's do). Modes that copy elements (`edge`, `wrap`,
//! `reflect`, `symmetric`) are one gather along the axis at indices the host computes from the
//! shape alone (NumPy's iterated reflections are periodic: `reflect` repeats every 2(n − 1),
//! `symmetric` every 2n, `wrap` every n; `reflect_type="odd"` is filled round by round as NumPy
//! fills it, since each round builds on the rounded values of the last); `linear_ramp` and the
//! statistics (`maximum`, `minimum`, `mean`, `median` of `stat_length` elements) are small
//! reductions broadcast over the border. Everything runs on the device.

use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::{SliceArg, normalize_axis};
use crate::ops::join::concatenate;

/// How [`Array::pad_axis`] and [`Array::pad_with`] fill a border (NumPy's `np.pad` modes). Pairs
/// are (before, after) values for the two ends of an axis.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PadMode {
    /// A constant per end (`"constant"`, `constant_values`).
    Constant(f64, f64),
    /// The edge element repeated (`"edge"`).
    Edge,
    /// The axis continued periodically (`"wrap"`).
    Wrap,
    /// Mirrored about the edge element, which is not repeated (`"reflect"`); `odd` is
    /// `reflect_type="odd"` (2·edge − mirrored value, any width, as NumPy iterates it).
    Reflect {
        /// NumPy's `reflect_type="odd"`.
        odd: bool,
    },
    /// Mirrored about the edge, repeating it (`"symmetric"`); `odd` as for `Reflect`.
    Symmetric {
        /// NumPy's `reflect_type="odd"`.
        odd: bool,
    },
    /// A ramp from an end value to the edge element (`"linear_ramp"`, `end_values`).
    LinearRamp(f64, f64),
    /// The largest of the `stat_length` elements at each end (`None`: the whole axis).
    Maximum(Option<usize>, Option<usize>),
    /// The smallest of them.
    Minimum(Option<usize>, Option<usize>),
    /// Their mean (rounded half to even for integers, as NumPy).
    Mean(Option<usize>, Option<usize>),
    /// Their median (rounded for integers).
    Median(Option<usize>, Option<usize>),
    /// Unspecified values (`"empty"`): zeros here.
    Empty,
}

impl PadMode {
    fn name(&self) -> &'static str {
        match self {
            PadMode::Constant(..) => "constant",
            PadMode::Edge => "edge",
            PadMode::Wrap => "wrap",
            PadMode::Reflect { .. } => "reflect",
            PadMode::Symmetric { .. } => "symmetric",
            PadMode::LinearRamp(..) => "linear_ramp",
            PadMode::Maximum(..) => "maximum",
            PadMode::Minimum(..) => "minimum",
            PadMode::Mean(..) => "mean",
            PadMode::Median(..) => "median",
            PadMode::Empty => "empty",
        }
    }
}

/// The source index along an axis of length `n` for position `i` (negative: before the start)
/// of an index-copying mode.
fn source_index(mode: &PadMode, i: i64, n: i64) -> i64 {
    match mode {
        PadMode::Edge => i.clamp(0, n - 1),
        PadMode::Wrap => i.rem_euclid(n),
        PadMode::Symmetric { .. } => {
            let m = i.rem_euclid(2 * n);
            if m < n { m } else { 2 * n - 1 - m }
        }
        _ => {
            // Reflect: period 2(n − 1); a single element reflects onto itself.
            if n == 1 {
                return 0;
            }
            let p = 2 * (n - 1);
            let m = i.rem_euclid(p);
            if m < n { m } else { p - m }
        }
    }
}

impl Array {
    /// `numpy.pad(a, pad_width, mode)` for every mode: `widths[d]` = (before, after) elements
    /// added to axis `d`, the same `mode` on every axis, axis after axis as NumPy pads.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// use gpuarray::{Array, PadMode};
    /// let a = Array::from_slice(&dev, &[1i32, 2, 3], &[3])?;
    /// let r = a.pad_with(&[(2, 3)], PadMode::Reflect { odd: false })?;
    /// assert_eq!(r.to_vec::<i32>()?, vec![3, 2, 1, 2, 3, 2, 1, 2]);
    /// let s = a.pad_with(&[(1, 1)], PadMode::Mean(None, None))?;
    /// assert_eq!(s.to_vec::<i32>()?, vec![2, 1, 2, 3, 2]);
    /// # Ok(()) }
    /// ```
    pub fn pad_with(&self, widths: &[(usize, usize)], mode: PadMode) -> Result<Array> {
        if widths.len() != self.ndim() {
            return Err(Error::shape(
                "pad",
                format!(
                    "pad_width has {} entries for an array of shape {:?}",
                    widths.len(),
                    self.shape()
                ),
            ));
        }
        let mut out = self.clone();
        for (d, &(before, after)) in widths.iter().enumerate() {
            out = out.pad_axis(d as isize, before, after, mode)?;
        }
        if widths.iter().all(|&(b, a)| b == 0 && a == 0) {
            // NumPy's pad returns a new array even when nothing is added.
            out = out.astype(out.dtype())?;
        }
        Ok(out)
    }

    /// One axis of [`Array::pad_with`]: `before` and `after` elements added to `axis`.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// use gpuarray::{Array, PadMode};
    /// let a = Array::from_slice(&dev, &[1.0f32, 2.0, 3.0, 4.0], &[2, 2])?;
    /// let w = a.pad_axis(1, 1, 2, PadMode::Wrap)?;
    /// assert_eq!(w.to_vec::<f32>()?, vec![2.0, 1.0, 2.0, 1.0, 2.0, 4.0, 3.0, 4.0, 3.0, 4.0]);
    /// # Ok(()) }
    /// ```
    pub fn pad_axis(
        &self,
        axis: isize,
        before: usize,
        after: usize,
        mode: PadMode,
    ) -> Result<Array> {
        let op = "pad";
        let ax = normalize_axis(op, axis, self.ndim())?;
        let n = self.shape()[ax];
        if before == 0 && after == 0 {
            return Ok(self.clone());
        }
        let mut widths = vec![(0usize, 0usize); self.ndim()];
        widths[ax] = (before, after);
        if let PadMode::Constant(b, a) = mode {
            // The constant path, then the after-end's value where it differs.
            let out = self.pad(&widths, b)?;
            if a != b && after > 0 {
                out.slice(&axis_range(self.ndim(), ax, (before + n) as isize, None))?
                    .fill(a)?;
            }
            return Ok(out);
        }
        if matches!(mode, PadMode::Empty) {
            return self.pad(&widths, 0.0);
        }
        if n == 0 {
            return Err(Error::invalid(
                op,
                format!(
                    "can't extend empty axis {ax} using modes other than 'constant' or 'empty' \
                     (mode {})",
                    mode.name()
                ),
            ));
        }
        let part = |lo: usize, hi: usize| {
            self.slice(&axis_range(self.ndim(), ax, lo as isize, Some(hi as isize)))
        };
        let (left, right) = match mode {
            PadMode::Edge | PadMode::Wrap | PadMode::Reflect { .. } | PadMode::Symmetric { .. } => {
                let gather = |from: i64, to: i64| -> Result<Array> {
                    let idx: Vec<i32> = (from..to)
                        .map(|i| source_index(&mode, i, n as i64) as i32)
                        .collect();
                    let idx = Array::from_slice(self.device(), &idx, &[idx.len()])?;
                    self.take_in_range(&idx, ax as isize)
                };
                if let PadMode::Reflect { odd: true } | PadMode::Symmetric { odd: true } = mode {
                    if n > 1 {
                        let symmetric = matches!(mode, PadMode::Symmetric { .. });
                        return self.pad_odd_reflection(ax, before, after, symmetric);
                    }
                    // NumPy pads a single element as `edge` (2·a − a could overflow).
                    return self.pad_axis(axis, before, after, PadMode::Edge);
                }
                let left = gather(-(before as i64), 0)?;
                let right = gather(n as i64, (n + after) as i64)?;
                (left, right)
            }
            PadMode::LinearRamp(end_before, end_after) => {
                let left = ramp(&part(0, 1)?, ax, before, end_before, false)?;
                let right = ramp(&part(n - 1, n)?, ax, after, end_after, true)?;
                (left, right)
            }
            PadMode::Maximum(lb, la)
            | PadMode::Minimum(lb, la)
            | PadMode::Mean(lb, la)
            | PadMode::Median(lb, la) => {
                let length = |l: Option<usize>| -> Result<usize> {
                    match l {
                        Some(0) if matches!(mode, PadMode::Maximum(..) | PadMode::Minimum(..)) => {
                            Err(Error::invalid(
                                op,
                                "stat_length of 0 yields no value for padding",
                            ))
                        }
                        Some(l) => Ok(l.min(n)),
                        None => Ok(n),
                    }
                };
                let (kb, ka) = (length(lb)?, length(la)?);
                let left = statistic(&mode, &part(0, kb)?, ax)?;
                let right = statistic(&mode, &part(n - ka, n)?, ax)?;
                let mut lshape = self.shape().to_vec();
                lshape[ax] = before;
                let mut rshape = self.shape().to_vec();
                rshape[ax] = after;
                (left.broadcast_to(&lshape)?, right.broadcast_to(&rshape)?)
            }
            PadMode::Constant(..) | PadMode::Empty => unreachable!("handled above"),
        };
        concatenate(&[&left, self, &right], ax as isize)
    }
}

impl Array {
    /// `reflect_type="odd"` along axis `ax` (length `n` > 1) exactly as NumPy computes it
    /// (`_set_reflect_both`): the border is filled in rounds, each mirroring at most one period
    /// of what is already there as 2·edge − mirrored value, the edge being the outermost
    /// element of the previous round. The values past the first period depend on the rounded
    /// results of the rounds before, so they are computed round by round (NumPy's bits), not
    /// gathered from the axis.
    fn pad_odd_reflection(
        &self,
        ax: usize,
        before: usize,
        after: usize,
        symmetric: bool,
    ) -> Result<Array> {
        let ndim = self.ndim();
        let n = self.shape()[ax];
        let mut widths = vec![(0usize, 0usize); ndim];
        widths[ax] = (before, after);
        let padded = self.pad(&widths, 0.0)?;
        let len = n + before + after;
        let at = |start: isize, stop: Option<isize>, step: isize| {
            padded.slice(&axis_steps(ndim, ax, start, stop, step))
        };
        let (mut left, mut right) = (before, after);
        while left > 0 || right > 0 {
            let filled = len - left - right;
            // One round mirrors whole periods of the original axis only.
            let (chunk_limit, edge_offset) = if symmetric {
                (filled / n * n, 1)
            } else {
                ((filled - 1) / (n - 1) * (n - 1), 0)
            };
            if left > 0 {
                let chunk = chunk_limit.min(left);
                let stop = left - edge_offset;
                let mirrored = at((stop + chunk) as isize, Some(stop as isize), -1)?;
                let edge = at(left as isize, Some(left as isize + 1), 1)?;
                let values = edge.mul(2.0)?.sub(&mirrored)?;
                at((left - chunk) as isize, Some(left as isize), 1)?.assign(&values)?;
                left -= chunk;
            }
            if right > 0 {
                let chunk = chunk_limit.min(right);
                let end = len - right; // first element of the border still to fill
                let start = end + edge_offset - 2;
                // `start - chunk` may be -1: the mirrored run then reaches element 0.
                let stop = start.checked_sub(chunk).map(|s| s as isize);
                let mirrored = at(start as isize, stop, -1)?;
                let edge = at(end as isize - 1, Some(end as isize), 1)?;
                let values = edge.mul(2.0)?.sub(&mirrored)?;
                at(end as isize, Some((end + chunk) as isize), 1)?.assign(&values)?;
                right -= chunk;
            }
        }
        Ok(padded)
    }
}

/// `start:stop` on axis `ax` of an `ndim`-d array, `:` on the others.
fn axis_range(ndim: usize, ax: usize, start: isize, stop: Option<isize>) -> Vec<SliceArg> {
    axis_steps(ndim, ax, start, stop, 1)
}

/// `start:stop:step` on axis `ax` of an `ndim`-d array, `:` on the others.
fn axis_steps(
    ndim: usize,
    ax: usize,
    start: isize,
    stop: Option<isize>,
    step: isize,
) -> Vec<SliceArg> {
    (0..ndim)
        .map(|d| {
            if d == ax {
                SliceArg::range(Some(start), stop, step)
            } else {
                SliceArg::full()
            }
        })
        .collect()
}

/// NumPy's `linspace(end, edge, width, endpoint=False)` along `ax` (reversed for the after
/// end): end + k·(edge − end)/width, in the float dtype (float64 for integers, then floored as
/// NumPy 2's integer linspace) and cast to the array's dtype.
fn ramp(edge: &Array, ax: usize, width: usize, end: f64, reversed: bool) -> Result<Array> {
    let dtype = edge.dtype();
    let work = if dtype.is_float() { dtype } else { DType::F64 };
    let mut kshape = vec![1usize; edge.ndim()];
    kshape[ax] = width;
    let ks: Vec<f64> = (0..width)
        .map(|k| {
            if reversed {
                (width - 1 - k) as f64
            } else {
                k as f64
            }
        })
        .collect();
    let k = Array::from_slice(edge.device(), &ks, &kshape)?.astype(work)?;
    let step = edge.astype(work)?.sub(end)?.div(width.max(1) as f64)?;
    let values = k.mul(&step)?.add(end)?;
    if dtype.is_float() {
        Ok(values)
    } else {
        values.floor()?.astype(dtype)
    }
}

/// The statistic of `mode` over `x` along `ax`, kept as a length-1 axis, in `x`'s dtype (means
/// and medians of integers rounded half to even, as NumPy's pad).
fn statistic(mode: &PadMode, x: &Array, ax: usize) -> Result<Array> {
    let a = ax as isize;
    let value = match mode {
        PadMode::Maximum(..) => return x.max(a, true),
        PadMode::Minimum(..) => return x.min(a, true),
        PadMode::Mean(..) => x.mean(a, true)?,
        _ => median(x, ax)?,
    };
    if x.dtype().is_float() || x.dtype().is_complex() {
        value.astype(x.dtype())
    } else {
        value.rint()?.astype(x.dtype())
    }
}

/// The median along `ax` (kept): the middle of the sorted elements, or the mean of the middle
/// two; NaN where the lane holds one, as NumPy's.
fn median(x: &Array, ax: usize) -> Result<Array> {
    let n = x.shape()[ax];
    let work = if x.dtype().is_float() {
        x.clone()
    } else {
        x.astype(DType::F64)?
    };
    let sorted = work.sort(Some(ax as isize))?;
    let at = |i: usize| sorted.slice(&axis_range(x.ndim(), ax, i as isize, Some(i as isize + 1)));
    let mid = if n % 2 == 1 {
        at(n / 2)?
    } else {
        at(n / 2 - 1)?.add(&at(n / 2)?)?.div(2.0)?
    };
    if work.dtype().is_float() {
        let nan = work.isnan()?.any(ax as isize, true)?;
        crate::ops::elementwise::where_(&nan, f64::NAN, &mid)
    } else {
        Ok(mid)
    }
}
