# d[k] += 1 under a lock from four threads (exact counts), and inserts of
# unique keys without a lock (every key lands once). A read of the dict
# without its barrier, or an update lost on abort, breaks the counts.
import os
import threading

from support.threads import start_join, switch_point

SCALE = int(os.environ.get("TMPY_THREAD_SCALE", "1"))
THREADS = 4
ROUNDS = 2000 * SCALE
KEYS = ["a", "b", "c", "d", "e"]
counts = {k: 0 for k in KEYS}
lock = threading.Lock()
unique = {}


def counter(t):
    for i in range(ROUNDS):
        k = KEYS[(i + t) % len(KEYS)]
        with lock:
            v = counts[k]
            switch_point()
            counts[k] = v + 1
        unique[(t, i)] = i * t


start_join([threading.Thread(target=counter, args=(t,)) for t in range(THREADS)])
print("counts", sorted(counts.items()))
print("total", sum(counts.values()), "expected", THREADS * ROUNDS)
print("unique keys", len(unique), "expected", THREADS * ROUNDS)
print("values right", all(unique[(t, i)] == i * t for t in range(THREADS) for i in range(ROUNDS)))
