//! The crate's error type: every fallible call returns [`Result`].
//!
//! Variants are structured so callers can match on them, and every message names the operation
//! and the shapes, dtypes or limits involved.

use crate::dtype::DType;
use std::time::Duration;

/// `std::result::Result` with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

/// Everything that can go wrong in gpuarray.
///
/// ```
/// use gpuarray::{DType, Error};
/// let e = Error::DTypeMismatch { op: "to_vec", expected: DType::F32, got: DType::I32 };
/// assert_eq!(e.to_string(), "to_vec: dtype mismatch: expected f32, got i32");
/// ```
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    // ---- adapter and device ----------------------------------------------------------------
    /// No adapter matched the request (or none exists). The message says what to install.
    #[error("no GPU adapter: {0}")]
    NoAdapter(String),
    /// The device was lost (destroyed, reset, or a driver failure); every later op fails fast.
    #[error("{op}: the GPU device was lost ({reason}); create a new Device")]
    DeviceLost {
        /// The operation that found the device lost.
        op: &'static str,
        /// Why the device was lost, as far as it is known (e.g. "Device::destroy was called").
        reason: String,
    },
    /// A wait for the GPU exceeded the device's timeout.
    #[error("{op}: timed out after {after:?} waiting for the GPU")]
    Timeout {
        /// The operation that waited.
        op: &'static str,
        /// How long it waited.
        after: Duration,
    },
    /// An array from one `Device` was passed to an op on another.
    #[error("{op}: arrays live on different devices ({lhs} vs {rhs})")]
    DeviceMismatch {
        /// The operation.
        op: &'static str,
        /// Description of the first device.
        lhs: String,
        /// Description of the second device.
        rhs: String,
    },
    /// The adapter lacks a feature the op or dtype needs.
    #[error("{op}: unsupported: {feature}")]
    Unsupported {
        /// The operation.
        op: &'static str,
        /// What is missing, e.g. `"dtype f64 needs the adapter feature SHADER_F64"`.
        feature: String,
    },
    /// A wgpu error that the host-side checks did not prevent (validation, internal).
    #[error("GPU error: {0}")]
    Gpu(String),

    // ---- memory ------------------------------------------------------------------------------
    /// The pool could not provide the memory, even after freeing its cache and retrying.
    #[error(
        "out of GPU memory: requested {requested} bytes with {in_use} bytes in use (limit {limit} bytes)"
    )]
    OutOfMemory {
        /// Bytes requested (after rounding to the pool's size class).
        requested: u64,
        /// Bytes held by live arrays at the time.
        in_use: u64,
        /// The pool limit in force (`u64::MAX` when none is set).
        limit: u64,
    },
    /// A single buffer larger than the adapter can ever hold, or a host allocation sized by the
    /// caller (`what` starting with "host") larger than the host can provide.
    #[error(
        "{op}: {requested} {} is larger than {} of {max} {0}",
        unit_of(what),
        limit_name(what)
    )]
    TooLarge {
        /// The operation.
        op: &'static str,
        /// Bytes requested.
        requested: u64,
        /// The limit.
        max: u64,
        /// Which limit, e.g. `"max_buffer_size"` (an adapter limit) or
        /// `"host allocation limit (isize::MAX bytes)"`.
        what: &'static str,
    },
    /// Size arithmetic overflowed (a shape whose product does not fit in 64 bits, say).
    #[error("{op}: size overflow: {msg}")]
    Overflow {
        /// The operation.
        op: &'static str,
        /// What overflowed.
        msg: String,
    },

    // ---- files -------------------------------------------------------------------------------
    /// A file could not be opened, read or written (the operating system's error).
    ///
    /// ```
    /// let e = gpuarray::Error::Io { op: "load_npy", path: "a.npy".into(), msg: "No such file".into() };
    /// assert_eq!(e.to_string(), "load_npy: a.npy: No such file");
    /// ```
    #[error("{op}: {path}: {msg}")]
    Io {
        /// The operation.
        op: &'static str,
        /// The file.
        path: String,
        /// The operating system's message.
        msg: String,
    },
    /// A file's contents are not what its format requires: a wrong magic string, a corrupt
    /// header, data shorter than the header says (a truncated file), a broken archive.
    ///
    /// ```
    /// let e = gpuarray::Error::InvalidFile { op: "load_npy", path: "a.npy".into(), msg: "truncated".into() };
    /// assert_eq!(e.to_string(), "load_npy: a.npy: not a valid file: truncated");
    /// ```
    #[error("{op}: {path}: not a valid file: {msg}")]
    InvalidFile {
        /// The operation.
        op: &'static str,
        /// The file.
        path: String,
        /// What is wrong with it.
        msg: String,
    },

    // ---- arguments ---------------------------------------------------------------------------
    /// Shapes that do not fit the operation.
    #[error("{op}: {msg}")]
    Shape {
        /// The operation.
        op: &'static str,
        /// What is wrong, naming the shapes.
        msg: String,
    },
    /// An axis outside `-ndim..ndim`, or repeated.
    #[error("{op}: axis {axis} is out of bounds for an array of dimension {ndim}")]
    Axis {
        /// The operation.
        op: &'static str,
        /// The axis given.
        axis: isize,
        /// The array's rank.
        ndim: usize,
    },
    /// Two dtypes that must agree do not.
    #[error("{op}: dtype mismatch: expected {expected}, got {got}")]
    DTypeMismatch {
        /// The operation.
        op: &'static str,
        /// The dtype required.
        expected: DType,
        /// The dtype given.
        got: DType,
    },
    /// Any other invalid argument.
    #[error("{op}: {msg}")]
    InvalidArgument {
        /// The operation.
        op: &'static str,
        /// What is wrong.
        msg: String,
    },
    /// A matrix of a batch that the operation cannot factor or that does not converge (NumPy's
    /// `LinAlgError`): singular in `solve`/`inv`, not positive definite in `cholesky`, no
    /// convergence in `eigh`/`svd`, or operands that are not (stacks of) matrices as NumPy's
    /// `linalg` requires. `index` is the first failing matrix, counted over the flattened batch
    /// axes in C order, where one fails.
    #[error("{op}: {msg}{}", index.map(|i| format!(" (matrix {i} of the batch)")).unwrap_or_default())]
    LinAlg {
        /// The operation.
        op: &'static str,
        /// The first failing matrix of the batch, where one fails.
        index: Option<usize>,
        /// What is wrong with it.
        msg: String,
    },
    /// An einsum subscript string or operand list that NumPy would reject.
    #[error("einsum: {msg}{}", pos.map(|p| format!(" (at character {p})")).unwrap_or_default())]
    Einsum {
        /// What is wrong.
        msg: String,
        /// Character position in the subscripts, when one applies.
        pos: Option<usize>,
    },
}

/// What a [`Error::TooLarge`] limit counts: bytes unless its description starts by naming
/// another unit ("loop iterations per invocation …", "workgroups per grid dimension …").
fn unit_of(what: &str) -> &'static str {
    const UNITS: [(&str, &str); 6] = [
        ("loop iterations", "iterations"),
        ("workgroups", "workgroups"),
        ("elements", "elements"),
        ("invocations", "invocations"),
        ("bins", "bins"),
        ("sort row length", "elements"),
    ];
    UNITS
        .iter()
        .find(|(start, _)| what.starts_with(start))
        .map_or("bytes", |&(_, unit)| unit)
}

/// "the adapter's max_buffer_size", or "the host allocation limit" for host limits.
fn limit_name(what: &str) -> String {
    if what.starts_with("host") {
        format!("the {what}")
    } else {
        format!("the adapter's {what}")
    }
}

impl Error {
    pub(crate) fn shape(op: &'static str, msg: impl Into<String>) -> Self {
        Error::Shape {
            op,
            msg: msg.into(),
        }
    }
    pub(crate) fn invalid(op: &'static str, msg: impl Into<String>) -> Self {
        Error::InvalidArgument {
            op,
            msg: msg.into(),
        }
    }
    pub(crate) fn overflow(op: &'static str, msg: impl Into<String>) -> Self {
        Error::Overflow {
            op,
            msg: msg.into(),
        }
    }
}

/// The `Err(Unsupported)` of an op that must read a device value back before it can go on (an
/// index bound, an exponent's sign, a rejection count): on wasm32 that would block the browser.
#[cfg(target_arch = "wasm32")]
pub(crate) fn needs_blocking_readback(op: &'static str, what: &str) -> Error {
    Error::Unsupported {
        op,
        feature: format!(
            "{what} needs a blocking readback of a device value, which wasm32 (a browser) cannot do"
        ),
    }
}

/// The full text of a wgpu error (its `Display` shows only the first line).
pub(crate) fn describe_wgpu_error(e: &wgpu::Error) -> String {
    let mut msg = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        let t = s.to_string();
        if !msg.contains(&t) {
            msg.push_str(": ");
            msg.push_str(&t);
        }
        source = s.source();
    }
    msg
}

#[cfg(test)]
mod tests {
    use super::Error;

    #[test]
    fn too_large_names_the_unit_of_its_limit() {
        let loops = Error::TooLarge {
            op: "svd",
            requested: 140_011,
            max: 60_000,
            what: "loop iterations per invocation of one step",
        };
        assert_eq!(
            loops.to_string(),
            "svd: 140011 iterations is larger than the adapter's loop iterations per invocation of one step of 60000 iterations"
        );
        let buffer = Error::TooLarge {
            op: "zeros",
            requested: 5,
            max: 4,
            what: "max_buffer_size",
        };
        assert_eq!(
            buffer.to_string(),
            "zeros: 5 bytes is larger than the adapter's max_buffer_size of 4 bytes"
        );
    }
}
