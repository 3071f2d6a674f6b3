#!/usr/bin/env bash
# What a short program pays per start-up plan (issue 30): wall time, CPU time (user + system)
# and peak RSS of a one-op program, `ones(3) + 1` read back, in Rust (the `static` child of
# tests/exit.rs: the device in a static, alive at exit) and in Python, for each
# GPUARRAY_COMPILE mode, cold and warm; then the first call of each family (examples/first_calls)
# per mode, cold and warm; and what the whole plan costs a program that stays alive
# (examples/startup: it waits for the plan), cold and warm. Each line is one fresh process.
#   cold = a fresh, empty XDG_CACHE_HOME (gpuarray's cache and Mesa's shader cache): every fresh
#          machine and CI run
#   warm = the same cache after one run that compiled the whole plan (examples/startup waits
#          for it)
#
#   cargo build --release --example startup --example first_calls
#   cargo test --release --test exit --no-run
#   (cd gpuarray-py && maturin develop --release)   # in the venv, for the Python lines
#   bash tools/exit_figures.sh [PYTHON]
set -euo pipefail
cd "$(dirname "$0")/.."
py=${1:-gpuarray-py/.venv/bin/python}
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
exe=$(ls -t target/release/deps/exit-* | grep -v '\.d$' | head -1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset GPUARRAY_CACHE_DIR MESA_SHADER_CACHE_DIR MESA_SHADER_CACHE_DISABLE
timed() { # label, cache home, command...
    local label=$1 home=$2; shift 2
    XDG_CACHE_HOME=$home /usr/bin/time -o "$work/time" -f "wall=%es cpu=%Us+%Ss maxrss=%MKB rc=%x" "$@" >/dev/null 2>&1 || true
    echo "$label: $(tail -1 "$work/time")"
}
for mode in lazy families eager; do
    export GPUARRAY_COMPILE=$mode
    for lang in rust python; do
        if [ "$lang" = rust ]; then
            cmd=(env GPUARRAY_EXIT_CASE=static "$exe")
        else
            cmd=("$py" -c "import gpuarray as ga; print((ga.ones(3) + 1).get())")
        fi
        for i in 1 2 3; do
            home=$work/$mode-$lang-cold-$i
            mkdir -p "$home"
            timed "$mode $lang one-op cold" "$home" "${cmd[@]}"
        done
        home=$work/$mode-$lang-warm
        mkdir -p "$home"
        XDG_CACHE_HOME=$home target/release/examples/startup >/dev/null 2>&1
        for i in 1 2 3; do
            timed "$mode $lang one-op warm" "$home" "${cmd[@]}"
        done
    done
    home=$work/$mode-plan
    mkdir -p "$home"
    timed "$mode whole plan (startup) cold" "$home" target/release/examples/startup
    timed "$mode whole plan (startup) warm" "$home" target/release/examples/startup
    home=$work/$mode-first
    mkdir -p "$home"
    echo "$mode first_calls cold: $(XDG_CACHE_HOME=$home target/release/examples/first_calls 2>/dev/null)"
    XDG_CACHE_HOME=$home target/release/examples/startup >/dev/null 2>&1
    echo "$mode first_calls warm: $(XDG_CACHE_HOME=$home target/release/examples/first_calls 2>/dev/null)"
done
