"""The C-globals check (tests/check_globals.py) on the real build: every
writable object with static storage of vm/ and runtime/ is in
docs/STM_GLOBALS.md with how an STM abort leaves it right, and every row
names one that exists. Globals, statics (file and function) and __thread
objects really compiled into an extra object file beside the build's are
caught with their file and name; const tables are not; a listed name that is
gone and a row of an unknown kind are caught too."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BUILD, ROOT

sys.path.insert(0, str(ROOT / "tests"))
import check_globals  # noqa: E402

CHECK = ROOT / "tests" / "check_globals.py"
LIST = ROOT / "docs" / "STM_GLOBALS.md"
PAIRS = [(BUILD / "vm", "vm/"), (BUILD / "vm-stm", "vm/"), (BUILD / "gil", "runtime/"), (BUILD / "stm", "runtime/")]

pytestmark = pytest.mark.skipif(not all(d.is_dir() for d, _ in PAIRS), reason="not built: run make first")

PLANTED = """
#include <stddef.h>
int planted_global = 1;                 /* .data */
static long planted_count;              /* .bss, local */
__thread int planted_tls;               /* .tbss */
static const char *const planted_names[] = {"a", "b"};   /* .data.rel.ro: read-only */
static const int planted_const = 3;     /* .rodata */
long planted_bump(int i)
{
    static int calls;                   /* a function's static: calls.N */
    calls++;
    planted_count += i + planted_const;
    planted_tls++;
    return planted_count + calls + planted_tls + (long)planted_names[i & 1][0];
}
"""
PLANTED_NAMES = ["calls", "planted_count", "planted_global", "planted_tls"]


def run_check(objdirs, list_path=LIST, all_objects=True):
    args = [sys.executable, str(CHECK), str(ROOT), "--list", str(list_path)]
    for d, prefix in objdirs:
        args += ["--objdir", str(d), prefix]
    if all_objects:
        args.append("--all-objects")
    return subprocess.run(args, capture_output=True, text=True)


def test_real_build_lists_every_global():
    proc = subprocess.run([sys.executable, str(CHECK), str(ROOT)], capture_output=True, text=True)
    assert proc.returncode == 0, "C globals not in docs/STM_GLOBALS.md, or rows of gone ones:\n" + proc.stdout


def test_list_parses():
    entries, errors = check_globals.read_list(LIST)
    assert not errors, errors
    assert entries[("vm/rt/threadstate.c", "vm_ts")] == "txstate"
    assert entries[("runtime/stm.c", "sync_lock")] == "runtime"
    assert len(entries) > 400


@pytest.fixture()
def objdirs_copy(tmp_path):
    """The builds' object files (symlinked) in trees of their own, current sources only."""
    out = []
    for src, prefix in PAIRS:
        dst = tmp_path / src.name
        for o in src.rglob("*.o"):
            if not (ROOT / prefix / o.relative_to(src).with_suffix(".c")).is_file():
                continue   # stale object of a source that moved
            target = dst / o.relative_to(src)
            target.parent.mkdir(parents=True, exist_ok=True)
            os.symlink(o, target)
        out.append((dst, prefix))
    return out


def compile_into(objdir, rel_obj, code, tmp_path, stm):
    c = tmp_path / "planted.c"
    c.write_text(code)
    out = objdir / rel_obj
    out.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["cc", "-std=gnu11", "-Wall", "-Wextra", "-Werror", f"-DTM_STM={int(stm)}", "-O2",
                    "-fPIC", "-c", str(c), "-o", str(out)], check=True)


@pytest.mark.parametrize("which,rel_obj,source", [
    (1, "objects/planted.o", "vm/objects/planted.c"),    # build/vm-stm
    (2, "planted.o", "runtime/planted.c"),               # build/gil
], ids=["vm-stm", "runtime-gil"])
def test_planted_globals_are_caught(objdirs_copy, tmp_path, which, rel_obj, source):
    assert run_check(objdirs_copy).returncode == 0, "the copy must start clean"
    compile_into(objdirs_copy[which][0], rel_obj, PLANTED, tmp_path, stm=which != 2)
    proc = run_check(objdirs_copy)
    assert proc.returncode == 1, "the planted globals were not caught"
    lines = proc.stdout.splitlines()
    assert len(lines) == len(PLANTED_NAMES), proc.stdout
    for line, name in zip(lines, PLANTED_NAMES):
        assert line.startswith(f"{source}: {name} (") and "docs/STM_GLOBALS.md does not list" in line, line
    assert "planted_names" not in proc.stdout and "planted_const" not in proc.stdout

    # listing them (as the failure message says) makes the check pass
    listed = tmp_path / "list.md"
    listed.write_text(LIST.read_text() + f"| `{source}` | thread-local | `planted_tls` | planted |\n"
                      f"| `{source}` | unprotected | `planted_global` `planted_count` `calls` | planted |\n")
    assert run_check(objdirs_copy, listed).returncode == 0, run_check(objdirs_copy, listed).stdout


def test_gone_global_is_caught(objdirs_copy, tmp_path):
    listed = tmp_path / "list.md"
    listed.write_text(LIST.read_text() + "| `vm/objects/dict.c` | counter | `version_counter_gone` | gone |\n")
    proc = run_check(objdirs_copy, listed)
    assert proc.returncode == 1
    assert proc.stdout.splitlines() == [
        "vm/objects/dict.c: version_counter_gone is listed in docs/STM_GLOBALS.md but no object file of "
        "vm/objects/dict.c defines it: remove it from the table (or rename it there)"], proc.stdout


def test_row_of_unknown_kind_is_caught(objdirs_copy, tmp_path):
    listed = tmp_path / "list.md"
    text = LIST.read_text().replace("| `vm/rt/threadstate.c` | txstate | `vm_ts` |",
                                    "| `vm/rt/threadstate.c` | fine | `vm_ts` |")
    assert text != LIST.read_text()
    listed.write_text(text)
    proc = run_check(objdirs_copy, listed)
    assert proc.returncode == 1
    assert "a row is | `file` | kind" in proc.stdout and "vm/rt/threadstate.c: vm_ts (.tbss)" in proc.stdout
