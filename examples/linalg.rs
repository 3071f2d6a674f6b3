//! `numpy.linalg` figures (issue 34), in one run, beside NumPy (OpenBLAS/LAPACK) on the same
//! matrices: 10^4 batched 8×8, 16×16 and 32×32 `solve` (above 8×8 with the looped kernel and,
//! once 500 000 systems are solved, the generated one); 2048² `cholesky`, `solve` and `qr`; 256² and
//! 1024² `eigh` and `svd` (`GPUARRAY_LINALG_EIGH_N`; 256² is `GPUARRAY_LINALG_JACOBI_N`); each
//! with its accuracy (backward error of the solve,
//! reconstruction error of the factorization, relative to ‖A‖ and the dtype's ε). GPU times
//! come from `gpuarray::benchmark` (fastest of the timed runs, each ended by a
//! synchronisation); NumPy's from the same machine in the same run. On lavapipe these are CPU
//! figures.
//!
//! ```text
//! cargo run --release --example linalg
//! GPUARRAY_LINALG_BATCHED_ONLY=1 cargo run --release --example linalg   # the batched solves
//! GPUARRAY_LINALG_N=6000 GPUARRAY_LINALG_LARGE_ONLY=1 cargo run --release --example linalg
//!     # solve, cholesky and qr of one 6000² matrix: past a 128 MiB storage binding
//! GPUARRAY_LINALG_EIGH_ONLY=1 GPUARRAY_MAX_BINDING=2M cargo run --release --example linalg
//!     # eigh and svd only; here with 1024² matrices (4 MB) past a 2 MiB binding
//! GPUARRAY_LINALG_TALL_ONLY=1 cargo run --release --example linalg
//!     # tall-skinny lstsq, svd and qr (70,000 × 3, 100,000 × 10, 300,000 × 4)
//! ```

use gpuarray::linalg::{self, QrMode};
use gpuarray::{Array, Device};
use std::time::Duration;

#[path = "support/numpy.rs"]
mod numpy;
#[path = "support/timing.rs"]
mod timing;

/// Matrix `b` of a batch of n × n test matrices: pseudo-random entries in [−0.5, 0.5) plus
/// `n/10` on the diagonal (well conditioned), from integer arithmetic NumPy repeats exactly.
fn matrices(batch: usize, n: usize) -> Vec<f32> {
    let mut v = Vec::with_capacity(batch * n * n);
    for b in 0..batch as u64 {
        for i in 0..n as u64 {
            for j in 0..n as u64 {
                let r = (i * 2654435761 + j * 40503 + b * 7919) % 1000;
                let diag = if i == j { n as f32 / 10.0 + 1.0 } else { 0.0 };
                v.push(r as f32 / 1000.0 - 0.5 + diag);
            }
        }
    }
    v
}

/// The same matrices in NumPy (`a`, float32, shape (batch, n, n)).
fn numpy_setup(batch: usize, n: usize) -> String {
    format!(
        "b = np.arange({batch}, dtype=np.int64)[:, None, None]; i = np.arange({n}, dtype=np.int64)[None, :, None]; j = np.arange({n}, dtype=np.int64)[None, None, :]\n\
         a = (((i * 2654435761 + j * 40503 + b * 7919) % 1000).astype(np.float32) / np.float32(1000) - np.float32(0.5) + (i == j) * np.float32({n} / 10 + 1)).astype(np.float32)"
    )
}

fn numpy_ms(setup: &str, code: &str) -> Option<f64> {
    numpy::best_ms(setup, code, 3)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn report(what: &str, ours: Duration, numpy: Option<f64>, accuracy: String) {
    let ratio = numpy
        .map(|n| format!("{:.2}x NumPy's speed", n / ms(ours)))
        .unwrap_or_else(|| "NumPy not measured".into());
    println!(
        "RESULT {what}: gpuarray {:.1} ms, NumPy {} ms, {ratio}; {accuracy}",
        ms(ours),
        numpy.map(|n| format!("{n:.1}")).unwrap_or("-".into())
    );
}

/// max |A·x − b| / (‖A‖_max · ‖x‖_max · n · ε) over the batch, on the host in f64.
fn backward_error(a: &[f32], x: &[f32], b: &[f32], batch: usize, n: usize) -> f64 {
    let mut worst: f64 = 0.0;
    for m in 0..batch {
        let am = &a[m * n * n..(m + 1) * n * n];
        let xm = &x[m * n..(m + 1) * n];
        let amax = am.iter().fold(0.0f64, |w, v| w.max(v.abs() as f64));
        let xmax = xm.iter().fold(0.0f64, |w, v| w.max(v.abs() as f64));
        for i in 0..n {
            let r: f64 = (0..n)
                .map(|j| am[i * n + j] as f64 * xm[j] as f64)
                .sum::<f64>()
                - b[m * n + i] as f64;
            worst = worst.max(r.abs() / (amax * xmax * n as f64 * f32::EPSILON as f64));
        }
    }
    worst
}

/// max |B − C| / (max |B| · n · ε), computed on the device.
fn relative(b: &Array, c: &Array, n: usize) -> gpuarray::Result<f64> {
    let diff = b.sub(c)?.abs()?.max(None, false)?.to_vec::<f32>()?[0] as f64;
    let scale = b.abs()?.max(None, false)?.to_vec::<f32>()?[0] as f64;
    Ok(diff / (scale * n as f64 * f32::EPSILON as f64))
}

/// x with a·x = b (n × n, f32 data) by Gaussian elimination with partial pivoting in f64.
fn host_solve(a: &[f32], b: &[f32], n: usize) -> Vec<f64> {
    let mut m: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| a[i * n + j] as f64)
                .chain([b[i] as f64])
                .collect()
        })
        .collect();
    for j in 0..n {
        let p = (j..n)
            .max_by(|&x, &y| m[x][j].abs().total_cmp(&m[y][j].abs()))
            .unwrap_or(j);
        m.swap(j, p);
        for r in j + 1..n {
            let f = m[r][j] / m[j][j];
            let top = m[j].clone();
            for (x, t) in m[r][j..].iter_mut().zip(&top[j..]) {
                *x -= f * t;
            }
        }
    }
    let mut x = vec![0.0; n];
    for j in (0..n).rev() {
        x[j] = (m[j][n] - (j + 1..n).map(|c| m[j][c] * x[c]).sum::<f64>()) / m[j][j];
    }
    x
}

/// Tall-skinny m × n: least squares (the regression NumPy users run), the reduced SVD and the
/// reduced QR, beside NumPy; accuracy as the least-squares solution's distance from the host's
/// normal equations in f64 (well conditioned here) and ‖A − U·S·Vh‖, ‖A − Q·R‖.
fn tall(dev: &Device, m: usize, n: usize) -> gpuarray::Result<()> {
    let host: Vec<f32> = (0..m * n)
        .map(|t| ((t as u64 * 2654435761) % 1000) as f32 / 1000.0 - 0.5)
        .collect();
    let rhs: Vec<f32> = (0..m).map(|i| (i % 13) as f32 - 6.0).collect();
    let a = Array::from_slice(dev, &host, &[m, n])?;
    let b = Array::from_slice(dev, &rhs, &[m])?;
    let setup = format!(
        "t = np.arange({m} * {n}, dtype=np.int64)\n\
         a = (((t * 2654435761) % 1000).astype(np.float32) / np.float32(1000) - np.float32(0.5)).reshape({m}, {n})\n\
         rhs = ((np.arange({m}) % 13) - 6).astype(np.float32)"
    );
    let ours = timing::bench(dev, &format!("lstsq {m}x{n}"), 3, || {
        linalg::lstsq(&a, &b, None).map(|f| f.x)
    })?;
    let x = linalg::lstsq(&a, &b, None)?.x.to_vec::<f32>()?;
    // The normal equations AᵀA·x = Aᵀb on the host, in f64.
    let mut ata = vec![0.0f64; n * n];
    let mut atb = vec![0.0f64; n];
    for i in 0..m {
        for p in 0..n {
            let aip = host[i * n + p] as f64;
            atb[p] += aip * rhs[i] as f64;
            for q in 0..n {
                ata[p * n + q] += aip * host[i * n + q] as f64;
            }
        }
    }
    let ata32: Vec<f32> = ata.iter().map(|&v| v as f32).collect();
    let atb32: Vec<f32> = atb.iter().map(|&v| v as f32).collect();
    let want = host_solve(&ata32, &atb32, n);
    let err = x
        .iter()
        .zip(&want)
        .map(|(&g, &w)| (g as f64 - w).abs())
        .fold(0.0, f64::max)
        / want.iter().fold(0.0f64, |w, v| w.max(v.abs()));
    report(
        &format!("lstsq {m}×{n} f32"),
        ours,
        numpy_ms(&setup, "np.linalg.lstsq(a, rhs)"),
        format!("max |x − x_host| / max |x_host| = {err:.1e}"),
    );
    let ours = timing::bench(dev, &format!("svd {m}x{n}"), 3, || {
        linalg::svd(&a, false).map(|r| r.1)
    })?;
    let (u, s, vh) = linalg::svd(&a, false)?;
    let back = u.mul(&s.expand_dims(0)?)?.matmul(&vh)?;
    let err = relative(&a, &back, m)?;
    report(
        &format!("svd {m}×{n} f32 (reduced)"),
        ours,
        numpy_ms(&setup, "np.linalg.svd(a, full_matrices=False)"),
        format!("‖A − U·S·Vh‖ = {err:.3} m·ε·‖A‖"),
    );
    let ours = timing::bench(dev, &format!("qr {m}x{n}"), 3, || {
        linalg::qr(&a, QrMode::Reduced).map(|r| r.1)
    })?;
    let (q, r) = linalg::qr(&a, QrMode::Reduced)?;
    let err = relative(&a, &q.expect("reduced has Q").matmul(&r)?, m)?;
    report(
        &format!("qr {m}×{n} f32 (reduced)"),
        ours,
        numpy_ms(&setup, "np.linalg.qr(a)"),
        format!("‖A − Q·R‖ = {err:.3} m·ε·‖A‖"),
    );
    Ok(())
}

/// 10^4 batched n × n solves. Above 8 × 8 a device solves with the looped kernel until it has
/// solved 500 000 systems of a shape, then compiles a kernel generated for it
/// (`src/linalg/tiny.rs`): both are timed — the looped one first, then, after the calls that
/// reach the threshold, the compile (the first generated call) and the generated kernel.
fn batched_solve(dev: &Device, batch: usize, n: usize) -> gpuarray::Result<()> {
    let host = matrices(batch, n);
    let rhs: Vec<f32> = (0..batch * n).map(|i| (i % 13) as f32 - 6.0).collect();
    let a = Array::from_slice(dev, &host, &[batch, n, n])?;
    let b = Array::from_slice(dev, &rhs, &[batch, n, 1])?;
    let setup = format!(
        "{}\nrhs = ((np.arange({batch} * {n}) % 13) - 6).astype(np.float32).reshape({batch}, {n}, 1)",
        numpy_setup(batch, n)
    );
    let theirs = numpy_ms(&setup, "np.linalg.solve(a, rhs)");
    let mut solved = 0;
    let measure = |kernel: &str, solved: &mut usize| -> gpuarray::Result<()> {
        let ours = timing::bench(dev, &format!("solve {batch} x {n}x{n} {kernel}"), 5, || {
            linalg::solve(&a, &b)
        })?;
        *solved += 6 * batch;
        let x = linalg::solve(&a, &b)?.to_vec::<f32>()?;
        *solved += batch;
        let err = backward_error(&host, &x, &rhs, batch, n);
        report(
            &format!("solve {batch} x {n}x{n} f32 ({kernel})"),
            ours,
            theirs,
            format!("backward error {err:.2} n·ε·‖A‖·‖x‖"),
        );
        Ok(())
    };
    if n <= 8 {
        return measure("generated kernel", &mut solved);
    }
    measure("looped kernel", &mut solved)?;
    while solved < 500_000 {
        linalg::solve(&a, &b)?.to_vec::<f32>()?;
        solved += batch;
    }
    let first = std::time::Instant::now();
    linalg::solve(&a, &b)?.to_vec::<f32>()?;
    println!(
        "RESULT solve {batch} x {n}x{n} f32: the first call past 500 000 systems (compiles the \
         generated kernel): {:.0} ms",
        ms(first.elapsed())
    );
    measure("generated kernel", &mut solved)
}

fn main() -> gpuarray::Result<()> {
    let dev = Device::new()?;
    println!("adapter: {}", dev.info());
    let big = std::env::var("GPUARRAY_LINALG_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2048);
    let small: usize = std::env::var("GPUARRAY_LINALG_JACOBI_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256);

    // Only the large solve, Cholesky and QR (at GPUARRAY_LINALG_N: 6000 is past lavapipe's
    // 128 MiB binding).
    let large_only = std::env::var_os("GPUARRAY_LINALG_LARGE_ONLY").is_some();
    if std::env::var_os("GPUARRAY_LINALG_EIGH_ONLY").is_some() {
        return eigh_and_svd(&dev, small);
    }
    if std::env::var_os("GPUARRAY_LINALG_TALL_ONLY").is_some() {
        for (m, n) in [(70_000, 3), (100_000, 10), (300_000, 4)] {
            tall(&dev, m, n)?;
        }
        return Ok(());
    }
    if !large_only {
        batched_solve(&dev, 10_000, 8)?;
        batched_solve(&dev, 10_000, 16)?;
        batched_solve(&dev, 10_000, 32)?;
    }
    if std::env::var_os("GPUARRAY_LINALG_BATCHED_ONLY").is_some() {
        return Ok(());
    }

    // One large matrix: solve and Cholesky of A·Aᵀ (blocked over the matmul).
    let host = matrices(1, big);
    let a = Array::from_slice(&dev, &host, &[big, big])?;
    let rhs: Vec<f32> = (0..big).map(|i| (i % 13) as f32 - 6.0).collect();
    let b = Array::from_slice(&dev, &rhs, &[big])?;
    let ours = timing::bench(&dev, &format!("solve {big}"), 2, || linalg::solve(&a, &b))?;
    let x = linalg::solve(&a, &b)?.to_vec::<f32>()?;
    let err = backward_error(&host, &x, &rhs, 1, big);
    let setup = format!(
        "{}\na = a[0]\nrhs = ((np.arange({big}) % 13) - 6).astype(np.float32)",
        numpy_setup(1, big)
    );
    report(
        &format!("solve {big}² f32"),
        ours,
        numpy_ms(&setup, "np.linalg.solve(a, rhs)"),
        format!("backward error {err:.2} n·ε·‖A‖·‖x‖"),
    );

    let spd = a.matmul(&a.t())?;
    let ours = timing::bench(&dev, &format!("cholesky {big}"), 2, || {
        linalg::cholesky(&spd, false)
    })?;
    let l = linalg::cholesky(&spd, false)?;
    let err = relative(&spd, &l.matmul(&l.t())?, big)?;
    let setup = format!("{}\na = a[0]\ns = a @ a.T", numpy_setup(1, big));
    report(
        &format!("cholesky {big}² f32"),
        ours,
        numpy_ms(&setup, "np.linalg.cholesky(s)"),
        format!("‖A − L·Lᵀ‖ = {err:.3} n·ε·‖A‖"),
    );

    // Iterative refinement on Hilbert matrices (κ ≈ 5e5 and 1.5e7): the forward error against
    // the exact solution of the f32 data (solved on the host in f64), without and with 3 steps.
    for n in [5usize, 6].into_iter().filter(|_| !large_only) {
        let h: Vec<f32> = (0..n * n)
            .map(|t| 1.0 / ((t / n + t % n + 1) as f32))
            .collect();
        let rhs: Vec<f32> = (0..n).map(|i| h[i * n..(i + 1) * n].iter().sum()).collect();
        let exact = host_solve(&h, &rhs, n);
        let (ga, gb) = (
            Array::from_slice(&dev, &h, &[n, n])?,
            Array::from_slice(&dev, &rhs, &[n])?,
        );
        let error = |steps| -> gpuarray::Result<f64> {
            let x = linalg::solve_refined(&ga, &gb, steps)?.to_vec::<f32>()?;
            Ok(x.iter()
                .zip(&exact)
                .fold(0.0f64, |m, (a, b)| m.max((*a as f64 - b).abs()))
                / exact.iter().fold(0.0f64, |m, v| m.max(v.abs())))
        };
        let plain = timing::bench(&dev, &format!("hilbert {n} plain"), 5, || {
            linalg::solve_refined(&ga, &gb, 0)
        })?;
        let refined = timing::bench(&dev, &format!("hilbert {n} refined"), 5, || {
            linalg::solve_refined(&ga, &gb, 3)
        })?;
        println!(
            "RESULT refinement, Hilbert {n}x{n} f32: forward error {:.2e} plain ({:.2} ms) -> {:.2e} with 3 steps ({:.2} ms)",
            error(0)?,
            ms(plain),
            error(3)?,
            ms(refined)
        );
    }

    // QR: blocked (compact WY) past 128 columns.
    let qr_sizes = if large_only {
        vec![big]
    } else {
        vec![2 * small, big]
    };
    for n in qr_sizes {
        let hq = matrices(1, n);
        let q0 = Array::from_slice(&dev, &hq, &[n, n])?;
        let ours = timing::bench(&dev, &format!("qr {n}"), 2, || {
            linalg::qr(&q0, QrMode::Reduced)
        })?;
        let (q, r) = linalg::qr(&q0, QrMode::Reduced)?;
        let err = relative(&q0, &q.expect("reduced mode has Q").matmul(&r)?, n)?;
        let setup = format!("{}\na = a[0]", numpy_setup(1, n));
        report(
            &format!("qr {n}² f32"),
            ours,
            numpy_ms(&setup, "np.linalg.qr(a)"),
            format!("‖A − Q·R‖ = {err:.3} n·ε·‖A‖"),
        );
    }
    if large_only {
        return Ok(());
    }
    eigh_and_svd(&dev, small)
}

/// eigh and svd of a `small` matrix (Jacobi) and a large one (`GPUARRAY_LINALG_EIGH_N`,
/// blocked reductions).
fn eigh_and_svd(dev: &Device, small: usize) -> gpuarray::Result<()> {
    // eigh: tridiagonalisation and QL past 128 rows.
    let eigh_n: usize = std::env::var("GPUARRAY_LINALG_EIGH_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1024);
    for n in [small, eigh_n] {
        let hs = matrices(1, n);
        let s0 = Array::from_slice(dev, &hs, &[n, n])?;
        let sym = s0.add(&s0.t())?;
        let ours = timing::bench(dev, &format!("eigh {n}"), 2, || linalg::eigh(&sym, true))?;
        let (w, v) = linalg::eigh(&sym, true)?;
        let err = relative(&sym.matmul(&v)?, &v.mul(&w.reshape(&[1, n as isize])?)?, n)?;
        let setup = format!("{}\na = a[0]\ns = a + a.T", numpy_setup(1, n));
        report(
            &format!("eigh {n}² f32"),
            ours,
            numpy_ms(&setup, "np.linalg.eigh(s)"),
            format!("‖A·V − V·Λ‖ = {err:.3} n·ε·‖A‖"),
        );
        let only = timing::bench(dev, &format!("eigvalsh {n}"), 2, || {
            linalg::eigvalsh(&sym, true)
        })?;
        report(
            &format!("eigvalsh {n}² f32"),
            only,
            numpy_ms(&setup, "np.linalg.eigvalsh(s)"),
            "(eigenvalues of eigh)".into(),
        );
    }
    // svd: one-sided Jacobi up to 128 columns, bidiagonalisation and implicit-shift QR past.
    for n in [small, eigh_n] {
        let hs = matrices(1, n);
        let s0 = Array::from_slice(dev, &hs, &[n, n])?;
        let ours = timing::bench(dev, &format!("svd {n}"), 2, || linalg::svd(&s0, false))?;
        let (u, s, vh) = linalg::svd(&s0, false)?;
        let err = relative(&s0, &u.mul(&s.reshape(&[1, n as isize])?)?.matmul(&vh)?, n)?;
        let eye = Array::eye_k(dev, n, n, 0, gpuarray::DType::F32)?;
        let orth = relative(&eye, &u.t().matmul(&u)?, n)?;
        let setup = format!("{}\na = a[0]", numpy_setup(1, n));
        report(
            &format!("svd {n}² f32"),
            ours,
            numpy_ms(&setup, "np.linalg.svd(a, full_matrices=False)"),
            format!("‖A − U·S·Vh‖ = {err:.3}, ‖UᵀU − I‖ = {orth:.3} n·ε"),
        );
        let only = timing::bench(dev, &format!("svdvals {n}"), 2, || linalg::svdvals(&s0))?;
        report(
            &format!("svdvals {n}² f32"),
            only,
            numpy_ms(&setup, "np.linalg.svdvals(a)"),
            "(singular values of svd)".into(),
        );
    }
    Ok(())
}
