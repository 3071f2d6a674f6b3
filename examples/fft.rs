//! `numpy.fft` and complex figures (issue 35), in one run, beside NumPy (pocketfft, one core) on
//! the same data: 1-D complex64 FFTs of 2^20 and 2^24 points and of the prime 999,983
//! (Bluestein), a batched fft2 of 64×512×512, an rfft of 2^26 float32 values and a 1024³
//! complex64 matmul; each with its accuracy (the relative RMS error of the round trip
//! ifft(fft(x)), and for the FFTs the worst of 8 sampled bins against a direct float64 sum).
//! GPU times come from `gpuarray::benchmark` (fastest of the timed runs, each ended by a
//! synchronisation); NumPy's from the same machine in the same run. On lavapipe these are CPU
//! figures. `GPUARRAY_FFT_SMALL=1` runs the sizes divided by 16 (a quick look). First, the
//! relative RMS error against a float64 DFT for lengths up to 8192.
//!
//! ```text
//! cargo run --release --example fft
//! ```

use gpuarray::fft::{self, Norm};
use gpuarray::{Array, Complex32, Device};
use std::time::Duration;

#[path = "support/numpy.rs"]
mod numpy;
#[path = "support/timing.rs"]
mod timing;

/// Sample i: parts in [−0.5, 0.5) from integer arithmetic NumPy repeats exactly.
fn samples(n: usize) -> Vec<Complex32> {
    (0..n as u64)
        .map(|i| {
            Complex32::new(
                ((i * 2654435761) % 1000) as f32 / 1000.0 - 0.5,
                ((i * 40503) % 1000) as f32 / 1000.0 - 0.5,
            )
        })
        .collect()
}

fn numpy_samples(n: usize, shape: &str) -> String {
    format!(
        "i = np.arange({n}, dtype=np.int64)\n\
         x = ((((i * 2654435761) % 1000).astype(np.float32) / np.float32(1000) - np.float32(0.5)) \
         + 1j * (((i * 40503) % 1000).astype(np.float32) / np.float32(1000) - np.float32(0.5))).astype(np.complex64).reshape({shape})"
    )
}

fn numpy_ms(setup: &str, code: &str) -> Option<f64> {
    numpy::best_ms(setup, code, 3)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn report(what: &str, ours: gpuarray::Result<Duration>, numpy: Option<f64>, accuracy: String) {
    let theirs = numpy.map(|n| format!("{n:.1}")).unwrap_or("-".into());
    match ours {
        Ok(t) => {
            let ratio = numpy
                .map(|n| format!("{:.2}x NumPy's speed", n / ms(t)))
                .unwrap_or_else(|| "NumPy not measured".into());
            println!(
                "RESULT {what}: gpuarray {:.1} ms, NumPy {theirs} ms, {ratio}; {accuracy}",
                ms(t)
            );
        }
        Err(e) => println!("RESULT {what}: gpuarray not run ({e}), NumPy {theirs} ms"),
    }
}

/// ‖ifft(fft(x)) − x‖ / ‖x‖ on the device, and the worst |fft(x)[k] − direct sum| / √n over 8
/// bins k (the direct sum in f64 on the host).
fn accuracy(x: &Array, host: &[Complex32], y: &Array) -> gpuarray::Result<String> {
    let back = fft::ifft(y, None, -1, Norm::Backward)?;
    let d = back.sub(x)?;
    let num = d.real().mul(&d.real())?.add(&d.imag()?.mul(&d.imag()?)?)?;
    let den = x.real().mul(&x.real())?.add(&x.imag()?.mul(&x.imag()?)?)?;
    let rms = (num.sum(gpuarray::Axes::All, false)?.item::<f32>()? as f64
        / den.sum(gpuarray::Axes::All, false)?.item::<f32>()? as f64)
        .sqrt();
    let n = host.len();
    let got = y.to_vec::<Complex32>()?;
    let mut worst: f64 = 0.0;
    for s in 0..8u64 {
        let k = ((s * 7919 * 131) % n as u64) as usize;
        let (mut re, mut im) = (0.0f64, 0.0f64);
        for (t, z) in host.iter().enumerate() {
            let a = -2.0 * std::f64::consts::PI * ((k as u128 * t as u128) % n as u128) as f64
                / n as f64;
            let (sn, cs) = a.sin_cos();
            re += z.re as f64 * cs - z.im as f64 * sn;
            im += z.re as f64 * sn + z.im as f64 * cs;
        }
        let e = ((got[k].re as f64 - re).powi(2) + (got[k].im as f64 - im).powi(2)).sqrt();
        worst = worst.max(e / (n as f64).sqrt());
    }
    Ok(format!(
        "round trip {rms:.1e} (log2(n)·ε = {:.1e}), worst sampled bin {worst:.1e}·√n",
        (n as f64).log2() * f32::EPSILON as f64
    ))
}

fn one_d(dev: &Device, n: usize, label: &str) -> gpuarray::Result<()> {
    let host = samples(n);
    let x = Array::from_slice(dev, &host, &[n])?;
    let ours = timing::bench(dev, label, 3, || fft::fft(&x, None, -1, Norm::Backward));
    let acc = match &ours {
        Ok(_) => accuracy(&x, &host, &fft::fft(&x, None, -1, Norm::Backward)?)?,
        Err(_) => String::new(),
    };
    let theirs = numpy_ms(&numpy_samples(n, &n.to_string()), "np.fft.fft(x)");
    report(&format!("{label} c64"), ours, theirs, acc);
    Ok(())
}

/// The relative RMS error of the complex64 FFT against the DFT in f64 on the host, for lengths
/// of every kind: one workgroup (radices 8/4/2 and the table's 3, 5, 7, 11, 13), one launch per
/// pass, Bluestein.
fn error_by_length(dev: &Device) -> gpuarray::Result<()> {
    for n in [8usize, 97, 143, 729, 1000, 1009, 2048, 4096, 6561, 8192] {
        let host = samples(n);
        let got = fft::fft(
            &Array::from_slice(dev, &host, &[n])?,
            None,
            -1,
            Norm::Backward,
        )?
        .to_vec::<Complex32>()?;
        let (mut num, mut den) = (0.0f64, 0.0f64);
        for (k, g) in got.iter().enumerate() {
            let (mut re, mut im) = (0.0f64, 0.0f64);
            for (t, z) in host.iter().enumerate() {
                let a = -2.0 * std::f64::consts::PI * ((k * t) % n) as f64 / n as f64;
                let (sn, cs) = a.sin_cos();
                re += z.re as f64 * cs - z.im as f64 * sn;
                im += z.re as f64 * sn + z.im as f64 * cs;
            }
            num += (g.re as f64 - re).powi(2) + (g.im as f64 - im).powi(2);
            den += re * re + im * im;
        }
        let log_eps = (n as f64).log2() * f32::EPSILON as f64;
        println!(
            "ERROR n={n}: relative RMS {:.1e} = {:.2}·log2(n)·ε",
            (num / den).sqrt(),
            (num / den).sqrt() / log_eps
        );
    }
    Ok(())
}

fn main() -> gpuarray::Result<()> {
    let dev = Device::new()?;
    println!("adapter: {}", dev.info());
    error_by_length(&dev)?;
    let div = if std::env::var_os("GPUARRAY_FFT_SMALL").is_some() {
        16
    } else {
        1
    };
    one_d(&dev, (1 << 20) / div, "fft 2^20")?;
    one_d(&dev, (1 << 24) / div, "fft 2^24")?;
    one_d(&dev, if div == 1 { 999_983 } else { 65_537 }, "fft prime")?;

    // Batched fft2: 64 × 512 × 512.
    let (b, h, w) = (64 / div, 512, 512);
    let n = b * h * w;
    let x = Array::from_slice(&dev, &samples(n), &[b, h, w])?;
    let ours = timing::bench(&dev, "fft2 batched", 3, || {
        fft::fft2(&x, None, &[-2, -1], Norm::Backward)
    });
    let acc = match &ours {
        Ok(_) => {
            let y = fft::fft2(&x, None, &[-2, -1], Norm::Backward)?;
            let back = fft::ifft2(&y, None, &[-2, -1], Norm::Backward)?;
            let d = back.sub(&x)?.abs()?.max(None, false)?.item::<f32>()?;
            format!("round trip max error {d:.1e}")
        }
        Err(_) => String::new(),
    };
    let theirs = numpy_ms(
        &numpy_samples(n, &format!("{b}, {h}, {w}")),
        "np.fft.fft2(x)",
    );
    report(&format!("fft2 {b}x{h}x{w} c64"), ours, theirs, acc);

    // rfft of 2^26 float32.
    let n = (1 << 26) / div;
    let host: Vec<f32> = samples(n).iter().map(|z| z.re).collect();
    let r = Array::from_slice(&dev, &host, &[n])?;
    drop(host);
    let ours = timing::bench(&dev, "rfft", 3, || fft::rfft(&r, None, -1, Norm::Backward));
    let acc = match &ours {
        Ok(_) => {
            let spec = fft::rfft(&r, None, -1, Norm::Backward)?;
            let back = fft::irfft(&spec, Some(n), -1, Norm::Backward)?;
            let d = back.sub(&r)?.abs()?.max(None, false)?.item::<f32>()?;
            format!("round trip max error {d:.1e}")
        }
        Err(_) => String::new(),
    };
    let theirs = numpy_ms(
        &format!("{}\nr = x.real.copy()", numpy_samples(n, &n.to_string())),
        "np.fft.rfft(r)",
    );
    report(&format!("rfft 2^{} f32", n.ilog2()), ours, theirs, acc);

    // Complex matmul 1024³.
    let m = 1024 / div;
    let a = Array::from_slice(&dev, &samples(m * m), &[m, m])?;
    let ours = timing::bench(&dev, "complex matmul", 3, || a.matmul(&a));
    let acc = match &ours {
        Ok(_) => {
            // Row 0 of a·a against the host in f64.
            let c = a.matmul(&a)?.to_vec::<Complex32>()?;
            let host = samples(m * m);
            let mut worst: f64 = 0.0;
            for j in 0..m {
                let (mut re, mut im) = (0.0f64, 0.0f64);
                for k in 0..m {
                    let (p, q) = (host[k], host[k * m + j]);
                    re += p.re as f64 * q.re as f64 - p.im as f64 * q.im as f64;
                    im += p.re as f64 * q.im as f64 + p.im as f64 * q.re as f64;
                }
                worst = worst.max((c[j].re as f64 - re).abs().max((c[j].im as f64 - im).abs()));
            }
            format!("row 0 worst error {worst:.1e}")
        }
        Err(_) => String::new(),
    };
    let theirs = numpy_ms(&numpy_samples(m * m, &format!("{m}, {m}")), "x @ x");
    report(&format!("matmul {m}³ c64"), ours, theirs, acc);
    Ok(())
}
