//! Start-up compilation (issue 13): the three compile modes, the background plan covering every
//! call the families make, the persistent cache (pipeline binaries and the matmul tune) and
//! every way its files can be bad.
//!
//! Each test gets a cache directory of its own under the system temp dir, so tests never share
//! files (and never touch the user's cache).

mod common;

use common::mixed::close;
use gpuarray::random::Generator;
use gpuarray::{Array, CompileMode, DType, Device, DeviceConfig, Error, einsum};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh, empty cache directory for one test.
fn cache_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gpuarray-startup-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn device_in(dir: &Path, compile: CompileMode, retune: bool) -> Option<Device> {
    let made = DeviceConfig::from_env().and_then(|config| {
        Device::with_config(DeviceConfig {
            compile,
            cache_dir: Some(dir.to_path_buf()),
            disable_cache: false,
            retune,
            ..config
        })
    });
    match made {
        Ok(d) => Some(d),
        Err(e) => {
            common::skip("GPU test", &format!("no device: {e}"));
            None
        }
    }
}

/// The cache file of record `what` in `dir` (the key hash is the adapter's business).
fn record_file(dir: &Path, what: &str) -> Option<PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&format!("{what}-")) && n.ends_with(".bin"))
        })
}

fn host_matmul(a: &[f32], b: &[f32], m: usize, k: usize, n: usize) -> Vec<f32> {
    let mut c = vec![0f32; m * n];
    for i in 0..m {
        for j in 0..n {
            c[i * n + j] = (0..k).map(|p| a[i * k + p] * b[p * n + j]).sum();
        }
    }
    c
}

/// A 96 x 80 @ 80 x 72 f32 product (large enough for the tuned kernel), checked exactly:
/// small integers, so every kernel's sums are exact.
fn check_matmul(dev: &Device) {
    let (m, k, n) = (96, 80, 72);
    let ha: Vec<f32> = (0..m * k).map(|i| ((i * 7) % 11) as f32 - 5.0).collect();
    let hb: Vec<f32> = (0..k * n).map(|i| ((i * 3) % 7) as f32 - 3.0).collect();
    let a = Array::from_slice(dev, &ha, &[m, k]).unwrap();
    let b = Array::from_slice(dev, &hb, &[k, n]).unwrap();
    let c = a.matmul(&b).unwrap().to_vec::<f32>().unwrap();
    assert_eq!(
        c,
        host_matmul(&ha, &hb, m, k, n),
        "matmul on {}",
        dev.info()
    );
}

/// Every family once or more, each result checked against the host: element-wise ops of each
/// kernel set in both forms (contiguous vec4 and strided) with scalars on either side,
/// reductions along every kind of axis, scans, take and where, matmul and GEMV, einsum, and
/// Philox draws of every distribution and dtype from aligned and unaligned stream offsets,
/// short and long.
fn workload(dev: &Device) {
    let n = 1024;
    let hx: Vec<f32> = (0..n).map(|i| ((i % 17) as f32 - 8.0) / 4.0).collect();
    let x = Array::from_slice(dev, &hx, &[32, 32]).unwrap();
    let strided = x.t();
    let hs: Vec<f32> = (0..n).map(|i| hx[(i % 32) * 32 + i / 32]).collect();
    for (arr, h, what) in [(&x, &hx, "contiguous"), (&strided, &hs, "strided")] {
        let add = arr.add(arr).unwrap().to_vec::<f32>().unwrap();
        close(
            &add,
            &h.iter().map(|v| v + v).collect::<Vec<_>>(),
            0.0,
            what,
        );
        let mul = arr.mul(3.0).unwrap().to_vec::<f32>().unwrap();
        close(
            &mul,
            &h.iter().map(|v| v * 3.0).collect::<Vec<_>>(),
            0.0,
            what,
        );
        let rsub = gpuarray::sub(1.0, arr).unwrap().to_vec::<f32>().unwrap();
        close(
            &rsub,
            &h.iter().map(|v| 1.0 - v).collect::<Vec<_>>(),
            0.0,
            what,
        );
        let exp = arr.exp().unwrap().to_vec::<f32>().unwrap();
        close(
            &exp,
            &h.iter().map(|v| v.exp()).collect::<Vec<_>>(),
            1e-6,
            what,
        );
        let gt = arr.gt(0.0).unwrap().to_vec_bool().unwrap();
        assert_eq!(gt, h.iter().map(|&v| v > 0.0).collect::<Vec<_>>(), "{what}");
        let nan = arr.isnan().unwrap().to_vec_bool().unwrap();
        assert!(nan.iter().all(|&b| !b), "{what}");
    }
    // Integers and bools: the integer and compare kernels.
    let hi: Vec<i32> = (0..n as i32).map(|i| i % 13 - 6).collect();
    let xi = Array::from_slice(dev, &hi, &[n]).unwrap();
    let sq = xi.mul(&xi).unwrap().to_vec::<i32>().unwrap();
    assert_eq!(sq, hi.iter().map(|v| v * v).collect::<Vec<_>>());
    let neg = xi.neg().unwrap().to_vec::<i32>().unwrap();
    assert_eq!(neg, hi.iter().map(|v| -v).collect::<Vec<_>>());
    let mask = xi.gt(0).unwrap();
    let both = mask.logical_and(&mask).unwrap().to_vec_bool().unwrap();
    assert_eq!(both, hi.iter().map(|&v| v > 0).collect::<Vec<_>>());
    let w = gpuarray::where_(&mask, &xi, &xi.neg().unwrap()).unwrap();
    assert_eq!(
        w.to_vec::<i32>().unwrap(),
        hi.iter().map(|v| v.abs()).collect::<Vec<_>>()
    );
    // Reductions: all, rows (last axis), columns (first axis), arg, any, scans.
    let total: f32 = hx.iter().sum();
    close(
        &x.sum(None, false).unwrap().to_vec::<f32>().unwrap(),
        &[total],
        1e-6,
        "sum",
    );
    let rows: Vec<f32> = (0..32)
        .map(|r| hx[r * 32..r * 32 + 32].iter().sum())
        .collect();
    close(
        &x.sum(1, false).unwrap().to_vec::<f32>().unwrap(),
        &rows,
        1e-6,
        "rows",
    );
    let cols: Vec<f32> = (0..32)
        .map(|c| (0..32).map(|r| hx[r * 32 + c]).sum())
        .collect();
    close(
        &x.sum(0, false).unwrap().to_vec::<f32>().unwrap(),
        &cols,
        1e-6,
        "cols",
    );
    let maxes: Vec<f32> = (0..32)
        .map(|c| (0..32).map(|r| hs[r * 32 + c]).fold(f32::MIN, f32::max))
        .collect();
    close(
        &strided.max(0, false).unwrap().to_vec::<f32>().unwrap(),
        &maxes,
        0.0,
        "strided max",
    );
    let arg = common::idx(&xi.argmax(None, false).unwrap());
    let first_max = hi
        .iter()
        .position(|&v| v == *hi.iter().max().unwrap())
        .unwrap();
    assert_eq!(arg, vec![first_max as i32]);
    assert!(mask.any(None, false).unwrap().to_vec_bool().unwrap()[0]);
    let cum = xi.cumsum(Some(0)).unwrap().to_vec::<i32>().unwrap();
    let want: Vec<i32> = hi
        .iter()
        .scan(0, |s, v| {
            *s += v;
            Some(*s)
        })
        .collect();
    assert_eq!(cum, want);
    let idx = Array::from_slice(dev, &[3i32, 0, 31], &[3]).unwrap();
    let t = x.take(&idx, Some(0)).unwrap().to_vec::<f32>().unwrap();
    let want: Vec<f32> = [3, 0, 31]
        .iter()
        .flat_map(|&r| hx[r * 32..r * 32 + 32].to_vec())
        .collect();
    assert_eq!(t, want);
    // Matmul, GEMV, einsum's batched contraction.
    check_matmul(dev);
    let v = Array::from_slice(dev, &hx[..32], &[32]).unwrap();
    let gemv = v.matmul(&x).unwrap().to_vec::<f32>().unwrap();
    close(&gemv, &host_matmul(&hx[..32], &hx, 1, 32, 32), 1e-5, "gemv");
    let hb: Vec<f32> = (0..4 * 8 * 8).map(|i| (i % 5) as f32 - 2.0).collect();
    let b3 = Array::from_slice(dev, &hb, &[4, 8, 8]).unwrap();
    let e = einsum("ijk,ikm->ijm", &[&b3, &b3])
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    let mut want = Vec::new();
    for i in 0..4 {
        let m = &hb[i * 64..i * 64 + 64];
        want.extend(host_matmul(m, m, 8, 8, 8));
    }
    assert_eq!(e, want, "einsum");
    // Philox: every distribution in every dtype it is drawn in, from offset 0 and from an
    // offset inside a block; one long draw (the CPU adapters' 64-units-per-invocation launch).
    for offset in [0u64, 5] {
        let mut g = Generator::with_stream(dev, 7, 0, offset);
        for d in [DType::F32, DType::F16, DType::F64] {
            if !dev.supports(d) {
                continue;
            }
            for r in [
                g.random(&[100], d).unwrap(),
                g.uniform(-2.0, 3.0, &[100], d).unwrap(),
                g.standard_normal(&[100], d).unwrap(),
                g.exponential(1.5, &[100], d).unwrap(),
            ] {
                let vals = common::read(&r);
                assert!(vals.iter().all(|v| v.is_finite()), "draws of {d}");
            }
        }
        for d in [DType::I32, DType::U32, DType::F32] {
            let b = common::read(&g.bernoulli(0.5, &[100], d).unwrap());
            assert!(b.iter().all(|&v| v == 0.0 || v == 1.0));
        }
        for d in [DType::I32, DType::U32] {
            let k = common::read(&g.integers(0, 6, &[100], d).unwrap());
            assert!(
                k.iter()
                    .all(|&v| (0.0..6.0).contains(&v) && v.fract() == 0.0)
            );
            let p2 = common::read(&g.integers(0, 8, &[100], d).unwrap());
            assert!(p2.iter().all(|&v| (0.0..8.0).contains(&v)));
        }
        assert_eq!(g.bits(&[100]).unwrap().len(), 100);
    }
    let mut g = Generator::new(dev, 9);
    let long = g.standard_normal(&[1 << 22], DType::F32).unwrap();
    let mean = long.mean(None, false).unwrap().to_vec::<f32>().unwrap()[0];
    assert!(mean.abs() < 5e-3, "mean of 2^22 normals {mean}");
}

/// Labels compiled since `before`, for a failure message.
fn new_labels(dev: &Device, before: &[String]) -> Vec<String> {
    dev.compiled_pipelines()
        .into_iter()
        .filter(|l| !before.contains(l))
        .collect()
}

#[test]
fn eager_plan_covers_every_family_and_compiles_each_pipeline_once() {
    let dir = cache_dir("eager");
    let Some(dev) = device_in(&dir, CompileMode::Eager, false) else {
        return;
    };
    // Calls while the background plan runs: each waits for its pipeline or compiles it once.
    let threads: Vec<_> = (0..3)
        .map(|_| {
            let d = dev.clone();
            std::thread::spawn(move || workload(&d))
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let stats = dev.wait_compiled().unwrap();
    println!("eager on {}: {stats}", dev.info());
    assert_eq!(stats.pending, 0);
    assert_eq!(stats.failed, 0, "background compiles failed: {stats}");
    assert_eq!(
        stats.unplanned, 0,
        "calls compiled pipelines the eager plan lacks (GPUARRAY_LOG=1 names them): {stats}"
    );
    // Never twice: the count of compiles is the count of distinct pipelines.
    assert_eq!(stats.compiled, dev.pipelines_compiled());
    assert!(stats.in_background > 0 && stats.ready_after.is_some());
    // Everything is ready: the same work again compiles nothing.
    let before = dev.compiled_pipelines();
    workload(&dev);
    assert_eq!(new_labels(&dev, &before), Vec::<String>::new());
    drop(dev);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn families_compile_matmul_einsum_and_philox_only() {
    let dir = cache_dir("families");
    let Some(dev) = device_in(&dir, CompileMode::Families, false) else {
        return;
    };
    let stats = dev.wait_compiled().unwrap();
    assert_eq!((stats.pending, stats.failed), (0, 0), "{stats}");
    let before = dev.compiled_pipelines();
    assert!(before.iter().any(|l| l.starts_with("philox")), "{before:?}");
    assert!(
        before.iter().any(|l| l.starts_with("matmul_gemv")),
        "{before:?}"
    );
    assert!(
        !before.iter().any(|l| l.starts_with("binary")),
        "{before:?}"
    );
    // Every f32 matmul and Philox pipeline had its first dispatch at start-up: one that failed
    // (a binding the warm-up got wrong) is not counted.
    let warm = before
        .iter()
        .filter(|l| (l.starts_with("matmul") || l.starts_with("philox")) && l.contains("[f32]"))
        .count();
    assert!(warm >= 10, "{before:?}");
    assert_eq!(stats.warmed, warm, "{stats}");
    check_matmul(&dev);
    let mut g = Generator::new(&dev, 1);
    let x = g.standard_normal(&[1000], DType::F32).unwrap();
    let b3 = Array::ones(&dev, &[2, 4, 4], DType::F32).unwrap();
    let e = einsum("ijk,ikm->ijm", &[&b3, &b3]).unwrap();
    assert_eq!(e.to_vec::<f32>().unwrap(), vec![4.0; 32]);
    assert_eq!(new_labels(&dev, &before), Vec::<String>::new());
    // An op outside the families compiles on first use.
    let y = x.add(&x).unwrap();
    assert_eq!(y.len(), 1000);
    assert_eq!(new_labels(&dev, &before).len(), 1);
    drop(dev);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn lazy_compiles_copy_and_fill_only() {
    let dir = cache_dir("lazy");
    let Some(dev) = device_in(&dir, CompileMode::Lazy, false) else {
        return;
    };
    let at_start = dev.compiled_pipelines();
    assert!(
        at_start
            .iter()
            .all(|l| l.starts_with("copy") || l.starts_with("fill") || l.starts_with("sequence"))
    );
    let stats = dev.wait_compiled().unwrap();
    assert_eq!((stats.compiled, stats.in_background), (at_start.len(), 0));
    assert_eq!(stats.warmed, 0);
    let a = Array::arange(&dev, 0.0, 8.0, 1.0, DType::F32).unwrap();
    assert_eq!(
        a.add(&a).unwrap().to_vec::<f32>().unwrap(),
        (0..8).map(|i| 2.0 * i as f32).collect::<Vec<_>>()
    );
    assert_eq!(dev.pipelines_compiled(), at_start.len() + 1);
    drop(dev);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_tune_is_saved_reused_and_redone_on_request() {
    let dir = cache_dir("tune");
    let Some(dev) = device_in(&dir, CompileMode::Lazy, false) else {
        return;
    };
    let first = dev.matmul_tuning().unwrap();
    assert!(!first.from_cache);
    check_matmul(&dev);
    drop(dev);
    assert!(record_file(&dir, "matmul-tune").is_some());
    let dev = device_in(&dir, CompileMode::Families, false).unwrap();
    let again = dev.matmul_tuning().unwrap();
    assert!(again.from_cache, "{again:?}");
    assert_eq!(again.chosen, first.chosen);
    assert_eq!(again.candidates.len(), first.candidates.len());
    // With a saved tune, start-up compiles only the chosen subgroup kernel.
    dev.wait_compiled().unwrap();
    let sgb: Vec<String> = dev
        .compiled_pipelines()
        .into_iter()
        .filter(|l| l.starts_with("matmul_sgb"))
        .collect();
    match first.chosen {
        gpuarray::MatmulKernel::SubgroupBroadcast { rows } => {
            assert_eq!(sgb.len(), 1, "{sgb:?}");
            assert!(
                sgb[0].starts_with(&format!("matmul_sgb{rows}x8")),
                "{sgb:?}"
            );
        }
        _ => assert!(sgb.is_empty(), "{sgb:?}"),
    }
    check_matmul(&dev);
    drop(dev);
    let dev = device_in(&dir, CompileMode::Lazy, true).unwrap();
    assert!(!dev.matmul_tuning().unwrap().from_cache);
    check_matmul(&dev);
    drop(dev);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Fills `dir` with every record (pipelines where the adapter keeps a driver cache, the tune,
/// the start-up choice) by running a device there.
fn populate(dir: &Path) -> bool {
    let Some(dev) = device_in(dir, CompileMode::Families, false) else {
        return false;
    };
    dev.matmul_tuning().unwrap();
    dev.wait_compiled().unwrap();
    drop(dev);
    true
}

/// The ways a cache file can be bad, each applied to every record.
const DAMAGE: [&str; 5] = [
    "truncated",
    "garbage",
    "wrong-version",
    "unreadable",
    "empty",
];

fn damage(path: &Path, how: &str) {
    let good = std::fs::read(path).unwrap();
    match how {
        "truncated" => std::fs::write(path, &good[..good.len() / 2]).unwrap(),
        "garbage" => std::fs::write(path, b"\x7fELF not a cache \xff\xfe\x00").unwrap(),
        "wrong-version" => {
            let text =
                String::from_utf8_lossy(&good).replacen("gpuarray-cache 1", "gpuarray-cache 0", 1);
            std::fs::write(path, text.as_bytes()).unwrap()
        }
        // A directory where the file should be: reading it fails (root reads any file, so a
        // permission bit would not do).
        "unreadable" => {
            std::fs::remove_file(path).unwrap();
            std::fs::create_dir(path).unwrap();
        }
        "empty" => std::fs::write(path, b"").unwrap(),
        _ => unreachable!(),
    }
}

/// A copy of the files of `from` in a fresh directory `name`.
fn copy_of(from: &Path, name: &str) -> PathBuf {
    let dir = cache_dir(name);
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
    }
    dir
}

#[test]
fn bad_cache_files_never_fail_a_device() {
    // One populated directory, copied for each kind of damage.
    let good = cache_dir("bad-template");
    if !populate(&good) {
        return;
    }
    for how in DAMAGE {
        let dir = copy_of(&good, &format!("bad-{how}"));
        let files: Vec<PathBuf> = ["pipelines", "matmul-tune", "startup-choices"]
            .iter()
            .filter_map(|w| record_file(&dir, w))
            .collect();
        assert!(files.len() >= 2, "{files:?}");
        for f in &files {
            damage(f, how);
        }
        // Lazy: every record is read at start-up whatever the plan.
        let dev = device_in(&dir, CompileMode::Lazy, false).unwrap();
        let t = dev.matmul_tuning().unwrap();
        assert!(!t.from_cache, "{how}: a damaged tune was used");
        check_matmul(&dev);
        let a = Array::arange(&dev, 0.0, 5.0, 1.0, DType::F32).unwrap();
        assert_eq!(
            a.mul(&a).unwrap().to_vec::<f32>().unwrap(),
            vec![0.0, 1.0, 4.0, 9.0, 16.0]
        );
        dev.wait_compiled().unwrap();
        drop(dev);
        // Rewritten whole where a file could be written (not where a directory sits in its
        // place): the next device reads the tune again.
        if how != "unreadable" {
            let dev = device_in(&dir, CompileMode::Lazy, false).unwrap();
            assert!(
                dev.matmul_tuning().unwrap().from_cache,
                "{how}: not rewritten"
            );
            drop(dev);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    let _ = std::fs::remove_dir_all(&good);
}

#[test]
fn an_unwritable_cache_directory_gives_a_working_device() {
    let base = cache_dir("unwritable");
    std::fs::create_dir_all(&base).unwrap();
    let file = base.join("a-file");
    std::fs::write(&file, b"x").unwrap();
    // A directory below a regular file can be neither created nor written.
    let dir = file.join("cache");
    let Some(dev) = device_in(&dir, CompileMode::Families, false) else {
        return;
    };
    assert!(!dev.matmul_tuning().unwrap().from_cache);
    check_matmul(&dev);
    dev.wait_compiled().unwrap();
    drop(dev);
    assert!(!dir.exists());
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn no_cache_means_no_files() {
    let dir = cache_dir("off");
    let made = DeviceConfig::from_env().and_then(|config| {
        Device::with_config(DeviceConfig {
            compile: CompileMode::Families,
            cache_dir: Some(dir.clone()),
            disable_cache: true,
            retune: true,
            ..config
        })
    });
    let Ok(dev) = made else {
        common::skip("the cache-less device test", "no device");
        return;
    };
    // Told to tune (another test of this process may have tuned a cache-less device already).
    let t = dev.matmul_tuning().unwrap();
    assert!(!t.from_cache);
    dev.wait_compiled().unwrap();
    drop(dev);
    assert!(!dir.exists());
    // A second cache-less device of this process on the adapter takes that tune from memory, and
    // still writes nothing.
    let again = DeviceConfig::from_env()
        .and_then(|config| {
            Device::with_config(DeviceConfig {
                compile: CompileMode::Lazy,
                cache_dir: Some(dir.clone()),
                disable_cache: true,
                ..config
            })
        })
        .unwrap();
    let shared = again.matmul_tuning().unwrap();
    assert!(shared.from_cache);
    assert_eq!(
        (shared.chosen, shared.elapsed.as_micros()),
        (t.chosen, t.elapsed.as_micros())
    );
    drop(again);
    assert!(!dir.exists());
}

/// The body of the child processes of the tests below; a no-op in a normal run.
#[test]
fn child_process_entry() {
    match std::env::var("GPUARRAY_STARTUP_CHILD").as_deref() {
        Ok("device") => {
            let dir = PathBuf::from(std::env::var("GPUARRAY_STARTUP_DIR").unwrap());
            let dev = device_in(&dir, CompileMode::Families, false).unwrap();
            dev.matmul_tuning().unwrap();
            check_matmul(&dev);
            dev.wait_compiled().unwrap();
            println!("child ok");
        }
        Ok("env") => {
            let e = DeviceConfig::from_env().unwrap_err();
            assert!(matches!(e, Error::InvalidArgument { .. }), "{e:?}");
            let msg = e.to_string();
            let var = std::env::var("GPUARRAY_STARTUP_VAR").unwrap();
            assert!(msg.contains(&var), "{msg}");
            println!("child ok");
        }
        _ => {}
    }
}

fn child(kind: &str, envs: &[(&str, &str)]) -> Command {
    let mut c = Command::new(std::env::current_exe().unwrap());
    c.args([
        "--exact",
        "child_process_entry",
        "--nocapture",
        "--test-threads=1",
    ])
    .env("GPUARRAY_STARTUP_CHILD", kind);
    for (k, v) in envs {
        c.env(k, v);
    }
    c
}

#[test]
fn two_processes_starting_at_once_share_one_cache() {
    let dir = cache_dir("two");
    if common::device().is_none() {
        return;
    }
    let d = dir.to_string_lossy().to_string();
    // Started together, not one after the other.
    let running: Vec<std::process::Child> = (0..2)
        .map(|_| {
            child("device", &[("GPUARRAY_STARTUP_DIR", d.as_str())])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in running {
        let out = c.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && text.contains("child ok"),
            "child exited with {:?}\n{text}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let dev = device_in(&dir, CompileMode::Lazy, false).unwrap();
    assert!(dev.matmul_tuning().unwrap().from_cache);
    check_matmul(&dev);
    drop(dev);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn environment_values_that_do_not_parse_are_errors_naming_the_variable() {
    for (var, value) in [
        ("GPUARRAY_COMPILE", "sometimes"),
        ("GPUARRAY_CACHE", "maybe"),
        ("GPUARRAY_RETUNE", "twice"),
    ] {
        let out = child("env", &[(var, value), ("GPUARRAY_STARTUP_VAR", var)])
            .output()
            .unwrap();
        assert!(
            out.status.success() && String::from_utf8_lossy(&out.stdout).contains("child ok"),
            "{var}={value}: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn a_profile_shows_the_compile_a_call_waited_for() {
    let dir = cache_dir("profile");
    let Some(dev) = device_in(&dir, CompileMode::Lazy, false) else {
        return;
    };
    let x = Array::from_slice(&dev, &[0.0f32, 1.0, 2.0, 3.0], &[4]).unwrap();
    let (y, first) = dev.profile(|| x.exp().unwrap()).unwrap();
    close(
        &y.to_vec::<f32>().unwrap(),
        &[1.0, 1f32.exp(), 2f32.exp(), 3f32.exp()],
        1e-6,
        "exp",
    );
    let compiles: Vec<_> = first
        .host
        .iter()
        .filter(|h| h.kind == gpuarray::profile::CallKind::Compile)
        .collect();
    assert_eq!(compiles.len(), 1, "{first}");
    assert!(compiles[0].duration > std::time::Duration::ZERO);
    assert!(first.to_string().contains("1 calls waited"), "{first}");
    // Compiled once: the same call again waits for nothing.
    let (_, again) = dev.profile(|| x.exp().unwrap()).unwrap();
    assert!(
        again
            .host
            .iter()
            .all(|h| h.kind != gpuarray::profile::CallKind::Compile),
        "{again}"
    );
    drop(dev);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The plan's warm-up dispatches are submitted by the compile workers while the program submits
/// and waits for its own work: each must go through the device's one submit lock, since
/// wgpu-core 30.0.2 panics when a submit races another thread's poll (a warm-up submitted
/// beside it broke two doc-tests' first `to_vec` that way, "the current submission index (1)
/// should be at least the wait submission index (2)"). Reads and small ops back to back for as
/// long as the plan runs, on fresh caches (so every subgroup kernel is warmed), each checked.
/// The race needs a poll inside another thread's submit, so this fails only some runs of a
/// broken build (the doc-tests met it twice in 304 device starts).
#[test]
fn calls_made_while_the_plan_warms_pipelines_up_succeed() {
    for round in 0..3 {
        let dir = cache_dir(&format!("warm-race-{round}"));
        let Some(dev) = device_in(&dir, CompileMode::Families, false) else {
            return;
        };
        let x = Array::arange(&dev, 0.0, 256.0, 1.0, DType::F32).unwrap();
        let expected: Vec<f32> = (0..256).map(|i| i as f32).collect();
        let mut calls = 0;
        while dev.compile_stats().ready_after.is_none() || calls < 20 {
            assert_eq!(x.to_vec::<f32>().unwrap(), expected);
            let z = Array::zeros(&dev, &[64], DType::F32).unwrap();
            assert_eq!(z.to_vec::<f32>().unwrap(), vec![0.0; 64]);
            calls += 1;
        }
        let stats = dev.wait_compiled().unwrap();
        assert!(stats.warmed > 0, "{stats}");
        drop(dev);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
