#!/usr/bin/env python3
"""Checks that C files include only across the boundaries docs/ARCHITECTURE.md
allows ("The vm/ folders"). Usage: tests/check_includes.py [ROOT]; prints one
line per forbidden include (file:line: what and why) and exits 1 if any.

An include "X" is resolved as gcc does with the Makefile's flags: first in the
including file's folder, then vm/ and runtime/ (vm files) or runtime/
(runtime files). The rules below say which files may include which headers;
an include no rule allows, or that names no file, is an error.
"""
import re
import sys
from pathlib import Path

CORE = r"vm/(rt/)?[^/]+"      # the evaluation core (vm/) and its runtime glue (vm/rt/)
ANY_VM = r"vm/.+"

# (including file, included header): regular expressions over paths
# relative to the repository. An include is allowed if one pair matches.
ALLOWED = [
    (r"runtime/.+", r"runtime/[^/]+\.h"),                  # runtime/ is self-contained
    (r"vm/tmpy\.h", r"runtime/tmrt\.h"),                   # the one contract with runtime/
    (ANY_VM, r"vm/tmpy\.h"),
    (ANY_VM, r"vm/objects/[^/]+\.h"),                      # the object model's API is open to all
    (r"vm/compiler/.+", r"vm/compiler/[^/]+\.h"),          # compiler internals stay inside
    (r"vm/compiler/.+", r"vm/opcodes\.h"),
    (CORE, r"vm/(opcodes|eval)\.h"),
    (CORE, r"vm/compiler/compile\.h"),                    # only its public header
    (r"vm/modules/.+", r"vm/modules/[^/]+\.h"),
    (r"vm/modules/sre/.+", r"vm/modules/sre/[^/]+\.h"),      # _sre's private header
    (r"vm/modules/.+", r"vm/(opcodes|eval)\.h"),
    (r"vm/modules/.+", r"vm/compiler/compile\.h"),
    (r"vm/main\.c", r"vm/modules/modules\.h"),             # main registers the modules
    (r"vm/startup\.c", r"vm/modules/.+\.h"),               # the start-up table lists every layout
]

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


def allowed(src, dst):
    return any(re.fullmatch(a, src) and re.fullmatch(b, dst) for a, b in ALLOWED)


def check(root):
    root = Path(root)
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
                elif not allowed(rel, dst):
                    errors.append(f'{rel}:{lineno}: includes {dst}: not allowed across this boundary '
                                  f'(docs/ARCHITECTURE.md, "The vm/ folders")')
    return errors


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
    errors = check(root)
    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
