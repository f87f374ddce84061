"""Differential tests: every tests/py/*.py runs under CPython (the expected
output) and under build/tmpy-gil and build/tmpy; stdout, the exit code and
the last line of stderr must match.

A test program may carry directives in its first lines:
  # args: a b c          command-line arguments
  # stdin: text          (\\n escapes) fed to stdin
  # env: NAME=value      extra environment (one line per variable)
In args and env, \\xNN stands for the byte NN, so a program can receive
bytes that are not UTF-8 (as the OS may hand them in).
Every program also runs under `tmpy-gil --tm=htm` (HTM elision of the GIL;
without RTM it must print one line first and run with the GIL) and under
--tm=htm with the fake HTM's conflict model (TMPY_HTM_FAKE; the threaded
programs also in move mode).
Every program also runs with TMPY_GC_DEBUG=move (a minor collection at
every allocation moves every young object), which finds a reference held
across an allocation without a root; TMPY_PY_MOVE=0 skips that half.

Under build/tmpy (STM) every program runs with one segment, with four (its
threads in parallel), with four under the write-barrier checker
(TMPY_STM_CHECK=1), and with four under abort injection, and with two in move mode under abort
injection (TMPY_PY_MOVE=0 skips that one too): transactions of
TMPY_TXLEN=5 yield points that abort at random (TMPY_STM_INJECT_ABORTS, rate
TMPY_ABORT_RATE, default 0.02, seeded per program; TMPY_ABORT_SEED=N changes
the seeds, and a failure names the seed that reproduces it).
"""
import codecs
import os
import pathlib
import subprocess
import sys

import pytest

from conftest import BUILD, ROOT

PY_DIR = ROOT / "tests" / "py"
TMPY_GIL = BUILD / "tmpy-gil"
TMPY_STM = BUILD / "tmpy"
PROGRAMS = sorted(PY_DIR.glob("*.py"))


def os_text(s):
    """A directive's text with \\xNN escapes made raw bytes, as a str that
    subprocess encodes back to exactly those bytes (surrogateescape)."""
    if "\\" not in s:
        return s
    return os.fsdecode(codecs.escape_decode(s.encode())[0])


def directives(path):
    args, stdin, env = [], None, {}
    with open(path, encoding="utf-8") as f:
        for _ in range(5):
            line = f.readline()
            if line.startswith("# args:"):
                args = [os_text(a) for a in line[len("# args:"):].split()]
            elif line.startswith("# stdin:"):
                stdin = line[len("# stdin:"):].strip().encode().decode("unicode_escape")
            elif line.startswith("# env:"):
                k, _, v = line[len("# env:"):].strip().partition("=")
                env[os_text(k)] = os_text(v)
    return args, stdin, env


RTM_MISSING = "tmpy: RTM is not available on this CPU; running with the GIL"


def run(exe, path, extra_env=None, options=()):
    args, stdin, env = directives(path)
    full = dict(os.environ)
    full.pop("PYTHONPATH", None)
    for k in ("TMPY_TM", "TMPY_HTM_FAKE", "TMPY_HTM_TXLEN"):
        full.pop(k, None)
    full["PYTHONHASHSEED"] = "0"
    full.update(env)
    full.update(extra_env or {})
    p = subprocess.run([str(exe), *options, path.name, *args], cwd=path.parent, input=stdin,
                       capture_output=True, text=True, timeout=120, env=full)
    err = p.stderr.strip().splitlines()
    if "--tm=htm" in options and "TMPY_HTM_FAKE" not in full and not rtm_available():
        # Without RTM, --tm=htm says so once, first, and runs with the GIL.
        assert err and err[0] == RTM_MISSING, f"--tm=htm without RTM: stderr starts {err[:1]}"
        err = err[1:]
    return p.stdout, p.returncode, err[-1] if err else ""


def rtm_available():
    """Whether this CPU reports RTM (tmpy then also runs a test transaction)."""
    try:
        with open("/proc/cpuinfo") as f:
            return " rtm" in f.read()
    except OSError:
        return False


_expected = {}


def expected(path):
    if path not in _expected:
        _expected[path] = run(sys.executable, path)
    return _expected[path]


def check(path, extra_env=None, exe=TMPY_GIL, options=()):
    assert exe.exists(), f"{exe} is not built: run `make test`"
    want = expected(path)
    got = run(exe, path, extra_env, options)
    where = " ".join([*options, *(f"{k}={v}" for k, v in (extra_env or {}).items())])
    assert got[0] == want[0], f"stdout differs ({where} {exe.name})"
    assert (got[1], got[2]) == (want[1], want[2]), f"exit code / last stderr line differ ({where} {exe.name})"


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program(path):
    check(path)


@pytest.mark.skipif(os.environ.get("TMPY_PY_MOVE") == "0", reason="TMPY_PY_MOVE=0")
@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_move_mode(path):
    check(path, {"TMPY_GC_DEBUG": "move"})


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_htm(path):
    """tmpy-gil --tm=htm: with RTM, hardware transactions elide the GIL;
    without (this machine), one line on stderr and the GIL."""
    check(path, options=("--tm=htm",))


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_htm_fake(path):
    """The elision's state machine driven by the fake HTM's conflict model
    (runtime/htm_fake.c): aborts, retries, GIL fallbacks and length cuts
    happen in every threaded program, which must still print the same."""
    check(path, {"TMPY_HTM_FAKE": f"model:conflict=0.002,capacity=100,seed={abort_seed(path)}"},
          options=("--tm=htm",))


THREADED = [p for p in PROGRAMS if "thread" in p.stem]


@pytest.mark.skipif(os.environ.get("TMPY_PY_MOVE") == "0", reason="TMPY_PY_MOVE=0")
@pytest.mark.parametrize("path", THREADED, ids=[p.stem for p in THREADED])
def test_program_htm_fake_move_mode(path):
    """The threaded programs under the fake in move mode: transactions end
    with young objects alive, so every thread's shadow stack must be a root
    of the next minor collection."""
    check(path, {"TMPY_HTM_FAKE": f"model:conflict=0.002,capacity=100,seed={abort_seed(path)}",
                 "TMPY_GC_DEBUG": "move"}, options=("--tm=htm",))


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_stm_one_segment(path):
    check(path, {"TMPY_SEGMENTS": "1"}, TMPY_STM)


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_stm_four_segments(path):
    check(path, {"TMPY_SEGMENTS": "4"}, TMPY_STM)


def abort_seed(path):
    base = int(os.environ.get("TMPY_ABORT_SEED", "0"))
    return base * 1000003 + sum(path.stem.encode())


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_stm_abort_injection(path):
    rate = os.environ.get("TMPY_ABORT_RATE", "0.02")
    check(path, {"TMPY_SEGMENTS": "4", "TMPY_TXLEN": "5",
                 "TMPY_STM_INJECT_ABORTS": f"{rate}:{abort_seed(path)}"}, TMPY_STM)


THREADED = [p for p in PROGRAMS if "threading" in p.read_text() or "_thread" in p.read_text()]


@pytest.mark.parametrize("path", THREADED, ids=[p.stem for p in THREADED])
def test_program_stm_contention_eager(path):
    """The contention manager changing modes all the time (TMPY_STM_CM=eager:
    every injected abort serialises, two commits end a probation or a trial),
    with per-yield-point lengths cut fast (initial 20, period 10, threshold 0)."""
    rate = os.environ.get("TMPY_ABORT_RATE", "0.02")
    check(path, {"TMPY_SEGMENTS": "4", "TMPY_STM_CM": "eager", "TMPY_TXLEN_DYNAMIC": "20,10,0,1",
                 "TMPY_STM_INJECT_ABORTS": f"{rate}:{abort_seed(path)}"}, TMPY_STM)


@pytest.mark.parametrize("path", THREADED, ids=[p.stem for p in THREADED])
def test_program_stm_contention_two_segments(path):
    """Serialised threads with two segments and no injected aborts (solo
    transactions for the token holder), eager mode."""
    check(path, {"TMPY_SEGMENTS": "2", "TMPY_STM_CM": "eager"}, TMPY_STM)


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_stm_barrier_check(path):
    """Under the write-barrier checker a store that skipped its barrier
    stops the program with the C location (runtime/barriercheck.c)."""
    check(path, {"TMPY_SEGMENTS": "4", "TMPY_STM_CHECK": "1"}, TMPY_STM)


@pytest.mark.skipif(os.environ.get("TMPY_PY_MOVE") == "0", reason="TMPY_PY_MOVE=0")
@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_stm_move_mode_aborts(path):
    """Move mode with aborts: a reference the restored interpreter state
    keeps to an object the abort discarded stops the program at once."""
    check(path, {"TMPY_GC_DEBUG": "move", "TMPY_SEGMENTS": "2", "TMPY_TXLEN": "20",
                 "TMPY_STM_INJECT_ABORTS": f"0.01:{abort_seed(path)}"}, TMPY_STM)
