"""Fuzzing built-in functions and methods (tests/fuzz/fuzz_builtins.py):
random calls with hostile arguments that mutate the containers being worked
on, raise from __eq__/__hash__/__index__/__len__/__iter__, or carry lone
surrogates and non-UTF-8 bytes. Any crash (a signal, a fatal error) or hang
fails the test; Python exceptions are the expected outcome of most calls.

Seeds run one after the other for TMPY_FUZZ_SECONDS seconds per build
(default 10): tmpy-gil, and build/tmpy with transactions of 5 yield points
aborted at random (so the C code the calls reach is also cut short by
aborts). TMPY_FUZZ_SEED sets the first seed (default: one per day, printed),
TMPY_FUZZ_VALGRIND=1 also runs one seed under valgrind (minutes). A failure
names the seed and the call that crashed: rerun it with
`build/tmpy-gil tests/fuzz/fuzz_builtins.py SEED CALLS 1`.
"""
import datetime
import os
import shutil
import subprocess
import time

import pytest

from conftest import BUILD, ROOT

DRIVER = ROOT / "tests" / "fuzz" / "fuzz_builtins.py"
CALLS = 4000
SECONDS = float(os.environ.get("TMPY_FUZZ_SECONDS", "10"))
FIRST_SEED = int(os.environ.get("TMPY_FUZZ_SEED", datetime.date.today().toordinal() % 100000 * 1000))

BUILDS = {
    "gil": ("tmpy-gil", {}),
    "stm-aborts": ("tmpy", {"TMPY_SEGMENTS": "2", "TMPY_TXLEN": "5", "TMPY_STM_INJECT_ABORTS": "0.01:7"}),
}


def run(exe, seed, env, verbose=False, prefix=()):
    args = [*prefix, str(BUILD / exe), str(DRIVER), str(seed), str(CALLS)] + (["1"] if verbose else [])
    full = dict(os.environ, PYTHONHASHSEED="0", **env)
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=60, env=full,
                           errors="replace", cwd=ROOT)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return "hang", out
    if p.returncode == 0 and p.stdout.strip().endswith(f"ok {seed} {CALLS}"):
        return None, p.stdout
    return f"exit {p.returncode}: {p.stderr[-3000:]}", p.stdout


def last_call(exe, seed, env):
    _, out = run(exe, seed, env, verbose=True)
    lines = [line for line in out.splitlines() if line and line[0].isdigit()]
    return lines[-1] if lines else "?"


@pytest.mark.parametrize("build", sorted(BUILDS))
def test_fuzz_builtins(build):
    exe, env = BUILDS[build]
    deadline = time.monotonic() + SECONDS
    seed = FIRST_SEED
    ran = 0
    while time.monotonic() < deadline or ran == 0:
        failure, _ = run(exe, seed, env)
        if failure:
            pytest.fail(f"{build}: seed {seed} ({CALLS} calls): {failure}\n"
                        f"last call before it: {last_call(exe, seed, env)}")
        seed += 1
        ran += 1
    print(f"{build}: seeds {FIRST_SEED}..{seed - 1} clean")


@pytest.mark.skipif(os.environ.get("TMPY_FUZZ_VALGRIND") != "1" or not shutil.which("valgrind"),
                    reason="TMPY_FUZZ_VALGRIND=1 (slow)")
def test_fuzz_builtins_valgrind():
    failure, _ = run("tmpy-gil", FIRST_SEED, {}, prefix=("valgrind", "-q", "--error-exitcode=99"))
    assert not failure, failure
