//! `Display` of arrays against NumPy's `repr`: every case of `tests/golden/display/repr.txt`
//! (written by NumPy through `tests/golden/display/repr.py`) is built on the device from the same
//! values and view, printed, and compared byte for byte. Also: a summarised array of 10^8
//! elements reads back only its edges, and a failed readback prints as text.

mod common;

use gpuarray::{Array, DType, PrintOptions, SliceArg};

const GOLDEN: &str = include_str!("golden/display/repr.txt");

struct Case {
    name: String,
    dtype: DType,
    shape: Vec<usize>,
    values: Vec<f64>,
    view: String,
    precision: Option<usize>,
    text: String,
}

fn dtype_of(numpy: &str) -> DType {
    DType::from_numpy_name(numpy).unwrap_or_else(|| panic!("unknown dtype {numpy}"))
}

/// The values of a `gen=` spec: `range:START:STEP` or `list:V,...` (as the script makes them).
fn values(spec: &str, n: usize) -> Vec<f64> {
    let (kind, rest) = spec.split_once(':').unwrap();
    match kind {
        "range" => {
            let (start, step) = rest.split_once(':').unwrap();
            let (start, step): (f64, f64) = (start.parse().unwrap(), step.parse().unwrap());
            (0..n).map(|i| start + i as f64 * step).collect()
        }
        "list" if rest.is_empty() => Vec::new(),
        "list" => rest.split(',').map(|v| v.parse().unwrap()).collect(),
        _ => panic!("unknown gen {spec}"),
    }
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    let mut lines = GOLDEN.lines().filter(|l| !l.starts_with('#'));
    while let Some(head) = lines.next() {
        let mut words = head.split(' ');
        assert_eq!(words.next(), Some("case"), "{head}");
        let name = words.next().unwrap().to_string();
        let field = |w: Option<&str>, key: &str| -> String {
            w.and_then(|w| w.strip_prefix(key))
                .unwrap_or_else(|| panic!("{head}: no {key}"))
                .to_string()
        };
        let dtype = dtype_of(&field(words.next(), "dtype="));
        let shape_s = field(words.next(), "shape=");
        let shape: Vec<usize> = if shape_s == "-" {
            vec![]
        } else {
            shape_s.split(',').map(|s| s.parse().unwrap()).collect()
        };
        let r#gen = field(words.next(), "gen=");
        let view = field(words.next(), "view=");
        let p = field(words.next(), "precision=");
        let precision = (p != "-").then(|| p.parse().unwrap());
        let mut text = Vec::new();
        for l in lines.by_ref() {
            if l == "end" {
                break;
            }
            text.push(l);
        }
        let n = shape.iter().product();
        out.push(Case {
            name,
            dtype,
            values: values(&r#gen, n),
            shape,
            view,
            precision,
            text: text.join("\n"),
        });
    }
    out
}

fn apply_view(a: Array, spec: &str) -> Array {
    let full = |nd: usize| vec![SliceArg::full(); nd];
    if spec == "-" {
        a
    } else if spec == "T" {
        a.t()
    } else if let Some(ax) = spec.strip_prefix("rev") {
        let mut args = full(a.ndim());
        args[ax.parse::<usize>().unwrap()] = SliceArg::range(None, None, -1);
        a.slice(&args).unwrap()
    } else if let Some(rest) = spec.strip_prefix("step") {
        let p: Vec<isize> = rest.split(':').map(|v| v.parse().unwrap()).collect();
        let mut args = full(a.ndim());
        args[p[0] as usize] = SliceArg::range(Some(p[1]), None, p[2]);
        a.slice(&args).unwrap()
    } else {
        panic!("unknown view {spec}")
    }
}

#[test]
fn display_matches_numpy_repr() {
    let Some(dev) = common::device() else { return };
    let cases = cases();
    assert!(
        cases.len() >= 50,
        "the golden file has {} cases",
        cases.len()
    );
    let mut failures = Vec::new();
    for c in &cases {
        if !common::supports(&dev, c.dtype, &c.name) {
            continue;
        }
        let a = apply_view(common::upload(&dev, &c.values, &c.shape, c.dtype), &c.view);
        let got = match c.precision {
            Some(p) => format!("{a:.p$}"),
            None => format!("{a}"),
        };
        if got != c.text {
            failures.push(format!(
                "{}:\n--- numpy\n{}\n--- gpuarray\n{got}",
                c.name, c.text
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The same text through `format`, with options other than the defaults: a smaller threshold
/// and edge count summarise a small array (checked against a hand-written NumPy result:
/// `np.set_printoptions(threshold=5, edgeitems=1)`; `repr(np.arange(10, dtype=np.int32))`).
#[test]
fn format_honours_threshold_and_edgeitems() {
    let Some(dev) = common::device() else { return };
    let a = Array::arange(&dev, 0.0, 10.0, 1.0, DType::I32).unwrap();
    let opts = PrintOptions {
        threshold: 5,
        edgeitems: 1,
        ..Default::default()
    };
    assert_eq!(
        a.format(&opts).unwrap(),
        "array([0, ..., 9], shape=(10,), dtype=int32)"
    );
    // The default: not summarised.
    assert_eq!(
        a.format(&PrintOptions::default()).unwrap(),
        "array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], dtype=int32)"
    );
}

/// A summarised array of 10^8 elements reads back its 36 edge elements, not 400 MB: the pool's
/// peak grows by less than a megabyte while it prints. (The array is a broadcast view of 10^4
/// rows, so making it costs 40 kB; a full copy of it would cost 400 MB.)
#[test]
fn printing_a_huge_array_reads_only_its_edges() {
    let Some(dev) = common::device() else { return };
    let row = Array::arange(&dev, 0.0, 10_000.0, 1.0, DType::F32).unwrap();
    let big = row.broadcast_to(&[10_000, 10_000]).unwrap();
    dev.synchronize().unwrap();
    let before = dev.memory_stats().peak_bytes;
    let text = big.to_string();
    let grown = dev.memory_stats().peak_bytes - before;
    assert!(
        grown < 1 << 20,
        "printing grew the pool's peak by {grown} bytes"
    );
    let row_text =
        "[0.000e+00, 1.000e+00, 2.000e+00, ..., 9.997e+03, 9.998e+03,\n        9.999e+03]";
    assert!(text.starts_with(&format!("array([{row_text},")), "{text}");
    assert!(
        text.ends_with("shape=(10000, 10000), dtype=float32)"),
        "{text}"
    );
    assert_eq!(text.matches("9.999e+03").count(), 6, "{text}");
}

/// A readback that fails (the device was destroyed) prints as one line of text naming the
/// error, not a panic, while `format` returns the `Err` itself.
#[test]
fn a_failed_readback_prints_as_text() {
    let Some(dev) = common::device() else { return };
    let a = Array::from_slice(&dev, &[1.0f32, 2.0], &[2]).unwrap();
    dev.destroy();
    let text = format!("{a}");
    assert!(
        text.starts_with("<array of shape (2,), dtype=float32: cannot read it back: ")
            && text.contains("lost"),
        "{text}"
    );
    assert_err!(
        a.format(&PrintOptions::default()),
        gpuarray::Error::DeviceLost { .. },
        "to_vec"
    );
}

/// `Debug` stays the layout summary.
#[test]
fn debug_shows_the_layout() {
    let Some(dev) = common::device() else { return };
    let a = Array::zeros(&dev, &[2, 3], DType::F32).unwrap();
    assert_eq!(
        format!("{:?}", a.t()),
        "Array(shape=[3, 2], dtype=f32, strides=[1, 3], offset=0)"
    );
}
