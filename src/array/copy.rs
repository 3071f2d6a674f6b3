//! Strided copy with conversion (`shaders/copy.wgsl`): contiguous(), astype(), assign().

use super::Array;
use crate::device::blocks::{BlockOperand, collapse, plan};
use crate::device::params::Params;
use crate::device::wgsl_helpers::{saturation, truth_in};
use crate::device::{
    Binding, DEFAULT_EPT, DEFAULT_WG, KernelDef, Needs, PipelineKey, Variant, When,
};
use crate::dtype::DType;
use crate::error::Result;

/// `dst[...] = src[...]` elementwise, converting dtype; `src` has `dst`'s shape (already
/// broadcast) and does not share storage with it.
pub(crate) fn copy_into(op: &'static str, src: &Array, dst: &Array) -> Result<()> {
    debug_assert_eq!(src.shape(), dst.shape());
    src.same_device(op, dst)?;
    let dev = &dst.device.inner;
    dev.check_alive(op)?;
    if dst.is_empty() {
        return Ok(());
    }
    let (ss, sl) = src.storage_and_layout();
    let (ds, dl) = dst.storage_and_layout();
    let (sbuf, dbuf) = (
        ss.buffer().expect("non-empty"),
        ds.buffer().expect("non-empty"),
    );
    let (se, de) = (src.dtype.size_bytes(), dst.dtype.size_bytes());
    let bytes = dst.len() as u64 * de;

    // Same dtype, both contiguous, word-aligned: a plain buffer copy (the DMA/memcpy path).
    if src.dtype == dst.dtype && sl.is_contiguous() && dl.is_contiguous() {
        let (so, doff) = (sl.offset as u64 * se, dl.offset as u64 * de);
        if so.is_multiple_of(4) && doff.is_multiple_of(4) && bytes.is_multiple_of(4) {
            return dev.guarded(op, || {
                dev.record(|enc| enc.copy_buffer_to_buffer(sbuf, so, dbuf, doff, bytes));
                Ok(())
            });
        }
    }

    let shape: Vec<u64> = dst.shape().iter().map(|&n| n as u64).collect();
    let strides =
        |l: &crate::layout::Layout| l.strides.iter().map(|&s| s as i64).collect::<Vec<_>>();
    let (shape, st) = collapse(&shape, &[strides(sl), strides(dl)]);
    let operands = [
        BlockOperand {
            offset: sl.offset as i64,
            strides: st[0].clone(),
            elem_bytes: se,
            buffer_bytes: ss.bytes(),
        },
        BlockOperand {
            offset: dl.offset as i64,
            strides: st[1].clone(),
            elem_bytes: de,
            buffer_bytes: ds.bytes(),
        },
    ];
    let blocks = plan(op, &shape, &operands, dev.block_limits())?;
    let key = PipelineKey::new(&COPY, Variant::pair(src.dtype, dst.dtype));
    dev.guarded(op, || {
        for b in &blocks {
            let mut p = Params::default();
            p.strided_block(b)?;
            let (w0, w1) = (&b.windows[0], &b.windows[1]);
            dev.dispatch(
                &key,
                p.bytes(),
                &[Binding::of(sbuf, w0), Binding::of(dbuf, w1)],
                b.numel(),
                &b.shape,
            )?;
        }
        Ok(())
    })
}

/// The strided copy with conversion (`contiguous`, `astype`, assignment), declared for the
/// device: every (source, destination) dtype pair, compiled before `Device::new` returns (what
/// creating and reading arrays needs).
pub(crate) static COPY: KernelDef = KernelDef {
    name: "copy",
    entry: "main",
    constants: &[("EPT", DEFAULT_EPT), ("WG", DEFAULT_WG)],
    ops_per_element: 0,
    uses_f32_math: KernelDef::no_f32_math,
    variants: |dtypes| {
        dtypes
            .iter()
            .flat_map(|&s| dtypes.iter().map(move |&d| Variant::pair(s, d)))
            .collect()
    },
    wgsl: copy_wgsl,
    when: When::Immediate,
    eager: KernelDef::as_declared,
    needs: Needs::NONE,
    warm_up: false,
};

/// `Src` and `Dst`, the conversion, then the kernel. To bool: NumPy's bool(), non-zero (NaN
/// included) is true, tested by bits (lavapipe's `NaN != 0` is false). Float to integer
/// saturates (WGSL's rule), spelled out because not every backend honours it (naga's GLSL output
/// on Mesa wraps 1e10 to i32::MIN).
fn copy_wgsl(v: Variant) -> String {
    let b = v.b.unwrap_or(v.a);
    let convert = if b == DType::Bool {
        format!(
            "alias In = Src;\n{}fn convert(x: Src) -> Dst {{ return select(0u, 1u, truth_in(x)); }}\n",
            truth_in(v.a)
        )
    } else if let Some((lo, hi)) = saturation(v.a, b) {
        format!("fn convert(x: Src) -> Dst {{ return Dst(clamp(x, {lo}, {hi})); }}\n")
    } else {
        "fn convert(x: Src) -> Dst { return Dst(x); }\n".to_string()
    };
    format!(
        "alias Src = {};\nalias Dst = {};\n{convert}",
        v.a.wgsl(),
        b.wgsl()
    ) + include_str!("../../shaders/copy.wgsl")
        + include_str!("../../shaders/strided_walk.wgsl")
}
