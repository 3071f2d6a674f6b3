//! The host side of each kernel family: building parameters, splitting launches into blocks
//! that fit the adapter's limits, and recording them.

mod constructors;
pub(crate) mod einsum;
pub(crate) mod elementwise;
pub(crate) mod join;
pub(crate) mod linalg;
pub(crate) mod matmul;
pub(crate) mod reduce;
pub(crate) mod scan;
