"""Popular pure-Python packages' own test suites under tmpy
(tests/packages/run.py): every test that passes under python3 passes under
each build, or tests/packages/expected_failures.txt names it with a reason.
Also a venv made by each build whose pip installs real packages' wheels and
an sdist. Downloads (cached outside the repository) and minutes of runs:
only with TMPY_PACKAGE_TESTS=1 (`make test-packages`), never in the default
suite."""
import glob
import importlib.util
import os
import subprocess

import pytest

from conftest import ROOT

# by path: tests/cpython/run.py is imported as `run` by another test module
_spec = importlib.util.spec_from_file_location("packages_run", ROOT / "tests" / "packages" / "run.py")
packages = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(packages)

ENABLED = os.environ.get("TMPY_PACKAGE_TESTS") == "1"
PIP_WHEELS = glob.glob("/usr/share/python-wheels/pip-*.whl")
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
    ref, ref_note, _ = packages.run_suite(packages.interpreter("python3", site), src, tests)
    passing = {t for t, o in ref.items() if o == "PASSED"}
    assert passing, f"no test of {name} passed under python3: {ref_note}"
    got, note, _ = packages.run_suite(packages.interpreter(build, site), src, tests)
    fails = packages.read_expected_failures()
    lost = sorted(t for t in passing if got.get(t) != "PASSED" and not packages.expected(fails, name, t))
    assert not lost, f"{len(lost)} of {len(passing)} tests of {name} lost under {build} ({note}): {lost[:10]}"


@pytest.mark.skipif(not ENABLED, reason="set TMPY_PACKAGE_TESTS=1 (downloads packages; a minute)")
@pytest.mark.skipif(not PIP_WHEELS, reason="no pip wheel in /usr/share/python-wheels (python3-pip-whl)")
@pytest.mark.parametrize("build", ["tmpy-gil", "tmpy"])
def test_venv_pip_installs_packages(build, tmp_path):
    """`BUILD -m venv DIR` (pip from ensurepip), then the venv's pip installs
    real packages from the cache with no index: two pure-Python wheels (six,
    attrs) and an sdist built by setuptools (toolz's setup.py); the venv's
    python imports and uses them; pip lists and uninstalls one."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "PYTHON"))}
    env.update(PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_CACHE_DIR="1",
               PIP_ROOT_USER_ACTION="ignore", PIP_FIND_LINKS=os.path.dirname(PIP_WHEELS[0]))
    files = [packages.fetch("six", "1.16.0", "wheel"), packages.fetch("attrs", "23.2.0", "wheel"),
             packages.fetch("toolz", "0.12.1", "sdist")]
    venv = tmp_path / "v"

    def run(*args):
        p = subprocess.run(args, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, f"{args}\n{p.stdout}\n{p.stderr}"
        return p.stdout

    run(str(ROOT / "build" / build), "-m", "venv", str(venv))
    py = str(venv / "bin" / "python")
    out = run(py, "-m", "pip", "install", *map(str, files))
    assert "Successfully installed attrs-23.2.0 six-1.16.0 toolz-0.12.1" in out, out
    out = run(py, "-c", "import sys, six, attr, toolz\n"
                        "@attr.define\nclass P:\n    x: int\n    y: int = 2\n"
                        "print(six.PY3, P(1), toolz.pipe(3, toolz.curry(pow)(2)),"
                        " all(m.__file__.startswith(sys.prefix) for m in (six, attr, toolz)))")
    assert out == "True P(x=1, y=2) 8 True\n", out
    out = run(py, "-m", "pip", "list")
    assert all(n in out for n in ("six", "attrs", "toolz", "pip")), out
    out = run(py, "-m", "pip", "uninstall", "-y", "toolz")
    assert "Successfully uninstalled toolz-0.12.1" in out, out
    assert "No module named 'toolz'" in subprocess.run([py, "-c", "import toolz"], env=env, capture_output=True,
                                                       text=True, timeout=60).stderr
