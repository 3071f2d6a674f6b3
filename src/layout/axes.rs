//! Axis lists ([`Axes`]) and NumPy broadcasting of shapes: the shape arithmetic that reductions,
//! element-wise ops and matmul share.

use super::{checked_numel, normalize_axis};
use crate::error::{Error, Result};

/// Which axes a reduction folds: all of them, or a list (negative counts from the end).
///
/// ```
/// use gpuarray::Axes;
/// let all = Axes::All;
/// let one: Axes = 1.into();
/// let two: Axes = [0, -1].into();
/// # let _ = (all, one, two);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Axes {
    /// Every axis (NumPy's `axis=None`).
    All,
    /// These axes.
    List(Vec<isize>),
}

impl From<isize> for Axes {
    fn from(a: isize) -> Self {
        Axes::List(vec![a])
    }
}
impl From<i32> for Axes {
    fn from(a: i32) -> Self {
        Axes::List(vec![a as isize])
    }
}
impl From<usize> for Axes {
    fn from(a: usize) -> Self {
        // `as isize` would turn usize::MAX into -1, the last axis. No array has isize::MAX
        // axes, so the saturated value is always refused as out of bounds.
        Axes::List(vec![isize::try_from(a).unwrap_or(isize::MAX)])
    }
}
impl From<&[isize]> for Axes {
    fn from(a: &[isize]) -> Self {
        Axes::List(a.to_vec())
    }
}
impl<const N: usize> From<[isize; N]> for Axes {
    fn from(a: [isize; N]) -> Self {
        Axes::List(a.to_vec())
    }
}
impl<const N: usize> From<[i32; N]> for Axes {
    fn from(a: [i32; N]) -> Self {
        Axes::List(a.iter().map(|&x| x as isize).collect())
    }
}
impl From<Vec<isize>> for Axes {
    fn from(a: Vec<isize>) -> Self {
        Axes::List(a)
    }
}
impl From<Option<isize>> for Axes {
    fn from(a: Option<isize>) -> Self {
        a.map_or(Axes::All, |a| Axes::List(vec![a]))
    }
}

/// Sorted distinct axes, or `Err(Axis)` / `Err(InvalidArgument)` for a bad or repeated one.
pub(crate) fn resolve_axes(op: &'static str, axes: &Axes, ndim: usize) -> Result<Vec<usize>> {
    match axes {
        Axes::All => Ok((0..ndim).collect()),
        Axes::List(list) => {
            let mut out = Vec::with_capacity(list.len());
            for &a in list {
                let n = normalize_axis(op, a, ndim)?;
                if out.contains(&n) {
                    return Err(Error::invalid(
                        op,
                        format!("duplicate value in 'axis': {a}"),
                    ));
                }
                out.push(n);
            }
            out.sort_unstable();
            Ok(out)
        }
    }
}

/// NumPy's broadcast of several shapes, or `Err(Shape)` naming them.
pub(crate) fn broadcast_shapes(op: &'static str, shapes: &[&[usize]]) -> Result<Vec<usize>> {
    let nd = shapes.iter().map(|s| s.len()).max().unwrap_or(0);
    let mut out = vec![1usize; nd];
    for s in shapes {
        let lead = nd - s.len();
        for (i, &n) in s.iter().enumerate() {
            let o = &mut out[lead + i];
            if *o == 1 {
                *o = n;
            } else if n != 1 && n != *o {
                return Err(Error::shape(
                    op,
                    format!(
                        "operands could not be broadcast together with shapes {}",
                        shapes
                            .iter()
                            .map(|s| format!("{s:?}"))
                            .collect::<Vec<_>>()
                            .join(" ")
                    ),
                ));
            }
        }
    }
    checked_numel(op, &out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_broadcast_like_numpy() {
        assert_eq!(broadcast_shapes("t", &[&[3, 1], &[4]]).unwrap(), vec![3, 4]);
        assert_eq!(broadcast_shapes("t", &[&[], &[2, 5]]).unwrap(), vec![2, 5]);
        assert_eq!(broadcast_shapes("t", &[&[0], &[1]]).unwrap(), vec![0]);
        assert_eq!(
            broadcast_shapes("t", &[&[2, 1, 3], &[4, 1], &[1]]).unwrap(),
            vec![2, 4, 3]
        );
        let e = broadcast_shapes("add", &[&[2], &[3]]).unwrap_err();
        assert!(matches!(e, Error::Shape { op: "add", .. }), "{e:?}");
        assert!(e.to_string().contains("[2] [3]"), "{e}");
    }
}
