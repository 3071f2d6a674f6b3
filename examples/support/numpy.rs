//! NumPy's side of the examples' figures: runs `../shared/bench/numpy_baseline.py` (or the script
//! named by `GPUARRAY_NUMPY_BASELINE`) on the same machine, in the same run, with the OpenBLAS
//! variables that slow it down on some machines removed for the child process only.

use std::process::Command;

/// The script's output lines (`name value unit`) for `args`, e.g. `["sum", "26"]`, or why it
/// did not run (no python3, no numpy, no script).
pub fn baseline(args: &[&str]) -> Result<Vec<String>, String> {
    let script = std::env::var("GPUARRAY_NUMPY_BASELINE").unwrap_or_else(|_| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../shared/bench/numpy_baseline.py"
        )
        .to_string()
    });
    if !std::path::Path::new(&script).exists() {
        return Err(format!("{script} not found"));
    }
    run(Command::new("python3").arg(&script).args(args))
}

/// NumPy timings the shared script has no job for: runs `code` with `python3 -c` (same
/// environment handling) and returns its output lines.
#[allow(dead_code)] // only some examples need it
pub fn inline(code: &str) -> Result<Vec<String>, String> {
    run(Command::new("python3").args(["-c", code]))
}

/// NumPy's fastest of `repeats` runs of `code` after `setup` (Python statements, `np`
/// imported), in ms, or `None` with the reason printed.
#[allow(dead_code)] // only some examples need it
pub fn best_ms(setup: &str, code: &str, repeats: usize) -> Option<f64> {
    let script = format!(
        "import numpy as np, timeit\n{setup}\nprint(min(timeit.repeat({code:?}, globals=globals(), number=1, repeat={repeats})) * 1e3, 'ms')"
    );
    match inline(&script) {
        Ok(lines) => lines
            .first()
            .and_then(|l| l.split_whitespace().next()?.parse().ok()),
        Err(why) => {
            println!("  NumPy: {why}");
            None
        }
    }
}

/// Runs a python3 command without the OpenBLAS variables and returns its output lines, or why
/// it failed.
fn run(cmd: &mut Command) -> Result<Vec<String>, String> {
    let out = cmd
        .env_remove("OPENBLAS_CORETYPE")
        .env_remove("OPENBLAS_L2_SIZE")
        .output()
        .map_err(|e| format!("python3 did not run: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "needs python3 with numpy ({})",
            err.trim().lines().last().unwrap_or("no message")
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect())
}

/// The value (the word before the unit) on the first line that starts with `key`.
#[allow(dead_code)] // not every example looks values up
pub fn value(lines: &[String], key: &str) -> Option<String> {
    let line = lines.iter().find(|l| l.starts_with(key))?;
    line.split_whitespace().rev().nth(1).map(str::to_string)
}

/// Prints every line of the baseline for `args` with `prefix`, or why there is none.
#[allow(dead_code)] // not every example prints whole baselines
pub fn print(prefix: &str, args: &[&str]) {
    match baseline(args) {
        Ok(lines) => lines.iter().for_each(|l| println!("{prefix}{l}")),
        Err(why) => println!("{prefix}(NumPy side skipped: {why})"),
    }
}
