"""I/O speed: a 50 MB text file read by lines (text and binary), and one
million print() calls to /dev/null. Usage: tmpy bench/io_hierarchy.py FILE
(FILE: a text file of ~50 MB with short lines; made if missing)."""
import os
import sys
import time


def make(path):
    with open(path, "w") as f:
        n = i = 0
        while n < 50_000_000:
            s = "the quick brown fox jumps over the lazy dog %d\n" % i
            f.write(s)
            n += len(s)
            i += 1


def main():
    path = sys.argv[1]
    if not os.path.exists(path):
        make(path)
    t = time.perf_counter()
    n = 0
    with open(path) as f:
        for line in f:
            n += 1
    t1 = time.perf_counter() - t
    t = time.perf_counter()
    with open(path, "rb") as f:
        for line in f:
            n += 1
    t2 = time.perf_counter() - t
    t = time.perf_counter()
    with open(path) as f:
        while f.readline():
            n += 1
    t3 = time.perf_counter() - t
    out = open(os.devnull, "w")
    saved = sys.stdout
    sys.stdout = out
    t = time.perf_counter()
    for i in range(1_000_000):
        print(i)
    t4 = time.perf_counter() - t
    sys.stdout = saved
    out.close()
    print(f"text lines {t1:.2f}s  binary lines {t2:.2f}s  text readline {t3:.2f}s  print x1e6 {t4:.2f}s")


main()
