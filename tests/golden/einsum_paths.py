#!/usr/bin/env python3
"""Golden contraction paths for gpuarray's einsum planner (src/ops/einsum/path.rs).

Runs numpy.einsum_path(expr, *operands, optimize=...) with 'greedy' and 'optimal' on a table of
expressions and prints, per case, NumPy's path, its exact naive and optimized FLOP counts, the
largest intermediate, and the printed report verbatim. The unit test in path.rs reads the output
(committed as einsum_paths.txt) and asserts our planner agrees.

    python3 tests/golden/einsum_paths.py > tests/golden/einsum_paths.txt
    python3 tests/golden/einsum_paths.py 5000 1 > /tmp/wide.txt   # more random cases, seed 1

After the table, "random" lines give the same figures (no report) for generated expressions of
3-6 operands with random sizes and memory limits, to pin tie-breaking and sieving:

    random <algo> <subscripts> <shapes> <limit> <path> <naive> <optimized> <largest>

The exact FLOP counts come from NumPy's own `_flop_count`: the last len(path) + 1 calls that
einsum_path makes are the per-step costs (in order) and the naive cost; they are checked against
the rounded figures of the report. Operands are zero-strided views (np.broadcast_to), so large
shapes cost no memory.
"""
import os
import sys

# Broadcast dims get "unused" letters from a Python set, whose order depends on the hash seed; pin
# it so the committed report text is reproducible.
if os.environ.get("PYTHONHASHSEED") != "0":
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable] + sys.argv)

import random

import numpy as np
from numpy._core import einsumfunc

CASES = [
    # (name, subscripts, shapes, memory limit or None for NumPy's default)
    # One and two operands: nothing to plan, but the report still has its figures.
    ("single", "iij->j", [(3, 3, 4)], None),
    ("pair", "ij,jk->ik", [(2, 3), (3, 4)], None),
    ("chain3", "ij,jk,kl->il", [(2, 2), (2, 5), (5, 2)], None),
    ("docs5", "ea,fb,abcd,gc,hd->efgh",
     [(10, 10), (10, 10), (10, 10, 10, 10), (10, 10), (10, 10)], None),
    ("abc_bcd_de", "abc,bcd,de->ae", [(4, 5, 6), (5, 6, 7), (7, 3)], None),
    ("chain7", "ab,bc,cd,de,ef,fg,gh->ah",
     [(10, 30), (30, 5), (5, 60), (60, 8), (8, 40), (40, 3), (3, 20)], None),
    ("ellipsis", "...ij,...jk,...kl->...il", [(2, 3, 4), (1, 4, 5), (2, 5, 6)], None),
    ("hadamard", "ij,ij,jk->ik", [(4, 5), (4, 5), (5, 6)], None),
    ("trace_inside", "iij,jk,kl->il", [(3, 3, 4), (4, 5), (5, 6)], None),
    ("greedy_vs_optimal", "dcc,fce,ea,dbf->ab",
     [(6, 5, 5), (7, 5, 2), (2, 4), (6, 3, 7)], None),
    ("scalar_out", "bca,cdb,dbf,afc->",
     [(3, 5, 4), (5, 6, 3), (6, 3, 7), (4, 7, 5)], None),
    ("size1_broadcast", "ab,bc,cd->ad", [(4, 1), (5, 6), (6, 3)], None),
    ("zero_d_operand", ",ab,bc,cd->ad", [(), (3, 4), (4, 5), (5, 6)], None),
    ("zero_size", "ab,bc,cd->ad", [(3, 0), (0, 4), (4, 5)], None),
    ("implicit_upper", "aB,Bc,cD", [(3, 4), (4, 5), (5, 6)], None),
    ("star6", "ab,ac,ad,ae,af,bcdef->a",
     [(3, 4), (3, 5), (3, 6), (3, 7), (3, 8), (4, 5, 6, 7, 8)], None),
    ("opt_einsum5", "abhe,hidj,jgba,hiab,gab",
     [(2, 3, 4, 5), (4, 6, 7, 8), (8, 9, 3, 2), (4, 6, 2, 3), (9, 2, 3)], None),
    # The default memory limit (the largest input or output) changes the path.
    ("memory_greedy", "cae,a,ead,cd->ac", [(8, 3, 2), (3,), (2, 3, 3), (8, 3)], None),
    ("memory_optimal", "dac,cda,cdb,abc->ab",
     [(2, 3, 3), (3, 2, 3), (3, 2, 4), (3, 4, 3)], None),
    # No pair fits the default limit after one step: NumPy contracts the rest in one einsum.
    ("memory_nary", "cba,adb,b,cbd,dac->ab",
     [(3, 3, 4), (4, 10, 3), (3,), (3, 3, 10), (10, 4, 3)], None),
    # An explicit limit, as in optimize=('greedy', 60).
    ("explicit_limit", "ab,bc,cd,de->ae", [(6, 4), (4, 10), (10, 5), (5, 6)], 60),
    # Nothing is summed: NumPy skips the search and runs one einsum.
    ("nothing_summed", "ab,bc,cd->abcd", [(2, 3), (3, 4), (4, 5)], None),
]

calls = []
_orig_flop_count = einsumfunc._flop_count


def _recording_flop_count(*args):
    value = _orig_flop_count(*args)
    calls.append(value)
    return value


einsumfunc._flop_count = _recording_flop_count


def report_value(report, key):
    for line in report.splitlines():
        if line.strip().startswith(key):
            return line.split(":", 1)[1].strip()
    raise KeyError(key)


def largest_intermediate(subscripts, path, shapes):
    """Replays the path with NumPy's helpers (as einsum_path does) for the exact figure."""
    inputs, output, _ = einsumfunc._parse_einsum_input(
        (subscripts, *[np.broadcast_to(np.zeros(()), s) for s in shapes]))
    terms = inputs.split(",")
    sizes = {}
    for term, shape in zip(terms, shapes):
        for c, d in zip(term, shape):
            sizes[c] = d if sizes.get(c, 1) == 1 else sizes[c]
    sets = [set(t) for t in terms]
    largest = 0
    for step in path:
        step = tuple(sorted(step, reverse=True))
        result, sets, _, _ = einsumfunc._find_contraction(step, sets, set(output))
        largest = max(largest, einsumfunc._compute_size_by_dict(result, sizes))
    return largest


def run(subscripts, shapes, algo, limit):
    """NumPy's path and exact figures, checked against its report."""
    operands = [np.broadcast_to(np.zeros(()), s) for s in shapes]
    optimize = algo if limit is None else (algo, limit)
    calls.clear()
    path, report = np.einsum_path(subscripts, *operands, optimize=optimize)
    path = path[1:]
    step_costs = calls[-len(path) - 1:-1]
    naive = calls[-1]
    optimized = sum(step_costs) + 1
    largest = largest_intermediate(subscripts, path, shapes)
    # The exact figures must be the ones the report rounds.
    assert f"{naive:.3e}" == report_value(report, "Naive FLOP count"), subscripts
    assert f"{optimized:.3e}" == report_value(report, "Optimized FLOP count"), subscripts
    assert f"{largest:.3e} elements" == report_value(report, "Largest intermediate"), subscripts
    return path, naive, optimized, largest, report


def shapes_text(shapes):
    return " ".join("x".join(map(str, s)) if s else "()" for s in shapes)


def path_text(path):
    return " ".join("(" + ",".join(map(str, p)) + ")" for p in path)


def random_case(rng):
    n = rng.randint(3, 6)
    letters = "abcdefgh"[:rng.randint(3, 8)]
    size = {c: rng.choice([1, 2, 2, 3, 3, 4, 5, 6, 8, 10]) for c in letters}
    terms = ["".join(rng.sample(letters, rng.randint(0, 3))) for _ in range(n)]
    used = sorted(set("".join(terms)))
    out = "".join(c for c in used if rng.random() < 0.3)
    shapes = [tuple(size[c] for c in t) for t in terms]
    limit = rng.choice([None, None, None, rng.randint(1, 200)])
    return ",".join(terms) + "->" + out, shapes, limit


print(f"# numpy.einsum_path golden cases, numpy {np.__version__}; "
      "generated by tests/golden/einsum_paths.py, do not edit")
for name, subscripts, shapes, limit in CASES:
    for algo in ("greedy", "optimal"):
        path, naive, optimized, largest, report = run(subscripts, shapes, algo, limit)
        print(f"case {name} {algo}")
        print(f"expr {subscripts}")
        print(f"shapes {shapes_text(shapes)}")
        print(f"limit {'default' if limit is None else limit}")
        print(f"path {path_text(path)}")
        print(f"naive_flops {naive}")
        print(f"optimized_flops {optimized}")
        print(f"largest {largest}")
        print("report")
        for line in report.splitlines():
            print("| " + line)
        print("end")

# A case count and seed on the command line widen the random part for one-off comparisons.
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 7)
for _ in range(int(sys.argv[1]) if len(sys.argv) > 1 else 150):
    subscripts, shapes, limit = random_case(rng)
    for algo in ("greedy", "optimal"):
        path, naive, optimized, largest, _ = run(subscripts, shapes, algo, limit)
        fields = [algo, subscripts, shapes_text(shapes).replace(" ", ";"),
                  "default" if limit is None else str(limit), path_text(path).replace(" ", ""),
                  str(naive), str(optimized), str(largest)]
        print("random " + " ".join(fields))
