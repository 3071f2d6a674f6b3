//! CuPy's parameter lists (`"float32 x, T y"`): each parameter a NumPy dtype name or a type
//! placeholder, then its name; and the resolution of placeholders from a call's arguments.

use super::text::is_identifier;
use crate::dtype::DType;
use crate::error::{Error, Result};
use std::collections::HashMap;

/// A parameter's type: a dtype, or a placeholder bound by the call's arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Ty {
    Fixed(DType),
    Placeholder(String),
}

/// One parameter of a user kernel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Param {
    pub ty: Ty,
    pub name: String,
}

/// Names the kernel itself gives meaning to (CuPy's `i` and `n`; ours for the reduction's
/// operands `a` and `b` are checked by the reduction).
pub(crate) const SPECIAL: &[&str] = &["i", "n"];

/// A dtype from a NumPy or C type name (`float32`, `float`, `double`, `int`, `bool`, ...).
pub(crate) fn dtype_named(name: &str) -> Option<DType> {
    DType::from_numpy_name(name).or(match name {
        "float" => Some(DType::F32),
        "double" => Some(DType::F64),
        "half" => Some(DType::F16),
        "int" => Some(DType::I32),
        "uint" | "unsigned int" => Some(DType::U32),
        "long long" => Some(DType::I64),
        "unsigned long long" => Some(DType::U64),
        "char" | "signed char" => Some(DType::I8),
        "unsigned char" => Some(DType::U8),
        "short" => Some(DType::I16),
        "unsigned short" => Some(DType::U16),
        "bool" => Some(DType::Bool),
        _ => None,
    })
}

/// Parses `"float32 x, T y"` for `op` (`what`: "in_params" or "out_params").
pub(crate) fn parse(op: &'static str, what: &str, list: &str) -> Result<Vec<Param>> {
    let mut params: Vec<Param> = Vec::new();
    for part in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let bad = |why: String| Error::invalid(op, format!("{what} `{list}`: {why}"));
        let Some(split) = part.rfind(char::is_whitespace) else {
            return Err(bad(format!(
                "`{part}` needs a type and a name, as `float32 x` or `T x`"
            )));
        };
        let (ty, name) = (part[..split].trim(), part[split..].trim());
        if ty.starts_with("raw ") || ty == "raw" {
            return Err(bad(format!(
                "`{part}`: raw parameters (whole arrays indexed by the body) are not supported; \
                 a RawKernel binds whole arrays"
            )));
        }
        if !is_identifier(name) {
            return Err(bad(format!("`{name}` is not a WGSL identifier")));
        }
        if SPECIAL.contains(&name) || name.starts_with(super::text::OURS) {
            return Err(bad(format!(
                "`{name}` is reserved (`i` is the element index, `n` the element count; names \
                 starting `{}` are the kernel's own)",
                super::text::OURS
            )));
        }
        if params.iter().any(|p| p.name == name) {
            return Err(bad(format!("`{name}` is declared twice")));
        }
        let ty = match dtype_named(ty) {
            Some(d) => Ty::Fixed(d),
            None if is_identifier(ty) => Ty::Placeholder(ty.to_string()),
            None => {
                return Err(bad(format!(
                    "`{ty}` is neither a dtype name nor a placeholder"
                )));
            }
        };
        params.push(Param {
            ty,
            name: name.to_string(),
        });
    }
    Ok(params)
}

/// Placeholder bindings, built from a call's arguments.
#[derive(Debug, Default, Clone)]
pub(crate) struct Bindings(pub HashMap<String, DType>);

impl Bindings {
    /// Binds `name` to `dtype`; an array binding it to another dtype is a CuPy `TypeError`.
    pub fn bind(&mut self, op: &'static str, name: &str, dtype: DType) -> Result<()> {
        match self.0.get(name) {
            Some(&d) if d != dtype => Err(Error::invalid(
                op,
                format!("type placeholder {name} is {d} by one argument and {dtype} by another"),
            )),
            _ => {
                self.0.insert(name.to_string(), dtype);
                Ok(())
            }
        }
    }

    /// The dtype of `ty`, or `Err` naming an unbound placeholder.
    pub fn resolve(&self, op: &'static str, ty: &Ty) -> Result<DType> {
        match ty {
            Ty::Fixed(d) => Ok(*d),
            Ty::Placeholder(t) => self.0.get(t).copied().ok_or_else(|| {
                Error::invalid(
                    op,
                    format!(
                        "type placeholder {t} is not bound by any argument (pass an array, a \
                         typed scalar or an output of that type)"
                    ),
                )
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cupy_lists_parse() {
        let p = parse("k", "in_params", "float32 x, T y,int32 z").unwrap();
        assert_eq!(p[0].ty, Ty::Fixed(DType::F32));
        assert_eq!(p[1].ty, Ty::Placeholder("T".into()));
        assert_eq!(
            (p[2].ty.clone(), p[2].name.as_str()),
            (Ty::Fixed(DType::I32), "z")
        );
        assert!(parse("k", "in_params", "").unwrap().is_empty());
        for bad in [
            "float32",
            "float32 i",
            "T x, T x",
            "raw T x",
            "T 1x",
            "T gpa_x",
        ] {
            assert!(parse("k", "in_params", bad).is_err(), "{bad}");
        }
        let mut b = Bindings::default();
        b.bind("k", "T", DType::F32).unwrap();
        assert!(b.bind("k", "T", DType::I32).is_err());
        assert!(b.resolve("k", &Ty::Placeholder("U".into())).is_err());
    }
}
