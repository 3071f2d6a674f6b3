//! Timing helpers shared by the examples.

use std::time::{Duration, Instant};

/// The best of `reps` runs of `f` after one warm-up run. `f` must end with a synchronisation
/// (`Device::synchronize` or a readback) so the GPU work is inside the measured time.
pub fn best(
    reps: usize,
    mut f: impl FnMut() -> gpuarray::Result<()>,
) -> gpuarray::Result<Duration> {
    f()?;
    let mut t = Duration::MAX;
    for _ in 0..reps {
        let s = Instant::now();
        f()?;
        t = t.min(s.elapsed());
    }
    Ok(t)
}
