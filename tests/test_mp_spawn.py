"""multiprocessing's spawn start method (tests/spawn/mp_spawn.py): every child is a new interpreter,
started as `sys.executable -c 'from multiprocessing.spawn import spawn_main; ...'
--multiprocessing-fork`. The program prints what python3 prints, under both builds and under STM
with four segments and with injected aborts. multiprocessing.spawn imports runpy, which needs
importlib.util (issue 22's import-system work): until a build imports runpy these runs are
skipped, naming why."""
import os
import subprocess

import pytest

from conftest import BUILD, REF_PYTHON, ROOT

PROGRAM = ROOT / "tests" / "spawn" / "mp_spawn.py"


def run(exe, env=None):
    full = {k: v for k, v in os.environ.items() if not k.startswith("TMPY_") and k != "PYTHONPATH"}
    full.update(env or {})
    p = subprocess.run([str(exe), str(PROGRAM)], capture_output=True, text=True, timeout=300, env=full,
                       cwd=str(PROGRAM.parent))
    return p.returncode, p.stdout, p.stderr


def runpy_imports(exe):
    p = subprocess.run([str(exe), "-c", "import runpy"], capture_output=True, text=True, timeout=60)
    return p.returncode == 0


@pytest.mark.parametrize("exe,env", [
    ("tmpy-gil", {}),
    ("tmpy", {"TMPY_SEGMENTS": "4"}),
    ("tmpy", {"TMPY_SEGMENTS": "4", "TMPY_TXLEN": "5", "TMPY_STM_INJECT_ABORTS": "0.02:22"}),
], ids=["gil", "stm4", "stm4-aborts"])
def test_spawn(exe, env):
    exe = BUILD / exe
    if not runpy_imports(exe):
        pytest.skip("runpy does not import yet (importlib.util): multiprocessing.spawn needs it")
    want = run(REF_PYTHON)
    got = run(exe, env)
    assert want[0] == 0, want[2]
    assert got[:2] == want[:2], got[2][-2000:]
