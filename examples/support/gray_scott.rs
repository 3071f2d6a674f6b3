//! Gray–Scott reaction–diffusion written only with gpuarray ops, and the same step as a plain
//! single-threaded Rust loop (the CPU reference): shared by `examples/gray_scott.rs` (frames as
//! PNG, steps/s beside the CPU's) and `tests/gray_scott.rs` (the field against the CPU's, the
//! picture decoded).
//!
//! Two fields u, v on a periodic n × n grid; per step, with L the 5-point Laplacian,
//! u += dt·(Du·L(u) − u·v² + F·(1 − u)) and v += dt·(Dv·L(v) + u·v² − (F + k)·v). On the device
//! L's neighbours are `roll`s of the field and each update is one `fuse`d kernel, so a step is
//! eight copies and two element-wise passes. The start is seeded by Philox: blocks of a coarse
//! random grid hold v = 0.25 + noise.

#![allow(dead_code)]

use gpuarray::random::Generator;
use gpuarray::{Array, DType, Device, Expr, Fused, fuse};

/// The model's constants (the "coral" regime: spots that grow and split).
#[derive(Debug, Clone, Copy)]
pub struct Model {
    pub du: f32,
    pub dv: f32,
    pub feed: f32,
    pub kill: f32,
    pub dt: f32,
}

pub const CORAL: Model = Model {
    du: 0.16,
    dv: 0.08,
    feed: 0.060,
    kill: 0.062,
    dt: 1.0,
};

/// Side of the coarse blocks the start is seeded in.
pub const BLOCK: usize = 8;

/// The simulation on the device: the two fields and the two fused update kernels.
pub struct Simulation {
    pub n: usize,
    pub u: Array,
    pub v: Array,
    update_u: Fused,
    update_v: Fused,
}

impl Simulation {
    /// An n × n grid (n a multiple of [`BLOCK`]) seeded from `seed`: u = 1, v = 0, except in
    /// the blocks a coarse Philox grid picks (about one in six), where u = 0.5 and v = 0.25 +
    /// 0.1·noise.
    pub fn new(dev: &Device, n: usize, seed: u64, m: Model) -> gpuarray::Result<Simulation> {
        assert!(
            n.is_multiple_of(BLOCK) && n > 0,
            "the side must be a multiple of {BLOCK}"
        );
        let mut rng = Generator::new(dev, seed);
        let coarse = rng.random(&[n / BLOCK, n / BLOCK], DType::F32)?;
        let blocks = coarse
            .gt(5.0 / 6.0)?
            .astype(DType::F32)?
            .repeat(BLOCK, Some(0))?
            .repeat(BLOCK, Some(1))?;
        let noise = rng.random(&[n, n], DType::F32)?;
        let v = blocks.mul(&noise.mul(0.1)?.add(0.25)?)?;
        let u = blocks.mul(-0.5)?.add(1.0)?;
        // f32 constants (feed + kill summed in f32, as the CPU loop sums it).
        let f64_of = |x: f32| x as f64;
        let (du, dv, feed, fk, dt) = (
            f64_of(m.du),
            f64_of(m.dv),
            f64_of(m.feed),
            f64_of(m.feed + m.kill),
            f64_of(m.dt),
        );
        let update_u = fuse(move |[u, v, n, s, e, w]| {
            let uvv = &u * &v * &v;
            let change = (laplacian(&u, &n, &s, &e, &w) * du - uvv) + (1.0 - &u) * feed;
            &u + change * dt
        });
        let update_v = fuse(move |[v, u, n, s, e, w]| {
            let uvv = &u * &v * &v;
            let change = (laplacian(&v, &n, &s, &e, &w) * dv + uvv) - &v * fk;
            &v + change * dt
        });
        Ok(Simulation {
            n,
            u,
            v,
            update_u,
            update_v,
        })
    }

    /// One step (nothing waits: the work is queued).
    pub fn step(&mut self) -> gpuarray::Result<()> {
        let around = |x: &Array| -> gpuarray::Result<[Array; 4]> {
            Ok([
                x.roll(1, Some(0))?,
                x.roll(-1, Some(0))?,
                x.roll(1, Some(1))?,
                x.roll(-1, Some(1))?,
            ])
        };
        let [un, us, ue, uw] = around(&self.u)?;
        let [vn, vs, ve, vw] = around(&self.v)?;
        let u = self
            .update_u
            .call(&[&self.u, &self.v, &un, &us, &ue, &uw])?;
        let v = self
            .update_v
            .call(&[&self.v, &self.u, &vn, &vs, &ve, &vw])?;
        self.u = u;
        self.v = v;
        Ok(())
    }

    /// The v field as an n × n × 3 RGB image, coloured on the device.
    pub fn image(&self) -> gpuarray::Result<Array> {
        colour(&self.v)
    }
}

/// The 5-point Laplacian from the four neighbours, summed in the CPU loop's order.
fn laplacian(x: &Expr, n: &Expr, s: &Expr, e: &Expr, w: &Expr) -> Expr {
    ((n + s) + (e + w)) - x * 4.0
}

/// v (about 0 to 0.4) through a dark-blue → orange → pale-yellow ramp, as 8-bit RGB.
pub fn colour(v: &Array) -> gpuarray::Result<Array> {
    let t = v.mul(2.5)?.clip(Some(0.0), Some(1.0))?;
    let channel = |scale: f64, shift: f64| -> gpuarray::Result<Array> {
        t.mul(scale)?
            .add(shift)?
            .clip(Some(0.0), Some(1.0))?
            .mul(255.0)?
            .round()?
            .astype(DType::U8)
    };
    let r = channel(2.0, 0.05)?;
    let g = channel(1.4, -0.2)?;
    let b = channel(-1.2, 0.45)?.maximum(&channel(3.0, -2.0)?)?;
    gpuarray::stack(&[&r, &g, &b], -1)
}

/// The same colouring on the host (the test's reference for the picture).
pub fn colour_host(v: &[f32]) -> Vec<u8> {
    let byte = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round_ties_even() as u8;
    v.iter()
        .flat_map(|&x| {
            let t = (x * 2.5).clamp(0.0, 1.0);
            let b = byte(t * -1.2 + 0.45).max(byte(t * 3.0 - 2.0));
            [byte(t * 2.0 + 0.05), byte(t * 1.4 - 0.2), b]
        })
        .collect()
}

/// The CPU reference: the same step as a plain loop over the grid (one thread).
pub struct CpuSimulation {
    pub n: usize,
    pub u: Vec<f32>,
    pub v: Vec<f32>,
    m: Model,
}

impl CpuSimulation {
    /// Starts from the given fields (the device's start, read back: Philox is tested elsewhere).
    pub fn new(n: usize, u: Vec<f32>, v: Vec<f32>, m: Model) -> CpuSimulation {
        CpuSimulation { n, u, v, m }
    }

    pub fn step(&mut self) {
        let n = self.n;
        let Model {
            du,
            dv,
            feed,
            kill,
            dt,
        } = self.m;
        let (u, v) = (&self.u, &self.v);
        let mut nu = vec![0.0f32; n * n];
        let mut nv = vec![0.0f32; n * n];
        for i in 0..n {
            let (up, down) = ((i + n - 1) % n, (i + 1) % n);
            for j in 0..n {
                let (left, right) = ((j + n - 1) % n, (j + 1) % n);
                let at = |f: &[f32], r: usize, c: usize| f[r * n + c];
                // roll(1, axis 0) brings row i − 1 to row i: "north" is up, then south, east
                // (roll(1, axis 1): column j − 1), west.
                let lap = |f: &[f32]| {
                    ((at(f, up, j) + at(f, down, j)) + (at(f, i, left) + at(f, i, right)))
                        - at(f, i, j) * 4.0
                };
                let (uc, vc) = (at(u, i, j), at(v, i, j));
                let uvv = uc * vc * vc;
                let cu = (lap(u) * du - uvv) + (1.0 - uc) * feed;
                let cv = (lap(v) * dv + uvv) - vc * (feed + kill);
                nu[i * n + j] = uc + cu * dt;
                nv[i * n + j] = vc + cv * dt;
            }
        }
        self.u = nu;
        self.v = nv;
    }
}
