"""The docs name files, functions and settings of the code: each name must
still be there. A path or C file named in README.md or docs/*.md (in
backticks) must be a file or folder of the tree, an identifier with an
underscore must occur in the sources, and a TMPY_ variable must be read by
some source. Names of other projects' files are listed in FOREIGN."""
import pathlib
import re
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# Other projects' files and functions that the docs cite as models, and
# CPython names the docs say tmpy lacks or follows.
FOREIGN = {"linit.c", "Python/errors.c", "../shared/design/ARCHITECTURE.md", "_PyGen_Finalize",
           "print_exception_group", "__unittest", "set_wakeup_fd"}
TOP = ("runtime/", "vm/", "lib/", "tests/", "bench/", "docs/", "build/", ".ci/")
SOURCE_SUFFIXES = (".c", ".h", ".py", ".sh")


def tracked():
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [f for f in out.split("\n") if f]


FILES = tracked()
DIRS = {str(pathlib.PurePosixPath(f).parent) + "/" for f in FILES}
for d in list(DIRS):
    parts = d.rstrip("/").split("/")
    DIRS.update("/".join(parts[:i]) + "/" for i in range(1, len(parts)))
SOURCES = "\n".join((ROOT / f).read_text(errors="replace") for f in FILES
                    if f.endswith(SOURCE_SUFFIXES) or f == "Makefile")
# Identifiers of the sources, and the test programs by name (tests/py/NAME.py).
WORDS = set(re.findall(r"\w+", SOURCES)) | {
    pathlib.PurePosixPath(f).stem for f in FILES if f.startswith("tests/py/")}


def names(doc):
    return sorted(set(re.findall(r"`([^`\n]+)`", doc.read_text())))


def is_path(t):
    return re.fullmatch(r"[\w./-]+", t) and (t.startswith(TOP) or re.fullmatch(r"[\w/-]+\.(c|h)", t))


def path_exists(t):
    t = t.rstrip("/") if t.endswith("/") and t.rstrip("/") + "/" in DIRS else t
    if t in FILES or t + "/" in DIRS or t.startswith("build/"):
        return True
    # A bare file name (`stm.c`) or a glob-free partial path must end a tracked path.
    return any(f.endswith("/" + t) for f in FILES)


@pytest.mark.parametrize("doc", DOCS, ids=[d.name for d in DOCS])
def test_named_things_exist(doc):
    wrong = []
    for t in names(doc):
        t = t.strip()
        if t in FOREIGN:
            continue
        if is_path(t) and "*" not in t:
            if not path_exists(t):
                wrong.append(f"file {t}")
        elif re.fullmatch(r"TMPY_[A-Z_]+", t):
            if t not in WORDS:
                wrong.append(f"setting {t}")
        elif re.fullmatch(r"[A-Za-z_]\w*_\w*(\(\))?", t):
            if t.removesuffix("()") not in WORDS:
                wrong.append(f"name {t}")
    assert not wrong, f"{doc.relative_to(ROOT)} names what the tree does not have: " + ", ".join(wrong)
