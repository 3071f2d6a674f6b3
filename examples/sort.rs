//! Sorting, searching, counting and the NaN-aware reductions against NumPy in the same run:
//! `sort` of 2^24 f32 (1-d) and of (4096, 4096) f32 along the last axis, `argsort` of 2^24 f32,
//! `unique` of 2^24 i32 with 1000 distinct values, `nonzero` of a 2^24 bool mask (half true),
//! `bincount` of those i32 (also with f32 weights), `histogram` of the f32 into 100 bins, `sort`
//! of 2^26 f32 (past one storage binding: one timed run), and `nansum` of 2^26 f32 with
//! 10 % NaN, in millions of elements per second, beside `np.sort` (its default quicksort —
//! introsort, or x86-simd-sort where NumPy has it — and `kind="stable"`), `np.argsort`,
//! `np.unique`, `np.nonzero`, `np.bincount`, `np.histogram` and `np.nansum` on the same kind of
//! data. Each job is timed by `gpuarray::benchmark` (one warm-up, which
//! also compiles, then 3 runs, each ended by a synchronisation); on lavapipe these are CPU figures.
//!
//! ```text
//! cargo run --release --example sort
//! ```

use gpuarray::{Array, Axes, DType, Device};

#[path = "support/numpy.rs"]
mod numpy;
#[path = "support/timing.rs"]
mod timing;

fn main() -> gpuarray::Result<()> {
    let dev = Device::new()?;
    // The start-up plan compiles on every core in the background: wait for it, so that no
    // figure below shares the CPU with it (lavapipe's kernels run on those cores).
    dev.wait_compiled()?;
    println!("adapter: {}", dev.info());
    let n = 1usize << 24;
    // Uniform values in [-0.5, 0.5) from a linear congruential sequence.
    let values = |count: usize| -> Vec<f32> {
        let mut s: u64 = 12345;
        (0..count)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((s >> 40) as f32) / (1u64 << 24) as f32 - 0.5
            })
            .collect()
    };
    let x = Array::from_slice(&dev, &values(n), &[n])?;
    let melem = |t: std::time::Duration, count: usize| count as f64 / t.as_secs_f64() / 1e6;
    let t = timing::bench(&dev, "sort f32 2^24", 3, || x.sort(Some(-1)))?;
    println!(
        "sort f32 2^24 (1-d): {:.1} M elements/s ({:.0} ms)",
        melem(t, n),
        t.as_secs_f64() * 1e3
    );
    let m = x.reshape(&[4096, 4096])?;
    let t = timing::bench(&dev, "sort f32 (4096, 4096) axis -1", 3, || {
        m.sort(Some(-1))
    })?;
    println!(
        "sort f32 (4096, 4096) along the last axis: {:.1} M elements/s ({:.0} ms)",
        melem(t, n),
        t.as_secs_f64() * 1e3
    );
    let t = timing::bench(&dev, "argsort f32 2^24", 3, || x.argsort(Some(-1)))?;
    println!(
        "argsort f32 2^24: {:.1} M elements/s ({:.0} ms)",
        melem(t, n),
        t.as_secs_f64() * 1e3
    );
    // 1000 distinct values, and a mask with every other element (by a hash) true.
    let ints: Vec<i32> = (0..n as u64)
        .map(|i| (i.wrapping_mul(2654435761) % 1000) as i32)
        .collect();
    let k = Array::from_slice(&dev, &ints, &[n])?;
    let t = timing::bench(&dev, "unique i32 2^24", 3, || k.unique())?;
    println!(
        "unique i32 2^24 (1000 distinct): {:.1} M elements/s ({:.0} ms)",
        melem(t, n),
        t.as_secs_f64() * 1e3
    );
    let mask = x.gt(0.0)?;
    let t = timing::bench(&dev, "nonzero bool 2^24", 3, || {
        mask.nonzero().map(|mut v| v.remove(0))
    })?;
    println!(
        "nonzero bool 2^24 (half true): {:.1} M elements/s ({:.0} ms)",
        melem(t, n),
        t.as_secs_f64() * 1e3
    );
    let t = timing::bench(&dev, "bincount i32 2^24", 3, || k.bincount(0))?;
    println!(
        "bincount i32 2^24 (1000 bins): {:.1} M elements/s ({:.0} ms)",
        melem(t, n),
        t.as_secs_f64() * 1e3
    );
    let t = timing::bench(&dev, "histogram f32 2^24", 3, || {
        x.histogram(gpuarray::HistogramBins::Count(100), Some((-0.5, 0.5)))
            .map(|(c, _)| c)
    })?;
    println!(
        "histogram f32 2^24 (100 bins): {:.1} M elements/s ({:.0} ms)",
        melem(t, n),
        t.as_secs_f64() * 1e3
    );
    let weights = x.add(1.0)?;
    let t = timing::bench(&dev, "bincount weighted 2^24", 3, || {
        k.bincount_weighted(&weights, 0)
    })?;
    println!(
        "bincount i32 2^24 (1000 bins) with f32 weights: {:.1} M elements/s ({:.0} ms)",
        melem(t, n),
        t.as_secs_f64() * 1e3
    );
    drop((x, m, k, mask, weights));
    // Past one storage binding (256 MiB): sorted in parts and merged. One timed run.
    let big = 1usize << 26;
    let z = Array::from_slice(&dev, &values(big), &[big])?;
    let t = timing::bench(&dev, "sort f32 2^26", 1, || z.sort(Some(-1)))?;
    println!(
        "sort f32 2^26 (1-d, past one binding): {:.1} M elements/s ({:.0} ms)",
        melem(t, big),
        t.as_secs_f64() * 1e3
    );
    drop(z);
    let v: Vec<f32> = values(big)
        .into_iter()
        .enumerate()
        .map(|(i, v)| if i % 10 == 3 { f32::NAN } else { v })
        .collect();
    let y = Array::from_slice(&dev, &v, &[big])?;
    let t = timing::bench(&dev, "nansum f32 2^26", 3, || y.nansum(Axes::All, false))?;
    println!(
        "nansum f32 2^26: {:.1} M elements/s ({:.1} GB/s read)",
        melem(t, big),
        4.0 * big as f64 / t.as_secs_f64() / 1e9
    );
    let check = y
        .nansum(Axes::All, false)?
        .astype(DType::F64)?
        .item::<f64>()?;
    println!("  (nansum = {check:.3})");
    // NumPy draws the same distribution from its own generator (sorting speed does not depend on
    // which uniform values they are).
    let numpy = r#"
import numpy as np, time
rng = np.random.default_rng(1)
def best(f, reps=3):
    f(); return min((lambda t0: (f(), time.perf_counter() - t0)[1])(time.perf_counter()) for _ in range(reps))
n = 1 << 24
x = (rng.random(n, dtype=np.float32) - 0.5)
m = x.reshape(4096, 4096)
for label, f in [("sort f32 2^24 (1-d) quicksort", lambda: np.sort(x)),
                 ("sort f32 2^24 (1-d) stable", lambda: np.sort(x, kind="stable")),
                 ("sort f32 (4096, 4096) axis -1 quicksort", lambda: np.sort(m, axis=-1)),
                 ("argsort f32 2^24 quicksort", lambda: np.argsort(x)),
                 ("argsort f32 2^24 stable", lambda: np.argsort(x, kind="stable"))]:
    t = best(f)
    print(f"numpy {label}: {n / t / 1e6:.1f} M elements/s ({t * 1e3:.0f} ms)")
k = (np.arange(n, dtype=np.uint64) * 2654435761 % 1000).astype(np.int32)
mask = x > 0
for label, f in [("unique i32 2^24 (1000 distinct)", lambda: np.unique(k)),
                 ("nonzero bool 2^24 (half true)", lambda: np.nonzero(mask)),
                 ("bincount i32 2^24 (1000 bins)", lambda: np.bincount(k)),
                 ("bincount i32 2^24 (1000 bins) with f32 weights", lambda: np.bincount(k, weights=x + 1)),
                 ("histogram f32 2^24 (100 bins)", lambda: np.histogram(x, 100, range=(-0.5, 0.5)))]:
    t = best(f)
    print(f"numpy {label}: {n / t / 1e6:.1f} M elements/s ({t * 1e3:.0f} ms)")
z = rng.random(1 << 26, dtype=np.float32) - 0.5
for label, f in [("sort f32 2^26 (1-d) quicksort", lambda: np.sort(z)),
                 ("sort f32 2^26 (1-d) stable", lambda: np.sort(z, kind="stable"))]:
    t = best(f, reps=1)
    print(f"numpy {label}: {z.size / t / 1e6:.1f} M elements/s ({t * 1e3:.0f} ms)")
del z
y = rng.random(1 << 26, dtype=np.float32) - 0.5
y[3::10] = np.nan
t = best(lambda: np.nansum(y))
print(f"numpy nansum f32 2^26: {y.size / t / 1e6:.1f} M elements/s ({4 * y.size / t / 1e9:.1f} GB/s read)")
"#;
    match numpy::inline(numpy) {
        Ok(lines) => lines.iter().for_each(|l| println!("{l}")),
        Err(why) => println!("numpy: (skipped: {why})"),
    }
    Ok(())
}
