//! Layout: how an N-d index maps to an element of storage — shape, strides (in elements, may be
//! negative or zero) and an element offset. Every view is a new `Layout` over the same storage.
//! Also the shape arithmetic every layer shares: slicing requests ([`SliceArg`]), axis lists
//! ([`Axes`]), NumPy broadcasting ([`broadcast_shapes`]). Pure host code, tested without a GPU;
//! it names nothing above `error`.
//!
//! Axis lists and broadcasting are in `axes.rs`.

mod axes;

use crate::error::{Error, Result};
pub use axes::Axes;
pub(crate) use axes::{broadcast_shapes, resolve_axes};

/// One entry of a slicing request, NumPy style: `a[2]`, `a[1:7:2]`, `a[::-1]`, `a[None]`.
///
/// ```
/// use gpuarray::SliceArg;
/// let reversed = SliceArg::range(None, None, -1);   // a[::-1]
/// let evens = SliceArg::range(Some(0), None, 2);     // a[0::2]
/// let third = SliceArg::Index(2);                     // a[2] (drops the axis)
/// # let _ = (reversed, evens, third, SliceArg::NewAxis);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SliceArg {
    /// A single index (negative counts from the end); removes the axis.
    Index(isize),
    /// `start:stop:step`; `None` bounds take NumPy's defaults for the step's sign.
    Range {
        /// First index (inclusive).
        start: Option<isize>,
        /// Last index (exclusive).
        stop: Option<isize>,
        /// Step, non-zero; negative walks backwards.
        step: isize,
    },
    /// Inserts an axis of length 1 (`np.newaxis`).
    NewAxis,
}

impl SliceArg {
    /// `start:stop:step`.
    pub fn range(start: Option<isize>, stop: Option<isize>, step: isize) -> Self {
        SliceArg::Range { start, stop, step }
    }
    /// `:` — the whole axis.
    pub fn full() -> Self {
        SliceArg::Range {
            start: None,
            stop: None,
            step: 1,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Layout {
    pub shape: Vec<usize>,
    pub strides: Vec<isize>,
    pub offset: usize,
}

/// The row-major (C order) strides of `shape`.
pub(crate) fn contiguous_strides(shape: &[usize]) -> Vec<isize> {
    let mut strides = vec![0isize; shape.len()];
    let mut acc = 1isize;
    for (s, &n) in strides.iter_mut().zip(shape).rev() {
        *s = acc;
        acc = acc.saturating_mul(n.max(1) as isize);
    }
    strides
}

/// The number of elements of `shape`, or `Err(Overflow)` when it does not fit in 63 bits or a
/// dimension exceeds `isize::MAX` (NumPy's "maximum allowed dimension": strides, slice bounds
/// and `reshape`'s `-1` are `isize`, so a longer axis could not be addressed even when another
/// axis is 0).
pub(crate) fn checked_numel(op: &'static str, shape: &[usize]) -> Result<usize> {
    if let Some(&n) = shape.iter().find(|&&n| n > isize::MAX as usize) {
        return Err(Error::overflow(
            op,
            format!(
                "dimension {n} of shape {shape:?} exceeds the maximum allowed dimension {}",
                isize::MAX
            ),
        ));
    }
    if shape.contains(&0) {
        // [2^40, 2^40, 0] is empty; left to right, its product would overflow first.
        return Ok(0);
    }
    shape
        .iter()
        .try_fold(1usize, |acc, &n| acc.checked_mul(n))
        .filter(|&n| n <= isize::MAX as usize)
        .ok_or_else(|| {
            Error::overflow(
                op,
                format!("the shape {shape:?} has more than {} elements", isize::MAX),
            )
        })
}

/// The product of some of an array's dimensions, 0 when any is 0. Left to right, `[2^40, 2^40,
/// 0]` would overflow before it met the 0; with the zero test first, the product of dimensions
/// of an array that exists (so at most `isize::MAX` elements) cannot overflow. Saturates for
/// shapes no array has (callers check those with [`checked_numel`]).
pub(crate) fn dims_product<'a>(dims: impl IntoIterator<Item = &'a usize> + Clone) -> usize {
    if dims.clone().into_iter().any(|&n| n == 0) {
        return 0;
    }
    dims.into_iter()
        .fold(1usize, |acc, &n| acc.saturating_mul(n))
}

/// Normalises an axis in `-ndim..ndim`.
pub(crate) fn normalize_axis(op: &'static str, axis: isize, ndim: usize) -> Result<usize> {
    let n = ndim as isize;
    if axis < -n || axis >= n {
        return Err(Error::Axis { op, axis, ndim });
    }
    Ok(if axis < 0 {
        (axis + n) as usize
    } else {
        axis as usize
    })
}

impl Layout {
    pub fn contiguous(shape: &[usize]) -> Self {
        Layout {
            shape: shape.to_vec(),
            strides: contiguous_strides(shape),
            offset: 0,
        }
    }

    pub fn ndim(&self) -> usize {
        self.shape.len()
    }

    pub fn numel(&self) -> usize {
        dims_product(&self.shape)
    }

    /// The lowest and highest buffer element index the view reaches (for a non-empty view):
    /// the window a kernel must bind to read it.
    pub fn element_span(&self) -> (i64, i64) {
        let (mut lo, mut hi) = (self.offset as i64, self.offset as i64);
        for (&n, &s) in self.shape.iter().zip(&self.strides) {
            let reach = (n as i64 - 1) * s as i64;
            if reach < 0 { lo += reach } else { hi += reach }
        }
        (lo, hi)
    }

    /// Row-major contiguous, so the elements are `offset..offset+numel` in order.
    pub fn is_contiguous(&self) -> bool {
        // Empty views hold nothing out of order; checking first also keeps `expected` below
        // the element count, so the product cannot overflow (shape [0, 2^40, 2^40] is legal).
        if self.shape.contains(&0) {
            return true;
        }
        let mut expected = 1isize;
        for (&n, &s) in self.shape.iter().zip(&self.strides).rev() {
            if n != 1 && s != expected {
                return false;
            }
            expected = expected.saturating_mul(n as isize);
        }
        true
    }

    /// A new shape over the same elements. `-1` in `shape` is inferred. `None` when the
    /// strides cannot express it without a copy.
    pub fn reshape(&self, op: &'static str, shape: &[isize]) -> Result<Option<Layout>> {
        let numel = self.numel();
        let shape = infer_shape(op, &self.shape, shape, numel)?;
        if self.is_contiguous() {
            return Ok(Some(Layout {
                strides: contiguous_strides(&shape),
                shape,
                offset: self.offset,
            }));
        }
        Ok(reshape_strided(self, &shape))
    }

    pub fn permute(&self, op: &'static str, axes: &[usize]) -> Result<Layout> {
        let nd = self.ndim();
        let mut seen = vec![false; nd];
        if axes.len() != nd {
            return Err(Error::shape(
                op,
                format!(
                    "axes {axes:?} do not match an array of shape {:?}",
                    self.shape
                ),
            ));
        }
        for &a in axes {
            if a >= nd {
                // An axis past isize::MAX cannot be stored in `Error::Axis` without turning
                // negative (usize::MAX would read as "axis -1"): say it in words instead.
                return Err(match isize::try_from(a) {
                    Ok(axis) => Error::Axis { op, axis, ndim: nd },
                    Err(_) => Error::invalid(
                        op,
                        format!(
                            "axis {a} in {axes:?} is out of bounds for an array of dimension {nd}"
                        ),
                    ),
                });
            }
            if std::mem::replace(&mut seen[a], true) {
                return Err(Error::invalid(op, format!("repeated axis {a} in {axes:?}")));
            }
        }
        Ok(Layout {
            shape: axes.iter().map(|&a| self.shape[a]).collect(),
            strides: axes.iter().map(|&a| self.strides[a]).collect(),
            offset: self.offset,
        })
    }

    /// NumPy broadcasting of this layout to `shape` (stride 0 on stretched axes).
    pub fn broadcast_to(&self, op: &'static str, shape: &[usize]) -> Result<Layout> {
        let nd = shape.len();
        let err = || {
            Error::shape(
                op,
                format!(
                    "cannot broadcast an array of shape {:?} to shape {shape:?}",
                    self.shape
                ),
            )
        };
        if self.ndim() > nd {
            return Err(err());
        }
        let lead = nd - self.ndim();
        let mut strides = vec![0isize; nd];
        for (i, &n) in shape.iter().enumerate().skip(lead) {
            let (m, s) = (self.shape[i - lead], self.strides[i - lead]);
            strides[i] = if m == n {
                s
            } else if m == 1 {
                0
            } else {
                return Err(err());
            };
        }
        Ok(Layout {
            shape: shape.to_vec(),
            strides,
            offset: self.offset,
        })
    }

    pub fn slice(&self, op: &'static str, args: &[SliceArg]) -> Result<Layout> {
        let consumed = args
            .iter()
            .filter(|a| !matches!(a, SliceArg::NewAxis))
            .count();
        if consumed > self.ndim() {
            return Err(Error::invalid(
                op,
                format!(
                    "too many indices ({consumed}) for an array of shape {:?}",
                    self.shape
                ),
            ));
        }
        let mut shape = Vec::new();
        let mut strides = Vec::new();
        let mut offset = self.offset as isize;
        let mut axis = 0;
        for arg in args {
            match *arg {
                SliceArg::NewAxis => {
                    shape.push(1);
                    strides.push(0);
                }
                SliceArg::Index(i) => {
                    let n = self.shape[axis] as isize;
                    // `i + n` cannot overflow: `i < 0` and `n >= 0`.
                    let j = if i < 0 { i + n } else { i };
                    if j < 0 || j >= n {
                        return Err(Error::invalid(
                            op,
                            format!("index {i} is out of bounds for axis {axis} with size {n}"),
                        ));
                    }
                    offset = j
                        .checked_mul(self.strides[axis])
                        .and_then(|d| offset.checked_add(d))
                        .ok_or_else(|| self.offset_overflow(op, axis))?;
                    axis += 1;
                }
                SliceArg::Range { start, stop, step } => {
                    if step == 0 {
                        return Err(Error::invalid(op, "slice step cannot be zero"));
                    }
                    let n = self.shape[axis] as isize;
                    let (first, len) = slice_indices(n, start, stop, step);
                    if len > 0 {
                        offset = first
                            .checked_mul(self.strides[axis])
                            .and_then(|d| offset.checked_add(d))
                            .ok_or_else(|| self.offset_overflow(op, axis))?;
                    }
                    // With at most one element the stride is never used, and `stride * step`
                    // may not fit (`a[::isize::MAX]` is NumPy's `[a[0]]`): keep the old one.
                    let stride = if len <= 1 {
                        self.strides[axis]
                    } else {
                        self.strides[axis].checked_mul(step).ok_or_else(|| {
                            Error::overflow(
                                op,
                                format!(
                                    "step {step} times stride {} on axis {axis} of shape {:?}",
                                    self.strides[axis], self.shape
                                ),
                            )
                        })?
                    };
                    shape.push(len as usize);
                    strides.push(stride);
                    axis += 1;
                }
            }
        }
        shape.extend_from_slice(&self.shape[axis..]);
        strides.extend_from_slice(&self.strides[axis..]);
        Ok(Layout {
            shape,
            strides,
            offset: offset as usize,
        })
    }

    fn offset_overflow(&self, op: &'static str, axis: usize) -> Error {
        Error::overflow(
            op,
            format!(
                "the element offset on axis {axis} of shape {:?} with strides {:?} passes isize::MAX",
                self.shape, self.strides
            ),
        )
    }

    pub fn squeeze(&self, op: &'static str, axes: Option<&[isize]>) -> Result<Layout> {
        let nd = self.ndim();
        let drop: Vec<bool> = match axes {
            None => self.shape.iter().map(|&n| n == 1).collect(),
            Some(axes) => {
                let mut d = vec![false; nd];
                for &a in axes {
                    let a = normalize_axis(op, a, nd)?;
                    if self.shape[a] != 1 {
                        return Err(Error::invalid(
                            op,
                            format!(
                                "cannot select an axis to squeeze out which has size not equal to one (axis {a} of shape {:?})",
                                self.shape
                            ),
                        ));
                    }
                    d[a] = true;
                }
                d
            }
        };
        let keep = |i: &usize| !drop[*i];
        Ok(Layout {
            shape: (0..nd).filter(keep).map(|i| self.shape[i]).collect(),
            strides: (0..nd).filter(keep).map(|i| self.strides[i]).collect(),
            offset: self.offset,
        })
    }

    pub fn expand_dims(&self, op: &'static str, axis: isize) -> Result<Layout> {
        let a = normalize_axis(op, axis, self.ndim() + 1)?;
        let mut l = self.clone();
        l.shape.insert(a, 1);
        l.strides.insert(a, 0);
        Ok(l)
    }
}

/// NumPy's `PySlice_AdjustIndices`: the first index and length of `start:stop:step` on `n`.
/// Any `step` works, `isize::MIN` and `isize::MAX` included: the length is computed in i128,
/// where `stop - start + step - 1` and `-step` cannot overflow.
pub(crate) fn slice_indices(
    n: isize,
    start: Option<isize>,
    stop: Option<isize>,
    step: isize,
) -> (isize, isize) {
    let clamp = |v: isize, lo: isize, hi: isize| v.max(lo).min(hi);
    let (lo, hi) = if step > 0 { (0, n) } else { (-1, n - 1) };
    // `v + n` cannot overflow: `v < 0` and `0 <= n`.
    let fix = |v: isize| if v < 0 { v + n } else { v };
    let start = start
        .map(|s| clamp(fix(s), lo, hi))
        .unwrap_or(if step > 0 { 0 } else { n - 1 });
    let stop = stop
        .map(|s| clamp(fix(s), lo, hi))
        .unwrap_or(if step > 0 { n } else { -1 });
    let (first, last, step) = (start as i128, stop as i128, step as i128);
    let len = if step > 0 {
        if last > first {
            (last - first + step - 1) / step
        } else {
            0
        }
    } else if first > last {
        (first - last - step - 1) / -step
    } else {
        0
    };
    // 0 <= len <= n: it fits.
    (start, len as isize)
}

fn infer_shape(
    op: &'static str,
    from: &[usize],
    shape: &[isize],
    numel: usize,
) -> Result<Vec<usize>> {
    let unknown: Vec<usize> = (0..shape.len()).filter(|&i| shape[i] == -1).collect();
    let bad = || {
        Error::shape(
            op,
            format!(
                "cannot reshape an array of shape {from:?} ({numel} elements) into shape {shape:?}"
            ),
        )
    };
    if unknown.len() > 1 || shape.iter().any(|&n| n < -1) {
        return Err(Error::invalid(
            op,
            format!("invalid shape {shape:?}: at most one -1 and no other negative sizes"),
        ));
    }
    let known = shape
        .iter()
        .filter(|&&n| n >= 0)
        .try_fold(1usize, |acc, &n| acc.checked_mul(n as usize))
        .ok_or_else(|| Error::overflow(op, format!("the shape {shape:?} overflows")))?;
    let mut out: Vec<usize> = shape.iter().map(|&n| n.max(0) as usize).collect();
    if let Some(&u) = unknown.first() {
        if known == 0 || !numel.is_multiple_of(known) {
            return Err(bad());
        }
        out[u] = numel / known;
    } else if known != numel {
        return Err(bad());
    }
    Ok(out)
}

/// Reshape without a copy when groups of old axes merge or split cleanly (NumPy's
/// `_attempt_nocopy_reshape`).
fn reshape_strided(l: &Layout, new_shape: &[usize]) -> Option<Layout> {
    let old: Vec<(usize, isize)> = l
        .shape
        .iter()
        .copied()
        .zip(l.strides.iter().copied())
        .filter(|&(n, _)| n != 1)
        .collect();
    let mut new_strides = vec![0isize; new_shape.len()];
    let (mut oi, mut ni) = (0usize, 0usize);
    while ni < new_shape.len() && oi < old.len() {
        // Gather a group of old axes and a group of new axes with equal products.
        let (mut op, mut np) = (old[oi].0, new_shape[ni]);
        let (o0, n0) = (oi, ni);
        while op != np {
            if np < op {
                ni += 1;
                np *= *new_shape.get(ni)?;
            } else {
                oi += 1;
                op *= old.get(oi)?.0;
            }
        }
        // The old group must be contiguous within itself.
        for k in o0..oi {
            if old[k].1 != old[k + 1].1 * old[k + 1].0 as isize {
                return None;
            }
        }
        // Strides of the new group, from the innermost old stride outwards.
        let mut s = old[oi].1;
        for k in (n0..=ni).rev() {
            new_strides[k] = s;
            s *= new_shape[k] as isize;
        }
        oi += 1;
        ni += 1;
    }
    // Remaining new axes have size 1.
    for (k, st) in new_strides.iter_mut().enumerate().skip(ni) {
        debug_assert_eq!(new_shape[k], 1);
        *st = 0;
    }
    Some(Layout {
        shape: new_shape.to_vec(),
        strides: new_strides,
        offset: l.offset,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn elems(l: &Layout) -> Vec<usize> {
        let mut out = Vec::new();
        let n = l.numel();
        for flat in 0..n {
            let mut rem = flat;
            let mut off = l.offset as isize;
            for d in (0..l.ndim()).rev() {
                off += (rem % l.shape[d]) as isize * l.strides[d];
                rem /= l.shape[d];
            }
            out.push(off as usize);
        }
        out
    }

    #[test]
    fn slices_follow_python() {
        assert_eq!(slice_indices(10, None, None, 1), (0, 10));
        assert_eq!(slice_indices(10, None, None, -1), (9, 10));
        assert_eq!(slice_indices(10, Some(-3), None, 1), (7, 3));
        assert_eq!(slice_indices(10, Some(1), Some(8), 3), (1, 3));
        assert_eq!(slice_indices(10, Some(8), Some(1), -3), (8, 3));
        assert_eq!(slice_indices(10, Some(20), Some(30), 1), (10, 0));
        assert_eq!(slice_indices(10, Some(-20), Some(-30), -1), (-1, 0));
        assert_eq!(slice_indices(0, None, None, -1), (-1, 0));
        // Extreme steps: one element, as `a[::sys.maxsize]` and `a[::-sys.maxsize - 1]`.
        assert_eq!(slice_indices(5, None, None, isize::MAX), (0, 1));
        assert_eq!(slice_indices(5, None, None, isize::MIN), (4, 1));
        assert_eq!(slice_indices(5, Some(3), None, -(1 << 62)), (3, 1));
        assert_eq!(
            slice_indices(5, Some(isize::MIN), Some(isize::MAX), 1 << 62),
            (0, 1)
        );
        assert_eq!(slice_indices(0, None, None, isize::MIN), (-1, 0));
    }

    #[test]
    fn element_span_is_the_min_and_max_element() {
        let l = Layout::contiguous(&[3, 4, 5]);
        let v = l
            .permute("t", &[2, 0, 1])
            .unwrap()
            .slice(
                "s",
                &[
                    SliceArg::range(None, None, -2),
                    SliceArg::range(Some(1), None, 1),
                    SliceArg::full(),
                ],
            )
            .unwrap();
        let e = elems(&v);
        let want = (
            *e.iter().min().unwrap() as i64,
            *e.iter().max().unwrap() as i64,
        );
        assert_eq!(v.element_span(), want);
    }

    #[test]
    fn views_map_elements_like_numpy() {
        let l = Layout::contiguous(&[3, 4]);
        let t = l.permute("t", &[1, 0]).unwrap();
        assert_eq!(elems(&t), vec![0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]);
        let s = l
            .slice(
                "s",
                &[
                    SliceArg::range(None, None, -1),
                    SliceArg::range(Some(1), None, 2),
                ],
            )
            .unwrap();
        assert_eq!(s.shape, vec![3, 2]);
        assert_eq!(elems(&s), vec![9, 11, 5, 7, 1, 3]);
        let b = Layout::contiguous(&[3, 1])
            .broadcast_to("b", &[2, 3, 4])
            .unwrap();
        assert_eq!(b.strides, vec![0, 1, 0]);
        assert!(Layout::contiguous(&[2]).broadcast_to("b", &[3]).is_err());
        let i = l.slice("i", &[SliceArg::Index(-1)]).unwrap();
        assert_eq!(elems(&i), vec![8, 9, 10, 11]);
        let n = l
            .slice(
                "n",
                &[SliceArg::NewAxis, SliceArg::full(), SliceArg::Index(2)],
            )
            .unwrap();
        assert_eq!(n.shape, vec![1, 3]);
        assert_eq!(elems(&n), vec![2, 6, 10]);
        assert!(l.slice("x", &[SliceArg::Index(3)]).is_err());
        assert!(l.slice("x", &[SliceArg::range(None, None, 0)]).is_err());
    }

    #[test]
    fn reshape_without_copy_when_possible() {
        let l = Layout::contiguous(&[2, 3, 4]);
        let r = l.reshape("r", &[6, -1]).unwrap().unwrap();
        assert_eq!(r.shape, vec![6, 4]);
        let t = l.permute("t", &[2, 0, 1]).unwrap(); // (4, 2, 3): last two axes still merge
        let r = t.reshape("r", &[4, 6]).unwrap().unwrap();
        assert_eq!(elems(&r), elems(&t));
        assert!(t.reshape("r", &[24]).unwrap().is_none());
        let r = t.reshape("r", &[2, 2, 1, 6]).unwrap().unwrap();
        assert_eq!(elems(&r), elems(&t));
        assert!(l.reshape("r", &[5, -1]).is_err());
        assert!(l.reshape("r", &[-1, -1]).is_err());
        let z = Layout::contiguous(&[0, 3]);
        assert_eq!(z.reshape("r", &[3, 0]).unwrap().unwrap().shape, vec![3, 0]);
    }

    #[test]
    fn contiguity_and_overflow() {
        let l = Layout::contiguous(&[3, 4]);
        assert!(l.is_contiguous());
        assert!(!l.permute("t", &[1, 0]).unwrap().is_contiguous());
        let s = l
            .slice("s", &[SliceArg::range(Some(1), Some(2), 1)])
            .unwrap();
        assert!(s.is_contiguous());
        assert!(Layout::contiguous(&[0, 2]).is_contiguous());
        assert!(checked_numel("n", &[1 << 40, 1 << 40]).is_err());
    }

    #[test]
    fn squeeze_and_expand() {
        let l = Layout::contiguous(&[1, 3, 1]);
        assert_eq!(l.squeeze("q", None).unwrap().shape, vec![3]);
        assert_eq!(l.squeeze("q", Some(&[-1])).unwrap().shape, vec![1, 3]);
        assert!(l.squeeze("q", Some(&[1])).is_err());
        assert_eq!(l.expand_dims("e", -1).unwrap().shape, vec![1, 3, 1, 1]);
        assert!(l.expand_dims("e", 5).is_err());
    }
}
