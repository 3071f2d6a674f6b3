//! Which `shaders/*.wgsl` files make each of the device's own kernels (`kernels.rs`), in the
//! order they are joined after the variant's prelude; declared families state their own.

use super::kernels::Kernel;
use super::pipeline::Variant;

impl Kernel {
    /// Whether variant `v` of this kernel joins `shaders/math_f32.wgsl` (whose `FAST_MATH`
    /// override selects WGSL's built-ins).
    pub fn uses_f32_math(self, v: Variant) -> bool {
        match self {
            Kernel::Def(d) => (d.uses_f32_math)(v),
            _ => false,
        }
    }

    /// The WGSL files of this kernel's variant `v`, concatenated in order.
    pub(super) fn sources(self, _: Variant) -> Vec<&'static str> {
        let walk = include_str!("../../shaders/strided_walk.wgsl");
        match self {
            Kernel::Copy => vec![include_str!("../../shaders/copy.wgsl"), walk],
            Kernel::Fill => vec![include_str!("../../shaders/fill.wgsl"), walk],
            Kernel::Sequence => vec![include_str!("../../shaders/sequence.wgsl")],
            // Declared families bring their whole source (`Kernel::wgsl`).
            Kernel::Def(_) => vec![],
            Kernel::Reduce => vec![
                include_str!("../../shaders/reduce_ops.wgsl"),
                include_str!("../../shaders/reduce_index.wgsl"),
                include_str!("../../shaders/reduce.wgsl"),
            ],
            Kernel::ReduceRows => vec![
                include_str!("../../shaders/reduce_ops.wgsl"),
                include_str!("../../shaders/reduce_rows_vec4.wgsl"),
                include_str!("../../shaders/reduce_rows.wgsl"),
            ],
            Kernel::ReduceRowsF16 => vec![
                include_str!("../../shaders/reduce_ops.wgsl"),
                include_str!("../../shaders/reduce_rows_f16x8.wgsl"),
                include_str!("../../shaders/reduce_rows.wgsl"),
            ],
            Kernel::ReduceCols => vec![
                include_str!("../../shaders/reduce_ops.wgsl"),
                include_str!("../../shaders/reduce_cols.wgsl"),
            ],
            Kernel::ArgReduce => vec![
                include_str!("../../shaders/reduce_index.wgsl"),
                include_str!("../../shaders/argreduce.wgsl"),
            ],
            Kernel::ScanTotals
            | Kernel::ScanBlocks
            | Kernel::ScanTotalsVec4
            | Kernel::ScanBlocksVec4 => {
                vec![include_str!("../../shaders/scan_blocks.wgsl")]
            }
            Kernel::MatmulTiled => vec![include_str!("../../shaders/matmul_tiled.wgsl")],
            Kernel::MatmulGemv => vec![include_str!("../../shaders/matmul_gemv.wgsl")],
            Kernel::MatmulNaive => vec![include_str!("../../shaders/matmul_naive.wgsl")],
            // Generated with its one entry point (see `wgsl`).
            Kernel::MatmulSgb(_) => vec![],
            Kernel::Take => vec![include_str!("../../shaders/take.wgsl")],
            Kernel::Sort(_) => vec![
                include_str!("../../shaders/sort_keys.wgsl"),
                include_str!("../../shaders/sort.wgsl"),
            ],
            Kernel::SearchSorted => vec![
                include_str!("../../shaders/sort_keys.wgsl"),
                include_str!("../../shaders/searchsorted.wgsl"),
            ],
            Kernel::Radix(_) => vec![include_str!("../../shaders/radix.wgsl")],
            Kernel::SortGather => vec![include_str!("../../shaders/sort_gather.wgsl")],
            Kernel::Compact => vec![include_str!("../../shaders/compact.wgsl")],
            Kernel::Bincount => vec![include_str!("../../shaders/bincount.wgsl")],
            Kernel::Scatter => vec![include_str!("../../shaders/scatter.wgsl")],
            Kernel::BincountWeights => vec![include_str!("../../shaders/bincount_weights.wgsl")],
            // A backend (mulhilo, the vector binding, unit stores), then the kernel.
            Kernel::Philox => vec![
                include_str!("../../shaders/mulhilo.wgsl"),
                include_str!("../../shaders/philox_u32.wgsl"),
                include_str!("../../shaders/ln_bits.wgsl"),
                include_str!("../../shaders/philox.wgsl"),
            ],
            Kernel::Philox64 => vec![
                include_str!("../../shaders/philox_u64.wgsl"),
                include_str!("../../shaders/ln_bits.wgsl"),
                include_str!("../../shaders/philox.wgsl"),
            ],
        }
    }
}
