// The integer halves of philox.wgsl's 53-bit (f64) draws, shared by its native f64 path and by
// philox_wide_soft.wgsl (software f64): only u32 arithmetic, so both see the same integers.

// _curand_uniform_double_hq(x, y) = RN(z 2^-53 + 2^-54) with z = x ^ (y << 21) (53 bits), as the
// exact integer K = (hi, lo) with value K 2^-54, K <= 2^54.
fn uniform53(x: u32, y: u32) -> vec2<u32> {
    let lo = x ^ (y << 21u);
    let hi = y >> 11u;
    // z < 2^52: z + 1/2 is exact, K = 2z + 1. Else a tie between z and z + 1 (units of 2^-53),
    // to even: K = 2 (z + (z & 1)).
    let lo1 = lo + (lo & 1u);
    let hi1 = hi + select(0u, 1u, lo1 < lo);
    let small = hi < 0x100000u;
    return vec2<u32>(
        select((hi1 << 1u) | (lo1 >> 31u), (hi << 1u) | (lo >> 31u), small),
        select(lo1 << 1u, (lo << 1u) | 1u, small),
    );
}

// K (0 < K <= 2^54) shifted so its leading bit is bit 52: (hi, lo) with K' 2^-52 in [1, 2),
// and `top`, the bit K's leading bit was at (K = 2^53 or 2^54, a lone bit, shifts right).
fn u54_normalized(k: vec2<u32>) -> vec3<u32> {
    let top = select(firstLeadingBit(k.y), 32u + firstLeadingBit(k.x), k.x != 0u);
    // Shift K so its leading bit is bit 52: m = K' 2^-52 in [1, 2). K = 2^53 or 2^54 (a lone bit)
    // shifts right.
    let l = select(0u, 52u - min(top, 52u), top < 52u);
    let r = select(0u, top - 52u, top > 52u);
    var hi = k.x;
    var lo = k.y;
    if (l >= 32u) {
        hi = lo << (l - 32u);
        lo = 0u;
    } else if (l > 0u) {
        hi = (hi << l) | (lo >> (32u - l));
        lo = lo << l;
    }
    if (r > 0u) {
        lo = (lo >> r) | (hi << (32u - r));
        hi = hi >> r;
    }
    return vec3<u32>(hi, lo, top);
}

// cuRAND's Box-Muller angle 2 pi (zy + 1/2) / 2^53, zy = y0 ^ (y1 << 21), as a quarter turn n =
// (zy + 2^50) >> 51 and the remainder d = zy - n 2^51 in [-2^50, 2^50): (n, d's high word as i32
// bits, d's low word).
fn quarter_turns53(y0: u32, y1: u32) -> vec3<u32> {
    let lo = y0 ^ (y1 << 21u);
    let hi = y1 >> 11u;
    let n = (hi + 0x40000u) >> 19u;
    let dhi = i32(hi) - i32(n << 19u);
    return vec3<u32>(n, bitcast<u32>(dhi), lo);
}
