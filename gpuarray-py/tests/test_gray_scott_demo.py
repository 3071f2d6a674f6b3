"""The Python demo (``gpuarray-py/examples/gray_scott.py``): its NumPy step, run on gpuarray
arrays by NumPy's dispatch, gives NumPy's own fields; its colouring matches; the PNG it writes
decodes (by hand, with zlib) to the stated size and the same pixels; the script runs end to end."""

import importlib.util
import os
import struct
import zlib

import numpy as np

import gpuarray as ga

_PATH = os.path.join(os.path.dirname(__file__), "..", "examples", "gray_scott.py")
_spec = importlib.util.spec_from_file_location("gray_scott_demo", _PATH)
demo = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(demo)


def read_png(path):
    """(width, height, colour type, bit depth, rows as bytes) of a non-interlaced PNG whose rows
    use filter 0 (what the demo writes); checks every chunk's CRC."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks = 8, {}
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        assert crc == zlib.crc32(kind + body), kind
        chunks.setdefault(kind, b"")
        chunks[kind] += body
        pos += 12 + length
    w, h, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[b"IHDR"])
    assert interlace == 0 and b"IEND" in chunks
    raw = zlib.decompress(chunks[b"IDAT"])
    stride = 1 + w * 3
    assert len(raw) == h * stride
    assert all(raw[i * stride] == 0 for i in range(h))
    rows = b"".join(raw[i * stride + 1:(i + 1) * stride] for i in range(h))
    return w, h, colour, depth, rows


def test_the_numpy_step_on_gpuarray_is_numpys():
    u, v = demo.start(48, 3)
    assert u.dtype == v.dtype == np.float32 and 0 < (v > 0).sum() < v.size
    gu, gv = ga.asarray(u), ga.asarray(v)
    for _ in range(150):
        u, v = demo.step(u, v)
        gu, gv = demo.step(gu, gv)
    assert isinstance(gv, ga.ndarray) and gv.dtype == np.float32
    # The same float32 ops in the same order: equal up to an adapter's fma contraction.
    np.testing.assert_allclose(gu.get(), u, rtol=0, atol=1e-5)
    np.testing.assert_allclose(gv.get(), v, rtol=0, atol=1e-5)
    rgb = demo.colour(gv).get()
    want = demo.colour(v)
    assert rgb.shape == (48, 48, 3) and rgb.dtype == np.uint8
    assert np.abs(rgb.astype(int) - want.astype(int)).max() <= 1


def test_the_png_decodes_to_the_picture(tmp_path):
    rgb = (np.arange(5 * 7 * 3) * 37 % 256).astype(np.uint8).reshape(5, 7, 3)
    path = tmp_path / "x.png"
    demo.write_png(str(path), rgb)
    w, h, colour, depth, rows = read_png(path)
    assert (w, h, colour, depth) == (7, 5, 2, 8)
    assert rows == rgb.tobytes()


def test_the_script_runs_and_writes_frames(tmp_path, capsys):
    demo.main(["--size", "32", "--steps", "20", "--frames", "2", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert "steps/s" in out and "largest |v_gpuarray - v_numpy|" in out
    for k in range(2):
        w, h, _, _, rows = read_png(tmp_path / f"frame_{k:03}.png")
        assert (w, h) == (32, 32)
        px = np.frombuffer(rows, dtype=np.uint8)
        assert px.std() > 10, "the frame is nearly flat"
