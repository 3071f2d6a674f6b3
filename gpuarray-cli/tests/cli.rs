//! The `gpuarray` binary, run as a user runs it, on small `.npy` files: results are checked
//! against host references (exact: small integers, permutations) and against the library's own
//! Generator for the same seed; bad arguments are one line on stderr and a non-zero exit.
//!
//! GPU tests follow the crate's rule: without an adapter they print why they skip, unless
//! GPUARRAY_REQUIRE_GPU=1, where a missing adapter fails them.

use gpuarray::random::Generator;
use gpuarray::{Array, DType, Device};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn device() -> Option<Device> {
    match Device::new() {
        Ok(d) => Some(d),
        Err(e) => {
            if std::env::var("GPUARRAY_REQUIRE_GPU").as_deref() == Ok("1") {
                panic!("GPUARRAY_REQUIRE_GPU=1 but no device: {e}");
            }
            println!("skipping GPU test: {e}");
            None
        }
    }
}

fn gpuarray(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpuarray"))
        .args(args)
        .output()
        .expect("running the gpuarray binary")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// stderr without the Vulkan loader's XDG_RUNTIME_DIR complaint (not ours).
fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr)
        .lines()
        .filter(|l| !l.contains("XDG_RUNTIME_DIR"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn ok(o: &Output) -> String {
    assert!(
        o.status.success(),
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status,
        stdout(o),
        stderr(o)
    );
    stdout(o)
}

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpuarray-cli-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn golden(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/golden/npy")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

/// Asserts a failed run: non-zero exit, nothing on stdout, exactly one stderr line starting
/// `gpuarray: error: ` and containing `needle`.
fn fails(args: &[&str], needle: &str) {
    let o = gpuarray(args);
    assert!(!o.status.success(), "{args:?} succeeded: {}", stdout(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{args:?}: not one line: {err:?}");
    assert!(err.starts_with("gpuarray: error: "), "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: {err:?} lacks {needle:?}");
    assert!(stdout(&o).is_empty(), "{args:?}: stdout {:?}", stdout(&o));
}

#[test]
fn info_lists_the_adapter_device_new_picks() {
    let Some(dev) = device() else { return };
    let text = ok(&gpuarray(&["info"]));
    let info = dev.info();
    // The adapter's line: the device's, less how it computes f64 and f16 (a device's own
    // settings).
    let line = info.to_string();
    let adapter = line
        .rsplit_once(" · f64 ")
        .map_or(line.as_str(), |(a, _)| a);
    assert!(
        text.contains(&format!("Device::new() picks: {adapter}")),
        "{text}"
    );
    assert!(text.contains("max_storage_buffer_binding_size"), "{text}");
    let json: serde_json::Value =
        serde_json::from_str(&ok(&gpuarray(&["info", "--json"]))).unwrap();
    let chosen: Vec<_> = json["adapters"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["chosen"] == true)
        .collect();
    assert_eq!(chosen.len(), 1, "{json}");
    assert_eq!(chosen[0]["name"], info.name.as_str());
    for d in DType::ALL {
        let listed = chosen[0]["dtypes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x == d.name());
        assert_eq!(listed, dev.supports(d), "{d}");
    }
    // --adapter picks by name: a name nothing has leaves nothing chosen.
    let none = ok(&gpuarray(&["--adapter", "no such adapter", "info"]));
    assert!(none.contains("picks: none"), "{none}");
}

/// Small integers: every product and sum is exact in f32, so the binary's matmul must equal
/// the naive host matmul exactly.
#[test]
fn matmul_equals_the_naive_host_matmul() {
    let Some(dev) = device() else { return };
    let dir = scratch("matmul");
    let (m, k, n) = (7, 9, 5);
    let a: Vec<f32> = (0..m * k).map(|i| ((i * 7) % 11) as f32 - 5.0).collect();
    let b: Vec<f32> = (0..k * n).map(|i| ((i * 3) % 13) as f32 - 6.0).collect();
    Array::from_slice(&dev, &a, &[m, k])
        .unwrap()
        .save_npy(dir.join("a.npy"))
        .unwrap();
    Array::from_slice(&dev, &b, &[k, n])
        .unwrap()
        .save_npy(dir.join("b.npy"))
        .unwrap();
    let out = dir.join("c.npy");
    let text = ok(&gpuarray(&[
        "matmul",
        s(&dir.join("a.npy")),
        s(&dir.join("b.npy")),
        "-o",
        s(&out),
        "--repeats",
        "2",
    ]));
    assert!(text.contains(&format!("ran on: {}", dev.info())), "{text}");
    assert!(text.contains("matmul: CPU: "), "{text}");
    let c = Array::load_npy(&dev, &out).unwrap();
    assert_eq!(c.shape(), &[m, n]);
    let mut want = vec![0f32; m * n];
    for i in 0..m {
        for j in 0..n {
            want[i * n + j] = (0..k).map(|p| a[i * k + p] * b[p * n + j]).sum();
        }
    }
    assert_eq!(c.to_vec::<f32>().unwrap(), want);
    // --dtype converts the operands first.
    ok(&gpuarray(&[
        "matmul",
        s(&dir.join("a.npy")),
        s(&dir.join("b.npy")),
        "-o",
        s(&out),
        "--dtype",
        "i32",
    ]));
    let ci = Array::load_npy(&dev, &out).unwrap();
    let want_i: Vec<i32> = want.iter().map(|&x| x as i32).collect();
    assert_eq!(ci.to_vec::<i32>().unwrap(), want_i);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// On a committed NumPy golden: a permutation is exact (NaN, infinities and -0 included), and
/// a batched contraction of small integers equals a host loop; `--path` prints the report.
#[test]
fn einsum_on_golden_files() {
    let Some(dev) = device() else { return };
    let dir = scratch("einsum");
    let input = golden("f4_c_le.npy");
    let out = dir.join("t.npy");
    ok(&gpuarray(&["einsum", "ijk->kji", &input, "-o", s(&out)]));
    let src = Array::load_npy(&dev, &input).unwrap();
    let host: Vec<u32> = src
        .to_vec::<f32>()
        .unwrap()
        .iter()
        .map(|x| x.to_bits())
        .collect();
    let got: Vec<u32> = Array::load_npy(&dev, &out)
        .unwrap()
        .to_vec::<f32>()
        .unwrap()
        .iter()
        .map(|x| x.to_bits())
        .collect();
    let (a0, a1, a2) = (3, 4, 5);
    let mut want = Vec::new();
    for k in 0..a2 {
        for j in 0..a1 {
            for i in 0..a0 {
                want.push(host[(i * a1 + j) * a2 + k]);
            }
        }
    }
    assert_eq!(got, want);

    // The seed contraction on the golden int32 file converted to f64, against a host loop
    // (the golden's words are large, so compare in f64 where every product is exact).
    let ints = golden("i4_c_le.npy"); // (3, 4, 5)
    let small: Vec<i32> = (0..3 * 5 * 2).map(|i| (i % 7) - 3).collect();
    let b_path = dir.join("b.npy");
    Array::from_slice(&dev, &small, &[3, 5, 2])
        .unwrap()
        .save_npy(&b_path)
        .unwrap();
    let c_path = dir.join("c.npy");
    let text = ok(&gpuarray(&[
        "einsum",
        "ijk,ikm->ijm",
        &ints,
        s(&b_path),
        "--dtype",
        "f64",
        "--path",
        "-o",
        s(&c_path),
    ]));
    assert!(
        text.contains("Complete contraction:  ijk,ikm->ijm"),
        "{text}"
    );
    assert!(text.contains("einsum ijk,ikm->ijm: CPU: "), "{text}");
    let a: Vec<f64> = Array::load_npy(&dev, &ints)
        .unwrap()
        .to_vec::<i32>()
        .unwrap()
        .iter()
        .map(|&x| f64::from(x))
        .collect();
    let c = Array::load_npy(&dev, &c_path).unwrap();
    assert_eq!((c.shape(), c.dtype()), (&[3usize, 4, 2][..], DType::F64));
    let mut want = vec![0f64; 3 * 4 * 2];
    for i in 0..3 {
        for j in 0..4 {
            for m in 0..2 {
                want[(i * 4 + j) * 2 + m] = (0..5)
                    .map(|k| a[(i * 4 + j) * 5 + k] * f64::from(small[(i * 5 + k) * 2 + m]))
                    .sum();
            }
        }
    }
    assert_eq!(c.to_vec::<f64>().unwrap(), want);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The binary's samples are the library's Generator's for the same seed, bit for bit.
#[test]
fn random_equals_the_generator_for_the_same_seed() {
    let Some(dev) = device() else { return };
    let dir = scratch("random");
    let x = dir.join("x.npy");
    ok(&gpuarray(&[
        "random",
        "normal",
        "100",
        "10",
        "--seed",
        "42",
        "-o",
        s(&x),
    ]));
    let got = Array::load_npy(&dev, &x).unwrap();
    let want = Generator::new(&dev, 42)
        .normal(0.0, 1.0, &[100, 10], DType::F32)
        .unwrap();
    assert_eq!(got.shape(), &[100, 10]);
    let bits = |a: &Array| -> Vec<u32> {
        a.to_vec::<f32>()
            .unwrap()
            .iter()
            .map(|v| v.to_bits())
            .collect()
    };
    assert_eq!(bits(&got), bits(&want));
    ok(&gpuarray(&[
        "random",
        "uniform",
        "50",
        "--low",
        "-2",
        "--high",
        "3",
        "--seed",
        "7",
        "-o",
        s(&x),
    ]));
    let want = Generator::new(&dev, 7)
        .uniform(-2.0, 3.0, &[50], DType::F32)
        .unwrap();
    assert_eq!(bits(&Array::load_npy(&dev, &x).unwrap()), bits(&want));
    ok(&gpuarray(&[
        "random",
        "integers",
        "64",
        "--low",
        "-5",
        "--high",
        "5",
        "--seed",
        "3",
        "-o",
        s(&x),
    ]));
    let want = Generator::new(&dev, 3)
        .integers(-5, 5, &[64], DType::I32)
        .unwrap();
    assert_eq!(
        Array::load_npy(&dev, &x).unwrap().to_vec::<i32>().unwrap(),
        want.to_vec::<i32>().unwrap()
    );
    // Without -o the samples are printed as NumPy would print them.
    let printed = ok(&gpuarray(&["random", "normal", "4", "--seed", "42"]));
    let want = Generator::new(&dev, 42)
        .normal(0.0, 1.0, &[4], DType::F32)
        .unwrap();
    assert_eq!(printed.trim_end(), want.to_string());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bench_runs_small_and_prints_json() {
    let Some(dev) = device() else { return };
    // The families plan: bench waits for the whole start-up plan before timing, and the eager
    // one (the default, tested in tests/startup.rs) keeps lavapipe's two cores busy for about
    // 90 s compiling every element-wise variant.
    let dir = scratch("bench_chart");
    let chart = dir.join("bench.svg");
    let out = ok(&gpuarray(&[
        "bench",
        "all",
        "--size",
        "tiny",
        "--repeats",
        "1",
        "--json",
        "--compile",
        "families",
        "--chart",
        s(&chart),
    ]));
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    // The chart of the run: a bar per figure for us (and NumPy's where it ran), each figure's
    // label, and the same chart `gpuarray chart` draws from the printed JSON.
    let svg = std::fs::read_to_string(&chart).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
        "{svg}"
    );
    for f in json["figures"].as_array().unwrap() {
        let label = f["what"].as_str().unwrap().replace('>', "&gt;");
        assert!(svg.contains(&label), "{svg}");
    }
    let figures = dir.join("bench.json");
    std::fs::write(&figures, &out).unwrap();
    let redrawn = dir.join("redrawn.svg");
    ok(&gpuarray(&["chart", s(&figures), "-o", s(&redrawn)]));
    assert_eq!(std::fs::read_to_string(&redrawn).unwrap(), svg);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(json["adapter"], dev.info().to_string());
    let figs = json["figures"].as_array().unwrap();
    let keys: Vec<&str> = figs.iter().map(|f| f["figure"].as_str().unwrap()).collect();
    assert_eq!(keys, ["seed", "matmul", "random", "add", "sum"]);
    for f in figs {
        let v = f["gpuarray"].as_f64().unwrap();
        assert!(v.is_finite() && v > 0.0, "{f}");
    }
    let has_numpy = Command::new("python3")
        .args(["-c", "import numpy"])
        .output()
        .is_ok_and(|o| o.status.success());
    if has_numpy {
        assert!(
            figs.iter()
                .all(|f| f["numpy"].as_f64().is_some_and(|v| v > 0.0)),
            "{json}"
        );
    } else {
        assert!(json["numpy_skipped"].is_string(), "{json}");
        println!("NumPy side skipped: python3 with numpy is not installed");
    }
    let text = ok(&gpuarray(&[
        "bench",
        "ops",
        "--size",
        "tiny",
        "--repeats",
        "1",
        "--no-numpy",
        "--compile",
        "families",
    ]));
    assert!(text.contains("add 16384 + 16384 f32"), "{text}");
    assert!(text.contains(&format!("adapter: {}", dev.info())), "{text}");
}

/// BENCHMARKS.md opens with `docs/headline.svg`, drawn by `gpuarray chart` from the recorded
/// figures in `docs/headline.json`: the committed chart must be the one those figures make (run
/// the command in the message after changing them). Needs no device.
#[test]
fn the_benchmarks_chart_is_drawn_from_the_recorded_figures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let figures = root.join("docs/headline.json");
    let committed = std::fs::read_to_string(root.join("docs/headline.svg")).unwrap();
    let dir = scratch("headline_chart");
    let drawn = dir.join("headline.svg");
    ok(&gpuarray(&["chart", s(&figures), "-o", s(&drawn)]));
    let drawn_text = std::fs::read_to_string(&drawn).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        drawn_text == committed,
        "docs/headline.svg is not the chart of docs/headline.json: run \
         `cargo run --release -p gpuarray-cli -- chart docs/headline.json -o docs/headline.svg`"
    );
    // One pair of bars per recorded figure (plus the white background).
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&figures).unwrap()).unwrap();
    let n = json["figures"].as_array().unwrap().len();
    assert!(n >= 10, "{n} figures");
    assert_eq!(committed.matches("<rect ").count(), 2 * n + 1);
    // And a broken file is a one-line error, not a panic.
    let bad = scratch("headline_chart_bad");
    let broken = bad.join("broken.json");
    std::fs::write(&broken, "{\"figures\": 3}").unwrap();
    let o = gpuarray(&["chart", s(&broken), "-o", s(&bad.join("x.svg"))]);
    assert!(
        !o.status.success() && stderr(&o).contains("figures"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(&bad).unwrap();
}

#[test]
fn bad_arguments_are_one_line_errors() {
    fails(&["bogus"], "unrecognized subcommand 'bogus'");
    fails(&["matmul"], "required arguments");
    fails(&["--backend", "vulcan", "info"], "unknown backend");
    fails(&["random", "normal", "3", "--dtype", "f8"], "unknown dtype");
    fails(&["bench", "--size", "huge"], "huge");
    fails(&["bench", "--repeats", "0"], "0");
    fails(&["bench", "--compile", "sometimes"], "sometimes");
    let Some(_dev) = device() else { return };
    fails(
        &["matmul", "missing-a.npy", "missing-b.npy"],
        "load_npy: missing-a.npy",
    );
    let g = golden("f4_c_le.npy");
    fails(&["einsum", "ij,jk->ik", &g, &g], "einsum:");
    fails(&["matmul", &g, &golden("i4_1d.npy")], "matmul");
    fails(&["einsum", "i->i", &golden("unsupported_str.npy")], "str");
    // A complex64 file (refused before complex existed) loads and prints as NumPy's repr.
    let c = gpuarray(&["einsum", "i->i", &golden("unsupported_complex64.npy")]);
    ok(&c);
    assert!(
        stdout(&c).contains("array([1.+0.j, 1.+0.j], dtype=complex64)"),
        "{}",
        stdout(&c)
    );
    // An int64 file (refused before int64 existed) loads and contracts exactly: 0+1+2+3.
    let o = gpuarray(&["einsum", "i->", &golden("unsupported_int64.npy")]);
    ok(&o);
    assert!(stdout(&o).contains("array(6)"), "{}", stdout(&o));
    fails(
        &["random", "integers", "3", "--low", "5", "--high", "5"],
        "integers",
    );
    fails(
        &["--adapter", "no such adapter", "matmul", &g, &g],
        "no adapter",
    );
}
