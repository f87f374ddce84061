"""CPython 3.11's own test modules under tmpy (tests/cpython/run.py): the
tests of each module that pass under python3 must keep passing under both
builds at least as many as tests/cpython/expected.txt records. The fast set
runs by default; TMPY_CPYTHON_TESTS=all runs the whole list (modules
without a recorded count are only reported)."""
import os
import sys

import pytest

from conftest import BUILD, ROOT

sys.path.insert(0, str(ROOT / "tests" / "cpython"))
import run as cpython_suite  # noqa: E402

ALL = os.environ.get("TMPY_CPYTHON_TESTS") == "all"
MODULES = [m for m, fast in cpython_suite.read_modules() if ALL or fast]
EXPECTED = cpython_suite.read_expected()


@pytest.mark.parametrize("build", ["tmpy-gil", "tmpy"])
@pytest.mark.parametrize("module", MODULES)
def test_cpython_module(module, build):
    exe = BUILD / build
    assert exe.exists(), f"{exe} is not built: run `make test`"
    r = cpython_suite.measure(exe, module)
    want = EXPECTED.get((module, build))
    if want is None:
        assert ALL, f"{module} is in the fast set but tests/cpython/expected.txt has no count for {build}"
        pytest.skip(f"{r['tmpy']} of {r['cpython']} pass; no count recorded")
    assert r["tmpy"] >= want, (f"{module} under {build}: {r['tmpy']} of the {r['cpython']} tests that pass under "
                               f"CPython pass, expected.txt says {want} ({r['note']}); now failing: {r['lost'][:10]}")
