"""tmpy's compiler accepts every .py file of CPython 3.11's standard library.

The files are Debian's (libpython3.11-minimal and libpython3.11-stdlib,
installed here if missing). tests/stdlib/compile_all.py compiles them all
with compile() in one tmpy process, without running any, and stops at the
first one refused. The files must also be accepted by python3 itself (a
file CPython refuses is no measure of tmpy).
"""
import pathlib
import subprocess

import pytest

from conftest import BUILD, REF_PYTHON, ROOT

STDLIB = pathlib.Path("/usr/lib/python3.11")
PACKAGES = ["libpython3.11-minimal", "libpython3.11-stdlib"]
DRIVER = ROOT / "tests" / "stdlib" / "compile_all.py"


def ensure_stdlib():
    if (STDLIB / "os.py").exists() and (STDLIB / "asyncio" / "base_events.py").exists():
        return
    for cmd in (["apt-get", "install", "-y", *PACKAGES], ["sudo", "apt-get", "install", "-y", *PACKAGES]):
        try:
            if subprocess.run(cmd, capture_output=True, timeout=600).returncode == 0:
                return
        except (OSError, subprocess.TimeoutExpired):
            pass
    pytest.fail(f"CPython 3.11's standard library is not in {STDLIB}: apt-get install {' '.join(PACKAGES)}")


# What Debian's libpython3.11-testsuite installs besides test/ (lib2to3's test
# data is Python 2 that CPython refuses too).
TESTSUITE_DIRS = {("ctypes", "test"), ("distutils", "tests"), ("idlelib", "idle_test"), ("lib2to3", "tests"),
                  ("tkinter", "test"), ("unittest", "test")}


def stdlib_files():
    """The library's .py files: not site-packages, and not CPython's own test
    package and the other test folders of libpython3.11-testsuite (tests/cpython
    runs them; their sources include files with broken coding declarations
    that only CPython's tokenizer tests read, and Python 2 data)."""
    top = len(STDLIB.parts)
    return sorted(str(p) for p in STDLIB.rglob("*.py")
                  if not any(d.endswith("-packages") for d in p.parts) and p.parts[top] != "test"
                  and not (len(p.parts) > top + 1 and (p.parts[top], p.parts[top + 1]) in TESTSUITE_DIRS))

@pytest.mark.parametrize("exe", ["tmpy-gil", "tmpy"])
def test_compiles_every_stdlib_file(exe):
    ensure_stdlib()
    files = stdlib_files()
    assert len(files) > 600
    listing = "\n".join(files) + "\n"
    ref = subprocess.run([REF_PYTHON, str(DRIVER)], input=listing, capture_output=True, text=True, timeout=600)
    assert ref.returncode == 0, f"{REF_PYTHON} refuses a file itself:\n{ref.stdout}{ref.stderr}"
    p = subprocess.run([str(BUILD / exe), str(DRIVER)], input=listing, capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, f"{exe} refused a file:\n{p.stdout}{p.stderr[-2000:]}"
    assert p.stdout.strip() == f"accepted {len(files)}"
    assert p.stdout == ref.stdout
