"""What finalizers and _warnings write to stderr, compared whole with
python3's under both builds: the "coroutine '...' was never awaited"
RuntimeWarning and warnings shown without the warnings module, in CPython's
default format (place, source line, the tracemalloc hint; once per message
and line). tests/test_py.py runs the same programs comparing only the last
stderr line."""
import subprocess

import pytest

from conftest import BUILD, REF_PYTHON, ROOT

PROGRAMS = [ROOT / "tests" / "py" / name for name in ("coro_never_awaited.py", "warnings_plain_display.py")]


def run(exe, program):
    p = subprocess.run([str(exe), str(program)], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr.splitlines()


@pytest.mark.parametrize("build", ["tmpy-gil", "tmpy"])
@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_finalizer_stderr_as_cpython(build, program):
    exe = BUILD / build
    assert exe.exists(), f"{exe} is not built: run `make`"
    expected = run(REF_PYTHON, program)
    assert any("Warning: " in line for line in expected[2])
    assert run(exe, program) == expected
