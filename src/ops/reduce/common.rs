//! What the reduction kernels and the scans share: the ops and their accumulator dtypes, strided
//! axis groups, partial buffers and whole-array bindings.

pub(crate) use super::op_codes::ReduceOp;
use crate::array::Array;
use crate::device::blocks::collapse;
use crate::device::params::Params;
use crate::device::{Binding, DeviceInner};
use crate::dtype::DType;
use crate::error::{Error, Result};

/// What every reduction launcher is asked: on which device, for which call (named in errors),
/// which op, from which input dtype into which output dtype.
#[derive(Clone, Copy)]
pub(crate) struct Reduction<'a> {
    pub dev: &'a DeviceInner,
    pub opname: &'static str,
    pub op: ReduceOp,
    pub dtype: DType,
    pub out_dtype: DType,
}

/// The accumulator/partial dtype for `op` on `dtype`.
pub(crate) fn partial_dtype(op: ReduceOp, dtype: DType) -> DType {
    match op {
        ReduceOp::Any | ReduceOp::All => DType::Bool,
        _ if dtype == DType::F16 => DType::F32,
        _ => dtype,
    }
}

/// Strided axes of one group (at most 4).
#[derive(Debug, Clone)]
pub(crate) struct Group {
    pub shape: Vec<u64>,
    pub strides: Vec<i64>,
}

impl Group {
    pub(crate) fn numel(&self) -> u64 {
        self.shape.iter().product()
    }
    pub(crate) fn collapsed(shape: &[u64], strides: &[i64]) -> Group {
        let (s, st) = collapse(shape, &[strides.to_vec()]);
        if s.is_empty() {
            return Group {
                shape: vec![1],
                strides: vec![0],
            };
        }
        Group {
            shape: s,
            strides: st.into_iter().next().expect("one operand"),
        }
    }
    pub(crate) fn push(&self, p: &mut Params) {
        for k in 0..4 {
            p.u32(self.shape.get(k).copied().unwrap_or(1) as u32);
        }
        for k in 0..4 {
            p.i32(self.strides.get(k).copied().unwrap_or(0) as i32);
        }
    }
}

pub(crate) fn u32_of(v: u64, what: &str) -> Result<u32> {
    u32::try_from(v).map_err(|_| Error::overflow("reduce", format!("{what} {v} exceeds u32")))
}

/// Partials `[m, p]`, as a flat array with 4 spare elements at the end so that even one row of
/// fewer than 4 partials can be bound as vec4s (the spare elements are never read).
pub(crate) fn new_partials(
    opname: &'static str,
    like: &Array,
    m: u64,
    p: u64,
    acc: DType,
) -> Result<Array> {
    Array::empty(opname, like.device(), &[(m * p + 4) as usize], acc)
}

/// The binding of a whole fresh array.
pub(crate) fn whole(a: &Array) -> Binding<'_> {
    let (s, _) = a.storage_and_layout();
    Binding {
        buffer: s.buffer().expect("non-empty"),
        offset: 0,
        size: (a.len() as u64 * a.dtype().size_bytes()).next_multiple_of(4),
    }
}
