"""Start-up through CPython's site module, against python3: a venv made by
hand (bin/python a symlink to the interpreter, pyvenv.cfg with its home)
whose site-packages holds a module and a .pth file (a directory line, an
import line, a comment, a missing directory); run with no option, -S, -s,
-I and PYTHONNOUSERSITE. Paths are printed relative to the venv, so
python3's venv and tmpy's print the same (the base prefix as BASE)."""
import os
import subprocess

import pytest

from conftest import BUILD, REF_PYTHON

PROGRAM = r"""
import os, sys
V = os.environ["VENV_DIR"]
def rel(p):
    return "BASE" if p == sys.base_prefix else p.replace(V, "V")
print(rel(sys.prefix), rel(sys.exec_prefix), sys.prefix != sys.base_prefix, rel(sys.executable))
print([rel(p) for p in sys.path if V in p])
print(getattr(sys, "pth_ran", None), sys.flags.no_site, sys.flags.no_user_site, sys.flags.isolated,
      "site" in sys.modules, sys.platlibdir)
try:
    import mod_in_site, mod_in_extra
    print(mod_in_site.X, mod_in_extra.Y)
except ImportError as e:
    print("ImportError", e.name)
"""

OPTIONS = [[], ["-S"], ["-s"], ["-I"], ["env:PYTHONNOUSERSITE=1"]]


def make_venv(root, exe):
    exe = os.path.realpath(exe)
    v = root / "venv"
    (v / "bin").mkdir(parents=True)
    (v / "bin" / "python").symlink_to(exe)
    (v / "pyvenv.cfg").write_text(f"home = {os.path.dirname(exe)}\ninclude-system-site-packages = false\n"
                                  "version = 3.11.7\n")
    site = v / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    (site / "mod_in_site.py").write_text("X = 'site'\n")
    extra = v / "extra"
    extra.mkdir()
    (extra / "mod_in_extra.py").write_text("Y = 'extra'\n")
    (site / "a_extra.pth").write_text(f"# a comment\n{extra}\n{v / 'missing'}\n\nimport sys; sys.pth_ran = True\n")
    return v


def run(v, option, cwd):
    env = {k: val for k, val in os.environ.items() if not k.startswith("PYTHON")}
    env["VENV_DIR"] = str(v)
    opts = []
    if option.startswith("env:"):
        k, _, val = option[4:].partition("=")
        env[k] = val
    elif option:
        opts = [option]
    p = subprocess.run([str(v / "bin" / "python"), *opts, "-c", PROGRAM], cwd=cwd, env=env, capture_output=True,
                       text=True, timeout=60)
    return p.stdout, p.stderr.splitlines()[-1:], p.returncode


@pytest.fixture(scope="module")
def venvs(tmp_path_factory):
    made = {}
    for name, exe in (("python3", REF_PYTHON), ("tmpy-gil", BUILD / "tmpy-gil"), ("tmpy", BUILD / "tmpy")):
        made[name] = make_venv(tmp_path_factory.mktemp(name.replace("-", "_")), exe)
    return made


@pytest.mark.parametrize("exe_name", ["tmpy-gil", "tmpy"])
@pytest.mark.parametrize("option", ["".join(o) for o in OPTIONS], ids=lambda o: o or "default")
def test_site_in_venv(venvs, exe_name, option, tmp_path):
    assert (BUILD / exe_name).exists(), f"{exe_name} is not built: run `make test`"
    want = run(venvs["python3"], option, tmp_path)
    got = run(venvs[exe_name], option, tmp_path)
    assert got == want


def test_base_executable_of_venv(venvs, tmp_path):
    """A venv's sys._base_executable is the interpreter its pyvenv.cfg's home names."""
    v = venvs["tmpy-gil"]
    p = subprocess.run([str(v / "bin" / "python"), "-c", "import sys; print(sys._base_executable)"],
                       capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert p.stdout.strip() == os.path.realpath(BUILD / "tmpy-gil")
