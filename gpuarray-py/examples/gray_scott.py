#!/usr/bin/env python3
"""Gray–Scott reaction–diffusion in NumPy code that runs on gpuarray unchanged.

The step below is plain NumPy (``np.roll`` and arithmetic on float32 arrays); given gpuarray
arrays, NumPy dispatches every call to the device. The script runs the same steps on NumPy and
on gpuarray from the same start, prints steps/s for each (gpuarray's timed after
``gpuarray.synchronize()``), the largest difference between the two fields, and writes PNG
frames of the gpuarray run (a PNG writer from ``zlib``: no imaging library needed). The Rust
twin is ``examples/gray_scott.rs``; on a CPU adapter (lavapipe) the gpuarray figure is a CPU
figure too.

    python gpuarray-py/examples/gray_scott.py --size 256 --steps 2000 --frames 4 --out target/gray_scott_py
"""

import argparse
import os
import struct
import sys
import time
import zlib

import numpy as np

import gpuarray as ga

# The "coral" regime, as examples/support/gray_scott.rs: Du, Dv, feed, kill, dt.
DU, DV, FEED, KILL, DT = 0.16, 0.08, 0.060, 0.062, 1.0
BLOCK = 8


def start(n, seed):
    """u = 1, v = 0 except in the blocks a coarse random grid picks (about one in six)."""
    rng = np.random.default_rng(seed)
    blocks = (rng.random((n // BLOCK, n // BLOCK)) > 5 / 6).astype(np.float32)
    blocks = np.repeat(np.repeat(blocks, BLOCK, axis=0), BLOCK, axis=1)
    noise = rng.random((n, n), dtype=np.float32)
    v = blocks * (noise * np.float32(0.1) + np.float32(0.25))
    u = np.float32(1) - blocks * np.float32(0.5)
    return u.astype(np.float32), v.astype(np.float32)


def laplacian(x):
    # Neighbour sums in the Rust demo's order: north + south, east + west, minus 4x.
    return (np.roll(x, 1, axis=0) + np.roll(x, -1, axis=0)) + (np.roll(x, 1, axis=1) + np.roll(x, -1, axis=1)) - x * 4.0


def step(u, v):
    """One step of the model; NumPy or gpuarray arrays alike (float32 throughout)."""
    uvv = u * v * v
    du = (laplacian(u) * DU - uvv) + (1.0 - u) * FEED
    dv = (laplacian(v) * DV + uvv) - v * np.float32(FEED + KILL)
    return u + du * DT, v + dv * DT


def colour(v):
    """v through the Rust demo's dark-blue → orange → pale-yellow ramp, as (n, n, 3) uint8."""
    t = np.clip(v * 2.5, 0.0, 1.0)
    byte = lambda x: np.round(np.clip(x, 0.0, 1.0) * 255.0).astype(np.uint8)
    r, g = byte(t * 2.0 + 0.05), byte(t * 1.4 - 0.2)
    b = np.maximum(byte(t * -1.2 + 0.45), byte(t * 3.0 - 2.0))
    return np.stack([r, g, b], axis=-1)


def write_png(path, rgb):
    """An 8-bit RGB PNG: signature, IHDR, one zlib IDAT (filter 0 per row), IEND."""
    h, w, _ = rgb.shape
    raw = b"".join(b"\x00" + rgb[i].tobytes() for i in range(h))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 6)))
        f.write(chunk(b"IEND", b""))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=256)
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--frames", type=int, default=4)
    ap.add_argument("--out", default="target/gray_scott_py")
    args = ap.parse_args(argv)
    if args.size <= 0 or args.size % BLOCK:
        ap.error(f"--size must be a positive multiple of {BLOCK}")
    os.makedirs(args.out, exist_ok=True)
    print(f"device: {ga.device_info()['summary']}")
    u0, v0 = start(args.size, 7)
    gu, gv = ga.asarray(u0), ga.asarray(v0)
    per_frame = -(-args.steps // max(args.frames, 1))
    done, elapsed, frame = 0, 0.0, 0
    while done < args.steps:
        run = min(per_frame, args.steps - done)
        ga.synchronize()
        t = time.perf_counter()
        for _ in range(run):
            gu, gv = step(gu, gv)
        ga.synchronize()
        elapsed += time.perf_counter() - t
        done += run
        write_png(os.path.join(args.out, f"frame_{frame:03}.png"), colour(gv).get())
        frame += 1
        print(f"\r{done}/{args.steps} steps, {done / elapsed:.0f} steps/s", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    u, v = u0, v0
    t = time.perf_counter()
    for _ in range(args.steps):
        u, v = step(u, v)
    numpy_s = time.perf_counter() - t
    worst = float(np.abs(gv.get() - v).max())
    print(f"gpuarray: {args.steps / elapsed:8.1f} steps/s (after synchronising)")
    print(f"NumPy   : {args.steps / numpy_s:8.1f} steps/s")
    print(f"speed-up: {numpy_s / elapsed:.2f}x; largest |v_gpuarray - v_numpy| {worst:.2e}")
    print(f"wrote {frame} frames to {args.out}")


if __name__ == "__main__":
    main()
