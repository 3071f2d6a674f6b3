// The 64-bit integer arithmetic of the element-wise op files (binary_int64.wgsl, ...), on word
// pairs (int64.wgsl), with NumPy's semantics as binary_int.wgsl states them for 32 bits. The
// prelude sets `SIGNED` (int64) or not (uint64).

fn eq64(a: vec2<u32>, b: vec2<u32>) -> bool {
    return a.x == b.x && a.y == b.y;
}

// a < b in the dtype's order: int64 compares the high words as i32.
fn lt64(a: vec2<u32>, b: vec2<u32>) -> bool {
    if (SIGNED && a.y != b.y) {
        return bitcast<i32>(a.y) < bitcast<i32>(b.y);
    }
    return ult64(a, b);
}

// Negative in the dtype (never for uint64).
fn neg_in_dtype(x: vec2<u32>) -> bool {
    return SIGNED && is_neg64(x);
}

// The magnitude as uint64 (|most negative| is 2^63, which uint64 holds).
fn magnitude(x: vec2<u32>) -> vec2<u32> {
    return select(x, neg64(x), neg_in_dtype(x));
}

// x >> n, arithmetic (the sign word shifted in), for n in [0, 63].
fn sar64(x: vec2<u32>, n: u32) -> vec2<u32> {
    if (n == 0u) {
        return x;
    }
    let hi = bitcast<i32>(x.y);
    if (n >= 32u) {
        return vec2<u32>(bitcast<u32>(hi >> (n - 32u)), bitcast<u32>(hi >> 31u));
    }
    return vec2<u32>((x.x >> n) | (x.y << (32u - n)), bitcast<u32>(hi >> n));
}

// Trailing zero bits (64 for zero).
fn ctz64(x: vec2<u32>) -> u32 {
    if (x.x != 0u) {
        return countTrailingZeros(x.x);
    }
    return 32u + countTrailingZeros(x.y);
}

// (quotient, remainder) of uint64 a / b for b != 0, by shift-and-subtract from a's top bit: one
// step per significant bit of a (a single u32 division when both fit one word).
fn udivrem64(a: vec2<u32>, b: vec2<u32>) -> array<vec2<u32>, 2> {
    if (a.y == 0u && b.y == 0u) {
        return array<vec2<u32>, 2>(vec2<u32>(a.x / b.x, 0u), vec2<u32>(a.x % b.x, 0u));
    }
    var q = vec2<u32>(0u);
    var r = vec2<u32>(0u);
    let top = 64u - clz64(a);
    for (var k = top; k > 0u; k -= 1u) {
        let i = k - 1u;
        let bit = select(a.x >> i, a.y >> (i - 32u), i >= 32u) & 1u;
        // r < b < 2^64 before the shift, and r < 2^63 unless b >= 2^63: the bit shifted out of r
        // is then what makes r + bit >= b.
        let carry = (r.y >> 31u) != 0u;
        r = shl64(r, 1u);
        r.x |= bit;
        if (carry || !ult64(r, b)) {
            r = sub64(r, b);
            if (i >= 32u) {
                q.y |= 1u << (i - 32u);
            } else {
                q.x |= 1u << i;
            }
        }
    }
    return array<vec2<u32>, 2>(q, r);
}

// Truncated quotient and remainder in the dtype (b != 0); most negative / -1 wraps to itself.
fn trunc_divrem64(a: vec2<u32>, b: vec2<u32>) -> array<vec2<u32>, 2> {
    let qr = udivrem64(magnitude(a), magnitude(b));
    var q = qr[0];
    var r = qr[1];
    if (neg_in_dtype(a) != neg_in_dtype(b)) {
        q = neg64(q);
    }
    if (neg_in_dtype(a)) {
        r = neg64(r);
    }
    return array<vec2<u32>, 2>(q, r);
}

fn is_zero64(x: vec2<u32>) -> bool {
    return x.x == 0u && x.y == 0u;
}

fn floor_div64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    if (is_zero64(b)) {
        return vec2<u32>(0u);
    }
    let qr = trunc_divrem64(a, b);
    if (!is_zero64(qr[1]) && neg_in_dtype(qr[1]) != neg_in_dtype(b)) {
        return sub64(qr[0], vec2<u32>(1u, 0u));
    }
    return qr[0];
}

fn modulus64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    if (is_zero64(b)) {
        return vec2<u32>(0u);
    }
    let r = trunc_divrem64(a, b)[1];
    if (!is_zero64(r) && neg_in_dtype(r) != neg_in_dtype(b)) {
        return add64(r, b);
    }
    return r;
}

fn fmod64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    if (is_zero64(b)) {
        return vec2<u32>(0u);
    }
    return trunc_divrem64(a, b)[1];
}

// By squaring with wrapping products; the host rejects negative exponents.
fn pow64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    var base = a;
    var e = b;
    var r = vec2<u32>(1u, 0u);
    loop {
        if (is_zero64(e)) {
            break;
        }
        if ((e.x & 1u) != 0u) {
            r = mul64(r, base);
        }
        base = mul64(base, base);
        e = shr64(e, 1u);
    }
    return r;
}

// NumPy's shifts: a count outside [0, 64) (a negative one read as huge) shifts everything out.
fn shift_left64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    if (b.y != 0u || b.x >= 64u) {
        return vec2<u32>(0u);
    }
    return shl64(a, b.x);
}

fn shift_right64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    if (b.y != 0u || b.x >= 64u) {
        return select(vec2<u32>(0u), vec2<u32>(0xffffffffu), neg_in_dtype(a));
    }
    if (SIGNED) {
        return sar64(a, b.x);
    }
    return shr64(a, b.x);
}

// Binary GCD (Stein) on the magnitudes: shifts and subtractions, at most 128 steps.
fn gcd64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    var x = magnitude(a);
    var y = magnitude(b);
    if (is_zero64(x)) {
        return y;
    }
    if (is_zero64(y)) {
        return x;
    }
    let twos = min(ctz64(x), ctz64(y));
    x = shr64(x, ctz64(x));
    loop {
        y = shr64(y, ctz64(y));
        if (ult64(y, x)) {
            let t = x;
            x = y;
            y = t;
        }
        y = sub64(y, x);
        if (is_zero64(y)) {
            break;
        }
    }
    return shl64(x, twos);
}

// |a / gcd * b| with wrapping products; 0 when either operand is 0.
fn lcm64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let g = gcd64(a, b);
    if (is_zero64(g)) {
        return vec2<u32>(0u);
    }
    return mul64(udivrem64(magnitude(a), g)[0], magnitude(b));
}
