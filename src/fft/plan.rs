//! FFT plans and the per-device plan cache (as CuPy's `PlanCache`): a plan is a length's radix
//! passes and twiddle table, and for lengths with a prime factor above 13 Bluestein's chirp and
//! the FFT of its conjugate, all on the device. Plans are kept least recently used first, within
//! a count and a memory limit the caller may set.

use super::kernels;
use crate::array::Array;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::Result;
use num_complex::Complex;
use std::collections::VecDeque;
use std::f64::consts::PI;
use std::sync::{Arc, Mutex};

/// The radices the Stockham kernel takes (its R-point DFT is unrolled per radix), largest
/// first: fewer passes over memory.
const RADICES: [usize; 8] = [8, 4, 2, 3, 5, 7, 11, 13];

/// A length's transform on one device, in one precision.
pub(crate) struct Plan {
    pub n: usize,
    /// The part dtype (f32 or f64).
    pub real: DType,
    pub how: How,
    /// Device bytes the plan holds.
    pub bytes: u64,
}

pub(crate) enum How {
    /// Stockham passes of these radices over `table` (n twiddles, then the scales 1, 1/n, 1/√n).
    Stockham { radices: Vec<usize>, table: Array },
    /// Four-step, for lengths past one storage binding: n = n1·n2, the plans of n1 (the
    /// columns) and n2 (the rows), and the twiddle table in two parts (e^(-2πi·t/n) for t < L,
    /// then for t = L·u).
    FourStep {
        n1: usize,
        n2: usize,
        cols: Arc<Plan>,
        rows: Arc<Plan>,
        table: Array,
    },
    /// rfft's last step for an even length n, after the FFT Z of the n/2 (even, odd) sample
    /// pairs read as complex: X[k] = E[k] + e^(-2πi·k/n)·O[k] for k ≤ n/2, E and O the halves'
    /// spectra taken from Z[k] and conj(Z[n/2 − k]). `table`: e^(-2πi·k/n) for k ≤ n/2, then
    /// the scales 1, 1/n, 1/√n.
    RealPost { table: Array },
    /// Bluestein: `chirp` (n entries, then the scales 1/m·{1, 1/n, 1/√n}), `b_hat` = FFT_m of
    /// the conjugate chirp, and the plan of the power-of-two length m.
    Bluestein {
        m: usize,
        chirp: Array,
        b_hat: Array,
        inner: Arc<Plan>,
    },
}

/// `n` as a product of [`RADICES`], or `None` when a prime factor above 13 is left.
pub(crate) fn factor(mut n: usize) -> Option<Vec<usize>> {
    let mut out = Vec::new();
    for r in RADICES {
        while n.is_multiple_of(r) && n > 1 {
            out.push(r);
            n /= r;
        }
    }
    (n == 1).then_some(out)
}

/// e^(-2πi·t/n), exact at the multiples of a quarter turn (so that the radix-4 and -8 roots
/// are exactly ±1, ±i).
fn root(t: u64, n: u64) -> (f64, f64) {
    let t = t % n;
    if (4 * t).is_multiple_of(n) {
        return match 4 * t / n {
            0 => (1.0, 0.0),
            1 => (0.0, -1.0),
            2 => (-1.0, 0.0),
            _ => (0.0, 1.0),
        };
    }
    // The nearer of t and t − n keeps the angle small (more accurate sin/cos).
    let a = -2.0 * PI * (t as f64 - if 2 * t > n { n as f64 } else { 0.0 }) / n as f64;
    (a.cos(), a.sin())
}

/// Host values as a complex array of `real`'s complex dtype.
fn upload(dev: &Device, values: &[(f64, f64)], real: DType) -> Result<Array> {
    if real == DType::F64 {
        let v: Vec<Complex<f64>> = values.iter().map(|&(r, i)| Complex::new(r, i)).collect();
        Array::from_slice(dev, &v, &[v.len()])
    } else {
        let v: Vec<Complex<f32>> = values
            .iter()
            .map(|&(r, i)| Complex::new(r as f32, i as f32))
            .collect();
        Array::from_slice(dev, &v, &[v.len()])
    }
}

fn bytes(a: &Array) -> u64 {
    a.len() as u64 * a.dtype().size_bytes()
}

impl Plan {
    fn new(dev: &Device, cache: &PlanCache, n: usize, real: DType) -> Result<Plan> {
        let nf = n as f64;
        let elem = 2 * real.size_bytes();
        let fits = crate::ops::window_elements(&dev.inner, elem) as usize;
        if n > fits {
            return Plan::four_step(dev, cache, n, real, fits);
        }
        if let Some(radices) = factor(n) {
            let mut t: Vec<(f64, f64)> = (0..n as u64).map(|t| root(t, n as u64)).collect();
            t.extend([(1.0, 0.0), (1.0 / nf, 0.0), (1.0 / nf.sqrt(), 0.0)]);
            let table = upload(dev, &t, real)?;
            return Ok(Plan {
                n,
                real,
                bytes: bytes(&table),
                how: How::Stockham { radices, table },
            });
        }
        let m = (2 * n - 1).next_power_of_two();
        let inner = cache.get(dev, m, real)?;
        // w[k] = e^(-πi·k²/n) = e^(-2πi·(k² mod 2n)/(2n)).
        let two_n = 2 * n as u64;
        let w: Vec<(f64, f64)> = (0..n as u64)
            .map(|k| root(((k as u128 * k as u128) % two_n as u128) as u64, two_n))
            .collect();
        let mut chirp = w.clone();
        let mf = m as f64;
        chirp.extend([
            (1.0 / mf, 0.0),
            (1.0 / (mf * nf), 0.0),
            (1.0 / (mf * nf.sqrt()), 0.0),
        ]);
        let mut b = vec![(0.0, 0.0); m];
        for (k, &(re, im)) in w.iter().enumerate() {
            b[k] = (re, -im);
            if k > 0 {
                b[m - k] = (re, -im);
            }
        }
        let b = upload(dev, &b, real)?;
        let b_hat = kernels::transform(&inner, &b.reshape(&[1, m as isize])?, false, Scale::One)?
            .reshape(&[m as isize])?;
        let chirp = upload(dev, &chirp, real)?;
        Ok(Plan {
            n,
            real,
            bytes: bytes(&chirp) + bytes(&b_hat),
            how: How::Bluestein {
                m,
                chirp,
                b_hat,
                inner,
            },
        })
    }
}

impl Plan {
    /// rfft's twiddles for an even length n ([`How::RealPost`]).
    fn real_post(dev: &Device, n: usize, real: DType) -> Result<Plan> {
        let nf = n as f64;
        let mut t: Vec<(f64, f64)> = (0..=(n / 2) as u64).map(|k| root(k, n as u64)).collect();
        t.extend([(1.0, 0.0), (1.0 / nf, 0.0), (1.0 / nf.sqrt(), 0.0)]);
        let table = upload(dev, &t, real)?;
        Ok(Plan {
            n,
            real,
            bytes: bytes(&table),
            how: How::RealPost { table },
        })
    }

    /// n = n1·n2 with both factors within one binding, n1 the largest divisor of n up to √n
    /// (balanced passes); `Err(TooLarge)` for a length with no such split (a prime past the
    /// binding).
    fn four_step(
        dev: &Device,
        cache: &PlanCache,
        n: usize,
        real: DType,
        fits: usize,
    ) -> Result<Plan> {
        let half = (n as f64).sqrt() as usize;
        let n1 = (1..=half.min(fits))
            .rev()
            .find(|&d| n.is_multiple_of(d) && n / d <= fits);
        let Some(n1) = n1.filter(|&d| d > 1) else {
            return Err(crate::error::Error::TooLarge {
                op: "fft",
                requested: n as u64 * 2 * real.size_bytes(),
                max: fits as u64 * 2 * real.size_bytes(),
                what: "bytes of one transform whose length has no factorisation into two \
                       lengths within one storage binding",
            });
        };
        let n2 = n / n1;
        let cols = cache.get(dev, n1, real)?;
        let rows = cache.get(dev, n2, real)?;
        let l = super::kernels::table_split(n);
        let mut t: Vec<(f64, f64)> = (0..l as u64).map(|t| root(t, n as u64)).collect();
        t.extend((0..n.div_ceil(l) as u64).map(|u| root(u * l as u64, n as u64)));
        let table = upload(dev, &t, real)?;
        Ok(Plan {
            n,
            real,
            bytes: bytes(&table),
            how: How::FourStep {
                n1,
                n2,
                cols,
                rows,
                table,
            },
        })
    }
}

/// The factor applied to a transform: which of the table's scale entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scale {
    One,
    /// 1/n.
    Inverse,
    /// 1/√n.
    Ortho,
}

impl Scale {
    /// Offset after the table's n twiddles.
    pub fn at(self) -> usize {
        match self {
            Scale::One => 0,
            Scale::Inverse => 1,
            Scale::Ortho => 2,
        }
    }
}

/// What the plan cache holds and may hold ([`plan_cache_info`](super::plan_cache_info)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlanCacheInfo {
    /// Plans held.
    pub size: usize,
    /// Most plans held (CuPy's default: 16).
    pub max_size: usize,
    /// Device bytes the held plans use (twiddle tables, Bluestein's chirps).
    pub memory: u64,
    /// Most bytes held (0: no limit).
    pub max_memory: u64,
}

/// One device's plans, least recently used first.
pub(crate) struct PlanCache {
    inner: Mutex<Entries>,
}

struct Entries {
    plans: VecDeque<Arc<Plan>>,
    max_size: usize,
    max_memory: u64,
}

impl Default for PlanCache {
    fn default() -> Self {
        PlanCache {
            inner: Mutex::new(Entries {
                plans: VecDeque::new(),
                max_size: 16,
                max_memory: 0,
            }),
        }
    }
}

impl Entries {
    fn trim(&mut self) {
        let memory = |e: &Entries| e.plans.iter().map(|p| p.bytes).sum::<u64>();
        while self.plans.len() > self.max_size
            || (self.max_memory > 0 && memory(self) > self.max_memory && !self.plans.is_empty())
        {
            self.plans.pop_front();
        }
    }
}

impl PlanCache {
    /// The plan for length `n` in `real`'s precision, made and kept if new.
    pub fn get(&self, dev: &Device, n: usize, real: DType) -> Result<Arc<Plan>> {
        self.get_kind(dev, n, real, false)
    }

    /// rfft's last step for the even length `n` ([`How::RealPost`]), made and kept if new.
    pub fn get_real_post(&self, dev: &Device, n: usize, real: DType) -> Result<Arc<Plan>> {
        self.get_kind(dev, n, real, true)
    }

    fn get_kind(&self, dev: &Device, n: usize, real: DType, post: bool) -> Result<Arc<Plan>> {
        let kind = |p: &Plan| matches!(p.how, How::RealPost { .. }) == post;
        {
            let mut e = self.inner.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(i) = e
                .plans
                .iter()
                .position(|p| p.n == n && p.real == real && kind(p))
            {
                let plan = e.plans.remove(i).expect("found");
                e.plans.push_back(Arc::clone(&plan));
                return Ok(plan);
            }
        }
        // Made outside the lock: a Bluestein plan asks the cache for its inner length.
        let plan = Arc::new(if post {
            Plan::real_post(dev, n, real)?
        } else {
            Plan::new(dev, self, n, real)?
        });
        let mut e = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        e.plans.push_back(Arc::clone(&plan));
        e.trim();
        Ok(plan)
    }

    pub fn info(&self) -> PlanCacheInfo {
        let e = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        PlanCacheInfo {
            size: e.plans.len(),
            max_size: e.max_size,
            memory: e.plans.iter().map(|p| p.bytes).sum(),
            max_memory: e.max_memory,
        }
    }

    pub fn set_limits(&self, max_size: usize, max_memory: u64) {
        let mut e = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        e.max_size = max_size;
        e.max_memory = max_memory;
        e.trim();
    }

    pub fn clear(&self) {
        self.inner
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .plans
            .clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_factor_into_the_kernel_radices_or_go_to_bluestein() {
        assert_eq!(factor(1), Some(vec![]));
        assert_eq!(factor(64), Some(vec![8, 8]));
        assert_eq!(factor(1000), Some(vec![8, 5, 5, 5]));
        assert_eq!(factor(2 * 3 * 7 * 11 * 13), Some(vec![2, 3, 7, 11, 13]));
        assert_eq!(factor(17), None);
        assert_eq!(factor(1009), None);
    }

    #[test]
    fn roots_are_exact_at_quarter_turns_and_accurate_between() {
        assert_eq!(root(0, 8), (1.0, 0.0));
        assert_eq!(root(2, 8), (0.0, -1.0));
        assert_eq!(root(6, 8), (0.0, 1.0));
        for (t, n) in [(1u64, 3u64), (5, 7), (999, 1000), (12345, 65537)] {
            let (c, s) = root(t, n);
            let a = -2.0 * PI * t as f64 / n as f64;
            assert!((c - a.cos()).abs() < 1e-15 && (s - a.sin()).abs() < 1e-15);
        }
    }
}
