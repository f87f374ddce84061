"""Differential tests: every tests/py/*.py runs under CPython (the expected
output) and under build/tmpy-gil; stdout, the exit code and the last line
of stderr must match.

A test program may carry directives in its first lines:
  # args: a b c          command-line arguments
  # stdin: text          (\\n escapes) fed to stdin
  # env: NAME=value      extra environment (one line per variable)
In args and env, \\xNN stands for the byte NN, so a program can receive
bytes that are not UTF-8 (as the OS may hand them in).
Every program also runs with TMPY_GC_DEBUG=move (a minor collection at
every allocation moves every young object), which finds a reference held
across an allocation without a root; TMPY_PY_MOVE=0 skips that half.
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


def run(exe, path, extra_env=None):
    args, stdin, env = directives(path)
    full = dict(os.environ)
    full.pop("PYTHONPATH", None)
    full["PYTHONHASHSEED"] = "0"
    full.update(env)
    full.update(extra_env or {})
    p = subprocess.run([str(exe), path.name, *args], cwd=path.parent, input=stdin,
                       capture_output=True, text=True, timeout=120, env=full)
    err = p.stderr.strip().splitlines()
    return p.stdout, p.returncode, err[-1] if err else ""


_expected = {}


def expected(path):
    if path not in _expected:
        _expected[path] = run(sys.executable, path)
    return _expected[path]


def check(path, extra_env=None):
    assert TMPY_GIL.exists(), "build/tmpy-gil is not built: run `make test`"
    want = expected(path)
    got = run(TMPY_GIL, path, extra_env)
    assert got[0] == want[0], "stdout differs"
    assert (got[1], got[2]) == (want[1], want[2]), "exit code / last stderr line differ"


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program(path):
    check(path)


@pytest.mark.skipif(os.environ.get("TMPY_PY_MOVE") == "0", reason="TMPY_PY_MOVE=0")
@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_move_mode(path):
    check(path, {"TMPY_GC_DEBUG": "move"})
