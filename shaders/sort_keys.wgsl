// Order-preserving keys of array elements, as 32-bit words, shared by sorting and searching:
// unsigned comparison of keys orders the values as NumPy's sort does. Floats get their sign bit
// flipped (negatives complemented), -0.0 is +0.0 (NumPy compares them equal) and every NaN, of
// any sign or payload, is the largest key (NaN sorts last); i32 gets its sign bit flipped; u32
// is itself. 64-bit keys are two words (high, low) from the element's (low, high) words: f64's
// like f32's (NaN's low word is 0xfffffffe, below the sort's padding), int64's with the sign bit
// of the high word flipped, uint64's as they are. The 8- and 16-bit integers are sorted as
// i32/u32 (the host widens them: exact).

// 0: u32, 1: i32, 2: f32 (one word per element); 3: f64, 4: i64, 5: u64 (two words, low then
// high).
override DTYPE: u32 = 0u;

fn wide() -> bool {
    return DTYPE >= 3u;
}

fn key32(b: u32) -> u32 {
    switch DTYPE {
        case 0u: { return b; }
        case 1u: { return b ^ 0x80000000u; }
        default: {
            if ((b & 0x7fffffffu) > 0x7f800000u) {
                return 0xffffffffu;
            }
            if ((b & 0x7fffffffu) == 0u) {
                return 0x80000000u;
            }
            return select(b | 0x80000000u, ~b, (b >> 31u) != 0u);
        }
    }
}

fn key64(lo: u32, hi: u32) -> vec2<u32> {
    if (DTYPE == 4u) {
        return vec2<u32>(hi ^ 0x80000000u, lo);
    }
    if (DTYPE == 5u) {
        return vec2<u32>(hi, lo);
    }
    let mag = hi & 0x7fffffffu;
    if (mag > 0x7ff00000u || (mag == 0x7ff00000u && lo != 0u)) {
        return vec2<u32>(0xffffffffu, 0xfffffffeu);
    }
    if (mag == 0u && lo == 0u) {
        return vec2<u32>(0x80000000u, 0u);
    }
    if ((hi >> 31u) != 0u) {
        return vec2<u32>(~hi, ~lo);
    }
    return vec2<u32>(hi | 0x80000000u, lo);
}
