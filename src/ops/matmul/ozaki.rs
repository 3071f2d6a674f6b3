//! f64 matmul on a device that emulates f64, by the Ozaki scheme's CRT variant (Ozaki-II): exact
//! integer products computed by the fast f32 matmul, instead of a software multiply-add per term.
//!
//! Per k-block of at most [`MAX_K_BLOCK`] terms:
//! 1. each row of A and each column of B gets its largest binary exponent
//!    (`shaders/ozaki_exponents.wgsl`), and each element becomes the 53-bit integer Y at that
//!    exponent (truncated: an error below 2^-53 of the vector's largest magnitude);
//! 2. Y modulo each of `n` small odd moduli, an f32 "residue plane" per modulus
//!    (`shaders/ozaki_residues.wgsl`), whose f32 matmul is exact: every partial sum stays an
//!    integer below 2^24 (at most 512 terms of at most 181^2);
//! 3. per output, the Chinese remainder theorem recovers the exact integer sum of Y_a Y_b from
//!    the `n` planes (their moduli's product is more than twice its largest magnitude), which
//!    is rounded once to f64 and added to the earlier blocks' sum (`shaders/ozaki_combine.wgsl`).
//!
//! The cost is `n + 1` f32 matmuls (14 moduli for blocks of 512, and the magnitudes' product
//! that decides accuracy) plus work linear in the operands and the output, against a
//! software-f64 multiply and add per term on the direct path (`matmul_pairs.wgsl`).
//!
//! Accuracy: the result of an output is within a native f64 dot product's bound, (k - 1) u
//! sum_k |a b|, wherever the truncation error (at most 2^-52 k in the vectors' scale) is below it,
//! which the f32 matmul of the magnitudes tells; every other output, and every output of a row or
//! column holding an infinity or a NaN, is computed on the direct path in the same launch.

use super::OP;
use super::families::{OZAKI_COMBINE, OZAKI_EXPONENTS, OZAKI_RESIDUES};
use crate::array::Array;
use crate::device::params::Params;
use crate::device::{Binding, DeviceInner, PipelineKey, Variant};
use crate::dtype::DType;
use crate::error::Result;
use crate::layout::SliceArg;
// The binding of a whole fresh array (every array bound here is fresh or a fresh copy).
use crate::ops::reduce::common::whole;

/// The moduli, largest first: odd, so residues lie in (-m/2, m/2), at most 181 in magnitude;
/// pairwise coprime (`tests::moduli_are_odd_and_pairwise_coprime`); each the largest odd number
/// of at most 363 coprime to those before it.
const MODULI: [u32; 14] = [
    363, 361, 359, 355, 353, 349, 347, 343, 337, 331, 317, 313, 311, 307,
];

/// Terms per k-block: 512 products of residues of at most 181 in magnitude sum to less than
/// 2^24, so the f32 matmul of two residue planes is exact.
pub(super) const MAX_K_BLOCK: u64 = 512;

/// The largest residue magnitude (half the largest modulus).
const MAX_RESIDUE: u64 = 181;

// A block's sum of products of residues stays below 2^24: the f32 plane products are exact.
const _: () = assert!(MAX_K_BLOCK * MAX_RESIDUE * MAX_RESIDUE < 1 << 24);

/// Smallest problems that take the scheme: below these the direct path's k multiply-adds per
/// output cost less than the scheme's fixed work per output and its launches.
const MIN_K: u64 = 32;
const MIN_SIDE: u64 = 16;

/// Rows and columns of one tile at most: the residue planes and the products of a tile must
/// each fit one storage binding.
const MAX_TILE_SIDE: u64 = 1024;

/// Whether an f64 product of this shape takes the scheme on `dev`: software f64, large enough,
/// and tiles of at least [`MIN_SIDE`] rows and columns fit the bindings.
pub(super) fn applies(dev: &DeviceInner, batch: u64, m: u64, n: u64, k: u64) -> bool {
    dev.f64_emulated
        && k >= MIN_K
        && m >= MIN_SIDE
        && n >= MIN_SIDE
        && tile_side(dev, batch).is_some()
}

/// The largest tile side (rows and columns, at most [`MAX_TILE_SIDE`]) whose arrays each fit
/// one storage binding: the residue planes of A and B and their products (f32), the padded
/// k-blocks and the tile (f64).
fn tile_side(dev: &DeviceInner, batch: u64) -> Option<u64> {
    let max_binding = dev.block_limits().max_binding;
    let planes = MODULI.len() as u64;
    let fits = |side: u64| {
        let largest =
            (planes * 4 * side * side.max(MAX_K_BLOCK)).max(8 * side * side.max(MAX_K_BLOCK));
        batch
            .checked_mul(largest)
            .is_some_and(|bytes| bytes <= max_binding)
    };
    let mut side = MAX_TILE_SIDE;
    while side >= MIN_SIDE {
        if fits(side) {
            return Some(side);
        }
        side /= 2;
    }
    None
}

/// How many moduli a block of `k` terms needs: their product must exceed 2.25 times the largest
/// |sum_k Y_a Y_b|, which is below k (2^53 - 1)^2, so that |C'| / M stays below 0.45 (the
/// combine kernel rounds an f32 estimate of C' / M's integer part).
fn moduli_for(k: u64) -> usize {
    let bound = u128::from(k) * ((1u128 << 53) - 1).pow(2);
    let mut product = 1u128;
    for (i, &m) in MODULI.iter().enumerate() {
        product *= u128::from(m);
        if product / 9 > bound / 4 {
            return i + 1;
        }
    }
    unreachable!(
        "the moduli cover blocks of {MAX_K_BLOCK} terms (tests::moduli_cover_the_largest_block)"
    )
}

/// The product of the first `n` moduli.
fn modulus(n: usize) -> u128 {
    MODULI[..n].iter().map(|&m| u128::from(m)).product()
}

/// x^-1 modulo m (x and m coprime), by the extended Euclidean algorithm.
fn inverse_mod(x: u32, m: u32) -> u32 {
    let (mut r0, mut r1) = (i64::from(m), i64::from(x % m));
    let (mut t0, mut t1) = (0i64, 1i64);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (t0, t1) = (t1, t0 - q * t1);
    }
    debug_assert_eq!(r0, 1, "{x} and {m} are coprime");
    t0.rem_euclid(i64::from(m)) as u32
}

/// The combine kernel's table for `n` moduli: per modulus m_t, 10 words: m_t, (M / m_t)^-1 mod
/// m_t, and M / m_t in eight 16-bit limbs, lowest first; then M's eight limbs.
fn crt_table(n: usize) -> Vec<u32> {
    let big_m = modulus(n);
    let limbs = |x: u128| (0..8).map(move |l| ((x >> (16 * l)) & 0xffff) as u32);
    let mut table = Vec::with_capacity(10 * n + 8);
    for &m in &MODULI[..n] {
        let cofactor = big_m / u128::from(m);
        table.push(m);
        table.push(inverse_mod((cofactor % u128::from(m)) as u32, m));
        table.extend(limbs(cofactor));
    }
    table.extend(limbs(big_m));
    table
}

/// The residues kernel's table: per modulus m, (m, 2^13 mod m, 2^26 mod m, 0, 2^39 mod m,
/// 2^52 mod m, 0, 0).
fn residue_table(n: usize) -> Vec<u32> {
    MODULI[..n]
        .iter()
        .flat_map(|&m| {
            let w = |bits: u32| ((1u64 << bits) % u64::from(m)) as u32;
            [m, w(13), w(26), 0, w(39), w(52), 0, 0]
        })
        .collect()
}

/// A contiguous copy of the 3-d `a` starting its own buffer, its last two axes padded with zeros
/// to `rows` x `cols` (the kernels take four elements per invocation).
fn padded(a: &Array, rows: usize, cols: usize) -> Result<Array> {
    let (batch, r, c) = (a.shape()[0], a.shape()[1], a.shape()[2]);
    if (r, c) == (rows, cols) {
        let out = Array::empty(OP, a.device(), a.shape(), a.dtype())?;
        crate::array::copy::copy_into(OP, a, &out)?;
        return Ok(out);
    }
    let out = Array::zeros(a.device(), &[batch, rows, cols], a.dtype())?;
    out.slice(&[ALL, range(0, r as u64), range(0, c as u64)])?
        .assign(a)?;
    Ok(out)
}

fn range(start: u64, stop: u64) -> SliceArg {
    SliceArg::Range {
        start: Some(start as isize),
        stop: Some(stop as isize),
        step: 1,
    }
}

const ALL: SliceArg = SliceArg::Range {
    start: None,
    stop: None,
    step: 1,
};

/// `c = a @ b` for batch-broadcast views of equal batch shape, `(..., M, K) @ (..., K, N)`.
pub(super) fn run(a: &Array, b: &Array, c: &Array) -> Result<()> {
    let nd = c.ndim();
    let (m, n, k) = (c.shape()[nd - 2], c.shape()[nd - 1], a.shape()[nd - 1]);
    let batch: usize = c.shape()[..nd - 2].iter().product();
    let a3 = a.reshape(&[batch as isize, m as isize, k as isize])?;
    let b3 = b.reshape(&[batch as isize, k as isize, n as isize])?;
    // Tiles go straight into C when it is contiguous (its 3-d reshape is then a view); else into
    // a fresh array copied into C at the end.
    let direct = c.is_contiguous();
    let out = if direct {
        c.reshape(&[batch as isize, m as isize, n as isize])?
    } else {
        Array::empty(OP, c.device(), &[batch, m, n], DType::F64)?
    };
    let dev = &c.device().inner;
    let side = tile_side(dev, batch as u64).expect("applies() checked that tiles fit");
    let (m, n, k) = (m as u64, n as u64, k as u64);
    for r0 in (0..m).step_by(side as usize) {
        let r1 = (r0 + side).min(m);
        let rows = (r1 - r0) as usize;
        for c0 in (0..n).step_by(side as usize) {
            let c1 = (c0 + side).min(n);
            let cols = (c1 - c0) as usize;
            // Four outputs per invocation: columns padded to a multiple of 4.
            let tile = Array::empty(
                OP,
                c.device(),
                &[batch, rows, cols.next_multiple_of(4)],
                DType::F64,
            )?;
            for k0 in (0..k).step_by(MAX_K_BLOCK as usize) {
                let k1 = (k0 + MAX_K_BLOCK).min(k);
                // Four elements per invocation: k padded to a multiple of 4 (zeros, which add
                // nothing).
                let k4 = ((k1 - k0) as usize).next_multiple_of(4);
                let a_block = padded(&a3.slice(&[ALL, range(r0, r1), range(k0, k1)])?, rows, k4)?;
                let b_block = padded(
                    &b3.slice(&[ALL, range(k0, k1), range(c0, c1)])?,
                    k4,
                    cols.next_multiple_of(4),
                )?;
                block(dev, &a_block, &b_block, &tile, (k1 - k0, cols), k0 > 0)?;
            }
            out.slice(&[ALL, range(r0, r1), range(c0, c1)])?
                .assign(&tile.slice(&[ALL, ALL, range(0, cols as u64)])?)?;
        }
    }
    if direct {
        return Ok(());
    }
    let shape: Vec<isize> = c.shape().iter().map(|&d| d as isize).collect();
    c.assign(&out.reshape(&shape)?)
}

/// One k-block of one tile: `tile (+)= a @ b` for fresh contiguous `(batch, rows, k)` and
/// `(batch, k, cols)` operands padded with zeros (k and cols multiples of 4) from `live`: the
/// block's terms and the tile's columns before the padding.
fn block(
    dev: &DeviceInner,
    a: &Array,
    b: &Array,
    tile: &Array,
    live: (u64, usize),
    accumulate: bool,
) -> Result<()> {
    let device = a.device();
    let (batch, rows, k) = (a.shape()[0], a.shape()[1], a.shape()[2]);
    let cols = b.shape()[2];
    let (terms, live_cols) = live;
    let moduli = moduli_for(terms);
    // A's exponents, then B's from a 256-byte boundary (a storage binding's offset alignment).
    let b_exps = (batch * rows).next_multiple_of(64);
    let exps = Array::zeros(device, &[b_exps + batch * cols], DType::U32)?;
    let exps_buffer = exps.storage_and_layout().0.buffer().expect("non-empty");
    let a_exps = Binding {
        buffer: exps_buffer,
        offset: 0,
        size: (batch * rows * 4) as u64,
    };
    let b_exps_binding = Binding {
        buffer: exps_buffer,
        offset: b_exps as u64 * 4,
        size: (batch * cols * 4) as u64,
    };
    let f64_variant = Variant::one(DType::F64);
    let exponents = PipelineKey::new(&OZAKI_EXPONENTS, f64_variant);
    let residues = PipelineKey::new(&OZAKI_RESIDUES, f64_variant);
    // Each operand's residue planes (moduli, batch, rows or k, k or cols) and magnitudes.
    let a_planes = Array::empty(OP, device, &[moduli, batch, rows, k], DType::F32)?;
    let b_planes = Array::empty(OP, device, &[moduli, batch, k, cols], DType::F32)?;
    let a_magnitude = Array::empty(OP, device, &[batch, rows, k], DType::F32)?;
    let b_magnitude = Array::empty(OP, device, &[batch, k, cols], DType::F32)?;
    // 32 vec4s: two per modulus (at most 16), padded.
    let mut table = residue_table(MODULI.len());
    table.resize(32 * 4, 0);
    dev.guarded(OP, || {
        for (x, inner, exps_binding, planes, magnitude) in [
            (a, 1, a_exps, &a_planes, &a_magnitude),
            (b, cols, b_exps_binding, &b_planes, &b_magnitude),
        ] {
            let count = x.len() as u64;
            let mut p = Params::default();
            p.u32(count as u32)
                .u32(k as u32)
                .u32(inner as u32)
                .u32(moduli as u32);
            for &w in &table {
                p.u32(w);
            }
            dev.dispatch(
                &exponents,
                p.bytes(),
                &[whole(x), exps_binding],
                count,
                &[count],
            )?;
            dev.dispatch(
                &residues,
                p.bytes(),
                &[whole(x), exps_binding, whole(planes), whole(magnitude)],
                // Four elements per invocation (count is a multiple of 4: k is padded).
                count / 4,
                &[count],
            )?;
        }
        Ok(())
    })?;
    // The exact integer products modulo each modulus, and the magnitudes' product.
    let stacked = (moduli * batch) as isize;
    let products = super::matmul(
        &a_planes.reshape(&[stacked, rows as isize, k as isize])?,
        &b_planes.reshape(&[stacked, k as isize, cols as isize])?,
        None,
    )?;
    let magnitude = super::matmul(&a_magnitude, &b_magnitude, None)?;
    let count = (batch * rows * cols) as u64;
    let mut p = Params::default();
    // 2 k / (k - 1), raised for the f32 estimate's own rounding (relative error below 2^-13).
    let threshold = if terms > 1 {
        2.0 * terms as f64 / (terms - 1) as f64 * 1.001
    } else {
        f64::INFINITY
    };
    p.u32(count as u32)
        .u32(rows as u32)
        .u32(cols as u32)
        .u32(k as u32)
        .u32(moduli as u32)
        .u32(accumulate as u32)
        .u32(b_exps as u32)
        .f32(threshold as f32)
        .u32(live_cols as u32)
        .u32(0)
        .u32(0)
        .u32(0);
    // 42 vec4s: 10 words per modulus (at most 16) and M's 8, padded.
    let mut table = crt_table(moduli);
    table.resize(42 * 4, 0);
    for w in table {
        p.u32(w);
    }
    let combine = PipelineKey::new(&OZAKI_COMBINE, f64_variant);
    dev.guarded(OP, || {
        dev.dispatch(
            &combine,
            p.bytes(),
            &[
                whole(&products),
                whole(&magnitude),
                whole(&exps),
                whole(a),
                whole(b),
                whole(tile),
            ],
            // Four outputs per invocation (cols is a multiple of 4: the tile is padded).
            count / 4,
            &[batch as u64, rows as u64, cols as u64],
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gcd(a: u32, b: u32) -> u32 {
        if b == 0 { a } else { gcd(b, a % b) }
    }

    #[test]
    fn moduli_are_odd_and_pairwise_coprime() {
        for (i, &x) in MODULI.iter().enumerate() {
            assert_eq!(x % 2, 1, "{x} is odd");
            assert!(
                u64::from(x) / 2 <= MAX_RESIDUE,
                "{x}: residues within {MAX_RESIDUE}"
            );
            for &y in &MODULI[i + 1..] {
                assert_eq!(gcd(x, y), 1, "{x} and {y}");
            }
        }
    }

    #[test]
    fn moduli_cover_the_largest_block() {
        let n = moduli_for(MAX_K_BLOCK);
        assert!(modulus(n) > 2 * u128::from(MAX_K_BLOCK) * ((1u128 << 53) - 1).pow(2));
        assert_eq!(n, MODULI.len());
        // M / m_t and the CRT sum fit the combine kernel's eight 16-bit limbs.
        assert!(modulus(n) < 1u128 << 124);
        assert!(moduli_for(32) <= n);
    }

    #[test]
    fn the_crt_table_recombines() {
        // C' = sum_t x_t (M / m_t) - q M for a few C' of both signs.
        let n = moduli_for(MAX_K_BLOCK);
        let table = crt_table(n);
        let big_m = modulus(n) as i128;
        let limbs =
            |at: usize| -> i128 { (0..8).map(|l| i128::from(table[at + l]) << (16 * l)).sum() };
        assert_eq!(limbs(10 * n), big_m);
        for c in [
            0i128,
            1,
            -1,
            123456789,
            -(1i128 << 100) - 7,
            (1i128 << 116) + 99,
        ] {
            let mut s = 0i128;
            let mut turns = 0.0f64;
            for t in 0..n {
                let m = i128::from(table[10 * t]);
                let x = c.rem_euclid(m) * i128::from(table[10 * t + 1]) % m;
                assert_eq!(limbs(10 * t + 2), big_m / m);
                s += x * (big_m / m);
                turns += x as f64 / m as f64;
            }
            assert_eq!(s - turns.round() as i128 * big_m, c, "{c}");
        }
    }
}
