#!/usr/bin/env bash
# Start-up figures (issue 13) on this machine's adapter: each line is one fresh process.
#   cold = an empty gpuarray cache directory and Mesa's shader cache off (MESA_SHADER_CACHE_DISABLE)
#   warm = the second run: both caches kept
#   ours only = gpuarray's cache kept, Mesa's off;  mesa only = a fresh gpuarray cache each run,
#   Mesa's kept (it was filled by the runs before)
#
#   bash tools/startup_figures.sh [EXAMPLES_DIR]
# EXAMPLES_DIR defaults to target/release/examples (build first: cargo build --release --example
# first_calls --example startup). Pointing it at an older build's examples (with first_calls.rs
# copied in, which uses only older API) gives the "before" column; `startup` is skipped there.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/examples}
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() { # label, cache dir, mesa on|off, command...
    local label=$1 dir=$2 mesa=$3; shift 3
    if [ "$mesa" = off ]; then
        echo "$label: $(MESA_SHADER_CACHE_DISABLE=true GPUARRAY_CACHE_DIR=$dir "$@")"
    else
        echo "$label: $(GPUARRAY_CACHE_DIR=$dir "$@")"
    fi
}
for mode in lazy families eager; do
    export GPUARRAY_COMPILE=$mode
    d=$work/$mode
    run "$mode cold first_calls" "$d" off "$bin/first_calls"
    run "$mode warm first_calls" "$d" on "$bin/first_calls"
    run "$mode warm first_calls (again)" "$d" on "$bin/first_calls"
    run "$mode ours-only first_calls" "$d" off "$bin/first_calls"
    run "$mode mesa-only first_calls" "$work/$mode-fresh-$RANDOM" on "$bin/first_calls"
    rm -rf "$d-s"
    if [ -x "$bin/startup" ]; then
        run "$mode cold startup" "$d-s" off "$bin/startup"
        run "$mode warm startup" "$d-s" on "$bin/startup"
    fi
    rm -rf "$d-seed"
    run "$mode cold seed64" "$d-seed" off "$bin/first_calls" seed
    run "$mode warm seed64" "$d-seed" on "$bin/first_calls" seed
done
du -sb "$work"/* | sed "s|$work/||" | sed 's/^/cache bytes: /'
