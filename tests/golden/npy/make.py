#!/usr/bin/env python3
"""Golden .npy/.npz files written by NumPy for gpuarray's loader (src/interop/npy.rs), and a
checker for the files gpuarray writes.

    python3 tests/golden/npy/make.py                 # (re)writes the files beside this script
    python3 tests/golden/npy/make.py --check DIR     # loads DIR/*.npy, DIR/*.npz with NumPy and
                                                     # compares them with the same formulas

Every array holds value(i) at row-major (C-order) index i of its logical shape, from formulas
that tests/npy.rs computes independently:

    float: i = 0..3 -> nan, inf, -inf, -0.0; else ((i*37) % 101 - 50) / 8.0 + i * 1e-3
           (a float64, then rounded to the file's dtype)
    int32: (i * 2654435761) mod 2**32, read as a two's-complement int32
    uint32: (i * 2654435761) mod 2**32
    int8/16/64, uint8/16/64: (i * 11400714819323198485) mod 2**64, its low 8/16/64 bits (signed:
           read as two's complement)
    bool: i % 3 == 0

Files: <dtype>_<order>_<endian>.npy for dtypes f2 f4 f8 i4 u4 b1 i8 u8 i1 u1 i2 u2, order c or f
(Fortran), endian le or be (bool and the 1-byte integers: `|b1`, `|i1`, `|u1`, no byte order) of
shape (3, 4, 5); f8_0d.npy (shape ()), f4_empty.npy (shape (0, 3)), i4_1d.npy (shape (7,));
unsupported_<name>.npy of dtypes gpuarray lacks or lacked (<U3 strings; int64, uint8, complex64 from
before they were added, now loaded); stored.npz (numpy.savez) and compressed.npz
(numpy.savez_compressed), each with a = f4 C order (3, 4, 5), b = i4 Fortran (3, 4, 5),
c = b1 (3, 4, 5), s = f8 0-d.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SHAPE = (3, 4, 5)


def float_values(n):
    special = [float("nan"), float("inf"), float("-inf"), -0.0]
    return [special[i] if i < 4 else ((i * 37) % 101 - 50) / 8.0 + i * 1e-3 for i in range(n)]


def array(kind, shape):
    n = int(np.prod(shape, dtype=np.int64))
    if kind in ("f2", "f4", "f8"):
        return np.array(float_values(n), dtype=np.float64).astype(kind).reshape(shape)
    words = np.array([(i * 2654435761) % 2**32 for i in range(n)], dtype=np.uint32)
    if kind == "i4":
        return words.view(np.int32).reshape(shape)
    if kind == "u4":
        return words.reshape(shape)
    if kind == "b1":
        return np.array([i % 3 == 0 for i in range(n)], dtype=bool).reshape(shape)
    if kind in WIDE:
        wide = np.array([(i * 11400714819323198485) % 2**64 for i in range(n)], dtype=np.uint64)
        unsigned = {1: np.uint8, 2: np.uint16, 8: np.uint64}[int(kind[1])]
        low = wide.astype(unsigned)
        return (low if kind[0] == "u" else low.view(kind)).reshape(shape)
    raise ValueError(kind)


WIDE = ("i8", "u8", "i1", "u1", "i2", "u2")
ONE_BYTE = ("b1", "i1", "u1")


def npz_arrays():
    return {
        "a": array("f4", SHAPE),
        "b": np.asfortranarray(array("i4", SHAPE)),
        "c": array("b1", SHAPE),
        "s": array("f8", ()),
    }


def write():
    for kind in ("f2", "f4", "f8", "i4", "u4", "b1") + WIDE:
        for order in ("c", "f"):
            for endian in ("le", "be"):
                if kind in ONE_BYTE and endian == "be":
                    continue
                a = array(kind, SHAPE)
                if endian == "be":
                    a = a.astype(a.dtype.newbyteorder(">"))
                else:
                    a = a.astype(a.dtype.newbyteorder("<"))
                if order == "f":
                    a = np.asfortranarray(a)
                e = "le" if kind in ONE_BYTE else endian
                np.save(os.path.join(HERE, f"{kind}_{order}_{e}.npy"), a)
    np.save(os.path.join(HERE, "f8_0d.npy"), array("f8", ()))
    np.save(os.path.join(HERE, "f4_empty.npy"), array("f4", (0, 3)))
    np.save(os.path.join(HERE, "i4_1d.npy"), array("i4", (7,)))
    np.save(os.path.join(HERE, "unsupported_int64.npy"), np.arange(4, dtype=np.int64))
    np.save(os.path.join(HERE, "unsupported_complex64.npy"), np.ones(2, dtype=np.complex64))
    np.save(os.path.join(HERE, "unsupported_str.npy"), np.array(["abc", "de"]))
    np.save(os.path.join(HERE, "unsupported_uint8.npy"), np.arange(3, dtype=np.uint8))
    np.savez(os.path.join(HERE, "stored.npz"), **npz_arrays())
    np.savez_compressed(os.path.join(HERE, "compressed.npz"), **npz_arrays())


def same(got, want, what):
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    assert got.dtype == want.dtype, f"{what}: dtype {got.dtype} != {want.dtype}"
    if got.dtype.kind == "f":
        ok = np.array_equal(got, want, equal_nan=True) and np.array_equal(
            np.signbit(got), np.signbit(want))
    else:
        ok = np.array_equal(got, want)
    assert ok, f"{what}: values differ:\n{got}\n{want}"


def check(directory):
    """Files written by tests/npy.rs: <kind>.npy of shape (3, 4, 5) and both.npz (a, b, c, s)."""
    checked = 0
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        if name.endswith(".npy"):
            kind = name[:-4]
            same(np.load(path), array(kind, SHAPE), name)
            checked += 1
        elif name.endswith(".npz"):
            with np.load(path) as z:
                want = npz_arrays()
                assert sorted(z.files) == sorted(want), f"{name}: {z.files}"
                for k, v in want.items():
                    same(z[k], np.array(v, order="C"), f"{name}:{k}")
            checked += 1
    assert checked > 0, f"nothing to check in {directory}"
    print(f"numpy {np.__version__} read {checked} files written by gpuarray: all equal")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        check(sys.argv[2])
    else:
        write()
