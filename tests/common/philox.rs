//! An independent CPU model of gpuarray's random streams, written from Random123 and cuRAND's
//! headers (not from the library's code): Philox4x32-10, cuRAND's `curand_init` stream layout,
//! and the conversions with plain IEEE f32/f64 arithmetic (Rust never fuses or reorders them).

/// Philox4x32-10 of one counter block under one key (Random123 `philox4x32_R(10, ..)`).
pub fn philox(ctr: [u32; 4], key: [u32; 2]) -> [u32; 4] {
    let (mut c, mut k) = (ctr, key);
    for r in 0..10 {
        if r != 0 {
            k = [k[0].wrapping_add(0x9E3779B9), k[1].wrapping_add(0xBB67AE85)];
        }
        let a = 0xD2511F53u64 * c[0] as u64;
        let b = 0xCD9E8D57u64 * c[2] as u64;
        c = [
            ((b >> 32) as u32) ^ c[1] ^ k[0],
            b as u32,
            ((a >> 32) as u32) ^ c[3] ^ k[1],
            a as u32,
        ];
    }
    c
}

/// The words `curand()` returns after `curand_init(seed, subsequence, offset)`: `n` of them.
/// Counters carry from the block index into the subsequence words (cuRAND's `Philox_State_Incr`).
pub fn stream(seed: u64, subsequence: u64, offset: u64, n: usize) -> Vec<u32> {
    let key = [seed as u32, (seed >> 32) as u32];
    let mut out = Vec::with_capacity(n);
    let mut block: u128 = ((subsequence as u128) << 64) + (offset / 4) as u128;
    let mut word = (offset % 4) as usize;
    let mut cur = philox(limbs(block), key);
    while out.len() < n {
        out.push(cur[word]);
        word += 1;
        if word == 4 {
            word = 0;
            block = block.wrapping_add(1);
            cur = philox(limbs(block), key);
        }
    }
    out
}

fn limbs(b: u128) -> [u32; 4] {
    [
        b as u32,
        (b >> 32) as u32,
        (b >> 64) as u32,
        (b >> 96) as u32,
    ]
}

/// cuRAND's `_curand_uniform`: `x * CURAND_2POW32_INV + CURAND_2POW32_INV / 2` in f32, in (0, 1].
pub fn curand_uniform(x: u32) -> f32 {
    let inv = 2.3283064e-10f32; // CURAND_2POW32_INV, exactly 2^-32
    x as f32 * inv + inv / 2.0
}

/// `random()` for f32: curand_uniform with 1.0 mapped to 0.0.
pub fn random_f32(x: u32) -> f32 {
    let v = curand_uniform(x);
    if v >= 1.0 { 0.0 } else { v }
}

/// `random()` for f16: the f32 value rounded to nearest-even f16, 1.0 mapped to 0.0.
pub fn random_f16(x: u32) -> half::f16 {
    let v = half::f16::from_f32(curand_uniform(x));
    if v >= half::f16::ONE {
        half::f16::ZERO
    } else {
        v
    }
}

/// cuRAND's `_curand_uniform_double_hq(x, y)`, in (0, 1].
pub fn curand_uniform_double(x: u32, y: u32) -> f64 {
    let z = (x as u64) ^ ((y as u64) << 21);
    let inv = 1.0 / 9007199254740992.0; // 2^-53
    z as f64 * inv + inv / 2.0
}

/// `random()` for f64.
pub fn random_f64(x: u32, y: u32) -> f64 {
    let v = curand_uniform_double(x, y);
    if v >= 1.0 { 0.0 } else { v }
}

/// Box–Muller on one word pair, evaluated in f64 from the f32 uniform cuRAND uses for the
/// radius and the exact angle 2π (y + 1/2) / 2^32.
pub fn box_muller_f32(x: u32, y: u32) -> (f64, f64) {
    let u = curand_uniform(x) as f64;
    let s = (-2.0 * u.ln()).sqrt();
    let v = 2.0 * std::f64::consts::PI * (y as f64 + 0.5) / 4294967296.0;
    (s * v.sin(), s * v.cos())
}

/// `_curand_box_muller_double(x0, x1, y0, y1)`: radius from 53 bits of (x0, x1), angle
/// π (zy 2^-52 + 2^-53) with zy = y0 ^ (y1 << 21).
pub fn box_muller_f64(x0: u32, x1: u32, y0: u32, y1: u32) -> (f64, f64) {
    let u = curand_uniform_double(x0, x1);
    let s = (-2.0 * u.ln()).sqrt();
    let zy = (y0 as u64) ^ ((y1 as u64) << 21);
    let v = std::f64::consts::PI * ((zy as f64 + 0.5) / 4503599627370496.0); // 2^52
    (s * v.sin(), s * v.cos())
}

/// NumPy-style integers in [lo, lo + range) from the stream words: Lemire's multiply-and-reject,
/// each rejected word skipped. Returns the values and the words consumed.
pub fn integers(words: &[u32], lo: i64, range: u64, n: usize) -> (Vec<i64>, usize) {
    let thresh = (1u64 << 32) % range;
    let mut out = Vec::with_capacity(n);
    let mut used = 0;
    for &w in words {
        if out.len() == n {
            break;
        }
        used += 1;
        let m = w as u64 * range;
        if (m & 0xffff_ffff) >= thresh {
            out.push(lo + (m >> 32) as i64);
        }
    }
    assert_eq!(out.len(), n, "not enough words for the CPU model");
    (out, used)
}
