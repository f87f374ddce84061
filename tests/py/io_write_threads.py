# Threads writing one file through each of its layers at once: the
# TextIOWrapper (print()'s path to sys.stdout), its BufferedWriter and its
# FileIO, and a TextIOWrapper in another encoding (the Python layer) over a
# second file: no line lost, torn or doubled. (One write() per line: CPython's
# print() writes the line and its end separately, which threads may split.)
import os
import sys
import threading

NTHREADS, NLINES = 4, 1500
path = "/tmp/tmpy_io_write_threads_%d.txt" % os.getpid()
path2 = path + ".latin1"


def check(p, encoding, ways):
    with open(p, encoding=encoding) as f:
        lines = f.read().splitlines()
    seen = set()
    ok = True
    for line in lines:
        parts = line.split(" ")
        k, i = int(parts[1]), int(parts[3])
        ok = ok and parts[4] == "é" * (i % 23) and (k, i) not in seen
        seen.add((k, i))
    print(p == path, len(lines), ok and len(seen) == NTHREADS * NLINES * ways // ways)


f = open(path, "w", encoding="utf-8")
g = open(path2, "w", encoding="latin-1")


def writer(k):
    for i in range(NLINES):
        line = f"thread {k} line {i} {'é' * (i % 23)}"
        way = (k + i) % 3
        if way == 0:
            f.write(line + "\n")
        elif way == 1:
            f.buffer.write((line + "\n").encode())
        else:
            f.buffer.raw.write((line + "\n").encode())
        g.write(line + "\n")


ts = [threading.Thread(target=writer, args=(k,)) for k in range(NTHREADS)]
for t in ts:
    t.start()
for t in ts:
    t.join()
f.close()
g.close()
check(path, "utf-8", 1)
check(path2, "latin-1", 1)
os.remove(path)
os.remove(path2)
raw = getattr(sys.stdout.buffer, "raw", sys.stdout.buffer)   # no BufferedWriter when unbuffered (-u)
print(type(sys.stdout).__name__, type(sys.stdout.buffer).__name__, type(raw).__name__, sys.stdout.write_through)
