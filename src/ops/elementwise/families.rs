//! The element-wise kernel families, declared for the device (`device::KernelDef`): one per op
//! file and skeleton — unary float/int/predicate and binary float/int/compare, each strided and
//! contiguous `vec4` — and `where`. A family's WGSL is the element-wise prelude (type aliases,
//! NaN helpers), its op codes from the table, the math library where its ops need one, the op
//! file and the skeleton; its eager pipelines are the table's ops for each dtype.

use super::rules::OpSet;
use super::table::{BinaryOp, UnaryOp};
use crate::device::element_access::{read_access, read_value, write_access, write_value};
use crate::device::wgsl_helpers::{helpers, helpers_soft_f64, soft_f64_library};
use crate::device::{Constants, DEFAULT_EPT, DEFAULT_WG, KernelDef, Needs, Variant, When};
use crate::dtype::DType;

/// How an element-wise kernel walks its operands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Form {
    /// Any strides (broadcast, reversed, transposed), up to 8 axes per block.
    Strided,
    /// Contiguous operands of one shape, read and written as `vec4`s.
    Vec4,
}

const GRID: &[(&str, u32)] = &[("EPT", DEFAULT_EPT), ("WG", DEFAULT_WG)];

/// Aliases of the element-wise kernels: `T`/`C` the input's storage/compute types, `O`/`R` the
/// output's (packed f16 is stored in `u32` words and computed in f32), and the helpers for `C`.
fn elementwise_prelude(v: Variant, input: DType, output: DType) -> String {
    format!(
        "alias T = {};\nalias C = {};\nalias O = {};\nalias R = {};\n{}",
        v.stored(input).wgsl(),
        input.wgsl_compute(),
        v.stored(output).wgsl(),
        output.wgsl_compute(),
        helpers("C", input)
    )
}

/// The math library of a variant's compute type: f64 needs software versions (GLSL.std.450's
/// are 32-bit only); f16 computes in f32.
pub(super) fn math(v: Variant) -> &'static str {
    if v.a == DType::F64 {
        include_str!("../../../shaders/math_f64.wgsl")
    } else {
        concat!(
            include_str!("../../../shaders/mulhilo.wgsl"),
            include_str!("../../../shaders/math_f32.wgsl")
        )
    }
}

fn uses_math(set: OpSet) -> bool {
    matches!(set, OpSet::UnaryFloat | OpSet::BinaryFloat)
}

/// The WGSL of `set`'s strided kernel for software f64 (word pairs): the soft op files, over
/// `shaders/f64_soft.wgsl`, with the strided skeletons.
fn wgsl_soft(set: OpSet, v: Variant) -> String {
    let out = if set.gives_bool() { DType::Bool } else { v.a };
    let (input, output) = (v.stored(v.a), v.stored(out));
    let mut s = format!(
        "alias T = {};\nalias C = {};\nalias O = {};\nalias R = {};\n{}",
        input.wgsl(),
        input.wgsl_compute(),
        output.wgsl(),
        output.wgsl_compute(),
        helpers_soft_f64("C")
    );
    let unary = matches!(set, OpSet::UnaryFloat | OpSet::UnaryInt | OpSet::Predicate);
    s.push_str(&if unary {
        UnaryOp::wgsl_constants()
    } else {
        BinaryOp::wgsl_constants()
    });
    s.push_str(&soft_f64_library());
    if uses_math(set) {
        s.push_str(include_str!("../../../shaders/math_f64_soft.wgsl"));
    }
    s.push_str(match set {
        OpSet::UnaryFloat => include_str!("../../../shaders/unary_float_soft.wgsl"),
        OpSet::Predicate => include_str!("../../../shaders/unary_predicate_soft.wgsl"),
        OpSet::BinaryFloat => include_str!("../../../shaders/binary_float_soft.wgsl"),
        OpSet::Compare => include_str!("../../../shaders/binary_compare_soft.wgsl"),
        OpSet::UnaryInt | OpSet::BinaryInt => unreachable!("no f64 variant"),
    });
    let walk = include_str!("../../../shaders/strided_walk.wgsl");
    s.push_str(&read_access("a", 1, input));
    if unary {
        s.push_str(&write_access("o", 2, output));
        s.push_str(include_str!("../../../shaders/unary.wgsl"));
    } else {
        s.push_str(&read_access("b", 2, input));
        s.push_str(&write_access("o", 3, output));
        s.push_str(include_str!("../../../shaders/binary.wgsl"));
    }
    s + walk
}

/// The complete WGSL of `set`'s kernel over `form` for variant `v`.
fn wgsl(set: OpSet, form: Form, v: Variant) -> String {
    if v.soft {
        return wgsl_soft(set, v);
    }
    let out = if set.gives_bool() { DType::Bool } else { v.a };
    let mut s = elementwise_prelude(v, v.a, out);
    let unary = matches!(set, OpSet::UnaryFloat | OpSet::UnaryInt | OpSet::Predicate);
    s.push_str(&if unary {
        UnaryOp::wgsl_constants()
    } else {
        BinaryOp::wgsl_constants()
    });
    if uses_math(set) {
        // nextafter steps through the storage type's values (f16 computes in f32).
        s.push_str(&format!(
            "const STORAGE_IS_F16: bool = {};\n",
            v.a == DType::F16
        ));
        s.push_str(math(v));
    }
    let pair = matches!(v.a, DType::I64 | DType::U64);
    if pair {
        // The word-pair arithmetic (int64.wgsl, int64_ops.wgsl) in the dtype's signedness.
        s.push_str(&format!("const SIGNED: bool = {};\n", v.a == DType::I64));
        s.push_str(include_str!("../../../shaders/mulhilo.wgsl"));
        s.push_str(include_str!("../../../shaders/int64.wgsl"));
        s.push_str(include_str!("../../../shaders/int64_ops.wgsl"));
    }
    s.push_str(match (set, pair) {
        (OpSet::UnaryFloat, _) => include_str!("../../../shaders/unary_float.wgsl"),
        (OpSet::UnaryInt, false) => include_str!("../../../shaders/unary_int.wgsl"),
        (OpSet::UnaryInt, true) => include_str!("../../../shaders/unary_int64.wgsl"),
        (OpSet::Predicate, false) => include_str!("../../../shaders/unary_predicate.wgsl"),
        (OpSet::Predicate, true) => include_str!("../../../shaders/unary_predicate64.wgsl"),
        (OpSet::BinaryFloat, _) => include_str!("../../../shaders/binary_float.wgsl"),
        (OpSet::BinaryInt, false) => include_str!("../../../shaders/binary_int.wgsl"),
        (OpSet::BinaryInt, true) => include_str!("../../../shaders/binary_int64.wgsl"),
        (OpSet::Compare, false) => include_str!("../../../shaders/binary_compare.wgsl"),
        (OpSet::Compare, true) => include_str!("../../../shaders/binary_compare64.wgsl"),
    });
    let walk = include_str!("../../../shaders/strided_walk.wgsl");
    match (unary, form) {
        (true, Form::Strided) => {
            s.push_str(&read_value("a", 1, v, v.a));
            s.push_str(&write_value("o", 2, v, out));
            s.push_str(include_str!("../../../shaders/unary.wgsl"));
            s.push_str(walk);
        }
        (true, Form::Vec4) => s.push_str(include_str!("../../../shaders/unary_vec4.wgsl")),
        (false, Form::Strided) => {
            s.push_str(&read_value("a", 1, v, v.a));
            s.push_str(&read_value("b", 2, v, v.a));
            s.push_str(&write_value("o", 3, v, out));
            s.push_str(include_str!("../../../shaders/binary.wgsl"));
            s.push_str(walk);
        }
        (false, Form::Vec4) => s.push_str(include_str!("../../../shaders/binary_vec4.wgsl")),
    }
    s
}

/// The dtypes `set`'s kernel over `form` is built for: those some table row runs on it (the
/// `vec4` forms read whole words of one element each: word dtypes only).
fn variants(set: OpSet, form: Form, dtypes: &[DType]) -> Vec<Variant> {
    dtypes
        .iter()
        .copied()
        .filter(|&d| !codes(set, d).is_empty() && (form == Form::Strided || d.is_word()))
        .map(Variant::one)
        .collect()
}

/// The `OP` codes of the table's ops that run on `set`'s kernel for dtype `d`.
fn codes(set: OpSet, d: DType) -> Vec<u32> {
    let mut codes: Vec<u32> = UnaryOp::ALL
        .iter()
        .filter_map(|op| op.plan(d, true).ok())
        .chain(BinaryOp::ALL.iter().filter_map(|op| op.plan(d, true).ok()))
        .filter_map(|plan| match plan {
            super::Plan::Kernel(s, code, _) if s == set => Some(code),
            _ => None,
        })
        .collect();
    codes.sort_unstable();
    codes.dedup();
    codes
}

/// The eager pipelines of `set` over `form` for `v`: each of its ops (binary ones with no
/// scalar, a scalar on the right and one on the left), vec4 ones with 4 elements per invocation.
fn eager(set: OpSet, form: Form, v: Variant) -> Vec<Constants> {
    let unary = matches!(set, OpSet::UnaryFloat | OpSet::UnaryInt | OpSet::Predicate);
    let scalars: &[u32] = if unary { &[] } else { &[0, 1, 2] };
    let mut sets = Vec::new();
    for code in codes(set, v.a) {
        let mut base = vec![("OP", code)];
        if form == Form::Vec4 {
            base.push(("EPT", 4));
        }
        if unary {
            sets.push(base);
        } else {
            for &s in scalars {
                let mut c = base.clone();
                c.push(("SCALAR", s));
                sets.push(c);
            }
        }
    }
    sets
}

/// Declares the family of one op set and form.
macro_rules! family {
    ($static:ident, $name:literal, $set:expr, $form:expr) => {
        pub(crate) static $static: KernelDef = KernelDef {
            name: $name,
            entry: "main",
            constants: GRID,
            ops_per_element: 1,
            uses_f32_math: |v| uses_math($set) && v.a != DType::F64,
            variants: |dtypes| variants($set, $form, dtypes),
            wgsl: |v| wgsl($set, $form, v),
            when: When::Eager,
            eager: |_, v| eager($set, $form, v),
            needs: Needs::NONE,
            // The strided kernels of the float op sets (the launch code never picks a vec4
            // kernel for software f64: its elements are word pairs).
            soft_f64: matches!($form, Form::Strided),
            packed_f16: matches!($form, Form::Strided),
            warm_up: false,
        };
    };
}

family!(UNARY_FLOAT, "unary_float", OpSet::UnaryFloat, Form::Strided);
family!(
    UNARY_FLOAT_VEC4,
    "unary_float_vec4",
    OpSet::UnaryFloat,
    Form::Vec4
);
family!(UNARY_INT, "unary_int", OpSet::UnaryInt, Form::Strided);
family!(
    UNARY_INT_VEC4,
    "unary_int_vec4",
    OpSet::UnaryInt,
    Form::Vec4
);
family!(
    PREDICATE,
    "unary_predicate",
    OpSet::Predicate,
    Form::Strided
);
family!(
    PREDICATE_VEC4,
    "unary_predicate_vec4",
    OpSet::Predicate,
    Form::Vec4
);
family!(
    BINARY_FLOAT,
    "binary_float",
    OpSet::BinaryFloat,
    Form::Strided
);
family!(
    BINARY_FLOAT_VEC4,
    "binary_float_vec4",
    OpSet::BinaryFloat,
    Form::Vec4
);
family!(BINARY_INT, "binary_int", OpSet::BinaryInt, Form::Strided);
family!(
    BINARY_INT_VEC4,
    "binary_int_vec4",
    OpSet::BinaryInt,
    Form::Vec4
);
family!(COMPARE, "binary_compare", OpSet::Compare, Form::Strided);
family!(
    COMPARE_VEC4,
    "binary_compare_vec4",
    OpSet::Compare,
    Form::Vec4
);

/// `where(cond, a, b)`, strided. Dtype: `a`'s and `b`'s.
pub(crate) static WHERE: KernelDef = KernelDef {
    name: "where",
    entry: "main",
    constants: GRID,
    ops_per_element: 1,
    uses_f32_math: KernelDef::no_f32_math,
    variants: KernelDef::every_dtype,
    wgsl: |v| {
        // Moves elements only: software f64 is its bits.
        let d = v.stored(v.a);
        read_access("a", 2, d)
            + &read_access("b", 3, d)
            + &write_access("o", 4, d)
            + include_str!("../../../shaders/where.wgsl")
            + include_str!("../../../shaders/strided_walk.wgsl")
    },
    when: When::Eager,
    eager: KernelDef::as_declared,
    needs: Needs::NONE,
    soft_f64: true,
    packed_f16: true,
    warm_up: false,
};

/// `where(cond, a, b)` over contiguous operands, four elements at a time, with either side
/// a scalar in the parameters (`SCALAR` bits: none, `a`, `b`). One-word dtypes, eager as the
/// strided `where`.
pub(crate) static WHERE_VEC4: KernelDef = KernelDef {
    name: "where_vec4",
    entry: "main",
    constants: GRID,
    ops_per_element: 1,
    uses_f32_math: KernelDef::no_f32_math,
    variants: |dtypes| {
        dtypes
            .iter()
            .copied()
            .filter(|d| d.is_word())
            .map(Variant::one)
            .collect()
    },
    wgsl: |v| {
        // The scalars travel as ScalarValue writes them, bool's as u32; f16 is launched without
        // scalars (`S` only declares the unread fields).
        let stored = v.stored(v.a).wgsl();
        let scalar = if v.a == DType::F16 { "f32" } else { stored };
        format!("alias T = {stored};\nalias S = {scalar};\n")
            + include_str!("../../../shaders/where_vec4.wgsl")
    },
    when: When::Eager,
    // f16 never takes a scalar here (`where_into`).
    eager: |_, v| {
        let scalars: &[u32] = if v.a == DType::F16 { &[0] } else { &[0, 1, 2] };
        scalars
            .iter()
            .map(|&scalar| vec![("EPT", 4), ("SCALAR", scalar)])
            .collect()
    },
    needs: Needs::NONE,
    soft_f64: false,
    packed_f16: false,
    warm_up: false,
};

/// The family of `set` over `form`.
pub(crate) fn family(set: OpSet, form: Form) -> &'static KernelDef {
    match (set, form) {
        (OpSet::UnaryFloat, Form::Strided) => &UNARY_FLOAT,
        (OpSet::UnaryFloat, Form::Vec4) => &UNARY_FLOAT_VEC4,
        (OpSet::UnaryInt, Form::Strided) => &UNARY_INT,
        (OpSet::UnaryInt, Form::Vec4) => &UNARY_INT_VEC4,
        (OpSet::Predicate, Form::Strided) => &PREDICATE,
        (OpSet::Predicate, Form::Vec4) => &PREDICATE_VEC4,
        (OpSet::BinaryFloat, Form::Strided) => &BINARY_FLOAT,
        (OpSet::BinaryFloat, Form::Vec4) => &BINARY_FLOAT_VEC4,
        (OpSet::BinaryInt, Form::Strided) => &BINARY_INT,
        (OpSet::BinaryInt, Form::Vec4) => &BINARY_INT_VEC4,
        (OpSet::Compare, Form::Strided) => &COMPARE,
        (OpSet::Compare, Form::Vec4) => &COMPARE_VEC4,
    }
}
