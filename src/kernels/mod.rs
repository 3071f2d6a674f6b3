//! User kernels and fusion: CuPy's `ElementwiseKernel`, `ReductionKernel` and `RawKernel` with
//! WGSL bodies, and [`fuse`], which turns a chain of array operations into one kernel.
//!
//! Every kernel here is WGSL generated at run time (`module.rs`): our text — the op table's
//! functions (`ops::elementwise::OpLibrary`), the element access of `device`, a skeleton —
//! with its top-level names in a `gpa_` namespace user text may not use, and the user's text
//! — parameters, body, preamble — with calls of NumPy's names going to the op table's math.
//! naga checks a module before wgpu sees it, so a bad body is an `Err` with the line and
//! column in the user's text. Pipelines are cached per device (`cache.rs`) by everything
//! their source depends on.
//!
//! - `params.rs`: CuPy's parameter lists and type placeholders; `types.rs`: how a dtype
//!   appears in a kernel; `text.rs`: the WGSL lexing that keeps the two texts apart.
//! - `map.rs`: element-wise kernels over broadcast, strided arrays, in blocks past one binding
//!   (their WGSL in `map_wgsl.rs`)
//!   (under `ElementwiseKernel` in `elementwise.rs`, and element-wise fusion); `reduce.rs`:
//!   map-reduce kernels in stages of fixed order (under `ReductionKernel` in `reduction.rs`,
//!   and fused reductions); `raw.rs`: `RawKernel`, a whole module run as written;
//!   `fuse/`: traced expressions (`expr.rs`) lowered onto map and map-reduce kernels
//!   (`lower.rs`); `watchdog.rs`: loops in user text run on an iteration budget, so a kernel
//!   that would run forever stops and is `Err(Timeout)`.

pub(crate) mod cache;
mod elementwise;
mod fuse;
mod map;
mod map_wgsl;
mod module;
mod params;
mod raw;
mod reduce;
mod reduce_wgsl;
mod reduction;
mod text;
mod types;
mod watchdog;

pub use elementwise::{Arg, ElementwiseKernel};
pub use fuse::{Expr, Fused, fuse};
pub use raw::{RawArg, RawKernel};
pub use reduction::ReductionKernel;
