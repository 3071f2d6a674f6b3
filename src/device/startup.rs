//! What a device compiles when it starts: the pipelines of each kernel family, most used first,
//! for the dtypes and features of its adapter ([`CompileMode`] picks the families).
//!
//! The plan is the cartesian product of each kernel's dtype variants and the override
//! constants its launches use. Declared families ([`KernelDef`]) state their own constant sets
//! (the element-wise ones from the op table). For the device's own reductions the `OP` codes are
//! read from their WGSL (`case OP_SUM, OP_PROD:` labels, with the values of the op-code
//! tables). The other constants (workgroup sizes, stages, modes) are the values the launch code
//! in `ops/` and `random/` passes; `tests/startup.rs` checks the two agree by running every
//! family after [`Device::wait_compiled`](crate::Device::wait_compiled) and requiring that
//! nothing more was compiled.
//!
//! A browser has no threads to compile on in the background: there only `immediate` runs
//! and everything else compiles on first use.
#![cfg_attr(target_arch = "wasm32", allow(dead_code))]

use super::config::CompileMode;
use super::kernel_def::KernelDef;
use super::kernels::Kernel;
use super::matmul_sgb::TILE_ROWS;
use super::op_codes::{ReduceOp, ScanOp};
use super::pipeline::{PipelineKey, Variant};
use crate::dtype::DType;
use std::collections::{HashMap, HashSet};

/// What the plan needs to know of the adapter.
pub(crate) struct Adapter<'a> {
    pub dtypes: &'a [DType],
    /// 8-wide subgroups: the subgroup-broadcast matmul kernels run.
    pub subgroups_of_8: bool,
    /// SHADER_INT64: 4-byte Philox draws use the 64-bit backend.
    pub int64: bool,
    /// A CPU adapter: long Philox launches run 64 units per invocation.
    pub is_cpu: bool,
    /// The subgroup matmul kernels a saved tune chose (`None`: no saved tune, compile all).
    pub chosen_sgb: Option<&'a [u32]>,
}

/// The pipelines compiled before `Device::new` returns, whatever the mode: what creating an
/// array (zeros, ones, arange, transfers of views) needs.
pub(crate) fn immediate(dtypes: &[DType]) -> Vec<PipelineKey> {
    [Kernel::Copy, Kernel::Fill, Kernel::Sequence]
        .into_iter()
        .flat_map(|k| {
            k.variants(dtypes)
                .into_iter()
                .map(move |v| PipelineKey::new(k, v))
        })
        .collect()
}

/// The pipelines compiled in the background, in the order they are compiled: the device's own
/// families, then per dtype the eager sets the declared `families` ask for.
pub(crate) fn background(
    mode: CompileMode,
    a: &Adapter,
    families: &[&'static KernelDef],
) -> Vec<PipelineKey> {
    let mut keys = Vec::new();
    if mode == CompileMode::Lazy {
        return keys;
    }
    // The three named families: matmul (with einsum's contractions, which run on its kernels),
    // then Philox.
    keys.extend(matmul(a));
    keys.extend(philox(a));
    if mode == CompileMode::Eager {
        // f32 first: most programs never touch another dtype.
        let mut dtypes: Vec<DType> = a.dtypes.to_vec();
        dtypes.sort_by_key(|&d| (d != DType::F32, d != DType::I32, d != DType::Bool));
        for d in dtypes {
            keys.extend(declared(d, a.dtypes, families));
            keys.extend(product(d, a.dtypes, &[Kernel::Take], |_, _| vec![vec![]]));
            keys.extend(reductions(d, a.dtypes));
        }
    }
    keys
}

/// The keys of `plan` dispatched once as soon as they are created (`warm_up.rs`): the f32
/// pipelines of the named families (matmul, with einsum's contractions, and Philox), the first
/// calls a program makes. Only those: on lavapipe a first dispatch is LLVM's compile (seconds,
/// cold, for the subgroup matmul) on the one queue thread every call shares, so warming the whole
/// eager plan would put minutes of compiles ahead of a program's own work.
pub(crate) fn warm_ups(plan: &[PipelineKey]) -> HashSet<PipelineKey> {
    plan.iter()
        .filter(|k| {
            matches!(
                k.kernel,
                Kernel::MatmulSgb(_)
                    | Kernel::MatmulTiled
                    | Kernel::MatmulGemv
                    | Kernel::Philox
                    | Kernel::Philox64
            ) && k.variant.a == DType::F32
        })
        .cloned()
        .collect()
}

fn matmul(a: &Adapter) -> Vec<PipelineKey> {
    let mut keys: Vec<PipelineKey> = Vec::new();
    if a.subgroups_of_8 {
        let rows: Vec<u32> = match a.chosen_sgb {
            Some(chosen) => chosen.to_vec(),
            None => TILE_ROWS.to_vec(),
        };
        keys.extend(
            rows.into_iter()
                .map(|r| PipelineKey::new(Kernel::MatmulSgb(r), Variant::one(DType::F32))),
        );
    }
    for k in [Kernel::MatmulTiled, Kernel::MatmulGemv] {
        keys.extend(
            k.variants(a.dtypes)
                .into_iter()
                .map(|v| PipelineKey::new(k, v)),
        );
    }
    keys
}

/// Philox pipelines as `random/launch.rs` keys them: `DIST`, units per invocation (`EPT`: 1 for
/// the integer passes, 4, and 64 for long launches on CPU adapters), f16 output, and a stream
/// starting inside a block (`PHASED`). The distributions a dtype can be drawn in are the
/// generator's: bits as u32, the float distributions (their 53-bit forms for f64), Bernoulli in
/// any dtype, exact integers in i32 and u32.
fn philox(a: &Adapter) -> Vec<PipelineKey> {
    // The DIST_* values of shaders/philox.wgsl.
    const BITS: u32 = 0;
    const FLOAT: [u32; 4] = [1, 3, 5, 7];
    const FLOAT_WIDE: [u32; 4] = [2, 4, 6, 8];
    const BERNOULLI: u32 = 9;
    const INT_DIRECT: u32 = 10;
    const INT_PASSES: [u32; 2] = [11, 12];
    let mut keys = Vec::new();
    let mut dtypes: Vec<DType> = a
        .dtypes
        .iter()
        .copied()
        .filter(|&d| d != DType::Bool)
        .collect();
    dtypes.sort_by_key(|&d| d != DType::F32);
    for dtype in dtypes {
        let kernel = if a.int64 && dtype.size_bytes() == 4 {
            Kernel::Philox64
        } else {
            Kernel::Philox
        };
        let mut dists: Vec<(u32, u32)> = Vec::new();
        let units: &[u32] = if a.is_cpu { &[4, 64] } else { &[4] };
        let mut add = |dist: u32, epts: &[u32]| dists.extend(epts.iter().map(|&e| (dist, e)));
        match dtype {
            DType::F64 => FLOAT_WIDE.iter().for_each(|&d| add(d, units)),
            DType::F32 | DType::F16 => FLOAT.iter().for_each(|&d| add(d, units)),
            DType::I32 | DType::U32 => {
                if dtype == DType::U32 {
                    add(BITS, units);
                }
                add(INT_DIRECT, units);
                INT_PASSES.iter().for_each(|&d| add(d, &[1]));
            }
            DType::Bool => {}
        }
        add(BERNOULLI, units);
        for (dist, ept) in dists {
            for phased in [0, 1] {
                let mut k = PipelineKey::new(kernel, Variant::one(dtype));
                k.constants = vec![
                    ("DIST", dist),
                    ("EPT", ept),
                    ("OUT16", u32::from(dtype == DType::F16)),
                    ("PHASED", phased),
                    ("WG", 256),
                ];
                keys.push(k);
            }
        }
    }
    keys
}

/// Every (kernel, variant) of `kernels` whose first dtype is `d`, with each constant set.
fn product(
    d: DType,
    dtypes: &[DType],
    kernels: &[Kernel],
    constants: impl Fn(Kernel, Variant) -> Vec<Vec<(&'static str, u32)>>,
) -> Vec<PipelineKey> {
    let mut keys = Vec::new();
    for &k in kernels {
        for v in k.variants(dtypes).into_iter().filter(|v| v.a == d) {
            for set in constants(k, v) {
                let mut key = PipelineKey::new(k, v);
                for (name, value) in set {
                    key = key.with(name, value);
                }
                keys.push(key);
            }
        }
    }
    keys
}

/// Every combination of the given constants' values.
fn combinations(domains: &[(&'static str, Vec<u32>)]) -> Vec<Vec<(&'static str, u32)>> {
    let mut out: Vec<Vec<(&'static str, u32)>> = vec![vec![]];
    for (name, values) in domains {
        out = out
            .into_iter()
            .flat_map(|set| {
                values.iter().map(move |&v| {
                    let mut s = set.clone();
                    s.push((*name, v));
                    s
                })
            })
            .collect();
    }
    out
}

/// The eager pipelines of the declared families for dtype `d`, as each family states them.
fn declared(d: DType, dtypes: &[DType], families: &[&'static KernelDef]) -> Vec<PipelineKey> {
    let kernels: Vec<Kernel> = families.iter().map(|&f| Kernel::Def(f)).collect();
    product(d, dtypes, &kernels, |k, v| match k {
        Kernel::Def(f) => (f.eager)(v),
        _ => vec![],
    })
}

fn reductions(d: DType, dtypes: &[DType]) -> Vec<PipelineKey> {
    let kernels = [
        Kernel::ReduceRows,
        Kernel::ReduceRowsF16,
        Kernel::Reduce,
        Kernel::ReduceCols,
        Kernel::ArgReduce,
        Kernel::ScanTotalsVec4,
        Kernel::ScanBlocksVec4,
        Kernel::ScanTotals,
        Kernel::ScanBlocks,
    ];
    product(d, dtypes, &kernels, |k, v| {
        let codes = op_codes(k, v);
        // The reductions' and scans' launches set their workgroup size (64) themselves.
        let wg = ("WG", vec![64]);
        let domains = match k {
            Kernel::Reduce | Kernel::ReduceRows | Kernel::ReduceRowsF16 => {
                vec![
                    wg,
                    ("OP", codes),
                    ("STAGE", vec![1, 2]),
                    ("MODE", vec![0, 1]),
                ]
            }
            Kernel::ReduceCols => vec![
                wg,
                ("OP", codes),
                ("STAGE", vec![1]),
                ("VEC", vec![0, 1]),
                ("LANES", vec![8]),
            ],
            Kernel::ArgReduce => vec![wg, ("OP", codes), ("STAGE", vec![1, 2])],
            _ => vec![wg, ("OP", codes)],
        };
        combinations(&domains)
    })
}

/// The `OP` codes kernel `k` implements for variant `v`: the `case OP_…` labels of its WGSL
/// (argreduce and the scans branch on `OP` with `if`: every code of their tables). A
/// reduction into bool is any/all only.
fn op_codes(k: Kernel, v: Variant) -> Vec<u32> {
    let codes = match k {
        Kernel::ArgReduce => vec![ReduceOp::ArgMax.code(), ReduceOp::ArgMin.code()],
        Kernel::ScanTotals
        | Kernel::ScanBlocks
        | Kernel::ScanTotalsVec4
        | Kernel::ScanBlocksVec4 => ScanOp::ALL.iter().map(|o| o.code()).collect(),
        _ => case_labels(&k.wgsl(v), &constant_values(&ReduceOp::wgsl_constants())),
    };
    if matches!(
        k,
        Kernel::Reduce | Kernel::ReduceRows | Kernel::ReduceRowsF16 | Kernel::ReduceCols
    ) && v.b == Some(DType::Bool)
    {
        return vec![ReduceOp::Any.code(), ReduceOp::All.code()];
    }
    // The NaN-skipping reductions read float arrays only (their partials are the plain sum's).
    if matches!(
        k,
        Kernel::Reduce | Kernel::ReduceRows | Kernel::ReduceRowsF16 | Kernel::ReduceCols
    ) && !v.a.is_float()
    {
        let nan_ops = [ReduceOp::NanSum.code(), ReduceOp::NanProd.code()];
        return codes.into_iter().filter(|c| !nan_ops.contains(c)).collect();
    }
    codes
}

/// `OP_NAME -> value` from `const OP_NAME: u32 = 3u;` lines.
fn constant_values(table: &str) -> HashMap<String, u32> {
    table
        .lines()
        .filter_map(|l| {
            let rest = l.trim().strip_prefix("const ")?;
            let (name, value) = rest.split_once(": u32 = ")?;
            let value = value.trim_end_matches(';').trim_end_matches('u');
            Some((name.to_string(), value.parse().ok()?))
        })
        .collect()
}

/// The values of the `OP_…` names in `case` labels of `wgsl`, sorted, without repeats.
fn case_labels(wgsl: &str, values: &HashMap<String, u32>) -> Vec<u32> {
    let mut codes: Vec<u32> = wgsl
        .lines()
        .filter_map(|l| l.trim().strip_prefix("case "))
        .flat_map(|labels| {
            labels
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .filter_map(|w| values.get(w).copied())
                .collect::<Vec<_>>()
        })
        .collect();
    codes.sort_unstable();
    codes.dedup();
    codes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_labels_read_the_shaders_op_codes() {
        let values = constant_values(&ReduceOp::wgsl_constants());
        assert_eq!(values["OP_SUM"], 0);
        assert_eq!(values["OP_NANPROD"], 7);
        let wgsl =
            "switch OP {\n  case OP_SUM, OP_PROD: { }\n  case OP_ALL: { }\n  default: { }\n}";
        assert_eq!(case_labels(wgsl, &values), vec![0, 1, 5]);
    }

    #[test]
    fn the_reductions_implement_their_ops() {
        // reduce_ops.wgsl serves every value reduction; into bool only any and all.
        let codes = op_codes(Kernel::ReduceRows, Variant::pair(DType::F32, DType::F32));
        assert!(codes.contains(&ReduceOp::Sum.code()) && codes.contains(&ReduceOp::NanProd.code()));
        let to_bool = op_codes(Kernel::Reduce, Variant::pair(DType::F32, DType::Bool));
        assert_eq!(to_bool, vec![ReduceOp::Any.code(), ReduceOp::All.code()]);
    }

    #[test]
    fn modes_nest() {
        let dtypes = [DType::F32, DType::I32, DType::U32, DType::Bool];
        let a = Adapter {
            dtypes: &dtypes,
            subgroups_of_8: true,
            int64: true,
            is_cpu: true,
            chosen_sgb: None,
        };
        let eager = background(CompileMode::Eager, &a, &[]);
        let families = background(CompileMode::Families, &a, &[]);
        assert!(background(CompileMode::Lazy, &a, &[]).is_empty());
        assert!(families.len() < eager.len());
        assert!(families.iter().all(|k| eager.contains(k)));
        // A saved tune leaves one subgroup kernel of the three.
        let tuned = background(
            CompileMode::Families,
            &Adapter {
                chosen_sgb: Some(&[16]),
                ..a
            },
            &[],
        );
        assert_eq!(tuned.len(), families.len() - (TILE_ROWS.len() - 1));
        // No key twice.
        let distinct: std::collections::HashSet<&PipelineKey> = eager.iter().collect();
        assert_eq!(distinct.len(), eager.len());
    }
}
