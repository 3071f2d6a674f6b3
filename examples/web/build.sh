#!/usr/bin/env bash
# Builds the browser demo: the wasm module (examples/web/demo.rs, optimised) and its JS glue
# into examples/web/pkg/. Needs the wasm32 target and a wasm-bindgen CLI of Cargo.lock's version
# (see .ci/run). Serve and open:
#   python3 -m http.server -d examples/web 8000    # then http://localhost:8000/
# `--dev` builds with the dev profile instead (dependencies optimised, our code at opt-level 1):
# what the page's test in CI uses, as it shares the browser tests' build of the dependencies.
set -euo pipefail
cd "$(dirname "$0")/../.."
profile=release
if [ "${1:-}" = "--dev" ]; then
    profile=debug
    cargo build --locked --target wasm32-unknown-unknown --example web_demo
else
    cargo build --release --locked --target wasm32-unknown-unknown --example web_demo
fi
target_dir="${CARGO_TARGET_DIR:-target}"
wasm-bindgen --target web --no-typescript --out-dir examples/web/pkg \
    "$target_dir/wasm32-unknown-unknown/$profile/examples/web_demo.wasm"
echo "built examples/web/pkg/web_demo.js and web_demo_bg.wasm ($profile)"
