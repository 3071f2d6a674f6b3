//! The scan kernel families (`shaders/scan_blocks.wgsl`), declared for the device
//! (`device::KernelDef`): the block totals and the block-wise scan, strided and over contiguous
//! lines read as vec4s. Bool arrays are scanned as i32 (NumPy counts them), so every one-word
//! dtype but bool; the strided scans also take int64/uint64 (`scan_blocks.wgsl` in word pairs). In the eager plan, with their workgroup size (64) and both ops.

use crate::device::wgsl_helpers::{helpers, helpers_soft_f64, soft_f64_library};
use crate::device::{DEFAULT_WG, KernelDef, Needs, Variant, When, combinations};
use crate::dtype::DType;
use crate::ops::reduce::op_codes::ScanOp;

/// The accumulator's arithmetic for `dtype` (see the header of `shaders/scan_blocks.wgsl`).
fn accumulator(dtype: DType) -> String {
    if matches!(dtype, DType::I64 | DType::U64) {
        // Wrapping word-pair sums and products: the same bits for int64 and uint64.
        return [
            include_str!("../../../shaders/mulhilo.wgsl"),
            include_str!("../../../shaders/int64.wgsl"),
            "fn acc_add(x: A, y: A) -> A { return add64(x, y); }\n",
            "fn acc_mul(x: A, y: A) -> A { return mul64(x, y); }\n",
            "fn acc_zero() -> A { return A(0u, 0u); }\n",
            "fn acc_one() -> A { return A(1u, 0u); }\n",
        ]
        .concat();
    }
    // cumsum starts from -0.0 (as the sums in reduce_ops.wgsl do): -0.0 + x is x for every x,
    // so a run of negative zeros stays -0.0 as in NumPy. Converted to an integer type it is 0.
    [
        "fn acc_add(x: A, y: A) -> A { return x + y; }\n",
        "fn acc_mul(x: A, y: A) -> A { return x * y; }\n",
        "fn acc_zero() -> A { return A(bitcast<f32>(0x80000000u)); }\n",
        "fn acc_one() -> A { return A(1); }\n",
    ]
    .concat()
}

/// Software f64 (word pairs): sums and products in software binary64, in the native scans'
/// order, so the same bits.
const SOFT_F64_ACCUMULATOR: &str = "\
fn acc_add(x: A, y: A) -> A { return f64s_add(x, y); }
fn acc_mul(x: A, y: A) -> A { return f64s_mul(x, y); }
fn acc_zero() -> A { return vec2<u32>(0u, 0x80000000u); }
fn acc_one() -> A { return vec2<u32>(0u, 0x3ff00000u); }
";

fn strided_wgsl(v: Variant) -> String {
    if v.soft {
        return format!(
            "alias T = vec2<u32>;\nalias A = vec2<u32>;\n{}{}{}{}",
            helpers_soft_f64("A"),
            ScanOp::wgsl_constants(),
            SOFT_F64_ACCUMULATOR,
            soft_f64_library(),
        ) + include_str!("../../../shaders/scan_blocks.wgsl");
    }
    format!(
        "alias T = {};\nalias A = {};\n{}{}{}",
        v.a.wgsl(),
        v.a.wgsl_compute(),
        helpers("A", v.a),
        ScanOp::wgsl_constants(),
        accumulator(v.a),
    ) + include_str!("../../../shaders/scan_blocks.wgsl")
}

fn vec4_wgsl(v: Variant) -> String {
    strided_wgsl(v) + include_str!("../../../shaders/scan_blocks_vec4.wgsl")
}

/// The dtypes the strided scans take: the one-word numeric dtypes and the word pairs (the
/// 8- and 16-bit integers are scanned in int64/uint64, as NumPy accumulates them).
fn strided_dtypes(dtypes: &[DType]) -> Vec<Variant> {
    dtypes
        .iter()
        .copied()
        .filter(|&d| d != DType::Bool && (d.is_word() || matches!(d, DType::I64 | DType::U64)))
        .map(Variant::one)
        .collect()
}

/// The scan family of one entry point.
const fn scan(
    name: &'static str,
    entry: &'static str,
    variants: fn(&[DType]) -> Vec<Variant>,
    wgsl: fn(Variant) -> String,
) -> KernelDef {
    KernelDef {
        name,
        entry,
        constants: &[("WG", DEFAULT_WG)],
        ops_per_element: 1,
        uses_f32_math: KernelDef::no_f32_math,
        variants,
        wgsl,
        when: When::Eager,
        eager: |_, _| {
            combinations(&[
                ("WG", vec![64]),
                ("OP", ScanOp::ALL.iter().map(|o| o.code()).collect()),
            ])
        },
        needs: Needs::NONE,
        soft_f64: false,
        packed_f16: false,
        warm_up: false,
    }
}

/// Block totals of the block-wise scan.
pub(crate) static SCAN_TOTALS: KernelDef = KernelDef {
    soft_f64: true,
    packed_f16: false,
    ..scan("scan_totals", "totals_main", strided_dtypes, strided_wgsl)
};
/// The block-wise scan: one invocation per block of a line, from the totals of the blocks
/// before it.
pub(crate) static SCAN_BLOCKS: KernelDef = KernelDef {
    soft_f64: true,
    packed_f16: false,
    ..scan("scan_blocks", "main", strided_dtypes, strided_wgsl)
};
/// `scan_totals` over contiguous lines read as vec4s.
pub(crate) static SCAN_TOTALS_VEC4: KernelDef = scan(
    "scan_totals_vec4",
    "totals_vec4",
    KernelDef::numeric_dtypes,
    vec4_wgsl,
);
/// `scan_blocks` over contiguous lines read and written as vec4s.
pub(crate) static SCAN_BLOCKS_VEC4: KernelDef = scan(
    "scan_blocks_vec4",
    "main_vec4",
    KernelDef::numeric_dtypes,
    vec4_wgsl,
);
