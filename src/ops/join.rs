//! Joining and rearranging: concatenate, stack, split, flip, roll, tile, repeat, pad: views plus
//! strided copies (`assign`). `take`, which gathers with a kernel, is `take.rs`.

use crate::array::Array;
use crate::error::{Error, Result};
use crate::layout::{SliceArg, checked_numel, normalize_axis};

/// `numpy.concatenate(arrays, axis)`: the arrays, which agree on every other axis, end to end.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let a = gpuarray::Array::from_slice(&dev, &[1i32, 2], &[1, 2])?;
/// let b = gpuarray::Array::from_slice(&dev, &[3i32, 4, 5, 6], &[2, 2])?;
/// assert_eq!(gpuarray::concatenate(&[&a, &b], 0)?.to_vec::<i32>()?, vec![1, 2, 3, 4, 5, 6]);
/// # Ok(()) }
/// ```
pub fn concatenate(arrays: &[&Array], axis: isize) -> Result<Array> {
    let op = "concatenate";
    let first = arrays
        .first()
        .ok_or_else(|| Error::invalid(op, "need at least one array to concatenate"))?;
    if first.ndim() == 0 {
        return Err(Error::invalid(
            op,
            "zero-dimensional arrays cannot be concatenated",
        ));
    }
    let ax = normalize_axis(op, axis, first.ndim())?;
    let mut total = 0usize;
    for a in arrays {
        first.same_device(op, a)?;
        if a.dtype() != first.dtype() {
            return Err(Error::DTypeMismatch {
                op,
                expected: first.dtype(),
                got: a.dtype(),
            });
        }
        let agree = a.ndim() == first.ndim()
            && (0..a.ndim()).all(|d| d == ax || a.shape()[d] == first.shape()[d]);
        if !agree {
            return Err(Error::shape(
                op,
                format!(
                    "all input dimensions except axis {ax} must match: {:?} vs {:?}",
                    first.shape(),
                    a.shape()
                ),
            ));
        }
        total = total.checked_add(a.shape()[ax]).ok_or_else(|| {
            Error::overflow(
                op,
                format!(
                    "the lengths along axis {ax} ({:?}) add up past {}",
                    arrays.iter().map(|a| a.shape()[ax]).collect::<Vec<_>>(),
                    usize::MAX
                ),
            )
        })?;
    }
    let mut shape = first.shape().to_vec();
    shape[ax] = total;
    let out = Array::empty(op, first.device(), &shape, first.dtype())?;
    if out.is_empty() {
        return Ok(out);
    }
    // Every length is at most the total, which `empty` checked against isize::MAX.
    let mut at = 0isize;
    for a in arrays {
        let n = a.shape()[ax] as isize;
        let mut sl = vec![SliceArg::full(); ax];
        sl.push(SliceArg::range(Some(at), Some(at + n), 1));
        out.slice(&sl)?.assign(a)?;
        at += n;
    }
    Ok(out)
}

/// `numpy.stack(arrays, axis)`: arrays of one shape joined along a new axis.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let a = gpuarray::Array::from_slice(&dev, &[1i32, 2], &[2])?;
/// let s = gpuarray::stack(&[&a, &a], 1)?;
/// assert_eq!((s.shape(), s.to_vec::<i32>()?), (&[2usize, 2][..], vec![1, 1, 2, 2]));
/// # Ok(()) }
/// ```
pub fn stack(arrays: &[&Array], axis: isize) -> Result<Array> {
    let op = "stack";
    let first = arrays
        .first()
        .ok_or_else(|| Error::invalid(op, "need at least one array to stack"))?;
    for a in arrays {
        if a.shape() != first.shape() {
            return Err(Error::shape(
                op,
                format!(
                    "all input arrays must have the same shape: {:?} vs {:?}",
                    first.shape(),
                    a.shape()
                ),
            ));
        }
    }
    let expanded: Vec<Array> = arrays
        .iter()
        .map(|a| a.expand_dims(axis))
        .collect::<Result<_>>()?;
    let refs: Vec<&Array> = expanded.iter().collect();
    let ax = normalize_axis(op, axis, first.ndim() + 1)?;
    concatenate(&refs, ax as isize)
}

impl Array {
    /// `numpy.split(a, sections, axis)`: `sections` equal views along `axis`.
    pub fn split(&self, sections: usize, axis: isize) -> Result<Vec<Array>> {
        let op = "split";
        let ax = normalize_axis(op, axis, self.ndim())?;
        let n = self.shape()[ax];
        if sections == 0 || !n.is_multiple_of(sections) {
            return Err(Error::invalid(
                op,
                format!(
                    "array split does not result in an equal division: {n} elements into {sections} sections"
                ),
            ));
        }
        let step = n / sections;
        let cuts: Vec<usize> = (1..sections).map(|i| i * step).collect();
        self.split_at(&cuts, axis)
    }

    /// `numpy.split(a, indices, axis)`: views between the given (sorted) indices along `axis`.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::arange(&dev, 0.0, 5.0, 1.0, gpuarray::DType::I32)?;
    /// let parts = a.split_at(&[2, 3], 0)?;
    /// assert_eq!(parts[2].to_vec::<i32>()?, vec![3, 4]);
    /// # Ok(()) }
    /// ```
    pub fn split_at(&self, indices: &[usize], axis: isize) -> Result<Vec<Array>> {
        let ax = normalize_axis("split", axis, self.ndim())?;
        let n = self.shape()[ax];
        let mut bounds = vec![0usize];
        bounds.extend(indices.iter().map(|&i| i.min(n)));
        bounds.push(n);
        bounds
            .windows(2)
            .map(|w| {
                let mut sl = vec![SliceArg::full(); ax];
                sl.push(SliceArg::range(
                    Some(w[0] as isize),
                    Some(w[1].max(w[0]) as isize),
                    1,
                ));
                self.slice(&sl)
            })
            .collect()
    }

    /// `numpy.flip`: reverses `axis` (every axis with `None`): a view.
    pub fn flip(&self, axis: Option<isize>) -> Result<Array> {
        match axis {
            None => self.slice(&vec![SliceArg::range(None, None, -1); self.ndim()]),
            Some(a) => {
                let ax = normalize_axis("flip", a, self.ndim())?;
                let mut sl = vec![SliceArg::full(); ax];
                sl.push(SliceArg::range(None, None, -1));
                self.slice(&sl)
            }
        }
    }

    /// `numpy.roll`: elements shifted by `shift` along `axis` (the flattened array with `None`),
    /// wrapping around.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::arange(&dev, 0.0, 5.0, 1.0, gpuarray::DType::I32)?;
    /// assert_eq!(a.roll(2, None)?.to_vec::<i32>()?, vec![3, 4, 0, 1, 2]);
    /// # Ok(()) }
    /// ```
    pub fn roll(&self, shift: isize, axis: Option<isize>) -> Result<Array> {
        let Some(axis) = axis else {
            let shape: Vec<isize> = self.shape().iter().map(|&d| d as isize).collect();
            return self.reshape(&[-1])?.roll(shift, Some(0))?.reshape(&shape);
        };
        let ax = normalize_axis("roll", axis, self.ndim())?;
        let n = self.shape()[ax] as isize;
        let out = Array::empty("roll", self.device(), self.shape(), self.dtype())?;
        if n == 0 || out.is_empty() {
            return Ok(out);
        }
        let k = shift.rem_euclid(n);
        let part = |a: &Array, lo: isize, hi: isize| -> Result<Array> {
            let mut sl = vec![SliceArg::full(); ax];
            sl.push(SliceArg::range(Some(lo), Some(hi), 1));
            a.slice(&sl)
        };
        part(&out, k, n)?.assign(&part(self, 0, n - k)?)?;
        if k > 0 {
            part(&out, 0, k)?.assign(&part(self, n - k, n)?)?;
        }
        Ok(out)
    }

    /// `numpy.tile`: the array repeated `reps[i]` times along each axis.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1i32, 2], &[2])?;
    /// assert_eq!(a.tile(&[2, 2])?.to_vec::<i32>()?, vec![1, 2, 1, 2, 1, 2, 1, 2]);
    /// # Ok(()) }
    /// ```
    pub fn tile(&self, reps: &[usize]) -> Result<Array> {
        let op = "tile";
        let d = reps.len().max(self.ndim());
        let mut shape = vec![1usize; d - self.ndim()];
        shape.extend_from_slice(self.shape());
        let mut r = vec![1usize; d - reps.len()];
        r.extend_from_slice(reps);
        let out: Vec<usize> = shape
            .iter()
            .zip(&r)
            .map(|(&s, &k)| {
                s.checked_mul(k)
                    .filter(|&n| n <= isize::MAX as usize)
                    .ok_or_else(|| {
                        Error::overflow(
                            op,
                            format!(
                                "{k} repetitions of an axis of length {s} are longer than the \
                                 maximum allowed dimension {}",
                                isize::MAX
                            ),
                        )
                    })
            })
            .collect::<Result<_>>()?;
        let numel = checked_numel(op, &out)?;
        if numel == 0 {
            // Nothing to copy; the (repetitions, length) pairs below might not even be a valid
            // shape (`usize::MAX` repetitions of an empty axis are an empty axis).
            return Array::empty(op, self.device(), &out, self.dtype());
        }
        // Refused here, in tile's name, rather than by the copy that would allocate it.
        self.device().check_buffer_size(op, numel, self.dtype())?;
        // View as (1, s0, 1, s1, ...), broadcast to (r0, s0, r1, s1, ...), copy, merge pairs.
        // Every entry is a factor of a checked, non-zero output size: the casts are exact.
        let a = self.reshape(&shape.iter().map(|&x| x as isize).collect::<Vec<_>>())?;
        let mut inter = Vec::new();
        let mut big = Vec::new();
        for (i, &s) in shape.iter().enumerate() {
            inter.extend([1isize, s as isize]);
            big.extend([r[i], s]);
        }
        let out: Vec<isize> = out.iter().map(|&n| n as isize).collect();
        a.reshape(&inter)?
            .broadcast_to(&big)?
            .contiguous()?
            .reshape(&out)
    }

    /// `numpy.repeat(a, repeats, axis)`: each element repeated `repeats` times along `axis`
    /// (of the flattened array with `None`).
    pub fn repeat(&self, repeats: usize, axis: Option<isize>) -> Result<Array> {
        let Some(axis) = axis else {
            return self.reshape(&[-1])?.repeat(repeats, Some(0));
        };
        let op = "repeat";
        let ax = normalize_axis(op, axis, self.ndim())?;
        let mut out = self.shape().to_vec();
        out[ax] = out[ax]
            .checked_mul(repeats)
            .filter(|&n| n <= isize::MAX as usize)
            .ok_or_else(|| {
                Error::overflow(
                    op,
                    format!(
                        "{repeats} repeats of axis {ax} (length {}) of shape {:?} make an axis \
                         longer than the maximum allowed dimension {}",
                        out[ax],
                        self.shape(),
                        isize::MAX
                    ),
                )
            })?;
        let numel = checked_numel(op, &out)?;
        if numel == 0 {
            return Array::empty(op, self.device(), &out, self.dtype());
        }
        self.device().check_buffer_size(op, numel, self.dtype())?;
        let e = self.expand_dims(ax as isize + 1)?;
        let mut big = e.shape().to_vec();
        big[ax + 1] = repeats;
        // A factor of the checked, non-zero output size: the casts below are exact.
        let out: Vec<isize> = out.iter().map(|&x| x as isize).collect();
        e.broadcast_to(&big)?.contiguous()?.reshape(&out)
    }

    /// `numpy.pad(a, pad_width, constant_values=value)`: `pad_width[i] = (before, after)` for
    /// each axis.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0], &[2])?;
    /// assert_eq!(a.pad(&[(1, 2)], 0.0)?.to_vec::<f32>()?, vec![0.0, 1.0, 2.0, 0.0, 0.0]);
    /// # Ok(()) }
    /// ```
    pub fn pad(&self, pad_width: &[(usize, usize)], value: f64) -> Result<Array> {
        if pad_width.len() != self.ndim() {
            return Err(Error::shape(
                "pad",
                format!(
                    "pad_width has {} entries for an array of shape {:?}",
                    pad_width.len(),
                    self.shape()
                ),
            ));
        }
        let op = "pad";
        let shape: Vec<usize> = self
            .shape()
            .iter()
            .zip(pad_width)
            .enumerate()
            .map(|(d, (&s, &(b, a)))| {
                s.checked_add(b)
                    .and_then(|n| n.checked_add(a))
                    .filter(|&n| n <= isize::MAX as usize)
                    .ok_or_else(|| {
                        Error::overflow(
                            op,
                            format!(
                                "padding ({b}, {a}) of axis {d} (length {s}) passes the maximum \
                                 allowed dimension {}",
                                isize::MAX
                            ),
                        )
                    })
            })
            .collect::<Result<_>>()?;
        checked_numel(op, &shape)?;
        let out = Array::full_op(op, self.device(), &shape, value, self.dtype())?;
        if self.is_empty() {
            // Nothing to place; with an empty output the offsets below need not even fit isize.
            return Ok(out);
        }
        let sl: Vec<SliceArg> = self
            .shape()
            .iter()
            .zip(pad_width)
            .map(|(&s, &(b, _))| SliceArg::range(Some(b as isize), Some((b + s) as isize), 1))
            .collect();
        out.slice(&sl)?.assign(self)?;
        Ok(out)
    }
}
