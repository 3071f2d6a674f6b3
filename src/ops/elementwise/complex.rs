//! Element-wise ops on complex arrays (`shaders/complex_*.wgsl`): the op table's unary and
//! binary ops that NumPy defines on complex numbers, with NumPy's algorithms (Smith's division,
//! msun's csqrt/cexp/ctanh, NumPy's clog and integer powers) over the software math library,
//! so the bits are the same on every adapter; and `conj`, `real`, `imag`, `angle`.
//!
//! Operands are broadcast and made contiguous first (views are copied), then one flat kernel
//! runs over them, in binding windows.

use super::families::math;
use super::table::{BinaryOp, UnaryOp};
use super::{Operand, binary as table_binary};
use crate::array::Array;
use crate::device::params::Params;
use crate::device::wgsl_helpers::helpers;
use crate::device::{Binding, KernelDef, Needs, PipelineKey, Variant, When, Work};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::broadcast_shapes;

/// The complex kernels' op codes (`CPX_*` in WGSL).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cpx {
    Neg,
    Conj,
    Square,
    Reciprocal,
    Sign,
    Sqrt,
    Exp,
    Log,
    Sin,
    Cos,
    Tan,
    Sinh,
    Cosh,
    Tanh,
    Abs,
    Angle,
    IsNan,
    IsInf,
    IsFinite,
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Eq,
    Ne,
    Exp2,
    Expm1,
    Log2,
    Log10,
    Log1p,
    Arcsin,
    Arccos,
    Arctan,
    Arcsinh,
    Arccosh,
    Arctanh,
    LogicalNot,
    Lt,
    Le,
    Gt,
    Ge,
    Maximum,
    Minimum,
    Fmax,
    Fmin,
    LogicalAnd,
    LogicalOr,
    LogicalXor,
}

const ALL: [(Cpx, &str); 49] = [
    (Cpx::Neg, "NEG"),
    (Cpx::Conj, "CONJ"),
    (Cpx::Square, "SQUARE"),
    (Cpx::Reciprocal, "RECIPROCAL"),
    (Cpx::Sign, "SIGN"),
    (Cpx::Sqrt, "SQRT"),
    (Cpx::Exp, "EXP"),
    (Cpx::Log, "LOG"),
    (Cpx::Sin, "SIN"),
    (Cpx::Cos, "COS"),
    (Cpx::Tan, "TAN"),
    (Cpx::Sinh, "SINH"),
    (Cpx::Cosh, "COSH"),
    (Cpx::Tanh, "TANH"),
    (Cpx::Abs, "ABS"),
    (Cpx::Angle, "ANGLE"),
    (Cpx::IsNan, "ISNAN"),
    (Cpx::IsInf, "ISINF"),
    (Cpx::IsFinite, "ISFINITE"),
    (Cpx::Add, "ADD"),
    (Cpx::Sub, "SUB"),
    (Cpx::Mul, "MUL"),
    (Cpx::Div, "DIV"),
    (Cpx::Pow, "POW"),
    (Cpx::Eq, "EQ"),
    (Cpx::Ne, "NE"),
    (Cpx::Exp2, "EXP2"),
    (Cpx::Expm1, "EXPM1"),
    (Cpx::Log2, "LOG2"),
    (Cpx::Log10, "LOG10"),
    (Cpx::Log1p, "LOG1P"),
    (Cpx::Arcsin, "ARCSIN"),
    (Cpx::Arccos, "ARCCOS"),
    (Cpx::Arctan, "ARCTAN"),
    (Cpx::Arcsinh, "ARCSINH"),
    (Cpx::Arccosh, "ARCCOSH"),
    (Cpx::Arctanh, "ARCTANH"),
    (Cpx::LogicalNot, "LOGICAL_NOT"),
    (Cpx::Lt, "LT"),
    (Cpx::Le, "LE"),
    (Cpx::Gt, "GT"),
    (Cpx::Ge, "GE"),
    (Cpx::Maximum, "MAXIMUM"),
    (Cpx::Minimum, "MINIMUM"),
    (Cpx::Fmax, "FMAX"),
    (Cpx::Fmin, "FMIN"),
    (Cpx::LogicalAnd, "LOGICAL_AND"),
    (Cpx::LogicalOr, "LOGICAL_OR"),
    (Cpx::LogicalXor, "LOGICAL_XOR"),
];

/// Which kernel an op runs on, and so its result dtype.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Complex → complex.
    Unary,
    /// Complex → its part dtype.
    Real,
    /// Complex → bool.
    Predicate,
    /// Complex, complex → complex.
    Arith,
    /// Complex, complex → bool.
    Compare,
}

impl Cpx {
    fn code(self) -> u32 {
        ALL.iter().position(|&(c, _)| c == self).expect("listed") as u32
    }

    fn kind(self) -> Kind {
        use Cpx::*;
        match self {
            Abs | Angle => Kind::Real,
            IsNan | IsInf | IsFinite | LogicalNot => Kind::Predicate,
            Add | Sub | Mul | Div | Pow | Maximum | Minimum | Fmax | Fmin => Kind::Arith,
            Eq | Ne | Lt | Le | Gt | Ge | LogicalAnd | LogicalOr | LogicalXor => Kind::Compare,
            _ => Kind::Unary,
        }
    }

    fn of_unary(op: UnaryOp) -> Option<Cpx> {
        Some(match op {
            UnaryOp::Neg => Cpx::Neg,
            UnaryOp::Abs => Cpx::Abs,
            UnaryOp::Sign => Cpx::Sign,
            UnaryOp::Sqrt => Cpx::Sqrt,
            UnaryOp::Exp => Cpx::Exp,
            UnaryOp::Log => Cpx::Log,
            UnaryOp::Sin => Cpx::Sin,
            UnaryOp::Cos => Cpx::Cos,
            UnaryOp::Tan => Cpx::Tan,
            UnaryOp::Sinh => Cpx::Sinh,
            UnaryOp::Cosh => Cpx::Cosh,
            UnaryOp::Tanh => Cpx::Tanh,
            UnaryOp::Square => Cpx::Square,
            UnaryOp::Reciprocal => Cpx::Reciprocal,
            UnaryOp::IsNan => Cpx::IsNan,
            UnaryOp::IsInf => Cpx::IsInf,
            UnaryOp::IsFinite => Cpx::IsFinite,
            UnaryOp::Exp2 => Cpx::Exp2,
            UnaryOp::Expm1 => Cpx::Expm1,
            UnaryOp::Log2 => Cpx::Log2,
            UnaryOp::Log10 => Cpx::Log10,
            UnaryOp::Log1p => Cpx::Log1p,
            UnaryOp::Arcsin => Cpx::Arcsin,
            UnaryOp::Arccos => Cpx::Arccos,
            UnaryOp::Arctan => Cpx::Arctan,
            UnaryOp::Arcsinh => Cpx::Arcsinh,
            UnaryOp::Arccosh => Cpx::Arccosh,
            UnaryOp::Arctanh => Cpx::Arctanh,
            UnaryOp::LogicalNot => Cpx::LogicalNot,
            _ => return None,
        })
    }

    fn of_binary(op: BinaryOp) -> Option<Cpx> {
        Some(match op {
            BinaryOp::Add => Cpx::Add,
            BinaryOp::Sub => Cpx::Sub,
            BinaryOp::Mul => Cpx::Mul,
            BinaryOp::Div => Cpx::Div,
            BinaryOp::Pow => Cpx::Pow,
            BinaryOp::Eq => Cpx::Eq,
            BinaryOp::Ne => Cpx::Ne,
            BinaryOp::Lt => Cpx::Lt,
            BinaryOp::Le => Cpx::Le,
            BinaryOp::Gt => Cpx::Gt,
            BinaryOp::Ge => Cpx::Ge,
            BinaryOp::Maximum => Cpx::Maximum,
            BinaryOp::Minimum => Cpx::Minimum,
            BinaryOp::Fmax => Cpx::Fmax,
            BinaryOp::Fmin => Cpx::Fmin,
            BinaryOp::LogicalAnd => Cpx::LogicalAnd,
            BinaryOp::LogicalOr => Cpx::LogicalOr,
            BinaryOp::LogicalXor => Cpx::LogicalXor,
            _ => return None,
        })
    }
}

// ---- kernel families ------------------------------------------------------------------------

fn variants(dtypes: &[DType]) -> Vec<Variant> {
    dtypes
        .iter()
        .copied()
        .filter(|&d| d == DType::F32 || d == DType::F64)
        .map(Variant::one)
        .collect()
}

/// complex_arc.wgsl's constants for f32 and f64 parts: ε, 4·√min (2^-61, 2^-509), √max/4
/// (2^61, 2^509), √min (2^-63, 2^-511), √(3ε), √(6ε), π/2 as its rounding and the rest.
const ARC_CONSTANTS: [&str; 2] = [
    "const ARC_EPS: C = 1.1920928955078125e-07f;\n\
     const ARC_FOUR_SQRT_MIN: C = 4.336808689942018e-19f;\n\
     const ARC_QUARTER_SQRT_MAX: C = 2.305843009213694e+18f;\n\
     const ARC_SQRT_MIN: C = 1.0842021724855044e-19f;\n\
     const ARC_SQRT_3_EPS: C = 0.0005980199784971774f;\n\
     const ARC_SQRT_6_EPS: C = 0.0008457279182039201f;\n\
     const ARC_PIO2_HI: C = 1.5707963705062866f;\n\
     const ARC_PIO2_LO: C = -4.371138828673793e-08f;\n",
    "const ARC_EPS: C = 2.220446049250313e-16lf;\n\
     const ARC_FOUR_SQRT_MIN: C = 5.966672584960166e-154lf;\n\
     const ARC_QUARTER_SQRT_MAX: C = 1.6759759912428246e+153lf;\n\
     const ARC_SQRT_MIN: C = 1.4916681462400413e-154lf;\n\
     const ARC_SQRT_3_EPS: C = 2.5809568279517847e-08lf;\n\
     const ARC_SQRT_6_EPS: C = 3.650024149988857e-08lf;\n\
     const ARC_PIO2_HI: C = 1.5707963267948966lf;\n\
     const ARC_PIO2_LO: C = 6.123233995736766e-17lf;\n",
];

/// The part type, its helpers and math library, binary_float.wgsl (hypotenuse, atan2_,
/// power), the `CPX_*` codes and complex_math.wgsl; then `tail` (the result selection) and
/// `file`.
fn source(v: Variant, tail: &str, file: &str) -> String {
    let f64 = v.a == DType::F64;
    let ty = if f64 { "f64" } else { "f32" };
    let mut s = format!("alias T = {ty};\nalias C = {ty};\nalias O = {ty};\nalias R = {ty};\n");
    s += &helpers("C", v.a);
    s += &BinaryOp::wgsl_constants();
    s += "const STORAGE_IS_F16: bool = false;\n";
    s += math(v);
    s += include_str!("../../../shaders/binary_float.wgsl");
    for (c, name) in ALL {
        s += &format!("const CPX_{name}: u32 = {}u;\n", c.code());
    }
    s += if f64 {
        "fn highest_finite() -> C { return 1.7976931348623157e308lf; }\nconst TANH_LARGE: C = 22.0lf;\n"
    } else {
        "fn highest_finite() -> C { return 3.4028234663852886e38f; }\nconst TANH_LARGE: C = 11.0f;\n"
    };
    s += ARC_CONSTANTS[usize::from(f64)];
    s += include_str!("../../../shaders/complex_math.wgsl");
    s += include_str!("../../../shaders/complex_arc.wgsl");
    s += tail;
    s += file;
    s
}

const fn family(name: &'static str, entry: &'static str, wgsl: fn(Variant) -> String) -> KernelDef {
    KernelDef {
        name,
        entry,
        constants: &[("CPX", 0), ("WG", 64)],
        ops_per_element: 1,
        uses_f32_math: |v| v.a != DType::F64,
        variants,
        wgsl,
        when: When::OnFirstUse,
        eager: KernelDef::as_declared,
        needs: Needs::NONE,
        soft_f64: false,
        packed_f16: false,
        warm_up: false,
    }
}

/// Complex → complex (`shaders/complex_unary.wgsl`).
pub(crate) static COMPLEX_UNARY: KernelDef = family("complex_unary", "unary", |v| {
    source(
        v,
        "alias OUT = Z;\nfn unary_result(z: Z) -> OUT { return unary_op(z); }\n",
        include_str!("../../../shaders/complex_unary.wgsl"),
    )
});
/// |z| and arg z (`shaders/complex_unary.wgsl`).
pub(crate) static COMPLEX_REAL: KernelDef = family("complex_real", "unary", |v| {
    source(
        v,
        "alias OUT = C;\nfn unary_result(z: Z) -> OUT { return real_op(z); }\n",
        include_str!("../../../shaders/complex_unary.wgsl"),
    )
});
/// isnan, isinf, isfinite (`shaders/complex_unary.wgsl`).
pub(crate) static COMPLEX_PREDICATE: KernelDef = family("complex_predicate", "unary", |v| {
    source(
        v,
        "alias OUT = u32;\nfn unary_result(z: Z) -> OUT { return predicate_op(z); }\n",
        include_str!("../../../shaders/complex_unary.wgsl"),
    )
});
/// + − × ÷ and powers (`shaders/complex_binary.wgsl`).
pub(crate) static COMPLEX_ARITH: KernelDef = family("complex_arith", "binary", |v| {
    source(
        v,
        "alias OUT = Z;\nfn binary_result(u: Z, v: Z) -> OUT { return arith_op(u, v); }\n",
        include_str!("../../../shaders/complex_binary.wgsl"),
    )
});
/// == and != (`shaders/complex_binary.wgsl`).
pub(crate) static COMPLEX_COMPARE: KernelDef = family("complex_compare", "binary", |v| {
    source(
        v,
        "alias OUT = u32;\nfn binary_result(u: Z, v: Z) -> OUT { return compare_op(u, v); }\n",
        include_str!("../../../shaders/complex_binary.wgsl"),
    )
});

// ---- launches -------------------------------------------------------------------------------

/// Runs `cpx` over the contiguous `inputs` (one shape) into the contiguous `out`, window by
/// window.
fn run(op: &'static str, cpx: Cpx, inputs: &[&Array], out: &Array) -> Result<()> {
    let n = out.len() as u64;
    if n == 0 {
        return Ok(());
    }
    let real = inputs[0].dtype().real();
    let family = match cpx.kind() {
        Kind::Unary => &COMPLEX_UNARY,
        Kind::Real => &COMPLEX_REAL,
        Kind::Predicate => &COMPLEX_PREDICATE,
        Kind::Arith => &COMPLEX_ARITH,
        Kind::Compare => &COMPLEX_COMPARE,
    };
    let key = PipelineKey::new(family, Variant::one(real))
        .with("CPX", cpx.code())
        .with("WG", 64);
    let dev = &out.device().inner;
    let all: Vec<&Array> = inputs.iter().copied().chain([out]).collect();
    let chunk = all
        .iter()
        .map(|a| crate::ops::window_elements(dev, a.dtype().size_bytes()))
        .min()
        .unwrap_or(1)
        .max(1);
    let max_dim = dev.limits.max_compute_workgroups_per_dimension as u64;
    let mut start = 0;
    while start < n {
        let len = chunk.min(n - start).min(max_dim * max_dim * 64);
        let mut bindings: Vec<Binding> = Vec::with_capacity(all.len());
        let mut p = Params::default();
        p.u32(len as u32);
        for a in &all {
            let (b, base) =
                crate::ops::contiguous_window(op, a, start, len, a.dtype().size_bytes())?;
            bindings.push(b);
            p.u32(base);
        }
        let groups = len.div_ceil(64);
        let x = groups.min(max_dim);
        let y = groups.div_ceil(x);
        let params = p.bytes().to_vec();
        dev.guarded(op, || {
            dev.dispatch_grid(
                &key,
                &params,
                &bindings,
                (x as u32, y as u32, 1),
                Work::computes(format!("n={len}"), 8 * len),
            )
        })?;
        start += len;
    }
    Ok(())
}

fn unsupported(op: &'static str, dtype: DType) -> Error {
    Error::Unsupported {
        op,
        feature: format!("{op} of {dtype} (complex) arrays"),
    }
}

/// The dtype table op `op` gives on complex `dtype`, or `None` where it has no complex path.
pub(super) fn result_dtype(op: super::Which, dtype: DType) -> Option<DType> {
    let cpx = match op {
        super::Which::Unary(op) => Cpx::of_unary(op)?,
        super::Which::Binary(op) => Cpx::of_binary(op)?,
    };
    Some(match cpx.kind() {
        Kind::Real => dtype.real(),
        Kind::Predicate | Kind::Compare => DType::Bool,
        Kind::Unary | Kind::Arith => dtype,
    })
}

/// Table unary op `op` on the complex array `a`.
pub(super) fn unary(op: UnaryOp, a: &Array) -> Result<Array> {
    let name = op.name();
    let cpx = Cpx::of_unary(op).ok_or_else(|| unsupported(name, a.dtype()))?;
    apply(name, cpx, a)
}

fn apply(name: &'static str, cpx: Cpx, a: &Array) -> Result<Array> {
    let out_dtype = match cpx.kind() {
        Kind::Real => a.dtype().real(),
        Kind::Predicate => DType::Bool,
        _ => a.dtype(),
    };
    let x = a.contiguous()?;
    let out = Array::empty(name, a.device(), a.shape(), out_dtype)?;
    run(name, cpx, &[&x], &out)?;
    Ok(out)
}

/// Table binary op `op` with at least one complex operand (`arr`): the other side (an array of
/// any dtype, or a real scalar) is converted to `arr`'s complex dtype first.
pub(super) fn binary(
    op: BinaryOp,
    arr: &Array,
    other: Operand,
    scalar_left: bool,
) -> Result<Array> {
    let name = op.name();
    let cpx = Cpx::of_binary(op).ok_or_else(|| unsupported(name, arr.dtype()))?;
    let dtype = arr.dtype();
    let other = match other {
        Operand::Array(b) => b.astype(dtype)?,
        Operand::Scalar(s) => Array::full(arr.device(), &[], s, dtype)?,
    };
    let (lhs, rhs) = if scalar_left {
        (&other, arr)
    } else {
        (arr, &other)
    };
    let shape = broadcast_shapes(name, &[lhs.shape(), rhs.shape()])?;
    let l = lhs.broadcast_to(&shape)?.contiguous()?;
    let r = rhs.broadcast_to(&shape)?.contiguous()?;
    let out_dtype = if cpx.kind() == Kind::Compare {
        DType::Bool
    } else {
        dtype
    };
    let out = Array::empty(name, arr.device(), &shape, out_dtype)?;
    run(name, cpx, &[&l, &r], &out)?;
    Ok(out)
}

impl Array {
    /// `numpy.conj`: each element's complex conjugate (real arrays: a copy).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// use gpuarray::{Array, Complex32};
    /// let z = Array::from_slice(&dev, &[Complex32::new(1.0, 2.0)], &[1])?;
    /// assert_eq!(z.conj()?.to_vec::<Complex32>()?, vec![Complex32::new(1.0, -2.0)]);
    /// # Ok(()) }
    /// ```
    pub fn conj(&self) -> Result<Array> {
        if !self.dtype().is_complex() {
            return self.astype(self.dtype());
        }
        apply("conjugate", Cpx::Conj, self)
    }

    /// `numpy.real`: the real parts. A complex array's is a view of its storage (as NumPy's
    /// `z.real`); a real array is returned as it is.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// use gpuarray::{Array, Complex32};
    /// let z = Array::from_slice(&dev, &[Complex32::new(1.0, 2.0)], &[1])?;
    /// assert_eq!(z.real().to_vec::<f32>()?, vec![1.0]);
    /// # Ok(()) }
    /// ```
    pub fn real(&self) -> Array {
        if self.dtype().is_complex() {
            self.part(0)
        } else {
            self.clone()
        }
    }

    /// `numpy.imag`: the imaginary parts, a view of a complex array's storage; zeros of the
    /// same dtype for a real array.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// use gpuarray::{Array, Complex32};
    /// let z = Array::from_slice(&dev, &[Complex32::new(1.0, 2.0)], &[1])?;
    /// assert_eq!(z.imag()?.to_vec::<f32>()?, vec![2.0]);
    /// # Ok(()) }
    /// ```
    pub fn imag(&self) -> Result<Array> {
        if self.dtype().is_complex() {
            Ok(self.part(1))
        } else {
            Array::zeros(self.device(), self.shape(), self.dtype())
        }
    }

    /// `numpy.angle(z, deg)`: the argument atan2(imag, real) of each element, in radians (or
    /// degrees), in the part dtype; real input as NumPy (0, or π for negative values).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// use gpuarray::{Array, Complex64};
    /// let z = Array::from_slice(&dev, &[Complex64::new(0.0, 1.0)], &[1])?;
    /// assert_eq!(z.angle(true)?.to_vec::<f64>()?, vec![90.0]);
    /// # Ok(()) }
    /// ```
    pub fn angle(&self, deg: bool) -> Result<Array> {
        let rad = if self.dtype().is_complex() {
            apply("angle", Cpx::Angle, self)?
        } else {
            let x = if self.dtype().is_float() {
                self.clone()
            } else {
                self.astype(if self.device().supports(DType::F64) {
                    DType::F64
                } else {
                    DType::F32
                })?
            };
            let zero = Array::zeros(x.device(), &[], x.dtype())?;
            table_binary(BinaryOp::Arctan2, Operand::Array(&zero), Operand::Array(&x))?
        };
        if deg {
            table_binary(
                BinaryOp::Mul,
                Operand::Array(&rad),
                Operand::Scalar(180.0 / std::f64::consts::PI),
            )
        } else {
            Ok(rad)
        }
    }
}
