//! A mix of ops with random sizes, each checked against a host reference: the work of the thread
//! and soak tests.

use super::philox;
use gpuarray::random::Generator;
use gpuarray::{Array, DType, Device, einsum};
use std::sync::{Mutex, mpsc};

/// An array made by one thread, and what it must hold, for another thread to check and use.
pub struct Handoff {
    pub array: Array,
    pub want: Vec<f32>,
    pub from: usize,
}

/// A small deterministic generator for sizes and values (the test's own, independent of the
/// library's Philox).
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    pub fn below(&mut self, n: u64) -> usize {
        (self.next() % n) as usize
    }
    pub fn values(&mut self, n: usize) -> Vec<f32> {
        // Multiples of 1/8 in [-8, 8): sums and products of a few of them are exact in f32.
        (0..n)
            .map(|_| (self.below(128) as f32 - 64.0) / 8.0)
            .collect()
    }
}

pub fn close(got: &[f32], want: &[f32], tol: f32, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= tol * (1.0 + w.abs()),
            "{what}: element {i} is {g}, want {w}"
        );
    }
}

fn matmul_ref(a: &[f32], b: &[f32], m: usize, k: usize, n: usize) -> Vec<f32> {
    let mut c = vec![0f32; m * n];
    for i in 0..m {
        for j in 0..n {
            c[i * n + j] = (0..k).map(|p| a[i * k + p] * b[p * n + j]).sum();
        }
    }
    c
}

/// One op chosen by `rng`, checked against the host. `inbox`/`outbox` pass arrays between threads.
pub fn one_op(
    dev: &Device,
    t: usize,
    i: u64,
    rng: &mut Lcg,
    inbox: &Mutex<mpsc::Receiver<Handoff>>,
    outbox: &mpsc::Sender<Handoff>,
) {
    let what = format!("thread {t} op {i}");
    match rng.below(8) {
        0 => {
            // Element-wise with broadcasting.
            let (m, n) = (1 + rng.below(64), 1 + rng.below(300));
            let (x, y) = (rng.values(m * n), rng.values(n));
            let a = Array::from_slice(dev, &x, &[m, n]).unwrap();
            let b = Array::from_slice(dev, &y, &[n]).unwrap();
            let got = a.mul(&b).unwrap().add(&a).unwrap().to_vec::<f32>().unwrap();
            let want: Vec<f32> = (0..m * n).map(|e| x[e] * y[e % n] + x[e]).collect();
            close(&got, &want, 0.0, &format!("{what}: a * b + a"));
        }
        1 => {
            // Reductions along each axis.
            let (m, n) = (1 + rng.below(40), 1 + rng.below(500));
            let x = rng.values(m * n);
            let a = Array::from_slice(dev, &x, &[m, n]).unwrap();
            let rows = a.sum(1, false).unwrap().to_vec::<f32>().unwrap();
            let cols = a.max(0, false).unwrap().to_vec::<f32>().unwrap();
            let want_rows: Vec<f32> = (0..m).map(|r| x[r * n..(r + 1) * n].iter().sum()).collect();
            let want_cols: Vec<f32> = (0..n)
                .map(|c| (0..m).map(|r| x[r * n + c]).fold(f32::MIN, f32::max))
                .collect();
            close(&rows, &want_rows, 0.0, &format!("{what}: sum(1)"));
            close(&cols, &want_cols, 0.0, &format!("{what}: max(0)"));
        }
        2 => {
            // Matmul, now and then large enough to take a while on a CPU adapter.
            let big = rng.below(8) == 0;
            let (m, k, n) = if big {
                (256, 256, 256)
            } else {
                (1 + rng.below(70), 1 + rng.below(70), 1 + rng.below(70))
            };
            let (x, y) = (rng.values(m * k), rng.values(k * n));
            let a = Array::from_slice(dev, &x, &[m, k]).unwrap();
            let b = Array::from_slice(dev, &y, &[k, n]).unwrap();
            let got = a.matmul(&b).unwrap().to_vec::<f32>().unwrap();
            close(
                &got,
                &matmul_ref(&x, &y, m, k, n),
                1e-6,
                &format!("{what}: matmul {m}x{k}x{n}"),
            );
        }
        3 => {
            // Batched einsum contraction.
            let (bt, m, k, n) = (
                1 + rng.below(4),
                1 + rng.below(20),
                1 + rng.below(20),
                1 + rng.below(20),
            );
            let (x, y) = (rng.values(bt * m * k), rng.values(bt * k * n));
            let a = Array::from_slice(dev, &x, &[bt, m, k]).unwrap();
            let b = Array::from_slice(dev, &y, &[bt, k, n]).unwrap();
            let got = einsum("bij,bjk->bik", &[&a, &b])
                .unwrap()
                .to_vec::<f32>()
                .unwrap();
            let want: Vec<f32> = (0..bt)
                .flat_map(|z| {
                    matmul_ref(
                        &x[z * m * k..(z + 1) * m * k],
                        &y[z * k * n..(z + 1) * k * n],
                        m,
                        k,
                        n,
                    )
                })
                .collect();
            close(&got, &want, 1e-6, &format!("{what}: einsum bij,bjk->bik"));
        }
        4 => {
            // Philox words from an arbitrary stream position, bit for bit.
            let (seed, sub, offset) = (rng.next(), rng.next() % 4, rng.next() % 100_000);
            let n = 1 + rng.below(5000);
            let mut g = Generator::with_stream(dev, seed, sub, offset);
            let got = g.bits(&[n]).unwrap().to_vec::<u32>().unwrap();
            assert_eq!(got, philox::stream(seed, sub, offset, n), "{what}: bits");
        }
        5 => {
            // Hand an array to another thread.
            let n = 1 + rng.below(2000);
            let want = rng.values(n);
            let array = Array::from_slice(dev, &want, &[n]).unwrap();
            outbox
                .send(Handoff {
                    array,
                    want,
                    from: t,
                })
                .unwrap();
        }
        6 => {
            // Use an array another thread made (if one is waiting): read it, and compute with it.
            let got = inbox.lock().unwrap().try_recv();
            if let Ok(h) = got {
                let ctx = format!("{what}: array from thread {}", h.from);
                close(&h.array.to_vec::<f32>().unwrap(), &h.want, 0.0, &ctx);
                let doubled = h.array.add(&h.array).unwrap().to_vec::<f32>().unwrap();
                let want: Vec<f32> = h.want.iter().map(|v| v * 2.0).collect();
                close(&doubled, &want, 0.0, &ctx);
            }
        }
        _ => {
            // Transfers: upload, a cast (or a strided view made contiguous), readback.
            let n = 1 + rng.below(4000);
            let x = rng.values(n);
            let a = Array::from_slice(dev, &x, &[n]).unwrap();
            if dev.supports(DType::F64) {
                let got = a.astype(DType::F64).unwrap().to_vec::<f64>().unwrap();
                let want: Vec<f64> = x.iter().map(|&v| f64::from(v)).collect();
                assert_eq!(got, want, "{what}: f32 -> f64");
            } else {
                // No f64 on this adapter (GL): a reversed view, made contiguous.
                let reversed = a
                    .slice(&[gpuarray::SliceArg::range(None, None, -1)])
                    .unwrap();
                let got = reversed.contiguous().unwrap().to_vec::<f32>().unwrap();
                let want: Vec<f32> = x.iter().rev().copied().collect();
                assert_eq!(got, want, "{what}: reversed copy");
            }
        }
    }
}
