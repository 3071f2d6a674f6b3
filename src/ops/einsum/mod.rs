//! einsum: parsing the subscripts with NumPy's rules (`parse`), planning the pairwise
//! contraction order (`path`), and lowering each step to GPU kernels.

pub(crate) mod lower;
pub(crate) mod parse;
pub(crate) mod path;

#[cfg(test)]
mod fuzz;
