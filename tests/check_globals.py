#!/usr/bin/env python3
"""Checks that every writable object with static storage in vm/ and runtime/
(globals, file and function statics, __thread ones) is listed in
docs/STM_GLOBALS.md with how an STM abort leaves it right, and that every
listed one still exists. Reads the object files' symbols (nm): sections
.data*, .bss*, .tdata*, .tbss* (not .data.rel.ro*, read-only after
relocation), object and TLS symbols, locals too.

Usage: tests/check_globals.py [ROOT] [--objdir DIR PREFIX ...] [--list FILE] [--all-objects]
(default object directories: build/vm and build/vm-stm for vm/, build/gil
and build/stm for runtime/, those that exist; an object file whose source is
gone is stale and skipped unless --all-objects). Prints one line per error
and exits 1 if any.
"""
import re
import subprocess
import sys
from pathlib import Path

LIST = Path("docs") / "STM_GLOBALS.md"
KINDS = {"thread-local", "txstate", "inevitable", "startup", "cache", "counter", "runtime",
         "gil-build", "unprotected"}
HOW_TO = ("add it to the table of docs/STM_GLOBALS.md (its file's row of the right kind, or a new row "
          "'| `FILE` | KIND | `NAME` | why |') with why an STM abort leaves it right")


def read_list(path):
    """{(file, name): kind} from the table rows of the list, and a list of format errors."""
    entries, errors = {}, []
    for i, line in enumerate(Path(path).read_text().splitlines(), 1):
        if not line.startswith("|") or line.startswith(("| file", "|---")):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4:
            errors.append(f"{path}:{i}: a row needs 4 cells (file | kind | names | why)")
            continue
        files = re.findall(r"`([^`]+)`", cells[0])
        names = re.findall(r"`([^`]+)`", cells[2])
        if len(files) != 1 or not names or cells[1] not in KINDS or not cells[3]:
            errors.append(f"{path}:{i}: a row is | `file` | kind (one of {', '.join(sorted(KINDS))}) | "
                          f"`name` ... | why |")
            continue
        for n in names:
            if (files[0], n) in entries:
                errors.append(f"{path}:{i}: {files[0]} {n} is listed twice")
            entries[(files[0], n)] = cells[1]
    return entries, errors


def read_objects(objdir, prefix, root=None):
    """{(source file, name): set of sections} of objdir's .o files, sources named prefix + path.c."""
    objdir = Path(objdir)
    objs = sorted(objdir.rglob("*.o"))
    src_of = {o: prefix + o.relative_to(objdir).with_suffix(".c").as_posix() for o in objs}
    if root is not None:
        objs = [o for o in objs if (Path(root) / src_of[o]).is_file()]
    found = {}
    if not objs:
        return found
    out = subprocess.run(["nm", "--format=sysv"] + [str(o) for o in objs],
                         capture_output=True, text=True, check=True).stdout
    by_path = {str(o): src_of[o] for o in objs}
    src = None
    for line in out.splitlines():
        m = re.match(r"Symbols from (.*):$", line)
        if m:
            src = by_path.get(m.group(1))
            continue
        cells = [c.strip() for c in line.split("|")]
        if src is None or len(cells) != 7:
            continue
        name, _, _, typ, _, _, section = cells
        if typ not in ("OBJECT", "TLS") or section.startswith(".data.rel.ro"):
            continue
        if not re.match(r"\.(data|bss|tdata|tbss)(\.|$)", section) and section != "*COM*":
            continue
        name = re.sub(r"\.\d+$", "", name)   # a function's static: name.N
        found.setdefault((src, name), set()).add(section)
    return found


def default_objdirs(root):
    b = Path(root) / "build"
    pairs = [(b / "vm", "vm/"), (b / "vm-stm", "vm/"), (b / "gil", "runtime/"), (b / "stm", "runtime/")]
    return [(d, p) for d, p in pairs if d.is_dir()]


def check(root, objdirs, list_path, all_objects=False):
    entries, errors = read_list(list_path)
    found = {}
    for d, prefix in objdirs:
        for key, secs in read_objects(d, prefix, None if all_objects else root).items():
            found.setdefault(key, set()).update(secs)
    for (src, name), secs in sorted(found.items()):
        if (src, name) not in entries:
            errors.append(f"{src}: {name} ({', '.join(sorted(secs))}) is writable static storage that "
                          f"docs/STM_GLOBALS.md does not list: {HOW_TO}")
    for (src, name) in sorted(entries):
        if (src, name) not in found:
            errors.append(f"{src}: {name} is listed in docs/STM_GLOBALS.md but no object file of "
                          f"{src} defines it: remove it from the table (or rename it there)")
    return errors


def main(argv):
    args = list(argv)
    all_objects = "--all-objects" in args
    args = [a for a in args if a != "--all-objects"]
    objdirs = []
    while "--objdir" in args:
        i = args.index("--objdir")
        objdirs.append((Path(args[i + 1]), args[i + 2]))
        del args[i:i + 3]
    list_path = None
    if "--list" in args:
        i = args.index("--list")
        list_path = Path(args[i + 1])
        del args[i:i + 2]
    root = Path(args[0] if args else Path(__file__).resolve().parent.parent)
    list_path = list_path or root / LIST
    objdirs = objdirs or default_objdirs(root)
    if not objdirs:
        print("no object files: run make first")
        return 1
    errors = check(root, objdirs, list_path, all_objects)
    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
