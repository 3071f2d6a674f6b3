//! The reduction kernel families, declared for the device (`device::KernelDef`): value
//! reductions in one stage over any strides (`reduce`), over contiguous rows read as vec4s
//! (`reduce_rows`) or eight packed halves (`reduce_rows_f16x8`), down the columns of rows
//! (`reduce_cols`), and the arg-reductions (`argreduce`). Variants are (input, output) pairs:
//! the same dtype, f16 through f32 partials, and any/all into bool. In the eager plan, with the
//! workgroup size (64), op codes, stages and modes their launches use.

use super::op_codes::ReduceOp;
use crate::device::wgsl_helpers::{helpers, helpers_soft_f64, soft_f64_library, truth_in};
use crate::device::{
    Adapter, Constants, DEFAULT_WG, KernelDef, Needs, Variant, When, combinations,
};
use crate::dtype::DType;

/// Reductions and scans declare no `EPT` (WebGPU refuses a constant the shader lacks).
const WG: &[(&str, u32)] = &[("WG", DEFAULT_WG)];

/// The value reductions `reduce_ops.wgsl` computes.
const VALUE_OPS: [ReduceOp; 8] = [
    ReduceOp::Sum,
    ReduceOp::Prod,
    ReduceOp::Max,
    ReduceOp::Min,
    ReduceOp::Any,
    ReduceOp::All,
    ReduceOp::NanSum,
    ReduceOp::NanProd,
];

/// The value reductions of variant `v`: into bool only any and all; the NaN-skipping ones read
/// float arrays only (their partials are the plain sum's).
fn value_codes(v: Variant) -> Vec<u32> {
    VALUE_OPS
        .iter()
        .filter(|op| match v.b {
            Some(DType::Bool) => matches!(op, ReduceOp::Any | ReduceOp::All),
            _ => v.a.is_float() || !matches!(op, ReduceOp::NanSum | ReduceOp::NanProd),
        })
        .map(|op| op.code())
        .collect()
}

/// (input, output) pairs: the same dtype; f16 through f32 partials; any/all into bool.
fn value_variants(dtypes: &[DType]) -> Vec<Variant> {
    let dtypes: Vec<DType> = dtypes.iter().copied().filter(|d| d.is_word()).collect();
    let dtypes = &dtypes[..];
    let mut v: Vec<Variant> = dtypes.iter().map(|&d| Variant::pair(d, d)).collect();
    if dtypes.contains(&DType::F16) {
        v.push(Variant::pair(DType::F16, DType::F32));
        v.push(Variant::pair(DType::F32, DType::F16));
    }
    v.extend(
        dtypes
            .iter()
            .filter(|&&d| d != DType::Bool)
            .map(|&d| Variant::pair(d, DType::Bool)),
    );
    v
}

/// The prelude of the value reductions: accumulate in the compute type of the wider of input
/// and output (any/all in u32), with its helpers, its arithmetic (`reduce_ops.wgsl`'s
/// vocabulary), four-element groups (`A4`, and `In4` with its `load4`) and the op codes.
fn value_prelude(v: Variant) -> String {
    if v.soft {
        return value_prelude_soft(v);
    }
    let b = v.b.unwrap_or(v.a);
    let acc = if b == DType::Bool {
        DType::Bool
    } else if v.a == DType::F64 {
        DType::F64
    } else {
        b
    };
    format!(
        "alias In = {};\nalias Out = {};\nalias A = {};\n{}{}{}{}",
        v.a.wgsl(),
        b.wgsl(),
        acc.wgsl_compute(),
        helpers("A", acc),
        truth_in(v.a),
        ReduceOp::wgsl_constants(),
        NATIVE_ARITHMETIC
    )
}

/// The accumulator's arithmetic as operators, and groups of four as vectors.
const NATIVE_ARITHMETIC: &str = "\
fn acc_of(x: In) -> A { return A(x); }
fn acc_add(x: A, y: A) -> A { return x + y; }
fn acc_mul(x: A, y: A) -> A { return x * y; }
fn acc_ge(x: A, y: A) -> bool { return x >= y; }
fn acc_le(x: A, y: A) -> bool { return x <= y; }
fn acc_zero() -> A { return A(0); }
fn acc_one() -> A { return A(1); }
fn acc_neg_zero() -> A { return A(bitcast<f32>(0x80000000u)); }
alias A4 = vec4<A>;
alias In4 = vec4<In>;
fn load4(v: In4) -> A4 { return A4(load(v.x), load(v.y), load(v.z), load(v.w)); }
";

/// The prelude for software f64 input (word pairs): f64 sums, products, maxima and minima in
/// software binary64 (`shaders/f64_soft.wgsl`), in the native kernels' order, so the same bits;
/// any/all into bool by the bits' truth. Four elements are two `vec4<u32>`, as a native
/// `vec4<f64>` (32 bytes).
fn value_prelude_soft(v: Variant) -> String {
    let to_bool = v.b == Some(DType::Bool);
    let mut s = String::from("alias In = vec2<u32>;\n");
    s += if to_bool {
        "alias Out = u32;\nalias A = u32;\n\
         fn acc_of(x: In) -> A { return select(0u, 1u, truth_in(x)); }\n\
         fn acc_add(x: A, y: A) -> A { return x + y; }\n\
         fn acc_mul(x: A, y: A) -> A { return x * y; }\n\
         fn acc_ge(x: A, y: A) -> bool { return x >= y; }\n\
         fn acc_le(x: A, y: A) -> bool { return x <= y; }\n\
         fn acc_zero() -> A { return 0u; }\n\
         fn acc_one() -> A { return 1u; }\n\
         fn acc_neg_zero() -> A { return 0u; }\n\
         alias A4 = vec4<A>;\n"
    } else {
        "alias Out = vec2<u32>;\nalias A = vec2<u32>;\n\
         fn acc_of(x: In) -> A { return x; }\n\
         fn acc_add(x: A, y: A) -> A { return f64s_add(x, y); }\n\
         fn acc_mul(x: A, y: A) -> A { return f64s_mul(x, y); }\n\
         fn acc_ge(x: A, y: A) -> bool { return !f64s_lt(x, y); }\n\
         fn acc_le(x: A, y: A) -> bool { return !f64s_lt(y, x); }\n\
         fn acc_zero() -> A { return vec2<u32>(0u); }\n\
         fn acc_one() -> A { return vec2<u32>(0u, 0x3ff00000u); }\n\
         fn acc_neg_zero() -> A { return vec2<u32>(0u, 0x80000000u); }\n\
         struct A4 { x: A, y: A, z: A, w: A }\n"
    };
    s += "struct In4 { lo: vec4<u32>, hi: vec4<u32> }\n\
          fn load4(v: In4) -> A4 { return A4(load(v.lo.xy), load(v.lo.zw), load(v.hi.xy), load(v.hi.zw)); }\n\
          fn truth_in(x: In) -> bool { return ((x.y & 0x7fffffffu) | x.x) != 0u; }\n";
    s += &if to_bool {
        helpers("A", DType::Bool)
    } else {
        helpers_soft_f64("A")
    };
    s += &ReduceOp::wgsl_constants();
    s + &soft_f64_library()
}

/// The eager sets of the one-stage and row kernels: both stages, both modes.
fn staged(_: &Adapter, v: Variant) -> Vec<Constants> {
    combinations(&[
        ("WG", vec![64]),
        ("OP", value_codes(v)),
        ("STAGE", vec![1, 2]),
        ("MODE", vec![0, 1]),
    ])
}

/// A value-reduction family: one of the kernel files after `reduce_ops.wgsl`.
const fn value_family(
    name: &'static str,
    variants: fn(&[DType]) -> Vec<Variant>,
    wgsl: fn(Variant) -> String,
    eager: fn(&Adapter, Variant) -> Vec<Constants>,
) -> KernelDef {
    KernelDef {
        name,
        entry: "main",
        constants: WG,
        ops_per_element: 1,
        uses_f32_math: KernelDef::no_f32_math,
        variants,
        wgsl,
        when: When::Eager,
        eager,
        needs: Needs::NONE,
        soft_f64: false,
        packed_f16: false,
        warm_up: false,
    }
}

/// Value reductions (sum, prod, max, min, any, all, the NaN-skipping sum and product), one
/// stage over any strides.
pub(crate) static REDUCE: KernelDef = KernelDef {
    // Software f64 in the same kernels (`value_prelude_soft`).
    soft_f64: true,
    packed_f16: false,
    ..value_family(
        "reduce",
        value_variants,
        |v| {
            value_prelude(v)
                + include_str!("../../../shaders/reduce_ops.wgsl")
                + include_str!("../../../shaders/reduce_index.wgsl")
                + include_str!("../../../shaders/reduce.wgsl")
        },
        staged,
    )
};

/// Value reductions of contiguous rows read as vec4s (the fast path of `reduce`); f16 rows are
/// read by the f16x8 kernel, so this one sees only their partials.
pub(crate) static REDUCE_ROWS: KernelDef = KernelDef {
    // Software f64 in the same kernels (`value_prelude_soft`).
    soft_f64: true,
    packed_f16: false,
    ..value_family(
        "reduce_rows",
        |dtypes| {
            let mut v = value_variants(dtypes);
            v.retain(|x| x.a != DType::F16);
            v
        },
        |v| {
            value_prelude(v)
                + include_str!("../../../shaders/reduce_ops.wgsl")
                + include_str!("../../../shaders/reduce_rows_vec4.wgsl")
                + include_str!("../../../shaders/reduce_rows.wgsl")
        },
        staged,
    )
};

/// The same for f16 input in stage 1, eight packed halves per load: into f32 partials, f16
/// results or bool (any/all).
pub(crate) static REDUCE_ROWS_F16: KernelDef = value_family(
    "reduce_rows_f16x8",
    |dtypes| {
        if dtypes.contains(&DType::F16) {
            [DType::F32, DType::F16, DType::Bool]
                .into_iter()
                .map(|o| Variant::pair(DType::F16, o))
                .collect()
        } else {
            vec![]
        }
    },
    |v| {
        value_prelude(v)
            + include_str!("../../../shaders/reduce_ops.wgsl")
            + include_str!("../../../shaders/reduce_rows_f16x8.wgsl")
            + include_str!("../../../shaders/reduce_rows.wgsl")
    },
    staged,
);

/// Value reductions down the columns of rows (a leading axis of a contiguous array), stage 1
/// only: it never turns f32 partials into f16.
pub(crate) static REDUCE_COLS: KernelDef = KernelDef {
    // Software f64 in the same kernels (`value_prelude_soft`).
    soft_f64: true,
    packed_f16: false,
    ..value_family(
        "reduce_cols",
        |dtypes| {
            let mut v = value_variants(dtypes);
            v.retain(|&x| x != Variant::pair(DType::F32, DType::F16));
            v
        },
        |v| {
            value_prelude(v)
                + include_str!("../../../shaders/reduce_ops.wgsl")
                + include_str!("../../../shaders/reduce_cols.wgsl")
        },
        |_, v| {
            combinations(&[
                ("WG", vec![64]),
                ("OP", value_codes(v)),
                ("STAGE", vec![1]),
                ("VEC", vec![0, 1]),
                ("LANES", vec![8]),
            ])
        },
    )
};

/// Arg-reductions (argmax, argmin), one stage. (input, accumulator): stage 1 reads the array
/// (f16 into an f32 accumulator), stage 2 the partials; bool arrays are compared as i32.
pub(crate) static ARGREDUCE: KernelDef = KernelDef {
    soft_f64: true,
    packed_f16: false,
    ..value_family(
        "argreduce",
        |dtypes| {
            let mut v: Vec<Variant> = dtypes
                .iter()
                .filter(|&&d| d != DType::Bool && d != DType::F16 && d.is_word())
                .map(|&d| Variant::pair(d, d))
                .collect();
            if dtypes.contains(&DType::F16) {
                v.push(Variant::pair(DType::F16, DType::F32));
            }
            v
        },
        |v| {
            let b = v.b.unwrap_or(v.a);
            let prelude = if v.soft {
                // Software f64 (word pairs): compared in software, the values moved as bits.
                format!(
                    "alias In = vec2<u32>;\nalias A = vec2<u32>;\n{}{}{}",
                    helpers_soft_f64("A"),
                    "fn acc_of(x: In) -> A { return x; }\n\
                 fn acc_zero() -> A { return vec2<u32>(0u); }\n\
                 fn acc_eq(x: A, y: A) -> bool { return f64s_eq(x, y); }\n\
                 fn acc_lt(x: A, y: A) -> bool { return f64s_lt(x, y); }\n",
                    soft_f64_library(),
                )
            } else {
                format!(
                    "alias In = {};\nalias A = {};\n{}{}",
                    v.a.wgsl(),
                    b.wgsl_compute(),
                    helpers("A", b),
                    "fn acc_of(x: In) -> A { return A(x); }\n\
                 fn acc_zero() -> A { return A(0); }\n\
                 fn acc_eq(x: A, y: A) -> bool { return x == y; }\n\
                 fn acc_lt(x: A, y: A) -> bool { return x < y; }\n",
                )
            };
            prelude
                + &ReduceOp::wgsl_constants()
                + include_str!("../../../shaders/reduce_index.wgsl")
                + include_str!("../../../shaders/argreduce.wgsl")
        },
        |_, _| {
            combinations(&[
                ("WG", vec![64]),
                ("OP", vec![ReduceOp::ArgMax.code(), ReduceOp::ArgMin.code()]),
                ("STAGE", vec![1, 2]),
            ])
        },
    )
};
