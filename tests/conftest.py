import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
BUILD = ROOT / "build"
# The interpreter whose behaviour is expected: CPython 3.11, the one running
# pytest unless TMPY_REF_PYTHON names another (checked once per session, by
# pytest_collection_finish, when a selected test uses it).
REF_PYTHON = os.environ.get("TMPY_REF_PYTHON") or sys.executable


def run(cmd, env=None, timeout=600):
    """Run a built program with extra environment variables; return the CompletedProcess."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run(cmd, env=full_env, capture_output=True, text=True, timeout=timeout)


_rtm = []


def htm_uses_rtm():
    """Whether `tmpy-gil --tm=htm` runs on RTM here (it asks the CPU, CPUID
    and a test transaction, runtime/htm_rtm.c); before tmpy-gil is built,
    whether /proc/cpuinfo lists the rtm flag."""
    if not _rtm:
        exe = BUILD / "tmpy-gil"
        if exe.exists():
            env = {k: v for k, v in os.environ.items() if not k.startswith(("TMPY_TM", "TMPY_HTM"))}
            p = subprocess.run([str(exe), "--tm=htm", "-c", "import tm; print(tm.mode())"], env=env,
                               capture_output=True, text=True, timeout=60)
            _rtm.append(p.returncode == 0 and p.stdout == "htm\n")
        else:
            try:
                with open("/proc/cpuinfo") as f:
                    _rtm.append(any("rtm" in line.split() for line in f if line.startswith("flags")))
            except OSError:
                _rtm.append(False)
    return _rtm[0]


@pytest.fixture
def ctest():
    """Runs build/tests/NAME with args and env; fails with its output unless it exits 0."""

    def go(name, *args, env=None, timeout=600):
        exe = BUILD / "tests" / name
        assert exe.exists(), f"{exe} is not built: run `make test`"
        p = run([str(exe), *args], env=env, timeout=timeout)
        assert p.returncode == 0, f"{name} {' '.join(args)} exited {p.returncode}\n{p.stdout}\n{p.stderr}"
        assert "ok" in p.stdout
        return p

    return go


def reference_python_problem():
    """Why REF_PYTHON cannot be the reference (CPython 3.11), or None."""
    where = f"{REF_PYTHON} ({'TMPY_REF_PYTHON' if os.environ.get('TMPY_REF_PYTHON') else 'the python running pytest'})"
    try:
        p = subprocess.run([REF_PYTHON, "-c", "import sys; print(sys.implementation.name, *sys.version_info[:2])"],
                           capture_output=True, text=True, timeout=60)
    except OSError as e:
        return f"the reference python {where} does not run: {e}"
    if p.returncode != 0 or p.stdout.split() != ["cpython", "3", "11"]:
        return (f"the reference python {where} must be CPython 3.11, it is {p.stdout.strip() or p.stderr.strip()!r}: "
                f"set TMPY_REF_PYTHON to a CPython 3.11")
    return None


def pytest_collection_finish(session):
    """The expected outputs come from REF_PYTHON: if a selected test's module
    uses it and it is not CPython 3.11, the session stops with the reason
    (one error, not one per program)."""
    if any(getattr(getattr(item, "module", None), "REF_PYTHON", None) for item in session.items):
        problem = reference_python_problem()
        if problem:
            raise pytest.UsageError(problem)

