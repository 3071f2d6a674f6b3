#!/usr/bin/env python3
"""Runs the demo page (examples/web/index.html) in headless Chromium and prints its report.

Serves examples/web on loopback, drives Chromium through chromedriver's WebDriver API (standard
library only), waits until the page marks itself done, and prints the page's report lines. With
--check it is the page's test: every GPU result agrees with the CPU's, every CPU time is a
number, the chart has a pair of bars per job, the URL carries the results, and after --frames
frames of the live simulation the canvas is not blank. --screenshot writes the page as a PNG.
Build the page first (bash examples/web/build.sh).

    python3 examples/web/figures.py                 # the page's sizes (smaller on a CPU adapter)
    python3 examples/web/figures.py --n 256 --mm 1024
    python3 examples/web/figures.py --n 64 --mm 256 --check --screenshot target/web_demo.png
"""

import base64

import argparse
import functools
import http.server
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def webdriver(port, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as r:
        return json.load(r)["value"]


def page_ok(report):
    """Whether the page's own checks passed: no error line, no wrong entries, the native bits."""
    bad = [l for l in report.splitlines()
           if l.startswith("error:") or re.search(r"\b[1-9]\d* wrong", l)
           or "native run: false" in l or "within 1e-5: false" in l or "within 1e-4: false" in l]
    for l in bad:
        print(f"FAILED CHECK: {l}", file=sys.stderr)
    return not bad


def check_page(run):
    """The page's test beyond its own report: numbers, chart, URL and a canvas that is drawn."""
    ok = True

    def expect(cond, what):
        nonlocal ok
        print(f"{'ok' if cond else 'FAILED CHECK'}: {what}", file=sys.stderr if not cond else sys.stdout)
        ok = ok and bool(cond)

    jobs = run("return window.demoJobs || null")
    expect(jobs and len(jobs) == 5, f"five jobs timed: {jobs}")
    for j in jobs or []:
        expect(all(isinstance(j[k], (int, float)) and j[k] > 0 for k in ("gpu", "cpu")),
               f"{j.get('name')}: GPU and CPU times are numbers")
    bars = run("return document.querySelectorAll('#chart rect').length")
    expect(bars == 2 * len(jobs or []), f"the chart has {bars} bars")
    url = run("return location.search")
    expect("r=" in url and "n=" in url and "mm=" in url, f"the URL carries sizes and results: {url[:80]}")
    stats = run("""
        const c = document.getElementById('canvas');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let n = 0, s = 0, s2 = 0;
        for (let i = 0; i < d.length; i += 4) { const y = (d[i] + d[i + 1] + d[i + 2]) / 3; n++; s += y; s2 += y * y; }
        return [c.width, n, s2 / n - (s / n) * (s / n)];""")
    expect(stats[2] > 100, f"the canvas ({stats[0]}², {stats[1]} pixels) is not blank: "
                           f"luminance variance {stats[2]:.0f}")
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, help="einsum size (default: the page's, 128; 64 on a CPU adapter)")
    ap.add_argument("--mm", type=int, help="matmul size (default: the page's, 1024; 256 on a CPU adapter)")
    ap.add_argument("--timeout", type=float, default=1200, help="seconds to wait for the page")
    ap.add_argument("--check", action="store_true", help="fail unless the page passes its checks")
    ap.add_argument("--frames", type=int, default=12, help="live frames to wait for with --check")
    ap.add_argument("--screenshot", help="write a PNG of the page here (after the live frames)")
    args = ap.parse_args()
    if not os.path.exists(os.path.join(HERE, "pkg", "web_demo_bg.wasm")):
        sys.exit("examples/web/pkg is missing: run `bash examples/web/build.sh` first")
    chromedriver = os.environ.get("CHROMEDRIVER") or shutil.which("chromedriver")
    if not chromedriver:
        sys.exit("chromedriver not found (apt-get install chromium chromium-driver)")

    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                          ".wasm": "application/wasm", ".js": "text/javascript"}

        def log_message(self, *a):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                            functools.partial(Handler, directory=HERE))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    wd_port = free_port()
    driver = subprocess.Popen([chromedriver, f"--port={wd_port}"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    session = None
    try:
        for _ in range(100):
            try:
                webdriver(wd_port, "GET", "/status")
                break
            except OSError:
                time.sleep(0.1)
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
            "args": ["--headless", "--no-sandbox", "--enable-unsafe-webgpu",
                     "--disable-dev-shm-usage", "--window-size=1000,1500"]}}}}
        session = webdriver(wd_port, "POST", "/session", caps)["sessionId"]
        sizes = "&".join(f"{k}={v}" for k, v in (("n", args.n), ("mm", args.mm)) if v is not None)
        url = f"http://127.0.0.1:{httpd.server_address[1]}/?{sizes}"
        webdriver(wd_port, "POST", f"/session/{session}/url", {"url": url})
        script = ("return document.body.dataset.done === '1' ? "
                  "document.getElementById('report').textContent : null")
        deadline = time.time() + args.timeout
        while True:
            out = webdriver(wd_port, "POST", f"/session/{session}/execute/sync",
                            {"script": script, "args": []})
            if out is not None:
                print(out)
                ok = page_ok(out)
                break
            if time.time() > deadline:
                sys.exit(f"the page did not finish within {args.timeout} s")
            time.sleep(1)
        run = lambda script: webdriver(wd_port, "POST", f"/session/{session}/execute/sync",
                                       {"script": script, "args": []})
        if args.check or args.screenshot:
            frames = 0
            while frames < args.frames:
                frames = int(run("return Number(document.body.dataset.frames || 0)"))
                if time.time() > deadline:
                    sys.exit(f"the live simulation drew {frames} of {args.frames} frames in time")
                time.sleep(0.5)
        if args.check:
            ok = check_page(run) and ok
        if args.screenshot:
            png = base64.b64decode(webdriver(wd_port, "GET", f"/session/{session}/screenshot"))
            with open(args.screenshot, "wb") as f:
                f.write(png)
            print(f"screenshot: {args.screenshot} ({len(png)} bytes)")
        return 0 if ok else 1
    finally:
        if session:
            webdriver(wd_port, "DELETE", f"/session/{session}")
        driver.terminate()
        httpd.shutdown()


if __name__ == "__main__":
    sys.exit(main())
