//! Long runs: the cost of a call must not grow with the number of calls before it. Memory of the
//! process and of the pool returns to its baseline, and no call compiles anything once the
//! kernels it needs exist.
//!
//! `random_ops_for_minutes` (`--ignored`; `GPUARRAY_SOAK_SECS` sets its length, default 180)
//! is the soak; the other tests run in CI, `random_ops_on_a_default_device` among them: the same
//! soak for half a minute on a device made as a user makes one (`Device::new`, no test settings).

mod common;

use common::mixed::{Handoff, Lcg, one_op};
use gpuarray::random::Generator;
use gpuarray::{DType, Device};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

/// Resident memory of this process, from `/proc/self/statm` (Linux; `None` elsewhere).
fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// Runs `call` `n` times after one warm-up call; returns the median time per call, the growth
/// of resident memory over the `n` calls and the pipelines compiled during them.
fn cost_of_repeats(
    dev: &Device,
    n: usize,
    mut call: impl FnMut(usize),
) -> (Duration, Option<i64>, usize) {
    call(0);
    dev.synchronize().unwrap();
    let (rss0, pipelines0) = (resident_bytes(), dev.pipelines_compiled());
    let mut times: Vec<Duration> = (1..=n)
        .map(|i| {
            let t = Instant::now();
            call(i);
            t.elapsed()
        })
        .collect();
    dev.synchronize().unwrap();
    let grown = rss0.zip(resident_bytes()).map(|(a, b)| b as i64 - a as i64);
    times.sort();
    (
        times[times.len() / 2],
        grown,
        dev.pipelines_compiled() - pipelines0,
    )
}

/// The median time of a call that compiles nothing and computes almost nothing — a fill of
/// 1,000 elements read back — on `dev`, now: what a call costs on this machine under its
/// present load, the yardstick of `assert_constant_cost`.
fn yardstick(dev: &Device, calls: usize) -> Duration {
    let (median, _, _) = cost_of_repeats(dev, calls, |_| {
        let z = gpuarray::Array::zeros(dev, &[1000], DType::I32).unwrap();
        assert_eq!(z.to_vec::<i32>().unwrap()[999], 0);
    });
    median
}

/// Prints what `cost_of_repeats` measured for `what` and fails when a call compiled anything,
/// grew resident memory by 24 MiB or more over the calls, or took a compile's time: over 30
/// times the `yardstick` call measured in the same run (a compile per call took over 100 ms
/// on lavapipe, against about 0.2 ms for either call), a ratio that a loaded machine or a fast
/// GPU leaves alone.
fn assert_constant_cost(
    what: &str,
    calls: usize,
    (median, yardstick): (Duration, Duration),
    grown: Option<i64>,
    compiled: usize,
) {
    println!(
        "{what}: median {median:?} per call (a fill and readback: {yardstick:?}), resident memory {grown:?} B over {calls} calls, {compiled} pipelines compiled"
    );
    assert_eq!(compiled, 0, "{what} compiled pipelines");
    if let Some(grown) = grown {
        assert!(
            grown < 24 << 20,
            "{what}: resident memory grew {grown} B over {calls} calls"
        );
    }
    assert!(
        median < yardstick * 30,
        "{what}: {median:?} per call, over 30 times a fill's {yardstick:?}"
    );
}

/// Draws from a stream offset that is not a multiple of 4 start inside a Philox block and use
/// the phased kernel, at a new counter every call. Lavapipe used to compile (and keep) a new
/// shader variant for each counter value: about 150 ms and 1.2 MB per call.
#[test]
fn draws_from_a_phased_stream_cost_the_same_every_call() {
    let Some(dev) = common::device() else { return };
    let calls = 100;
    let fill = yardstick(&dev, calls);
    let cases: [(&str, u64); 2] = [("offset 0", 0), ("offset 8193", 8193)];
    for (what, offset) in cases {
        let mut g = Generator::with_stream(&dev, 9, 0, offset);
        let (median, grown, compiled) = cost_of_repeats(&dev, calls, |_| {
            let b = g.bernoulli(0.5, &[1000], DType::I32).unwrap();
            let v = b.to_vec::<i32>().unwrap();
            assert!(v.iter().all(|&x| x == 0 || x == 1));
        });
        assert_constant_cost(
            &format!("bernoulli from {what}"),
            calls,
            (median, fill),
            grown,
            compiled,
        );
    }
    // One word at a time moves the phase on every call: every phase and counter is new.
    let mut g = Generator::with_stream(&dev, 3, 1, 0);
    let mut offset = 0u64;
    let (median, grown, compiled) = cost_of_repeats(&dev, calls, |_| {
        g.advance(1).unwrap();
        offset += 1;
        let got = g.bits(&[999]).unwrap().to_vec::<u32>().unwrap();
        assert_eq!(got, common::philox::stream(3, 1, offset, 999));
        offset += 999;
    });
    assert_constant_cost(
        "advance(1); bits(999)",
        calls,
        (median, fill),
        grown,
        compiled,
    );
}

/// Random ops for minutes, each checked against the host; then the pool holds no array, its
/// cache empties, and the process's resident memory is back near where it was after warm-up.
#[test]
#[ignore = "minutes; run with --ignored (GPUARRAY_SOAK_SECS sets the length)"]
fn random_ops_for_minutes() {
    let Some(dev) = common::device() else { return };
    let secs: u64 = std::env::var("GPUARRAY_SOAK_SECS")
        .ok()
        .map(|s| s.trim().parse().expect("GPUARRAY_SOAK_SECS: whole seconds"))
        .unwrap_or(180);
    soak(
        &dev,
        Duration::from_secs(secs),
        Duration::from_secs(secs / 10),
    );
}

/// The soak on the device a user gets: `Device::new()` in the default configuration (the
/// default compile plan and the cache on disk), not the suite's test device. Half its time is
/// warm-up, in which the mix's kernels compile on first use.
#[test]
fn random_ops_on_a_default_device() {
    if common::device().is_none() {
        return;
    }
    let dev = Device::new().expect("the default device");
    soak(&dev, Duration::from_secs(30), Duration::from_secs(15));
}

/// Random checked ops on `dev` for `length`; after `warm_up`, resident memory must stay within
/// 64 MiB of where it was, and at the end the pool must hold no array and empty its cache.
fn soak(dev: &Device, length: Duration, warm_up: Duration) {
    let baseline_in_use = dev.memory_stats().in_use_bytes;
    let (outbox, inbox) = mpsc::channel::<Handoff>();
    let inbox = Mutex::new(inbox);
    let mut rng = Lcg(0x5eed);
    let started = Instant::now();
    let mut after_warm_up = None;
    let mut samples = Vec::new();
    let mut ops = 0u64;
    while started.elapsed() < length {
        one_op(dev, 0, ops, &mut rng, &inbox, &outbox);
        ops += 1;
        if after_warm_up.is_none() && started.elapsed() >= warm_up {
            dev.synchronize().unwrap();
            after_warm_up = Some((resident_bytes(), dev.pipelines_compiled()));
        }
        if ops.is_multiple_of(20_000) {
            samples.push((started.elapsed().as_secs(), resident_bytes()));
        }
    }
    // Arrays still waiting in the hand-off channel go now.
    drop(outbox);
    drop(inbox);
    common::check_clean(dev, baseline_in_use);
    dev.empty_cache();
    let stats = dev.memory_stats();
    assert_eq!(
        stats.cached_bytes, 0,
        "pool cache after empty_cache: {stats:?}"
    );
    let (rss_warm, pipelines_warm) = after_warm_up.expect("the soak ran past its warm-up");
    let rss_end = resident_bytes();
    println!(
        "{ops} ops in {:?}; resident memory after warm-up {rss_warm:?}, at the end {rss_end:?}; samples (s, bytes): {samples:?}; pipelines after warm-up {pipelines_warm}, at the end {}",
        length,
        dev.pipelines_compiled()
    );
    if let (Some(a), Some(b)) = (rss_warm, rss_end) {
        assert!(
            b < a + (64 << 20),
            "resident memory grew from {a} B after warm-up to {b} B after {ops} ops"
        );
    }
}
