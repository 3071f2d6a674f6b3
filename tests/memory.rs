//! Memory stays flat while a program runs small ops, in every compile mode (issue 30).
//!
//! On ba10709 a loop of `ones(1000) + ones(1000)` read back grew the process by about 6 MB per
//! 1,000 ops on a default device. The growth was not per op: it was the start-up plan's
//! pipelines, compiled in the background meanwhile (lavapipe keeps about 1 MB of the process's
//! memory per live pipeline; the eager plan's 2,121 pipelines held 2.5 GB), and the loop only
//! measured how far the plan had got. So each mode's device first finishes its plan
//! (`wait_compiled`) and warms up; then 20,000 ops with readback must leave the process's
//! resident memory and the pool where they were, within a few MB of what the same loop costs on
//! a device that compiles nothing in the background, measured in the same test. The default
//! device (no `GPUARRAY_COMPILE`) runs the loop without waiting, as a user's program does.
//!
//! Each measurement runs in a child process of its own (this test binary, run again), so the
//! other tests' arrays and threads are not in its resident memory.

mod common;

use gpuarray::{Array, CompileMode, DType, Device, DeviceConfig};
use std::process::Command;

/// Ops per measurement.
const OPS: usize = 20_000;
/// Resident memory a loop may add on its own (allocator noise, the first-use compiles of the
/// readback path).
const FLAT: i64 = 8 << 20;
/// How much more than the lazy device's loop another mode's loop may add.
const OVER_LAZY: i64 = 4 << 20;

fn resident_bytes() -> i64 {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("/proc/self/statm");
    let pages: i64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .expect("resident pages");
    pages * 4096
}

/// The loop: `ones(1000) + ones(1000)`, read back and checked, `n` times.
fn ops(a: &Array, n: usize) {
    for _ in 0..n {
        let v = a.add(a).and_then(|b| b.to_vec::<f32>()).expect("add");
        assert!(v.iter().all(|&x| x == 2.0));
    }
}

/// The child's body: prints `growth=<resident bytes> pool=<pool bytes> compiled=<pipelines>`.
#[test]
fn child_process_entry() {
    let Ok(mode) = std::env::var("GPUARRAY_MEMORY_CHILD") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("gpuarray-memory-{}", std::process::id()));
    let dev = if mode == "default" {
        Device::new().expect("default device")
    } else {
        let compile = CompileMode::parse(&mode).expect("mode");
        Device::with_config(DeviceConfig {
            compile,
            cache_dir: Some(dir.clone()),
            ..DeviceConfig::from_env().expect("config")
        })
        .expect("device")
    };
    if mode != "default" {
        dev.wait_compiled().expect("plan");
    }
    let a = Array::ones(&dev, &[1000], DType::F32).unwrap();
    ops(&a, 1000);
    dev.synchronize().unwrap();
    let (rss, pool) = (resident_bytes(), dev.memory_stats());
    ops(&a, OPS);
    dev.synchronize().unwrap();
    let (rss_end, pool_end) = (resident_bytes(), dev.memory_stats());
    println!(
        "growth={} pool={} compiled={}",
        rss_end - rss,
        (pool_end.in_use_bytes + pool_end.cached_bytes) as i64
            - (pool.in_use_bytes + pool.cached_bytes) as i64,
        dev.compile_stats().compiled
    );
    drop(dev);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Starts the child for `mode` (the children run side by side: each measures only its own
/// process, and the four one after the other were 44 s of the suite).
fn start(mode: &str) -> std::process::Child {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args([
        "--exact",
        "child_process_entry",
        "--nocapture",
        "--test-threads=1",
    ])
    .env("GPUARRAY_MEMORY_CHILD", mode)
    .stdout(std::process::Stdio::piped())
    .stderr(std::process::Stdio::piped());
    if mode == "default" {
        cmd.env_remove("GPUARRAY_COMPILE");
    }
    cmd.spawn().expect("child")
}

/// Waits for the child of `mode` and returns its resident-memory and pool growth.
fn measured(mode: &str, child: std::process::Child) -> (i64, i64) {
    let out = child.wait_with_output().expect("child");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{mode} child failed: {:?}\n{text}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let field = |name: &str| -> i64 {
        text.split_whitespace()
            .find_map(|w| w.strip_prefix(&format!("{name}=")))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no {name}= in the child's output:\n{text}"))
    };
    let line = text
        .lines()
        .find_map(|l| l.find("growth=").map(|at| &l[at..]));
    println!("{mode}: {}", line.unwrap_or(""));
    (field("growth"), field("pool"))
}

#[test]
fn small_ops_leave_memory_flat_in_every_compile_mode() {
    if common::device().is_none() {
        return;
    }
    if !std::path::Path::new("/proc/self/statm").exists() {
        common::skip(
            "the memory test",
            "resident memory is read from /proc/self/statm (Linux)",
        );
        return;
    }
    // An array's `map` runs at once: all four start before the first is waited for.
    let mut children = ["lazy", "default", "families", "eager"]
        .map(|mode| (mode, start(mode)))
        .into_iter();
    let (mode, lazy_child) = children.next().unwrap();
    let (lazy, lazy_pool) = measured(mode, lazy_child);
    assert!(
        lazy < FLAT,
        "lazy: resident memory grew {lazy} B over {OPS} ops"
    );
    assert_eq!(lazy_pool, 0, "lazy: the pool grew");
    for (mode, child) in children {
        let (grown, pool) = measured(mode, child);
        assert_eq!(pool, 0, "{mode}: the pool grew {pool} B over {OPS} ops");
        assert!(
            grown < FLAT && grown < lazy.max(0) + OVER_LAZY,
            "{mode}: resident memory grew {grown} B over {OPS} ops (lazy: {lazy} B)"
        );
    }
}
