//! `numpy.linalg.qr`: Householder QR (LAPACK's conventions, so Q and R carry NumPy's signs).
//!
//! Up to [`BLOCKED_FROM`] columns one workgroup per matrix factors the whole matrix (geqr2) and
//! forms Q (org2r). Wider matrices, and matrices larger than one storage binding, are blocked
//! as LAPACK's geqrf/orgqr: a panel of [`PANEL`] columns is factored by the same kernel in a
//! copy of its rows, its reflectors are gathered into the compact WY form I − V·T·Vᵀ, and the
//! trailing matrix (and, backwards, Q) is updated by three products on the tuned matmul.
//! Reduced and `r` modes of tall matrices of up to 64 columns go to TSQR (`tsqr.rs`) instead.

use super::families::{QR_BLOCK_T, QR_FACTOR, QR_FORM_Q};
use super::lu::block;
use super::{
    Operand, Stack, binding_elements, compute_dtype, key, loop_budget, mt, per, per_matrix, runs,
    steps_per_launch, workgroup_size,
};
use crate::array::Array;
use crate::device::params::Params;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::SliceArg;

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

/// Matrices with more columns (and rows) than this are factored in panels.
const BLOCKED_FROM: usize = 128;
/// Reflectors per panel of the blocked factorization.
const PANEL: usize = 64;

/// Whether a stack `s`'s QR is blocked: past [`BLOCKED_FROM`] reflectors, or a matrix larger
/// than one storage binding (a tall one, say), whose panels are then factored in copies.
fn blocked(h: &Array, s: &Stack) -> bool {
    s.rows.min(s.cols) > BLOCKED_FROM || s.rows * s.cols > binding_elements(h)
}

/// The panels of `k` reflectors.
fn panels(k: usize, blocked: bool) -> Vec<(usize, usize)> {
    if blocked {
        runs(0, k, PANEL)
    } else {
        vec![(0, k)]
    }
}

/// The panels of the blocked factorization of a stack `s` held in `h`: [`PANEL`] reflectors,
/// or fewer where a panel's copy (its rows from the diagonal down) would not fit one storage
/// binding — a float32 matrix past 2^19 rows has narrower panels at 128 MiB, past 2^25 rows
/// none (a single column past one binding: `Err(TooLarge)`).
fn factor_panels(op: &'static str, h: &Array, s: &Stack) -> Result<Vec<(usize, usize)>> {
    let k = s.rows.min(s.cols);
    let window = binding_elements(h);
    let mut panels = Vec::new();
    let mut k0 = 0;
    while k0 < k {
        let rows = s.rows - k0;
        let width = PANEL.min(window / rows).min(k - k0);
        if width == 0 {
            return Err(Error::TooLarge {
                op,
                requested: rows as u64 * h.dtype().size_bytes(),
                max: window as u64 * h.dtype().size_bytes(),
                what: "bytes of one column of the matrix (a Householder panel copies at least \
                       one column into one storage binding)",
            });
        }
        panels.push((k0, k0 + width));
        k0 += width;
    }
    Ok(panels)
}

/// A panel's reflectors [k0, k1) in compact WY form: H_k0·…·H_{k1−1} = I − V·T·Vᵀ, V the
/// unit lower trapezoid (…, m − k0, k1 − k0), T upper triangular (…, k1 − k0, k1 − k0).
struct WyPanel {
    v: Array,
    t: Array,
}

/// The reflectors of `a` (in place in a copy, below the diagonal; R on and above it) and
/// their τ.
fn reflectors(op: &'static str, a: &Array, dtype: DType, s: &Stack) -> Result<(Array, Array)> {
    let h = a.astype(dtype)?;
    let tau = factor_in_place(op, &h, s)?;
    Ok((h, tau))
}

/// The reflectors of the stack `s` held in `h` (contiguous, its own storage), in place as
/// [`reflectors`] leaves them; returns their τ.
pub(super) fn factor_in_place(op: &'static str, h: &Array, s: &Stack) -> Result<Array> {
    let (m, n) = (s.rows, s.cols);
    let k = m.min(n);
    let dtype = h.dtype();
    let tau = Array::zeros(h.device(), &s.shape(&[k]), dtype)?;
    if k == 0 || s.count == 0 {
        return Ok(tau);
    }
    let blocked = blocked(h, s);
    let panels = if blocked {
        factor_panels(op, h, s)?
    } else {
        panels(k, false)
    };
    for (k0, k1) in panels {
        if !blocked {
            // Each reflector through every column right of it.
            factor_columns(op, h, &tau, s, (k0, k1), n)?;
            continue;
        }
        // Blocked: the panel's reflectors through the panel's columns only, in a copy of its
        // rows from its diagonal down (the kernel binds the panel, not the matrix), the rest
        // waiting for the panel's block update.
        let copy = block(h, (k0, m), (k0, k1))?.contiguous()?;
        let panel_tau = Array::zeros(h.device(), &s.shape(&[k1 - k0]), dtype)?;
        let ps = Stack::of(op, &copy, false)?;
        factor_columns(op, &copy, &panel_tau, &ps, (0, k1 - k0), k1 - k0)?;
        block(h, (k0, m), (k0, k1))?.assign(&copy)?;
        last_axis(&tau, (k0, k1))?.assign(&panel_tau)?;
        let panel = wy_panel(op, h, &tau, s, (k0, k1))?;
        if k1 < n {
            // A[k0.., k1..] ← (I − V·T·Vᵀ)ᵀ·A[k0.., k1..]
            let a2 = block(h, (k0, m), (k1, n))?;
            let w = mt(&panel.t)?.matmul(&mt(&panel.v)?.matmul(&a2)?)?;
            crate::ops::matmul::matmul_sub_into(&panel.v, &w, &a2)?;
        }
    }
    Ok(tau)
}

/// `a[..., lo:hi]`.
fn last_axis(a: &Array, (lo, hi): (usize, usize)) -> Result<Array> {
    let mut args = vec![SliceArg::range(None, None, 1); a.ndim() - 1];
    args.push(SliceArg::range(Some(lo as isize), Some(hi as isize), 1));
    a.slice(&args)
}

/// The compact WY form of the reflectors [k0, k1) of `h`.
fn wy_panel(
    op: &'static str,
    h: &Array,
    tau: &Array,
    s: &Stack,
    (k0, k1): (usize, usize),
) -> Result<WyPanel> {
    let (m, n) = (s.rows, s.cols);
    let b = k1 - k0;
    let dtype = h.dtype();
    let v = block(h, (k0, m), (k0, k1))?
        .tril(-1)?
        .add(&Array::eye_k(h.device(), m - k0, b, 0, dtype)?)?
        .astype(dtype)?;
    let g = mt(&v)?.matmul(&v)?.contiguous()?;
    let t = Array::zeros(h.device(), &s.shape(&[b, b]), dtype)?;
    let bb = (b * b) as u64;
    per_matrix(
        op,
        &key(&QR_BLOCK_T, dtype, workgroup_size(b)),
        &[
            Operand { array: &g, per: bb },
            Operand {
                array: tau,
                per: m.min(n) as u64,
            },
            Operand { array: &t, per: bb },
        ],
        s.count as u64,
        1,
        bb * b as u64,
        |bases, run| {
            params(
                m,
                n,
                b,
                run,
                [bases[0], bases[1], bases[2]],
                (k0, k1),
                (0, 0),
            )
        },
    )?;
    Ok(WyPanel { v, t })
}

/// The reflectors [k0, k1) of `h`, each applied to the columns before `c_end`.
fn factor_columns(
    op: &'static str,
    h: &Array,
    tau: &Array,
    s: &Stack,
    (k0, k1): (usize, usize),
    c_end: usize,
) -> Result<()> {
    let (m, n) = (s.rows, s.cols);
    let k = m.min(n);
    let dtype = h.dtype();
    let wg = workgroup_size(m.max(c_end - k0));
    // A step: two reductions over the column and its scaling, then the reflector through the
    // columns, `lanes` at a time, on a grid of `lanes` × wg / lanes (as in the kernel): two
    // passes over an invocation's rows and the sum of the row groups' partials. A narrow
    // panel (a tall-skinny matrix) takes fewer lanes and more row groups: its rows, not its
    // few columns, are the work. From the shape alone, so that the sums' order (and the bits)
    // do not depend on how the adapter's loop budget splits the steps.
    let lanes = ((c_end - k0).next_power_of_two() as u32).min(wg).min(32);
    let row_groups = wg / lanes;
    let run = steps_per_launch(
        op,
        h,
        3 * per(m, wg)
            + 40
            + per(c_end - k0, lanes) * (2 * per(m, row_groups) + row_groups as u64 + 4),
    )?;
    for (j0, j1) in runs(k0, k1, run) {
        per_matrix(
            op,
            &key(&QR_FACTOR, dtype, wg),
            &[
                Operand {
                    array: h,
                    per: (m * n) as u64,
                },
                Operand {
                    array: tau,
                    per: k as u64,
                },
            ],
            s.count as u64,
            1,
            (4 * m * (c_end - k0) * (j1 - j0)) as u64,
            |bases, run| {
                params(
                    m,
                    n,
                    0,
                    run,
                    [bases[0], bases[1], 0],
                    (j0, j1),
                    (c_end, lanes),
                )
            },
        )?;
    }
    Ok(())
}

fn params(
    m: usize,
    n: usize,
    qc: usize,
    run: u32,
    bases: [u32; 3],
    (j0, j1): (usize, usize),
    (c_end, lanes): (usize, u32),
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
        .u32(c_end as u32)
        .u32(lanes)
        .bytes()
        .to_vec()
}

/// `numpy.linalg.qr(a, mode)`: a = Q·R with Q orthonormal columns and R upper triangular, for
/// each matrix of the stack (any shape m × n). Returns `(Some(Q), R)`, or `(None, R)` for
/// [`QrMode::R`]. Q and R have LAPACK's signs. Reduced and `r` modes of a tall matrix (up to
/// 64 columns, at least 512 rows and 16 a column) are a TSQR (leaves of rows side by side: any
/// height memory holds), complete mode Householder QR throughout: their R agree to rounding,
/// not bit for bit.
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
    if mode != QrMode::Complete && super::tsqr::applies(&s) {
        return super::tsqr::qr(op, a, dtype, &s, mode == QrMode::Reduced);
    }
    let (m, n) = (s.rows, s.cols);
    let k = m.min(n);
    let (h, tau) = reflectors(op, a, dtype, &s)?;
    let r_rows = if mode == QrMode::Complete { m } else { k };
    let r = block(&h, (0, r_rows), (0, n))?.triu(0)?;
    if mode == QrMode::R {
        return Ok((None, r));
    }
    let qc = if mode == QrMode::Complete { m } else { k };
    Ok((Some(form_q(op, &h, &tau, &s, qc)?), r))
}

/// Q = H_0·H_1·…·H_{k−1} (its first `qc` columns) from reflectors stored as [`qr`] stores
/// them: below the diagonal of `h` (a stack `s` of m × n), τ in `tau` (…, min(m, n)).
pub(crate) fn form_q(
    op: &'static str,
    h: &Array,
    tau: &Array,
    s: &Stack,
    qc: usize,
) -> Result<Array> {
    let (m, n) = (s.rows, s.cols);
    let k = m.min(n);
    let dtype = h.dtype();
    let q = super::identities(h, s, m, qc, dtype)?;
    if s.count == 0 {
        return Ok(q);
    }
    // The unblocked kernel walks all m rows of a column twice per reflector in one
    // invocation: past the adapter's loop budget (lavapipe: about 30,000 rows) it cannot.
    let wg = workgroup_size(qc);
    let column_steps = per(qc, wg) * (2 * m as u64 + 3);
    if blocked(h, s) || m * qc > binding_elements(h) || column_steps > loop_budget(h) {
        // A panel at a time from the last: columns before the panel's first are still the
        // identity's there, zero in its rows. (Also for a Q larger than one binding: the
        // products read and write it in windows; and for a Q too tall for the kernel.)
        for (k0, k1) in panels(k, true).into_iter().rev() {
            if k0 >= qc {
                continue;
            }
            let p = wy_panel(op, h, tau, s, (k0, k1))?;
            let qb = block(&q, (k0, m), (k0, qc))?;
            let w = p.t.matmul(&mt(&p.v)?.matmul(&qb)?)?;
            crate::ops::matmul::matmul_sub_into(&p.v, &w, &qb)?;
        }
    } else if k > 0 && qc > 0 {
        let run = steps_per_launch(op, h, column_steps)?;
        // Backwards: the last reflectors first.
        for (j0, j1) in runs(0, k, run).into_iter().rev() {
            per_matrix(
                op,
                &key(&QR_FORM_Q, dtype, wg),
                &[
                    Operand {
                        array: h,
                        per: (m * n) as u64,
                    },
                    Operand {
                        array: tau,
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
                |bases, run| {
                    params(
                        m,
                        n,
                        qc,
                        run,
                        [bases[0], bases[1], bases[2]],
                        (j0, j1),
                        (0, 0),
                    )
                },
            )?;
        }
    }
    Ok(q)
}
