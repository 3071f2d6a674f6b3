//! The reduction and scan op codes of the device's own reduction kernels, stated once: each row
//! gives an op its NumPy name, the value of the kernels' `OP` override, and the WGSL constant the
//! shaders switch on (`OP_SUM`, ...), so the Rust side and the WGSL cannot disagree on a number.
//! (The element-wise ops are the op table's, `ops/elementwise/table.rs`.)

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
        let r = ReduceOp::wgsl_constants();
        assert!(r.contains("const OP_NANSUM: u32 = 6u;\n"), "{r}");
        assert_eq!(r.lines().count(), ReduceOp::ALL.len());
        assert_eq!(ScanOp::Cumprod.code(), 1);
        assert_eq!(ReduceOp::ArgMin.name(), "argmin");
    }
}
