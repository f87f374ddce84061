# collections.deque operations are atomic, as CPython's C deque: four threads
# appending to one deque(maxlen=100) leave exactly 100 items (the maxlen
# discard is part of the append), and threads popping from both ends lose
# and duplicate nothing. switch_point() in each loop makes the threads
# really interleave under the GIL. Longer runs: TMPY_THREAD_SCALE=N.
import os
import sys
from collections import deque

from support.threads import run_threads, switch_point

SCALE = int(os.environ.get("TMPY_THREAD_SCALE", "1"))
N = 2000 * SCALE
sys.setswitchinterval(1e-5)

# appends, both ends, to a bounded deque
d = deque(maxlen=100)


def filler(k):
    for i in range(N):
        if i % 2:
            d.append((k, i))
        else:
            d.appendleft((k, i))
        switch_point()
        if len(d) > 100:
            print("over maxlen:", len(d))


for rnd in range(3):
    d.clear()
    run_threads(filler, [(k,) for k in range(4)])
    print("round", rnd, "len", len(d), "maxlen", d.maxlen, "unique", len(set(d)) == len(d))

# extend / extendleft with a bounded deque
e = deque(maxlen=50)


def extender(k):
    for i in range(N // 10):
        if i % 2:
            e.extend([(k, i, j) for j in range(7)])
        else:
            e.extendleft([(k, i, j) for j in range(7)])
        switch_point()


run_threads(extender, [(k,) for k in range(4)])
print("extend len", len(e))

# pops from both ends: every item taken exactly once
src = deque(range(4 * N))
taken = [[] for _ in range(4)]


def popper(k):
    out = taken[k]
    left = k % 2 == 0
    while True:
        try:
            x = src.popleft() if left else src.pop()
        except IndexError:
            break
        out.append(x)
        switch_point()


run_threads(popper, [(k,) for k in range(4)])
allx = sorted(x for t in taken for x in t)
print("popped", len(allx), "lost or duplicated:", allx != list(range(4 * N)), "left", len(src))

# producers and consumers at once, with rotate in between
q = deque()
got = [[] for _ in range(2)]


def producer(k):
    for i in range(N):
        q.append(k * N + i)
        if i % 50 == 0:
            q.rotate(3)
        switch_point()


def consumer(k):
    idle = 0
    while idle < 20000:
        try:
            got[k].append(q.popleft())
            idle = 0
        except IndexError:
            idle += 1
        switch_point()


run_threads(lambda k: producer(k) if k < 2 else consumer(k - 2), [(k,) for k in range(4)])
rest = list(q)
allq = sorted([x for g in got for x in g] + rest)
print("producer/consumer lost or duplicated:", allq != list(range(2 * N)))
