//! The sorting kernel families, declared for the device (`device::KernelDef`), each over 32-bit
//! key words whose element type is the override constant `DTYPE` (one u32 variant): the passes
//! of the bitonic row sort (`shaders/sort.wgsl`: `keys`, `sort_local`), the chunked LSD radix
//! sort (`shaders/radix.wgsl`: `count`, `scatter`), the gather of sorted values or indices
//! (`shaders/sort_gather.wgsl`) and the scatter that merges sorted parts past one binding
//! (`shaders/scatter.wgsl`). All compile on first use.

use crate::device::{DEFAULT_WG, KernelDef};

const WG: &[(&str, u32)] = &[("WG", DEFAULT_WG)];

/// Keys and indices of every element, padding included (both sorts start here).
pub(crate) static SORT_KEYS: KernelDef =
    KernelDef::on_first_use("sort_keys", "keys", WG, KernelDef::words, |_| {
        concat!(
            include_str!("../../../shaders/sort_keys.wgsl"),
            include_str!("../../../shaders/sort.wgsl")
        )
        .to_string()
    });

/// The bitonic network of rows that fit one block of 2 WG pairs, in workgroup memory (its
/// shared arrays hold 512 pairs: WG stays 256).
pub(crate) static SORT_LOCAL: KernelDef = KernelDef::on_first_use(
    "sort_sort_local",
    "sort_local",
    WG,
    KernelDef::words,
    |_| {
        concat!(
            include_str!("../../../shaders/sort_keys.wgsl"),
            include_str!("../../../shaders/sort.wgsl")
        )
        .to_string()
    },
);

/// Sorted rows' values or indices from the sorted indices.
pub(crate) static SORT_GATHER: KernelDef =
    KernelDef::on_first_use("sort_gather", "main", WG, KernelDef::words, |_| {
        include_str!("../../../shaders/sort_gather.wgsl").to_string()
    });

/// One pass of the radix sort: each chunk's digit histogram. 64 chunks per workgroup: each
/// invocation walks a whole chunk.
pub(crate) static RADIX_COUNT: KernelDef = KernelDef::on_first_use(
    "radix_count",
    "count",
    &[("WG", 64)],
    KernelDef::words,
    |_| include_str!("../../../shaders/radix.wgsl").to_string(),
);

/// The other pass: each chunk's pairs to their places.
pub(crate) static RADIX_SCATTER: KernelDef = KernelDef::on_first_use(
    "radix_scatter",
    "scatter",
    &[("WG", 64)],
    KernelDef::words,
    |_| include_str!("../../../shaders/radix.wgsl").to_string(),
);

/// Scatter by position into one binding window of a larger array: the merge of sorted parts
/// past one binding.
pub(crate) static SCATTER: KernelDef =
    KernelDef::on_first_use("scatter", "main", WG, KernelDef::words, |_| {
        include_str!("../../../shaders/scatter.wgsl").to_string()
    });
