//! The rotation record shared by the serial iterations of large `eigh` (implicit QL,
//! `shaders/linalg_tql.wgsl`) and large `svd` (Golub–Kahan QR, `shaders/linalg_bdsqr.wgsl`):
//! one invocation per matrix iterates and records its plane rotations, then
//! `shaders/linalg_rotate.wgsl` applies them to the vectors in parallel, one invocation per
//! column of Zᵀ. The iteration is resumed launch after launch under the loop budget.

use super::families::ROTATE;
use super::lu::block;
use super::{Operand, Stack, key, mt, per, per_matrix};
use crate::array::Array;
use crate::device::params::Params;
use crate::error::{Error, Result};

/// Invocations per workgroup of the rotation kernel.
const WG: u32 = 64;

/// The iteration's state and its last launch's rotations.
pub(crate) struct Rotations {
    /// Per matrix: the iteration's position, its iterations so far, rotations recorded by the
    /// last launch, status (0 running, 1 done, 2 no convergence).
    pub state: Array,
    /// Per rotation: (p, q, c, s), the rows of Zᵀ it turns as exact integers.
    pub rot: Array,
    /// Rotations per launch.
    pub cap: usize,
    /// Loop iterations per invocation of a launch.
    pub budget: usize,
}

impl Rotations {
    /// The record for `count` matrices whose iteration starts at `position` and turns rows of
    /// length `n`: at least `per_pass` rotations (one pass of the iteration) per launch.
    pub(crate) fn new(
        like: &Array,
        count: usize,
        n: usize,
        per_pass: usize,
        position: u32,
    ) -> Result<Rotations> {
        let dev = like.device();
        let budget = super::loop_budget(like) as usize;
        let cap = (32 * n).min(budget).max(per_pass);
        let start: Vec<u32> = (0..count).flat_map(|_| [position, 0, 0, 0]).collect();
        Ok(Rotations {
            state: Array::from_slice(dev, &start, &[count, 4])?,
            rot: Array::zeros(dev, &[count, 4 * cap], like.dtype())?,
            cap,
            budget,
        })
    }

    /// The two arrays as the iteration's kernel binds them, after its own.
    pub(crate) fn operands(&self) -> [Operand<'_>; 2] {
        [
            Operand {
                array: &self.state,
                per: 4,
            },
            Operand {
                array: &self.rot,
                per: 4 * self.cap as u64,
            },
        ]
    }

    /// One launch of the serial iteration `family` (one invocation per matrix) on `data`
    /// (`per` elements a matrix, bound first), recording its rotations when `record`. Params:
    /// n, batch, cap, budget, record, then the bases of data, state and rotations.
    pub(crate) fn steps(
        &self,
        op: &'static str,
        family: &'static crate::device::KernelDef,
        data: &Array,
        per: u64,
        n: usize,
        record: bool,
    ) -> Result<()> {
        let [state, rot] = self.operands();
        per_matrix(
            op,
            &key(family, data.dtype(), 1),
            &[Operand { array: data, per }, state, rot],
            self.state.shape()[0] as u64,
            1,
            (20 * self.budget) as u64,
            |b, run| {
                Params::default()
                    .u32(n as u32)
                    .u32(run)
                    .u32(self.cap as u32)
                    .u32(self.budget as u32)
                    .u32(record as u32)
                    .u32(b[0])
                    .u32(b[1])
                    .u32(b[2])
                    .bytes()
                    .to_vec()
            },
        )
    }

    /// The last launch's rotations applied to `zt` (…, rows, cols), contiguous, `cols` a
    /// multiple of 4 (see [`padded`]).
    pub(crate) fn apply(
        &self,
        op: &'static str,
        zt: &Array,
        rows: usize,
        cols: usize,
    ) -> Result<()> {
        let count = self.state.shape()[0] as u64;
        let quads = cols / 4;
        let groups = per(quads, WG) as u32;
        let [state, rot] = self.operands();
        per_matrix(
            op,
            &key(&ROTATE, zt.dtype(), WG),
            &[
                state,
                rot,
                Operand {
                    array: zt,
                    per: (rows * cols) as u64,
                },
            ],
            count,
            groups as u64,
            (6 * cols * self.cap) as u64,
            |b, run| {
                // Windows start on multiples of four elements: bases in vec4s.
                Params::default()
                    .u32(quads as u32)
                    .u32(rows as u32)
                    .u32(run)
                    .u32(self.cap as u32)
                    .u32(groups)
                    .u32(b[0])
                    .u32(b[1] / 4)
                    .u32(b[2] / 4)
                    .bytes()
                    .to_vec()
            },
        )
    }
}

/// The row length of a Zᵀ for [`Rotations::apply`]: n rounded up to a multiple of 4 (the
/// columns past n stay zero).
pub(crate) fn padded(n: usize) -> usize {
    n.next_multiple_of(4)
}

/// After a launch: `Ok(true)` when every matrix is done, `Err(LinAlg)` with `msg` naming the
/// first that did not converge.
pub(crate) fn settled(op: &'static str, state: &[u32], msg: &str) -> Result<bool> {
    if let Some(index) = state.chunks(4).position(|s| s[3] == 2) {
        return Err(Error::LinAlg {
            op,
            index: Some(index),
            msg: msg.into(),
        });
    }
    Ok(state.chunks(4).all(|s| s[3] == 1))
}

/// Zᵀ, the vectors the rotations turn (…, rows, n; a vector per row), kept as blocks of whole
/// columns (each a multiple of 4 wide, its rows within one storage binding, together covering
/// [`padded`]`(n)`): columns are independent, so every block takes the same rotations and no
/// launch binds all of Zᵀ.
pub(crate) struct Zt {
    blocks: Vec<Array>,
    rows: usize,
    n: usize,
    stack: Stack,
}

impl Zt {
    /// Zᵀ whose rows `r0..r1` are the columns of `q` (…, n, r1 − r0), for each `(r0, q)` of
    /// `parts`: Zᵀ[r0..r1, c] = q[c, :].
    pub(crate) fn of_columns(
        op: &'static str,
        stack: &Stack,
        rows: usize,
        n: usize,
        parts: &[(usize, &Array)],
    ) -> Result<Zt> {
        let like = parts[0].1;
        let fit = (super::binding_elements(like) / rows.max(1)) / 4 * 4;
        if fit == 0 {
            return Err(Error::TooLarge {
                op,
                requested: (4 * rows) as u64 * like.dtype().size_bytes(),
                max: like.device().inner.max_window(),
                what: "bytes of four columns of the vectors (one storage binding)",
            });
        }
        let total = padded(n);
        let blocks = (0..total)
            .step_by(fit)
            .map(|c0| {
                let cols = fit.min(total - c0);
                let zt = Array::zeros(like.device(), &stack.shape(&[rows, cols]), like.dtype())?;
                let w = cols.min(n - c0);
                for &(r0, q) in parts {
                    let r1 = r0 + q.shape()[q.ndim() - 1];
                    block(&zt, (r0, r1), (0, w))?.assign(&mt(&block(
                        q,
                        (c0, c0 + w),
                        (0, r1 - r0),
                    )?)?)?;
                }
                Ok(zt)
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Zt {
            blocks,
            rows,
            n,
            stack: stack.clone(),
        })
    }

    /// The last launch's rotations of `r` applied to every block.
    pub(crate) fn turn(&self, op: &'static str, r: &Rotations) -> Result<()> {
        for zt in &self.blocks {
            r.apply(op, zt, self.rows, zt.shape()[zt.ndim() - 1])?;
        }
        Ok(())
    }

    /// Rows `r0..r1` of Zᵀ, n columns (a view where Zᵀ is one block).
    pub(crate) fn rows(&self, (r0, r1): (usize, usize)) -> Result<Array> {
        let n = self.n;
        if let [zt] = self.blocks.as_slice() {
            return block(zt, (r0, r1), (0, n));
        }
        let dtype = self.blocks[0].dtype();
        let out = Array::zeros(
            self.blocks[0].device(),
            &self.stack.shape(&[r1 - r0, n]),
            dtype,
        )?;
        let mut c0 = 0;
        for zt in &self.blocks {
            let w = zt.shape()[zt.ndim() - 1].min(n - c0);
            block(&out, (0, r1 - r0), (c0, c0 + w))?.assign(&block(zt, (r0, r1), (0, w))?)?;
            c0 += w;
        }
        Ok(out)
    }
}
