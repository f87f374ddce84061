# tm.synchronized works on any object: small and big ints, None, bools,
# strings, tuples, floats, types, functions, modules. Equal immutable
# values that are the same object share one monitor.
import sys
import threading

from support.tm_fallback import tm

def f():
    pass


big = 10 ** 30
values = [0, 1, -5, 200, big, None, True, False, "text", (1, 2), 2.5, int, object, f, sys,
          b"bytes", frozenset([1])]
for v in values:
    with tm.synchronized(v):
        with tm.synchronized(v):
            inner = tm.is_owned(v)
        middle = tm.is_owned(v)
    print(type(v).__name__, inner, middle, tm.is_owned(v))

# 4 threads count under the monitor of a small int, and under None
counts = {"int": 0, "none": 0}


def bump(key, lockobj):
    for _ in range(1000):
        with tm.synchronized(lockobj):
            counts[key] += 1


ts = [threading.Thread(target=bump, args=("int", 7)) for _ in range(4)]
ts += [threading.Thread(target=bump, args=("none", None)) for _ in range(4)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print("counts", counts)

# the monitor of 7 held by one thread blocks another thread on 7
held = threading.Event()
release = threading.Event()
seen = []


def holder():
    with tm.synchronized(7):
        held.set()
        release.wait()


def prober():
    seen.append(tm.is_owned(7))


t = threading.Thread(target=holder)
t.start()
held.wait()
p = threading.Thread(target=prober)
p.start()
p.join()
print("main owns 7", tm.is_owned(7), "prober", seen)


def taker():
    with tm.synchronized(7):
        seen.append("taker got 7")


b = threading.Thread(target=taker)
b.start()
b.join(0.05)
print("taker blocked", b.is_alive(), seen)
release.set()
t.join()
b.join()
print("taker done", b.is_alive(), seen)
