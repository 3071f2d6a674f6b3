//! # gpuarray
//!
//! NumPy-style N-dimensional arrays on any GPU that [`wgpu`] reaches — Vulkan, Metal, DX12, GL —
//! and on CPUs through Mesa's lavapipe. Kernels are WGSL compute shaders compiled when a
//! [`Device`] starts; arrays draw memory from a caching pool; the device records kernels into
//! batched command buffers and submits them on readback or [`Device::synchronize`].
//!
//! (`no_run`: the doc tests compile this example but do not run it, since it draws 125 M
//! normals, 500 MB; every other example in these docs runs as a test.)
//!
//! ```no_run
//! use gpuarray::{Array, DType, Device, SliceArg};
//!
//! fn main() -> gpuarray::Result<()> {
//!     // The best adapter: a discrete GPU, else an integrated one, else a CPU (lavapipe).
//!     let dev = Device::new()?;
//!     println!("running on {}", dev.info());
//!
//!     // Upload, view without copying, convert on the GPU, read back.
//!     let a = Array::from_slice(&dev, &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
//!     let t = a.transpose(&[1, 0])?;                          // (3, 2) view
//!     let rev = t.slice(&[SliceArg::range(None, None, -1)])?; // t[::-1]
//!     let d = rev.astype(DType::F64)?;                        // cast kernel
//!     assert_eq!(d.to_vec::<f64>()?, vec![3.0, 6.0, 2.0, 5.0, 1.0, 4.0]);
//!
//!     // Arrays made on the GPU, random ones too (Philox4x32-10, the same bits on every adapter).
//!     let r = Array::arange(&dev, 0.0, 1e6, 1.0, DType::F32)?;
//!     let e = Array::eye(&dev, 4, DType::I32)?;
//!     let mut g = gpuarray::random::Generator::new(&dev, 42);
//!     let x = g.standard_normal(&[500, 500, 500], DType::F32)?;
//!     dev.synchronize()?;
//!     println!("{:?} {:?} pool: {:?}", r, e, dev.memory_stats());
//!     Ok(())
//! }
//! ```
//!
//! Set `GPUARRAY_LOG=1` to print one line per kernel launch (kernel, dtype, shape, workgroups,
//! adapter; with its GPU time under a profile). Adapter choice: `GPUARRAY_BACKEND`,
//! `GPUARRAY_ADAPTER`, `GPUARRAY_FORCE_FALLBACK=1`.
//!
//! Timing: [`Device::profile`] records every launch of a closure with its GPU time (timestamp
//! queries) and prints a per-kernel table or writes a Chrome trace ([`Profile`]); [`benchmark`]
//! times repeated calls, always after synchronising; `GPUARRAY_PROFILE=trace.json` profiles a
//! whole run.

#![warn(missing_docs)]

mod array;
mod device;
mod dtype;
mod error;
pub mod fft;
#[cfg(any(feature = "ndarray", feature = "npy"))]
mod interop;
mod kernels;
mod layout;
pub mod linalg;
mod memory;
pub(crate) mod ops;
pub mod random;
mod registry;

pub use array::{Array, PrintOptions};
pub use device::profile;
#[cfg(not(target_arch = "wasm32"))]
pub use device::profile::benchmark;
pub use device::profile::{BenchOptions, BenchReport, Profile};
#[cfg(not(target_arch = "wasm32"))]
pub use device::{AdapterInfo, adapters, adapters_with, prepare_exit};
pub use device::{
    Backend, CompileMode, CompileStats, Device, DeviceConfig, DeviceInfo, DeviceOptions, F16Mode,
    F64Mode, IndexDType, MAX_TIMEOUT, MathMode, ShaderVariant,
};
pub use dtype::{DType, Element};
pub use error::{Error, Result};
/// The host type of [`DType::F16`] elements (from the `half` crate).
pub use half::f16;
#[cfg(feature = "ndarray")]
pub use interop::ndarray::HostElement;
#[cfg(all(feature = "npy", not(target_arch = "wasm32")))]
pub use interop::npy::{load_npz, savez, savez_compressed};
pub use kernels::{Arg, ElementwiseKernel, Expr, Fused, RawArg, RawKernel, ReductionKernel, fuse};
pub use layout::{Axes, SliceArg};
pub use memory::MemoryStats;
pub use num_complex::{Complex, Complex32, Complex64};
#[cfg(not(target_arch = "wasm32"))]
pub use ops::counting::HistogramBins;
pub use ops::einsum::lower::{einsum, einsum_path, einsum_with};
pub use ops::einsum::path::{EinsumPath, Strategy as EinsumStrategy};
// The binary element-wise ops as functions (`gpuarray::add`, ...), one per op table row.
pub use ops::elementwise::free_functions::*;
pub use ops::elementwise::{ElementwiseOp, Operand, elementwise_op, elementwise_ops, where_};
pub use ops::join::{concatenate, stack};
pub use ops::linalg::matmul;
#[cfg(not(target_arch = "wasm32"))]
pub use ops::masks::extract;
pub use ops::matmul::{MatmulKernel, MatmulTuning};
pub use ops::pad::PadMode;
pub use ops::reduce::Reduction;
pub use ops::search::Side;
pub use ops::sort::lexsort;
#[cfg(not(target_arch = "wasm32"))]
pub use ops::unique::Unique;
pub use registry::{shader_pipelines, shader_variants};
