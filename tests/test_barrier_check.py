"""The barrier checkers. Stores: TMPY_STM_CHECK=1 (runtime/barriercheck.c)
maps shared old pages read-only; programs that follow the barrier rules run
clean under it (every tests/py program runs under it in test_py.py), and a
store whose barrier was deliberately removed is caught at the store, with
its C location. A write into a shape read without barriers (a type) that
skips VM_WRITE_RARE is caught at the write barrier. Reads: tests/check_barriers.py finds every read of a
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



def vm_ldlibs():
    """The libraries the interpreter links with: the Makefile's VM_LDLIBS."""
    for line in (ROOT / "Makefile").read_text().splitlines():
        if line.startswith("VM_LDLIBS"):
            return line.split("=", 1)[1].split()
    raise AssertionError("the Makefile has no VM_LDLIBS line")

def build_broken(exe, source, define):
    """build/tmpy with one source file recompiled with a test define that
    breaks a barrier; the other objects are the STM build's."""
    assert TMPY.exists(), "build/tmpy is not built: run `make test`"
    name = source.rsplit("/", 1)[1].replace(".c", ".o")
    # The objects of today's sources (a build folder may keep those of removed ones).
    objs = sorted(str(p) for p in (BUILD / "vm-stm").rglob("*.o")
                  if p.name != name and (ROOT / "vm" / p.relative_to(BUILD / "vm-stm")).with_suffix(".c").exists())
    exe.parent.mkdir(parents=True, exist_ok=True)
    obj = exe.parent / (exe.name + ".o")
    cc = ["gcc", "-Ivm", "-Iruntime", f'-DTMPY_LIBDIR="{ROOT / "lib"}"', "-DTM_STM=1",
          f"-D{define}", "-O2", "-g", "-std=gnu11", "-pthread", "-fno-strict-aliasing"]
    subprocess.run(cc + ["-c", source, "-o", str(obj)], cwd=ROOT, check=True)
    subprocess.run(["gcc", "-g", *objs, str(obj), "-o", str(exe), str(BUILD / "libtmrt-stm.a"),
                    *vm_ldlibs(), "-pthread"], cwd=ROOT, check=True)
    return exe


@pytest.fixture(scope="module")
def broken_tmpy():
    """list_append without its write barrier."""
    return build_broken(BROKEN, "vm/objects/list.c", "TMPY_TEST_DROP_WRITE_BARRIER")


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


# ---- shapes read without barriers: their writes must be rare writes ----

# A class made by one transaction and given an attribute by a later one:
# type_setattro's version bump is a write into the type.
TYPE_PROGRAM = """
class C:
    pass
for i in range(3000):
    pass
C.x = 1
print(C.x)
"""


def test_type_write_is_a_rare_write():
    p = run(TMPY, TYPE_PROGRAM, True)
    assert p.returncode == 0 and p.stdout.strip() == "1", p.stderr


def test_plain_write_into_a_type_is_caught():
    """typelookup.c (where a class attribute change renews the type's
    version) built with VM_WRITE_RARE as a plain VM_WRITE: readers of the
    type (no read barrier) would keep what they read; the checker stops the
    write."""
    exe = build_broken(BUILD / "tests" / "tmpy-plain-type-write", "vm/objects/typelookup.c",
                       "TMPY_TEST_PLAIN_RARE_WRITE")
    quiet = run(exe, TYPE_PROGRAM, False)
    assert quiet.returncode == 0 and quiet.stdout.strip() == "1", quiet.stderr
    loud = run(exe, TYPE_PROGRAM, True)
    assert loud.returncode != 0, loud.stdout
    assert ("a write into an object read without barriers (layout 'type') that did not go through "
            "tm_write_rare") in loud.stderr, loud.stderr


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


# ---- card-marked objects: a store must name its card ----

# A dict whose index (a raw object of 4096 int32 slots) is card-marked and
# old, then given new keys: each insert names the index slot it writes.
# str keys: an insert of another key type into a big dict from a
# transaction that can abort goes to the dict's append log (dict.c), not
# through the insert path the broken build changes
CARD_PROGRAM = """
d = {'k%d' % i: i for i in range(2500)}
for i in range(3000):
    pass
for i in range(2500, 2600):
    d['k%d' % i] = i
print(len(d), sum(d.values()))
"""


def test_dict_item_barriers_run_clean():
    p = run(TMPY, CARD_PROGRAM, True)
    assert p.returncode == 0 and p.stdout.strip() == "2600 3378700", p.stderr


def test_store_into_an_unmarked_card_is_caught():
    """dict.c built so that an insert's barrier names an index slot a page
    away from the one it stores: the commit would not publish the store (a
    lost update in every other thread); the checker stops the program."""
    exe = build_broken(BUILD / "tests" / "tmpy-unmarked-card", "vm/objects/dict.c", "TMPY_TEST_UNMARKED_CARD")
    quiet = run(exe, CARD_PROGRAM, False)
    assert quiet.returncode == 0 and quiet.stdout.strip() == "2600 3378700", quiet.stderr
    loud = run(exe, CARD_PROGRAM, True)
    assert loud.returncode != 0, loud.stdout
    # caught at the commit (the slot's page was private already) or at the
    # store (its page is still shared: the wrong card's barrier did not
    # privatise it)
    assert ("a store into a card-marked 'raw'" in loud.stderr and "whose card was not marked" in loud.stderr) or \
        "a store into old object memory without a write barrier" in loud.stderr, loud.stderr
