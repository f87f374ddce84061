"""Differential tests: every tests/py/*.py runs under CPython (the expected
output) and under build/tmpy-gil and build/tmpy; stdout, the exit code and
the last line of stderr must match.

A test program may carry directives in its first lines:
  # args: a b c          command-line arguments
  # stdin: text          (\\n escapes) fed to stdin
  # env: NAME=value      extra environment (one line per variable)
In args and env, \\xNN stands for the byte NN, so a program can receive
bytes that are not UTF-8 (as the OS may hand them in).
The threaded programs also run under --tm=htm with the fake HTM's conflict
model (TMPY_HTM_FAKE), also in move mode; and, on a CPU whose RTM tmpy-gil
uses, every program under plain `tmpy-gil --tm=htm` (hardware transactions
elide the GIL; without RTM that run is the GIL run again, and
tests/test_htm.py checks the one line it prints first). A threaded program
is one that imports, itself or through its own modules (tests/py/support),
a module that starts threads or is tmpy's TM (THREAD_MODULES); the others'
move-mode run is under the fake HTM and checks that they start none.
The expected output is REF_PYTHON's (CPython 3.11; TMPY_REF_PYTHON).
Every program also runs with TMPY_GC_DEBUG=move:512 (a minor collection at
every allocation, or after a few, moves every young object), which finds a
reference held across an allocation without a root; TMPY_PY_MOVE=0 skips
that half. The move-mode runs below (the fake HTM's, the STM build's) use
the same room.

Under build/tmpy (STM) every program runs with four segments (its threads
in parallel), the threaded ones also with one, with four under the
write-barrier checker (TMPY_STM_CHECK=1) and abort injection, and with two
in move mode under abort injection (TMPY_PY_MOVE=0 skips that one too):
transactions of TMPY_TXLEN=5 yield points (20 in move mode) that abort at
random (TMPY_STM_INJECT_ABORTS, rate TMPY_ABORT_RATE, default 0.02, seeded
per program; TMPY_ABORT_SEED=N changes the seeds, and a failure names the
seed that reproduces it).
The threaded programs also run with injected aborts whose retries diverge
(TMPY_STM_INJECT_DIVERGE=1: the clocks move on and another thread's commit
may land before the retry).
"""
import ast
import codecs
import json
import os
import pathlib
import re
import shutil
import subprocess
import time

import pytest

from conftest import BUILD, REF_PYTHON, ROOT, htm_uses_rtm

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
    stats = [line for line in err if line.startswith("tmpy stats: ")] if "TMPY_STATS" in (extra_env or {}) else []
    err = [line for line in err if line not in stats]
    return p.stdout, p.returncode, err[-1] if err else "", stats


# Modules through which a program starts threads (or uses tmpy's tm module);
# a module of the program's own directory that it imports is read in turn.
THREAD_MODULES = {"threading", "_thread", "queue", "concurrent", "asyncio", "multiprocessing", "socketserver",
                  "tm"}


def imported_modules(path, seen=None):
    """The top-level names of the modules a program file imports anywhere
    (import, from-import, __import__/import_module of a literal name), with
    those of the files under PY_DIR it imports. A file CPython cannot parse
    imports nothing."""
    seen = set() if seen is None else seen
    if path in seen:
        return set()
    seen.add(path)
    try:
        tree = ast.parse(path.read_bytes(), str(path))
    except SyntaxError:
        return set()
    names = set()   # dotted names, relative ones made absolute from PY_DIR
    package = path.parent.relative_to(PY_DIR).parts
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else ()
            module = ".".join([*base, *([node.module] if node.module else [])])
            if module:
                names.add(module)
            names |= {f"{module}.{a.name}".lstrip(".") for a in node.names}   # maybe submodules
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)
              and getattr(node.func, "id", getattr(node.func, "attr", None)) in ("__import__", "import_module")):
            names.add(node.args[0].value)
    tops = {n.split(".")[0] for n in names}
    for n in names:
        parts = n.split(".")
        for i in range(1, len(parts) + 1):   # a package's __init__ runs before its submodule
            for f in (PY_DIR.joinpath(*parts[:i]).with_suffix(".py"), PY_DIR.joinpath(*parts[:i], "__init__.py")):
                if f.is_file():
                    tops |= imported_modules(f, seen)
    return tops


THREADED = [p for p in PROGRAMS if imported_modules(p) & THREAD_MODULES]


_expected = {}
# The pytest-xdist workers of one run share the references (each would
# otherwise run python3 on nearly every program itself).
_RUN_ID = os.environ.get("PYTEST_XDIST_TESTRUNUID")
REF_DIR = BUILD / "py-ref" / _RUN_ID if _RUN_ID else None


def forget_old_references():
    """The reference directories of runs over an hour old."""
    now = time.time()
    for d in (BUILD / "py-ref").glob("*"):
        try:
            if d != REF_DIR and now - d.stat().st_mtime > 3600:
                shutil.rmtree(d, ignore_errors=True)
        except FileNotFoundError:
            pass


def expected(path):
    if path not in _expected:
        saved = REF_DIR / (str(path.relative_to(PY_DIR)).replace("/", "__") + ".json") if REF_DIR else None
        if saved and saved.exists():
            _expected[path] = tuple(json.loads(saved.read_text()))
        else:
            _expected[path] = run(REF_PYTHON, path)
            if saved:
                saved.parent.mkdir(parents=True, exist_ok=True)
                tmp = saved.with_suffix(f".{os.getpid()}")
                tmp.write_text(json.dumps(_expected[path]))
                os.replace(tmp, saved)
    return _expected[path]


if REF_DIR:
    forget_old_references()


def check(path, extra_env=None, exe=TMPY_GIL, options=()):
    assert exe.exists(), f"{exe} is not built: run `make test`"
    want = expected(path)
    got = run(exe, path, extra_env, options)
    where = " ".join([*options, *(f"{k}={v}" for k, v in (extra_env or {}).items())])
    assert got[0] == want[0], f"stdout differs ({where} {exe.name})"
    assert (got[1], got[2]) == (want[1], want[2]), f"exit code / last stderr line differ ({where} {exe.name})"
    return got


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program(path):
    check(path)


# With room for a few allocations after half the collections, an object
# also stays young across some allocations before it moves (as in a normal
# run): a reference a C function holds across an allocation to an object an
# earlier allocation of the call would promote in plain move mode is caught.
MOVE_ROOM = os.environ.get("TMPY_PY_MOVE_ROOM", "move:512")   # another ROOM for a longer search


@pytest.mark.skipif(os.environ.get("TMPY_PY_MOVE") == "0", reason="TMPY_PY_MOVE=0")
@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_move_mode(path):
    """A program that starts no thread also runs here under --tm=htm on the
    fake HTM (in its run nothing differs from the GIL's; its TMPY_STATS
    report keeps THREADED honest: see test_program_htm_fake)."""
    if path in THREADED:
        check(path, {"TMPY_GC_DEBUG": MOVE_ROOM})
    else:
        stats = check(path, {"TMPY_GC_DEBUG": MOVE_ROOM, **htm_fake_env(path), "TMPY_STATS": "1"},
                      options=("--tm=htm",))[3]
        started = [m for m in map(re.compile(r"htm \(fake\): (\d+) hardware transactions").search, stats) if m]
        assert not started or started[0][1] == "0", (
            f"{path.name} runs threads but imports none of THREAD_MODULES: {started[0].string}")


def htm_fake_env(path):
    return {"TMPY_HTM_FAKE": f"model:conflict=0.002,capacity=100,seed={abort_seed(path)}"}


# Without RTM, --tm=htm runs with the GIL: the run would be test_program's.
HTM_PROGRAMS = PROGRAMS if htm_uses_rtm() else [
    pytest.param(None, marks=pytest.mark.skip(reason="tmpy-gil has no RTM here: --tm=htm is the GIL run"))]


@pytest.mark.parametrize("path", HTM_PROGRAMS, ids=lambda p: p.stem if p else "no-rtm")
def test_program_htm(path):
    """tmpy-gil --tm=htm on a CPU with RTM: hardware transactions elide the GIL."""
    check(path, options=("--tm=htm",))


@pytest.mark.parametrize("path", THREADED, ids=[p.stem for p in THREADED])
def test_program_htm_fake(path):
    """The elision's state machine driven by the fake HTM's conflict model
    (runtime/htm_fake.c): aborts, retries, GIL fallbacks and length cuts
    happen in every threaded program, which must still print the same. (A
    program that starts no thread starts no transaction: its run would be
    the GIL's, so it runs so only in move mode, which checks that.)"""
    check(path, htm_fake_env(path), options=("--tm=htm",))


@pytest.mark.skipif(os.environ.get("TMPY_PY_MOVE") == "0", reason="TMPY_PY_MOVE=0")
@pytest.mark.parametrize("path", THREADED, ids=[p.stem for p in THREADED])
def test_program_htm_fake_move_mode(path):
    """The threaded programs under the fake in move mode: transactions end
    with young objects alive, so every thread's shadow stack must be a root
    of the next minor collection."""
    check(path, {**htm_fake_env(path), "TMPY_GC_DEBUG": MOVE_ROOM}, options=("--tm=htm",))


# One segment matters only where threads share it: a program that starts no
# thread runs in one segment whatever the count (the four-segment runs below
# cover it under the STM build).
ONE_SEGMENT = [p for p in PROGRAMS if p in THREADED or "threading" in p.read_text() or "_thread" in p.read_text()]


@pytest.mark.parametrize("path", ONE_SEGMENT, ids=[p.stem for p in ONE_SEGMENT])
def test_program_stm_one_segment(path):
    check(path, {"TMPY_SEGMENTS": "1"}, TMPY_STM)


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_stm_four_segments(path):
    check(path, {"TMPY_SEGMENTS": "4"}, TMPY_STM)


def abort_seed(path):
    base = int(os.environ.get("TMPY_ABORT_SEED", "0"))
    return base * 1000003 + sum(path.stem.encode())


# The programs that name threading or _thread (not THREADED, which test_program_htm_fake reads when it
# runs: redefining that name made its check use this list).
STM_THREADED = [p for p in PROGRAMS if "threading" in p.read_text() or "_thread" in p.read_text()]


@pytest.mark.parametrize("path", STM_THREADED, ids=[p.stem for p in STM_THREADED])
def test_program_stm_contention_eager(path):
    """The contention manager changing modes all the time (TMPY_STM_CM=eager:
    every injected abort serialises, two commits end a probation or a trial),
    with per-yield-point lengths cut fast (initial 20, period 10, threshold 0)."""
    rate = os.environ.get("TMPY_ABORT_RATE", "0.02")
    check(path, {"TMPY_SEGMENTS": "4", "TMPY_STM_CM": "eager", "TMPY_TXLEN_DYNAMIC": "20,10,0,1",
                 "TMPY_STM_INJECT_ABORTS": f"{rate}:{abort_seed(path)}"}, TMPY_STM)


@pytest.mark.parametrize("path", STM_THREADED, ids=[p.stem for p in STM_THREADED])
def test_program_stm_divergent_retries(path):
    """Injected aborts whose retries see another world (TMPY_STM_INJECT_DIVERGE=1:
    the clocks moved on, another thread's transaction started or ended), so
    a retry may take another path than the aborted run, and C state that run
    left behind shows up (issue 21). Two segments, unlike the other injected
    runs; the threaded programs only (the mode's wait is for other threads)."""
    rate = os.environ.get("TMPY_ABORT_RATE", "0.02")
    check(path, {"TMPY_SEGMENTS": "2", "TMPY_TXLEN": "5", "TMPY_STM_INJECT_DIVERGE": "1",
                 "TMPY_STM_INJECT_ABORTS": f"{rate}:{abort_seed(path) + 1}"}, TMPY_STM)


# Hand-overs between threads (locks, conditions, queues, tm.wait/notify),
# quick enough with the delay below.
LATE_WAKEUP_PROGRAMS = [PY_DIR / f"{n}.py" for n in (
    "thread_condition_wakeups", "thread_lock_handover_stress", "thread_queue", "thread_tm_wait_notify",
    "stm_queue_pipeline", "thread_local_stress", "thread_barrier", "thread_event")]


@pytest.mark.parametrize("path", LATE_WAKEUP_PROGRAMS, ids=[p.stem for p in LATE_WAKEUP_PROGRAMS])
def test_program_stm_late_wakeups(path):
    """Every woken thread runs 0-2 ms late (TMPY_TEST_WAKE_DELAY, in the
    runtime's wait loops): a wake-up that only works when the woken thread
    runs at once, or an order that makes running threads wait for woken ones,
    shows as a hang or a timeout here. Four segments, short transactions."""
    check(path, {"TMPY_SEGMENTS": "4", "TMPY_TXLEN": "5", "TMPY_TEST_WAKE_DELAY": "2000"}, TMPY_STM)


@pytest.mark.parametrize("path", STM_THREADED, ids=[p.stem for p in STM_THREADED])
def test_program_stm_contention_two_segments(path):
    """Serialised threads with two segments and no injected aborts (solo
    transactions for the token holder), eager mode."""
    check(path, {"TMPY_SEGMENTS": "2", "TMPY_STM_CM": "eager"}, TMPY_STM)


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_stm_barrier_check_aborts(path):
    """Under the write-barrier checker a store that skipped its barrier
    stops the program with the C location (runtime/barriercheck.c); with
    transactions that abort at random, so the retries' paths are checked too
    (and the aborts' undo is checked by the output). A transaction lasts 1
    to 5 yield points, by program (TMPY_CHECK_TXLEN sets it for all): a
    short one commits inside most calls back into Python, which is where a
    C function still filling an object it made must take the rare-write
    barrier."""
    rate = os.environ.get("TMPY_ABORT_RATE", "0.02")
    txlen = os.environ.get("TMPY_CHECK_TXLEN") or str(1 + abort_seed(path) % 5)
    check(path, {"TMPY_SEGMENTS": "4", "TMPY_STM_CHECK": "1", "TMPY_TXLEN": txlen,
                 "TMPY_STM_INJECT_ABORTS": f"{rate}:{abort_seed(path)}"}, TMPY_STM)


# Known bugs this variant finds, named until fixed (the run still happens:
# a fix shows as XPASS).
MOVE_ABORTS_KNOWN = {}


@pytest.mark.skipif(os.environ.get("TMPY_PY_MOVE") == "0", reason="TMPY_PY_MOVE=0")
@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_stm_move_mode_aborts(path, request):
    """Move mode with aborts: a reference the restored interpreter state
    keeps to an object the abort discarded stops the program at once."""
    if path.stem in MOVE_ABORTS_KNOWN:
        request.applymarker(pytest.mark.xfail(reason=MOVE_ABORTS_KNOWN[path.stem], strict=False))
    check(path, {"TMPY_GC_DEBUG": MOVE_ROOM, "TMPY_SEGMENTS": "2", "TMPY_TXLEN": "20",
                 "TMPY_STM_INJECT_ABORTS": f"0.01:{abort_seed(path)}"}, TMPY_STM)
