//! float16 on a device that emulates it (`F16Mode::Emulated`: two halves per `u32` word, computed
//! in f32 and rounded once per result, what adapters without `shader-f16` get — GL, WebGPU
//! without the feature): NumPy's float16 bits for every cast and for the correctly rounded ops,
//! stores that never disturb a neighbouring half, and the families that widen to f32
//! (reductions, scans, matmul, sorting, random draws) against references written here.
//!
//! The references are NumPy's own conversions (`npy_halfbits_to_floatbits`,
//! `npy_floatbits_to_halfbits`, `npy_doublebits_to_halfbits` in `numpy/_core/src/npymath/
//! halffloat.cpp`), ported below; NumPy's float16 ufuncs compute in float32 and convert the result.

mod common;

use common::xorshift;
use gpuarray::{Array, DType, Device, F16Mode, SliceArg, f16};

fn emulated() -> Option<Device> {
    let dev = common::device_with_f16(F16Mode::Emulated, None)?;
    assert!(
        dev.f16_emulated() && dev.supports(DType::F16),
        "{}",
        dev.info()
    );
    Some(dev)
}

/// The adapter's own f16, when it has one (lavapipe does; GL and most browsers do not).
fn native() -> Option<Device> {
    let dev = common::device_with_f16(F16Mode::Native, None)?;
    if dev.supports(DType::F16) {
        Some(dev)
    } else {
        println!(
            "no native f16 on {}: emulated results checked against NumPy's rules only",
            dev.info()
        );
        None
    }
}

/// NumPy's half -> float: exact, a NaN keeping its payload (no quieting).
fn np_half_to_float_bits(h: u16) -> u32 {
    let h = u32::from(h);
    let sign = (h & 0x8000) << 16;
    let exp = h & 0x7c00;
    let sig = h & 0x03ff;
    match exp {
        0 if sig == 0 => sign,
        0 => {
            // Subnormal: normalise the significand.
            let mut sig = sig << 1;
            let mut e = 0u32;
            while sig & 0x0400 == 0 {
                sig <<= 1;
                e += 1;
            }
            sign | ((127 - 15 - e) << 23) | ((sig & 0x03ff) << 13)
        }
        0x7c00 => sign | 0x7f80_0000 | (sig << 13),
        _ => sign | (((exp >> 10) + 112) << 23) | (sig << 13),
    }
}

/// NumPy's float -> half: to nearest, ties to even; a NaN keeps its sign and the top of its
/// payload, never becoming an infinity.
fn np_float_to_half_bits(f: u32) -> u16 {
    let sign = ((f >> 16) & 0x8000) as u16;
    let a = f & 0x7fff_ffff;
    if a >= 0x7f80_0000 {
        if a > 0x7f80_0000 {
            return sign | 0x7c00 | (((a >> 13) & 0x3ff) as u16).max(1);
        }
        return sign | 0x7c00;
    }
    let x = f64::from(f32::from_bits(a));
    sign | round_to_half(x)
}

/// NumPy's double -> half, directly (one rounding).
fn np_double_to_half_bits(d: u64) -> u16 {
    let sign = ((d >> 48) & 0x8000) as u16;
    let a = d & 0x7fff_ffff_ffff_ffff;
    if a >= 0x7ff0_0000_0000_0000 {
        if a > 0x7ff0_0000_0000_0000 {
            return sign | 0x7c00 | (((a >> 42) & 0x3ff) as u16).max(1);
        }
        return sign | 0x7c00;
    }
    sign | round_to_half(f64::from_bits(a))
}

/// The half nearest the finite `x >= 0` (ties to even), by exact arithmetic on multiples of the
/// half's spacing (every f32 and f64 magnitude below 2^17 is exact in this scaled form).
fn round_to_half(x: f64) -> u16 {
    if x >= 65520.0 {
        return 0x7c00;
    }
    // The spacing of halves at x: 2^-24 below 2^-14, else 2^(e - 10).
    let e = if x < 6.103515625e-05 {
        -14
    } else {
        x.log2().floor() as i32
    };
    let e = e.max(-14);
    let ulp = (2.0f64).powi(e - 10);
    let q = x / ulp; // exact: a power-of-two scaling
    let mut k = q.floor();
    let rest = q - k;
    if rest > 0.5 || (rest == 0.5 && k % 2.0 == 1.0) {
        k += 1.0;
    }
    half_bits_of_value(k * ulp)
}

/// The bits of a value known to be a half (or 65536: infinity).
fn half_bits_of_value(v: f64) -> u16 {
    if v >= 65536.0 {
        return 0x7c00;
    }
    if v < 6.103515625e-05 {
        return (v / 5.960464477539063e-08) as u16;
    }
    let e = v.log2().floor() as i32;
    let m = v / (2.0f64).powi(e) - 1.0;
    (((e + 15) as u16) << 10) | (m * 1024.0) as u16
}

fn halves(bits: &[u16]) -> Vec<f16> {
    bits.iter().map(|&b| f16::from_bits(b)).collect()
}

fn bits_of(a: &Array) -> Vec<u16> {
    a.to_vec::<f16>()
        .unwrap()
        .iter()
        .map(|h| h.to_bits())
        .collect()
}

fn is_nan_half(b: u16) -> bool {
    b & 0x7fff > 0x7c00
}

/// Every half bit pattern.
fn every_half() -> Vec<u16> {
    (0..=u16::MAX).collect()
}

/// f32 bit patterns of every class: random ones, and the rounding boundaries of halves (ties,
/// one ulp either side, the overflow and underflow edges).
fn float_patterns(n: usize) -> Vec<u32> {
    let mut next = xorshift(0xf16);
    let mut v: Vec<u32> = (0..n).map(|_| next() as u32).collect();
    for h in (0..0x7c00u32)
        .step_by(97)
        .chain([0x7bff, 0x0000, 0x0001, 0x03ff, 0x0400])
    {
        let f = np_half_to_float_bits(h as u16);
        // The tie above this half and its neighbours.
        let tie = if h < 0x0400 {
            f32::from_bits(f) + 2.0f32.powi(-25)
        } else {
            f32::from_bits(f | 0x1000)
        };
        let t = tie.to_bits();
        v.extend([f, t - 1, t, t + 1, f | 0x8000_0000, (t + 1) | 0x8000_0000]);
    }
    v.extend([
        0x477f_efff,
        0x477f_f000,
        0x477f_f001, // 65520 and its neighbours
        0x3300_0000,
        0x3300_0001,
        0x32ff_ffff, // 2^-25
        0x33c0_0000,
        0x3380_0000, // 1.5 * 2^-24, 2^-24
        0x7fc0_0000,
        0xffc0_0000,
        0x7f80_0001,
        0x7fa0_0000,
        0x7f80_2000, // NaNs
        0x7f80_0000,
        0xff80_0000,
        0x0000_0001,
        0x8000_0000,
    ]);
    v
}

#[test]
fn casts_to_and_from_half_give_numpys_bits() {
    let Some(dev) = emulated() else { return };
    println!("{}", dev.info());
    assert!(
        dev.info().to_string().ends_with("f16 emulated"),
        "{}",
        dev.info()
    );

    // Every half to f32: exact, NaN payloads kept.
    let all = every_half();
    let a = Array::from_slice(&dev, &halves(&all), &[all.len()]).unwrap();
    let wide: Vec<u32> = a
        .astype(DType::F32)
        .unwrap()
        .to_vec::<f32>()
        .unwrap()
        .iter()
        .map(|x| x.to_bits())
        .collect();
    for (&h, &w) in all.iter().zip(&wide) {
        assert_eq!(w, np_half_to_float_bits(h), "f16 {h:#06x} -> f32");
    }
    // To f64 and back: the same values (NaNs stay NaNs of the same sign).
    let back = bits_of(&a.astype(DType::F64).unwrap().astype(DType::F16).unwrap());
    for (&h, &b) in all.iter().zip(&back) {
        if is_nan_half(h) {
            assert!(
                is_nan_half(b) && (b ^ h) & 0x8000 == 0,
                "f16 {h:#06x} -> f64 -> f16 {b:#06x}"
            );
        } else {
            assert_eq!(b, h, "f16 {h:#06x} -> f64 -> f16");
        }
    }
    // To the integers: NumPy's truncation of the half's value (in range).
    let ints = a.astype(DType::I32).unwrap().to_vec::<i32>().unwrap();
    let bytes = a.astype(DType::U8).unwrap().to_vec::<u8>().unwrap();
    let truth = a.astype(DType::Bool).unwrap().to_vec_bool().unwrap();
    for (i, &h) in all.iter().enumerate() {
        let x = f32::from_bits(np_half_to_float_bits(h));
        if x.is_finite() {
            assert_eq!(ints[i], x.trunc() as i32, "f16 {h:#06x} -> i32");
            if (0.0..256.0).contains(&x) {
                assert_eq!(bytes[i], x as u8, "f16 {h:#06x} -> u8");
            }
        }
        assert_eq!(truth[i], h & 0x7fff != 0, "f16 {h:#06x} -> bool");
    }

    // f32 to half: every class and every rounding boundary.
    let fs = float_patterns(1 << 20);
    let f = Array::from_slice(
        &dev,
        &fs.iter().map(|&b| f32::from_bits(b)).collect::<Vec<_>>(),
        &[fs.len()],
    )
    .unwrap();
    let got = bits_of(&f.astype(DType::F16).unwrap());
    let mut mismatches = 0;
    for (&x, &g) in fs.iter().zip(&got) {
        let want = np_float_to_half_bits(x);
        if g != want {
            mismatches += 1;
            assert!(
                mismatches > 5,
                "f32 {x:#010x} -> f16 {g:#06x}, NumPy {want:#06x}"
            );
        }
    }
    assert_eq!(mismatches, 0);

    // f64 to half: rounded once (through f32 a tie can be rounded twice), every class.
    let mut next = xorshift(64);
    let mut ds: Vec<u64> = (0..1 << 18).map(|_| next()).collect();
    // Small magnitudes, where halves live, and the double-rounding traps: just past a tie of
    // halves by less than f32 can hold (1 + 2^-11 + 2^-40 rounds up to 1 + 2^-10).
    ds.extend((0..1 << 16).map(|_| {
        ((next() % 0x0300_0000_0000_0000) + 0x3e00_0000_0000_0000) | (next() & (1 << 63))
    }));
    for base in [1.0f64, 1.5, 1024.0, 6.103515625e-05, 2.0f64.powi(-20)] {
        let half_ulp = base * 2.0f64.powi(-11);
        for delta in [2.0f64.powi(-40), -(2.0f64.powi(-40)), 0.0] {
            ds.push((base + half_ulp * (1.0 + delta)).to_bits());
            ds.push((base + 3.0 * half_ulp * (1.0 + delta)).to_bits());
        }
    }
    ds.extend([
        0x7ff8_0000_0000_0000,
        0xfff0_0000_0000_0000,
        0x40ef_fe00_0000_0000,
        0x40ef_fdff_ffff_ffff,
        1,
    ]);
    let d = Array::from_slice(
        &dev,
        &ds.iter().map(|&b| f64::from_bits(b)).collect::<Vec<_>>(),
        &[ds.len()],
    )
    .unwrap();
    let got = bits_of(&d.astype(DType::F16).unwrap());
    for (&x, &g) in ds.iter().zip(&got) {
        let want = np_double_to_half_bits(x);
        if is_nan_half(want) && !dev.f64_emulated() {
            // A native f64 -> f32 conversion quiets a signalling NaN, as CPUs do: the payload
            // is NumPy's but for the quiet bit.
            assert_eq!(g | 0x200, want | 0x200, "f64 {x:#018x} -> f16 {g:#06x}");
        } else {
            assert_eq!(g, want, "f64 {x:#018x} ({}) -> f16", f64::from_bits(x));
        }
    }

    // Integers to half: exact below 2048, rounded above, infinity past 65519.
    let is: Vec<i64> = (-70000..70000)
        .step_by(7)
        .chain([65519, 65520, 2049, 2051, -65520])
        .collect();
    let i = Array::from_slice(&dev, &is, &[is.len()]).unwrap();
    let got = bits_of(&i.astype(DType::F16).unwrap());
    for (&x, &g) in is.iter().zip(&got) {
        assert_eq!(
            g,
            np_double_to_half_bits((x as f64).to_bits()),
            "i64 {x} -> f16"
        );
    }
}

#[test]
fn arithmetic_rounds_each_result_once_as_numpy() {
    let Some(dev) = emulated() else { return };
    // Pairs of every class: random bit patterns over all halves.
    let mut next = xorshift(16);
    let n = 1 << 18;
    let xs: Vec<u16> = (0..n).map(|_| next() as u16).collect();
    let ys: Vec<u16> = (0..n).map(|_| next() as u16).collect();
    let a = Array::from_slice(&dev, &halves(&xs), &[n]).unwrap();
    let b = Array::from_slice(&dev, &halves(&ys), &[n]).unwrap();
    let f = |h: u16| f32::from_bits(np_half_to_float_bits(h));
    type Case = (&'static str, Array, fn(f32, f32) -> f32);
    let cases: Vec<Case> = vec![
        ("add", a.add(&b).unwrap(), |x, y| x + y),
        ("subtract", a.sub(&b).unwrap(), |x, y| x - y),
        ("multiply", a.mul(&b).unwrap(), |x, y| x * y),
        ("divide", a.div(&b).unwrap(), |x, y| x / y),
        ("sqrt", a.abs().unwrap().sqrt().unwrap(), |x, _| {
            x.abs().sqrt()
        }),
        ("maximum", a.maximum(&b).unwrap(), |x, y| {
            if x.is_nan() || y.is_nan() {
                f32::NAN
            } else {
                x.max(y)
            }
        }),
        ("negative", a.neg().unwrap(), |x, _| -x),
    ];
    for (name, got, op) in cases {
        let got = bits_of(&got);
        for i in 0..n {
            let want = np_float_to_half_bits(op(f(xs[i]), f(ys[i])).to_bits());
            if is_nan_half(want) {
                assert!(
                    is_nan_half(got[i]),
                    "{name}({:#06x}, {:#06x}) = {:#06x}, want NaN",
                    xs[i],
                    ys[i],
                    got[i]
                );
            } else {
                assert_eq!(got[i], want, "{name}({:#06x}, {:#06x})", xs[i], ys[i]);
            }
        }
    }
    // Comparisons read the halves' values exactly.
    let lt = a.lt(&b).unwrap().to_vec_bool().unwrap();
    let eq = a.eq(&b).unwrap().to_vec_bool().unwrap();
    for i in 0..n {
        assert_eq!(
            lt[i],
            f(xs[i]) < f(ys[i]),
            "{:#06x} < {:#06x}",
            xs[i],
            ys[i]
        );
        assert_eq!(
            eq[i],
            f(xs[i]) == f(ys[i]),
            "{:#06x} == {:#06x}",
            xs[i],
            ys[i]
        );
    }
}

#[test]
fn math_functions_give_the_native_paths_bits() {
    let (Some(emu), Some(nat)) = (emulated(), native()) else {
        return;
    };
    // Both compute in the same f32 library; the halves must agree wherever the native store
    // rounds to nearest (it may truncate: then the emulated value must be the nearer half).
    let all = every_half();
    let e = Array::from_slice(&emu, &halves(&all), &[all.len()]).unwrap();
    let n = Array::from_slice(&nat, &halves(&all), &[all.len()]).unwrap();
    type Unary = fn(&Array) -> gpuarray::Result<Array>;
    let fns: [(&str, Unary); 6] = [
        ("exp", |a| a.exp()),
        ("log", |a| a.log()),
        ("sin", |a| a.sin()),
        ("tanh", |a| a.tanh()),
        ("floor", |a| a.floor()),
        ("rint", |a| a.rint()),
    ];
    for (name, op) in fns {
        let (ge, gn) = (bits_of(&op(&e).unwrap()), bits_of(&op(&n).unwrap()));
        // The f32 values both started from: the native kernel's f32 result read as f32.
        let wide = op(&n.astype(DType::F32).unwrap())
            .unwrap()
            .to_vec::<f32>()
            .unwrap();
        for i in 0..all.len() {
            let want = np_float_to_half_bits(wide[i].to_bits());
            if is_nan_half(want) {
                assert!(is_nan_half(ge[i]), "{name}({:#06x})", all[i]);
                continue;
            }
            assert_eq!(
                ge[i], want,
                "{name}({:#06x}): emulated {:#06x}, native {:#06x}",
                all[i], ge[i], gn[i]
            );
        }
    }
}

#[test]
fn stores_through_strided_views_keep_their_neighbours() {
    let Some(dev) = emulated() else { return };
    // Odd offsets, steps of 2 and 3, a reversed view and a transpose: every store shares its
    // word with a half it must not change.
    let n = 1001;
    let base: Vec<f16> = (0..n).map(|i| f16::from_f32(i as f32)).collect();
    let a = Array::from_slice(&dev, &base, &[n]).unwrap();
    let mut want = base.clone();
    let views: [(isize, isize, isize); 3] = [
        (1, n as isize, 2),
        (0, n as isize, 3),
        (n as isize - 2, 0, -5),
    ];
    for (k, &(start, stop, step)) in views.iter().enumerate() {
        let v = a
            .slice(&[SliceArg::range(Some(start), Some(stop), step)])
            .unwrap();
        let fill = -(k as f32) - 0.5;
        v.assign(&Array::full(&dev, v.shape(), f64::from(fill), DType::F16).unwrap())
            .unwrap();
        let mut i = start;
        while (step > 0 && i < stop) || (step < 0 && i > stop) {
            want[i as usize] = f16::from_f32(fill);
            i += step;
        }
    }
    assert_eq!(a.to_vec::<f16>().unwrap(), want);

    // A transposed destination: a (17, 33) array written through its transpose.
    let m = Array::zeros(&dev, &[17, 33], DType::F16).unwrap();
    let src: Vec<f16> = (0..33 * 17)
        .map(|i| f16::from_f32(i as f32 * 0.25))
        .collect();
    m.t()
        .assign(&Array::from_slice(&dev, &src, &[33, 17]).unwrap())
        .unwrap();
    let got = m.to_vec::<f16>().unwrap();
    for r in 0..17 {
        for c in 0..33 {
            assert_eq!(got[r * 33 + c], src[c * 17 + r], "({r}, {c})");
        }
    }
    // where and take move halves as bits.
    let cond =
        Array::from_bools(&dev, &(0..n).map(|i| i % 3 == 0).collect::<Vec<_>>(), &[n]).unwrap();
    let w = gpuarray::where_(
        &cond,
        &a,
        &Array::full(&dev, &[n], 7.0, DType::F16).unwrap(),
    )
    .unwrap();
    let got = w.to_vec::<f16>().unwrap();
    for i in 0..n {
        assert_eq!(
            got[i],
            if i % 3 == 0 {
                want[i]
            } else {
                f16::from_f32(7.0)
            },
            "where [{i}]"
        );
    }
    let idx: Vec<i64> = (0..n as i64).rev().step_by(3).collect();
    let taken = a
        .take(&Array::from_slice(&dev, &idx, &[idx.len()]).unwrap(), None)
        .unwrap();
    assert_eq!(
        taken.to_vec::<f16>().unwrap(),
        idx.iter().map(|&i| want[i as usize]).collect::<Vec<_>>()
    );
    // Constructors: full rounds its value once, linspace and arange in f32 rounded per element.
    let third = Array::full(&dev, &[3], 1.0 / 3.0, DType::F16).unwrap();
    assert_eq!(
        third.to_vec::<f16>().unwrap(),
        vec![f16::from_f64(1.0 / 3.0); 3]
    );
    let r = Array::arange(&dev, 0.0, 100.0, 0.1, DType::F16)
        .unwrap()
        .to_vec::<f16>()
        .unwrap();
    for (i, x) in r.iter().enumerate() {
        assert_eq!(*x, f16::from_f32(i as f32 * 0.1f32), "arange [{i}]");
    }
}

#[test]
fn widened_families_round_their_f32_results() {
    let Some(dev) = emulated() else { return };
    let mut next = xorshift(3);
    let (m, k, n) = (37, 130, 21);
    let xs: Vec<f16> = (0..m * k)
        .map(|_| f16::from_f32((next() % 2001) as f32 / 1000.0 - 1.0))
        .collect();
    let ys: Vec<f16> = (0..k * n)
        .map(|_| f16::from_f32((next() % 2001) as f32 / 1000.0 - 1.0))
        .collect();
    let a = Array::from_slice(&dev, &xs, &[m, k]).unwrap();
    let b = Array::from_slice(&dev, &ys, &[k, n]).unwrap();

    // matmul: the f32 dot product of halves, rounded once (an f32 sum of k terms differs from
    // the exact one by at most k u32 sum|ab|, far below half a half's ulp here or one ulp off).
    let c = a.matmul(&b).unwrap();
    assert_eq!(c.dtype(), DType::F16);
    let got = c.to_vec::<f16>().unwrap();
    for i in 0..m {
        for j in 0..n {
            let exact: f64 = (0..k)
                .map(|l| xs[i * k + l].to_f64() * ys[l * n + j].to_f64())
                .sum();
            let g = got[i * n + j].to_f64();
            let ulp = f16::from_f64(exact).to_f64().abs().max(6.103515625e-05) * 2f64.powi(-10);
            assert!(
                (g - exact).abs() <= ulp,
                "matmul [{i}, {j}] = {g}, exact {exact}"
            );
        }
    }
    // einsum contracts the same way.
    let e = gpuarray::einsum("ik,kj->ij", &[&a, &b]).unwrap();
    assert_eq!(e.to_vec::<f16>().unwrap(), got);

    // Reductions: max/min/argmax exact; sum along rows within one half ulp plus the f32 error.
    let max = a.max(1, false).unwrap().to_vec::<f16>().unwrap();
    let arg = a.argmax(Some(1), false).unwrap().to_vec::<i64>().unwrap();
    let sum = a.sum(1, false).unwrap();
    assert_eq!(sum.dtype(), DType::F16);
    let sum = sum.to_vec::<f16>().unwrap();
    for i in 0..m {
        let row = &xs[i * k..(i + 1) * k];
        let top = row.iter().copied().fold(f16::NEG_INFINITY, f16::max);
        assert_eq!(max[i], top, "max row {i}");
        assert_eq!(
            arg[i] as usize,
            row.iter().position(|&x| x == top).unwrap(),
            "argmax row {i}"
        );
        let exact: f64 = row.iter().map(|x| x.to_f64()).sum();
        let ulp = exact.abs().max(6.103515625e-05) * 2f64.powi(-10);
        assert!(
            (sum[i].to_f64() - exact).abs() <= ulp,
            "sum row {i}: {} vs {exact}",
            sum[i]
        );
    }
    // cumsum: each prefix rounded from its f32 accumulator.
    let cs = a
        .reshape(&[-1])
        .unwrap()
        .slice(&[SliceArg::range(Some(0), Some(500), 1)])
        .unwrap()
        .cumsum(None)
        .unwrap();
    let mut acc = 0.0f64;
    for (i, x) in cs.to_vec::<f16>().unwrap().iter().enumerate() {
        acc += xs[i].to_f64();
        let ulp = acc.abs().max(6.103515625e-05) * 2f64.powi(-10);
        assert!(
            (x.to_f64() - acc).abs() <= ulp,
            "cumsum [{i}] = {x}, exact {acc}"
        );
    }
    // Masks, searchsorted, unique and histograms read the halves' values.
    let flat = a.reshape(&[-1]).unwrap();
    let positive = flat
        .masked(&flat.gt(0.0).unwrap())
        .unwrap()
        .to_vec::<f16>()
        .unwrap();
    assert_eq!(
        positive,
        xs.iter()
            .copied()
            .filter(|x| x.to_f32() > 0.0)
            .collect::<Vec<_>>()
    );
    let uniq = flat.unique().unwrap().to_vec::<f16>().unwrap();
    let mut want: Vec<f16> = xs.clone();
    want.sort_by(|p, q| p.partial_cmp(q).unwrap());
    want.dedup();
    assert_eq!(uniq, want, "unique");
    let probes: Vec<f16> = [-1.0f32, -0.5, 0.0, 0.25, 0.999, 2.0]
        .iter()
        .map(|&x| f16::from_f32(x))
        .collect();
    let at = Array::from_slice(&dev, &want, &[want.len()])
        .unwrap()
        .searchsorted(
            &Array::from_slice(&dev, &probes, &[probes.len()]).unwrap(),
            gpuarray::Side::Left,
        )
        .unwrap()
        .to_vec::<i64>()
        .unwrap();
    for (p, &i) in probes.iter().zip(&at) {
        assert_eq!(
            i as usize,
            want.iter().filter(|&&w| w < *p).count(),
            "searchsorted {p}"
        );
    }
    // Sorting: the halves' order, exactly.
    let sorted = a.sort(Some(-1)).unwrap().to_vec::<f16>().unwrap();
    for i in 0..m {
        let mut row = xs[i * k..(i + 1) * k].to_vec();
        row.sort_by(|p, q| p.partial_cmp(q).unwrap());
        assert_eq!(&sorted[i * k..(i + 1) * k], &row[..], "sort row {i}");
    }
}

#[test]
fn random_halves_are_the_f32_draws_rounded() {
    let Some(dev) = emulated() else { return };
    let n = 10_001;
    // Normals: the f32 draw rounded once; uniforms: the native path's (f16-rounded uniforms).
    let mut g16 = gpuarray::random::Generator::new(&dev, 42);
    let mut g32 = gpuarray::random::Generator::new(&dev, 42);
    let h = g16
        .standard_normal(&[n], DType::F16)
        .unwrap()
        .to_vec::<f16>()
        .unwrap();
    let w = g32
        .standard_normal(&[n], DType::F32)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    for i in 0..n {
        assert_eq!(
            h[i].to_bits(),
            np_float_to_half_bits(w[i].to_bits()),
            "normal [{i}]"
        );
    }
    if let Some(nat) = native() {
        let e = gpuarray::random::Generator::new(&dev, 7)
            .random(&[n], DType::F16)
            .unwrap();
        let r = gpuarray::random::Generator::new(&nat, 7)
            .random(&[n], DType::F16)
            .unwrap();
        assert_eq!(bits_of(&e), bits_of(&r), "random: emulated vs native f16");
    }
}

#[test]
fn arrays_past_the_binding_limit() {
    // 1 MiB bindings: 3 * 2^20 + 1 halves span six windows and end mid-word.
    let Some(dev) = common::device_with_f16(F16Mode::Emulated, Some(1 << 20)) else {
        return;
    };
    let n = 3 * (1 << 20) + 1;
    let xs: Vec<f16> = (0..n).map(|i| f16::from_f32((i % 2048) as f32)).collect();
    let a = Array::from_slice(&dev, &xs, &[n]).unwrap();
    let b = a.add(1.0).unwrap().to_vec::<f16>().unwrap();
    for i in (0..n).step_by(997).chain([n - 1, n - 2]) {
        assert_eq!(b[i], f16::from_f32((i % 2048) as f32 + 1.0), "[{i}]");
    }
    let total = a
        .astype(DType::F32)
        .unwrap()
        .sum(0, false)
        .unwrap()
        .to_vec::<f32>()
        .unwrap()[0];
    let want: f64 = xs.iter().map(|x| x.to_f64()).sum();
    assert_eq!(f64::from(total), want);
    assert_eq!(
        a.max(0, false).unwrap().to_vec::<f16>().unwrap(),
        vec![f16::from_f32(2047.0)]
    );
}
