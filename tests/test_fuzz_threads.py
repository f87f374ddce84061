"""The threaded differential fuzzer (tests/fuzz/fuzz_threads.py): generated
programs of 2-8 threads over shared lists, dicts, sets, counters under locks,
attributes, generators, exceptions, finalizers, tm.atomic, blocking calls and
I/O, whose output is deterministic by construction, run under build/tmpy at 2
and 4 segments with abort injection and TMPY_STM_CHECK=1, against python3.
A different output, exit code, crash or hang (each run has a timeout) fails.

Short by default: TMPY_FUZZ_THREADS_N programs (default 16) from seed
TMPY_FUZZ_THREADS_SEED (default 1), stopping early after
TMPY_FUZZ_THREADS_SECONDS (default 40). The long mode is the same with a big
N, or the script itself: `tests/fuzz/fuzz_threads.py run FIRST N`.
Failures are saved under build/fuzz_threads/SEED-CONFIG/ (prog.py, cmd.sh,
expected.txt, got.txt).

A run whose failures are all explained by bugs already filed (a crash with a
known message, or an output equal to python3's once a known bug's mark is
replaced: KNOWN_CRASHES, KNOWN_OUTPUTS in the fuzzer) is an expected failure, named, until
the fix lands: remove the entry with the fix.
"""
import os
import sys
import tempfile
import time

import pytest

from conftest import BUILD, REF_PYTHON, ROOT

sys.path.insert(0, str(ROOT / "tests" / "fuzz"))
import fuzz_threads  # noqa: E402

N = int(os.environ.get("TMPY_FUZZ_THREADS_N", "16"))
FIRST = int(os.environ.get("TMPY_FUZZ_THREADS_SEED", "1"))
SECONDS = float(os.environ.get("TMPY_FUZZ_THREADS_SECONDS", "40"))

known_bug = fuzz_threads.known_bug


@pytest.mark.skipif(not (BUILD / "tmpy").exists(), reason="build/tmpy is not built")
def test_fuzz_threads():
    outdir = BUILD / "fuzz_threads"
    deadline = time.monotonic() + SECONDS
    failures, done = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(FIRST, FIRST + N):
            if done and time.monotonic() > deadline:
                break
            failures += fuzz_threads.check_seed(seed, str(REF_PYTHON), outdir, tmp)
            done += 1
    if failures and all(known_bug(f) for f in failures):
        pytest.xfail("; ".join(sorted({known_bug(f) for f in failures})) + ": " + "\n".join(failures))
    assert not failures, (f"{len(failures)} differences in {done} programs (rerun one with "
                          f"`sh DIR/cmd.sh`):\n" + "\n".join(failures))


def fake_interpreter(tmp_path, body):
    """A stand-in for build/tmpy: a shell script running python3 on the program."""
    exe = tmp_path / "fake_tmpy"
    exe.write_text(f"#!/bin/sh\n{body}\n")
    exe.chmod(0o755)
    return exe


@pytest.mark.parametrize("body,what", [
    (f'"{REF_PYTHON}" "$1" | grep -v "^dels"', "stdout differs"),   # a lost line: finalizers
    (f'"{REF_PYTHON}" "$1"; exit 1', "exit 1"),
    ("sleep 30", "hang"),
], ids=["output", "exit", "hang"])
def test_fuzzer_catches_a_wrong_interpreter(tmp_path, monkeypatch, body, what):
    monkeypatch.setattr(fuzz_threads, "TIMEOUT", 3.0)
    exe = fake_interpreter(tmp_path, body)
    out = tmp_path / "failures"
    failures = fuzz_threads.check_seed(5, str(REF_PYTHON), out, tmp_path, stm=exe)
    assert [f.split(":")[0] for f in failures] == ["seed 5 seg2", "seed 5 seg4"], failures
    assert all(what in f for f in failures), failures
    saved = out / "5-seg2"
    assert sorted(p.name for p in saved.iterdir()) == ["cmd.sh", "expected.txt", "got.txt", "prog.py"]
    assert "TMPY_SEGMENTS=2" in (saved / "cmd.sh").read_text()
    assert (saved / "prog.py").read_text() == fuzz_threads.generate(5)
    assert not any(known_bug(f) for f in failures), "an unknown difference passed as a known bug"


def test_a_reference_that_changes_on_a_rerun(tmp_path):
    """A difference is checked against a second run of the reference: when that run gives the
    interpreter's output (the reference's own timeouts expired the first time, under load), it is no
    difference; another output still is."""
    count = tmp_path / "runs"
    ref = fake_interpreter(tmp_path, f'echo x >> "{count}"; if [ $(wc -l < "{count}") = 1 ]; then echo first; '
                                     f'else echo second; fi')
    ref = ref.rename(tmp_path / "fake_ref")
    before = fuzz_threads.REFERENCE_UNSTABLE
    assert fuzz_threads.check_seed(7, str(ref), tmp_path / "f", tmp_path, stm=fake_interpreter(tmp_path, "echo second")) == []
    assert fuzz_threads.REFERENCE_UNSTABLE == before + 1
    count.unlink()
    failures = fuzz_threads.check_seed(7, str(ref), tmp_path / "g", tmp_path, stm=fake_interpreter(tmp_path, "echo third"))
    assert [f.split(":")[0] for f in failures] == ["seed 7 seg2", "seed 7 seg4"], failures


def test_known_bug_explains_only_its_own_mark(tmp_path, monkeypatch):
    """A spinner that gives up (issue 21 #5's mark, filed here as a known bug for the test) is known;
    that plus a lost line is not."""
    monkeypatch.setattr(fuzz_threads, "KNOWN_OUTPUTS", [("('spin', [False])", "('spin', [True])", "issue 21 #5")])
    assert "('spin'" in fuzz_threads.generate(3)
    spin = "s/('spin', \\[True\\])/('spin', [False])/"
    for body, known in ((f'"{REF_PYTHON}" "$1" | sed "{spin}"', True),
                        (f'"{REF_PYTHON}" "$1" | sed "{spin}" | grep -v "^dels"', False)):
        exe = fake_interpreter(tmp_path, body)
        failures = fuzz_threads.check_seed(3, str(REF_PYTHON), tmp_path / "f", tmp_path, stm=exe)
        assert len(failures) == 2 and all(bool(known_bug(f)) == known for f in failures), failures


def test_programs_are_deterministic_under_python3(tmp_path):
    """The reference itself gives one output per seed (run twice)."""
    for seed in (11, 12):
        prog = tmp_path / "p.py"
        prog.write_text(fuzz_threads.generate(seed))
        a = fuzz_threads.run_program(REF_PYTHON, prog, {}, tmp_path)
        b = fuzz_threads.run_program(REF_PYTHON, prog, {}, tmp_path)
        assert a[0] == 0 and a[:2] == b[:2], (seed, a[2][-2000:])


def test_lost_finalizers_are_known_only_as_fewer(tmp_path):
    """issue 21 #1's mark (fixed; kept for the next such bug): fewer __del__ runs (of the same threads) on the
    dels line, nothing else."""
    rx = fuzz_threads.DELS_LINE
    want = "dels 3620 [2, 3] weakref callbacks 5 5"
    assert fuzz_threads.short_counts(rx, want, "dels 1 [2] weakref callbacks 4 5")
    assert not fuzz_threads.short_counts(rx, want, "dels 3621 [2, 3] weakref callbacks 5 5")
    assert not fuzz_threads.short_counts(rx, want, "dels 10 [2, 4] weakref callbacks 5 5")
    assert not fuzz_threads.short_counts(rx, want, "dels 10 [2] weakref callbacks 5 4")


# Saved programs the fuzzer failed on, with the configuration that failed,
# kept where no shorter test catches the bug as often (tests/fuzz/found/README.md).
FOUND = [
    # A major collection freed an object that a running transaction had created,
    # written (remembered for its next minor collection) and dropped; that minor
    # collection then wrote the freed object's header (runtime/major.c
    # forget_dead_created). Failed 5 runs in 6 with the check in runtime/nursery.c.
    ("seed_1007590.py", {"TMPY_GC_DEBUG": "move", "TMPY_SEGMENTS": "4", "TMPY_STM_CHECK": "1",
                         "TMPY_STM_INJECT_ABORTS": "0.05:804", "TMPY_STM_SOLO": "0", "TMPY_TXLEN": "1"}),
]


@pytest.mark.skipif(not (BUILD / "tmpy").exists(), reason="build/tmpy is not built")
@pytest.mark.parametrize("name,env", FOUND, ids=[f[0] for f in FOUND])
def test_found_program(name, env, tmp_path):
    prog = ROOT / "tests" / "fuzz" / "found" / name
    want = fuzz_threads.run_program(str(REF_PYTHON), prog, {}, tmp_path)
    for _ in range(3):
        got = fuzz_threads.run_program(BUILD / "tmpy", prog, env, tmp_path)
        assert got[:2] == want[:2], f"{name} under {env}: exit {got[0]}\n{got[2][-2000:]}"
