"""The include-boundary check (tests/check_includes.py, whose rules come from
the layer table of docs/ARCHITECTURE.md, as the call check's do): the tree
passes it, and each kind of forbidden include, planted in a copy of the tree,
fails it with the file and line."""
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tests"))
import check_includes  # noqa: E402

CHECK = ROOT / "tests" / "check_includes.py"


def test_tree_respects_boundaries():
    proc = subprocess.run([sys.executable, str(CHECK), str(ROOT)], capture_output=True, text=True)
    assert proc.returncode == 0, "forbidden includes:\n" + proc.stdout


@pytest.fixture()
def tree_copy(tmp_path):
    for top in ("runtime", "vm"):
        shutil.copytree(ROOT / top, tmp_path / top, ignore=shutil.ignore_patterns("*.py", "*.o"))
    (tmp_path / "docs").mkdir()
    shutil.copy(ROOT / "docs" / "ARCHITECTURE.md", tmp_path / "docs")   # the layer table
    return tmp_path


# (file, include line planted at its top, what it breaks)
WRONG = [
    ("runtime/gc.h", '#include "../vm/tmpy.h"', "runtime/ including vm/"),
    ("vm/compiler/parser.c", '#include "eval.h"', "the compiler reaching into eval internals"),
    ("vm/compiler/compile.c", '#include "modules/modules.h"', "the compiler reaching into modules/"),
    ("vm/objects/list.c", '#include "eval.h"', "the object model reaching into eval internals"),
    ("vm/objects/dict.c", '#include "modules/modules.h"', "the object model reaching into modules/"),
    ("vm/eval.c", '#include "compiler/parser.h"', "a private compiler header outside compiler/"),
    ("vm/import.c", '#include "modules/threads.h"', "a private modules header outside modules/"),
    ("vm/modules/mathmodule.c", '#include "gc.h"', "a runtime header past tmpy.h"),
    ("vm/objects/str.c", '#include "nosuch.h"', "a header that does not exist"),
    ("vm/rt/blocking.c", '#include "eval.h"', "the core reaching into the eval layer"),
    ("vm/compiler/lexer.c", '#include "eval.h"', "the compiler reaching into the eval layer"),
    ("vm/eval.c", '#include "modules/modules.h"', "the eval layer reaching into modules/"),
    ("vm/modules/iomodule.c", '#include "startup.h"', "a module reaching into start-up"),
]


@pytest.mark.parametrize("rel,line,why", WRONG, ids=[w[0] for w in WRONG])
def test_wrong_include_is_caught(tree_copy, rel, line, why):
    assert check_includes.check(tree_copy) == [], "the copy must start clean"
    path = tree_copy / rel
    path.write_text(line + "\n" + path.read_text())
    proc = subprocess.run([sys.executable, str(CHECK), str(tree_copy)], capture_output=True, text=True)
    assert proc.returncode == 1, f"{why} was not caught"
    lines = proc.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{rel}:1: "), proc.stdout
