"""The call-layer check (tests/check_layers.py) on the real build: no call up
the layers of docs/ARCHITECTURE.md and no dead export. An upward call and a
dead export, each really compiled into an extra object file beside the
build's, are caught with the caller, the callee and the symbol. And no header
of vm/ declares more than 120 functions."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BUILD, ROOT

sys.path.insert(0, str(ROOT / "tests"))
import check_layers  # noqa: E402

CHECK = ROOT / "tests" / "check_layers.py"
OBJDIRS = [d for d in (BUILD / "vm", BUILD / "vm-stm") if d.is_dir()]
MAX_PROTOTYPES = 120

pytestmark = pytest.mark.skipif(not OBJDIRS, reason="no object files: run make first")


def test_real_build_follows_the_layers():
    args = [sys.executable, str(CHECK), str(ROOT)]
    for d in OBJDIRS:
        args += ["--objdir", str(d)]
    proc = subprocess.run(args, capture_output=True, text=True)
    assert proc.returncode == 0, "calls against the layers or dead exports:\n" + proc.stdout


def test_table_names_every_source():
    rows = check_layers.read_layers(ROOT)
    assert [r["name"] for r in rows] == ["core", "objects", "compiler", "eval", "modules", "startup"]
    for src in sorted((ROOT / "vm").rglob("*.c")):
        rel = src.relative_to(ROOT).as_posix()
        assert check_layers.layer_of(rows, rel), f"{rel} is in no layer"
    assert check_layers.layer_of(rows, "vm/rt/blocking.c")["name"] == "core"
    assert check_layers.layer_of(rows, "vm/rt/gcwork.c")["name"] == "eval"
    assert check_layers.layer_of(rows, "vm/main.c")["name"] == "startup"


@pytest.fixture()
def objdir_copy(tmp_path):
    """The builds' object files (symlinked) in trees of their own: the GIL
    build's (returned; objects are planted there) and the STM build's beside
    it (a function only the STM build calls is still used)."""
    if not (BUILD / "vm").is_dir():
        pytest.skip("build/vm is not built")
    for name in ("vm", "vm-stm"):
        src = BUILD / name
        if not src.is_dir():
            continue
        for o in src.rglob("*.o"):
            if not (ROOT / "vm" / o.relative_to(src).with_suffix(".c")).is_file():
                continue   # stale object of a source that moved
            target = tmp_path / name / o.relative_to(src)
            target.parent.mkdir(parents=True, exist_ok=True)
            os.symlink(o, target)
    return tmp_path / "vm"


def compile_into(objdir, rel_obj, code, tmp_path):
    """Really compile C code (with the VM's flags) to objdir/rel_obj."""
    c = tmp_path / "planted.c"
    c.write_text(code)
    out = objdir / rel_obj
    out.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["cc", "-std=gnu11", "-Wall", "-Wextra", "-Werror", f"-I{ROOT / 'vm'}", f"-I{ROOT / 'runtime'}",
                    "-DTM_STM=0", "-O2", "-c", str(c), "-o", str(out)], check=True)


def run_check(objdir, *extra):
    dirs = [objdir] + [d for d in [objdir.parent / "vm-stm"] if d.is_dir()]
    args = [a for d in dirs for a in ("--objdir", str(d))]
    return subprocess.run([sys.executable, str(CHECK), str(ROOT), *args, "--all-objects", *extra],
                          capture_output=True, text=True)


# (object file planted, its code, the callee's file, the symbol): calls up the layers
UPWARD = [
    ("objects/planted.o",
     '#include "objects/objects.h"\nObj eval_current_globals(void);\n'
     "Obj planted_globals(void) { return eval_current_globals(); }\n",
     "vm/eval.c", "eval_current_globals"),
    ("compiler/planted.o",
     '#include "compiler/compile.h"\nint signals_check(void);\n'
     "int planted_signals(void) { return signals_check(); }\n",
     "vm/modules/signalmodule.c", "signals_check"),
    ("rt/planted.o",   # vm/rt/ outside the core's four files is eval
     '#include "tmpy.h"\nvoid vm_init_modules(void);\n'
     "void planted_init(void) { vm_init_modules(); }\n",
     "vm/startup.c", "vm_init_modules"),
]


@pytest.mark.parametrize("rel_obj,code,callee,symbol", UPWARD, ids=[u[0] for u in UPWARD])
def test_planted_upward_call_is_caught(objdir_copy, tmp_path, rel_obj, code, callee, symbol):
    assert run_check(objdir_copy, "--no-dead").returncode == 0, "the copy must start clean"
    compile_into(objdir_copy, rel_obj, code, tmp_path)
    proc = run_check(objdir_copy, "--no-dead")
    assert proc.returncode == 1, "the upward call was not caught"
    caller = "vm/" + rel_obj[:-2] + ".c"
    lines = proc.stdout.splitlines()
    assert len(lines) == 1, proc.stdout
    assert lines[0].startswith(f"{caller} (") and f" uses {symbol} of {callee} (" in lines[0], proc.stdout


def test_planted_downward_call_passes(objdir_copy, tmp_path):
    compile_into(objdir_copy, "modules/planted.o",
                 '#include "modules/modules.h"\nObj planted_eval(void) { return vm_current_globals(); }\n'
                 "Obj planted_call(Obj f) { return vm_call0(f); }\n", tmp_path)
    assert run_check(objdir_copy, "--no-dead").returncode == 0


def test_planted_dead_export_is_caught(objdir_copy, tmp_path):
    assert run_check(objdir_copy).returncode == 0, "the copy must start clean"
    compile_into(objdir_copy, "objects/planted.o",
                 '#include "objects/objects.h"\nint planted_nobody_calls(void) { err_clear(); return 0; }\n',
                 tmp_path)
    proc = run_check(objdir_copy)
    assert proc.returncode == 1, "the dead export was not caught"
    assert proc.stdout.splitlines() == [
        "vm/objects/planted.c: planted_nobody_calls is exported but no other file uses it "
        "(make it static or remove it)"], proc.stdout


def count_prototypes(text):
    """Function declarations at file level in a C header (no static inline, no macros)."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r"^\s*#(?:[^\n]*\\\n)*[^\n]*", " ", text, flags=re.M)   # preprocessor lines
    depth, stmt, n = 0, [], 0
    for ch in text:
        if ch == "{":
            depth += 1
            stmt = []
        elif ch == "}":
            depth -= 1
            stmt = []
        elif depth == 0:
            if ch == ";":
                s = " ".join("".join(stmt).split())
                stmt = []
                if s.startswith(("typedef", "static", "extern", "struct", "enum", "union")) and "(" not in s.split("=")[0]:
                    continue
                if s.startswith("typedef") or "(*" in s.split("(")[0] + "(":
                    continue
                if re.search(r"\b[A-Za-z_]\w*\s*\([^()]*(\([^()]*\)[^()]*)*\)\s*(__attribute__\(\(.*\)\))?$", s) \
                        and not s.startswith("static"):
                    n += 1
            else:
                stmt.append(ch)
    return n


def test_prototype_counter_counts():
    assert count_prototypes("int f(void);\nObj g(Obj a,\n      Obj b);   /* two */\n"
                            "static inline int h(void) { return 1; }\ntypedef int (*fn)(int);\n"
                            "extern int x;\nvoid e(const char *f, ...) __attribute__((format(printf, 1, 2)));\n") == 3


@pytest.mark.parametrize("header", sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "vm").rglob("*.h")))
def test_header_declares_at_most_120_functions(header):
    n = count_prototypes((ROOT / header).read_text())
    assert n <= MAX_PROTOTYPES, f"{header} declares {n} functions (at most {MAX_PROTOTYPES}: split it by concept)"
