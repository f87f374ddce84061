"""Threads that run Python loops at once (paper 001's While and Iterator
shapes), for the HTM elision's end-to-end test under the fake's conflict
model: prints what the threads computed, then, under tmpy-gil --tm=htm, a
summary of tm.stats() that the driver checks."""
import sys
import threading

import tm

NTHREADS = int(sys.argv[1]) if len(sys.argv) > 1 else 4
N = int(sys.argv[2]) if len(sys.argv) > 2 else 30000

start = threading.Barrier(NTHREADS)
results = [None] * NTHREADS


def while_loop(n):
    i, s = 0, 0
    while i < n:
        s += i & 7
        i += 1
    return s


def iterator_loop(n):
    s = 0
    for x in range(n):
        s += x % 3
    return s


def work(k):
    start.wait()
    results[k] = (while_loop(N), iterator_loop(N))


threads = [threading.Thread(target=work, args=(k,)) for k in range(NTHREADS)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(results[0], all(r == results[0] for r in results))
st = tm.stats()
if tm.mode() == "htm":
    print("htm", st["htm_started"] > 0, st["htm_committed"] > 0, st["gil_fallbacks"] >= 0,
          len(st["htm_sites"]) > 0, sorted(st["htm_aborts_by_cause"]))
