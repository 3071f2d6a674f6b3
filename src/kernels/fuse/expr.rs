//! The expressions `fuse` traces: a graph of table ops, `where`, scalars and reductions over
//! the fused function's inputs. Building one records it; nothing runs until the fused
//! function is called with arrays.

use crate::dtype::DType;
use crate::layout::Axes;
use crate::ops::elementwise::{ElementwiseOp, elementwise_op};
use std::sync::Arc;

/// A reduction a fused chain may end in (or hold, computed first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reduction {
    Sum,
    Prod,
    Max,
    Min,
    Mean,
}

impl Reduction {
    pub fn name(self) -> &'static str {
        match self {
            Reduction::Sum => "sum",
            Reduction::Prod => "prod",
            Reduction::Max => "max",
            Reduction::Min => "min",
            Reduction::Mean => "mean",
        }
    }
}

/// One node of a traced expression.
#[derive(Debug)]
pub(crate) enum Node {
    /// The fused function's input `k`.
    Input(usize),
    /// A scalar (it takes the dtype of the array it meets, as the unfused ops' scalars do).
    Scalar(f64),
    /// A table op (unary or binary), or an op name the table lacks (an `Err` when lowered).
    Op(Result<&'static ElementwiseOp, String>, Vec<Expr>),
    /// `where(cond, a, b)`.
    Where(Expr, Expr, Expr),
    /// A reduction over axes.
    Reduce {
        kind: Reduction,
        arg: Expr,
        axes: Axes,
        keepdims: bool,
    },
    /// A conversion (`astype`).
    Cast(Expr, DType),
}

/// A traced array expression: the argument and result of the function given to
/// [`fuse`](crate::fuse). Operators and methods record the op; nothing runs until the fused
/// function is called.
///
/// ```
/// let f = gpuarray::fuse(|[x, y]| (x.exp() * &y + 1.0).sum(-1, false));
/// # let _ = f;
/// ```
#[derive(Debug, Clone)]
pub struct Expr(pub(crate) Arc<Node>);

impl Expr {
    pub(crate) fn node(n: Node) -> Expr {
        Expr(Arc::new(n))
    }

    /// Input `k` of a fused function.
    pub(crate) fn input(k: usize) -> Expr {
        Expr::node(Node::Input(k))
    }

    /// A scalar operand.
    pub fn scalar(value: f64) -> Expr {
        Expr::node(Node::Scalar(value))
    }

    /// The element-wise op NumPy calls `name` (`"exp"`, `"arctan2"`, `"less"`, ...: any op of
    /// [`elementwise_ops`](crate::elementwise_ops)) applied to `self` and `others`.
    pub fn apply(&self, name: &str, others: &[&Expr]) -> Expr {
        let op = elementwise_op(name).ok_or_else(|| name.to_string());
        let mut args = vec![self.clone()];
        args.extend(others.iter().map(|&e| e.clone()));
        Expr::node(Node::Op(op, args))
    }

    /// `numpy.where(self, a, b)` (`self` bool).
    pub fn select(&self, a: impl Into<Expr>, b: impl Into<Expr>) -> Expr {
        Expr::node(Node::Where(self.clone(), a.into(), b.into()))
    }

    /// A conversion to `dtype` (as `Array::astype`).
    pub fn astype(&self, dtype: DType) -> Expr {
        Expr::node(Node::Cast(self.clone(), dtype))
    }

    fn reduce(&self, kind: Reduction, axes: impl Into<Axes>, keepdims: bool) -> Expr {
        Expr::node(Node::Reduce {
            kind,
            arg: self.clone(),
            axes: axes.into(),
            keepdims,
        })
    }

    /// The sum over `axes` (as `Array::sum`; float dtypes).
    pub fn sum(&self, axes: impl Into<Axes>, keepdims: bool) -> Expr {
        self.reduce(Reduction::Sum, axes, keepdims)
    }
    /// The product over `axes` (float dtypes).
    pub fn prod(&self, axes: impl Into<Axes>, keepdims: bool) -> Expr {
        self.reduce(Reduction::Prod, axes, keepdims)
    }
    /// The maximum over `axes` (NaN propagates, as `numpy.max`).
    pub fn max(&self, axes: impl Into<Axes>, keepdims: bool) -> Expr {
        self.reduce(Reduction::Max, axes, keepdims)
    }
    /// The minimum over `axes`.
    pub fn min(&self, axes: impl Into<Axes>, keepdims: bool) -> Expr {
        self.reduce(Reduction::Min, axes, keepdims)
    }
    /// The mean over `axes` (float dtypes).
    pub fn mean(&self, axes: impl Into<Axes>, keepdims: bool) -> Expr {
        self.reduce(Reduction::Mean, axes, keepdims)
    }
}

impl From<f64> for Expr {
    fn from(v: f64) -> Expr {
        Expr::scalar(v)
    }
}
impl From<&Expr> for Expr {
    fn from(e: &Expr) -> Expr {
        e.clone()
    }
}

/// Unary methods under the op table's Rust names.
macro_rules! unary_methods {
    ($($m:ident => $numpy:literal),* $(,)?) => {
        impl Expr {
            $(
                #[doc = concat!("`numpy.", $numpy, "` of the expression.")]
                pub fn $m(&self) -> Expr {
                    self.apply($numpy, &[])
                }
            )*
        }
    };
}
unary_methods!(
    exp => "exp", exp2 => "exp2", expm1 => "expm1", log => "log", log2 => "log2",
    log10 => "log10", log1p => "log1p", sqrt => "sqrt", abs => "absolute", sin => "sin",
    cos => "cos", tan => "tan", tanh => "tanh", sinh => "sinh", cosh => "cosh",
    asin => "arcsin", acos => "arccos", atan => "arctan", floor => "floor", ceil => "ceil",
    square => "square", reciprocal => "reciprocal", sign => "sign", sigmoid => "sigmoid",
    isnan => "isnan", isfinite => "isfinite", logical_not => "logical_not",
);

/// Binary methods under the op table's Rust names.
macro_rules! binary_methods {
    ($($m:ident => $numpy:literal),* $(,)?) => {
        impl Expr {
            $(
                #[doc = concat!("`numpy.", $numpy, "(self, other)`.")]
                pub fn $m(&self, other: impl Into<Expr>) -> Expr {
                    self.apply($numpy, &[&other.into()])
                }
            )*
        }
    };
}
binary_methods!(
    maximum => "maximum", minimum => "minimum", pow => "power", atan2 => "arctan2",
    hypot => "hypot", lt => "less", le => "less_equal", gt => "greater",
    ge => "greater_equal", eq => "equal", ne => "not_equal", logical_and => "logical_and",
    logical_or => "logical_or",
);

/// `std::ops` on expressions and scalars.
macro_rules! operator {
    ($tr:ident, $m:ident, $numpy:literal) => {
        impl std::ops::$tr<Expr> for Expr {
            type Output = Expr;
            fn $m(self, rhs: Expr) -> Expr {
                self.apply($numpy, &[&rhs])
            }
        }
        impl std::ops::$tr<&Expr> for Expr {
            type Output = Expr;
            fn $m(self, rhs: &Expr) -> Expr {
                self.apply($numpy, &[rhs])
            }
        }
        impl std::ops::$tr<Expr> for &Expr {
            type Output = Expr;
            fn $m(self, rhs: Expr) -> Expr {
                self.apply($numpy, &[&rhs])
            }
        }
        impl std::ops::$tr<&Expr> for &Expr {
            type Output = Expr;
            fn $m(self, rhs: &Expr) -> Expr {
                self.apply($numpy, &[rhs])
            }
        }
        impl std::ops::$tr<f64> for Expr {
            type Output = Expr;
            fn $m(self, rhs: f64) -> Expr {
                self.apply($numpy, &[&Expr::scalar(rhs)])
            }
        }
        impl std::ops::$tr<f64> for &Expr {
            type Output = Expr;
            fn $m(self, rhs: f64) -> Expr {
                self.apply($numpy, &[&Expr::scalar(rhs)])
            }
        }
        impl std::ops::$tr<Expr> for f64 {
            type Output = Expr;
            fn $m(self, rhs: Expr) -> Expr {
                Expr::scalar(self).apply($numpy, &[&rhs])
            }
        }
        impl std::ops::$tr<&Expr> for f64 {
            type Output = Expr;
            fn $m(self, rhs: &Expr) -> Expr {
                Expr::scalar(self).apply($numpy, &[rhs])
            }
        }
    };
}
operator!(Add, add, "add");
operator!(Sub, sub, "subtract");
operator!(Mul, mul, "multiply");
operator!(Div, div, "divide");

impl std::ops::Neg for Expr {
    type Output = Expr;
    fn neg(self) -> Expr {
        self.apply("negative", &[])
    }
}
impl std::ops::Neg for &Expr {
    type Output = Expr;
    fn neg(self) -> Expr {
        self.apply("negative", &[])
    }
}
