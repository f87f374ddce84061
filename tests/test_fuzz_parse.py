"""Fuzzing the front end (vm/compiler/ast.c, lexer.c, parser.c) under ASan/UBSan.

tests/fuzz/fuzz_parse.c links only those three files and the two Unicode
lookups they call (vm/objects/unicodenames.c for \\N{...}, unicodenorm.c for
NFKC identifiers: plain C over static tables; the name lookup's index is built
with vm_malloc_kept, so vm/rt/txmalloc.c comes too, built as in the GIL build:
plain malloc); none of them may depend on the GC or on other vm files. It parses the seed programs, then mutated and
generated programs for TMPY_FUZZ_SECONDS seconds (default 12); any crash,
hang, sanitizer report or leak fails the test. A failing input is saved to
build/fuzz_parse_crash.py: replay it with `build/tests/fuzz_parse FILE`.
"""
import os
import shutil
import subprocess

import pytest

from conftest import BUILD, ROOT

EXE = BUILD / "tests" / "fuzz_parse"
SOURCES = ["tests/fuzz/fuzz_parse.c", "vm/compiler/ast.c", "vm/compiler/lexer.c", "vm/compiler/parser.c",
           "vm/objects/unicodenames.c", "vm/objects/unicodenorm.c", "vm/rt/txmalloc.c"]
# The Makefile's flags, plus the sanitizers (no %gs objects are involved).
CFLAGS = ["-O1", "-g", "-std=gnu11", "-Wall", "-Wextra", "-Werror", "-Ivm/compiler", "-Ivm", "-Iruntime",
          "-fsanitize=address,undefined", "-fno-sanitize-recover=undefined"]
SAN_ENV = {
    "ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0:halt_on_error=1",
    "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1",
}
SAN_MARKERS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:", "fuzz_parse: CRASH",
               "fuzz_parse: TIMEOUT", "fuzz_parse: SLOW", "fuzz_parse: BAD")


@pytest.fixture(scope="module")
def fuzz_exe():
    """gcc CFLAGS SOURCES -o build/tests/fuzz_parse (the objects built in parallel;
    in a directory of this process's and linked to a file renamed into place,
    since two pytest-xdist workers may build it at once)."""
    objdir = BUILD / "tests" / f"fuzz_parse.objs.{os.getpid()}"
    objdir.mkdir(parents=True, exist_ok=True)
    procs = []
    for src in SOURCES:
        obj = objdir / (src.replace("/", "_") + ".o")
        cmd = ["gcc", *CFLAGS, "-c", src, "-o", str(obj)]
        procs.append((cmd, obj, subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE,
                                                 stderr=subprocess.STDOUT, text=True)))
    for cmd, obj, proc in procs:
        out = proc.communicate()[0]
        assert proc.returncode == 0, f"build failed: {' '.join(cmd)}\n{out}"
    tmp = EXE.with_name(f"{EXE.name}.{os.getpid()}")
    cmd = ["gcc", *CFLAGS, *(str(obj) for _, obj, _ in procs), "-o", str(tmp)]
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, f"link failed: {' '.join(cmd)}\n{p.stdout}\n{p.stderr}"
    os.replace(tmp, EXE)
    shutil.rmtree(objdir, ignore_errors=True)
    return EXE


def check(p):
    out = p.stdout + p.stderr
    for marker in SAN_MARKERS:
        assert marker not in out, out[-6000:]
    assert p.returncode == 0, f"exit {p.returncode}\n{out[-6000:]}"
    assert "ok" in p.stdout


def test_seeds_parse(fuzz_exe):
    seeds = sorted(str(f) for f in (ROOT / "tests" / "fuzz" / "seeds").glob("*.py"))
    assert seeds
    p = subprocess.run([str(fuzz_exe), *seeds], cwd=ROOT, capture_output=True, text=True,
                       env={**os.environ, **SAN_ENV}, timeout=120)
    check(p)
    # Not only no crash: every seed CPython compiles must give a tree (seeds
    # CPython rejects may still parse: their errors can come from its
    # symbol table or compiler).
    verdicts = dict(line[len("fuzz_parse: "):].rsplit(": exec ", 1)
                    for line in p.stdout.splitlines() if ": exec " in line)
    assert sorted(verdicts) == seeds
    for seed in seeds:
        try:
            compile(open(seed, encoding="utf-8").read(), seed, "exec")
        except SyntaxError:
            continue
        assert verdicts[seed] == "tree", f"{seed}: CPython compiles it, ours: {verdicts[seed]}"


def test_fuzz(fuzz_exe):
    seconds = float(os.environ.get("TMPY_FUZZ_SECONDS", "12"))
    p = subprocess.run([str(fuzz_exe), "-t", str(seconds), "-d", "tests/fuzz/seeds",
                        "-o", str(BUILD / "fuzz_parse_crash.py")],
                       cwd=ROOT, capture_output=True, text=True, env={**os.environ, **SAN_ENV},
                       timeout=seconds * 3 + 120)
    print(p.stdout)
    check(p)
