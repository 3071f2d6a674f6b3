//! The scan kernel families (`shaders/scan_blocks.wgsl`), declared for the device
//! (`device::KernelDef`): the block totals and the block-wise scan, strided and over contiguous
//! lines read as vec4s. Bool arrays are scanned as i32 (NumPy counts them), so every dtype but
//! bool. In the eager plan, with their workgroup size (64) and both ops.

use crate::device::wgsl_helpers::helpers;
use crate::device::{DEFAULT_WG, KernelDef, Needs, Variant, When, combinations};
use crate::ops::reduce::op_codes::ScanOp;

fn wgsl(v: Variant) -> String {
    format!(
        "alias T = {};\nalias A = {};\n{}{}",
        v.a.wgsl(),
        v.a.wgsl_compute(),
        helpers("A", v.a),
        ScanOp::wgsl_constants()
    ) + include_str!("../../../shaders/scan_blocks.wgsl")
}

/// The scan family of one entry point.
const fn scan(name: &'static str, entry: &'static str) -> KernelDef {
    KernelDef {
        name,
        entry,
        constants: &[("WG", DEFAULT_WG)],
        ops_per_element: 1,
        uses_f32_math: KernelDef::no_f32_math,
        variants: KernelDef::numeric_dtypes,
        wgsl,
        when: When::Eager,
        eager: |_, _| {
            combinations(&[
                ("WG", vec![64]),
                ("OP", ScanOp::ALL.iter().map(|o| o.code()).collect()),
            ])
        },
        needs: Needs::NONE,
        warm_up: false,
    }
}

/// Block totals of the block-wise scan.
pub(crate) static SCAN_TOTALS: KernelDef = scan("scan_totals", "totals_main");
/// The block-wise scan: one invocation per block of a line, from the totals of the blocks
/// before it.
pub(crate) static SCAN_BLOCKS: KernelDef = scan("scan_blocks", "main");
/// `scan_totals` over contiguous lines read as vec4s.
pub(crate) static SCAN_TOTALS_VEC4: KernelDef = scan("scan_totals_vec4", "totals_vec4");
/// `scan_blocks` over contiguous lines read and written as vec4s.
pub(crate) static SCAN_BLOCKS_VEC4: KernelDef = scan("scan_blocks_vec4", "main_vec4");
