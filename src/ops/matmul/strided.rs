//! The strided kernels: shared-memory tiles (splitting K for skinny products), the naive
//! baseline, and GEMV for M = 1 or N = 1.

use crate::array::Array;
use crate::device::params::Params;
use crate::device::{DeviceInner, KernelDef, PipelineKey, Variant, Work};
use crate::dtype::DType;
use crate::error::{Error, Result};

use super::families::{MATMUL_GEMV, MATMUL_TILED};
use super::plan::{Launch, Problem, View, bind, i32_of, plan_mnk, plan_mnk_from};
use super::{MAX_LOOP_TRIPS, OP};

/// Output tiles below which a long-K product is split along K (a skinny product otherwise
/// leaves most of the adapter idle).
pub(super) const SPLIT_K_TILES: u64 = 16;

/// The tiled kernel, splitting K for skinny products with a long K: `s` slices of K are
/// computed as a batch of partial products, then summed by a GEMV against ones.
pub(super) fn launch_tiled(dev: &DeviceInner, p: &Problem) -> Result<()> {
    let tiles = p.batch * p.m.div_ceil(64) * p.n.div_ceil(64);
    let dtype = p.c.array.dtype();
    // f16 partials would round once more; a C whose rows do not merge into one axis cannot take
    // the final GEMV.
    let splittable = p.batch == 1 && dtype != DType::F16 && p.c.rs == p.n as i64 * p.c.cs;
    let s = if splittable && tiles < SPLIT_K_TILES && p.k >= 4096 {
        (2 * SPLIT_K_TILES / tiles).min(p.k / 1024)
    } else {
        1
    };
    if s <= 1 {
        return launch_strided(dev, p, &MATMUL_TILED);
    }
    let ks = p.k / s;
    let (m, n) = (p.m as usize, p.n as usize);
    let parts = Array::empty(OP, p.c.array.device(), &[s as usize, m, n], dtype)?;
    let pv = View {
        array: &parts,
        offset: 0,
        bs: (m * n) as i64,
        rs: n as i64,
        cs: 1,
    };
    let sliced = Problem {
        batch: s,
        m: p.m,
        n: p.n,
        k: ks,
        a: View {
            bs: ks as i64 * p.a.cs,
            ..p.a
        },
        b: View {
            bs: ks as i64 * p.b.rs,
            ..p.b
        },
        c: pv,
    };
    launch_strided_from(dev, &sliced, &MATMUL_TILED, false)?;
    let rest = p.k - s * ks;
    if rest > 0 {
        // The remainder of K adds to the first slice.
        let done = (s * ks) as i64;
        let tail = Problem {
            batch: 1,
            m: p.m,
            n: p.n,
            k: rest,
            a: View {
                offset: p.a.offset + done * p.a.cs,
                bs: 0,
                ..p.a
            },
            b: View {
                offset: p.b.offset + done * p.b.rs,
                bs: 0,
                ..p.b
            },
            c: View { bs: 0, ..pv },
        };
        launch_strided_from(dev, &tail, &MATMUL_TILED, true)?;
    }
    let ones = Array::ones(p.c.array.device(), &[s as usize], dtype)?;
    let sum = Problem {
        batch: 1,
        m: p.m * p.n,
        n: 1,
        k: s,
        a: View {
            array: &parts,
            offset: 0,
            bs: 0,
            rs: 1,
            cs: (m * n) as i64,
        },
        b: View {
            array: &ones,
            offset: 0,
            bs: 0,
            rs: 1,
            cs: 0,
        },
        c: View {
            bs: 0,
            rs: p.c.cs,
            cs: 0,
            ..p.c
        },
    };
    launch_gemv(dev, &sum)
}

/// The tiled or naive kernel over strided operands.
pub(super) fn launch_strided(
    dev: &DeviceInner,
    p: &Problem,
    kernel: &'static KernelDef,
) -> Result<()> {
    launch_strided_from(dev, p, kernel, false)
}

/// [`launch_strided`]; with `add`, the product is added to C.
pub(super) fn launch_strided_from(
    dev: &DeviceInner,
    p: &Problem,
    kernel: &'static KernelDef,
    add: bool,
) -> Result<()> {
    let ops = [
        p.a.operand([p.a.bs, p.a.rs, 0, p.a.cs]),
        p.b.operand([p.b.bs, 0, p.b.cs, p.b.rs]),
        p.c.operand([p.c.bs, p.c.rs, p.c.cs, 0]),
    ];
    let key = PipelineKey::new(kernel, Variant::one(p.c.array.dtype()));
    // Splits at any row, column or k: the kernel checks bounds, and a long K may force single
    // rows per launch.
    // Loop trips per k-step: the k0 loop plus the 16-step inner loop.
    let max_k = if kernel == &MATMUL_TILED {
        16 * 1024
    } else {
        MAX_LOOP_TRIPS
    };
    let launches = plan_mnk_from(dev, p, [1, 1, 1, 1], max_k, &ops, add)?;
    // Outputs per workgroup side: 64 for the tiled kernel, 16 for the naive one.
    let side = if kernel == &MATMUL_TILED { 64 } else { 16 };
    dev.guarded(OP, || {
        for Launch {
            block: bl,
            accumulate,
        } in &launches
        {
            let [nb, m, n, k] = [bl.extent[0], bl.extent[1], bl.extent[2], bl.extent[3]];
            let mut par = Params::default();
            par.u32(m as u32)
                .u32(n as u32)
                .u32(k as u32)
                .u32(*accumulate as u32);
            for (v, w) in [
                (&p.a, &bl.windows[0]),
                (&p.b, &bl.windows[1]),
                (&p.c, &bl.windows[2]),
            ] {
                par.i32(i32_of(w.base)?)
                    .i32(i32_of(v.rs)?)
                    .i32(i32_of(v.cs)?)
                    .i32(i32_of(v.bs)?);
            }
            let grid = (n.div_ceil(side) as u32, m.div_ceil(side) as u32, nb as u32);
            let binds = [
                bind(&p.a, &bl.windows[0]),
                bind(&p.b, &bl.windows[1]),
                bind(&p.c, &bl.windows[2]),
            ];
            dev.dispatch_grid(
                &key,
                par.bytes(),
                &binds,
                grid,
                Work::computes(format!("{nb}x({m}x{k} @ {k}x{n})"), 2 * nb * m * k * n),
            )?;
        }
        Ok(())
    })
}

/// A product whose C has fewer than [`NARROW_BELOW`](super::NARROW_BELOW) columns (or rows) takes
/// the GEMV kernel once per column of C (per row: the transposed product, Cᵀ = Bᵀ·Aᵀ). The
/// tiled kernel's 64 × 64 tiles would compute 9 to 64 times the products there, and a skinny
/// product with a long K (Vᵀ·A in a tall QR, 4 × 300,000 × 4) ran on a few split-K workgroups
/// at a few MFLOP/s; the GEMV spreads the rows over invocations and reads each row once per
/// column. The order of each sum is the GEMV's: fixed by the shape.
pub(super) fn launch_narrow(dev: &DeviceInner, p: &Problem) -> Result<()> {
    if p.m == 1 || p.n == 1 {
        return launch_gemv(dev, p);
    }
    let p = if p.n <= p.m {
        *p
    } else {
        Problem {
            m: p.n,
            n: p.m,
            a: View {
                rs: p.b.cs,
                cs: p.b.rs,
                ..p.b
            },
            b: View {
                rs: p.a.cs,
                cs: p.a.rs,
                ..p.a
            },
            c: View {
                rs: p.c.cs,
                cs: p.c.rs,
                ..p.c
            },
            ..*p
        }
    };
    for j in 0..p.n as i64 {
        let column = Problem {
            n: 1,
            b: View {
                offset: p.b.offset + j * p.b.cs,
                ..p.b
            },
            c: View {
                offset: p.c.offset + j * p.c.cs,
                ..p.c
            },
            ..p
        };
        launch_gemv(dev, &column)?;
    }
    Ok(())
}

pub(super) fn launch_gemv(dev: &DeviceInner, p: &Problem) -> Result<()> {
    // X rows are the outputs; v is the shared vector.
    let (x, v, rows, xr, xc, vs, os) = if p.n == 1 {
        (&p.a, &p.b, p.m, p.a.rs, p.a.cs, p.b.rs, p.c.rs)
    } else {
        (&p.b, &p.a, p.n, p.b.cs, p.b.rs, p.a.cs, p.c.cs)
    };
    let ops = [
        x.operand([x.bs, xr, 0, xc]),
        v.operand([v.bs, 0, 0, vs]),
        p.c.operand([p.c.bs, os, 0, 0]),
    ];
    let gp = Problem {
        batch: p.batch,
        m: rows,
        n: 1,
        k: p.k,
        a: *x,
        b: *v,
        c: p.c,
    };
    let key = PipelineKey::new(&MATMUL_GEMV, Variant::one(p.c.array.dtype()));
    let launches = plan_mnk(dev, &gp, [1, 1, 1, 1], 4 * MAX_LOOP_TRIPS, &ops)?;
    let max_dim = dev.limits.max_compute_workgroups_per_dimension;
    dev.guarded(OP, || {
        for Launch {
            block: bl,
            accumulate,
        } in &launches
        {
            let [nb, r, k] = [bl.extent[0], bl.extent[1], bl.extent[3]];
            let mut par = Params::default();
            par.u32(r as u32)
                .u32(k as u32)
                .u32(*accumulate as u32)
                .u32(0);
            par.i32(i32_of(bl.windows[0].base)?)
                .i32(i32_of(xr)?)
                .i32(i32_of(xc)?)
                .i32(i32_of(x.bs)?);
            par.i32(i32_of(bl.windows[1].base)?)
                .i32(i32_of(vs)?)
                .i32(i32_of(v.bs)?);
            par.i32(i32_of(bl.windows[2].base)?)
                .i32(i32_of(os)?)
                .i32(i32_of(p.c.bs)?);
            let (gx, gy) = crate::device::blocks::grid(r.div_ceil(256), max_dim)
                .ok_or_else(|| Error::overflow(OP, format!("{r} rows in one launch")))?;
            let binds = [
                bind(x, &bl.windows[0]),
                bind(v, &bl.windows[1]),
                bind(&p.c, &bl.windows[2]),
            ];
            dev.dispatch_grid(
                &key,
                par.bytes(),
                &binds,
                (gx, gy, nb as u32),
                Work::computes(format!("gemv {nb}x({r}x{k})"), 2 * nb * r * k),
            )?;
        }
        Ok(())
    })
}
