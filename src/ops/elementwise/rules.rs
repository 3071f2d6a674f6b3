//! What an element-wise op does for each dtype, as its row of the op table states it: a kernel of
//! one op set, the input itself, another op of the same arity, or a refusal. The rules are an
//! allow-list per dtype class: an op runs only on the classes its row names.

use crate::dtype::DType;
use crate::error::{Error, Result};

/// The op files of the element-wise kernels: each is one `switch OP` over the codes of its
/// table rows (`shaders/unary_float.wgsl`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum OpSet {
    /// Float → float math (f32, f16 computed in f32, f64).
    UnaryFloat,
    /// Integer → integer.
    UnaryInt,
    /// Any dtype → bool predicates.
    Predicate,
    /// Float arithmetic and math.
    BinaryFloat,
    /// Integer (and bool) arithmetic and bitwise ops.
    BinaryInt,
    /// Any dtype → bool comparisons and logical ops.
    Compare,
}

impl OpSet {
    /// Whether the set's results are bool whatever the input.
    pub fn gives_bool(self) -> bool {
        matches!(self, OpSet::Predicate | OpSet::Compare)
    }
}

/// What an op does for one class of dtypes (a cell of its table row).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Run<Op> {
    /// Not defined for these dtypes (NumPy refuses, or would promote to a dtype we lack).
    No,
    /// The op's own code on a kernel of this set.
    Kernel(OpSet),
    /// The result is the input itself, copied (NumPy: `floor` of integers, `abs` of bools).
    Identity,
    /// Computed as another op of the same arity (bool `add` is `logical_or`).
    As(Op),
    /// Computed after converting to float (integer true division: f64, or f32 without f64).
    InFloat,
}

/// The class of a dtype in the table's columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Class {
    /// f16, f32, f64.
    Float,
    /// Signed and unsigned integers.
    Int,
    /// bool.
    Bool,
}

impl Class {
    pub fn of(dtype: DType) -> Class {
        if dtype.is_float() {
            Class::Float
        } else if dtype == DType::Bool {
            Class::Bool
        } else {
            Class::Int
        }
    }
}

/// A row's three cells, by class.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rules<Op> {
    pub float: Run<Op>,
    pub int: Run<Op>,
    pub bool: Run<Op>,
}

impl<Op: Copy> Rules<Op> {
    pub fn get(&self, dtype: DType) -> Run<Op> {
        match Class::of(dtype) {
            Class::Float => self.float,
            Class::Int => self.int,
            Class::Bool => self.bool,
        }
    }
}

/// An op's plan for one dtype: the kernel (set and op code) and result dtype, or the input itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Plan {
    /// Launch this set's kernel with this `OP` code, giving this dtype.
    Kernel(OpSet, u32, DType),
    /// The input itself (a copy).
    Identity,
    /// Convert to this float dtype first, then run the op there.
    InFloat(DType),
}

/// The plan of a table op for `dtype`: follows `As` links (at most a few, the table has no cycles),
/// refuses with NumPy's reason.
pub(crate) fn plan<Op: Copy>(
    name: &'static str,
    mut op: Op,
    rules: impl Fn(Op) -> Rules<Op>,
    code: impl Fn(Op) -> u32,
    dtype: DType,
    has_f64: bool,
) -> Result<Plan> {
    for _ in 0..4 {
        match rules(op).get(dtype) {
            Run::No => return Err(unsupported(name, dtype)),
            Run::Identity => return Ok(Plan::Identity),
            Run::InFloat => {
                return Ok(Plan::InFloat(if has_f64 { DType::F64 } else { DType::F32 }));
            }
            Run::Kernel(set) => {
                let out = if set.gives_bool() { DType::Bool } else { dtype };
                return Ok(Plan::Kernel(set, code(op), out));
            }
            Run::As(other) => op = other,
        }
    }
    Err(Error::invalid(
        name,
        "the op table's `As` links form a cycle",
    ))
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
