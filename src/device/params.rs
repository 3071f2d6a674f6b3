//! Packing kernel parameters into the byte layout of WGSL uniform structs, and the block
//! parameters every strided kernel shares.

use super::DeviceInner;
use super::blocks::{Block, BlockLimits, MAX_RANK, Window};
use crate::error::{Error, Result};

/// A uniform struct under construction; fields are appended at their WGSL offsets.
#[derive(Default)]
pub(crate) struct Params(Vec<u8>);

impl Params {
    pub fn bytes(&self) -> &[u8] {
        &self.0
    }
    fn align(&mut self, to: usize) {
        self.0.resize(self.0.len().next_multiple_of(to), 0);
    }
    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.align(4);
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn i32(&mut self, v: i32) -> &mut Self {
        self.align(4);
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn f32(&mut self, v: f32) -> &mut Self {
        self.align(4);
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn f64(&mut self, v: f64) -> &mut Self {
        self.align(8);
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    /// A `vec2<u32>` word pair (a 64-bit integer, low word first; 8-byte aligned).
    pub fn u64(&mut self, v: u64) -> &mut Self {
        self.align(8);
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    /// `array<vec4<u32>, 2>`: up to 8 extents, unused ones 1.
    pub fn shape8(&mut self, shape: &[u64]) -> &mut Self {
        self.align(16);
        for k in 0..MAX_RANK {
            let n = shape.get(k).copied().unwrap_or(1);
            self.0.extend_from_slice(&(n as u32).to_le_bytes());
        }
        self
    }
    /// `array<vec4<i32>, 2>`: up to 8 strides, unused ones 0.
    pub fn strides8(&mut self, strides: &[i64]) -> Result<&mut Self> {
        self.align(16);
        for k in 0..MAX_RANK {
            let s = strides.get(k).copied().unwrap_or(0);
            let s = i32::try_from(s).map_err(|_| {
                Error::overflow("dispatch", format!("stride {s} does not fit in i32"))
            })?;
            self.0.extend_from_slice(&s.to_le_bytes());
        }
        Ok(self)
    }
}

impl Params {
    /// The header every strided element-wise kernel reads for one block: the block's extents,
    /// each operand's strides, each operand's window-relative base, the rank and the count
    /// (the layout of `Params` in copy.wgsl, fill.wgsl and the element-wise skeletons).
    pub fn strided_block(&mut self, blk: &Block) -> Result<&mut Self> {
        self.shape8(&blk.shape);
        for s in &blk.strides {
            self.strides8(s)?;
        }
        for w in &blk.windows {
            self.i32(base_i32(w.base)?);
        }
        self.u32(blk.shape.len() as u32).u32(block_count(blk)?);
        Ok(self)
    }
}

/// The per-block index range in u32, checked.
pub(crate) fn block_count(b: &Block) -> Result<u32> {
    u32::try_from(b.numel())
        .map_err(|_| Error::overflow("dispatch", format!("block of {} elements", b.numel())))
}

pub(crate) fn base_i32(base: i64) -> Result<i32> {
    i32::try_from(base).map_err(|_| Error::overflow("dispatch", format!("window base {base}")))
}

impl DeviceInner {
    /// The limits a launch's blocks must respect on this device.
    pub(crate) fn block_limits(&self) -> BlockLimits {
        BlockLimits {
            max_binding: self
                .limits
                .max_storage_buffer_binding_size
                .min(self.limits.max_buffer_size),
            offset_alignment: self.limits.min_storage_buffer_offset_alignment as u64,
            max_elems: 1 << 30,
        }
    }

    /// The largest binding window on this device (see [`BlockLimits::max_window`]).
    pub(crate) fn max_window(&self) -> u64 {
        self.block_limits().max_window()
    }

    /// The window covering elements `lo..=hi` of a buffer of `buffer_bytes`, with `first` the
    /// element whose window-relative index is reported; `None` when larger than
    /// [`DeviceInner::max_window`].
    pub(crate) fn window(
        &self,
        lo: i64,
        hi: i64,
        first: i64,
        elem_bytes: u64,
        buffer_bytes: u64,
    ) -> Option<Window> {
        let limits = self.block_limits();
        limits
            .span_window(lo, hi, first, elem_bytes, buffer_bytes)
            .filter(|w| w.byte_size <= limits.max_window())
    }
}
