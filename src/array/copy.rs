//! Strided copy with conversion (`shaders/copy.wgsl`): contiguous(), astype(), assign().

use super::Array;
use crate::device::blocks::{BlockOperand, collapse, plan};
use crate::device::element_access::{read_value, write_value};
use crate::device::params::Params;
use crate::device::wgsl_helpers::{helpers, saturation, truth_in};
use crate::device::{
    Binding, DEFAULT_EPT, DEFAULT_WG, KernelDef, Needs, PipelineKey, Variant, When,
};
use crate::dtype::DType;
use crate::error::Result;

/// Copies and casts with a complex side, as copies of parts (NumPy's rules): complex →
/// complex part by part; real → complex into the real part, the imaginary part zeroed;
/// complex → real (or integer) from the real part, the imaginary part discarded (NumPy's
/// `ComplexWarning`); complex → bool is NumPy's "either part non-zero", which needs an op and
/// is refused here.
fn copy_complex(op: &'static str, src: &Array, dst: &Array) -> Result<()> {
    match (src.dtype.is_complex(), dst.dtype.is_complex()) {
        (true, true) => copy_into(op, &src.parts(), &dst.parts()),
        (false, true) => {
            copy_into(op, src, &dst.part(0))?;
            let zero = Array::from_slice(&dst.device, &[0.0f32], &[])?;
            copy_into(op, &zero.broadcast_to(dst.shape())?, &dst.part(1))
        }
        _ if dst.dtype == DType::Bool => Err(crate::error::Error::Unsupported {
            op,
            feature: format!(
                "a cast from {} to bool (either part non-zero): compare with 0 instead",
                src.dtype
            ),
        }),
        _ => copy_into(op, &src.part(0), dst),
    }
}

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
    if src.dtype.is_complex() || dst.dtype.is_complex() {
        return copy_complex(op, src, dst);
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
    let family = if src.dtype == dst.dtype { &COPY } else { &CAST };
    let key = PipelineKey::new(family, Variant::pair(src.dtype, dst.dtype));
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

/// The strided copy within one dtype (`contiguous`, assignment, reads of views), declared for
/// the device: one variant per dtype, compiled before `Device::new` returns (what creating and
/// reading arrays needs).
pub(crate) static COPY: KernelDef = SAME_DTYPE;

const SAME_DTYPE: KernelDef = KernelDef {
    name: "copy",
    entry: "main",
    constants: &[("EPT", DEFAULT_EPT), ("WG", DEFAULT_WG)],
    ops_per_element: 0,
    uses_f32_math: KernelDef::no_f32_math,
    variants: |dtypes| dtypes.iter().map(|&d| Variant::pair(d, d)).collect(),
    wgsl: copy_wgsl,
    when: When::Immediate,
    eager: KernelDef::as_declared,
    needs: Needs::NONE,
    soft_f64: true,
    packed_f16: true,
    warm_up: false,
};

/// The strided copy from one dtype to another (`astype`, assignment across dtypes), the same
/// kernel as [`COPY`] for every (source, destination) pair of different dtypes: compiled in the
/// eager plan, else on first use. Kept out of what `Device::new` compiles: the 30 pairs of the
/// word dtypes were two thirds of its pipelines, paid by every process (about 0.2 s on
/// lavapipe) whether it casts or not.
pub(crate) static CAST: KernelDef = KernelDef {
    name: "cast",
    when: When::Eager,
    variants: |dtypes| {
        dtypes
            .iter()
            .flat_map(|&s| {
                dtypes
                    .iter()
                    .filter(move |&&d| d != s)
                    .map(move |&d| Variant::pair(s, d))
            })
            .collect()
    },
    ..SAME_DTYPE
};

/// The bindings with their element access, the conversion, then the kernel.
fn copy_wgsl(v: Variant) -> String {
    if v.soft {
        return copy_wgsl_soft(v);
    }
    let (src, dst) = (v.a, v.b.unwrap_or(v.a));
    if src == dst && v.is_packed(src) {
        // Packed f16 to itself: its bits, NaN payloads and all.
        let bits = v.stored(src);
        return "alias SrcC = u32;\nalias DstC = u32;\n".to_string()
            + &read_value("src", 1, v, bits)
            + &write_value("dst", 2, v, bits)
            + "fn convert(x: SrcC) -> DstC { return x; }\n"
            + include_str!("../../shaders/copy.wgsl")
            + include_str!("../../shaders/strided_walk.wgsl");
    }
    let mut s = format!(
        "alias SrcC = {};\nalias DstC = {};\n",
        src.wgsl_compute(),
        dst.wgsl_compute()
    );
    s += &read_value("src", 1, v, src);
    s += &write_value("dst", 2, v, dst);
    // Each conversion library only where the pair uses it: the start-up plan compiles every
    // word pair before `Device::new` returns.
    // (The f64 files test NaN with the f64 helpers.)
    if is_pair(src) || is_pair(dst) {
        s += include_str!("../../shaders/mulhilo.wgsl");
        s += include_str!("../../shaders/int64.wgsl");
        if src == DType::F64 || dst == DType::F64 {
            s += &helpers("f64", DType::F64);
            s += include_str!("../../shaders/int64_f64.wgsl");
        }
    } else if src.is_float() && dst.is_int() && dst != DType::U32 {
        s += include_str!("../../shaders/float_to_int32.wgsl");
        if src == DType::F64 {
            s += &helpers("f64", DType::F64);
            s += include_str!("../../shaders/float_to_int32_f64.wgsl");
        }
    }
    s += &convert(src, dst, v.is_packed(dst));
    s + include_str!("../../shaders/copy.wgsl") + include_str!("../../shaders/strided_walk.wgsl")
}

/// `fn convert(x: SrcC) -> DstC`, NumPy's cast from `src` to `dst` on the compute types.
///
/// - To bool: NumPy's bool(), non-zero (NaN included) is true, tested by bits (lavapipe's
///   `NaN != 0` is false).
/// - Float to the signed integers and to uint64: NumPy's x86-64 results (`int64.wgsl`,
///   `float_to_int32.wgsl`):
///   truncation, and NaN, infinities and out-of-range values give the integer indefinite value
///   (i32::MIN, i64::MIN); to 8/16 bits through int32, keeping the low bits.
/// - Float to uint32 saturates (WGSL's rule; NumPy's own results there depend on its SIMD loops),
///   spelled out because not every backend honours it (naga's GLSL output on Mesa wraps).
/// - Between integers: the low bits (wrapping), sign- or zero-extended by the source's sign.
/// - 64-bit integers to floats: correctly rounded.
/// - f64 to packed f16 (`packed_dst`, no f16 type): rounded to f32 to odd, which f16's
///   rounding of the stored value then makes the correctly rounded half (24 bits > 11 + 2).
fn convert(src: DType, dst: DType, packed_dst: bool) -> String {
    let body = if dst == DType::Bool {
        if is_pair(src) {
            "return select(0u, 1u, any(x != vec2<u32>(0u)));".to_string()
        } else {
            return format!(
                "alias In = SrcC;\n{}fn convert(x: SrcC) -> DstC {{ return select(0u, 1u, truth_in(x)); }}\n",
                truth_in(compute_dtype(src))
            );
        }
    } else if src == DType::F64 && dst == DType::F16 && packed_dst {
        // Round to odd: an inexact f32 keeps a set last bit, so the store's rounding to f16
        // sees the sticky bits of the f64 (double rounding through f32 can miss a tie).
        "var r = f32(x);\n    let b = bitcast<u32>(r);\n    \
         if (f64(r) != x && (b & 1u) == 0u) {\n        \
         r = bitcast<f32>(select(b - 1u, b + 1u, abs(f64(r)) < abs(x)));\n    }\n    \
         return r;"
            .to_string()
    } else if src == DType::F64 && dst == DType::F16 {
        // Straight to f16 (rounded once; f16 travels as f32, which holds it exactly).
        "return f32(f16(x));".to_string()
    } else if src.is_float() {
        let f = if src == DType::F64 { "f64" } else { "f32" };
        match dst {
            DType::I64 => format!("return {f}_to_i64(x);"),
            DType::U64 => format!("return {f}_to_u64(x);"),
            DType::I32 | DType::I8 | DType::I16 => format!("return {f}_to_i32_x86(x);"),
            DType::U8 | DType::U16 => format!("return u32({f}_to_i32_x86(x));"),
            _ => match saturation(compute_dtype(src), dst) {
                Some((lo, hi)) => format!("return DstC(clamp(x, {lo}, {hi}));"),
                None => "return DstC(x);".to_string(),
            },
        }
    } else if is_pair(src) {
        let signed = src == DType::I64;
        match dst {
            DType::F32 | DType::F16 if signed => "return i64_to_f32(x);".to_string(),
            DType::F32 | DType::F16 => "return u64_to_f32(x);".to_string(),
            DType::F64 if signed => "return i64_to_f64(x);".to_string(),
            DType::F64 => "return u64_to_f64(x);".to_string(),
            d if is_pair(d) => "return x;".to_string(),
            d if d.wgsl_compute() == "i32" => "return bitcast<i32>(x.x);".to_string(),
            _ => "return x.x;".to_string(),
        }
    } else if is_pair(dst) {
        // A 32-bit (or widened 8/16-bit) integer or bool: extend by the source's sign.
        if src.wgsl_compute() == "i32" {
            "return vec2<u32>(bitcast<u32>(x), select(0u, 0xffffffffu, x < 0));".to_string()
        } else {
            "return vec2<u32>(x, 0u);".to_string()
        }
    } else {
        "return DstC(x);".to_string()
    };
    format!("fn convert(x: SrcC) -> DstC {{ {body} }}\n")
}

/// The copy kernel of a variant with software f64 (word pairs, `shaders/f64_soft.wgsl`): every
/// conversion as the native path's, correctly rounded (to f16 in integers: a driver's own
/// f32 -> f16 conversion may truncate).
fn copy_wgsl_soft(v: Variant) -> String {
    let (src, dst) = (v.a, v.b.unwrap_or(v.a));
    let mut s = format!(
        "alias SrcC = {};\nalias DstC = {};\n",
        v.compute_wgsl(src),
        v.compute_wgsl(dst)
    );
    s += &read_value("src", 1, v, src);
    s += &write_value("dst", 2, v, dst);
    s += &crate::device::wgsl_helpers::soft_f64_library();
    let half_body = format!(
        "let h = f64s_to_f16_bits(x);\n    {}",
        crate::device::element_access::F32_OF_HALF_BITS
    );
    let body: &str = if src == dst {
        "return x;"
    } else if src == DType::F64 {
        match dst {
            DType::F32 => "return bitcast<f32>(f64s_to_f32_bits(x));",
            // The half's value in f32, exactly.
            DType::F16 => &half_body,
            DType::I64 => "return f64s_to_i64(x);",
            DType::U64 => "return f64s_to_u64(x);",
            DType::I32 | DType::I8 | DType::I16 => "return f64s_to_i32(x);",
            DType::U8 | DType::U16 => "return u32(f64s_to_i32(x));",
            DType::U32 => "return f64s_to_u32(x);",
            DType::Bool => "return select(0u, 1u, ((x.y & 0x7fffffffu) | x.x) != 0u);",
            DType::F64 => unreachable!("src == dst"),
            DType::C64 | DType::C128 => unreachable!("complex copies go part by part"),
        }
    } else {
        match src {
            DType::F32 | DType::F16 => "return f64s_from_f32_bits(bitcast<u32>(x));",
            DType::I64 => "return f64s_from_i64(x);",
            DType::U64 => "return f64s_from_u64(x);",
            d if d.wgsl_compute() == "i32" => {
                "return f64s_from_i64(vec2<u32>(bitcast<u32>(x), select(0u, 0xffffffffu, x < 0)));"
            }
            _ => "return f64s_from_u64(vec2<u32>(x, 0u));",
        }
    };
    s += &format!("fn convert(x: SrcC) -> DstC {{ {body} }}\n");
    s + include_str!("../../shaders/copy.wgsl") + include_str!("../../shaders/strided_walk.wgsl")
}

/// Whether `d` is stored as a word pair.
fn is_pair(d: DType) -> bool {
    matches!(d, DType::I64 | DType::U64)
}

/// The word dtype whose WGSL type is `d`'s compute type (f16 computes as f32, the packed
/// integers as i32/u32), for the helpers written per word dtype.
fn compute_dtype(d: DType) -> DType {
    match d {
        DType::F16 => DType::F32,
        DType::I8 | DType::I16 => DType::I32,
        DType::U8 | DType::U16 => DType::U32,
        other => other,
    }
}
