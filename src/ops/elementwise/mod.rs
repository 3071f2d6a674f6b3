//! Element-wise math on arrays: binary ops with NumPy broadcasting (array ⊕ array, array ⊕
//! scalar, scalar ⊕ array) as methods, free functions and `std::ops` operators on `&Array`;
//! unary math; comparisons, predicates, `where_` and `clip`.
//!
//! Binary ops need equal dtypes; Rust scalars adopt the array's dtype (an integer array refuses a
//! scalar it cannot hold exactly). Integer `div` is NumPy's true division: the result is f64 (f32
//! on adapters without f64). Ops that NumPy does not define on a dtype — or would compute only
//! after promoting integers to float64, like `exp` of an integer array — are an
//! `Err(Unsupported)` naming the op and the dtype. On f64 the transcendentals (exp, log, trig,
//! hyperbolic, `pow`, `arctan2`) run in software (`shaders/math_f64.wgsl`, within a few ulp; the
//! GPU built-ins are 32-bit only), and float `remainder`/`floor_divide` use an exact fmod.
//!
//! This file holds the API; `kernels.rs` maps each (op, dtype) to a kernel and op code and
//! records the launches.

mod kernels;
mod nan_to_num;

pub(crate) use crate::device::op_codes::{BinaryOp, UnaryOp};
pub(crate) use kernels::unsupported;
use kernels::{
    binary_into, unary_into, where_into, BinaryRules, ScalarValue, UnaryPlan, UnaryRules,
};

use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::broadcast_shapes;

/// One side of a binary op: an array or a scalar (which adopts the array's dtype).
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0], &[2])?;
/// let b = a.add(&a)?;          // Operand::Array
/// let c = a.add(0.5)?;         // Operand::Scalar
/// let d = gpuarray::sub(1.0, &a)?;
/// assert_eq!(d.to_vec::<f32>()?, vec![0.0, -1.0]);
/// # let _ = (b, c); Ok(()) }
/// ```
#[derive(Debug, Clone, Copy)]
pub enum Operand<'a> {
    /// An array (broadcast against the other side).
    Array(&'a Array),
    /// A scalar, converted to the other side's dtype.
    Scalar(f64),
}

impl<'a> From<&'a Array> for Operand<'a> {
    fn from(a: &'a Array) -> Self {
        Operand::Array(a)
    }
}
macro_rules! scalar_operand {
    ($($t:ty),*) => {$(
        impl From<$t> for Operand<'_> {
            fn from(v: $t) -> Self {
                Operand::Scalar(v as f64)
            }
        }
    )*};
}
scalar_operand!(f64, f32, i32, u32, i64, u64, usize);
impl From<bool> for Operand<'_> {
    fn from(v: bool) -> Self {
        Operand::Scalar(if v { 1.0 } else { 0.0 })
    }
}
impl From<crate::f16> for Operand<'_> {
    fn from(v: crate::f16) -> Self {
        Operand::Scalar(v.to_f64())
    }
}

/// The dtype integer `divide` computes in (NumPy: float64).
fn true_divide_dtype(a: &Array) -> DType {
    if a.device.supports(DType::F64) {
        DType::F64
    } else {
        DType::F32
    }
}

pub(crate) fn binary(op: BinaryOp, lhs: Operand, rhs: Operand) -> Result<Array> {
    let name = op.name();
    let (arr, other, scalar_left) = match (lhs, rhs) {
        (Operand::Array(a), b) => (a, b, false),
        (Operand::Scalar(s), Operand::Array(b)) => (b, Operand::Scalar(s), true),
        (Operand::Scalar(_), Operand::Scalar(_)) => {
            return Err(Error::invalid(
                name,
                "at least one operand must be an array (two scalars need no GPU)",
            ))
        }
    };
    let dtype = arr.dtype;
    if let Operand::Array(b) = other {
        arr.same_device(name, b)?;
        // Binary ops need equal dtypes (convert one with astype).
        if b.dtype != dtype {
            return Err(Error::DTypeMismatch {
                op: name,
                expected: dtype,
                got: b.dtype,
            });
        }
    }
    arr.device.inner.check_alive(name)?;
    if op == BinaryOp::Div && (dtype.is_int() || dtype == DType::Bool) {
        // NumPy's true division of integers gives floats.
        let work = true_divide_dtype(arr);
        let a = arr.astype(work)?;
        return match other {
            Operand::Array(b) => {
                let b = b.astype(work)?;
                if scalar_left {
                    binary(op, Operand::Array(&b), Operand::Array(&a))
                } else {
                    binary(op, Operand::Array(&a), Operand::Array(&b))
                }
            }
            Operand::Scalar(s) if scalar_left => binary(op, Operand::Scalar(s), Operand::Array(&a)),
            Operand::Scalar(s) => binary(op, Operand::Array(&a), Operand::Scalar(s)),
        };
    }
    let (set, op2, out_dtype) = op.resolve(dtype)?;
    if op == BinaryOp::Pow && dtype == DType::I32 {
        check_int_exponent(arr, other, scalar_left)?;
    }
    match other {
        Operand::Scalar(s) => {
            let sv = ScalarValue::new(name, dtype, s)?;
            let out = Array::empty(name, &arr.device, arr.shape(), out_dtype)?;
            binary_into(
                name,
                set,
                code_of(op2),
                arr,
                None,
                Some((sv, scalar_left)),
                &out,
            )?;
            Ok(out)
        }
        Operand::Array(b) => {
            let (a, b) = if scalar_left { (b, arr) } else { (arr, b) };
            let shape = broadcast_shapes(name, &[a.shape(), b.shape()])?;
            let out = Array::empty(name, &arr.device, &shape, out_dtype)?;
            let (ab, bb) = (a.broadcast_to(&shape)?, b.broadcast_to(&shape)?);
            binary_into(name, set, code_of(op2), &ab, Some(&bb), None, &out)?;
            Ok(out)
        }
    }
}

fn code_of(op: BinaryOp) -> u32 {
    op.code()
}

/// NumPy refuses integer powers with negative exponents ("Integers to negative integer powers
/// are not allowed"): check the exponent (with a reduction when it is an array).
fn check_int_exponent(arr: &Array, other: Operand, scalar_left: bool) -> Result<()> {
    let refuse = || {
        Error::invalid(
            "power",
            "integers to negative integer powers are not allowed (convert to a float dtype)",
        )
    };
    match (other, scalar_left) {
        (Operand::Scalar(s), false) if s < 0.0 => Err(refuse()),
        (Operand::Scalar(_), false) => Ok(()),
        // The exponent is an array: `arr` when the scalar is the base, else `other`.
        (Operand::Scalar(_), true) => {
            if !arr.is_empty() && has_negative(arr)? {
                return Err(refuse());
            }
            Ok(())
        }
        (Operand::Array(e), _) => {
            if !e.is_empty() && has_negative(e)? {
                return Err(refuse());
            }
            Ok(())
        }
    }
}

/// Whether a non-empty integer exponent array holds a negative value (its minimum, read back).
#[cfg(not(target_arch = "wasm32"))]
fn has_negative(e: &Array) -> Result<bool> {
    Ok(e.min(crate::Axes::All, false)?.item::<i32>()? < 0)
}

/// On wasm32 the minimum cannot be read back without blocking: integer powers with an array
/// exponent are refused (a scalar exponent, or float arrays, work).
#[cfg(target_arch = "wasm32")]
fn has_negative(_: &Array) -> Result<bool> {
    Err(crate::error::needs_blocking_readback(
        "power",
        "an integer power with an array exponent (checked for negative values)",
    ))
}

pub(crate) fn unary(op: UnaryOp, a: &Array) -> Result<Array> {
    let name = op.name();
    a.device.inner.check_alive(name)?;
    match op.plan(a.dtype)? {
        UnaryPlan::Identity => a.astype(a.dtype),
        UnaryPlan::Kernel(set, code, out_dtype) => {
            let out = Array::empty(name, &a.device, a.shape(), out_dtype)?;
            unary_into(name, set, code, a, &out)?;
            Ok(out)
        }
    }
}

/// Writes `op(self, rhs)` into `self` (NumPy's `out=`): `rhs` broadcasts to `self`'s shape and
/// the result must keep `self`'s dtype.
fn assign_op(op: BinaryOp, dst: &Array, rhs: Operand) -> Result<()> {
    let r = binary(op, Operand::Array(dst), rhs)?;
    if r.dtype != dst.dtype {
        return Err(Error::invalid(
            op.name(),
            format!(
                "cannot write the {} result into an array of dtype {} in place",
                r.dtype, dst.dtype
            ),
        ));
    }
    if r.shape() != dst.shape() {
        return Err(Error::shape(
            op.name(),
            format!(
                "non-broadcastable output operand with shape {:?} doesn't match the broadcast shape {:?}",
                dst.shape(),
                r.shape()
            ),
        ));
    }
    // The result is a fresh array, so writing it back never reads what it overwrites.
    dst.assign(&r)
}

macro_rules! binary_ops {
    ($( $name:ident, $assign:ident => $op:ident, $np:literal, $ex:literal, $host:literal; )*) => {
        impl Array {
            $(
                #[doc = concat!("Element-wise `numpy.", $np, "` with broadcasting; `rhs` is an array or a scalar.\n\n",
                    "```\n# fn main() -> gpuarray::Result<()> {\n# let dev = gpuarray::Device::new()?;\n",
                    $ex, "\nlet c = a.", stringify!($name), "(&b)?;\nlet d = a.", stringify!($name), "(2)?;\n",
                    "assert_eq!(c.shape(), &[2, 3]);\n",
                    "// c[i][j] = host(a[j], b[i]), against the host: integers exactly, floats within 4 ulp.\n",
                    "# fn read_like<T: gpuarray::Element>(r: &gpuarray::Array, _: &[T]) -> gpuarray::Result<Vec<T>> { r.to_vec() }\n",
                    "let host = ", $host, ";\nlet (x, y): (Vec<_>, Vec<_>) = (a.to_vec()?, b.to_vec()?);\n",
                    "let want: Vec<_> = y.iter().flat_map(|&v| x.iter().map(move |&u| host(u, v))).collect();\n",
                    "let close = |g: f64, w: f64| g == w || (g.is_nan() && w.is_nan()) || (g - w).abs() <= 4.0 * f32::EPSILON as f64 * w.abs() + f32::MIN_POSITIVE as f64;\n",
                    "let got = read_like(&c, &want)?;\nassert_eq!(got.len(), want.len());\n",
                    "for (&g, &w) in got.iter().zip(&want) { assert!(g == w || close(g as f64, w as f64), \"{g} vs {w}\"); }\n",
                    "// A scalar adopts the array's dtype.\nfor (&g, &u) in read_like(&d, &x)?.iter().zip(&x) { let w = host(u, 2u8.into()); assert!(g == w || close(g as f64, w as f64), \"{g} vs {w}\"); }\n",
                    "# Ok(()) }\n```")]
                pub fn $name<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<Array> {
                    binary(BinaryOp::$op, Operand::Array(self), rhs.into())
                }
                #[doc = concat!("In-place `", stringify!($name), "`: `self = ", stringify!($name),
                    "(self, rhs)` (`rhs` broadcasts to `self`; views write through).\n\n",
                    "```\n# fn main() -> gpuarray::Result<()> {\n# let dev = gpuarray::Device::new()?;\n",
                    $ex, "\nlet t = a.broadcast_to(&[2, 3])?.contiguous()?.astype(a.dtype())?;\nt.", stringify!($assign), "(&b)?;\n",
                    "// t[i][j] = host(a[j], b[i]), against the host: integers exactly, floats within 4 ulp.\n",
                    "# fn read_like<T: gpuarray::Element>(r: &gpuarray::Array, _: &[T]) -> gpuarray::Result<Vec<T>> { r.to_vec() }\n",
                    "let host = ", $host, ";\nlet (x, y): (Vec<_>, Vec<_>) = (a.to_vec()?, b.to_vec()?);\n",
                    "let want: Vec<_> = y.iter().flat_map(|&v| x.iter().map(move |&u| host(u, v))).collect();\n",
                    "let close = |g: f64, w: f64| g == w || (g.is_nan() && w.is_nan()) || (g - w).abs() <= 4.0 * f32::EPSILON as f64 * w.abs() + f32::MIN_POSITIVE as f64;\n",
                    "let got = read_like(&t, &want)?;\nassert_eq!(got.len(), want.len());\n",
                    "for (&g, &w) in got.iter().zip(&want) { assert!(g == w || close(g as f64, w as f64), \"{g} vs {w}\"); }\n",
                    "# Ok(()) }\n```")]
                pub fn $assign<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<()> {
                    assign_op(BinaryOp::$op, self, rhs.into())
                }
            )*
        }
        $(
            #[doc = concat!("Element-wise `numpy.", $np, "(a, b)`: either side may be a scalar.\n\n",
                "```\n# fn main() -> gpuarray::Result<()> {\n# let dev = gpuarray::Device::new()?;\n",
                $ex, "\nlet c = gpuarray::", stringify!($name), "(&a, &b)?;\nassert_eq!(c.shape(), &[2, 3]);\n",
                "// c[i][j] = host(a[j], b[i]), against the host: integers exactly, floats within 4 ulp.\n",
                "# fn read_like<T: gpuarray::Element>(r: &gpuarray::Array, _: &[T]) -> gpuarray::Result<Vec<T>> { r.to_vec() }\n",
                "let host = ", $host, ";\nlet (x, y): (Vec<_>, Vec<_>) = (a.to_vec()?, b.to_vec()?);\n",
                "let want: Vec<_> = y.iter().flat_map(|&v| x.iter().map(move |&u| host(u, v))).collect();\n",
                "let close = |g: f64, w: f64| g == w || (g.is_nan() && w.is_nan()) || (g - w).abs() <= 4.0 * f32::EPSILON as f64 * w.abs() + f32::MIN_POSITIVE as f64;\n",
                "let got = read_like(&c, &want)?;\nassert_eq!(got.len(), want.len());\n",
                "for (&g, &w) in got.iter().zip(&want) { assert!(g == w || close(g as f64, w as f64), \"{g} vs {w}\"); }\n",
                "# Ok(()) }\n```")]
            pub fn $name<'a, 'b>(a: impl Into<Operand<'a>>, b: impl Into<Operand<'b>>) -> Result<Array> {
                binary(BinaryOp::$op, a.into(), b.into())
            }
        )*
    };
}

macro_rules! compare_ops {
    ($( $name:ident => $op:ident, $np:literal, $host:literal; )*) => {
        impl Array {
            $(
                #[doc = concat!("Element-wise `numpy.", $np, "` with broadcasting, giving a bool array (NaN compares unequal to everything).\n\n",
                    "```\n# fn main() -> gpuarray::Result<()> {\n# let dev = gpuarray::Device::new()?;\n",
                    "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, f32::NAN, 3.0], &[3])?;\nlet m = a.", stringify!($name), "(2.0)?;\n",
                    "assert_eq!(m.dtype(), gpuarray::DType::Bool);\n",
                    "// Against the host, with the scalar 2.0 on the right.\nlet host = ", $host, ";\n",
                    "assert_eq!(m.to_vec_bool()?, [1.0f32, f32::NAN, 3.0].map(host));\n# Ok(()) }\n```")]
                pub fn $name<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<Array> {
                    binary(BinaryOp::$op, Operand::Array(self), rhs.into())
                }
            )*
        }
    };
}

binary_ops! {
    add, add_assign => Add, "add", "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[10.0f32, 20.0], &[2, 1])?;", "|x: f32, y: f32| x + y";
    sub, sub_assign => Sub, "subtract", "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[10.0f32, 20.0], &[2, 1])?;", "|x: f32, y: f32| x - y";
    mul, mul_assign => Mul, "multiply", "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[10.0f32, 20.0], &[2, 1])?;", "|x: f32, y: f32| x * y";
    div, div_assign => Div, "divide", "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[10.0f32, 20.0], &[2, 1])?;", "|x: f32, y: f32| x / y";
    floor_divide, floor_divide_assign => FloorDivide, "floor_divide", "let a = gpuarray::Array::from_slice(&dev, &[7i32, -7, 9], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[2i32, -3], &[2, 1])?;", "|x: i32, y: i32| { let q = x / y; if x % y != 0 && ((x < 0) != (y < 0)) { q - 1 } else { q } }";
    remainder, remainder_assign => Remainder, "remainder", "let a = gpuarray::Array::from_slice(&dev, &[7i32, -7, 9], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[2i32, -3], &[2, 1])?;", "|x: i32, y: i32| { let r = x % y; if r != 0 && ((r < 0) != (y < 0)) { r + y } else { r } }";
    pow, pow_assign => Pow, "power", "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[2.0f32, 0.5], &[2, 1])?;", "|x: f32, y: f32| x.powf(y)";
    maximum, maximum_assign => Maximum, "maximum", "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, f32::NAN, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[2.0f32, 0.5], &[2, 1])?;", "|x: f32, y: f32| if x.is_nan() || y.is_nan() { f32::NAN } else { x.max(y) }";
    minimum, minimum_assign => Minimum, "minimum", "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, f32::NAN, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[2.0f32, 0.5], &[2, 1])?;", "|x: f32, y: f32| if x.is_nan() || y.is_nan() { f32::NAN } else { x.min(y) }";
    fmax, fmax_assign => Fmax, "fmax", "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, f32::NAN, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[2.0f32, 0.5], &[2, 1])?;", "|x: f32, y: f32| x.max(y)";
    fmin, fmin_assign => Fmin, "fmin", "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, f32::NAN, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[2.0f32, 0.5], &[2, 1])?;", "|x: f32, y: f32| x.min(y)";
    arctan2, arctan2_assign => Arctan2, "arctan2", "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[-1.0f32, 0.5], &[2, 1])?;", "|x: f32, y: f32| x.atan2(y)";
    hypot, hypot_assign => Hypot, "hypot", "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[-1.0f32, 0.5], &[2, 1])?;", "|x: f32, y: f32| x.hypot(y)";
    copysign, copysign_assign => Copysign, "copysign", "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[-1.0f32, 0.5], &[2, 1])?;", "|x: f32, y: f32| x.copysign(y)";
    fmod, fmod_assign => Fmod, "fmod", "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[-1.0f32, 0.5], &[2, 1])?;", "|x: f32, y: f32| x % y";
    heaviside, heaviside_assign => Heaviside, "heaviside", "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[-1.0f32, 0.5], &[2, 1])?;", "|x: f32, y: f32| if x < 0.0 { 0.0 } else if x == 0.0 { y } else { 1.0 }";
    logaddexp, logaddexp_assign => Logaddexp, "logaddexp", "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[-1.0f32, 0.5], &[2, 1])?;", "|x: f32, y: f32| ((x as f64).exp() + (y as f64).exp()).ln() as f32";
    logaddexp2, logaddexp2_assign => Logaddexp2, "logaddexp2", "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[-1.0f32, 0.5], &[2, 1])?;", "|x: f32, y: f32| ((x as f64).exp2() + (y as f64).exp2()).log2() as f32";
    gcd, gcd_assign => Gcd, "gcd", "let a = gpuarray::Array::from_slice(&dev, &[12i32, -18, 7], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[8i32, -5], &[2, 1])?;", "|x: i32, y: i32| { let (mut a, mut b) = (x.unsigned_abs(), y.unsigned_abs()); while b != 0 { (a, b) = (b, a % b); } a as i32 }";
    lcm, lcm_assign => Lcm, "lcm", "let a = gpuarray::Array::from_slice(&dev, &[12i32, -18, 7], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[8i32, -5], &[2, 1])?;", "|x: i32, y: i32| { let (mut a, mut b) = (x.unsigned_abs(), y.unsigned_abs()); while b != 0 { (a, b) = (b, a % b); } if a == 0 { 0 } else { (x.unsigned_abs() / a * y.unsigned_abs()) as i32 } }";
    bitwise_and, bitwise_and_assign => BitAnd, "bitwise_and", "let a = gpuarray::Array::from_slice(&dev, &[12i32, 10, -1], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[6i32, 3], &[2, 1])?;", "|x: i32, y: i32| x & y";
    bitwise_or, bitwise_or_assign => BitOr, "bitwise_or", "let a = gpuarray::Array::from_slice(&dev, &[12i32, 10, -1], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[6i32, 3], &[2, 1])?;", "|x: i32, y: i32| x | y";
    bitwise_xor, bitwise_xor_assign => BitXor, "bitwise_xor", "let a = gpuarray::Array::from_slice(&dev, &[12i32, 10, -1], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[6i32, 3], &[2, 1])?;", "|x: i32, y: i32| x ^ y";
    left_shift, left_shift_assign => LeftShift, "left_shift", "let a = gpuarray::Array::from_slice(&dev, &[12u32, 10, 1], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[1u32, 31], &[2, 1])?;", "|x: u32, y: u32| if y >= 32 { 0 } else { x << y }";
    right_shift, right_shift_assign => RightShift, "right_shift", "let a = gpuarray::Array::from_slice(&dev, &[12i32, 10, -1], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[1i32, 40], &[2, 1])?;", "|x: i32, y: i32| if y >= 32 { x >> 31 } else { x >> y }";
}

compare_ops! {
    eq => Eq, "equal", "|x: f32| x == 2.0";
    ne => Ne, "not_equal", "|x: f32| x != 2.0";
    lt => Lt, "less", "|x: f32| x < 2.0";
    le => Le, "less_equal", "|x: f32| x <= 2.0";
    gt => Gt, "greater", "|x: f32| x > 2.0";
    ge => Ge, "greater_equal", "|x: f32| x >= 2.0";
    logical_and => LogicalAnd, "logical_and", "|x: f32| x != 0.0";
    logical_or => LogicalOr, "logical_or", "|_x: f32| true";
    logical_xor => LogicalXor, "logical_xor", "|x: f32| x == 0.0";
}

macro_rules! unary_ops {
    ($( $name:ident => $op:ident, $what:literal, $ex:literal, $host:literal; )*) => {
        impl Array {
            $(
                #[doc = concat!($what, "\n\n```\n# fn main() -> gpuarray::Result<()> {\n# let dev = gpuarray::Device::new()?;\n",
                    $ex, "\nlet r = a.", stringify!($name), "()?;\nassert_eq!(r.shape(), a.shape());\n",
                    "// Against the host's own function: integers exactly, floats within 4 ulp.\n",
                    "# fn read_like<T: gpuarray::Element>(r: &gpuarray::Array, _: &[T]) -> gpuarray::Result<Vec<T>> { r.to_vec() }\n",
                    "let host = ", $host, ";\nlet want: Vec<_> = a.to_vec()?.into_iter().map(host).collect();\n",
                    "for (&g, &w) in read_like(&r, &want)?.iter().zip(&want) {\n",
                    "    let (gf, wf) = (g as f64, w as f64);\n",
                    "    assert!(g == w || (gf.is_nan() && wf.is_nan()) || (gf - wf).abs() <= 4.0 * f32::EPSILON as f64 * wf.abs() + f32::MIN_POSITIVE as f64, \"{g} vs {w}\");\n}\n",
                    "# Ok(()) }\n```")]
                pub fn $name(&self) -> Result<Array> {
                    unary(UnaryOp::$op, self)
                }
            )*
        }
    };
}

macro_rules! predicate_ops {
    ($( $name:ident => $op:ident, $what:literal, $ex:literal, $host:literal; )*) => {
        impl Array {
            $(
                #[doc = concat!($what, "\n\n```\n# fn main() -> gpuarray::Result<()> {\n# let dev = gpuarray::Device::new()?;\n",
                    $ex, "\nlet r = a.", stringify!($name), "()?;\nassert_eq!(r.dtype(), gpuarray::DType::Bool);\n",
                    "let host = ", $host, ";\n",
                    "let want: Vec<bool> = a.to_vec::<f32>()?.into_iter().map(host).collect();\n",
                    "assert_eq!(r.to_vec_bool()?, want);\n# Ok(()) }\n```")]
                pub fn $name(&self) -> Result<Array> {
                    unary(UnaryOp::$op, self)
                }
            )*
        }
    };
}

unary_ops! {
    neg => Neg, "Element-wise `numpy.negative` (integers wrap; not for bool).", "let a = gpuarray::Array::from_slice(&dev, &[1i32, -2], &[2])?;", "|x: i32| x.wrapping_neg()";
    abs => Abs, "Element-wise `numpy.absolute` (the most negative i32 stays itself, as in NumPy).", "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, -2.0], &[2])?;", "|x: f32| x.abs()";
    sign => Sign, "Element-wise `numpy.sign`: -1, 0 or 1 (NaN stays NaN, -0.0 gives 0.0).", "let a = gpuarray::Array::from_slice(&dev, &[3.0f32, -0.0], &[2])?;", "|x: f32| if x == 0.0 { 0.0 } else { x.signum() }";
    sqrt => Sqrt, "Element-wise `numpy.sqrt` (floats).", "let a = gpuarray::Array::from_slice(&dev, &[4.0f32, 2.0], &[2])?;", "|x: f32| x.sqrt()";
    rsqrt => Rsqrt, "Element-wise `1 / sqrt(x)` (floats; computed as a true division, not a fast approximation).", "let a = gpuarray::Array::from_slice(&dev, &[4.0f32, 2.0], &[2])?;", "|x: f32| 1.0 / x.sqrt()";
    exp => Exp, "Element-wise `numpy.exp` (floats).", "let a = gpuarray::Array::from_slice(&dev, &[0.0f32, 1.0], &[2])?;", "|x: f32| x.exp()";
    exp2 => Exp2, "Element-wise `numpy.exp2` (floats).", "let a = gpuarray::Array::from_slice(&dev, &[0.0f32, 10.0], &[2])?;", "|x: f32| x.exp2()";
    expm1 => Expm1, "Element-wise `numpy.expm1`, accurate near 0 (floats).", "let a = gpuarray::Array::from_slice(&dev, &[1e-7f32, 1.0], &[2])?;", "|x: f32| x.exp_m1()";
    log => Log, "Element-wise `numpy.log` (floats).", "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 10.0], &[2])?;", "|x: f32| x.ln()";
    log2 => Log2, "Element-wise `numpy.log2` (floats).", "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 8.0], &[2])?;", "|x: f32| x.log2()";
    log10 => Log10, "Element-wise `numpy.log10` (floats).", "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 100.0], &[2])?;", "|x: f32| x.log10()";
    log1p => Log1p, "Element-wise `numpy.log1p`, accurate near 0 (floats).", "let a = gpuarray::Array::from_slice(&dev, &[1e-7f32, 1.0], &[2])?;", "|x: f32| x.ln_1p()";
    sin => Sin, "Element-wise `numpy.sin` (floats).", "let a = gpuarray::Array::from_slice(&dev, &[0.0f32, 1.0], &[2])?;", "|x: f32| x.sin()";
    cos => Cos, "Element-wise `numpy.cos` (floats).", "let a = gpuarray::Array::from_slice(&dev, &[0.0f32, 1.0], &[2])?;", "|x: f32| x.cos()";
    tan => Tan, "Element-wise `numpy.tan` (floats).", "let a = gpuarray::Array::from_slice(&dev, &[0.0f32, 1.0], &[2])?;", "|x: f32| x.tan()";
    asin => Arcsin, "Element-wise `numpy.asin` / `arcsin` (floats).", "let a = gpuarray::Array::from_slice(&dev, &[0.0f32, 0.5], &[2])?;", "|x: f32| x.asin()";
    acos => Arccos, "Element-wise `numpy.acos` / `arccos` (floats).", "let a = gpuarray::Array::from_slice(&dev, &[0.0f32, 0.5], &[2])?;", "|x: f32| x.acos()";
    atan => Arctan, "Element-wise `numpy.atan` / `arctan` (floats).", "let a = gpuarray::Array::from_slice(&dev, &[0.0f32, 0.5], &[2])?;", "|x: f32| x.atan()";
    sinh => Sinh, "Element-wise `numpy.sinh` (floats).", "let a = gpuarray::Array::from_slice(&dev, &[0.0f32, 0.5], &[2])?;", "|x: f32| x.sinh()";
    cosh => Cosh, "Element-wise `numpy.cosh` (floats).", "let a = gpuarray::Array::from_slice(&dev, &[0.0f32, 0.5], &[2])?;", "|x: f32| x.cosh()";
    tanh => Tanh, "Element-wise `numpy.tanh` (floats).", "let a = gpuarray::Array::from_slice(&dev, &[0.0f32, 50.0], &[2])?;", "|x: f32| x.tanh()";
    floor => Floor, "Element-wise `numpy.floor` (integers: unchanged, a copy).", "let a = gpuarray::Array::from_slice(&dev, &[-0.5f32, 1.5], &[2])?;", "|x: f32| x.floor()";
    ceil => Ceil, "Element-wise `numpy.ceil` (integers: unchanged, a copy).", "let a = gpuarray::Array::from_slice(&dev, &[-0.5f32, 1.5], &[2])?;", "|x: f32| x.ceil()";
    round => Round, "Element-wise `numpy.round` to 0 decimals: halves go to the even neighbour, like NumPy.", "let a = gpuarray::Array::from_slice(&dev, &[0.5f32, 1.5], &[2])?;", "|x: f32| x.round_ties_even()";
    trunc => Trunc, "Element-wise `numpy.trunc` (integers: unchanged, a copy).", "let a = gpuarray::Array::from_slice(&dev, &[-0.5f32, 1.5], &[2])?;", "|x: f32| x.trunc()";
    cbrt => Cbrt, "Element-wise `numpy.cbrt`, the real cube root (floats; within 0.67 ulp).", "let a = gpuarray::Array::from_slice(&dev, &[27.0f32, -8.0], &[2])?;", "|x: f32| x.cbrt()";
    rint => Rint, "Element-wise `numpy.rint`: the nearest integer, halves to the even one (floats).", "let a = gpuarray::Array::from_slice(&dev, &[0.5f32, 1.5, -2.5], &[3])?;", "|x: f32| x.round_ties_even()";
    deg2rad => Deg2rad, "Element-wise `numpy.deg2rad` / `radians`: `x * (pi / 180)` with NumPy's rounded factor (floats).", "let a = gpuarray::Array::from_slice(&dev, &[180.0f32, 90.0], &[2])?;", "|x: f32| x * (std::f64::consts::PI / 180.0) as f32";
    rad2deg => Rad2deg, "Element-wise `numpy.rad2deg` / `degrees`: `x * (180 / pi)` with NumPy's rounded factor (floats).", "let a = gpuarray::Array::from_slice(&dev, &[3.14159f32, 1.0], &[2])?;", "|x: f32| x * (180.0 / std::f64::consts::PI) as f32";
    square => Square, "Element-wise `numpy.square` (integers wrap).", "let a = gpuarray::Array::from_slice(&dev, &[3i32, -4], &[2])?;", "|x: i32| x.wrapping_mul(x)";
    reciprocal => Reciprocal, "Element-wise `numpy.reciprocal` (integers: truncating `1 / x`, 0 for `x == 0`).", "let a = gpuarray::Array::from_slice(&dev, &[4.0f32, 0.5], &[2])?;", "|x: f32| 1.0 / x";
    sigmoid => Sigmoid, "Element-wise logistic sigmoid `1 / (1 + exp(-x))`, stable for large |x| (floats).", "let a = gpuarray::Array::from_slice(&dev, &[0.0f32, -100.0], &[2])?;", "|x: f32| (1.0 / (1.0 + (-(x as f64)).exp())) as f32";
    relu => Relu, "Element-wise `max(x, 0)` with NaN kept (floats and integers).", "let a = gpuarray::Array::from_slice(&dev, &[-1.0f32, 2.0], &[2])?;", "|x: f32| x.max(0.0)";
    bitwise_not => BitwiseNot, "Element-wise `numpy.invert` (`~x` for integers, logical not for bool).", "let a = gpuarray::Array::from_slice(&dev, &[0i32, -1], &[2])?;", "|x: i32| !x";
}

predicate_ops! {
    isnan => IsNan, "Element-wise `numpy.isnan`, giving bool (tested by bits; always false for integers).", "let a = gpuarray::Array::from_slice(&dev, &[f32::NAN, 1.0], &[2])?;", "|x: f32| x.is_nan()";
    isinf => IsInf, "Element-wise `numpy.isinf`, giving bool.", "let a = gpuarray::Array::from_slice(&dev, &[f32::INFINITY, 1.0], &[2])?;", "|x: f32| x.is_infinite()";
    isfinite => IsFinite, "Element-wise `numpy.isfinite`, giving bool.", "let a = gpuarray::Array::from_slice(&dev, &[f32::INFINITY, 1.0], &[2])?;", "|x: f32| x.is_finite()";
    logical_not => LogicalNot, "Element-wise `numpy.logical_not` of any dtype (zero is false, NaN is true), giving bool.", "let a = gpuarray::Array::from_slice(&dev, &[0.0f32, 2.0], &[2])?;", "|x: f32| x == 0.0";
    signbit => Signbit, "Element-wise `numpy.signbit`, giving bool (true for -0.0 and negative NaNs).", "let a = gpuarray::Array::from_slice(&dev, &[-0.0f32, 2.0], &[2])?;", "|x: f32| x.is_sign_negative()";
}

/// `numpy.where(cond, a, b)`: elements of `a` where `cond` is true, else of `b`, all three
/// broadcast together. `cond` of a non-bool dtype is converted (non-zero is true); `a` and `b`
/// may be arrays or scalars (not both scalars) and need equal dtypes.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let x = gpuarray::Array::from_slice(&dev, &[-1.0f32, 2.0, -3.0], &[3])?;
/// let y = gpuarray::where_(&x.gt(0.0)?, &x, 0.0)?;     // relu by masking
/// assert_eq!(y.to_vec::<f32>()?, vec![0.0, 2.0, 0.0]);
/// # Ok(()) }
/// ```
pub fn where_<'a, 'b>(
    cond: &Array,
    a: impl Into<Operand<'a>>,
    b: impl Into<Operand<'b>>,
) -> Result<Array> {
    let op = "where";
    let (a, b) = (a.into(), b.into());
    let dtype = match (a, b) {
        (Operand::Array(x), Operand::Array(y)) => {
            if x.dtype != y.dtype {
                return Err(Error::DTypeMismatch {
                    op,
                    expected: x.dtype,
                    got: y.dtype,
                });
            }
            x.dtype
        }
        (Operand::Array(x), _) | (_, Operand::Array(x)) => x.dtype,
        _ => {
            return Err(Error::invalid(
                op,
                "at least one of `a` and `b` must be an array",
            ))
        }
    };
    let dev = cond.device.clone();
    let as_array = |o: Operand| -> Result<Array> {
        match o {
            Operand::Array(x) => {
                cond.same_device(op, x)?;
                Ok(x.clone())
            }
            Operand::Scalar(s) => {
                // A 0-d array made by the fill kernel: broadcast with stride 0, no upload.
                ScalarValue::new(op, dtype, s)?;
                Array::full(&dev, &[], s, dtype)
            }
        }
    };
    let (a, b) = (as_array(a)?, as_array(b)?);
    let cond = if cond.dtype == DType::Bool {
        cond.clone()
    } else {
        unary(UnaryOp::Truth, cond)?
    };
    let shape = broadcast_shapes(op, &[cond.shape(), a.shape(), b.shape()])?;
    let out = Array::empty(op, &dev, &shape, dtype)?;
    where_into(
        op,
        &cond.broadcast_to(&shape)?,
        &a.broadcast_to(&shape)?,
        &b.broadcast_to(&shape)?,
        &out,
    )?;
    Ok(out)
}

impl Array {
    /// `numpy.clip(self, lo, hi)`: `minimum(maximum(self, lo), hi)`, so NaN stays NaN. Either bound
    /// may be an array (broadcast) or a scalar; `None` leaves that side open.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[-2.0f32, 0.5, 9.0], &[3])?;
    /// assert_eq!(a.clip(Some(0.0), Some(1.0))?.to_vec::<f32>()?, vec![0.0, 0.5, 1.0]);
    /// # Ok(()) }
    /// ```
    pub fn clip<'a, 'b>(
        &self,
        lo: Option<impl Into<Operand<'a>>>,
        hi: Option<impl Into<Operand<'b>>>,
    ) -> Result<Array> {
        let lower = match lo {
            Some(lo) => self.maximum(lo)?,
            None => self.clone(),
        };
        match hi {
            Some(hi) => lower.minimum(hi),
            None if lower.may_share_memory(self) => lower.astype(self.dtype),
            None => Ok(lower),
        }
    }
}

// ---- std::ops on &Array: every operator returns Result<Array> (nothing panics) -------------

macro_rules! std_binary {
    ($($tr:ident, $m:ident => $op:ident;)*) => {$(
        impl std::ops::$tr<&Array> for &Array {
            type Output = Result<Array>;
            fn $m(self, rhs: &Array) -> Result<Array> {
                binary(BinaryOp::$op, Operand::Array(self), Operand::Array(rhs))
            }
        }
        impl std::ops::$tr<Array> for &Array {
            type Output = Result<Array>;
            fn $m(self, rhs: Array) -> Result<Array> {
                binary(BinaryOp::$op, Operand::Array(self), Operand::Array(&rhs))
            }
        }
        impl std::ops::$tr<&Array> for Array {
            type Output = Result<Array>;
            fn $m(self, rhs: &Array) -> Result<Array> {
                binary(BinaryOp::$op, Operand::Array(&self), Operand::Array(rhs))
            }
        }
        impl std::ops::$tr<Array> for Array {
            type Output = Result<Array>;
            fn $m(self, rhs: Array) -> Result<Array> {
                binary(BinaryOp::$op, Operand::Array(&self), Operand::Array(&rhs))
            }
        }
        impl std::ops::$tr<&Array> for Result<Array> {
            type Output = Result<Array>;
            fn $m(self, rhs: &Array) -> Result<Array> {
                binary(BinaryOp::$op, Operand::Array(&self?), Operand::Array(rhs))
            }
        }
        std_scalar!($tr, $m => $op; f64, i32);
    )*};
}

macro_rules! std_scalar {
    ($tr:ident, $m:ident => $op:ident; $($t:ty),*) => {$(
        impl std::ops::$tr<$t> for &Array {
            type Output = Result<Array>;
            fn $m(self, rhs: $t) -> Result<Array> {
                binary(BinaryOp::$op, Operand::Array(self), Operand::from(rhs))
            }
        }
        impl std::ops::$tr<$t> for Array {
            type Output = Result<Array>;
            fn $m(self, rhs: $t) -> Result<Array> {
                binary(BinaryOp::$op, Operand::Array(&self), Operand::from(rhs))
            }
        }
        impl std::ops::$tr<&Array> for $t {
            type Output = Result<Array>;
            fn $m(self, rhs: &Array) -> Result<Array> {
                binary(BinaryOp::$op, Operand::from(self), Operand::Array(rhs))
            }
        }
    )*};
}

std_binary! {
    Add, add => Add;
    Sub, sub => Sub;
    Mul, mul => Mul;
    Div, div => Div;
    Rem, rem => Remainder;
    BitAnd, bitand => BitAnd;
    BitOr, bitor => BitOr;
    BitXor, bitxor => BitXor;
    Shl, shl => LeftShift;
    Shr, shr => RightShift;
}

impl std::ops::Neg for &Array {
    type Output = Result<Array>;
    fn neg(self) -> Result<Array> {
        unary(UnaryOp::Neg, self)
    }
}

impl std::ops::Neg for Array {
    type Output = Result<Array>;
    fn neg(self) -> Result<Array> {
        unary(UnaryOp::Neg, &self)
    }
}

impl std::ops::Not for &Array {
    type Output = Result<Array>;
    /// `~a`: bitwise not for integers, logical not for bool.
    fn not(self) -> Result<Array> {
        unary(UnaryOp::BitwiseNot, self)
    }
}
