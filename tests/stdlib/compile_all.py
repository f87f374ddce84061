"""Compile (never run) every file named on stdin, one path a line, with
tmpy's compile() in this one process. Stops at the first file refused:
prints `REFUSED path` and the error, exit status 1. Otherwise prints
`accepted N`."""
import sys

count = 0
for line in sys.stdin:
    path = line.rstrip("\n")
    if not path:
        continue
    with open(path, "rb") as f:
        src = f.read()
    try:
        compile(src, path, "exec")
    except Exception as e:
        print("REFUSED", path)
        print("%s: %s (line %s)" % (type(e).__name__, e, getattr(e, "lineno", "?")))
        sys.exit(1)
    count += 1
print("accepted", count)
