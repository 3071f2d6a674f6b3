//! Honest timing: `Device::profile` records exactly the launches of its closure on its thread,
//! with GPU times that fit inside the wall time; the Chrome trace parses and has one event per
//! launch; `benchmark` gives the samples it promises; errors and device loss inside a profile
//! neither lose the record nor hang; adapters without timestamps get the "CPU times only" path
//! (timestamps hidden through `DeviceConfig::disable_timestamps`).

mod common;

use gpuarray::profile::CallKind;
use gpuarray::{Array, Axes, BenchOptions, DType, Device, DeviceConfig, Error, benchmark, einsum};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The test device with its timestamps hidden.
fn device_without_timestamps() -> Option<Device> {
    common::device()?;
    Some(
        Device::with_config(DeviceConfig {
            disable_timestamps: true,
            ..DeviceConfig::from_env().unwrap()
        })
        .unwrap(),
    )
}

fn host_values(n: usize) -> Vec<f32> {
    (0..n).map(|i| (i % 17) as f32 - 8.0).collect()
}

/// Every launch inside the closure appears once, with its kernel; launches before and after the
/// closure, and on another thread meanwhile, do not.
#[test]
fn a_profile_holds_exactly_the_closures_launches() {
    let Some(dev) = common::device() else { return };
    let x = host_values(4096);
    let a = Array::from_slice(&dev, &x, &[4096]).unwrap();
    let m = Array::from_slice(&dev, &x[..64 * 64], &[64, 64]).unwrap();
    // Warm the matmul tune (it launches its own candidates) and the element-wise pipelines.
    m.matmul(&m).unwrap();
    a.add(&a).unwrap().to_vec::<f32>().unwrap();
    a.exp().unwrap();

    // Another thread launches unary kernels the whole time: none may show up.
    let stop = Arc::new(AtomicBool::new(false));
    let other = {
        let (a, stop) = (a.clone(), Arc::clone(&stop));
        std::thread::spawn(move || {
            let mut n = 0;
            while !stop.load(Ordering::SeqCst) {
                a.exp().unwrap().to_vec::<f32>().unwrap();
                n += 1;
            }
            n
        })
    };
    let before = a.mul(&a).unwrap(); // outside: not recorded
    let (out, prof) = dev
        .profile(|| -> gpuarray::Result<Vec<f32>> {
            let mut s = a.clone();
            for _ in 0..5 {
                s = s.add(&a)?;
            }
            let c = m.matmul(&m)?;
            let total = c.sum(Axes::All, false)?;
            let mut v = s.to_vec::<f32>()?;
            v.push(total.item::<f32>()?);
            Ok(v)
        })
        .unwrap();
    let after = a.sub(&a).unwrap(); // outside: not recorded
    stop.store(true, Ordering::SeqCst);
    let other_ops = other.join().unwrap();
    assert!(other_ops > 0);
    drop((before, after));

    // The result is right (so the profiled work really ran).
    let v = out.unwrap();
    for (i, xi) in x.iter().enumerate() {
        assert_eq!(v[i], xi * 6.0);
    }
    let adds = prof
        .launches
        .iter()
        .filter(|l| l.kernel.starts_with("binary_"))
        .count();
    assert_eq!(adds, 5, "five adds, one launch each: {:#?}", prof.launches);
    assert!(prof.launches.iter().all(|l| l.kernel.starts_with("binary_")
        || l.kernel.starts_with("matmul_")
        || l.kernel.starts_with("reduce")));
    assert!(
        prof.launches
            .iter()
            .any(|l| l.kernel.starts_with("matmul_"))
    );
    assert!(prof.launches.iter().any(|l| l.kernel.starts_with("reduce")));
    assert!(
        !prof.launches.iter().any(|l| l.kernel.starts_with("unary_")),
        "another thread's launches leaked in"
    );
    // Every add is attributed to the `add` call, the matmul's FLOPs are 2·64³.
    for l in prof
        .launches
        .iter()
        .filter(|l| l.kernel.starts_with("binary_"))
    {
        assert_eq!(l.call, "add");
        assert_eq!(l.flops, 4096);
        assert_eq!(l.bytes, 3 * 4096 * 4);
    }
    let mm: u64 = prof
        .launches
        .iter()
        .filter(|l| l.kernel.starts_with("matmul_"))
        .map(|l| l.flops)
        .sum();
    assert_eq!(mm, 2 * 64 * 64 * 64);
    assert!(
        prof.host
            .iter()
            .any(|h| h.name == "to_vec" && h.kind == CallKind::Wait)
    );
    check_gpu_times(&dev, &prof);
}

/// GPU times are positive and add up to no more than the wall time; the table names them.
fn check_gpu_times(dev: &Device, prof: &gpuarray::Profile) {
    if !dev.has_gpu_timestamps() {
        println!(
            "{} has no GPU timestamps: only CPU times checked",
            dev.info()
        );
        assert!(prof.gpu_total().is_none());
        return;
    }
    for l in &prof.launches {
        let g = l
            .gpu
            .unwrap_or_else(|| panic!("no GPU time for {}", l.label()));
        assert!(g.duration > Duration::ZERO, "{}: zero GPU time", l.label());
    }
    let total = prof.gpu_total().unwrap();
    assert!(
        total <= prof.wall,
        "GPU time {total:?} exceeds the wall time {:?}",
        prof.wall
    );
    let table = prof.to_string();
    for l in &prof.launches {
        assert!(table.contains(&l.label()), "{table}");
    }
    println!("{table}");
}

#[test]
fn the_seed_einsum_profile_is_complete() {
    let Some(dev) = common::device() else { return };
    let (b, n) = (4, 32);
    let x = host_values(b * n * n);
    let a = Array::from_slice(&dev, &x, &[b, n, n]).unwrap();
    let (c, prof) = dev
        .profile(|| einsum("ijk,ikm->ijm", &[&a, &a])?.to_vec::<f32>())
        .unwrap();
    let c = c.unwrap();
    // Check one batch against naive loops.
    for j in 0..n {
        for m in 0..n {
            let want: f32 = (0..n).map(|k| x[j * n + k] * x[k * n + m]).sum();
            assert!((c[j * n + m] - want).abs() <= 1e-4 * (1.0 + want.abs()));
        }
    }
    assert!(!prof.launches.is_empty());
    assert!(prof.host.iter().any(|h| h.name == "einsum"));
    check_gpu_times(&dev, &prof);
}

/// The trace is JSON with one complete GPU event per launch, named by the launch, and the GPU
/// events of the one queue do not overlap.
#[test]
fn the_chrome_trace_has_one_event_per_launch() {
    let Some(dev) = common::device() else { return };
    let a = Array::from_slice(&dev, &host_values(1 << 16), &[256, 256]).unwrap();
    let (_, prof) = dev
        .profile(|| -> gpuarray::Result<()> {
            let b = a.matmul(&a)?;
            let c = b.add(&a)?.exp()?;
            c.sum(Axes::from(0), false)?.to_vec::<f32>()?;
            Ok(())
        })
        .unwrap();
    let path = std::env::temp_dir().join(format!("gpuarray-trace-{}.json", std::process::id()));
    prof.write_chrome_trace(&path).unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    std::fs::remove_file(&path).ok();
    let events = json["traceEvents"].as_array().unwrap();
    let kernel_events: Vec<&serde_json::Value> = events
        .iter()
        .filter(|e| e["cat"] == "kernel" || e["cat"] == "launch")
        .collect();
    assert_eq!(kernel_events.len(), prof.launches.len());
    for (e, l) in kernel_events.iter().zip(&prof.launches) {
        assert_eq!(e["name"].as_str().unwrap(), l.label());
        assert_eq!(e["args"]["call"].as_str().unwrap(), l.call);
    }
    assert!(
        events
            .iter()
            .any(|e| e["cat"] == "call" && e["name"] == "matmul" && e["ph"] == "X")
    );
    if dev.has_gpu_timestamps() {
        let mut spans: Vec<(f64, f64)> = kernel_events
            .iter()
            .map(|e| {
                assert_eq!(e["ph"], "X");
                assert_eq!(e["tid"], 2);
                (e["ts"].as_f64().unwrap(), e["dur"].as_f64().unwrap())
            })
            .collect();
        spans.sort_by(|a, b| a.0.total_cmp(&b.0));
        for w in spans.windows(2) {
            // Microseconds with three decimals: allow the rounding of two numbers.
            assert!(
                w[1].0 >= w[0].0 + w[0].1 - 0.002,
                "GPU events overlap: {w:?}"
            );
        }
    }
}

#[test]
fn benchmark_gives_the_samples_it_promises() {
    let Some(dev) = common::device() else { return };
    let a = Array::from_slice(&dev, &host_values(128 * 128), &[128, 128]).unwrap();
    let report = benchmark(
        &dev,
        || a.matmul(&a),
        BenchOptions {
            name: "matmul 128".into(),
            warmup: 1,
            repeats: 7,
            min_time: Duration::ZERO,
            gpu_times: true,
        },
    )
    .unwrap();
    assert_eq!(report.cpu.len(), 7);
    let s = report.cpu_stats();
    assert!(s.min <= s.median && s.median <= s.max && s.min > Duration::ZERO);
    assert!(s.min <= s.mean && s.mean <= s.max);
    assert!(report.launches.unwrap() >= 1);
    let line = report.to_string();
    assert!(line.starts_with("matmul 128: CPU: "), "{line}");
    match report.gpu_stats() {
        Some(g) => {
            assert_eq!(report.gpu.as_ref().unwrap().len(), 7);
            assert!(g.min > Duration::ZERO && g.min <= g.median && g.median <= g.max);
            // Each repeat's GPU time fits in its CPU wall time.
            for (c, g) in report.cpu.iter().zip(report.gpu.as_ref().unwrap()) {
                assert!(g <= c, "GPU {g:?} > CPU {c:?}");
            }
            assert!(line.contains("GPU-0: "), "{line}");
        }
        None => assert!(line.contains("CPU times only"), "{line}"),
    }

    // min_time extends the run past `repeats`.
    let long = benchmark(
        &dev,
        || a.add(&a),
        BenchOptions {
            repeats: 2,
            min_time: Duration::from_millis(30),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(long.cpu.len() >= 2);
    assert!(long.cpu.iter().sum::<Duration>() >= Duration::from_millis(30));

    // CPU times alone: no profile, and the report says the GPU side was not measured.
    let plain = benchmark(
        &dev,
        || a.add(&a),
        BenchOptions {
            repeats: 3,
            gpu_times: false,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(plain.cpu.len(), 3);
    assert!(plain.gpu.is_none() && plain.launches.is_none());
    assert!(plain.to_string().contains("not measured"), "{plain}");
}

#[test]
fn benchmark_of_host_only_work_reports_no_gpu_work() {
    let Some(dev) = common::device() else { return };
    let report = benchmark(
        &dev,
        || Ok((0..1000u64).sum::<u64>()),
        BenchOptions {
            repeats: 3,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(report.launches, Some(0));
    if let Some(g) = &report.gpu {
        assert_eq!(g, &vec![Duration::ZERO; 3]);
        assert!(report.to_string().contains("0 us (no GPU work)"));
    }
    assert!(matches!(
        benchmark(
            &dev,
            || Ok(()),
            BenchOptions {
                repeats: 0,
                ..Default::default()
            }
        ),
        Err(Error::InvalidArgument { .. })
    ));
    // An error in the closure comes back as the benchmark's error.
    let a = Array::zeros(&dev, &[2, 3], DType::F32).unwrap();
    assert!(matches!(
        benchmark(&dev, || a.matmul(&a), BenchOptions::default()),
        Err(Error::Shape { .. })
    ));
}

/// A closure that fails still yields what it launched before the failure.
#[test]
fn a_failing_closure_keeps_its_launches() {
    let Some(dev) = common::device() else { return };
    let a = Array::from_slice(&dev, &host_values(1000), &[10, 100]).unwrap();
    let (out, prof) = dev
        .profile(|| -> gpuarray::Result<Array> {
            let b = a.add(&a)?;
            let c = b.mul(&a)?;
            c.matmul(&a) // (10, 100) @ (10, 100): a shape error
        })
        .unwrap();
    assert!(matches!(out, Err(Error::Shape { .. })));
    assert_eq!(
        prof.launches
            .iter()
            .filter(|l| l.kernel.starts_with("binary_"))
            .count(),
        2
    );
    check_gpu_times(&dev, &prof);
    // Nothing is lost: the array made before still reads back.
    assert_eq!(a.to_vec::<f32>().unwrap(), host_values(1000));
}

/// Device loss in the middle of a profile is an `Err(DeviceLost)`, promptly.
#[test]
fn device_loss_inside_a_profile_is_an_error_not_a_hang() {
    let Some(_) = common::device() else { return };
    // Its own device: this one is destroyed.
    let dev = Device::new().unwrap();
    let result = common::with_watchdog(120, move || {
        let a = Array::from_slice(&dev, &host_values(1 << 16), &[256, 256]).unwrap();
        dev.profile(|| {
            let b = a.matmul(&a).unwrap();
            dev.destroy();
            b.add(&a).map(|_| ())
        })
        .map(|(out, prof)| (out.is_ok(), prof.launches.len()))
    });
    assert!(
        matches!(result, Err(Error::DeviceLost { .. })),
        "{result:?}"
    );
}

/// With timestamps hidden, every report says "CPU times only" and carries submit times.
#[test]
fn without_timestamps_reports_say_cpu_times_only() {
    let Some(dev) = device_without_timestamps() else {
        return;
    };
    assert!(!dev.has_gpu_timestamps());
    assert!(!dev.info().features.contains(&"timestamp-query"));
    let a = Array::from_slice(&dev, &host_values(4096), &[64, 64]).unwrap();
    let (_, prof) = dev
        .profile(|| a.matmul(&a)?.add(&a)?.to_vec::<f32>())
        .unwrap();
    assert!(!prof.timestamps);
    assert!(prof.gpu_total().is_none());
    assert!(prof.launches.iter().all(|l| l.gpu.is_none()));
    assert!(!prof.submits.is_empty());
    for s in &prof.submits {
        let cpu = s.cpu_time().expect("submit and done times");
        assert!(cpu <= prof.wall);
    }
    let table = prof.to_string();
    let note = format!(
        "GPU timestamps unavailable on {}: CPU times only",
        dev.info()
    );
    assert!(table.contains(&note), "{table}");
    let json: serde_json::Value = serde_json::from_str(&prof.chrome_trace_json()).unwrap();
    let events = json["traceEvents"].as_array().unwrap();
    assert_eq!(
        events.iter().filter(|e| e["cat"] == "launch").count(),
        prof.launches.len()
    );
    assert!(events.iter().any(|e| e["cat"] == "submit"));
    let report = benchmark(&dev, || a.add(&a), BenchOptions::default()).unwrap();
    assert!(report.gpu.is_none());
    assert!(report.to_string().contains(&note));
}

/// `DeviceConfig::profile_path` (`GPUARRAY_PROFILE`) writes the whole run's trace when the
/// device drops.
#[test]
fn a_whole_run_profile_is_written_at_drop() {
    let Some(_) = common::device() else { return };
    // The first whole-run profile of this process writes exactly `path` (this test is the only
    // one here that makes one).
    let path = std::env::temp_dir().join(format!("gpuarray-run-{}.json", std::process::id()));
    std::fs::remove_file(&path).ok();
    {
        let dev = Device::with_config(DeviceConfig {
            profile_path: Some(path.clone()),
            ..DeviceConfig::from_env().unwrap()
        })
        .unwrap();
        let a = Array::from_slice(&dev, &host_values(1024), &[1024]).unwrap();
        // A launch from another thread counts too: the whole run is every thread.
        let b = std::thread::scope(|s| s.spawn(|| a.add(&a).unwrap()).join().unwrap());
        assert_eq!(b.mul(&a).unwrap().to_vec::<f32>().unwrap().len(), 1024);
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    std::fs::remove_file(&path).ok();
    let launches = json["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["cat"] == "kernel" || e["cat"] == "launch")
        .count();
    assert_eq!(launches, 2);
}

/// `start_profile` / `finish` records what happens between them; a session dropped unfinished
/// stops recording.
#[test]
fn a_started_profile_records_until_finished() {
    let Some(dev) = common::device() else { return };
    let a = Array::from_slice(&dev, &host_values(512), &[512]).unwrap();
    let dropped = dev.start_profile().unwrap();
    a.add(&a).unwrap();
    drop(dropped);
    let session = dev.start_profile().unwrap();
    let b = a.mul(&a).unwrap();
    let c = b.sub(&a).unwrap();
    let prof = session.finish().unwrap();
    let calls: Vec<&str> = prof.launches.iter().map(|l| l.call).collect();
    assert_eq!(calls, ["multiply", "subtract"]);
    let want: Vec<f32> = host_values(512).iter().map(|x| x * x - x).collect();
    assert_eq!(c.to_vec::<f32>().unwrap(), want);
    check_gpu_times(&dev, &prof);
}
