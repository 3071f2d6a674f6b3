//! The host side of matmul: NumPy's semantics (1-D promotion, batch broadcasting), the choice of
//! kernel (GEMV, shared-memory tiles, subgroup broadcast), packing, and splitting any problem into
//! launches whose operands fit one storage binding each (chunks over batch, rows, columns and K;
//! later K chunks accumulate).

use crate::array::Array;
use crate::device::blocks::{collapse, plan_granular, Block, BlockLimits, Operand, Window};
use crate::device::matmul_sgb::TILE_ROWS;
use crate::device::params::Params;
use crate::device::{Binding, DeviceInner, Kernel, PipelineKey, Variant};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::broadcast_shapes;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

const OP: &str = "matmul";

/// Batches per launch: the z dimension of the grid.
const MAX_BATCH: u64 = 65535;

/// Loop iterations one invocation may run: lavapipe ends all loops of an invocation after 65535
/// iterations in total, so long K is split into launches that accumulate.
const MAX_LOOP_TRIPS: u64 = 32768;

/// The f32 kernel a device uses for large matmuls, chosen by a one-time tune.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatmulKernel {
    /// One invocation per output element: the textbook baseline.
    Naive,
    /// Shared-memory tiles (64 x 64 per workgroup, 4 x 4 per invocation): the GPU kernel.
    Tiled,
    /// Subgroup-broadcast register tiles of `rows` x 8 per invocation (adapters with 8-wide
    /// subgroups, such as lavapipe).
    SubgroupBroadcast {
        /// Rows of C per invocation.
        rows: u32,
    },
}

impl std::fmt::Display for MatmulKernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MatmulKernel::Naive => f.write_str("naive (one output per invocation)"),
            MatmulKernel::Tiled => f.write_str("tiled 64x64 (shared memory, 4x4 per invocation)"),
            MatmulKernel::SubgroupBroadcast { rows } => {
                write!(f, "subgroup-broadcast {rows}x8 per invocation")
            }
        }
    }
}

/// What the first large f32 matmul on a device measured to choose its kernel.
#[derive(Debug, Clone)]
pub struct MatmulTuning {
    /// The kernel chosen.
    pub chosen: MatmulKernel,
    /// Each candidate with its GFLOP/s on the tuning problem (compile excluded).
    pub candidates: Vec<(MatmulKernel, f64)>,
    /// The tuning problem's (M, N, K).
    pub shape: (usize, usize, usize),
    /// Wall time of the whole tune, kernel compilation included.
    pub elapsed: Duration,
    /// Candidates left out because their result differed from the first candidate's (a driver
    /// that breaks a kernel's assumptions), with the reason. Normally empty; the test suite fails
    /// when it is not, so a broken kernel cannot drop out of use unnoticed.
    pub rejected: Vec<(MatmulKernel, String)>,
}

/// `numpy.matmul(a, b)`, with the kernel chosen automatically or forced.
pub(crate) fn matmul(a: &Array, b: &Array, forced: Option<MatmulKernel>) -> Result<Array> {
    a.same_device(OP, b)?;
    if a.dtype() != b.dtype() {
        return Err(Error::DTypeMismatch {
            op: OP,
            expected: a.dtype(),
            got: b.dtype(),
        });
    }
    if a.dtype() == DType::Bool {
        return Err(Error::Unsupported {
            op: OP,
            feature: "bool operands (NumPy's boolean matmul); use astype to a numeric dtype".into(),
        });
    }
    if a.ndim() == 0 || b.ndim() == 0 {
        return Err(Error::shape(
            OP,
            format!("operands must have at least one dimension (shapes {:?} and {:?}); use mul for scalars", a.shape(), b.shape()),
        ));
    }
    let a2 = if a.ndim() == 1 {
        a.expand_dims(0)?
    } else {
        a.clone()
    };
    let b2 = if b.ndim() == 1 {
        b.expand_dims(-1)?
    } else {
        b.clone()
    };
    let (m, ka) = (a2.shape()[a2.ndim() - 2], a2.shape()[a2.ndim() - 1]);
    let (kb, n) = (b2.shape()[b2.ndim() - 2], b2.shape()[b2.ndim() - 1]);
    if ka != kb {
        return Err(Error::shape(
            OP,
            format!("shapes {:?} and {:?} do not align: the last axis of the first has {ka} elements, the second-to-last of the second {kb}", a.shape(), b.shape()),
        ));
    }
    let batch = broadcast_shapes(
        OP,
        &[&a2.shape()[..a2.ndim() - 2], &b2.shape()[..b2.ndim() - 2]],
    )
    .map_err(|e| match e {
        Error::Shape { .. } => Error::shape(
            OP,
            format!(
                "batch dimensions of shapes {:?} and {:?} do not broadcast",
                a.shape(),
                b.shape()
            ),
        ),
        other => other,
    })?;
    let mut full: Vec<usize> = batch.clone();
    full.extend([m, n]);
    let mut out_shape: Vec<usize> = batch.clone();
    if a.ndim() > 1 {
        out_shape.push(m);
    }
    if b.ndim() > 1 {
        out_shape.push(n);
    }
    let dev = &a.device().inner;
    let c = if ka == 0 {
        // An empty sum: zeros, like NumPy.
        Array::zeros(a.device(), &full, a.dtype())?
    } else {
        let c = Array::empty(OP, a.device(), &full, a.dtype())?;
        if !c.is_empty() {
            let mut ab = batch.clone();
            ab.extend([m, ka]);
            let mut bb = batch.clone();
            bb.extend([ka, n]);
            let batched_a = a2.ndim() > 2;
            let batched_b = b2.ndim() > 2;
            run(
                dev,
                forced,
                &a2.broadcast_to(&ab)?,
                batched_a,
                &b2.broadcast_to(&bb)?,
                batched_b,
                &c,
            )?;
        }
        c
    };
    let shape: Vec<isize> = out_shape.iter().map(|&d| d as isize).collect();
    c.reshape(&shape)
}

/// One batched problem on raw operands: C[b] = A[b] @ B[b] with element strides.
struct Problem<'a> {
    batch: u64,
    m: u64,
    n: u64,
    k: u64,
    a: View<'a>,
    b: View<'a>,
    c: View<'a>,
}

/// An operand as (buffer, element offset, batch/row/column strides).
#[derive(Clone, Copy)]
struct View<'a> {
    array: &'a Array,
    offset: i64,
    bs: i64,
    rs: i64,
    cs: i64,
}

impl<'a> View<'a> {
    fn buffer(&self) -> &'a wgpu::Buffer {
        self.array.storage.buffer().expect("non-empty operand")
    }
    fn operand(&self, strides: [i64; 4]) -> Operand {
        Operand {
            offset: self.offset,
            strides: strides.to_vec(),
            elem_bytes: self.array.dtype().size_bytes(),
            buffer_bytes: self.array.storage.bytes(),
        }
    }
}

/// `c[...] = a @ b` for 3-d views `(batch, M, K) @ (batch, K, N)` into the `(batch, M, N)` view
/// `c`, which must not share memory with `a` or `b`; a batch stride of 0 broadcasts an operand.
pub(crate) fn matmul_into(a: &Array, b: &Array, c: &Array) -> Result<()> {
    if c.is_empty() {
        return Ok(());
    }
    if a.shape()[2] == 0 {
        return c.fill(0.0);
    }
    let batched = |x: &Array| x.shape()[0] > 1 && x.strides()[0] != 0;
    run(&c.device().inner, None, a, batched(a), b, batched(b), c)
}

/// `c = a @ b` for batch-broadcast 3+-d views of equal batch shape; `c` does not alias them.
fn run(
    dev: &DeviceInner,
    forced: Option<MatmulKernel>,
    a: &Array,
    batched_a: bool,
    b: &Array,
    batched_b: bool,
    c: &Array,
) -> Result<()> {
    let nd = c.ndim();
    let (m, n, k) = (
        c.shape()[nd - 2] as u64,
        c.shape()[nd - 1] as u64,
        a.shape()[nd - 1] as u64,
    );
    let kernel = match forced {
        Some(MatmulKernel::SubgroupBroadcast { rows }) => {
            if a.dtype() != DType::F32 || !dev.has_subgroups_of_8() || !TILE_ROWS.contains(&rows) {
                return Err(Error::Unsupported {
                    op: OP,
                    feature: format!("the subgroup-broadcast kernel ({rows} rows) needs f32 (got {}), rows in {TILE_ROWS:?}, and an adapter with 8-wide subgroups", a.dtype()),
                });
            }
            Some(MatmulKernel::SubgroupBroadcast { rows })
        }
        Some(other) => Some(other),
        None if m == 1 || n == 1 => None,
        None if a.dtype() == DType::F32 && m >= 64 && n >= 64 && k >= 32 && sgb_fits(dev, k, n) => {
            Some(tuned_kernel(dev, a.device())?.chosen)
        }
        None => Some(MatmulKernel::Tiled),
    };
    match kernel {
        Some(MatmulKernel::SubgroupBroadcast { rows }) => {
            run_sgb(dev, rows, a, batched_a, b, batched_b, c)
        }
        Some(MatmulKernel::Tiled) => for_each_batch(a, b, c, |p| launch_tiled(dev, &p)),
        Some(MatmulKernel::Naive) => {
            for_each_batch(a, b, c, |p| launch_strided(dev, &p, Kernel::MatmulNaive))
        }
        None => for_each_batch(a, b, c, |p| launch_gemv(dev, &p)),
    }
}

/// Splits the batch axes into problems with one batch axis each (collapsing what collapses).
fn for_each_batch<'a>(
    a: &'a Array,
    b: &'a Array,
    c: &'a Array,
    mut f: impl FnMut(Problem<'a>) -> Result<()>,
) -> Result<()> {
    let nd = c.ndim();
    let batch: Vec<u64> = c.shape()[..nd - 2].iter().map(|&d| d as u64).collect();
    let bstr = |x: &Array| {
        x.strides()[..nd - 2]
            .iter()
            .map(|&s| s as i64)
            .collect::<Vec<_>>()
    };
    let (shape, strides) = collapse(&batch, &[bstr(a), bstr(b), bstr(c)]);
    // The innermost collapsed batch axis goes to the grid; the others are looped here.
    let (outer, inner) = if shape.is_empty() {
        (&[][..], 1)
    } else {
        (&shape[..shape.len() - 1], shape[shape.len() - 1])
    };
    let inner_stride = |i: usize| strides[i].last().copied().unwrap_or(0);
    let outer_count: u64 = outer.iter().product();
    let (m, n, k) = (
        c.shape()[nd - 2] as u64,
        c.shape()[nd - 1] as u64,
        a.shape()[nd - 1] as u64,
    );
    let s = |x: &Array, d: usize| x.strides()[d] as i64;
    for o in 0..outer_count {
        let mut rem = o;
        let mut offs = [
            a.layout.offset as i64,
            b.layout.offset as i64,
            c.layout.offset as i64,
        ];
        for d in (0..outer.len()).rev() {
            let idx = (rem % outer[d]) as i64;
            rem /= outer[d];
            for (off, st) in offs.iter_mut().zip(&strides) {
                *off += idx * st[d];
            }
        }
        let view = |x: &'a Array, i: usize| View {
            array: x,
            offset: offs[i],
            bs: inner_stride(i),
            rs: s(x, nd - 2),
            cs: s(x, nd - 1),
        };
        f(Problem {
            batch: inner,
            m,
            n,
            k,
            a: view(a, 0),
            b: view(b, 1),
            c: view(c, 2),
        })?;
    }
    Ok(())
}

fn bind<'a>(v: &View<'a>, w: &Window) -> Binding<'a> {
    Binding {
        buffer: v.buffer(),
        offset: w.byte_offset,
        size: w.byte_size,
    }
}

fn limits(dev: &DeviceInner) -> BlockLimits {
    BlockLimits {
        max_elems: u64::MAX,
        ..dev.block_limits()
    }
}

fn i32_of(v: i64) -> Result<i32> {
    i32::try_from(v)
        .map_err(|_| Error::overflow(OP, format!("stride or offset {v} does not fit in i32")))
}

/// One kernel launch of a matmul: a block of (batch, M, N, K), and whether it adds to C (a
/// later K chunk) rather than writing it.
struct Launch {
    block: Block,
    accumulate: bool,
}

/// Plans the launches over (batch, M, N, K): at most 65535 batches (the grid's z) and `max_k`
/// k-steps per launch, each operand inside one binding window. Launches are ordered so that for
/// every output element the first K chunk (which writes) runs before later ones (which add).
///
/// `max_k` bounds the loop trip count of one invocation: lavapipe (llvmpipe) stops every loop of
/// an invocation once 65535 iterations have run in total, silently truncating longer sums.
fn plan_mnk(
    dev: &DeviceInner,
    p: &Problem,
    granules: [u64; 4],
    max_k: u64,
    ops: &[Operand],
) -> Result<Vec<Launch>> {
    plan_mnk_from(dev, p, granules, max_k, ops, false)
}

/// [`plan_mnk`]; with `add`, every launch adds to C (the problem continues an earlier sum).
fn plan_mnk_from(
    dev: &DeviceInner,
    p: &Problem,
    granules: [u64; 4],
    max_k: u64,
    ops: &[Operand],
    add: bool,
) -> Result<Vec<Launch>> {
    let mut launches = Vec::new();
    let max_k = max_k / granules[3] * granules[3];
    let mut b0 = 0;
    while b0 < p.batch {
        let nb = (p.batch - b0).min(MAX_BATCH);
        let mut k0 = 0;
        while k0 < p.k {
            let nk = (p.k - k0).min(max_k);
            let shifted: Vec<Operand> = ops
                .iter()
                .map(|o| Operand {
                    offset: o.offset + b0 as i64 * o.strides[0] + k0 as i64 * o.strides[3],
                    ..o.clone()
                })
                .collect();
            let mut blocks =
                plan_granular(OP, &[nb, p.m, p.n, nk], &granules, &shifted, limits(dev))?;
            blocks.sort_by_key(|bl| (bl.start[3], bl.first_index));
            launches.extend(blocks.into_iter().map(|block| Launch {
                accumulate: add || k0 + block.start[3] > 0,
                block,
            }));
            k0 += nk;
        }
        b0 += nb;
    }
    Ok(launches)
}

/// Output tiles below which a long-K product is split along K (a skinny product otherwise
/// leaves most of the adapter idle).
const SPLIT_K_TILES: u64 = 16;

/// The tiled kernel, splitting K for skinny products with a long K: `s` slices of K are
/// computed as a batch of partial products, then summed by a GEMV against ones.
fn launch_tiled(dev: &DeviceInner, p: &Problem) -> Result<()> {
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
        return launch_strided(dev, p, Kernel::MatmulTiled);
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
    launch_strided_from(dev, &sliced, Kernel::MatmulTiled, false)?;
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
        launch_strided_from(dev, &tail, Kernel::MatmulTiled, true)?;
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
fn launch_strided(dev: &DeviceInner, p: &Problem, kernel: Kernel) -> Result<()> {
    launch_strided_from(dev, p, kernel, false)
}

/// [`launch_strided`]; with `add`, the product is added to C.
fn launch_strided_from(dev: &DeviceInner, p: &Problem, kernel: Kernel, add: bool) -> Result<()> {
    let ops = [
        p.a.operand([p.a.bs, p.a.rs, 0, p.a.cs]),
        p.b.operand([p.b.bs, 0, p.b.cs, p.b.rs]),
        p.c.operand([p.c.bs, p.c.rs, p.c.cs, 0]),
    ];
    let key = PipelineKey::new(kernel, Variant::one(p.c.array.dtype()));
    // Splits at any row, column or k: the kernel checks bounds, and a long K may force single
    // rows per launch.
    // Loop trips per k-step: the k0 loop plus the 16-step inner loop.
    let max_k = if kernel == Kernel::MatmulTiled {
        16 * 1024
    } else {
        MAX_LOOP_TRIPS
    };
    let launches = plan_mnk_from(dev, p, [1, 1, 1, 1], max_k, &ops, add)?;
    // Outputs per workgroup side: 64 for the tiled kernel, 16 for the naive one.
    let side = if kernel == Kernel::MatmulTiled {
        64
    } else {
        16
    };
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
                &format!("{nb}x({m}x{k} @ {k}x{n})"),
            )?;
        }
        Ok(())
    })
}

fn launch_gemv(dev: &DeviceInner, p: &Problem) -> Result<()> {
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
    let key = PipelineKey::new(Kernel::MatmulGemv, Variant::one(p.c.array.dtype()));
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
                &format!("gemv {nb}x({r}x{k})"),
            )?;
        }
        Ok(())
    })
}

/// Whether the subgroup-broadcast kernel's smallest launch (64 padded rows of A, 32 rows of B)
/// fits one binding; otherwise the tiled kernel, which can split to single rows, runs.
fn sgb_fits(dev: &DeviceInner, k: u64, n: u64) -> bool {
    let max = limits(dev).max_binding;
    64 * k.next_multiple_of(32) * 4 <= max && 32 * n.next_multiple_of(64) * 4 <= max
}

/// Rows of C per workgroup of the subgroup-broadcast kernel (2 subgroups of `rows` each).
fn sgb_rows_per_workgroup(rows: u32) -> u64 {
    rows as u64 * 2
}

/// Whether a matrix view can feed the subgroup-broadcast kernel in place: rows of whole vec4s
/// (unit column stride, row and batch strides and offset multiples of 4, columns a multiple of 4).
fn vec4_rows(x: &Array) -> bool {
    let nd = x.ndim();
    let (cols, cs, rs) = (x.shape()[nd - 1], x.strides()[nd - 1], x.strides()[nd - 2]);
    let batch_ok = x.shape()[..nd - 2]
        .iter()
        .zip(&x.strides()[..nd - 2])
        .all(|(&n, &s)| n == 1 || s % 4 == 0);
    (cs == 1 || cols == 1)
        && cols % 4 == 0
        && rs % 4 == 0
        && rs >= 0
        && x.layout.offset.is_multiple_of(4)
        && batch_ok
}

/// The subgroup-broadcast path. Operands whose rows are whole vec4s are read in place (the
/// kernel handles any M, any K and the edges); others are packed once into such a layout.
fn run_sgb(
    dev: &DeviceInner,
    rows: u32,
    a: &Array,
    batched_a: bool,
    b: &Array,
    batched_b: bool,
    c: &Array,
) -> Result<()> {
    let nd = c.ndim();
    let (m, n, k) = (c.shape()[nd - 2], c.shape()[nd - 1], a.shape()[nd - 1]);
    // Columns padded to a multiple of 4 where a copy is needed anyway.
    let (k4, n4) = (k.next_multiple_of(4), n.next_multiple_of(4));
    let prepare = |x: &Array, batched: bool, cols4: usize| -> Result<Array> {
        // An unbatched operand stays one matrix (batch stride 0) instead of being replicated.
        let x = if batched {
            x.clone()
        } else {
            x.slice(&vec![crate::SliceArg::Index(0); nd - 2])?
        };
        let x = x.reshape(&flat3(x.shape()))?;
        if vec4_rows(&x) {
            return Ok(x);
        }
        let (bt, r, cols) = (x.shape()[0], x.shape()[1], x.shape()[2]);
        let padded = Array::zeros(x.device(), &[bt, r, cols4], DType::F32)?;
        padded
            .slice(&[
                crate::SliceArg::full(),
                crate::SliceArg::full(),
                crate::SliceArg::range(None, Some(cols as isize), 1),
            ])?
            .assign(&x)?;
        Ok(padded)
    };
    let ap = prepare(a, batched_a, k4)?;
    let bp = prepare(b, batched_b, n4)?;
    // C's batch axes merged; when that needs a copy, C is written through a temporary.
    let c3 = c.reshape(&flat3(c.shape()))?;
    let in_place = c3.may_share_memory(c) && vec4_rows(&c3);
    let cp = if in_place {
        c3.clone()
    } else {
        Array::empty(OP, c.device(), &[c3.shape()[0], m, n4], DType::F32)?
    };
    let nbatch = c3.shape()[0] as u64;
    let bs = |x: &Array| {
        if x.shape()[0] > 1 {
            x.strides()[0] as i64
        } else {
            0
        }
    };
    let st = |x: &Array, d: usize| x.strides()[d] as i64;
    let view = |x: &Array, strides: [i64; 4]| Operand {
        offset: x.layout.offset as i64,
        strides: strides.to_vec(),
        elem_bytes: 4,
        buffer_bytes: x.storage.bytes(),
    };
    let ops = [
        view(&ap, [bs(&ap), st(&ap, 1), 0, 1]),
        view(&bp, [bs(&bp), 0, 1, st(&bp, 1)]),
        view(&cp, [bs(&cp), st(&cp, 1), 1, 0]),
    ];
    let p = Problem {
        batch: nbatch,
        m: m as u64,
        n: n4 as u64,
        k: k as u64,
        a: View {
            array: &ap,
            offset: 0,
            bs: 0,
            rs: 0,
            cs: 0,
        },
        b: View {
            array: &bp,
            offset: 0,
            bs: 0,
            rs: 0,
            cs: 0,
        },
        c: View {
            array: &cp,
            offset: 0,
            bs: 0,
            rs: 0,
            cs: 0,
        },
    };
    let wg_rows = sgb_rows_per_workgroup(rows);
    let launches = plan_mnk(
        dev,
        &p,
        [1, wg_rows.max(64), 64, 32],
        32 * MAX_LOOP_TRIPS,
        &ops,
    )?;
    let key = PipelineKey::new(Kernel::MatmulSgb(rows), Variant::one(DType::F32));
    let arrays = [&ap, &bp, &cp];
    dev.guarded(OP, || {
        for Launch {
            block: bl,
            accumulate,
        } in &launches
        {
            let [nb, bm, bn, bk] = [bl.extent[0], bl.extent[1], bl.extent[2], bl.extent[3]];
            let mut par = Params::default();
            for w in &bl.windows {
                par.u32((w.base / 4) as u32);
            }
            for x in arrays {
                par.u32((x.strides()[1] / 4) as u32);
            }
            for o in &ops {
                par.u32((o.strides[0] / 4) as u32);
            }
            par.u32((bk / 32) as u32)
                .u32((bk % 32) as u32)
                .u32(*accumulate as u32);
            par.u32(bm as u32).u32((bn / 4) as u32);
            let binds: Vec<Binding> = bl
                .windows
                .iter()
                .zip(arrays)
                .map(|(w, arr)| {
                    // vec4 bindings: whole 16-byte elements.
                    let size = w
                        .byte_size
                        .next_multiple_of(16)
                        .min(arr.storage.bytes() - w.byte_offset);
                    Binding {
                        buffer: arr.storage.buffer().expect("non-empty"),
                        offset: w.byte_offset,
                        size,
                    }
                })
                .collect();
            let grid = (
                bn.div_ceil(64) as u32,
                bm.div_ceil(wg_rows) as u32,
                nb as u32,
            );
            dev.dispatch_grid(
                &key,
                par.bytes(),
                &binds,
                grid,
                &format!("{nb}x({bm}x{bk} @ {bk}x{bn})"),
            )?;
        }
        Ok(())
    })?;
    if !in_place {
        let result = cp.slice(&[
            crate::SliceArg::full(),
            crate::SliceArg::full(),
            crate::SliceArg::range(None, Some(n as isize), 1),
        ])?;
        let shape: Vec<isize> = c.shape().iter().map(|&d| d as isize).collect();
        c.assign(&result.reshape(&shape)?)?;
    }
    Ok(())
}

/// A shape with its batch axes merged: `(batch, rows, cols)`.
fn flat3(shape: &[usize]) -> [isize; 3] {
    let nd = shape.len();
    let batch: usize = shape[..nd - 2].iter().product();
    [
        batch as isize,
        shape[nd - 2] as isize,
        shape[nd - 1] as isize,
    ]
}

/// The matmul state each device keeps: the tune's result, made once.
#[derive(Default)]
struct TuneState {
    tuning: OnceLock<MatmulTuning>,
    /// Serialises tuning; whoever comes second reuses the result.
    lock: Mutex<()>,
}

/// The device's f32 kernel choice, tuning on first use.
pub(crate) fn tuned_kernel(dev: &DeviceInner, device: &crate::Device) -> Result<MatmulTuning> {
    let state = dev.extensions.get::<TuneState>();
    if let Some(t) = state.tuning.get() {
        return Ok(t.clone());
    }
    let _guard = state.lock.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(t) = state.tuning.get() {
        return Ok(t.clone());
    }
    let t = tune(dev, device)?;
    log::debug!(
        "gpuarray: matmul tune on {}: chose {} in {:?}",
        dev.info,
        t.chosen,
        t.elapsed
    );
    let _ = state.tuning.set(t.clone());
    Ok(t)
}

fn tune(dev: &DeviceInner, device: &crate::Device) -> Result<MatmulTuning> {
    let started = Instant::now();
    let candidates: Vec<MatmulKernel> = kernels_for(dev)
        .into_iter()
        .filter(|k| *k != MatmulKernel::Naive)
        .collect();
    let (m, n, k) = (512usize, 512usize, 512usize);
    if candidates.len() == 1 {
        return Ok(MatmulTuning {
            chosen: MatmulKernel::Tiled,
            candidates: vec![],
            shape: (m, n, k),
            elapsed: started.elapsed(),
            rejected: vec![],
        });
    }
    // Exactly representable inputs and sums, so every correct kernel gives identical bits.
    let ha: Vec<f32> = (0..m * k).map(|i| ((i * 7) % 13) as f32 - 6.0).collect();
    let hb: Vec<f32> = (0..k * n).map(|i| ((i * 5) % 11) as f32 - 5.0).collect();
    let a = Array::from_slice(device, &ha, &[m, k])?;
    let b = Array::from_slice(device, &hb, &[k, n])?;
    let mut reference: Option<Vec<f32>> = None;
    let mut results = Vec::new();
    let mut rejected = Vec::new();
    for &cand in &candidates {
        let c = Array::empty(OP, device, &[m, n], DType::F32)?;
        let once = || -> Result<()> {
            match cand {
                MatmulKernel::Tiled | MatmulKernel::Naive => for_each_batch(
                    &a.expand_dims(0)?,
                    &b.expand_dims(0)?,
                    &c.expand_dims(0)?,
                    |p| launch_strided(dev, &p, Kernel::MatmulTiled),
                ),
                MatmulKernel::SubgroupBroadcast { rows } => run_sgb(
                    dev,
                    rows,
                    &a.expand_dims(0)?,
                    true,
                    &b.expand_dims(0)?,
                    true,
                    &c.expand_dims(0)?,
                ),
            }
        };
        once()?; // warm-up: compiles the kernel on drivers that compile at first use
        let out = c.to_vec::<f32>()?;
        // A kernel whose subgroup assumption does not hold on this driver gives wrong results:
        // it is never chosen, and the tuning says so (`rejected`).
        match &reference {
            None => reference = Some(out),
            Some(r) if *r != out => {
                let wrong = r.iter().zip(&out).filter(|(x, y)| x != y).count();
                let why = format!(
                    "{wrong} of {} elements differ from {}'s on the {m}x{k} @ {k}x{n} tuning problem",
                    out.len(),
                    candidates[0]
                );
                log::warn!(
                    "gpuarray: matmul kernel {cand} not used on {}: {why}",
                    dev.info
                );
                rejected.push((cand, why));
                continue;
            }
            _ => {}
        }
        let mut best = f64::INFINITY;
        for _ in 0..2 {
            let t = Instant::now();
            once()?;
            device.synchronize()?;
            best = best.min(t.elapsed().as_secs_f64());
        }
        results.push((cand, 2.0 * (m * n * k) as f64 / best / 1e9));
    }
    let chosen = results
        .iter()
        .max_by(|x, y| x.1.total_cmp(&y.1))
        .map_or(MatmulKernel::Tiled, |r| r.0);
    Ok(MatmulTuning {
        chosen,
        candidates: results,
        shape: (m, n, k),
        elapsed: started.elapsed(),
        rejected,
    })
}

/// Every matmul kernel `dev` can run: the naive and tiled kernels everywhere, the
/// subgroup-broadcast ones where subgroups are 8 wide.
fn kernels_for(dev: &DeviceInner) -> Vec<MatmulKernel> {
    let mut kernels = vec![MatmulKernel::Tiled, MatmulKernel::Naive];
    if dev.has_subgroups_of_8() {
        kernels.extend(TILE_ROWS.map(|rows| MatmulKernel::SubgroupBroadcast { rows }));
    }
    kernels
}

impl crate::Device {
    /// The f32 matmul kernel this device uses for large products, running the one-time tune
    /// now if no matmul has run it yet (see [`MatmulTuning`](crate::MatmulTuning)).
    ///
    /// ```no_run
    /// # fn main() -> gpuarray::Result<()> {
    /// let dev = gpuarray::Device::new()?;
    /// let t = dev.matmul_tuning()?;
    /// println!("matmul kernel: {} (tuned in {:?})", t.chosen, t.elapsed);
    /// # Ok(()) }
    /// ```
    pub fn matmul_tuning(&self) -> Result<MatmulTuning> {
        tuned_kernel(&self.inner, self)
    }

    /// Every matmul kernel this device can run (each accepted by
    /// [`Array::matmul_with`](crate::Array::matmul_with)), whichever the tune chooses.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::full(&dev, &[4, 4], 1.0, gpuarray::DType::F32)?;
    /// for k in dev.matmul_kernels() {
    ///     assert_eq!(a.matmul_with(&a, k)?.to_vec::<f32>()?, vec![4.0; 16]);
    /// }
    /// # Ok(()) }
    /// ```
    pub fn matmul_kernels(&self) -> Vec<MatmulKernel> {
        kernels_for(&self.inner)
    }
}
