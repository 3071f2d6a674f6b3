//! The macro that turns the op table (`table.rs`) into everything the crate says about each
//! element-wise op: the op enums and their codes, names and WGSL constants, the dtype rules, the
//! methods, free functions and `std::ops` impls with their documentation, and the exported
//! list ([`ElementwiseOp`](super::ElementwiseOp)) that tests, the README check and the Python
//! package read.

/// See the module documentation; the one invocation is in `table.rs`.
macro_rules! elementwise_table {
    (
        unary {
            $( $uvis:vis $uname:ident => $uop:ident = $ucode:literal, $uwgsl:ident,
               $unp:literal $(| $ualias:literal)*;
               float: $uf:expr, int: $ui:expr, bool: $ub:expr;
               $(std $utr:ident :: $um:ident;)?
               $udoc:literal, $uex:literal, $uhost:literal; )*
        }
        predicate {
            $( $pvis:vis $pname:ident => $pop:ident = $pcode:literal, $pwgsl:ident, $pnp:literal;
               $pdoc:literal, $pex:literal, $phost:literal; )*
        }
        unary_internal {
            $( $iuop:ident = $iucode:literal, $iuwgsl:ident, $iunp:literal;
               float: $iuf:expr, int: $iui:expr, bool: $iub:expr; )*
        }
        binary {
            $( $bvis:vis $bname:ident, $bassign:ident => $bop:ident = $bcode:literal, $bwgsl:ident,
               $bnp:literal $(| $balias:literal)*;
               float: $bf:expr, int: $bi:expr, bool: $bb:expr;
               $(std $btr:ident :: $bm:ident;)?
               $bex:literal, $bhost:literal; )*
        }
        compare {
            $( $cvis:vis $cname:ident => $cop:ident = $ccode:literal, $cwgsl:ident, $cnp:literal;
               $chost:literal; )*
        }
        binary_internal {
            $( $ibop:ident = $ibcode:literal, $ibwgsl:ident, $ibnp:literal;
               float: $ibf:expr, int: $ibi:expr, bool: $ibb:expr; )*
        }
    ) => {
        op_enum! {
            /// Unary ops: the table's unary, predicate and internal rows.
            UnaryOp {
                $( $uop = $ucode, $uwgsl, $unp, [$uf, $ui, $ub]; )*
                $( $pop = $pcode, $pwgsl, $pnp, [Kernel(Predicate), Kernel(Predicate), Kernel(Predicate)]; )*
                $( $iuop = $iucode, $iuwgsl, $iunp, [$iuf, $iui, $iub]; )*
            }
        }

        op_enum! {
            /// Binary ops: the table's binary, comparison and internal rows.
            BinaryOp {
                $( $bop = $bcode, $bwgsl, $bnp, [$bf, $bi, $bb]; )*
                $( $cop = $ccode, $cwgsl, $cnp, [Kernel(Compare), Kernel(Compare), Kernel(Compare)]; )*
                $( $ibop = $ibcode, $ibwgsl, $ibnp, [$ibf, $ibi, $ibb]; )*
            }
        }

        /// The public rows of the table, in table order.
        pub(crate) static PUBLIC_OPS: &[ElementwiseOp] = &[
            $( ElementwiseOp { name: stringify!($uname), numpy: $unp, aliases: &[$($ualias),*], arity: 1, doc: $udoc, op: Which::Unary(UnaryOp::$uop) }, )*
            $( ElementwiseOp { name: stringify!($pname), numpy: $pnp, aliases: &[], arity: 1, doc: $pdoc, op: Which::Unary(UnaryOp::$pop) }, )*
            $( ElementwiseOp { name: stringify!($bname), numpy: $bnp, aliases: &[$($balias),*], arity: 2,
                doc: concat!("Element-wise `numpy.", $bnp, "` with broadcasting."), op: Which::Binary(BinaryOp::$bop) }, )*
            $( ElementwiseOp { name: stringify!($cname), numpy: $cnp, aliases: &[], arity: 2,
                doc: concat!("Element-wise `numpy.", $cnp, "` with broadcasting, giving bool."), op: Which::Binary(BinaryOp::$cop) }, )*
        ];

        impl Array {
            $(
                #[doc = concat!($udoc, "\n\n```\n# fn main() -> gpuarray::Result<()> {\n# let dev = gpuarray::Device::new()?;\n",
                    $uex, "\nlet r = a.", stringify!($uname), "()?;\nassert_eq!(r.shape(), a.shape());\n",
                    "// Against the host's own function: integers exactly, floats within 4 ulp.\n",
                    "# fn read_like<T: gpuarray::Element>(r: &gpuarray::Array, _: &[T]) -> gpuarray::Result<Vec<T>> { r.to_vec() }\n",
                    "let host = ", $uhost, ";\nlet want: Vec<_> = a.to_vec()?.into_iter().map(host).collect();\n",
                    "for (&g, &w) in read_like(&r, &want)?.iter().zip(&want) {\n",
                    "    let (gf, wf) = (g as f64, w as f64);\n",
                    "    assert!(g == w || (gf.is_nan() && wf.is_nan()) || (gf - wf).abs() <= 4.0 * f32::EPSILON as f64 * wf.abs() + f32::MIN_POSITIVE as f64, \"{g} vs {w}\");\n}\n",
                    "# Ok(()) }\n```")]
                $uvis fn $uname(&self) -> Result<Array> {
                    unary(UnaryOp::$uop, self)
                }
            )*
            $(
                #[doc = concat!($pdoc, "\n\n```\n# fn main() -> gpuarray::Result<()> {\n# let dev = gpuarray::Device::new()?;\n",
                    $pex, "\nlet r = a.", stringify!($pname), "()?;\nassert_eq!(r.dtype(), gpuarray::DType::Bool);\n",
                    "let host = ", $phost, ";\n",
                    "let want: Vec<bool> = a.to_vec::<f32>()?.into_iter().map(host).collect();\n",
                    "assert_eq!(r.to_vec_bool()?, want);\n# Ok(()) }\n```")]
                $pvis fn $pname(&self) -> Result<Array> {
                    unary(UnaryOp::$pop, self)
                }
            )*
            $(
                #[doc = concat!("Element-wise `numpy.", $bnp, "` with broadcasting; `rhs` is an array or a scalar.\n\n",
                    "```\n# fn main() -> gpuarray::Result<()> {\n# let dev = gpuarray::Device::new()?;\n",
                    $bex, "\nlet c = a.", stringify!($bname), "(&b)?;\nlet d = a.", stringify!($bname), "(2)?;\n",
                    "assert_eq!(c.shape(), &[2, 3]);\n",
                    "// c[i][j] = host(a[j], b[i]), against the host: integers exactly, floats within 4 ulp.\n",
                    "# fn read_like<T: gpuarray::Element>(r: &gpuarray::Array, _: &[T]) -> gpuarray::Result<Vec<T>> { r.to_vec() }\n",
                    "let host = ", $bhost, ";\nlet (x, y): (Vec<_>, Vec<_>) = (a.to_vec()?, b.to_vec()?);\n",
                    "let want: Vec<_> = y.iter().flat_map(|&v| x.iter().map(move |&u| host(u, v))).collect();\n",
                    "let close = |g: f64, w: f64| g == w || (g.is_nan() && w.is_nan()) || (g - w).abs() <= 4.0 * f32::EPSILON as f64 * w.abs() + f32::MIN_POSITIVE as f64;\n",
                    "let got = read_like(&c, &want)?;\nassert_eq!(got.len(), want.len());\n",
                    "for (&g, &w) in got.iter().zip(&want) { assert!(g == w || close(g as f64, w as f64), \"{g} vs {w}\"); }\n",
                    "// A scalar adopts the array's dtype.\nfor (&g, &u) in read_like(&d, &x)?.iter().zip(&x) { let w = host(u, 2u8.into()); assert!(g == w || close(g as f64, w as f64), \"{g} vs {w}\"); }\n",
                    "# Ok(()) }\n```")]
                $bvis fn $bname<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<Array> {
                    binary(BinaryOp::$bop, Operand::Array(self), rhs.into())
                }
                #[doc = concat!("In-place `", stringify!($bname), "`: `self = ", stringify!($bname),
                    "(self, rhs)` (`rhs` broadcasts to `self`; views write through).\n\n",
                    "```\n# fn main() -> gpuarray::Result<()> {\n# let dev = gpuarray::Device::new()?;\n",
                    $bex, "\nlet t = a.broadcast_to(&[2, 3])?.contiguous()?.astype(a.dtype())?;\nt.", stringify!($bassign), "(&b)?;\n",
                    "// t[i][j] = host(a[j], b[i]), against the host: integers exactly, floats within 4 ulp.\n",
                    "# fn read_like<T: gpuarray::Element>(r: &gpuarray::Array, _: &[T]) -> gpuarray::Result<Vec<T>> { r.to_vec() }\n",
                    "let host = ", $bhost, ";\nlet (x, y): (Vec<_>, Vec<_>) = (a.to_vec()?, b.to_vec()?);\n",
                    "let want: Vec<_> = y.iter().flat_map(|&v| x.iter().map(move |&u| host(u, v))).collect();\n",
                    "let close = |g: f64, w: f64| g == w || (g.is_nan() && w.is_nan()) || (g - w).abs() <= 4.0 * f32::EPSILON as f64 * w.abs() + f32::MIN_POSITIVE as f64;\n",
                    "let got = read_like(&t, &want)?;\nassert_eq!(got.len(), want.len());\n",
                    "for (&g, &w) in got.iter().zip(&want) { assert!(g == w || close(g as f64, w as f64), \"{g} vs {w}\"); }\n",
                    "# Ok(()) }\n```")]
                $bvis fn $bassign<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<()> {
                    assign_op(BinaryOp::$bop, self, rhs.into())
                }
            )*
            $(
                #[doc = concat!("Element-wise `numpy.", $cnp, "` with broadcasting, giving a bool array (NaN compares unequal to everything).\n\n",
                    "```\n# fn main() -> gpuarray::Result<()> {\n# let dev = gpuarray::Device::new()?;\n",
                    "let a = gpuarray::Array::from_slice(&dev, &[1.0f32, f32::NAN, 3.0], &[3])?;\nlet m = a.", stringify!($cname), "(2.0)?;\n",
                    "assert_eq!(m.dtype(), gpuarray::DType::Bool);\n",
                    "// Against the host, with the scalar 2.0 on the right.\nlet host = ", $chost, ";\n",
                    "assert_eq!(m.to_vec_bool()?, [1.0f32, f32::NAN, 3.0].map(host));\n# Ok(()) }\n```")]
                $cvis fn $cname<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<Array> {
                    binary(BinaryOp::$cop, Operand::Array(self), rhs.into())
                }
            )*
        }

        /// The binary ops as free functions (`gpuarray::add(a, b)`), re-exported at the crate root.
        pub mod free_functions {
            #[allow(unused_imports)]
            use super::*;
        $(
            #[doc = concat!("Element-wise `numpy.", $bnp, "(a, b)`: either side may be a scalar.\n\n",
                "```\n# fn main() -> gpuarray::Result<()> {\n# let dev = gpuarray::Device::new()?;\n",
                $bex, "\nlet c = gpuarray::", stringify!($bname), "(&a, &b)?;\nassert_eq!(c.shape(), &[2, 3]);\n",
                "// c[i][j] = host(a[j], b[i]), against the host: integers exactly, floats within 4 ulp.\n",
                "# fn read_like<T: gpuarray::Element>(r: &gpuarray::Array, _: &[T]) -> gpuarray::Result<Vec<T>> { r.to_vec() }\n",
                "let host = ", $bhost, ";\nlet (x, y): (Vec<_>, Vec<_>) = (a.to_vec()?, b.to_vec()?);\n",
                "let want: Vec<_> = y.iter().flat_map(|&v| x.iter().map(move |&u| host(u, v))).collect();\n",
                "let close = |g: f64, w: f64| g == w || (g.is_nan() && w.is_nan()) || (g - w).abs() <= 4.0 * f32::EPSILON as f64 * w.abs() + f32::MIN_POSITIVE as f64;\n",
                "let got = read_like(&c, &want)?;\nassert_eq!(got.len(), want.len());\n",
                "for (&g, &w) in got.iter().zip(&want) { assert!(g == w || close(g as f64, w as f64), \"{g} vs {w}\"); }\n",
                "# Ok(()) }\n```")]
            $bvis fn $bname<'a, 'b>(a: impl Into<Operand<'a>>, b: impl Into<Operand<'b>>) -> Result<Array> {
                binary(BinaryOp::$bop, a.into(), b.into())
            }
        )*

        }

        $( $( std_binary!($btr, $bm => $bop); )? )*
        $( $( std_unary!($utr, $um => $uop); )? )*
    };
}

/// An op enum with its table order, NumPy names, `OP` codes, dtype rules and WGSL constants.
macro_rules! op_enum {
    (
        $(#[$meta:meta])*
        $enum:ident {
            $( $op:ident = $code:literal, $wgsl:ident, $name:literal, [$f:expr, $i:expr, $b:expr]; )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub(crate) enum $enum {
            $( $op, )*
        }

        impl $enum {
            /// Every op, in table order.
            pub const ALL: &'static [$enum] = &[$($enum::$op,)*];

            /// The NumPy name, for messages.
            pub fn name(self) -> &'static str {
                match self {
                    $( $enum::$op => $name, )*
                }
            }

            /// The kernels' `OP` value.
            pub fn code(self) -> u32 {
                match self {
                    $( $enum::$op => $code, )*
                }
            }

            /// The row's dtype rules.
            pub(crate) fn rules(self) -> Rules<$enum> {
                #[allow(unused_imports)]
                use {$enum::*, OpSet::*, Run::*};
                match self {
                    $( $enum::$op => Rules { float: $f, int: $i, bool: $b }, )*
                }
            }

            /// `const OP_NAME: u32 = code;` for every op, for the op files' `switch OP`.
            pub fn wgsl_constants() -> String {
                let mut s = String::new();
                $( s.push_str(&format!("const OP_{}: u32 = {}u;\n", stringify!($wgsl), $code)); )*
                s
            }
        }
    };
}

/// `std::ops::$tr` on `&Array`, `Array`, `Result<Array>` and scalars: every operator returns
/// `Result<Array>` (nothing panics).
macro_rules! std_binary {
    ($tr:ident, $m:ident => $op:ident) => {
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
    };
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

/// A unary `std::ops` trait (`-a`, `!a`) on `&Array` and `Array`.
macro_rules! std_unary {
    ($tr:ident, $m:ident => $op:ident) => {
        impl std::ops::$tr for &Array {
            type Output = Result<Array>;
            fn $m(self) -> Result<Array> {
                unary(UnaryOp::$op, self)
            }
        }
        impl std::ops::$tr for Array {
            type Output = Result<Array>;
            fn $m(self) -> Result<Array> {
                unary(UnaryOp::$op, &self)
            }
        }
    };
}
