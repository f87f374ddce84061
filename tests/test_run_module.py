"""`-m NAME` against CPython's runpy: a package's failing import shows its
traceback, a package without __main__, a missing module or parent, a
dotted name under a plain module, a C module, a namespace package with and
without __main__; stdout, stderr (sys.executable made EXE, CPython's
"<frozen runpy>" frames dropped: tmpy's -m is in C) and the exit code must
match under both builds."""
import os
import subprocess

import pytest

from conftest import BUILD, REF_PYTHON

FILES = {
    "pkgok/__init__.py": 'print("init", __name__)\n',
    "pkgok/__main__.py": ('import sys\nprint("main", __name__, __package__, sys.argv[1:])\n'
                          'from . import helper\nraise SystemExit(3)\n'),
    "pkgok/helper.py": 'print("helper", __name__)\n',
    "pkgnomain/__init__.py": "x = 1\n",
    "pkgfail/__init__.py": "import os\nos.NoSuchThing\n",
    "pkgfail/__main__.py": "print(1)\n",
    "pkgimperr/__init__.py": "import nosuchdep_for_tmpy\n",
    "pkgimperr/__main__.py": "print(1)\n",
    "nsmain/__main__.py": 'print("nsmain", __name__)\n',
    "nspkg/data.txt": "",
    "pkgsub/__init__.py": "",
    "pkgsub/inner/__init__.py": "",
    "pkgsub/inner/mod.py": 'import sys\nprint("deep", __name__, sys.argv[0].endswith("mod.py"))\n',
    "badsub/__init__.py": 'raise ImportError("custom", name="zzz")\n',
    "plain.py": 'print("plain", __name__)\n',
}

NAMES = ["pkgok", "pkgnomain", "pkgfail", "pkgimperr", "nspkg", "nsmain", "pkgsub", "pkgsub.inner",
         "pkgsub.inner.mod", "pkgsub.nope", "nosuch_for_tmpy", "nosuch_for_tmpy.sub", "plain", "plain.py",
         "plain.x", "sys", "badsub.x", "pkgok.__main__", "pkgok.helper"]


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("runmodule")
    for name, text in FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def run(exe, name, cwd):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSTARTUP")}
    p = subprocess.run([str(exe), "-m", name, "a", "b"], cwd=cwd, capture_output=True, text=True, timeout=60,
                       env=env)
    exe_path = subprocess.run([str(exe), "-c", "import sys; print(sys.executable)"], capture_output=True,
                              text=True, timeout=60, env=env).stdout.strip()
    err = [line.replace(exe_path, "EXE") for line in p.stderr.splitlines() if "<frozen runpy>" not in line]
    return p.stdout, err, p.returncode


@pytest.mark.parametrize("exe_name", ["tmpy-gil", "tmpy"])
@pytest.mark.parametrize("name", NAMES)
def test_run_module(tree, name, exe_name):
    exe = BUILD / exe_name
    assert exe.exists(), f"{exe} is not built: run `make test`"
    assert run(exe, name, tree) == run(REF_PYTHON, name, tree)
