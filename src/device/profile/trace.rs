//! A [`Profile`] as Chrome trace-event JSON, which Perfetto (ui.perfetto.dev) and
//! `chrome://tracing` open: one track of host calls and waits, one of GPU kernels (or, without
//! GPU timestamps, of submits timed on the CPU, with each launch an instant on the host track).

use super::report::{CallKind, Profile};
use crate::error::{Error, Result};
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

const PID: u32 = 1;
const HOST_TID: u32 = 1;
const GPU_TID: u32 = 2;

/// A JSON string literal.
fn json_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Microseconds, as trace events count time.
fn us(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64() * 1e6)
}

impl Profile {
    /// The trace as a JSON string (see [`Profile::write_chrome_trace`]).
    pub fn chrome_trace_json(&self) -> String {
        let mut events: Vec<String> = vec![
            format!(
                r#"{{"ph":"M","name":"process_name","pid":{PID},"args":{{"name":{}}}}}"#,
                json_str(&format!("gpuarray on {}", self.adapter))
            ),
            format!(
                r#"{{"ph":"M","name":"thread_name","pid":{PID},"tid":{HOST_TID},"args":{{"name":"host calls"}}}}"#
            ),
            format!(
                r#"{{"ph":"M","name":"thread_name","pid":{PID},"tid":{GPU_TID},"args":{{"name":{}}}}}"#,
                json_str(if self.timestamps {
                    "GPU kernels"
                } else {
                    "submits (CPU times only: no GPU timestamps)"
                })
            ),
        ];
        for h in &self.host {
            let cat = match h.kind {
                CallKind::Call => "call",
                CallKind::Wait => "wait",
                CallKind::Compile => "compile",
            };
            events.push(format!(
                r#"{{"ph":"X","cat":"{cat}","name":{},"pid":{PID},"tid":{HOST_TID},"ts":{},"dur":{}}}"#,
                json_str(h.name),
                us(h.start),
                us(h.duration)
            ));
        }
        for l in &self.launches {
            let args = format!(
                r#"{{"call":{},"what":{},"workgroups":"{}x{}x{}","bytes":{},"flops":{}}}"#,
                json_str(l.call),
                json_str(&l.what),
                l.workgroups.0,
                l.workgroups.1,
                l.workgroups.2,
                l.bytes,
                l.flops
            );
            match l.gpu {
                Some(g) => events.push(format!(
                    r#"{{"ph":"X","cat":"kernel","name":{},"pid":{PID},"tid":{GPU_TID},"ts":{},"dur":{},"args":{args}}}"#,
                    json_str(&l.label()),
                    us(g.start),
                    us(g.duration)
                )),
                None => events.push(format!(
                    r#"{{"ph":"i","s":"t","cat":"launch","name":{},"pid":{PID},"tid":{HOST_TID},"ts":{},"args":{args}}}"#,
                    json_str(&l.label()),
                    us(l.recorded_at)
                )),
            }
        }
        if !self.timestamps {
            for (i, s) in self.submits.iter().enumerate() {
                if let (Some(start), Some(cpu)) = (s.submitted, s.cpu_time()) {
                    events.push(format!(
                        r#"{{"ph":"X","cat":"submit","name":"submit {i} ({} launches)","pid":{PID},"tid":{GPU_TID},"ts":{},"dur":{}}}"#,
                        s.launches,
                        us(start),
                        us(cpu)
                    ));
                }
            }
        }
        format!(
            "{{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n{}\n]}}\n",
            events.join(",\n")
        )
    }

    /// Writes the trace as Chrome trace-event JSON to `path` (open it in ui.perfetto.dev or
    /// `chrome://tracing`).
    ///
    /// ```
    /// use gpuarray::{Array, DType, Device};
    /// # fn main() -> gpuarray::Result<()> {
    /// let dev = Device::new()?;
    /// let a = Array::full(&dev, &[64, 64], 1.0, DType::F32)?;
    /// let (_, prof) = dev.profile(|| a.matmul(&a))?;
    /// let path = std::env::temp_dir().join("gpuarray-doc-trace.json");
    /// prof.write_chrome_trace(&path)?;
    /// assert!(std::fs::read_to_string(&path).unwrap().contains("traceEvents"));
    /// # Ok(()) }
    /// ```
    pub fn write_chrome_trace(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        std::fs::write(path, self.chrome_trace_json()).map_err(|e| {
            Error::invalid(
                "write_chrome_trace",
                format!("writing {}: {e}", path.display()),
            )
        })
    }
}
