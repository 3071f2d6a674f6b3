//! Arrays made on the GPU — zeros, ones, full, arange, linspace, eye — and `fill`: the
//! `impl Array` methods, then their kernels' launch code: fills (`shaders/fill.wgsl`) and
//! arithmetic sequences (`shaders/sequence.wgsl`).

use crate::array::Array;
use crate::device::blocks::{BlockOperand, collapse, plan};
use crate::device::element_access::write_value;
use crate::device::params::{Params, base_i32, block_count};
use crate::device::{
    Binding, DEFAULT_EPT, DEFAULT_WG, Device, KernelDef, Needs, PipelineKey, Variant, When,
};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::{Layout, checked_numel};

impl Array {
    /// An array of zeros (cleared on the GPU, no upload).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let z = gpuarray::Array::zeros(&dev, &[3, 4], gpuarray::DType::F32)?;
    /// assert_eq!(z.to_vec::<f32>()?, vec![0.0; 12]);
    /// # Ok(()) }
    /// ```
    pub fn zeros(device: &Device, shape: &[usize], dtype: DType) -> Result<Array> {
        Array::zeros_op("zeros", device, shape, dtype)
    }

    /// `zeros` with the caller's name in errors.
    fn zeros_op(op: &'static str, device: &Device, shape: &[usize], dtype: DType) -> Result<Array> {
        let a = Array::empty(op, device, shape, dtype)?;
        if let Some(buffer) = a.storage.buffer() {
            let dev = &device.inner;
            dev.guarded(op, || {
                dev.record(|enc| enc.clear_buffer(buffer, 0, None));
                Ok(())
            })?;
        }
        Ok(a)
    }

    /// An array of ones.
    pub fn ones(device: &Device, shape: &[usize], dtype: DType) -> Result<Array> {
        Array::full_op("ones", device, shape, 1.0, dtype)
    }

    /// An array with every element `value` (converted to `dtype`: floats round to nearest,
    /// integers truncate toward zero; bool is `value != 0`). For integer dtypes a value that is
    /// NaN, infinite or out of range after truncation is `Err(InvalidArgument)`, where NumPy
    /// warns "invalid value encountered in cast" and fills garbage.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::full(&dev, &[2], 7.0, gpuarray::DType::I32)?;
    /// assert_eq!(a.to_vec::<i32>()?, vec![7, 7]);
    /// # Ok(()) }
    /// ```
    pub fn full(device: &Device, shape: &[usize], value: f64, dtype: DType) -> Result<Array> {
        Array::full_op("full", device, shape, value, dtype)
    }

    /// `full` with the caller's name in errors (`sum` of an empty axis fills its identity).
    pub(crate) fn full_op(
        op: &'static str,
        device: &Device,
        shape: &[usize],
        value: f64,
        dtype: DType,
    ) -> Result<Array> {
        check_fill_value(op, value, dtype)?;
        let a = Array::empty(op, device, shape, dtype)?;
        fill_view(op, &a, value)?;
        Ok(a)
    }

    /// Writes `value` into every element of this array or view (converted as
    /// [`Array::full`] converts it, with the same errors).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::zeros(&dev, &[3], gpuarray::DType::I32)?;
    /// a.fill(-2.7)?;
    /// assert_eq!(a.to_vec::<i32>()?, vec![-2, -2, -2]);
    /// assert!(a.fill(f64::NAN).is_err());
    /// # Ok(()) }
    /// ```
    pub fn fill(&self, value: f64) -> Result<()> {
        check_fill_value("fill", value, self.dtype)?;
        if self
            .layout
            .shape
            .iter()
            .zip(&self.layout.strides)
            .any(|(&n, &s)| n > 1 && s == 0)
        {
            return Err(Error::invalid(
                "fill",
                "cannot fill a broadcast view: it writes elements more than once",
            ));
        }
        fill_view("fill", self, value)
    }

    /// Evenly spaced values in `[start, stop)` with `step` (`numpy.arange`). For integer dtypes
    /// `start` and `step` must be whole numbers and the values are exact.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::arange(&dev, 10.0, 0.0, -3.0, gpuarray::DType::I32)?;
    /// assert_eq!(a.to_vec::<i32>()?, vec![10, 7, 4, 1]);
    /// # Ok(()) }
    /// ```
    pub fn arange(
        device: &Device,
        start: f64,
        stop: f64,
        step: f64,
        dtype: DType,
    ) -> Result<Array> {
        let op = "arange";
        if step == 0.0 || !step.is_finite() || !start.is_finite() || !stop.is_finite() {
            return Err(Error::invalid(
                op,
                format!(
                    "start {start}, stop {stop} and step {step} must be finite and step non-zero"
                ),
            ));
        }
        if dtype == DType::Bool {
            return Err(Error::invalid(
                op,
                "no arithmetic sequences of dtype bool (NumPy refuses them too)",
            ));
        }
        let len = ((stop - start) / step).ceil().max(0.0);
        if len > isize::MAX as f64 {
            return Err(Error::overflow(
                op,
                format!("arange({start:?}, {stop:?}, {step:?}) has {len:e} elements"),
            ));
        }
        if let Some((min, end)) = int_range(dtype).filter(|_| len > 0.0) {
            // The kernel's integer arithmetic wraps, so a value past the dtype's range would come
            // out with the wrong sign: refuse, naming the first value that does not fit.
            let last = start + (len - 1.0) * step;
            if let Some(bad) = [start, last].into_iter().find(|v| !(min..end).contains(v)) {
                return Err(Error::invalid(
                    op,
                    format!(
                        "arange({start:?}, {stop:?}, {step:?}) reaches {bad:?}, outside {dtype}'s \
                         range {min} <= value < {end}"
                    ),
                ));
            }
        }
        let a = Array::empty(op, device, &[len as usize], dtype)?;
        let seq = if dtype.is_float() {
            Sequence::Float {
                start,
                step,
                last: None,
            }
        } else {
            if start.fract() != 0.0 || step.fract() != 0.0 {
                return Err(Error::invalid(
                    op,
                    format!(
                        "start {start} and step {step} must be whole numbers for dtype {dtype}"
                    ),
                ));
            }
            Sequence::Int {
                start: start as i64,
                step: step as i64,
            }
        };
        fill_sequence(op, &a, &seq)?;
        Ok(a)
    }

    /// `num` evenly spaced values from `start` to `stop` inclusive (`numpy.linspace`); the last
    /// value is exactly `stop`. As NumPy does for float `start` and `stop`, the values are
    /// computed in f64 (`start + i * step`), then rounded to `dtype`, and integer dtypes take
    /// the floor first (NumPy 2): the same bits as NumPy. An adapter without f64 computes in
    /// `dtype` (integers: in f32, then the floor), within an ulp or two of that.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::linspace(&dev, 0.0, 1.0, 5, gpuarray::DType::F32)?;
    /// assert_eq!(a.to_vec::<f32>()?, vec![0.0, 0.25, 0.5, 0.75, 1.0]);
    /// # Ok(()) }
    /// ```
    pub fn linspace(
        device: &Device,
        start: f64,
        stop: f64,
        num: usize,
        dtype: DType,
    ) -> Result<Array> {
        let op = "linspace";
        if !start.is_finite() || !stop.is_finite() {
            return Err(Error::invalid(
                op,
                format!("start {start} and stop {stop} must be finite"),
            ));
        }
        if dtype != DType::F64 {
            // NumPy's arithmetic is f64's: computed there and rounded, where the adapter has it.
            let work = if device.supports(DType::F64) {
                DType::F64
            } else {
                DType::F32
            };
            if work != dtype {
                device.check_dtype(op, dtype)?;
                let wide = Array::linspace(device, start, stop, num, work)?;
                return if dtype.is_float() {
                    wide.astype(dtype)
                } else {
                    wide.floor()?.astype(dtype)
                };
            }
        }
        let a = Array::empty(op, device, &[num], dtype)?;
        let step = if num > 1 {
            (stop - start) / (num - 1) as f64
        } else {
            0.0
        };
        fill_sequence(
            op,
            &a,
            &Sequence::Float {
                start,
                step,
                last: Some(if num > 1 { stop } else { start }),
            },
        )?;
        Ok(a)
    }

    /// The `n`×`n` identity matrix.
    pub fn eye(device: &Device, n: usize, dtype: DType) -> Result<Array> {
        Array::eye_k(device, n, n, 0, dtype)
    }

    /// A `rows`×`cols` array with ones on diagonal `k` (`numpy.eye(N, M, k)`): `k > 0` above the
    /// main diagonal, `k < 0` below.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let e = gpuarray::Array::eye_k(&dev, 2, 3, 1, gpuarray::DType::I32)?;
    /// assert_eq!(e.to_vec::<i32>()?, vec![0, 1, 0, 0, 0, 1]);
    /// # Ok(()) }
    /// ```
    pub fn eye_k(
        device: &Device,
        rows: usize,
        cols: usize,
        k: isize,
        dtype: DType,
    ) -> Result<Array> {
        let op = "eye";
        checked_numel(op, &[rows, cols])?;
        let a = Array::zeros_op(op, device, &[rows, cols], dtype)?;
        // The diagonal is a strided view: start at (0, k) or (-k, 0), step cols + 1.
        let (r0, c0) = if k >= 0 {
            (0, k.unsigned_abs())
        } else {
            (k.unsigned_abs(), 0)
        };
        let len = rows.saturating_sub(r0).min(cols.saturating_sub(c0));
        if len > 0 {
            let diag = Layout {
                shape: vec![len],
                strides: vec![cols as isize + 1],
                offset: r0 * cols + c0,
            };
            fill_view(op, &a.with_layout(diag), 1.0)?;
        }
        Ok(a)
    }
}

/// The range of an integer dtype as f64, `[lo, hi)` (both ends exact), `None` for floats and
/// bool.
fn int_range(dtype: DType) -> Option<(f64, f64)> {
    let bits = 8 * dtype.size_bytes() as i32;
    match dtype {
        d if d.is_signed_int() => Some((-(2f64.powi(bits - 1)), 2f64.powi(bits - 1))),
        d if d.is_int() => Some((0.0, 2f64.powi(bits))),
        _ => None,
    }
}

/// `Err(InvalidArgument)` unless `value` converts to `dtype` by truncation: the fill kernel's
/// `as` conversion would turn NaN into 0 and 1e20 into `i32::MAX` without a word.
fn check_fill_value(op: &'static str, value: f64, dtype: DType) -> Result<()> {
    let Some((min, end)) = int_range(dtype) else {
        return Ok(());
    };
    let t = value.trunc();
    if value.is_finite() && t >= min && t < end {
        return Ok(());
    }
    Err(Error::invalid(
        op,
        format!(
            "cannot convert the fill value {value:?} to {dtype} (range {min} <= value < {end})"
        ),
    ))
}

// ---- launch code ----------------------------------------------------------------------------

/// Appends a scalar in the type the kernels receive it as (`DType::wgsl_compute`).
fn push_value(p: &mut Params, dtype: DType, v: f64) {
    match dtype {
        DType::F32 | DType::F16 => p.f32(v as f32),
        DType::F64 => p.f64(v),
        DType::I32 | DType::I8 | DType::I16 => p.i32(v as i32),
        DType::U32 | DType::U8 | DType::U16 => p.u32(v as u32),
        DType::I64 => p.u64(v as i64 as u64),
        DType::U64 => p.u64(v as u64),
        // NumPy's bool(): anything but zero is true (NaN included).
        DType::Bool => p.u32(u32::from(v != 0.0)),
        DType::C64 | DType::C128 => unreachable!("complex arrays are filled part by part"),
    };
}

/// Writes `value` (converted to the array's dtype) into every element of the view `dst`.
pub(crate) fn fill_view(op: &'static str, dst: &Array, value: f64) -> Result<()> {
    if dst.dtype.is_complex() {
        // value + 0j, part by part.
        fill_view(op, &dst.part(0), value)?;
        return fill_view(op, &dst.part(1), 0.0);
    }
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
    let operand = BlockOperand {
        offset: layout.offset as i64,
        strides: st[0].clone(),
        elem_bytes: dst.dtype.size_bytes(),
        buffer_bytes: storage.bytes(),
    };
    let blocks = plan(op, &shape, &[operand], dev.block_limits())?;
    let key = PipelineKey::new(&FILL, Variant::one(dst.dtype));
    dev.guarded(op, || {
        for b in &blocks {
            let mut p = Params::default();
            p.strided_block(b)?;
            // An f16 fill value rounded once, from the f64 (f64 -> f32 -> f16 can round twice).
            let value = match dst.dtype {
                DType::F16 => crate::f16::from_f64(value).to_f64(),
                _ => value,
            };
            push_value(&mut p, dst.dtype, value);
            let w = &b.windows[0];
            dev.dispatch(
                &key,
                p.bytes(),
                &[Binding::of(buffer, w)],
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
    let operand = BlockOperand {
        offset: 0,
        strides: vec![1],
        elem_bytes: dst.dtype.size_bytes(),
        buffer_bytes: storage.bytes(),
    };
    let blocks = plan(op, &[n], &[operand], dev.block_limits())?;
    let key = PipelineKey::new(&SEQUENCE, Variant::one(dst.dtype));
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
                        DType::I64 | DType::U64 => p.u64(s as u64).u64(step as u64).u64(0),
                        d if d.is_signed_int() => p.i32(s as i32).i32(step as i32).i32(0),
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
                &[Binding::of(buffer, w)],
                b.numel(),
                &b.shape,
            )?;
        }
        Ok(())
    })
}

/// Strided fill with a scalar (`zeros`, `full`, `eye`), declared for the device: every dtype,
/// compiled before `Device::new` returns.
pub(crate) static FILL: KernelDef = KernelDef {
    name: "fill",
    entry: "main",
    constants: &[("EPT", DEFAULT_EPT), ("WG", DEFAULT_WG)],
    ops_per_element: 0,
    uses_f32_math: KernelDef::no_f32_math,
    variants: KernelDef::every_dtype,
    wgsl: |v| {
        // Software f64 travels and is stored as its bits (a word pair); f16 travels as the f32
        // that holds it exactly.
        format!("alias V = {};\n", v.compute_wgsl(v.a))
            + &write_value("dst", 1, v, v.a)
            + include_str!("../../shaders/fill.wgsl")
            + include_str!("../../shaders/strided_walk.wgsl")
    },
    when: When::Immediate,
    eager: KernelDef::as_declared,
    needs: Needs::NONE,
    soft_f64: true,
    packed_f16: true,
    warm_up: false,
};

/// Arithmetic sequences (`arange`, `linspace`), declared for the device: every dtype but bool
/// (the 64-bit integers in word-pair arithmetic), compiled before `Device::new` returns.
pub(crate) static SEQUENCE: KernelDef = KernelDef {
    name: "sequence",
    variants: |dtypes| {
        dtypes
            .iter()
            .copied()
            .filter(|&d| d != DType::Bool)
            .map(Variant::one)
            .collect()
    },
    wgsl: |v| {
        let value = if v.is_soft(v.a) {
            // start + i * step in software binary64 (each step rounded, as the native path).
            crate::device::wgsl_helpers::soft_f64_library()
                + "fn seq_value(i: u32) -> C { return f64s_add(p.start, f64s_mul(f64s_from_u64(vec2<u32>(i, 0u)), p.step)); }\n"
        } else if matches!(v.a, DType::I64 | DType::U64) {
            concat!(
                include_str!("../../shaders/mulhilo.wgsl"),
                include_str!("../../shaders/int64.wgsl"),
                "fn seq_value(i: u32) -> C { return add64(p.start, mul64(vec2<u32>(i, 0u), p.step)); }\n"
            )
            .to_string()
        } else {
            "fn seq_value(i: u32) -> C { return p.start + C(i) * p.step; }\n".to_string()
        };
        format!("alias C = {};\n", v.compute_wgsl(v.a))
            + &write_value("dst", 1, v, v.a)
            + &value
            + include_str!("../../shaders/sequence.wgsl")
    },
    ..FILL
};
