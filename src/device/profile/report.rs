//! What a profile found: every launch with its GPU time, the host calls and submits around them,
//! and a per-kernel table (`Display`, like `torch.profiler`'s `key_averages()`).

use std::fmt;
use std::time::Duration;

/// Whether a host span is an API call, a wait for the GPU, or a wait for a kernel to compile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallKind {
    /// An op recording work (`matmul`, `add`, `einsum`, ...).
    Call,
    /// A wait for the device (`to_vec`, `synchronize`, ...).
    Wait,
    /// A call's wait for its kernel's pipeline: compiled on this thread (first use) or by a
    /// background worker of the start-up plan. Recorded inside the call that needed it.
    Compile,
}

/// When a kernel ran on the GPU, on the profile's timeline (time since the profile started).
/// GPU clocks have their own epoch: the profile places them so that no batch starts before
/// the host submitted it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GpuSpan {
    /// Start, since the profile started.
    pub start: Duration,
    /// End minus start of the pass's timestamps.
    pub duration: Duration,
}

/// One kernel launch.
#[derive(Debug, Clone)]
pub struct LaunchProfile {
    /// The kernel (`matmul_sgb`, `binary_float_vec4`, `reduce_rows`, ...).
    pub kernel: String,
    /// Its dtype variant (`f32`, `f32->f16`).
    pub variant: String,
    /// The override constants that specialise it (op code, tile, rows), as `{NAME=value,...}`;
    /// empty when it has none beyond the workgroup size.
    pub constants: String,
    /// The outermost API call that made the launch (`matmul`, `add`, `einsum`, ...).
    pub call: &'static str,
    /// What the launch covers (shape, elements or matrix sizes).
    pub what: String,
    /// The workgroup grid.
    pub workgroups: (u32, u32, u32),
    /// Bytes of the storage windows the launch binds (its operands and result: what it reads
    /// and writes at least once).
    pub bytes: u64,
    /// Arithmetic operations where the launch knows them (2·m·n·k for a matmul, one per element
    /// for element-wise ops and reductions), else 0.
    pub flops: u64,
    /// When the host recorded it, since the profile started.
    pub recorded_at: Duration,
    /// Index of its submit in [`Profile::submits`].
    pub submit: usize,
    /// Its GPU time; `None` without GPU timestamps.
    pub gpu: Option<GpuSpan>,
}

impl LaunchProfile {
    /// `kernel[variant]{constants}`, the pipeline's label (as `GPUARRAY_LOG` prints it).
    pub fn label(&self) -> String {
        format!("{}[{}]{}", self.kernel, self.variant, self.constants)
    }
}

/// A host span: an API call or a wait.
#[derive(Debug, Clone)]
pub struct HostSpan {
    /// The op's name.
    pub name: &'static str,
    /// Call or wait.
    pub kind: CallKind,
    /// Start, since the profile started.
    pub start: Duration,
    /// How long it took on the host.
    pub duration: Duration,
}

/// One submit that carried profiled launches.
#[derive(Debug, Clone)]
pub struct SubmitSpan {
    /// When it was submitted, since the profile started.
    pub submitted: Option<Duration>,
    /// When the host saw it finish (a poll after the GPU finished), since the profile started.
    pub done: Option<Duration>,
    /// Profiled launches it carried.
    pub launches: usize,
}

impl SubmitSpan {
    /// Submit to done as the host saw it: the CPU-side time of the submit.
    pub fn cpu_time(&self) -> Option<Duration> {
        Some(self.done?.saturating_sub(self.submitted?))
    }
}

/// One row of the per-kernel table.
#[derive(Debug, Clone)]
pub struct KernelSummary {
    /// `kernel[variant]{constants}`.
    pub label: String,
    /// Launches.
    pub calls: usize,
    /// Sum of their GPU times; `None` without GPU timestamps.
    pub gpu_total: Option<Duration>,
    /// Sum of their bound bytes.
    pub bytes: u64,
    /// Sum of their FLOPs.
    pub flops: u64,
}

impl KernelSummary {
    /// Mean GPU time per launch.
    pub fn gpu_mean(&self) -> Option<Duration> {
        Some(self.gpu_total? / self.calls.max(1) as u32)
    }
    /// Bound bytes per GPU second, in GB/s.
    pub fn gb_per_s(&self) -> Option<f64> {
        rate(self.bytes, self.gpu_total?)
    }
    /// FLOPs per GPU second, in GFLOP/s (`None` when the kernel counts none).
    pub fn gflop_per_s(&self) -> Option<f64> {
        (self.flops > 0).then_some(())?;
        rate(self.flops, self.gpu_total?)
    }
}

fn rate(units: u64, time: Duration) -> Option<f64> {
    (time > Duration::ZERO).then(|| units as f64 / time.as_secs_f64() / 1e9)
}

/// Every launch made inside [`Device::profile`](crate::Device::profile) (or a whole run under
/// `GPUARRAY_PROFILE`), with the host calls and submits around them.
///
/// ```
/// use gpuarray::{Array, DType, Device};
/// # fn main() -> gpuarray::Result<()> {
/// let dev = Device::new()?;
/// let a = Array::full(&dev, &[1000], 1.5, DType::F32)?;
/// let (sum, prof) = dev.profile(|| a.add(&a)?.sum(gpuarray::Axes::All, false))?;
/// assert_eq!(sum?.item::<f32>()?, 3000.0);
/// for row in prof.kernels() {
///     println!("{} x{}", row.label, row.calls);
/// }
/// if let Some(gpu) = prof.gpu_total() {
///     assert!(gpu <= prof.wall);
/// }
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct Profile {
    /// The adapter, as [`DeviceInfo`](crate::DeviceInfo) prints it.
    pub adapter: String,
    /// Whether GPU times come from timestamp queries (else CPU times per submit only).
    pub timestamps: bool,
    /// Wall time of the closure plus the wait for the device to finish its work.
    pub wall: Duration,
    /// Every launch, in recording order.
    pub launches: Vec<LaunchProfile>,
    /// The outermost API calls and waits on the profiled thread.
    pub host: Vec<HostSpan>,
    /// The submits that carried the launches.
    pub submits: Vec<SubmitSpan>,
}

impl Profile {
    /// Total GPU time of the launches; `None` without GPU timestamps.
    pub fn gpu_total(&self) -> Option<Duration> {
        if !self.timestamps {
            return None;
        }
        Some(
            self.launches
                .iter()
                .filter_map(|l| l.gpu)
                .map(|g| g.duration)
                .sum(),
        )
    }

    /// Total CPU-side submit-to-done time of the submits.
    pub fn submit_cpu_total(&self) -> Duration {
        self.submits.iter().filter_map(SubmitSpan::cpu_time).sum()
    }

    /// One row per pipeline (`kernel[variant]{constants}`), by GPU time (or by calls without timestamps), largest
    /// first.
    pub fn kernels(&self) -> Vec<KernelSummary> {
        let mut rows: Vec<KernelSummary> = Vec::new();
        for l in &self.launches {
            let label = l.label();
            let i = match rows.iter().position(|r| r.label == label) {
                Some(i) => i,
                None => {
                    rows.push(KernelSummary {
                        label,
                        calls: 0,
                        gpu_total: self.timestamps.then_some(Duration::ZERO),
                        bytes: 0,
                        flops: 0,
                    });
                    rows.len() - 1
                }
            };
            let r = &mut rows[i];
            r.calls += 1;
            r.bytes += l.bytes;
            r.flops += l.flops;
            if let (Some(total), Some(g)) = (r.gpu_total.as_mut(), l.gpu) {
                *total += g.duration;
            }
        }
        rows.sort_by(|a, b| b.gpu_total.cmp(&a.gpu_total).then(b.calls.cmp(&a.calls)));
        rows
    }

    /// The line every report carries when the adapter cannot time on the GPU.
    pub fn cpu_only_note(&self) -> Option<String> {
        (!self.timestamps).then(|| {
            format!(
                "GPU timestamps unavailable on {}: CPU times only",
                self.adapter
            )
        })
    }
}

/// Milliseconds with three decimals.
fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "profile on {}", self.adapter)?;
        if let Some(note) = self.cpu_only_note() {
            writeln!(f, "{note}")?;
        }
        write!(
            f,
            "wall {} (closure + synchronize), {} launches in {} submits",
            ms(self.wall),
            self.launches.len(),
            self.submits.len()
        )?;
        match self.gpu_total() {
            Some(gpu) => writeln!(f, ", GPU busy {}", ms(gpu))?,
            None => writeln!(f, ", submit to done (CPU) {}", ms(self.submit_cpu_total()))?,
        }
        let compiles: Vec<&HostSpan> = self
            .host
            .iter()
            .filter(|h| h.kind == CallKind::Compile)
            .collect();
        if !compiles.is_empty() {
            let waited: Duration = compiles.iter().map(|h| h.duration).sum();
            writeln!(
                f,
                "{} calls waited {} for kernels to compile (see Device::wait_compiled)",
                compiles.len(),
                ms(waited)
            )?;
        }
        let rows = self.kernels();
        let width = rows.iter().map(|r| r.label.len()).max().unwrap_or(6).max(6);
        writeln!(
            f,
            "{:<width$} {:>6} {:>13} {:>13} {:>7} {:>9} {:>9}",
            "kernel", "calls", "GPU total", "GPU mean", "share", "GB/s", "GFLOP/s"
        )?;
        let total = self.gpu_total().unwrap_or_default();
        let opt = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.2}"));
        for r in rows {
            let share = match r.gpu_total {
                Some(t) if total > Duration::ZERO => {
                    format!("{:.1}%", 100.0 * t.as_secs_f64() / total.as_secs_f64())
                }
                _ => "-".into(),
            };
            writeln!(
                f,
                "{:<width$} {:>6} {:>13} {:>13} {:>7} {:>9} {:>9}",
                r.label,
                r.calls,
                r.gpu_total.map_or("-".into(), ms),
                r.gpu_mean().map_or("-".into(), ms),
                share,
                opt(r.gb_per_s()),
                opt(r.gflop_per_s()),
            )?;
        }
        Ok(())
    }
}
