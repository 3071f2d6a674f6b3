//! The Philox kernel families, declared for the device (`device::KernelDef`): `philox`, 32-bit
//! arithmetic only, and `philox64`, the same stream with `SHADER_INT64` (bit-identical, faster),
//! for 4-byte dtypes. A named family: the `families` and `eager` plans compile the pipelines
//! `launch.rs` keys, f32 first, and dispatch each f32 one once in the background.

use super::launch::Dist;
use crate::device::{Adapter, Constants, DEFAULT_EPT, DEFAULT_WG, KernelDef, Needs, Variant, When};
use crate::dtype::DType;

/// The WGSL of a variant: `T` the output type, `F` the float type the wide (53-bit)
/// distributions compute in, then a backend (mulhilo or 64-bit words, the vector binding, unit
/// stores) and the kernel.
fn wgsl(v: Variant, backend: &str) -> String {
    format!(
        "alias T = {};\nalias F = {};\n",
        v.a.wgsl(),
        if v.a == DType::F64 { "f64" } else { "f32" }
    ) + backend
        + include_str!("../../shaders/ln_bits.wgsl")
        + include_str!("../../shaders/philox_words53.wgsl")
        + include_str!("../../shaders/philox.wgsl")
}

/// Philox pipelines as `launch.rs` keys them: `DIST`, units per invocation (`EPT`: 1 for the
/// integer passes, 4, and 64 for long launches on CPU adapters), f16 output, and a stream
/// starting inside a block (`PHASED`). The distributions a dtype can be drawn in are the
/// generator's: bits as u32, the float distributions (their 53-bit forms for f64), Bernoulli in
/// any dtype, exact integers in i32 and u32.
fn plan(a: &Adapter, v: Variant) -> Vec<Constants> {
    let dtype = v.a;
    let units: &[u32] = if a.is_cpu { &[4, 64] } else { &[4] };
    let mut dists: Vec<(Dist, u32)> = Vec::new();
    let mut add = |dist: Dist, epts: &[u32]| dists.extend(epts.iter().map(|&e| (dist, e)));
    match dtype {
        DType::F64 => {
            for d in [
                Dist::RandomWide,
                Dist::UniformWide,
                Dist::NormalWide,
                Dist::ExponentialWide,
            ] {
                add(d, units);
            }
        }
        DType::F32 | DType::F16 => {
            for d in [Dist::Random, Dist::Uniform, Dist::Normal, Dist::Exponential] {
                add(d, units);
            }
        }
        DType::I32 | DType::U32 => {
            if dtype == DType::U32 {
                add(Dist::Bits, units);
            }
            add(Dist::IntDirect, units);
            add(Dist::IntCount, &[1]);
            add(Dist::IntEmit, &[1]);
        }
        _ => return vec![],
    }
    add(Dist::Bernoulli, units);
    // Packed f16 draws f16's values in f32 (`launch.rs`): the f32 forms of f16's pipelines.
    let out16: &[bool] = match dtype {
        DType::F32 if a.f16_packed => &[false, true],
        _ => &[dtype == DType::F16],
    };
    let mut sets = Vec::new();
    for (dist, ept) in dists {
        for &o in out16 {
            for phased in [0, 1] {
                sets.push(vec![
                    ("DIST", dist as u32),
                    ("EPT", ept),
                    ("OUT16", u32::from(o)),
                    ("PHASED", phased),
                    ("WG", DEFAULT_WG),
                ]);
            }
        }
    }
    sets
}

/// Whether 4-byte draws of `dtype` use `PHILOX64` on an adapter with or without `SHADER_INT64`.
pub(crate) fn uses_int64(int64: bool, dtype: DType) -> bool {
    int64 && dtype.size_bytes() == 4
}

/// Philox4x32-10 in 32-bit arithmetic (`mulhilo`). Every dtype but bool.
pub(crate) static PHILOX: KernelDef = KernelDef {
    name: "philox",
    entry: "main",
    constants: &[("EPT", DEFAULT_EPT), ("WG", DEFAULT_WG)],
    ops_per_element: 0,
    uses_f32_math: KernelDef::no_f32_math,
    variants: KernelDef::numeric_dtypes,
    wgsl: |v| {
        wgsl(
            v,
            concat!(
                include_str!("../../shaders/mulhilo.wgsl"),
                include_str!("../../shaders/philox_u32.wgsl")
            ),
        )
    },
    when: When::Named,
    eager: |a, v| {
        if uses_int64(a.int64, v.a) {
            vec![]
        } else {
            plan(a, v)
        }
    },
    needs: Needs::NONE,
    soft_f64: false,
    packed_f16: false,
    warm_up: true,
};

/// The same stream with the 64-bit backend, for 4-byte dtypes where the adapter has
/// `SHADER_INT64` (never in WebGPU).
pub(crate) static PHILOX64: KernelDef = KernelDef {
    name: "philox64",
    entry: "main",
    constants: &[("EPT", DEFAULT_EPT), ("WG", DEFAULT_WG)],
    ops_per_element: 0,
    uses_f32_math: KernelDef::no_f32_math,
    variants: |dtypes| {
        dtypes
            .iter()
            .copied()
            .filter(|&d| d != DType::Bool && d.size_bytes() == 4)
            .map(Variant::one)
            .collect()
    },
    wgsl: |v| wgsl(v, include_str!("../../shaders/philox_u64.wgsl")),
    when: When::Named,
    eager: plan,
    needs: Needs {
        subgroups_of_8: false,
        int64: true,
    },
    soft_f64: false,
    packed_f16: false,
    warm_up: true,
};

/// f64 draws on a device that emulates f64 (`random/soft_f64.rs`): four stream words into two
/// f64 values, in software binary64. Compiled on first use.
pub(crate) static PHILOX_WIDE_SOFT: KernelDef = KernelDef {
    soft_f64: true,
    packed_f16: false,
    ..KernelDef::on_first_use(
        "philox_wide_soft",
        "main",
        &[("DIST", Dist::RandomWide as u32), ("WG", DEFAULT_WG)],
        |dtypes| {
            if dtypes.contains(&DType::F64) {
                vec![Variant::one(DType::F64)]
            } else {
                vec![]
            }
        },
        |_| {
            crate::device::wgsl_helpers::soft_f64_library()
                + include_str!("../../shaders/philox_words53.wgsl")
                + include_str!("../../shaders/philox_wide_soft.wgsl")
        },
    )
};
