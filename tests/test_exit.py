"""A short script exits promptly and cleanly, whatever the start-up plan is doing (issue 30).

Each case runs ``python -c`` in a fresh process with an empty cache home (``XDG_CACHE_HOME``:
gpuarray's cache and Mesa's shader cache), as on every fresh machine and CI run, with the
device alive in the module's global at exit. On ba10709 the default plan crashed such a script
at exit (SIGSEGV) with empty caches and hung it with partly warm ones. Each case must end as it
should (status 0; the signal's own status for SIGINT/SIGTERM) and, on the default plan, within 3 s
of the same script on a lazy device, timed in the same test.
"""

import os
import signal
import subprocess
import sys
import tempfile
import time

import pytest

ONE_OP = "import gpuarray as ga; print((ga.ones(3) + 1).get(), flush=True)"
# Generous for CI, as the issue asks: the default plan's script against the lazy one's.
SLACK = 3.0
# A background plan's script waits at exit for the pipelines in flight (cold on lavapipe the
# subgroup matmul kernels' first dispatches, 2-3 s on an idle 2-core machine), never for the rest
# of the plan (the eager plan alone takes 20 s and more cold).
BACKGROUND_SLACK = 10.0
HANG = 90.0

SCRIPTS = {
    "interpreter exit": ONE_OP,
    "sys.exit": ONE_OP + "; import sys; sys.exit(0)",
    # The child returns through the interpreter's normal exit with the inherited device alive.
    "forked child": ONE_OP + (
        "\nimport os, sys\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    sys.exit(0)\n"
        "_, st = os.waitpid(pid, 0)\n"
        "sys.exit(os.waitstatus_to_exitcode(st))\n"
    ),
    # Waits to be signalled after the answer (the plan, if any, still compiling).
    "SIGINT": ONE_OP + "; import time; time.sleep(60)",
    "SIGTERM": ONE_OP + "; import time; time.sleep(60)",
}


def _default_sigint():
    """The child starts with SIGINT's default action, so its interpreter installs the
    KeyboardInterrupt handler. A shell starts a background job (`cmd &`) with SIGINT ignored and
    children inherit that: the script then never saw the signal (status 0 after its 60 s sleep,
    or a hang) when CI itself ran in the background."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run(case, compile_mode):
    """Runs the case's script with a fresh cache home; returns (returncode, seconds, stdout)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("GPUARRAY_COMPILE", "GPUARRAY_CACHE_DIR", "MESA_SHADER_CACHE_DIR",
                        "MESA_SHADER_CACHE_DISABLE")}
    if compile_mode is not None:
        env["GPUARRAY_COMPILE"] = compile_mode
    with tempfile.TemporaryDirectory() as home:
        env["XDG_CACHE_HOME"] = home
        started = time.monotonic()
        p = subprocess.Popen([sys.executable, "-c", SCRIPTS[case]], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             preexec_fn=_default_sigint)
        first = p.stdout.readline()
        if case in ("SIGINT", "SIGTERM") and first:
            p.send_signal(signal.SIGINT if case == "SIGINT" else signal.SIGTERM)
        try:
            rest, err = p.communicate(timeout=HANG)
        except subprocess.TimeoutExpired:
            p.kill()
            rest, err = p.communicate()
            pytest.fail(f"{case} ({compile_mode or 'default'}) hung: killed after {HANG} s\n{err}")
        took = time.monotonic() - started
    return p.returncode, took, first + rest, err


def expected_status(case):
    if case == "SIGINT":
        # An uncaught KeyboardInterrupt: the interpreter finalises (atexit hooks run), then
        # ends itself with SIGINT.
        return -signal.SIGINT
    if case == "SIGTERM":
        return -signal.SIGTERM
    return 0


# Every case on the default plan; the plain exits on the two plans that compile in the
# background too (the other cases' exits take the same path).
CASES = [(case, None) for case in SCRIPTS] + [
    (case, mode) for mode in ("families", "eager") for case in ("interpreter exit", "sys.exit")]


@pytest.mark.parametrize("case,compile_mode", CASES)
def test_script_exits_cleanly_and_promptly(case, compile_mode):
    if case == "forked child" and not hasattr(os, "fork"):
        pytest.skip("no fork on this platform")
    lazy_status, lazy_took, lazy_out, lazy_err = run(case, "lazy")
    assert lazy_status == expected_status(case), lazy_err
    status, took, out, err = run(case, compile_mode)
    assert "[2. 2. 2.]" in out, err
    assert status == expected_status(case), (
        f"{case} ({compile_mode or 'default'}) ended with {status} after {took:.2f} s\n{err}")
    slack = SLACK if compile_mode is None else BACKGROUND_SLACK
    assert took <= lazy_took + slack, (
        f"{case} ({compile_mode or 'default'}): {took:.2f} s against lazy's {lazy_took:.2f} s")
