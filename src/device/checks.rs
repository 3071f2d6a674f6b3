//! The checks every array constructor makes before it allocates: the buffer size against the
//! adapter's limit, the dtype against what the adapter offers.

use super::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};

/// Checks every array constructor makes before it allocates.
impl Device {
    /// The bytes of `numel` elements of `dtype`, or `Err(TooLarge)` past the adapter's
    /// `max_buffer_size`. Host code that sizes a vector from the caller's numbers (random
    /// indices, say) checks the array it will upload or produce with this first, so a request
    /// the device could never hold fails before the host allocates for it.
    pub(crate) fn check_buffer_size(
        &self,
        op: &'static str,
        numel: usize,
        dtype: DType,
    ) -> Result<u64> {
        let bytes = (numel as u64)
            .checked_mul(dtype.size_bytes())
            .ok_or_else(|| {
                Error::overflow(
                    op,
                    format!("{numel} elements of {dtype} need 2^64 bytes or more, past any buffer"),
                )
            })?;
        let max = self.inner.limits.max_buffer_size;
        if bytes > max {
            return Err(Error::TooLarge {
                op,
                requested: bytes,
                max,
                what: "max_buffer_size",
            });
        }
        Ok(bytes)
    }

    /// `Err(Unsupported)` unless arrays of `dtype` can live on this device.
    pub(crate) fn check_dtype(&self, op: &'static str, dtype: DType) -> Result<()> {
        self.inner.check_alive(op)?;
        if self.supports(dtype) {
            return Ok(());
        }
        let feature = match dtype {
            DType::F16 => "SHADER_F16 (WGSL `enable f16`)",
            DType::F64 => "SHADER_F64 (native-only; not in WebGPU or Metal)",
            _ => "a feature this adapter lacks",
        };
        Err(Error::Unsupported {
            op,
            feature: format!(
                "dtype {dtype} needs the adapter feature {feature}, which {} does not offer",
                self.info().name
            ),
        })
    }
}
