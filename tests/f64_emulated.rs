//! float64 on a device that emulates it (`F64Mode::Emulated`: software binary64 on word pairs,
//! what adapters without SHADER_F64 get): casts, constructors and the exact element-wise ops
//! against the host's IEEE f64 bit for bit, and against the adapter's native f64 where it has
//! one. The library itself (`shaders/f64_soft.wgsl`) is tested on 10^7 pairs per op by
//! `tests/soft_f64.rs`; these tests check what the kernels built on it give a user.

#![allow(clippy::type_complexity)] // tables of (name, reference) rows

mod common;

use common::xorshift;
use gpuarray::{Array, Axes, DType, Device, F64Mode, Operand};

const N: usize = 1 << 16;

/// Whether to run every case of the tests whose software f64 kernels take lavapipe long to
/// compile (`GPUARRAY_TEST_ALL_F64=1`): the suite checks one of each kernel shape, the full
/// lists ran for the closing notes (BENCHMARKS.md, "float64 on every adapter").
fn all_cases() -> bool {
    std::env::var("GPUARRAY_TEST_ALL_F64").as_deref() == Ok("1")
}

fn emulated() -> Option<Device> {
    common::device_with_f64(F64Mode::Emulated)
}

/// The adapter's own f64, when it has one (lavapipe does; GL and Metal do not).
fn native() -> Option<Device> {
    let dev = common::device_with_f64(F64Mode::Native)?;
    if dev.supports(DType::F64) {
        Some(dev)
    } else {
        println!(
            "no native f64 on {}: emulated results checked against the host only",
            dev.info()
        );
        None
    }
}

/// Values of every class: random bit patterns (all exponents, subnormals, NaNs with payloads),
/// ordinary numbers, small integers and halves, and the edge values.
fn mixed_values(n: usize, seed: u64) -> Vec<f64> {
    let mut next = xorshift(seed);
    let edges = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        1.5,
        2.5,
        -2.5,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        -f64::NAN,
        f64::MAX,
        f64::MIN,
        f64::MIN_POSITIVE,
        -f64::MIN_POSITIVE,
        f64::from_bits(1),
        f64::from_bits(0x8000_0000_0000_0001),
        f64::from_bits(0x000f_ffff_ffff_ffff),
        9007199254740993.0,
        4503599627370497.5,
        2147483648.0,
        -2147483649.0,
        4294967296.0,
        9223372036854775808.0,
        -9223372036854775808.0,
        18446744073709551616.0,
        f64::EPSILON,
        1e300,
        1e-300,
        3.4028235677973366e38,
        65520.0,
        6.103515625e-05,
        5.960464477539063e-08,
    ];
    (0..n)
        .map(|i| {
            if i < edges.len() {
                return edges[i];
            }
            let r = next();
            match r % 4 {
                0 => f64::from_bits(next()),
                1 => (next() as i64 as f64) * 2f64.powi((next() % 120) as i32 - 60),
                2 => ((next() % 2001) as f64 - 1000.0) * 0.5,
                _ => f64::from_bits(next() & 0x800f_ffff_ffff_ffff | (next() % 40 + 1000) << 52),
            }
        })
        .collect()
}

/// Bits equal, any NaN matching any NaN where `nan_class` (results whose NaN payload the
/// host leaves to its library).
fn assert_bits(
    got: &[f64],
    want: &[f64],
    inputs: &dyn Fn(usize) -> String,
    what: &str,
    nan_class: bool,
) {
    assert_eq!(got.len(), want.len(), "{what}");
    let bad: Vec<usize> = (0..got.len())
        .filter(|&i| {
            let same = got[i].to_bits() == want[i].to_bits();
            !(same || (nan_class && got[i].is_nan() && want[i].is_nan()))
        })
        .collect();
    if let Some(&i) = bad.first() {
        panic!(
            "{what}: {} of {} differ; first at {i}: {} gave {:e} ({:#018x}), want {:e} ({:#018x})",
            bad.len(),
            got.len(),
            inputs(i),
            got[i],
            got[i].to_bits(),
            want[i],
            want[i].to_bits()
        );
    }
}

#[test]
fn the_device_says_it_emulates_f64() {
    let Some(dev) = emulated() else { return };
    assert!(dev.supports(DType::F64) && dev.f64_emulated());
    assert_eq!(dev.info().f64, "emulated");
    assert!(
        !dev.info().features.contains(&"shader-f64"),
        "{:?}",
        dev.info().features
    );
    assert!(
        dev.info().to_string().contains(" · f64 emulated · "),
        "{}",
        dev.info()
    );
    // Auto: the adapter's own where it has SHADER_F64, software elsewhere; f64 everywhere.
    let auto = common::device_with_f64(F64Mode::Auto).expect("a device");
    assert!(auto.supports(DType::F64));
    let has_native = auto.info().features.contains(&"shader-f64");
    assert_eq!(
        auto.info().f64,
        if has_native { "native" } else { "emulated" }
    );
}

/// x rounded once to f16, to nearest with ties to even (NumPy's npy_double_to_half; the `half`
/// crate's `from_f64` rounds through f32 first, twice): the nearest of the neighbours of a
/// first guess, by exact distances (x and an f16 near it differ by an exact f64).
fn f16_nearest(x: f64) -> half::f16 {
    if x.is_nan() {
        return half::f16::NAN;
    }
    if x.abs() >= 65520.0 {
        return if x > 0.0 {
            half::f16::INFINITY
        } else {
            half::f16::NEG_INFINITY
        };
    }
    let guess = half::f16::from_f64(x).to_bits();
    let mut best = guess;
    for bits in [guess.wrapping_sub(1), guess.wrapping_add(1)] {
        let c = half::f16::from_bits(bits);
        if c.is_nan() || (c.to_bits() ^ guess) & 0x8000 != 0 {
            continue;
        }
        let (d, e) = (
            (x - c.to_f64()).abs(),
            (x - half::f16::from_bits(best).to_f64()).abs(),
        );
        if d < e || (d == e && bits & 1 == 0) {
            best = bits;
        }
    }
    half::f16::from_bits(best)
}

/// x86's cvttsd2si for 64 and 32 bits (NumPy's results on x86-64 hosts).
fn to_i64_x86(x: f64) -> i64 {
    if x.is_nan() || x.abs() >= 9223372036854775808.0 {
        i64::MIN
    } else {
        x as i64
    }
}
fn to_i32_x86(x: f64) -> i32 {
    if x.is_nan() || x.trunc().abs() >= 2147483648.0 {
        i32::MIN
    } else {
        x as i32
    }
}
fn to_u64(x: f64) -> u64 {
    if !x.is_nan() && x >= 9223372036854775808.0 {
        (to_i64_x86(x - 9223372036854775808.0) as u64) ^ (1 << 63)
    } else {
        to_i64_x86(x) as u64
    }
}

#[test]
fn casts_from_f64_match_the_host_bit_for_bit() {
    let Some(dev) = emulated() else { return };
    let xs = mixed_values(N, 1);
    let a = Array::from_slice(&dev, &xs, &[N]).unwrap();
    let show = |i: usize| format!("{:e} ({:#018x})", xs[i], xs[i].to_bits());
    let ints: [(DType, fn(f64) -> i128); 8] = [
        (DType::I64, |x| to_i64_x86(x) as i128),
        (DType::U64, |x| to_u64(x) as i128),
        (DType::I32, |x| to_i32_x86(x) as i128),
        (DType::I16, |x| to_i32_x86(x) as i16 as i128),
        (DType::I8, |x| to_i32_x86(x) as i8 as i128),
        (DType::U32, |x| {
            if x.is_nan() || x.is_sign_negative() {
                0
            } else {
                x.min(4294967295.0) as u32 as i128
            }
        }),
        (DType::U16, |x| to_i32_x86(x) as u16 as i128),
        (DType::U8, |x| to_i32_x86(x) as u8 as i128),
    ];
    for (dtype, reference) in ints {
        let got = common::read_ints(&a.astype(dtype).unwrap());
        for (i, &g) in got.iter().enumerate() {
            assert_eq!(g, reference(xs[i]), "f64 {} -> {dtype}", show(i));
        }
    }
    let f32s = a.astype(DType::F32).unwrap().to_vec::<f32>().unwrap();
    for (i, g) in f32s.iter().enumerate() {
        assert_eq!(
            g.to_bits(),
            (xs[i] as f32).to_bits(),
            "f64 {} -> f32",
            show(i)
        );
    }
    let bools = common::read(&a.astype(DType::Bool).unwrap());
    for (i, &g) in bools.iter().enumerate() {
        assert_eq!(g == 1.0, xs[i] != 0.0, "f64 {} -> bool", show(i));
    }
    if dev.supports(DType::F16) {
        let halves = a.astype(DType::F16).unwrap().to_vec::<half::f16>().unwrap();
        for (i, g) in halves.iter().enumerate() {
            let want = f16_nearest(xs[i]);
            assert!(
                g.to_bits() == want.to_bits() || (g.is_nan() && want.is_nan()),
                "f64 {} -> f16: {g} ({:#06x}), want {want} ({:#06x})",
                show(i),
                g.to_bits(),
                want.to_bits()
            );
        }
    }
    // The native path gives the same bits (its NaN payloads aside).
    if let Some(nat) = native() {
        let b = Array::from_slice(&nat, &xs, &[N]).unwrap();
        for dtype in [
            DType::F32,
            DType::I64,
            DType::U64,
            DType::I32,
            DType::U8,
            DType::I16,
        ] {
            let (e, n) = (a.astype(dtype).unwrap(), b.astype(dtype).unwrap());
            let (e, n) = (
                e.astype(DType::F64).unwrap().to_vec::<f64>().unwrap(),
                n.astype(DType::F64).unwrap().to_vec::<f64>().unwrap(),
            );
            assert_bits(
                &e,
                &n,
                &show,
                &format!("f64 -> {dtype} -> f64, emulated vs native"),
                true,
            );
        }
    }
}

#[test]
fn casts_to_f64_match_the_host_bit_for_bit() {
    let Some(dev) = emulated() else { return };
    let mut next = xorshift(2);
    let words: Vec<u64> = (0..N)
        .map(|i| match i {
            0 => 0,
            1 => u64::MAX,
            2 => 1 << 63,
            3 => (1 << 53) + 1,
            4 => (1 << 63) + (1 << 10) + 1,
            _ => next() >> (next() % 64),
        })
        .collect();
    let i64s: Vec<i64> = words.iter().map(|&w| w as i64).collect();
    let check = |a: Array, want: Vec<f64>, what: &str| {
        let got = a.astype(DType::F64).unwrap().to_vec::<f64>().unwrap();
        assert_bits(
            &got,
            &want,
            &|i| format!("word {:#x}", words[i]),
            what,
            false,
        );
    };
    check(
        Array::from_slice(&dev, &i64s, &[N]).unwrap(),
        i64s.iter().map(|&x| x as f64).collect(),
        "int64 -> f64",
    );
    check(
        Array::from_slice(&dev, &words, &[N]).unwrap(),
        words.iter().map(|&x| x as f64).collect(),
        "uint64 -> f64",
    );
    let i32s: Vec<i32> = words.iter().map(|&w| w as i32).collect();
    check(
        Array::from_slice(&dev, &i32s, &[N]).unwrap(),
        i32s.iter().map(|&x| x as f64).collect(),
        "int32 -> f64",
    );
    let u32s: Vec<u32> = words.iter().map(|&w| (w >> 7) as u32).collect();
    check(
        Array::from_slice(&dev, &u32s, &[N]).unwrap(),
        u32s.iter().map(|&x| x as f64).collect(),
        "uint32 -> f64",
    );
    let i8s: Vec<i8> = words.iter().map(|&w| w as i8).collect();
    check(
        Array::from_slice(&dev, &i8s, &[N]).unwrap(),
        i8s.iter().map(|&x| x as f64).collect(),
        "int8 -> f64",
    );
    let u16s: Vec<u16> = words.iter().map(|&w| w as u16).collect();
    check(
        Array::from_slice(&dev, &u16s, &[N]).unwrap(),
        u16s.iter().map(|&x| x as f64).collect(),
        "uint16 -> f64",
    );
    let bools: Vec<f64> = words.iter().map(|&w| (w & 1) as f64).collect();
    check(
        common::upload(&dev, &bools, &[N], DType::Bool),
        bools.clone(),
        "bool -> f64",
    );
    let f32s: Vec<f32> = words.iter().map(|&w| f32::from_bits(w as u32)).collect();
    check(
        Array::from_slice(&dev, &f32s, &[N]).unwrap(),
        f32s.iter().map(|&x| x as f64).collect(),
        "f32 -> f64",
    );
    if dev.supports(DType::F16) {
        let halves: Vec<half::f16> = words
            .iter()
            .map(|&w| half::f16::from_bits(w as u16))
            .collect();
        let got = Array::from_slice(&dev, &halves, &[N])
            .unwrap()
            .astype(DType::F64)
            .unwrap()
            .to_vec::<f64>()
            .unwrap();
        let want: Vec<f64> = halves.iter().map(|x| x.to_f64()).collect();
        // f16 NaNs widen through the driver's f16 -> f32 conversion: NaN as a class.
        assert_bits(
            &got,
            &want,
            &|i| format!("f16 {:#06x}", halves[i].to_bits()),
            "f16 -> f64",
            true,
        );
    }
}

#[test]
fn constructors_and_moves_keep_the_bits() {
    let Some(dev) = emulated() else { return };
    let n = 1000;
    let a = Array::arange(&dev, -3.25, 0.1 * n as f64 - 3.25, 0.1, DType::F64).unwrap();
    let got = a.to_vec::<f64>().unwrap();
    let want: Vec<f64> = (0..got.len()).map(|i| -3.25 + i as f64 * 0.1).collect();
    assert_bits(
        &got,
        &want,
        &|i| format!("arange element {i}"),
        "arange",
        false,
    );
    let l = Array::linspace(&dev, 0.0, 1.0, 7, DType::F64)
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    assert_eq!(l.len(), 7);
    assert_eq!((l[0], l[3], l[6]), (0.0, 0.5, 1.0));
    for (i, v) in l.iter().enumerate() {
        assert_eq!(
            v.to_bits(),
            (i as f64 * (1.0 / 6.0)).to_bits(),
            "linspace {i}"
        );
    }
    let f = Array::full(&dev, &[3, 5], -0.1, DType::F64).unwrap();
    assert!(
        f.to_vec::<f64>()
            .unwrap()
            .iter()
            .all(|v| v.to_bits() == (-0.1f64).to_bits())
    );
    // A transposed, reversed view copied; where and take move bits.
    let xs = mixed_values(24, 3);
    let x = Array::from_slice(&dev, &xs, &[4, 6]).unwrap();
    let t = x
        .transpose(&[1, 0])
        .unwrap()
        .contiguous()
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    for r in 0..6 {
        for c in 0..4 {
            assert_eq!(t[r * 4 + c].to_bits(), xs[c * 6 + r].to_bits());
        }
    }
    let cond: Vec<bool> = (0..24).map(|i| i % 3 == 0).collect();
    let flags: Vec<f64> = cond.iter().map(|&c| c as u8 as f64).collect();
    let c = common::upload(&dev, &flags, &[4, 6], DType::Bool);
    let y = Array::full(&dev, &[4, 6], 7.5, DType::F64).unwrap();
    let w = gpuarray::where_(&c, &x, &y)
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    for i in 0..24 {
        let want = if cond[i] { xs[i] } else { 7.5 };
        assert_eq!(w[i].to_bits(), want.to_bits(), "where {i}");
    }
    let idx = Array::from_slice(&dev, &[5i64, 0, 23, 5], &[4]).unwrap();
    let flat = x.reshape(&[24]).unwrap();
    let g = flat.take(&idx, Some(0)).unwrap().to_vec::<f64>().unwrap();
    for (k, &i) in [5usize, 0, 23, 5].iter().enumerate() {
        assert_eq!(g[k].to_bits(), xs[i].to_bits(), "take {i}");
    }
}

/// NumPy's npy_divmod, step for step (what both the native and the software kernels do).
fn divmod(a: f64, b: f64) -> (f64, f64) {
    let mut m = a % b;
    if b == 0.0 {
        return (a / b, f64::NAN);
    }
    if m.is_nan() {
        return (f64::NAN, f64::NAN);
    }
    let mut d = (a - m) / b;
    if m != 0.0 {
        if (b < 0.0) != (m < 0.0) {
            m += b;
            d -= 1.0;
        }
    } else {
        m = 0f64.copysign(b);
    }
    let f = if d != 0.0 {
        let mut f = d.floor();
        if d - f > 0.5 {
            f += 1.0;
        }
        f
    } else {
        0f64.copysign(a / b)
    };
    (f, m)
}

fn maximum(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        a
    } else if b.is_nan() || a < b {
        b
    } else {
        a
    }
}
fn minimum(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        a
    } else if b.is_nan() || b < a {
        b
    } else {
        a
    }
}
fn nextafter(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        return f64::NAN;
    }
    if a == b {
        return b;
    }
    if a == 0.0 {
        return f64::from_bits(1).copysign(b - a);
    }
    let away = (b > a) == (a > 0.0);
    f64::from_bits(if away {
        a.to_bits() + 1
    } else {
        a.to_bits() - 1
    })
}

/// Binary ops: name, host reference, whether a NaN result is compared as a class (its payload
/// is the host library's).
type Binary = (&'static str, fn(f64, f64) -> f64, bool);

const BINARY: [Binary; 14] = [
    ("add", |a, b| a + b, false),
    ("subtract", |a, b| a - b, false),
    ("multiply", |a, b| a * b, false),
    ("divide", |a, b| a / b, false),
    ("maximum", maximum, false),
    ("minimum", minimum, false),
    (
        "fmax",
        |a, b| {
            if b.is_nan() {
                a
            } else if a.is_nan() {
                b
            } else {
                maximum(a, b)
            }
        },
        false,
    ),
    (
        "fmin",
        |a, b| {
            if b.is_nan() {
                a
            } else if a.is_nan() {
                b
            } else {
                minimum(a, b)
            }
        },
        false,
    ),
    ("copysign", f64::copysign, false),
    ("nextafter", nextafter, true),
    ("fmod", |a, b| a % b, true),
    ("floor_divide", |a, b| divmod(a, b).0, true),
    ("remainder", |a, b| divmod(a, b).1, true),
    (
        "heaviside",
        |a, b| {
            if a.is_nan() {
                a
            } else if a == 0.0 {
                b
            } else if a < 0.0 {
                0.0
            } else {
                1.0
            }
        },
        false,
    ),
];

/// Operand pairs: independent values, and pairs close in magnitude (cancellation, carries,
/// halfway cases of the rounding).
fn pairs(n: usize, seed: u64) -> (Vec<f64>, Vec<f64>) {
    let a = mixed_values(n, seed);
    let mut b = mixed_values(n, seed + 100);
    let mut next = xorshift(seed + 200);
    for i in (0..n).step_by(3) {
        let delta = (next() % 64) as i64 - 32;
        b[i] = f64::from_bits(a[i].to_bits().wrapping_add(delta as u64));
        if next().is_multiple_of(2) {
            b[i] = -b[i];
        }
    }
    // Every edge value against every other.
    let edges = mixed_values(35, seed);
    let mut a = a;
    for (i, &x) in edges.iter().enumerate() {
        for (j, &y) in edges.iter().enumerate() {
            let k = 35 + i * 35 + j;
            if k < n {
                (a[k], b[k]) = (x, y);
            }
        }
    }
    (a, b)
}

#[test]
fn exact_binary_ops_match_the_host_bit_for_bit() {
    let Some(dev) = emulated() else { return };
    let nat = native();
    let (xs, ys) = pairs(N, 4);
    let a = Array::from_slice(&dev, &xs, &[N]).unwrap();
    let b = Array::from_slice(&dev, &ys, &[N]).unwrap();
    let show = |i: usize| {
        format!(
            "({:e}, {:e}) = ({:#018x}, {:#018x})",
            xs[i],
            ys[i],
            xs[i].to_bits(),
            ys[i].to_bits()
        )
    };
    for (name, reference, nan_class) in BINARY {
        let op = gpuarray::elementwise_op(name).unwrap_or_else(|| panic!("no op {name}"));
        let got = op
            .call(&[Operand::Array(&a), Operand::Array(&b)])
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .to_vec::<f64>()
            .unwrap();
        let want: Vec<f64> = xs.iter().zip(&ys).map(|(&x, &y)| reference(x, y)).collect();
        assert_bits(
            &got,
            &want,
            &show,
            &format!("{name} emulated vs host"),
            nan_class,
        );
        if let Some(nat) = &nat {
            let (na, nb) = (
                Array::from_slice(nat, &xs, &[N]).unwrap(),
                Array::from_slice(nat, &ys, &[N]).unwrap(),
            );
            let native = op
                .call(&[Operand::Array(&na), Operand::Array(&nb)])
                .unwrap()
                .to_vec::<f64>()
                .unwrap();
            assert_bits(
                &got,
                &native,
                &show,
                &format!("{name} emulated vs native"),
                true,
            );
        }
    }
}

#[test]
fn comparisons_and_predicates_follow_ieee() {
    let Some(dev) = emulated() else { return };
    let (xs, ys) = pairs(N, 5);
    let a = Array::from_slice(&dev, &xs, &[N]).unwrap();
    let b = Array::from_slice(&dev, &ys, &[N]).unwrap();
    let compare: [(&str, fn(f64, f64) -> bool); 9] = [
        ("equal", |a, b| a == b),
        ("not_equal", |a, b| a != b),
        ("less", |a, b| a < b),
        ("less_equal", |a, b| a <= b),
        ("greater", |a, b| a > b),
        ("greater_equal", |a, b| a >= b),
        ("logical_and", |a, b| a != 0.0 && b != 0.0),
        ("logical_or", |a, b| a != 0.0 || b != 0.0),
        ("logical_xor", |a, b| (a != 0.0) != (b != 0.0)),
    ];
    for (name, reference) in compare {
        let op = gpuarray::elementwise_op(name).unwrap_or_else(|| panic!("no op {name}"));
        let got = common::read(&op.call(&[Operand::Array(&a), Operand::Array(&b)]).unwrap());
        for i in 0..N {
            assert_eq!(
                got[i] == 1.0,
                reference(xs[i], ys[i]),
                "{name}({:e}, {:e})",
                xs[i],
                ys[i]
            );
        }
    }
    let predicates: [(&str, fn(f64) -> bool); 6] = [
        ("isnan", f64::is_nan),
        ("isinf", f64::is_infinite),
        ("isfinite", f64::is_finite),
        ("signbit", f64::is_sign_negative),
        ("logical_not", |x| x == 0.0),
        ("truth", |x| x != 0.0),
    ];
    for (name, reference) in predicates {
        let Some(op) = gpuarray::elementwise_op(name) else {
            continue;
        };
        let got = common::read(&op.call(&[Operand::Array(&a)]).unwrap());
        for i in 0..N {
            assert_eq!(
                got[i] == 1.0,
                reference(xs[i]),
                "{name}({:e} = {:#018x})",
                xs[i],
                xs[i].to_bits()
            );
        }
    }
}

#[test]
fn exact_unary_ops_match_the_host_bit_for_bit() {
    let Some(dev) = emulated() else { return };
    let nat = native();
    let xs = mixed_values(N, 6);
    let a = Array::from_slice(&dev, &xs, &[N]).unwrap();
    let show = |i: usize| format!("{:e} ({:#018x})", xs[i], xs[i].to_bits());
    let unary: [(&str, fn(f64) -> f64, bool); 12] = [
        ("negative", |x| -x, false),
        ("absolute", f64::abs, false),
        ("sqrt", f64::sqrt, false),
        ("floor", f64::floor, true),
        ("ceil", f64::ceil, true),
        ("trunc", f64::trunc, true),
        ("rint", f64::round_ties_even, true),
        ("square", |x| x * x, false),
        ("reciprocal", |x| 1.0 / x, false),
        (
            "sign",
            |x| {
                if x.is_nan() {
                    x
                } else if x == 0.0 {
                    0.0
                } else {
                    x.signum()
                }
            },
            false,
        ),
        ("deg2rad", |x| x * 0.017453292519943295, false),
        ("rad2deg", |x| x * 57.29577951308232, false),
    ];
    for (name, reference, nan_class) in unary {
        let op = gpuarray::elementwise_op(name).unwrap_or_else(|| panic!("no op {name}"));
        let got = op
            .call(&[Operand::Array(&a)])
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .to_vec::<f64>()
            .unwrap();
        let want: Vec<f64> = xs.iter().map(|&x| reference(x)).collect();
        assert_bits(
            &got,
            &want,
            &show,
            &format!("{name} emulated vs host"),
            nan_class,
        );
        if let Some(nat) = &nat {
            let na = Array::from_slice(nat, &xs, &[N]).unwrap();
            let native = op
                .call(&[Operand::Array(&na)])
                .unwrap()
                .to_vec::<f64>()
                .unwrap();
            assert_bits(
                &got,
                &native,
                &show,
                &format!("{name} emulated vs native"),
                true,
            );
        }
    }
}

#[test]
fn broadcasting_views_and_scalars_reach_the_software_kernels() {
    let Some(dev) = emulated() else { return };
    let xs = mixed_values(12, 7);
    let ys = [0.1, -3.0, 1e-310];
    let a = Array::from_slice(&dev, &xs, &[4, 3]).unwrap();
    let b = Array::from_slice(&dev, &ys, &[3]).unwrap();
    let got = a
        .transpose(&[1, 0])
        .unwrap()
        .mul(&b.reshape(&[3, 1]).unwrap())
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    for r in 0..3 {
        for c in 0..4 {
            let want = xs[c * 3 + r] * ys[r];
            assert_eq!(got[r * 4 + c].to_bits(), want.to_bits(), "({r}, {c})");
        }
    }
    let s = (&a + 0.25).unwrap().to_vec::<f64>().unwrap();
    for i in 0..12 {
        assert!(
            s[i].to_bits() == (xs[i] + 0.25).to_bits() || (s[i].is_nan() && xs[i].is_nan()),
            "{i}"
        );
    }
    let zero = Array::zeros(&dev, &[0, 3], DType::F64).unwrap();
    assert_eq!(zero.add(&b).unwrap().shape(), &[0, 3]);
}

/// The value reductions, every kernel shape (contiguous rows, columns, strided, a whole array
/// in two stages): the software kernels add in the native kernels' order, so the bits equal
/// the native path's; against the host within the bound of the sums' terms.
#[test]
fn reductions_match_the_native_path_bit_for_bit() {
    let Some(dev) = emulated() else { return };
    let nat = native();
    let (m, k) = (67, 3001);
    let mut xs = common::values(m * k, 8, -1e3, 1e3);
    xs[5] = -0.0;
    xs[k + 7] = f64::NAN;
    let ys = common::values(m * k, 9, 0.5, 1.5);
    for (what, data) in [("values", &xs), ("near one", &ys)] {
        let a = Array::from_slice(&dev, data, &[m, k]).unwrap();
        let n = nat
            .as_ref()
            .map(|d| Array::from_slice(d, data, &[m, k]).unwrap());
        type Reduce = fn(&Array) -> gpuarray::Result<Array>;
        let cases: [(&str, Reduce); 17] = [
            ("argmax rows", |a| {
                a.argmax(Some(1), false)?.astype(DType::F64)
            }),
            ("argmin columns", |a| {
                a.argmin(Some(0), false)?.astype(DType::F64)
            }),
            ("cumsum rows", |a| a.cumsum(Some(1))),
            ("cumsum columns", |a| a.cumsum(Some(0))),
            ("cumprod rows", |a| a.cumprod(Some(1))),
            ("sum rows", |a| a.sum(1isize, false)),
            ("sum columns", |a| a.sum(0isize, false)),
            ("sum all", |a| a.sum(Axes::All, false)),
            ("sum transposed", |a| {
                a.transpose(&[1, 0])?.sum(0isize, false)
            }),
            ("prod rows", |a| a.prod(1isize, false)),
            ("max rows", |a| a.max(1isize, false)),
            ("min columns", |a| a.min(0isize, false)),
            ("max all", |a| a.max(Axes::All, false)),
            ("nansum rows", |a| a.nansum(1isize, false)),
            ("mean rows", |a| a.mean(1isize, false)),
            ("any rows", |a| a.any(1isize, false)?.astype(DType::F64)),
            ("all columns", |a| a.all(0isize, false)?.astype(DType::F64)),
        ];
        // One of each kernel: rows (two stages), columns, the strided walk, arg-reduction, scan.
        let core = [
            "sum rows",
            "sum columns",
            "sum all",
            "argmax rows",
            "cumsum rows",
            "max rows",
        ];
        for (name, f) in cases
            .into_iter()
            .filter(|c| all_cases() || core.contains(&c.0))
        {
            let got = f(&a)
                .unwrap_or_else(|e| panic!("{name}: {e}"))
                .to_vec::<f64>()
                .unwrap();
            if let Some(n) = &n {
                let want = f(n).unwrap().to_vec::<f64>().unwrap();
                assert_bits(
                    &got,
                    &want,
                    &|i| format!("output {i}"),
                    &format!("{what}: {name}, emulated vs native"),
                    true,
                );
            }
        }
        // Against the host: row sums within n u sum|x|.
        let sums = a.sum(1isize, false).unwrap().to_vec::<f64>().unwrap();
        for (r, got) in sums.iter().enumerate() {
            let row = &data[r * k..(r + 1) * k];
            let want: f64 = row.iter().sum();
            let bound = k as f64 * f64::EPSILON * row.iter().map(|x| x.abs()).sum::<f64>();
            assert!(
                (got - want).abs() <= bound || (got.is_nan() && want.is_nan()),
                "{what}: row {r} sum {got} vs {want}"
            );
        }
        let maxima = a.max(1isize, false).unwrap().to_vec::<f64>().unwrap();
        for (r, got) in maxima.iter().enumerate() {
            let row = &data[r * k..(r + 1) * k];
            let want = row.iter().copied().fold(f64::NEG_INFINITY, maximum);
            assert_eq!(got.to_bits(), want.to_bits(), "{what}: row {r} max");
        }
    }
    // A sum of negative zeros is -0.0, as in NumPy.
    let z = Array::full(&dev, &[5], -0.0, DType::F64).unwrap();
    assert_eq!(
        z.sum(Axes::All, false).unwrap().to_vec::<f64>().unwrap()[0].to_bits(),
        (-0.0f64).to_bits()
    );
}

/// matmul, its batched and vector forms and einsum's contractions on it: each product rounded
/// and added in k order, the native kernels' order; against the host within k u sum|a b|.
#[test]
fn matmul_and_einsum_in_software_f64() {
    let Some(dev) = emulated() else { return };
    let nat = native();
    for (batch, m, k, n) in [
        (1, 37, 53, 29),
        (3, 5, 70, 17),
        (1, 1, 40, 9),
        (2, 16, 16, 1),
    ] {
        let xs = common::values(batch * m * k, 10, -2.0, 2.0);
        let ys = common::values(k * n, 11, -3.0, 3.0);
        let a = Array::from_slice(&dev, &xs, &[batch, m, k]).unwrap();
        let b = Array::from_slice(&dev, &ys, &[k, n]).unwrap();
        let got = a.matmul(&b).unwrap();
        assert_eq!(got.shape(), &[batch, m, n]);
        let got = got.to_vec::<f64>().unwrap();
        for t in 0..batch {
            for i in 0..m {
                for j in 0..n {
                    let terms = (0..k).map(|l| xs[(t * m + i) * k + l] * ys[l * n + j]);
                    let want: f64 = terms.clone().sum();
                    let bound = k as f64 * f64::EPSILON * terms.map(f64::abs).sum::<f64>();
                    let g = got[(t * m + i) * n + j];
                    assert!(
                        (g - want).abs() <= bound,
                        "({batch},{m},{k},{n}) [{t},{i},{j}]: {g} vs {want}"
                    );
                }
            }
        }
        if let Some(nat) = &nat {
            let na = Array::from_slice(nat, &xs, &[batch, m, k]).unwrap();
            let nb = Array::from_slice(nat, &ys, &[k, n]).unwrap();
            let want = na.matmul(&nb).unwrap().to_vec::<f64>().unwrap();
            let far = got
                .iter()
                .zip(&want)
                .filter(|(g, w)| g.to_bits() != w.to_bits())
                .count();
            // The tiled kernel adds in k order as the word-pair one does, the matrix-vector
            // kernel in four interleaved sums in both variants: the same bits. Products of at
            // least 16 x 32 x 16 take the Ozaki scheme instead
            // (`ozaki_matmul_is_as_accurate_as_a_native_dot_product`).
            println!(
                "({batch},{m},{k},{n}): {far} of {} differ from the native kernel's bits",
                got.len()
            );
            if m < 16 || n < 16 || k < 32 {
                assert_eq!(far, 0, "({batch},{m},{k},{n}) emulated vs native tiled");
            }
        }
    }
    let v = Array::from_slice(&dev, &[1.5f64, -2.0, 0.25], &[3]).unwrap();
    let w = Array::from_slice(&dev, &[4.0f64, 0.5, 8.0], &[3]).unwrap();
    let e = gpuarray::einsum("i,i->", &[&v, &w])
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    assert_eq!(e, vec![1.5 * 4.0 - 2.0 * 0.5 + 0.25 * 8.0]);
    let outer = gpuarray::einsum("i,j->ij", &[&v, &w])
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    assert_eq!(outer[5], -2.0 * 8.0);
}

/// a + b as the rounded sum and its exact error (Knuth's TwoSum).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// sum_k x_k y_k as if computed in twice the precision, then rounded (Ogita, Rump and Oishi's
/// Dot2): the reference the scheme's error is measured against.
fn dot2(x: impl Iterator<Item = f64>, y: impl Iterator<Item = f64>) -> f64 {
    let (mut s, mut c) = (0.0f64, 0.0f64);
    for (a, b) in x.zip(y) {
        let p = a * b;
        let e = a.mul_add(b, -p);
        let (t, err) = two_sum(s, p);
        s = t;
        c += err + e;
    }
    s + c
}

/// The emulated f64 matmul of products of at least 16 x 32 x 16 (the Ozaki scheme: exact
/// integer products of residues on the f32 kernels, recombined by the Chinese remainder theorem)
/// against a doubled-precision host dot product: every output within a native f64 dot product's
/// bound, k u sum |a b| (plus k times the smallest subnormal where results underflow), over
/// k-blocks, row and column tiles, batches, exponent spreads that force the direct path for some
/// outputs, underflowing and overflowing results, zeros, and rows and columns holding infinities
/// or NaN (whose outputs take the direct path: the host's k-order sum, bit for bit).
#[test]
fn ozaki_matmul_is_as_accurate_as_a_native_dot_product() {
    let Some(dev) = emulated() else { return };
    let mut next = xorshift(77);
    let mut uniform = move || (next() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0;
    // (batch, m, k, n, how the values are made)
    let cases: &[(usize, usize, usize, usize, &str)] = &[
        (1, 70, 1500, 40, "uniform"),
        (2, 33, 64, 17, "spread"),
        (1, 40, 96, 24, "dominant"),
        (1, 24, 48, 20, "extremes"),
    ];
    for &(batch, m, k, n, kind) in cases {
        let mut make = |len: usize, row_len: usize| -> Vec<f64> {
            (0..len)
                .map(|i| {
                    let u = uniform();
                    match kind {
                        "uniform" => u,
                        // Elements over 2^-40 .. 2^40, rows over 2^-300 .. 2^300.
                        "spread" => {
                            let row = (i / row_len) as i32;
                            u * 2f64.powi((uniform() * 40.0) as i32)
                                * 2f64.powi((row % 7 - 3) * 100)
                        }
                        // One element a million times the rest in each vector.
                        "dominant" => {
                            if i % row_len == (i / row_len) % row_len {
                                u * 1e6
                            } else {
                                u
                            }
                        }
                        // Subnormal and huge magnitudes, zeros, infinities, NaN.
                        // (infinities in vector 3, NaN in vector 5, zeros filling vector 7).
                        _ => match (i / row_len, i % 23) {
                            (3, 4) => f64::INFINITY,
                            (5, 9) => f64::NAN,
                            (7, _) | (_, 0) => 0.0,
                            (_, 1) => u * 1e-310,
                            (_, 2) => u * 1e300,
                            _ => u * 2f64.powi((i % 11) as i32 * 90 - 500),
                        },
                    }
                })
                .collect()
        };
        let xs = make(batch * m * k, k);
        let ys = make(k * n, n);
        let a = Array::from_slice(&dev, &xs, &[batch, m, k]).unwrap();
        let b = Array::from_slice(&dev, &ys, &[k, n]).unwrap();
        let (got, profile) = dev.profile(|| a.matmul(&b)).unwrap();
        let got = got.unwrap().to_vec::<f64>().unwrap();
        assert!(
            profile
                .launches
                .iter()
                .any(|l| l.kernel.starts_with("ozaki_combine")),
            "{kind}: the scheme ran: {:?}",
            profile
                .launches
                .iter()
                .map(|l| &l.kernel)
                .collect::<Vec<_>>()
        );
        let mut worst = 0.0f64;
        for t in 0..batch {
            for i in 0..m {
                for j in 0..n {
                    let row = || (0..k).map(|l| xs[(t * m + i) * k + l]);
                    let col = || (0..k).map(|l| ys[l * n + j]);
                    let g = got[(t * m + i) * n + j];
                    let naive = row().zip(col()).fold(0.0f64, |s, (x, y)| s + x * y);
                    if !row().chain(col()).all(f64::is_finite) {
                        // The direct path: the host's k-order sum.
                        assert!(
                            g.to_bits() == naive.to_bits() || (g.is_nan() && naive.is_nan()),
                            "{kind} [{t},{i},{j}]: {g} vs the k-order sum {naive}"
                        );
                        continue;
                    }
                    let want = dot2(row(), col());
                    let abs: f64 = row().zip(col()).map(|(x, y)| (x * y).abs()).sum();
                    if !abs.is_finite() || !want.is_finite() {
                        // Too large for f64 on the way: an infinity or a NaN, as natively.
                        assert!(
                            !g.is_finite() || !naive.is_finite(),
                            "{kind} [{t},{i},{j}]: {g}"
                        );
                        continue;
                    }
                    let err = (g - want).abs();
                    let bound = k as f64 * (f64::EPSILON / 2.0) * abs + k as f64 * 5e-324;
                    assert!(
                        err <= bound,
                        "{kind} ({batch},{m},{k},{n}) [{t},{i},{j}]: {g:e} vs {want:e}, error {err:e} over the bound {bound:e}"
                    );
                    if abs > 0.0 {
                        worst = worst.max(err / (f64::EPSILON / 2.0 * abs));
                    }
                }
            }
        }
        println!("{kind} ({batch},{m},{k},{n}): largest error {worst:.3} u sum|a b|");
    }
}

/// The scheme's tiles: with 1 MiB bindings a 300 x 600 x 200 product is cut into tiles of 32
/// rows and columns (each plane array within a binding) and two k-blocks; every output is still
/// within a native dot product's bound.
#[test]
fn ozaki_matmul_tiles_within_small_bindings() {
    let Some(dev) = common::device_from(common::test_config().and_then(|config| {
        Device::with_config(gpuarray::DeviceConfig {
            max_binding_size: Some(1 << 20),
            f64: F64Mode::Emulated,
            ..config
        })
    })) else {
        return;
    };
    let (m, k, n) = (300, 600, 200);
    let xs = common::values(m * k, 31, -1.0, 1.0);
    let ys = common::values(k * n, 32, -1.0, 1.0);
    let a = Array::from_slice(&dev, &xs, &[m, k]).unwrap();
    let b = Array::from_slice(&dev, &ys, &[k, n]).unwrap();
    let (got, profile) = dev.profile(|| a.matmul(&b)).unwrap();
    let got = got.unwrap().to_vec::<f64>().unwrap();
    let combines = profile
        .launches
        .iter()
        .filter(|l| l.kernel.starts_with("ozaki_combine"))
        .count();
    // ceil(300 / 32) x ceil(200 / 32) tiles x 2 k-blocks.
    assert_eq!(combines, 10 * 7 * 2, "tiles and k-blocks");
    for i in 0..m {
        for j in 0..n {
            let row = || (0..k).map(|l| xs[i * k + l]);
            let col = || (0..k).map(|l| ys[l * n + j]);
            let want = dot2(row(), col());
            let abs: f64 = row().zip(col()).map(|(x, y)| (x * y).abs()).sum();
            let g = got[i * n + j];
            assert!(
                (g - want).abs() <= k as f64 * (f64::EPSILON / 2.0) * abs,
                "[{i},{j}]: {g:e} vs {want:e}"
            );
        }
    }
}

/// Philox draws in f64: the same stream words as the native path, turned into f64 in software;
/// random and uniform values against the host's cuRAND-style conversion of those words, bit
/// for bit, and every distribution against the native path's bits where it has f64.
#[test]
fn philox_f64_draws_take_the_same_words_and_give_the_same_values() {
    let Some(dev) = emulated() else { return };
    let nat = native();
    let n = 1001; // odd: the last Box-Muller pair is cut
    type Draw = fn(&mut gpuarray::random::Generator, usize) -> gpuarray::Result<Array>;
    let draws: [(&str, Draw); 6] = [
        ("random", |g, n| g.random(&[n], DType::F64)),
        ("uniform", |g, n| g.uniform(-3.0, 5.5, &[n], DType::F64)),
        ("standard_normal", |g, n| {
            g.standard_normal(&[n], DType::F64)
        }),
        ("normal", |g, n| g.normal(10.0, 0.1, &[n], DType::F64)),
        ("exponential", |g, n| g.exponential(2.5, &[n], DType::F64)),
        ("bernoulli", |g, n| g.bernoulli(0.3, &[n], DType::F64)),
    ];
    let mut g = gpuarray::random::Generator::with_stream(&dev, 42, 3, 5);
    let mut h = nat
        .as_ref()
        .map(|d| gpuarray::random::Generator::with_stream(d, 42, 3, 5));
    // random and uniform are one kernel each, normal the log and sincos path (exponential's log
    // is the same code), bernoulli the f32 draw widened.
    let core = ["random", "uniform", "normal", "bernoulli"];
    for (name, draw) in draws
        .into_iter()
        .filter(|d| all_cases() || core.contains(&d.0))
    {
        let before = g.offset();
        let got = draw(&mut g, n)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .to_vec::<f64>()
            .unwrap();
        if name == "random" {
            let words = common::philox::stream(42, 3, before, 2 * n);
            for i in 0..n {
                let want = common::philox::random_f64(words[2 * i], words[2 * i + 1]);
                assert_eq!(got[i].to_bits(), want.to_bits(), "random {i}");
            }
        }
        if let Some(h) = h.as_mut() {
            let want = draw(h, n).unwrap().to_vec::<f64>().unwrap();
            assert_eq!(g.offset(), h.offset(), "{name}: the stream advances alike");
            let differ = (0..n)
                .filter(|&i| got[i].to_bits() != want[i].to_bits())
                .count();
            if matches!(name, "random" | "uniform" | "bernoulli") {
                assert_eq!(differ, 0, "{name}: emulated vs native bits");
            } else {
                // The same polynomials in the same order; a driver may fuse the native ones.
                for i in 0..n {
                    let tol = 4.0 * f64::EPSILON * want[i].abs().max(1e-300);
                    assert!(
                        (got[i] - want[i]).abs() <= tol,
                        "{name} {i}: {} vs {}",
                        got[i],
                        want[i]
                    );
                }
                println!("{name}: {differ} of {n} differ from the native bits");
            }
        }
    }
}

/// Distance in ulps between two doubles of one sign (0 for equal bits and for two NaNs).
fn ulps(a: f64, b: f64) -> u64 {
    if a.is_nan() && b.is_nan() {
        return 0;
    }
    if a.is_nan() || b.is_nan() {
        return u64::MAX;
    }
    let key = |x: f64| {
        let b = x.to_bits() as i64;
        if b < 0 { i64::MIN - b } else { b }
    };
    key(a).abs_diff(key(b))
}

/// The elementary functions: the native math file's steps in software (math_f64_soft.wgsl),
/// against the host's libm within the native path's bounds, and against the native path's
/// bits where the adapter has f64 (equal unless its driver fuses or reorders).
#[test]
fn the_math_library_runs_on_software_f64() {
    let Some(dev) = emulated() else { return };
    let nat = native();
    let mut xs = common::values(4000, 12, -30.0, 30.0);
    xs.extend(common::values(2000, 13, -1.0, 1.0));
    xs.extend(common::values(1000, 14, -800.0, 800.0));
    xs.extend(mixed_values(1000, 15));
    let n = xs.len();
    let mut ys = common::values(n, 16, -4.0, 4.0);
    ys[..1000].iter_mut().for_each(|y| *y = y.round());
    let a = Array::from_slice(&dev, &xs, &[n]).unwrap();
    let b = Array::from_slice(&dev, &ys, &[n]).unwrap();
    // (name, host reference, ulps allowed against the host where the result is finite).
    let unary: [(&str, fn(f64) -> f64, u64); 20] = [
        ("exp", f64::exp, 2),
        ("exp2", f64::exp2, 2),
        ("expm1", f64::exp_m1, 2),
        ("log", f64::ln, 2),
        ("log2", f64::log2, 2),
        ("log10", f64::log10, 2),
        ("log1p", f64::ln_1p, 2),
        ("sin", f64::sin, 2),
        ("cos", f64::cos, 2),
        ("tan", f64::tan, 4),
        ("arcsin", f64::asin, 3),
        ("arccos", f64::acos, 3),
        ("arctan", f64::atan, 2),
        ("sinh", f64::sinh, 3),
        ("cosh", f64::cosh, 3),
        ("tanh", f64::tanh, 3),
        ("cbrt", f64::cbrt, 2),
        ("arcsinh", f64::asinh, 3),
        ("arccosh", f64::acosh, 3),
        // Rust's atanh is 0.5 ln_1p(2x / (1 - x)), which cancels for x near -1 (8 ulp at
        // -0.98874): the reference uses atanh(-x) = -atanh(x), as the kernels do.
        ("arctanh", |x| x.signum() * x.abs().atanh(), 4),
    ];
    let binary: [(&str, fn(f64, f64) -> f64, u64); 4] = [
        ("power", f64::powf, 8),
        ("arctan2", f64::atan2, 3),
        ("hypot", f64::hypot, 2),
        (
            "logaddexp",
            |a, b| {
                if a == b {
                    a + std::f64::consts::LN_2
                } else {
                    a.max(b) + (-(a - b).abs()).exp().ln_1p()
                }
            },
            3,
        ),
    ];
    let check = |name: &str,
                 got: &[f64],
                 want: &dyn Fn(usize) -> f64,
                 allowed: u64,
                 native: Option<Vec<f64>>| {
        for i in 0..n {
            let w = want(i);
            if w.is_finite() && w.abs() > 1e-300 && w.abs() < 1e300 && xs[i].abs() < 8e8 {
                let operands = xs[i].abs().max(ys[i].abs());
                if name == "logaddexp" && w.abs() < operands {
                    // max(a, b) + log1p(exp(-|a - b|)) cancels when the result is small beside
                    // the operands (in NumPy too): its error is in units of the operands'.
                    let err = (got[i] - w).abs();
                    assert!(
                        err <= allowed as f64 * f64::EPSILON * operands,
                        "{name}({:e}, {:e}) = {:e}, host {:e}",
                        xs[i],
                        ys[i],
                        got[i],
                        w
                    );
                    continue;
                }
                let d = ulps(got[i], w);
                assert!(
                    d <= allowed,
                    "{name}({:e}, {:e}) = {:e}, host {:e}: {d} ulp",
                    xs[i],
                    ys[i],
                    got[i],
                    w
                );
            }
        }
        if let Some(native) = native {
            let differ = (0..n)
                .filter(|&i| {
                    got[i].to_bits() != native[i].to_bits()
                        && !(got[i].is_nan() && native[i].is_nan())
                })
                .count();
            let worst = (0..n).map(|i| ulps(got[i], native[i])).max().unwrap_or(0);
            println!("{name}: {differ} of {n} differ from the native bits (at most {worst} ulp)");
            assert!(worst <= 2, "{name}: {worst} ulp from the native path");
        }
    };
    // Each function is a large shader (every software operation inlined but the polynomial
    // loops) that lavapipe takes seconds to compile from a cold cache (BENCHMARKS.md): the suite
    // checks exp (the range reduction, the rational kernel and ldexp) and
    // GPUARRAY_TEST_ALL_F64=1 every function.
    let picked = |name: &str| all_cases() || name == "exp";
    for (name, reference, allowed) in unary.into_iter().filter(|u| picked(u.0)) {
        let op = gpuarray::elementwise_op(name).unwrap_or_else(|| panic!("no op {name}"));
        let got = op
            .call(&[Operand::Array(&a)])
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .to_vec::<f64>()
            .unwrap();
        let native = nat.as_ref().map(|d| {
            let na = Array::from_slice(d, &xs, &[n]).unwrap();
            op.call(&[Operand::Array(&na)])
                .unwrap()
                .to_vec::<f64>()
                .unwrap()
        });
        check(name, &got, &|i| reference(xs[i]), allowed, native);
    }
    for (name, reference, allowed) in binary.into_iter().filter(|b| picked(b.0)) {
        let op = gpuarray::elementwise_op(name).unwrap_or_else(|| panic!("no op {name}"));
        let got = op
            .call(&[Operand::Array(&a), Operand::Array(&b)])
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .to_vec::<f64>()
            .unwrap();
        let native = nat.as_ref().map(|d| {
            let (na, nb) = (
                Array::from_slice(d, &xs, &[n]).unwrap(),
                Array::from_slice(d, &ys, &[n]).unwrap(),
            );
            op.call(&[Operand::Array(&na), Operand::Array(&nb)])
                .unwrap()
                .to_vec::<f64>()
                .unwrap()
        });
        check(name, &got, &|i| reference(xs[i], ys[i]), allowed, native);
    }
}

/// Weighted counts add each bin's f64 weights in index order, in software as natively.
#[test]
fn weighted_counts_add_in_index_order() {
    let Some(dev) = emulated() else { return };
    let n = 5000;
    let bins: Vec<i64> = (0..n).map(|i| ((i * 7919) % 13) as i64).collect();
    let weights = common::values(n, 17, -1e6, 1e6);
    let x = Array::from_slice(&dev, &bins, &[n]).unwrap();
    let w = Array::from_slice(&dev, &weights, &[n]).unwrap();
    let got = x.bincount_weighted(&w, 0).unwrap().to_vec::<f64>().unwrap();
    let mut want = vec![0.0f64; 13];
    for i in 0..n {
        want[bins[i] as usize] += weights[i];
    }
    assert_bits(
        &got,
        &want,
        &|b| format!("bin {b}"),
        "bincount weights",
        false,
    );
}
