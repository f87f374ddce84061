"""Popular pure-Python packages' own test suites under tmpy
(tests/packages/run.py): every test that passes under python3 passes under
each build, or tests/packages/expected_failures.txt names it with a reason.
Downloads (cached outside the repository) and minutes of runs: only with
TMPY_PACKAGE_TESTS=1 (`make test-packages`), never in the default suite."""
import importlib.util
import os
import sys

import pytest

from conftest import ROOT

# by path: tests/cpython/run.py is imported as `run` by another test module
_spec = importlib.util.spec_from_file_location("packages_run", ROOT / "tests" / "packages" / "run.py")
packages = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(packages)

ENABLED = os.environ.get("TMPY_PACKAGE_TESTS") == "1"
PACKAGES = packages.read_packages()


@pytest.fixture(scope="module")
def site():
    return packages.install_site(PACKAGES)


@pytest.mark.skipif(not ENABLED, reason="set TMPY_PACKAGE_TESTS=1 (downloads packages; minutes)")
@pytest.mark.parametrize("build", ["tmpy-gil", "tmpy"])
@pytest.mark.parametrize("package", [p[0] for p in PACKAGES])
def test_package_suite(package, build, site):
    name, version, tests, _ = next(p for p in PACKAGES if p[0] == package)
    src = packages.unpack_sdist(name, version)
    ref, ref_note, _ = packages.run_suite(sys.executable, src, tests)
    passing = {t for t, o in ref.items() if o == "PASSED"}
    assert passing, f"no test of {name} passed under python3: {ref_note}"
    got, note, _ = packages.run_suite(packages.interpreter(build, site), src, tests)
    fails = packages.read_expected_failures()
    lost = sorted(t for t in passing if got.get(t) != "PASSED" and not packages.expected(fails, name, t))
    assert not lost, f"{len(lost)} of {len(passing)} tests of {name} lost under {build} ({note}): {lost[:10]}"
