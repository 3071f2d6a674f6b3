//! einsum on the real adapter against a naive CPU einsum written here (nested loops over every
//! label), for the pattern classes of NumPy's test_einsum.py. The reference takes the labels of
//! each operand spelled out by hand, so it shares no parsing code with the library.

mod common;

use gpuarray::{Array, DType, EinsumStrategy, Error, einsum, einsum_path, einsum_with};

/// out[o] = Σ over all label values of Π_t x_t[idx_t]; `terms` and `out` are label strings
/// (one char per axis), size-1 axes broadcast.
fn naive(terms: &[&str], out: &str, shapes: &[Vec<usize>], data: &[Vec<f64>]) -> Vec<f64> {
    let mut labels: Vec<char> = Vec::new();
    let mut size = std::collections::HashMap::new();
    for (t, s) in terms.iter().zip(shapes) {
        for (c, &n) in t.chars().zip(s) {
            if !labels.contains(&c) {
                labels.push(c);
            }
            let e = size.entry(c).or_insert(n);
            if *e == 1 {
                *e = n;
            }
        }
    }
    let out_size: usize = out.chars().map(|c| size[&c]).product();
    let mut result = vec![0.0; out_size];
    let total: usize = labels.iter().map(|c| size[c]).product();
    let mut val = std::collections::HashMap::new();
    for flat in 0..total {
        let mut rem = flat;
        for c in labels.iter().rev() {
            val.insert(*c, rem % size[c]);
            rem /= size[c];
        }
        let mut prod = 1.0;
        for ((t, s), d) in terms.iter().zip(shapes).zip(data) {
            let mut off = 0;
            for (c, &n) in t.chars().zip(s) {
                off = off * n + if n == 1 { 0 } else { val[&c] };
            }
            prod *= d[off];
        }
        let o = out.chars().fold(0, |acc, c| acc * size[&c] + val[&c]);
        result[o] += prod;
    }
    result
}

fn data(n: usize, seed: usize) -> Vec<f64> {
    (0..n)
        .map(|i| ((i * 7 + seed * 5) % 9) as f64 - 4.0)
        .collect()
}

struct Case {
    expr: &'static str,
    terms: &'static [&'static str],
    out: &'static str,
    shapes: Vec<Vec<usize>>,
}

fn case(
    expr: &'static str,
    terms: &'static [&'static str],
    out: &'static str,
    shapes: &[&[usize]],
) -> Case {
    Case {
        expr,
        terms,
        out,
        shapes: shapes.iter().map(|s| s.to_vec()).collect(),
    }
}

fn cases() -> Vec<Case> {
    vec![
        // views and diagonals
        case("ii->i", &["ii"], "i", &[&[4, 4]]),
        case("ii", &["ii"], "", &[&[4, 4]]),
        case("iij->ji", &["iij"], "ji", &[&[3, 3, 2]]),
        case("ijji->", &["ijji"], "", &[&[2, 3, 3, 2]]),
        case("ji", &["ji"], "ij", &[&[2, 3]]),
        case("aB", &["aB"], "Ba", &[&[2, 3]]),
        // sums
        case("ij->j", &["ij"], "j", &[&[3, 5]]),
        case("ijk->", &["ijk"], "", &[&[2, 3, 4]]),
        case("ijk->ki", &["ijk"], "ki", &[&[2, 3, 4]]),
        // products
        case("ij,ij->ij", &["ij", "ij"], "ij", &[&[3, 4], &[3, 4]]),
        case("i,i", &["i", "i"], "", &[&[5], &[5]]),
        case("i,j->ij", &["i", "j"], "ij", &[&[3], &[4]]),
        case("ij,jk", &["ij", "jk"], "ik", &[&[3, 4], &[4, 5]]),
        case("ij,jh", &["ij", "jh"], "hi", &[&[3, 4], &[4, 5]]),
        case(
            "ijk,ikm->ijm",
            &["ijk", "ikm"],
            "ijm",
            &[&[3, 4, 5], &[3, 5, 6]],
        ),
        case(
            "bhqd,bhkd->bhqk",
            &["bhqd", "bhkd"],
            "bhqk",
            &[&[2, 3, 4, 5], &[2, 3, 6, 5]],
        ),
        case(
            "abcd,dcbe->ae",
            &["abcd", "dcbe"],
            "ae",
            &[&[2, 3, 4, 5], &[5, 4, 3, 2]],
        ),
        case("ij,jk->ijk", &["ij", "jk"], "ijk", &[&[2, 3], &[3, 4]]),
        case("ijk,jl->li", &["ijk", "jl"], "li", &[&[2, 3, 4], &[3, 5]]),
        // traces with products
        case("ii,i", &["ii", "i"], "", &[&[3, 3], &[3]]),
        case("ij,ji->", &["ij", "ji"], "", &[&[3, 4], &[4, 3]]),
        // ellipsis broadcasting
        case(
            "...ij,...jk->...ik",
            &["aij", "jk"],
            "aik",
            &[&[2, 3, 4], &[4, 5]],
        ),
        case(
            "...ij,...jk",
            &["abij", "bjk"],
            "abik",
            &[&[2, 3, 4, 5], &[3, 5, 2]],
        ),
        case("i...->...", &["ia"], "a", &[&[3, 4]]),
        case("i...j,j->...i", &["iaj", "j"], "ai", &[&[2, 3, 4], &[4]]),
        case("...,...", &["a", "a"], "a", &[&[4], &[4]]),
        // size-1 broadcasting of labelled dims
        case("ij,ij->j", &["ij", "ij"], "j", &[&[10, 2], &[1, 2]]),
        case("i,i", &["i", "i"], "", &[&[3], &[1]]),
        // 0-d operands
        case(",i->i", &["", "i"], "i", &[&[], &[3]]),
        case("i,->", &["i", ""], "", &[&[3], &[]]),
        // uppercase and spaces
        case("Ab,bC->AC", &["Ab", "bC"], "AC", &[&[2, 3], &[3, 4]]),
        case(" ij , jk -> ik ", &["ij", "jk"], "ik", &[&[2, 3], &[3, 4]]),
        // 3 to 7 operands
        case(
            "ij,jk,kl->il",
            &["ij", "jk", "kl"],
            "il",
            &[&[2, 3], &[3, 4], &[4, 5]],
        ),
        case(
            "ea,fb,abcd,gc,hd->efgh",
            &["ea", "fb", "abcd", "gc", "hd"],
            "efgh",
            &[&[2, 3], &[2, 2], &[3, 2, 2, 3], &[2, 2], &[2, 3]],
        ),
        case(
            "ab,bc,cd,de,ef,fg,gh->ah",
            &["ab", "bc", "cd", "de", "ef", "fg", "gh"],
            "ah",
            &[
                &[2, 3],
                &[3, 2],
                &[2, 3],
                &[3, 2],
                &[2, 3],
                &[3, 2],
                &[2, 3],
            ],
        ),
        case("i,i,i->i", &["i", "i", "i"], "i", &[&[4], &[4], &[4]]),
    ]
}

#[test]
fn numpy_pattern_classes_match_a_naive_einsum_exactly() {
    let Some(dev) = common::device() else { return };
    for c in cases() {
        let host: Vec<Vec<f64>> = c
            .shapes
            .iter()
            .enumerate()
            .map(|(i, s)| data(s.iter().product(), i + 1))
            .collect();
        let want = naive(c.terms, c.out, &c.shapes, &host);
        let want_shape: Vec<usize> = c
            .out
            .chars()
            .map(|ch| {
                let (t, s) = c
                    .terms
                    .iter()
                    .zip(&c.shapes)
                    .find(|(t, s)| t.chars().zip(s.iter()).any(|(x, &n)| x == ch && n != 1))
                    .or_else(|| c.terms.iter().zip(&c.shapes).find(|(t, _)| t.contains(ch)))
                    .unwrap();
                s[t.chars().position(|x| x == ch).unwrap()]
            })
            .collect();
        // Integer-valued inputs: exact in i32 and f32.
        let ints: Vec<Array> = c
            .shapes
            .iter()
            .zip(&host)
            .map(|(s, d)| {
                Array::from_slice(&dev, &d.iter().map(|&x| x as i32).collect::<Vec<_>>(), s)
                    .unwrap()
            })
            .collect();
        let refs: Vec<&Array> = ints.iter().collect();
        for strategy in [
            EinsumStrategy::Optimal,
            EinsumStrategy::Greedy,
            EinsumStrategy::Naive,
        ] {
            let got =
                einsum_with(c.expr, &refs, strategy).unwrap_or_else(|e| panic!("{}: {e}", c.expr));
            assert_eq!(got.shape(), &want_shape[..], "{} shape", c.expr);
            assert_eq!(
                got.to_vec::<i32>().unwrap(),
                want.iter().map(|&x| x as i32).collect::<Vec<_>>(),
                "{} ({strategy:?})",
                c.expr
            );
        }
        let floats: Vec<Array> = c
            .shapes
            .iter()
            .zip(&host)
            .map(|(s, d)| {
                Array::from_slice(&dev, &d.iter().map(|&x| x as f32).collect::<Vec<_>>(), s)
                    .unwrap()
            })
            .collect();
        let refs: Vec<&Array> = floats.iter().collect();
        let got = einsum(c.expr, &refs).unwrap();
        assert_eq!(
            got.to_vec::<f32>().unwrap(),
            want.iter().map(|&x| x as f32).collect::<Vec<_>>(),
            "{} f32",
            c.expr
        );
    }
}

#[test]
fn float_contractions_within_tolerance_and_other_dtypes() {
    let Some(dev) = common::device() else { return };
    // bhqd,bhkd->bhqk with non-integer data; error bound K * eps * sum|a||b|.
    let (b, h, q, k, d) = (2, 3, 70, 66, 64);
    let ha: Vec<f64> = (0..b * h * q * d)
        .map(|i| (i as f64 * 0.37).sin())
        .collect();
    let hb: Vec<f64> = (0..b * h * k * d)
        .map(|i| (i as f64 * 0.11).cos())
        .collect();
    let shapes = vec![vec![b, h, q, d], vec![b, h, k, d]];
    let want = naive(
        &["bhqd", "bhkd"],
        "bhqk",
        &shapes,
        &[ha.clone(), hb.clone()],
    );
    let bound = naive(
        &["bhqd", "bhkd"],
        "bhqk",
        &shapes,
        &[
            ha.iter().map(|x| x.abs()).collect(),
            hb.iter().map(|x| x.abs()).collect(),
        ],
    );
    let check = |got: Vec<f64>, eps: f64, what: &str| {
        for (i, (g, (w, s))) in got.iter().zip(want.iter().zip(&bound)).enumerate() {
            assert!(
                (g - w).abs() <= d as f64 * eps * s + eps,
                "{what}[{i}]: {g} vs {w}"
            );
        }
    };
    let a32 = Array::from_slice(
        &dev,
        &ha.iter().map(|&x| x as f32).collect::<Vec<_>>(),
        &shapes[0],
    )
    .unwrap();
    let b32 = Array::from_slice(
        &dev,
        &hb.iter().map(|&x| x as f32).collect::<Vec<_>>(),
        &shapes[1],
    )
    .unwrap();
    check(
        einsum("bhqd,bhkd->bhqk", &[&a32, &b32])
            .unwrap()
            .to_vec::<f32>()
            .unwrap()
            .into_iter()
            .map(f64::from)
            .collect(),
        f32::EPSILON as f64,
        "f32",
    );
    if common::supports(
        &dev,
        DType::F64,
        "float_contractions_within_tolerance_and_other_dtypes",
    ) {
        let a64 = Array::from_slice(&dev, &ha, &shapes[0]).unwrap();
        let b64 = Array::from_slice(&dev, &hb, &shapes[1]).unwrap();
        check(
            einsum("bhqd,bhkd->bhqk", &[&a64, &b64])
                .unwrap()
                .to_vec::<f64>()
                .unwrap(),
            f64::EPSILON,
            "f64",
        );
    }
    if common::supports(
        &dev,
        DType::F16,
        "float_contractions_within_tolerance_and_other_dtypes",
    ) {
        let a16 = a32.astype(DType::F16).unwrap();
        let b16 = b32.astype(DType::F16).unwrap();
        let got = einsum("bhqd,bhkd->bhqk", &[&a16, &b16])
            .unwrap()
            .astype(DType::F32)
            .unwrap()
            .to_vec::<f32>()
            .unwrap();
        for (g, w) in got.iter().zip(&want) {
            assert!(
                (*g as f64 - w).abs() <= 0.02 * w.abs() + 0.05,
                "f16 {g} vs {w}"
            );
        }
    }
    let u: Vec<u32> = (0..12).collect();
    let ua = Array::from_slice(&dev, &u, &[3, 4]).unwrap();
    assert_eq!(
        einsum("ij,ij->", &[&ua, &ua])
            .unwrap()
            .to_vec::<u32>()
            .unwrap(),
        vec![(0..12u32).map(|x| x * x).sum::<u32>()]
    );
}

#[test]
fn zero_size_dims_and_views_as_operands() {
    let Some(dev) = common::device() else { return };
    let a = Array::ones(&dev, &[3, 0], DType::F32).unwrap();
    let b = Array::ones(&dev, &[0, 4], DType::F32).unwrap();
    let c = einsum("ij,jk->ik", &[&a, &b]).unwrap();
    assert_eq!(
        (c.shape(), c.to_vec::<f32>().unwrap()),
        (&[3usize, 4][..], vec![0.0; 12])
    );
    let e = einsum(
        "ij,jk->ik",
        &[&b.t(), &Array::ones(&dev, &[0, 2], DType::F32).unwrap()],
    )
    .unwrap();
    assert_eq!(e.shape(), &[4, 2]);
    assert_eq!(e.to_vec::<f32>().unwrap(), vec![0.0; 8]);
    let z = einsum("ij->i", &[&Array::ones(&dev, &[0, 3], DType::F32).unwrap()]).unwrap();
    assert_eq!(z.shape(), &[0]);
    // Transposed and reversed views as operands.
    let h: Vec<f64> = data(24, 3);
    let x = Array::from_slice(
        &dev,
        &h.iter().map(|&v| v as i32).collect::<Vec<_>>(),
        &[4, 6],
    )
    .unwrap();
    let xt = x.t(); // (6, 4)
    let xr = x
        .slice(&[gpuarray::SliceArg::range(None, None, -1)])
        .unwrap(); // rows reversed
    let got = einsum("ij,jk->ik", &[&xt, &xr])
        .unwrap()
        .to_vec::<i32>()
        .unwrap();
    let ht: Vec<f64> = (0..24).map(|i| h[(i % 4) * 6 + i / 4]).collect();
    let hr: Vec<f64> = (0..24).map(|i| h[(3 - i / 6) * 6 + i % 6]).collect();
    let want = naive(&["ij", "jk"], "ik", &[vec![6, 4], vec![4, 6]], &[ht, hr]);
    assert_eq!(got, want.iter().map(|&v| v as i32).collect::<Vec<_>>());
}

#[test]
fn bad_subscripts_and_operands_are_errors() {
    let Some(dev) = common::device() else { return };
    let m = Array::ones(&dev, &[2, 3], DType::F32).unwrap();
    let n = Array::ones(&dev, &[4, 5], DType::F32).unwrap();
    let sq = Array::ones(&dev, &[2, 3], DType::F32).unwrap();
    let batched = Array::ones(&dev, &[2, 2, 3], DType::F32).unwrap();
    let bad: &[(&str, Vec<&Array>)] = &[
        ("ij,jk->ik", vec![&m, &n]),  // j: 3 vs 4
        ("ij,jk->ik,", vec![&m, &m]), // comma in the output
        ("ij->iij", vec![&m]),        // repeated output label
        ("ij->k", vec![&m]),          // output label not in inputs
        ("ii->i", vec![&sq]),         // diagonal of a non-square
        ("i$j", vec![&m]),            // bad character
        ("ij->>i", vec![&m]),         // malformed arrow
        ("ij-i", vec![&m]),
        ("ij,jk", vec![&m]),   // more terms than operands
        ("ij", vec![&m, &m]),  // fewer terms than operands
        ("ijk", vec![&m]),     // too many subscripts for the operand
        ("i", vec![&m]),       // too few, no ellipsis
        ("...i...", vec![&m]), // two ellipses
        ("..i", vec![&m]),     // broken ellipsis
        ("ij->..", vec![&m]),
        ("...ij->ij", vec![&batched]), // broadcast dims dropped
        ("íj", vec![&m]),              // non-ASCII
        ("ij->ij->ij", vec![&m]),
    ];
    for (expr, ops) in bad {
        match einsum(expr, ops) {
            Err(Error::Einsum { .. }) => {}
            other => panic!(
                "{expr:?}: expected an einsum error, got {:?}",
                other.map(|a| a.shape().to_vec())
            ),
        }
    }
    assert!(matches!(einsum("ij", &[]), Err(Error::Einsum { .. })));
    let i = Array::ones(&dev, &[3, 4], DType::I32).unwrap();
    assert!(matches!(
        einsum("ij,jk", &[&m, &i]),
        Err(Error::DTypeMismatch { .. })
    ));
    // Nothing lost: the operands still read back.
    assert_eq!(m.to_vec::<f32>().unwrap(), vec![1.0; 6]);
}

#[test]
fn paths_report_like_numpy_einsum_path() {
    let Some(dev) = common::device() else { return };
    let a = Array::ones(&dev, &[10, 20], DType::F32).unwrap();
    let b = Array::ones(&dev, &[20, 30], DType::F32).unwrap();
    let c = Array::ones(&dev, &[30, 5], DType::F32).unwrap();
    let p = einsum_path("ij,jk,kl->il", &[&a, &b, &c]).unwrap();
    // Contracting b and c first costs 20*30*5, then a: 10*20*5 (vs 10*20*30 + 10*30*5).
    assert_eq!(p.steps, vec![(1, 2), (0, 1)]);
    let text = p.to_string();
    assert!(
        text.contains("Naive")
            && text.contains("Optimized")
            && text.contains("Largest intermediate"),
        "{text}"
    );
    // The default plan is what einsum runs, and it gives the naive result.
    let got = einsum("ij,jk,kl->il", &[&a, &b, &c])
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    assert_eq!(got, vec![600.0; 50]);
}

#[test]
fn the_seed_contraction_needs_no_intermediate_beyond_its_output() {
    let Some(dev) = common::device() else { return };
    // ijk,ikm->ijm at B = N = 100 (the seed workload's shape, smaller).
    let n = 100usize;
    dev.matmul_tuning().unwrap(); // the one-time tune allocates its own arrays: do it first
    let h: Vec<f32> = (0..n * n * n).map(|i| ((i * 7) % 5) as f32 - 2.0).collect();
    let a = Array::from_slice(&dev, &h, &[n, n, n]).unwrap();
    let b = Array::from_slice(&dev, &h, &[n, n, n]).unwrap();
    dev.synchronize().unwrap();
    let before = dev.memory_stats();
    let base = before.in_use_bytes;
    let c = einsum("ijk,ikm->ijm", &[&a, &b]).unwrap();
    let got = c.to_vec::<f32>().unwrap();
    let peak = dev.memory_stats().peak_bytes;
    let out_bytes = (n * n * n * 4) as u64;
    assert!(
        peak <= base.max(before.peak_bytes) + out_bytes + (1 << 20),
        "peak {peak} vs inputs {base} + output {out_bytes}"
    );
    for &(i, j, m) in &[
        (0usize, 0usize, 0usize),
        (7, 13, 99),
        (99, 99, 98),
        (50, 1, 2),
    ] {
        let s: f64 = (0..n)
            .map(|k| h[i * n * n + j * n + k] as f64 * h[i * n * n + k * n + m] as f64)
            .sum();
        assert_eq!(got[i * n * n + j * n + m] as f64, s);
    }
}

#[test]
fn diagonal_trace_kron() {
    let Some(dev) = common::device() else { return };
    let h: Vec<i32> = (0..24).map(|i| i * 5 - 40).collect();
    let a = Array::from_slice(&dev, &h, &[2, 3, 4]).unwrap();
    // diagonal over axes (1, 2) with offsets, against index loops.
    for off in [-2isize, -1, 0, 1, 3, 5] {
        let d = a.diagonal(off, 1, 2).unwrap();
        let mut want = Vec::new();
        for i in 0..2 {
            for k in 0..3isize {
                let c = k + off;
                if (0..4).contains(&c) {
                    want.push(h[i * 12 + k as usize * 4 + c as usize]);
                }
            }
        }
        assert_eq!(d.to_vec::<i32>().unwrap(), want, "offset {off}");
    }
    let d = a.diagonal(0, 2, 0).unwrap(); // axes (2, 0): shape (3, 2)
    assert_eq!(d.shape(), &[3, 2]);
    assert_eq!(
        d.to_vec::<i32>().unwrap(),
        (0..3)
            .flat_map(|j| (0..2).map(move |k| (j, k)))
            .map(|(j, k)| h[k * 12 + j * 4 + k])
            .collect::<Vec<_>>()
    );
    assert_err!(
        a.diagonal(0, 1, 1),
        Error::InvalidArgument { op: "diagonal", .. },
        "diagonal"
    );
    // trace of a 2-d view and of a 3-d array (per the first two axes), and einsum agrees.
    let m = a.slice(&[gpuarray::SliceArg::Index(1)]).unwrap(); // (3, 4)
    let want: i32 = (0..3).map(|k| h[12 + k * 4 + k]).sum();
    assert_eq!(m.trace(0).unwrap().to_vec::<i32>().unwrap(), vec![want]);
    assert_eq!(
        einsum(
            "ii",
            &[&m.slice(&[
                gpuarray::SliceArg::full(),
                gpuarray::SliceArg::range(None, Some(3), 1)
            ])
            .unwrap()]
        )
        .unwrap()
        .to_vec::<i32>()
        .unwrap(),
        vec![want]
    );
    let t3 = a.trace(1).unwrap();
    assert_eq!(
        t3.to_vec::<i32>().unwrap(),
        (0..4)
            .map(|z| (0..2usize)
                .filter(|&i| i + 1 < 3)
                .map(|i| h[i * 12 + (i + 1) * 4 + z])
                .sum::<i32>())
            .collect::<Vec<_>>()
    );
    // kron of 2-d arrays against the definition.
    let x: Vec<i32> = vec![1, 2, 3, 4, 5, 6];
    let y: Vec<i32> = vec![0, 1, -1, 2];
    let k = Array::from_slice(&dev, &x, &[2, 3])
        .unwrap()
        .kron(&Array::from_slice(&dev, &y, &[2, 2]).unwrap())
        .unwrap();
    assert_eq!(k.shape(), &[4, 6]);
    let got = k.to_vec::<i32>().unwrap();
    for r in 0..4 {
        for c in 0..6 {
            assert_eq!(
                got[r * 6 + c],
                x[(r / 2) * 3 + c / 2] * y[(r % 2) * 2 + c % 2],
                "kron[{r}, {c}]"
            );
        }
    }
}
