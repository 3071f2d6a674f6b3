//! `gpuarray::adapters`: the list holds the adapter `Device::new` picks, marked `chosen`, with
//! the dtypes and limits a device on it really gets.

mod common;

use gpuarray::DType;

#[test]
fn the_chosen_adapter_is_the_one_device_new_picks() {
    let Some(dev) = common::device() else { return };
    let list = gpuarray::adapters().unwrap();
    let chosen: Vec<_> = list.iter().filter(|a| a.chosen).collect();
    assert_eq!(chosen.len(), 1, "{list:#?}");
    let a = chosen[0];
    let info = dev.info();
    assert_eq!(
        (&a.name, &a.backend, &a.device_type),
        (&info.name, &info.backend, &info.device_type)
    );
    for d in DType::ALL {
        // The adapter lists the dtypes its hardware has; the device adds f64 (and complex128)
        // where it emulates f64.
        let emulated = (d.real() == DType::F64 && dev.f64_emulated())
            || (d == DType::F16 && dev.f16_emulated());
        assert_eq!(a.dtypes.contains(&d) || emulated, dev.supports(d), "{d}");
    }
    assert_eq!(a.limits.max_buffer_size, info.max_buffer_size);
    // Every feature the adapter has, but shader-f64 (shader-f16) on a device that emulates f64
    // (f16), which never asks for it.
    assert!(
        a.features.iter().all(|f| info.features.contains(f)
            || (*f == "shader-f64" && dev.f64_emulated())
            || (*f == "shader-f16" && dev.f16_emulated())),
        "{:?} vs {:?}",
        a.features,
        info.features
    );
    // The device's line is the adapter's, then how it computes f64 and f16.
    assert_eq!(
        info.to_string(),
        format!("{a} · f64 {} · f16 {}", info.f64, info.f16)
    );
    let has_native = a.features.contains(&"shader-f64");
    match info.f64 {
        "native" => assert!(has_native),
        "emulated" => assert!(dev.f64_emulated()),
        other => assert_eq!((other, has_native), ("none", false)),
    }
    let has_f16 = a.features.contains(&"shader-f16");
    match info.f16 {
        "native" => assert!(has_f16 && !dev.f16_emulated()),
        "emulated" => assert!(dev.f16_emulated()),
        other => assert_eq!((other, has_f16), ("none", false)),
    }
}

/// Options no adapter satisfies mark none chosen, and the list is still every adapter.
#[test]
fn options_nothing_matches_choose_nothing() {
    let Some(_dev) = common::device() else { return };
    let all = gpuarray::adapters().unwrap();
    let none = gpuarray::adapters_with(&gpuarray::DeviceOptions {
        adapter_name: Some("no adapter is called this".into()),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(none.len(), all.len());
    assert!(none.iter().all(|a| !a.chosen));
}
