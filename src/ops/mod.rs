//! The operations on arrays, one file or folder per family, each holding its `impl Array` methods
//! beside the host side of its kernels: building parameters, splitting launches into blocks that
//! fit the adapter's limits, and recording them.

mod closeness;
mod constructors;
pub(crate) mod einsum;
pub(crate) mod elementwise;
pub(crate) mod join;
pub(crate) mod linalg;
pub(crate) mod matmul;
pub(crate) mod reduce;
pub(crate) mod scan;
mod sort;
