#!/usr/bin/env python3
"""Golden parse outcomes for gpuarray's einsum parser (src/ops/einsum/parse.rs).

Generates random einsum calls (seeded, so the output is reproducible) — mostly well-formed
expressions with consistent shapes, then mutated: wrong sizes, extra or missing dims, stray
characters, bad ellipses and arrows, an operand too many or too few — runs numpy.einsum
(optimize=False, NumPy's default C parser) on zero arrays of those shapes, and prints one line per
call:

    <subscripts as hex UTF-8> <TAB> <shapes> <TAB> ok <output shape> | err <class>

where the class names NumPy's error and the details its message gives (see classify()). The unit
test in parse.rs asserts our parser accepts and rejects exactly the same calls, with the same
class of error and output shape.

    python3 tests/golden/einsum_parse.py > tests/golden/einsum_parse.txt

For a wider one-off comparison, pass a case count and a seed (the committed file uses the
defaults): python3 tests/golden/einsum_parse.py 100000 1
"""
import random
import re
import sys

import numpy as np

CASES = 3000


def classify(e):
    """NumPy's error as a class plus the details its message carries."""
    m = str(e)
    if isinstance(e, UnicodeEncodeError):
        return f"non_ascii {e.start}"
    rules = [
        (r"too many operands", "too_many_operands"),
        (r"more operands provided", "more_terms"),
        (r"fewer operands provided", "fewer_terms"),
        (r"contains too many subscripts for operand (\d+)", "too_many_subscripts {0}"),
        (r"not part of an ellipsis \('\.\.\.'\) in operand (\d+)", "bad_dot {0}"),
        (r"not part of an ellipsis \('\.\.\.'\) in the output", "bad_dot_out"),
        (r"invalid subscript '(.)'", "bad_char {0}"),
        (r"^operand has more dimensions than subscripts", "too_few_subscripts"),
        (r"does not contain proper '->'", "bad_arrow"),
        (r"includes output subscript '(.)' multiple times", "out_repeated {0}"),
        (r"included output subscript '(.)' which never appeared", "out_unknown {0}"),
        (r"^output has more dimensions than subscripts", "out_no_ellipsis"),
        (r"single operand for collapsing index '(.)' don't match \((\d+) != (\d+)\)",
         "diag_single {0} {1} {2}"),
        (r"in operand (\d+) for collapsing index '(.)' don't match \((\d+) != (\d+)\)",
         "diag {0} {1} {2} {3}"),
        (r"operands could not be broadcast", "broadcast"),
        (r"too many subscripts|too many distinct labels", "too_many_dims"),
        (r"iterator is too large", "too_large"),
    ]
    for pattern, cls in rules:
        match = re.search(pattern, m)
        if match:
            return cls.format(*match.groups())
    raise AssertionError(f"unclassified NumPy error: {type(e).__name__}: {m}")


def well_formed(rng):
    nop = rng.choice([1, 1, 2, 2, 2, 3, 3, 4, 5])
    pool = rng.sample("abcdeijkAZ", rng.randint(1, 6))
    size = {c: rng.choice([0, 1, 1, 2, 2, 3, 3, 4]) for c in pool}
    bshape = [rng.choice([1, 2, 3]) for _ in range(3)]
    terms, shapes = [], []
    for _ in range(nop):
        labels = [rng.choice(pool) for _ in range(rng.randint(0, 3))]
        shape = [size[c] for c in labels]
        if rng.random() < 0.3:
            k = rng.randint(0, 2)
            bdims = bshape[3 - k:]
            if rng.random() < 0.3 and bdims:
                bdims = [1 if rng.random() < 0.5 else 4 for _ in bdims]
            at = rng.randint(0, len(labels))
            labels = labels[:at] + ["..."] + labels[at:]
            shape = shape[:at] + bdims + shape[at:]
        for i in range(len(shape)):
            r = rng.random()
            if r < 0.06:
                shape[i] = 1
            elif r < 0.09:
                shape[i] = rng.randint(0, 4)
        if rng.random() < 0.04 and shape:
            shape.pop(rng.randrange(len(shape)))
        elif rng.random() < 0.04:
            shape.insert(rng.randint(0, len(shape)), rng.randint(1, 3))
        terms.append("".join(labels))
        shapes.append(tuple(shape))
    s = ",".join(terms)
    if rng.random() < 0.6:
        used = sorted({c for t in terms for c in t if c.isalpha()})
        out = [c for c in used if rng.random() < 0.5]
        rng.shuffle(out)
        if rng.random() < 0.05:
            out.append(rng.choice("abcdeijkAZ"))
        if rng.random() < 0.4:
            out.insert(rng.randint(0, len(out)), "...")
        s += "->" + "".join(out)
    chars = list(s)
    for _ in range(rng.choice([0, 0, 0, 1, 2])):
        chars.insert(rng.randint(0, len(chars)), " ")
    for _ in range(rng.choice([0, 0, 0, 0, 0, 0, 0, 1, 2])):
        edit = rng.choice(["insert", "replace", "delete"])
        c = rng.choice(" .,->$1Zaé.")
        i = rng.randint(0, len(chars))
        if edit == "insert":
            chars.insert(i, c)
        elif chars and i < len(chars):
            if edit == "replace":
                chars[i] = c
            else:
                del chars[i]
    if rng.random() < 0.05:
        shapes.append(tuple(rng.randint(1, 3) for _ in range(rng.randint(0, 2))))
    elif rng.random() < 0.05 and len(shapes) > 1:
        shapes.pop()
    return "".join(chars), shapes


def garbage(rng):
    s = "".join(rng.choice("ab.,->iA ") for _ in range(rng.randint(0, 10)))
    shapes = [tuple(rng.randint(0, 3) for _ in range(rng.randint(0, 3)))
              for _ in range(rng.randint(1, 3))]
    return s, shapes


def main():
    cases = int(sys.argv[1]) if len(sys.argv) > 1 else CASES
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 20240505)
    print(f"# numpy.einsum outcomes, numpy {np.__version__}; "
          "generated by tests/golden/einsum_parse.py, do not edit")
    for _ in range(cases):
        s, shapes = well_formed(rng) if rng.random() < 0.92 else garbage(rng)
        ops = [np.zeros(sh) for sh in shapes]
        try:
            r = np.einsum(s, *ops)
            result = "ok " + ("x".join(map(str, np.shape(r))) or "()")
        except Exception as e:  # every NumPy rejection is a ValueError (or its subclass)
            assert isinstance(e, ValueError), (s, shapes, e)
            result = "err " + classify(e)
        shape_text = " ".join("x".join(map(str, sh)) or "()" for sh in shapes)
        print(f"{s.encode().hex()}\t{shape_text}\t{result}")


main()
