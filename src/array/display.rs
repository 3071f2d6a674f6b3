//! Printing arrays the way NumPy's `repr` does: `array([[1., 2.],\n       [3., 4.]],
//! dtype=float32)`.
//!
//! The text follows `numpy/_core/arrayprint.py` (NumPy 2.x, default print options): nested
//! brackets with a hanging indent, columns padded to one width, lines wrapped at 75 characters,
//! `...` past 1000 elements with 3 items at each edge of every long axis, `shape=` for summarised
//! and empty arrays, `dtype=` unless the dtype is NumPy's default float (`float64`) or `bool`.
//! Floats are printed like NumPy's `maxprec` float mode: the shortest digits that round-trip in
//! the array's own precision, at most `precision` (8) after the point, with `.` after whole
//! numbers, and scientific notation when NumPy chooses it (a non-zero magnitude under 1e-4 or from
//! 1e8, or a ratio of largest to smallest over 1000).
//!
//! Only the shown elements are read back: the edge blocks of a summarised array are gathered on
//! the device through one strided view (each long axis split into "which edge" × "which item")
//! and one copy, so printing a 10^8-element array moves a few hundred bytes.

use super::Array;
use super::float_format::FloatFormat;
use crate::dtype::DType;
use crate::error::Result;
use crate::layout::Layout;
use std::fmt;

/// How [`Array::format`] prints: NumPy's `np.set_printoptions` fields that matter here.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let a = gpuarray::Array::from_slice(&dev, &[1.0f64 / 3.0, 2.0], &[2])?;
/// let opts = gpuarray::PrintOptions { precision: 3, ..Default::default() };
/// assert_eq!(a.format(&opts)?, "array([0.333, 2.   ])");
/// assert_eq!(format!("{a:.3}"), "array([0.333, 2.   ])"); // the same through Display
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrintOptions {
    /// Most digits after the decimal point of a float (NumPy's `precision`, default 8).
    pub precision: usize,
    /// Arrays with more elements than this are summarised (NumPy's `threshold`, default 1000).
    pub threshold: usize,
    /// Items shown at each edge of a summarised axis (NumPy's `edgeitems`, default 3).
    pub edgeitems: usize,
    /// Characters per line (NumPy's `linewidth`, default 75).
    pub linewidth: usize,
}

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions {
            precision: 8,
            threshold: 1000,
            edgeitems: 3,
            linewidth: 75,
        }
    }
}

/// The elements to print, in row-major order of the shown shape.
enum Values {
    Float(Vec<f64>),
    /// Real and imaginary parts.
    Complex(Vec<f64>, Vec<f64>),
    Int(Vec<i128>),
    Bool(Vec<bool>),
}

/// What to read back: the view of the shown elements and which axes are summarised.
struct Plan {
    /// The shown elements (a strided view of the array; no copy yet).
    view: Array,
    /// Per axis of the array: whether it is cut to `2 * edgeitems` items.
    summarised: Vec<bool>,
}

impl Array {
    /// NumPy's `repr` of this array with `options`; reads back only the elements it shows.
    /// `Display` (`format!("{a}")`, `{a:.3}` for 3 digits) is this with the default options;
    /// this form returns the readback's `Err` instead of printing it.
    ///
    /// Native only (it blocks); on wasm32 use [`Array::format_async`].
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0, 4.0], &[2, 2])?;
    /// let text = a.format(&gpuarray::PrintOptions::default())?;
    /// assert_eq!(text, "array([[1., 2.],\n       [3., 4.]], dtype=float32)");
    /// # Ok(()) }
    /// ```
    #[cfg(not(target_arch = "wasm32"))]
    pub fn format(&self, options: &PrintOptions) -> Result<String> {
        let plan = self.print_plan(options)?;
        let v = &plan.view;
        macro_rules! read {
            ($t:ty, $kind:ident, $wide:ty) => {
                Values::$kind(v.to_vec::<$t>()?.into_iter().map(<$wide>::from).collect())
            };
        }
        let values = match v.dtype {
            DType::F32 => read!(f32, Float, f64),
            DType::F16 => read!(half::f16, Float, f64),
            DType::F64 => Values::Float(v.to_vec::<f64>()?),
            DType::I32 => read!(i32, Int, i128),
            DType::U32 => read!(u32, Int, i128),
            DType::I64 => read!(i64, Int, i128),
            DType::U64 => read!(u64, Int, i128),
            DType::I8 => read!(i8, Int, i128),
            DType::U8 => read!(u8, Int, i128),
            DType::I16 => read!(i16, Int, i128),
            DType::U16 => read!(u16, Int, i128),
            DType::Bool => Values::Bool(v.to_vec_bool()?),
            DType::C64 => complex_values(v.to_vec::<num_complex::Complex<f32>>()?, f64::from),
            DType::C128 => complex_values(v.to_vec::<num_complex::Complex<f64>>()?, |x| x),
        };
        Ok(self.render(options, &plan, &values))
    }

    /// [`Array::format`] for async callers (and wasm32).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> { pollster::block_on(async {
    /// # let dev = gpuarray::Device::new_async().await?;
    /// let a = gpuarray::Array::from_bools(&dev, &[true, false], &[2])?;
    /// let text = a.format_async(&Default::default()).await?;
    /// assert_eq!(text, "array([ True, False])");
    /// # Ok(()) }) }
    /// ```
    pub async fn format_async(&self, options: &PrintOptions) -> Result<String> {
        let plan = self.print_plan(options)?;
        let v = &plan.view;
        macro_rules! read {
            ($t:ty, $kind:ident, $wide:ty) => {
                Values::$kind(
                    v.to_vec_async::<$t>()
                        .await?
                        .into_iter()
                        .map(<$wide>::from)
                        .collect(),
                )
            };
        }
        let values = match v.dtype {
            DType::F32 => read!(f32, Float, f64),
            DType::F16 => read!(half::f16, Float, f64),
            DType::F64 => Values::Float(v.to_vec_async::<f64>().await?),
            DType::I32 => read!(i32, Int, i128),
            DType::U32 => read!(u32, Int, i128),
            DType::I64 => read!(i64, Int, i128),
            DType::U64 => read!(u64, Int, i128),
            DType::I8 => read!(i8, Int, i128),
            DType::U8 => read!(u8, Int, i128),
            DType::I16 => read!(i16, Int, i128),
            DType::U16 => read!(u16, Int, i128),
            DType::Bool => Values::Bool(v.to_vec_bool_async().await?),
            DType::C64 => complex_values(
                v.to_vec_async::<num_complex::Complex<f32>>().await?,
                f64::from,
            ),
            DType::C128 => {
                complex_values(v.to_vec_async::<num_complex::Complex<f64>>().await?, |x| x)
            }
        };
        Ok(self.render(options, &plan, &values))
    }

    /// The view of the elements NumPy shows. A summarised axis of length `n` and stride `s`
    /// becomes two axes, `(2, (n - e) * s)` (which edge) and `(e, s)` (which item), so the
    /// row-major order of the view is NumPy's `_leading_trailing` order of the edge items.
    fn print_plan(&self, options: &PrintOptions) -> Result<Plan> {
        let e = options.edgeitems;
        let summarise = self.len() > options.threshold;
        let summarised: Vec<bool> = self
            .shape()
            .iter()
            .map(|&n| summarise && e.checked_mul(2).is_some_and(|two_e| n > two_e))
            .collect();
        let mut shape = Vec::new();
        let mut strides = Vec::new();
        for (d, (&n, &s)) in self.shape().iter().zip(self.strides()).enumerate() {
            if summarised[d] {
                // n > 2e, so n - e > e >= 0; the step reaches an element the array owns.
                let jump = isize::try_from(n - e)
                    .ok()
                    .and_then(|k| k.checked_mul(s))
                    .ok_or_else(|| {
                        crate::error::Error::overflow(
                            "Array::format",
                            format!("the edge step of axis {d} (length {n}, stride {s}) overflows"),
                        )
                    })?;
                shape.extend([2, e]);
                strides.extend([jump, s]);
            } else {
                shape.push(n);
                strides.push(s);
            }
        }
        let view = self.with_layout(Layout {
            shape,
            strides,
            offset: self.layout.offset,
        });
        Ok(Plan { view, summarised })
    }

    /// NumPy's `array_repr` of the shown `values`.
    fn render(&self, options: &PrintOptions, plan: &Plan, values: &Values) -> String {
        let shape = self.shape();
        let prefix = "array(";
        let body = if self.is_empty() {
            "[]".to_string()
        } else {
            let words = format_words(values, self.dtype, shape.is_empty(), options.precision);
            let e = options.edgeitems;
            let shown: Vec<usize> = shape
                .iter()
                .zip(&plan.summarised)
                .map(|(&n, &s)| if s { 2 * e } else { n })
                .collect();
            let ctx = Recurse {
                words: &words,
                shown: &shown,
                summarised: &plan.summarised,
                edge: e,
            };
            // array2string takes len(")") off the line width; the hanging indent skips "array(".
            let width = options.linewidth as isize - 1;
            ctx.recurse(&mut Vec::new(), &" ".repeat(prefix.len() + 1), width)
        };
        let mut extras = Vec::new();
        let size = self.len();
        if (size == 0 && shape.len() != 1) || size > options.threshold {
            extras.push(format!("shape={}", python_tuple(shape)));
        }
        // NumPy leaves out its defaults: float64, int64 (the default integer), complex128 and
        // bool.
        if !matches!(
            self.dtype,
            DType::F64 | DType::I64 | DType::Bool | DType::C128
        ) || size == 0
        {
            extras.push(format!("dtype={}", self.dtype.numpy_name()));
        }
        if extras.is_empty() {
            return format!("{prefix}{body})");
        }
        let head = format!("{prefix}{body},");
        let tail = format!("{})", extras.join(", "));
        let last_line = head.len() - head.rfind('\n').map_or(0, |i| i + 1);
        let spacer = if last_line + tail.len() + 1 > options.linewidth {
            format!("\n{}", " ".repeat(prefix.len()))
        } else {
            " ".to_string()
        };
        format!("{head}{spacer}{tail}")
    }
}

/// `repr(shape)` in Python: `()`, `(5,)`, `(2, 3)`.
fn python_tuple(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// `_formatArray`'s recursion over the shown elements.
struct Recurse<'a> {
    words: &'a [String],
    /// Extent of each axis in the shown data.
    shown: &'a [usize],
    summarised: &'a [bool],
    edge: usize,
}

impl Recurse<'_> {
    fn word(&self, index: &[usize]) -> &str {
        let flat = index
            .iter()
            .zip(self.shown)
            .fold(0usize, |acc, (&i, &n)| acc * n + i);
        &self.words[flat]
    }

    /// The shown positions along `axis`: all of them, or the leading and trailing edges with
    /// `None` for the `...` between.
    fn positions(&self, axis: usize) -> Vec<Option<usize>> {
        let n = self.shown[axis];
        if self.summarised[axis] {
            let mut p: Vec<Option<usize>> = (0..self.edge).map(Some).collect();
            p.push(None);
            p.extend((self.edge..n).map(Some));
            p
        } else {
            (0..n).map(Some).collect()
        }
    }

    fn recurse(&self, index: &mut Vec<usize>, hanging: &str, width: isize) -> String {
        let axis = index.len();
        let left = self.shown.len() - axis;
        if left == 0 {
            return self.word(index).to_string();
        }
        let next_hanging = format!("{hanging} ");
        let next_width = width - 1;
        let positions = self.positions(axis);
        let mut s = String::new();
        if left == 1 {
            // Elements may not reach past the width less the "," or "]" after them.
            let elem_width = width - 1;
            let mut line = hanging.to_string();
            let last = positions.len() - 1;
            for (k, p) in positions.iter().enumerate() {
                let word = match p {
                    Some(i) => {
                        index.push(*i);
                        let w = self.recurse(index, &next_hanging, next_width);
                        index.pop();
                        w
                    }
                    None => "...".to_string(),
                };
                extend_line(&mut s, &mut line, &word, elem_width, hanging);
                if k != last {
                    line.push_str(", ");
                }
            }
            s.push_str(&line);
        } else {
            let line_sep = format!(",{}", "\n".repeat(left - 1));
            let last = positions.len() - 1;
            for (k, p) in positions.iter().enumerate() {
                s.push_str(hanging);
                match p {
                    Some(i) => {
                        index.push(*i);
                        s.push_str(&self.recurse(index, &next_hanging, next_width));
                        index.pop();
                    }
                    None => s.push_str("..."),
                }
                if k != last {
                    s.push_str(&line_sep);
                }
            }
        }
        format!("[{}]", &s[hanging.len()..])
    }
}

/// `_extendLine`: starts a new line when `word` would pass `width`, unless the line holds
/// nothing but the indent.
fn extend_line(s: &mut String, line: &mut String, word: &str, width: isize, indent: &str) {
    let needs_wrap = (line.len() + word.len()) as isize > width && line.len() > indent.len();
    if needs_wrap {
        s.push_str(line.trim_end());
        s.push('\n');
        *line = indent.to_string();
    }
    line.push_str(word);
}

/// Every shown element as NumPy's formatter for the whole shown set prints it.
fn format_words(values: &Values, dtype: DType, zero_d: bool, precision: usize) -> Vec<String> {
    match values {
        Values::Bool(v) => {
            let t = if zero_d { "True" } else { " True" };
            v.iter()
                .map(|&b| if b { t } else { "False" }.to_string())
                .collect()
        }
        Values::Int(v) => {
            let width = v.iter().map(|x| x.to_string().len()).max().unwrap_or(0);
            v.iter().map(|x| format!("{x:>width$}")).collect()
        }
        Values::Float(v) => FloatFormat::new(v, dtype, precision, false).format_all(v),
        // NumPy's ComplexFloatingFormat: the real parts as floats, the imaginary parts as
        // floats with an explicit sign, and the `j` before the imaginary part's padding.
        Values::Complex(re, im) => {
            let part = dtype.real();
            let (fr, fi) = (
                FloatFormat::new(re, part, precision, false),
                FloatFormat::new(im, part, precision, true),
            );
            re.iter()
                .zip(im)
                .map(|(&r, &i)| {
                    let i = fi.format(i);
                    let end = i.trim_end().len();
                    format!("{}{}j{}", fr.format(r), &i[..end], &i[end..])
                })
                .collect()
        }
    }
}

/// Complex elements as their real and imaginary parts in f64.
fn complex_values<T: Copy>(v: Vec<num_complex::Complex<T>>, wide: fn(T) -> f64) -> Values {
    Values::Complex(
        v.iter().map(|c| wide(c.re)).collect(),
        v.iter().map(|c| wide(c.im)).collect(),
    )
}

/// NumPy's `repr`: values with the default [`PrintOptions`]; `{:.N}` sets the precision.
/// Only the shown elements are read back. A readback that fails prints as text naming the
/// error (never a panic); on wasm32, where `Display` cannot wait for the device, it prints the
/// shape and dtype (use [`Array::format_async`] for the values).
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let a = gpuarray::Array::arange(&dev, 0.0, 2000.0, 1.0, gpuarray::DType::I32)?;
/// assert_eq!(
///     a.to_string(),
///     "array([   0,    1,    2, ..., 1997, 1998, 1999],\n      shape=(2000,), dtype=int32)"
/// );
/// # Ok(()) }
/// ```
impl fmt::Display for Array {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let mut options = PrintOptions::default();
            if let Some(p) = f.precision() {
                options.precision = p;
            }
            match self.format(&options) {
                Ok(s) => f.write_str(&s),
                Err(e) => write!(
                    f,
                    "<array of shape {}, dtype={}: cannot read it back: {e}>",
                    python_tuple(self.shape()),
                    self.dtype.numpy_name()
                ),
            }
        }
        #[cfg(target_arch = "wasm32")]
        {
            write!(
                f,
                "<array of shape {}, dtype={}: use format_async for the values on wasm32>",
                python_tuple(self.shape()),
                self.dtype.numpy_name()
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_tuples() {
        assert_eq!(python_tuple(&[]), "()");
        assert_eq!(python_tuple(&[5]), "(5,)");
        assert_eq!(python_tuple(&[2, 0]), "(2, 0)");
    }
}
