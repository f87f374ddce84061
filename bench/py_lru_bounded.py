"""A bounded functools.lru_cache under misses and hits (issue 23): CPU seconds.

    python3 bench/py_lru_bounded.py [N]

miss_evict: N calls with new keys at maxsize N/2 (each miss past the first
N/2 evicts the least recently used entry); mixed: the same with a hit on a
recent key between misses (hits move keys to the end, leaving deleted
entries before the first live one); hit_eq: hits whose key has a Python
__eq__ (counted: one per hit, as CPython)."""
import functools
import sys
import time

N = int(sys.argv[1]) if len(sys.argv) > 1 else 200000


def timed(fn):
    t = time.process_time()
    r = fn()
    return time.process_time() - t, r


def miss_evict():
    f = functools.lru_cache(maxsize=N // 2)(lambda x: x)
    for i in range(N):
        f(i)
    return f.cache_info().misses


def mixed():
    f = functools.lru_cache(maxsize=N // 2)(lambda x: x)
    for i in range(N):
        f(i)
        f(i - 10)
    return f.cache_info().hits


class Key:
    eqs = 0

    def __init__(self, v):
        self.v = v

    def __hash__(self):
        return self.v

    def __eq__(self, other):
        Key.eqs += 1
        return self.v == other.v


def hit_eq():
    f = functools.lru_cache(maxsize=1000)(lambda k: k.v)
    keys = [Key(i) for i in range(100)]
    for k in keys:
        f(k)
    probes = [Key(i) for i in range(100)]
    Key.eqs = 0
    for _ in range(N // 100):
        for k in probes:
            f(k)
    return Key.eqs


for name, fn in (("miss_evict", miss_evict), ("mixed", mixed), ("hit_eq", hit_eq)):
    t, r = timed(fn)
    print(f"{name:12s} {t:8.3f} s  ({r})")
