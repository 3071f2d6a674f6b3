//! Element-wise kernels (`shaders/unary*.wgsl`, `shaders/binary*.wgsl`, `shaders/where.wgsl`):
//! which kernel and op code serve an (op, dtype) pair, and the launches over blocks.
//!
//! Every launch is planned by `device::blocks::plan` over the output's shape with one operand per
//! input (broadcast axes have stride 0: nothing is materialised) plus the output. A block whose
//! operands are all contiguous, start at a multiple of 4 elements and hold a multiple of 4
//! elements takes the `vec4` skeleton; any other block takes the strided one. Scalars travel in
//! the uniform parameters (`SCALAR` override), so `a + 2.0` is one dispatch with no upload.

use crate::array::Array;
use crate::device::blocks::{collapse, plan, Block, Operand as BlockOperand};
use crate::device::params::{block_count, Params};
use crate::device::{BinarySet, Binding, Form, Kernel, PipelineKey, UnarySet, Variant};
use crate::dtype::DType;
use crate::error::{Error, Result};

/// Binary ops. Codes are the `OP` values of the op files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    FloorDivide,
    Remainder,
    Pow,
    Maximum,
    Minimum,
    Fmax,
    Fmin,
    Arctan2,
    Hypot,
    Copysign,
    BitAnd,
    BitOr,
    BitXor,
    LeftShift,
    RightShift,
    /// exp(a - b), for softmax.
    SubExp,
    /// (a - b)^2, for var.
    SqDiff,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    LogicalAnd,
    LogicalOr,
    LogicalXor,
}

impl BinaryOp {
    pub fn name(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Add => "add",
            Sub => "subtract",
            Mul => "multiply",
            Div => "divide",
            FloorDivide => "floor_divide",
            Remainder => "remainder",
            Pow => "power",
            Maximum => "maximum",
            Minimum => "minimum",
            Fmax => "fmax",
            Fmin => "fmin",
            Arctan2 => "arctan2",
            Hypot => "hypot",
            Copysign => "copysign",
            BitAnd => "bitwise_and",
            BitOr => "bitwise_or",
            BitXor => "bitwise_xor",
            LeftShift => "left_shift",
            RightShift => "right_shift",
            SubExp => "softmax",
            SqDiff => "var",
            Eq => "equal",
            Ne => "not_equal",
            Lt => "less",
            Le => "less_equal",
            Gt => "greater",
            Ge => "greater_equal",
            LogicalAnd => "logical_and",
            LogicalOr => "logical_or",
            LogicalXor => "logical_xor",
        }
    }

    pub fn code(self) -> u32 {
        use BinaryOp::*;
        match self {
            Add | Eq => 0,
            Sub | Ne => 1,
            Mul | Lt => 2,
            Div | Le => 3,
            FloorDivide | Gt => 4,
            Remainder | Ge => 5,
            Pow | LogicalAnd => 6,
            Maximum | LogicalOr => 7,
            Minimum | LogicalXor => 8,
            Fmax => 9,
            Fmin => 10,
            Arctan2 => 11,
            Hypot => 12,
            Copysign => 13,
            SubExp => 14,
            SqDiff => 15,
            BitAnd => 16,
            BitOr => 17,
            BitXor => 18,
            LeftShift => 19,
            RightShift => 20,
        }
    }

    /// The kernel set, op (possibly rewritten, e.g. bool `add` is `or`) and output dtype for
    /// inputs of `dtype`, or the error NumPy's dtype rules call for.
    pub fn resolve(self, dtype: DType) -> Result<(BinarySet, BinaryOp, DType)> {
        use BinaryOp::*;
        if matches!(
            self,
            Eq | Ne | Lt | Le | Gt | Ge | LogicalAnd | LogicalOr | LogicalXor
        ) {
            return Ok((BinarySet::Compare, self, DType::Bool));
        }
        let ok = match dtype {
            DType::F32 | DType::F16 | DType::F64 => {
                !matches!(self, BitAnd | BitOr | BitXor | LeftShift | RightShift)
            }
            DType::I32 | DType::U32 => !matches!(self, Div | Arctan2 | Hypot | Copysign | SubExp),
            DType::Bool => {
                let op = match self {
                    Add => BitOr,
                    Mul => BitAnd,
                    other => other,
                };
                if matches!(
                    op,
                    BitAnd | BitOr | BitXor | Maximum | Minimum | Fmax | Fmin
                ) {
                    return Ok((BinarySet::Int, op, DType::Bool));
                }
                false
            }
        };
        if !ok {
            return Err(unsupported(self.name(), dtype));
        }
        let set = if dtype.is_float() {
            BinarySet::Float
        } else {
            BinarySet::Int
        };
        Ok((set, self, dtype))
    }
}

/// Unary ops. Codes are the `OP` values of the op files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UnaryOp {
    Neg,
    Abs,
    Sign,
    Sqrt,
    Rsqrt,
    Exp,
    Exp2,
    Expm1,
    Log,
    Log2,
    Log10,
    Log1p,
    Sin,
    Cos,
    Tan,
    Arcsin,
    Arccos,
    Arctan,
    Sinh,
    Cosh,
    Tanh,
    Floor,
    Ceil,
    Round,
    Trunc,
    Square,
    Reciprocal,
    Sigmoid,
    Relu,
    BitwiseNot,
    IsNan,
    IsInf,
    IsFinite,
    LogicalNot,
    Truth,
    Signbit,
}

/// What a unary op does for one dtype.
pub(crate) enum UnaryPlan {
    /// A kernel launch with this op set and code, giving this dtype.
    Kernel(UnarySet, u32, DType),
    /// The result is the input itself (NumPy: `floor` of an integer array, `abs` of bools).
    Identity,
}

impl UnaryOp {
    pub fn name(self) -> &'static str {
        use UnaryOp::*;
        match self {
            Neg => "negative",
            Abs => "absolute",
            Sign => "sign",
            Sqrt => "sqrt",
            Rsqrt => "rsqrt",
            Exp => "exp",
            Exp2 => "exp2",
            Expm1 => "expm1",
            Log => "log",
            Log2 => "log2",
            Log10 => "log10",
            Log1p => "log1p",
            Sin => "sin",
            Cos => "cos",
            Tan => "tan",
            Arcsin => "asin",
            Arccos => "acos",
            Arctan => "atan",
            Sinh => "sinh",
            Cosh => "cosh",
            Tanh => "tanh",
            Floor => "floor",
            Ceil => "ceil",
            Round => "round",
            Trunc => "trunc",
            Square => "square",
            Reciprocal => "reciprocal",
            Sigmoid => "sigmoid",
            Relu => "relu",
            BitwiseNot => "bitwise_not",
            IsNan => "isnan",
            IsInf => "isinf",
            IsFinite => "isfinite",
            LogicalNot => "logical_not",
            Truth => "astype(bool)",
            Signbit => "signbit",
        }
    }

    fn float_code(self) -> Option<u32> {
        use UnaryOp::*;
        Some(match self {
            Neg => 0,
            Abs => 1,
            Sign => 2,
            Sqrt => 3,
            Rsqrt => 4,
            Exp => 5,
            Exp2 => 6,
            Expm1 => 7,
            Log => 8,
            Log2 => 9,
            Log10 => 10,
            Log1p => 11,
            Sin => 12,
            Cos => 13,
            Tan => 14,
            Arcsin => 15,
            Arccos => 16,
            Arctan => 17,
            Sinh => 18,
            Cosh => 19,
            Tanh => 20,
            Floor => 21,
            Ceil => 22,
            Round => 23,
            Trunc => 24,
            Square => 25,
            Reciprocal => 26,
            Sigmoid => 27,
            Relu => 28,
            _ => return None,
        })
    }

    fn predicate_code(self) -> Option<u32> {
        use UnaryOp::*;
        Some(match self {
            IsNan => 0,
            IsInf => 1,
            IsFinite => 2,
            LogicalNot => 3,
            Truth => 4,
            Signbit => 5,
            _ => return None,
        })
    }

    pub fn plan(self, dtype: DType) -> Result<UnaryPlan> {
        use UnaryOp::*;
        if let Some(code) = self.predicate_code() {
            return Ok(UnaryPlan::Kernel(UnarySet::Predicate, code, DType::Bool));
        }
        match dtype {
            DType::F32 | DType::F16 | DType::F64 => match self.float_code() {
                Some(code) => Ok(UnaryPlan::Kernel(UnarySet::Float, code, dtype)),
                None => Err(unsupported(self.name(), dtype)),
            },
            DType::I32 | DType::U32 => match self {
                Neg | Abs | Sign | Square | Reciprocal | Relu | BitwiseNot => {
                    let code = if self == BitwiseNot {
                        30
                    } else {
                        self.float_code().expect("shared codes")
                    };
                    Ok(UnaryPlan::Kernel(UnarySet::Int, code, dtype))
                }
                Floor | Ceil | Round | Trunc => Ok(UnaryPlan::Identity),
                _ => Err(unsupported(self.name(), dtype)),
            },
            DType::Bool => match self {
                Abs => Ok(UnaryPlan::Identity),
                BitwiseNot => Ok(UnaryPlan::Kernel(UnarySet::Predicate, 3, DType::Bool)),
                _ => Err(unsupported(self.name(), dtype)),
            },
        }
    }
}

/// The error for an op that NumPy does not define on a dtype (or that needs a dtype we lack).
pub(crate) fn unsupported(op: &'static str, dtype: DType) -> Error {
    let hint = if dtype.is_float() {
        "it needs an integer or bool dtype"
    } else if dtype == DType::Bool {
        "it is not defined for booleans; convert with astype first"
    } else {
        "it needs a float dtype (NumPy would promote to float64: use astype)"
    };
    Error::Unsupported {
        op,
        feature: format!("{op} is not available for dtype {dtype}: {hint}"),
    }
}

/// A scalar converted to an array's dtype, as the kernels receive it.
#[derive(Debug, Clone, Copy)]
pub(crate) enum ScalarValue {
    F32(f32),
    F64(f64),
    I32(i32),
    U32(u32),
}

impl ScalarValue {
    /// `value` in `dtype`: floats round, integers must be exact and in range, bools 0 or 1.
    pub fn new(op: &'static str, dtype: DType, value: f64) -> Result<ScalarValue> {
        let bad = || {
            Error::invalid(
                op,
                format!("the scalar {value} cannot be represented exactly in dtype {dtype} (scalars adopt the array's dtype; use astype)"),
            )
        };
        Ok(match dtype {
            DType::F32 | DType::F16 => ScalarValue::F32(value as f32),
            DType::F64 => ScalarValue::F64(value),
            DType::I32 => {
                if value.fract() != 0.0 || !(-2147483648.0..=2147483647.0).contains(&value) {
                    return Err(bad());
                }
                ScalarValue::I32(value as i32)
            }
            DType::U32 => {
                if value.fract() != 0.0 || !(0.0..=4294967295.0).contains(&value) {
                    return Err(bad());
                }
                ScalarValue::U32(value as u32)
            }
            DType::Bool => {
                if value != 0.0 && value != 1.0 {
                    return Err(bad());
                }
                ScalarValue::U32(value as u32)
            }
        })
    }

    fn push(self, p: &mut Params) {
        match self {
            ScalarValue::F32(v) => p.f32(v),
            ScalarValue::F64(v) => p.f64(v),
            ScalarValue::I32(v) => p.i32(v),
            ScalarValue::U32(v) => p.u32(v),
        };
    }
}

fn block_operand(a: &Array) -> BlockOperand {
    let (storage, layout) = a.storage_and_layout();
    BlockOperand {
        offset: layout.offset as i64,
        strides: layout.strides.iter().map(|&s| s as i64).collect(),
        elem_bytes: a.dtype().size_bytes(),
        buffer_bytes: storage.bytes(),
    }
}

/// Plans blocks over `out`'s shape for `arrays` (inputs broadcast to it, then `out`).
fn blocks_for(op: &'static str, arrays: &[&Array]) -> Result<Vec<Block>> {
    let out = arrays.last().expect("an output");
    let shape: Vec<u64> = out.shape().iter().map(|&n| n as u64).collect();
    let mut operands: Vec<BlockOperand> = arrays.iter().map(|a| block_operand(a)).collect();
    let strides: Vec<Vec<i64>> = operands.iter().map(|o| o.strides.clone()).collect();
    let (shape, strides) = collapse(&shape, &strides);
    for (o, s) in operands.iter_mut().zip(strides) {
        o.strides = s;
    }
    plan(op, &shape, &operands, out.device().inner.block_limits())
}

/// Whether a block can use the vec4 skeleton.
fn vec4_block(b: &Block) -> bool {
    b.shape.len() == 1
        && b.numel().is_multiple_of(4)
        && b.strides.iter().all(|s| s[0] == 1)
        && b.windows.iter().all(|w| w.base % 4 == 0)
}

fn bindings<'a>(arrays: &[&'a Array], b: &Block) -> Vec<Binding<'a>> {
    arrays
        .iter()
        .zip(&b.windows)
        .map(|(a, w)| Binding {
            buffer: a.storage.buffer().expect("non-empty"),
            offset: w.byte_offset,
            size: w.byte_size,
        })
        .collect()
}

/// `out = op(a, b)` (or with a scalar on one side) for inputs already broadcast to `out`'s shape;
/// `out` shares no storage with the inputs.
pub(crate) fn binary_into(
    op: &'static str,
    set: BinarySet,
    code: u32,
    a: &Array,
    b: Option<&Array>,
    scalar: Option<(ScalarValue, bool)>,
    out: &Array,
) -> Result<()> {
    let dev = &out.device.inner;
    dev.check_alive(op)?;
    if out.is_empty() {
        return Ok(());
    }
    // With a scalar, binding 2 repeats binding 1 (read-only twice is allowed) and is not read.
    let mode = match scalar {
        None => 0,
        Some((_, false)) => 1,
        Some((_, true)) => 2,
    };
    let b = b.unwrap_or(a);
    let arrays = [a, b, out];
    let blocks = blocks_for(op, &arrays)?;
    let variant = Variant::one(a.dtype());
    let scalar = scalar.map_or(
        ScalarValue::new(op, a.dtype(), 0.0).expect("zero fits"),
        |s| s.0,
    );
    dev.guarded(op, || {
        for blk in &blocks {
            let binds = bindings(&arrays, blk);
            let mut p = Params::default();
            if vec4_block(blk) {
                let key = PipelineKey::new(Kernel::Binary(set, Form::Vec4), variant)
                    .with("EPT", 4)
                    .with("OP", code)
                    .with("SCALAR", mode);
                for w in &blk.windows {
                    p.u32((w.base / 4) as u32);
                }
                p.u32(block_count(blk)? / 4);
                scalar.push(&mut p);
                dev.dispatch(&key, p.bytes(), &binds, blk.numel() / 4, &blk.shape)?;
            } else {
                let key = PipelineKey::new(Kernel::Binary(set, Form::Strided), variant)
                    .with("OP", code)
                    .with("SCALAR", mode);
                p.strided_block(blk)?;
                scalar.push(&mut p);
                dev.dispatch(&key, p.bytes(), &binds, blk.numel(), &blk.shape)?;
            }
        }
        Ok(())
    })
}

/// `out = op(a)` for `a` of `out`'s shape; `out` shares no storage with `a`.
pub(crate) fn unary_into(
    op: &'static str,
    set: UnarySet,
    code: u32,
    a: &Array,
    out: &Array,
) -> Result<()> {
    let dev = &out.device.inner;
    dev.check_alive(op)?;
    if out.is_empty() {
        return Ok(());
    }
    let arrays = [a, out];
    let blocks = blocks_for(op, &arrays)?;
    let variant = Variant::one(a.dtype());
    dev.guarded(op, || {
        for blk in &blocks {
            let binds = bindings(&arrays, blk);
            let mut p = Params::default();
            if vec4_block(blk) {
                let key = PipelineKey::new(Kernel::Unary(set, Form::Vec4), variant)
                    .with("EPT", 4)
                    .with("OP", code);
                for w in &blk.windows {
                    p.u32((w.base / 4) as u32);
                }
                p.u32(block_count(blk)? / 4);
                dev.dispatch(&key, p.bytes(), &binds, blk.numel() / 4, &blk.shape)?;
            } else {
                let key =
                    PipelineKey::new(Kernel::Unary(set, Form::Strided), variant).with("OP", code);
                p.strided_block(blk)?;
                dev.dispatch(&key, p.bytes(), &binds, blk.numel(), &blk.shape)?;
            }
        }
        Ok(())
    })
}

/// `out = where(cond, a, b)` for inputs broadcast to `out`'s shape (cond is bool).
pub(crate) fn where_into(
    op: &'static str,
    cond: &Array,
    a: &Array,
    b: &Array,
    out: &Array,
) -> Result<()> {
    let dev = &out.device.inner;
    dev.check_alive(op)?;
    if out.is_empty() {
        return Ok(());
    }
    let arrays = [cond, a, b, out];
    let blocks = blocks_for(op, &arrays)?;
    let key = PipelineKey::new(Kernel::Where, Variant::one(a.dtype()));
    dev.guarded(op, || {
        for blk in &blocks {
            let binds = bindings(&arrays, blk);
            let mut p = Params::default();
            p.strided_block(blk)?;
            dev.dispatch(&key, p.bytes(), &binds, blk.numel(), &blk.shape)?;
        }
        Ok(())
    })
}
