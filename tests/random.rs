//! Random generation on the real adapter, checked against the independent CPU model in
//! `common/philox.rs`: bit-exact for words, uniforms, integers and Bernoulli trials; within a
//! few ulp for normals and exponentials.

mod common;

use common::philox as cpu;
use gpuarray::random::{Generator, philox_blocks};
use gpuarray::{DType, Error};

#[test]
fn random123_known_answers_through_the_kernel() {
    let Some(dev) = common::device() else { return };
    let kats: [([u32; 4], [u32; 2], [u32; 4]); 3] = [
        (
            [0; 4],
            [0; 2],
            [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8],
        ),
        (
            [!0; 4],
            [!0; 2],
            [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd],
        ),
        (
            [0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344],
            [0xa4093822, 0x299f31d0],
            [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1],
        ),
    ];
    for (ctr, key, want) in kats {
        assert_eq!(cpu::philox(ctr, key), want, "CPU model");
        let got = philox_blocks(&dev, ctr, key, 1)
            .unwrap()
            .to_vec::<u32>()
            .unwrap();
        assert_eq!(got, want, "GPU kernel, counter {ctr:08x?} key {key:08x?}");
    }
    // Counter all-ones wraps to zero in the next block.
    let two = philox_blocks(&dev, [!0; 4], [!0; 2], 2)
        .unwrap()
        .to_vec::<u32>()
        .unwrap();
    assert_eq!(&two[4..], &cpu::philox([0; 4], [!0; 2]));
    let mut g = Generator::new(&dev, 0);
    assert_eq!(g.bits(&[4]).unwrap().to_vec::<u32>().unwrap(), kats[0].2);
    common::check_clean(&dev, 0);
}

/// Seeds, subsequences and offsets that exercise every counter word: offsets that are not
/// multiples of 4, and offsets beyond 2^32 blocks (the counter's second word).
const STREAMS: [(u64, u64, u64); 9] = [
    (0, 0, 0),
    (42, 0, 1),
    (42, 0, 3),
    (42, 7, 5),
    (0xdead_beef_cafe_babe, 1 << 40, 2),
    (u64::MAX, u64::MAX, 0),
    (1, 2, (1 << 34) + 1),    // block 2^32 (counter word 1 = 1)
    (9, 3, (7 << 36) + 4099), // ~2^37 blocks in
    (5, 0, u64::MAX - 40),    // the last offsets before the 2^64-word limit
];

#[test]
fn bits_match_the_cpu_model_for_streams_and_offsets() {
    let Some(dev) = common::device() else { return };
    for &(seed, sub, off) in &STREAMS {
        for n in [1usize, 3, 16, 17, 37] {
            let mut g = Generator::with_stream(&dev, seed, sub, off);
            let got = g.bits(&[n]).unwrap().to_vec::<u32>().unwrap();
            assert_eq!(
                got,
                cpu::stream(seed, sub, off, n),
                "seed {seed} sub {sub} offset {off} n {n}"
            );
            assert_eq!(g.offset(), off + n as u64);
        }
    }
    // A longer draw spanning many units and a misaligned start.
    let mut g = Generator::with_stream(&dev, 3, 1, 7);
    let got = g.bits(&[100_003]).unwrap().to_vec::<u32>().unwrap();
    assert_eq!(got, cpu::stream(3, 1, 7, 100_003));
    common::check_clean(&dev, 0);
}

#[test]
fn offsets_past_the_u64_range_are_errors() {
    let Some(dev) = common::device() else { return };
    let mut g = Generator::with_stream(&dev, 5, 0, u64::MAX - 40);
    assert_err!(g.bits(&[41]), Error::Overflow { op: "bits", .. }, "bits");
    assert_eq!(g.offset(), u64::MAX - 40, "a failed draw consumes nothing");
    assert_eq!(g.bits(&[40]).unwrap().len(), 40);
    assert_err!(
        g.random(&[1], DType::F32),
        Error::Overflow { op: "random", .. },
        "random"
    );
    common::check_clean(&dev, 0);
}

#[test]
fn uniforms_are_bit_exact() {
    let Some(dev) = common::device() else { return };
    let n = 200_003;
    for &(seed, sub, off) in &STREAMS[..8] {
        let words = cpu::stream(seed, sub, off, 2 * n);
        let mut g = Generator::with_stream(&dev, seed, sub, off);
        let u = g.random(&[n], DType::F32).unwrap().to_vec::<f32>().unwrap();
        for (i, (&x, &w)) in u.iter().zip(&words).enumerate() {
            assert_eq!(
                x.to_bits(),
                cpu::random_f32(w).to_bits(),
                "f32 element {i}, word {w:#x}"
            );
        }
        if common::supports(&dev, DType::F16, "uniforms_are_bit_exact") {
            let mut g = Generator::with_stream(&dev, seed, sub, off);
            let h = g
                .random(&[n], DType::F16)
                .unwrap()
                .to_vec::<gpuarray::f16>()
                .unwrap();
            for (i, (&x, &w)) in h.iter().zip(&words).enumerate() {
                assert_eq!(
                    x.to_bits(),
                    cpu::random_f16(w).to_bits(),
                    "f16 element {i}, word {w:#x}"
                );
            }
        }
        if common::supports(&dev, DType::F64, "uniforms_are_bit_exact") {
            let mut g = Generator::with_stream(&dev, seed, sub, off);
            let d = g.random(&[n], DType::F64).unwrap().to_vec::<f64>().unwrap();
            assert_eq!(g.offset(), off + 2 * n as u64);
            for (i, &x) in d.iter().enumerate() {
                let want = cpu::random_f64(words[2 * i], words[2 * i + 1]);
                assert_eq!(x.to_bits(), want.to_bits(), "f64 element {i}");
            }
        }
    }
    common::check_clean(&dev, 0);
}

/// The largest |got - want| / max(1, |want|).
fn max_rel_err(got: impl Iterator<Item = (f64, f64)>) -> f64 {
    got.map(|(g, w)| (g - w).abs() / w.abs().max(1.0))
        .fold(0.0, f64::max)
}

#[test]
fn normals_follow_curand_box_muller_pairing() {
    let Some(dev) = common::device() else { return };
    let n = 100_001; // odd: the last pair's cosine is dropped, its words still consumed
    for &(seed, sub, off) in &[
        (42u64, 0u64, 0u64),
        (7, 3, 1),
        (7, 3, 2),
        (1, 9, (1 << 34) + 3),
    ] {
        let words = cpu::stream(seed, sub, off, 2 * n + 2);
        let mut g = Generator::with_stream(&dev, seed, sub, off);
        let x = g
            .standard_normal(&[n], DType::F32)
            .unwrap()
            .to_vec::<f32>()
            .unwrap();
        assert_eq!(g.offset(), off + n as u64 + 1);
        let want = |i: usize| {
            let (s, c) = cpu::box_muller_f32(words[i & !1], words[i | 1]);
            if i.is_multiple_of(2) { s } else { c }
        };
        let err = max_rel_err(x.iter().enumerate().map(|(i, &v)| (v as f64, want(i))));
        assert!(
            err < 1e-6,
            "f32 normals off by {err:e} (stream {seed}/{sub}/{off})"
        );

        let mut g = Generator::with_stream(&dev, seed, sub, off);
        let y = g
            .normal(3.0, 0.5, &[n], DType::F32)
            .unwrap()
            .to_vec::<f32>()
            .unwrap();
        let err = max_rel_err(
            y.iter()
                .enumerate()
                .map(|(i, &v)| (v as f64, 3.0 + 0.5 * want(i))),
        );
        assert!(err < 1e-6, "normal(3, 0.5) off by {err:e}");

        if common::supports(&dev, DType::F16, "normals_follow_curand_box_muller_pairing") {
            let mut g = Generator::with_stream(&dev, seed, sub, off);
            let h = g
                .standard_normal(&[n], DType::F16)
                .unwrap()
                .to_vec::<gpuarray::f16>()
                .unwrap();
            for (i, v) in h.iter().enumerate() {
                let (got, w) = (v.to_f64(), want(i));
                // One f16 ulp (the f32 -> f16 conversion may round either way) plus the f32 error.
                let ulp = (w.abs().max(6.1e-5)).log2().floor().exp2() / 1024.0;
                assert!(
                    (got - w).abs() <= ulp + 1e-5,
                    "f16 normal {i}: {got} vs {w}"
                );
            }
        }
        if common::supports(&dev, DType::F64, "normals_follow_curand_box_muller_pairing") {
            let words = cpu::stream(seed, sub, off, 2 * n + 4);
            let mut g = Generator::with_stream(&dev, seed, sub, off);
            let d = g
                .standard_normal(&[n], DType::F64)
                .unwrap()
                .to_vec::<f64>()
                .unwrap();
            assert_eq!(g.offset(), off + 2 * (n as u64 + 1), "4 words per pair");
            let err = max_rel_err(d.iter().enumerate().map(|(i, &v)| {
                let q = 4 * (i / 2);
                let (s, c) =
                    cpu::box_muller_f64(words[q], words[q + 1], words[q + 2], words[q + 3]);
                (v, if i.is_multiple_of(2) { s } else { c })
            }));
            assert!(err < 1e-14, "f64 normals off by {err:e}");
        }
    }
    common::check_clean(&dev, 0);
}

#[test]
fn exponential_and_bernoulli_match_the_cpu_model() {
    let Some(dev) = common::device() else { return };
    let n = 50_000;
    let words = cpu::stream(11, 2, 3, 2 * n);
    let mut g = Generator::with_stream(&dev, 11, 2, 3);
    let e = g
        .exponential(2.5, &[n], DType::F32)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    let err = max_rel_err(
        e.iter()
            .zip(&words)
            .map(|(&v, &w)| (v as f64, -2.5 * (cpu::curand_uniform(w) as f64).ln())),
    );
    assert!(err < 1e-6, "exponential f32 off by {err:e}");
    assert!(e.iter().all(|&v| v >= 0.0 && v.is_finite()));
    if common::supports(
        &dev,
        DType::F64,
        "exponential_and_bernoulli_match_the_cpu_model",
    ) {
        let mut g = Generator::with_stream(&dev, 11, 2, 3);
        let d = g
            .exponential(2.5, &[n], DType::F64)
            .unwrap()
            .to_vec::<f64>()
            .unwrap();
        let err = max_rel_err(d.iter().enumerate().map(|(i, &v)| {
            (
                v,
                -2.5 * cpu::curand_uniform_double(words[2 * i], words[2 * i + 1]).ln(),
            )
        }));
        assert!(err < 1e-14, "exponential f64 off by {err:e}");
    }
    for p in [0.0, 0.3, 0.5, 1.0, 1e-9] {
        let t = (p * 4294967296.0f64).round() as u64;
        for dtype in [DType::I32, DType::F32, DType::U32] {
            let mut g = Generator::with_stream(&dev, 11, 2, 3);
            let b = common::read(&g.bernoulli(p, &[n], dtype).unwrap());
            let want: Vec<f64> = words[..n]
                .iter()
                .map(|&w| ((w as u64) < t) as u8 as f64)
                .collect();
            assert_eq!(b, want, "bernoulli({p}) as {dtype}");
            assert_eq!(g.offset(), 3 + n as u64);
        }
    }
    common::check_clean(&dev, 0);
}

#[test]
fn integers_are_lemire_with_rejection_in_stream_order() {
    let Some(dev) = common::device() else { return };
    let cases: [(i64, i64, DType, usize); 8] = [
        (0, 6, DType::I32, 10_000),
        (-3, 4, DType::I32, 1_000),
        (i32::MIN as i64, i32::MAX as i64 + 1, DType::I32, 1_000), // 2^32: every word
        (0, 1 << 32, DType::U32, 777),
        (0, 1 << 20, DType::U32, 5_000), // power of two: one pass
        (10, (1 << 31) + 11, DType::U32, 100_000), // rejects ~half the words
        (0, 3_000_000_019, DType::U32, 20_000), // rejects ~30 %
        (i32::MIN as i64, i32::MIN as i64 + 1, DType::I32, 33), // a single value
    ];
    for (k, &(lo, hi, dtype, n)) in cases.iter().enumerate() {
        for off in [0u64, 1, 6] {
            let words = cpu::stream(k as u64, 1, off, 3 * n + 1024);
            let (want, used) = cpu::integers(&words, lo, (hi - lo) as u64, n);
            let mut g = Generator::with_stream(&dev, k as u64, 1, off);
            let a = g.integers(lo, hi, &[n], dtype).unwrap();
            let got: Vec<i64> = match dtype {
                DType::I32 => a
                    .to_vec::<i32>()
                    .unwrap()
                    .into_iter()
                    .map(i64::from)
                    .collect(),
                _ => a
                    .to_vec::<u32>()
                    .unwrap()
                    .into_iter()
                    .map(i64::from)
                    .collect(),
            };
            assert_eq!(got, want, "integers({lo}, {hi}) as {dtype}, offset {off}");
            assert_eq!(
                g.offset(),
                off + used as u64,
                "words consumed by integers({lo}, {hi})"
            );
        }
    }
    common::check_clean(&dev, 0);
}

#[test]
fn one_draw_equals_many_smaller_draws() {
    let Some(dev) = common::device() else { return };
    let n = 40_000;
    let splits = [1usize, 2, 13, 1000, 7, 16, 4097];
    let rest = n - splits.iter().sum::<usize>();
    let pieces: Vec<usize> = splits.iter().copied().chain([rest]).collect();
    let mut dtypes = vec![DType::F32];
    for d in [DType::F16, DType::F64] {
        if common::supports(&dev, d, "one_draw_equals_many_smaller_draws") {
            dtypes.push(d);
        }
    }
    // One-word-per-value draws split anywhere.
    let whole = Generator::new(&dev, 77)
        .bits(&[n])
        .unwrap()
        .to_vec::<u32>()
        .unwrap();
    let mut g = Generator::new(&dev, 77);
    let parts: Vec<u32> = pieces
        .iter()
        .flat_map(|&m| g.bits(&[m]).unwrap().to_vec::<u32>().unwrap())
        .collect();
    assert_eq!(parts, whole);
    for &dtype in &dtypes {
        let whole = common::read(&Generator::new(&dev, 5).random(&[n], dtype).unwrap());
        let mut g = Generator::new(&dev, 5);
        let mut parts = Vec::new();
        for &m in &pieces {
            parts.extend(common::read(&g.random(&[m], dtype).unwrap()));
        }
        assert_eq!(parts, whole, "random {dtype}");
    }
    let whole = Generator::new(&dev, 9)
        .integers(0, 1000, &[n], DType::I32)
        .unwrap()
        .to_vec::<i32>()
        .unwrap();
    let mut g = Generator::new(&dev, 9);
    let parts: Vec<i32> = pieces
        .iter()
        .flat_map(|&m| {
            g.integers(0, 1000, &[m], DType::I32)
                .unwrap()
                .to_vec::<i32>()
                .unwrap()
        })
        .collect();
    assert_eq!(parts, whole, "integers");
    // Box–Muller pairs stay whole: normals split at even counts are the same numbers, bit for bit.
    for &dtype in &dtypes {
        let whole = common::read(
            &Generator::new(&dev, 3)
                .standard_normal(&[n], dtype)
                .unwrap(),
        );
        let mut g = Generator::new(&dev, 3);
        let mut parts = Vec::new();
        for m in [2usize, 30, 1000, 4096, n - 5128] {
            parts.extend(common::read(&g.standard_normal(&[m], dtype).unwrap()));
        }
        assert_eq!(parts, whole, "standard_normal {dtype}");
    }
    common::check_clean(&dev, 0);
}

#[test]
fn draws_spanning_two_bindings_match_the_cpu_model() {
    let Some(dev) = common::device() else { return };
    // Just over one 128 MiB binding on lavapipe: a long launch (on a CPU adapter, the pipeline
    // with 64 units per invocation), a one-unit launch and a scratch tail; from a block start and
    // from inside a block (the PHASED pipelines).
    let max = dev.limits().max_storage_buffer_binding_size as usize / 4;
    let n = max + 21;
    for offset in [0, 6] {
        let mut g = Generator::with_stream(&dev, 123, 4, offset);
        let got = g.bits(&[n]).unwrap().to_vec::<u32>().unwrap();
        let want = cpu::stream(123, 4, offset, n);
        assert!(
            got == want,
            "offset {offset}: first mismatch at {:?}",
            got.iter().zip(&want).position(|(a, b)| a != b)
        );
        let mut g = Generator::with_stream(&dev, 123, 4, offset);
        let u = g.random(&[n], DType::F32).unwrap().to_vec::<f32>().unwrap();
        assert!(
            u.iter()
                .zip(&want)
                .all(|(&x, &w)| x.to_bits() == cpu::random_f32(w).to_bits())
        );
    }
    common::check_clean(&dev, 0);
}

#[test]
fn a_word_that_rounds_to_one_gives_zero() {
    let Some(dev) = common::device() else { return };
    // Search the CPU model for the first word >= 0xFFFFFF80 (curand_uniform = 1.0) in stream 0.
    let key = [0u32, 0];
    let mut at = None;
    for b in 0u64.. {
        let w = cpu::philox([b as u32, (b >> 32) as u32, 0, 0], key);
        if let Some(i) = w.iter().position(|&x| x >= 0xFFFF_FF80) {
            at = Some(4 * b + i as u64);
            break;
        }
    }
    let at = at.unwrap();
    assert_eq!(cpu::curand_uniform(cpu::stream(0, 0, at, 1)[0]), 1.0);
    let mut g = Generator::with_stream(&dev, 0, 0, at - 2);
    let u = g.random(&[4], DType::F32).unwrap().to_vec::<f32>().unwrap();
    assert_eq!(u[2], 0.0, "1.0 maps to 0.0");
    assert!(u.iter().all(|&x| (0.0..1.0).contains(&x)));
    let mut g = Generator::with_stream(&dev, 0, 0, at);
    let e = g
        .exponential(1.0, &[1], DType::F32)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    assert_eq!(e, [0.0], "u = 1 gives an exponential of +0");
    let mut g = Generator::with_stream(&dev, 0, 0, at);
    let z = g
        .standard_normal(&[2], DType::F32)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    assert!(z.iter().all(|v| *v == 0.0), "u = 1 gives radius 0: {z:?}");
    common::check_clean(&dev, 0);
}

#[test]
fn vulkan_and_gl_give_the_same_numbers() {
    let Some(vk) = common::device() else { return };
    let gl = match gpuarray::Device::with_options(gpuarray::DeviceOptions {
        backend: Some(gpuarray::Backend::Gl),
        ..Default::default()
    }) {
        Ok(d) => d,
        Err(e) => {
            common::skip(
                "vulkan_and_gl_give_the_same_numbers",
                &format!("no GL adapter: {e}"),
            );
            return;
        }
    };
    if vk.info().backend == gl.info().backend {
        // Under GPUARRAY_BACKEND=gl the test device is a GL one too.
        println!(
            "vulkan_and_gl_give_the_same_numbers compares {} with itself ({}), not two backends",
            vk.info().backend,
            vk.info()
        );
    }
    let n = 10_007;
    let draw = |dev: &gpuarray::Device| {
        let mut g = Generator::with_stream(dev, 2024, 5, 3);
        let bits = g.bits(&[n]).unwrap().to_vec::<u32>().unwrap();
        let u = g.random(&[n], DType::F32).unwrap().to_vec::<f32>().unwrap();
        let k = g
            .integers(-50, 50, &[n], DType::I32)
            .unwrap()
            .to_vec::<i32>()
            .unwrap();
        let b = g
            .bernoulli(0.25, &[n], DType::U32)
            .unwrap()
            .to_vec::<u32>()
            .unwrap();
        let z = g
            .standard_normal(&[n], DType::F32)
            .unwrap()
            .to_vec::<f32>()
            .unwrap();
        (bits, u, k, b, z, g.offset())
    };
    let (a, b) = (draw(&vk), draw(&gl));
    assert_eq!(a.0, b.0, "bits");
    assert!(
        a.1.iter()
            .zip(&b.1)
            .all(|(x, y)| x.to_bits() == y.to_bits()),
        "random"
    );
    assert_eq!(a.2, b.2, "integers");
    assert_eq!(a.3, b.3, "bernoulli");
    assert_eq!(a.5, b.5, "offsets");
    // Normals are only promised to a few ulp across adapters.
    let err = max_rel_err(a.4.iter().zip(&b.4).map(|(&x, &y)| (x as f64, y as f64)));
    assert!(
        err < 1e-6,
        "normals differ by {err:e} between {} and {}",
        vk.info(),
        gl.info()
    );
    common::check_clean(&vk, 0);
    common::check_clean(&gl, 0);
}

#[test]
fn clones_replay_and_spawned_streams_are_independent() {
    let Some(dev) = common::device() else { return };
    let mut g = Generator::new(&dev, 99);
    g.advance(5).unwrap();
    let mut c = g.clone();
    assert_eq!(
        g.bits(&[100]).unwrap().to_vec::<u32>().unwrap(),
        c.bits(&[100]).unwrap().to_vec::<u32>().unwrap()
    );
    let kids = g.spawn(3).unwrap();
    let again = c.spawn(3).unwrap();
    let subs: Vec<u64> = kids.iter().map(|k| k.subsequence()).collect();
    assert_eq!(
        subs,
        again.iter().map(|k| k.subsequence()).collect::<Vec<_>>(),
        "clones spawn alike"
    );
    let mut all = subs.clone();
    all.push(g.subsequence());
    all.push(g.split().subsequence());
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), 5, "distinct subsequences: {subs:?}");
    let n = 1 << 16;
    for k in &kids {
        assert_eq!((k.seed(), k.offset()), (99, 0));
        let mut k = k.clone();
        let got = k.bits(&[64]).unwrap().to_vec::<u32>().unwrap();
        assert_eq!(
            got,
            cpu::stream(99, k.subsequence(), 0, 64),
            "a child is with_stream(seed, its subsequence, 0)"
        );
    }
    // Neighbouring subsequences are uncorrelated: |corr| of their uniforms ~ 1/sqrt(n).
    let u = |s: u64| {
        let mut g = Generator::with_stream(&dev, 99, s, 0);
        common::read(&g.random(&[n], DType::F32).unwrap())
    };
    let (a, b) = (u(0), u(1));
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let (ma, mb) = (mean(&a), mean(&b));
    let cov: f64 = a
        .iter()
        .zip(&b)
        .map(|(x, y)| (x - ma) * (y - mb))
        .sum::<f64>()
        / n as f64;
    let corr = cov / (1.0 / 12.0);
    assert!(corr.abs() < 5.0 / (n as f64).sqrt(), "corr {corr}");
    common::check_clean(&dev, 0);
}

#[test]
fn bad_arguments_are_errors_and_empty_shapes_draw_nothing() {
    let Some(dev) = common::device() else { return };
    let mut g = Generator::new(&dev, 1);
    assert!(matches!(
        g.random(&[4], DType::I32),
        Err(gpuarray::Error::InvalidArgument { .. })
    ));
    assert_err!(
        g.standard_normal(&[4], DType::U32),
        Error::InvalidArgument {
            op: "standard_normal",
            ..
        },
        "standard_normal"
    );
    assert_err!(
        g.uniform(1.0, 0.0, &[4], DType::F32),
        Error::InvalidArgument { op: "uniform", .. },
        "uniform"
    );
    assert_err!(
        g.uniform(f64::NAN, 1.0, &[4], DType::F32),
        Error::InvalidArgument { op: "uniform", .. },
        "uniform"
    );
    assert_err!(
        g.uniform(-f64::MAX, f64::MAX, &[4], DType::F32),
        Error::InvalidArgument { op: "uniform", .. },
        "uniform"
    );
    assert_err!(
        g.normal(0.0, -1.0, &[4], DType::F32),
        Error::InvalidArgument { op: "normal", .. },
        "normal"
    );
    assert_err!(
        g.normal(f64::INFINITY, 1.0, &[4], DType::F32),
        Error::InvalidArgument { op: "normal", .. },
        "normal"
    );
    assert_err!(
        g.exponential(-1.0, &[4], DType::F32),
        Error::InvalidArgument {
            op: "exponential",
            ..
        },
        "exponential"
    );
    assert_err!(
        g.bernoulli(1.5, &[4], DType::F32),
        Error::InvalidArgument {
            op: "bernoulli",
            ..
        },
        "bernoulli"
    );
    assert_err!(
        g.bernoulli(f64::NAN, &[4], DType::F32),
        Error::InvalidArgument {
            op: "bernoulli",
            ..
        },
        "bernoulli"
    );
    assert_err!(
        g.integers(5, 5, &[4], DType::I32),
        Error::InvalidArgument { op: "integers", .. },
        "integers"
    );
    assert_err!(
        g.integers(0, (1 << 31) + 1, &[4], DType::I32),
        Error::InvalidArgument { op: "integers", .. },
        "integers"
    );
    assert_err!(
        g.integers(-1, 3, &[4], DType::U32),
        Error::InvalidArgument { op: "integers", .. },
        "integers"
    );
    assert_err!(
        g.integers(0, 3, &[4], DType::F32),
        Error::InvalidArgument { op: "integers", .. },
        "integers"
    );
    assert_err!(
        g.bits(&[usize::MAX, 2]),
        Error::Overflow { op: "bits", .. },
        "bits"
    );
    assert_eq!(g.offset(), 0, "failed draws consume nothing");
    for shape in [&[0usize][..], &[3, 0], &[0, 5, 2]] {
        assert_eq!(g.random(shape, DType::F32).unwrap().shape(), shape);
        assert_eq!(g.standard_normal(shape, DType::F32).unwrap().len(), 0);
        assert_eq!(g.integers(0, 7, shape, DType::I32).unwrap().len(), 0);
        assert_eq!(
            g.bits(shape).unwrap().to_vec::<u32>().unwrap(),
            Vec::<u32>::new()
        );
    }
    assert_eq!(g.offset(), 0, "empty draws consume nothing");
    // Shapes are kept; a scalar shape is one value.
    assert_eq!(
        g.random(&[2, 3, 4], DType::F32).unwrap().shape(),
        &[2, 3, 4]
    );
    assert_eq!(g.random(&[], DType::F32).unwrap().len(), 1);
    assert_eq!(g.offset(), 25);
    // A dtype the device lacks is Unsupported, before any GPU work.
    let no64 = gpuarray::Device::with_config(gpuarray::DeviceConfig {
        disabled_dtypes: vec![DType::F64, DType::F16],
        ..gpuarray::DeviceConfig::from_env().unwrap()
    })
    .unwrap();
    let mut h = Generator::new(&no64, 1);
    assert!(matches!(
        h.random(&[4], DType::F64),
        Err(gpuarray::Error::Unsupported { .. })
    ));
    assert!(matches!(
        h.standard_normal(&[4], DType::F16),
        Err(gpuarray::Error::Unsupported { .. })
    ));
    assert_eq!(h.offset(), 0);
    assert_eq!(no64.take_uncaptured_errors(), Vec::<String>::new());
    common::check_clean(&dev, 0);
}

/// Kolmogorov–Smirnov statistic sqrt(n) * D of `x` against the CDF `cdf`.
fn ks(mut x: Vec<f64>, cdf: impl Fn(f64) -> f64) -> f64 {
    x.sort_unstable_by(f64::total_cmp);
    let n = x.len() as f64;
    let d = x.iter().enumerate().fold(0.0f64, |d, (i, &v)| {
        let f = cdf(v);
        d.max(f - i as f64 / n).max((i + 1) as f64 / n - f)
    });
    d * n.sqrt()
}

/// The standard normal CDF from erfc (W. J. Cody's rational approximations are overkill here;
/// this is Numerical Recipes' erfc, fractional error < 1.2e-7).
fn phi(x: f64) -> f64 {
    // Horner's rule over the coefficients after the constant term, innermost first: the same
    // operations as the nested form (which took rustfmt 20 s to lay out).
    const TAIL: [f64; 9] = [
        1.00002368,
        0.37409196,
        0.09678418,
        -0.18628806,
        0.27886807,
        -1.13520398,
        1.48851587,
        -0.82215223,
        0.17087277,
    ];
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.5 * z);
    let tail = TAIL[..8]
        .iter()
        .rev()
        .fold(TAIL[8], |inner, &c| c + t * inner);
    let r = t * (-z * z - 1.26551223 + t * tail).exp();
    if x >= 0.0 { 1.0 - 0.5 * r } else { 0.5 * r }
}

/// Mean, variance, skewness and excess kurtosis.
fn moments(x: &[f64]) -> (f64, f64, f64, f64) {
    let n = x.len() as f64;
    let m = x.iter().sum::<f64>() / n;
    let (mut m2, mut m3, mut m4) = (0.0, 0.0, 0.0);
    for &v in x {
        let d = v - m;
        m2 += d * d;
        m3 += d * d * d;
        m4 += d * d * d * d;
    }
    let (m2, m3, m4) = (m2 / n, m3 / n, m4 / n);
    (m, m2, m3 / m2.powf(1.5), m4 / (m2 * m2) - 3.0)
}

/// Pearson's chi-square of `counts` against equal expected counts.
fn chi2(counts: &[u64]) -> f64 {
    let n: u64 = counts.iter().sum();
    let e = n as f64 / counts.len() as f64;
    counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum()
}

// Statistics at fixed seeds: deterministic, so a pass is a pass forever. Thresholds sit at
// p ~ 1e-6 for a correct generator (KS: sqrt(n) D < 2.9; chi-square quantiles below).
const N: usize = 10_000_000;

#[test]
fn uniform_and_normal_statistics() {
    let Some(dev) = common::device() else { return };
    let mut g = Generator::new(&dev, 20240601);
    let u = common::read(&g.random(&[N], DType::F32).unwrap());
    let (m, v, s, _) = moments(&u);
    let se = (1.0 / 12.0 / N as f64).sqrt();
    assert!((m - 0.5).abs() < 6.0 * se, "uniform mean {m}");
    assert!(
        (v - 1.0 / 12.0).abs() < 6.0 * (1.0 / 180.0 / N as f64).sqrt(),
        "uniform variance {v}"
    );
    assert!(
        s.abs() < 6.0 * (1.2 / N as f64).sqrt(),
        "uniform skewness {s}"
    );
    let k = ks(u, |x| x.clamp(0.0, 1.0));
    assert!(k < 2.9, "uniform KS {k}");

    let z = common::read(&g.standard_normal(&[N], DType::F32).unwrap());
    let (m, v, s, ku) = moments(&z);
    let n = N as f64;
    assert!(m.abs() < 6.0 / n.sqrt(), "normal mean {m}");
    assert!(
        (v - 1.0).abs() < 6.0 * (2.0 / n).sqrt(),
        "normal variance {v}"
    );
    assert!(s.abs() < 6.0 * (6.0 / n).sqrt(), "normal skewness {s}");
    assert!(
        ku.abs() < 6.0 * (24.0 / n).sqrt(),
        "normal excess kurtosis {ku}"
    );
    let k = ks(z, phi);
    assert!(k < 2.9, "normal KS {k}");

    if common::supports(&dev, DType::F64, "uniform_and_normal_statistics") {
        let z = g
            .standard_normal(&[N / 4], DType::F64)
            .unwrap()
            .to_vec::<f64>()
            .unwrap();
        let k = ks(z, phi);
        assert!(k < 2.9, "f64 normal KS {k}");
    }
    common::check_clean(&dev, 0);
}

#[test]
fn integer_statistics_and_no_modulo_bias() {
    let Some(dev) = common::device() else { return };
    let mut g = Generator::new(&dev, 7);
    // Ten values: chi-square with 9 degrees of freedom, P(> 45) ~ 1e-6.
    let k = g
        .integers(0, 10, &[N], DType::I32)
        .unwrap()
        .to_vec::<i32>()
        .unwrap();
    let mut counts = [0u64; 10];
    k.iter().for_each(|&v| counts[v as usize] += 1);
    assert!(
        chi2(&counts) < 45.0,
        "integers(0, 10): chi2 {} {counts:?}",
        chi2(&counts)
    );

    // A range just above 2^31: `x % range` would give the values below 2^31 - 1 twice the
    // probability of the others (2/3 of the mass in the lower half); Lemire with rejection
    // gives exactly 1/2 each.
    let range = (1u64 << 31) + 1;
    let k = g
        .integers(0, range as i64, &[N], DType::U32)
        .unwrap()
        .to_vec::<u32>()
        .unwrap();
    let low = k.iter().filter(|&&v| (v as u64) < range / 2).count() as u64;
    let halves = [low, N as u64 - low];
    assert!(
        chi2(&halves) < 24.0,
        "integers(0, 2^31 + 1) halves {halves:?}"
    );
    // A range of 3 * 2^30 (not a power of two), in thirds: a modulo draw would put 1/2 of the
    // mass in the first third.
    let range = 3u64 << 30;
    let k = g
        .integers(0, range as i64, &[N], DType::U32)
        .unwrap()
        .to_vec::<u32>()
        .unwrap();
    let mut thirds = [0u64; 3];
    k.iter().for_each(|&v| thirds[(v >> 30) as usize] += 1);
    assert!(
        chi2(&thirds) < 28.0,
        "integers(0, 3 * 2^30) thirds {thirds:?}"
    );
    // Bits: each of the 32 bit positions is set half the time; byte values are uniform.
    let w = g.bits(&[N]).unwrap().to_vec::<u32>().unwrap();
    for b in 0..32 {
        let ones = w.iter().filter(|&&x| x >> b & 1 == 1).count() as u64;
        assert!(
            chi2(&[ones, N as u64 - ones]) < 24.0,
            "bit {b}: {ones} ones"
        );
    }
    let mut bytes = [0u64; 256];
    w.iter().for_each(|&x| bytes[(x >> 24) as usize] += 1);
    assert!(chi2(&bytes) < 370.0, "top byte chi2 {}", chi2(&bytes));
    common::check_clean(&dev, 0);
}

#[test]
fn two_pow_28_normals_in_one_draw() {
    let Some(dev) = common::device() else { return };
    // 1 GiB of f32: eight 128 MiB bindings on lavapipe. The same numbers as four draws of 2^26,
    // bit for bit, and as the CPU model (to 1e-6) around every binding boundary.
    let n = 1usize << 28;
    let mut g = Generator::with_stream(&dev, 31337, 2, 6);
    let big = g
        .standard_normal(&[n], DType::F32)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    assert_eq!(g.offset(), 6 + n as u64);
    let mut g = Generator::with_stream(&dev, 31337, 2, 6);
    for part in big.chunks(1 << 26) {
        let small = g
            .standard_normal(&[part.len()], DType::F32)
            .unwrap()
            .to_vec::<f32>()
            .unwrap();
        assert!(
            small
                .iter()
                .zip(part)
                .all(|(a, b)| a.to_bits() == b.to_bits()),
            "2^26 draws differ from the 2^28 draw"
        );
    }
    let check = |i: usize| {
        let w = cpu::stream(31337, 2, 6 + (i & !1) as u64, 2);
        let (s, c) = cpu::box_muller_f32(w[0], w[1]);
        let want = if i.is_multiple_of(2) { s } else { c };
        let got = big[i] as f64;
        assert!(
            (got - want).abs() <= 1e-6 * want.abs().max(1.0),
            "element {i}: {got} vs {want}"
        );
    };
    let binding = dev.limits().max_storage_buffer_binding_size as usize / 4;
    for edge in (0..=n).step_by(binding) {
        for i in edge.saturating_sub(40)..(edge + 40).min(n) {
            check(i);
        }
    }
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        check((x % n as u64) as usize);
    }
    drop(big);
    common::check_clean(&dev, 0);
}
