"""The `ast` module over CPython 3.11's whole standard library: for every
.py file, ast.parse's tree (every node's fields and positions, as
ast.dump(include_attributes=True) shows them) and ast.unparse's text must be
CPython's, and compile() must turn the tree back into code
(tests/stdlib/ast_all.py prints a checksum of each per file)."""
import subprocess

import pytest

from conftest import BUILD, REF_PYTHON, ROOT
from test_stdlib_compile import ensure_stdlib, stdlib_files

DRIVER = ROOT / "tests" / "stdlib" / "ast_all.py"


@pytest.mark.parametrize("exe", ["tmpy-gil"])
def test_ast_of_every_stdlib_file(exe):
    ensure_stdlib()
    files = stdlib_files()
    assert len(files) > 600
    listing = "\n".join(files) + "\n"
    ref = subprocess.run([REF_PYTHON, str(DRIVER)], input=listing, capture_output=True, text=True, timeout=900)
    assert ref.returncode == 0, ref.stderr[-2000:]
    p = subprocess.run([str(BUILD / exe), str(DRIVER)], input=listing, capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stderr[-2000:]
    ours, theirs = p.stdout.splitlines(), ref.stdout.splitlines()
    assert len(ours) == len(theirs) == len(files)
    differ = [a + "   (CPython: " + b.split(" ", 1)[1] + ")" for a, b in zip(ours, theirs) if a != b]
    assert not differ, f"{len(differ)} files differ:\n" + "\n".join(differ[:20])
