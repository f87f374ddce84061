"""Uncaught exception groups print as CPython 3.11 prints them: the whole of
stderr (the "Exception Group Traceback" header, the +-+---- 1 ---- boxes,
margins on every line of tracebacks, chained causes/contexts and notes
inside a box, the width and depth limits) and the exit status must equal
python3's, under both builds. The programs are tests/py/excgroup_uncaught*.py
(which test_py.py also runs, comparing only the last line)."""
import subprocess

import pytest

from conftest import BUILD, REF_PYTHON, ROOT

PROGRAMS = sorted((ROOT / "tests" / "py").glob("excgroup_uncaught*.py"))


def run(exe, program):
    p = subprocess.run([str(exe), str(program)], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


@pytest.mark.parametrize("build", ["tmpy-gil", "tmpy"])
@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_uncaught_group_printed_as_cpython(build, program):
    exe = BUILD / build
    assert exe.exists(), f"{exe} is not built: run `make`"
    expected = run(REF_PYTHON, program)
    assert "Exception Group Traceback" in expected[2]
    assert run(exe, program) == expected
