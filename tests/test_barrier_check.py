"""The barrier checkers. Stores: TMPY_STM_CHECK=1 (runtime/barriercheck.c)
maps shared old pages read-only; programs that follow the barrier rules run
clean under it (every tests/py program runs under it in test_py.py), and a
store whose barrier was deliberately removed is caught at the store, with
its C location. Reads: tests/check_barriers.py finds every read of a
mutable shape that bypasses the barriered cast macros, with file and line."""
import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import BUILD, ROOT

TMPY = BUILD / "tmpy"
BROKEN = BUILD / "tests" / "tmpy-no-list-barrier"

# A list that is old (the loop's transactions commit it) then appended to
# while it has room: list_append's store of the length is the one whose
# barrier the broken build drops.
PROGRAM = """
l = [0] * 4
l.pop(); l.pop()
for i in range(3000):
    pass
l.append(1)
print(len(l))
"""


@pytest.fixture(scope="module")
def broken_tmpy():
    """build/tmpy with one write barrier removed (list_append): only list.c
    is recompiled; the other objects are the STM build's."""
    assert TMPY.exists(), "build/tmpy is not built: run `make test`"
    objs = sorted(str(p) for p in (BUILD / "vm-stm").rglob("*.o") if p.name != "list.o")
    BROKEN.parent.mkdir(parents=True, exist_ok=True)
    lst = BROKEN.parent / "list-no-barrier.o"
    cc = ["gcc", "-Ivm", "-Iruntime", f'-DTMPY_LIBDIR="{ROOT / "lib"}"', "-DTM_STM=1",
          "-DTMPY_TEST_DROP_WRITE_BARRIER", "-O2", "-g", "-std=gnu11", "-pthread", "-fno-strict-aliasing"]
    subprocess.run(cc + ["-c", "vm/objects/list.c", "-o", str(lst)], cwd=ROOT, check=True)
    subprocess.run(["gcc", "-g", *objs, str(lst), "-o", str(BROKEN), str(BUILD / "libtmrt-stm.a"),
                    "-lgmp", "-lm", "-pthread"], cwd=ROOT, check=True)
    return BROKEN


def run(exe, code, check):
    env = dict(os.environ, TMPY_STM_CHECK="1" if check else "0", TMPY_TXLEN="100")
    return subprocess.run([str(exe), "-c", code], capture_output=True, text=True, timeout=120, env=env)


def test_program_with_barriers_runs_clean():
    p = run(TMPY, PROGRAM, True)
    assert p.returncode == 0 and p.stdout.strip() == "3", p.stderr


def test_removed_write_barrier_is_caught(broken_tmpy):
    # without the checker the bug is silent
    quiet = run(broken_tmpy, PROGRAM, False)
    assert quiet.returncode == 0 and quiet.stdout.strip() == "3", quiet.stderr
    loud = run(broken_tmpy, PROGRAM, True)
    assert loud.returncode != 0, loud.stdout
    assert "barrier check: a store into old object memory without a write barrier" in loud.stderr, loud.stderr
    m = re.search(r"addr2line -f -e (\S+) (0x[0-9a-f]+)\)", loud.stderr)
    assert m, loud.stderr
    if shutil.which("addr2line"):
        where = subprocess.run(["addr2line", "-f", "-i", "-e", m.group(1), m.group(2)],
                               capture_output=True, text=True).stdout
        assert "list_append" in where and "list.c" in where, where


# ---- reads: the source check (tests/check_barriers.py) ----

def test_vm_reads_mutable_objects_through_barriered_casts():
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "check_barriers.py"), str(ROOT)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, "reads without the read barrier:\n" + proc.stdout


def test_removed_read_barrier_is_caught(tmp_path):
    """list_append reading the list's length through a plain cast (its read
    barrier removed) is reported with its file and line."""
    shutil.copytree(ROOT / "vm", tmp_path / "vm")
    path = tmp_path / "vm" / "objects" / "list.c"
    src = path.read_text()
    old = "    int64_t n = LIST(l)->length;\n"
    assert old in src
    path.write_text(src.replace(old, "    int64_t n = ((ListObj *)l)->length;\n", 1))
    line = src[:src.index(old)].count("\n") + 1
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "check_barriers.py"), str(tmp_path)],
                          capture_output=True, text=True)
    assert proc.returncode == 1
    assert proc.stdout.startswith(f"vm/objects/list.c:{line}: a (ListObj *) cast reads without"), proc.stdout
