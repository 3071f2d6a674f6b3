//! The element-wise and reduction op codes, stated once: each table row gives an op its NumPy name, the value
//! of the kernels' `OP` override, and the WGSL constant the op files switch on. The registry puts
//! the constants in every element-wise and reduction shader's prelude (`OP_ADD`, `OP_EXP`, ...), so the shaders
//! say `case OP_EXP:` and the Rust side and the WGSL cannot disagree on a number.
//!
//! Which ops a dtype allows, and which kernel set serves them, is NumPy semantics and lives with
//! the element-wise ops (`ops/elementwise`).

use std::fmt::Write;

/// Declares an op enum from its table, with `name()`, `code()` and `wgsl_constants()`.
macro_rules! op_codes {
    (
        $(#[$meta:meta])*
        $enum:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $code:literal, $name:literal, $wgsl:ident; )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub(crate) enum $enum {
            $( $(#[$vmeta])* $variant, )*
        }

        impl $enum {
            /// Every op, in table order.
            #[allow(dead_code)]
            pub const ALL: &'static [$enum] = &[$($enum::$variant),*];

            /// The NumPy name, for messages.
            #[allow(dead_code)]
            pub fn name(self) -> &'static str {
                match self {
                    $( $enum::$variant => $name, )*
                }
            }

            /// The kernels' `OP` value.
            pub fn code(self) -> u32 {
                match self {
                    $( $enum::$variant => $code, )*
                }
            }

            /// `const OP_NAME: u32 = code;` for every op, for the op files' `switch OP`.
            pub fn wgsl_constants() -> String {
                let mut s = String::new();
                $( writeln!(s, "const OP_{}: u32 = {}u;", stringify!($wgsl), $code).unwrap(); )*
                s
            }
        }
    };
}

op_codes! {
    /// Binary ops. Arithmetic codes index `binary_float.wgsl`/`binary_int.wgsl`; comparison and
    /// logical codes index `binary_compare.wgsl`, so the two ranges overlap.
    BinaryOp {
        Add = 0, "add", ADD;
        Sub = 1, "subtract", SUB;
        Mul = 2, "multiply", MUL;
        Div = 3, "divide", DIV;
        FloorDivide = 4, "floor_divide", FLOOR_DIVIDE;
        Remainder = 5, "remainder", REMAINDER;
        Pow = 6, "power", POW;
        Maximum = 7, "maximum", MAXIMUM;
        Minimum = 8, "minimum", MINIMUM;
        Fmax = 9, "fmax", FMAX;
        Fmin = 10, "fmin", FMIN;
        Arctan2 = 11, "arctan2", ARCTAN2;
        Hypot = 12, "hypot", HYPOT;
        Copysign = 13, "copysign", COPYSIGN;
        /// exp(a - b), for softmax.
        SubExp = 14, "softmax", SUB_EXP;
        /// (a - b)^2, for var.
        SqDiff = 15, "var", SQ_DIFF;
        BitAnd = 16, "bitwise_and", BIT_AND;
        BitOr = 17, "bitwise_or", BIT_OR;
        BitXor = 18, "bitwise_xor", BIT_XOR;
        LeftShift = 19, "left_shift", LEFT_SHIFT;
        RightShift = 20, "right_shift", RIGHT_SHIFT;
        /// C's fmod: the remainder with the dividend's sign.
        Fmod = 21, "fmod", FMOD;
        Heaviside = 22, "heaviside", HEAVISIDE;
        Logaddexp = 23, "logaddexp", LOGADDEXP;
        Logaddexp2 = 24, "logaddexp2", LOGADDEXP2;
        Gcd = 25, "gcd", GCD;
        Lcm = 26, "lcm", LCM;
        Eq = 0, "equal", EQ;
        Ne = 1, "not_equal", NE;
        Lt = 2, "less", LT;
        Le = 3, "less_equal", LE;
        Gt = 4, "greater", GT;
        Ge = 5, "greater_equal", GE;
        LogicalAnd = 6, "logical_and", LOGICAL_AND;
        LogicalOr = 7, "logical_or", LOGICAL_OR;
        LogicalXor = 8, "logical_xor", LOGICAL_XOR;
    }
}

op_codes! {
    /// Unary ops. Math codes index `unary_float.wgsl` (and, for the ops integers have,
    /// `unary_int.wgsl`); predicate codes index `unary_predicate.wgsl`.
    UnaryOp {
        Neg = 0, "negative", NEG;
        Abs = 1, "absolute", ABS;
        Sign = 2, "sign", SIGN;
        Sqrt = 3, "sqrt", SQRT;
        Rsqrt = 4, "rsqrt", RSQRT;
        Exp = 5, "exp", EXP;
        Exp2 = 6, "exp2", EXP2;
        Expm1 = 7, "expm1", EXPM1;
        Log = 8, "log", LOG;
        Log2 = 9, "log2", LOG2;
        Log10 = 10, "log10", LOG10;
        Log1p = 11, "log1p", LOG1P;
        Sin = 12, "sin", SIN;
        Cos = 13, "cos", COS;
        Tan = 14, "tan", TAN;
        Arcsin = 15, "asin", ARCSIN;
        Arccos = 16, "acos", ARCCOS;
        Arctan = 17, "atan", ARCTAN;
        Sinh = 18, "sinh", SINH;
        Cosh = 19, "cosh", COSH;
        Tanh = 20, "tanh", TANH;
        Floor = 21, "floor", FLOOR;
        Ceil = 22, "ceil", CEIL;
        Round = 23, "round", ROUND;
        Trunc = 24, "trunc", TRUNC;
        Square = 25, "square", SQUARE;
        Reciprocal = 26, "reciprocal", RECIPROCAL;
        Sigmoid = 27, "sigmoid", SIGMOID;
        Relu = 28, "relu", RELU;
        BitwiseNot = 30, "bitwise_not", BITWISE_NOT;
        Cbrt = 31, "cbrt", CBRT;
        /// Round to nearest, halves to even: the same kernel case as `Round`.
        Rint = 32, "rint", RINT;
        Deg2rad = 33, "deg2rad", DEG2RAD;
        Rad2deg = 34, "rad2deg", RAD2DEG;
        IsNan = 0, "isnan", ISNAN;
        IsInf = 1, "isinf", ISINF;
        IsFinite = 2, "isfinite", ISFINITE;
        LogicalNot = 3, "logical_not", LOGICAL_NOT;
        Truth = 4, "astype(bool)", TRUTH;
        Signbit = 5, "signbit", SIGNBIT;
    }
}

op_codes! {
    /// Reductions. Value reductions index `reduce_ops.wgsl` (shared by every reduction kernel);
    /// the arg-reductions index `argreduce.wgsl`.
    ReduceOp {
        Sum = 0, "sum", SUM;
        Prod = 1, "prod", PROD;
        Max = 2, "max", MAX;
        Min = 3, "min", MIN;
        Any = 4, "any", ANY;
        All = 5, "all", ALL;
        /// The sum with NaN elements read as +0.0, in the same pass (float dtypes).
        NanSum = 6, "nansum", NANSUM;
        /// The product with NaN elements read as 1 (float dtypes).
        NanProd = 7, "nanprod", NANPROD;
        ArgMax = 0, "argmax", ARGMAX;
        ArgMin = 1, "argmin", ARGMIN;
    }
}

op_codes! {
    /// Scans (`scan_blocks.wgsl`).
    ScanOp {
        Cumsum = 0, "cumsum", CUMSUM;
        Cumprod = 1, "cumprod", CUMPROD;
    }
}

impl ReduceOp {
    /// Whether the op yields indices (argmax, argmin) rather than values.
    pub(crate) fn is_arg(self) -> bool {
        matches!(self, ReduceOp::ArgMax | ReduceOp::ArgMin)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_follow_the_table() {
        let b = BinaryOp::wgsl_constants();
        assert!(b.contains("const OP_SUB_EXP: u32 = 14u;\n"), "{b}");
        assert!(b.contains("const OP_LOGICAL_XOR: u32 = 8u;\n"), "{b}");
        assert_eq!(b.lines().count(), BinaryOp::ALL.len());
        let u = UnaryOp::wgsl_constants();
        assert!(u.contains("const OP_BITWISE_NOT: u32 = 30u;\n"), "{u}");
        assert_eq!(UnaryOp::Signbit.code(), 5);
        assert_eq!(UnaryOp::Arcsin.name(), "asin");
    }
}
