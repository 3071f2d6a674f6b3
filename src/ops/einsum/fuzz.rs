//! Fuzzing the parser and the planner: random subscripts (any characters: letters, arrows, dots,
//! commas, control and non-ASCII characters, replacement characters from random bytes) against
//! random shapes (empty, huge, too many). Whatever the input, `parse` returns `Ok` or an
//! `Error::Einsum` and never panics; what it accepts is self-consistent, and the planner's plan
//! for it is well formed.
//!
//! `cargo test --lib einsum` runs 20,000 cases; the million-case run is
//! `cargo test --release --lib einsum -- --ignored`.

use super::parse::{LETTERS, Label, Parsed, parse};
use super::path::{EinsumPath, Strategy, plan};
use crate::error::Error;
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// xorshift64*: small, deterministic, good enough to spread cases.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// Characters the grammar cares about, and some it must refuse.
const CHARS: &[char] = &[
    'a',
    'b',
    'i',
    'j',
    'k',
    'A',
    'Z',
    'z',
    ' ',
    ' ',
    '.',
    '.',
    '.',
    ',',
    ',',
    '-',
    '-',
    '>',
    '>',
    '$',
    '0',
    '\0',
    '\n',
    '\t',
    'é',
    '→',
    '…',
    '，',
    '\u{200b}',
    '\u{fffd}',
    '\u{10ffff}',
    '😀',
];

/// Dimension sizes: small ones, empty ones, and ones no real array could have.
fn dim(rng: &mut Rng) -> usize {
    match rng.below(40) {
        0 => usize::MAX,
        1 => 1 << 40,
        2 => 1 << 32,
        3 => rng.next() as usize,
        k => [0, 1, 1, 2, 2, 3, 3, 4][k % 8],
    }
}

fn random_shapes(rng: &mut Rng) -> Vec<Vec<usize>> {
    let nop = match rng.below(50) {
        0 => 0,
        1 => 63,
        2 => 64,
        3 => 70,
        _ => 1 + rng.below(4),
    };
    (0..nop)
        .map(|_| {
            let ndim = match rng.below(60) {
                0 => 64,
                1 => 65,
                _ => rng.below(5),
            };
            (0..ndim).map(|_| dim(rng)).collect()
        })
        .collect()
}

/// A string of random characters, or of random bytes made valid UTF-8.
fn garbage(rng: &mut Rng) -> (String, Vec<Vec<usize>>) {
    let len = rng.below(18);
    let s = if rng.chance(15) {
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        String::from_utf8_lossy(&bytes).into_owned()
    } else {
        (0..len)
            .map(|_| {
                if rng.chance(5) {
                    char::from_u32(rng.next() as u32 % 0x11_0000).unwrap_or('?')
                } else {
                    rng.pick(CHARS)
                }
            })
            .collect()
    };
    (s, random_shapes(rng))
}

/// A well-formed expression with matching shapes, then damaged a little: wrong sizes, extra or
/// missing dims, stray or missing characters, an operand too many or too few.
fn mutated(rng: &mut Rng) -> (String, Vec<Vec<usize>>) {
    let pool: Vec<char> = (0..1 + rng.below(6))
        .map(|_| rng.pick(&['a', 'b', 'c', 'i', 'j', 'k', 'A', 'B', 'Z', 'z']))
        .collect();
    let size: Vec<usize> = pool
        .iter()
        .map(|_| rng.pick(&[0, 1, 1, 2, 2, 3, 3, 4, 5]))
        .collect();
    let bshape: Vec<usize> = (0..3).map(|_| rng.pick(&[1, 2, 3])).collect();
    let nop = 1 + rng.below(6);
    let mut terms = Vec::new();
    let mut shapes = Vec::new();
    for _ in 0..nop {
        let picks: Vec<usize> = (0..rng.below(4)).map(|_| rng.below(pool.len())).collect();
        let mut term: String = picks.iter().map(|&k| pool[k]).collect();
        let mut shape: Vec<usize> = picks.iter().map(|&k| size[k]).collect();
        if rng.chance(30) {
            let k = rng.below(3);
            let at = rng.below(picks.len() + 1);
            let mut b: Vec<usize> = bshape[3 - k..].to_vec();
            if rng.chance(20) {
                b.iter_mut().for_each(|d| *d = rng.pick(&[1, 4]));
            }
            term.insert_str(at, "...");
            shape.splice(at..at, b);
        }
        for d in shape.iter_mut() {
            if rng.chance(5) {
                *d = dim(rng);
            }
        }
        if rng.chance(4) && !shape.is_empty() {
            let k = rng.below(shape.len());
            shape.remove(k);
        } else if rng.chance(4) {
            let k = rng.below(shape.len() + 1);
            shape.insert(k, 1 + rng.below(3));
        }
        terms.push(term);
        shapes.push(shape);
    }
    let mut s = terms.join(",");
    if rng.chance(60) {
        s.push_str("->");
        let mut out: Vec<String> = pool
            .iter()
            .filter(|&&c| terms.iter().any(|t| t.contains(c)))
            .filter(|_| rng.chance(50))
            .map(|c| c.to_string())
            .collect();
        if rng.chance(5) {
            out.push(rng.pick(&['q', 'i', 'Q']).to_string());
        }
        if rng.chance(40) {
            let at = rng.below(out.len() + 1);
            out.insert(at, "...".into());
        }
        s.extend(out);
    }
    let mut chars: Vec<char> = s.chars().collect();
    for _ in 0..rng.pick(&[0, 0, 0, 0, 1, 2, 3]) {
        let at = rng.below(chars.len() + 1);
        match rng.below(3) {
            0 => chars.insert(at, rng.pick(CHARS)),
            1 if at < chars.len() => chars[at] = rng.pick(CHARS),
            _ if at < chars.len() => {
                chars.remove(at);
            }
            _ => {}
        }
    }
    if rng.chance(5) {
        shapes.push((0..rng.below(3)).map(|_| 1 + rng.below(3)).collect());
    } else if rng.chance(5) {
        shapes.pop();
    }
    (chars.into_iter().collect(), shapes)
}

/// What `parse` accepted must be consistent with the shapes and NumPy's rules.
fn check_parsed(s: &str, shapes: &[&[usize]], p: &Parsed) {
    let nb = p.ndim_broadcast;
    assert_eq!(p.sizes.len(), LETTERS + nb);
    assert_eq!(p.inputs.len(), shapes.len());
    for (labels, shape) in p.inputs.iter().zip(shapes) {
        assert_eq!(labels.len(), shape.len());
        for (k, (&l, &d)) in labels.iter().zip(shape.iter()).enumerate() {
            assert!((l as usize) < LETTERS + nb);
            // Sizes broadcast from 1 only.
            assert!(
                d == p.sizes[l as usize] || d == 1,
                "{s:?}: label {l} size {d}"
            );
            // A repeated label within an operand has one size.
            if let Some(j) = labels[..k].iter().position(|&m| m == l) {
                assert_eq!(shape[j], d);
            }
        }
    }
    let mut seen = [false; 128];
    for &l in &p.output {
        assert!(!seen[l as usize], "{s:?}: output label {l} twice");
        seen[l as usize] = true;
        assert!(p.inputs.iter().any(|t| t.contains(&l)));
    }
    // NumPy's default einsum never sums broadcast dims.
    assert!((0..nb).all(|k| seen[LETTERS + k]));
    assert!(p.output.len() <= 64);
}

/// A plan must be executable: n - 1 steps over valid positions, one report line each, and
/// intermediates under the cap wherever NumPy's own path is pairwise.
fn check_plan(p: &Parsed, plan: &EinsumPath) {
    let n = p.inputs.len();
    assert_eq!(plan.steps.len(), n.saturating_sub(1));
    let mut len = n;
    for &(i, j) in &plan.steps {
        assert!(i < j && j < len);
        len -= 1;
    }
    assert_eq!(plan.step_subscripts.len(), plan.steps.len());
    assert_eq!(plan.step_results.len(), plan.steps.len());
    if let Some(last) = plan.step_results.last() {
        assert_eq!(last, &p.output);
    }
    if plan.strategy != Strategy::Naive && plan.nary_fallback.is_none() && n > 2 {
        // The last pair is exempt: NumPy contracts the final two whatever their size.
        for labels in &plan.step_results[..n - 2] {
            let size = labels.iter().fold(1u128, |a, &l: &Label| {
                a.saturating_mul(p.sizes[l as usize] as u128)
            });
            assert!(size <= plan.memory_limit, "{plan}");
        }
    }
    assert!(plan.to_string().contains("Complete contraction"));
}

/// Runs `cases` random cases; returns how many were accepted and how many were refused per kind
/// of error.
fn run(cases: usize, seed: u64) -> (usize, BTreeMap<String, usize>) {
    let mut rng = Rng(seed);
    let mut accepted = 0;
    let mut refused = BTreeMap::new();
    for case in 0..cases {
        let (s, shapes) = if rng.chance(40) {
            garbage(&mut rng)
        } else {
            mutated(&mut rng)
        };
        let strategy = [Strategy::Optimal, Strategy::Greedy, Strategy::Naive][case % 3];
        let limit = rng.chance(20).then(|| rng.below(200) as u128);
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let refs: Vec<&[usize]> = shapes.iter().map(|s| s.as_slice()).collect();
            match parse(&s, &refs) {
                Ok(p) => {
                    check_parsed(&s, &refs, &p);
                    if p.inputs.len() <= 8 {
                        check_plan(&p, &plan(&p, strategy, limit));
                    }
                    None
                }
                Err(Error::Einsum { msg, pos }) => {
                    assert!(!msg.is_empty());
                    assert!(
                        pos.is_none_or(|p| p <= s.chars().count()),
                        "{msg} at {pos:?}"
                    );
                    // The kind: the message up to its first detail (a quote or a number).
                    let end = msg.find(|c: char| c == '\'' || c.is_ascii_digit());
                    Some(msg[..end.unwrap_or(msg.len())].trim_end().to_string())
                }
                Err(other) => panic!("not an einsum error: {other}"),
            }
        }));
        match outcome {
            Ok(None) => accepted += 1,
            Ok(Some(kind)) => *refused.entry(kind).or_insert(0) += 1,
            Err(_) => panic!(
                "case {case} (seed {seed:#x}) panicked: {s:?} with shapes {shapes:?}, \
                 {strategy:?}, limit {limit:?}"
            ),
        }
    }
    (accepted, refused)
}

#[test]
fn einsum_fuzz_20k() {
    let (accepted, refused) = run(20_000, 0x5eed_0001);
    // Enough valid expressions get through to exercise the planner, and the refusals reach
    // every stage of the parser.
    assert!(accepted > 2_500, "only {accepted} accepted");
    assert!(refused.len() >= 15, "{refused:#?}");
}

#[test]
#[ignore = "a million cases: run with cargo test --release --lib einsum -- --ignored"]
fn einsum_fuzz_million() {
    let started = std::time::Instant::now();
    let (accepted, refused) = run(1_000_000, 0x5eed_0002);
    eprintln!(
        "einsum fuzz: 1,000,000 cases, {accepted} accepted, in {:?}; refused: {refused:#?}",
        started.elapsed()
    );
}
