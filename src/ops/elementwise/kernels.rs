//! The launches of the element-wise kernels (`families.rs`) over blocks, for an op set and code
//! the op table's rules chose.
//!
//! Every launch is planned by `device::blocks::plan` over the output's shape with one operand per
//! input (broadcast axes have stride 0: nothing is materialised) plus the output. A block whose
//! operands are all contiguous, start at a multiple of 4 elements and hold a multiple of 4
//! elements takes the `vec4` skeleton; any other block takes the strided one. Scalars travel in
//! the uniform parameters (`SCALAR` override), so `a + 2.0` is one dispatch with no upload.

use super::families::{Form, WHERE, WHERE_VEC4, family};
use super::rules::OpSet;
use crate::array::Array;
use crate::device::blocks::{Block, BlockOperand, collapse, plan};
use crate::device::params::{Params, block_count};
use crate::device::{Binding, PipelineKey, Variant};
use crate::dtype::DType;
use crate::error::{Error, Result};

/// A scalar converted to an array's dtype, as the kernels receive it.
#[derive(Debug, Clone, Copy)]
pub(crate) enum ScalarValue {
    F32(f32),
    F64(f64),
    I32(i32),
    U32(u32),
    /// A 64-bit integer's word pair.
    U64(u64),
}

impl ScalarValue {
    /// `value` in `dtype`: floats round, integers must be exact and in range, bools 0 or 1.
    pub fn new(op: &'static str, dtype: DType, value: f64) -> Result<ScalarValue> {
        let bad = || {
            Error::invalid(
                op,
                format!(
                    "the scalar {value} cannot be represented exactly in dtype {dtype} (scalars adopt the array's dtype; use astype)"
                ),
            )
        };
        Ok(match dtype {
            DType::F32 | DType::F16 => ScalarValue::F32(value as f32),
            DType::F64 => ScalarValue::F64(value),
            d if d.is_int() => {
                // [lo, end) of the dtype, both exact in f64.
                let bits = 8 * d.size_bytes() as i32;
                let (lo, end) = if d.is_signed_int() {
                    (-(2f64.powi(bits - 1)), 2f64.powi(bits - 1))
                } else {
                    (0.0, 2f64.powi(bits))
                };
                if value.fract() != 0.0 || !(lo..end).contains(&value) {
                    return Err(bad());
                }
                match d {
                    DType::I64 => ScalarValue::U64(value as i64 as u64),
                    DType::U64 => ScalarValue::U64(value as u64),
                    _ if d.is_signed_int() => ScalarValue::I32(value as i32),
                    _ => ScalarValue::U32(value as u32),
                }
            }
            DType::Bool => {
                if value != 0.0 && value != 1.0 {
                    return Err(bad());
                }
                ScalarValue::U32(value as u32)
            }
            _ => unreachable!("every dtype is a float, an integer or bool"),
        })
    }

    fn push(self, p: &mut Params) {
        match self {
            ScalarValue::F32(v) => p.f32(v),
            ScalarValue::F64(v) => p.f64(v),
            ScalarValue::I32(v) => p.i32(v),
            ScalarValue::U32(v) => p.u32(v),
            ScalarValue::U64(v) => p.u64(v),
        };
    }
}

fn block_operand(a: &Array) -> BlockOperand {
    let (storage, layout) = a.storage_and_layout();
    BlockOperand {
        offset: layout.offset as i64,
        strides: layout.strides.iter().map(|&s| s as i64).collect(),
        elem_bytes: a.dtype().size_bytes(),
        buffer_bytes: storage.bytes(),
    }
}

/// Plans blocks over `out`'s shape for `arrays` (inputs broadcast to it, then `out`); also
/// the launches of kernels generated at run time.
pub(crate) fn blocks_for(op: &'static str, arrays: &[&Array]) -> Result<Vec<Block>> {
    let out = arrays.last().expect("an output");
    let shape: Vec<u64> = out.shape().iter().map(|&n| n as u64).collect();
    let mut operands: Vec<BlockOperand> = arrays.iter().map(|a| block_operand(a)).collect();
    let strides: Vec<Vec<i64>> = operands.iter().map(|o| o.strides.clone()).collect();
    let (shape, strides) = collapse(&shape, &strides);
    for (o, s) in operands.iter_mut().zip(strides) {
        o.strides = s;
    }
    plan(op, &shape, &operands, out.device().inner.block_limits())
}

/// Whether a block can use the vec4 skeleton.
fn vec4_block(b: &Block) -> bool {
    b.shape.len() == 1
        && b.numel().is_multiple_of(4)
        && b.strides.iter().all(|s| s[0] == 1)
        && b.windows.iter().all(|w| w.base % 4 == 0)
}

fn bindings<'a>(arrays: &[&'a Array], b: &Block) -> Vec<Binding<'a>> {
    arrays
        .iter()
        .zip(&b.windows)
        .map(|(a, w)| Binding::of(a.storage.buffer().expect("non-empty"), w))
        .collect()
}

/// `out = op(a, b)` (or with a scalar on one side) for inputs already broadcast to `out`'s shape;
/// `out` shares no storage with the inputs.
pub(crate) fn binary_into(
    op: &'static str,
    set: OpSet,
    code: u32,
    a: &Array,
    b: Option<&Array>,
    scalar: Option<(ScalarValue, bool)>,
    out: &Array,
) -> Result<()> {
    let dev = &out.device.inner;
    dev.check_alive(op)?;
    if out.is_empty() {
        return Ok(());
    }
    // With a scalar, binding 2 repeats binding 1 (read-only twice is allowed) and is not read.
    let mode = match scalar {
        None => 0,
        Some((_, false)) => 1,
        Some((_, true)) => 2,
    };
    let b = b.unwrap_or(a);
    let arrays = [a, b, out];
    let blocks = blocks_for(op, &arrays)?;
    let variant = Variant::one(a.dtype());
    let scalar = scalar.map_or(
        ScalarValue::new(op, a.dtype(), 0.0).expect("zero fits"),
        |s| s.0,
    );
    dev.guarded(op, || {
        for blk in &blocks {
            let binds = bindings(&arrays, blk);
            let mut p = Params::default();
            if vec4_block(blk) && dev.one_word_elements(a.dtype()) {
                let key = PipelineKey::new(family(set, Form::Vec4), variant)
                    .with("EPT", 4)
                    .with("OP", code)
                    .with("SCALAR", mode);
                for w in &blk.windows {
                    p.u32((w.base / 4) as u32);
                }
                p.u32(block_count(blk)? / 4);
                scalar.push(&mut p);
                dev.dispatch(&key, p.bytes(), &binds, blk.numel() / 4, &blk.shape)?;
            } else {
                let key = PipelineKey::new(family(set, Form::Strided), variant)
                    .with("OP", code)
                    .with("SCALAR", mode);
                p.strided_block(blk)?;
                scalar.push(&mut p);
                dev.dispatch(&key, p.bytes(), &binds, blk.numel(), &blk.shape)?;
            }
        }
        Ok(())
    })
}

/// `out = op(a)` for `a` of `out`'s shape; `out` shares no storage with `a`.
pub(crate) fn unary_into(
    op: &'static str,
    set: OpSet,
    code: u32,
    a: &Array,
    out: &Array,
) -> Result<()> {
    let dev = &out.device.inner;
    dev.check_alive(op)?;
    if out.is_empty() {
        return Ok(());
    }
    let arrays = [a, out];
    let blocks = blocks_for(op, &arrays)?;
    let variant = Variant::one(a.dtype());
    dev.guarded(op, || {
        for blk in &blocks {
            let binds = bindings(&arrays, blk);
            let mut p = Params::default();
            if vec4_block(blk) && dev.one_word_elements(a.dtype()) {
                let key = PipelineKey::new(family(set, Form::Vec4), variant)
                    .with("EPT", 4)
                    .with("OP", code);
                for w in &blk.windows {
                    p.u32((w.base / 4) as u32);
                }
                p.u32(block_count(blk)? / 4);
                dev.dispatch(&key, p.bytes(), &binds, blk.numel() / 4, &blk.shape)?;
            } else {
                let key = PipelineKey::new(family(set, Form::Strided), variant).with("OP", code);
                p.strided_block(blk)?;
                dev.dispatch(&key, p.bytes(), &binds, blk.numel(), &blk.shape)?;
            }
        }
        Ok(())
    })
}

/// One side of `where`: an array broadcast to the output's shape, or a scalar (representable
/// in the output's dtype: `ScalarValue::new` checked it).
#[derive(Clone, Copy)]
pub(crate) enum Side<'a> {
    Array(&'a Array),
    Scalar(f64),
}

/// `out = where(cond, a, b)` for inputs broadcast to `out`'s shape (cond is bool). Blocks whose
/// array operands are all contiguous take the vec4 kernel with scalars in its parameters; any
/// other block takes the strided one, a scalar side then read from a 0-d array.
pub(crate) fn where_into(
    op: &'static str,
    cond: &Array,
    a: Side,
    b: Side,
    out: &Array,
) -> Result<()> {
    let dev = &out.device.inner;
    dev.check_alive(op)?;
    if out.is_empty() {
        return Ok(());
    }
    let dtype = out.dtype();
    // A scalar side's binding (not read) repeats the other side's array (`where_` refuses
    // two scalars: their dtype would be unknown).
    let stand_in = match (a, b) {
        (Side::Array(x), _) | (_, Side::Array(x)) => Some(x),
        _ => None,
    };
    let side = |s: Side<'_>, stand_in: &Array| match s {
        Side::Array(x) => x.clone(),
        Side::Scalar(_) => stand_in.clone(),
    };
    let planned = stand_in.map(|x| (side(a, x), side(b, x)));
    let scalar_of = |s: Side<'_>| -> Result<(bool, ScalarValue)> {
        Ok(match s {
            Side::Scalar(v) => (true, ScalarValue::new(op, dtype, v)?),
            Side::Array(_) => (false, ScalarValue::new(op, dtype, 0.0)?),
        })
    };
    let ((a_is, a_value), (b_is, b_value)) = (scalar_of(a)?, scalar_of(b)?);
    let contiguous = match &planned {
        // f16 scalars travel as f32 (ScalarValue): with a scalar, f16 takes the strided kernel
        // and a 0-d array filled from the f64 value.
        Some((pa, pb))
            if dev.one_word_elements(dtype) && (dtype != DType::F16 || !(a_is || b_is)) =>
        {
            let blocks = blocks_for(op, &[cond, pa, pb, out])?;
            blocks.iter().all(vec4_block).then_some(blocks)
        }
        _ => None,
    };
    if let (Some(blocks), Some((pa, pb))) = (contiguous, &planned) {
        let arrays = [cond, pa, pb, out];
        let key = PipelineKey::new(&WHERE_VEC4, Variant::one(dtype))
            .with("EPT", 4)
            .with("SCALAR", a_is as u32 | (b_is as u32) << 1);
        return dev.guarded(op, || {
            for blk in &blocks {
                let binds = bindings(&arrays, blk);
                let mut p = Params::default();
                for w in &blk.windows {
                    p.u32((w.base / 4) as u32);
                }
                p.u32(block_count(blk)? / 4);
                a_value.push(&mut p);
                b_value.push(&mut p);
                dev.dispatch(&key, p.bytes(), &binds, blk.numel() / 4, &blk.shape)?;
            }
            Ok(())
        });
    }
    let strided = |s: Side<'_>| -> Result<Array> {
        match s {
            Side::Array(x) => Ok(x.clone()),
            Side::Scalar(v) => Array::full(out.device(), &[], v, dtype)?.broadcast_to(out.shape()),
        }
    };
    let (sa, sb) = (strided(a)?, strided(b)?);
    let arrays = [cond, &sa, &sb, out];
    let blocks = blocks_for(op, &arrays)?;
    let key = PipelineKey::new(&WHERE, Variant::one(dtype));
    dev.guarded(op, || {
        for blk in &blocks {
            let binds = bindings(&arrays, blk);
            let mut p = Params::default();
            p.strided_block(blk)?;
            dev.dispatch(&key, p.bytes(), &binds, blk.numel(), &blk.shape)?;
        }
        Ok(())
    })
}
