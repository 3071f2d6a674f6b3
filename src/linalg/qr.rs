//! `numpy.linalg.qr`: Householder QR, one workgroup per matrix (LAPACK's geqr2 + org2r
//! conventions, so Q and R carry NumPy's signs).

use super::families::{QR_FACTOR, QR_FORM_Q};
use super::lu::block;
use super::{
    Operand, Stack, compute_dtype, key, per, per_matrix, runs, steps_per_launch, workgroup_size,
};
use crate::array::Array;
use crate::device::params::Params;
use crate::dtype::DType;
use crate::error::Result;

/// What [`qr`] returns, as NumPy's `mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QrMode {
    /// Q (…, m, k) and R (…, k, n), k = min(m, n): NumPy's default.
    Reduced,
    /// Q (…, m, m) and R (…, m, n).
    Complete,
    /// R (…, k, n) only.
    R,
}

/// The reflectors of `a` (in place in a copy) and their τ.
fn reflectors(op: &'static str, a: &Array, dtype: DType, s: &Stack) -> Result<(Array, Array)> {
    let (m, n) = (s.rows, s.cols);
    let k = m.min(n);
    let h = a.astype(dtype)?;
    let tau = Array::zeros(a.device(), &s.shape(&[k]), dtype)?;
    if k == 0 || s.count == 0 {
        return Ok((h, tau));
    }
    let wg = workgroup_size(m.max(n));
    // A step: two reductions over the column, then each invocation's columns through the
    // reflector (two passes over the rows each).
    let run = steps_per_launch(op, a, 2 * per(m, wg) + 40 + per(n, wg) * (2 * m as u64 + 2))?;
    for (j0, j1) in runs(0, k, run) {
        per_matrix(
            op,
            &key(&QR_FACTOR, dtype, wg),
            &[
                Operand {
                    array: &h,
                    per: (m * n) as u64,
                },
                Operand {
                    array: &tau,
                    per: k as u64,
                },
            ],
            s.count as u64,
            1,
            (4 * m * n * (j1 - j0)) as u64,
            |bases, run| params(m, n, 0, run, [bases[0], bases[1], 0], (j0, j1)),
        )?;
    }
    Ok((h, tau))
}

fn params(
    m: usize,
    n: usize,
    qc: usize,
    run: u32,
    bases: [u32; 3],
    (j0, j1): (usize, usize),
) -> Vec<u8> {
    Params::default()
        .u32(m as u32)
        .u32(n as u32)
        .u32(qc as u32)
        .u32(run)
        .u32(bases[0])
        .u32(bases[1])
        .u32(bases[2])
        .u32(j0 as u32)
        .u32(j1 as u32)
        .bytes()
        .to_vec()
}

/// `numpy.linalg.qr(a, mode)`: a = Q·R with Q orthonormal columns and R upper triangular, for
/// each matrix of the stack (any shape m × n). Returns `(Some(Q), R)`, or `(None, R)` for
/// [`QrMode::R`].
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// use gpuarray::{Array, linalg::{self, QrMode}};
/// let a = Array::from_slice(&dev, &[3.0f32, 1.0, 4.0, 2.0], &[2, 2])?;
/// let (q, r) = linalg::qr(&a, QrMode::Reduced)?;
/// let back = q.unwrap().matmul(&r)?.to_vec::<f32>()?;
/// assert!(back.iter().zip([3.0, 1.0, 4.0, 2.0]).all(|(x, y)| (x - y).abs() < 1e-5));
/// assert_eq!(r.to_vec::<f32>()?[0], -5.0);                    // LAPACK's sign: −‖(3, 4)‖
/// # Ok(()) }
/// ```
pub fn qr(a: &Array, mode: QrMode) -> Result<(Option<Array>, Array)> {
    let op = "qr";
    let dtype = compute_dtype(op, a)?;
    let s = Stack::of(op, a, false)?;
    let (m, n) = (s.rows, s.cols);
    let k = m.min(n);
    let (h, tau) = reflectors(op, a, dtype, &s)?;
    let r_rows = if mode == QrMode::Complete { m } else { k };
    let r = block(&h, (0, r_rows), (0, n))?.triu(0)?;
    if mode == QrMode::R {
        return Ok((None, r));
    }
    let qc = if mode == QrMode::Complete { m } else { k };
    let q = super::identities(a, &s, m, qc, dtype)?;
    if k > 0 && qc > 0 && s.count > 0 {
        let wg = workgroup_size(qc);
        let run = steps_per_launch(op, a, per(qc, wg) * (2 * m as u64 + 3))?;
        // Backwards: the last reflectors first.
        for (j0, j1) in runs(0, k, run).into_iter().rev() {
            per_matrix(
                op,
                &key(&QR_FORM_Q, dtype, wg),
                &[
                    Operand {
                        array: &h,
                        per: (m * n) as u64,
                    },
                    Operand {
                        array: &tau,
                        per: k as u64,
                    },
                    Operand {
                        array: &q,
                        per: (m * qc) as u64,
                    },
                ],
                s.count as u64,
                1,
                (4 * m * qc * (j1 - j0)) as u64,
                |bases, run| params(m, n, qc, run, [bases[0], bases[1], bases[2]], (j0, j1)),
            )?;
        }
    }
    Ok((Some(q), r))
}
