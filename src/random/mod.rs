//! Random numbers on the device: Philox4x32-10 in cuRAND's stream layout, with a NumPy-style
//! [`Generator`].
//!
//! # Streams
//!
//! A generator is a position in a Philox4x32-10 stream: `key = (seed lo, seed hi)`, and word `e`
//! of subsequence `s` from offset `o` is word `(o + e) % 4` of
//! `philox(counter = (b lo, b hi, s lo, s hi), key)` with `b = (o + e) / 4` — exactly the words
//! cuRAND's `curand()` returns after `curand_init(seed, s, o)`, and so (for the same key) also
//! CuPy's `Philox4x3210` slots, PyTorch's per-thread CUDA streams, TensorFlow's `PhiloxRandom`
//! and C++26 `std::philox4x32`. Each GPU invocation computes whole blocks from (key, counter), so the same
//! seed gives the same bits on every adapter, whatever the chunking or workgroup size.
//!
//! Every draw consumes stream words in order and advances [`Generator::offset`] by exactly the
//! words it used, so two draws of `n` and `m` equal one draw of `n + m` (for Box–Muller
//! normals: when `n` is even).
//!
//! # Conversions
//!
//! | draw | words per value | definition |
//! | --- | --- | --- |
//! | `bits` | 1 | the word |
//! | `random` f32 | 1 | cuRAND `curand_uniform` = `RN(RN(x) 2^-32 + 2^-33)` in (0, 1], then 1.0 → 0.0 |
//! | `random` f16 | 1 | the f32 value rounded to f16 (to nearest even), then 1.0 → 0.0 |
//! | `random` f64 | 2 | cuRAND `_curand_uniform_double_hq(x, y)`: 53 bits, then 1.0 → 0.0 |
//! | `standard_normal` f32/f16 | 2 per pair | `_curand_box_muller(x, y)` (`curand_normal4` pairing: sin then cos) |
//! | `standard_normal` f64 | 4 per pair | `_curand_box_muller_double` (`curand_normal2_double`) |
//! | `exponential` | 1 (f64: 2) | `-scale · ln u`, u the (0, 1] uniform above |
//! | `bernoulli(p)` | 1 | `x < round(p 2^32)` |
//! | `integers(lo, hi)` | ≥ 1 | Lemire's multiply with rejection: exactly uniform |
//! | `permutation`, `shuffle`, `choice` | ≥ 1 per index | Fisher–Yates and friends on the host, gather on the device |
//!
//! `random`, `bits`, `bernoulli` and `integers` are bit-identical on every adapter: WGSL lets
//! `f32(u32)` and `*` round either way, so the uniform conversions round in integer arithmetic
//! and only convert integers below 2^24 (exact) and scale by powers of two (exact). Normals and exponentials use the crate's own `log`/`sin`/`cos` polynomials (WGSL's
//! built-ins are only 2^-11 accurate): within a few ulp of the exact values everywhere, but not
//! guaranteed bit-identical across adapters. The Box–Muller angle is computed exactly from the
//! word (cuRAND first rounds it to f32, a difference below 5e-7 radians).
//!
//! ```
//! use gpuarray::{DType, Device};
//! use gpuarray::random::Generator;
//! # fn main() -> gpuarray::Result<()> {
//! let dev = Device::new()?;
//! let mut g = Generator::new(&dev, 42);
//! let x = g.standard_normal(&[500, 500], DType::F32)?;
//! let u = g.random(&[1000], DType::F64)?;
//! let k = g.integers(0, 6, &[10], DType::I32)?;
//! // 250 000 words for the normals, 2 per f64 uniform, at least 1 per integer.
//! assert!(g.offset() >= 250_000 + 2_000 + 10);
//! # Ok(()) }
//! ```

pub(crate) mod families;
mod integers;
pub(crate) mod launch;
mod philox;
mod sampling;
mod soft_f64;
mod wide_integers;

use crate::array::Array;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use launch::{Dist, Extra, check_dtype, generate};
use philox::StreamPos;

/// A NumPy-style random generator over a Philox4x32-10 stream in cuRAND's layout.
///
/// `Clone` copies the position: the copy replays the same numbers. [`Generator::spawn`] gives
/// children on other subsequences. Every draw advances [`Generator::offset`] by the stream words
/// it consumed; a draw that fails consumes nothing.
///
/// ```
/// use gpuarray::{DType, Device};
/// use gpuarray::random::Generator;
/// # fn main() -> gpuarray::Result<()> {
/// let dev = Device::new()?;
/// let mut g = Generator::new(&dev, 7);
/// let replay = g.clone();
/// let a = g.random(&[4], DType::F32)?.to_vec::<f32>()?;
/// assert_eq!(g.offset(), 4);
/// let b = replay.clone().random(&[4], DType::F32)?.to_vec::<f32>()?;
/// assert_eq!(a, b);
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Generator {
    device: Device,
    seed: u64,
    subsequence: u64,
    offset: u64,
    spawned: u64,
}

impl std::fmt::Debug for Generator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Generator(Philox4x32-10, seed={}, subsequence={}, offset={})",
            self.seed, self.subsequence, self.offset
        )
    }
}

impl Generator {
    /// The generator `curand_init(seed, 0, 0)` describes: subsequence 0, offset 0.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// let dev = gpuarray::Device::new()?;
    /// let mut g = gpuarray::random::Generator::new(&dev, 42);
    /// let bits = g.bits(&[4])?.to_vec::<u32>()?;
    /// # Ok(()) }
    /// ```
    pub fn new(device: &Device, seed: u64) -> Generator {
        Generator::with_stream(device, seed, 0, 0)
    }

    /// The generator `curand_init(seed, subsequence, offset)` describes (`offset` in 32-bit
    /// words, like cuRAND; any value, not only multiples of 4).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// let dev = gpuarray::Device::new()?;
    /// use gpuarray::random::Generator;
    /// let mut a = Generator::new(&dev, 1);
    /// let mut b = Generator::with_stream(&dev, 1, 0, 3);   // a's stream from word 3
    /// let x = a.bits(&[8])?.to_vec::<u32>()?;
    /// assert_eq!(b.bits(&[5])?.to_vec::<u32>()?, x[3..]);
    /// # Ok(()) }
    /// ```
    pub fn with_stream(device: &Device, seed: u64, subsequence: u64, offset: u64) -> Generator {
        Generator {
            device: device.clone(),
            seed,
            subsequence,
            offset,
            spawned: 0,
        }
    }

    /// The seed (the Philox key).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let g = gpuarray::random::Generator::with_stream(&dev, 42, 7, 3);
    /// assert_eq!((g.seed(), g.subsequence(), g.offset()), (42, 7, 3));
    /// # Ok(()) }
    /// ```
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The subsequence (the counter's high 64 bits). See [`Generator::seed`] for an example.
    pub fn subsequence(&self) -> u64 {
        self.subsequence
    }

    /// The position in the subsequence, in 32-bit words: the starting offset plus every word
    /// drawn since.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let mut g = gpuarray::random::Generator::new(&dev, 42);
    /// g.standard_normal(&[5], gpuarray::DType::F32)?;   // 3 Box–Muller pairs
    /// g.random(&[2], gpuarray::DType::F64)?;            // 2 words each
    /// assert_eq!(g.offset(), 6 + 4);
    /// # Ok(()) }
    /// ```
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The device the generator draws on.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// let dev = gpuarray::Device::new()?;
    /// let g = gpuarray::random::Generator::new(&dev, 1);
    /// println!("drawing on {}", g.device().info());
    /// # Ok(()) }
    /// ```
    pub fn device(&self) -> &Device {
        &self.device
    }

    /// Skips `words` stream words (cuRAND's `skipahead`).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let mut g = gpuarray::random::Generator::new(&dev, 1);
    /// g.advance(10)?;
    /// assert_eq!(g.offset(), 10);
    /// # Ok(()) }
    /// ```
    pub fn advance(&mut self, words: u64) -> Result<()> {
        self.offset = self.after("advance", words)?;
        Ok(())
    }

    /// `n` independent generators: the same seed on fresh subsequences, derived by hashing
    /// (seed, this subsequence, a spawn counter) with Philox, so children of children differ
    /// too. Each call gives new children; a clone of this generator spawns the same ones.
    /// `n` children that do not fit in host memory (`n * size_of::<Generator>()` bytes past
    /// `isize::MAX`, or more than the allocator gives: `usize::MAX` children, say) are
    /// `Err(TooLarge)`, with the spawn counter left as it was.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let mut g = gpuarray::random::Generator::new(&dev, 1);
    /// let kids = g.spawn(4)?;
    /// assert!(kids.iter().all(|k| k.seed() == 1 && k.subsequence() != 0 && k.offset() == 0));
    /// assert!(matches!(g.spawn(usize::MAX), Err(gpuarray::Error::TooLarge { .. })));
    /// # Ok(()) }
    /// ```
    pub fn spawn(&mut self, n: usize) -> Result<Vec<Generator>> {
        let op = "spawn";
        let each = std::mem::size_of::<Generator>() as u64;
        let requested = (n as u64).saturating_mul(each);
        let too_large = |what| Error::TooLarge {
            op,
            requested,
            max: isize::MAX as u64,
            what,
        };
        // Check and reserve first: a capacity past isize::MAX bytes, or one the allocator
        // refuses, is an error here instead of a panic or an abort inside `collect`.
        if requested > isize::MAX as u64 {
            return Err(too_large("host allocation limit (isize::MAX bytes)"));
        }
        let mut kids = Vec::new();
        kids.try_reserve_exact(n)
            .map_err(|_| too_large("host memory the allocator could provide"))?;
        for _ in 0..n {
            let s = philox::spawn_subsequence(self.seed, self.subsequence, self.spawned);
            self.spawned = self.spawned.wrapping_add(1);
            kids.push(Generator::with_stream(&self.device, self.seed, s, 0));
        }
        Ok(kids)
    }

    /// One independent child generator (`spawn(1)`).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let mut g = gpuarray::random::Generator::new(&dev, 1);
    /// let child = g.split();
    /// assert_ne!(child.subsequence(), g.subsequence());
    /// # Ok(()) }
    /// ```
    pub fn split(&mut self) -> Generator {
        // One child always fits: `spawn` refuses only counts past the host's memory.
        let child = self.spawn(1).ok().and_then(|mut kids| kids.pop());
        child.expect("spawn(1) gives one generator")
    }

    /// The raw 32-bit words of the stream, in order (`DType::U32`).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let mut g = gpuarray::random::Generator::new(&dev, 0);
    /// let w = g.bits(&[4])?.to_vec::<u32>()?;
    /// assert_eq!(w, [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]); // Random123's zero KAT
    /// # Ok(()) }
    /// ```
    pub fn bits(&mut self, shape: &[usize]) -> Result<Array> {
        self.draw("bits", shape, DType::U32, Dist::Bits, Extra::default())
    }

    /// Uniform floats in [0, 1) (`numpy.random.Generator.random`): cuRAND's `curand_uniform`
    /// value with 1.0 mapped to 0.0; f64 takes 53 bits from two words. Bit-identical on every
    /// adapter. Dtypes: f32, f16, f64.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let mut g = gpuarray::random::Generator::new(&dev, 0);
    /// let u = g.random(&[3], gpuarray::DType::F32)?.to_vec::<f32>()?;
    /// assert!(u.iter().all(|&x| (0.0..1.0).contains(&x)));
    /// # Ok(()) }
    /// ```
    pub fn random(&mut self, shape: &[usize], dtype: DType) -> Result<Array> {
        let op = "random";
        check_dtype(op, dtype, &[DType::F32, DType::F16, DType::F64])?;
        let dist = if dtype == DType::F64 {
            Dist::RandomWide
        } else {
            Dist::Random
        };
        self.draw(op, shape, dtype, dist, Extra::default())
    }

    /// Uniform floats in [lo, hi): `lo + (hi - lo) * random`, with a value that rounds up to
    /// `hi` replaced by `lo` (PyTorch's convention). Needs finite `lo <= hi` within the dtype's
    /// range and, as NumPy, `hi - lo` finite in f64. Computed in f32 (f64 for f64; with halved
    /// bounds, then doubled, when `hi - lo` overflows f32), so adapters may differ in the last
    /// bit (WGSL's `*` and `+` may round either way); `random` itself is exact.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let mut g = gpuarray::random::Generator::new(&dev, 0);
    /// let w = g.uniform(-2.0, 2.0, &[100], gpuarray::DType::F32)?.to_vec::<f32>()?;
    /// assert!(w.iter().all(|&x| (-2.0..2.0).contains(&x)));
    /// # Ok(()) }
    /// ```
    pub fn uniform(&mut self, lo: f64, hi: f64, shape: &[usize], dtype: DType) -> Result<Array> {
        let op = "uniform";
        check_dtype(op, dtype, &[DType::F32, DType::F16, DType::F64])?;
        // `{:?}` prints 1e308 as `1e308`, not as 309 digits.
        if !(lo.is_finite() && hi.is_finite() && lo <= hi) {
            return Err(Error::invalid(
                op,
                format!("needs finite lo <= hi, got lo={lo:?}, hi={hi:?}"),
            ));
        }
        if !(hi - lo).is_finite() {
            // NumPy: OverflowError "high - low range exceeds valid bounds".
            return Err(Error::invalid(
                op,
                format!(
                    "the range hi - lo exceeds f64's largest value (lo={lo:?}, hi={hi:?}): \
                     NumPy refuses it too"
                ),
            ));
        }
        let max = match dtype {
            DType::F32 => f64::from(f32::MAX),
            DType::F16 => f64::from(crate::f16::MAX),
            _ => f64::MAX,
        };
        if lo < -max || hi > max {
            return Err(Error::invalid(
                op,
                format!(
                    "lo={lo:?} and hi={hi:?} must lie within {dtype}'s finite range \
                     (±{max:?}), or every sample would be infinite or out of bounds"
                ),
            ));
        }
        let dist = if dtype == DType::F64 {
            Dist::UniformWide
        } else {
            Dist::Uniform
        };
        // The f32 kernel computes lo + (hi - lo) * u in f32, where hi - lo can overflow to inf
        // (-3e38..3e38 would give lo everywhere). Halved bounds never overflow, and halving and
        // doubling are exact in binary floating point, so 2 * (lo/2 + (hi/2 - lo/2) * u) is
        // the value an f32 with unbounded range would give. (f16 computes in f32: no overflow.)
        let halve = dtype == DType::F32 && !(hi as f32 - lo as f32).is_finite();
        let scale = if halve { 0.5 } else { 1.0 };
        let extra = Extra {
            fa: lo * scale,
            fb: hi * scale,
            ..Default::default()
        };
        let out = self.draw(op, shape, dtype, dist, extra)?;
        if halve { out.mul(2.0) } else { Ok(out) }
    }

    /// Standard normal samples by Box–Muller on consecutive word pairs (cuRAND's
    /// `curand_normal4` pairing; f64 as `curand_normal2_double`, 4 words per pair). An odd count
    /// still consumes the whole last pair. Dtypes: f32, f16, f64.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let mut g = gpuarray::random::Generator::new(&dev, 0);
    /// let x = g.standard_normal(&[1 << 20], gpuarray::DType::F32)?;
    /// assert_eq!(g.offset(), 1 << 20);
    /// # Ok(()) }
    /// ```
    pub fn standard_normal(&mut self, shape: &[usize], dtype: DType) -> Result<Array> {
        self.normal_op("standard_normal", 0.0, 1.0, shape, dtype)
    }

    /// Normal samples `mean + std * z` (`std >= 0`, both finite).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let mut g = gpuarray::random::Generator::new(&dev, 0);
    /// let y = g.normal(10.0, 0.5, &[8], gpuarray::DType::F64)?;
    /// # Ok(()) }
    /// ```
    pub fn normal(&mut self, mean: f64, std: f64, shape: &[usize], dtype: DType) -> Result<Array> {
        self.normal_op("normal", mean, std, shape, dtype)
    }

    fn normal_op(
        &mut self,
        op: &'static str,
        mean: f64,
        std: f64,
        shape: &[usize],
        dtype: DType,
    ) -> Result<Array> {
        check_dtype(op, dtype, &[DType::F32, DType::F16, DType::F64])?;
        if !(mean.is_finite() && std.is_finite() && std >= 0.0) {
            return Err(Error::invalid(
                op,
                format!("needs finite mean and std >= 0, got mean={mean}, std={std}"),
            ));
        }
        let dist = if dtype == DType::F64 {
            Dist::NormalWide
        } else {
            Dist::Normal
        };
        let extra = Extra {
            fa: mean,
            fb: std,
            ..Default::default()
        };
        self.draw(op, shape, dtype, dist, extra)
    }

    /// Exponential samples with the given `scale` (= 1/rate): `-scale * ln u` with u the
    /// (0, 1] uniform (so never infinite). Dtypes: f32, f16, f64.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let mut g = gpuarray::random::Generator::new(&dev, 0);
    /// let e = g.exponential(2.0, &[8], gpuarray::DType::F32)?.to_vec::<f32>()?;
    /// assert!(e.iter().all(|&x| x >= 0.0));
    /// # Ok(()) }
    /// ```
    pub fn exponential(&mut self, scale: f64, shape: &[usize], dtype: DType) -> Result<Array> {
        let op = "exponential";
        check_dtype(op, dtype, &[DType::F32, DType::F16, DType::F64])?;
        if !(scale.is_finite() && scale >= 0.0) {
            return Err(Error::invalid(
                op,
                format!("needs a finite scale >= 0, got {scale}"),
            ));
        }
        let dist = if dtype == DType::F64 {
            Dist::ExponentialWide
        } else {
            Dist::Exponential
        };
        let extra = Extra {
            fa: scale,
            ..Default::default()
        };
        self.draw(op, shape, dtype, dist, extra)
    }

    /// Bernoulli trials: 1 with probability `p`, else 0, in any dtype. The probability used is
    /// exactly `round(p * 2^32) / 2^32` (word `x` gives 1 when `x < round(p * 2^32)`).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let mut g = gpuarray::random::Generator::new(&dev, 0);
    /// let b = g.bernoulli(1.0, &[4], gpuarray::DType::I32)?.to_vec::<i32>()?;
    /// assert_eq!(b, [1, 1, 1, 1]);
    /// # Ok(()) }
    /// ```
    pub fn bernoulli(&mut self, p: f64, shape: &[usize], dtype: DType) -> Result<Array> {
        let op = "bernoulli";
        if !(0.0..=1.0).contains(&p) {
            return Err(Error::invalid(op, format!("needs 0 <= p <= 1, got {p}")));
        }
        let t = (p * 4294967296.0).round() as u64;
        let extra = Extra {
            ilo: t.min(u64::from(u32::MAX)) as u32,
            irange: u32::from(t >= 1 << 32),
            ..Default::default()
        };
        self.draw(op, shape, dtype, Dist::Bernoulli, extra)
    }

    /// Integers uniform on `[lo, hi)` (`numpy.random.Generator.integers`), exactly: Lemire's
    /// multiply with rejection over the stream's words, so a draw consumes at least one word per
    /// value (more when words are rejected, with probability `(2^32 mod (hi - lo)) / 2^32`).
    /// Dtypes: every integer dtype (`lo`, `hi - 1` within it; the others, and ranges past
    /// `i64`, through [`Generator::integers_i128`]). Needs `lo < hi`.
    ///
    /// Ranges that are not powers of two read the tiles' acceptance counts back once, so this
    /// call waits for the GPU; on wasm32 those ranges need [`Generator::integers_async`].
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let mut g = gpuarray::random::Generator::new(&dev, 0);
    /// let dice = g.integers(1, 7, &[10], gpuarray::DType::I32)?.to_vec::<i32>()?;
    /// assert!(dice.iter().all(|d| (1..7).contains(d)));
    /// # Ok(()) }
    /// ```
    pub fn integers(&mut self, lo: i64, hi: i64, shape: &[usize], dtype: DType) -> Result<Array> {
        let op = "integers";
        if dtype.is_int() && !matches!(dtype, DType::I32 | DType::U32) {
            return self.integers_i128(lo.into(), hi.into(), shape, dtype);
        }
        let out = self.integers_output(op, lo, hi, shape, dtype)?;
        let start = self.position();
        let used = integers::integers(op, &out, start, lo, (hi - lo) as u64)?;
        self.offset = self.after(op, used)?;
        Ok(out)
    }

    /// [`Generator::integers`] for async callers, and the form that works on wasm32 for every
    /// range: pass 1's acceptance counts are read back by awaiting.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> { pollster::block_on(async {
    /// # let dev = gpuarray::Device::new_async().await?;
    /// let mut g = gpuarray::random::Generator::new(&dev, 0);
    /// let dice = g.integers_async(1, 7, &[10], gpuarray::DType::I32).await?;
    /// let dice = dice.to_vec_async::<i32>().await?;
    /// assert!(dice.iter().all(|d| (1..7).contains(d)));
    /// # Ok(()) }) }
    /// ```
    pub async fn integers_async(
        &mut self,
        lo: i64,
        hi: i64,
        shape: &[usize],
        dtype: DType,
    ) -> Result<Array> {
        if dtype.is_int() && !matches!(dtype, DType::I32 | DType::U32) {
            return self
                .integers_i128_async(lo.into(), hi.into(), shape, dtype)
                .await;
        }
        self.integers_words_async(lo, hi, shape, dtype).await
    }

    /// [`Generator::integers_async`] of i32/u32: the 32-bit draw itself.
    pub(crate) async fn integers_words_async(
        &mut self,
        lo: i64,
        hi: i64,
        shape: &[usize],
        dtype: DType,
    ) -> Result<Array> {
        let op = "integers_async";
        let out = self.integers_output(op, lo, hi, shape, dtype)?;
        let start = self.position();
        let used = integers::integers_async(op, &out, start, lo, (hi - lo) as u64).await?;
        self.offset = self.after(op, used)?;
        Ok(out)
    }

    /// The output of a draw of integers in `[lo, hi)`, once the arguments are checked.
    fn integers_output(
        &self,
        op: &'static str,
        lo: i64,
        hi: i64,
        shape: &[usize],
        dtype: DType,
    ) -> Result<Array> {
        check_dtype(op, dtype, &[DType::I32, DType::U32])?;
        let (min, max) = match dtype {
            DType::I32 => (i64::from(i32::MIN), i64::from(i32::MAX)),
            _ => (0, i64::from(u32::MAX)),
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
        Array::empty(op, &self.device, shape, dtype)
    }

    /// `Err(DeviceMismatch)` unless `a` lives on this generator's device.
    fn same_device(&self, op: &'static str, a: &Array) -> Result<()> {
        if self.device.same_as(a.device()) {
            Ok(())
        } else {
            Err(Error::DeviceMismatch {
                op,
                lhs: format!("the generator's {:?}", self.device),
                rhs: format!("the array's {:?}", a.device()),
            })
        }
    }

    fn position(&self) -> StreamPos {
        StreamPos::curand(self.seed, self.subsequence, self.offset)
    }

    /// The offset after consuming `words` more, or `Err(Overflow)` past 2^64 words.
    fn after(&self, op: &'static str, words: u64) -> Result<u64> {
        self.offset.checked_add(words).ok_or_else(|| {
            Error::overflow(
                op,
                format!(
                    "{words} more words from offset {} pass the 2^64-word offset range",
                    self.offset
                ),
            )
        })
    }

    fn draw(
        &mut self,
        op: &'static str,
        shape: &[usize],
        dtype: DType,
        dist: Dist,
        extra: Extra,
    ) -> Result<Array> {
        let out = Array::empty(op, &self.device, shape, dtype)?;
        let words = dist
            .words(out.len() as u64)
            .ok_or_else(|| Error::overflow(op, format!("words for shape {shape:?}")))?;
        let next = self.after(op, words)?;
        generate(op, &out, self.position(), dist, &extra)?;
        self.offset = next;
        Ok(out)
    }
}

/// Raw Philox4x32-10 blocks: `philox(counter + j, key)` for `j` in `0..blocks`, as a u32 array
/// of shape `[blocks, 4]` (the 128-bit counter wraps). This is the generator's kernel with an
/// arbitrary starting counter — Random123's known-answer vectors, for instance.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// let dev = gpuarray::Device::new()?;
/// let b = gpuarray::random::philox_blocks(&dev, [!0; 4], [!0; 2], 1)?.to_vec::<u32>()?;
/// assert_eq!(b, [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd]);
/// # Ok(()) }
/// ```
pub fn philox_blocks(
    device: &Device,
    counter: [u32; 4],
    key: [u32; 2],
    blocks: usize,
) -> Result<Array> {
    let op = "philox_blocks";
    let out = Array::empty(op, device, &[blocks, 4], DType::U32)?;
    let start = StreamPos {
        key,
        block: counter
            .iter()
            .rev()
            .fold(0u128, |acc, &w| (acc << 32) | u128::from(w)),
        phase: 0,
    };
    generate(op, &out, start, Dist::Bits, &Extra::default())?;
    Ok(out)
}
