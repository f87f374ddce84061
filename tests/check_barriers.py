#!/usr/bin/env python3
"""The read-barrier rule of vm/ code, checked on the source: a field of a
mutable shape is read only through its cast macro (LIST, ARRAY, DICT, RAW,
SETOBJ, ITER, CELL, INST, INSTH, EXC, EXCH, GEN, FO, BYTEARRAY, DEQUE, MEMVIEW,
FRAMEO, COUNTOBJ), which
holds the STM read barrier. (The other shapes are read without barriers:
their writes go through VM_WRITE_RARE, which the runtime checker enforces.) A
plain C cast to one of those types skips the barrier, so it is reported with
its file and line, unless the line says why none is needed ("no barrier:").
Usage: tests/check_barriers.py [ROOT]; exit status 1 if anything is found.
(Stores are checked at run time: TMPY_STM_CHECK=1, runtime/barriercheck.c.)
"""
import re
import sys
from pathlib import Path

MUTABLE = {"ListObj": "LIST", "ArrayObj": "ARRAY", "DictObj": "DICT", "RawObj": "RAW",
           "SetObj": "SETOBJ", "IterObj": "ITER", "CellObj": "CELL", "InstanceObj": "INST",
           "ByteArrayObj": "BYTEARRAY", "DequeObj": "DEQUE", "InstanceHObj": "INSTH",
           "ExceptionObj": "EXC", "ExceptionHObj": "EXCH", "GenObj": "GEN", "FileObj": "FO",
           "MemoryViewObj": "MEMVIEW", "FrameObj": "FRAMEO",
           "CountObj": "COUNTOBJ", "WeakrefObj": "WREF"}
CAST = re.compile(r"\(\s*(" + "|".join(MUTABLE) + r")\s*\*\s*\)")


def check(root):
    root = Path(root)
    errors = []
    for path in sorted((root / "vm").rglob("*.[ch]")):
        rel = path.relative_to(root).as_posix()
        for lineno, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            m = CAST.search(line)
            if not m or line.lstrip().startswith("#define") or "no barrier:" in line:
                continue
            errors.append(f"{rel}:{lineno}: a ({m.group(1)} *) cast reads without the read barrier: "
                          f"use {MUTABLE[m.group(1)]}(...) (or say on the line why no barrier is needed: "
                          f"'no barrier: ...')")
    return errors


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
    errors = check(root)
    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
