//! One `Device` shared by many threads for a long time: element-wise, reductions, matmul, einsum,
//! Philox and transfers from 8 threads at once, arrays handed from thread to thread, every result
//! checked against a host reference. wgpu-core 30.0.2 panics when polls and submits race on one
//! device (see `src/memory/maintain.rs`); before that was worked around, a device shared like
//! this was lost within seconds.
//!
//! `mixed_ops_on_eight_threads_for_twenty_seconds` runs in CI (`GPUARRAY_THREADS_SECS` changes its
//! length); `mixed_ops_on_eight_threads_for_minutes` (`--ignored`) runs for five minutes.

mod common;

use common::mixed::{Handoff, Lcg, one_op};
use gpuarray::{Array, DType, SliceArg};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

/// Runs `threads` threads of mixed ops on one device for `secs` seconds. A watchdog fails the test
/// when no thread finishes an op for 60 s (a hang), and a lost device fails it at once.
fn run_mixed(threads: usize, secs: u64) {
    let Some(dev) = common::device() else { return };
    let baseline = dev.memory_stats().in_use_bytes;
    let deadline = Instant::now() + Duration::from_secs(secs);
    let done_ops = Arc::new(AtomicU64::new(0));
    let (outbox, inbox) = mpsc::channel::<Handoff>();
    let inbox = Arc::new(Mutex::new(inbox));

    let workers: Vec<_> = (0..threads)
        .map(|t| {
            let (dev, done_ops) = (dev.clone(), Arc::clone(&done_ops));
            let (inbox, outbox) = (Arc::clone(&inbox), outbox.clone());
            std::thread::spawn(move || {
                let mut rng = Lcg(0x9e37_79b9 + t as u64);
                let mut i = 0;
                while Instant::now() < deadline {
                    if let Some(why) = dev.lost_reason() {
                        panic!("thread {t}: device lost after {i} ops: {why}");
                    }
                    one_op(&dev, t, i, &mut rng, &inbox, &outbox);
                    done_ops.fetch_add(1, Ordering::SeqCst);
                    i += 1;
                }
                i
            })
        })
        .collect();
    drop(outbox);
    // The watchdog: a hang (no op finished anywhere for 60 s) fails the test instead of stalling it.
    let (mut last, mut since) = (0, Instant::now());
    while !workers.iter().all(|w| w.is_finished()) {
        std::thread::sleep(Duration::from_millis(100));
        let now = done_ops.load(Ordering::SeqCst);
        if now != last {
            (last, since) = (now, Instant::now());
        } else if since.elapsed() > Duration::from_secs(60) {
            panic!("hung: no op finished for 60 s after {now} ops");
        }
    }
    let mut failures = Vec::new();
    let mut per_thread = Vec::new();
    for (t, w) in workers.into_iter().enumerate() {
        match w.join() {
            Ok(n) => per_thread.push(n),
            Err(p) => failures.push(format!(
                "thread {t}: {}",
                p.downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default()
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        dev.lost_reason().is_none(),
        "device lost: {:?}",
        dev.lost_reason()
    );
    // Arrays still in the hand-off channel were dropped with it: nothing may stay in use.
    drop(inbox);
    common::check_clean(&dev, baseline);
    println!(
        "{threads} threads, {secs} s: {} ops ({per_thread:?} per thread)",
        done_ops.load(Ordering::SeqCst)
    );
    assert!(
        per_thread.iter().all(|&n| n > 0),
        "a thread made no progress: {per_thread:?}"
    );
}

fn seconds_from_env(default: u64) -> u64 {
    match std::env::var("GPUARRAY_THREADS_SECS") {
        Ok(s) => s
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("GPUARRAY_THREADS_SECS={s:?}: expected whole seconds")),
        Err(_) => default,
    }
}

#[test]
fn mixed_ops_on_eight_threads_for_twenty_seconds() {
    run_mixed(8, seconds_from_env(20));
}

#[test]
#[ignore = "five minutes; run with --ignored"]
fn mixed_ops_on_eight_threads_for_minutes() {
    run_mixed(8, seconds_from_env(300));
}

/// A thread doing small ops keeps finishing them while another thread keeps the device busy with
/// large matmuls (one queue runs work in order, so each small op waits at most for the matmul
/// ahead of it; what must not happen is that it waits for all of them).
#[test]
fn small_ops_progress_while_large_matmuls_run() {
    let Some(dev) = common::device() else { return };
    let stop = Arc::new(AtomicBool::new(false));
    // The matmul thread says when its first timed matmul is done: the tune before it takes
    // seconds on a loaded CI machine, and the small ops must be timed against running matmuls.
    let (started_tx, started_rx) = mpsc::channel::<()>();
    let matmuls = {
        let (dev, stop) = (dev.clone(), Arc::clone(&stop));
        std::thread::spawn(move || {
            let started = started_tx;
            let n = 512;
            let a = Array::full(&dev, &[n, n], 0.5, DType::F32).unwrap();
            // The first large matmul on a device runs a one-time tune: not what is measured.
            dev.matmul_tuning().unwrap();
            let mut times = Vec::new();
            while !stop.load(Ordering::SeqCst) {
                let t = Instant::now();
                let c = a.matmul(&a).unwrap();
                let corner = c
                    .slice(&[SliceArg::Index(0), SliceArg::range(Some(0), Some(1), 1)])
                    .unwrap();
                assert_eq!(corner.to_vec::<f32>().unwrap(), [n as f32 * 0.25]);
                times.push(t.elapsed());
                // Ignored once the receiver is gone: only the first send matters.
                let _ = started.send(());
            }
            times
        })
    };
    // Wait for the matmul loop to be running, then time small ops for two seconds.
    if let Err(e) = started_rx.recv_timeout(Duration::from_secs(300)) {
        stop.store(true, Ordering::SeqCst);
        // A panic in the matmul thread surfaces here with its own message.
        let times = matmuls.join().unwrap();
        panic!(
            "the matmul thread finished no matmul ({e}; {} timed)",
            times.len()
        );
    }
    drop(started_rx);
    let x: Vec<f32> = (0..1000).map(|v| v as f32).collect();
    let a = Array::from_slice(&dev, &x, &[1000]).unwrap();
    // One untimed add first: its pipeline compiles on first use (and lavapipe JITs it at the
    // first dispatch), which is not the scheduling this test measures.
    a.add(&a).unwrap().to_vec::<f32>().unwrap();
    let started = Instant::now();
    let mut latencies = Vec::new();
    while started.elapsed() < Duration::from_secs(2) {
        let t = Instant::now();
        let got = a.add(&a).unwrap().to_vec::<f32>().unwrap();
        latencies.push(t.elapsed());
        assert_eq!(got[999], 1998.0);
    }
    stop.store(true, Ordering::SeqCst);
    let mut times = matmuls.join().unwrap();
    times.sort();
    latencies.sort();
    let matmul_median = times[times.len() / 2];
    let worst = *latencies.last().unwrap();
    println!(
        "small ops during 512^3 matmuls: {} in 2 s, median {:?}, worst {:?}; matmul median {:?} ({} runs)",
        latencies.len(),
        latencies[latencies.len() / 2],
        worst,
        matmul_median,
        times.len()
    );
    // Progress, not speed: several small ops finished, and none waited for more than a few of
    // the matmuls queued ahead of it (a ratio to the slowest matmul of the same run, which a
    // loaded CI machine or a fast GPU changes alike).
    assert!(
        latencies.len() >= 5,
        "only {} small ops in 2 s",
        latencies.len()
    );
    assert!(
        worst < times[times.len() - 1] * 8,
        "a small op waited {worst:?}; the slowest matmul took {:?}",
        times[times.len() - 1]
    );
}
