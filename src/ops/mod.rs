//! The operations on arrays, one file or folder per family, each holding its `impl Array` methods
//! beside the host side of its kernels: building parameters, splitting launches into blocks that
//! fit the adapter's limits, and recording them.

mod closeness;
pub(crate) mod constructors;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod counting;
pub(crate) mod einsum;
pub(crate) mod elementwise;
pub(crate) mod join;
pub(crate) mod linalg;
pub(crate) mod masks;
pub(crate) mod matmul;
pub(crate) mod pad;
pub(crate) mod reduce;
pub(crate) mod scan;
pub(crate) mod search;
pub(crate) mod sort;
pub(crate) mod take;
mod triangle;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod unique;

/// `a` (indices or counts the kernels computed as i32) in the device's index dtype
/// ([`crate::Device::index_dtype`]: int64 unless configured otherwise).
pub(crate) fn as_index(a: crate::array::Array) -> crate::error::Result<crate::array::Array> {
    let dtype = a.device().inner.index_dtype;
    if a.dtype() == dtype {
        Ok(a)
    } else {
        a.astype(dtype)
    }
}

/// The binding of `a`'s buffer from its start through its first `elements` elements past its
/// offset (kernels that take the offset as a parameter; at most the buffer).
pub(crate) fn array_binding(
    a: &crate::array::Array,
    elements: u64,
    elem_bytes: u64,
) -> crate::error::Result<crate::device::Binding<'_>> {
    let buffer = a.storage.buffer().ok_or_else(|| {
        crate::error::Error::invalid("bind", "an empty array has no buffer to bind")
    })?;
    let bytes = ((a.layout.offset as u64 + elements) * elem_bytes)
        .next_multiple_of(4)
        .min(a.storage.bytes());
    Ok(crate::device::Binding {
        buffer,
        offset: 0,
        size: bytes,
    })
}

/// The binding window over elements `start..start + len` of the contiguous array `a` (past its
/// offset; `len` at least 1) and the window-relative index of element `start`, for kernels that
/// walk a large array one storage-binding window at a time.
pub(crate) fn contiguous_window<'a>(
    op: &'static str,
    a: &'a crate::array::Array,
    start: u64,
    len: u64,
    elem_bytes: u64,
) -> crate::error::Result<(crate::device::Binding<'a>, u32)> {
    let buffer = a
        .storage
        .buffer()
        .ok_or_else(|| crate::error::Error::invalid(op, "an empty array has no buffer to bind"))?;
    let lo = a.layout.offset as i64 + start as i64;
    let hi = lo + len as i64 - 1;
    let window = a
        .device
        .inner
        .window(lo, hi, lo, elem_bytes, a.storage.bytes())
        .ok_or_else(|| {
            crate::error::Error::overflow(
                op,
                format!("a window of {len} elements of {elem_bytes} bytes"),
            )
        })?;
    Ok((
        crate::device::Binding::of(buffer, &window),
        window.base as u32,
    ))
}

/// Elements of `elem_bytes` in one storage-binding window, less the alignment slack a window's
/// rounded-down offset can add: the longest run of elements [`contiguous_window`] always binds.
pub(crate) fn window_elements(dev: &crate::device::DeviceInner, elem_bytes: u64) -> u64 {
    (dev.max_window() - dev.block_limits().offset_alignment) / elem_bytes
}
