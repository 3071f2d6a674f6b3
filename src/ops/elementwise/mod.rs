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
//! Every op is one row of the op table (`table.rs`), which generates its methods, free functions
//! and operators; `rules.rs` reads a row's dtype rules; this file holds the shared API and
//! [`elementwise_ops`], the exported list; `kernels.rs` records the launches on the kernel
//! families `families.rs` declares.

#[macro_use]
mod table_macro;
pub(crate) mod complex;
pub(crate) mod families;
mod fusion;
mod kernels;
mod nan_to_num;
mod rules;
mod table;

pub(crate) use fusion::OpLibrary;
pub(crate) use kernels::blocks_for;
use kernels::{ScalarValue, Side, binary_into, unary_into, where_into};
use rules::Plan;
pub(crate) use rules::unsupported;
pub use table::free_functions;
pub(crate) use table::{BinaryOp, UnaryOp};

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

pub(crate) fn binary(op: BinaryOp, lhs: Operand, rhs: Operand) -> Result<Array> {
    let name = op.name();
    let (arr, other, scalar_left) = match (lhs, rhs) {
        (Operand::Array(a), b) => (a, b, false),
        (Operand::Scalar(s), Operand::Array(b)) => (b, Operand::Scalar(s), true),
        (Operand::Scalar(_), Operand::Scalar(_)) => {
            return Err(Error::invalid(
                name,
                "at least one operand must be an array (two scalars need no GPU)",
            ));
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
    if dtype.is_complex() {
        return complex::binary(op, arr, other, scalar_left);
    }
    let (set, code, out_dtype) = match op.plan(dtype, arr.device.supports(DType::F64))? {
        Plan::Kernel(set, code, out) => (set, code, out),
        Plan::Identity => return arr.astype(dtype),
        // NumPy's true division of integers gives floats.
        Plan::InFloat(work) => {
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
                Operand::Scalar(s) if scalar_left => {
                    binary(op, Operand::Scalar(s), Operand::Array(&a))
                }
                Operand::Scalar(s) => binary(op, Operand::Array(&a), Operand::Scalar(s)),
            };
        }
    };
    if op == BinaryOp::Pow && dtype == DType::I32 {
        check_int_exponent(arr, other, scalar_left)?;
    }
    match other {
        Operand::Scalar(s) => {
            let sv = ScalarValue::new(name, dtype, s)?;
            let out = Array::empty(name, &arr.device, arr.shape(), out_dtype)?;
            binary_into(name, set, code, arr, None, Some((sv, scalar_left)), &out)?;
            Ok(out)
        }
        Operand::Array(b) => {
            let (a, b) = if scalar_left { (b, arr) } else { (arr, b) };
            let shape = broadcast_shapes(name, &[a.shape(), b.shape()])?;
            let out = Array::empty(name, &arr.device, &shape, out_dtype)?;
            let (ab, bb) = (a.broadcast_to(&shape)?, b.broadcast_to(&shape)?);
            binary_into(name, set, code, &ab, Some(&bb), None, &out)?;
            Ok(out)
        }
    }
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

/// Whether a non-empty integer exponent array holds a negative value (`any(e < 0)`, read back;
/// never for unsigned dtypes).
#[cfg(not(target_arch = "wasm32"))]
fn has_negative(e: &Array) -> Result<bool> {
    if !e.dtype.is_signed_int() {
        return Ok(false);
    }
    Ok(e.lt(0.0)?.any(crate::Axes::All, false)?.to_vec_bool()?[0])
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
    if a.dtype.is_complex() {
        return complex::unary(op, a);
    }
    match op.plan(a.dtype, a.device.supports(DType::F64))? {
        Plan::Identity => a.astype(a.dtype),
        Plan::Kernel(set, code, out_dtype) => {
            let out = Array::empty(name, &a.device, a.shape(), out_dtype)?;
            unary_into(name, set, code, a, &out)?;
            Ok(out)
        }
        Plan::InFloat(work) => unary(op, &a.astype(work)?),
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
            ));
        }
    };
    let dev = cond.device.clone();
    for o in [a, b] {
        match o {
            Operand::Array(x) => cond.same_device(op, x)?,
            Operand::Scalar(s) if !dtype.is_complex() => {
                ScalarValue::new(op, dtype, s)?;
            }
            Operand::Scalar(_) => {}
        }
    }
    let cond = if cond.dtype == DType::Bool {
        cond.clone()
    } else {
        unary(UnaryOp::Truth, cond)?
    };
    // A scalar broadcasts as shape ().
    let shape_of = |o: Operand<'_>| match o {
        Operand::Array(x) => x.shape().to_vec(),
        Operand::Scalar(_) => Vec::new(),
    };
    let shape = broadcast_shapes(op, &[cond.shape(), &shape_of(a), &shape_of(b)])?;
    let out = Array::empty(op, &dev, &shape, dtype)?;
    if dtype.is_complex() {
        // Part by part: the condition broadcast over the (real, imaginary) axis; a scalar
        // side as a 0-d array (its parts).
        let mut pairs = shape.clone();
        pairs.push(2);
        let c = cond
            .broadcast_to(&shape)?
            .expand_dims(-1)?
            .broadcast_to(&pairs)?;
        let parts = |o: Operand<'_>| -> Result<Array> {
            let x = match o {
                Operand::Array(x) => x.clone(),
                Operand::Scalar(s) => Array::full(&dev, &[], s, dtype)?,
            };
            Ok(x.broadcast_to(&shape)?.parts())
        };
        let (pa, pb) = (parts(a)?, parts(b)?);
        where_into(op, &c, Side::Array(&pa), Side::Array(&pb), &out.parts())?;
        return Ok(out);
    }
    // Arrays broadcast to the output; scalars go to the kernels as values (`Side::Scalar`).
    let wide = |o: Operand<'_>| match o {
        Operand::Array(x) => x.broadcast_to(&shape).map(Some),
        Operand::Scalar(_) => Ok(None),
    };
    let (wa, wb) = (wide(a)?, wide(b)?);
    fn side<'w>(o: Operand, w: &'w Option<Array>) -> Side<'w> {
        match (o, w) {
            (_, Some(w)) => Side::Array(w),
            (Operand::Scalar(s), None) => Side::Scalar(s),
            (Operand::Array(_), None) => unreachable!("arrays are broadcast above"),
        }
    }
    where_into(
        op,
        &cond.broadcast_to(&shape)?,
        side(a, &wa),
        side(b, &wb),
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

impl UnaryOp {
    /// The kernel (set, code, result dtype), the input itself, or a conversion first, for
    /// inputs of `dtype`; the refusal NumPy's dtype rules call for.
    pub(crate) fn plan(self, dtype: DType, has_f64: bool) -> Result<Plan> {
        rules::plan(
            self.name(),
            self,
            UnaryOp::rules,
            UnaryOp::code,
            dtype,
            has_f64,
        )
    }
}

impl BinaryOp {
    /// As [`UnaryOp::plan`], for inputs of `dtype` on both sides.
    pub(crate) fn plan(self, dtype: DType, has_f64: bool) -> Result<Plan> {
        rules::plan(
            self.name(),
            self,
            BinaryOp::rules,
            BinaryOp::code,
            dtype,
            has_f64,
        )
    }
}

/// Which op of the table a row is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Which {
    Unary(UnaryOp),
    Binary(BinaryOp),
}

/// One public element-wise op of the op table: its names, arity and dtype support, and a way to
/// call it by name (how the Python package maps NumPy's ufuncs onto the crate).
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let op = gpuarray::elementwise_op("arcsin").unwrap();
/// assert_eq!((op.name, op.arity), ("asin", 1));
/// assert!(op.supports(gpuarray::DType::F32) && !op.supports(gpuarray::DType::I32));
/// let x = gpuarray::Array::from_slice(&dev, &[0.5f32], &[1])?;
/// let y = op.call(&[(&x).into()])?;
/// assert!((y.to_vec::<f32>()?[0] - 0.5f32.asin()).abs() < 1e-6);
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct ElementwiseOp {
    /// The Rust method (`asin`; binary ops also have a free function of that name).
    pub name: &'static str,
    /// NumPy's name for it (`arcsin`), the name of its ufunc where NumPy has one.
    pub numpy: &'static str,
    /// Other names NumPy or the Array API give it (`asin`).
    pub aliases: &'static [&'static str],
    /// 1 or 2 operands.
    pub arity: usize,
    /// The first line of its documentation.
    pub doc: &'static str,
    op: Which,
}

impl ElementwiseOp {
    /// Whether the op is defined for inputs of `dtype` (on an adapter that has the dtype).
    pub fn supports(&self, dtype: DType) -> bool {
        self.result_dtype(dtype).is_some()
    }

    /// The result's dtype for inputs of `dtype`, or `None` where the op refuses it. Integer true
    /// division gives f64 (f32 on adapters without f64).
    pub fn result_dtype(&self, dtype: DType) -> Option<DType> {
        if dtype.is_complex() {
            return complex::result_dtype(self.op, dtype);
        }
        let plan = match self.op {
            Which::Unary(op) => op.plan(dtype, true),
            Which::Binary(op) => op.plan(dtype, true),
        };
        match plan.ok()? {
            Plan::Kernel(_, _, out) => Some(out),
            Plan::Identity => Some(dtype),
            Plan::InFloat(work) => Some(work),
        }
    }

    /// Applies the op to `operands` (one or two; for a binary op either may be a scalar).
    pub fn call(&self, operands: &[Operand]) -> Result<Array> {
        match (self.op, operands) {
            (Which::Unary(op), [Operand::Array(a)]) => unary(op, a),
            (Which::Binary(op), [a, b]) => binary(op, *a, *b),
            _ => Err(Error::invalid(
                self.numpy,
                format!(
                    "takes {} array operand(s), got {} operand(s)",
                    self.arity,
                    operands.len()
                ),
            )),
        }
    }
}

/// Every public element-wise op, in the op table's order.
///
/// ```
/// let ops = gpuarray::elementwise_ops();
/// assert!(ops.iter().any(|op| op.numpy == "add" && op.arity == 2));
/// ```
pub fn elementwise_ops() -> &'static [ElementwiseOp] {
    table::PUBLIC_OPS
}

/// The public element-wise op NumPy (or the Array API) calls `name`, if the table has it.
///
/// ```
/// assert_eq!(gpuarray::elementwise_op("true_divide").unwrap().name, "div");
/// assert!(gpuarray::elementwise_op("matmul").is_none());
/// ```
pub fn elementwise_op(name: &str) -> Option<&'static ElementwiseOp> {
    table::PUBLIC_OPS
        .iter()
        .find(|op| op.numpy == name || op.aliases.contains(&name))
}
