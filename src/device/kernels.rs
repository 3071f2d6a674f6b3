//! The kernel registry: every WGSL kernel the crate ships, its variants per dtype, and the
//! pipeline cache keyed by (kernel, dtypes, override constants).
//!
//! Shaders live in `shaders/*.wgsl` and are embedded with `include_str!`. A variant is the file
//! with a generated prelude of type aliases (`alias T = f32;`) and, for f16, `enable f16;`: the
//! only text substitution. Everything else is specialised with WGSL `override` constants.
//!
//! Pipeline identities and the cache are in `pipeline.rs`; the per-dtype WGSL helper text the
//! preludes paste in is in `wgsl_helpers.rs`; which shader files make each kernel is in
//! `kernel_sources.rs`.

use super::kernel_def::KernelDef;
use super::op_codes::{ReduceOp, ScanOp};
use super::pipeline::{DEFAULT_EPT, DEFAULT_WG, Variant};
pub(crate) use super::sort_passes::{RadixPass, SortPass};
use super::wgsl_helpers::{helpers, saturation, truth_in};
use crate::dtype::DType;

/// A kernel family: one `.wgsl` file, or a family its owner declares ([`KernelDef`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Kernel {
    /// A family declared by the module that owns it (the element-wise ops, ...).
    Def(&'static KernelDef),
    /// Strided copy with conversion (`contiguous`, `astype`, assignment). Dtypes: (src, dst).
    Copy,
    /// Strided fill with a scalar. Dtype: the array's.
    Fill,
    /// Arithmetic sequences (arange, linspace). Dtype: the array's.
    Sequence,
    /// Value reductions (sum, prod, max, min, any, all, sum of squares), one stage. Dtypes:
    /// (input, output).
    Reduce,
    /// Value reductions of contiguous rows read as vec4s (the fast path of `Reduce`). Dtypes:
    /// (input, output).
    ReduceRows,
    /// The same for f16 input in stage 1, reading eight packed halves per load. Dtypes: (f16,
    /// output).
    ReduceRowsF16,
    /// Value reductions down the columns of rows (a leading axis of a contiguous array), stage 1.
    /// Dtypes: (input, output).
    ReduceCols,
    /// Arg-reductions (argmax, argmin), one stage. Dtypes: (input, accumulator).
    ArgReduce,
    /// Block totals of the block-wise scan (`shaders/scan_blocks.wgsl`, entry `totals_main`).
    /// Dtype: the array's.
    ScanTotals,
    /// The block-wise scan itself (`shaders/scan_blocks.wgsl`): one invocation per block of a
    /// line, from the totals of the blocks before it. Dtype: the array's.
    ScanBlocks,
    /// `ScanTotals` over contiguous lines read as vec4s (entry `totals_vec4`).
    ScanTotalsVec4,
    /// `ScanBlocks` over contiguous lines read and written as vec4s (entry `main_vec4`).
    ScanBlocksVec4,
    /// Batched matmul over strided operands with shared-memory tiles (any numeric dtype; GPUs).
    MatmulTiled,
    /// Matrix-vector products (matmul with M = 1 or N = 1).
    MatmulGemv,
    /// One invocation per output: the baseline benchmarks compare against.
    MatmulNaive,
    /// f32 matmul for 8-wide subgroups (lavapipe); the payload is the rows per invocation.
    MatmulSgb(u32),
    /// Gather along one axis with an i32 index array (`take`). Dtype: the data's.
    Take,
    /// Philox4x32-10 random numbers and their distributions (`crate::random`), 32-bit
    /// arithmetic only. Dtype: the output's; the distribution is the override constant `DIST`.
    Philox,
    /// The same with the SHADER_INT64 backend (bit-identical, faster), for 4-byte dtypes.
    Philox64,
    /// One pass of the bitonic row sort (`shaders/sort.wgsl`) over 32-bit key words; the
    /// element type is the override constant `DTYPE`. Dtype: u32 (the words).
    Sort(SortPass),
    /// Sorted rows' values or indices from the sorted indices (`shaders/sort_gather.wgsl`).
    /// Dtype: u32 (the words).
    SortGather,
    /// Stream compaction by a mask's running count (`shaders/compact.wgsl`): the selected flat
    /// indices or elements, in order. Dtype: u32 (the words).
    Compact,
    /// Binary search of sorted 1-d arrays (`shaders/searchsorted.wgsl`), over the key words of
    /// `DTYPE`. Dtype: u32 (the words).
    SearchSorted,
    /// Counts of small non-negative integers by atomic adds, for bincount and histogram
    /// (`shaders/bincount.wgsl`). Dtype: u32 (the words).
    Bincount,
    /// One pass of the chunked LSD radix sort (`shaders/radix.wgsl`). Dtype: u32 (the words).
    Radix(RadixPass),
    /// Scatter by position into one binding window of a larger array (`shaders/scatter.wgsl`):
    /// the merge of sorted parts past one binding. Dtype: u32 (the words).
    Scatter,
    /// Weighted counts, each bin's weights added in sequence in f64 (`shaders/bincount_weights.wgsl`).
    /// Dtype: f64 (the sums), compiled only where the adapter has f64.
    BincountWeights,
}

/// One row of the kernel spec table ([`Kernel::spec`]).
pub(crate) struct Spec {
    /// The label stem, e.g. `binary_float_vec4` (labels add the variant and constants).
    pub name: String,
    /// The entry point to compile.
    pub entry: &'static str,
    /// Relies on subgroups of exactly 8 consecutive invocations.
    pub needs_subgroup_of_8: bool,
    /// The override constants every pipeline of the family starts from.
    pub constants: Vec<(&'static str, u32)>,
}

impl Kernel {
    /// Every kernel family: the device's own, then the declared ones of `families`.
    pub fn all(families: &[&'static KernelDef]) -> Vec<Kernel> {
        let mut v = vec![Kernel::Copy, Kernel::Fill, Kernel::Sequence];
        v.extend([
            Kernel::Reduce,
            Kernel::ReduceRows,
            Kernel::ReduceRowsF16,
            Kernel::ReduceCols,
            Kernel::ArgReduce,
            Kernel::ScanTotals,
            Kernel::ScanBlocks,
            Kernel::ScanTotalsVec4,
            Kernel::ScanBlocksVec4,
            Kernel::MatmulTiled,
            Kernel::MatmulGemv,
            Kernel::MatmulNaive,
        ]);
        v.extend(super::matmul_sgb::TILE_ROWS.map(Kernel::MatmulSgb));
        v.extend([Kernel::Take, Kernel::Philox, Kernel::Philox64]);
        v.extend(SortPass::ALL.map(Kernel::Sort));
        v.push(Kernel::SortGather);
        v.push(Kernel::Compact);
        v.push(Kernel::SearchSorted);
        v.push(Kernel::Bincount);
        v.extend([
            Kernel::Radix(RadixPass::Count),
            Kernel::Radix(RadixPass::Scatter),
        ]);
        v.push(Kernel::Scatter);
        v.push(Kernel::BincountWeights);
        v.extend(families.iter().map(|&d| Kernel::Def(d)));
        v
    }

    /// Arithmetic operations per element of a launch's shape, as the profiler counts them: one
    /// for element-wise ops, reductions and scans (the convention of `torch.profiler` and
    /// roofline plots), none for data movement. Matmul launches count their 2·m·n·k themselves.
    pub fn ops_per_element(self) -> u64 {
        match self {
            Kernel::Def(d) => d.ops_per_element,
            Kernel::Reduce
            | Kernel::ReduceRows
            | Kernel::ReduceRowsF16
            | Kernel::ReduceCols
            | Kernel::ArgReduce
            | Kernel::ScanTotals
            | Kernel::ScanBlocks
            | Kernel::ScanTotalsVec4
            | Kernel::ScanBlocksVec4 => 1,
            Kernel::Copy
            | Kernel::Fill
            | Kernel::Sequence
            | Kernel::MatmulTiled
            | Kernel::MatmulGemv
            | Kernel::MatmulNaive
            | Kernel::MatmulSgb(_)
            | Kernel::Take
            | Kernel::Philox
            | Kernel::Philox64
            | Kernel::Sort(_)
            | Kernel::SortGather
            | Kernel::Compact
            | Kernel::SearchSorted
            | Kernel::Bincount
            | Kernel::Radix(_)
            | Kernel::Scatter
            | Kernel::BincountWeights => 0,
        }
    }

    /// This family's row of the spec table: its label, entry point, when it compiles, what it
    /// needs from the adapter, and the override constants its pipelines start from. (Which dtype
    /// variants exist, and the text each variant is made of, are computed per variant below.)
    pub fn spec(self) -> Spec {
        // Element-wise and strided kernels: `WG` invocations handling `EPT` elements each.
        let grid = vec![("EPT", DEFAULT_EPT), ("WG", DEFAULT_WG)];
        // When each family compiles is the start-up plan's business (`startup.rs`).
        let row = |name: String, entry: &'static str| Spec {
            name,
            entry,
            needs_subgroup_of_8: false,
            constants: grid.clone(),
        };
        let wg_only = |spec: Spec| Spec {
            constants: vec![("WG", DEFAULT_WG)],
            ..spec
        };
        match self {
            Kernel::Copy => row("copy".into(), "main"),
            Kernel::Fill => row("fill".into(), "main"),
            Kernel::Sequence => row("sequence".into(), "main"),
            Kernel::Def(d) => Spec {
                constants: d.constants.to_vec(),
                ..row(d.name.into(), d.entry)
            },
            // Reductions and scans declare no `EPT` (WebGPU refuses a constant the shader lacks).
            Kernel::Reduce => wg_only(row("reduce".into(), "main")),
            Kernel::ReduceRows => wg_only(row("reduce_rows".into(), "main")),
            Kernel::ReduceRowsF16 => wg_only(row("reduce_rows_f16x8".into(), "main")),
            Kernel::ReduceCols => wg_only(row("reduce_cols".into(), "main")),
            Kernel::ArgReduce => wg_only(row("argreduce".into(), "main")),
            Kernel::ScanTotals => wg_only(row("scan_totals".into(), "totals_main")),
            Kernel::ScanBlocks => wg_only(row("scan_blocks".into(), "main")),
            Kernel::ScanTotalsVec4 => wg_only(row("scan_totals_vec4".into(), "totals_vec4")),
            Kernel::ScanBlocksVec4 => wg_only(row("scan_blocks_vec4".into(), "main_vec4")),
            // Matmul tiles are fixed in the shaders; the GEMV kernel has a workgroup size only.
            Kernel::MatmulTiled => Spec {
                constants: vec![],
                ..row("matmul_tiled".into(), "main")
            },
            Kernel::MatmulGemv => Spec {
                constants: vec![("WG", DEFAULT_WG)],
                ..row("matmul_gemv".into(), "main")
            },
            Kernel::MatmulNaive => Spec {
                constants: vec![],
                ..row("matmul_naive".into(), "main")
            },
            Kernel::MatmulSgb(rows) => Spec {
                needs_subgroup_of_8: true,
                constants: vec![("WGY", 2)],
                ..row(
                    format!("matmul_sgb{rows}x8"),
                    super::matmul_sgb::entry_point(rows),
                )
            },
            Kernel::Take => Spec {
                constants: vec![("WG", DEFAULT_WG)],
                ..row("take".into(), "main")
            },
            Kernel::Philox => row("philox".into(), "main"),
            Kernel::Philox64 => row("philox64".into(), "main"),
            // The shared arrays hold a block of 2 WG = 512 pairs: WG stays 256.
            Kernel::Sort(pass) => Spec {
                constants: vec![("WG", DEFAULT_WG)],
                ..row(format!("sort_{}", pass.entry()), pass.entry())
            },
            Kernel::SortGather => Spec {
                constants: vec![("WG", DEFAULT_WG)],
                ..row("sort_gather".into(), "main")
            },
            Kernel::Compact => Spec {
                constants: vec![("WG", DEFAULT_WG)],
                ..row("compact".into(), "main")
            },
            Kernel::SearchSorted => Spec {
                constants: vec![("WG", DEFAULT_WG)],
                ..row("searchsorted".into(), "main")
            },
            Kernel::Bincount => Spec {
                constants: vec![("WG", DEFAULT_WG)],
                ..row("bincount".into(), "main")
            },
            Kernel::Scatter => Spec {
                constants: vec![("WG", DEFAULT_WG)],
                ..row("scatter".into(), "main")
            },
            Kernel::BincountWeights => Spec {
                constants: vec![("WG", DEFAULT_WG)],
                ..row("bincount_weights".into(), "main")
            },
            // 64 chunks per workgroup: each invocation walks a whole chunk.
            Kernel::Radix(pass) => {
                let entry = match pass {
                    RadixPass::Count => "count",
                    RadixPass::Scatter => "scatter",
                };
                Spec {
                    constants: vec![("WG", 64)],
                    ..row(format!("radix_{entry}"), entry)
                }
            }
        }
    }

    /// The dtype combinations this kernel is built for, given the dtypes an adapter supports.
    pub fn variants(self, dtypes: &[DType]) -> Vec<Variant> {
        let ones = |it: &mut dyn Iterator<Item = DType>| it.map(Variant::one).collect();
        match self {
            Kernel::Def(d) => (d.variants)(dtypes),
            Kernel::Copy => dtypes
                .iter()
                .flat_map(|&s| dtypes.iter().map(move |&d| Variant::pair(s, d)))
                .collect(),
            Kernel::Fill => ones(&mut dtypes.iter().copied()),
            Kernel::Sequence => ones(&mut dtypes.iter().copied().filter(|&d| d != DType::Bool)),
            // Bool arrays are scanned as i32 (NumPy counts them).
            Kernel::ScanTotals
            | Kernel::ScanBlocks
            | Kernel::ScanTotalsVec4
            | Kernel::ScanBlocksVec4 => {
                ones(&mut dtypes.iter().copied().filter(|&d| d != DType::Bool))
            }
            Kernel::ReduceRowsF16 => {
                // f16 input only: into f32 partials, f16 results or bool (any/all).
                if dtypes.contains(&DType::F16) {
                    [DType::F32, DType::F16, DType::Bool]
                        .into_iter()
                        .map(|o| Variant::pair(DType::F16, o))
                        .collect()
                } else {
                    vec![]
                }
            }
            Kernel::Reduce | Kernel::ReduceRows | Kernel::ReduceCols => {
                // (input, output): same dtype; f16 through f32 partials; any/all into bool.
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
                match self {
                    // f16 rows are read by the f16x8 kernel; this one sees only their partials.
                    Kernel::ReduceRows => v.retain(|x| x.a != DType::F16),
                    // The columns kernel is stage 1 only: it never turns f32 partials into f16.
                    Kernel::ReduceCols => v.retain(|&x| x != Variant::pair(DType::F32, DType::F16)),
                    _ => {}
                }
                v
            }
            Kernel::MatmulTiled | Kernel::MatmulGemv | Kernel::MatmulNaive => {
                ones(&mut dtypes.iter().copied().filter(|&d| d != DType::Bool))
            }
            Kernel::MatmulSgb(_) => vec![Variant::one(DType::F32)],
            Kernel::Take => ones(&mut dtypes.iter().copied()),
            Kernel::Sort(_)
            | Kernel::SortGather
            | Kernel::Compact
            | Kernel::SearchSorted
            | Kernel::Bincount
            | Kernel::Radix(_)
            | Kernel::Scatter => vec![Variant::one(DType::U32)],
            Kernel::BincountWeights => {
                ones(&mut dtypes.iter().copied().filter(|&d| d == DType::F64))
            }
            // Compiled on first use, per (dtype, distribution): compiling every combination at
            // start-up would add seconds to every device start on lavapipe.
            Kernel::Philox => ones(&mut dtypes.iter().copied().filter(|&d| d != DType::Bool)),
            Kernel::Philox64 => ones(
                &mut dtypes
                    .iter()
                    .copied()
                    .filter(|&d| d != DType::Bool && d.size_bytes() == 4),
            ),
            Kernel::ArgReduce => {
                // (input, accumulator): stage 1 reads the array (f16 into an f32 accumulator),
                // stage 2 the partials; bool arrays are compared as i32.
                let mut v: Vec<Variant> = dtypes
                    .iter()
                    .filter(|&&d| d != DType::Bool && d != DType::F16)
                    .map(|&d| Variant::pair(d, d))
                    .collect();
                if dtypes.contains(&DType::F16) {
                    v.push(Variant::pair(DType::F16, DType::F32));
                }
                v
            }
        }
    }

    /// The WGSL type aliases and per-dtype helper functions that specialise this kernel for `v`.
    fn prelude(self, v: Variant) -> String {
        let b = v.b.unwrap_or(v.a);
        match self {
            Kernel::Copy => {
                // To bool: NumPy's bool(), non-zero (NaN included) is true, tested by bits
                // (lavapipe's `NaN != 0` is false).
                let convert = if b == DType::Bool {
                    format!(
                        "alias In = Src;\n{}fn convert(x: Src) -> Dst {{ return select(0u, 1u, truth_in(x)); }}\n",
                        truth_in(v.a)
                    )
                } else if let Some((lo, hi)) = saturation(v.a, b) {
                    // Float to integer saturates (WGSL's rule); spelled out because not every
                    // backend honours it (naga's GLSL output on Mesa wraps 1e10 to i32::MIN).
                    format!("fn convert(x: Src) -> Dst {{ return Dst(clamp(x, {lo}, {hi})); }}\n")
                } else {
                    "fn convert(x: Src) -> Dst { return Dst(x); }\n".to_string()
                };
                format!(
                    "alias Src = {};\nalias Dst = {};\n{convert}",
                    v.a.wgsl(),
                    b.wgsl()
                )
            }
            Kernel::Fill => format!(
                "alias T = {};\nalias V = {};\n",
                v.a.wgsl(),
                v.a.wgsl_compute()
            ),
            Kernel::Sequence => format!(
                "alias T = {};\nalias C = {};\n",
                v.a.wgsl(),
                v.a.wgsl_compute()
            ),
            // A declared family's WGSL is whole (see `wgsl`).
            Kernel::Def(_) => String::new(),
            Kernel::ScanTotals
            | Kernel::ScanBlocks
            | Kernel::ScanTotalsVec4
            | Kernel::ScanBlocksVec4 => format!(
                "alias T = {};\nalias A = {};\n{}{}",
                v.a.wgsl(),
                v.a.wgsl_compute(),
                helpers("A", v.a),
                ScanOp::wgsl_constants()
            ),
            Kernel::Reduce | Kernel::ReduceRows | Kernel::ReduceRowsF16 | Kernel::ReduceCols => {
                // Accumulate in the compute type of the wider of input and output; any/all in u32.
                let acc = if b == DType::Bool {
                    DType::Bool
                } else if v.a == DType::F64 {
                    DType::F64
                } else {
                    b
                };
                format!(
                    "alias In = {};\nalias Out = {};\nalias A = {};\n{}{}{}",
                    v.a.wgsl(),
                    b.wgsl(),
                    acc.wgsl_compute(),
                    helpers("A", acc),
                    truth_in(v.a),
                    ReduceOp::wgsl_constants()
                )
            }
            Kernel::ArgReduce => format!(
                "alias In = {};\nalias A = {};\n{}{}",
                v.a.wgsl(),
                b.wgsl_compute(),
                helpers("A", b),
                ReduceOp::wgsl_constants()
            ),
            Kernel::MatmulTiled | Kernel::MatmulGemv | Kernel::MatmulNaive => format!(
                "alias T = {};\nalias ACC = {};\n",
                v.a.wgsl(),
                v.a.wgsl_compute()
            ),
            Kernel::MatmulSgb(_) => String::new(),
            Kernel::Take => format!("alias T = {};\n", v.a.wgsl()),
            Kernel::Sort(_)
            | Kernel::SortGather
            | Kernel::Compact
            | Kernel::SearchSorted
            | Kernel::Bincount
            | Kernel::Radix(_)
            | Kernel::Scatter
            | Kernel::BincountWeights => String::new(),
            // F: the float type the wide (53-bit) distributions compute in.
            Kernel::Philox | Kernel::Philox64 => format!(
                "alias T = {};\nalias F = {};\n",
                v.a.wgsl(),
                if v.a == DType::F64 { "f64" } else { "f32" }
            ),
        }
    }

    /// The complete WGSL of one variant, exactly as it is compiled.
    pub fn wgsl(self, v: Variant) -> String {
        let f16 = v.a == DType::F16 || v.b == Some(DType::F16);
        let mut s = String::new();
        if f16 {
            s.push_str("enable f16;\n");
        }
        // WebGPU requires the directive before subgroup built-ins; naga 30 refuses it as not yet
        // implemented (and needs none), so only the browser build says it.
        if cfg!(target_arch = "wasm32") && matches!(self, Kernel::MatmulSgb(_)) {
            s.push_str("enable subgroups;\n");
        }
        if let Kernel::Def(d) = self {
            s.push_str(&(d.wgsl)(v));
            return s;
        }
        s.push_str(&self.prelude(v));
        for src in self.sources(v) {
            s.push_str(src);
        }
        if let Kernel::MatmulSgb(rows) = self {
            s.push_str(&super::matmul_sgb::source(rows));
        }
        s
    }
}
