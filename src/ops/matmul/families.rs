//! The matmul kernel families, declared for the device (`device::KernelDef`): the tiled kernel,
//! the GEMV kernel, the naive baseline and the subgroup-broadcast f32 kernels of each tile
//! height (`sgb_source.rs` generates their WGSL). Matmul, with einsum's contractions that run on
//! it, is a named family: the `families` and `eager` plans compile it first and dispatch each f32
//! pipeline once; of the subgroup kernels only the one a saved tune chose, where there is one.

use super::sgb_source::{TILE_ROWS, source};
use crate::device::{Adapter, Constants, DEFAULT_WG, KernelDef, Needs, Variant, When};
use crate::dtype::DType;

/// The strided kernels' shared parameter struct.
const PARAMS: &str = include_str!("../../../shaders/matmul_params.wgsl");

/// `T` the element type, `ACC` the type it accumulates in, then the shader file.
fn with_types(v: Variant, file: &str) -> String {
    format!(
        "alias T = {};\nalias ACC = {};\n",
        v.a.wgsl(),
        v.a.wgsl_compute()
    ) + file
}

/// [`with_types`] with the strided kernels' parameters before the shader file.
fn with_params(v: Variant, file: &str) -> String {
    with_types(v, PARAMS) + file
}

/// Batched matmul over strided operands with shared-memory tiles (tiles fixed in the shader).
pub(crate) static MATMUL_TILED: KernelDef = KernelDef {
    name: "matmul_tiled",
    entry: "main",
    constants: &[],
    ops_per_element: 0,
    uses_f32_math: KernelDef::no_f32_math,
    variants: KernelDef::numeric_dtypes,
    wgsl: |v| with_params(v, include_str!("../../../shaders/matmul_tiled.wgsl")),
    when: When::Named,
    eager: KernelDef::as_declared,
    needs: Needs::NONE,
    soft_f64: false,
    packed_f16: false,
    warm_up: true,
};

/// matmul_gemv.wgsl's arithmetic for native types.
const GEMV_NATIVE: &str = "\
fn zero() -> ACC { return ACC(0); }
fn madd(acc: ACC, x: T, y: T) -> ACC { return acc + ACC(x) * ACC(y); }
fn plus(a: ACC, b: ACC) -> ACC { return a + b; }
fn widen(x: T) -> ACC { return ACC(x); }
fn narrow(a: ACC) -> T { return T(a); }
";

/// matmul_gemv.wgsl's arithmetic for software f64 (after f64_soft.wgsl).
const GEMV_SOFT_F64: &str = "\
alias T = vec2<u32>;
alias ACC = vec2<u32>;
fn zero() -> ACC { return vec2<u32>(0u, 0u); }
fn madd(acc: ACC, x: T, y: T) -> ACC { return f64s_add(acc, f64s_mul(x, y)); }
fn plus(a: ACC, b: ACC) -> ACC { return f64s_add(a, b); }
fn widen(x: T) -> ACC { return x; }
fn narrow(a: ACC) -> T { return a; }
";

/// Matrix-vector products (matmul with M = 1 or N = 1).
pub(crate) static MATMUL_GEMV: KernelDef = KernelDef {
    name: "matmul_gemv",
    entry: "main",
    constants: &[("WG", DEFAULT_WG)],
    ops_per_element: 0,
    uses_f32_math: KernelDef::no_f32_math,
    variants: KernelDef::numeric_dtypes,
    wgsl: |v| {
        let gemv = include_str!("../../../shaders/matmul_gemv.wgsl");
        if v.soft {
            crate::device::wgsl_helpers::soft_f64_library() + GEMV_SOFT_F64 + gemv
        } else {
            with_types(v, &[GEMV_NATIVE, gemv].concat())
        }
    },
    when: When::Named,
    eager: KernelDef::as_declared,
    needs: Needs::NONE,
    soft_f64: true,
    packed_f16: false,
    warm_up: true,
};

/// One invocation per output: the baseline benchmarks compare against.
pub(crate) static MATMUL_NAIVE: KernelDef = KernelDef {
    name: "matmul_naive",
    entry: "main",
    constants: &[],
    ops_per_element: 0,
    uses_f32_math: KernelDef::no_f32_math,
    variants: KernelDef::numeric_dtypes,
    wgsl: |v| with_params(v, include_str!("../../../shaders/matmul_naive.wgsl")),
    when: When::OnFirstUse,
    eager: KernelDef::as_declared,
    needs: Needs::NONE,
    soft_f64: false,
    packed_f16: false,
    warm_up: false,
};

/// Word-pair matmul, 16 x 16 tiles in workgroup memory: int64/uint64 (exact, wrapping) and
/// software f64 (the direct path of a device that emulates f64).
pub(crate) static MATMUL_PAIRS: KernelDef = KernelDef {
    name: "matmul_pairs",
    entry: "main",
    constants: &[],
    ops_per_element: 0,
    uses_f32_math: KernelDef::no_f32_math,
    variants: |dtypes| {
        dtypes
            .iter()
            .copied()
            .filter(|&d| matches!(d, DType::I64 | DType::U64 | DType::F64))
            .map(Variant::one)
            .collect()
    },
    wgsl: |v| {
        // Its f64 variant is software binary64 on any device (the kernel reads word pairs).
        let arithmetic = if v.a == DType::F64 {
            concat!(
                include_str!("../../../shaders/f64_soft.wgsl"),
                "fn madd(acc: vec2<u32>, x: vec2<u32>, y: vec2<u32>) -> vec2<u32> { return f64s_add(acc, f64s_mul(x, y)); }\n",
                "fn plus(x: vec2<u32>, y: vec2<u32>) -> vec2<u32> { return f64s_add(x, y); }\n",
            )
        } else {
            concat!(
                "fn madd(acc: vec2<u32>, x: vec2<u32>, y: vec2<u32>) -> vec2<u32> { return add64(acc, mul64(x, y)); }\n",
                "fn plus(x: vec2<u32>, y: vec2<u32>) -> vec2<u32> { return add64(x, y); }\n",
            )
        };
        [
            include_str!("../../../shaders/mulhilo.wgsl"),
            include_str!("../../../shaders/int64.wgsl"),
            arithmetic,
            PARAMS,
            include_str!("../../../shaders/matmul_pairs.wgsl"),
        ]
        .concat()
    },
    when: When::OnFirstUse,
    eager: KernelDef::as_declared,
    needs: Needs::NONE,
    soft_f64: true,
    packed_f16: false,
    warm_up: false,
};

/// The subgroup kernel's WGSL for `rows`: WebGPU requires the directive before subgroup
/// built-ins; naga 30 refuses it as not yet implemented (and needs none), so only the browser
/// build says it.
fn sgb_wgsl(rows: u32) -> String {
    let directive = if cfg!(target_arch = "wasm32") {
        "enable subgroups;\n"
    } else {
        ""
    };
    format!("{directive}{}", source(rows))
}

/// The start-up pipelines of a subgroup kernel: none when a saved tune chose another.
fn sgb_plan(a: &Adapter, name: &str) -> Vec<Constants> {
    match a.chosen {
        Some(chosen) if !chosen.iter().any(|c| c == name) => vec![],
        _ => vec![vec![]],
    }
}

/// Declares the subgroup-broadcast kernel of one tile height.
macro_rules! sgb {
    ($static:ident, $rows:literal) => {
        /// f32 matmul for 8-wide subgroups (lavapipe), this many rows per invocation.
        pub(crate) static $static: KernelDef = KernelDef {
            name: concat!("matmul_sgb", $rows, "x8"),
            entry: concat!("main_", $rows, "x8"),
            constants: &[("WGY", 2)],
            ops_per_element: 0,
            uses_f32_math: KernelDef::no_f32_math,
            variants: |_| vec![Variant::one(DType::F32)],
            wgsl: |_| sgb_wgsl($rows),
            when: When::Named,
            eager: |a, _| sgb_plan(a, concat!("matmul_sgb", $rows, "x8")),
            needs: Needs {
                subgroups_of_8: true,
                int64: false,
            },
            soft_f64: false,
            packed_f16: false,
            warm_up: true,
        };
    };
}

sgb!(MATMUL_SGB32, 32);
sgb!(MATMUL_SGB16, 16);
sgb!(MATMUL_SGB8, 8);

/// The subgroup kernel whose tiles are `rows` x 8 (one of [`TILE_ROWS`]).
pub(crate) fn sgb_family(rows: u32) -> &'static KernelDef {
    match rows {
        32 => &MATMUL_SGB32,
        16 => &MATMUL_SGB16,
        _ => {
            debug_assert_eq!(rows, 8, "tile heights are {TILE_ROWS:?}");
            &MATMUL_SGB8
        }
    }
}

/// The f64 variant only, where the device has f64 (the Ozaki kernels read word pairs: they serve
/// a device that emulates f64).
fn f64_words(dtypes: &[DType]) -> Vec<Variant> {
    if dtypes.contains(&DType::F64) {
        vec![Variant::one(DType::F64)]
    } else {
        vec![]
    }
}

/// The Ozaki scheme's first step (`ozaki.rs`): each row's or column's largest exponent.
pub(crate) static OZAKI_EXPONENTS: KernelDef = KernelDef {
    soft_f64: true,
    packed_f16: false,
    ..KernelDef::on_first_use(
        "ozaki_exponents",
        "main",
        &[("WG", DEFAULT_WG)],
        f64_words,
        |_| include_str!("../../../shaders/ozaki_exponents.wgsl").to_string(),
    )
};

/// The Ozaki scheme's second step: the residue planes of an operand.
pub(crate) static OZAKI_RESIDUES: KernelDef = KernelDef {
    soft_f64: true,
    packed_f16: false,
    ..KernelDef::on_first_use(
        "ozaki_residues",
        "main",
        &[("WG", DEFAULT_WG)],
        f64_words,
        |_| {
            [
                include_str!("../../../shaders/mulhilo.wgsl"),
                include_str!("../../../shaders/int64.wgsl"),
                include_str!("../../../shaders/mod_small.wgsl"),
                include_str!("../../../shaders/ozaki_residues.wgsl"),
            ]
            .concat()
        },
    )
};

/// The Ozaki scheme's last step: the outputs of a k-block from the planes' products.
pub(crate) static OZAKI_COMBINE: KernelDef = KernelDef {
    soft_f64: true,
    packed_f16: false,
    ..KernelDef::on_first_use(
        "ozaki_combine",
        "main",
        &[("WG", DEFAULT_WG)],
        f64_words,
        |_| {
            crate::device::wgsl_helpers::soft_f64_library()
                + include_str!("../../../shaders/mod_small.wgsl")
                + include_str!("../../../shaders/ozaki_combine.wgsl")
        },
    )
};
