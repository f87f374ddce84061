"""For every file named on stdin (one path a line): ast.parse it, print a
checksum of ast.dump(tree, include_attributes=True) and of ast.unparse(tree),
and compile the tree back to code (never run). Prints `path dump unparse`
per file, or `path ERR name` when a step raises."""
import ast
import sys


def checksum(text):
    h = 0
    for b in text.encode("utf-8", "surrogatepass"):
        h = (h * 31 + b) & 0xFFFFFFFF
    return h


for line in sys.stdin:
    path = line.rstrip("\n")
    if not path:
        continue
    with open(path, "rb") as f:
        src = f.read()
    try:
        tree = ast.parse(src, path)
        dump = checksum(ast.dump(tree, include_attributes=True))
        back = checksum(ast.unparse(tree))
        compile(tree, path, "exec")
        print(path, dump, back)
    except Exception as e:
        print(path, "ERR", type(e).__name__)
