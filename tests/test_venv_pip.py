"""The ecosystem: `BUILD -m venv DIR` runs CPython's venv, whose ensurepip
installs pip and setuptools from Debian's wheels (/usr/share/python-wheels,
python3-pip-whl; skipped without them); then the venv's pip reports its
version, installs a pure-Python wheel made here from a local directory (no
network) and the venv's python imports it, and pip uninstalls it.

pip compiles what it installs with compileall, which needs
sys.implementation.cache_tag; tmpy's is None (no bytecode caches), so pip
runs with PIP_NO_COMPILE=0 (pip reads that variable as the value of
--compile: 0 is --no-compile). Under 60 s for both builds."""
import base64
import glob
import hashlib
import os
import subprocess
import zipfile

import pytest

from conftest import BUILD

WHEELS = glob.glob("/usr/share/python-wheels/pip-*.whl")


def make_wheel(where):
    """tmpy_demo-1.0-py3-none-any.whl: a package with X = 42 and its RECORD."""
    files = {
        "tmpy_demo/__init__.py": b"X = 42\n",
        "tmpy_demo-1.0.dist-info/METADATA": b"Metadata-Version: 2.1\nName: tmpy-demo\nVersion: 1.0\n",
        "tmpy_demo-1.0.dist-info/WHEEL": b"Wheel-Version: 1.0\nGenerator: tmpy-test\nRoot-Is-Purelib: true\n"
                                          b"Tag: py3-none-any\n",
    }
    record = []
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append("tmpy_demo-1.0.dist-info/RECORD,,")
    files["tmpy_demo-1.0.dist-info/RECORD"] = ("\n".join(record) + "\n").encode()
    path = where / "tmpy_demo-1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)
    return path


def run(args, env, timeout=120):
    p = subprocess.run(args, env=env, capture_output=True, text=True, timeout=timeout)
    assert p.returncode == 0, f"{args}\n{p.stdout}\n{p.stderr}"
    return p.stdout


@pytest.mark.skipif(not WHEELS, reason="no pip wheel in /usr/share/python-wheels (python3-pip-whl)")
@pytest.mark.parametrize("build", ["tmpy-gil", "tmpy"])
def test_venv_pip_install_offline(build, tmp_path):
    exe = BUILD / build
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    make_wheel(wheels)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "PYTHON"))}
    env.update(PIP_NO_COMPILE="0", PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1",
               PIP_NO_CACHE_DIR="1", PIP_ROOT_USER_ACTION="ignore")
    venv = tmp_path / "venv"
    run([str(exe), "-m", "venv", str(venv)], env)
    py = str(venv / "bin" / "python")
    out = run([py, "-m", "pip", "--version"], env)
    assert out.startswith("pip ") and str(venv) in out, out
    out = run([py, "-m", "pip", "install", "--find-links", str(wheels), "tmpy-demo"], env)
    assert "Successfully installed tmpy-demo-1.0" in out, out
    out = run([py, "-c", "import sys, tmpy_demo; print(tmpy_demo.X, sys.prefix == sys.argv[1], "
                         "tmpy_demo.__file__.startswith(sys.argv[1]))", str(venv)], env)
    assert out == "42 True True\n", out
    run([py, "-m", "pip", "uninstall", "-y", "tmpy-demo"], env)
    p = subprocess.run([py, "-c", "import tmpy_demo"], env=env, capture_output=True, text=True, timeout=60)
    assert p.returncode == 1 and "ModuleNotFoundError" in p.stderr, p.stderr
