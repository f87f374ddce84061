# Threads share one binary file object (CPython's buffered files lock
# themselves; its text files do not): concurrent writers, whose flushes
# release the GIL, never tear or lose a line.
import os
import threading

path = "/tmp/tmpy_file_shared_%d.bin" % os.getpid()
NTHREADS, NLINES = 4, 3000

with open(path, "wb") as f:
    def writer(k):
        for i in range(NLINES):
            f.write(f"thread {k} line {i} {'x' * (i % 37)}\n".encode())
    ts = [threading.Thread(target=writer, args=(k,)) for k in range(NTHREADS)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()

with open(path, "rb") as f:
    lines = f.read().decode().splitlines()
print("lines written", len(lines))
seen = set()
ok = True
for line in lines:
    parts = line.split(" ")
    k, i = int(parts[1]), int(parts[3])
    ok = ok and parts[4] == "x" * (i % 37) and (k, i) not in seen
    seen.add((k, i))
print("every line whole and once:", ok and len(seen) == NTHREADS * NLINES)

os.remove(path)
