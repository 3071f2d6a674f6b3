//! float16 figures (issue 38): the same ops in f32, in the adapter's own f16 (where it has
//! `shader-f16`) and in packed halves (`F16Mode::Emulated`, what adapters without it get: two
//! per word, computed in f32, each result rounded to f16 in integers), in one run: add and
//! multiply-add of 2^24 elements, sum of 2^26, exp of 2^22, matmul 512^3, sort of 2^22 and
//! standard_normal of 2^24. Timed by `gpuarray::benchmark` (a warm-up run that also compiles,
//! then the fastest of the timed runs, each ended by a synchronisation). On lavapipe these are
//! CPU figures.
//!
//! ```text
//! cargo run --release --example f16
//! ```

use gpuarray::{DType, Device, DeviceConfig, F16Mode};

#[path = "support/float_figures.rs"]
mod float_figures;
#[path = "support/timing.rs"]
mod timing;

fn main() -> gpuarray::Result<()> {
    let native = Device::with_config(DeviceConfig {
        f16: F16Mode::Native,
        ..DeviceConfig::from_env()?
    })?;
    let emulated = Device::with_config(DeviceConfig {
        f16: F16Mode::Emulated,
        ..DeviceConfig::from_env()?
    })?;
    println!("adapter: {}", native.info());
    let mut paths: Vec<(&str, &Device, DType)> = vec![("f32", &native, DType::F32)];
    if native.supports(DType::F16) {
        paths.push(("f16 native", &native, DType::F16));
    }
    paths.push(("f16 emulated", &emulated, DType::F16));
    float_figures::print_table(&paths, false)
}
