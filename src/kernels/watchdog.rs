//! Loops in user text run on a budget, so a kernel that would run forever stops: the body of
//! each loop of the user's text begins with `if (gpa_tick()) { break; }`, which counts the
//! iterations of all loops of the invocation together; past the budget it sets the device's
//! watchdog word and the loop stops. A call whose text loops then reads the word back (natively)
//! and is `Err(Timeout)`, and the device goes on; in a browser, where nothing may wait, the
//! budget still ends the kernel. Text without loops is left as it is and binds no watchdog.
//!
//! The budget is [`BUDGET`] iterations per invocation, and [`CPU_BUDGET`] on CPU adapters:
//! lavapipe itself leaves every loop of an invocation, silently, once they have run 65535
//! iterations together (a loop of 50,000 followed by another of 50,000 runs the second 15,534
//! times), so more iterations there are made an error instead of a wrong result.

use super::text::{Edits, identifiers};
use crate::array::Array;
use crate::device::{Binding, DeviceInner};
use crate::error::Result;
use std::sync::Mutex;

/// Iterations the loops of one invocation may run together.
pub(crate) const BUDGET: u32 = 1 << 26;
/// The budget on CPU adapters, below lavapipe's own cut at 65535 (which counts our skeleton's
/// loops too).
pub(crate) const CPU_BUDGET: u32 = 60_000;

/// The loop budget on `device`'s adapter.
pub(crate) fn budget(device: &DeviceInner) -> u32 {
    if device.is_cpu { CPU_BUDGET } else { BUDGET }
}

/// Whether any of `texts` has a loop.
pub(crate) fn loops(texts: &[&str]) -> bool {
    texts.iter().any(|t| {
        identifiers(t)
            .iter()
            .any(|id| matches!(&t[id.start..id.end], "loop" | "for" | "while"))
    })
}

/// `text` with the budget's check at the start of each loop's body, and the insertions as edits.
pub(crate) fn guard_loops(text: &str) -> (String, Edits) {
    let mut inserts: Vec<(usize, String)> = Vec::new();
    for id in identifiers(text) {
        if !matches!(&text[id.start..id.end], "loop" | "for" | "while") {
            continue;
        }
        // The body's brace: the first `{` outside parentheses after the keyword.
        let mut depth = 0i32;
        for (i, c) in text[id.end..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                '{' if depth == 0 => {
                    inserts.push((id.end + i + 1, " if (gpa_tick()) { break; }".to_string()));
                    break;
                }
                _ => {}
            }
        }
    }
    inserts.sort_by_key(|(at, _)| *at);
    let mut out = String::with_capacity(text.len() + inserts.len() * 40);
    let mut edits = Vec::new();
    let mut last = 0;
    for (at, what) in inserts {
        out.push_str(&text[last..at]);
        edits.push((out.len(), what.len(), 0));
        out.push_str(&what);
        last = at;
    }
    out.push_str(&text[last..]);
    (out, edits)
}

/// Our WGSL of the budget: the watchdog word at `binding` and `tick` (`budget` iterations of
/// all loops of an invocation together).
pub(crate) fn wgsl(binding: u32, budget: u32) -> String {
    format!(
        "@group(0) @binding({binding}) var<storage, read_write> watchdog: array<atomic<u32>>;\n\
         var<private> gpa_ticks: u32 = 0u;\n\
         fn gpa_tick() -> bool {{\n    gpa_ticks += 1u;\n    \
         if (gpa_ticks > {budget}u) {{\n        atomicStore(&watchdog[0], 1u);\n        return true;\n    }}\n    \
         return false;\n}}\n"
    )
}

/// A device's watchdog word (a device extension).
#[derive(Default)]
pub(crate) struct Watchdog {
    word: Mutex<Option<Array>>,
}

impl Watchdog {
    /// The word's array (made zero on first use).
    pub fn word(&self, device: &crate::Device) -> Result<Array> {
        let mut w = self.word.lock().unwrap_or_else(|e| e.into_inner());
        if w.is_none() {
            *w = Some(Array::zeros(device, &[1], crate::DType::U32)?);
        }
        Ok(w.clone().expect("set above"))
    }

    /// After a launch that bound the word: `Err(Timeout)` if an invocation ran out of budget
    /// (the word is then replaced by a fresh zero one). Natively only.
    pub fn check(
        &self,
        inner: &DeviceInner,
        op: &'static str,
        started: web_time::Instant,
    ) -> Result<()> {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let Some(word) = self.word.lock().unwrap_or_else(|e| e.into_inner()).clone() else {
                return Ok(());
            };
            let mut bytes = [0u8; 4];
            let buffer = word.storage.buffer().expect("one element");
            crate::device::read_bytes(inner, buffer, 0, 4, 0, &mut bytes)?;
            if u32::from_le_bytes(bytes) != 0 {
                *self.word.lock().unwrap_or_else(|e| e.into_inner()) = None;
                return Err(crate::error::Error::Timeout {
                    op,
                    after: started.elapsed(),
                });
            }
        }
        let _ = (inner, op, started);
        Ok(())
    }
}

/// The binding of the word.
pub(crate) fn binding(word: &Array) -> Binding<'_> {
    Binding {
        buffer: word.storage.buffer().expect("one element"),
        offset: 0,
        size: 4,
    }
}
