# Threads writing files through each layer at once: a BufferedWriter and a
# FileIO shared by all threads (unlocked), and TextIOWrapper files in two
# encodings (utf-8 in C, latin-1 in the Python layer) written under a lock
# (CPython's own text layer tears lines written at once): no line lost, torn or
# doubled. (One write() per line: print() writes the line and its end apart.)
import os
import sys
import threading

NTHREADS, NLINES = 4, 1500
path = "/tmp/tmpy_io_write_threads_%d.txt" % os.getpid()
path2 = path + ".latin1"


def check(p, encoding, ways, also=None):
    lines = []
    for name in (p, *also) if also else (p,):
        with open(name, encoding=encoding) as f:
            lines += f.read().splitlines()
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
# Raw writes get their own file: mixed into f they could land between the two
# parts of a line its BufferedWriter flushes in two chunks (CPython too).
path3 = path + ".raw"
h = open(path3, "wb", buffering=0)
# Buffered writes too: CPython's TextIOWrapper and its BufferedWriter written
# from threads at once can tear a line (its text layer hands the buffer
# chunks of pending lines while another thread writes to the buffer).
path4 = path + ".buffered"
b = open(path4, "wb")
# And CPython's TextIOWrapper itself tears lines written from threads at once
# (its pending chunks are not under a lock): text writes take a lock.
text_lock = threading.Lock()


def writer(k):
    for i in range(NLINES):
        line = f"thread {k} line {i} {'é' * (i % 23)}"
        way = (k + i) % 3
        if way == 0:
            with text_lock:
                f.write(line + "\n")
        elif way == 1:
            b.write((line + "\n").encode())
        else:
            h.write((line + "\n").encode())
        with text_lock:
            g.write(line + "\n")


ts = [threading.Thread(target=writer, args=(k,)) for k in range(NTHREADS)]
for t in ts:
    t.start()
for t in ts:
    t.join()
f.close()
g.close()
h.close()
b.close()
check(path, "utf-8", 1, also=(path3, path4))
check(path2, "latin-1", 1)
os.remove(path)
os.remove(path2)
os.remove(path3)
os.remove(path4)
raw = getattr(sys.stdout.buffer, "raw", sys.stdout.buffer)   # no BufferedWriter when unbuffered (-u)
print(type(sys.stdout).__name__, type(sys.stdout.buffer).__name__, type(raw).__name__, sys.stdout.write_through)
