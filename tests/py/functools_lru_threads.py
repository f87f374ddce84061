# lru_cache shared by threads: every thread gets right values, and the
# counts add up (hits + misses == calls; the cache never holds more than
# maxsize; an unbounded cache ends with exactly the keys called). Under
# STM the hits of the unbounded cache write only the hitting thread's
# count stripe; the bounded cache's hits reorder its dict (a write).
# TMPY_LRU_STRESS_CALLS sets the calls per thread (default short).
import os
import threading
from functools import lru_cache, partial

THREADS = 4
CALLS = int(os.environ.get("TMPY_LRU_STRESS_CALLS", "1500"))
KEYS = 40


def value(k):
    return k * k + 7


@lru_cache(maxsize=None)
def unbounded(k):
    return value(k)


@lru_cache(maxsize=16)
def bounded(k):
    return value(k)


@lru_cache(maxsize=8, typed=True)
def keyed(a, *, b=0):
    return (a, b, type(a).__name__)


add = partial(lambda a, b, c=0: a + b + c, 100)
wrong = []
calls = [0] * THREADS


def worker(t):
    n = 0
    for i in range(CALLS):
        k = (i * 7 + t * 13) % KEYS
        if unbounded(k) != value(k):
            wrong.append(("unbounded", t, k))
        if bounded(k % 24) != value(k % 24):
            wrong.append(("bounded", t, k))
        x = float(k) if i % 2 else k
        if keyed(x, b=t) != (x, t, type(x).__name__):
            wrong.append(("keyed", t, k))
        if add(k, c=t) != 100 + k + t:
            wrong.append(("partial", t, k))
        n += 1
    calls[t] = n


threads = [threading.Thread(target=worker, args=(t,)) for t in range(THREADS)]
for th in threads:
    th.start()
for th in threads:
    th.join()

total = sum(calls)
print("calls", total == THREADS * CALLS)
print("wrong", wrong[:5])
for f, maxsize, keys in ((unbounded, None, KEYS), (bounded, 16, 24), (keyed, 8, None)):
    info = f.cache_info()
    print(f.__name__, "hits+misses==calls", info.hits + info.misses == total,
          "misses>=keys", keys is None or info.misses >= keys, "maxsize", info.maxsize == maxsize,
          "currsize", info.currsize == keys if maxsize is None else info.currsize <= maxsize)
unbounded.cache_clear()
print(unbounded.cache_info())
