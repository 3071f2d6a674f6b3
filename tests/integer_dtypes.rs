//! The emulated integer dtypes (int64/uint64 as word pairs, int8/uint8/int16/uint16 packed):
//! transfers, constructors, every cast between every pair of dtypes against a reference written
//! here from NumPy's rules on x86-64, packed outputs through odd offsets, negative strides,
//! transposes and views that share words with untouched elements, interleaved writers, arrays
//! across binding windows, printing, and the ops that do not take them yet refusing cleanly.

mod common;

use common::{read_ints, upload_ints, xorshift};
use gpuarray::{Array, DType, Error, SliceArg};
use half::f16;

const EMULATED: [DType; 6] = DType::EMULATED;

/// Bits of an integer dtype.
fn bits(d: DType) -> u32 {
    8 * d.size_bytes() as u32
}

/// `x` wrapped to `d`'s width and read with its signedness (a NumPy integer cast).
fn wrap(x: i128, d: DType) -> i128 {
    if d == DType::Bool {
        return i128::from(x != 0);
    }
    let b = bits(d);
    let m = x.rem_euclid(1i128 << b);
    if d.is_signed_int() && m >= 1i128 << (b - 1) {
        m - (1i128 << b)
    } else {
        m
    }
}

/// The boundary values of the issue, wrapped to `d`, plus pseudo-random ones.
fn int_values(d: DType, n_random: usize, seed: u64) -> Vec<i128> {
    let mut v: Vec<i128> = vec![
        0,
        1,
        -1,
        2,
        127,
        128,
        -128,
        -129,
        255,
        256,
        32767,
        32768,
        -32769,
        65535,
        65536,
        (1 << 31) - 1,
        1 << 31,
        (1 << 31) + 1,
        -(1 << 31),
        -(1 << 31) - 1,
        (1 << 32) - 1,
        1 << 32,
        (1 << 32) + 1,
        (1 << 53) - 1,
        1 << 53,
        (1 << 53) + 1,
        -(1 << 53) - 1,
        i128::from(i64::MAX),
        i128::from(i64::MIN),
        i128::from(u64::MAX),
        (1 << 63) + (1 << 39) + 1,
        // Ties of f32 (ulp 2 at 2^24, 2^17 at 2^40) and f64 (ulp 2 at 2^53): to even.
        (1 << 24) + 1,
        (1 << 24) + 3,
        (1 << 40) + (1 << 16),
        (1 << 40) + 3 * (1 << 16),
        -(1 << 40) - 3 * (1 << 16),
        (1 << 53) + 3,
    ];
    let mut next = xorshift(seed);
    v.extend((0..n_random).map(|_| i128::from(next() as i64) >> (next() % 64)));
    v.into_iter().map(|x| wrap(x, d)).collect()
}

/// Float values that exercise truncation, rounding and NumPy's out-of-range results.
fn float_values() -> Vec<f64> {
    let p = |e: i32| 2f64.powi(e);
    vec![
        0.0,
        -0.0,
        0.5,
        -0.5,
        1.0,
        -1.0,
        127.9,
        -128.9,
        255.5,
        300.5,
        -300.5,
        65504.0,
        -65504.0,
        p(24) + 1.0,
        p(31) - 128.0,
        p(31),
        -p(31),
        p(32) + 7.0,
        1e10,
        -1e10,
        p(53) + 2.0,
        p(62) * 1.5,
        p(63),
        -p(63),
        p(63) * 1.5,
        p(64),
        -p(64),
        1e30,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ]
}

/// One element of any dtype, as the reference sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Value {
    Float(f64),
    Int(i128),
}

/// NumPy's float -> int64 on x86-64 (cvttsd2si): truncation, NaN and out-of-range to i64::MIN.
fn f_to_i64(x: f64) -> i128 {
    let t = x.trunc();
    if x.is_nan() || !(-(2f64.powi(63))..2f64.powi(63)).contains(&t) {
        i128::from(i64::MIN)
    } else {
        t as i128
    }
}

/// NumPy's float -> int32 on x86-64 (cvttss2si): what it casts to 8- and 16-bit through.
fn f_to_i32_x86(x: f64) -> i128 {
    let t = x.trunc();
    if x.is_nan() || !(-(2f64.powi(31))..2f64.powi(31)).contains(&t) {
        i128::from(i32::MIN)
    } else {
        t as i128
    }
}

/// The reference cast of `v` (an element of `src`) to `dst`, or `None` where the result is
/// left to the implementation (a NaN to uint32, which saturating WGSL does not define).
fn cast(v: Value, src: DType, dst: DType) -> Option<Value> {
    Some(match (v, dst) {
        (Value::Float(x), DType::Bool) => Value::Int(i128::from(x != 0.0)),
        (Value::Int(i), DType::Bool) => Value::Int(i128::from(i != 0)),
        (Value::Float(x), DType::F32) => Value::Float(f64::from(x as f32)),
        (Value::Float(x), DType::F64) => Value::Float(x),
        (Value::Float(x), DType::F16) => Value::Float(f64::from(f16::from_f64(x))),
        // Integers to floats: correctly rounded (Rust's casts round to nearest even).
        (Value::Int(i), DType::F32) => Value::Float(f64::from(i as f32)),
        (Value::Int(i), DType::F64) => Value::Float(i as f64),
        (Value::Int(i), DType::F16) => Value::Float(f64::from(f16::from_f32(i as f32))),
        (Value::Int(i), d) => Value::Int(wrap(i, d)),
        // Floats to uint32 saturate (WGSL's rule) to bounds the source type holds.
        (Value::Float(x), DType::U32) => {
            if x.is_nan() {
                return None;
            }
            let hi = if src == DType::F64 {
                4294967295.0
            } else {
                4294967040.0
            };
            Value::Int(x.trunc().clamp(0.0, hi) as i128)
        }
        (Value::Float(x), DType::I64) => Value::Int(f_to_i64(x)),
        (Value::Float(x), DType::U64) => Value::Int(wrap(
            if !x.is_nan() && x >= 2f64.powi(63) {
                f_to_i64(x - 2f64.powi(63)) ^ i128::from(i64::MIN)
            } else {
                f_to_i64(x)
            },
            DType::U64,
        )),
        (Value::Float(x), d) => Value::Int(wrap(f_to_i32_x86(x), d)),
    })
}

/// The source array of `d` for the cast table, and its elements as the reference reads them.
fn source(dev: &gpuarray::Device, d: DType) -> (Array, Vec<Value>) {
    if d.is_float() {
        let x: Vec<f64> = float_values()
            .into_iter()
            .map(|x| match d {
                DType::F32 => f64::from(x as f32),
                DType::F16 => f64::from(f16::from_f64(x)),
                _ => x,
            })
            .collect();
        let a = common::upload(dev, &x, &[x.len()], d);
        (a, x.into_iter().map(Value::Float).collect())
    } else {
        let x = int_values(d, 40, bits(d) as u64);
        let a = upload_ints(dev, &x, &[x.len()], d);
        (a, x.into_iter().map(Value::Int).collect())
    }
}

fn read_values(a: &Array) -> Vec<Value> {
    if a.dtype().is_float() {
        common::read(a).into_iter().map(Value::Float).collect()
    } else {
        read_ints(a).into_iter().map(Value::Int).collect()
    }
}

fn same(a: Value, b: Value) -> bool {
    match (a, b) {
        (Value::Float(x), Value::Float(y)) => {
            (x.is_nan() && y.is_nan()) || (x == y && x.is_sign_negative() == y.is_sign_negative())
        }
        (x, y) => x == y,
    }
}

#[test]
fn transfers_round_trip_every_width_and_odd_length() {
    let Some(dev) = common::device() else { return };
    for d in EMULATED {
        assert!(dev.supports(d), "{d} is emulated on every adapter");
        for n in [1usize, 2, 3, 5, 7, 1023] {
            let x: Vec<i128> = int_values(d, n, 7).into_iter().take(n).collect();
            let a = upload_ints(&dev, &x, &[n], d);
            assert_eq!((a.dtype(), a.len()), (d, n));
            assert_eq!(read_ints(&a), x, "{d} n={n}");
            // A view at an odd offset reads its own elements (contiguous copy of a slice).
            if n > 2 {
                let v = a.slice(&[SliceArg::range(Some(1), None, 1)]).unwrap();
                assert_eq!(read_ints(&v), x[1..].to_vec(), "{d} n={n} [1:]");
            }
        }
    }
}

#[test]
fn every_cast_between_every_pair_matches_numpy() {
    // The real dtypes; casts to and from complex ones: tests/complex.rs.
    let Some(dev) = common::device() else { return };
    let dtypes: Vec<DType> = DType::REAL
        .into_iter()
        .filter(|&d| common::supports(&dev, d, "casts"))
        .collect();
    let mut checked = 0;
    for &src in &dtypes {
        let (a, values) = source(&dev, src);
        for &dst in &dtypes {
            let got = read_values(&a.astype(dst).unwrap());
            assert_eq!(got.len(), values.len());
            for (i, (&v, &g)) in values.iter().zip(&got).enumerate() {
                let Some(want) = cast(v, src, dst) else {
                    continue;
                };
                assert!(
                    same(g, want),
                    "{src} -> {dst}: element {i} {v:?} gave {g:?}, NumPy gives {want:?}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked} casts checked");
}

#[test]
fn constructors_fill_every_width_with_exact_values() {
    let Some(dev) = common::device() else { return };
    for d in EMULATED {
        let z = Array::zeros(&dev, &[5], d).unwrap();
        assert_eq!(read_ints(&z), vec![0; 5]);
        let o = Array::ones(&dev, &[3, 3], d).unwrap();
        assert_eq!(read_ints(&o), vec![1; 9]);
        let (lo, hi) = if d.is_signed_int() {
            (-(1i128 << (bits(d) - 1)), (1i128 << (bits(d) - 1)) - 1)
        } else {
            (0, (1i128 << bits(d)) - 1)
        };
        // The ends of the range that f64 holds exactly (i64::MAX and u64::MAX do not fit).
        for v in [lo, hi.min(1 << 53), -1] {
            let r = Array::full(&dev, &[7], v as f64, d);
            if v < lo {
                assert!(matches!(r, Err(Error::InvalidArgument { .. })), "{d} {v}");
                continue;
            }
            assert_eq!(read_ints(&r.unwrap()), vec![v; 7], "{d} full {v}");
        }
        // Outside the range: refused with the range, as for int32.
        match Array::full(&dev, &[2], (hi as f64) * 4.0 + 4.0, d) {
            Err(Error::InvalidArgument { op, msg }) => {
                assert_eq!(op, "full");
                assert!(msg.contains(d.name()), "{msg}");
            }
            other => panic!("{d}: {other:?}"),
        }
        // fill() of a strided view writes only the view.
        let a = upload_ints(&dev, &(0..10).collect::<Vec<_>>(), &[10], d);
        let v = if d.is_signed_int() { -2 } else { 200 };
        a.slice(&[SliceArg::range(Some(1), None, 3)])
            .unwrap()
            .fill(v as f64)
            .unwrap();
        let want: Vec<i128> = (0..10).map(|i| if i % 3 == 1 { v } else { i }).collect();
        assert_eq!(read_ints(&a), want, "{d} fill of a[1::3]");
    }
}

/// Writes through views whose elements share words with elements outside them: only the view
/// changes (the neighbours' bytes are intact), whatever the offset, stride or order.
#[test]
fn packed_outputs_leave_neighbouring_elements_intact() {
    let Some(dev) = common::device() else { return };
    for d in [DType::I8, DType::U8, DType::I16, DType::U16, DType::I64] {
        let n = 61usize;
        let base: Vec<i128> = (0..n as i128).map(|i| wrap(i * 7 + 3, d)).collect();
        let cases: [(isize, Option<isize>, isize); 5] = [
            (0, None, 2),
            (1, None, 2),
            (3, Some(50), 5),
            (60, None, -1),
            (59, Some(0), -3),
        ];
        for (start, stop, step) in cases {
            let a = upload_ints(&dev, &base, &[n], d);
            let view = a
                .slice(&[SliceArg::range(Some(start), stop, step)])
                .unwrap();
            let m = view.len();
            let src: Vec<i128> = (0..m as i128).map(|i| wrap(-1000 - i, d)).collect();
            view.assign(&upload_ints(&dev, &src, &[m], d)).unwrap();
            let mut want = base.clone();
            let mut k = start;
            for s in &src {
                want[k as usize] = *s;
                k += step;
            }
            assert_eq!(read_ints(&a), want, "{d} a[{start}:{stop:?}:{step}] = ...");
        }
        // A transposed destination: rows of a (5, 7) matrix written through its transpose.
        let a = upload_ints(&dev, &base[..35], &[5, 7], d);
        let t = a.t();
        let src: Vec<i128> = (0..35).map(|i| wrap(500 + i, d)).collect();
        t.assign(&upload_ints(&dev, &src, &[7, 5], d)).unwrap();
        let got = read_ints(&a);
        for r in 0..5 {
            for c in 0..7 {
                assert_eq!(got[r * 7 + c], src[c * 5 + r], "{d} transposed ({r}, {c})");
            }
        }
    }
}

/// Eight threads each write one of eight interleaved uint8 views of one buffer (a[t::8]):
/// every byte ends up written by its own thread, none lost to a neighbour's word.
#[test]
fn interleaved_uint8_writers_lose_nothing() {
    let Some(dev) = common::device() else { return };
    let n = 8 * 1000 + 5;
    let a = Array::zeros(&dev, &[n], DType::U8).unwrap();
    std::thread::scope(|s| {
        for t in 0..8isize {
            let a = a.clone();
            let dev = dev.clone();
            s.spawn(move || {
                let view = a.slice(&[SliceArg::range(Some(t), None, 8)]).unwrap();
                let vals: Vec<i128> = vec![i128::from(t as u8 + 1); view.len()];
                view.assign(&upload_ints(&dev, &vals, &[view.len()], DType::U8))
                    .unwrap();
            });
        }
    });
    let got = read_ints(&a);
    for (i, &g) in got.iter().enumerate() {
        assert_eq!(g, (i % 8) as i128 + 1, "byte {i}");
    }
}

/// Copies and casts across binding windows: a device with 64 KiB bindings, arrays of a few
/// hundred KiB, sliced at odd offsets.
#[test]
fn packed_and_pair_arrays_cross_binding_windows() {
    let Some(dev) = common::device_with_binding(64 << 10) else {
        return;
    };
    for d in [DType::U8, DType::I16, DType::I64] {
        let n = (300 << 10) / d.size_bytes() as usize + 3;
        let mut next = xorshift(d.size_bytes());
        let x: Vec<i128> = (0..n).map(|_| wrap(i128::from(next()), d)).collect();
        let a = upload_ints(&dev, &x, &[n], d);
        let v = a.slice(&[SliceArg::range(Some(3), None, 3)]).unwrap();
        let want: Vec<i128> = x[3..].iter().step_by(3).copied().collect();
        assert_eq!(read_ints(&v), want, "{d} strided view");
        let wide = v.astype(DType::I64).unwrap();
        assert_eq!(read_ints(&wide), want, "{d} -> i64");
        let back = wide.astype(d).unwrap();
        assert_eq!(read_ints(&back), want, "i64 -> {d}");
    }
}

#[test]
fn printing_matches_numpy() {
    let Some(dev) = common::device() else { return };
    let a = upload_ints(&dev, &[1, -2, 300], &[3], DType::I64);
    assert_eq!(a.to_string(), "array([  1,  -2, 300])");
    let b = upload_ints(&dev, &[0, 255], &[2], DType::U8);
    assert_eq!(b.to_string(), "array([  0, 255], dtype=uint8)");
    let c = upload_ints(&dev, &[i128::from(u64::MAX)], &[1], DType::U64);
    assert_eq!(c.to_string(), "array([18446744073709551615], dtype=uint64)");
    let d = upload_ints(&dev, &[-32768, 7], &[2], DType::I16);
    assert_eq!(d.to_string(), "array([-32768,      7], dtype=int16)");
}

/// Bad input on the emulated dtypes is an error naming the op and the dtypes or limits (never a
/// kernel run on their bytes as if they were 32-bit words), and arrays made before still read
/// back.
#[test]
fn bad_input_on_emulated_dtypes_is_refused_by_name() {
    let Some(dev) = common::device() else { return };
    let a = upload_ints(&dev, &[3, 1, 2], &[3], DType::I64);
    let b = upload_ints(&dev, &[1, 2, 3], &[3], DType::U8);
    let mut g = gpuarray::random::Generator::new(&dev, 1);
    let results = [
        ("matmul", a.matmul(&b).map(|_| ())),
        (
            "integers",
            g.integers_i128(0, 257, &[4], DType::U8).map(|_| ()),
        ),
        (
            "integers",
            g.integers_i128(0, 1 << 64, &[4], DType::I64).map(|_| ()),
        ),
        ("bitwise_and", a.bitwise_and(&b).map(|_| ())),
    ];
    assert_eq!(g.offset(), 0, "a refused draw consumes nothing");
    for (what, r) in results {
        match r {
            Err(
                e @ (Error::Unsupported { .. }
                | Error::InvalidArgument { .. }
                | Error::DTypeMismatch { .. }),
            ) => {
                let text = e.to_string();
                assert!(
                    text.contains("i64") || text.contains("u8"),
                    "{what}: {text}"
                );
            }
            other => panic!("{what}: {other:?}"),
        }
    }
    assert_eq!(read_ints(&a), vec![3, 1, 2]);
    assert_eq!(read_ints(&b), vec![1, 2, 3]);
}

/// NumPy's result of the integer binary ufunc `name` on `x`, `y` of `d` (computed here in i128,
/// then wrapped to `d`), or `None` where the result is not an integer of `d` or NumPy raises.
fn int_binary_reference(name: &str, x: i128, y: i128, d: DType) -> Option<i128> {
    let b = bits(d) as i128;
    Some(match name {
        "add" => wrap(x + y, d),
        "subtract" => wrap(x - y, d),
        "multiply" => wrap(x.wrapping_mul(y), d),
        "floor_divide" if y == 0 => 0,
        "floor_divide" => wrap(
            x.div_euclid(y) - i128::from(y < 0 && x.rem_euclid(y) != 0),
            d,
        ),
        "remainder" if y == 0 => 0,
        "remainder" => wrap(
            x - y * (x.div_euclid(y) - i128::from(y < 0 && x.rem_euclid(y) != 0)),
            d,
        ),
        "fmod" if y == 0 => 0,
        "fmod" => wrap(x % y, d),
        "maximum" | "fmax" => x.max(y),
        "minimum" | "fmin" => x.min(y),
        "bitwise_and" => wrap(x & y, d),
        "bitwise_or" => wrap(x | y, d),
        "bitwise_xor" => wrap(x ^ y, d),
        // NumPy: a count outside [0, bits) shifts everything out (the sign in for >>).
        "left_shift" => {
            if (0..b).contains(&y) {
                wrap(x << y, d)
            } else {
                0
            }
        }
        "right_shift" => {
            if (0..b).contains(&y) {
                x >> y
            } else if x < 0 {
                -1
            } else {
                0
            }
        }
        "power" if y < 0 => return None,
        "power" => {
            // By squaring, each product wrapped (its low bits are the true power's).
            let (mut r, mut base, mut e) = (1i128, x, y);
            while e > 0 {
                if e & 1 == 1 {
                    r = wrap(r.wrapping_mul(base), d);
                }
                base = wrap(base.wrapping_mul(base), d);
                e >>= 1;
            }
            r
        }
        "gcd" => wrap(gcd(x, y), d),
        "lcm" => {
            let g = gcd(x, y);
            if g == 0 {
                0
            } else {
                // The low bits of |x / g| |y| (a product past 2^127 wraps, keeping them).
                wrap((x / g).abs().wrapping_mul(y.abs()), d)
            }
        }
        _ => return None,
    })
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn int_unary_reference(name: &str, x: i128, d: DType) -> Option<i128> {
    Some(match name {
        "negative" => wrap(-x, d),
        "absolute" => wrap(x.abs(), d),
        "sign" => x.signum(),
        "square" => wrap(x.wrapping_mul(x), d),
        "invert" => wrap(!x, d),
        "floor" | "ceil" | "trunc" | "rint" | "round" => x,
        "relu" => x.max(0),
        // NumPy's integer 1/x: truncated, and 1/0 the integer indefinite value of the
        // conversion NumPy goes through (int64's for 64-bit, int32's low bits for the others).
        "reciprocal" if x == 0 && d == DType::I64 => i128::from(i64::MIN),
        "reciprocal" if x == 0 && d == DType::U64 => 0,
        "reciprocal" if x == 0 => wrap(i128::from(i32::MIN), d),
        "reciprocal" => 1 / x,
        _ => return None,
    })
}

/// Every integer ufunc of the op table on the emulated dtypes, arrays and scalars, against the
/// wrapping reference above: the packed ones computed widened and stored into their own bits,
/// the 64-bit ones in word-pair arithmetic.
#[test]
fn integer_elementwise_ops_wrap_as_numpy() {
    let Some(dev) = common::device() else { return };
    let mut checked = 0usize;
    for d in EMULATED {
        let base = int_values(d, 24, 11);
        let n = base.len();
        // Every pair of a value list with itself, as two arrays (and shift counts 0..=40).
        let xs: Vec<i128> = (0..n * n).map(|i| base[i / n]).collect();
        let ys: Vec<i128> = (0..n * n).map(|i| base[i % n]).collect();
        // Shift counts from 0 past the width (and, wrapped, negative ones for the signed).
        let counts: Vec<i128> = (0..n * n)
            .map(|i| wrap((i % (bits(d) as usize + 9)) as i128 - 1, d))
            .collect();
        let x = upload_ints(&dev, &xs, &[n, n], d);
        let y = upload_ints(&dev, &ys, &[n, n], d);
        let c = upload_ints(&dev, &counts, &[n, n], d);
        for op in gpuarray::elementwise_ops() {
            if !op.supports(d) {
                continue;
            }
            if op.arity == 2 {
                let shift = matches!(op.numpy, "left_shift" | "right_shift");
                let (rhs, rv) = if shift { (&c, &counts) } else { (&y, &ys) };
                if op.numpy == "power" && rv.iter().any(|&v| v < 0) {
                    // NumPy refuses negative integer exponents: so does the op (tested in
                    // tests/elementwise.rs); use the magnitudes here.
                    continue;
                }
                let got = op.call(&[(&x).into(), rhs.into()]).unwrap();
                // Integer true division is f64, or f32 on an adapter without f64 (Mesa's GL).
                let want_dtype = match op.result_dtype(d).unwrap() {
                    DType::F64 if !dev.supports(DType::F64) => DType::F32,
                    other => other,
                };
                assert_eq!(got.dtype(), want_dtype, "{} {d}", op.numpy);
                if want_dtype == DType::Bool || want_dtype.is_float() {
                    let got = common::read(&got);
                    for i in 0..xs.len() {
                        let (a, b) = (xs[i], rv[i]);
                        let want = match op.numpy {
                            "equal" => f64::from(a == b),
                            "not_equal" => f64::from(a != b),
                            "less" => f64::from(a < b),
                            "less_equal" => f64::from(a <= b),
                            "greater" => f64::from(a > b),
                            "greater_equal" => f64::from(a >= b),
                            "logical_and" => f64::from(a != 0 && b != 0),
                            "logical_or" => f64::from(a != 0 || b != 0),
                            "logical_xor" => f64::from((a != 0) != (b != 0)),
                            "divide" if want_dtype == DType::F32 => f64::from(a as f32 / b as f32),
                            "divide" => a as f64 / b as f64,
                            other => panic!("no reference for {other} on {d}"),
                        };
                        let same = got[i] == want || (got[i].is_nan() && want.is_nan());
                        assert!(same, "{}({a}, {b}) on {d}: {} vs {want}", op.numpy, got[i]);
                        checked += 1;
                    }
                    continue;
                }
                let got = read_ints(&got);
                for i in 0..xs.len() {
                    let Some(want) = int_binary_reference(op.numpy, xs[i], rv[i], d) else {
                        panic!("no reference for {} on {d}", op.numpy);
                    };
                    assert_eq!(got[i], want, "{}({}, {}) on {d}", op.numpy, xs[i], rv[i]);
                    checked += 1;
                }
                // A scalar on the right: the same op with each element's partner 3.
                let got = read_ints(&op.call(&[(&x).into(), 3.into()]).unwrap());
                for i in 0..xs.len() {
                    let want = int_binary_reference(op.numpy, xs[i], 3, d).unwrap();
                    assert_eq!(got[i], want, "{}({}, 3) on {d}", op.numpy, xs[i]);
                }
            } else {
                let got = op.call(&[(&x).into()]).unwrap();
                if got.dtype() != d {
                    // Predicates: an integer is never NaN or infinite.
                    assert_eq!(got.dtype(), DType::Bool, "{} {d}", op.numpy);
                    let got = read_ints(&got);
                    for i in 0..xs.len() {
                        let want = match op.numpy {
                            "isnan" | "isinf" => false,
                            "isfinite" => true,
                            "logical_not" => xs[i] == 0,
                            "signbit" => xs[i] < 0,
                            other => panic!("no reference for {other} on {d}"),
                        };
                        assert_eq!(got[i], i128::from(want), "{}({}) on {d}", op.numpy, xs[i]);
                    }
                    continue;
                }
                let got = read_ints(&got);
                for i in 0..xs.len() {
                    let Some(want) = int_unary_reference(op.numpy, xs[i], d) else {
                        panic!("no reference for {} on {d}", op.numpy);
                    };
                    assert_eq!(got[i], want, "{}({}) on {d}", op.numpy, xs[i]);
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 50_000, "{checked} results checked");
}

/// The ops built on copies, fills and sequences take the emulated dtypes as they are: joins,
/// flips, rolls, tiles, pads, `eye`, `linspace`, `where`, and `arange` past 2^31.
#[test]
fn copy_based_ops_and_sequences_take_every_width() {
    let Some(dev) = common::device() else { return };
    for d in EMULATED {
        let x: Vec<i128> = (0..6).map(|i| wrap(i * 50 - 120, d)).collect();
        let a = upload_ints(&dev, &x, &[2, 3], d);
        let j = gpuarray::concatenate(&[&a, &a], 1).unwrap();
        let want: Vec<i128> = [&x[0..3], &x[0..3], &x[3..6], &x[3..6]].concat();
        assert_eq!((j.dtype(), read_ints(&j)), (d, want), "{d} concatenate");
        let s = gpuarray::stack(&[&a, &a], 0).unwrap();
        assert_eq!(read_ints(&s), [&x[..], &x[..]].concat(), "{d} stack");
        let f = a.flip(Some(1)).unwrap();
        assert_eq!(
            read_ints(&f),
            vec![x[2], x[1], x[0], x[5], x[4], x[3]],
            "{d} flip"
        );
        let r = a.roll(1, None).unwrap();
        assert_eq!(
            read_ints(&r),
            vec![x[5], x[0], x[1], x[2], x[3], x[4]],
            "{d} roll"
        );
        let t = a.tile(&[1, 2]).unwrap();
        assert_eq!(
            read_ints(&t),
            [&x[0..3], &x[0..3], &x[3..6], &x[3..6]].concat(),
            "{d} tile"
        );
        let p = a.pad(&[(0, 0), (1, 1)], 7.0).unwrap();
        let want: Vec<i128> = [&[7][..], &x[0..3], &[7, 7], &x[3..6], &[7]].concat();
        assert_eq!(read_ints(&p), want, "{d} pad");
        let e = Array::eye_k(&dev, 2, 3, 1, d).unwrap();
        assert_eq!(read_ints(&e), vec![0, 1, 0, 0, 0, 1], "{d} eye");
        let l = Array::linspace(&dev, 0.0, 100.0, 5, d).unwrap();
        assert_eq!(read_ints(&l), vec![0, 25, 50, 75, 100], "{d} linspace");
        let c = Array::from_bools(&dev, &[true, false, true, false, false, true], &[2, 3]).unwrap();
        let w = gpuarray::where_(&c, &a, 1.0).unwrap();
        let want: Vec<i128> = (0..6)
            .map(|i| if [0, 2, 5].contains(&i) { x[i] } else { 1 })
            .collect();
        assert_eq!(read_ints(&w), want, "{d} where");
        let g = Array::arange(&dev, 3.0, 40.0, 9.0, d).unwrap();
        assert_eq!(read_ints(&g), vec![3, 12, 21, 30, 39], "{d} arange");
    }
    // Past int32 and with a negative step, exactly.
    let big = Array::arange(&dev, 4294967290.0, 4294967300.0, 3.0, DType::I64).unwrap();
    assert_eq!(
        read_ints(&big),
        vec![4294967290, 4294967293, 4294967296, 4294967299]
    );
    let down = Array::arange(&dev, -2147483640.0, -2147483660.0, -7.0, DType::I64).unwrap();
    assert_eq!(
        read_ints(&down),
        vec![-2147483640, -2147483647, -2147483654]
    );
    // arange takes f64 arguments: values below 2^53 are exact.
    let huge = (1i128 << 52) + 7;
    let h = Array::arange(&dev, huge as f64, huge as f64 + 5.0, 2.0, DType::U64).unwrap();
    assert_eq!(read_ints(&h), vec![huge, huge + 2, huge + 4]);
}

/// `take` gathers every dtype, with indices of every integer dtype (NumPy's int64 intp among
/// them): negative indices count from the end, and an index out of bounds is NumPy's error,
/// naming it, however wide the index dtype.
#[test]
fn take_gathers_every_width_with_every_index_dtype() {
    let Some(dev) = common::device() else { return };
    let pos: [i128; 5] = [4, 0, -1, 2, -5];
    for d in EMULATED {
        let x: Vec<i128> = (0..15).map(|i| wrap(i * 1000 - 7000, d)).collect();
        let a = upload_ints(&dev, &x, &[3, 5], d);
        for id in [DType::I32, DType::I64, DType::U64, DType::I8, DType::U16] {
            let want_idx: Vec<i128> = if id.is_signed_int() {
                pos.to_vec()
            } else {
                pos.iter().map(|&p| p.rem_euclid(5)).collect()
            };
            let idx = upload_ints(&dev, &want_idx, &[5], id);
            let got = read_ints(&a.take(&idx, Some(1)).unwrap());
            let mut want = Vec::new();
            for r in 0..3 {
                for &k in &want_idx {
                    want.push(x[r * 5 + k.rem_euclid(5) as usize]);
                }
            }
            assert_eq!(got, want, "take of {d} with {id} indices");
        }
    }
    let a = upload_ints(&dev, &[1, 2, 3], &[3], DType::U8);
    for (v, id) in [
        (3i128, DType::I64),
        (-4, DType::I64),
        (1 << 40, DType::I64),
        (1 << 63, DType::U64),
    ] {
        let idx = upload_ints(&dev, &[0, v, 1], &[3], id);
        match a.take(&idx, None) {
            Err(Error::InvalidArgument { op, msg }) => {
                assert_eq!(op, "take");
                assert!(
                    msg.contains(&format!(
                        "index {v} is out of bounds for axis 0 with size 3"
                    )),
                    "{msg}"
                );
            }
            other => panic!("take with {v}: {other:?}"),
        }
    }
    assert_eq!(read_ints(&a), vec![1, 2, 3]);
}

/// `a[mask]` of every width (word pairs move as two words, packed elements widened and packed
/// again) and `nonzero` of an int64 array, against the host's selection.
#[test]
fn masks_select_every_width() {
    let Some(dev) = common::device() else { return };
    let n = 1001usize;
    let keep: Vec<bool> = (0..n).map(|i| (i * 7) % 5 < 2).collect();
    let mask = Array::from_bools(&dev, &keep, &[n]).unwrap();
    for d in EMULATED {
        let x: Vec<i128> = int_values(d, n, 3).into_iter().take(n).collect();
        let a = upload_ints(&dev, &x, &[n], d);
        let got = a.masked(&mask).unwrap();
        let want: Vec<i128> = x
            .iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|(v, _)| *v)
            .collect();
        assert_eq!((got.dtype(), read_ints(&got)), (d, want), "{d}[mask]");
        // a[mask] = 5 (a scalar: `where` through the mask), every other element intact.
        let b = upload_ints(&dev, &x, &[n], d);
        b.masked_assign(&mask, 5.0).unwrap();
        let want: Vec<i128> = x
            .iter()
            .zip(&keep)
            .map(|(v, k)| if *k { 5 } else { *v })
            .collect();
        assert_eq!(read_ints(&b), want, "{d}[mask] = 5");
        let nz = a.flatnonzero().unwrap();
        let want: Vec<i128> = (0..n as i128).filter(|&i| x[i as usize] != 0).collect();
        assert_eq!(read_ints(&nz), want, "flatnonzero of {d}");
    }
}

/// sum, prod, max, min, any and all of every emulated dtype over several axis sets, against an
/// i128 reference: sums and products in NumPy's int64/uint64 (wrapping there), max/min in the
/// dtype; empty reductions as NumPy; `mean` through f64.
#[test]
fn reductions_of_every_width_match_numpy() {
    let Some(dev) = common::device() else { return };
    let shape = [3usize, 4, 5];
    let axis_sets: [&[isize]; 5] = [&[0, 1, 2], &[0], &[2], &[0, 2], &[-2]];
    for d in EMULATED {
        let x: Vec<i128> = int_values(d, 60, 9).into_iter().rev().take(60).collect();
        let a = upload_ints(&dev, &x, &shape, d);
        let wide = if d.is_signed_int() {
            DType::I64
        } else {
            DType::U64
        };
        for axes in axis_sets {
            let norm: Vec<usize> = axes.iter().map(|&a| a.rem_euclid(3) as usize).collect();
            let kept: Vec<usize> = (0..3).filter(|i| !norm.contains(i)).collect();
            // Group the elements by their kept coordinates, in row-major order of those.
            let out_len: usize = kept.iter().map(|&i| shape[i]).product();
            let mut groups: Vec<Vec<i128>> = vec![Vec::new(); out_len];
            for (flat, &v) in x.iter().enumerate() {
                let c = [flat / 20, (flat / 5) % 4, flat % 5];
                let g = kept.iter().fold(0, |acc, &i| acc * shape[i] + c[i]);
                groups[g].push(v);
            }
            let axes_arg = gpuarray::Axes::List(axes.to_vec());
            let check = |name: &str, got: Array, dtype: DType, f: &dyn Fn(&[i128]) -> i128| {
                assert_eq!(got.dtype(), dtype, "{name} of {d} over {axes:?}");
                let want: Vec<i128> = groups.iter().map(|g| wrap(f(g), dtype)).collect();
                assert_eq!(read_ints(&got), want, "{name} of {d} over {axes:?}");
            };
            check("sum", a.sum(axes_arg.clone(), false).unwrap(), wide, &|g| {
                g.iter().fold(0i128, |s, &v| wrap(s + v, wide))
            });
            check(
                "prod",
                a.prod(axes_arg.clone(), false).unwrap(),
                wide,
                &|g| g.iter().fold(1i128, |s, &v| wrap(s.wrapping_mul(v), wide)),
            );
            check("max", a.max(axes_arg.clone(), false).unwrap(), d, &|g| {
                *g.iter().max().unwrap()
            });
            check("min", a.min(axes_arg.clone(), false).unwrap(), d, &|g| {
                *g.iter().min().unwrap()
            });
            check(
                "any",
                a.any(axes_arg.clone(), false).unwrap(),
                DType::Bool,
                &|g| i128::from(g.iter().any(|&v| v != 0)),
            );
            check(
                "all",
                a.all(axes_arg.clone(), false).unwrap(),
                DType::Bool,
                &|g| i128::from(g.iter().all(|&v| v != 0)),
            );
            let kd = a.sum(axes_arg.clone(), true).unwrap();
            let want_shape: Vec<usize> = (0..3)
                .map(|i| if norm.contains(&i) { 1 } else { shape[i] })
                .collect();
            assert_eq!(kd.shape(), &want_shape[..], "keepdims");
        }
        // argmax/argmin: the first position of the extreme, flattened and along each axis
        // (the values repeat, so ties occur).
        let rep: Vec<i128> = x.iter().map(|&v| wrap(v % 7, d)).collect();
        let r = upload_ints(&dev, &rep, &shape, d);
        let first = |g: &[i128], max: bool| -> i128 {
            let e = if max { g.iter().max() } else { g.iter().min() }
                .copied()
                .unwrap();
            g.iter().position(|&v| v == e).unwrap() as i128
        };
        assert_eq!(
            read_ints(&r.argmax(None, false).unwrap()),
            vec![first(&rep, true)]
        );
        assert_eq!(
            read_ints(&r.argmin(None, false).unwrap()),
            vec![first(&rep, false)]
        );
        let along_last: Vec<i128> = rep.chunks(5).map(|g| first(g, true)).collect();
        let got = r.argmax(Some(-1), false).unwrap();
        assert_eq!(
            (got.shape(), read_ints(&got)),
            (&[3usize, 4][..], along_last),
            "{d} argmax"
        );
        let along_first: Vec<i128> = (0..20)
            .map(|c| first(&[rep[c], rep[20 + c], rep[40 + c]], false))
            .collect();
        let got = r.argmin(Some(0), true).unwrap();
        assert_eq!(
            (got.shape(), read_ints(&got)),
            (&[1usize, 4, 5][..], along_first),
            "{d} argmin"
        );
        // mean through f64 (or f32 without it), within the rounding of a 60-term sum.
        let m = common::read(&a.mean(gpuarray::Axes::All, false).unwrap())[0];
        let want = x.iter().map(|&v| v as f64).sum::<f64>() / 60.0;
        assert!(
            (m - want).abs() <= 1e-6 * want.abs().max(1.0) * 60.0,
            "mean of {d}: {m} vs {want}"
        );
        // Empty: sum 0, prod 1, any false, all true; max refuses (no identity).
        let e = upload_ints(&dev, &[], &[0, 3], d);
        assert_eq!(read_ints(&e.sum(0, false).unwrap()), vec![0; 3]);
        assert_eq!(read_ints(&e.prod(0, false).unwrap()), vec![1; 3]);
        assert_eq!(read_ints(&e.any(0, false).unwrap()), vec![0; 3]);
        assert_eq!(read_ints(&e.all(0, false).unwrap()), vec![1; 3]);
        assert!(matches!(
            e.max(0, false),
            Err(Error::InvalidArgument { .. })
        ));
    }
    // A long row (odd lengths at every halving step) of int64 sums exactly past 2^53.
    let n = 100_003usize;
    let big: Vec<i128> = (0..n as i128).map(|i| (1i128 << 40) + i * 7919).collect();
    let s = upload_ints(&dev, &big, &[n], DType::I64)
        .sum(gpuarray::Axes::All, false)
        .unwrap();
    assert_eq!(read_ints(&s), vec![big.iter().sum::<i128>()]);
}

/// cumsum/cumprod of every width along each axis and flattened (the small integers in
/// int64/uint64, as NumPy; the `_dtype` forms wrap in the asked dtype), exact past 2^53 through
/// a long int64 row of several blocks, and a strided (transposed) source.
#[test]
fn scans_of_every_width_match_numpy() {
    let Some(dev) = common::device() else { return };
    let shape = [3usize, 4, 5];
    for d in EMULATED {
        let x: Vec<i128> = int_values(d, 60, 21).into_iter().rev().take(60).collect();
        let a = upload_ints(&dev, &x, &shape, d);
        let wide = if d.is_signed_int() {
            DType::I64
        } else {
            DType::U64
        };
        for axis in [None, Some(0isize), Some(1), Some(-1)] {
            // Lines along `axis` of the row-major (3, 4, 5) block (or the whole flattened array).
            let lines: Vec<Vec<usize>> = match axis {
                None => vec![(0..60).collect()],
                Some(ax) => {
                    let ax = ax.rem_euclid(3) as usize;
                    let stride = [20, 5, 1][ax];
                    (0..60)
                        .filter(|f| (f / stride) % shape[ax] == 0)
                        .map(|f| (0..shape[ax]).map(|i| f + i * stride).collect())
                        .collect()
                }
            };
            for (name, prod) in [("cumsum", false), ("cumprod", true)] {
                let mut want = vec![0i128; 60];
                for line in &lines {
                    let mut acc = i128::from(prod);
                    for &f in line {
                        acc = wrap(
                            if prod {
                                acc.wrapping_mul(x[f])
                            } else {
                                acc + x[f]
                            },
                            wide,
                        );
                        want[f] = acc;
                    }
                }
                let got = if prod {
                    a.cumprod(axis).unwrap()
                } else {
                    a.cumsum(axis).unwrap()
                };
                assert_eq!(got.dtype(), wide, "{name} of {d} along {axis:?}");
                assert_eq!(read_ints(&got), want, "{name} of {d} along {axis:?}");
                // In the dtype itself: the same sums wrapped to it.
                let own = if prod {
                    a.cumprod_dtype(axis, d).unwrap()
                } else {
                    a.cumsum_dtype(axis, d).unwrap()
                };
                assert_eq!(own.dtype(), d);
                let narrowed: Vec<i128> = want.iter().map(|&v| wrap(v, d)).collect();
                assert_eq!(read_ints(&own), narrowed, "{name} of {d} in {d}");
            }
        }
        // A transposed (strided) source scans along its own axes.
        let t = a.transpose(&[2, 1, 0]).unwrap();
        let got = t.cumsum(Some(0)).unwrap();
        let mut want = Vec::with_capacity(60);
        for i in 0..5 {
            for j in 0..4 {
                for k in 0..3 {
                    let s: i128 = (0..=i).map(|ii| x[k * 20 + j * 5 + ii]).sum();
                    want.push(wrap(s, wide));
                }
            }
        }
        assert_eq!(read_ints(&got), want, "cumsum of transposed {d}");
    }
    // int32 and bool counted in int64 on request: past 2^31 exactly.
    let ones = vec![i128::from(i32::MAX); 5];
    let c = upload_ints(&dev, &ones, &[5], DType::I32)
        .cumsum_dtype(None, DType::I64)
        .unwrap();
    let want: Vec<i128> = (1..=5).map(|k| k * i128::from(i32::MAX)).collect();
    assert_eq!(read_ints(&c), want);
    // A long int64 row: several blocks, their totals scanned too, exact past 2^53.
    let n = 300_001usize;
    let big: Vec<i128> = (0..n as i128)
        .map(|i| (1i128 << 42) + i * 104_729 - (i % 3) * (1 << 43))
        .collect();
    let got = read_ints(
        &upload_ints(&dev, &big, &[n], DType::I64)
            .cumsum(Some(0))
            .unwrap(),
    );
    let mut acc = 0i128;
    for (i, (&g, &v)) in got.iter().zip(&big).enumerate() {
        acc = wrap(acc + v, DType::I64);
        assert_eq!(g, acc, "element {i} of the long int64 cumsum");
    }
}

/// sort/argsort (stable), searchsorted (both sides), unique and partition-free paths of every
/// width: the bitonic network (short rows), the radix sort (long rows), keys that differ only in
/// the low word, the sign boundary of int64, and uint64 values past 2^63.
#[test]
fn sorting_and_searching_every_width_match_numpy() {
    let Some(dev) = common::device() else { return };
    for d in EMULATED {
        for n in [1usize, 7, 300, 5000] {
            let mut x = int_values(d, n, 33 + n as u64);
            x.truncate(n);
            // Repeats, so stability shows.
            for i in (0..n).step_by(5) {
                x[i] = x[i / 2];
            }
            let a = upload_ints(&dev, &x, &[n], d);
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by_key(|&i| x[i]);
            let got = a.argsort(Some(-1)).unwrap();
            assert_eq!(
                read_ints(&got),
                order.iter().map(|&i| i as i128).collect::<Vec<_>>(),
                "argsort of {n} {d}"
            );
            let mut sorted = x.clone();
            sorted.sort();
            let s = a.sort(Some(-1)).unwrap();
            assert_eq!(s.dtype(), d);
            assert_eq!(read_ints(&s), sorted, "sort of {n} {d}");
            // searchsorted of the sorted values, the originals and their neighbours.
            let queries: Vec<i128> = x
                .iter()
                .take(50)
                .flat_map(|&v| [v, wrap(v + 1, d), wrap(v - 1, d)])
                .collect();
            let q = upload_ints(&dev, &queries, &[queries.len()], d);
            for (side, right) in [(gpuarray::Side::Left, false), (gpuarray::Side::Right, true)] {
                let want: Vec<i128> = queries
                    .iter()
                    .map(|&v| {
                        sorted.partition_point(|&e| if right { e <= v } else { e < v }) as i128
                    })
                    .collect();
                assert_eq!(
                    read_ints(&s.searchsorted(&q, side).unwrap()),
                    want,
                    "searchsorted {side:?} in {n} {d}"
                );
            }
            let mut uniq = sorted.clone();
            uniq.dedup();
            let u = a.unique().unwrap();
            assert_eq!(u.dtype(), d);
            assert_eq!(read_ints(&u), uniq, "unique of {n} {d}");
        }
        // Rows of a 2-d array along both axes.
        let x = int_values(d, 40, 77);
        let x = &x[..60];
        let a = upload_ints(&dev, x, &[6, 10], d);
        let cols = a.sort(Some(0)).unwrap();
        let got = read_ints(&cols);
        for c in 0..10 {
            let mut col: Vec<i128> = (0..6).map(|r| x[r * 10 + c]).collect();
            col.sort();
            let g: Vec<i128> = (0..6).map(|r| got[r * 10 + c]).collect();
            assert_eq!(g, col, "sort along axis 0 of {d}");
        }
    }
    // Keys equal in the high word, differing in the low word, across the sign boundary.
    let x: Vec<i128> = vec![
        (1 << 32) + 5,
        (1 << 32) + 3,
        -1,
        -(1 << 32),
        i128::from(i64::MIN),
        i128::from(i64::MAX),
        0,
        (1 << 32) + 4,
    ];
    let a = upload_ints(&dev, &x, &[8], DType::I64);
    let mut want = x.clone();
    want.sort();
    assert_eq!(read_ints(&a.sort(None).unwrap()), want);
    let u: Vec<i128> = vec![1 << 63, (1 << 64) - 1, 1, (1 << 63) - 1, 0];
    let b = upload_ints(&dev, &u, &[5], DType::U64);
    let mut want = u.clone();
    want.sort();
    assert_eq!(read_ints(&b.sort(None).unwrap()), want);
}

/// matmul (batched, broadcast, vector operands, a transposed view, k past one 16-wide tile),
/// einsum and dot of every width: exact and wrapping, as NumPy's integer matmul.
#[test]
fn integer_matmul_einsum_and_dot_wrap_as_numpy() {
    let Some(dev) = common::device() else { return };
    let reference = |x: &[i128], y: &[i128], (bt, m, k, n): (usize, usize, usize, usize), d| {
        let mut out = Vec::with_capacity(bt * m * n);
        for b in 0..bt {
            for i in 0..m {
                for j in 0..n {
                    let s = (0..k).fold(0i128, |s, t| {
                        wrap(
                            s + wrap(
                                x[b * m * k + i * k + t].wrapping_mul(y[b * k * n + t * n + j]),
                                d,
                            ),
                            d,
                        )
                    });
                    out.push(s);
                }
            }
        }
        out
    };
    for d in EMULATED {
        for dims in [
            (1usize, 3usize, 5usize, 4usize),
            (2, 17, 33, 19),
            (3, 1, 40, 7),
            (2, 6, 1, 1),
        ] {
            let (bt, m, k, n) = dims;
            let x: Vec<i128> = int_values(d, bt * m * k, 5 + m as u64)
                .into_iter()
                .cycle()
                .take(bt * m * k)
                .collect();
            let y: Vec<i128> = int_values(d, bt * k * n, 7 + n as u64)
                .into_iter()
                .rev()
                .cycle()
                .take(bt * k * n)
                .collect();
            let a = upload_ints(&dev, &x, &[bt, m, k], d);
            let b = upload_ints(&dev, &y, &[bt, k, n], d);
            let want = reference(&x, &y, dims, d);
            let got = a.matmul(&b).unwrap();
            assert_eq!(got.dtype(), d);
            assert_eq!(read_ints(&got), want, "matmul {dims:?} of {d}");
            let e = gpuarray::einsum("bik,bkj->bij", &[&a, &b]).unwrap();
            assert_eq!(read_ints(&e), want, "einsum {dims:?} of {d}");
        }
        // A transposed operand, a broadcast batch and vector operands.
        let x = int_values(d, 30, 3);
        let x = &x[..30];
        let a = upload_ints(&dev, x, &[5, 6], d);
        let at = a.transpose(&[1, 0]).unwrap();
        let xt: Vec<i128> = (0..30).map(|f| x[(f % 5) * 6 + f / 5]).collect();
        assert_eq!(
            read_ints(&at.matmul(&a).unwrap()),
            reference(&xt, x, (1, 6, 5, 6), d),
            "transposed matmul of {d}"
        );
        let v = upload_ints(&dev, &x[..6], &[6], d);
        assert_eq!(
            read_ints(&a.matmul(&v).unwrap()),
            reference(x, &x[..6], (1, 5, 6, 1), d),
            "matrix @ vector of {d}"
        );
        let dot = v.dot(&v).unwrap();
        assert_eq!(
            read_ints(&dot),
            reference(&x[..6], &x[..6], (1, 1, 6, 1), d),
            "dot of {d}"
        );
    }
}

/// bincount of every integer width (NumPy's checks: no negatives) and histogram of int64 data
/// past 2^53 against a reference.
#[test]
fn counting_takes_every_width() {
    let Some(dev) = common::device() else { return };
    for d in EMULATED {
        let x: Vec<i128> = (0..200).map(|i| (i * 7 + i / 3) % 23).collect();
        let a = upload_ints(&dev, &x, &[200], d);
        let mut want = vec![0i128; 30];
        for &v in &x {
            want[v as usize] += 1;
        }
        assert_eq!(read_ints(&a.bincount(30).unwrap()), want, "bincount of {d}");
        if d.is_signed_int() {
            let neg = upload_ints(&dev, &[3, -1, 2], &[3], d);
            let e = neg.bincount(0).unwrap_err();
            assert!(e.to_string().contains("negative"), "{e}");
        }
    }
    // A value past u32 bins is refused, not wrapped.
    let big = upload_ints(&dev, &[1, 1 << 33], &[2], DType::I64);
    assert!(matches!(big.bincount(0), Err(Error::TooLarge { .. })));
    // histogram of int64 values, edges from the data.
    let x: Vec<i128> = (0..500).map(|i| (1i128 << 54) + i * 1_000_003).collect();
    let a = upload_ints(&dev, &x, &[500], DType::I64);
    let (counts, edges) = a
        .histogram(gpuarray::HistogramBins::Count(5), None)
        .unwrap();
    let e = common::read(&edges);
    let mut want = vec![0i128; 5];
    for &v in &x {
        let v = v as f64;
        let bin = e
            .windows(2)
            .position(|w| w[0] <= v && v < w[1])
            .unwrap_or(4);
        want[bin] += 1;
    }
    assert_eq!(read_ints(&counts), want);
    assert_eq!(want.iter().sum::<i128>(), 500);
}

/// Philox integers of every integer dtype: in range, the same for the same seed, and — where the
/// result is exact — the bits a host model computes from the same stream's raw words: 64-bit
/// power-of-two ranges (masked word pairs), 64-bit rejection rounds, and ranges up to 2^32 (the
/// int32 draw's offsets, shifted).
#[test]
fn philox_integers_of_every_width_from_the_stream() {
    use gpuarray::random::Generator;
    let Some(dev) = common::device() else { return };
    let raw = |seed: u64, words: usize| -> Vec<u64> {
        Generator::new(&dev, seed)
            .bits(&[words])
            .unwrap()
            .to_vec::<u32>()
            .unwrap()
            .into_iter()
            .map(u64::from)
            .collect()
    };
    let n = 1000usize;
    // Full ranges: every value is lo + the masked word pair.
    for (lo, hi, d) in [
        (i128::from(i64::MIN), 1i128 << 63, DType::I64),
        (0, 1i128 << 64, DType::U64),
        (-(1i128 << 40), 1i128 << 40, DType::I64),
    ] {
        let mut g = Generator::new(&dev, 11);
        let got = read_ints(&g.integers_i128(lo, hi, &[n], d).unwrap());
        assert_eq!(g.offset(), 2 * n as u64, "words of {d} [{lo}, {hi})");
        let w = raw(11, 2 * n);
        let mask = ((hi - lo) as u128 - 1) as u64;
        let want: Vec<i128> = (0..n)
            .map(|i| wrap(lo + i128::from((w[2 * i] | (w[2 * i + 1] << 32)) & mask), d))
            .collect();
        assert_eq!(got, want, "{d} [{lo}, {hi})");
    }
    // A range past 2^32 that is not a power of two: rounds of 2r + 64 candidates.
    let (lo, hi) = (-(3i128 << 40), (5i128 << 40) + 12_345);
    let range = (hi - lo) as u64;
    let mut g = Generator::new(&dev, 12);
    let got = read_ints(&g.integers_i128(lo, hi, &[n], DType::I64).unwrap());
    let w = raw(12, g.offset() as usize);
    let mask = range.next_power_of_two() - 1;
    let (mut want, mut at, mut missing) = (Vec::new(), 0usize, n);
    while missing > 0 {
        let tries = 2 * missing + 64;
        let accepted: Vec<u64> = (at..at + tries)
            .map(|i| (w[2 * i] | (w[2 * i + 1] << 32)) & mask)
            .filter(|&v| v < range)
            .take(missing)
            .collect();
        missing -= accepted.len();
        want.extend(accepted.into_iter().map(|v| lo + i128::from(v)));
        at += tries;
    }
    assert_eq!(g.offset() as usize, 2 * at, "words of the rejection rounds");
    assert_eq!(got, want);
    // Ranges up to 2^32 in every width: the int32 draw's offsets, shifted; same words consumed.
    for d in EMULATED {
        let (lo, hi) = if d.is_signed_int() {
            let half = 1i128 << (bits(d).min(32) - 1);
            (-half, half - 7)
        } else {
            (3, (1i128 << bits(d).min(32)) - 2)
        };
        let mut g = Generator::new(&dev, 13);
        let got = read_ints(&g.integers_i128(lo, hi, &[n], d).unwrap());
        let mut h = Generator::new(&dev, 13);
        let offsets = h
            .integers(0, (hi - lo) as i64, &[n], DType::U32)
            .unwrap()
            .to_vec::<u32>()
            .unwrap();
        assert_eq!(g.offset(), h.offset(), "words of {d}");
        let want: Vec<i128> = offsets.iter().map(|&o| lo + i128::from(o)).collect();
        assert_eq!(got, want, "{d} [{lo}, {hi})");
        assert!(got.iter().all(|&v| lo <= v && v < hi));
        // Through `integers` (i64 bounds) the same.
        let again = Generator::new(&dev, 13)
            .integers(lo as i64, hi as i64, &[n], d)
            .unwrap();
        assert_eq!(read_ints(&again), got);
    }
}

/// The NaN-aware reductions (integers have no NaN: NumPy gives the plain reductions), var/std
/// (in f64, within the rounding of the sums), count_nonzero along axes, and clip.
#[test]
fn nan_reductions_statistics_and_counts_of_every_width() {
    let Some(dev) = common::device() else { return };
    for d in EMULATED {
        let x: Vec<i128> = int_values(d, 24, 41).into_iter().rev().take(24).collect();
        let a = upload_ints(&dev, &x, &[4, 6], d);
        for axis in [0isize, 1] {
            let plain = |r: gpuarray::Result<Array>| read_ints(&r.unwrap());
            assert_eq!(
                plain(a.nansum(axis, false)),
                plain(a.sum(axis, false)),
                "nansum {d}"
            );
            assert_eq!(
                plain(a.nanprod(axis, false)),
                plain(a.prod(axis, false)),
                "nanprod {d}"
            );
            assert_eq!(plain(a.nanmax(axis, false)), plain(a.max(axis, false)));
            assert_eq!(plain(a.nanmin(axis, false)), plain(a.min(axis, false)));
            assert_eq!(
                plain(a.nanargmax(Some(axis), false)),
                plain(a.argmax(Some(axis), false))
            );
            assert_eq!(plain(a.nancumsum(Some(axis))), plain(a.cumsum(Some(axis))));
            // count_nonzero against the host.
            let lines: Vec<Vec<i128>> = if axis == 0 {
                (0..6)
                    .map(|c| (0..4).map(|r| x[r * 6 + c]).collect())
                    .collect()
            } else {
                x.chunks(6).map(|c| c.to_vec()).collect()
            };
            let want: Vec<i128> = lines
                .iter()
                .map(|l| l.iter().filter(|&&v| v != 0).count() as i128)
                .collect();
            assert_eq!(
                plain(a.count_nonzero(axis, false)),
                want,
                "count_nonzero {d}"
            );
            // var and std (ddof 1) in f64 against a two-pass host reference. Without f64 they
            // are f32, whose squares of 64-bit values overflow (as NumPy's float32 would).
            if !dev.supports(DType::F64) && bits(d) == 64 {
                println!("var/std of {d} not compared: f32 only on {}", dev.info());
                continue;
            }
            let got_var = common::read(&a.var(axis, 1, false).unwrap());
            let got_std = common::read(&a.std(axis, 1, false).unwrap());
            for ((l, v), s) in lines.iter().zip(&got_var).zip(&got_std) {
                let f: Vec<f64> = l.iter().map(|&v| v as f64).collect();
                let mean = f.iter().sum::<f64>() / f.len() as f64;
                let var =
                    f.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (f.len() - 1) as f64;
                // f64, or f32 on adapters without it (Mesa's GL).
                let eps = if dev.supports(DType::F64) {
                    1e-12
                } else {
                    1e-5
                };
                let tol = eps * var.max(1.0) * 8.0;
                assert!((v - var).abs() <= tol, "var of {d}: {v} vs {var}");
                assert!(
                    (s - var.sqrt()).abs() <= eps * var.sqrt().max(1.0) * 8.0,
                    "std of {d}: {s} vs {}",
                    var.sqrt()
                );
            }
        }
        // clip to [-5, 100] (or [3, 100] unsigned) in the dtype.
        let lo = if d.is_signed_int() { -5 } else { 3 };
        let got = read_ints(&a.clip(Some(lo as f64), Some(100.0)).unwrap());
        let want: Vec<i128> = x.iter().map(|&v| v.clamp(lo, 100)).collect();
        assert_eq!(got, want, "clip of {d}");
    }
}

/// Index-returning ops give int64 (NumPy's intp) by default and int32 on a device configured
/// with `IndexDType::I32` — the same values either way.
#[test]
fn index_dtype_is_int64_by_default_and_int32_on_request() {
    let Some(dev) = common::device() else { return };
    let narrow = gpuarray::Device::with_config(gpuarray::DeviceConfig {
        index_dtype: gpuarray::IndexDType::I32,
        ..common::test_config().unwrap()
    })
    .unwrap();
    assert_eq!(narrow.index_dtype(), DType::I32);
    let x: Vec<f32> = vec![3.0, 0.0, 2.0, 2.0, 0.0, 7.0, 1.0, 0.0];
    let results = |d: &gpuarray::Device| -> Vec<(&'static str, Array)> {
        let a = Array::from_slice(d, &x, &[2, 4]).unwrap();
        let flat = a.reshape(&[-1]).unwrap();
        let sorted = flat.sort(None).unwrap();
        let u = flat.unique_all().unwrap();
        let counts = Array::from_slice(d, &[1u8, 3, 1, 0], &[4]).unwrap();
        vec![
            ("argsort", a.argsort(Some(-1)).unwrap()),
            ("argmax", a.argmax(Some(1), false).unwrap()),
            ("argmin", a.argmin(None, false).unwrap()),
            ("nanargmax", a.nanargmax(Some(0), false).unwrap()),
            ("argpartition", a.argpartition(&[1], Some(1)).unwrap()),
            ("lexsort", gpuarray::lexsort(&[&flat, &flat]).unwrap()),
            ("flatnonzero", a.flatnonzero().unwrap()),
            ("nonzero", a.nonzero().unwrap().remove(1)),
            ("argwhere", a.argwhere().unwrap()),
            ("count_nonzero", a.count_nonzero(1, false).unwrap()),
            (
                "searchsorted",
                sorted.searchsorted(&flat, gpuarray::Side::Left).unwrap(),
            ),
            ("unique indices", u.indices),
            ("unique inverse", u.inverse),
            ("unique counts", u.counts),
            ("bincount", counts.bincount(0).unwrap()),
            (
                "histogram",
                flat.histogram(gpuarray::HistogramBins::Count(3), None)
                    .unwrap()
                    .0,
            ),
            (
                "permutation",
                gpuarray::random::Generator::new(d, 3)
                    .permutation(6)
                    .unwrap(),
            ),
        ]
    };
    let wide = results(&dev);
    let small = results(&narrow);
    for ((name, w), (_, s)) in wide.iter().zip(&small) {
        // int64 unless the environment asks for GPUARRAY_INDEX_DTYPE=i32.
        assert_eq!(w.dtype(), dev.index_dtype(), "{name} by default");
        assert_eq!(s.dtype(), DType::I32, "{name} with IndexDType::I32");
        assert_eq!(read_ints(w), read_ints(s), "{name}");
    }
    assert_eq!(
        gpuarray::IndexDType::parse("int32"),
        Some(gpuarray::IndexDType::I32)
    );
    assert_eq!(
        gpuarray::IndexDType::parse(" I64 "),
        Some(gpuarray::IndexDType::I64)
    );
    assert_eq!(gpuarray::IndexDType::parse("i16"), None);
}

/// `sum_dtype`/`prod_dtype`: int32 and bool in int64 as NumPy's defaults (exact past 2^31), and
/// a narrow accumulator wrapping as NumPy's `dtype=int8`.
#[test]
fn sums_and_products_in_a_requested_dtype() {
    let Some(dev) = common::device() else { return };
    let x: Vec<i128> = (0..300).map(|i| i128::from(i32::MAX) - i * 7).collect();
    let a = upload_ints(&dev, &x, &[3, 100], DType::I32);
    let s = a.sum_dtype(1, false, DType::I64).unwrap();
    assert_eq!(s.dtype(), DType::I64);
    let want: Vec<i128> = x.chunks(100).map(|c| c.iter().sum()).collect();
    assert_eq!(read_ints(&s), want);
    let s8 = a.sum_dtype(gpuarray::Axes::All, false, DType::I8).unwrap();
    assert_eq!(s8.dtype(), DType::I8);
    let wrapped = x
        .iter()
        .fold(0i128, |acc, &v| wrap(acc + wrap(v, DType::I8), DType::I8));
    assert_eq!(read_ints(&s8), vec![wrapped]);
    let p = a.prod_dtype(0, false, DType::U64).unwrap();
    let want: Vec<i128> = (0..100)
        .map(|c| {
            (0..3).fold(1i128, |acc, r| {
                wrap(
                    acc.wrapping_mul(wrap(x[r * 100 + c], DType::U64)),
                    DType::U64,
                )
            })
        })
        .collect();
    assert_eq!(read_ints(&p), want);
    let b = Array::from_bools(&dev, &vec![true; 1000], &[1000]).unwrap();
    assert_eq!(
        read_ints(&b.sum_dtype(0, false, DType::I64).unwrap()),
        vec![1000]
    );
}
