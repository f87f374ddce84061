"""The ecosystem: a venv made by `BUILD -m venv DIR` (ensurepip installs pip
from Debian's wheels, /usr/share/python-wheels, python3-pip-whl; skipped
without them); then the venv's pip reports its version, installs a
pure-Python wheel made here from a local directory (no network), byte-compiled
(__pycache__/NAME.tmpy-311.pyc: tmpy's marshal of its code objects), the
venv's python imports it, pip lists it and uninstalls it (.pyc included).
Also a venv made `--without-pip` with pip installed by pip run from its wheel
(PYTHONPATH=the wheel, `-m pip`). Under 60 s for both builds."""
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


def pip_env():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "PYTHON"))}
    env.update(PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_CACHE_DIR="1",
               PIP_ROOT_USER_ACTION="ignore")
    return env


@pytest.mark.skipif(not WHEELS, reason="no pip wheel in /usr/share/python-wheels (python3-pip-whl)")
@pytest.mark.parametrize("build", ["tmpy-gil", "tmpy"])
def test_venv_pip_install_offline(build, tmp_path):
    exe = BUILD / build
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    make_wheel(wheels)
    env = pip_env()
    venv = tmp_path / "venv"
    run([str(exe), "-m", "venv", str(venv)], env)
    py = str(venv / "bin" / "python")
    out = run([py, "-m", "pip", "--version"], env)
    assert out.startswith("pip ") and str(venv) in out, out
    out = run([py, "-m", "pip", "install", "--find-links", str(wheels), "tmpy-demo"], env)
    assert "Successfully installed tmpy-demo-1.0" in out, out
    site = glob.glob(str(venv / "lib" / "python3.*" / "site-packages"))[0]
    pyc = os.path.join(site, "tmpy_demo", "__pycache__", "__init__.tmpy-311.pyc")
    assert os.path.exists(pyc), os.listdir(os.path.join(site, "tmpy_demo"))
    out = run([py, "-c", "import sys, tmpy_demo; print(tmpy_demo.X, sys.prefix == sys.argv[1], "
                         "tmpy_demo.__file__.startswith(sys.argv[1]), tmpy_demo.__cached__ == sys.argv[2])",
               str(venv), pyc], env)
    assert out == "42 True True True\n", out
    # the .pyc pip wrote is tmpy's: importlib's loader runs it
    out = run([py, "-c", "import importlib.util as u, sys; s = u.spec_from_file_location('d', sys.argv[1]); "
                         "m = u.module_from_spec(s); s.loader.exec_module(m); print(m.X)",
               os.path.join(site, "tmpy_demo", "__init__.py")], env)
    assert out == "42\n", out
    out = run([py, "-m", "pip", "list"], env)
    assert "tmpy-demo" in out and "pip" in out, out
    out = run([py, "-m", "pip", "uninstall", "-y", "tmpy-demo"], env)
    assert "Successfully uninstalled tmpy-demo-1.0" in out, out
    assert not os.path.exists(os.path.join(site, "tmpy_demo")), os.listdir(site)


@pytest.mark.skipif(not WHEELS, reason="no pip wheel in /usr/share/python-wheels (python3-pip-whl)")
def test_venv_without_pip_then_pip_from_its_wheel(tmp_path):
    env = pip_env()
    venv = tmp_path / "venv"
    run([str(BUILD / "tmpy-gil"), "-m", "venv", "--without-pip", str(venv)], env)
    py = str(venv / "bin" / "python")
    wheel = WHEELS[0]
    out = run([py, "-m", "pip", "install", "--find-links", os.path.dirname(wheel), "pip"],
              dict(env, PYTHONPATH=wheel))
    assert "Successfully installed pip-" in out, out
    out = run([py, "-m", "pip", "--version"], env)
    assert out.startswith("pip ") and str(venv) in out, out


@pytest.mark.parametrize("build", ["tmpy-gil", "tmpy"])
def test_zip_on_pythonpath_at_startup(build, tmp_path):
    """A zip archive on PYTHONPATH (pip's wheel, as above) is on sys.path
    before site is imported: the importlib bootstrap's own imports, which that
    first search sets up, must not hand the search back to it."""
    archive = tmp_path / "m.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("zmod.py", "X = 1\n")
        z.writestr("zpkg/__init__.py", "")
        z.writestr("zpkg/__main__.py", "import sys\nprint(__name__, sys.argv[1:])\nraise SystemExit(3)\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(archive)
    for flags in ([], ["-S"]):
        out = run([str(BUILD / build), *flags, "-c", "import zmod, sys; print(zmod.X, zmod.__file__.endswith('zmod.py'))"], env)
        assert out == "1 True\n", out
    # -m finds a package inside the archive (runpy's search) and runs its __main__
    p = subprocess.run([str(BUILD / build), "-m", "zpkg", "a"], env=env, capture_output=True, text=True, timeout=60)
    assert (p.returncode, p.stdout) == (3, "__main__ ['a']\n"), (p.returncode, p.stdout, p.stderr)
    p = subprocess.run([str(BUILD / build), "-m", "nosuch"], env=env, capture_output=True, text=True, timeout=60)
    assert p.returncode == 1 and p.stderr.endswith(": No module named nosuch\n"), p.stderr
