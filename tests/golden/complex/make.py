#!/usr/bin/env python3
"""NumPy's answers for gpuarray's complex element-wise ops (tests/complex/arith.rs), on a grid
of ordinary and special values (signed zeros, infinities, NaN) in complex64 and complex128.

    python3 tests/golden/complex/make.py    # (re)writes values.txt beside this script

Each line: `op dtype a.re a.im [b.re b.im] -> r.re r.im` (bool results as 0 0 / 1 0; real
results with r.im 0), every float as Python's repr of the float64 value (the complex64 parts
are float32 values, exactly representable).
"""
import itertools
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

UNARY = ["negative", "conjugate", "square", "reciprocal", "sign", "sqrt", "exp", "log",
         "sin", "cos", "tan", "sinh", "cosh", "tanh", "absolute", "angle",
         "isnan", "isinf", "isfinite", "exp2", "expm1", "log2", "log10", "log1p",
         "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh", "logical_not"]
BINARY = ["add", "subtract", "multiply", "divide", "power", "equal", "not_equal",
          "less", "less_equal", "greater", "greater_equal", "maximum", "minimum", "fmax", "fmin",
          "logical_and", "logical_or", "logical_xor"]

PARTS = {
    "complex64": [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 1e-30, 7e30, float("inf"),
                  float("-inf"), float("nan"), 1e-5, 0.99999, 1.00001, 2e8],
    "complex128": [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 1e-300, 7e300, float("inf"),
                   float("-inf"), float("nan"), 1e-9, 0.9999999999, 1.0000000001, 3e16],
}
# Binary ops: fewer values per part (the grid is squared twice).
BINARY_PARTS = [0.0, -0.0, -2.5, float("inf"), float("nan")]


def fmt(x):
    return repr(float(x))


def main():
    lines = []
    with np.errstate(all="ignore"):
        for dtype in ("complex64", "complex128"):
            part = np.float32 if dtype == "complex64" else np.float64
            values = [complex(part(r), part(i)) for r, i in itertools.product(PARTS[dtype], repeat=2)]
            z = np.array(values, dtype=dtype)
            for op in UNARY:
                r = getattr(np, op)(z)
                for a, v in zip(z, r):
                    v = complex(v)
                    lines.append(f"{op} {dtype} {fmt(a.real)} {fmt(a.imag)} -> {fmt(v.real)} {fmt(v.imag)}")
            small = [complex(part(r), part(i)) for r, i in itertools.product(BINARY_PARTS, repeat=2)]
            a = np.array([x for x, _ in itertools.product(small, small)], dtype=dtype)
            b = np.array([y for _, y in itertools.product(small, small)], dtype=dtype)
            for op in BINARY:
                r = getattr(np, op)(a, b)
                for x, y, v in zip(a, b, r):
                    v = complex(v)
                    lines.append(f"{op} {dtype} {fmt(x.real)} {fmt(x.imag)} {fmt(y.real)} {fmt(y.imag)}"
                                 f" -> {fmt(v.real)} {fmt(v.imag)}")
            # Integer powers by repeated squaring, and a general power.
            base = np.array([complex(0.5, 1.25), complex(-1.5, 0.25), complex(2.0, -3.0)], dtype=dtype)
            for p in (4.0, -5.0, 17.0, 0.5, complex(1.5, -0.5)):
                e = np.array([p] * len(base), dtype=dtype)
                for x, y, v in zip(base, e, np.power(base, e)):
                    v = complex(v)
                    lines.append(f"power {dtype} {fmt(x.real)} {fmt(x.imag)} {fmt(y.real)} {fmt(y.imag)}"
                                 f" -> {fmt(v.real)} {fmt(v.imag)}")
    with open(os.path.join(HERE, "values.txt"), "w") as f:
        f.write(f"# numpy {np.__version__}; written by make.py\n")
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
