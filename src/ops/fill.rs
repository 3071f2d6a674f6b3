//! Fills (`shaders/fill.wgsl`) and arithmetic sequences (`shaders/sequence.wgsl`).

use crate::array::Array;
use crate::device::blocks::{collapse, plan, Operand};
use crate::device::params::{base_i32, block_count, Params};
use crate::device::{Binding, Kernel, PipelineKey, Variant};
use crate::dtype::DType;
use crate::error::Result;

/// Appends a scalar in the type the kernels receive it as (`DType::wgsl_compute`).
fn push_value(p: &mut Params, dtype: DType, v: f64) {
    match dtype {
        DType::F32 | DType::F16 => p.f32(v as f32),
        DType::F64 => p.f64(v),
        DType::I32 => p.i32(v as i32),
        DType::U32 => p.u32(v as u32),
        // NumPy's bool(): anything but zero is true (NaN included).
        DType::Bool => p.u32(u32::from(v != 0.0)),
    };
}

/// Writes `value` (converted to the array's dtype) into every element of the view `dst`.
pub(crate) fn fill_view(op: &'static str, dst: &Array, value: f64) -> Result<()> {
    let dev = &dst.device.inner;
    dev.check_alive(op)?;
    if dst.is_empty() {
        return Ok(());
    }
    let (storage, layout) = dst.storage_and_layout();
    let buffer = storage.buffer().expect("non-empty");
    let shape: Vec<u64> = dst.shape().iter().map(|&n| n as u64).collect();
    let (shape, st) = collapse(
        &shape,
        &[layout.strides.iter().map(|&s| s as i64).collect()],
    );
    let operand = Operand {
        offset: layout.offset as i64,
        strides: st[0].clone(),
        elem_bytes: dst.dtype.size_bytes(),
        buffer_bytes: storage.bytes(),
    };
    let blocks = plan(op, &shape, &[operand], dev.block_limits())?;
    let key = PipelineKey::new(Kernel::Fill, Variant::one(dst.dtype));
    dev.guarded(op, || {
        for b in &blocks {
            let mut p = Params::default();
            p.strided_block(b)?;
            push_value(&mut p, dst.dtype, value);
            let w = &b.windows[0];
            dev.dispatch(
                &key,
                p.bytes(),
                &[Binding {
                    buffer,
                    offset: w.byte_offset,
                    size: w.byte_size,
                }],
                b.numel(),
                &b.shape,
            )?;
        }
        Ok(())
    })
}

/// How a sequence's values are defined.
pub(crate) enum Sequence {
    /// `start + i * step` for floats (computed in f32 for f16/f32, f64 for f64).
    Float {
        start: f64,
        step: f64,
        last: Option<f64>,
    },
    /// `start + i * step` with wrapping integer arithmetic.
    Int { start: i64, step: i64 },
}

/// Fills the fresh contiguous array `dst` with a sequence.
pub(crate) fn fill_sequence(op: &'static str, dst: &Array, seq: &Sequence) -> Result<()> {
    let dev = &dst.device.inner;
    let n = dst.len() as u64;
    if n == 0 {
        return Ok(());
    }
    let (storage, _) = dst.storage_and_layout();
    let buffer = storage.buffer().expect("non-empty");
    let operand = Operand {
        offset: 0,
        strides: vec![1],
        elem_bytes: dst.dtype.size_bytes(),
        buffer_bytes: storage.bytes(),
    };
    let blocks = plan(op, &[n], &[operand], dev.block_limits())?;
    let key = PipelineKey::new(Kernel::Sequence, Variant::one(dst.dtype));
    dev.guarded(op, || {
        for b in &blocks {
            let i0 = b.first_index;
            let count = block_count(b)?;
            let mut p = Params::default();
            let mut last_index = u32::MAX;
            match *seq {
                Sequence::Float { start, step, last } => {
                    // Each block starts at its own first value, so indices stay block-relative.
                    let s = start + i0 as f64 * step;
                    push_value(&mut p, dst.dtype, s);
                    push_value(&mut p, dst.dtype, step);
                    push_value(&mut p, dst.dtype, last.unwrap_or(0.0));
                    if last.is_some() && i0 + count as u64 == n {
                        last_index = count - 1;
                    }
                }
                Sequence::Int { start, step } => {
                    let s = start.wrapping_add((i0 as i64).wrapping_mul(step));
                    // Two's-complement wrapping: u32 sequences with negative steps count down.
                    let word = |v: i64| v as u32;
                    match dst.dtype {
                        DType::I32 => p.i32(s as i32).i32(step as i32).i32(0),
                        _ => p.u32(word(s)).u32(word(step)).u32(0),
                    };
                }
            }
            p.u32(count)
                .u32(last_index)
                .u32(base_i32(b.windows[0].base)? as u32);
            let w = &b.windows[0];
            dev.dispatch(
                &key,
                p.bytes(),
                &[Binding {
                    buffer,
                    offset: w.byte_offset,
                    size: w.byte_size,
                }],
                b.numel(),
                &b.shape,
            )?;
        }
        Ok(())
    })
}
