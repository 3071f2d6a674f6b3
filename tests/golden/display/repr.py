#!/usr/bin/env python3
"""Golden text for gpuarray's `Display` of arrays (src/array/display.rs): NumPy's `repr`.

Each case names a dtype, a shape, how its values are made (reproducible in the Rust test without
NumPy), an optional view and an optional print precision; the script prints NumPy's repr of it.
tests/display.rs builds the same arrays on the device and compares `format!("{a}")` (or
`format!("{a:.P}")`) with the text, byte for byte.

    python3 tests/golden/display/repr.py > tests/golden/display/repr.txt

Output, per case:

    case <name> dtype=<float32|...> shape=<a,b|-> gen=<spec> view=<spec> precision=<p|->
    <repr lines>
    end

gen: `range:START:STEP` (value i is START + i*STEP in float64, then cast to the dtype) or
`list:V1,V2,...` (Python float literals, `nan`, `inf`, `-inf`; cast to the dtype). Bool arrays
are `value != 0`. view: `-` (none), `T` (reverse the axes), `rev<AXIS>` (step -1 on that axis),
`step<AXIS>:<START>:<STEP>` (a slice START::STEP on that axis).
"""
import numpy as np

F, D, H, I, U, B = "float32", "float64", "float16", "int32", "uint32", "bool"
NAN, INF = float("nan"), float("inf")

CASES = [
    # (name, dtype, shape, gen, view, precision)
    ("f32_2x2", F, (2, 2), "list:1,2,3,4", "-", None),
    ("f64_2x3", D, (2, 3), "range:0:1", "-", None),
    ("f64_fractions", D, (4,), "list:0.1,0.25,-1.5,100.0", "-", None),
    ("f64_third", D, (3,), "list:0.3333333333333333,0.6666666666666666,1.0", "-", None),
    ("f32_third", F, (3,), "list:0.3333333333333333,0.6666666666666666,1.0", "-", None),
    ("f32_exp_small", F, (2,), "list:1e-05,1.5", "-", None),
    ("f64_exp_large", D, (2,), "list:100000000.0,1.0", "-", None),
    ("f64_exp3", D, (3,), "list:1e-300,1e+300,-2.5", "-", None),
    ("f64_big_positional", D, (2,), "list:12345678.9,99999.5", "-", None),
    ("f64_ratio", D, (2,), "list:123456.789,1.5", "-", None),
    ("f32_nan_inf", F, (4,), "list:nan,inf,-inf,1.5", "-", None),
    ("f64_nan_inf_only", D, (2,), "list:nan,inf", "-", None),
    ("f64_neg_inf_only", D, (2,), "list:nan,-inf", "-", None),
    ("f64_exp_nan", D, (3,), "list:1e-07,nan,2.0", "-", None),
    ("f64_neg_zero", D, (2,), "list:-0.0,1.0", "-", None),
    ("f64_zeros", D, (3,), "list:0,0,0", "-", None),
    ("f16_values", H, (3,), "list:0.1,0.5,1.0", "-", None),
    ("f16_exp", H, (3,), "list:0.1,65504,-0.0", "-", None),
    ("f16_small", H, (2,), "list:6e-05,0.001", "-", None),
    ("i32_2x5", I, (2, 5), "range:-5:1", "-", None),
    ("u32_big", U, (3,), "list:0,4000000000,7", "-", None),
    ("bool_1d", B, (3,), "list:1,0,1", "-", None),
    ("bool_all_true", B, (2,), "list:1,1", "-", None),
    ("bool_2x2", B, (2, 2), "list:1,0,0,1", "-", None),
    ("f32_0d", F, (), "list:1", "-", None),
    ("f64_0d", D, (), "list:3.14159", "-", None),
    ("i32_0d", I, (), "list:-7", "-", None),
    ("bool_0d", B, (), "list:1", "-", None),
    ("f16_0d_nan", H, (), "list:nan", "-", None),
    ("f32_empty", F, (0,), "list:", "-", None),
    ("f64_empty", D, (0,), "list:", "-", None),
    ("f64_empty_2x0", D, (2, 0), "list:", "-", None),
    ("i32_empty_0x3", I, (0, 3), "list:", "-", None),
    ("bool_empty", B, (0,), "list:", "-", None),
    ("f64_wrap", D, (30,), "range:0:1.5", "-", None),
    ("i32_wrap", I, (100,), "range:0:1", "-", None),
    ("f32_wrap_2d", F, (3, 20), "range:-10:0.25", "-", None),
    ("i32_4d", I, (2, 2, 2, 2), "range:0:1", "-", None),
    ("f32_summary_1d", F, (2000,), "range:0:1", "-", None),
    ("f64_summary_2d", D, (100, 100), "range:0:0.5", "-", None),
    ("i32_summary_rows", I, (10, 300), "range:0:1", "-", None),
    ("f32_summary_3d", F, (20, 30, 40), "range:0:1", "-", None),
    ("bool_summary", B, (2000,), "range:0:1", "-", None),
    ("u32_summary", U, (1001,), "range:0:1", "-", None),
    ("f16_summary", H, (1200,), "range:0:0.5", "-", None),
    ("f32_view_T", F, (2, 3), "range:0:1", "T", None),
    ("f32_view_rev", F, (2, 3), "range:0:1", "rev1", None),
    ("i32_view_step", I, (4, 10), "range:0:1", "step1:9:-3", None),
    ("f32_summary_T", F, (1000, 1000), "range:0:1", "T", None),
    ("f64_summary_rev", D, (50, 40), "range:0:0.25", "rev0", None),
    ("f64_precision3", D, (3,), "list:0.3333333333333333,0.6666666666666666,1.0", "-", 3),
    ("f32_precision3_exp", F, (2,), "list:1.23456e-05,1.0", "-", 3),
    ("f64_precision0", D, (3,), "list:0.4,1.6,2.5", "-", 0),
    ("f64_precision1_round", D, (4,), "list:0.25,0.35,0.125,2.675", "-", 1),
    ("f64_precision12", D, (2,), "list:0.1,0.30000000000000004", "-", 12),
    ("i32_precision3", I, (3,), "list:1,2,3", "-", 3),
]


def values(gen, n):
    kind, _, rest = gen.partition(":")
    if kind == "range":
        start, step = (float(x) for x in rest.split(":"))
        return start + np.arange(n, dtype=np.float64) * step
    if kind == "list":
        vals = [float(x) for x in rest.split(",")] if rest else []
        assert len(vals) == n, gen
        return np.array(vals, dtype=np.float64)
    raise ValueError(gen)


def make(dtype, shape, gen):
    n = int(np.prod(shape, dtype=np.int64))
    v = values(gen, n)
    if dtype == B:
        a = v != 0
    else:
        a = v.astype(dtype)
    return a.reshape(shape)


def view(a, spec):
    if spec == "-":
        return a
    if spec == "T":
        return a.transpose()
    if spec.startswith("rev"):
        ax = int(spec[3:])
        idx = [slice(None)] * a.ndim
        idx[ax] = slice(None, None, -1)
        return a[tuple(idx)]
    if spec.startswith("step"):
        ax, start, step = (int(x) for x in spec[4:].split(":"))
        idx = [slice(None)] * a.ndim
        idx[ax] = slice(start, None, step)
        return a[tuple(idx)]
    raise ValueError(spec)


def main():
    print(f"# numpy {np.__version__}; generated by tests/golden/display/repr.py")
    for name, dtype, shape, gen, vspec, precision in CASES:
        a = view(make(dtype, shape, gen), vspec)
        with np.errstate(all="ignore"):
            if precision is None:
                text = repr(a)
            else:
                with np.printoptions(precision=precision):
                    text = repr(a)
        shape_s = ",".join(str(s) for s in shape) if shape else "-"
        p = "-" if precision is None else str(precision)
        print(f"case {name} dtype={dtype} shape={shape_s} gen={gen} view={vspec} precision={p}")
        print(text)
        print("end")


if __name__ == "__main__":
    main()
