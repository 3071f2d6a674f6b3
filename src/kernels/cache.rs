//! The pipelines of generated kernels, per device (a device extension): keyed by everything
//! their source depends on, compiled on first use. Their driver binaries also go into the
//! device's disk cache, so a later process's first call compiles from it.

use crate::device::DeviceInner;
use crate::error::Result;
use std::collections::HashMap;
use std::sync::Mutex;

/// A device's generated pipelines.
#[derive(Default)]
pub(crate) struct Generated {
    map: Mutex<HashMap<String, wgpu::ComputePipeline>>,
}

impl Generated {
    /// The pipeline cached under `key`, or the one compiled from `source()` (entry `entry`;
    /// `math`: it joins the math library, whose override is `gpa_FAST_MATH` in generated
    /// modules). A failed compile is not cached.
    pub fn pipeline(
        &self,
        device: &DeviceInner,
        key: &str,
        label: &str,
        entry: &str,
        math: bool,
        source: impl FnOnce() -> Result<String>,
    ) -> Result<wgpu::ComputePipeline> {
        if let Some(p) = self.map.lock().unwrap_or_else(|e| e.into_inner()).get(key) {
            return Ok(p.clone());
        }
        let source = source()?;
        let fast_math = math.then_some("gpa_FAST_MATH");
        let p = device.compile_generated(label, &source, entry, fast_math)?;
        self.map
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key.to_string(), p.clone());
        Ok(p)
    }
}
