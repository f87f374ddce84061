"""multiprocessing's spawn and forkserver start methods (tests/spawn/mp_spawn.py): every spawned
child is a new interpreter, started as `sys.executable -c 'from multiprocessing.spawn import
spawn_main; ...' --multiprocessing-fork` (the forkserver too, which then forks the workers). The
program prints what python3 prints, under both builds and under STM with four segments and with
injected aborts. (The fork start method: tests/py/mp_pool_fork.py, mp_executor.py.)"""
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


@pytest.mark.parametrize("exe,env", [
    ("tmpy-gil", {}),
    ("tmpy", {"TMPY_SEGMENTS": "4"}),
    ("tmpy", {"TMPY_SEGMENTS": "4", "TMPY_TXLEN": "5", "TMPY_STM_INJECT_ABORTS": "0.02:22"}),
], ids=["gil", "stm4", "stm4-aborts"])
def test_spawn(exe, env):
    exe = BUILD / exe
    want = run(REF_PYTHON)
    got = run(exe, env)
    assert want[0] == 0, want[2]
    assert got[:2] == want[:2], got[2][-2000:]
