//! The element-wise op table: every element-wise op stated once.
//!
//! A row gives the Rust method (and, for binary ops, the in-place method and the free function),
//! the op's variant and its kernels' `OP` code, the WGSL constant its shader's `case` names, the
//! NumPy name (then the aliases NumPy or the Array API also use), what it does for float, integer
//! and bool dtypes (an allow-list: `No` refuses), the `std::ops` trait it implements, and its
//! documentation with an example checked against the host. `table_macro.rs` turns the rows into
//! the enums, the dtype rules, the methods, free functions and operators, and the exported list
//! ([`elementwise_ops`](super::elementwise_ops)) that the start-up plan, the op × dtype test, the
//! README check and the Python package read.
//!
//! Codes index one op file each: unary math rows `shaders/unary_float.wgsl` (and, for the ops
//! integers have, `unary_int.wgsl`), predicates `unary_predicate.wgsl`, binary rows
//! `binary_float.wgsl`/`binary_int.wgsl`, comparisons `binary_compare.wgsl`; so the ranges of
//! different files overlap. A row whose file lacks its `case` is refused when its pipeline is
//! specialised (and fails `registry::tests`).
//!
//! Adding an op: a row here, its `case` in the op file (and the math functions in
//! `math_f32.wgsl` and `math_f64.wgsl`), and its test.

use super::rules::{OpSet, Rules, Run};
use super::{ElementwiseOp, Operand, Which, assign_op, binary, unary};
use crate::array::Array;
use crate::error::Result;

elementwise_table! {
    unary {
        pub neg => Neg = 0, NEG, "negative";
            float: Kernel(UnaryFloat), int: Kernel(UnaryInt), bool: No;
            std Neg::neg;
            "Element-wise `numpy.negative` (integers wrap; not for bool).",
            "let a = gpuarray::Array::from_slice(&dev, &[1i32, -2], &[2])?;",
            "|x: i32| x.wrapping_neg()";
        pub abs => Abs = 1, ABS, "absolute" | "abs";
            float: Kernel(UnaryFloat), int: Kernel(UnaryInt), bool: Identity;
            "Element-wise `numpy.absolute` (the most negative i32 stays itself, as in NumPy).",
            "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, -2.0], &[2])?;",
            "|x: f32| x.abs()";
        pub sign => Sign = 2, SIGN, "sign";
            float: Kernel(UnaryFloat), int: Kernel(UnaryInt), bool: No;
            "Element-wise `numpy.sign`: -1, 0 or 1 (NaN stays NaN, -0.0 gives 0.0).",
            "let a = gpuarray::Array::from_slice(&dev, &[3.0f32, -0.0], &[2])?;",
            "|x: f32| if x == 0.0 { 0.0 } else { x.signum() }";
        pub sqrt => Sqrt = 3, SQRT, "sqrt";
            float: Kernel(UnaryFloat), int: No, bool: No;
            "Element-wise `numpy.sqrt` (floats).",
            "let a = gpuarray::Array::from_slice(&dev, &[4.0f32, 2.0], &[2])?;",
            "|x: f32| x.sqrt()";
        pub rsqrt => Rsqrt = 4, RSQRT, "rsqrt";
            float: Kernel(UnaryFloat), int: No, bool: No;
            "Element-wise `1 / sqrt(x)` (floats; computed as a true division, not a fast approximation).",
            "let a = gpuarray::Array::from_slice(&dev, &[4.0f32, 2.0], &[2])?;",
            "|x: f32| 1.0 / x.sqrt()";
        pub exp => Exp = 5, EXP, "exp";
            float: Kernel(UnaryFloat), int: No, bool: No;
            "Element-wise `numpy.exp` (floats).",
            "let a = gpuarray::Array::from_slice(&dev, &[0.0f32, 1.0], &[2])?;",
            "|x: f32| x.exp()";
        pub exp2 => Exp2 = 6, EXP2, "exp2";
            float: Kernel(UnaryFloat), int: No, bool: No;
            "Element-wise `numpy.exp2` (floats).",
            "let a = gpuarray::Array::from_slice(&dev, &[0.0f32, 10.0], &[2])?;",
            "|x: f32| x.exp2()";
        pub expm1 => Expm1 = 7, EXPM1, "expm1";
            float: Kernel(UnaryFloat), int: No, bool: No;
            "Element-wise `numpy.expm1`, accurate near 0 (floats).",
            "let a = gpuarray::Array::from_slice(&dev, &[1e-7f32, 1.0], &[2])?;",
            "|x: f32| x.exp_m1()";
        pub log => Log = 8, LOG, "log";
            float: Kernel(UnaryFloat), int: No, bool: No;
            "Element-wise `numpy.log` (floats).",
            "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 10.0], &[2])?;",
            "|x: f32| x.ln()";
        pub log2 => Log2 = 9, LOG2, "log2";
            float: Kernel(UnaryFloat), int: No, bool: No;
            "Element-wise `numpy.log2` (floats).",
            "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 8.0], &[2])?;",
            "|x: f32| x.log2()";
        pub log10 => Log10 = 10, LOG10, "log10";
            float: Kernel(UnaryFloat), int: No, bool: No;
            "Element-wise `numpy.log10` (floats).",
            "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 100.0], &[2])?;",
            "|x: f32| x.log10()";
        pub log1p => Log1p = 11, LOG1P, "log1p";
            float: Kernel(UnaryFloat), int: No, bool: No;
            "Element-wise `numpy.log1p`, accurate near 0 (floats).",
            "let a = gpuarray::Array::from_slice(&dev, &[1e-7f32, 1.0], &[2])?;",
            "|x: f32| x.ln_1p()";
        pub sin => Sin = 12, SIN, "sin";
            float: Kernel(UnaryFloat), int: No, bool: No;
            "Element-wise `numpy.sin` (floats).",
            "let a = gpuarray::Array::from_slice(&dev, &[0.0f32, 1.0], &[2])?;",
            "|x: f32| x.sin()";
        pub cos => Cos = 13, COS, "cos";
            float: Kernel(UnaryFloat), int: No, bool: No;
            "Element-wise `numpy.cos` (floats).",
            "let a = gpuarray::Array::from_slice(&dev, &[0.0f32, 1.0], &[2])?;",
            "|x: f32| x.cos()";
        pub tan => Tan = 14, TAN, "tan";
            float: Kernel(UnaryFloat), int: No, bool: No;
            "Element-wise `numpy.tan` (floats).",
            "let a = gpuarray::Array::from_slice(&dev, &[0.0f32, 1.0], &[2])?;",
            "|x: f32| x.tan()";
        pub asin => Arcsin = 15, ARCSIN, "arcsin" | "asin";
            float: Kernel(UnaryFloat), int: No, bool: No;
            "Element-wise `numpy.asin` / `arcsin` (floats).",
            "let a = gpuarray::Array::from_slice(&dev, &[0.0f32, 0.5], &[2])?;",
            "|x: f32| x.asin()";
        pub acos => Arccos = 16, ARCCOS, "arccos" | "acos";
            float: Kernel(UnaryFloat), int: No, bool: No;
            "Element-wise `numpy.acos` / `arccos` (floats).",
            "let a = gpuarray::Array::from_slice(&dev, &[0.0f32, 0.5], &[2])?;",
            "|x: f32| x.acos()";
        pub atan => Arctan = 17, ARCTAN, "arctan" | "atan";
            float: Kernel(UnaryFloat), int: No, bool: No;
            "Element-wise `numpy.atan` / `arctan` (floats).",
            "let a = gpuarray::Array::from_slice(&dev, &[0.0f32, 0.5], &[2])?;",
            "|x: f32| x.atan()";
        pub sinh => Sinh = 18, SINH, "sinh";
            float: Kernel(UnaryFloat), int: No, bool: No;
            "Element-wise `numpy.sinh` (floats).",
            "let a = gpuarray::Array::from_slice(&dev, &[0.0f32, 0.5], &[2])?;",
            "|x: f32| x.sinh()";
        pub cosh => Cosh = 19, COSH, "cosh";
            float: Kernel(UnaryFloat), int: No, bool: No;
            "Element-wise `numpy.cosh` (floats).",
            "let a = gpuarray::Array::from_slice(&dev, &[0.0f32, 0.5], &[2])?;",
            "|x: f32| x.cosh()";
        pub tanh => Tanh = 20, TANH, "tanh";
            float: Kernel(UnaryFloat), int: No, bool: No;
            "Element-wise `numpy.tanh` (floats).",
            "let a = gpuarray::Array::from_slice(&dev, &[0.0f32, 50.0], &[2])?;",
            "|x: f32| x.tanh()";
        pub floor => Floor = 21, FLOOR, "floor";
            float: Kernel(UnaryFloat), int: Identity, bool: No;
            "Element-wise `numpy.floor` (integers: unchanged, a copy).",
            "let a = gpuarray::Array::from_slice(&dev, &[-0.5f32, 1.5], &[2])?;",
            "|x: f32| x.floor()";
        pub ceil => Ceil = 22, CEIL, "ceil";
            float: Kernel(UnaryFloat), int: Identity, bool: No;
            "Element-wise `numpy.ceil` (integers: unchanged, a copy).",
            "let a = gpuarray::Array::from_slice(&dev, &[-0.5f32, 1.5], &[2])?;",
            "|x: f32| x.ceil()";
        pub round => Round = 23, ROUND, "round";
            float: Kernel(UnaryFloat), int: Identity, bool: No;
            "Element-wise `numpy.round` to 0 decimals: halves go to the even neighbour, like NumPy.",
            "let a = gpuarray::Array::from_slice(&dev, &[0.5f32, 1.5], &[2])?;",
            "|x: f32| x.round_ties_even()";
        pub trunc => Trunc = 24, TRUNC, "trunc";
            float: Kernel(UnaryFloat), int: Identity, bool: No;
            "Element-wise `numpy.trunc` (integers: unchanged, a copy).",
            "let a = gpuarray::Array::from_slice(&dev, &[-0.5f32, 1.5], &[2])?;",
            "|x: f32| x.trunc()";
        pub cbrt => Cbrt = 31, CBRT, "cbrt";
            float: Kernel(UnaryFloat), int: No, bool: No;
            "Element-wise `numpy.cbrt`, the real cube root (floats; within 0.67 ulp).",
            "let a = gpuarray::Array::from_slice(&dev, &[27.0f32, -8.0], &[2])?;",
            "|x: f32| x.cbrt()";
        pub rint => Rint = 32, RINT, "rint";
            float: Kernel(UnaryFloat), int: No, bool: No;
            "Element-wise `numpy.rint`: the nearest integer, halves to the even one (floats).",
            "let a = gpuarray::Array::from_slice(&dev, &[0.5f32, 1.5, -2.5], &[3])?;",
            "|x: f32| x.round_ties_even()";
        pub deg2rad => Deg2rad = 33, DEG2RAD, "deg2rad" | "radians";
            float: Kernel(UnaryFloat), int: No, bool: No;
            "Element-wise `numpy.deg2rad` / `radians`: `x * (pi / 180)` with NumPy's rounded factor (floats).",
            "let a = gpuarray::Array::from_slice(&dev, &[180.0f32, 90.0], &[2])?;",
            "|x: f32| x * (std::f64::consts::PI / 180.0) as f32";
        pub rad2deg => Rad2deg = 34, RAD2DEG, "rad2deg" | "degrees";
            float: Kernel(UnaryFloat), int: No, bool: No;
            "Element-wise `numpy.rad2deg` / `degrees`: `x * (180 / pi)` with NumPy's rounded factor (floats).",
            "let a = gpuarray::Array::from_slice(&dev, &[3.14159f32, 1.0], &[2])?;",
            "|x: f32| x * (180.0 / std::f64::consts::PI) as f32";
        pub square => Square = 25, SQUARE, "square";
            float: Kernel(UnaryFloat), int: Kernel(UnaryInt), bool: No;
            "Element-wise `numpy.square` (integers wrap).",
            "let a = gpuarray::Array::from_slice(&dev, &[3i32, -4], &[2])?;",
            "|x: i32| x.wrapping_mul(x)";
        pub reciprocal => Reciprocal = 26, RECIPROCAL, "reciprocal";
            float: Kernel(UnaryFloat), int: Kernel(UnaryInt), bool: No;
            "Element-wise `numpy.reciprocal` (integers: truncating `1 / x`, 0 for `x == 0`).",
            "let a = gpuarray::Array::from_slice(&dev, &[4.0f32, 0.5], &[2])?;",
            "|x: f32| 1.0 / x";
        pub sigmoid => Sigmoid = 27, SIGMOID, "sigmoid";
            float: Kernel(UnaryFloat), int: No, bool: No;
            "Element-wise logistic sigmoid `1 / (1 + exp(-x))`, stable for large |x| (floats).",
            "let a = gpuarray::Array::from_slice(&dev, &[0.0f32, -100.0], &[2])?;",
            "|x: f32| (1.0 / (1.0 + (-(x as f64)).exp())) as f32";
        pub relu => Relu = 28, RELU, "relu";
            float: Kernel(UnaryFloat), int: Kernel(UnaryInt), bool: No;
            "Element-wise `max(x, 0)` with NaN kept (floats and integers).",
            "let a = gpuarray::Array::from_slice(&dev, &[-1.0f32, 2.0], &[2])?;",
            "|x: f32| x.max(0.0)";
        pub bitwise_not => BitwiseNot = 30, BITWISE_NOT, "invert" | "bitwise_not";
            float: No, int: Kernel(UnaryInt), bool: As(LogicalNot);
            std Not::not;
            "Element-wise `numpy.invert` (`~x` for integers, logical not for bool).",
            "let a = gpuarray::Array::from_slice(&dev, &[0i32, -1], &[2])?;",
            "|x: i32| !x";
        pub asinh => Arcsinh = 35, ARCSINH, "arcsinh" | "asinh";
            float: Kernel(UnaryFloat), int: No, bool: No;
            "Element-wise `numpy.arcsinh` / `asinh`, the inverse hyperbolic sine (floats; within 2 ulp).",
            "let a = gpuarray::Array::from_slice(&dev, &[0.5f32, -3.0, 1e5], &[3])?;",
            "|x: f32| x.asinh()";
        pub acosh => Arccosh = 36, ARCCOSH, "arccosh" | "acosh";
            float: Kernel(UnaryFloat), int: No, bool: No;
            "Element-wise `numpy.arccosh` / `acosh`, the inverse hyperbolic cosine (floats; NaN below 1; within 2 ulp).",
            "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 1.5, 1e5], &[3])?;",
            "|x: f32| x.acosh()";
        pub atanh => Arctanh = 37, ARCTANH, "arctanh" | "atanh";
            float: Kernel(UnaryFloat), int: No, bool: No;
            "Element-wise `numpy.arctanh` / `atanh`, the inverse hyperbolic tangent (floats; ±inf at ±1, NaN past them; within 2 ulp).",
            "let a = gpuarray::Array::from_slice(&dev, &[0.25f32, -0.75, 0.0], &[3])?;",
            "|x: f32| x.atanh()";
    }
    predicate {
        pub isnan => IsNan = 0, ISNAN, "isnan";
            "Element-wise `numpy.isnan`, giving bool (tested by bits; always false for integers).",
            "let a = gpuarray::Array::from_slice(&dev, &[f32::NAN, 1.0], &[2])?;",
            "|x: f32| x.is_nan()";
        pub isinf => IsInf = 1, ISINF, "isinf";
            "Element-wise `numpy.isinf`, giving bool.",
            "let a = gpuarray::Array::from_slice(&dev, &[f32::INFINITY, 1.0], &[2])?;",
            "|x: f32| x.is_infinite()";
        pub isfinite => IsFinite = 2, ISFINITE, "isfinite";
            "Element-wise `numpy.isfinite`, giving bool.",
            "let a = gpuarray::Array::from_slice(&dev, &[f32::INFINITY, 1.0], &[2])?;",
            "|x: f32| x.is_finite()";
        pub logical_not => LogicalNot = 3, LOGICAL_NOT, "logical_not";
            "Element-wise `numpy.logical_not` of any dtype (zero is false, NaN is true), giving bool.",
            "let a = gpuarray::Array::from_slice(&dev, &[0.0f32, 2.0], &[2])?;",
            "|x: f32| x == 0.0";
        pub signbit => Signbit = 5, SIGNBIT, "signbit";
            "Element-wise `numpy.signbit`, giving bool (true for -0.0 and negative NaNs).",
            "let a = gpuarray::Array::from_slice(&dev, &[-0.0f32, 2.0], &[2])?;",
            "|x: f32| x.is_sign_negative()";
    }
    unary_internal {
        // bool(x): where() of a non-bool condition.
        Truth = 4, TRUTH, "astype(bool)";
            float: Kernel(Predicate), int: Kernel(Predicate), bool: Kernel(Predicate);
    }
    binary {
        pub add, add_assign => Add = 0, ADD, "add";
            float: Kernel(BinaryFloat), int: Kernel(BinaryInt), bool: As(BitOr);
            std Add::add;
            "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[10.0f32, 20.0], &[2, 1])?;",
            "|x: f32, y: f32| x + y";
        pub sub, sub_assign => Sub = 1, SUB, "subtract";
            float: Kernel(BinaryFloat), int: Kernel(BinaryInt), bool: No;
            std Sub::sub;
            "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[10.0f32, 20.0], &[2, 1])?;",
            "|x: f32, y: f32| x - y";
        pub mul, mul_assign => Mul = 2, MUL, "multiply";
            float: Kernel(BinaryFloat), int: Kernel(BinaryInt), bool: As(BitAnd);
            std Mul::mul;
            "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[10.0f32, 20.0], &[2, 1])?;",
            "|x: f32, y: f32| x * y";
        pub div, div_assign => Div = 3, DIV, "divide" | "true_divide";
            float: Kernel(BinaryFloat), int: InFloat, bool: InFloat;
            std Div::div;
            "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[10.0f32, 20.0], &[2, 1])?;",
            "|x: f32, y: f32| x / y";
        pub floor_divide, floor_divide_assign => FloorDivide = 4, FLOOR_DIVIDE, "floor_divide";
            float: Kernel(BinaryFloat), int: Kernel(BinaryInt), bool: No;
            "let a = gpuarray::Array::from_slice(&dev, &[7i32, -7, 9], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[2i32, -3], &[2, 1])?;",
            "|x: i32, y: i32| { let q = x / y; if x % y != 0 && ((x < 0) != (y < 0)) { q - 1 } else { q } }";
        pub remainder, remainder_assign => Remainder = 5, REMAINDER, "remainder" | "mod";
            float: Kernel(BinaryFloat), int: Kernel(BinaryInt), bool: No;
            std Rem::rem;
            "let a = gpuarray::Array::from_slice(&dev, &[7i32, -7, 9], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[2i32, -3], &[2, 1])?;",
            "|x: i32, y: i32| { let r = x % y; if r != 0 && ((r < 0) != (y < 0)) { r + y } else { r } }";
        pub pow, pow_assign => Pow = 6, POW, "power" | "pow";
            float: Kernel(BinaryFloat), int: Kernel(BinaryInt), bool: No;
            "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[2.0f32, 0.5], &[2, 1])?;",
            "|x: f32, y: f32| x.powf(y)";
        pub maximum, maximum_assign => Maximum = 7, MAXIMUM, "maximum";
            float: Kernel(BinaryFloat), int: Kernel(BinaryInt), bool: Kernel(BinaryInt);
            "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, f32::NAN, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[2.0f32, 0.5], &[2, 1])?;",
            "|x: f32, y: f32| if x.is_nan() || y.is_nan() { f32::NAN } else { x.max(y) }";
        pub minimum, minimum_assign => Minimum = 8, MINIMUM, "minimum";
            float: Kernel(BinaryFloat), int: Kernel(BinaryInt), bool: Kernel(BinaryInt);
            "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, f32::NAN, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[2.0f32, 0.5], &[2, 1])?;",
            "|x: f32, y: f32| if x.is_nan() || y.is_nan() { f32::NAN } else { x.min(y) }";
        pub fmax, fmax_assign => Fmax = 9, FMAX, "fmax";
            float: Kernel(BinaryFloat), int: Kernel(BinaryInt), bool: Kernel(BinaryInt);
            "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, f32::NAN, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[2.0f32, 0.5], &[2, 1])?;",
            "|x: f32, y: f32| x.max(y)";
        pub fmin, fmin_assign => Fmin = 10, FMIN, "fmin";
            float: Kernel(BinaryFloat), int: Kernel(BinaryInt), bool: Kernel(BinaryInt);
            "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, f32::NAN, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[2.0f32, 0.5], &[2, 1])?;",
            "|x: f32, y: f32| x.min(y)";
        pub arctan2, arctan2_assign => Arctan2 = 11, ARCTAN2, "arctan2" | "atan2";
            float: Kernel(BinaryFloat), int: No, bool: No;
            "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[-1.0f32, 0.5], &[2, 1])?;",
            "|x: f32, y: f32| x.atan2(y)";
        pub hypot, hypot_assign => Hypot = 12, HYPOT, "hypot";
            float: Kernel(BinaryFloat), int: No, bool: No;
            "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[-1.0f32, 0.5], &[2, 1])?;",
            "|x: f32, y: f32| x.hypot(y)";
        pub copysign, copysign_assign => Copysign = 13, COPYSIGN, "copysign";
            float: Kernel(BinaryFloat), int: No, bool: No;
            "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[-1.0f32, 0.5], &[2, 1])?;",
            "|x: f32, y: f32| x.copysign(y)";
        pub fmod, fmod_assign => Fmod = 21, FMOD, "fmod";
            float: Kernel(BinaryFloat), int: Kernel(BinaryInt), bool: No;
            "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[-1.0f32, 0.5], &[2, 1])?;",
            "|x: f32, y: f32| x % y";
        pub heaviside, heaviside_assign => Heaviside = 22, HEAVISIDE, "heaviside";
            float: Kernel(BinaryFloat), int: No, bool: No;
            "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[-1.0f32, 0.5], &[2, 1])?;",
            "|x: f32, y: f32| if x < 0.0 { 0.0 } else if x == 0.0 { y } else { 1.0 }";
        pub logaddexp, logaddexp_assign => Logaddexp = 23, LOGADDEXP, "logaddexp";
            float: Kernel(BinaryFloat), int: No, bool: No;
            "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[-1.0f32, 0.5], &[2, 1])?;",
            "|x: f32, y: f32| ((x as f64).exp() + (y as f64).exp()).ln() as f32";
        pub logaddexp2, logaddexp2_assign => Logaddexp2 = 24, LOGADDEXP2, "logaddexp2";
            float: Kernel(BinaryFloat), int: No, bool: No;
            "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[-1.0f32, 0.5], &[2, 1])?;",
            "|x: f32, y: f32| ((x as f64).exp2() + (y as f64).exp2()).log2() as f32";
        pub gcd, gcd_assign => Gcd = 25, GCD, "gcd";
            float: No, int: Kernel(BinaryInt), bool: No;
            "let a = gpuarray::Array::from_slice(&dev, &[12i32, -18, 7], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[8i32, -5], &[2, 1])?;",
            "|x: i32, y: i32| { let (mut a, mut b) = (x.unsigned_abs(), y.unsigned_abs()); while b != 0 { (a, b) = (b, a % b); } a as i32 }";
        pub lcm, lcm_assign => Lcm = 26, LCM, "lcm";
            float: No, int: Kernel(BinaryInt), bool: No;
            "let a = gpuarray::Array::from_slice(&dev, &[12i32, -18, 7], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[8i32, -5], &[2, 1])?;",
            "|x: i32, y: i32| { let (mut a, mut b) = (x.unsigned_abs(), y.unsigned_abs()); while b != 0 { (a, b) = (b, a % b); } if a == 0 { 0 } else { (x.unsigned_abs() / a * y.unsigned_abs()) as i32 } }";
        pub bitwise_and, bitwise_and_assign => BitAnd = 16, BIT_AND, "bitwise_and";
            float: No, int: Kernel(BinaryInt), bool: Kernel(BinaryInt);
            std BitAnd::bitand;
            "let a = gpuarray::Array::from_slice(&dev, &[12i32, 10, -1], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[6i32, 3], &[2, 1])?;",
            "|x: i32, y: i32| x & y";
        pub bitwise_or, bitwise_or_assign => BitOr = 17, BIT_OR, "bitwise_or";
            float: No, int: Kernel(BinaryInt), bool: Kernel(BinaryInt);
            std BitOr::bitor;
            "let a = gpuarray::Array::from_slice(&dev, &[12i32, 10, -1], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[6i32, 3], &[2, 1])?;",
            "|x: i32, y: i32| x | y";
        pub bitwise_xor, bitwise_xor_assign => BitXor = 18, BIT_XOR, "bitwise_xor";
            float: No, int: Kernel(BinaryInt), bool: Kernel(BinaryInt);
            std BitXor::bitxor;
            "let a = gpuarray::Array::from_slice(&dev, &[12i32, 10, -1], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[6i32, 3], &[2, 1])?;",
            "|x: i32, y: i32| x ^ y";
        pub left_shift, left_shift_assign => LeftShift = 19, LEFT_SHIFT, "left_shift" | "bitwise_left_shift";
            float: No, int: Kernel(BinaryInt), bool: No;
            std Shl::shl;
            "let a = gpuarray::Array::from_slice(&dev, &[12u32, 10, 1], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[1u32, 31], &[2, 1])?;",
            "|x: u32, y: u32| if y >= 32 { 0 } else { x << y }";
        pub right_shift, right_shift_assign => RightShift = 20, RIGHT_SHIFT, "right_shift" | "bitwise_right_shift";
            float: No, int: Kernel(BinaryInt), bool: No;
            std Shr::shr;
            "let a = gpuarray::Array::from_slice(&dev, &[12i32, 10, -1], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[1i32, 40], &[2, 1])?;",
            "|x: i32, y: i32| if y >= 32 { x >> 31 } else { x >> y }";
        pub nextafter, nextafter_assign => Nextafter = 27, NEXTAFTER, "nextafter";
            float: Kernel(BinaryFloat), int: No, bool: No;
            "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 0.0, -2.0], &[3])?;\nlet b = gpuarray::Array::from_slice(&dev, &[10.0f32, -1.0], &[2, 1])?;",
            "|x: f32, y: f32| if x.is_nan() || y.is_nan() { f32::NAN } else if x == y { y } else if x == 0.0 { f32::from_bits(1).copysign(y) } else if (y > x) == (x > 0.0) { f32::from_bits(x.to_bits() + 1) } else { f32::from_bits(x.to_bits() - 1) }";
    }
    compare {
        pub eq => Eq = 0, EQ, "equal";
            "|x: f32| x == 2.0";
        pub ne => Ne = 1, NE, "not_equal";
            "|x: f32| x != 2.0";
        pub lt => Lt = 2, LT, "less";
            "|x: f32| x < 2.0";
        pub le => Le = 3, LE, "less_equal";
            "|x: f32| x <= 2.0";
        pub gt => Gt = 4, GT, "greater";
            "|x: f32| x > 2.0";
        pub ge => Ge = 5, GE, "greater_equal";
            "|x: f32| x >= 2.0";
        pub logical_and => LogicalAnd = 6, LOGICAL_AND, "logical_and";
            "|x: f32| x != 0.0";
        pub logical_or => LogicalOr = 7, LOGICAL_OR, "logical_or";
            "|_x: f32| true";
        pub logical_xor => LogicalXor = 8, LOGICAL_XOR, "logical_xor";
            "|x: f32| x == 0.0";
    }
    binary_internal {
        // exp(a - b): softmax and logsumexp.
        SubExp = 14, SUB_EXP, "exp(a - b)";
            float: Kernel(BinaryFloat), int: No, bool: No;
        // (a - b)^2: var and std.
        SqDiff = 15, SQ_DIFF, "(a - b)**2";
            float: Kernel(BinaryFloat), int: Kernel(BinaryInt), bool: No;
    }
}
