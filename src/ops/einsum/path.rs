//! The contraction-path planner: in which order to contract einsum operands pairwise, and the
//! report `numpy.einsum_path` prints for it.
//!
//! `Optimal` and `Greedy` are NumPy's `_optimal_path` and `_greedy_path` (its vendored
//! opt_einsum), reproduced step for step — the same candidate order, tie-breaks, memory sieve and
//! cost model — so the paths and FLOP counts equal `numpy.einsum_path`'s
//! (`tests/golden/einsum_paths.txt` pins them). The one place we cannot follow NumPy: where no
//! pair fits under the memory limit (or, for greedy, every pair costs more than the naive
//! contraction), NumPy contracts all remaining operands in one n-ary einsum; our GPU lowering is
//! pairwise, so we keep pairing without the cap and record where NumPy stopped
//! ([`EinsumPath::nary_fallback`]).
//!
//! Length: the two planners share their candidate search and cost model, and follow NumPy's
//! code step for step, so they stay together; about 40 % of the file is unit tests.

use super::parse::{LETTERS, Label, Parsed, letter_char, parse};
use std::fmt;

/// Labels as a bit set: 52 letters plus up to 64 broadcast dims fit in 128 bits.
type Set = u128;

/// Exhaustive search is factorial: 8 operands is ~1.6 million orders before pruning (well
/// under a second); beyond that `Optimal` plans like `Greedy`.
pub(crate) const OPTIMAL_MAX_OPERANDS: usize = 8;

/// How to choose the contraction order of three or more operands.
///
/// ```
/// use gpuarray::{EinsumPath, EinsumStrategy};
///
/// let shapes: [&[usize]; 3] = [&[2, 2], &[2, 5], &[5, 2]];
/// let greedy = EinsumPath::from_shapes("ij,jk,kl->il", &shapes, EinsumStrategy::Greedy, None)?;
/// assert_eq!(greedy.steps, vec![(1, 2), (0, 1)]); // jk·kl first: the small intermediate
/// let naive = EinsumPath::from_shapes("ij,jk,kl->il", &shapes, EinsumStrategy::Naive, None)?;
/// assert_eq!(naive.steps, vec![(0, 1), (0, 1)]);
/// assert!(naive.optimized_flops > greedy.optimized_flops);
/// # Ok::<(), gpuarray::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// The cheapest order under the memory limit, by exhaustive search, like
    /// `numpy.einsum_path(optimize='optimal')`; plans like `Greedy` beyond 8 operands.
    Optimal,
    /// At each step the pair that removes the most elements (then the cheapest), like
    /// `numpy.einsum_path(optimize='greedy')`, NumPy's default for `optimize=True`.
    Greedy,
    /// Left to right: operands 0 and 1, then that result with operand 2, and so on; in the
    /// path convention the steps are `(0, 1)`, then `(0, k)` with the running result last.
    Naive,
}

/// A contraction plan: the pairwise steps and the figures `numpy.einsum_path` reports.
///
/// Each step names two positions in the *current* operand list (opt_einsum's and NumPy's
/// convention): the two are removed and their result is appended at the end. `Display` prints a
/// report like `numpy.einsum_path`'s.
///
/// ```
/// use gpuarray::{EinsumPath, EinsumStrategy};
///
/// let c: &[usize] = &[10, 10];
/// let i: &[usize] = &[10, 10, 10, 10];
/// let plan = EinsumPath::from_shapes(
///     "ea,fb,abcd,gc,hd->efgh", &[c, c, i, c, c], EinsumStrategy::Greedy, None)?;
/// assert_eq!(plan.steps, vec![(0, 2), (0, 3), (0, 2), (0, 1)]);
/// assert_eq!(plan.naive_flops, 500_000_000); // 10^8 points × (4 + 1)
/// assert_eq!(plan.optimized_flops, 800_001); // NumPy's report counts one more
/// assert_eq!(plan.step_subscripts[0], "abcd,ea->bcde");
/// println!("{plan}");
/// # Ok::<(), gpuarray::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct EinsumPath {
    /// The pairwise contractions, positions `i < j` in the current operand list.
    pub steps: Vec<(usize, usize)>,
    /// NumPy's "Naive FLOP count": every label's size multiplied, times the number of operands
    /// less one (at least one), plus one if a label is shared by operands.
    pub naive_flops: u128,
    /// NumPy's "Optimized FLOP count": the steps' costs (`step_flops`) summed, plus one, as
    /// `numpy.einsum_path` reports it.
    pub optimized_flops: u128,
    /// The most elements of any step's result (the output included).
    pub largest_intermediate: u128,
    /// The expanded explicit form, e.g. `"ij,jk,kl->il"`; broadcast dims are written with the
    /// highest letters the expression leaves unused, as NumPy writes them with unused letters.
    pub subscripts: String,
    /// Each step as an einsum, e.g. `"kl,jk->jl"`, as in NumPy's report: the later operand first,
    /// intermediates' labels ordered by size, then letter.
    pub step_subscripts: Vec<String>,
    /// The labels of each step's result, in the order of `step_subscripts` (the last is the
    /// output); label numbering as the parser's (0..52 letters A-Z a-z, then broadcast dims).
    pub step_results: Vec<Vec<u16>>,
    /// Each step's cost: the sizes of all labels it touches multiplied, doubled if it sums one.
    pub step_flops: Vec<u128>,
    /// "Naive scaling": how many distinct labels the expression has.
    pub naive_scaling: usize,
    /// "Optimized scaling": the most labels any step touches.
    pub optimized_scaling: usize,
    /// The intermediate-size cap the plan kept to, in elements.
    pub memory_limit: u128,
    /// The strategy that made the plan.
    pub strategy: Strategy,
    /// `Some(k)` when NumPy's path is not pairwise from step `k` on: it contracts all remaining
    /// operands in one einsum there, because no pair fits under the memory limit (for greedy:
    /// or costs less than the naive contraction), or, with `k = 0`, because nothing is summed.
    /// Our steps from `k` on continue pairwise (without the cap), so figures differ from NumPy's.
    pub nary_fallback: Option<usize>,
    /// One report line per step (one for the whole contraction for a single operand).
    rows: Vec<Row>,
}

#[derive(Debug, Clone)]
struct Row {
    scaling: usize,
    current: String,
    remaining: String,
}

impl EinsumPath {
    /// Plans `subscripts` for operands of the given shapes, without any arrays: parses with
    /// NumPy's rules (see [`crate::Error::Einsum`]), then plans with `strategy` under
    /// `memory_limit` elements (`None`: NumPy's default, the largest input or output).
    pub fn from_shapes(
        subscripts: &str,
        shapes: &[&[usize]],
        strategy: Strategy,
        memory_limit: Option<u128>,
    ) -> crate::Result<EinsumPath> {
        Ok(plan(&parse(subscripts, shapes)?, strategy, memory_limit))
    }
}

/// Plans the contraction order for `parsed` with `strategy`; `memory_limit` (elements) caps
/// intermediates like opt_einsum's memory_limit (None = NumPy's default: the largest input or
/// output size).
pub(crate) fn plan(parsed: &Parsed, strategy: Strategy, memory_limit: Option<u128>) -> EinsumPath {
    let model = Model::new(parsed);
    let n = parsed.inputs.len();
    let limit = memory_limit.unwrap_or_else(|| default_limit(parsed));
    let sets: Vec<Set> = parsed.inputs.iter().map(|t| set_of(t)).collect();
    let all = sets.iter().fold(0, |a, &s| a | s);

    let (steps, nary_fallback) = match n {
        1 => (Vec::new(), None),
        2 => (vec![(0, 1)], None),
        _ => {
            let (steps, fallback) = match strategy {
                Strategy::Naive => (naive_path(n), None),
                Strategy::Optimal if n <= OPTIMAL_MAX_OPERANDS => model.optimal(sets, limit),
                Strategy::Optimal | Strategy::Greedy => model.greedy(sets, limit),
            };
            // NumPy skips the search when nothing is summed and runs one n-ary einsum.
            let skipped = all == model.output && strategy != Strategy::Naive;
            (steps, if skipped { Some(0) } else { fallback })
        }
    };
    model.report(parsed, steps, strategy, limit, nary_fallback)
}

/// NumPy's default memory limit: the largest input or output, in elements (a repeated label
/// counts once per axis, as NumPy sizes the term string).
fn default_limit(parsed: &Parsed) -> u128 {
    let size = |labels: &[Label]| {
        labels.iter().fold(1u128, |a, &l| {
            a.saturating_mul(parsed.sizes[l as usize] as u128)
        })
    };
    parsed
        .inputs
        .iter()
        .map(|t| size(t))
        .chain(std::iter::once(size(&parsed.output)))
        .max()
        .unwrap_or(0)
}

fn set_of(labels: &[Label]) -> Set {
    labels.iter().fold(0, |s, &l| s | 1 << l)
}

/// Left to right: `(0, 1)`, then the next operand (always at position 0) with the running
/// result (always last).
fn naive_path(n: usize) -> Vec<(usize, usize)> {
    std::iter::once((0, 1))
        .chain((1..n - 1).rev().map(|last| (0, last)))
        .collect()
}

/// What one pairwise contraction does (NumPy's `_find_contraction`).
struct Contraction {
    /// Every label the two operands touch.
    touched: Set,
    /// The labels the result keeps: those also needed by another operand or the output.
    result: Set,
    /// The labels summed away.
    removed: Set,
}

/// A candidate pair in NumPy's greedy search.
#[derive(Clone, Copy)]
struct Candidate {
    /// `(-(elements removed), cost)`: the smallest wins, the first of equals.
    key: (i128, u128),
    pos: (usize, usize),
    result: Set,
}

/// The cost model: label sizes and the output's labels.
struct Model {
    sizes: Vec<u128>,
    output: Set,
}

impl Model {
    fn new(parsed: &Parsed) -> Model {
        Model {
            sizes: parsed.sizes.iter().map(|&s| s as u128).collect(),
            output: set_of(&parsed.output),
        }
    }

    /// Elements of a tensor with these labels (saturating: sizes are only compared).
    fn size(&self, mut set: Set) -> u128 {
        let mut p = 1u128;
        while set != 0 {
            let l = set.trailing_zeros() as usize;
            p = p.saturating_mul(self.sizes[l]);
            set &= set - 1;
        }
        p
    }

    /// NumPy's `_flop_count`: the touched labels' sizes multiplied, times the number of terms less
    /// one (at least one), plus one more if anything is summed.
    fn flops(&self, touched: Set, summed: bool, terms: usize) -> u128 {
        let factor = terms.saturating_sub(1).max(1) as u128 + summed as u128;
        self.size(touched).saturating_mul(factor)
    }

    /// Contracting positions `picked` of `sets`.
    fn contract(&self, sets: &[Set], picked: &[usize]) -> Contraction {
        let mut touched = 0;
        let mut kept = self.output;
        for (k, &s) in sets.iter().enumerate() {
            if picked.contains(&k) {
                touched |= s;
            } else {
                kept |= s;
            }
        }
        let result = touched & kept;
        Contraction {
            touched,
            result,
            removed: touched & !result,
        }
    }

    /// `sets` after contracting `i < j` into `result`: both removed, the result appended.
    fn after(sets: &[Set], (i, j): (usize, usize), result: Set) -> Vec<Set> {
        let mut next = Vec::with_capacity(sets.len() - 1);
        next.extend(
            sets.iter()
                .enumerate()
                .filter(|&(k, _)| k != i && k != j)
                .map(|(_, &s)| s),
        );
        next.push(result);
        next
    }

    // ---- greedy ---------------------------------------------------------------------------------

    /// NumPy's `_parse_possible_contraction`: the pair's sort key, or `None` when its result
    /// exceeds the memory limit or the path so far plus it costs more than the naive contraction
    /// (both sieves off once `relaxed`).
    #[allow(clippy::too_many_arguments)]
    fn candidate(
        &self,
        sets: &[Set],
        pos: (usize, usize),
        limit: u128,
        path_cost: u128,
        naive_cost: u128,
        relaxed: bool,
    ) -> Option<Candidate> {
        let c = self.contract(sets, &[pos.0, pos.1]);
        let new_size = self.size(c.result);
        if !relaxed && new_size > limit {
            return None;
        }
        let clamp = |v: u128| v.min(i128::MAX as u128) as i128;
        let old = clamp(self.size(sets[pos.0])).saturating_add(clamp(self.size(sets[pos.1])));
        let removed_size = old.saturating_sub(clamp(new_size));
        let cost = self.flops(c.touched, c.removed != 0, 2);
        if !relaxed && path_cost.saturating_add(cost) > naive_cost {
            return None;
        }
        Some(Candidate {
            key: (removed_size.saturating_neg(), cost),
            pos,
            result: c.result,
        })
    }

    /// NumPy's `_greedy_path`. Candidates found in earlier rounds are kept (with their positions
    /// renumbered) and not re-sieved, exactly as NumPy does, since ties and sieving depend on it.
    fn greedy(&self, mut sets: Vec<Set>, limit: u128) -> (Vec<(usize, usize)>, Option<usize>) {
        let n = sets.len();
        let everything = self.contract(&sets, &(0..n).collect::<Vec<_>>());
        let naive_cost = self.flops(everything.touched, everything.removed != 0, n);
        let all_pairs = |m: usize| -> Vec<(usize, usize)> {
            (0..m)
                .flat_map(|i| (i + 1..m).map(move |j| (i, j)))
                .collect()
        };

        let mut known: Vec<Candidate> = Vec::new();
        let mut path = Vec::with_capacity(n - 1);
        let mut path_cost = 0u128;
        let mut fallback = None;
        let mut relaxed = false;
        let mut fresh = all_pairs(n);
        while sets.len() > 1 {
            // Pairs that share a label first: outer products only when nothing else is left.
            let scan = |known: &mut Vec<Candidate>,
                        pairs: &[(usize, usize)],
                        skip_outer: bool,
                        relaxed: bool| {
                for &(x, y) in pairs {
                    if skip_outer && sets[x] & sets[y] == 0 {
                        continue;
                    }
                    known.extend(self.candidate(
                        &sets,
                        (x, y),
                        limit,
                        path_cost,
                        naive_cost,
                        relaxed,
                    ));
                }
            };
            scan(&mut known, &fresh, true, relaxed);
            if known.is_empty() {
                scan(&mut known, &all_pairs(sets.len()), false, relaxed);
            }
            if known.is_empty() {
                // NumPy gives up pairing here and contracts what is left in one einsum (with
                // two left, that is just the last pair). We keep pairing, by the same rule,
                // without the sieves.
                if sets.len() > 2 {
                    fallback = Some(path.len());
                }
                relaxed = true;
                scan(&mut known, &all_pairs(sets.len()), true, relaxed);
                if known.is_empty() {
                    scan(&mut known, &all_pairs(sets.len()), false, relaxed);
                }
            }
            let best = *known
                .iter()
                .reduce(|b, c| if c.key < b.key { c } else { b })
                .expect("a relaxed scan of two or more operands always yields a candidate");
            let (bx, by) = best.pos;
            let shift = |p: usize| p - (p > bx) as usize - (p > by) as usize;
            known = known
                .into_iter()
                .filter(|c| ![c.pos.0, c.pos.1].iter().any(|&p| p == bx || p == by))
                .map(|c| Candidate {
                    pos: (shift(c.pos.0), shift(c.pos.1)),
                    ..c
                })
                .collect();
            sets = Self::after(&sets, best.pos, best.result);
            path.push(best.pos);
            path_cost = path_cost.saturating_add(best.key.1);
            let last = sets.len() - 1;
            fresh = (0..last).map(|i| (i, last)).collect();
        }
        (path, fallback)
    }

    // ---- optimal --------------------------------------------------------------------------------

    /// NumPy's `_optimal_path`: the cheapest complete order whose every intermediate fits under
    /// `limit`; of equal costs, the first in lexicographic order (NumPy's breadth-first list is
    /// in that order and `min` keeps the first). Depth-first with branch and bound here.
    fn optimal(&self, sets: Vec<Set>, limit: u128) -> (Vec<(usize, usize)>, Option<usize>) {
        let n = sets.len();
        // When no complete order fits, NumPy takes the cheapest of the longest partial orders
        // that fit and contracts what is left in one einsum: find that depth, from the top.
        let (mut path, depth) = (0..n)
            .rev()
            .find_map(|depth| {
                let mut best = None;
                self.search(&sets, limit, depth, 0, &mut Vec::new(), &mut best);
                best.map(|(_, path)| (path, depth))
            })
            .unwrap_or_default();
        if depth == n - 1 {
            return (path, None);
        }
        // We finish pairwise instead, uncapped (with two left, NumPy's "rest" is that pair).
        let mut rest = sets;
        for &p in &path {
            let c = self.contract(&rest, &[p.0, p.1]);
            rest = Self::after(&rest, p, c.result);
        }
        let fallback = (rest.len() > 2).then_some(depth);
        let mut tail = None;
        self.search(
            &rest,
            u128::MAX,
            rest.len() - 1,
            0,
            &mut Vec::new(),
            &mut tail,
        );
        path.extend(tail.map(|t| t.1).unwrap_or_default());
        (path, fallback)
    }

    /// The cheapest (then lexicographically first) order of `depth` steps from `sets` whose
    /// intermediates fit under `limit`, into `best`.
    fn search(
        &self,
        sets: &[Set],
        limit: u128,
        depth: usize,
        cost: u128,
        path: &mut Vec<(usize, usize)>,
        best: &mut Option<(u128, Vec<(usize, usize)>)>,
    ) {
        if path.len() == depth {
            if best.as_ref().is_none_or(|b| cost < b.0) {
                *best = Some((cost, path.clone()));
            }
            return;
        }
        let m = sets.len();
        for i in 0..m {
            for j in i + 1..m {
                let c = self.contract(sets, &[i, j]);
                if self.size(c.result) > limit {
                    continue;
                }
                let total = cost.saturating_add(self.flops(c.touched, c.removed != 0, 2));
                // Costs only grow, and everything found later is later in lexicographic order,
                // so a branch that cannot beat the best strictly is dead.
                if best.as_ref().is_some_and(|b| total >= b.0) {
                    continue;
                }
                path.push((i, j));
                let next = Self::after(sets, (i, j), c.result);
                self.search(&next, limit, depth, total, path, best);
                path.pop();
            }
        }
    }

    // ---- the report -----------------------------------------------------------------------------

    /// Walks `steps` the way `numpy.einsum_path` does to build its figures and table.
    fn report(
        &self,
        parsed: &Parsed,
        steps: Vec<(usize, usize)>,
        strategy: Strategy,
        memory_limit: u128,
        nary_fallback: Option<usize>,
    ) -> EinsumPath {
        let names = display_names(parsed);
        let term = |labels: &[Label]| -> String {
            labels.iter().map(|&l| names[l as usize].as_str()).collect()
        };
        let output = term(&parsed.output);
        let mut terms: Vec<String> = parsed.inputs.iter().map(|t| term(t)).collect();
        let mut sets: Vec<Set> = parsed.inputs.iter().map(|t| set_of(t)).collect();
        let subscripts = format!("{}->{output}", terms.join(","));

        let all = sets.iter().fold(0, |a, &s| a | s);
        let n = sets.len();
        // NumPy's naive count adds one when some label is shared between operands.
        let shared = sets.iter().map(|s| s.count_ones()).sum::<u32>() > all.count_ones();
        let naive_flops = self.flops(all, shared, n);

        let mut rows = Vec::new();
        let mut step_subscripts = Vec::new();
        let mut step_results = Vec::new();
        let mut costs = Vec::new();
        let mut largest = 0u128;
        // A single operand has no steps, but NumPy's report (and its figures) still count it as
        // one contraction.
        let pseudo = [(0usize, 0usize)];
        let walk: &[(usize, usize)] = if n == 1 { &pseudo } else { &steps };
        for (k, &(i, j)) in walk.iter().enumerate() {
            let picked: &[usize] = if n == 1 { &[0] } else { &[i, j] };
            let c = self.contract(&sets, picked);
            costs.push(self.flops(c.touched, c.removed != 0, picked.len()));
            largest = largest.max(self.size(c.result));
            // The last step produces the output in its order; others order labels by size,
            // then name, as NumPy does.
            let result: Vec<Label> = if k + 1 == walk.len() {
                parsed.output.clone()
            } else {
                let mut r: Vec<Label> = (0..128u16).filter(|&l| c.result >> l & 1 == 1).collect();
                r.sort_by(|&a, &b| {
                    (self.sizes[a as usize], &names[a as usize])
                        .cmp(&(self.sizes[b as usize], &names[b as usize]))
                });
                r
            };
            // NumPy removes the later position first, so it is written first.
            let written: Vec<String> = picked.iter().rev().map(|&p| terms.remove(p)).collect();
            let current = format!("{}->{}", written.join(","), term(&result));
            sets = if n == 1 {
                vec![c.result]
            } else {
                Self::after(&sets, (i, j), c.result)
            };
            terms.push(term(&result));
            rows.push(Row {
                scaling: c.touched.count_ones() as usize,
                current: current.clone(),
                remaining: format!("{}->{output}", terms.join(",")),
            });
            step_subscripts.push(current);
            step_results.push(result);
        }
        let optimized_flops = costs.iter().fold(1u128, |a, &c| a.saturating_add(c));
        if n == 1 {
            step_subscripts.clear();
            step_results.clear();
            costs.clear();
        }
        EinsumPath {
            steps,
            naive_flops,
            optimized_flops,
            largest_intermediate: largest,
            subscripts,
            step_subscripts,
            step_results,
            step_flops: costs,
            naive_scaling: all.count_ones() as usize,
            optimized_scaling: rows.iter().map(|r| r.scaling).max().unwrap_or(0),
            memory_limit,
            strategy,
            nary_fallback,
            rows,
        }
    }
}

/// How each label is written in the report: letters as themselves; broadcast dims as the
/// highest letters the expression does not use (NumPy also picks unused letters, in an order
/// that varies between runs), or `"...k"` when too few letters are left.
fn display_names(parsed: &Parsed) -> Vec<String> {
    let used = parsed.inputs.iter().fold(0, |s: Set, t| s | set_of(t));
    let unused: Vec<Label> = (0..LETTERS as Label)
        .filter(|&l| used >> l & 1 == 0)
        .collect();
    let nb = parsed.ndim_broadcast;
    (0..LETTERS + nb)
        .map(|l| {
            let l = l as Label;
            match letter_char(l) {
                Some(c) => c.to_string(),
                None if unused.len() >= nb => {
                    let k = l as usize - LETTERS;
                    letter_char(unused[unused.len() - nb + k])
                        .expect("unused letters are letters")
                        .to_string()
                }
                None => Parsed::label_name(l),
            }
        })
        .collect()
}

/// Python's `'%.3e'`: Rust's mantissa (rounded the same way) with a signed, two-digit exponent.
fn sci(v: u128) -> String {
    let s = format!("{:.3e}", v as f64);
    match s.split_once('e') {
        Some((m, e)) => {
            let (sign, digits) = e.strip_prefix('-').map_or(("+", e), |d| ("-", d));
            format!("{m}e{sign}{digits:0>2}")
        }
        None => s,
    }
}

impl fmt::Display for EinsumPath {
    /// The report `numpy.einsum_path` prints, line for line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let speedup = self.naive_flops as f64 / self.optimized_flops as f64;
        writeln!(f, "  Complete contraction:  {}", self.subscripts)?;
        writeln!(f, "         Naive scaling:  {}", self.naive_scaling)?;
        writeln!(f, "     Optimized scaling:  {}", self.optimized_scaling)?;
        writeln!(f, "      Naive FLOP count:  {}", sci(self.naive_flops))?;
        writeln!(f, "  Optimized FLOP count:  {}", sci(self.optimized_flops))?;
        writeln!(f, "   Theoretical speedup:  {speedup:.3}")?;
        writeln!(
            f,
            "  Largest intermediate:  {} elements",
            sci(self.largest_intermediate)
        )?;
        writeln!(f, "{}", "-".repeat(74))?;
        writeln!(f, "{:>6} {:>24} {:>40}", "scaling", "current", "remaining")?;
        write!(f, "{}", "-".repeat(74))?;
        for r in &self.rows {
            write!(
                f,
                "\n{:>4}    {:>24} {:>40}",
                r.scaling, r.current, r.remaining
            )?;
        }
        if let Some(k) = self.nary_fallback {
            write!(
                f,
                "\n(NumPy would contract the {} operands left after {k} steps in one einsum.)",
                self.steps.len() + 1 - k
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn planned(
        s: &str,
        shapes: &[&[usize]],
        strategy: Strategy,
        limit: Option<u128>,
    ) -> EinsumPath {
        EinsumPath::from_shapes(s, shapes, strategy, limit).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn dims(text: &str) -> Vec<usize> {
        if text == "()" {
            return Vec::new();
        }
        text.split('x')
            .map(|d| d.parse().expect("a size"))
            .collect()
    }

    /// `"(1,2) (0,1,2)"` or `"(1,2)(0,1,2)"` as position lists.
    fn path_entries(text: &str) -> Vec<Vec<usize>> {
        text.split(['(', ')', ' '])
            .filter(|t| !t.is_empty())
            .map(|t| {
                t.split(',')
                    .map(|p| p.parse().expect("a position"))
                    .collect()
            })
            .collect()
    }

    fn strategy(name: &str) -> Strategy {
        match name {
            "greedy" => Strategy::Greedy,
            "optimal" => Strategy::Optimal,
            other => panic!("unknown algorithm {other}"),
        }
    }

    /// NumPy's verdict on one expression.
    struct Expected {
        what: String,
        path: Vec<Vec<usize>>,
        naive: u128,
        optimized: u128,
        largest: u128,
        report: Option<String>,
    }

    /// Checks our plan against NumPy's: the same pairs; where NumPy's path turns into one n-ary
    /// contraction, the same pairs up to there and `nary_fallback` pointing at it; otherwise the
    /// same figures, and the same report when it holds no broadcast-dim letters (NumPy picks
    /// those from a hash-ordered set).
    fn check(plan: &EinsumPath, n: usize, want: &Expected) {
        let what = &want.what;
        if n == 1 {
            assert_eq!(want.path, vec![vec![0]], "{what}");
            assert!(plan.steps.is_empty(), "{what}");
        } else if let Some(k) = want.path.iter().position(|p| p.len() != 2) {
            let pairs: Vec<(usize, usize)> = want.path[..k].iter().map(|p| (p[0], p[1])).collect();
            assert_eq!(
                &plan.steps[..k],
                pairs.as_slice(),
                "{what}: steps before NumPy's n-ary one"
            );
            assert_eq!(plan.nary_fallback, Some(k), "{what}");
            assert_eq!(plan.steps.len(), n - 1, "{what}");
            return;
        } else {
            let pairs: Vec<(usize, usize)> = want.path.iter().map(|p| (p[0], p[1])).collect();
            assert_eq!(plan.steps, pairs, "{what}");
        }
        assert_eq!(plan.nary_fallback, None, "{what}");
        assert_eq!(plan.naive_flops, want.naive, "{what}: naive FLOP count");
        assert_eq!(
            plan.optimized_flops, want.optimized,
            "{what}: optimized FLOP count"
        );
        assert_eq!(
            plan.largest_intermediate, want.largest,
            "{what}: largest intermediate"
        );
        if let Some(report) = &want.report {
            assert_eq!(plan.to_string(), *report, "{what}: report");
        }
    }

    /// numpy.einsum_path on the table in `tests/golden/einsum_paths.py` and on generated
    /// expressions, for both algorithms.
    #[test]
    fn einsum_paths_match_numpy() {
        let golden = include_str!("../../../tests/golden/einsum_paths.txt");
        let (mut table, mut random) = (0, 0);
        let mut lines = golden.lines().filter(|l| !l.starts_with('#')).peekable();
        while let Some(line) = lines.next() {
            let (kind, rest) = line.split_once(' ').expect("a tagged line");
            let (s, shapes, limit, algo, want) = match kind {
                "case" => {
                    let mut field = |key: &str| {
                        let l = lines.next().expect("a field");
                        l.strip_prefix(key).expect(key).trim_start().to_string()
                    };
                    let (expr, shapes, limit, path) = (
                        field("expr"),
                        field("shapes"),
                        field("limit"),
                        field("path"),
                    );
                    let (naive, optimized, largest) = (
                        field("naive_flops"),
                        field("optimized_flops"),
                        field("largest"),
                    );
                    assert_eq!(lines.next(), Some("report"));
                    let mut report = Vec::new();
                    for l in lines.by_ref() {
                        if l == "end" {
                            break;
                        }
                        report.push(l.strip_prefix("| ").unwrap_or(l.trim_start_matches('|')));
                    }
                    let (name, algo) = rest.split_once(' ').expect("name and algorithm");
                    table += 1;
                    let want = Expected {
                        what: format!("{name} ({algo}): {expr}"),
                        path: path_entries(&path),
                        naive: naive.parse().unwrap(),
                        optimized: optimized.parse().unwrap(),
                        largest: largest.parse().unwrap(),
                        report: (!expr.contains("...")).then(|| report.join("\n")),
                    };
                    (
                        expr,
                        shapes.replace(' ', ";"),
                        limit,
                        algo.to_string(),
                        want,
                    )
                }
                "random" => {
                    let f: Vec<&str> = rest.split(' ').collect();
                    random += 1;
                    let want = Expected {
                        what: format!("random ({}): {} {}", f[0], f[1], f[2]),
                        path: path_entries(f[4]),
                        naive: f[5].parse().unwrap(),
                        optimized: f[6].parse().unwrap(),
                        largest: f[7].parse().unwrap(),
                        report: None,
                    };
                    (
                        f[1].to_string(),
                        f[2].to_string(),
                        f[3].to_string(),
                        f[0].to_string(),
                        want,
                    )
                }
                other => panic!("unknown line kind {other}"),
            };
            let shapes: Vec<Vec<usize>> = shapes.split(';').map(dims).collect();
            let refs: Vec<&[usize]> = shapes.iter().map(|s| s.as_slice()).collect();
            let limit = (limit != "default").then(|| limit.parse().expect("a limit"));
            let plan = planned(&s, &refs, strategy(&algo), limit);
            check(&plan, refs.len(), &want);
        }
        assert!(
            table >= 40 && random >= 300,
            "{table} table and {random} random cases"
        );
    }

    #[test]
    fn einsum_trivial_plans() {
        let p = planned("ii->i", &[&[3, 3]], Strategy::Optimal, None);
        assert!(p.steps.is_empty() && p.step_subscripts.is_empty() && p.step_flops.is_empty());
        assert_eq!(p.largest_intermediate, 3);
        for s in [Strategy::Optimal, Strategy::Greedy, Strategy::Naive] {
            let p = planned("ij,jk->ik", &[&[2, 3], &[3, 4]], s, Some(1));
            assert_eq!(p.steps, vec![(0, 1)]);
            assert_eq!(p.step_subscripts, vec!["jk,ij->ik"]);
            assert_eq!(p.step_flops, vec![2 * 2 * 3 * 4]);
        }
    }

    #[test]
    fn einsum_naive_is_left_to_right() {
        let m: &[usize] = &[3, 3];
        let p = planned(
            "ab,bc,cd,de,ef->af",
            &[m, m, m, m, m],
            Strategy::Naive,
            None,
        );
        assert_eq!(p.steps, vec![(0, 1), (0, 3), (0, 2), (0, 1)]);
        // Each step takes the next operand and the running result.
        assert_eq!(
            p.step_subscripts,
            vec!["bc,ab->ac", "ac,cd->ad", "ad,de->ae", "ae,ef->af"]
        );
        assert_eq!(p.nary_fallback, None);
    }

    /// NumPy's `_optimal_path`, literally: breadth first over every order, keeping those whose
    /// intermediates fit, then the first cheapest; an n-ary tail where nothing fits. Written out
    /// again (with `_find_contraction`, `_flop_count` and `_compute_size_by_dict`) on ordered
    /// label sets, with none of the planner's code or cost model: the independent reference.
    fn numpy_optimal_reference(parsed: &Parsed, limit: u128) -> Vec<Vec<usize>> {
        use std::collections::BTreeSet;
        type Labels = BTreeSet<Label>;
        let size = |set: &Labels| -> u128 {
            set.iter().fold(1u128, |p, &l| {
                p.saturating_mul(parsed.sizes[l as usize] as u128)
            })
        };
        let output: Labels = parsed.output.iter().copied().collect();
        let inputs: Vec<Labels> = parsed
            .inputs
            .iter()
            .map(|t| t.iter().copied().collect())
            .collect();
        let n = inputs.len();
        let mut full: Vec<(u128, Vec<Vec<usize>>, Vec<Labels>)> = vec![(0, vec![], inputs)];
        for iteration in 0..n - 1 {
            let m = n - iteration;
            let mut next = Vec::new();
            for (cost, positions, remaining) in &full {
                for i in 0..m {
                    for j in i + 1..m {
                        // _find_contraction((i, j), remaining, output)
                        let mut contract = Labels::new();
                        let mut remain = output.clone();
                        let mut rest = Vec::new();
                        for (k, set) in remaining.iter().enumerate() {
                            if k == i || k == j {
                                contract.extend(set);
                            } else {
                                remain.extend(set);
                                rest.push(set.clone());
                            }
                        }
                        let result: Labels = remain.intersection(&contract).copied().collect();
                        let removed = contract.len() > result.len();
                        if size(&result) > limit {
                            continue;
                        }
                        rest.push(result);
                        // _flop_count(contract, removed, 2): max(1, 2 - 1) + inner.
                        let flops = size(&contract).saturating_mul(1 + u128::from(removed));
                        let mut path = positions.clone();
                        path.push(vec![i, j]);
                        next.push((cost.saturating_add(flops), path, rest));
                    }
                }
            }
            if next.is_empty() {
                // Python's min: the first of the cheapest.
                let best = full.iter().min_by_key(|r| r.0).expect("a partial path");
                let mut path = best.1.clone();
                path.push((0..m).collect());
                return path;
            }
            full = next;
        }
        full.into_iter().min_by_key(|r| r.0).expect("a path").1
    }

    /// A small deterministic generator (xorshift64*), so failures reproduce.
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
    }

    /// A random expression of `n` operands over a few labels with random sizes.
    fn random_expression(rng: &mut Rng, n: usize) -> (String, Vec<Vec<usize>>) {
        let letters: Vec<char> = "abcdefg".chars().take(3 + rng.below(5)).collect();
        let size: Vec<usize> = letters
            .iter()
            .map(|_| [1, 2, 3, 4, 5, 7, 10][rng.below(7)])
            .collect();
        let mut terms = Vec::new();
        let mut shapes = Vec::new();
        for _ in 0..n {
            let mut t = Vec::new();
            for _ in 0..rng.below(4) {
                let k = rng.below(letters.len());
                if !t.contains(&k) {
                    t.push(k);
                }
            }
            terms.push(t.iter().map(|&k| letters[k]).collect::<String>());
            shapes.push(t.iter().map(|&k| size[k]).collect());
        }
        let used: Vec<char> = letters
            .iter()
            .copied()
            .filter(|c| terms.iter().any(|t| t.contains(*c)))
            .collect();
        let out: String = used.into_iter().filter(|_| rng.below(3) == 0).collect();
        (format!("{}->{out}", terms.join(",")), shapes)
    }

    /// Branch and bound finds NumPy's breadth-first answer, ties and memory fallbacks included.
    #[test]
    fn einsum_optimal_equals_exhaustive_search() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut fallbacks = 0;
        for case in 0..400 {
            let n = 3 + rng.below(4);
            let (s, shapes) = random_expression(&mut rng, n);
            let refs: Vec<&[usize]> = shapes.iter().map(|s| s.as_slice()).collect();
            let parsed = parse(&s, &refs).unwrap();
            let limit = if case % 3 == 0 {
                Some(1 + rng.below(100) as u128)
            } else {
                None
            };
            let plan = plan(&parsed, Strategy::Optimal, limit);
            let all: std::collections::BTreeSet<Label> =
                parsed.inputs.iter().flatten().copied().collect();
            let out: std::collections::BTreeSet<Label> = parsed.output.iter().copied().collect();
            if all == out {
                continue; // NumPy does not search these at all
            }
            let want = numpy_optimal_reference(&parsed, plan.memory_limit);
            match want.iter().position(|p| p.len() != 2) {
                Some(k) => {
                    fallbacks += 1;
                    assert_eq!(
                        plan.nary_fallback,
                        Some(k),
                        "{s} {shapes:?} limit {limit:?}"
                    );
                    let pairs: Vec<(usize, usize)> =
                        want[..k].iter().map(|p| (p[0], p[1])).collect();
                    assert_eq!(&plan.steps[..k], pairs.as_slice(), "{s} {shapes:?}");
                }
                None => {
                    let pairs: Vec<(usize, usize)> = want.iter().map(|p| (p[0], p[1])).collect();
                    assert_eq!(plan.steps, pairs, "{s} {shapes:?} limit {limit:?}");
                }
            }
            assert_eq!(plan.steps.len(), n - 1);
        }
        assert!(
            fallbacks >= 5,
            "only {fallbacks} memory fallbacks exercised"
        );
    }

    /// Without a memory cap in the way, the exhaustive plan is never dearer than the greedy one.
    #[test]
    fn einsum_optimal_never_worse_than_greedy() {
        let mut rng = Rng(42);
        for _ in 0..300 {
            let n = 3 + rng.below(5);
            let (s, shapes) = random_expression(&mut rng, n);
            let refs: Vec<&[usize]> = shapes.iter().map(|s| s.as_slice()).collect();
            let opt = planned(&s, &refs, Strategy::Optimal, Some(u128::MAX));
            let greedy = planned(&s, &refs, Strategy::Greedy, Some(u128::MAX));
            assert!(
                opt.optimized_flops <= greedy.optimized_flops,
                "{s} {shapes:?}"
            );
        }
    }

    /// Eight operands (the most searched exhaustively) plan quickly; nine go greedy.
    #[test]
    fn einsum_optimal_size_limit() {
        let started = std::time::Instant::now();
        let m: &[usize] = &[4, 4];
        let eight = [m; 8];
        let p = planned("ab,bc,cd,de,ef,fg,gh,ha->", &eight, Strategy::Optimal, None);
        assert_eq!(p.steps.len(), 7);
        // Every pair shares a label, and no cap prunes: the search's worst kind of case.
        let dense = planned("ab,ab,ab,ab,ab,ab,ab,ab->", &eight, Strategy::Optimal, None);
        assert_eq!(dense.steps.len(), 7);
        // Outer products only; and a cap that blocks just the last step, so the search for the
        // deepest partial order runs without a bound to prune with.
        let two: &[usize] = &[2];
        let outer = planned("a,b,c,d,e,f,g,h->", &[two; 8], Strategy::Optimal, None);
        assert_eq!(outer.steps.len(), 7);
        let mut shapes = [two; 8];
        shapes[0] = &[2, 2];
        let capped = planned(
            "ai,b,c,d,e,f,g,h->abcdefgh",
            &shapes,
            Strategy::Optimal,
            Some(127),
        );
        assert_eq!((capped.steps.len(), capped.nary_fallback), (7, None));
        assert!(
            started.elapsed().as_secs() < 20,
            "took {:?}",
            started.elapsed()
        );
        let nine = [m; 9];
        let s = "ab,bc,cd,de,ef,fg,gh,hi,ia->";
        let opt = planned(s, &nine, Strategy::Optimal, None);
        let greedy = planned(s, &nine, Strategy::Greedy, None);
        assert_eq!(opt.steps, greedy.steps);
    }

    /// Where NumPy would stop pairing, we go on pairwise and say so in the report.
    #[test]
    fn einsum_memory_fallback_stays_pairwise() {
        let shapes: [&[usize]; 5] = [&[3, 3, 4], &[4, 10, 3], &[3], &[3, 3, 10], &[10, 4, 3]];
        for s in [Strategy::Greedy, Strategy::Optimal] {
            let p = planned("cba,adb,b,cbd,dac->ab", &shapes, s, None);
            assert_eq!(p.steps[0], (0, 2));
            assert_eq!(p.nary_fallback, Some(1));
            assert_eq!(p.steps.len(), 4);
            assert!(p.to_string().ends_with(
                "(NumPy would contract the 4 operands left after 1 steps in one einsum.)"
            ));
        }
        // Nothing summed: NumPy runs one einsum from the start.
        let p = planned(
            "ab,bc,cd->abcd",
            &[&[2, 3], &[3, 4], &[4, 5]],
            Strategy::Greedy,
            None,
        );
        assert_eq!(p.nary_fallback, Some(0));
        assert_eq!(p.steps.len(), 2);
    }

    #[test]
    fn einsum_report_format() {
        assert_eq!(sci(0), "0.000e+00");
        assert_eq!(sci(160), "1.600e+02");
        assert_eq!(sci(10_625), "1.062e+04"); // ties to even, like Python
        assert_eq!(sci(u128::MAX), "3.403e+38");
        assert_eq!(sci(1_000_000_000_000_000_000_000_000_000_000), "1.000e+30");
        // Broadcast dims are written with the highest unused letters.
        let p = planned(
            "...ij,...jk->...ik",
            &[&[2, 3, 4], &[2, 4, 5]],
            Strategy::Greedy,
            None,
        );
        assert_eq!(p.subscripts, "zij,zjk->zik");
        let p = planned(
            "i...,i...->...",
            &[&[2, 3, 4], &[2, 3, 4]],
            Strategy::Greedy,
            None,
        );
        assert_eq!(p.subscripts, "iyz,iyz->yz");
    }
}
