"""Tracebacks carry CPython 3.11's position markers (PEP 657): under each
source line, ^ under the failing instruction's range, ~ and ^ for the
operands and operator of a binary operation or the brackets of a subscript,
nothing when the range is the whole line. The whole of stderr (and stdout
and the exit status) must equal python3's, under both builds. The programs
are tests/py/traceback_markers_*.py, which print many tracebacks through
sys.excepthook (test_py.py also runs them, comparing only the last line)."""
import subprocess

import pytest

from conftest import BUILD, REF_PYTHON, ROOT

PROGRAMS = sorted((ROOT / "tests" / "py").glob("traceback_markers_*.py"))


def run(exe, program):
    p = subprocess.run([str(exe), str(program)], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


@pytest.mark.parametrize("build", ["tmpy-gil", "tmpy"])
@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_markers_printed_as_cpython(build, program):
    exe = BUILD / build
    assert exe.exists(), f"{exe} is not built: run `make`"
    expected = run(REF_PYTHON, program)
    assert "^" in expected[2] and "~" in expected[2]
    assert run(exe, program) == expected
