//! Permutations, shuffles and sampling: [`Generator::permutation`],
//! [`Generator::permutation_of`], [`Generator::shuffle`] and [`Generator::choice`].
//!
//! The indices are drawn on the host from the generator's own stream (Fisher–Yates and its
//! relatives consume words one after another, each step depending on the last), then the
//! arrays are gathered on the device. Host work is O(number of indices); the data never
//! leaves the GPU.

use super::Generator;
use super::philox::HostWords;
use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::{checked_numel, normalize_axis};
use crate::ops::take::take_axis;
use std::collections::HashMap;

impl Generator {
    /// A random permutation of `0..n` in the device's index dtype (int64 by default) (`numpy.random.Generator.permutation(n)`).
    ///
    /// Fisher–Yates from the top: for `i = n-1, ..., 1`, `j` uniform on `[0, i]` (drawn as
    /// [`Generator::integers`] draws, with rejection, from the next words) and swap. Exactly
    /// uniform over the `n!` orders. `n` is at most 2^31.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let mut g = gpuarray::random::Generator::new(&dev, 1);
    /// let mut p = g.permutation(5)?.to_vec::<i64>()?;
    /// p.sort();
    /// assert_eq!(p, [0, 1, 2, 3, 4]);
    /// # Ok(()) }
    /// ```
    pub fn permutation(&mut self, n: usize) -> Result<Array> {
        let op = "permutation";
        if n as u64 > 1 << 31 {
            return Err(Error::invalid(
                op,
                format!("n = {n} does not fit i32 indices"),
            ));
        }
        // The result must fit on the device: check before the host builds n entries (2^31 of
        // them would be 8 GiB here, and the allocation would abort the process on a small host).
        self.device
            .check_buffer_size(op, n, self.device.index_dtype())?;
        let mut words = HostWords::new(self.position());
        // n <= 2^31, so every index fits i32.
        let perm = fisher_yates(&mut words, n as u64);
        // In the device's index dtype (int64 as NumPy's, unless configured to i32).
        let out = if self.device.index_dtype() == DType::I64 {
            let perm: Vec<i64> = perm.into_iter().map(|i| i as i64).collect();
            Array::from_slice(&self.device, &perm, &[n])?
        } else {
            let perm: Vec<i32> = perm.into_iter().map(|i| i as i32).collect();
            Array::from_slice(&self.device, &perm, &[n])?
        };
        self.offset = self.after(op, words.consumed())?;
        Ok(out)
    }

    /// A copy of `a` with the slices along `axis` in a random order
    /// (`numpy.random.Generator.permutation(a, axis)`); the order is
    /// [`Generator::permutation`]`(a.shape()[axis])`'s.
    ///
    /// ```
    /// use gpuarray::{Array, DType};
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let mut g = gpuarray::random::Generator::new(&dev, 1);
    /// let a = Array::arange(&dev, 0.0, 6.0, 1.0, DType::F32)?.reshape(&[3, 2])?;
    /// let rows = g.permutation_of(&a, 0)?.to_vec::<f32>()?;   // rows stay whole
    /// assert!(rows.chunks(2).all(|r| r[1] == r[0] + 1.0));
    /// # Ok(()) }
    /// ```
    pub fn permutation_of(&mut self, a: &Array, axis: isize) -> Result<Array> {
        self.permute_op("permutation_of", a, axis)
    }

    /// Shuffles `a` in place along `axis` (`numpy.random.Generator.shuffle`): `a` (or the view
    /// it is) afterwards holds [`Generator::permutation_of`]`(a, axis)`.
    ///
    /// ```
    /// use gpuarray::{Array, DType};
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let mut g = gpuarray::random::Generator::new(&dev, 1);
    /// let a = Array::arange(&dev, 0.0, 10.0, 1.0, DType::I32)?;
    /// g.shuffle(&a, 0)?;
    /// let mut v = a.to_vec::<i32>()?;
    /// v.sort();
    /// assert_eq!(v, (0..10).collect::<Vec<_>>());
    /// # Ok(()) }
    /// ```
    pub fn shuffle(&mut self, a: &Array, axis: isize) -> Result<()> {
        let op = "shuffle";
        if a.shape()
            .iter()
            .zip(a.strides())
            .any(|(&n, &s)| n > 1 && s == 0)
        {
            return Err(Error::invalid(
                op,
                "cannot shuffle a broadcast view in place: it writes elements more than once",
            ));
        }
        let shuffled = self.permute_op(op, a, axis)?;
        a.assign(&shuffled)
    }

    fn permute_op(&mut self, op: &'static str, a: &Array, axis: isize) -> Result<Array> {
        self.same_device(op, a)?;
        if a.ndim() == 0 {
            return Err(Error::invalid(
                op,
                "needs an array of at least one dimension",
            ));
        }
        let axis = normalize_axis(op, axis, a.ndim())?;
        let n = a.shape()[axis] as u64;
        if n > 1 << 32 {
            return Err(Error::invalid(
                op,
                format!("axis of length {n} is longer than 2^32"),
            ));
        }
        // The result (a's shape) and the uploaded indices must fit on the device: check before
        // the host builds n indices (a broadcast view can be long without using memory).
        self.device.check_buffer_size(op, a.len(), a.dtype())?;
        self.device.check_buffer_size(op, n as usize, DType::I32)?;
        let mut words = HostWords::new(self.position());
        let perm = fisher_yates(&mut words, n);
        let out = take_axis(op, a, axis, &perm)?;
        self.offset = self.after(op, words.consumed())?;
        Ok(out)
    }

    /// Samples of `a` along its first axis (`numpy.random.Generator.choice(a, size, replace, p)`):
    /// the result has shape `shape + a.shape()[1..]`.
    ///
    /// * with replacement, no weights: index `i` uniform on `[0, m)` — the same indices as
    ///   [`Generator::integers`]`(0, m, shape)`;
    /// * with replacement and weights `p`: inverse CDF of a 53-bit uniform (2 words each);
    /// * without replacement, no weights: a partial Fisher–Yates (`j = i + U[0, m - i)`);
    /// * without replacement and weights: Efraimidis–Spirakis — the `k` largest
    ///   `ln(u_i) / p_i` over one 53-bit uniform per item (2 words per item).
    ///
    /// Weights must be finite and non-negative and sum to 1 within NumPy's tolerance
    /// (`sqrt(f64::EPSILON)`, about 1.5e-8; they are then normalised exactly); items of weight 0
    /// are never chosen.
    ///
    /// ```
    /// use gpuarray::{Array, DType};
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let mut g = gpuarray::random::Generator::new(&dev, 1);
    /// let a = Array::arange(&dev, 10.0, 15.0, 1.0, DType::I32)?;
    /// let s = g.choice(&a, &[3], false, None)?.to_vec::<i32>()?;
    /// assert!(s[0] != s[1] && s[1] != s[2] && s[0] != s[2]);
    /// let w = g.choice(&a, &[4], true, Some(&[0.0, 0.0, 1.0, 0.0, 0.0]))?.to_vec::<i32>()?;
    /// assert_eq!(w, [12, 12, 12, 12]);
    /// # Ok(()) }
    /// ```
    pub fn choice(
        &mut self,
        a: &Array,
        shape: &[usize],
        replace: bool,
        p: Option<&[f64]>,
    ) -> Result<Array> {
        let op = "choice";
        self.same_device(op, a)?;
        if a.ndim() == 0 {
            return Err(Error::invalid(
                op,
                "needs an array of at least one dimension",
            ));
        }
        let m = a.shape()[0] as u64;
        let k = checked_numel(op, shape)? as u64;
        if k > 0 && m == 0 {
            return Err(Error::invalid(
                op,
                "cannot take a sample from an empty axis",
            ));
        }
        if m > 1 << 32 {
            return Err(Error::invalid(
                op,
                format!("axis of length {m} is longer than 2^32"),
            ));
        }
        let weights = p.map(|p| normalised(op, p, m)).transpose()?;
        if !replace && k > m {
            return Err(Error::invalid(
                op,
                format!("cannot take {k} samples from {m} items without replacement"),
            ));
        }
        if let Some(w) = &weights {
            let nonzero = w.iter().filter(|&&x| x > 0.0).count() as u64;
            if !replace && k > nonzero {
                return Err(Error::invalid(
                    op,
                    format!(
                        "only {nonzero} items have non-zero weight for {k} samples without replacement"
                    ),
                ));
            }
        }
        // The result and the k uploaded indices must fit on the device: check before the host
        // builds k indices (`choice(a, [1 << 40])` would otherwise abort on the allocation).
        let mut out_shape = shape.to_vec();
        out_shape.extend_from_slice(&a.shape()[1..]);
        let out_numel = checked_numel(op, &out_shape)?;
        self.device.check_buffer_size(op, out_numel, a.dtype())?;
        self.device.check_buffer_size(op, k as usize, DType::I32)?;
        let mut words = HostWords::new(self.position());
        let idx: Vec<u64> = match (&weights, replace) {
            (None, true) => (0..k).map(|_| words.bounded(m)).collect(),
            (Some(w), true) => weighted_with_replacement(&mut words, w, k),
            (None, false) => partial_fisher_yates(&mut words, m, k),
            (Some(w), false) => weighted_without_replacement(&mut words, w, k),
        };
        let taken = take_axis(op, a, 0, &idx)?;
        // Checked above: every dimension fits isize.
        let out_shape: Vec<isize> = out_shape.iter().map(|&n| n as isize).collect();
        let out = taken.reshape(&out_shape)?;
        self.offset = self.after(op, words.consumed())?;
        Ok(out)
    }
}

/// Fisher–Yates: for `i = n-1 .. 1`, swap `i` with `j = U[0, i]`.
fn fisher_yates(words: &mut HostWords, n: u64) -> Vec<u64> {
    let mut perm: Vec<u64> = (0..n).collect();
    for i in (1..n).rev() {
        let j = words.bounded(i + 1);
        perm.swap(i as usize, j as usize);
    }
    perm
}

/// The first `k` steps of a Fisher–Yates from the bottom (`j = i + U[0, m - i)`), on a sparse
/// map of moved entries so memory is O(k), not O(m).
fn partial_fisher_yates(words: &mut HostWords, m: u64, k: u64) -> Vec<u64> {
    let mut moved: HashMap<u64, u64> = HashMap::new();
    (0..k)
        .map(|i| {
            let j = i + words.bounded(m - i);
            let vi = moved.get(&i).copied().unwrap_or(i);
            let vj = moved.get(&j).copied().unwrap_or(j);
            moved.insert(j, vi);
            vj
        })
        .collect()
}

/// Inverse-CDF draws: the first item whose cumulative weight exceeds `u` (53-bit, in [0, 1)).
fn weighted_with_replacement(words: &mut HostWords, w: &[f64], k: u64) -> Vec<u64> {
    let mut cdf = Vec::with_capacity(w.len());
    let mut acc = 0.0;
    for &x in w {
        acc += x;
        cdf.push(acc);
    }
    let total = acc;
    let last = w.iter().rposition(|&x| x > 0.0).expect("a positive sum") as u64;
    (0..k)
        .map(|_| {
            let u = words.uniform53();
            let u = if u >= 1.0 { 0.0 } else { u }; // [0, 1), as `random`
            let target = u * total;
            (cdf.partition_point(|&c| c <= target) as u64).min(last)
        })
        .collect()
}

/// Efraimidis–Spirakis: the `k` items with the largest `ln(u_i) / w_i` (u_i in (0, 1]).
fn weighted_without_replacement(words: &mut HostWords, w: &[f64], k: u64) -> Vec<u64> {
    let mut keys: Vec<(f64, u64)> = w
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            let u = words.uniform53();
            let key = if x > 0.0 {
                u.ln() / x
            } else {
                f64::NEG_INFINITY
            };
            (key, i as u64)
        })
        .collect();
    // Largest key first; ties (probability ~0) by index.
    keys.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    keys.into_iter().take(k as usize).map(|(_, i)| i).collect()
}

/// The weights divided by their sum, after checking them.
fn normalised(op: &'static str, p: &[f64], m: u64) -> Result<Vec<f64>> {
    if p.len() as u64 != m {
        return Err(Error::invalid(
            op,
            format!("{} weights for {m} items", p.len()),
        ));
    }
    if let Some(bad) = p.iter().find(|x| !(x.is_finite() && **x >= 0.0)) {
        return Err(Error::invalid(
            op,
            format!("weights must be finite and non-negative, got {bad}"),
        ));
    }
    let sum: f64 = p.iter().sum();
    // NumPy's `choice` refuses probabilities that do not sum to 1 within sqrt(eps) (a plain
    // sum here, Kahan's there: the difference is far below the tolerance).
    let tolerance = f64::EPSILON.sqrt();
    if (sum - 1.0).abs() > tolerance {
        return Err(Error::invalid(
            op,
            format!(
                "probabilities do not sum to 1: {} weights sum to {sum:?} (tolerance {tolerance:e})",
                p.len()
            ),
        ));
    }
    Ok(p.iter().map(|x| x / sum).collect())
}

#[cfg(test)]
mod tests {
    use super::super::philox::StreamPos;
    use super::*;

    #[test]
    fn sparse_partial_fisher_yates_equals_the_dense_one() {
        let start = StreamPos::curand(3, 0, 0);
        let (m, k) = (50u64, 20u64);
        let sparse = partial_fisher_yates(&mut HostWords::new(start), m, k);
        let mut w = HostWords::new(start);
        let mut dense: Vec<u64> = (0..m).collect();
        for i in 0..k {
            let j = i + w.bounded(m - i);
            dense.swap(i as usize, j as usize);
        }
        assert_eq!(sparse, dense[..k as usize]);
        let mut sorted = sparse.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), k as usize);
    }

    #[test]
    fn weights_never_pick_zero_items() {
        let w = normalised("t", &[0.0, 0.5, 0.0, 0.5, 0.0], 5).unwrap();
        let mut words = HostWords::new(StreamPos::curand(1, 0, 0));
        let picks = weighted_with_replacement(&mut words, &w, 1000);
        assert!(picks.iter().all(|&i| i == 1 || i == 3));
        let picks = weighted_without_replacement(&mut words, &w, 2);
        let mut s = picks.clone();
        s.sort_unstable();
        assert_eq!(s, [1, 3]);
        assert!(normalised("t", &[1.0, -1.0], 2).is_err());
        assert!(normalised("t", &[0.0, 0.0], 2).is_err());
        assert!(normalised("t", &[1.0], 2).is_err());
        // NumPy's ValueError: probabilities do not sum to 1.
        assert!(normalised("t", &[0.25, 0.25], 2).is_err());
        assert!(normalised("t", &[2.0, 2.0], 2).is_err());
        assert!(normalised("t", &[0.5, 0.5 + 1e-9], 2).is_ok());
    }
}
