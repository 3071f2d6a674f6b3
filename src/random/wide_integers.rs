//! Integers of every integer dtype over any range that dtype holds, up to the full 2^64 of
//! int64/uint64 ([`Generator::integers_i128`]).
//!
//! A value is `lo + offset`, the offset uniform on `[0, range)`, computed in uint64 words and
//! wrapped to the dtype (exact: the value lies in the dtype's range). Offsets come from the
//! stream in one of two ways, and that fixes the words a draw consumes:
//! - `range <= 2^32`: the 32-bit draw of [`Generator::integers`] (Lemire's multiply and reject,
//!   one word per value plus the rejected ones), so int8 ... uint64 draws over small ranges take
//!   the same words and give the same offsets as an int32 draw.
//! - `range > 2^32` (int64/uint64 only): 64-bit candidates, each two consecutive words (low
//!   word first, cuRAND's `curand` order for 64-bit draws), masked to the bits of `range - 1`.
//!   A power-of-two range (2^64 included) accepts every candidate: `2n` words for `n` values.
//!   Otherwise candidates below `range` are accepted (probability above 1/2) in rounds: a round
//!   for `r` values still missing draws `2r + 64` candidates (`2 (2r + 64)` words), keeps the
//!   accepted ones in order, and a last round's surplus is discarded. Masking and rejecting
//!   keeps every value exactly equally likely.

use super::Generator;
use super::integers;
use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::SliceArg;

/// The values `dtype` holds, as an inclusive range; `None` for non-integer dtypes.
fn int_range(dtype: DType) -> Option<(i128, i128)> {
    if !dtype.is_int() {
        return None;
    }
    let bits = 8 * dtype.size_bytes() as u32;
    Some(if dtype.is_signed_int() {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    })
}

impl Generator {
    /// Integers uniform on `[lo, hi)` of any integer dtype (`numpy.random.Generator.integers`
    /// with `dtype=`): int64 over `[i64::MIN, i64::MAX]` needs `hi = 2^63`, uint64 up to
    /// `hi = 2^64`, which is why the bounds are `i128`. Unbiased; the words consumed are
    /// documented in `src/random/wide_integers.rs` (ranges up to 2^32 consume exactly what
    /// [`Generator::integers`] does). Ranges past 2^32 that are not powers of two read an
    /// acceptance count back (on wasm32 they are refused: every other range works there).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// use gpuarray::DType;
    /// let mut g = gpuarray::random::Generator::new(&dev, 3);
    /// let big = g.integers_i128(-(1 << 62), 1 << 62, &[6], DType::I64)?.to_vec::<i64>()?;
    /// assert!(big.iter().all(|&v| (-(1i64 << 62)..1 << 62).contains(&v)));
    /// let bytes = g.integers_i128(0, 256, &[6], DType::U8)?.to_vec::<u8>()?;
    /// assert_eq!(bytes.len(), 6);
    /// # Ok(()) }
    /// ```
    pub fn integers_i128(
        &mut self,
        lo: i128,
        hi: i128,
        shape: &[usize],
        dtype: DType,
    ) -> Result<Array> {
        let op = "integers";
        let range = checked_range(op, lo, hi, dtype)?;
        if matches!(dtype, DType::I32 | DType::U32) {
            return self.integers(lo as i64, hi as i64, shape, dtype);
        }
        let n: usize = shape.iter().product();
        // Drawn on a copy: a draw that fails consumes nothing.
        let mut g = self.clone();
        let offsets = if range <= 1 << 32 {
            let out = Array::empty(op, &self.device, &[n], DType::U32)?;
            let used = integers::integers(op, &out, g.position(), 0, range as u64)?;
            g.offset = g.after(op, used)?;
            out.astype(DType::U64)?
        } else if range.is_power_of_two() {
            g.masked_words(n, range)?
        } else {
            #[cfg(not(target_arch = "wasm32"))]
            {
                g.rejected_words(op, n, range)?
            }
            #[cfg(target_arch = "wasm32")]
            return Err(crate::error::needs_blocking_readback(
                op,
                "64-bit integers over a range that is not a power of two (use integers_i128_async)",
            ));
        };
        let values = shifted(&offsets, lo, shape, dtype)?;
        self.offset = g.offset;
        Ok(values)
    }

    /// [`Generator::integers_i128`] for async callers, and the form that works on wasm32 for
    /// every range: acceptance counts are read back by awaiting. The same words and values.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> { pollster::block_on(async {
    /// # let dev = gpuarray::Device::new_async().await?;
    /// let mut g = gpuarray::random::Generator::new(&dev, 3);
    /// let k = g.integers_i128_async(0, 1 << 40, &[4], gpuarray::DType::U64).await?;
    /// assert!(k.to_vec_async::<u64>().await?.iter().all(|&v| v < 1 << 40));
    /// # Ok(()) }) }
    /// ```
    pub async fn integers_i128_async(
        &mut self,
        lo: i128,
        hi: i128,
        shape: &[usize],
        dtype: DType,
    ) -> Result<Array> {
        let op = "integers_async";
        let range = checked_range(op, lo, hi, dtype)?;
        if matches!(dtype, DType::I32 | DType::U32) {
            return self
                .integers_words_async(lo as i64, hi as i64, shape, dtype)
                .await;
        }
        let n: usize = shape.iter().product();
        let mut g = self.clone();
        let offsets = if range <= 1 << 32 {
            let out = Array::empty(op, &self.device, &[n], DType::U32)?;
            let used = integers::integers_async(op, &out, g.position(), 0, range as u64).await?;
            g.offset = g.after(op, used)?;
            out.astype(DType::U64)?
        } else if range.is_power_of_two() {
            g.masked_words(n, range)?
        } else {
            let (mask, bound) = g.mask_and_bound(range)?;
            let mut parts: Vec<Array> = Vec::new();
            let mut missing = n;
            while missing > 0 {
                let candidates = g.words64(tries(op, n, missing)?)?.bitwise_and(&mask)?;
                let accepted = candidates.masked_async(&candidates.lt(&bound)?).await?;
                missing -= keep(&mut parts, accepted, missing)?;
            }
            joined(parts)?
        };
        let values = shifted(&offsets, lo, shape, dtype)?;
        self.offset = g.offset;
        Ok(values)
    }

    /// `n` offsets uniform on `[0, range)` for a power-of-two `range` past 2^32: masked word
    /// pairs, every one accepted.
    fn masked_words(&mut self, n: usize, range: u128) -> Result<Array> {
        let (mask, _) = self.mask_and_bound(range)?;
        self.words64(n)?.bitwise_and(&mask)
    }

    /// `n` offsets uniform on `[0, range)` for `2^32 < range < 2^64` not a power of two: rounds
    /// of masked candidates, those below `range` kept in order.
    #[cfg(not(target_arch = "wasm32"))]
    fn rejected_words(&mut self, op: &'static str, n: usize, range: u128) -> Result<Array> {
        let (mask, bound) = self.mask_and_bound(range)?;
        let mut parts: Vec<Array> = Vec::new();
        let mut missing = n;
        while missing > 0 {
            let candidates = self.words64(tries(op, n, missing)?)?.bitwise_and(&mask)?;
            let accepted = candidates.masked(&candidates.lt(&bound)?)?;
            missing -= keep(&mut parts, accepted, missing)?;
        }
        joined(parts)
    }

    /// The 0-d uint64 mask of the bits of `range - 1`, and `range` itself (its low 64 bits:
    /// unused when `range` is 2^64).
    fn mask_and_bound(&self, range: u128) -> Result<(Array, Array)> {
        let bits = 128 - (range - 1).leading_zeros();
        let mask = if bits >= 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        Ok((
            Array::from_slice(&self.device, &[mask], &[])?,
            Array::from_slice(&self.device, &[range as u64], &[])?,
        ))
    }

    /// `n` uint64 words of the stream: two 32-bit words each, the first the low half.
    fn words64(&mut self, n: usize) -> Result<Array> {
        let w = self.bits(&[n, 2])?;
        let column = |c: isize| {
            w.slice(&[
                SliceArg::range(None, None, 1),
                SliceArg::range(Some(c), Some(c + 1), 1),
            ])?
            .reshape(&[-1])?
            .astype(DType::U64)
        };
        column(0)?.bitwise_or(&column(1)?.left_shift(32.0)?)
    }
}

/// `range = hi - lo` once the bounds are checked against `dtype` (an integer dtype).
fn checked_range(op: &'static str, lo: i128, hi: i128, dtype: DType) -> Result<u128> {
    let Some((min, max)) = int_range(dtype) else {
        return Err(Error::invalid(
            op,
            format!("dtype {dtype} is not an integer dtype"),
        ));
    };
    if lo >= hi || lo < min || hi - 1 > max {
        return Err(Error::invalid(
            op,
            format!(
                "needs {min} <= lo < hi <= {} for {dtype}, got lo={lo}, hi={hi}",
                max + 1
            ),
        ));
    }
    Ok((hi - lo) as u128)
}

/// Candidates a round draws for `missing` values still to find: `2 missing + 64`.
fn tries(op: &'static str, n: usize, missing: usize) -> Result<usize> {
    missing
        .checked_mul(2)
        .and_then(|t| t.checked_add(64))
        .ok_or_else(|| Error::overflow(op, format!("candidates for {n} values")))
}

/// Keeps the first `missing` of a round's `accepted` candidates; returns how many.
fn keep(parts: &mut Vec<Array>, accepted: Array, missing: usize) -> Result<usize> {
    let take = accepted.len().min(missing);
    parts.push(accepted.slice(&[SliceArg::range(None, Some(take as isize), 1)])?);
    Ok(take)
}

/// The rounds' accepted offsets, in order.
fn joined(mut parts: Vec<Array>) -> Result<Array> {
    if parts.len() == 1 {
        return Ok(parts.pop().expect("one part"));
    }
    let refs: Vec<&Array> = parts.iter().collect();
    crate::ops::join::concatenate(&refs, 0)
}

/// `lo + offsets` (uint64 words) wrapped to `dtype`, in `shape`: exact, the values lying in
/// `dtype`'s range.
fn shifted(offsets: &Array, lo: i128, shape: &[usize], dtype: DType) -> Result<Array> {
    let lo_words = Array::from_slice(offsets.device(), &[lo as u64], &[])?;
    let shape: Vec<isize> = shape.iter().map(|&d| d as isize).collect();
    offsets.add(&lo_words)?.astype(dtype)?.reshape(&shape)
}
