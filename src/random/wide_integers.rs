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
        if matches!(dtype, DType::I32 | DType::U32) {
            return self.integers(lo as i64, hi as i64, shape, dtype);
        }
        let range = (hi - lo) as u128;
        let n: usize = shape.iter().product();
        // Drawn on a copy: a draw that fails consumes nothing.
        let mut g = self.clone();
        let offsets = if range <= 1 << 32 {
            let out = Array::empty(op, &self.device, &[n], DType::U32)?;
            let used = integers::integers(op, &out, g.position(), 0, range as u64)?;
            g.offset = g.after(op, used)?;
            out.astype(DType::U64)?
        } else {
            g.wide_offsets(op, n, range)?
        };
        let lo_words = Array::from_slice(&self.device, &[lo as u64], &[])?;
        let shape: Vec<isize> = shape.iter().map(|&d| d as isize).collect();
        let values = offsets.add(&lo_words)?.astype(dtype)?.reshape(&shape)?;
        self.offset = g.offset;
        Ok(values)
    }

    /// `n` offsets uniform on `[0, range)` for `2^32 < range <= 2^64`, from 64-bit candidates.
    fn wide_offsets(&mut self, op: &'static str, n: usize, range: u128) -> Result<Array> {
        let bits = 128 - (range - 1).leading_zeros();
        let mask = if bits >= 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        let mask = Array::from_slice(&self.device, &[mask], &[])?;
        if range.is_power_of_two() {
            return self.words64(n)?.bitwise_and(&mask);
        }
        let bound = Array::from_slice(&self.device, &[range as u64], &[])?;
        let mut parts: Vec<Array> = Vec::new();
        let mut missing = n;
        while missing > 0 {
            let tries = missing
                .checked_mul(2)
                .and_then(|t| t.checked_add(64))
                .ok_or_else(|| Error::overflow(op, format!("candidates for {n} values")))?;
            let candidates = self.words64(tries)?.bitwise_and(&mask)?;
            let accepted = candidates.masked(&candidates.lt(&bound)?)?;
            let take = accepted.len().min(missing);
            parts.push(accepted.slice(&[SliceArg::range(None, Some(take as isize), 1)])?);
            missing -= take;
        }
        if parts.len() == 1 {
            return Ok(parts.pop().expect("one part"));
        }
        let refs: Vec<&Array> = parts.iter().collect();
        crate::ops::join::concatenate(&refs, 0)
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
