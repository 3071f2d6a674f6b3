//! The operations on arrays, one file or folder per family, each holding its `impl Array` methods
//! beside the host side of its kernels: building parameters, splitting launches into blocks that
//! fit the adapter's limits, and recording them.

mod closeness;
mod constructors;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod counting;
pub(crate) mod einsum;
pub(crate) mod elementwise;
pub(crate) mod join;
pub(crate) mod linalg;
pub(crate) mod masks;
pub(crate) mod matmul;
pub(crate) mod reduce;
pub(crate) mod scan;
pub(crate) mod search;
pub(crate) mod sort;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod unique;

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
