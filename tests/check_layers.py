#!/usr/bin/env python3
"""Checks that vm/'s calls follow the layer table of docs/ARCHITECTURE.md
("## Layers"), from the object files' symbols (nm): a file may use a symbol
defined in its own layer or a lower one, never in a higher one. Also finds
dead exports: a function a file exports that no other file uses (make it
static, or remove it).

Usage: tests/check_layers.py [ROOT] [--objdir DIR ...] [--no-dead] [--all-objects]
(default object directories: build/vm and build/vm-stm, those that exist;
an object file whose vm/ source is gone is stale and skipped unless
--all-objects).
Prints one line per error and exits 1 if any.
"""
import fnmatch
import re
import subprocess
import sys
from pathlib import Path

# Exported functions no other vm/ file has to use: the program's entry, a
# debugging aid to call from gdb, and the STM build's malloc wrappers (the
# linker's --wrap calls them).
DEAD_EXPORT_ALLOWED = {"main", "code_disassemble"}
DEAD_EXPORT_ALLOWED_PREFIXES = ("__wrap_",)


def read_layers(root):
    """The rows of the Layers table: dicts with rank, name, sources, headers."""
    text = (Path(root) / "docs" / "ARCHITECTURE.md").read_text()
    m = re.search(r"^## Layers\n(.*?)(?=^## )", text, re.S | re.M)
    if not m:
        raise SystemExit("docs/ARCHITECTURE.md has no '## Layers' section")
    rows = []
    for line in m.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[0].isdigit():
            continue
        rows.append({
            "rank": int(cells[0]),
            "name": cells[1],
            "sources": re.findall(r"`([^`]+)`", cells[2]),
            "headers": re.findall(r"`([^`]+)`", cells[3]),
        })
    if not rows:
        raise SystemExit("the '## Layers' table of docs/ARCHITECTURE.md has no rows")
    return rows


def _match(pattern, path):
    """How precisely pattern names path (0: not at all)."""
    if pattern.endswith("/"):
        return 1000 + len(pattern) if path.startswith(pattern) else 0
    if "*" in pattern:
        # '*' stays inside one folder
        rx = re.escape(pattern).replace(r"\*", "[^/]*")
        return 2000 + len(pattern) if re.fullmatch(rx, path) else 0
    return 3000 + len(pattern) if path == pattern else 0


def layer_of(rows, path, key="sources"):
    """The row whose `key` patterns name path most precisely, or None."""
    best, score = None, 0
    for row in rows:
        for pat in row[key]:
            s = _match(pat, path)
            if s > score:
                best, score = row, s
    return best


def read_symbols(objdir, root=None):
    """{source path: (defined {name: nm type}, undefined set)} for every .o under objdir
    (with root: only those whose source vm/X.c still exists, not stale ones)."""
    objdir = Path(objdir)
    objs = sorted(objdir.rglob("*.o"))
    if root is not None:
        objs = [o for o in objs
                if (Path(root) / "vm" / o.relative_to(objdir).with_suffix(".c")).is_file()]
    files = {}
    if not objs:
        return files
    out = subprocess.run(["nm", "-g", "-A"] + [str(o) for o in objs],
                         capture_output=True, text=True, check=True).stdout
    for o in objs:
        files["vm/" + o.relative_to(objdir).with_suffix(".c").as_posix()] = ({}, set())
    for line in out.splitlines():
        obj, _, rest = line.partition(": ")
        if not rest:
            obj, _, rest = line.rpartition(":")
        parts = rest.split()
        src = "vm/" + Path(obj).relative_to(objdir).with_suffix(".c").as_posix()
        if len(parts) == 2 and parts[0] == "U":
            files[src][1].add(parts[1])
        elif len(parts) == 3:
            files[src][0][parts[2]] = parts[1]
    return files


def check_calls(rows, files):
    errors = []
    where = {}
    for src, (defined, _) in files.items():
        for name in defined:
            where[name] = src
    for src, (_, undefined) in sorted(files.items()):
        mine = layer_of(rows, src)
        if mine is None:
            errors.append(f"{src}: in no layer of docs/ARCHITECTURE.md's table")
            continue
        for name in sorted(undefined):
            callee = where.get(name)
            if callee is None:
                continue          # runtime/, libc, GMP
            theirs = layer_of(rows, callee)
            if theirs is not None and theirs["rank"] > mine["rank"]:
                errors.append(f"{src} ({mine['name']}) uses {name} of {callee} ({theirs['name']}): "
                              f"a call up the layers (docs/ARCHITECTURE.md, \"Layers\")")
    return errors


def check_dead_exports(builds):
    """builds: read_symbols of each build; a function one build's other files use is alive."""
    used = set()
    for files in builds:
        for _, (_, undefined) in files.items():
            used |= undefined
    errors = []
    for files in builds:
        for src, (defined, _) in sorted(files.items()):
            for name, kind in sorted(defined.items()):
                if (kind == "T" and name not in used and name not in DEAD_EXPORT_ALLOWED
                        and not name.startswith(DEAD_EXPORT_ALLOWED_PREFIXES)):
                    errors.append(f"{src}: {name} is exported but no other file uses it "
                                  f"(make it static or remove it)")
    return errors


def check(root, objdirs, dead=True, all_objects=False):
    rows = read_layers(root)
    errors = []
    builds = [read_symbols(d, None if all_objects else root) for d in objdirs]
    for files in builds:
        errors += check_calls(rows, files)
    if dead:
        errors += check_dead_exports(builds)
    # one build's errors usually repeat in the other
    return list(dict.fromkeys(errors))


def main(argv):
    args = list(argv)
    dead = "--no-dead" not in args
    all_objects = "--all-objects" in args
    args = [a for a in args if a not in ("--no-dead", "--all-objects")]
    objdirs = []
    while "--objdir" in args:
        i = args.index("--objdir")
        objdirs.append(Path(args[i + 1]))
        del args[i:i + 2]
    root = Path(args[0] if args else Path(__file__).resolve().parent.parent)
    if not objdirs:
        objdirs = [d for d in (root / "build" / "vm", root / "build" / "vm-stm") if d.is_dir()]
    if not objdirs:
        print("no object files: run make first")
        return 1
    errors = check(root, objdirs, dead, all_objects)
    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
