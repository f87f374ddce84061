"""Fuzzes tmpy's tokenizer, parser and compiler in-process: tmpy-gil runs
tests/fuzz/fuzz_compile.py over mutations of the tests/py programs for
TMPY_FUZZ_SECONDS (default 12) per seed; a crash, hang or unexpected
exception fails. Deep nesting must give SyntaxError/RecursionError."""
import os
import subprocess

import pytest

from conftest import BUILD, ROOT

TMPY = BUILD / "tmpy-gil"
SECONDS = float(os.environ.get("TMPY_FUZZ_SECONDS", "12"))


@pytest.mark.parametrize("seed", [1, 2])
def test_fuzz_compile(seed):
    seeds = sorted(str(p) for p in (ROOT / "tests" / "py").glob("*.py"))[seed::7]
    p = subprocess.run([str(TMPY), str(ROOT / "tests" / "fuzz" / "fuzz_compile.py"), str(SECONDS / 2),
                        str(seed), *seeds], capture_output=True, text=True, timeout=SECONDS * 10 + 120)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-4000:]
    assert "ok fuzz_compile" in p.stdout


@pytest.mark.parametrize("src,kinds", [
    ("x = " + "(" * 250 + "1" + ")" * 250, ("SyntaxError", "RecursionError")),
    ("x = " + "-" * 100000 + "1", ("SyntaxError", "RecursionError")),
    ("x = " + "[" * 150 + "]" * 150, ("SyntaxError", "RecursionError", "")),
    ("".join(" " * i + "if x:\n" for i in range(150)) + " " * 150 + "pass\n", ("SyntaxError", "RecursionError", "IndentationError", "")),
    ("f(" * 5000 + ")" * 5000, ("SyntaxError", "RecursionError")),
    ("x = 1 + " * 50000 + "1", ("SyntaxError", "RecursionError", "")),
])
def test_deep_nesting_is_an_error_not_a_crash(src, kinds, tmp_path):
    code = "try:\n    compile(%r, 'deep', 'exec')\n    print('compiled')\nexcept Exception as e:\n    print(type(e).__name__)\n" % src
    script = tmp_path / "deep.py"
    script.write_text(code)
    p = subprocess.run([str(TMPY), str(script)], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    out = p.stdout.strip()
    assert out in kinds or (out == "compiled" and "" in kinds), out


def test_unbounded_recursion_and_huge_allocation():
    code = ("import sys\n"
            "def f(n):\n    return f(n + 1)\n"
            "try:\n    f(0)\nexcept RecursionError:\n    print('RecursionError')\n"
            "try:\n    x = [0] * (2 ** 60)\nexcept MemoryError:\n    print('MemoryError')\n"
            "try:\n    s = 'x' * (2 ** 61)\nexcept (MemoryError, OverflowError) as e:\n    print(type(e).__name__)\n")
    p = subprocess.run([str(TMPY), "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    assert p.stdout.split()[:2] == ["RecursionError", "MemoryError"]


@pytest.mark.parametrize("seed", [1, 2])
def test_fuzz_ast_trees(seed):
    """compile() of mutated ast trees (tests/fuzz/fuzz_ast_trees.py): only
    CPython's validation and compile errors, never a crash."""
    sources = sorted(str(p) for p in (ROOT / "tests" / "py").glob("*.py"))[seed::60]
    p = subprocess.run([str(TMPY), str(ROOT / "tests" / "fuzz" / "fuzz_ast_trees.py"), "2000", str(seed), *sources],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-4000:]
    assert "ok fuzz_ast_trees" in p.stdout
