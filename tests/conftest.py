import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
BUILD = ROOT / "build"


def run(cmd, env=None, timeout=600):
    """Run a built program with extra environment variables; return the CompletedProcess."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run(cmd, env=full_env, capture_output=True, text=True, timeout=timeout)


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
