# Text files in UTF-8 (the C text layer): random reads, readlines with and
# without a size, iteration, tell() and seek() back to earlier positions, in
# every newline mode, on text whose \r\n pairs and multi-byte characters fall
# anywhere (also across the 8 KiB buffer). Compared with CPython.
import os
import random
import tempfile

random.seed(11)
pieces = ["a", "é", "\n", "\r", "\r\n", "xyz", "€", "😀", " ", "b" * 50]
d = tempfile.mkdtemp()
p = os.path.join(d, "r.txt")
for trial in range(120):
    n = random.choice([5, 40, 400, 3000])
    text = "".join(random.choice(pieces) for _ in range(n))
    with open(p, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    nl = random.choice([None, "", "\n"])
    res = []
    with open(p, encoding="utf-8", newline=nl) as f:
        marks = []
        for step in range(25):
            op = random.choice(["readline", "read", "tell", "seek", "readsize", "next"])
            if op == "readline":
                res.append(len(f.readline()))
            elif op == "readsize":
                res.append(f.readline(random.randint(0, 9)))
            elif op == "read":
                res.append(f.read(random.randint(0, 9)))
            elif op == "next":
                res.append(len(next(f, "")))
                marks = []   # CPython disables tell() inside iteration; start over
                f.seek(0)
            elif op == "tell":
                marks.append((f.tell(), len(res)))
                res.append("T")
            elif op == "seek" and marks:
                pos, _ = random.choice(marks)
                f.seek(pos)
                res.append("S")
        rest = f.read()
        res.append(len(rest))
        if "T" not in res:
            res.append(f.newlines)   # (CPython's tell() may reset them)
    print(trial, repr(nl), res)
os.remove(p)
os.rmdir(d)
