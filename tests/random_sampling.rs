//! Permutations, shuffles and choice on the real adapter, against a CPU model built on the
//! independent stream model in `common/philox.rs`.

mod common;

use common::philox as cpu;
use gpuarray::random::Generator;
use gpuarray::{Array, DType, Error, SliceArg};

/// Words of a stream read one by one, with the bounded (Lemire, rejecting) and 53-bit draws.
struct Words {
    w: Vec<u32>,
    at: usize,
}

impl Words {
    fn new(seed: u64, sub: u64, off: u64, n: usize) -> Words {
        Words {
            w: cpu::stream(seed, sub, off, n),
            at: 0,
        }
    }
    fn next(&mut self) -> u32 {
        self.at += 1;
        self.w[self.at - 1]
    }
    fn bounded(&mut self, range: u64) -> u64 {
        loop {
            let m = self.next() as u64 * range;
            if (m & 0xffff_ffff) >= (1u64 << 32) % range {
                return m >> 32;
            }
        }
    }
    fn u53(&mut self) -> f64 {
        let (x, y) = (self.next(), self.next());
        cpu::curand_uniform_double(x, y)
    }
}

fn cpu_permutation(w: &mut Words, n: usize) -> Vec<usize> {
    let mut p: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = w.bounded(i as u64 + 1) as usize;
        p.swap(i, j);
    }
    p
}

/// Host gather of a row-major array along `axis`.
fn cpu_take(data: &[f32], shape: &[usize], axis: usize, idx: &[usize]) -> Vec<f32> {
    let outer: usize = shape[..axis].iter().product();
    let inner: usize = shape[axis + 1..].iter().product();
    let m = shape[axis];
    let mut out = Vec::with_capacity(outer * idx.len() * inner);
    for o in 0..outer {
        for &i in idx {
            let s = (o * m + i) * inner;
            out.extend_from_slice(&data[s..s + inner]);
        }
    }
    out
}

#[test]
fn permutations_are_fisher_yates_over_the_stream() {
    let Some(dev) = common::device() else { return };
    for n in [0usize, 1, 2, 10, 1000, 100_003] {
        let mut g = Generator::with_stream(&dev, 8, 1, 3);
        let got = common::idx(&g.permutation(n).unwrap());
        let mut w = Words::new(8, 1, 3, 2 * n + 64);
        let want: Vec<i32> = cpu_permutation(&mut w, n)
            .into_iter()
            .map(|i| i as i32)
            .collect();
        assert_eq!(got, want, "permutation({n})");
        assert_eq!(
            g.offset(),
            3 + w.at as u64,
            "words consumed by permutation({n})"
        );
    }
    common::check_clean(&dev, 0);
}

#[test]
fn permutation_of_and_shuffle_move_whole_slices() {
    let Some(dev) = common::device() else { return };
    let shape = [4usize, 5, 6];
    let data: Vec<f32> = (0..120).map(|i| i as f32).collect();
    let a = Array::from_slice(&dev, &data, &shape).unwrap();
    for axis in 0..3 {
        let mut g = Generator::new(&dev, 40 + axis as u64);
        let got = g.permutation_of(&a, axis as isize).unwrap();
        assert_eq!(got.shape(), &shape);
        let mut w = Words::new(40 + axis as u64, 0, 0, 64);
        let perm = cpu_permutation(&mut w, shape[axis]);
        assert_eq!(
            got.to_vec::<f32>().unwrap(),
            cpu_take(&data, &shape, axis, &perm),
            "axis {axis}"
        );
        assert_eq!(g.offset(), w.at as u64);
    }
    // Negative axes, in place, through a view: shuffling a[1] shuffles that row of a only.
    let b = Array::from_slice(&dev, &data, &shape).unwrap();
    let row = b.slice(&[SliceArg::Index(1)]).unwrap();
    let mut g = Generator::new(&dev, 5);
    g.shuffle(&row, -1).unwrap();
    let mut w = Words::new(5, 0, 0, 64);
    let perm = cpu_permutation(&mut w, 6);
    let mut want = data.clone();
    let shuffled = cpu_take(&data[30..60], &[5, 6], 1, &perm);
    want[30..60].copy_from_slice(&shuffled);
    assert_eq!(b.to_vec::<f32>().unwrap(), want);
    // Errors: a broadcast view, a scalar, a bad axis; none consumes words.
    let mut g = Generator::new(&dev, 5);
    let bc = Array::from_slice(&dev, &[1.0f32, 2.0], &[2])
        .unwrap()
        .broadcast_to(&[3, 2])
        .unwrap();
    assert_err!(
        g.shuffle(&bc, 0),
        Error::InvalidArgument { op: "shuffle", .. },
        "shuffle"
    );
    let scalar = Array::from_slice(&dev, &[1.0f32], &[]).unwrap();
    assert_err!(
        g.permutation_of(&scalar, 0),
        Error::InvalidArgument {
            op: "permutation_of",
            ..
        },
        "permutation_of"
    );
    assert_err!(
        g.permutation_of(&a, 3),
        Error::Axis {
            op: "permutation_of",
            ..
        },
        "permutation_of"
    );
    assert_eq!(g.offset(), 0);
    // Other dtypes and an empty axis.
    let i = Array::arange(&dev, 0.0, 9.0, 1.0, DType::I32).unwrap();
    let mut s = g.permutation_of(&i, 0).unwrap().to_vec::<i32>().unwrap();
    s.sort();
    assert_eq!(s, (0..9).collect::<Vec<_>>());
    if common::supports(
        &dev,
        DType::F16,
        "permutation_of_and_shuffle_move_whole_slices",
    ) {
        let h = Array::arange(&dev, 0.0, 7.0, 1.0, DType::F16).unwrap();
        let v = g
            .permutation_of(&h, 0)
            .unwrap()
            .astype(DType::F32)
            .unwrap()
            .to_vec::<f32>()
            .unwrap();
        let mut v: Vec<i32> = v.into_iter().map(|x| x as i32).collect();
        v.sort();
        assert_eq!(v, (0..7).collect::<Vec<_>>());
    }
    let e = Array::zeros(&dev, &[0, 3], DType::F32).unwrap();
    assert_eq!(g.permutation_of(&e, 0).unwrap().shape(), &[0, 3]);
    drop((a, b, row, bc, scalar, i, e));
    common::check_clean(&dev, 0);
}

#[test]
fn gathers_across_bindings() {
    let Some(dev) = common::device() else { return };
    let binding = dev.limits().max_storage_buffer_binding_size as usize / 4;
    // Rows of 1000 f32 over more than one binding: pairs grouped by (output, source) window.
    let rows = binding / 1000 + 77;
    let data: Vec<f32> = (0..rows * 1000).map(|i| (i % 16_777_213) as f32).collect();
    let a = Array::from_slice(&dev, &data, &[rows, 1000]).unwrap();
    let mut g = Generator::new(&dev, 12);
    let got = g.permutation_of(&a, 0).unwrap().to_vec::<f32>().unwrap();
    let perm = cpu_permutation(&mut Words::new(12, 0, 0, 2 * rows + 64), rows);
    assert!(
        got == cpu_take(&data, &[rows, 1000], 0, &perm),
        "row gather over bindings"
    );
    drop((a, got, data));
    // Rows longer than a binding: column blocks.
    let cols = binding + 5;
    let data: Vec<f32> = (0..2 * cols).map(|i| (i % 1_000_003) as f32).collect();
    let a = Array::from_slice(&dev, &data, &[2, cols]).unwrap();
    let mut g = Generator::new(&dev, 2);
    let got = g
        .choice(&a, &[3], true, None)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    let mut w = Words::new(2, 0, 0, 64);
    let idx: Vec<usize> = (0..3).map(|_| w.bounded(2) as usize).collect();
    assert!(
        got == cpu_take(&data, &[2, cols], 0, &idx),
        "column-block gather"
    );
    drop(a);
    common::check_clean(&dev, 0);
}

#[test]
fn choice_follows_its_documented_draws() {
    let Some(dev) = common::device() else { return };
    let m = 50usize;
    let data: Vec<f32> = (0..m * 3).map(|i| i as f32).collect();
    let a = Array::from_slice(&dev, &data, &[m, 3]).unwrap();
    let raw: Vec<f64> = (0..m)
        .map(|i| if i % 7 == 3 { 0.0 } else { (i % 5 + 1) as f64 })
        .collect();
    // Probabilities, as NumPy requires: they must sum to 1 (within sqrt(eps)).
    let raw_total: f64 = raw.iter().sum();
    let p: Vec<f64> = raw.iter().map(|x| x / raw_total).collect();
    let total: f64 = p.iter().sum();
    for (replace, weights) in [(true, false), (true, true), (false, false), (false, true)] {
        let mut g = Generator::with_stream(&dev, 77, 0, 1);
        let got = g
            .choice(&a, &[2, 10], replace, weights.then_some(&p[..]))
            .unwrap();
        assert_eq!(got.shape(), &[2, 10, 3]);
        let mut w = Words::new(77, 0, 1, 4096);
        let idx: Vec<usize> = match (replace, weights) {
            (true, false) => (0..20).map(|_| w.bounded(m as u64) as usize).collect(),
            (true, true) => (0..20)
                .map(|_| {
                    let u = w.u53();
                    let t = if u >= 1.0 { 0.0 } else { u };
                    let mut acc = 0.0;
                    let mut pick = m - 1;
                    for (i, &x) in p.iter().enumerate() {
                        acc += x / total;
                        if acc > t && x > 0.0 {
                            pick = i;
                            break;
                        }
                    }
                    pick
                })
                .collect(),
            (false, false) => {
                let mut pool: Vec<usize> = (0..m).collect();
                (0..20)
                    .map(|i| {
                        let j = i + w.bounded((m - i) as u64) as usize;
                        pool.swap(i, j);
                        pool[i]
                    })
                    .collect()
            }
            (false, true) => {
                let mut keys: Vec<(f64, usize)> = p
                    .iter()
                    .enumerate()
                    .map(|(i, &x)| {
                        let u = w.u53();
                        (
                            if x > 0.0 {
                                u.ln() / (x / total)
                            } else {
                                f64::NEG_INFINITY
                            },
                            i,
                        )
                    })
                    .collect();
                keys.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
                keys[..20].iter().map(|k| k.1).collect()
            }
        };
        let got_v = got.to_vec::<f32>().unwrap();
        assert_eq!(
            got_v,
            cpu_take(&data, &[m, 3], 0, &idx),
            "replace={replace} weights={weights}"
        );
        assert_eq!(
            g.offset(),
            1 + w.at as u64,
            "words consumed, replace={replace} weights={weights}"
        );
        if !replace {
            let mut s = idx.clone();
            s.sort_unstable();
            s.dedup();
            assert_eq!(s.len(), 20);
        }
        if weights {
            assert!(idx.iter().all(|&i| p[i] > 0.0));
        }
    }
    // Uniform choice with replacement picks the rows integers(0, m) names.
    let mut g = Generator::new(&dev, 4);
    let k = g
        .integers(0, m as i64, &[7], DType::I32)
        .unwrap()
        .to_vec::<i32>()
        .unwrap();
    let mut g = Generator::new(&dev, 4);
    let c = g
        .choice(&a, &[7], true, None)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    let idx: Vec<usize> = k.iter().map(|&i| i as usize).collect();
    assert_eq!(c, cpu_take(&data, &[m, 3], 0, &idx));
    // Errors.
    let mut g = Generator::new(&dev, 4);
    assert_err!(
        g.choice(&a, &[51], false, None),
        Error::InvalidArgument { op: "choice", .. },
        "choice"
    );
    assert_err!(
        g.choice(&a, &[3], true, Some(&[1.0; 49])),
        Error::InvalidArgument { op: "choice", .. },
        "choice"
    );
    assert_err!(
        g.choice(&a, &[3], true, Some(&vec![-1.0; m])),
        Error::InvalidArgument { op: "choice", .. },
        "choice"
    );
    assert_err!(
        g.choice(&a, &[3], true, Some(&vec![0.0; m])),
        Error::InvalidArgument { op: "choice", .. },
        "choice"
    );
    // Weights summing to raw_total, not 1.
    assert_err!(
        g.choice(&a, &[3], true, Some(&raw)),
        Error::InvalidArgument { op: "choice", .. },
        "choice",
        "do not sum to 1"
    );
    assert_err!(
        g.choice(&a, &[45], false, Some(&p)),
        Error::InvalidArgument { op: "choice", .. },
        "choice",
        "only 43 items have non-zero weight"
    );
    let e = Array::zeros(&dev, &[0], DType::F32).unwrap();
    assert_err!(
        g.choice(&e, &[1], true, None),
        Error::InvalidArgument { op: "choice", .. },
        "choice"
    );
    assert_eq!(g.choice(&e, &[0], true, None).unwrap().len(), 0);
    assert_eq!(g.offset(), 0);
    drop((a, e));
    common::check_clean(&dev, 0);
}

#[test]
fn weighted_choice_frequencies() {
    let Some(dev) = common::device() else { return };
    // 10^6 draws over weights 1..=8: chi-square with 7 degrees of freedom, P(> 40) ~ 1e-6.
    let p: Vec<f64> = (1..=8).map(|x| x as f64 / 36.0).collect();
    let a = Array::arange(&dev, 0.0, 8.0, 1.0, DType::I32).unwrap();
    let mut g = Generator::new(&dev, 99);
    let n = 1_000_000;
    let s = g
        .choice(&a, &[n], true, Some(&p))
        .unwrap()
        .to_vec::<i32>()
        .unwrap();
    let mut counts = [0f64; 8];
    s.iter().for_each(|&i| counts[i as usize] += 1.0);
    let chi2: f64 = counts
        .iter()
        .zip(&p)
        .map(|(&c, &w)| {
            let e = n as f64 * w;
            (c - e).powi(2) / e
        })
        .sum();
    assert!(chi2 < 40.0, "chi2 {chi2}, counts {counts:?}");
    drop(a);
    common::check_clean(&dev, 0);
}
