//! The random example's CPU ceiling: the same Philox4x32-10 streams and the same conversions
//! (cuRAND's `curand_uniform`, Box–Muller with the shader's log and sin/cos polynomials),
//! computed natively on every host core with the compiler's SIMD (AVX-512 or AVX2 when the CPU
//! has them). On a machine whose "GPU" is lavapipe, this is what the same CPU does without a
//! driver in between, so it bounds what any kernel could reach there.
//!
//! Independent of the library: written from Random123's round function and cuRAND's
//! device-API stream layout (word e of subsequence 0 is word e % 4 of block e / 4).

// Lane loops index several word columns at once (c[w][i]): the form the compiler vectorises.
#![allow(clippy::needless_range_loop)]

use std::time::Instant;

/// What to draw: raw words, `random` f32 or `standard_normal` f32 (stored as their bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Draw {
    Bits,
    Random,
    Normal,
}

const M0: u64 = 0xD251_1F53;
const M1: u64 = 0xCD9E_8D57;
const W0: u32 = 0x9E37_79B9;
const W1: u32 = 0xBB67_AE85;
/// Blocks computed side by side: enough independent multiply chains to fill the SIMD units.
const LANES: usize = 64;
const BATCH_WORDS: usize = 4 * LANES;

/// Philox4x32-10 of the `LANES` blocks from `first`, subsequence 0, as four word columns.
#[inline(always)]
fn philox_batch(first: u64, key: [u32; 2]) -> [[u32; LANES]; 4] {
    let mut c = [[0u32; LANES]; 4];
    for i in 0..LANES {
        let b = first + i as u64;
        c[0][i] = b as u32;
        c[1][i] = (b >> 32) as u32;
    }
    let mut k = key;
    for round in 0..10 {
        if round > 0 {
            k = [k[0].wrapping_add(W0), k[1].wrapping_add(W1)];
        }
        for i in 0..LANES {
            let p0 = M0 * c[0][i] as u64;
            let p1 = M1 * c[2][i] as u64;
            let next = [
                (p1 >> 32) as u32 ^ c[1][i] ^ k[0],
                p1 as u32,
                (p0 >> 32) as u32 ^ c[3][i] ^ k[1],
                p0 as u32,
            ];
            for (w, v) in next.into_iter().enumerate() {
                c[w][i] = v;
            }
        }
    }
    c
}

/// cuRAND's `curand_uniform`: RN(RN(x) 2^-32 + 2^-33) (Rust's f32 arithmetic rounds to nearest).
#[inline(always)]
fn curand_uniform(x: u32) -> f32 {
    x as f32 * (1.0 / 4_294_967_296.0) + (0.5 / 4_294_967_296.0)
}

/// musl's logf, as in `shaders/philox.wgsl` (its literals digit for digit).
#[inline(always)]
#[allow(clippy::excessive_precision)]
fn ln(u: f32) -> f32 {
    let mut ix = u.to_bits().wrapping_add(0x3f80_0000 - 0x3f35_04f3);
    let k = (ix >> 23) as i32 - 0x7f;
    ix = (ix & 0x007f_ffff) + 0x3f35_04f3;
    let f = f32::from_bits(ix) - 1.0;
    let s = f / (2.0 + f);
    let z = s * s;
    let w = z * z;
    let t1 = w * (0.40000972152 + w * 0.24279078841);
    let t2 = z * (0.66666662693 + w * 0.28498786688);
    let r = t2 + t1;
    let hfsq = 0.5 * f * f;
    let dk = k as f32;
    s * (hfsq + r) + dk * 9.0580006145e-06 - hfsq + f + dk * 6.9313812256e-01
}

/// (sin, cos) of 2 pi (y + 1/2) / 2^32, as in `shaders/philox.wgsl` (its literals digit for
/// digit).
#[inline(always)]
#[allow(clippy::excessive_precision)]
fn sincos_turns(y: u32) -> (f32, f32) {
    let n = y.wrapping_add(0x2000_0000) >> 30;
    let d = y.wrapping_sub(n << 30) as i32;
    let a = (d as f32 + 0.5) * 1.4629180792671596e-09; // 2 pi / 2^32
    let z = a * a;
    let s = a + a * z * (-1.6666654611e-1 + z * (8.3321608736e-3 + z * -1.9515295891e-4));
    let c = 1.0 - 0.5 * z
        + z * z * (4.166664568298827e-2 + z * (-1.388731625493765e-3 + z * 2.443315711809948e-5));
    let (sv, cv) = if n & 1 == 1 { (c, s) } else { (s, c) };
    (
        f32::from_bits(sv.to_bits() ^ ((n & 2) << 30)),
        f32::from_bits(cv.to_bits() ^ ((n.wrapping_add(1) & 2) << 30)),
    )
}

/// Fills `out` (a whole number of batches) with the draw's words from block `first_block` on:
/// one loop per draw, so each is vectorised without a branch inside.
#[inline(always)]
fn fill(draw: Draw, key: [u32; 2], first_block: u64, out: &mut [u32]) {
    match draw {
        Draw::Bits => fill_with::<0>(key, first_block, out),
        Draw::Random => fill_with::<1>(key, first_block, out),
        Draw::Normal => fill_with::<2>(key, first_block, out),
    }
}

#[inline(always)]
fn fill_with<const DRAW: u8>(key: [u32; 2], first_block: u64, out: &mut [u32]) {
    let draw = [Draw::Bits, Draw::Random, Draw::Normal][DRAW as usize];
    for (j, chunk) in out.chunks_exact_mut(BATCH_WORDS).enumerate() {
        let c = philox_batch(first_block + (j * LANES) as u64, key);
        let mut o = [[0u32; LANES]; 4];
        for i in 0..LANES {
            match draw {
                Draw::Bits => {
                    for w in 0..4 {
                        o[w][i] = c[w][i];
                    }
                }
                Draw::Random => {
                    for w in 0..4 {
                        let u = curand_uniform(c[w][i]);
                        o[w][i] = if u >= 1.0 { 0 } else { u.to_bits() };
                    }
                }
                Draw::Normal => {
                    for pair in 0..2 {
                        let r = (-2.0 * ln(curand_uniform(c[2 * pair][i]))).sqrt();
                        let (s, co) = sincos_turns(c[2 * pair + 1][i]);
                        o[2 * pair][i] = (r * s).to_bits();
                        o[2 * pair + 1][i] = (r * co).to_bits();
                    }
                }
            }
        }
        for i in 0..LANES {
            for w in 0..4 {
                chunk[4 * i + w] = o[w][i];
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw,avx2,fma")]
unsafe fn fill_avx512(draw: Draw, key: [u32; 2], first_block: u64, out: &mut [u32]) {
    fill(draw, key, first_block, out)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn fill_avx2(draw: Draw, key: [u32; 2], first_block: u64, out: &mut [u32]) {
    fill(draw, key, first_block, out)
}

/// The widest SIMD this CPU runs `fill` with.
pub fn simd() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    {
        if is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512vl")
            && is_x86_feature_detected!("avx512dq")
            && is_x86_feature_detected!("avx512bw")
        {
            return "AVX-512";
        }
        if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
            return "AVX2";
        }
    }
    "baseline SIMD"
}

fn fill_best(draw: Draw, key: [u32; 2], first_block: u64, out: &mut [u32]) {
    #[cfg(target_arch = "x86_64")]
    {
        match simd() {
            // SAFETY: the CPU has the features these functions are compiled for (checked above).
            "AVX-512" => return unsafe { fill_avx512(draw, key, first_block, out) },
            "AVX2" => return unsafe { fill_avx2(draw, key, first_block, out) },
            _ => {}
        }
    }
    fill(draw, key, first_block, out)
}

/// The first `n` outputs (rounded up to whole batches) of `draw` for `seed`, subsequence 0,
/// offset 0, split over `threads` host threads; and the seconds it took.
pub fn generate(draw: Draw, seed: u64, n: usize, threads: usize) -> (Vec<u32>, f64) {
    let key = [seed as u32, (seed >> 32) as u32];
    let batches = n.div_ceil(BATCH_WORDS);
    let mut out = vec![0u32; batches * BATCH_WORDS];
    // Touch the pages first so the timing counts generation, not the kernel's page faults (the
    // device side draws into pooled, already-mapped memory too).
    out.iter_mut().step_by(1024).for_each(|w| *w = 1);
    let per_thread = batches.div_ceil(threads.max(1)) * BATCH_WORDS;
    let t = Instant::now();
    std::thread::scope(|s| {
        for (i, part) in out.chunks_mut(per_thread).enumerate() {
            let first_block = (i * per_thread / 4) as u64;
            s.spawn(move || fill_best(draw, key, first_block, part));
        }
    });
    let secs = t.elapsed().as_secs_f64();
    out.truncate(n);
    (out, secs)
}
