//! Integers in `[lo, hi)` without modulo bias: Lemire's multiply-and-reject over the stream's
//! words, in order, on the GPU.
//!
//! Word x gives the 64-bit product `x * range`; it is accepted when the low half is at least
//! `2^32 mod range`, and its value is then `lo + high half` — exactly uniform (Lemire 2019, as
//! NumPy's `Generator.integers`). Output k is the k-th accepted word, so a draw consumes a
//! data-dependent number of words. The GPU finds them in two passes over tiles of
//! `TILE_WORDS` consecutive words: pass 1 counts the accepted words of every tile; the host
//! reads the counts back, takes their prefix sums (each tile's first output index) and finds
//! the word where the draw ends; pass 2 recomputes every tile and writes its accepted values at
//! their positions. Ranges that are powers of two reject nothing and take one pass.

use super::launch::{Bindings, Dist, Extra, Run, Spare, key, launch};
use super::philox::StreamPos;
use crate::array::Array;
use crate::device::Binding;
use crate::dtype::DType;
use crate::error::{Error, Result};

/// Words per tile: one invocation walks one tile (`TILE_WORDS` in `philox.wgsl`).
pub(crate) const TILE_WORDS: u64 = 256;

/// Tiles per launch are multiples of this, so per-tile arrays bind at aligned offsets
/// (64 u32 = 256 bytes, the largest `min_storage_buffer_offset_alignment` wgpu allows).
const TILE_ALIGN: u64 = 64;

/// Lemire's rejection threshold for `range` in 1..=2^32: `2^32 mod range`.
pub(crate) fn threshold(range: u64) -> u32 {
    ((1u64 << 32) % range) as u32
}

/// The value and acceptance of word `x` for `range` (CPU model of the kernel's test).
pub(crate) fn lemire(x: u32, range: u64, threshold: u32) -> Option<u32> {
    let m = u64::from(x) * range;
    ((m as u32) >= threshold).then_some((m >> 32) as u32)
}

/// Fills `out` (a fresh contiguous i32 or u32 array) with integers in `[lo, lo + range)` from the
/// stream at `start`; returns the words consumed. Blocks to read pass 1's counts back.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn integers(
    op: &'static str,
    out: &Array,
    start: StreamPos,
    lo: i64,
    range: u64,
) -> Result<u64> {
    // The reader blocks inside an already-ready future, so block_on never waits on it.
    pollster::block_on(integers_with(op, out, start, lo, range, |counts| {
        std::future::ready(counts.to_vec::<u32>())
    }))
}

/// On wasm32 the counts cannot be read back without blocking: only power-of-two ranges (one
/// pass, nothing to read) are drawn; others are refused before anything is launched.
#[cfg(target_arch = "wasm32")]
pub(crate) fn integers(
    op: &'static str,
    out: &Array,
    start: StreamPos,
    lo: i64,
    range: u64,
) -> Result<u64> {
    if out.is_empty() || range.is_power_of_two() {
        return one_pass(op, out, start, lo, range);
    }
    Err(crate::error::needs_blocking_readback(
        op,
        "exact integers over a range that is not a power of two (use integers_async)",
    ))
}

/// Kernel parameters of a draw in `[lo, lo + range)`.
fn extra_for(lo: i64, range: u64) -> Extra {
    Extra {
        ilo: lo as u32,
        irange: range as u32, // 2^32 -> 0: the kernel's "every word as it is"
        ithresh: threshold(range),
        ..Default::default()
    }
}

/// Empty draws and power-of-two ranges (which reject nothing): one pass, nothing read back.
fn one_pass(op: &'static str, out: &Array, start: StreamPos, lo: i64, range: u64) -> Result<u64> {
    let n = out.len() as u64;
    if n > 0 {
        super::launch::generate(op, out, start, Dist::IntDirect, &extra_for(lo, range))?;
    }
    Ok(n)
}

/// [`integers`], awaiting pass 1's counts.
pub(crate) async fn integers_async(
    op: &'static str,
    out: &Array,
    start: StreamPos,
    lo: i64,
    range: u64,
) -> Result<u64> {
    integers_with(op, out, start, lo, range, |counts| async move {
        counts.to_vec_async::<u32>().await
    })
    .await
}

/// The two passes, with `read` bringing each batch of pass-1 counts to the host.
async fn integers_with<R, F>(
    op: &'static str,
    out: &Array,
    start: StreamPos,
    lo: i64,
    range: u64,
    mut read: R,
) -> Result<u64>
where
    R: FnMut(Array) -> F,
    F: std::future::Future<Output = Result<Vec<u32>>>,
{
    let n = out.len() as u64;
    if n == 0 || range.is_power_of_two() {
        return one_pass(op, out, start, lo, range);
    }
    let extra = extra_for(lo, range);
    let dev = &out.device.inner;
    let limits = dev.block_limits();
    let max_tiles_per_launch = (limits.max_binding / 4 / TILE_ALIGN * TILE_ALIGN).max(TILE_ALIGN);

    // Pass 1: count accepted words per tile until the tiles hold n of them. Expected words:
    // n / (1 - p) with p = threshold / 2^32; ask for 8 standard deviations more.
    let p = f64::from(extra.ithresh) / 4294967296.0;
    let want = |accepted_needed: u64| -> u64 {
        let m = accepted_needed as f64;
        let words = m / (1.0 - p) + 8.0 * (m * p).sqrt() / (1.0 - p) + TILE_WORDS as f64;
        ((words / TILE_WORDS as f64).ceil() as u64).next_multiple_of(TILE_ALIGN)
    };
    let mut counts: Vec<u32> = Vec::new();
    let mut accepted: u64 = 0;
    while accepted < n {
        let first_tile = counts.len() as u64;
        let tiles = want(n - accepted);
        let new = read(count_tiles(
            op,
            out,
            start,
            &extra,
            first_tile,
            tiles,
            max_tiles_per_launch,
        )?)
        .await?;
        accepted += new.iter().map(|&c| u64::from(c)).sum::<u64>();
        counts.extend(new);
    }

    // Each tile's first output index; the tile where output n-1 lies, and the word within it.
    let mut firsts = Vec::with_capacity(counts.len());
    let mut sum = 0u64;
    let mut last = 0usize;
    for (t, &c) in counts.iter().enumerate() {
        firsts.push(sum);
        if sum < n && sum + u64::from(c) >= n {
            last = t;
        }
        sum += u64::from(c);
    }
    let needed_in_last = n - firsts[last];
    let tile_start = start.advanced(last as u64 * TILE_WORDS);
    let mut seen = 0;
    let mut end_word = TILE_WORDS;
    for j in 0..TILE_WORDS {
        if lemire(tile_start.advanced(j).word(), range, extra.ithresh).is_some() {
            seen += 1;
            if seen == needed_in_last {
                end_word = j + 1;
                break;
            }
        }
    }
    debug_assert!(seen == needed_in_last);
    let consumed = last as u64 * TILE_WORDS + end_word;

    // Pass 2 over tiles 0..=last, in launches whose outputs fit one binding.
    emit_tiles(
        op,
        out,
        start,
        &extra,
        &firsts[..=last],
        max_tiles_per_launch,
    )?;
    Ok(consumed)
}

/// Pass 1 for tiles `first_tile .. first_tile + tiles`: launches the counting of their accepted
/// words into a fresh u32 array (for the caller to read back).
fn count_tiles(
    op: &'static str,
    out: &Array,
    start: StreamPos,
    extra: &Extra,
    first_tile: u64,
    tiles: u64,
    max_per_launch: u64,
) -> Result<Array> {
    let dev = &out.device;
    let counts = Array::empty(op, dev, &[tiles as usize], DType::U32)?;
    let (storage, _) = counts.storage_and_layout();
    let key = key(&dev.inner, out.dtype, Dist::IntCount, start.phase, 0);
    let spare = Spare::of(&dev.inner);
    dev.inner.guarded(op, || {
        let mut t = 0;
        while t < tiles {
            let len = max_per_launch.min(tiles - t);
            let run = Run {
                start: start.advanced((first_tile + t) * TILE_WORDS),
                count: 0,
                units: u32::try_from(len)
                    .map_err(|_| Error::overflow(op, format!("{len} tiles in one launch")))?,
            };
            launch(
                &dev.inner,
                &key,
                &run,
                extra,
                out.dtype,
                // Pass 1 writes only the counts (aux).
                &Bindings {
                    dst: spare.slot(0),
                    dst4: spare.slot(1),
                    aux: Binding {
                        buffer: storage.buffer().expect("non-empty"),
                        offset: t * 4,
                        size: len * 4,
                    },
                },
            )?;
            t += len;
        }
        Ok(())
    })?;
    Ok(counts)
}

/// Pass 2: tiles `0 .. firsts.len()` write their accepted values from output `firsts[t]` on.
fn emit_tiles(
    op: &'static str,
    out: &Array,
    start: StreamPos,
    extra: &Extra,
    firsts: &[u64],
    max_tiles_per_launch: u64,
) -> Result<()> {
    let dev = &out.device;
    let n = out.len() as u64;
    let eb = out.dtype.size_bytes();
    let limits = dev.inner.block_limits();
    let align_elems = limits.offset_alignment.max(eb) / eb;
    let max_elems = limits.max_binding / eb;
    let tiles = firsts.len() as u64;
    let output_end = |t: u64| -> u64 { firsts.get(t as usize).copied().unwrap_or(n).min(n) };

    // Launches: runs of TILE_ALIGN-aligned tile groups whose output window fits one binding.
    // A group of TILE_ALIGN tiles writes at most TILE_ALIGN * TILE_WORDS outputs.
    let mut launches = Vec::new(); // (first tile, tiles, window start element)
    let mut ta = 0;
    while ta < tiles {
        let ws = firsts[ta as usize] / align_elems * align_elems;
        let mut tb = (ta + TILE_ALIGN).min(tiles);
        while tb < tiles
            && tb - ta < max_tiles_per_launch
            && output_end((tb + TILE_ALIGN).min(tiles)) - ws <= max_elems
        {
            tb = (tb + TILE_ALIGN).min(tiles);
        }
        launches.push((ta, tb - ta, ws));
        ta = tb;
    }

    // Window-relative first positions, uploaded once.
    let mut rel = vec![0u32; tiles.next_multiple_of(TILE_ALIGN) as usize];
    for &(ta, len, ws) in &launches {
        for t in ta..ta + len {
            rel[t as usize] = u32::try_from(firsts[t as usize] - ws)
                .map_err(|_| Error::overflow(op, "integer tile position beyond u32"))?;
        }
    }
    let positions = Array::from_slice(dev, &rel, &[rel.len()])?;
    let (pstore, _) = positions.storage_and_layout();
    let pbuf = pstore.buffer().expect("non-empty");
    let (ostore, _) = out.storage_and_layout();
    let key = key(&dev.inner, out.dtype, Dist::IntEmit, start.phase, 0);
    let spare = Spare::of(&dev.inner);
    dev.inner.guarded(op, || {
        for &(ta, len, ws) in &launches {
            let end = output_end(ta + len);
            let run = Run {
                start: start.advanced(ta * TILE_WORDS),
                count: (end - ws) as u32,
                units: len as u32,
            };
            // Pass 2 writes element by element (dst) from the positions (aux).
            let b = Bindings {
                dst: Binding {
                    buffer: ostore.buffer().expect("non-empty"),
                    offset: ws * eb,
                    size: ((end - ws) * eb).next_multiple_of(4),
                },
                dst4: spare.slot(0),
                aux: Binding {
                    buffer: pbuf,
                    offset: ta * 4,
                    size: len * 4,
                },
            };
            launch(&dev.inner, &key, &run, extra, out.dtype, &b)?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The crate's rule over every one of the 2^32 words: each value of [0, 6) is accepted for
    /// exactly floor(2^32 / 6) words and `threshold(6)` words are rejected, so the draws are
    /// exactly uniform. (Release builds only: 2^32 steps take minutes unoptimised.)
    #[test]
    #[cfg_attr(debug_assertions, ignore = "2^32 words: run with --release")]
    fn lemire_is_exactly_uniform_over_every_word() {
        let range = 6u64;
        let thr = threshold(range);
        let halves: Vec<[u64; 7]> = std::thread::scope(|s| {
            let workers: Vec<_> = [0u64, 1 << 31]
                .into_iter()
                .map(|from| {
                    s.spawn(move || {
                        // hits[v] for v < 6, and rejections in hits[6].
                        let mut hits = [0u64; 7];
                        for x in from..from + (1 << 31) {
                            match lemire(x as u32, range, thr) {
                                Some(v) => hits[v as usize] += 1,
                                None => hits[6] += 1,
                            }
                        }
                        hits
                    })
                })
                .collect();
            workers.into_iter().map(|w| w.join().unwrap()).collect()
        });
        let hits: Vec<u64> = (0..7).map(|i| halves[0][i] + halves[1][i]).collect();
        assert!(
            hits[..6].iter().all(|&h| h == (1u64 << 32) / range),
            "{hits:?}"
        );
        assert_eq!(hits[6], u64::from(thr));
    }

    #[test]
    fn thresholds() {
        assert_eq!(threshold(1 << 32), 0);
        assert_eq!(threshold(3), 1); // 2^32 = 3 * 1431655765 + 1
        assert_eq!(threshold(6), 4);
        assert_eq!(lemire(u32::MAX, 1 << 32, 0), Some(u32::MAX));
    }
}
