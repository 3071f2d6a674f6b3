//! What a device compiles when it starts: the pipelines of each kernel family it is handed, most
//! used first, for the dtypes and features of its adapter ([`CompileMode`] picks the plan).
//!
//! Every family states its part ([`KernelDef`]): when it compiles (before `Device::new` returns,
//! with the named families, in the eager plan, or on first use), its dtype variants, and the
//! override constant sets its launches use (the element-wise ops from the op table, the
//! reductions' stages and modes, Philox's distributions, ...). `tests/startup.rs` checks the
//! families and their launches agree by running every family after
//! [`Device::wait_compiled`](crate::Device::wait_compiled) and requiring that nothing more was
//! compiled.
//!
//! A browser has no threads to compile on in the background: there only `immediate` runs
//! and everything else compiles on first use.
#![cfg_attr(target_arch = "wasm32", allow(dead_code))]

use super::config::CompileMode;
use super::kernel_def::{Adapter, Constants, KernelDef, When};
use super::pipeline::{PipelineKey, Variant};
use crate::dtype::DType;
use std::collections::HashSet;

/// The pipelines compiled before `Device::new` returns, whatever the mode: what creating an
/// array (zeros, ones, arange, transfers of views) needs.
pub(crate) fn immediate(dtypes: &[DType], families: &[&'static KernelDef]) -> Vec<PipelineKey> {
    let dtypes = &planned(dtypes);
    families
        .iter()
        .filter(|f| f.when == When::Immediate)
        .flat_map(|&f| {
            (f.variants)(dtypes)
                .into_iter()
                .map(move |v| PipelineKey::new(f, v))
        })
        .collect()
}

/// The dtypes a start-up plan covers: those WGSL stores one scalar per element
/// ([`DType::WORD`]). The emulated integer dtypes (word pairs, packed bytes) compile on first
/// use, so a program that never makes one pays nothing for them.
fn planned(dtypes: &[DType]) -> Vec<DType> {
    dtypes.iter().copied().filter(|d| d.is_word()).collect()
}

/// The keys of family `f`'s variant `v` with each constant set.
fn keys_of(
    f: &'static KernelDef,
    v: Variant,
    sets: Vec<Constants>,
) -> impl Iterator<Item = PipelineKey> {
    sets.into_iter().map(move |set| {
        set.into_iter()
            .fold(PipelineKey::new(f, v), |key, (name, value)| {
                key.with(name, value)
            })
    })
}

/// The pipelines compiled in the background, in the order they are compiled: the named
/// families (in the registry's order: matmul, with einsum's contractions that run on its
/// kernels, then Philox; each one's f32 pipelines first), then in the eager plan, dtype by dtype
/// (f32 first: most programs never touch another), the eager families.
pub(crate) fn background(
    mode: CompileMode,
    a: &Adapter,
    families: &[&'static KernelDef],
) -> Vec<PipelineKey> {
    let mut keys = Vec::new();
    if mode == CompileMode::Lazy {
        return keys;
    }
    let words = planned(a.dtypes);
    let a = &Adapter {
        dtypes: &words,
        ..*a
    };
    let offered = |when: When| {
        families
            .iter()
            .copied()
            .filter(move |f| f.when == when && a.has(f.needs))
    };
    for f in offered(When::Named) {
        let mut variants = (f.variants)(a.dtypes);
        variants.sort_by_key(|v| v.a != DType::F32);
        for v in variants {
            keys.extend(keys_of(f, v, (f.eager)(a, v)));
        }
    }
    if mode == CompileMode::Eager {
        // The conversion of the i32 indices the kernels compute to int64, the default index
        // dtype (argsort, argmax, nonzero, ...): the one emulated-dtype pipeline nearly every
        // program's index-returning calls share.
        let index_cast = Variant::pair(DType::I32, DType::I64);
        for f in offered(When::Eager) {
            if (f.variants)(&[DType::I32, DType::I64]).contains(&index_cast) {
                keys.extend(keys_of(f, index_cast, (f.eager)(a, index_cast)));
            }
        }
        let mut dtypes: Vec<DType> = a.dtypes.to_vec();
        dtypes.sort_by_key(|&d| (d != DType::F32, d != DType::I32, d != DType::Bool));
        for d in dtypes {
            for f in offered(When::Eager) {
                for v in (f.variants)(a.dtypes).into_iter().filter(|v| v.a == d) {
                    keys.extend(keys_of(f, v, (f.eager)(a, v)));
                }
            }
        }
    }
    keys
}

/// The keys of `plan` dispatched once as soon as they are created (`warm_up.rs`): the f32
/// pipelines of the families that ask for it (matmul, with einsum's contractions, and Philox),
/// the first calls a program makes. Only those: on lavapipe a first dispatch is LLVM's compile
/// (seconds, cold, for the subgroup matmul) on the one queue thread every call shares, so warming
/// the whole eager plan would put minutes of compiles ahead of a program's own work.
pub(crate) fn warm_ups(plan: &[PipelineKey]) -> HashSet<PipelineKey> {
    plan.iter()
        .filter(|k| k.kernel.warm_up && k.variant.a == DType::F32)
        .cloned()
        .collect()
}
