#!/usr/bin/env python3
"""Checks that C files include only across the boundaries of the layer table
in docs/ARCHITECTURE.md ("## Layers"), the same table tests/check_layers.py
checks calls against. Usage: tests/check_includes.py [ROOT]; prints one line
per forbidden include (file:line: what and why) and exits 1 if any.

An include "X" is resolved as gcc does with the Makefile's flags: first in the
including file's folder, then vm/ and runtime/ (vm files) or runtime/
(runtime files). The rules:
- runtime/ includes only runtime/ headers, and vm/ reaches runtime/ only
  through vm/tmpy.h (which includes runtime/tmrt.h);
- a vm/ file (or header) may include the public headers of its own layer and
  of the layers below (the table's last column);
- a header no row lists is private to its folder: only files of that folder
  include it;
- start-up, which registers every layout, may include any vm/ header.
An include no rule allows, or that names no file, is an error.
"""
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_layers import layer_of, read_layers  # noqa: E402

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def search_dirs(rel):
    return ["vm", "runtime"] if rel.startswith("vm/") else ["runtime"]


def resolve(root, rel, name):
    here = (root / rel).parent
    for d in [here] + [root / s for s in search_dirs(rel)]:
        p = (d / name).resolve()
        if p.is_file():
            try:
                return p.relative_to(root.resolve()).as_posix()
            except ValueError:
                return None
    return None


def layer_of_file(rows, rel):
    """A header's layer: the row listing it, else the layer of its folder's sources."""
    if rel.endswith(".h"):
        row = layer_of(rows, rel, "headers")
        if row:
            return row
        return layer_of(rows, rel[:-2] + ".c")
    return layer_of(rows, rel)


def allowed(rows, src, dst):
    if src.startswith("runtime/") or dst.startswith("runtime/"):
        return dst.startswith("runtime/") and (src.startswith("runtime/") or
                                               (src == "vm/tmpy.h" and dst == "runtime/tmrt.h"))
    mine = layer_of_file(rows, src)
    if mine is None:
        return False
    if mine["name"] == "startup":
        return True
    public = layer_of(rows, dst, "headers")
    if public is not None:
        return public["rank"] <= mine["rank"]
    # a private header: only its own folder
    return dst.rsplit("/", 1)[0] == src.rsplit("/", 1)[0]


def check(root):
    root = Path(root)
    rows = read_layers(root)
    errors = []
    for top in ("runtime", "vm"):
        for path in sorted((root / top).rglob("*.[ch]")):
            rel = path.relative_to(root).as_posix()
            for lineno, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                dst = resolve(root, rel, m.group(1))
                if dst is None:
                    errors.append(f'{rel}:{lineno}: includes "{m.group(1)}", which is no file of the tree')
                elif not allowed(rows, rel, dst):
                    errors.append(f'{rel}:{lineno}: includes {dst}: not allowed across this boundary '
                                  f'(docs/ARCHITECTURE.md, "Layers")')
    return errors


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
    errors = check(root)
    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
