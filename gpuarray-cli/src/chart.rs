//! Benchmark figures as a chart (SVG, text: no image library, renders anywhere a browser or
//! GitHub does): one pair of bars per figure, gpuarray against NumPy in the figure's own unit
//! (higher is better), each pair scaled to its larger bar, with the ratio beside it. `gpuarray
//! bench --chart FILE` draws its run; `gpuarray chart FIGURES.json -o FILE` draws the figures a
//! `bench --json` run recorded (BENCHMARKS.md's opening chart).

use crate::CliResult;
use serde_json::Value;

/// One figure of the chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    pub label: String,
    pub unit: String,
    pub ours: f64,
    pub numpy: Option<f64>,
}

/// The figures of a `gpuarray bench --json` output, with its adapter line.
pub fn from_bench_json(text: &str) -> CliResult<(String, Vec<Bar>)> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("not bench JSON: {e}"))?;
    let adapter = v["adapter"]
        .as_str()
        .unwrap_or("unknown adapter")
        .to_string();
    let figures = v["figures"]
        .as_array()
        .ok_or("bench JSON without a \"figures\" list")?;
    let bars = figures
        .iter()
        .map(|f| {
            Ok(Bar {
                label: f["what"]
                    .as_str()
                    .ok_or("a figure without \"what\"")?
                    .to_string(),
                unit: f["unit"].as_str().unwrap_or("").to_string(),
                ours: f["gpuarray"]
                    .as_f64()
                    .ok_or("a figure without a \"gpuarray\" number")?,
                numpy: f["numpy"].as_f64(),
            })
        })
        .collect::<CliResult<Vec<Bar>>>()?;
    if bars.is_empty() {
        return Err("bench JSON with no figures".into());
    }
    Ok((adapter, bars))
}

/// XML text: `&`, `<`, `>` and quotes escaped.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A figure's value with three significant digits.
fn number(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// The chart: a title, a note under it (the adapter, what the figures are), the bars.
pub fn svg(title: &str, note: &str, bars: &[Bar]) -> String {
    const WIDTH: f64 = 920.0;
    const LABEL: f64 = 300.0;
    const BAR_MAX: f64 = 260.0;
    const BAR: f64 = 14.0;
    let height = 62.0 + bars.len() as f64 * (2.0 * BAR + 16.0) + 24.0;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" \
         viewBox=\"0 0 {WIDTH} {height}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"8\" y=\"20\" font-size=\"15\" font-weight=\"bold\">{}</text>\n\
         <text x=\"8\" y=\"38\" fill=\"#555\">{}</text>\n",
        escape(title),
        escape(note)
    );
    let mut y = 56.0;
    for b in bars {
        let top = b.ours.max(b.numpy.unwrap_or(0.0)).max(f64::MIN_POSITIVE);
        out += &format!(
            "<text x=\"8\" y=\"{:.1}\">{}</text>\n",
            y + BAR + 4.0,
            escape(&b.label)
        );
        for (who, value, colour) in [
            ("gpuarray", Some(b.ours), "#2b6cb0"),
            ("NumPy", b.numpy, "#c05621"),
        ] {
            let text = match value {
                Some(v) => format!("{who} {} {}", number(v), b.unit),
                None => format!("{who}: not measured"),
            };
            let w = value.map_or(0.0, |v| (v / top * BAR_MAX).max(1.0));
            out += &format!(
                "<rect x=\"{LABEL}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{BAR}\" fill=\"{colour}\"/>\n\
                 <text x=\"{:.1}\" y=\"{:.1}\">{}</text>\n",
                LABEL + w + 5.0,
                y + BAR - 3.0,
                escape(&text)
            );
            y += BAR + 2.0;
        }
        if let Some(n) = b.numpy.filter(|&n| n > 0.0) {
            out += &format!(
                "<text x=\"{:.1}\" y=\"{:.1}\" font-weight=\"bold\">{:.2}× NumPy</text>\n",
                WIDTH - 110.0,
                y - BAR + 1.0,
                b.ours / n
            );
        }
        y += 12.0;
    }
    out += &format!(
        "<text x=\"8\" y=\"{:.1}\" fill=\"#555\">higher is better; each pair is scaled to its \
         larger bar</text>\n</svg>\n",
        y + 12.0
    );
    out
}

/// `gpuarray chart FIGURES.json -o FILE.svg`.
pub fn run(figures: &std::path::Path, out: &std::path::Path) -> CliResult<()> {
    let text = std::fs::read_to_string(figures)
        .map_err(|e| format!("reading {}: {e}", figures.display()))?;
    let (adapter, bars) = from_bench_json(&text)?;
    write(out, &adapter, &bars)
}

/// Writes the chart of `bars`, measured on `adapter`, to `out`.
pub fn write(out: &std::path::Path, adapter: &str, bars: &[Bar]) -> CliResult<()> {
    let note = format!("{adapter}; best wall times after synchronising");
    std::fs::write(out, svg("gpuarray and NumPy", &note, bars))
        .map_err(|e| format!("writing {}: {e}", out.display()))
}
