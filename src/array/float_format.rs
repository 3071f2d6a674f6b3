//! NumPy's float formatting for `repr` (`FloatingFormat` in `maxprec` mode): the shortest
//! round-tripping digits of each value in its dtype's precision, positional or scientific for a
//! whole array at once, padded to common widths; `sign='+'` for complex imaginary parts.

use crate::dtype::DType;

/// NumPy's `FloatingFormat` in `maxprec` mode with sign `-`.
pub(super) struct FloatFormat {
    dtype: DType,
    /// NumPy's `sign='+'`: non-negative values carry a `+` (complex imaginary parts).
    plus: bool,
    exp: bool,
    precision: usize,
    pad_left: usize,
    pad_right: usize,
    /// Exponent digits (scientific mode).
    exp_digits: usize,
}

impl FloatFormat {
    pub(super) fn new(data: &[f64], dtype: DType, precision: usize, plus: bool) -> FloatFormat {
        let finite: Vec<f64> = data.iter().copied().filter(|x| x.is_finite()).collect();
        let nonzero: Vec<f64> = finite
            .iter()
            .filter(|&&x| x != 0.0)
            .map(|x| x.abs())
            .collect();
        let mut exp = false;
        if !nonzero.is_empty() {
            let max = nonzero.iter().copied().fold(f64::MIN, f64::max);
            let min = nonzero.iter().copied().fold(f64::MAX, f64::min);
            // NumPy compares in the array's dtype (the Python floats are weak scalars).
            let (lim_small, lim_large) = (in_dtype(1e-4, dtype), in_dtype(1e8, dtype));
            let ratio = in_dtype(max / min, dtype);
            exp = max >= lim_large || min < lim_small || ratio > 1000.0;
        }
        let mut f = FloatFormat {
            dtype,
            plus,
            exp,
            precision,
            pad_left: 0,
            pad_right: 0,
            exp_digits: 0,
        };
        if finite.is_empty() {
            // pad_left/right stay 0
        } else if exp {
            let parts: Vec<(String, String, String)> = finite
                .iter()
                .map(|&x| scientific_parts(x, dtype, precision))
                .map(|(int, frac, e)| (with_plus(int, plus), frac, e))
                .collect();
            f.exp_digits = parts.iter().map(|p| p.2.len() - 1).max().unwrap_or(2);
            f.precision = parts.iter().map(|p| p.1.len()).max().unwrap_or(0);
            f.pad_left = parts.iter().map(|p| p.0.len()).max().unwrap_or(0);
            f.pad_right = f.exp_digits + 2 + f.precision;
        } else {
            let parts: Vec<(String, String)> = finite
                .iter()
                .map(|&x| positional_parts(x, dtype, precision))
                .map(|(int, frac)| (with_plus(int, plus), frac))
                .collect();
            f.pad_left = parts.iter().map(|p| p.0.len()).max().unwrap_or(0);
            f.pad_right = parts.iter().map(|p| p.1.len()).max().unwrap_or(0);
        }
        if finite.len() != data.len() {
            let neginf = (plus || data.contains(&f64::NEG_INFINITY)) as usize;
            let offset = f.pad_right + 1;
            f.pad_left = f
                .pad_left
                .max(3usize.saturating_sub(offset))
                .max((3 + neginf).saturating_sub(offset));
        }
        f
    }

    pub(super) fn format_all(&self, data: &[f64]) -> Vec<String> {
        data.iter().map(|&x| self.format(x)).collect()
    }

    pub(super) fn format(&self, x: f64) -> String {
        if !x.is_finite() {
            let s = match (x.is_nan(), x < 0.0, self.plus) {
                (true, _, false) => "nan",
                (true, _, true) => "+nan",
                (false, true, _) => "-inf",
                (false, false, false) => "inf",
                (false, false, true) => "+inf",
            };
            let width = self.pad_left + self.pad_right + 1;
            return format!("{s:>width$}");
        }
        let (pl, pr) = (self.pad_left, self.pad_right);
        if self.exp {
            let (int, frac, exp) = scientific_parts(x, self.dtype, self.precision);
            let int = with_plus(int, self.plus);
            let (sign, digits) = exp.split_at(1);
            format!(
                "{int:>pl$}.{frac:0<p$}e{sign}{digits:0>ed$}",
                p = self.precision,
                ed = self.exp_digits
            )
        } else {
            let (int, frac) = positional_parts(x, self.dtype, self.precision);
            let int = with_plus(int, self.plus);
            format!("{int:>pl$}.{frac:<pr$}")
        }
    }
}

/// An integer part with `+` before it when `plus` and it has no `-`.
fn with_plus(int: String, plus: bool) -> String {
    if plus && !int.starts_with('-') {
        format!("+{int}")
    } else {
        int
    }
}

/// `value` rounded to `dtype` (for NumPy's comparisons made in the array's precision).
fn in_dtype(value: f64, dtype: DType) -> f64 {
    match dtype {
        DType::F32 => value as f32 as f64,
        DType::F16 => f64::from(half::f16::from_f64(value)),
        _ => value,
    }
}

/// Whether `s` parses back to `x` in `dtype`'s precision.
fn round_trips(s: &str, x: f64, dtype: DType) -> bool {
    let Ok(y) = s.parse::<f64>() else {
        return false;
    };
    match dtype {
        DType::F32 => (y as f32).to_bits() == (x as f32).to_bits(),
        DType::F16 => half::f16::from_f64(y).to_bits() == half::f16::from_f64(x).to_bits(),
        _ => y.to_bits() == x.to_bits(),
    }
}

/// The shortest round-tripping digits of `x` (in `dtype`'s precision) in scientific form:
/// (mantissa digits without the point, decimal exponent), e.g. 0.015 → ("15", -2).
fn shortest_digits(x: f64, dtype: DType) -> (String, i32) {
    let s = match dtype {
        DType::F32 => format!("{:e}", x as f32),
        DType::F64 => format!("{x:e}"),
        _ => (0..17)
            .map(|p| format!("{x:.p$e}"))
            .find(|s| round_trips(s, x, dtype))
            .unwrap_or_else(|| format!("{x:e}")),
    };
    let s = s.trim_start_matches('-');
    let (mantissa, exp) = s.split_once('e').unwrap_or((s, "0"));
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let digits = digits.trim_end_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    (digits.to_string(), exp.parse().unwrap_or(0))
}

/// Dragon4 positional, unique digits, at most `precision` after the point, trailing zeros
/// trimmed: (integer part with sign, fraction digits).
fn positional_parts(x: f64, dtype: DType, precision: usize) -> (String, String) {
    let (digits, exp) = shortest_digits(x, dtype);
    let frac_needed = (digits.len() as i64 - 1 - exp as i64).max(0) as usize;
    if frac_needed > precision {
        // More digits than allowed: the exact value rounded (half to even) at `precision`.
        let s = format!("{x:.precision$}");
        let (int, frac) = s.split_once('.').unwrap_or((&s, ""));
        return (int.to_string(), frac.trim_end_matches('0').to_string());
    }
    let sign = if x.is_sign_negative() { "-" } else { "" };
    let (int, frac) = if exp >= 0 {
        let e = exp as usize + 1;
        if digits.len() <= e {
            (format!("{digits:0<e$}"), String::new())
        } else {
            (digits[..e].to_string(), digits[e..].to_string())
        }
    } else {
        let zeros = (-exp - 1) as usize;
        ("0".to_string(), format!("{}{digits}", "0".repeat(zeros)))
    };
    let frac = frac.trim_end_matches('0').to_string();
    (format!("{sign}{int}"), frac)
}

/// Dragon4 scientific, unique digits, at most `precision` after the point, trailing zeros
/// trimmed: (integer digit with sign, fraction digits, exponent with sign and at least 2 digits).
fn scientific_parts(x: f64, dtype: DType, precision: usize) -> (String, String, String) {
    let (digits, exp) = shortest_digits(x, dtype);
    let (int, frac, exp) = if digits.len() - 1 > precision {
        let s = format!("{x:.precision$e}");
        let (mantissa, e) = s.split_once('e').unwrap_or((&s, "0"));
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        (
            int.to_string(),
            frac.trim_end_matches('0').to_string(),
            e.parse().unwrap_or(0),
        )
    } else {
        let sign = if x.is_sign_negative() { "-" } else { "" };
        (
            format!("{sign}{}", &digits[..1]),
            digits[1..].to_string(),
            exp,
        )
    };
    let sign = if exp < 0 { '-' } else { '+' };
    (int, frac, format!("{sign}{:02}", exp.unsigned_abs()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positional_and_scientific_digits() {
        assert_eq!(
            positional_parts(1.0, DType::F64, 8),
            ("1".into(), "".into())
        );
        assert_eq!(
            positional_parts(-0.0, DType::F64, 8),
            ("-0".into(), "".into())
        );
        assert_eq!(
            positional_parts(1.0 / 3.0, DType::F64, 8),
            ("0".into(), "33333333".into())
        );
        assert_eq!(
            positional_parts(f64::from(1.0f32 / 3.0), DType::F32, 8),
            ("0".into(), "33333334".into())
        );
        assert_eq!(
            positional_parts(2.5, DType::F64, 0),
            ("2".into(), "".into())
        );
        assert_eq!(
            positional_parts(f64::from(half::f16::from_f64(0.1)), DType::F16, 8),
            ("0".into(), "1".into())
        );
        assert_eq!(
            scientific_parts(1e-300, DType::F64, 8),
            ("1".into(), "".into(), "-300".into())
        );
        assert_eq!(
            scientific_parts(65504.0, DType::F16, 8),
            ("6".into(), "55".into(), "+04".into())
        );
    }
}
