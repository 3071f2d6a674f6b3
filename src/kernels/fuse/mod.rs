//! `fuse`: a chain of array operations traced once into an expression and run as one
//! generated kernel — element-wise, or map-reduce when the chain ends in a reduction — with
//! the op table's own WGSL, so the fused result has the unfused ops' bits (`lower.rs`).
//! `GPUARRAY_LOG` names the kernel with its ops (`fused[exp,mul,add,sum]`); `GPUARRAY_LOG=2`
//! prints its WGSL.

mod expr;
mod lower;

pub use expr::Expr;

use crate::array::Array;
use crate::error::{Error, Result};

/// A fused function: see [`fuse`].
#[derive(Debug, Clone)]
pub struct Fused {
    root: Expr,
    inputs: usize,
}

/// Traces `f` over `N` inputs into one kernel: element-wise ops, `where`, casts and scalars,
/// optionally ending in a reduction (`sum`, `prod`, `max`, `min`, `mean`) followed by more
/// element-wise ops. A reduction inside the chain is computed first by a kernel of its own.
/// Broadcasting, scalars (they adopt the array's dtype), dtype rules and NaN semantics are the
/// unfused ops'; element-wise results have the same bits as the unfused ops (the same WGSL
/// functions), and a fused sum adds in a fixed order of its own (not the unfused sum's).
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// use gpuarray::Array;
/// let f = gpuarray::fuse(|[x, w, b]| (x.exp() * w + b).sum(-1, false));
/// let x = Array::from_slice(&dev, &[0.0f32, 1.0, 2.0, 3.0], &[2, 2])?;
/// let w = Array::from_slice(&dev, &[2.0f32, 0.5], &[2])?;
/// let b = Array::from_slice(&dev, &[1.0f32], &[1])?;
/// let y = f.call(&[&x, &w, &b])?;
/// let want = [2.0 + 1.0 + 0.5 * 1f32.exp() + 1.0, 2.0 * 2f32.exp() + 1.0 + 0.5 * 3f32.exp() + 1.0];
/// let got = y.to_vec::<f32>()?;
/// assert!((got[0] - want[0]).abs() < 1e-5 && (got[1] - want[1]).abs() < 1e-4);
/// # Ok(()) }
/// ```
pub fn fuse<const N: usize>(f: impl FnOnce([Expr; N]) -> Expr) -> Fused {
    let inputs: [Expr; N] = std::array::from_fn(Expr::input);
    Fused {
        root: f(inputs),
        inputs: N,
    }
}

impl Fused {
    /// A fused function of `inputs` inputs from a traced expression (whose leaves are
    /// [`Expr::arg`]s below `inputs`).
    pub fn new(root: Expr, inputs: usize) -> Fused {
        Fused { root, inputs }
    }

    /// Runs the fused kernels on `args` (one array per input, on one device).
    pub fn call(&self, args: &[&Array]) -> Result<Array> {
        if args.len() != self.inputs {
            return Err(Error::invalid(
                lower::OP,
                format!(
                    "the fused function takes {} array(s), {} were given",
                    self.inputs,
                    args.len()
                ),
            ));
        }
        let first = args
            .first()
            .ok_or_else(|| Error::invalid(lower::OP, "a fused function needs an array input"))?;
        for a in &args[1..] {
            first.same_device(lower::OP, a)?;
        }
        lower::evaluate(first.device(), &self.root, args, &mut Default::default())
    }
}

impl Expr {
    /// Input `k` of a fused function built with [`Fused::new`].
    pub fn arg(k: usize) -> Expr {
        Expr::input(k)
    }
}
